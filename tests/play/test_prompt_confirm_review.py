"""The terminal's question before a listed action the legal actions ask about first (a WARSURGE
charge, Core Rules 001_d3f5e425c5e1196d.txt §4.3 L1985-1991; issue 10, session 32 review), with
odd answers: "n" in any case, text that is not an answer and a second number are "not made" and
the choice is asked again; Enter (or spaces) and "y"/"yes" make it; the input ending at the
question makes it too and the automatic player plays on (the session 31 review's ruling for a
typed Move: the question takes its default once the input ended)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.play.test_preview import _Legal, _PointCodec
from warbench.play import Budget, Decision
from warbench.play.players import PromptPlayer
from warbench.play.terminal import prompt_seat

LISTED = (1.0, 0.0)


class _Asking(_Legal):
    """The line game's legal actions, whose listed move is asked about first."""

    def asks_first(self, action: object) -> bool:
        return action == LISTED


def _choose(person: PromptPlayer[Any], legal: _Asking) -> Any:
    decision: Decision[Any] = Decision(0, "move", "line §1", "move along the line", (0.5, 0.0))
    return person.choose(None, legal, decision, Budget())  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("answers", "asked"),
    [
        (["1", "N", "1", "y"], 2),
        (["1", "garbage", "1", "YES"], 2),
        (["1", "2", "1", "   "], 2),  # a number is no answer to "make it?"; spaces are Enter
        (["1", ""], 1),
    ],
)
def test_odd_answers_to_make_it_L1985(answers: list[str], asked: int) -> None:
    prompts: list[str] = []
    lines: list[str] = []
    feed = iter(answers)

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return next(feed)

    legal = _Asking()
    person: PromptPlayer[Any] = PromptPlayer(
        _PointCodec(), read=read, write=lines.append, confirm=True
    )
    assert _choose(person, legal) == LISTED
    assert prompts.count("make it? [Y/n] ") == asked == legal.previews
    assert lines.count("not made: your choice again") == asked - 1
    assert next(feed, None) is None  # every answer read, none left over


def test_the_input_ending_at_make_it_makes_the_choice_and_hands_the_seat_on_L1985() -> None:
    lines: list[str] = []
    answers = iter(["1"])

    def read(prompt: str) -> str:
        got = next(answers, None)
        if got is None:
            raise EOFError
        return got

    fallback: Any = object()
    players: list[Any] = [None]
    person = prompt_seat(
        players, 0, _PointCodec(), fallback, write=lines.append, ended_note="input ended",
        read=read, confirm=True,
    )  # fmt: skip
    legal = _Asking()
    assert _choose(person, legal) == LISTED
    assert lines.count("input ended") == 1 and players[0] is fallback
    assert "not made: your choice again" not in lines
