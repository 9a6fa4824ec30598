"""Progress bars for long work: Monte Carlo sampling, costing many units, batches of games.

Rules code never imports rich (STYLE principle 7); it takes an optional callback
``progress(done, total)`` (:data:`ProgressCallback`) and calls it as work finishes. The commands
get that callback from :func:`progress_bar`: a transient rich progress bar on stderr, or
``None`` (no bar, no text) under ``--json`` and whenever stdout or stderr is not a terminal, so
piped or redirected output never holds progress text.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

ProgressCallback = Callable[[int, int], None]
"""``progress(done, total)``: ``done`` of ``total`` pieces of work are finished."""


def on_terminal() -> bool:
    """Both stdout and stderr are terminals (a person is watching, nothing is piped)."""
    return sys.stdout.isatty() and sys.stderr.isatty()


@contextmanager
def progress_bar(
    description: str, *, as_json: bool = False, console: Console | None = None
) -> Iterator[ProgressCallback | None]:
    """A progress bar for the work inside the ``with`` block, as a callback (or ``None``).

    The bar is drawn on stderr and removed when the block ends. It is ``None`` under
    ``--json`` and off a terminal; a ``console`` (tests) forces the bar onto that console.
    """
    if as_json or (console is None and not on_terminal()):
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console or Console(stderr=True),
        transient=True,
    )
    with bar:
        task = bar.add_task(description, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


def tick(callback: ProgressCallback | None, done: int, total: int) -> None:
    """Call ``callback(done, total)`` if there is one."""
    if callback is not None:
        callback(done, total)
