"""A person's seat at the terminal, beside :class:`~warbench.play.players.PromptPlayer`.

Every ``warbench play`` (WARSURGE, The WarEngine 2.1, Collision) seats a person the same way: a
:class:`PromptPlayer` reading lines from the terminal, and when the input ends (end of file, or
no input to read at all) the seat goes to an automatic player for the rest of the game, the
question being asked then taking its default. :func:`prompt_seat` is that loop, written once.
"""

from __future__ import annotations

from collections.abc import Callable, MutableSequence
from typing import Any

from warbench.play.core import Codec
from warbench.play.players import Player, PromptPlayer

__all__ = ["prompt_seat"]


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
) -> PromptPlayer[Any]:
    """Seat a person at ``players[side]`` and return their :class:`PromptPlayer`.

    ``read`` asks for a line (the built-in ``input`` when ``None``, looked up at each
    question). When it raises ``EOFError`` or ``OSError`` (the input ended, or there is none),
    ``ended_note`` is written once, the seat is handed to ``fallback`` for every later
    decision, and this question takes its default (an empty answer); nothing is read again.
    ``confirm``: an action typed as JSON that places pieces is previewed and made only once
    confirmed (:attr:`PromptPlayer.confirm`).
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
        codec, read=ask, write=write, describe=describe, confirm=confirm
    )
    players[side] = person
    return person
