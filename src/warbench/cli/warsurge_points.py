"""``warbench points FILE`` for WARSURGE: the itemised price of every unit in a file."""

from __future__ import annotations

import json
from pathlib import Path

from rich.table import Table

from warbench.cli.app import console, fail
from warbench.cli.progress import progress_bar, tick
from warbench.kernel.errors import WarbenchError
from warbench.rulesets.warsurge.points import (
    PerkShare,
    UnitCost,
    cost_unit,
    default_model,
    perk_shares,
)


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


def perks_table(cost: UnitCost, shares: tuple[PerkShare, ...]) -> Table:
    """Every priced perk of a unit: what carries it, how it is priced, and its share."""
    table = Table(title=f"{cost.unit}: priced perks", show_edge=False, padding=(0, 1))
    table.add_column("perk", style="bold")
    table.add_column("on")
    table.add_column("method")
    table.add_column("pts", justify="right")
    table.add_column("why")
    for s in shares:
        table.add_row(s.perk, s.on, s.method_text, f"{s.points:+.2f}", s.reason)
    if not shares:
        table.add_row("(none)", "", "", "", "no perk of this unit has a price")
    return table


def show_points(file: Path, as_json: bool, why: bool = False) -> None:
    """Print the itemised cost of every unit in ``file`` (one line and exit 2 on bad input).

    JSON always lists every priced perk (``perks``: perk, on, method, points, reason); the text
    shows that list with ``why``. Attack-math perks are ``measured by odds``: the unit's price
    minus its price without that perk.
    """
    from warbench.cli.file_kinds import units_in

    try:
        units = units_in(file, "warbench points")
        costs = []
        with progress_bar("costing units", as_json=as_json) as bar:
            for u in units:
                costs.append(cost_unit(u))
                tick(bar, len(costs), len(units))
        shares = [perk_shares(u) for u in units] if why or as_json else [() for _ in units]
    except WarbenchError as exc:
        raise fail(str(exc)) from None
    total = sum(c.total for c in costs)
    if as_json:
        docs = [
            {**c.to_dict(), "perks": [s.to_dict() for s in sh]}
            for c, sh in zip(costs, shares, strict=True)
        ]
        doc = {"points_model": default_model().version, "units": docs, "total": total}
        console.print_json(json.dumps(doc))
        return
    for c, sh in zip(costs, shares, strict=True):
        console.print(unit_table(c))
        if why:
            console.print(perks_table(c, sh))
        console.print()
    if len(costs) > 1:
        console.print(f"[bold]Total: {total} pts[/] ({len(costs)} units)")
