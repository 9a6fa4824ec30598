"""``warbench roll``: the dice generator (Core Rules 001_d3f5e425c5e1196d.txt §1.1 "WARSURGE App:
Dice Generator", §1.4 dice terms; Perks 000_94ecc6a4c74d351b.txt §12.2 tests, §12.3 Scatter
Arrow).

It shows every face, counts successes against a target, rerolls chosen faces, rolls up to
100,000 dice at once (counts per face for big pools), draws the Scatter Arrow and keeps a
history of rolls (:mod:`warbench.cli.roll_history`). The seed is printed and recorded. It never
imports NumPy or the rules: the faces come from ``SeededDice(seed, light=True)``, the same
faces NumPy would draw for that seed.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import typer

from warbench.cli.app import app, err_console, fail
from warbench.kernel.errors import WarbenchError

if TYPE_CHECKING:
    from warbench.kernel.dice import Dice, DiceExpr

MAX_POOL = 100_000  # dice in one roll
MAX_TOTAL = 1_000_000  # dice in one command (--times x pool)
COMPACT_OVER = 30  # bigger pools print counts per face instead of every face
_TESTS = ("mastery", "skill", "aether")
_ARROWS = {"N": "↑", "NE": "↗", "E": "→", "SE": "↘", "S": "↓", "SW": "↙", "W": "←", "NW": "↖"}
_ROSE = (("NW", "N", "NE"), ("W", None, "E"), ("SW", "S", "SE"))


@dataclass
class PoolRoll:
    """One roll of a dice expression: the physical D6 faces, rerolls, total and successes."""

    expr: str
    sides: int
    faces: list[int]
    first: list[int] | None = None  # the values before rerolls, when --reroll was given
    rerolled: int = 0  # how many dice were picked up and rolled again
    total: int = 0
    need: int | None = None
    successes: int | None = None
    values: list[int] = field(default_factory=list)  # faces read as D6, D3 or D2

    def counts(self) -> dict[int, int]:
        """How many dice show each value."""
        out = dict.fromkeys(range(1, self.sides + 1), 0)
        for v in self.values:
            out[v] += 1
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON: faces (pools up to 1,000 dice), counts per value, total, successes."""
        d: dict[str, Any] = {"expr": self.expr, "total": self.total, "dice": len(self.faces)}
        if len(self.values) <= 1000:
            d["faces"] = self.values
            if self.first is not None:
                d["before_reroll"] = self.first
        d["counts"] = {str(k): v for k, v in self.counts().items()}
        if self.need is not None:
            d["need"] = f"{self.need}+"
            d["successes"] = self.successes
        if self.first is not None:
            d["rerolled"] = self.rerolled
        return d

    def text(self) -> str:
        """One or two lines for the terminal."""
        n = len(self.values)
        parts = []
        if n <= COMPACT_OVER:
            parts.append(f"{self.expr}: {' '.join(map(str, self.values))}")
        else:
            counts = "  ".join(f"{k}s: {v:,}" for k, v in self.counts().items())
            parts.append(f"{self.expr} ({n:,} dice): {counts}")
        if self.first is not None:
            r = self.rerolled
            before = f" (before: {' '.join(map(str, self.first))})" if n <= COMPACT_OVER else ""
            parts.append(f"{r} {'die' if r == 1 else 'dice'} rerolled{before}")
        parts.append(f"total {self.total:,}")
        if self.need is not None:
            parts.append(f"{self.successes:,} of {n:,} succeed on {self.need}+")
        return ", ".join(parts)

    def summary(self) -> str:
        """A short form for the history."""
        s = f"total {self.total}"
        if self.need is not None:
            s += f", {self.successes} succeed on {self.need}+"
        if len(self.values) <= 12:
            s = f"{' '.join(map(str, self.values))} = {s}"
        return s


def _parse_need(text: str | None, sides: int) -> int | None:
    if text is None:
        return None
    m = re.fullmatch(r"\s*(\d+)\s*\+?\s*", text)
    if m is None or not 1 <= int(m[1]) <= sides:
        raise fail(f"--need {text!r}: write the target as N+ with N from 1 to {sides} (e.g. 4+)")
    return int(m[1])


def _parse_reroll(text: str | None, sides: int, need: int | None) -> set[int] | None:
    """The values to reroll: ``1,2`` (chosen faces), ``failed`` or ``successful`` (with --need).

    §1.4 (001 L327-329): dice that failed or dice that succeeded are rerolled, never both.
    """
    if text is None:
        return None
    key = text.strip().lower()
    if key in ("failed", "successful"):
        if need is None:
            raise fail(f"--reroll {key} needs --need N+ to tell failed from successful dice")
        return {v for v in range(1, sides + 1) if (v >= need) == (key == "successful")}
    try:
        values = {int(v) for v in key.split(",") if v.strip()}
    except ValueError:
        values = set()
    if not values or not values <= set(range(1, sides + 1)):
        raise fail(
            f"--reroll {text!r}: allowed: faces from 1 to {sides} separated by commas "
            "(e.g. 1 or 1,2), failed or successful"
        )
    if need is not None and len({v >= need for v in values}) > 1:
        raise fail(
            f"--reroll {text!r} with --need {need}+ picks up failed and successful dice; "
            "reroll one or the other, never both (Core Rules §1.4)"
        )
    return values


def roll_pool(
    dice: Dice, expr: DiceExpr, need: int | None, reroll: set[int] | None, label: str = "roll"
) -> PoolRoll:
    """Roll ``expr`` once: faces, chosen rerolls (once each), total and successes."""
    from warbench.kernel.dice import read_face

    faces = dice.roll_dice(expr.count, label) if expr.count else []
    first, picked = None, 0
    if reroll:
        physical = {f for f in range(1, 7) if read_face(f, expr.sides) in reroll}
        picked = sum(1 for f in faces if f in physical)
        first = [read_face(f, expr.sides) for f in faces]
        faces = dice.reroll_faces(faces, physical, f"{label} reroll")
    values = [read_face(f, expr.sides) for f in faces]
    out = PoolRoll(
        str(expr), expr.sides, faces, first, picked, total=expr.value_of(faces), values=values
    )
    if need is not None:
        out.need = need
        out.successes = sum(1 for v in values if v >= need)
    return out


def scatter_text(hit: bool, direction: str | None, distance: int, rose: bool) -> list[str]:
    """The Scatter Arrow (§12.3): a Hit (crosshair) or an arrow, a direction and a distance."""
    if hit:
        return ["scatter: ⌖ Hit (stays where it was aimed; the distance dice are discarded)"]
    assert direction is not None
    lines = [f'scatter: {_ARROWS[direction]} {direction} {distance}"']
    if rose:  # the arrow on a compass rose around the aiming point (o)
        for row in _ROSE:
            cells = ["o" if d is None else _ARROWS[d] if d == direction else "·" for d in row]
            lines.append("  " + " ".join(cells))
    return lines


@app.command()
def roll(
    what: str | None = typer.Argument(
        None,
        help="D6, D3, D2, nD6 (up to 100,000 dice, +N, xN), scatter, mastery, skill, aether "
        "or rolloff.",
    ),
    times: int | None = typer.Option(
        None, "--times", "-n", min=1, max=1000, help="How many rolls (with --history: shown)."
    ),
    seed: int | None = typer.Option(
        None, min=0, help="Seed, a whole number from 0 (recorded and printed)."
    ),
    need: str | None = typer.Option(
        None, "--need", help="Count the dice that succeed on N+ (e.g. 4+)."
    ),
    reroll: str | None = typer.Option(
        None,
        "--reroll",
        help="Reroll dice showing these faces once (1 or 1,2), or failed / successful.",
    ),
    modifier: int = typer.Option(
        0, "--modifier", "-m", help="Dice Modifier of a Mastery, Skill or Aether Test."
    ),
    distance_dice: int | None = typer.Option(
        None, "--distance-dice", min=1, max=2, help="D6 rolled with the Scatter Arrow (1 or 2)."
    ),
    players: str | None = typer.Option(
        None, help="Players for a roll-off, comma separated (default A,B)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    history: bool = typer.Option(
        False, "--history", help="Show the last rolls (-n of them, default 20) and stop."
    ),
    clear_history: bool = typer.Option(False, "--clear-history", help="Forget the rolls."),
    keep: bool = typer.Option(True, "--keep/--no-keep", help="Add this roll to the history."),
) -> None:
    """Roll dice with the recorded-seed dice service (Core Rules §1.1, §1.4; Perks §12.2-12.3)."""
    from warbench.cli import roll_history

    if history or clear_history:
        if what is not None:
            flag = "--history" if history else "--clear-history"
            raise fail(f"{flag} shows the rolls already made; give it without {what!r}")
        _show_history(times or 20, as_json, clear_history)
        return
    if what is None:
        raise fail("give WHAT to roll (e.g. 2D6, 10D6 --need 4+, scatter), or --history")
    _refuse_options_that_do_not_apply(
        what, need=need, reroll=reroll, modifier=modifier, distance=distance_dice, players=players
    )
    times = times or 1
    distance_dice = distance_dice or 2
    players = players or "A,B"
    from warbench.kernel.dice import DiceExpr, RollEvent, SeededDice, TestKind

    dice = SeededDice(seed, light=True)
    key = what.strip().lower()
    results: list[dict[str, Any]] = []
    lines: list[str] = []
    summaries: list[str] = []
    try:
        if key == "scatter":
            for _ in range(times):
                s = dice.scatter(distance_dice)
                d = s.direction.value if s.direction else None
                results.append({"hit": s.hit, "direction": d, "distance": s.distance})
                lines += scatter_text(s.hit, d, s.distance, rose=times == 1)
                summaries.append("Hit" if s.hit else f'{d} {s.distance}"')
        elif key in _TESTS:
            for _ in range(times):
                start = len(dice.log)
                t = dice.test(TestKind(key.capitalize()), modifier)
                got = [f for e in dice.log[start:] if isinstance(e, RollEvent) for f in e.faces]
                results.append(
                    {"kind": t.kind.value, "roll": t.roll, "faces": got,
                     "counts_as": t.counts_as, "needed": t.needed, "passed": t.passed,
                     "doubled": t.doubled, "backlash": t.backlash}
                )  # fmt: skip
                lines.append(_test_text(t, got))
                summaries.append(_test_text(t, got))
        elif key in ("rolloff", "roll-off"):
            names = [p.strip() for p in players.split(",") if p.strip()]
            twice = sorted({n for n in names if [m.lower() for m in names].count(n.lower()) > 1})
            if twice:
                raise fail(
                    f"--players {players!r}: {', '.join(twice)} named twice; a roll-off is "
                    "between different players (Core Rules §1.4)"
                )
            for _ in range(times):
                start = len(dice.log)
                winner = dice.roll_off(names)
                rounds = _roll_off_rounds(
                    names, [e.faces for e in dice.log[start:] if isinstance(e, RollEvent)]
                )
                results.append({"winner": winner, "rounds": rounds})
                shown = "; ".join(", ".join(f"{p} {f}" for p, f in r.items()) for r in rounds)
                lines.append(f"roll-off: {shown} → winner {winner}")
                summaries.append(f"winner {winner}")
        else:
            expr = DiceExpr.parse(what, max_count=MAX_POOL)
            if expr.count * times > MAX_TOTAL:
                raise fail(
                    f"{what} x {times}: {expr.count * times:,} dice; allowed: up to "
                    f"{MAX_TOTAL:,} dice in one command"
                )
            target = _parse_need(need, expr.sides)
            if target is not None and (expr.bonus or expr.multiplier != 1 or not expr.count):
                raise fail(
                    f"--need counts dice against a target: roll nD6 without +N or xN, not {expr}"
                )
            faces = _parse_reroll(reroll, expr.sides, target)
            for _ in range(times):
                r = roll_pool(dice, expr, target, faces)
                results.append(r.to_dict())
                lines.append(r.text())
                summaries.append(r.summary())
    except WarbenchError as exc:
        raise fail(str(exc)) from None
    # Plain output (typer.echo): rich's console is not imported for a roll (start-up, issue 18).
    if as_json:
        typer.echo(json.dumps({"what": what, "seed": dice.seed, "rolls": results}, indent=2))
    else:
        for line in lines:
            typer.echo(line)
        typer.echo(f"seed {dice.seed}")
    if keep:
        options = {"need": need, "reroll": reroll, "times": times if times > 1 else None}
        if key in _TESTS and modifier:
            options["modifier"] = modifier
        if key == "scatter" and distance_dice != 2:
            options["distance-dice"] = distance_dice
        if key in ("rolloff", "roll-off"):
            options["players"] = players
        entry = roll_history.HistoryEntry(
            roll_history.now(),
            what,
            dice.seed,
            {k: v for k, v in options.items() if v is not None},
            summaries[:20] + ([f"… {len(summaries) - 20} more"] if len(summaries) > 20 else []),
        )
        try:
            roll_history.append(entry)
        except OSError as exc:
            err_console.print(f"[yellow]warning:[/] roll history not saved ({exc})")


#: The options of ``warbench roll`` and the things they apply to (Core Rules §1.1, §1.4).
_APPLIES = {
    "--need": "nD6 pools",
    "--reroll": "nD6 pools",
    "--modifier": "mastery, skill and aether tests",
    "--distance-dice": "scatter",
    "--players": "rolloff",
}


def _refuse_options_that_do_not_apply(
    what: str,
    *,
    need: str | None,
    reroll: str | None,
    modifier: int,
    distance: int | None,
    players: str | None,
) -> None:
    """An option given to a roll it does nothing for is a mistake: say where it applies."""
    key = what.strip().lower()
    kind = (
        "scatter"
        if key == "scatter"
        else "test"
        if key in _TESTS
        else "rolloff"
        if key in ("rolloff", "roll-off")
        else "pool"
    )
    given = {
        "--need": need is not None and kind != "pool",
        "--reroll": reroll is not None and kind != "pool",
        "--modifier": modifier != 0 and kind != "test",
        "--distance-dice": distance is not None and kind != "scatter",
        "--players": players is not None and kind != "rolloff",
    }
    for option, wrong in given.items():
        if wrong:
            raise fail(f"{option} does nothing for {what!r}; it applies to {_APPLIES[option]}")


def _test_text(t: Any, faces: list[int]) -> str:
    """``Aether Test: rolled 3+4 = 7, passed`` / ``Mastery Test: rolled 5, needs 4+, passed``:
    both Aether dice (a double matters to some perks, Perks L3086) and what a D6 test needs."""
    verdict = "passed" if t.passed else "failed"
    counts = f" (counts as {t.counts_as})" if t.counts_as != t.roll else ""
    extra = " (doubled)" if t.doubled else " (D6 HP Loss to the User)" if t.backlash else ""
    shown = f"{'+'.join(map(str, faces))} = {t.roll}" if len(faces) > 1 else str(t.roll)
    needs = "" if t.kind.value == "Aether" else f", needs {t.needed}+"
    return f"{t.kind.value} Test: rolled {shown}{counts}{needs}, {verdict}{extra}"


def _roll_off_rounds(names: list[str], faces: list[tuple[int, ...]]) -> list[dict[str, int]]:
    """Each round of a roll-off: who rolled what; the top players roll again on a tie (§1.4)."""
    rounds = []
    contenders = list(names)
    for f in faces:
        rounds.append(dict(zip(contenders, f, strict=True)))
        top = max(f)
        contenders = [p for p, v in zip(contenders, f, strict=True) if v == top]
    return rounds


def _show_history(limit: int, as_json: bool, clear: bool) -> None:
    from warbench.cli import roll_history

    if clear:
        roll_history.clear()
        typer.echo("roll history cleared")
        return
    entries = roll_history.read(limit)
    if as_json:
        from dataclasses import asdict

        typer.echo(json.dumps([asdict(e) for e in entries], indent=2))
        return
    if not entries:
        typer.echo(f"no rolls yet ({roll_history.history_path()})")
    for e in entries:
        typer.echo(e.line())
