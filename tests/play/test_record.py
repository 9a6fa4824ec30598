"""Protocol-level game records: JSON lines, replay with per-step digests, resume, refusals."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from warbench.kernel.errors import DataFileError
from warbench.play import (
    CHANCE,
    CallbackPlayer,
    GameRecord,
    ProtocolError,
    RandomLegalPlayer,
    SetupArgs,
    replay,
    run_game,
)
from warbench.play.record import RecordStep
from warbench.play.toy import DiceDuel


def played(duel: DiceDuel, setup: SetupArgs, seed: int = 11) -> GameRecord:
    run = run_game(duel, setup, [RandomLegalPlayer(1), RandomLegalPlayer(2)], seed)
    assert run.finished
    return run.record


def test_record_lines_header_steps_result(duel: DiceDuel, setup: SetupArgs) -> None:
    rec = played(duel, setup)
    rows = [json.loads(line) for line in rec.lines()]
    head = rows[0]
    assert head["type"] == "header" and head["format"] == "warbench-play-record/1"
    assert (head["ruleset"], head["ruleset_version"], head["seed"]) == (
        "toy-duel",
        "toy-duel-1",
        11,
    )
    assert head["rosters"] == list(setup.rosters) and head["options"] == dict(setup.options)
    steps = rows[1:-1]
    assert [r["step"] for r in steps] == list(range(1, len(steps) + 1))
    assert {r["actor"] for r in steps} == {-1, 0, 1}  # chance and both duellists
    assert all(len(r["digest"]) == 16 for r in steps)
    assert rows[-1]["type"] == "result" and rows[-1]["steps"] == len(steps)


def test_replay_reproduces_every_digest_and_the_result(
    duel: DiceDuel, setup: SetupArgs, tmp_path: Path
) -> None:
    rec = played(duel, setup)
    path = tmp_path / "duel.jsonl"
    rec.save(path)
    rep = replay(GameRecord.load(path))  # the ruleset comes from the registry
    assert rep.digests == [s.digest for s in rec.steps]
    assert rep.finished and rep.result is not None and rec.result is not None
    assert rep.result.winner == rec.result.winner


def test_replay_refuses_a_changed_digest(duel: DiceDuel, setup: SetupArgs) -> None:
    rec = played(duel, setup)
    s = rec.steps[4]
    rec.steps[4] = RecordStep(s.step, s.actor, s.action, "f" * 16)
    with pytest.raises(ProtocolError, match="replay differs from the record at step 5"):
        replay(rec, duel)


def test_replay_refuses_a_changed_result(duel: DiceDuel, setup: SetupArgs) -> None:
    rec = played(duel, setup)
    assert rec.result is not None
    rec.result = replace(rec.result, winner=None if rec.result.winner is not None else 0)
    with pytest.raises(ProtocolError, match="recorded result"):
        replay(rec, duel)


def test_replay_refuses_another_ruleset_version(duel: DiceDuel, setup: SetupArgs) -> None:
    rec = played(duel, setup)
    rec.header = replace(rec.header, ruleset_version="toy-duel-0")
    with pytest.raises(ProtocolError, match="made with toy-duel toy-duel-0"):
        replay(rec, duel)
    assert replay(rec, duel, verify=False).finished


def test_replay_names_an_illegal_step(duel: DiceDuel, setup: SetupArgs) -> None:
    rec = played(duel, setup)
    s = rec.steps[0]
    rec.steps[0] = RecordStep(1, 0, s.action, s.digest)  # chance's roll claimed by a player
    with pytest.raises(ProtocolError, match="step 1 of the record is illegal") as exc:
        replay(rec, duel)
    assert exc.value.rule == "toy §2"


def test_an_unfinished_record_resumes_to_the_same_game(duel: DiceDuel, setup: SetupArgs) -> None:
    full = played(duel, setup)
    cut = GameRecord.loads("\n".join(full.lines()[:8]))
    assert not cut.finished
    rep = replay(cut, duel)
    assert not rep.finished and rep.steps == 7 and rep.digests[-1] == full.steps[6].digest
    # players answer the rest with the recorded actions; chance is drawn again, the same way
    answers = [duel.actions.load(s.action) for s in full.steps[7:] if s.actor != CHANCE]
    player = CallbackPlayer(lambda ask: answers.pop(0))
    resumed = run_game(duel, setup, [player, player], seed=0, record=cut)
    assert resumed.record is cut and cut.dumps() == full.dumps() and not answers


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty record"),
        ('{"type": "step", "step": 1, "actor": 0, "action": {}, "digest": "x"}', "first line"),
        ("{nope", "line 1 is not JSON"),
        ('{"type": "header"}', "line 1: "),
    ],
)
def test_bad_record_text_is_one_line_error(text: str, message: str) -> None:
    with pytest.raises(DataFileError, match=message):
        GameRecord.loads(text)


def test_steps_out_of_order_are_refused(duel: DiceDuel, setup: SetupArgs) -> None:
    lines = played(duel, setup).lines()
    with pytest.raises(DataFileError, match="line 2: step 2, expected 1"):
        GameRecord.loads("\n".join([lines[0], lines[2]]))
    with pytest.raises(DataFileError, match="nothing may follow the result"):
        GameRecord.loads("\n".join([*lines, lines[1]]))
