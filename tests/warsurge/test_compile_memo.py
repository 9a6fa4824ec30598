"""The memo of compiled weapon uses (issue 10, session 28): ``odds._compile_one`` keeps the
:class:`WeaponUse` of a compilation that made no weapon-level roll by ``attack.compile_key``.
Each test compiles one use, then another that differs in one thing the compiler reads (a
status of the Target, its Emergency Save, its models, the context …), and checks that the
second answer is the compiler's own: a key that left that thing out would give the first
answer again. Uses that roll (+Power D3, Arc's D3 …) are compiled with the game's dice as
before, roll for roll.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from warbench.kernel.dice import ScriptedDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge import odds
from warbench.rulesets.warsurge.attack import (
    AttackContext,
    ModelState,
    UnitState,
    WeaponUse,
    compile_weapon_use,
)
from warbench.rulesets.warsurge.odds import AttackPlan

from .conftest import unit, weapon


@pytest.fixture(autouse=True)
def _empty_memo() -> Iterator[None]:
    odds._COMPILED.clear()
    yield
    odds._COMPILED.clear()


def _memoised(p: AttackPlan, name: str) -> WeaponUse:
    """The game's path (one trial): the memo, or the compiler with the plan's dice."""
    groups = odds._compile_groups(p, name, 1, ScriptedDice([]))
    assert len(groups) == 1
    return next(iter(groups))


def _direct(p: AttackPlan, name: str) -> WeaponUse:
    w, users = p.attacker.weapons[name], p.users_of(name)
    return compile_weapon_use(p.attacker, w, users, p.target, p.context, ScriptedDice([]))


def _same(a: WeaponUse, b: WeaponUse) -> bool:
    return a == b and a.notes == b.notes


def _check_pair(first: AttackPlan, second: AttackPlan, name: str = "Gun") -> None:
    """``second`` compiles to another use than ``first``, and the memo answers each rightly."""
    assert not _same(_direct(first, name), _direct(second, name)), "the variant changes nothing"
    assert _same(_memoised(first, name), _direct(first, name))
    assert len(odds._COMPILED) == 1
    assert _same(_memoised(second, name), _direct(second, name))
    assert len(odds._COMPILED) == 2  # a key of its own
    assert _same(_memoised(first, name), _direct(first, name))  # and the first still its own


def _with_models(u: UnitState, models: list[ModelState]) -> UnitState:
    """The same profiles (the same objects), other models."""
    return replace(u, models=models)


def _plan(a: UnitState, t: UnitState, **ctx: Any) -> AttackPlan:
    return AttackPlan(a, t, AttackContext(**ctx))


def test_memo_key_target_emergency_save_used() -> None:
    gun = weapon()
    a = unit("A", weapons=[gun])
    t = unit("T", perks=["Emergency Save"])
    spent = replace(t, emergency_save_used=True)
    assert spent.profile is t.profile
    _check_pair(_plan(a, t), _plan(a, spent))


def test_memo_key_target_immortal_blocks_deathblow_L1541() -> None:
    gun = weapon(perks=["Deathblow"])
    a = unit("A", weapons=[gun])
    t = unit("T", hp=3)
    immortal = replace(t, immortal_left=2)
    costs = {"attacker_point_cost": 100.0, "target_point_cost": 50.0}
    _check_pair(_plan(a, t, **costs), _plan(a, immortal, **costs))


def test_memo_key_target_save_upgrades_follow_living_models() -> None:
    shield = weapon("Shield", range=0, deflect=2)
    gun = weapon()
    a = unit("A", weapons=[gun])
    t = unit("T", models=2, weapons=[shield], armour=5)
    dead = _with_models(t, [ModelState(0, ("Shield",), removed=True), ModelState(1, ("Shield",))])
    none_left = _with_models(t, [ModelState(1, ()), ModelState(1, ())])
    _check_pair(_plan(a, t), _plan(a, none_left))
    odds._COMPILED.clear()
    assert _same(_memoised(_plan(a, dead), "Gun"), _direct(_plan(a, dead), "Gun"))


def test_memo_key_attacker_save_upgrades_for_retaliate() -> None:
    shield = weapon("Shield", range=0, deflect=2)
    gun = weapon()
    a = unit("A", models=2, weapons=[gun, shield], armour=5)
    bare = _with_models(a, [ModelState(1, ("Gun",)), ModelState(1, ("Gun",))])
    t = unit("T", perks=["Retaliate I"])
    _check_pair(_plan(a, t, melee=True), _plan(bare, t, melee=True))


def test_memo_key_target_profile_under_a_status() -> None:
    gun = weapon()
    a = unit("A", weapons=[gun])
    t = unit("T", defence=4)
    shaken = unit("T", defence=6)  # a status's adjusted profile is another profile object
    _check_pair(_plan(a, t), _plan(a, shaken))


def test_memo_key_context_status_modifiers_and_cover() -> None:
    gun = weapon()
    a = unit("A", weapons=[gun])
    t = unit("T")
    _check_pair(_plan(a, t), _plan(a, t, status_modifiers=((-2, "Smokescreen"),)))
    odds._COMPILED.clear()
    _check_pair(_plan(a, t), _plan(a, t, cover=True))


def test_memo_key_users() -> None:
    gun = weapon()
    a = unit("A", models=3, weapons=[gun])
    fewer = _with_models(a, [ModelState(1, ("Gun",)), ModelState(1, ()), ModelState(1, ())])
    t = unit("T")
    _check_pair(_plan(a, t), _plan(fewer, t))


def test_memo_key_attacker_profile() -> None:
    gun = weapon()
    plain = unit("A", weapons=[gun])
    accurate = unit("A", weapons=[gun], perks=["Accuracy 4+"])
    assert plain.weapons["Gun"] is accurate.weapons["Gun"]
    t = unit("T")
    _check_pair(_plan(plain, t), _plan(accurate, t))


def test_memo_key_weapon_profile() -> None:
    a = unit("A", weapons=[weapon(power=4)])
    stronger = replace(a, weapons={"Gun": weapon(power=8)})  # the same unit profile
    assert stronger.profile is a.profile
    t = unit("T")
    _check_pair(_plan(a, t), _plan(stronger, t))


def test_memo_key_darkside_hp() -> None:
    """Darkside (§12.5) buys up to +3 Power and +3 Attacks, never more HP than the unit has:
    the same unit (profile, models, users) with less HP left is refused."""
    gun = weapon(perks=["Darkside"])
    a = unit("A", models=3, weapons=[gun], hp=2)
    hurt = _with_models(a, [ModelState(1, ("Gun",)) for _ in range(3)])
    t = unit("T")
    rich = _plan(a, t, darkside_power=3, darkside_attacks=1)
    poor = _plan(hurt, t, darkside_power=3, darkside_attacks=1)
    assert rich.users_of("Gun") == poor.users_of("Gun") == 3
    assert _memoised(rich, "Gun").dice == 3 * 2
    with pytest.raises(RulesError, match="Darkside risks 4 HP"):
        _memoised(poor, "Gun")


def test_memo_key_arc_counts_models_a_roll_is_still_rolled() -> None:
    """Arc I (§12.5): D3 Attacks against a unit of 5 models or more. Against 4 the use makes
    no roll and is memoised; against 5 (the same profile) the D3 is rolled on the game's dice."""
    gun = weapon(perks=["Arc I"])
    a = unit("A", weapons=[gun])
    four = unit("T", models=4)
    five = _with_models(four, [ModelState(1, ("Gun",)) for _ in range(5)])
    assert _memoised(_plan(a, four), "Gun").dice == 1
    dice = ScriptedDice([6])  # a D3 of 3
    groups = odds._compile_groups(_plan(a, five), "Gun", 1, dice)
    assert dice.remaining == 0
    assert next(iter(groups)).dice == 4


def test_weapon_level_rolls_are_made_every_use() -> None:
    """+Power I (D3) rolls each use: never memoised, the game's dice give each use its roll."""
    gun = weapon(perks=["+Power I (D3)"], power=4)
    a = unit("A", weapons=[gun])
    t = unit("T", defence=4)
    for face, power in ((1, 5), (6, 7), (3, 6)):
        dice = ScriptedDice([face])
        use = next(iter(odds._compile_groups(_plan(a, t), "Gun", 1, dice)))
        assert dice.remaining == 0
        assert f"Power 4 → {power}" in " ".join(use.notes)
    assert all(v[1] is None for v in odds._COMPILED.values())


def test_memo_key_distance_by_barrier_bands_L1473() -> None:
    """Barrier (§12.4) reads the distance by bands: 13" and 20" are one use, 13" and 30" two;
    the models in sight are not read by the compiler at all."""
    gun = weapon()
    a = unit("A", weapons=[gun])
    t = unit("T", perks=["Barrier"])
    near = _plan(a, t, distance=13.0, los_models=frozenset({0}))
    same_band = _plan(a, t, distance=20.0)
    far = _plan(a, t, distance=30.0)
    _check_pair(near, far)
    assert _same(_memoised(same_band, "Gun"), _direct(same_band, "Gun"))
    assert len(odds._COMPILED) == 2  # 20" found the 13" use


class _OwnRolls(ScriptedDice):
    """Dice that roll their own way (like the odds engine's): the memo asks the compiler first
    on dice that stop it at its first roll."""

    def roll(self, expr: Any, label: str = "roll") -> int:
        return super().roll(expr, label)


def test_dice_with_their_own_roll_are_probed_first() -> None:
    gun = weapon()
    rolling = weapon("Gun", perks=["+Power I (D3)"])
    a = unit("A", weapons=[gun])
    b = unit("B", weapons=[rolling])
    t = unit("T")
    use = next(iter(odds._compile_groups(_plan(a, t), "Gun", 1, _OwnRolls([]))))
    assert _same(use, _direct(_plan(a, t), "Gun"))
    dice = _OwnRolls([6])
    rolled = next(iter(odds._compile_groups(_plan(b, t), "Gun", 1, dice)))
    assert dice.remaining == 0 and "Power 4 → 7" in " ".join(rolled.notes)
    assert sorted(v[1] is None for v in odds._COMPILED.values()) == [False, True]


def test_memo_key_point_costs_by_which_is_greater_L3670() -> None:
    """Might I (+1 in a Melee against a Target of equal or higher Point Cost, P L321-323) reads
    the Point Costs only by which is greater: 100 against 120 and 50 against 60 are one use,
    100 against 80 another."""
    axe = weapon("Gun", range=0, perks=["Might I"])
    a = unit("A", weapons=[axe])
    t = unit("T")
    higher = _plan(a, t, melee=True, attacker_point_cost=100.0, target_point_cost=120.0)
    lower = _plan(a, t, melee=True, attacker_point_cost=100.0, target_point_cost=80.0)
    also_higher = _plan(a, t, melee=True, attacker_point_cost=50.0, target_point_cost=60.0)
    _check_pair(higher, lower)
    assert _same(_memoised(also_higher, "Gun"), _direct(also_higher, "Gun"))
    assert len(odds._COMPILED) == 2
