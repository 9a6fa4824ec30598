"""Win rates with Wilson score intervals (Wilson 1927), the interval the ladder and reports use.

A draw counts as half a win, as in Elo-style tallies: ``rate = (wins + draws / 2) / games``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (``(0, 1)`` with no trials).

    >>> [round(x, 3) for x in wilson(8, 10)]
    [0.49, 0.943]
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class WinRate:
    """Wins, draws and losses of one side over some games, with the 95% Wilson interval."""

    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        """How many games."""
        return self.wins + self.draws + self.losses

    @property
    def rate(self) -> float:
        """Wins plus half the draws, over the games (0 with no games)."""
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of :attr:`rate`."""
        return wilson(self.wins + self.draws / 2, self.games)

    def __str__(self) -> str:
        lo, hi = self.interval
        return (
            f"{self.rate:.1%} [{lo:.1%}, {hi:.1%}] "
            f"({self.wins}-{self.draws}-{self.losses} of {self.games})"
        )
