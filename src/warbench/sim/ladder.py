"""The strength ladder: each pairing of player kinds over both roster assignments, both seat
orders and every sample board, with win rates and 95% Wilson intervals (issue 15).

A pairing X vs Y plays ``games`` lab games with X on roster A and Y on roster B, and as many
with the rosters exchanged; each lab batch alternates the seats and rotates the boards
(:mod:`warbench.sim.lab`), so every game of X is matched by one of Y on the same dice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from warbench.play.core import JSON
from warbench.sim.lab import Backend, GameRow, LabSpec, Progress, run_lab
from warbench.sim.stats import WinRate

#: The ladder's default rungs, weakest first.
RUNGS = ("random", "scripted", "search:1", "search:2")


@dataclass(frozen=True)
class Pairing:
    """The games of ``first`` against ``second`` and ``first``'s win rate over them."""

    first: str
    second: str
    rows: tuple[GameRow, ...]
    first_on: tuple[str, ...]  # per row: which roster ``first`` played ("A"/"B")

    @property
    def rate(self) -> WinRate:
        """``first``'s wins, draws and losses."""
        w = d = lost = 0
        for row, mine in zip(self.rows, self.first_on, strict=True):
            if row.winner is None:
                d += 1
            elif row.winner == mine:
                w += 1
            else:
                lost += 1
        return WinRate(w, d, lost)

    @property
    def silent(self) -> int:
        """Games in which one roster dealt no damage at all."""
        n = 0
        for row in self.rows:
            dealt = {"A": 0.0, "B": 0.0}
            for u in row.units:
                dealt[u.roster] += u.dealt
            n += min(dealt.values()) == 0.0
        return n


def play_pairing(
    first: str,
    second: str,
    rosters: tuple[JSON, JSON],
    games: int,
    *,
    boards: Sequence[JSON] = (),
    seed: int = 0,
    backend: Backend = "processes",
    workers: int | None = None,
    progress: Progress | None = None,
) -> Pairing:
    """``games`` games with ``first`` on roster A and ``games`` with it on roster B."""
    rows: list[GameRow] = []
    first_on: list[str] = []
    for k, kinds in enumerate(((first, second), (second, first))):
        spec = LabSpec(rosters, kinds, tuple(boards), seed=seed + k * 100_000)
        batch = run_lab(spec, games, backend=backend, workers=workers, progress=progress)
        rows.extend(batch)
        first_on.extend(["A" if k == 0 else "B"] * len(batch))
    return Pairing(first, second, tuple(rows), tuple(first_on))
