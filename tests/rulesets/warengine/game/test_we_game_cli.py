"""``warbench play --ruleset warengine``: two force files, the engine plays on when the input
ends; an unknown ruleset is one line and a non-zero exit."""

from __future__ import annotations

from pathlib import Path

import pytest

from warbench.cli.app import main
from warbench.play.record import GameRecord, replay

EXAMPLE = str(Path(__file__).resolve().parents[4] / "examples/warengine/stormreavers.yaml")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out + out.err


def test_play_warengine_to_the_end(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "game.jsonl"
    code, text = run(
        capsys,
        "play",
        "--ruleset",
        "warengine",
        EXAMPLE,
        EXAMPLE,
        "--seed",
        "5",
        "--turns",
        "1",
        "--record",
        str(out),
    )
    assert code == 0, text
    assert "input ended" in text and "victory points" in text
    rec = GameRecord.load(out)
    assert replay(rec).digests == [s.digest for s in rec.steps]


def test_play_refuses_an_unknown_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    code, text = run(capsys, "play", "--ruleset", "chess", EXAMPLE, EXAMPLE)
    assert code != 0 and "allowed: warsurge, warengine" in text


def test_prompt_seat_hands_the_seat_over_once_when_the_input_ends() -> None:
    """The one terminal loop of every ``warbench play`` (play/terminal.py): answers are read
    until the input ends; then the note is written once, this question takes its default and
    every later one goes to the fallback player."""
    from typing import Any

    from warbench.play import AutomaticPlayer, RandomLegalPlayer
    from warbench.play.terminal import prompt_seat
    from warbench.rulesets.warengine.game.protocol import WarEngineRuleset

    lines = iter(["1"])
    written: list[str] = []

    def read(prompt: str) -> str:
        try:
            return next(lines)
        except StopIteration:
            raise OSError("no input") from None

    auto: AutomaticPlayer[Any] = AutomaticPlayer(RandomLegalPlayer(0))
    players: list[Any] = [auto, auto]
    person = prompt_seat(
        players,
        1,
        WarEngineRuleset().actions,
        auto,
        write=written.append,
        ended_note="ended",
        read=read,
    )
    assert players[1] is person
    assert person.read("> ") == "1"
    assert person.read("> ") == "" and players[1] is auto
    assert person.read("> ") == "" and written == ["ended"]
