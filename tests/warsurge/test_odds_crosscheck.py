"""Exact odds against Monte Carlo and against icepool (an independent exact dice library).

The exact engine and the sampler interpret the same compiled program in two different ways
(analytic enumeration and physical dice), so their agreement over many random weapon/target
pairs is the check that neither is wrong. icepool computes the simple cases a third way.
"""

from __future__ import annotations

import math
from typing import Any

import icepool
import numpy as np
import pytest

from warbench.kernel.dice import SeededDice
from warbench.rulesets.warsurge.attack import AttackContext, DieProgram, UnitState
from warbench.rulesets.warsurge.chart import AttackRequirement, attack_requirement
from warbench.rulesets.warsurge.odds import (
    AttackPlan,
    attack_odds,
    attack_roll_distribution,
    exact_attack,
    sample_attack,
)

from .conftest import plan, unit, weapon

SAVES = [None, "2+", "3+", "4+", "5+", "6+"]
#: perks that change the per-die program (no weapon-level roll): cheap to sample
DIE_PERKS = [
    "Reroll Attack", "Critical Hit I", "Critical Hit II", "Piercing Hit I", "Piercing Hit II",
    "Dire Hit", "Obliterate I", "Rend", "Penetrate II", "Rupture I", "Rupture II", "Aim 3+",
    "Annihilate I", "Devastate I", "Negate AEGIS", "Damage 4+", "Volatile", "Cumbersome",
]  # fmt: skip
UNIT_PERKS = ["Reinforced", "Resilient", "Evasive", "Accursed", "Emergency Save", "Tough"]


def random_pair(rng: np.random.Generator) -> tuple[UnitState, UnitState, dict[str, Any]]:
    perks = list(rng.choice(DIE_PERKS, size=int(rng.integers(0, 3)), replace=False))
    w = weapon(
        "W",
        attacks=int(rng.integers(1, 4)),
        power=int(rng.integers(1, 11)),
        ap=SAVES[int(rng.integers(0, 6))],
        type=str(rng.choice(["Heavy", "Battle", "Assault"])),
        perks=perks,
    )
    attacker = unit(
        "A",
        models=int(rng.integers(1, 6)),
        weapons=[w],
        hp=int(rng.integers(1, 4)),
        armour=SAVES[int(rng.integers(0, 6))],
        perks=[p for p in ["Accursed"] if rng.random() < 0.2],
    )
    tperks = [p for p in UNIT_PERKS if p != "Accursed" and rng.random() < 0.15]
    target = unit(
        "T",
        models=int(rng.integers(1, 8)),
        defence=int(rng.integers(0, 11)),
        hp=int(rng.integers(1, 4)),
        armour=SAVES[int(rng.integers(0, 6))],
        aegis=SAVES[int(rng.integers(0, 6))],
        perks=tperks,
    )
    ctx = {"melee": bool(rng.random() < 0.3), "cover": bool(rng.random() < 0.3)}
    return attacker, target, ctx


def _assert_close(exact: dict[int, float], sampled: dict[int, float], trials: int) -> None:
    for k in set(exact) | set(sampled):
        p = exact.get(k, 0.0)
        q = sampled.get(k, 0.0)
        se = math.sqrt(max(p * (1 - p), 1e-4) / trials)
        assert abs(p - q) < 5 * se + 1e-9, (k, p, q)


@pytest.mark.parametrize("seed", range(40))
def test_exact_distribution_matches_monte_carlo_for_random_pairs(seed: int) -> None:
    rng = np.random.default_rng(1000 + seed)
    attacker, target, ctx = random_pair(rng)
    p = plan(attacker, target, **ctx)
    exact = exact_attack(p)
    assert sum(exact.hp_lost.values()) == pytest.approx(1.0)
    trials = 20_000
    sampled = sample_attack(p, trials, SeededDice(seed))
    _assert_close(exact.hp_lost, sampled.hp_lost, trials)
    _assert_close(exact.models_slain, sampled.models_slain, trials)
    _assert_close(exact.attacker_hp_lost, sampled.attacker_hp_lost, trials)


@pytest.mark.parametrize(
    "perk", ["+Power I (D3)", "xD6 Attacks", "Destroy I", "Puncture I", "Chaos", "Incantation"]
)
def test_weapon_level_rolls_exact_matches_monte_carlo(perk: str) -> None:
    w = weapon("W", attacks=2, power=4, ap="5+", perks=[perk])
    attacker = unit("A", models=3, weapons=[w], hp=2, armour="4+")
    target = unit("T", models=5, defence=4, hp=2, armour="3+")
    p = plan(attacker, target)
    exact = exact_attack(p)
    trials = 8_000
    sampled = sample_attack(p, trials, SeededDice(7))
    _assert_close(exact.hp_lost, sampled.hp_lost, trials)
    _assert_close(exact.attacker_hp_lost, sampled.attacker_hp_lost, trials)


@pytest.mark.parametrize("step", range(1, 16))
@pytest.mark.parametrize("reroll", [False, True])
def test_attack_dice_probability_matches_icepool(step: int, reroll: bool) -> None:
    req = AttackRequirement(step)
    thresholds = req.thresholds

    def chain(*faces: int) -> bool:
        return all(f >= t for f, t in zip(faces, thresholds, strict=False))

    one_try = icepool.map(chain, *([icepool.d6] * len(thresholds)))
    p = float(one_try.probability(True))
    if reroll:
        p = p + (1 - p) * p
    prog = DieProgram(requirement=req, reroll_failed=reroll)
    mine = sum(q for (ok, _six, _one), q in attack_roll_distribution(prog) if ok)
    assert mine == pytest.approx(p)


@pytest.mark.parametrize(
    ("models", "attacks", "power", "defence", "armour", "aegis", "ap"),
    [
        (20, 2, 3, 3, 4, 5, None),
        (5, 3, 5, 3, 4, 5, 2),
        (6, 2, 3, 5, 3, None, 6),
        (10, 1, 2, 8, 6, 6, None),
    ],
)
def test_unit_attack_distribution_matches_icepool(
    models: int,
    attacks: int,
    power: int,
    defence: int,
    armour: int,
    aegis: int | None,
    ap: int | None,
) -> None:
    req = attack_requirement(power, defence)
    assert req is not None and not req.automatic
    thresholds = req.thresholds
    armour_needed = None if ap is not None and ap <= armour else armour

    def one_die(*faces: int) -> int:
        hit = all(f >= t for f, t in zip(faces, thresholds, strict=False))
        a, g = faces[len(thresholds)], faces[len(thresholds) + 1]
        saved = (armour_needed is not None and a >= armour_needed) or (
            aegis is not None and g >= aegis
        )
        return int(hit and not saved)

    die = icepool.map(one_die, *([icepool.d6] * (len(thresholds) + 2)))
    hp = 10
    total = (models * attacks) @ die
    expected = {int(k): float(total.probability(k)) for k in total.outcomes()}
    capped: dict[int, float] = {}
    for k, p in expected.items():
        capped[min(k, hp)] = capped.get(min(k, hp), 0.0) + p
    attacker = unit("A", models=models, weapons=[weapon("W", attacks=attacks, power=power, ap=ap)])
    target = unit("T", models=hp, defence=defence, armour=f"{armour}+", aegis=aegis)
    mine = exact_attack(plan(attacker, target)).hp_lost
    for k in set(capped) | set(mine):
        assert mine.get(k, 0.0) == pytest.approx(capped.get(k, 0.0), abs=1e-12)


def test_enumeration_too_large_falls_back_to_monte_carlo_with_interval() -> None:
    wild = weapon("Wild", attacks=1, power=1, perks=["Wildcard"])
    attacker = unit("A", models=2, weapons=[wild])
    target = unit("T", models=5, defence=4, armour="5+")
    p = AttackPlan(attacker, target, AttackContext())
    from warbench.kernel.errors import EnumerationTooLarge

    with pytest.raises(EnumerationTooLarge):
        exact_attack(p, max_paths=100)
    odds = attack_odds(p, fallback_trials=2_000, seed=3, max_paths=100)
    assert not odds.exact
    assert odds.trials == 2_000
    assert odds.confidence_halfwidth() > 0
    assert "Monte Carlo" in odds.notes[0]
