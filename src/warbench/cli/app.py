"""The root ``warbench`` Typer application and its error handling.

Every :class:`~warbench.kernel.errors.WarbenchError` is printed as one line on stderr and the
process exits with status 2, never with a traceback.
"""

from __future__ import annotations

import sys

import typer
from rich.console import Console

from warbench.kernel.errors import WarbenchError

app = typer.Typer(
    name="warbench",
    help="An open workbench for build-your-own-army tabletop wargames.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console(width=None if sys.stdout.isatty() else 140)
err_console = Console(stderr=True)


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print one error line and return the Exit to raise."""
    err_console.print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)
    return typer.Exit(code)


def _register() -> None:
    # Command modules attach themselves to ``app`` on import.
    from warbench.cli import (  # noqa: F401
        dice_cmds,
        game_cmds,
        roster_cmds,
        ruleset_cmds,
        warengine_cmds,
        warsurge_cmds,
    )


def ruleset_alias(argv: list[str]) -> list[str]:
    """``odds --ruleset R …`` (R other than warsurge) is ``R odds …``: the ruleset's own command."""
    if not argv or argv[0] != "odds":
        return argv
    rest = list(argv[1:])
    for i, arg in enumerate(rest):
        value = None
        if arg in ("--ruleset", "-r") and i + 1 < len(rest):
            value, drop = rest[i + 1], 2
        elif arg.startswith("--ruleset="):
            value, drop = arg.split("=", 1)[1], 1
        if value is not None and value.lower() != "warsurge":
            del rest[i : i + drop]
            return [value.lower(), "odds", *rest]
    return argv


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``warbench`` script."""
    _register()
    args = ruleset_alias(list(sys.argv[1:] if argv is None else argv))
    try:
        app(args=args, standalone_mode=True)
    except WarbenchError as exc:  # pragma: no cover - typer re-raises through standalone mode
        err_console.print(f"[bold red]error:[/] {exc}", highlight=False, soft_wrap=True)
        sys.exit(2)
