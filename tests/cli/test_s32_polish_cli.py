"""Small defects a new player met at the terminal (session 32, lane s32-polish; the s32-user
walk's findings 8 and 10).

* ``warbench play`` drew the text board after every step: between two of your questions it
  came twice (after your step and after the AI's), 60 lines each. Now it is drawn before each
  of your questions and at the end of the game.
* The board's legend said "Red: Troopers (player 1, 10 models)" where everything else names the
  sides (Red, Blue); now "Red: Troopers (10 models)", and a name without its side gets it
  ("Troopers (Blue, 2 models)").
"""

from __future__ import annotations

import io
import re
from itertools import pairwise
from pathlib import Path

import pytest

from warbench.cli.app import main
from warbench.rulesets.warsurge.battlefield import render_text, sample_board

ROSTERS = Path(__file__).parents[2] / "examples" / "warsurge" / "rosters"
BOARD_TITLE = re.compile(r'^Ruins \(48" x 48"\)$', re.M)
QUESTION = re.compile(r"^Red: .*\[Core Rules §[\d.]+\]$", re.M)


def play(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, answers: str) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    a, b = (str(ROSTERS / f) for f in ("skirmish_a.yaml", "skirmish_b.yaml"))
    with pytest.raises(SystemExit) as exit_info:
        main(["play", a, b, "--seed", "3", "--turns", "4", "--no-confirm"])
    out = capsys.readouterr().out
    assert not exit_info.value.code, out
    return out


def test_play_draws_the_board_once_before_each_question(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # the Turn Master, the zone, then Enter (the default) for the first ten questions
    out = play(capsys, monkeypatch, "1\n1\n" + "\n" * 10)
    questions = [m.start() for m in QUESTION.finditer(out)]
    assert len(questions) >= 6, out[:3000]
    # between two questions the board is drawn exactly once (it was twice: after your step
    # and again after the AI's)
    for start, end in pairwise(questions):
        assert len(BOARD_TITLE.findall(out, start, end)) == 1, out[start:end]
    # once the input ends the AI plays on: the board is drawn at the end only
    tail = out.split("input ended: the scripted AI plays on for you", 1)[1]
    assert len(BOARD_TITLE.findall(tail)) == 1
    assert tail.rfind('Ruins (48" x 48")') > tail.rfind("  [")  # after the last event


def test_the_board_legend_names_the_sides_not_player_numbers(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = play(capsys, monkeypatch, "1\n1\n\n\n\n\n")
    assert "A: Red: Troopers (10 models)" in out
    assert re.search(r"^[A-F]: Blue: Gut-Hackers \(6 models\)$", out, re.M)
    assert "(player 1," not in out and "(player 2," not in out


def test_render_text_gives_a_side_its_name_when_the_unit_name_lacks_it() -> None:
    board = sample_board("ruins_48x48")
    units = [("Troopers", 0, [((10.0, 10.0), 0.5)]), ("Red: Bikes", 0, [((20.0, 10.0), 0.5)])]
    text = render_text(board, units, sides=("Red", "Blue"))
    assert "A: Troopers (Red, 1 model)" in text and "B: Red: Bikes (1 model)" in text
    # without side names the legend numbers the players as before (the golden boards)
    assert "A: Troopers (player 1, 1 model)" in render_text(board, units)  # not "1 models"


@pytest.mark.parametrize("command", ["battle", "play", "simulate"])
def test_turns_help_gives_the_least_game_length_L554(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """`--turns 1` is refused ("at least 4 [§2.1]", Core Rules L554: "this is at least 4 Game
    Turns") but `--help` said only "Agreed Game Length"; now it gives the range."""
    with pytest.raises(SystemExit) as exit_info:
        main([command, "--help"])
    assert not exit_info.value.code
    words = " ".join(re.sub(r"[│╭╮╰╯─]", " ", capsys.readouterr().out).split())
    assert "Agreed Game Length, 4 Game Turns or more (§2.1" in words, words


def test_play_names_the_deployment_zones_in_words_L645(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Deployment Zone choice (L645-647) was listed as JSON only ("1. {"kind": "zone",
    "zone": 0}"), though docs/cli.md promises choices in words; now by the zone's name."""
    out = play(capsys, monkeypatch, "1\n")
    question = out.split("Red: choose a Deployment Zone [Core Rules §3.6]", 1)[1]
    assert question.lstrip().startswith(
        '1. Deployment Zone south edge  (default)\n       {"kind": "zone", "zone": 0}\n'
        '  2. Deployment Zone north edge\n       {"kind": "zone", "zone": 1}'
    ), question[:300]


def test_play_board_has_a_key_to_its_terrain_characters(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The text board drew `: . ~ X # !` with nothing saying what they are (s32-user finding
    10); a key line under the map now names those drawn, and only those."""
    out = play(capsys, monkeypatch, "1\n")
    board = out.split('Ruins (48" x 48")\n', 1)[1]
    rows = board.splitlines()[:48]
    assert all(len(r) == 48 for r in rows)  # the map itself is unchanged
    # then the compass (session 34, s34-play2: tests/cli/test_s34_play2_terminal.py)
    assert board.splitlines()[48].startswith(
        "Key: . open ground, : Deployment Zone, ~ difficult, ! dangerous, "
        "X blocks line of sight, # impassable; compass: north at the top"
    )
    # a board without a key (the golden boards, the SVG's sibling) keeps none
    assert "Key:" not in render_text(sample_board("ruins_48x48"))


def test_simulate_says_what_its_figures_are(capsys: pytest.CaptureFixture[str]) -> None:
    """`simulate` printed "A win rate: 0.0% [0.0%, 65.8%] (0-0-2 of 2)" and "one side dealt
    nothing in 2", leaving a new player to guess the brackets (s32-user finding 17)."""
    a, b = (str(ROSTERS / f) for f in ("skirmish_a.yaml", "skirmish_b.yaml"))
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", a, b, "--games", "2", "--jobs", "1", "--seed", "3", "--no-save"])
    out = capsys.readouterr().out
    assert not exit_info.value.code, out
    line = re.search(
        r"^  A win rate \[95% interval\] \(A's wins-draws-losses of games\): "
        r"[\d.]+% \[[\d.]+%, [\d.]+%\] \((\d+)-(\d+)-(\d+) of 2\)$",
        out,
        re.M,
    )
    assert line is not None, out
    assert sum(int(g) for g in line.groups()) == 2
    assert re.search(r"games where one side dealt no damage: \d+$", out, re.M), out
