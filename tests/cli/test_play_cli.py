"""``warbench play``: a person against the scripted AI at the terminal, through the protocol
(issue 10): answers are read from the input, explained when refused, and the game is recorded."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest

from warbench.cli.app import main
from warbench.play import GameRecord, replay
from warbench.play.record import Replay

ROOT = Path(__file__).parents[2]
ROSTERS = ROOT / "examples" / "warsurge" / "rosters"


def test_play_reads_answers_explains_refusals_and_records(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # a line that is not an action, an illegal action, then the default; then the input ends
    monkeypatch.setattr("sys.stdin", io.StringIO('nonsense\n{"kind": "pass"}\n\n'))
    out = tmp_path / "game.jsonl"
    a, b = (str(ROSTERS / f) for f in ("skirmish_a.yaml", "skirmish_b.yaml"))
    with pytest.raises(SystemExit) as exit_info:
        main(["play", a, b, "--seed", "1", "--record", str(out)])
    text = capsys.readouterr().out
    assert not exit_info.value.code, text
    assert "Red: choose a Deployment Zone [Core Rules §3.6]" in text
    assert "not understood" in text and "refused:" in text
    assert "input ended: the scripted AI plays on for you" in text
    assert "Game Turn 1, Deploy Phase" in text  # the board drawn before your question
    assert "Winner: " in text or "Draw" in text
    record = GameRecord.load(out)
    rep: Replay[Any] = replay(record)
    assert rep.result is not None and record.result is not None
    assert rep.digests == [s.digest for s in record.steps]


def test_play_needs_two_rosters(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["play", str(ROSTERS / "skirmish_a.yaml")])
    assert exit_info.value.code
    assert "exactly two rosters" in capsys.readouterr().err


@pytest.mark.parametrize("ruleset", ["warengine", "collision"])
def test_play_refuses_an_ai_the_terminal_game_does_not_seat(
    ruleset: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--ai`` was silently ignored for The WarEngine and Collision (the scripted AI played)."""
    with pytest.raises(SystemExit) as exit_info:
        main(["play", "--ruleset", ruleset, "--ai", "search", "a.json", "b.json"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--ai search" in err and "allowed: scripted" in err


def test_play_advanced_asks_counter_actions_in_words_s9_3(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--playstyle advanced`` plays the Advanced game (§9): the person is asked for a
    Counter Action (§9.3, L3825) with each choice in words, its JSON under it; without the
    option the game is Standard and asks none. Every answer is the default (Enter)."""
    a, b = (str(ROSTERS / f) for f in ("skirmish_a.yaml", "skirmish_b.yaml"))
    texts = {}
    for style in ("advanced", "standard"):
        monkeypatch.setattr("sys.stdin", io.StringIO("\n" * 400))
        with pytest.raises(SystemExit) as exit_info:
            main(["play", a, b, "--seed", "3", "--turns", "4", "--playstyle", style])
        texts[style] = capsys.readouterr().out
        assert not exit_info.value.code, texts[style]
    adv = texts["advanced"]
    assert "a Counter Action (none, attack, guard, perk) [Core Rules §9.3" in adv
    assert "Red: Troopers: no Counter Action  (default)" in adv
    assert "Counter Attack the attacking unit (costs as an Attack Action, §9.3)" in adv
    assert '{"choice": "attack", "kind": "counter", "unit": 0}' in adv
    assert 'Red: Troopers: deploy at (24", 9.6")' in adv  # units by name, inches
    assert re.search(r"Command Points: Red \d+, Blue \d+", adv)  # what a choice may spend
    assert "Counter Action" not in texts["standard"]
    assert "Command Points" not in texts["standard"]


def test_play_playstyle_is_checked(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["play", "--playstyle", "fast", "a.yaml", "b.yaml"])
    assert exit_info.value.code
    assert "allowed: standard, advanced" in capsys.readouterr().err


def test_play_choose_casualties_names_the_models_each_choice_removes_s5_11(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--choose-casualties`` (issue 10, session 38): your casualties are asked (§5.11), the
    models numbered from 1 and each choice saying which it removes, the engine asked (they
    were the engine's choice always, and its words "casualties: unit 3, models [0, 1, ...]")."""
    monkeypatch.setattr("sys.stdin", io.StringIO("\n" * 120))  # Enter: the suggested choice
    a, b = (str(ROSTERS / f) for f in ("skirmish_a.yaml", "skirmish_b.yaml"))
    with pytest.raises(SystemExit) as exit_info:
        main(["play", a, b, "--seed", "3", "--side", "1", "--turns", "4", "--choose-casualties"])
    text = capsys.readouterr().out
    assert not exit_info.value.code, text
    question = (
        "Blue: Dead Dogs loses 3 HP to Red: Sniper Troopers: choose the casualties among "
        "models 1 to 10 [Core Rules §5.11, §5.13]"
    )
    assert f"\n{question}\n" in text  # not "Blue: Blue: Dead Dogs"
    assert "1. Blue: Dead Dogs: models 1 to 3 become casualties (§5.11)  (default)" in text
    assert "2. Blue: Dead Dogs: models 8 to 10 become casualties (§5.11)" in text
