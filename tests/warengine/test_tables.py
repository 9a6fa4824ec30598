"""Every point of the data files against the book's own text (004_f4ea5693af0644ce.txt)."""

from __future__ import annotations

import re

import pytest
import yaml
from we_helpers import BOOK

from warbench.rulesets.warengine.tables import catalogue

pytestmark = pytest.mark.skipif(not BOOK.exists(), reason="rulebook text not available")


def book_lines() -> list[str]:
    return BOOK.read_text(encoding="utf-8").splitlines()


def cost_on_line(line: str) -> int:
    m = re.search(r"([+-])\s*(\d+)\s*point", line)
    assert m, line
    return int(m.group(2)) * (1 if m.group(1) == "+" else -1)


def _entries() -> list[tuple[str, str, int, int]]:
    cat = catalogue()
    out = [("personal tweak", n, t.cost, t.line) for n, t in cat.personal_tweaks.items()]
    out += [("weapon tweak", n, t.cost, t.line) for n, t in cat.weapon_tweaks.items()]
    out += [("unit tweak", n, t.cost, t.line) for n, t in cat.unit_tweaks.items()]
    out += [("special power", n, t.cost, t.line) for n, t in cat.special_powers.items()]
    return out


@pytest.mark.parametrize(("kind", "name", "cost", "line"), _entries())
def test_004_tweak_and_power_lists_cost_matches_book_line(
    kind: str, name: str, cost: int, line: int
) -> None:
    # 004_f4ea5693af0644ce.txt Special Powers / Personal / Weapon / Unit Tweaks: each cost line
    lines = book_lines()
    assert cost_on_line(lines[line - 1]) == cost
    heading = " ".join(lines[line - 7 : line - 1]).replace("*", "").lower()
    assert name.lower() in heading


def test_004_lists_are_complete() -> None:
    # 004_f4ea5693af0644ce.txt lists: 16 flaws + 37 edges, 9 + 18 weapon tweaks, 5 unit tweaks
    cat = catalogue()
    assert len(cat.personal_tweaks) == 53
    assert len(cat.weapon_tweaks) == 27
    assert len(cat.unit_tweaks) == 5
    assert len(cat.special_powers) == 58


def _chart(first: int, last: int) -> list[list[str]]:
    return [ln.split("\t") for ln in book_lines()[first - 1 : last]]


def test_004_troop_builder_figure_type_table() -> None:
    # 004_f4ea5693af0644ce.txt Troop Builder: Figure Type Table (lines 653-658)
    cat = catalogue()
    rows = _chart(653, 658)
    for code, row in zip("TECLMH", rows, strict=True):
        ft = cat.figure_types[code]
        assert (ft.points, ft.max_tweak_points, ft.max_hero_points) == (
            int(row[1]),
            int(row[3]),
            int(row[4]),
        )


@pytest.mark.parametrize(
    ("table", "first", "last"),
    [
        ("movement", 664, 672),
        ("defense", 682, 691),
        ("mental", 695, 703),
        ("control_radius", 720, 727),
        ("range", 768, 777),
        ("attack_value", 785, 794),
    ],
)
def test_004_troop_builder_point_tables_match_book(table: str, first: int, last: int) -> None:
    # 004_f4ea5693af0644ce.txt Troop Builder: Movement, Defense, Mental, Control Radius, Range
    # and Attack Value tables, row by row, points and per-type maxima
    t = getattr(catalogue(), table)
    rows = [r for r in _chart(first, last) if r and r[0].strip()]
    assert len(rows) == len(t.rows)
    for row, ours in zip(rows, t.rows, strict=True):
        parts = row[0].split() if len(row) == 1 else row
        points = int(parts[1]) if len(parts) > 1 and parts[1].strip().isdigit() else None
        if points is None:  # "CR Points Notes" table has the points after a space
            points = int(row[1].split()[0])
        assert points == ours.points, row
        notes = " ".join(row[2:]) if len(row) > 2 else ""
        m = re.search(r"Max for Type: ([A-Z,]+)", notes)
        if m:
            for code in m.group(1).split(","):
                assert t.max_for(code) == ours.value, (code, row)
        if table == "attack_value":
            assert ours.weapon_class == notes.strip().lower().replace("неаvy", "heavy")


def test_004_troop_builder_area_effect_multipliers() -> None:
    # 004_f4ea5693af0644ce.txt Troop Builder: Area Effect Table (lines 803-805)
    ae = catalogue().area_effect
    assert {k: float(v) for k, v in ae.items()} == {"2x": 1.5, "3x": 2.0, "4x": 3.0}


def test_004_weapon_slot_allowance() -> None:
    # 004_f4ea5693af0644ce.txt Weapon Slot Allowance (lines 752-762)
    cat = catalogue()
    assert {c: t.slots for c, t in cat.figure_types.items()} == {
        "T": 2, "E": 3, "C": 4, "L": 3, "M": 4, "H": 5,
    }  # fmt: skip


def test_004_data_files_are_valid_yaml() -> None:
    # 004_f4ea5693af0644ce.txt Troop Building Charts V2.1: shipped as data files
    from importlib import resources

    folder = resources.files("warbench.rulesets.warengine").joinpath("data")
    for name in ("tables.yaml", "personal_tweaks.yaml", "weapon_tweaks.yaml", "unit_tweaks.yaml"):
        assert yaml.safe_load(folder.joinpath(name).read_text())
