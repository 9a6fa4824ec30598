"""The strength ladder: each pairing of player kinds over both roster assignments, both seat
orders and every sample board, with win rates and 95% Wilson intervals (issue 15), in all and
board by board (:attr:`Pairing.by_board`).

A pairing X vs Y plays ``games`` lab games with X on roster A and Y on roster B, and as many
with the rosters exchanged; each lab batch alternates the seats and rotates the boards
(:mod:`warbench.sim.lab`), so every game of X is matched by one of Y on the same dice.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from warbench.play.core import JSON
from warbench.sim.lab import Backend, GameRow, LabSpec, Progress, run_lab
from warbench.sim.stats import WinRate

#: The ladder's default rungs, weakest first.
RUNGS = ("random", "scripted", "tactical", "search:1", "search:2")


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
    def by_board(self) -> dict[str, WinRate]:
        """``first``'s wins, draws and losses on each board, the boards in the order of their
        first game (the lab's rotation); the records add up to :attr:`rate`'s."""
        tally: dict[str, list[int]] = {}
        for row, mine in zip(self.rows, self.first_on, strict=True):
            wdl = tally.setdefault(row.board, [0, 0, 0])
            wdl[0 if row.winner == mine else 1 if row.winner is None else 2] += 1
        return {board: WinRate(*wdl) for board, wdl in tally.items()}

    def summary(self, *, silent: bool = True) -> dict[str, Any]:
        """The pairing as JSON: ``first``'s win rate (draws half), its 95% interval, the
        record (W, D, L), the games with a silent side (``None`` when ``silent`` is false: the
        rows of Collision and The WarEngine have no units) and ``boards``, the same figures
        board by board (:attr:`by_board`)."""
        return {
            "first": self.first,
            "second": self.second,
            "games": len(self.rows),
            **_rate_json(self.rate),
            "silent": self.silent if silent else None,
            "silent_first": self.silent_first if silent else None,
            "boards": [
                {"board": board, "games": r.games, **_rate_json(r)}
                for board, r in self.by_board.items()
            ],
        }

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

    @property
    def silent_first(self) -> int:
        """Games in which ``first``'s roster dealt no damage at all."""
        n = 0
        for row, mine in zip(self.rows, self.first_on, strict=True):
            n += sum(u.dealt for u in row.units if u.roster == mine) == 0.0
        return n


def _rate_json(r: WinRate) -> dict[str, Any]:
    """A win rate's figures, rounded for JSON."""
    return {
        "rate": round(r.rate, 4),
        "interval": [round(x, 4) for x in r.interval],
        "record": [r.wins, r.draws, r.losses],
    }


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
    ruleset_id: str = "warsurge",
) -> Pairing:
    """``games`` games with ``first`` on roster A and ``games`` with it on roster B (of
    ``ruleset_id``: WARSURGE, Collision or The WarEngine)."""
    rows: list[GameRow] = []
    first_on: list[str] = []
    for k, kinds in enumerate(((first, second), (second, first))):
        spec = LabSpec(
            rosters, kinds, tuple(boards), seed=seed + k * 100_000, ruleset_id=ruleset_id
        )
        batch = run_lab(spec, games, backend=backend, workers=workers, progress=progress)
        rows.extend(batch)
        first_on.extend(["A" if k == 0 else "B"] * len(batch))
    return Pairing(first, second, tuple(rows), tuple(first_on))


def ladder(
    rosters: tuple[JSON, JSON],
    games: int,
    *,
    rungs: Sequence[str] = RUNGS,
    boards: Sequence[JSON] = (),
    seed: int = 0,
    backend: Backend = "processes",
    workers: int | None = None,
) -> list[Pairing]:
    """Each rung against the one below it (``games`` games each way)."""
    return [
        play_pairing(
            hi, lo, rosters, games, boards=boards, seed=seed, backend=backend, workers=workers
        )
        for lo, hi in itertools.pairwise(rungs)
    ]


def boosted(roster: JSON) -> JSON:
    """``roster`` with +1 Defence on every unit and +1 Power on every weapon, at the same
    listed points (issue 15: such an army should win at least 90% of games)."""
    import copy

    out: Any = copy.deepcopy(roster)
    for entry in out["units"]:
        entry["unit"]["defence"] = int(entry["unit"]["defence"]) + 1
        for w in entry.get("weapons", []):
            w["power"] = int(w["power"]) + 1
    out["player"] = f"{out.get('player', 'army')} +1"
    return out


def play_boosted(
    kind: str,
    roster: JSON,
    games: int,
    *,
    seed: int = 0,
    backend: Backend = "processes",
    workers: int | None = None,
) -> Pairing:
    """``kind`` with :func:`boosted` ``roster`` against ``kind`` with ``roster`` itself:
    ``games`` games, seats alternating, boards rotating; the boosted army is ``first``."""
    spec = LabSpec((boosted(roster), roster), (kind, kind), seed=seed)
    rows = run_lab(spec, games, backend=backend, workers=workers)
    return Pairing(f"{kind} +1", kind, tuple(rows), ("A",) * len(rows))


def parse_pairings(rungs: Sequence[str]) -> list[tuple[str, str]]:
    """``(stronger, weaker)`` pairs: ``X/Y`` rungs are pairings of their own (X the one
    expected stronger), plain rungs each play the one below them (weakest first)."""
    if any("/" in r for r in rungs):
        return [(a, b) for a, _, b in (r.partition("/") for r in rungs)]
    return [(hi, lo) for lo, hi in itertools.pairwise(rungs)]


def write_ladder_report(
    pairings: Sequence[Pairing], path: Any, *, title: str = "Strength ladder", png: Any = None
) -> Any:
    """One self-contained HTML page: each pairing's win rate of the first player with its 95%
    Wilson interval (a plot and a table, games, games with a silent side) and a table of the
    same board by board; ``png`` also
    writes the plot there. Returns the page's path."""
    import base64
    import html
    import io
    from pathlib import Path

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from warbench.kernel.errors import DataFileError

    labels = [f"{p.first} vs {p.second}" for p in pairings]
    rates = [p.rate.rate for p in pairings]
    lows = [p.rate.rate - p.rate.interval[0] for p in pairings]
    highs = [p.rate.interval[1] - p.rate.rate for p in pairings]
    fig, ax = plt.subplots(figsize=(7, 0.6 * len(pairings) + 1.5))
    ys = list(range(len(pairings)))
    ax.errorbar(rates, ys, xerr=[lows, highs], fmt="o", capsize=4)
    ax.axvline(0.5, color="#999", lw=1, ls="--")
    ax.set_yticks(ys, labels)
    ax.set_xlim(0, 1)
    ax.invert_yaxis()
    ax.set_xlabel("win rate of the first player (draws count half), 95% Wilson interval")
    fig.tight_layout()
    buf = io.BytesIO()
    out = Path(path)
    try:
        fig.savefig(buf, format="png", dpi=96)
        if png is not None:
            fig.savefig(png, dpi=96)
        e = html.escape
        rows = "".join(
            f"<tr><td>{e(p.first)}</td><td>{e(p.second)}</td><td>{len(p.rows)}</td>"
            f"<td>{e(str(p.rate))}</td><td>{p.silent}</td><td>{p.silent_first}</td></tr>"
            for p in pairings
        )
        per_board = "".join(
            f"<tr><td>{e(p.first)} vs {e(p.second)}</td><td>{e(board)}</td>"
            f"<td>{r.games}</td><td>{e(str(r))}</td></tr>"
            for p in pairings
            for board, r in p.by_board.items()
        )
        img = base64.b64encode(buf.getvalue()).decode()
        out.write_text(
            f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>{e(title)}</title>
<style>body{{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em}}
table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:.2em .6em}}
img{{max-width:100%}}.wide{{overflow-x:auto}}</style></head><body><h1>{e(title)}</h1>
<p>Each pairing: both roster assignments, both seat orders, boards in rotation.</p>
<figure><img alt="win rates" src="data:image/png;base64,{img}"></figure>
<div class="wide"><table><tr><th>first</th><th>second</th><th>games</th>
<th>first's win rate [95%]</th><th>games a side dealt no damage</th><th>of them, the first's side
</th></tr>{rows}</table></div>
<h2>Board by board</h2>
<div class="wide"><table><tr><th>pairing</th><th>board</th><th>games</th>
<th>first's win rate [95%]</th></tr>{per_board}</table></div></body></html>
""",
            encoding="utf-8",
        )
    except OSError as exc:
        raise DataFileError(str(path), f"cannot write the report ({exc.strerror or exc})") from None
    finally:
        plt.close(fig)
    return out


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m warbench.sim.ladder A.yaml B.yaml [GAMES] [RUNG …]``: one JSON line per
    pairing (win rate of the stronger rung, interval, games, games with a silent side, and the
    same board by board: :meth:`Pairing.summary`).
    Rungs written ``X/Y`` are pairings of their own (``tactical/random search/tactical``),
    ``boost:KIND`` plays each roster +1 Defence/Power against itself (:func:`play_boosted`);
    ``WARBENCH_LADDER_WORKERS`` sets the worker processes (default: all cores)."""
    import os
    import sys
    import time

    from warbench.sim.lab import load_rosters

    args = list(sys.argv[1:] if argv is None else argv)
    rosters = load_rosters(args[:2])
    games = int(args[2]) if len(args) > 2 else 10
    rungs = tuple(args[3:]) or RUNGS
    workers = int(os.environ.get("WARBENCH_LADDER_WORKERS", "0")) or None
    boosts = [r.removeprefix("boost:") for r in rungs if r.startswith("boost:")]
    rungs = tuple(r for r in rungs if not r.startswith("boost:"))
    for kind in boosts:  # ``boost:KIND``: each roster +1 Defence/Power against itself
        for k, roster in enumerate(rosters):
            t = time.perf_counter()
            p = play_boosted(kind, roster, games, seed=k * 100_000, workers=workers)
            _print(p, time.perf_counter() - t)
    for hi, lo in parse_pairings(rungs):
        t = time.perf_counter()
        p = play_pairing(hi, lo, rosters, games, workers=workers)
        _print(p, time.perf_counter() - t)


def _print(p: Pairing, dt: float) -> None:
    """One JSON line for a pairing (:meth:`Pairing.summary` and the seconds it took)."""
    import json

    print(json.dumps({**p.summary(), "seconds": round(dt, 1)}), flush=True)


if __name__ == "__main__":  # pragma: no cover
    main()
