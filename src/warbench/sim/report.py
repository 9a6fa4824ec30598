"""Reports of a lab batch: numbers, plots (matplotlib, PNG) and one self-contained HTML page.

* **Win rate** of roster A (wins + half the draws) overall and per board, with 95% Wilson
  intervals (:mod:`warbench.sim.stats`).
* **Point value over Game Turns**: each roster's mean value on the battlefield at the end of
  every Game Turn (games that ended earlier keep their last value), each turn with the number
  of games still being played then.
* **Damage by unit**: per unit, the mean point value it took off enemy units and the mean it
  lost, per game.

The HTML page embeds its PNGs as ``data:`` URIs, so it is one file to mail or archive, and
names the ruleset, the base seed and the stored run, so its reader can replay or re-open the
batch. Collision and The WarEngine report no units (``GameRow.units`` and ``values`` stay
empty): their page gives the win rate and the mean Victory Points, says so, and draws no unit or
value plot (session 34, s34-user: it showed "points left", every game as one in which a roster
dealt no damage, and two empty plots).
"""

from __future__ import annotations

import base64
import html
import io
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from warbench.kernel.errors import DataFileError
from warbench.sim.lab import GameRow
from warbench.sim.stats import WinRate

#: the rulesets' names as their books write them, for the page's sentences
RULESET_NAMES = {"warsurge": "WARSURGE", "collision": "Collision", "warengine": "The WarEngine"}


@dataclass(frozen=True)
class Summary:
    """The numbers of a report."""

    games: int
    a: WinRate
    by_board: dict[str, WinRate]
    mean_points: tuple[float, float]
    mean_turns: float
    values: list[tuple[int, float, float]]  # (turn, mean A, mean B)
    units: list[tuple[str, str, float, float, float]]  # (roster, label, points, dealt, taken)
    silent: int | None  # games in which a roster dealt no damage; None when no unit is reported
    #: how many games were still being played at the end of each Game Turn of ``values`` (a
    #: game over earlier counts there with its last value; session 36: the plot ran to Game
    #: Turn 9 beside "mean Game Turns 6.00" and did not say how few games it stood for)
    playing: list[int] = field(default_factory=list)

    @property
    def units_reported(self) -> bool:
        """Whether the games report units (WARSURGE), hence damage and values per Game Turn."""
        return self.silent is not None


def _rate(rows: Sequence[GameRow]) -> WinRate:
    w = sum(r.winner == "A" for r in rows)
    d = sum(r.winner is None for r in rows)
    return WinRate(w, d, len(rows) - w - d)


def _silent(row: GameRow) -> bool:
    """Whether one roster dealt no damage in the game (its units' ``dealt`` add up to 0)."""
    dealt = {"A": 0.0, "B": 0.0}
    for u in row.units:
        dealt[u.roster] = dealt.get(u.roster, 0.0) + u.dealt
    return min(dealt.values()) == 0.0


def summarise(rows: Sequence[GameRow]) -> Summary:
    """The report's numbers for a batch."""
    boards: dict[str, list[GameRow]] = defaultdict(list)
    for r in rows:
        boards[r.board].append(r)
    n = len(rows) or 1
    last = max((v[0] for r in rows for v in r.values), default=0)
    values = []
    ends = [max((v[0] for v in r.values), default=0) for r in rows]
    playing = [sum(e >= t for e in ends) for t in range(1, last + 1)]
    for t in range(1, last + 1):
        a = b = 0.0
        for r in rows:
            upto = [v for v in r.values if v[0] <= t]
            if upto:
                a += upto[-1][1]
                b += upto[-1][2]
        values.append((t, a / n, b / n))
    per: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    for r in rows:
        for u in r.units:
            acc = per[(u.roster, u.label)]
            acc[0] = u.points
            acc[1] += u.dealt / n
            acc[2] += u.taken / n
    # Collision and The WarEngine report no units: no game of theirs is "silent"
    silent = sum(_silent(r) for r in rows) if any(r.units for r in rows) or not rows else None
    return Summary(
        games=len(rows),
        a=_rate(rows),
        by_board={k: _rate(v) for k, v in sorted(boards.items())},
        mean_points=(sum(r.points_a for r in rows) / n, sum(r.points_b for r in rows) / n),
        mean_turns=sum(r.turns for r in rows) / n,
        values=values,
        playing=playing,
        units=[(k[0], k[1], v[0], v[1], v[2]) for k, v in sorted(per.items())],
        silent=silent,
    )


def _figures(s: Summary, names: tuple[str, str]) -> dict[str, Any]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figs: dict[str, Any] = {}
    # win rate, overall and per board, with Wilson intervals
    labels = ["all", *s.by_board]
    rates = [s.a, *s.by_board.values()]
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    xs = range(len(labels))
    mids = [r.rate for r in rates]
    lows = [r.rate - r.interval[0] for r in rates]
    highs = [r.interval[1] - r.rate for r in rates]
    ax.bar(xs, mids, color="#4c72b0", yerr=[lows, highs], capsize=4)
    ax.axhline(0.5, color="#888", lw=1, ls="--")
    ax.set_xticks(list(xs), labels, rotation=15)
    ax.set_ylim(0, 1)
    ax.set_ylabel(f"{names[0]} win rate")
    ax.set_title("Win rate of A (95% Wilson interval)")
    fig.tight_layout()
    figs["winrate"] = fig
    if not s.units_reported:  # Collision, The WarEngine: nothing to draw per unit or turn
        return figs
    # value over turns
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    turns = [v[0] for v in s.values]
    ax.plot(turns, [v[1] for v in s.values], marker="o", label=f"A: {names[0]}")
    ax.plot(turns, [v[2] for v in s.values], marker="s", label=f"B: {names[1]}")
    if len(s.playing) == len(turns):  # how many games each point stands for
        ax.set_xticks(turns, [f"{t}\n{k}" for t, k in zip(turns, s.playing, strict=True)])
    ax.set_xlabel(
        "end of Game Turn, and the games still playing then"
        "\n(a game over earlier keeps its last value)"
    )
    ax.set_ylabel("mean point value on the battlefield")
    ax.set_title("Point value over Game Turns")
    ax.legend()
    fig.tight_layout()
    figs["values"] = fig
    # damage by unit
    fig, ax = plt.subplots(figsize=(6.4, 0.5 + 0.45 * max(1, len(s.units))))
    ys = range(len(s.units))
    ax.barh([y - 0.2 for y in ys], [u[3] for u in s.units], height=0.4, label="dealt")
    ax.barh([y + 0.2 for y in ys], [u[4] for u in s.units], height=0.4, label="taken")
    ax.set_yticks(list(ys), [f"{u[0]}: {u[1]}" for u in s.units])
    ax.invert_yaxis()
    ax.set_xlabel("mean point value per game")
    ax.set_title("Damage by unit")
    ax.legend()
    fig.tight_layout()
    figs["damage"] = fig
    return figs


def write_report(
    rows: Sequence[GameRow],
    path: str | Path,
    *,
    names: tuple[str, str] = ("A", "B"),
    title: str = "Simulation report",
    png_dir: str | Path | None = None,
    ruleset: str = "warsurge",
    seed: int | None = None,
    run: int | None = None,
) -> Path:
    """Write the HTML page (and, with ``png_dir``, each plot as a PNG there).

    ``ruleset``, ``seed`` (the batch's base seed) and ``run`` (its id in the database, when
    stored) are printed on the page, with the command that re-opens the run.
    """
    import matplotlib.pyplot as plt

    s = summarise(rows)
    out = Path(path)
    figs = _figures(s, names)
    images: dict[str, str] = {}
    try:  # this page's figures are closed however it ends, and only they (not the caller's)
        for name, fig in figs.items():
            buf = io.BytesIO()
            fig.savefig(buf, format="png", dpi=96)
            images[name] = base64.b64encode(buf.getvalue()).decode()
            if png_dir is not None:
                try:  # the error names the folder, not the page (session 34)
                    Path(png_dir).mkdir(parents=True, exist_ok=True)
                    fig.savefig(Path(png_dir) / f"{name}.png", dpi=96)
                except OSError as exc:
                    raise DataFileError(
                        str(png_dir), f"cannot write the plots there ({exc.strerror or exc})"
                    ) from None
    finally:
        for fig in figs.values():
            plt.close(fig)
    try:
        page = _html(s, names, title, images, ruleset, _provenance(ruleset, seed, run))
        out.write_text(page, encoding="utf-8")
    except OSError as exc:
        raise DataFileError(str(path), f"cannot write the report ({exc.strerror or exc})") from None
    return out


def _provenance(ruleset: str, seed: int | None, run: int | None) -> str:
    """The sentence that says where the batch came from and how to see it again."""
    e = html.escape
    parts = [f"ruleset {e(ruleset)}"]
    if seed is not None:
        parts.append(f"seed {seed} (the games' pair j, from 0, plays seed {seed} + j)")
    said = "Played with " + ", ".join(parts) + "."
    if run is not None:
        said += (
            f" Stored as run {run}: <code>warbench simulate --run {run} --report PAGE.html"
            "</code> writes this page again, <code>--csv PATH</code> exports its games."
        )
    return said


def _html(
    s: Summary,
    names: tuple[str, str],
    title: str,
    images: dict[str, str],
    ruleset: str = "warsurge",
    provenance: str = "",
) -> str:
    e = html.escape
    boards = "".join(
        f"<tr><td>{e(b)}</td><td>{r.games}</td><td>{e(str(r))}</td></tr>"
        for b, r in s.by_board.items()
    )
    units = "".join(
        f"<tr><td>{e(u[0])}</td><td>{e(u[1])}</td><td>{u[2]:.0f}</td>"
        f"<td>{u[3]:.1f}</td><td>{u[4]:.1f}</td></tr>"
        for u in s.units
    )
    imgs = "".join(
        f'<figure><img alt="{e(k)}" src="data:image/png;base64,{v}"></figure>'
        for k, v in images.items()
    )
    a, b = s.mean_points
    if s.units_reported:
        means = (
            f"Mean points left: A {a:.1f}, B {b:.1f}; mean Game Turns {s.mean_turns:.2f}; "
            f"games in which one roster dealt no damage: {s.silent}."
        )
        unit_part = (
            "<h2>Units (mean per game)</h2>\n<table><tr><th>roster</th><th>unit</th>"
            f"<th>points</th><th>dealt</th><th>taken</th></tr>\n{units}</table>"
        )
    else:
        means = f"Mean Victory Points: A {a:.1f}, B {b:.1f}; mean turns {s.mean_turns:.2f}."
        unit_part = (
            f"<p>{e(RULESET_NAMES.get(ruleset, ruleset))} reports no units: no damage by unit "
            "and no point values per turn (the CSV's units table has its header only).</p>"
        )
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{e(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em}}
table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:.2em .6em}}
img{{max-width:100%}}</style></head><body>
<h1>{e(title)}</h1>
<p>A: <b>{e(names[0])}</b> &mdash; B: <b>{e(names[1])}</b>. {s.games} games.</p>
<p>{provenance}</p>
<p>Win rate of A (draws count half, 95% Wilson interval): <b>{e(str(s.a))}</b>.
{means}</p>
<h2>By board</h2><table><tr><th>board</th><th>games</th><th>A win rate</th></tr>{boards}</table>
<h2>Plots</h2>{imgs}
{unit_part}
</body></html>
"""
