"""``warbench perks``: the WARSURGE perk ranks and which of them a game plays (issue 11).

``--coverage`` counts, by family, the ranks that a game-level test plays (the registry
``effects/data/coverage.json``, checked against the test suite) and the ranks whose row in the
effects table says what they do; ``--missing`` lists the ranks not in play yet; ``--json``
prints every rank with its source line, row status and tests.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer

from warbench.cli.app import app, console, fail
from warbench.kernel.errors import WarbenchError


@app.command()
def perks(
    coverage: Annotated[
        bool, typer.Option("--coverage", help="Ranks in play (played by a game-level test).")
    ] = False,
    missing: Annotated[
        bool, typer.Option("--missing", help="List the ranks not in play yet.")
    ] = False,
    family: Annotated[
        str | None, typer.Option("--family", "-f", help="Only this family (Affliction, Mode …).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
) -> None:
    """WARSURGE perks in play: by family, from the effects table and the game-level tests."""
    from warbench.rulesets.warsurge.effects.coverage import coverage_report

    try:
        rows = coverage_report()
    except WarbenchError as exc:
        raise fail(str(exc)) from None
    if family is not None:
        families = sorted({r.family for r in rows})
        chosen = [f for f in families if f.lower() == family.lower()]
        if not chosen:
            raise fail(f"family {family!r} is not one of {', '.join(families)}")
        rows = [r for r in rows if r.family == chosen[0]]
    by_family: dict[str, list[int]] = {}
    for r in rows:
        counts = by_family.setdefault(r.family, [0, 0, 0])
        counts[0] += 1
        counts[1] += r.implemented
        counts[2] += r.in_play
    total = [sum(c[i] for c in by_family.values()) for i in range(3)]
    if as_json:
        doc = {
            "ranks": total[0],
            "with_effects": total[1],
            "in_play": total[2],
            "families": {
                f: {"ranks": c[0], "with_effects": c[1], "in_play": c[2]}
                for f, c in by_family.items()
            },
            "perks": [
                {
                    "name": r.name,
                    "family": r.family,
                    "kind": r.kind,
                    "source": r.source,
                    "with_effects": r.implemented,
                    "in_play": r.in_play,
                    "tests": list(r.tests),
                }
                for r in rows
            ],
        }
        console.print_json(json.dumps(doc))
        return
    from rich.table import Table

    if coverage or not missing:
        table = Table(title=f"WARSURGE perks in play: {total[2]}/{total[0]}", show_edge=False)
        for col in ("Family", "Ranks", "With effects", "In play"):
            table.add_column(col, justify="left" if col == "Family" else "right")
        for f, (n, eff, play) in by_family.items():
            table.add_row(f, str(n), str(eff), str(play))
        table.add_row("total", *(str(x) for x in total), style="bold")
        console.print(table)
    if missing:
        out = Table(title="Not in play yet", show_edge=False)
        for col in ("Rank", "Family", "Source", "Effects row"):
            out.add_column(col, overflow="fold")
        for r in rows:
            if not r.in_play:
                out.add_row(r.name, r.family, r.source, "yes" if r.implemented else "no")
        console.print(out)
