"""Exact odds of a Collision attack (``003_fc239e71486306e1.txt`` L1014-1106).

:func:`enumerate_attack` runs the rules function :func:`~.attack.resolve` once per path of D10
faces (at most 10 x 10 x 10) with exact fractions, like the kernel's ``enumerate_outcomes``
does for D6; :func:`sample_attack` runs it with seeded dice (the Monte Carlo cross-check).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from warbench.rulesets.collision.attack import AttackProfile, AttackResult, resolve
from warbench.rulesets.collision.dice import SeededD10


class _PathD10:
    """Follows a fixed path of faces and records where the attack rolls beyond it."""

    def __init__(self, path: list[int]) -> None:
        self.path = path
        self.depth = 0
        self.extended = 0

    def __call__(self, label: str) -> int:
        if self.depth < len(self.path):
            face = self.path[self.depth]
        else:
            face = 1
            self.extended += 1
        self.depth += 1
        return face


def enumerate_attack(p: AttackProfile) -> list[tuple[AttackResult, Fraction]]:
    """Every outcome of the attack with its exact probability (summing to 1)."""
    out: list[tuple[AttackResult, Fraction]] = []
    stack: list[list[int]] = [[]]
    while stack:
        path = stack.pop()
        dice = _PathD10(path)
        result = resolve(p, dice)
        # faces beyond the path were 1s; branch on the other nine faces of each new roll
        full = path + [1] * dice.extended
        for depth in range(len(path), len(full)):
            for face in range(2, 11):
                stack.append(full[:depth] + [face])
        out.append((result, Fraction(1, 10**dice.depth)))
    return out


@dataclass(frozen=True)
class AttackOdds:
    """The distribution of one attack's outcome."""

    cover_miss: Fraction
    hit: Fraction
    crit: Fraction
    slay: Fraction
    immune: Fraction
    injury: dict[int, Fraction]  # injury level of the attack (0: none or missed)
    injury_after: dict[int, Fraction]  # the target's injury level afterwards
    defeated: Fraction

    @property
    def expected_injury(self) -> Fraction:
        """The mean injury level of the attack."""
        return sum((k * p for k, p in self.injury.items()), Fraction(0))

    def to_dict(self) -> dict[str, Any]:
        """Plain data (floats, and exact fractions as strings)."""

        def both(x: Fraction) -> dict[str, Any]:
            return {"p": float(x), "exact": str(x)}

        return {
            "cover_miss": both(self.cover_miss),
            "hit": both(self.hit),
            "crit": both(self.crit),
            "slay": both(self.slay),
            "immune": both(self.immune),
            "defeated": both(self.defeated),
            "expected_injury": float(self.expected_injury),
            "injury": {str(k): both(v) for k, v in sorted(self.injury.items())},
            "injury_after": {str(k): both(v) for k, v in sorted(self.injury_after.items())},
        }


def summarise(outcomes: list[tuple[AttackResult, Fraction]]) -> AttackOdds:
    """Fold outcomes into :class:`AttackOdds`."""
    injury: Counter[int] = Counter()
    after: Counter[int] = Counter()
    cover = hit = crit = slay = immune = defeated = Fraction(0)
    for r, p in outcomes:
        injury[r.injury] += p  # type: ignore[assignment]
        after[r.injury_after] += p  # type: ignore[assignment]
        cover += p if r.stage == "cover" else 0
        immune += p if r.stage == "immune" else 0
        hit += p if r.hit else 0
        crit += p if r.crit else 0
        slay += p if r.stage == "slay" else 0
        defeated += p if r.defeated else 0
    return AttackOdds(
        cover_miss=cover,
        hit=hit,
        crit=crit,
        slay=slay,
        immune=immune,
        injury={k: Fraction(v) for k, v in injury.items()},
        injury_after={k: Fraction(v) for k, v in after.items()},
        defeated=defeated,
    )


def attack_odds(p: AttackProfile) -> AttackOdds:
    """The exact odds of the attack."""
    return summarise(enumerate_attack(p))


def sample_attack(p: AttackProfile, trials: int, seed: int) -> list[AttackResult]:
    """``trials`` attacks with seeded D10s (the same rules function as the exact odds)."""
    dice = SeededD10(seed)
    return [resolve(p, dice) for _ in range(trials)]
