"""Bodyguard's follow-on dice (Perks 000_94ecc6a4c74d351b.txt L1935): the exact odds
(``odds.follow_on_dice``) and the game's die-by-die roll (``odds.roll_attack(…, follow_on=True)``,
which ``game.perk_bodyguard`` uses) are one rule in two forms; a chi-square goodness-of-fit test
on seeded rolls checks that they give the same distribution, for guards and attackers whose
perks change how the dice go (Tough, Emergency Save, Accuracy, Aim)."""

from __future__ import annotations

import math

import pytest

from tests.warsurge.game.helpers import unit, weapon
from warbench.kernel.dice import SeededDice
from warbench.rulesets.warsurge.attack import UnitState
from warbench.rulesets.warsurge.odds import AttackPlan, follow_on_dice, roll_attack

TRIALS = 3000


def _chi2_critical(k: int, z: float = 3.09) -> float:
    """The chi-square quantile for ``k`` degrees of freedom at ``z`` standard deviations
    (Wilson-Hilferty; z = 3.09: the 99.9th percentile)."""
    return k * (1 - 2 / (9 * k) + z * math.sqrt(2 / (9 * k))) ** 3


def _chi2(expected: dict[int, float], counts: dict[int, int], n: int) -> tuple[float, int]:
    """The statistic and its degrees of freedom, bins with fewer than 5 expected merged from
    the top down into their neighbour (an outcome outside ``expected`` lands in the last bin)."""
    keys = sorted(set(expected) | set(counts))
    bins: list[tuple[float, int]] = []
    e_acc, o_acc = 0.0, 0
    for k in keys:
        e_acc += expected.get(k, 0.0) * n
        o_acc += counts.get(k, 0)
        if e_acc >= 5:
            bins.append((e_acc, o_acc))
            e_acc, o_acc = 0.0, 0
    if bins and (e_acc or o_acc):
        e, o = bins.pop()
        bins.append((e + e_acc, o + o_acc))
    stat = sum((o - e) ** 2 / e for e, o in bins)
    return stat, len(bins) - 1


def _plan(guard_perks: list[str], attacker_perks: list[str], **gun: object) -> AttackPlan:
    shooters = unit("A", models=3, perks=attacker_perks,
                    weapons=[weapon("Gun", **({"attacks": 3, "power": 5} | gun))])  # fmt: skip
    guard = unit("Guard", models=1, hp=3, armour=5, perks=guard_perks)
    return AttackPlan(UnitState.of(shooters), UnitState.of(guard))


CASES = [
    pytest.param([], [], {}, id="plain"),
    pytest.param(["Tough"], [], {}, id="Tough"),
    pytest.param(["Emergency Save"], [], {}, id="Emergency Save"),
    pytest.param([], ["Accuracy 4+"], {}, id="Accuracy 4+"),
    pytest.param([], [], {"perks": ["Aim 3+"], "attacks": 4}, id="Aim 3+, 4 Attacks"),
]


@pytest.mark.parametrize(("guard", "attacker", "gun"), CASES)
def test_p1935_follow_on_die_by_die_rolls_fit_the_exact_distribution(
    guard: list[str], attacker: list[str], gun: dict[str, object]
) -> None:
    plan = _plan(guard, attacker, **gun)
    exact = follow_on_dice(plan)
    assert sum(exact.values()) == pytest.approx(1.0)
    assert len(exact) >= 3  # some dice are left over, in more than one count
    dice = SeededDice(20261128)
    counts: dict[int, int] = {}
    for _ in range(TRIALS):
        left = roll_attack(plan, dice, follow_on=True).follow_on
        counts[left] = counts.get(left, 0) + 1
    stat, dof = _chi2(exact, counts, TRIALS)
    assert dof >= 2
    assert stat < _chi2_critical(dof), (stat, dof, exact, counts)


def test_the_chi_square_check_tells_a_wrong_distribution() -> None:
    """The check can fail: the die-by-die rolls of a plain guard against the exact odds of a
    Tough one are refused."""
    plain, tough = _plan([], []), _plan(["Tough"], [])
    dice = SeededDice(20261128)
    counts: dict[int, int] = {}
    for _ in range(TRIALS):
        left = roll_attack(plain, dice, follow_on=True).follow_on
        counts[left] = counts.get(left, 0) + 1
    stat, dof = _chi2(follow_on_dice(tough), counts, TRIALS)
    assert stat > _chi2_critical(dof)
