"""The sample board ``hive_city_72x48`` uses every board feature of issue 12, and the text,
SVG and PNG pictures show them (001_d3f5e425c5e1196d.txt §10, §4.2 III, L2360; Perks
000_94ecc6a4c74d351b.txt L95). Older boards draw exactly as before."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from warbench.rulesets.warsurge.battlefield import (
    Base,
    Footprint,
    dump_board,
    load_board,
    render_png,
    render_svg,
    render_text,
    sample_board,
)

HIVE = "hive_city_72x48"


def test_the_hive_city_uses_every_feature() -> None:
    b = sample_board(HIVE)
    t = {p.name: p for p in b.terrain}
    assert any(p.height is not None for p in b.terrain)  # L2360
    assert any(p.level > 0 for p in b.terrain)  # a floor above the board, §4.2 III
    assert any(p.profile is not None for p in b.terrain)  # §10.2 B
    assert any(p.hp is not None for p in b.terrain)  # §10.3
    assert any(p.custom_cover is not None for p in b.terrain)  # §10.4
    assert any(p.connected_to for p in b.terrain) and any(p.exits_to for p in b.terrain)
    assert any(p.gates for p in b.terrain) and any(not p.embark for p in b.terrain)  # §10.5
    assert t["Hab tower"].capacity == math.inf and t["Command bunker"].fire_points == 2
    assert {o.terrain is None for o in b.objectives} == {True, False}  # markers and terrain
    # the flat-board features are there too
    assert any(p.difficult for p in b.terrain) and any(p.dangerous for p in b.terrain)
    assert any(p.impassable for p in b.terrain) and any(p.cover_area for p in b.terrain)
    # §10.5 on the sample: in by the main gate, out by the gate or the hatch
    assert b.can_embark_at("Command bunker") and not b.can_embark_at("Escape hatch")
    assert b.disembark_from("Command bunker") == ["Command bunker", "Escape hatch"]
    assert b.routes_from("Hab tower") == ["Hab tower roof"]


@pytest.mark.parametrize("suffix", [".yaml", ".json"])
def test_the_hive_city_round_trips(tmp_path: Path, suffix: str) -> None:
    b = sample_board(HIVE)
    dump_board(b, tmp_path / f"hive{suffix}")
    assert load_board(tmp_path / f"hive{suffix}") == b


def test_text_map_shows_objectives_and_lists_special_terrain() -> None:
    b = sample_board(HIVE)
    text = render_text(b)
    rows = text.splitlines()[1:49]
    assert rows[47 - 24][8] == "*" and rows[47 - 24][40] == "*"  # the markers
    assert "* Objective Data cache: at (40, 24)" in text
    assert "* Objective Relay: terrain Comms relay" in text
    assert 'Hab tower roof: height 8" (floor at 4"); Transport unlimited' in text
    assert "Command bunker: " in text and "HP 30; profile Command Bunker" in text
    assert "exits to Escape hatch (one way); gate Main gate at (50, 28) in/out" in text
    assert "Chem pipes: custom cover: Defence -1, poisonous fumes" in text


def test_pictures_show_the_features_and_true_bases(tmp_path: Path) -> None:
    b = sample_board(HIVE)
    bikes = [Footprint((30, 8), Base(shape="oval", length_mm=60, width_mm=35))]
    apc = [Footprint((40, 6), Base.hull_of(120, 80), facing=30)]
    units = [("Bikes", 0, bikes), ("APC", 0, apc), ("Troopers", 1, [((36, 42), 0.5)])]
    text = render_text(b, units)
    assert "A: Bikes (player 1, 1 model)" in text and "B: APC" in text
    svg = render_svg(b, units, tmp_path / "hive.svg").read_text()
    for word in ("Data cache", "Main gate", "Escape hatch", "HP 30", "Fire Points 2"):
        assert word in svg, word
    png = render_png(b, units, tmp_path / "hive.png", dpi=40)
    assert png.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("name", ["city_72x48", "open_field_42x32", "ruins_48x48"])
def test_older_boards_draw_exactly_as_before(name: str) -> None:
    """The text map of an older board (no §10 features beyond a Transport Stat) is the one the
    renderer drew before issue 12 (``golden/NAME.txt``, written by that renderer)."""
    b = sample_board(name)
    units = [("Troopers", 0, [((10, 10), 0.5), ((11.2, 10), 0.5)])]
    golden = Path(__file__).parent / "golden" / f"{name}.txt"
    assert render_text(b, units) == golden.read_text(encoding="utf-8")
