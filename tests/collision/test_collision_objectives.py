"""Objectives: the D10 tables and the methods of choosing (003_fc239e71486306e1.txt L426-480,
L1153-1391)."""

from __future__ import annotations

import re

import pytest

from tests.collision.helpers import BOOK
from warbench.kernel.errors import RulesError, UnknownNameError
from warbench.rulesets.collision.dice import ScriptedD10, SeededD10
from warbench.rulesets.collision.objectives import (
    MAJOR,
    MINOR,
    Deployment,
    find,
    hybrid_method,
    outside_method,
    random_method,
    selection_method,
)

book_missing = pytest.mark.skipif(not BOOK.exists(), reason="the rulebook text is not here")


def norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower().replace("’", "'"))


@book_missing
def test_003_L1155_L1177_d10_tables_match_the_book() -> None:
    lines = BOOK.read_text(encoding="utf-8").splitlines()
    majors = lines[1155:1165]  # L1156-1165
    minors = lines[1167:1177]  # L1168-1177
    assert [f"{o.roll} {o.name}" for o in MAJOR] == [x.strip() for x in majors]
    assert [norm(f"{o.roll} {o.name}") for o in MINOR] == [norm(x) for x in minors]


@book_missing
def test_003_each_objective_is_at_its_lines_with_its_deployment_and_turn_limit() -> None:
    lines = BOOK.read_text(encoding="utf-8").splitlines()
    for o in (*MAJOR, *MINOR):
        first, last = o.lines
        block = "\n".join(lines[first - 1 : last])
        assert norm(lines[first - 1]) == norm(o.name), o.source
        if o.major:
            assert o.deployment is not None
            dep = re.search(r"Deployment Type: ([\w-]+)", block)
            assert dep and dep.group(1).lower() == o.deployment.value, o.source
            turns = re.search(r"Turn [Ll]imit:? (\d)\+1 per 500 points", block)
            assert turns and int(turns.group(1)) == o.turn_base, o.source


def test_003_L1184_capture_the_chest_turn_limit() -> None:
    chest = find("capture the chest", major=True)
    assert (chest.deployment, chest.turn_limit(400), chest.turn_limit(1000)) == (
        Deployment.LONG_SIDE,
        5,
        7,
    )
    with pytest.raises(RulesError, match="majors set the turn limit"):
        find("High Ground", major=False).turn_limit(500)


def test_003_L451_L458_random_method_rerolls_a_repeated_minor() -> None:
    chosen = random_method(ScriptedD10([3, 7, 7, 7, 2]))
    assert chosen.major.name == "Headhunter"
    assert [m.name for m in chosen.minors] == ["Hallowed Earth", "High Ground"]


def test_003_L475_L480_hybrid_rolls_when_both_chose_the_same_minor() -> None:
    same = hybrid_method(("God's Favor", "gods favor"), ScriptedD10([10, 9, 1]))
    assert same.major.name == "Lost Trinket"
    assert [m.name for m in same.minors] == ["God's Favor", "Tactical Victory"]
    differ = hybrid_method(("High Ground", "Map Carriers"), ScriptedD10([1]))
    assert [m.name for m in differ.minors] == ["High Ground", "Map Carriers"]


def test_003_L462_L468_selection_picks_from_both_players_selections() -> None:
    # D10 1-5 picks the first of two, 6-10 the second
    chosen = selection_method(
        ("Headhunter", "Relic Theft"),
        (("High Ground", "Map Carriers"), ("High Ground", "Survival is Key")),
        ScriptedD10([8, 2, 6]),
    )
    assert chosen.major.name == "Relic Theft"
    assert [m.name for m in chosen.minors] == ["High Ground", "Survival is Key"]
    # player 2's minors both repeat player 1's pick: roll on the chart until they differ
    same = selection_method(
        ("Headhunter", "Headhunter"),
        (("High Ground", "High Ground"), ("High Ground", "High Ground")),
        ScriptedD10([1, 2, 4]),
    )
    assert [m.name for m in same.minors] == ["High Ground", "Past Enemy Lines"]


def test_003_L470_outside_method_and_unknown_names() -> None:
    chosen = outside_method("Supply Raid", ("The Dark Gods", "Glorious Combat"))
    assert chosen.major.deployment is Deployment.CENTER
    with pytest.raises(UnknownNameError) as err:
        outside_method("Supply Raids", ("The Dark Gods", "Glorious Combat"))
    assert "Supply Raid" in err.value.suggestions
    with pytest.raises(RulesError, match="must differ"):
        outside_method("Supply Raid", ("High Ground", "High Ground"))


def test_random_method_always_gives_two_different_minors_over_many_seeds() -> None:
    for seed in range(300):
        chosen = random_method(SeededD10(seed))
        assert chosen.minors[0] != chosen.minors[1]


def test_cli_objectives_table_and_seeded_roll() -> None:
    import json

    from typer.testing import CliRunner

    from warbench.cli.app import _register, app

    _register()
    runner = CliRunner()
    table = runner.invoke(app, ["collision", "objectives", "--json", "--points", "1000"])
    assert table.exit_code == 0, table.output
    data = json.loads(table.output)
    assert data["major"][0]["turn_limit"] == 7 and len(data["minor"]) == 10
    a = runner.invoke(app, ["collision", "objectives", "--roll", "--seed", "5", "--json"])
    b = runner.invoke(app, ["collision", "objectives", "--roll", "--seed", "5", "--json"])
    assert a.exit_code == 0 and a.output == b.output
    rolled = json.loads(a.output)
    assert rolled["seed"] == 5
    assert rolled["minors"][0]["name"] != rolled["minors"][1]["name"]


def test_seeded_d10_is_the_kernels_pcg64_stream() -> None:
    # One dice service: Collision's seeded D10s are NumPy's PCG64 integers(1, 11) for the seed.
    import numpy as np

    d10 = SeededD10(2026)
    faces = [d10(f"d{i}") for i in range(200)]
    expected = np.random.Generator(np.random.PCG64(2026)).integers(1, 11, size=200)
    assert faces == [int(x) for x in expected]
    assert set(faces) == set(range(1, 11))
