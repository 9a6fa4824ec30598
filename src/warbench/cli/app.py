"""The root ``warbench`` Typer application and its error handling.

Every :class:`~warbench.kernel.errors.WarbenchError` is printed as one line on stderr and the
process exits with status 2, never with a traceback.
"""

from __future__ import annotations

import sys

import typer
from rich.console import Console
from rich.markup import escape

from warbench.kernel.errors import WarbenchError, one_line

app = typer.Typer(
    name="warbench",
    help="An open workbench for build-your-own-army tabletop wargames.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console(width=None if sys.stdout.isatty() else 140)
err_console = Console(stderr=True)


#: The longest error line printed; values in messages are short previews already.
MAX_ERROR_CHARS = 2000


def error_line(message: str) -> str:
    """``message`` as one printable line: no line breaks or control characters, at most
    :data:`MAX_ERROR_CHARS` characters, and no rich markup (``[/]`` in a name is text)."""
    text = one_line(message)
    if len(text) > MAX_ERROR_CHARS:
        text = text[: MAX_ERROR_CHARS - 1] + "…"
    return escape(text)


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print one error line and return the Exit to raise."""
    err_console.print(
        f"[bold red]error:[/] {error_line(message)}", highlight=False, soft_wrap=True, emoji=False
    )
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
        fail(str(exc))
        sys.exit(2)
