"""``warbench battle`` with rosters made by ``warbench roster`` and games saved in the database.

Issue 4: "saved games are stored (JSON lines on disk and in the database from the roster issue)
and can be resumed"; the roster's price for each unit is its Point Cost in the game (Perks
§12.1 Current Point Cost).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from warbench.cli.app import main

ROOT = Path(__file__).parents[2]
EXAMPLES = ROOT / "examples" / "warsurge"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out + out.err


def test_battle_with_an_exported_roster_saved_in_the_database_replays(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path / 'w.db'}"
    assert run(capsys, "faction", "new", "Humans", "--db", db)[0] == 0
    unit = str(EXAMPLES / "troopers_laser.yaml")
    assert run(capsys, "faction", "add-unit", "Humans", unit, "--db", db)[0] == 0
    assert run(capsys, "roster", "new", "Strike", "--limit", "1000", "--db", db)[0] == 0
    code, out = run(capsys, "roster", "add", "Strike", "Troopers", "--models", "10", "--db", db)
    assert code == 0, out
    exported = tmp_path / "strike.yaml"
    assert run(capsys, "roster", "export", "Strike", "-o", str(exported), "--db", db)[0] == 0
    rival = str(EXAMPLES / "rosters" / "skirmish_b.yaml")
    code, out = run(
        capsys, "battle", str(exported), rival, "--seed", "5", "-q", "--save", "g1", "--db", db
    )
    assert code == 0, out
    assert "saved game 1: g1" in out and "Strike:" in out
    code, out = run(capsys, "replay", "--game", "1", "--db", db)
    assert code == 0, out
    assert "replay identically (warsurge protocol record); game finished" in out


def test_replay_needs_a_record_or_a_saved_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out = run(capsys, "replay")
    assert code == 2 and "either a RECORD file or --game ID" in out
    code, out = run(capsys, "replay", "--game", "3", "--db", f"sqlite:///{tmp_path / 'x.db'}")
    assert code == 2 and "no saved game with id 3" in out and "Traceback" not in out
