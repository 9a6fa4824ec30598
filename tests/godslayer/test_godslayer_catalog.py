"""The Godslayer special abilities catalogue against its book, 002_bb37dae35014233a.txt."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warbench.cli.app import _register, app
from warbench.kernel.errors import ProfileError, UnknownNameError
from warbench.rulesets.collision.glossary import Glossary
from warbench.rulesets.godslayer.catalog import AbilityCatalog, Category

BOOK = Path("/work/shared/seeds/002_bb37dae35014233a.txt")
ROOT = Path(__file__).resolve().parents[2]
PERKS = ROOT / "src/warbench/rulesets/warsurge/data/perks.json"
HEADINGS = {
    "General Abilities": Category.GENERAL,
    "Magic Abilities": Category.MAGIC,
    "Melee Abilities": Category.MELEE,
    "Ranged Abilities": Category.RANGED,
    "Special Movement Abilities": Category.MOVEMENT,
}
runner = CliRunner()
_register()

book_missing = pytest.mark.skipif(not BOOK.exists(), reason="the rulebook text is not here")


def book_lines() -> list[str]:
    return BOOK.read_text(encoding="utf-8").splitlines()


@book_missing
def test_002_count_per_category_matches_the_book() -> None:
    # 002 L3-119: one line per ability under each heading; the "Example:" line (L29) belongs
    # to Overwhelm. Counted from the text, independently of the extraction script.
    counts: dict[Category, int] = {}
    current = None
    for line in book_lines():
        text = line.strip()
        if text in HEADINGS:
            current = HEADINGS[text]
            continue
        if current and text and text != "Name: Description:" and not text.startswith("Example:"):
            counts[current] = counts.get(current, 0) + 1
    catalog = AbilityCatalog.load()
    assert {c: len(catalog.by_category(c)) for c in Category} == counts
    assert counts == {
        Category.GENERAL: 37,
        Category.MAGIC: 4,
        Category.MELEE: 34,
        Category.RANGED: 20,
        Category.MOVEMENT: 2,
    }


@book_missing
def test_002_every_cited_line_range_holds_the_name_and_text() -> None:
    lines = book_lines()
    for a in AbilityCatalog.load().abilities:
        first, last = a.lines
        cited = "\n".join(lines[first - 1 : last])
        assert lines[first - 1].startswith(a.book_name + " "), a.source
        assert cited.startswith(f"{a.book_name} {a.text}"), a.source


@book_missing
def test_002_L6_band_parameters_are_a_troop_of_3_to_6() -> None:
    (band,) = AbilityCatalog.load().find("Band")
    assert band.parameters["models"] == [3, 6]
    assert band.lines == (6, 6)


def test_002_L32_regeneration_has_a_number_and_a_10_plus_roll() -> None:
    (regen,) = AbilityCatalog.load().find("Regeneration/#")
    assert regen.book_name == "Regeneration/#"
    assert regen.parameters["value"].startswith("#")
    assert regen.parameters["roll_target"] == ["10+"]


def test_002_L109_spray_cone_is_half_inch_to_2_and_a_half_over_6_inches() -> None:
    (spray,) = AbilityCatalog.load().find("Spray")
    assert spray.parameters["inches"] == [0.5, 2.5, 6]


def test_002_L28_L29_overwhelm_keeps_its_example_line() -> None:
    (ow,) = AbilityCatalog.load().find("Overwhelm")
    assert ow.lines == (28, 29)
    assert "Example: 5 Overwhelm models" in ow.text
    assert ow.parameters["modifiers"] == ["-1 #MA", "-1 MAV"]


def test_002_L60_L96_critical_is_listed_twice_with_different_texts() -> None:
    found = AbilityCatalog.load().find("critical")
    assert [(a.category, a.lines[0]) for a in found] == [
        (Category.MELEE, 60),
        (Category.RANGED, 96),
    ]
    assert "foregoes the core rule of a natural 10 always hits" in found[1].text
    assert "foregoes" not in found[0].text


def test_002_find_ignores_case_markers_and_suggests_on_typos() -> None:
    catalog = AbilityCatalog.load()
    assert catalog.find("tough")[0].book_name == "Tough/#"
    assert catalog.find("SMITE (x)")[0].book_name == "Smite (X)"
    with pytest.raises(UnknownNameError) as err:
        catalog.find("Regenration")
    assert "Regeneration" in err.value.suggestions


def test_002_search_by_text_and_category() -> None:
    catalog = AbilityCatalog.load()
    poisoned = {a.name for a in catalog.search("poison")}
    assert {"Construct", "Undead", "Non-Corporeal", "Poison"} <= poisoned
    assert [a.name for a in catalog.search("poison", "ranged")] == ["Poison"]
    with pytest.raises(ProfileError, match="general, magic, melee, ranged, movement"):
        catalog.by_category("spells")


def test_002_links_name_existing_perks_and_collision_entries() -> None:
    perks = {p["base_name"] for p in json.loads(PERKS.read_text(encoding="utf-8"))["perks"]}
    glossary = set(Glossary.load().names())
    links = [lk for a in AbilityCatalog.load().abilities for lk in a.links]
    assert len(links) >= 40
    for lk in links:
        assert lk.kind in ("warsurge-perk", "collision")
        assert lk.relation in ("same", "similar")
        assert lk.target in (perks if lk.kind == "warsurge-perk" else glossary), lk


def test_cli_godslayer_abilities_filters_and_json() -> None:
    result = runner.invoke(app, ["godslayer", "abilities", "--category", "movement", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [a["name"] for a in data] == ["Burrow", "Flyer"]
    assert data[0]["source"] == "002_bb37dae35014233a.txt L118"
    result = runner.invoke(app, ["godslayer", "abilities", "--search", "B2B", "--json"])
    assert result.exit_code == 0
    assert len(json.loads(result.output)) > 10


def test_cli_godslayer_show_and_did_you_mean() -> None:
    result = runner.invoke(app, ["godslayer", "show", "Tough"])
    assert result.exit_code == 0, result.output
    assert "002_bb37dae35014233a.txt L41" in result.output
    result = runner.invoke(app, ["godslayer", "show", "Touhg"])
    assert result.exit_code == 2
    assert "did you mean 'Tough'" in result.output


def test_godslayer_show_imports_no_other_ruleset_or_heavy_library() -> None:
    # Start-up (issue 18): the catalogue is plain JSON; showing an ability loads no NumPy,
    # YAML, Jinja2, storage or other ruleset.
    from tests.cli.test_startup_imports import loaded_modules

    heavy = ("numpy", "yaml", "jinja2", "sqlalchemy", "shapely", "warbench.storage")
    rulesets = ("warbench.rulesets.warsurge", "warbench.rulesets.collision")
    modules = loaded_modules("godslayer", "show", "Tough")
    assert "warbench.rulesets.godslayer.catalog" in modules
    found = [m for m in modules if any(m == h or m.startswith(h + ".") for h in heavy + rulesets)]
    assert found == []
