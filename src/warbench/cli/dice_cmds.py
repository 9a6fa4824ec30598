"""``warbench roll``: the dice generator."""

from __future__ import annotations

import typer

from warbench.cli.app import app, console, fail
from warbench.kernel.errors import WarbenchError


@app.command()
def roll(
    what: str = typer.Argument(
        ..., help="D6, D3, D2, 2D6, nD6 (+N, xN), scatter, mastery, skill, aether or rolloff"
    ),
    times: int = typer.Option(1, "--times", "-n", min=1, max=1000, help="How many rolls."),
    seed: int | None = typer.Option(None, help="Seed (recorded and printed)."),
    players: str = typer.Option("A,B", help="Players for a roll-off, comma separated."),
) -> None:
    """Roll dice with the recorded-seed dice service (Core Rules §1.4, Perks §12.2-12.3)."""
    from warbench.kernel.dice import DiceExpr, SeededDice, TestKind

    dice = SeededDice(seed)
    try:
        key = what.strip().lower()
        for _ in range(times):
            if key == "scatter":
                s = dice.scatter()
                text = (
                    "Hit" if s.hit else f'{s.direction.value if s.direction else ""} {s.distance}"'
                )
                console.print(f"scatter: {text}")
            elif key in ("mastery", "skill", "aether"):
                t = dice.test(TestKind(key.capitalize()))
                extra = (
                    " (doubled)" if t.doubled else " (D6 HP Loss to the User)" if t.backlash else ""
                )
                verdict = "passed" if t.passed else "failed"
                console.print(f"{t.kind.value} Test: rolled {t.roll}, {verdict}{extra}")
            elif key in ("rolloff", "roll-off"):
                names = [p.strip() for p in players.split(",") if p.strip()]
                console.print(f"roll-off winner: {dice.roll_off(names)}")
            else:
                expr = DiceExpr.parse(what)
                console.print(f"{expr}: {dice.roll(expr)}")
    except WarbenchError as exc:
        raise fail(str(exc)) from None
    console.print(f"[dim]seed {dice.seed}[/]")
