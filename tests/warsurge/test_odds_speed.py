"""The fast paths of the odds engine give the same answers as the slow ones.

* Monte Carlo compiles a weapon once per branch of its weapon-level rolls (Perks
  000_94ecc6a4c74d351b.txt §12.1: "all Users share the same result"), not once per trial.
* Exact odds add ``n`` identical Attack Dice by squaring (with the Emergency Save, §12.4, as a
  three-block power) and track the attacker's HP lost only as far as anything can take it, so
  the work depends on the dice, not on how they are split among models (§5.2 Attack Steps).

Every fast path is checked against a plain die-by-die reference written here.
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

import numpy as np
import pytest

from warbench.kernel.dice import ScriptedDice, SeededDice
from warbench.rulesets.warsurge import odds as odds_module
from warbench.rulesets.warsurge.attack import DieProgram, SaveSpec, UnitState, compile_weapon_use
from warbench.rulesets.warsurge.chart import AttackRequirement
from warbench.rulesets.warsurge.odds import (
    AttackOdds,
    AttackPlan,
    dice_distribution,
    dice_distribution_stepwise,
    die_transitions,
    exact_attack,
    resolve_attack,
    sample_attack,
    slain_counter,
)

from .conftest import plan, unit, weapon

# --------------------------------------------------------------------------------------------
# A die-by-die reference, independent of the array code
# --------------------------------------------------------------------------------------------


def _reference(p: AttackPlan) -> dict[str, dict[int, float]]:
    """Roll every model's Attack Dice one at a time over (Emergency Save, tally, attacker HP
    lost), with the attacker's full HP tracked: the old per-model computation, in plain dicts.
    Only for weapons without weapon-level rolls, Gravity, Deathblow or Retaliate."""
    cap_t, cap_s = p.cap, max(0, p.attacker.current_hp)
    state: dict[tuple[int, int, int], float] = {(int(p.target.emergency_save_used), 0, 0): 1.0}
    for name in p.weapon_order():
        for model in p.attacker.on_table:
            if name not in p.attacker.models[model].weapons:
                continue
            use = compile_weapon_use(
                p.attacker, p.attacker.weapons[name], 1, p.target, p.context, ScriptedDice([])
            )
            trans = die_transitions(use.die)
            for _ in range(use.dice):
                nxt: dict[tuple[int, int, int], float] = defaultdict(float)
                for (e, t, s), q in state.items():
                    for a, b, dt, ds, pr in trans:
                        if a == e or (a == 1 and not use.die.emergency_save):
                            e_out = b if use.die.emergency_save else e
                            nxt[(e_out, min(cap_t, t + dt), min(cap_s, s + ds))] += q * pr
                state = dict(nxt)
    hp: dict[int, float] = defaultdict(float)
    slain: dict[int, float] = defaultdict(float)
    own: dict[int, float] = defaultdict(float)
    slain_of = slain_counter(p)
    for (_e, t, s), q in state.items():
        loss = p.final_loss(t)
        hp[loss] += q
        slain[slain_of(loss)] += q
        own[s] += q
    return {"hp": hp, "slain": slain, "own": own}


def _assert_same(odds: AttackOdds, ref: dict[str, dict[int, float]]) -> None:
    for mine, theirs in (
        (odds.hp_lost, ref["hp"]),
        (odds.models_slain, ref["slain"]),
        (odds.attacker_hp_lost, ref["own"]),
    ):
        for k in set(mine) | {k for k, v in theirs.items() if v > 1e-15}:
            assert mine.get(k, 0.0) == pytest.approx(theirs.get(k, 0.0), abs=1e-12), k


CASES: list[tuple[str, dict[str, Any], list[str]]] = [
    ("plain", {"armour": "4+", "aegis": "5+"}, []),
    ("Emergency Save §12.4", {"armour": "5+", "perks": ["Emergency Save"]}, []),
    ("Volatile §12.5", {"armour": "5+"}, ["Volatile"]),
    ("Volatile + Emergency Save", {"hp": 2, "perks": ["Emergency Save"]}, ["Volatile"]),
    ("Tough §12.4, 3 HP", {"hp": 3, "perks": ["Tough"]}, ["Devastate I"]),
    ("Critical Hit + Obliterate", {"hp": 2, "armour": "4+"}, ["Critical Hit I", "Obliterate I"]),
]


@pytest.mark.parametrize(("label", "target_kw", "perks"), CASES)
@pytest.mark.parametrize(("models", "attacks"), [(6, 1), (3, 2), (1, 6)])
def test_s5_2_pooled_exact_distribution_equals_die_by_die_per_model_reference(
    label: str, target_kw: dict[str, Any], perks: list[str], models: int, attacks: int
) -> None:
    w = weapon("W", attacks=attacks, power=4, ap="6+", perks=perks)
    attacker = unit("A", models=models, weapons=[w], hp=2, armour="5+")
    target = unit("T", models=4, defence=4, **{"hp": 1, **target_kw})
    p = plan(attacker, target)
    _assert_same(exact_attack(p), _reference(p))


def test_the_same_dice_split_among_models_give_the_same_distribution() -> None:
    w1 = weapon("W", attacks=1, power=5, ap="5+")
    w16 = weapon("W", attacks=16, power=5, ap="5+")
    target = unit("T", models=100, defence=4, armour="4+")
    a = exact_attack(plan(unit("A", models=400, weapons=[w1]), target))
    b = exact_attack(plan(unit("A", models=25, weapons=[w16]), target))
    assert a.hp_lost.keys() == b.hp_lost.keys()
    for k in a.hp_lost:
        assert a.hp_lost[k] == pytest.approx(b.hp_lost[k], rel=1e-9, abs=1e-15)


def _cells(p: AttackPlan, monkeypatch: pytest.MonkeyPatch) -> int:
    """Array cells the exact engine convolves or shifts for ``p``."""
    touched = [0]
    for name in ("_shift", "_conv_capped"):
        real = getattr(odds_module, name)

        def counting(a: Any, *rest: Any, _real: Any = real) -> Any:
            touched[0] += int(np.asarray(a).size)
            return _real(a, *rest)

        monkeypatch.setattr(odds_module, name, counting)
    exact_attack(p)
    monkeypatch.undo()
    return touched[0]


def test_exact_work_depends_on_the_dice_not_on_how_many_models_roll_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    target = unit("T", models=60, defence=4, armour="4+")
    many = plan(unit("A", models=120, weapons=[weapon("W", attacks=1, power=5)]), target)
    few = plan(unit("A", models=8, weapons=[weapon("W", attacks=15, power=5)]), target)
    assert _cells(many, monkeypatch) == _cells(few, monkeypatch)


def test_200_models_with_xd6_attacks_against_400_models_is_exact_and_agrees_with_sampling() -> None:
    w = weapon("W", attacks=2, power=4, ap="5+", perks=["xD6 Attacks"])
    p = plan(unit("A", models=200, weapons=[w]), unit("T", models=400, defence=4, armour="4+"))
    exact = exact_attack(p)
    assert exact.exact
    assert sum(exact.hp_lost.values()) == pytest.approx(1.0)
    sampled = sample_attack(p, 3_000, SeededDice(11))
    assert abs(sampled.expected_hp_lost - exact.expected_hp_lost) < 5 * math.sqrt(
        sum((k - exact.expected_hp_lost) ** 2 * q for k, q in exact.hp_lost.items()) / 3_000
    )


@pytest.mark.parametrize("n", [0, 1, 2, 3, 7, 16, 29])
@pytest.mark.parametrize(
    "prog",
    [
        DieProgram(AttackRequirement(3), armour=SaveSpec(4), emergency_save=True),
        DieProgram(
            AttackRequirement(2),
            hits_per_success=2,
            aegis=SaveSpec(5, reroll_failed=True),
            loss_constant=2,
            emergency_save=True,
        ),
        DieProgram(AttackRequirement(4), six_loss_multiplier=3, armour=SaveSpec(6)),
        DieProgram(
            AttackRequirement(3),
            auto_test=True,
            volatile=DieProgram(AttackRequirement(3)),
            emergency_save=True,
        ),
    ],
)
@pytest.mark.parametrize(("cap_t", "cap_s"), [(5, 0), (12, 0), (9, 4)])
def test_squared_dice_distribution_equals_stepwise(
    prog: DieProgram, n: int, cap_t: int, cap_s: int
) -> None:
    fast = dice_distribution(prog, n, cap_t, cap_s)
    slow = dice_distribution_stepwise(prog, n, cap_t, cap_s)
    if cap_s == 0:  # self loss not tracked: the stepwise column 0 holds everything
        slow = slow.sum(axis=3, keepdims=True)
    np.testing.assert_allclose(fast, slow, rtol=1e-9, atol=1e-15)


# --------------------------------------------------------------------------------------------
# Monte Carlo with weapon-level rolls
# --------------------------------------------------------------------------------------------

ROLLED = ["Destroy I", "xD6 Attacks", "+Power I (D3)", "Chaos", "Incantation", "Puncture II"]


@pytest.mark.parametrize("perk", ROLLED)
def test_s12_1_monte_carlo_compiles_once_per_branch_of_weapon_level_rolls(
    perk: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = [0]
    real = odds_module.compile_weapon_use

    def counting(*args: Any) -> Any:
        calls[0] += 1
        return real(*args)

    monkeypatch.setattr(odds_module, "compile_weapon_use", counting)
    w = weapon("W", attacks=2, power=4, ap="5+", perks=[perk])
    target = unit("T", models=5, defence=4, hp=2, armour="4+")
    p = plan(unit("A", models=3, weapons=[w], hp=2), target)
    sample_attack(p, 5_000, SeededDice(3))
    assert calls[0] <= 40  # the tree of at most two rolls: root, branches, leaves


@pytest.mark.parametrize("perks", [["Destroy I", "xD6 Attacks"], ["Chaos", "Volatile"]])
def test_seeded_monte_carlo_with_weapon_level_rolls_is_deterministic(perks: list[str]) -> None:
    w = weapon("W", attacks=2, power=4, ap="5+", perks=perks)
    p = plan(unit("A", models=3, weapons=[w], hp=2), unit("T", models=5, defence=4, hp=2))
    a = sample_attack(p, 3_000, SeededDice(99))
    b = sample_attack(p, 3_000, SeededDice(99))
    assert a.hp_lost == b.hp_lost
    assert a.attacker_hp_lost == b.attacker_hp_lost


def _close(exact: dict[int, float], sampled: dict[int, float], trials: int) -> None:
    for k in set(exact) | set(sampled):
        p, q = exact.get(k, 0.0), sampled.get(k, 0.0)
        assert abs(p - q) < 5 * math.sqrt(max(p * (1 - p), 1e-4) / trials) + 1e-9, (k, p, q)


@pytest.mark.parametrize(
    ("perks", "ctx"),
    [
        (["Destroy II", "xD3 Attacks"], {}),
        (["+Attacks II (D6)", "+AP I (D3)"], {}),
        (["Puncture I", "Destroy I"], {"melee": True}),
        (["Darkside"], {"darkside_power": 2, "darkside_attacks": 1}),
    ],
)
def test_monte_carlo_with_weapon_level_rolls_agrees_with_exact(
    perks: list[str], ctx: dict[str, Any]
) -> None:
    w = weapon("W", attacks=2, power=4, ap="5+", perks=perks)
    attacker = unit("A", models=3, weapons=[w], hp=2, armour="4+")
    p = plan(attacker, unit("T", models=5, defence=4, hp=2, armour="3+"), **ctx)
    exact = exact_attack(p)
    trials = 8_000
    sampled = sample_attack(p, trials, SeededDice(17))
    _close(exact.hp_lost, sampled.hp_lost, trials)
    _close(exact.attacker_hp_lost, sampled.attacker_hp_lost, trials)


def test_one_resolution_rolls_weapon_level_dice_in_the_compilers_order() -> None:
    """The game's path (one trial) still rolls Destroy's D6 first, from the same dice."""
    w = weapon("W", attacks=2, power=4, ap=None, perks=["Destroy I"])
    attacker: UnitState = unit("A", models=1, weapons=[w])
    target = unit("T", models=5, defence=4, hp=3, armour="4+")
    # Destroy 2, Attack Dice 6 and 5 (4+ needed), Armour Saves 1 and 4
    result = resolve_attack(plan(attacker, target), ScriptedDice([2, 6, 5, 1, 4]))
    assert result.hp_lost == 2


@pytest.mark.parametrize(
    ("perks", "target_perks", "ctx"),
    [
        (["Gravity"], [], {}),
        (["Deathblow"], [], {"attacker_point_cost": 100.0, "target_point_cost": 60.0}),
        ([], ["Retaliate I"], {"melee": True}),
        (["Gravity", "Deathblow"], ["Retaliate II"], {
            "melee": True, "attacker_point_cost": 90.0, "target_point_cost": 90.0
        }),
    ],
)  # fmt: skip
def test_s12_5_effects_after_hp_loss_sampled_for_all_trials_agree_with_exact(
    perks: list[str], target_perks: list[str], ctx: dict[str, Any]
) -> None:
    """Gravity, Deathblow (§12.5) and Retaliate (§12.4) are rolled for every trial at once."""
    w = weapon("W", attacks=3, power=5, ap="5+", perks=perks)
    attacker = unit("A", models=3, weapons=[w], hp=2, armour="5+")
    target = unit("T", models=2, defence=4, hp=6, armour="5+", perks=target_perks)
    p = plan(attacker, target, **ctx)
    exact = exact_attack(p)
    trials = 8_000
    sampled = sample_attack(p, trials, SeededDice(23))
    _close(exact.hp_lost, sampled.hp_lost, trials)
    _close(exact.attacker_hp_lost, sampled.attacker_hp_lost, trials)


class _CountingDice(SeededDice):
    """Seeded dice that count how many times they are asked (each call is one batch)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.calls = 0

    def d6_array(self, n: int, label: str) -> Any:
        self.calls += 1
        return super().d6_array(n, label)

    def roll(self, expr: Any, label: str = "roll") -> int:
        self.calls += 1
        return super().roll(expr, label)


@pytest.mark.parametrize(
    ("perks", "target_perks", "ctx"),
    [
        (["Destroy I", "xD3 Attacks"], [], {}),
        (["Gravity", "Deathblow"], ["Retaliate I"], {
            "melee": True, "attacker_point_cost": 90.0, "target_point_cost": 90.0
        }),
    ],
)  # fmt: skip
def test_monte_carlo_rolls_in_batches_not_once_per_trial(
    perks: list[str], target_perks: list[str], ctx: dict[str, Any]
) -> None:
    w = weapon("W", attacks=3, power=5, ap="5+", perks=perks)
    attacker = unit("A", models=3, weapons=[w], hp=2, armour="5+")
    target = unit("T", models=2, defence=4, hp=6, armour="5+", perks=target_perks)
    dice = _CountingDice(5)
    sample_attack(plan(attacker, target, **ctx), 5_000, dice)
    assert dice.calls < 300  # per branch and per step, not per trial (5,000)
