"""WARSURGE commands: ``chart``, ``odds`` and ``demo``."""

from __future__ import annotations

import typer
from rich.table import Table

from warbench.cli.app import app, console, fail
from warbench.rulesets.warsurge.chart import MAX_DEFENCE, MAX_POWER, attack_requirement


def chart_table(power: int | None = None, defence: int | None = None) -> Table:
    """The Attack Dice Chart (or one row / column / cell of it) as a rich table."""
    powers = [power] if power is not None else list(range(1, MAX_POWER + 1))
    defences = [defence] if defence is not None else list(range(MAX_DEFENCE + 1))
    table = Table(title="Attack Dice Chart (Core Rules §5.7)", padding=(0, 1), show_edge=False)
    table.add_column("Pwr\\Def", justify="right", style="bold")
    for d in defences:
        table.add_column(f"{d}+" if d == MAX_DEFENCE else str(d), justify="center")
    for p in powers:
        cells = [str(attack_requirement(p, d) or "-") for d in defences]
        table.add_row(f"{p}+" if p == MAX_POWER else str(p), *cells)
    return table


@app.command()
def chart(
    power: int | None = typer.Option(None, "--power", "-p", help="Weapon Power (1-20+)."),
    defence: int | None = typer.Option(None, "--defence", "-d", help="Target Defence (0-15+)."),
) -> None:
    """Show the Attack Dice Chart, a row of it, or one cell."""
    if power is not None and power < 1:
        raise fail(f"--power {power} is not on the chart; allowed: 1 to 20 (higher reads as 20)")
    if defence is not None and defence < 0:
        raise fail(
            f"--defence {defence} is not on the chart; allowed: 0 to 15 (higher reads as 15)"
        )
    console.print(chart_table(power, defence))
