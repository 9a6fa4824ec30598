"""Perk statuses stay exact in odds (issue 11): the game and ``odds.exact_attack`` read a unit's
statuses through one function (``effects.runtime.adjusted_profiles``), so the exact odds of an
attack on a Pulverised, Corroded target are those of the changed profile, and the game's
sampled attacks agree with them."""

from __future__ import annotations

from dataclasses import replace

from tests.warsurge.game.helpers import entry, scenario, unit, weapon
from warbench.kernel.dice import SeededDice
from warbench.rulesets.warsurge.attack import AttackContext, UnitState
from warbench.rulesets.warsurge.effects.runtime import unit_under
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.state import Phase, Status
from warbench.rulesets.warsurge.game.work import Work, to_unit_state
from warbench.rulesets.warsurge.odds import AttackPlan, exact_attack

GUN = weapon("Gun", attacks=3, power=4, ap=4)
FOE = unit("Foe", models=3, hp=1, defence=4, armour=3)


def _exact(target: object) -> float:
    shooters = unit("Shooters", weapons=[GUN])
    plan = AttackPlan(UnitState.of(shooters), UnitState.of(target), AttackContext(distance=10.0))  # type: ignore[arg-type]
    return exact_attack(plan).expected_hp_lost


def test_p2836_p2652_exact_odds_under_statuses_are_the_changed_profiles_odds() -> None:
    changed = FOE.model_copy(
        update={"profile": FOE.profile.model_copy(update={"defence": 3, "armour": 4})}
    )
    under = unit_under(FOE, ["Pulverise", "Corrode"])
    assert under.profile == changed.profile
    assert _exact(under) == _exact(changed)
    assert _exact(under) > _exact(FOE)  # AP 4+ now ignores the corroded save


def test_the_game_reads_statuses_through_the_same_function_as_odds() -> None:
    state = scenario(
        [[entry(unit("Shooters", weapons=[GUN]))], [entry(FOE)]],
        {0: [(10.0, 10.0)], 1: [(9.0, 20.0), (10.5, 20.0), (12.0, 20.0)]},
        phase=Phase.ATTACK,
    )
    marked = (Status("Pulverise", 1, "u0/Gun"), Status("Corrode", 1, "u0/Gun"))
    state = replace(state, units=(state.units[0], replace(state.units[1], statuses=marked)))
    seen = to_unit_state(Work(state, None, DEFAULT_HOOKS), 1)
    assert seen.profile == unit_under(FOE, ["Pulverise", "Corrode"]).profile
    # the game's sampled attacks agree with the exact mean (400 seeded attacks)
    total = 0
    n = 400
    for seed in range(n):
        after, _ = engine.apply(state, Attack(0, (("Gun", 1),)), dice=SeededDice(seed))
        total += 3 - sum(after.units[1].hp)
    mean = total / n
    exact = _exact(unit_under(FOE, ["Pulverise", "Corrode"]))
    assert abs(mean - exact) < 0.15, (mean, exact)


def test_p1759_status_dice_modifiers_are_exact_in_odds() -> None:
    from warbench.rulesets.warsurge.game.perk_effects import status_dice

    shooters = UnitState.of(unit("Shooters", weapons=[GUN]))
    base = AttackContext(distance=10.0)
    smoke = status_dice(base, (), (Status("Smokescreen", 1, "u1/Smokescreen"),))
    assert smoke.status_modifiers == ((-2, "Smokescreen"),)
    plain = exact_attack(AttackPlan(shooters, UnitState.of(FOE), base)).expected_hp_lost
    hidden = exact_attack(AttackPlan(shooters, UnitState.of(FOE), smoke)).expected_hp_lost
    assert hidden < plain
