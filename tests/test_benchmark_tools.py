"""The measuring tools under ``benchmarks/`` that are not pytest benchmarks still run (issue 10):
``instructions.py`` (the work cachegrind counts), ``sight_questions.py`` (one sight question,
session 34) and ``same_games.py`` (are two trees' games the very same?). Each is run once, as a
script, the way docs/game.md runs them, so a change that breaks one fails here, not in the next
speed pass."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )


def test_instructions_plays_one_scripted_1000_point_game() -> None:
    done = _run(str(BENCH / "instructions.py"), "games", "1")
    assert done.returncode == 0, done.stderr
    assert "seed 0:" in done.stdout and "actions" in done.stdout


def test_sight_questions_asks_the_games_questions_and_keeps_their_answers(tmp_path: Path) -> None:
    answers = tmp_path / "answers.pickle"
    done = _run(str(BENCH / "sight_questions.py"), "1", "--answers", str(answers))
    assert done.returncode == 0, done.stderr
    count = int(done.stdout.split(" questions")[0].split()[-1])
    assert count > 100  # three scripted 1000-point games ask a few hundred
    assert answers.stat().st_size > 0


def test_same_games_finds_a_tree_equal_to_itself_and_names_a_game_that_differs(
    tmp_path: Path,
) -> None:
    first = tmp_path / "a.json"
    done = _run(str(BENCH / "same_games.py"), str(first))
    assert done.returncode == 0, done.stderr
    games = json.loads(first.read_text())
    assert len(games) == 28
    same = _run(str(BENCH / "same_games.py"), "--compare", str(first), str(first))
    assert same.returncode == 0 and "differing: none" in same.stdout
    name = sorted(games)[0]
    games[name]["final"] = "0" * 16
    other = tmp_path / "b.json"
    other.write_text(json.dumps(games))
    differs = _run(str(BENCH / "same_games.py"), "--compare", str(first), str(other))
    assert differs.returncode == 1 and name in differs.stdout
