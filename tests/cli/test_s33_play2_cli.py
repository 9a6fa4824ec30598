"""The rest of a new player's walk at the terminal (session 33, lane s33-play2).

* ``warbench play --ruleset warengine`` drew no board at all, where WARSURGE and Collision draw
  theirs: the table is now drawn before the person's questions (once while it stands
  unchanged) and at the end, the placing strips of L287-293 marked and each unit's figures
  named by the numbers the questions use ("Reaver #1").
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from warbench.cli.app import main

EX = Path(__file__).resolve().parents[2] / "examples"
FORCE = str(EX / "warengine" / "stormreavers.yaml")


def _play(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str, answers: str
) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    try:
        main(["play", *args])
    except SystemExit as exc:
        assert not exc.code, capsys.readouterr().out
    out = capsys.readouterr()
    return out.out + out.err


def test_warengine_board_is_drawn_before_each_question_L287_293(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = _play(
        capsys,
        monkeypatch,
        "--ruleset",
        "warengine",
        FORCE,
        FORCE,
        "--seed",
        "4",
        "--turns",
        "1",
        answers="\n\n",
    )
    first = text.index("StormReavers (1): place Reaver #1 [The WarEngine 2.1 L287]")
    before = text[:first]
    # the table, its key and the other force's figures already placed, before the question
    assert 'Ruins (48" x 48")' in before
    assert "Key: . open ground, : placing strip (L287-293)" in before
    assert re.search(r"A: Reaver Squad \(#13, .*\) \(StormReavers \(2\), \d+ models?\)", before)
    # the second question has the first figure on the table, drawn again before it
    second = text.index("StormReavers (1): place Reaver #2")
    between = text[first:second]
    assert re.search(r"Reaver Squad \(#1\) \(StormReavers \(1\), 1 model\)", between), between
    # and the table at the end, after the input ended
    assert text.rindex("Key: . open ground") > text.index("input ended")
