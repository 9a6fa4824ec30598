"""A file of the wrong kind (a unit file where a weapon file is expected) or a directory where
a file is expected: one line naming what was given and what the command expects (issue 18
follow-up)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.test_roster_cli import run

EX = Path(__file__).parents[2] / "examples" / "warsurge"


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'wb.db'}"


def one_line(err: str) -> str:
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    return err


def test_armoury_add_a_unit_file_says_it_is_a_unit_file(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    code, _, err = run(capsys, "armoury", "add", str(EX / "herald.yaml"), "--db", db)
    assert code == 2
    err = one_line(err)
    assert "herald.yaml: is a unit file (Herald), not a weapon file" in err
    assert "armoury add expects weapon files (weapon:" in err
    assert "warbench faction add-unit FACTION" in err


def test_armoury_add_a_directory(capsys: pytest.CaptureFixture[str], db: str) -> None:
    code, _, err = run(capsys, "armoury", "add", str(EX), "--db", db)
    assert code == 2
    assert f"{EX}: is a directory; armoury add expects weapon files" in one_line(err)


def test_armoury_add_a_weapon_file_still_works(capsys: pytest.CaptureFixture[str], db: str) -> None:
    code, out, err = run(capsys, "armoury", "add", str(EX / "plasma_beam.yaml"), "--db", db)
    assert code == 0, err
    assert "Plasma Beam" in out


@pytest.mark.parametrize("which", ["ATTACKER", "TARGET"])
def test_odds_with_a_directory_names_the_unit_file_expected(
    capsys: pytest.CaptureFixture[str], which: str
) -> None:
    files = [str(EX), str(EX / "troopers_10.yaml")]
    if which == "TARGET":
        files.reverse()
    code, _, err = run(capsys, "odds", *files)
    assert code == 2
    err = one_line(err)
    assert f"{EX}: is a directory; warbench odds expects the {which} unit file" in err


def test_faction_add_unit_of_a_weapon_file_or_a_directory(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    run(capsys, "faction", "new", "F", "--db", db)
    code, _, err = run(capsys, "faction", "add-unit", "F", str(EX / "plasma_beam.yaml"), "--db", db)
    assert code == 2
    err = one_line(err)
    assert "plasma_beam.yaml: is a weapon file (Plasma Beam), not a unit file" in err
    assert "warbench armoury add" in err
    code, _, err = run(capsys, "faction", "add-unit", "F", str(EX), "--db", db)
    assert code == 2 and f"{EX}: is a directory; faction add-unit expects unit files" in err


def test_odds_with_a_weapon_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "odds", str(EX / "troopers_10.yaml"), str(EX / "plasma_beam.yaml"))
    assert code == 2
    assert "is a weapon file (Plasma Beam), not a unit file; warbench odds (TARGET)" in one_line(
        err
    )
