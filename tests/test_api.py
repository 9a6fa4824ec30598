"""The top-level Python API (issue 18: ``import warbench`` gives the everyday verbs; docs/api.md).

Each verb must give the same answer as the rules module it wraps (and so as the CLI), and
``import warbench`` must stay cheap (PEP 562 lazy loading).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import warbench
from warbench.kernel.dice import SeededDice
from warbench.kernel.errors import ProfileError, RulesError, UnknownNameError
from warbench.rulesets.warsurge import points
from warbench.rulesets.warsurge.attack import AttackContext, UnitState
from warbench.rulesets.warsurge.game.record import loads_record, replay
from warbench.rulesets.warsurge.io import load_unit, unit_to_data
from warbench.rulesets.warsurge.odds import AttackPlan, exact_attack, sample_attack
from warbench.rulesets.warsurge.roster import validate_roster
from warbench.rulesets.warsurge.roster_io import load_roster, roster_to_data

ROOT = Path(__file__).parents[1]
EX = ROOT / "examples" / "warsurge"
TROOPERS = EX / "troopers_laser.yaml"
SERVITORS = EX / "kataton_servitors.yaml"
STRIKE = EX / "roster_files" / "strike_force.yaml"
SKIRMISH = (EX / "rosters" / "skirmish_a.yaml", EX / "rosters" / "skirmish_b.yaml")


def test_import_warbench_loads_no_heavy_module() -> None:
    code = (
        "import json, sys, warbench; "
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('numpy', 'pydantic', 'shapely', 'yaml', 'sqlalchemy', 'typer', 'rich') "
        "or m.startswith(('warbench.', 'warbench.rulesets')))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert json.loads(out) == []


def test_the_verbs_are_attributes_of_the_package() -> None:
    for name in ("load_unit", "load_roster", "cost", "report", "validate", "odds", "battle"):
        assert callable(getattr(warbench, name)) and name in dir(warbench)
    assert warbench.roll is warbench.api.roll
    with pytest.raises(AttributeError, match="no attribute 'lod_unit'"):
        _ = warbench.lod_unit  # type: ignore[attr-defined]


def test_load_unit_from_a_file_or_its_mapping() -> None:
    unit = warbench.load_unit(TROOPERS)
    assert unit == load_unit(TROOPERS)
    assert warbench.load_unit(str(TROOPERS)) == unit
    assert warbench.load_unit(unit_to_data(unit)) == unit


def test_load_unit_picks_by_name_from_a_file_with_several() -> None:
    ex = EX / "s2_3_attack_examples.yaml"
    sisters = warbench.load_unit(ex, name="sisters repentium")
    assert sisters.name == "Sisters Repentium"
    with pytest.raises(ProfileError, match="Kataton Battle Servitors"):
        warbench.load_unit(ex)
    with pytest.raises(UnknownNameError, match="did you mean 'Sisters Repentium'"):
        warbench.load_unit(ex, name="Sisters Repentum")


def test_cost_is_the_points_model_itemised() -> None:
    unit = load_unit(TROOPERS)
    price = warbench.cost(TROOPERS)
    assert price == points.cost_unit(unit)
    assert [i.label for i in price.items][:2] == ["Body", "Weapon Laser Rifle"]


def test_odds_exact_equal_the_attack_kernel_s2_3_ranged_example() -> None:
    # Core Rules 001_d3f5e425c5e1196d.txt §2.3 Ranged Example: Troopers shoot the Servitors.
    plan = AttackPlan(UnitState.of(load_unit(TROOPERS)), UnitState.of(load_unit(SERVITORS)))
    got = warbench.odds(TROOPERS, SERVITORS)
    want = exact_attack(plan)
    assert got.exact and got.hp_lost == want.hp_lost and got.weapons == ["Laser Rifle"]


def test_odds_without_melee_use_only_weapons_that_shoot_s5_8() -> None:
    # 001 L1287: a 0" weapon attacks only in a Melee; the Sisters carry only Ripper Swords.
    sisters = EX / "sisters_repentium.yaml"
    with pytest.raises(RulesError):
        warbench.odds(sisters, TROOPERS)
    melee = warbench.odds(sisters, TROOPERS, melee=True)
    plan = AttackPlan(
        UnitState.of(load_unit(sisters)),
        UnitState.of(load_unit(TROOPERS)),
        AttackContext(melee=True),
    )
    assert melee.hp_lost == exact_attack(plan).hp_lost


def test_odds_monte_carlo_is_seeded_and_agrees_with_exact() -> None:
    a = warbench.odds(TROOPERS, SERVITORS, monte_carlo=4000, seed=5)
    b = warbench.odds(TROOPERS, SERVITORS, monte_carlo=4000, seed=5)
    plan = AttackPlan(UnitState.of(load_unit(TROOPERS)), UnitState.of(load_unit(SERVITORS)))
    assert not a.exact and a.trials == 4000 and a.hp_lost == b.hp_lost
    assert a.hp_lost == sample_attack(plan, 4000, SeededDice(5)).hp_lost
    exact = warbench.odds(TROOPERS, SERVITORS).expected_hp_lost
    assert abs(a.expected_hp_lost - exact) < 4 * a.confidence_halfwidth() + 1e-9


def test_validate_lists_every_violation_s3_1() -> None:
    roster = load_roster(STRIKE)
    assert warbench.load_roster(STRIKE) == roster
    assert warbench.load_roster(roster_to_data(roster)) == roster
    assert warbench.validate(STRIKE) == []
    report = warbench.report(roster)
    assert report.total == validate_roster(roster).total
    over = roster.model_copy(update={"point_limit": report.total - 1})
    problems = warbench.validate(over)
    assert [v.code.value for v in problems] == ["over-limit"]
    assert "1 pts over the Point Limit" in problems[0].explanation


def test_battle_is_seeded_and_its_record_replays(tmp_path: Path) -> None:
    game = warbench.battle(*SKIRMISH, seed=3)
    again = warbench.battle(*(str(p) for p in SKIRMISH), seed=3)
    assert (game.winner, game.values, game.turns) == (again.winner, again.values, again.turns)
    assert game.record.digests == again.record.digests
    assert game.state.over and game.winner in (None, *game.values)
    assert set(game.values) == {"Red", "Blue"}
    path = tmp_path / "g.jsonl"
    game.record.save(path)
    replayed = replay(loads_record(path.read_text()))
    assert replayed.state.digest() == game.state.digest()


def test_battle_takes_a_warsurge_roster_object() -> None:
    game = warbench.battle(load_roster(STRIKE), SKIRMISH[1], seed=1, turns=4)
    assert "Strike Force" in game.values and game.turns == 4


def test_battle_needs_two_rosters() -> None:
    with pytest.raises(RulesError, match="at least two rosters"):
        warbench.battle(SKIRMISH[0])


def test_roll_gives_the_dice_service_faces_s1_1() -> None:
    got = warbench.roll("3D6", seed=42)
    dice = SeededDice(42)
    want = dice.roll("3D6")
    assert got.total == want and got.faces == dice.log[-1].faces and got.seed == 42
    assert warbench.roll("D6").seed >= 0
