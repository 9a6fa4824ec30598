"""A new player at the terminal (session 32, lane s32-user): the mistakes a first hour makes.

* A file of the wrong kind among the three a player meets first (a unit file, a game roster
  of ``examples/warsurge/rosters/``, a WARSURGE roster of ``roster export``) is one line saying
  what the file is and which command reads it, not a schema complaint about its first
  unexpected key (``models = [...] is not allowed; allowed: player, team, units``,
  ``roster.name = None is not allowed ...; and 107 more problems``).
* ``warbench play``: a choice number out of range is "not one of the choices", not "an action
  is a JSON object, not 999"; text that is not JSON says so without a parser's column.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.test_roster_cli import run
from warbench.play.players import Budget

EX = Path(__file__).parents[2] / "examples" / "warsurge"
GAME_ROSTER = EX / "rosters" / "skirmish_a.yaml"
WARSURGE_ROSTER = EX / "roster_files" / "strike_force.yaml"
UNIT_FILE = EX / "troopers_laser.yaml"
WEAPON_FILE = EX / "energy_sword.yaml"


def one_line(err: str) -> str:
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    return err


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'wb.db'}"


def test_points_of_a_game_roster_says_it_is_a_game_roster(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run(capsys, "points", str(GAME_ROSTER))
    assert code == 2
    err = one_line(err)
    assert f"{GAME_ROSTER}: is a game roster (Red, 3 units), not a unit file" in err
    assert "warbench points reads a unit file" in err
    assert f"warbench battle {GAME_ROSTER} OTHER_ROSTER" in err
    assert "is not allowed" not in err


def test_points_of_a_warsurge_roster_points_to_roster_show(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run(capsys, "points", str(WARSURGE_ROSTER))
    assert code == 2
    err = one_line(err)
    assert "is a WARSURGE roster (Strike Force, 3 units), not a unit file" in err
    assert f"warbench roster show {WARSURGE_ROSTER}" in err


def test_points_of_a_weapon_file_says_it_is_a_weapon_file(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run(capsys, "points", str(WEAPON_FILE))
    assert code == 2
    assert "is a weapon file (Energy Sword), not a unit file" in one_line(err)
    assert "warbench armoury add" in err


def test_odds_with_a_game_roster_as_attacker(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "odds", str(GAME_ROSTER), str(UNIT_FILE))
    assert code == 2
    assert "is a game roster (Red, 3 units), not a unit file" in one_line(err)


@pytest.mark.parametrize("command", ["battle", "play", "simulate"])
def test_a_game_with_a_unit_file_says_it_is_a_unit_file(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    extra = ["--games", "2", "--no-save"] if command == "simulate" else []
    code, _, err = run(capsys, command, str(UNIT_FILE), str(GAME_ROSTER), *extra)
    assert code == 2
    err = one_line(err)
    assert f"{UNIT_FILE}: is a unit file (Troopers), not a game roster or WARSURGE roster" in err
    assert f"warbench points {UNIT_FILE}" in err
    assert "allowed: player, team, units" not in err


def test_a_game_with_a_weapon_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "battle", str(GAME_ROSTER), str(WEAPON_FILE))
    assert code == 2
    assert "is a weapon file (Energy Sword), not a game roster" in one_line(err)


@pytest.mark.parametrize("command", ["show", "validate"])
def test_roster_show_of_a_game_roster_says_what_it_is(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    code, _, err = run(capsys, "roster", command, str(GAME_ROSTER))
    assert code == 2
    err = one_line(err)
    assert "is a game roster (Red, 3 units), not a WARSURGE roster" in err
    assert "more problems" not in err


def test_roster_import_of_a_unit_file(capsys: pytest.CaptureFixture[str], db: str) -> None:
    code, _, err = run(capsys, "roster", "import", str(UNIT_FILE), "--db", db)
    assert code == 2
    err = one_line(err)
    assert "is a unit file (Troopers), not a WARSURGE roster" in err
    assert f"warbench roster add ROSTER {UNIT_FILE}" in err


def test_the_right_files_still_work(capsys: pytest.CaptureFixture[str], db: str) -> None:
    assert run(capsys, "points", str(EX / "s2_3_attack_examples.yaml"))[0] == 0
    assert run(capsys, "roster", "show", str(WARSURGE_ROSTER))[0] == 0
    assert run(capsys, "roster", "import", str(WARSURGE_ROSTER), "--db", db)[0] == 0


def test_prompt_a_choice_number_out_of_range_is_not_one_of_the_choices() -> None:
    from warbench.play import PromptPlayer
    from warbench.play.toy import SAMPLE_SETUP, DiceDuel

    duel = DiceDuel()
    s = duel.setup(SAMPLE_SETUP["rosters"], SAMPLE_SETUP["board"], SAMPLE_SETUP["options"], 1)
    s, _ = duel.apply(s, duel.actions.load({"kind": "initiative", "first": 0}), -1)
    d = duel.pending(s)[0]
    legal = duel.legal_actions(s, d.player)
    n = len(list(legal))
    answers = iter([str(n + 98), "0", "hello there", "1"])
    shown: list[str] = []
    p = PromptPlayer(duel.actions, read=lambda _: next(answers), write=shown.append)
    assert p.choose(duel.view(s, d.player), legal, d, Budget()) == next(iter(legal))
    text = "\n".join(shown)
    assert f"not understood: {n + 98} is not one of the choices; a number 1-{n}" in text
    assert "not understood: 0 is not one of the choices" in text
    assert "not understood: 'hello there' is not JSON" in text
    assert "an action is a JSON object" not in text and "column" not in text


def test_play_cites_rules_by_book_not_by_source_file(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    from warbench.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO("999\n\n\n\n"))
    with pytest.raises(SystemExit) as done:
        main(["play", str(GAME_ROSTER), str(EX / "rosters" / "skirmish_b.yaml"), "--seed", "1"])
    text = capsys.readouterr().out
    assert not done.value.code, text
    assert "Red: choose a Deployment Zone [Core Rules §3.6]" in text
    assert "a unit's action, or pass [Core Rules §2.2]" in text
    assert "001_d3f5e425c5e1196d.txt" not in text and "000_94ecc6a4c74d351b.txt" not in text
    # the questions name the side as the board and the events do, not "player 0"
    assert "\nplayer 0:" not in text and "Red: Game Turn 1, Deploy Phase" in text
    # one zone to choose: "the number 1", not "a number 1-1"
    assert "999 is not one of the choices; the number 1, Enter for the default" in text


def test_battle_and_replay_say_where_the_svg_went(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record, picture = tmp_path / "g.jsonl", tmp_path / "g.svg"
    other = str(EX / "rosters" / "skirmish_b.yaml")
    args = ["battle", str(GAME_ROSTER), other, "--seed", "1", "-q", "--record", str(record)]
    code, out, err = run(capsys, *args, "--svg", str(picture))
    assert code == 0, err
    assert f"record: {record}" in out and f"svg: {picture}" in out
    assert picture.read_text().startswith("<svg") or "<svg" in picture.read_text()[:500]
    again = tmp_path / "again.svg"
    code, out, err = run(capsys, "replay", str(record), "--svg", str(again))
    assert code == 0, err
    assert f"svg: {again}" in out and again.exists()


def _commands(group: object) -> list[list[str]]:
    """Every command path under a click group (``[["battle"], ["roster", "add"], ...]``)."""
    subs = getattr(group, "commands", {})
    paths: list[list[str]] = []
    for name, cmd in subs.items():
        inner = _commands(cmd)
        paths += [[name, *p] for p in inner] if inner else [[name]]
    return paths


def test_help_texts_show_no_restructuredtext_double_backticks(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`warbench --help` listed "Play a full game (Standard, or Advanced with ``--playstyle...":
    the docstrings' reST quoting, printed as it is. Every command's help is plain text."""
    import typer

    from warbench.cli.app import _register, app

    _register([])
    paths = _commands(typer.main.get_command(app))
    assert ["battle"] in paths and ["roster", "limit"] in paths
    for path in [[], *paths]:
        code, out, err = run(capsys, *path, "--help")
        assert code == 0, (path, err)
        assert "``" not in out, (path, [line for line in out.splitlines() if "``" in line])
