"""Commands shared by every ruleset, chosen with ``--ruleset``: ``points``, ``roster validate``.

Each ruleset's own commands (``warbench warengine …``) do the work; these forward to them so
that ``warbench points --ruleset warengine FILE`` and ``warbench warengine points FILE`` are the
same code. For WARSURGE, ``points`` is ``warbench.cli.warsurge_points`` and ``roster validate``
is ``warbench.cli.roster_cmds``.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path

import typer

from warbench.cli.app import app, fail


class Ruleset(StrEnum):
    """The rulesets warbench knows."""

    WARSURGE = "warsurge"
    WARENGINE = "warengine"


RULESET_OPTION = typer.Option(Ruleset.WARSURGE, "--ruleset", "-r", help="Ruleset of the file.")

roster = typer.Typer(name="roster", help="Rosters and forces.", no_args_is_help=True)
app.add_typer(roster, name="roster")


def forward(ruleset: Ruleset, args: list[str]) -> None:
    """Run ``warbench <ruleset> <args>``; exit with its status."""
    if ruleset is Ruleset.WARSURGE:
        raise fail(
            "WARSURGE point costs and rosters need the points model, which is not in this "
            "version yet; allowed rulesets for this command: warengine"
        )
    from warbench.cli.warengine_cmds import warengine

    command = typer.main.get_command(warengine)
    try:
        command.main(args=args, prog_name=f"warbench {ruleset.value}", standalone_mode=False)
    except typer.Exit as exc:
        raise typer.Exit(exc.exit_code) from None


@app.command()
def points(
    file: Path = typer.Argument(..., help="Profile, figure or force file (YAML or JSON)."),
    ruleset: Ruleset = RULESET_OPTION,
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    why: bool = typer.Option(
        False, "--why", help="WARSURGE: also list every priced perk, its method and its share."
    ),
) -> None:
    """Itemised point cost of a file (WARSURGE: warbench points model; WarEngine: v2.1 tables)."""
    if ruleset is Ruleset.WARSURGE:
        from warbench.cli.warsurge_points import show_points

        show_points(file, as_json, why)
        return
    forward(ruleset, ["points", str(file), *(["--json"] if as_json else [])])


@roster.command("validate")
def roster_validate(
    target: str = typer.Argument(
        ..., metavar="ROSTER_OR_FILE", help="Saved roster name, or roster/force file."
    ),
    ruleset: Ruleset = RULESET_OPTION,
    as_json: bool = typer.Option(False, "--json", help="Print violations as JSON."),
    db: str | None = typer.Option(None, "--db", help="Database URL (WARSURGE rosters)."),
) -> None:
    """List every violation of a roster or force at once; exit 1 when there are any."""
    if ruleset is Ruleset.WARSURGE:
        from warbench.cli.roster_cmds import validate_command

        validate_command(target, as_json, db)
        return
    forward(ruleset, ["validate", target, *(["--json"] if as_json else [])])
