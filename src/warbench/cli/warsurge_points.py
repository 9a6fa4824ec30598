"""``warbench points FILE`` for WARSURGE: the itemised price of every unit in a file."""

from __future__ import annotations

import json
from pathlib import Path

from rich.table import Table

from warbench.cli.app import console, fail
from warbench.cli.progress import progress_bar, tick
from warbench.kernel.errors import WarbenchError
from warbench.rulesets.warsurge.io import load_units
from warbench.rulesets.warsurge.points import UnitCost, cost_unit, default_model


def unit_table(cost: UnitCost) -> Table:
    """One unit's price as a rich table: per-model lines of each group, then per-unit lines."""
    table = Table(
        title=f"{cost.unit}: {cost.total} pts",
        caption=f"points model {cost.version}",
        show_edge=False,
        padding=(0, 1),
    )
    table.add_column("item", style="bold")
    table.add_column("pts", justify="right")
    table.add_column("why")
    for g in cost.groups:
        weapons = ", ".join(g.weapons) or "no weapons"
        table.add_row(
            f"{g.count} × model [{weapons}]",
            f"{g.points:.2f}",
            f"{g.per_model:.3f} pts per model",
            style="cyan",
        )
        for item in g.items:
            pts = f"×{item.factor:.3f}" if item.factor is not None else f"{item.points:+.2f}"
            table.add_row(f"  {item.label}", pts, item.reason)
    for item in cost.unit_items:
        table.add_row(item.label, f"{item.points:+.2f}", f"once per unit: {item.reason}")
    for note in cost.notes:
        table.add_row("note", "", note, style="yellow")
    return table


def show_points(file: Path, as_json: bool) -> None:
    """Print the itemised cost of every unit in ``file`` (one line and exit 2 on bad input)."""
    try:
        units = load_units(file)
        costs = []
        with progress_bar("costing units", as_json=as_json) as bar:
            for u in units:
                costs.append(cost_unit(u))
                tick(bar, len(costs), len(units))
    except WarbenchError as exc:
        raise fail(str(exc)) from None
    total = sum(c.total for c in costs)
    if as_json:
        doc = {
            "points_model": default_model().version,
            "units": [c.to_dict() for c in costs],
            "total": total,
        }
        console.print_json(json.dumps(doc))
        return
    for c in costs:
        console.print(unit_table(c))
        console.print()
    if len(costs) > 1:
        console.print(f"[bold]Total: {total} pts[/] ({len(costs)} units)")
