"""The root ``warbench`` Typer application and its error handling.

Every :class:`~warbench.kernel.errors.WarbenchError` is printed as one line on stderr and the
process exits with status 2, never with a traceback.
"""

from __future__ import annotations

import gc
import re
import sys
from collections.abc import Sequence
from importlib import import_module
from typing import TYPE_CHECKING, Any, cast

import typer

from warbench.kernel.errors import WarbenchError, one_line

if TYPE_CHECKING:
    from rich.console import Console

app = typer.Typer(
    name="warbench",
    help="An open workbench for build-your-own-army tabletop wargames.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _plain_argument_names() -> None:
    """Name positional arguments in help as a person expects (click's convention): the usage
    line ``warbench play [OPTIONS] ROSTERS...``, not typer 0.29's ``{rosters}...``, an optional
    one ``[WHAT]``; the Arguments section ``ROSTERS... <Path>``, not ``rosters...
    <list[Path]>``. A ``metavar`` given is kept as written. (typer draws these in private
    methods of ``TyperArgument``; without them, as in another typer, its own names stay.)"""
    from typer.core import TyperArgument

    def shown(arg: Any) -> str:
        return str(arg.metavar) if arg.metavar is not None else str(arg.name).upper()

    def usage_name(arg: Any) -> str:
        name = shown(arg) if arg.required else f"[{shown(arg)}]"
        return name + ("..." if arg.nargs != 1 else "")

    def help_name(arg: Any) -> str:
        return shown(arg) + ("..." if arg.metavar is None and arg.nargs != 1 else "")

    typed = getattr(TyperArgument, "display_type_rich", None)

    def help_type(arg: Any, ctx: Any) -> str | None:
        label = typed(arg, ctx) if typed is not None else None
        # a list argument's "..." already says "several": each one's type, <Path>
        if isinstance(label, str) and label.startswith("<list[") and label.endswith("]>"):
            return f"<{label[6:-2]}>"
        return label

    if hasattr(TyperArgument, "_usage_display_name") and hasattr(
        TyperArgument, "_rich_display_name"
    ):
        setattr(TyperArgument, "_usage_display_name", usage_name)  # noqa: B010
        setattr(TyperArgument, "_rich_display_name", help_name)  # noqa: B010
        if typed is not None:
            setattr(TyperArgument, "display_type_rich", help_type)  # noqa: B010
        # a missing one is named as the usage names it: "Missing argument 'ROSTERS...'"
        setattr(TyperArgument, "get_error_hint", lambda arg: f"'{usage_name(arg)}'")  # noqa: B010


_plain_argument_names()


class LazyConsole:
    """A rich ``Console`` made on first use.

    Start-up (issue 18): importing rich's console costs about 20 ms, which a command that prints
    plain lines (``warbench roll``, with :func:`echo`) need not pay.
    """

    def __init__(self, *, stderr: bool = False) -> None:
        self._stderr = stderr
        self._console: Console | None = None

    def _get(self) -> Console:
        if self._console is None:
            from rich.console import Console

            stream = sys.stderr if self._stderr else sys.stdout
            width = None if self._stderr or stream.isatty() else 140
            # emoji off: a text board's ':A:' (unit A in a zone) is the board, not an emoji
            self._console = Console(stderr=self._stderr, width=width, emoji=False)
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self._get(), name)


console = cast("Console", LazyConsole())
err_console = cast("Console", LazyConsole(stderr=True))


#: The longest error line printed; values in messages are short previews already.
MAX_ERROR_CHARS = 2000


def error_line(message: str) -> str:
    """``message`` as one printable line: no line breaks or control characters, at most
    :data:`MAX_ERROR_CHARS` characters, and no rich markup (``[/]`` in a name is text)."""
    from rich.markup import escape

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


@app.callback()
def _root() -> None:
    # A callback keeps ``app`` a group of commands even when only one command module is loaded.
    pass


# Start-up (issue 18): the modules that register each top-level command, so that a command loads
# only its own module (``warbench roll`` never imports the roster or game commands). Commands
# not listed here still work: their first word loads every module. Checked by
# tests/cli/test_startup_imports.py.
COMMAND_MODULES: dict[str, tuple[str, ...]] = {
    "roll": ("dice_cmds",),
    "chart": ("warsurge_cmds",),
    "odds": ("warsurge_cmds",),
    "demo": ("warsurge_cmds",),
    "battle": ("game_cmds",),
    "replay": ("game_cmds",),
    "play": ("play_cmds",),
    "points": ("ruleset_cmds",),
    "roster": ("ruleset_cmds", "roster_cmds"),
    "faction": ("roster_cmds",),
    "armoury": ("roster_cmds",),
    "warengine": ("warengine_cmds",),
    "collision": ("collision_cmds",),
    "godslayer": ("godslayer_cmds",),
    "serve": ("web_cmds",),
    "simulate": ("simulate_cmds",),
    "perks": ("perks_cmds",),
}
ALL_MODULES = (
    "collision_cmds",
    "dice_cmds",
    "game_cmds",
    "godslayer_cmds",
    "perks_cmds",
    "play_cmds",
    "roster_cmds",
    "ruleset_cmds",
    "simulate_cmds",
    "warengine_cmds",
    "warsurge_cmds",
    "web_cmds",
)


def _register(argv: Sequence[str] | None = None) -> None:
    """Import the command modules (they attach themselves to ``app``): all of them, or only
    those of the command ``argv`` names."""
    first = argv[0] if argv else None
    for name in COMMAND_MODULES.get(first or "", ALL_MODULES):
        import_module(f"warbench.cli.{name}")


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


#: a rule reference in an option's help text: "Core Rules §3.1", "§5.3", "Perks §12.5"
_RULE_REF = re.compile(r"(?:(?:Core Rules|Perks) )?§\d+(?:\.\d+)*")


def _rule_of(exc: Exception) -> str:
    """`` [Core Rules §3.1]`` when the option or argument a usage error is about names its rule
    in its help text, else ``""`` (session 34: ``--cover-bonus 9`` named the bound, not §5.6)."""
    param = getattr(exc, "param", None)
    found = _RULE_REF.search(str(getattr(param, "help", None) or ""))
    return f" [{found.group(0)}]" if found else ""


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``warbench`` script (``argv`` defaults to the process's arguments)."""
    args = ruleset_alias(list(sys.argv[1:] if argv is None else argv))
    _register(args)
    # typer 0.29 carries its own copy of click; its exceptions live here (no public alias).
    from typer._click import exceptions as click_exc

    try:
        # Not standalone: click's usage errors come back here and are printed as one line
        # (issue 18: "the CLI prints one line and exits non-zero"), not click's three-line
        # Usage / Try / Error block.
        code = app(args=args, standalone_mode=False)
    except click_exc.NoArgsIsHelpError as exc:
        exc.show()  # `warbench` alone (or a group alone) prints its help, as before
        sys.exit(2)
    except click_exc.UsageError as exc:  # also BadParameter, NoSuchOption, MissingParameter
        command = exc.ctx.command_path if exc.ctx is not None else "warbench"
        fail(f"{exc.format_message()}{_rule_of(exc)} (see '{command} --help')")
        sys.exit(2)
    except typer.Abort:
        fail("aborted", 1)
        sys.exit(1)
    except WarbenchError as exc:
        fail(str(exc))
        sys.exit(2)
    else:
        # As in click's standalone mode, the process always ends through SystemExit.
        sys.exit(code if isinstance(code, int) else 0)
    finally:
        if argv is None:
            # The process ends now. Start-up (issue 18): the interpreter's last garbage
            # collection would walk every object typer, pydantic and rich created (~20-40 ms,
            # measured in benchmarks/bench_startup.py); frozen objects are left to the OS.
            gc.freeze()
