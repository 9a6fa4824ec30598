"""``warbench godslayer``: the Godslayer special abilities catalogue (002_bb37dae35014233a.txt).

The Godslayer core rules are not in the sources: the catalogue is for reading and searching
(docs/godslayer.md).
"""

from __future__ import annotations

import json
from typing import Annotated

import typer

from warbench.cli.app import app, console, fail
from warbench.kernel.errors import WarbenchError

godslayer = typer.Typer(
    name="godslayer",
    help="Godslayer special abilities: list, search and show (the core rules are not in the "
    "sources).",
    no_args_is_help=True,
)
app.add_typer(godslayer, name="godslayer")


@godslayer.command()
def abilities(
    category: Annotated[
        str | None,
        typer.Option("--category", "-c", help="general, magic, melee, ranged or movement."),
    ] = None,
    search: Annotated[
        str | None, typer.Option("--search", "-s", help="Text in the name or description.")
    ] = None,
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
) -> None:
    """List the special abilities (all 97, or one category, or those matching --search)."""
    from rich.table import Table

    from warbench.rulesets.godslayer.catalog import AbilityCatalog

    try:
        catalog = AbilityCatalog.load()
        if search is not None:
            found = catalog.search(search, category)
        elif category is not None:
            found = catalog.by_category(category)
        else:
            found = catalog.abilities
    except WarbenchError as exc:
        raise fail(str(exc)) from None
    if as_json:
        console.print_json(json.dumps([a.to_dict() for a in found]))
        return
    table = Table(title=f"Godslayer special abilities: {len(found)}", show_edge=False)
    for col in ("Name", "Category", "Lines", "Summary", "Links"):
        table.add_column(col, overflow="fold")
    for a in found:
        summary = a.text if len(a.text) <= 90 else a.text[:87] + "..."
        links = ", ".join(f"{lk.target} ({lk.kind})" for lk in a.links)
        table.add_row(a.book_name, a.category.value, a.source.split()[-1], summary, links)
    console.print(table)


@godslayer.command()
def show(
    name: Annotated[str, typer.Argument(help="Ability name, e.g. Regeneration or 'Tough/#'.")],
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Show an ability's full text, parameters, source lines and links (every category)."""
    from warbench.rulesets.godslayer.catalog import AbilityCatalog

    try:
        found = AbilityCatalog.load().find(name)
    except WarbenchError as exc:
        raise fail(str(exc)) from None
    if as_json:
        console.print_json(json.dumps([a.to_dict() for a in found]))
        return
    for a in found:
        console.print(f"[bold]{a.book_name}[/] ({a.category.value}) {a.source}", highlight=False)
        console.print(a.text, highlight=False, markup=False)
        if a.parameters:
            params = "; ".join(f"{k}: {v}" for k, v in a.parameters.items())
            console.print(f"parameters: {params}", highlight=False, markup=False)
        for lk in a.links:
            console.print(
                f"link: {lk.kind} {lk.target!r} ({lk.relation}): {lk.note}",
                highlight=False,
                markup=False,
            )
        console.print()
