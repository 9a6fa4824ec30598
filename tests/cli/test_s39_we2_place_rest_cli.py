"""``warbench play --ruleset warengine`` asked each placement before turn 1 one by one (12 for a
StormReavers force), where the play page has "Place the rest of your figures as suggested"
(``POST .../rest``): the terminal offers the same as the answer ``r`` (issue 10, session 39,
s39-we2; L303-309: a player places all the figures of a Movement group in a row). A ruleset
that does not offer it shows no ``r`` and does not understand one."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest

from warbench.cli.app import main
from warbench.play import PromptPlayer
from warbench.play.core import Decision

EX = Path(__file__).resolve().parents[2] / "examples"
FORCE = str(EX / "warengine" / "stormreavers.yaml")


def _warengine(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, answers: str
) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    args = ["--ruleset", "warengine", FORCE, FORCE, "--seed", "4", "--turns", "1"]
    try:
        main(["play", *args])
    except SystemExit as exc:
        assert not exc.code, capsys.readouterr().out
    out = capsys.readouterr()
    return out.out + out.err


def test_r_places_the_rest_as_suggested_L303_309(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = _warengine(capsys, monkeypatch, answers="r\n")
    first = text.index("StormReavers (1): place Reaver #1 [The WarEngine 2.1 L303]")
    assert "  r. Place the rest of your figures as suggested" in text[first:]
    ended = text.index("input ended")
    # one placement question asked; the others made at the suggested places, each said
    asked = re.findall(r"StormReavers \(1\): place \w", text[:ended])
    made = re.findall(r"StormReavers \(1\): as suggested: .+ at \(", text[:ended])
    assert len(asked) == 1 and len(made) == 11, (asked, made)
    # the next question asked (then the input ended) is not a placement
    last = text.rindex("StormReavers (1): ", 0, ended)
    assert "as suggested" not in text[last : text.index("\n", last)]
    assert not text[last:].startswith("StormReavers (1): place ")


def test_without_r_each_placement_is_asked(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = _warengine(capsys, monkeypatch, answers="\n\n")
    assert "as suggested:" not in text
    # two answered, the third asked when the input ended
    assert len(re.findall(r"StormReavers \(1\): place \w", text)) == 3


def test_a_ruleset_without_runs_shows_no_r() -> None:
    lines: list[str] = []
    answers = iter(["r", "1"])
    codec: Any = type(
        "C", (), {"dump": staticmethod(lambda a: a), "load": staticmethod(lambda d: d)}
    )
    person: PromptPlayer[Any] = PromptPlayer(
        codec, read=lambda _: next(answers), write=lines.append
    )
    chosen = person.choose(None, ["a", "b"], Decision(0, "place", "", "place it", "a"), None)  # type: ignore[arg-type]
    assert chosen == "a"
    assert not any(line.startswith("  r.") for line in lines)
    assert any("not understood" in line and "r for the rest" not in line for line in lines)
