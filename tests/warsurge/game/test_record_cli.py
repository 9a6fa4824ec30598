"""Game records (save, load, replay, resume, tampering) and the battle/replay commands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warbench.cli import app
from warbench.cli.app import _register
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.battlefield import sample_board
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.geom import Field
from warbench.rulesets.warsurge.game.io import load_game_roster
from warbench.rulesets.warsurge.game.players import ScriptedPlayer
from warbench.rulesets.warsurge.game.record import GameRecord, load_record, replay
from warbench.rulesets.warsurge.game.render import render_state_text
from warbench.rulesets.warsurge.game.state import build_setup

from .helpers import ROSTERS

runner = CliRunner()
_register()
A = str(ROSTERS / "skirmish_a.yaml")
B = str(ROSTERS / "skirmish_b.yaml")


def _record(tmp_path: Path, steps: int | None = None) -> tuple[GameRecord, Path]:
    players = [load_game_roster(A), load_game_roster(B)]
    setup = build_setup(players, Field(sample_board("open_field_42x32")))
    state, _ = engine.new_game(setup, 5)
    rec = GameRecord(setup, 5)
    ps = [ScriptedPlayer(), ScriptedPlayer()]
    while not state.over and (steps is None or len(rec.actions) < steps):
        side = engine.acting_side(state)
        assert side is not None
        action = ps[side].choose(state)
        state, _ = engine.apply(state, action)
        rec.add(action, state)
    path = tmp_path / "game.jsonl"
    rec.save(path)
    return rec, path


def test_record_round_trip_replays_identically(tmp_path: Path) -> None:
    rec, path = _record(tmp_path)
    loaded = load_record(path)
    assert len(loaded.actions) == len(rec.actions)
    rp = replay(loaded)
    assert rp.state.over and rp.state.digest() == rec.result["digest"]  # type: ignore[index]
    assert "Value on the battlefield" in render_state_text(rp.state)


def test_record_resume_a_game_in_progress(tmp_path: Path) -> None:
    _, path = _record(tmp_path, steps=10)
    loaded = load_record(path)
    rp = replay(loaded)
    assert not rp.state.over and rp.steps == 10
    state = rp.state
    ps = [ScriptedPlayer(), ScriptedPlayer()]
    while not state.over:
        side = engine.acting_side(state)
        assert side is not None
        a = ps[side].choose(state)
        state, _ = engine.apply(state, a)
        loaded.add(a, state)
    assert replay(loaded).state.digest() == state.digest()


def test_tampered_record_is_refused(tmp_path: Path) -> None:
    _, path = _record(tmp_path)
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    header["seed"] = 6
    lines[0] = json.dumps(header)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(RulesError):
        replay(load_record(path))


def test_cli_battle_and_replay(tmp_path: Path) -> None:
    rec = tmp_path / "b.jsonl"
    svg = tmp_path / "b.svg"
    result = runner.invoke(
        app,
        [
            "battle",
            A,
            B,
            "--board",
            "open_field_42x32",
            "--seed",
            "3",
            "--record",
            str(rec),
            "--svg",
            str(svg),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "points remaining" in result.output and "== Game Turn 1 ==" in result.output
    assert svg.read_text().lstrip().startswith("<?xml")
    again = runner.invoke(app, ["replay", str(rec)])
    assert again.exit_code == 0, again.output
    assert "replay identically" in again.output


def test_cli_battle_json_and_errors(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["battle", A, B, "--board", "open_field_42x32", "--seed", "2", "--json"]
    )
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert set(data) >= {"winner", "values", "turns", "seed"}
    bad = runner.invoke(app, ["battle", A, str(tmp_path / "nope.yaml")])
    assert bad.exit_code == 2 and "file not found" in bad.output
    board = runner.invoke(app, ["battle", A, B, "--board", "moon"])
    assert board.exit_code == 2 and "no such file or sample board" in board.output
    missing = runner.invoke(app, ["replay", str(tmp_path / "none.jsonl")])
    assert missing.exit_code == 2


def test_cli_replay_reads_a_protocol_record_too(tmp_path: Path) -> None:
    # issue 10: `replay` verifies a protocol record (play.record, as `warbench play` and
    # run_game write) with its registered ruleset, as well as a `battle --record` file
    from warbench.play import SetupArgs, run_game
    from warbench.rulesets.warsurge.game.io import roster_to_data
    from warbench.rulesets.warsurge.game.protocol import WarsurgeRuleset

    rosters = tuple(
        roster_to_data(load_game_roster(ROSTERS / f))
        for f in ("skirmish_a.yaml", "skirmish_b.yaml")
    )
    run = run_game(WarsurgeRuleset(), SetupArgs(rosters, None, {}), [], 3, automate={"*"})
    path = tmp_path / "p.jsonl"
    run.record.save(path)
    svg = tmp_path / "p.svg"
    out = runner.invoke(app, ["replay", str(path), "--svg", str(svg), "--show"])
    assert out.exit_code == 0, out.output
    assert "replay identically (warsurge protocol record); game finished" in out.output
    assert svg.read_text().lstrip().startswith("<?xml")
    # a tampered protocol record is refused on one line
    lines = path.read_text().splitlines()
    step = json.loads(lines[3])
    step["digest"] = "0" * 16
    lines[3] = json.dumps(step)
    path.write_text("\n".join(lines) + "\n")
    bad = runner.invoke(app, ["replay", str(path)])
    assert bad.exit_code != 0 and "error:" in bad.output


def test_cli_replay_still_reads_a_warsurge_record_file(tmp_path: Path) -> None:
    # issue 10: battle --record now writes the protocol's record; a record file in the
    # earlier WARSURGE format (record.py) still replays, and one of another ruleset version is
    # refused on one line naming both versions
    from warbench.rulesets.warsurge import RULESET_VERSION

    rec, path = _record(tmp_path)
    first = json.loads(path.read_text().splitlines()[0])
    assert first["format"] == "warbench-game-record/1"
    out = runner.invoke(app, ["replay", str(path)])
    assert out.exit_code == 0, out.output
    assert f"verified: {len(rec.actions)} actions replay identically; game finished" in out.output
    lines = path.read_text().splitlines()
    head = json.loads(lines[0])
    head["ruleset_version"] = "0.0.1-old"
    old = tmp_path / "old.jsonl"
    old.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n")
    bad = runner.invoke(app, ["replay", str(old)])
    assert bad.exit_code == 2
    message = bad.output.strip()
    assert "\n" not in message and "0.0.1-old" in message and RULESET_VERSION in message


def test_cli_battle_record_is_the_protocol_record(tmp_path: Path) -> None:
    from warbench.play import GameRecord as PlayRecord
    from warbench.play import replay as play_replay

    path = tmp_path / "p.jsonl"
    out = runner.invoke(app, ["battle", A, B, "--seed", "6", "-q", "--record", str(path)])
    assert out.exit_code == 0, out.output
    rec = PlayRecord.load(path)
    assert rec.header.ruleset == "warsurge" and rec.finished
    rp = play_replay(rec)
    assert rp.finished and rp.steps == len(rec.steps)
    # the same game as the engine's own loop with the scripted players
    players = [load_game_roster(A), load_game_roster(B)]
    state, _ = engine.new_game(build_setup(players, Field(sample_board("ruins_48x48"))), 6)
    ps = [ScriptedPlayer(), ScriptedPlayer()]
    digests = []
    while not state.over:
        side = engine.acting_side(state)
        assert side is not None
        state, _ = engine.apply(state, ps[side].choose(state))
        digests.append(state.digest())
    assert digests == [s.digest for s in rec.steps]
