"""A person's seat at the terminal, beside :class:`~warbench.play.players.PromptPlayer`.

Every ``warbench play`` (WARSURGE, The WarEngine 2.1, Collision) seats a person the same way: a
:class:`PromptPlayer` reading lines from the terminal, and when the input ends (end of file, or
no input to read at all) the seat goes to an automatic player for the rest of the game, the
question being asked then taking its default. :func:`prompt_seat` is that loop, written once.
"""

from __future__ import annotations

import math
from collections.abc import Callable, MutableSequence
from typing import Any

from warbench.play.core import Codec
from warbench.play.players import Player, PromptPlayer

__all__ = ["BOOKS", "board_cell", "book_names", "choices_fit", "distinct_names", "prompt_seat"]

#: The rulebooks by their source files (``/work/shared/seeds/README.md``): a rule shown to a
#: player is cited by its book ("Collision L557-565"), not by the file's hash name (the play
#: pages' ``bookNames`` in ``frontend/src/common.ts`` holds the same table).
BOOKS: dict[str, str] = {
    "001_d3f5e425c5e1196d.txt": "Core Rules",
    "000_94ecc6a4c74d351b.txt": "Perks",
    "004_f4ea5693af0644ce.txt": "The WarEngine 2.1",
    "003_fc239e71486306e1.txt": "Collision",
    "002_bb37dae35014233a.txt": "Godslayer",
}


def book_names(text: str) -> str:
    """``text`` with each rulebook's source file called by its book, lines kept.

    >>> book_names("player 0: place the relic token [003_fc239e71486306e1.txt L557-565]")
    'player 0: place the relic token [Collision L557-565]'
    >>> book_names("Core Rules (001_d3f5e425c5e1196d.txt) §3.2")
    'Core Rules §3.2'
    """
    for name, book in BOOKS.items():
        text = text.replace(f"{book} ({name})", book).replace(f"{book} {name}", book)
        text = text.replace(name, book)
    return text


def _lines() -> int:
    """The terminal's height in lines; 0 when output goes to no terminal (a file, a pipe, a
    test) and ``LINES`` does not say."""
    import shutil

    return shutil.get_terminal_size((0, 0)).lines


def columns() -> int | None:
    """The terminal's width in columns, to wrap a board's key at (s34-play2); ``None`` when
    output goes to no terminal and ``COLUMNS`` does not say (a file keeps one line)."""
    import shutil

    return shutil.get_terminal_size((0, 0)).columns or None


def board_cell(height: float, *, spare: int = 16, lines: int | None = None) -> float:
    """Inches per character row for a board ``height`` inches tall to fit the terminal with
    ``spare`` lines for its title, key and legend (half-inch steps; 1 when it fits at one
    character an inch, or when there is no terminal to fit: a file keeps the full board).
    Session 33: the 48-row board was taller than a 40-line terminal.

    >>> board_cell(48, lines=40)
    2.0
    >>> board_cell(48, lines=80), board_cell(48, lines=0)
    (1.0, 1.0)
    """
    n = _lines() if lines is None else lines
    if n <= 0:
        return 1.0
    rows = max(8, n - spare)
    return max(1.0, math.ceil(2 * height / rows) / 2)


def choices_fit(*, spare: int = 10, per: int = 2, most: int = 40, lines: int | None = None) -> int:
    """How many numbered choices (``per`` lines each) fit the terminal under their question
    with ``spare`` lines for the question, the typed-JSON hint and the prompt; ``most`` when
    there is no terminal. Session 33: a Deploy question's 45 two-line choices scrolled the
    question off a 40-line terminal.

    >>> choices_fit(lines=40), choices_fit(lines=0), choices_fit(lines=10)
    (15, 40, 4)
    """
    n = _lines() if lines is None else lines
    if n <= 0:
        return most
    return max(4, min(most, (n - spare) // per))


def distinct_names(names: list[str]) -> list[str]:
    """The seats' names, each told apart: a name two seats share gets its seat's number
    (a force against a copy of itself: "StormReavers (1)", "StormReavers (2)").

    >>> distinct_names(["StormReavers", "StormReavers"])
    ['StormReavers (1)', 'StormReavers (2)']
    >>> distinct_names(["Red", "Blue"])
    ['Red', 'Blue']
    """
    return [f"{n} ({i + 1})" if names.count(n) > 1 else n for i, n in enumerate(names)]


def prompt_seat(
    players: MutableSequence[Player[Any]],
    side: int,
    codec: Codec[Any],
    fallback: Player[Any],
    *,
    write: Callable[[str], None],
    ended_note: str,
    read: Callable[[str], str] | None = None,
    describe: Callable[[Any, Any], str | None] | None = None,
    confirm: bool = False,
    seat_names: tuple[str, ...] = (),
    runs: dict[str, str] | None = None,
) -> PromptPlayer[Any]:
    """Seat a person at ``players[side]`` and return their :class:`PromptPlayer`.

    ``read`` asks for a line (the built-in ``input`` when ``None``, looked up at each
    question). When it raises ``EOFError`` or ``OSError`` (the input ended, or there is none),
    ``ended_note`` is written once, the seat is handed to ``fallback`` for every later
    decision, and this question takes its default (an empty answer); nothing is read again.
    ``confirm``: an action typed as JSON that places pieces is previewed and made only once
    confirmed (:attr:`PromptPlayer.confirm`). ``seat_names``: the seats' names, said in each
    question instead of "player 0" (:attr:`PromptPlayer.seat_names`). ``runs``: the decision
    kinds answered for the rest of a run with ``r`` (:attr:`PromptPlayer.runs`).
    """
    ended = False

    def ask(prompt: str) -> str:
        nonlocal ended
        if ended:
            return ""
        try:
            return (read or input)(prompt)
        except (EOFError, OSError):
            ended = True
            players[side] = fallback
            write(ended_note)
            return ""

    person: PromptPlayer[Any] = PromptPlayer(
        codec,
        read=ask,
        write=write,
        describe=describe,
        confirm=confirm,
        seat_names=seat_names,
        runs=dict(runs or {}),
    )
    players[side] = person
    return person
