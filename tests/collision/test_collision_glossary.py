"""The Collision abilities glossary against the book (003_fc239e71486306e1.txt L1583-2289)."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from tests.collision.helpers import BOOK
from warbench.cli.app import _register, app
from warbench.kernel.errors import UnknownNameError
from warbench.rulesets.collision.glossary import EntryKind, Glossary

runner = CliRunner()
_register()
book_missing = pytest.mark.skipif(not BOOK.exists(), reason="the rulebook text is not here")


def norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def glossary_lines() -> list[str]:
    return BOOK.read_text(encoding="utf-8").splitlines()


@book_missing
def test_003_L1583_L2289_every_cited_range_starts_with_the_name_and_holds_the_text() -> None:
    lines = glossary_lines()
    for e in Glossary.load().entries:
        first, last = e.lines
        cited = norm("".join(lines[first - 1 : last]))
        assert cited.startswith(norm(e.name)), e.source
        assert norm(e.text) in cited, e.source


@book_missing
def test_003_glossary_counts_match_the_books_cost_and_reaction_marks() -> None:
    body = glossary_lines()[1582:2289]
    glossary = Glossary.load()
    # every "Cost:" of the glossary is one entry's listed cost
    assert sum(line.count("Cost:") for line in body) == sum(
        e.cost is not None for e in glossary.entries
    )
    # every "(RE)" marks a reaction, except the one inside "No Reactions" (L2029)
    marks = sum(line.count("(RE)") for line in body)
    assert marks - 1 == len(glossary.search(kind=EntryKind.REACTION)) == 25
    assert len(glossary.entries) == 129


@pytest.mark.parametrize(
    ("name", "endurance", "mana", "weapon_ec"),
    [
        ("Barrage", 1, 2, True),  # L1602 "Cost: 1E2M+Weapon EC"
        ("Block 2", 1, 0, False),  # L1615 "Cost: 1E"
        ("Block 4", 2, 0, False),  # L1618 "Cost: 2E"
        ("Meteor", 2, 4, False),  # L2011 "Cost: 2E4M"
        ("Pain Warp", 2, 1, False),  # L2045 "Cost: 1M2E" (mana first)
        ("Sudden Strike", 1, 0, True),  # L2202 "Cost:1E+Weapon EC" (no space)
        ("Checkmate", 0, 3, True),  # L1659 "Cost: 3M+Weapon EC"
    ],
)
def test_003_listed_costs(name: str, endurance: int, mana: int, weapon_ec: bool) -> None:
    cost = Glossary.load().get(name).cost
    assert cost is not None
    assert (cost.endurance, cost.mana, cost.weapon_ec) == (endurance, mana, weapon_ec)


def test_003_L908_L909_status_effects_are_stun_poison_hex_and_flee() -> None:
    statuses = {e.name for e in Glossary.load().search(kind="status")}
    assert statuses == {"Stun", "Poison X", "Hex X", "Flee"}


def test_003_L1839_split_names_are_joined() -> None:
    glossary = Glossary.load()
    assert glossary.get("Hyper Cutter").lines == (1839, 1845)
    assert glossary.get("Out-Maneuver").kind is EntryKind.REACTION
    assert glossary.get("Few Stood Against Many").kind is EntryKind.EFFECT


def test_003_fear_effects_are_marked() -> None:
    fear = {e.name for e in Glossary.load().entries if e.fear}
    assert fear == {"Assess the Threat", "Check", "Frighten", "Majesty", "Shrieking Armor"}


def test_003_L1641_caustic_burst_parameters() -> None:
    p = Glossary.load().get("Caustic Burst").parameters
    assert p["type"] == "Acid"
    assert p["radius"] == "2"
    assert p["on_crit"] == "Poison 2"
    assert p["modifiers"] == ["Att+2", "S-Pow+2"]


def test_003_card_names_with_numbers_resolve() -> None:
    glossary = Glossary.load()
    assert glossary.resolve("Poison 2")[0].name == "Poison X"
    assert glossary.resolve("Poison 2")[1] == 2
    assert glossary.resolve("block 2") == (glossary.get("Block 2"), None)
    assert glossary.resolve("Luck 2")[0].name == "Luck"
    with pytest.raises(UnknownNameError) as err:
        glossary.resolve("Backstabb")
    assert "Backstab" in err.value.suggestions


def test_cli_collision_abilities_search_and_kind() -> None:
    result = runner.invoke(app, ["collision", "abilities", "--search", "immune to", "--json"])
    assert result.exit_code == 0, result.output
    names = [e["name"] for e in json.loads(result.output)]
    assert "Immune to Fire" in names
    result = runner.invoke(app, ["collision", "abilities", "--kind", "status"])
    assert result.exit_code == 0
    assert "Poison X" in result.output
    result = runner.invoke(app, ["collision", "abilities", "--kind", "spell"])
    assert result.exit_code == 2
    assert "action, reaction, effect, status, term" in result.output
