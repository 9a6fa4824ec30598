"""Every kind of army against a weaker player: the issue 15 target "the default level beats
random-legal in >= 95% of games with every kind of army", measured (session 28).

Each archetype of the points study (:data:`warbench.sim.points_study.ARCHETYPES`, built at
:data:`~warbench.sim.points_study.POINTS` points with :func:`build_roster`) plays a **mirror
match**: ``player`` with the army against ``opponent`` with the same army (the second copy
renamed, since a game needs two players, Core Rules 001_d3f5e425c5e1196d.txt §3.3). A mirror
takes the points model out of the result: what is left is the player. Each pairing is a
ladder pairing (:func:`warbench.sim.ladder.play_pairing`): half the games with ``player`` on
the first copy, half on the second, lab pairs alternating the seats on the same dice, the
sample boards without army terrain in rotation. The result is decided on the point value
left (§2.2 step 8); a draw counts half.

``python -m warbench.sim.army_kinds GAMES [--seed S] [--names horde melee ...]
[--player tactical] [--opponent random] [--workers N]`` prints one table row per army: the
win rate with its Wilson 95% interval (W-D-L), the games in which ``player``'s side dealt no
damage (*silent*), the draws in which neither side lost a point, and the mean Game Turn of
the first damage dealt by either side.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from warbench.kernel.errors import WarbenchError
from warbench.play.core import JSON, ProtocolError
from warbench.play.players import check_kind
from warbench.sim.lab import Backend, GameRow
from warbench.sim.ladder import Pairing, play_pairing
from warbench.sim.points_study import ARCHETYPES, build_roster

#: The points-model version the armies are priced with (a mirror match does not depend on it
#: much: both sides hold the same army).
VERSION = "ws-points-1"


def mirror(name: str, version: str = VERSION) -> tuple[JSON, JSON]:
    """Archetype ``name`` twice, the second copy under another player's name (§3.3)."""
    first = build_roster(name, version)
    assert isinstance(first, dict)
    return first, {**first, "player": f"{first['player']} (mirror)"}


@dataclass(frozen=True)
class ArmyResult:
    """One archetype's mirror pairing and what its games say beyond the win rate."""

    name: str
    pairing: Pairing

    @property
    def untouched(self) -> int:
        """Drawn games in which neither side lost any point value."""
        return sum(
            1
            for r in self.pairing.rows
            if r.winner is None and all(u.taken == 0.0 for u in r.units)
        )

    @property
    def first_blood(self) -> float | None:
        """The mean Game Turn at whose end some unit had first lost value (games with none
        left out; ``None`` when no game had any)."""
        turns = [t for t in (_first_blood(r) for r in self.pairing.rows) if t is not None]
        return sum(turns) / len(turns) if turns else None

    def row(self) -> str:
        """A markdown table row: army, rate (W-D-L), silent, untouched draws, first blood."""
        p = self.pairing
        fb = self.first_blood
        blood = "-" if fb is None else f"{fb:.2f}"
        return f"| {self.name} | {p.rate} | {p.silent_first} | {self.untouched} | {blood} |"


def _first_blood(row: GameRow) -> int | None:
    start = None
    for turn, a, b in row.values:
        if start is None:
            start = (a, b)
        if (a, b) != start:
            return turn
    return None


def measure(
    games: int,
    *,
    names: Sequence[str] = tuple(ARCHETYPES),
    player: str = "tactical",
    opponent: str = "random",
    seed: int = 0,
    backend: Backend = "processes",
    workers: int | None = 1,
    version: str = VERSION,
) -> list[ArmyResult]:
    """Each archetype in ``names``: ``games`` games (even: half with ``player`` on each copy)
    of ``player`` against ``opponent``, both with the archetype's army."""
    if games < 2 or games % 2:
        raise ProtocolError(
            f"games {games}: an even number from 2 (half on each copy)", "army_kinds"
        )
    if workers is not None and workers < 1:
        raise ProtocolError(f"workers {workers}: a whole number from 1", "army_kinds")
    check_kind(player)
    check_kind(opponent)
    return [
        ArmyResult(
            name,
            play_pairing(
                player,
                opponent,
                mirror(name, version),
                games // 2,
                seed=seed,
                backend=backend,
                workers=workers,
            ),
        )
        for name in names
    ]


HEADER = (
    "| army | win rate [95%] (W-D-L) | silent | untouched draws | first blood (Game Turn) |\n"
    "| --- | --- | --- | --- | --- |"
)


def main(argv: Sequence[str] | None = None) -> None:
    """The command of the module docstring."""
    ap = argparse.ArgumentParser(prog="python -m warbench.sim.army_kinds")
    ap.add_argument("games", type=int, help="games per army (even)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--names", nargs="+", default=list(ARCHETYPES), choices=list(ARCHETYPES))
    ap.add_argument("--player", default="tactical")
    ap.add_argument("--opponent", default="random")
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args(argv)
    try:  # bad input: one line, exit status 2, before any game is played
        measure(
            args.games, names=[], player=args.player, opponent=args.opponent, workers=args.workers
        )
    except WarbenchError as exc:
        print(f"{ap.prog}: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    print(HEADER, flush=True)
    total = [0, 0, 0]
    for name in args.names:
        (res,) = measure(
            args.games,
            names=[name],
            player=args.player,
            opponent=args.opponent,
            seed=args.seed,
            workers=args.workers,
        )
        rate = res.pairing.rate
        total = [total[0] + rate.wins, total[1] + rate.draws, total[2] + rate.losses]
        print(res.row(), flush=True)
    from warbench.sim.stats import WinRate

    print(f"| all | {WinRate(*total)} | | | |", file=sys.stdout)


if __name__ == "__main__":  # pragma: no cover
    main()
