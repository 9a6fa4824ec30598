"""Usage errors (bad option values, unknown options, missing arguments) are one line too
(issue 18 review: click printed a Usage / Try / Error block of three lines or more)."""

from __future__ import annotations

from pathlib import Path

import pytest

from warbench.cli import main


@pytest.mark.parametrize(
    "argv",
    [
        ["roll", "2D6", "--seed", "-1"],
        ["roll", "2D6", "--no-such-option"],
        ["roster", "new", "X", "--limit", "0"],
        ["roster", "add"],
    ],
)
def test_usage_errors_are_one_line_with_exit_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error:"), err
    assert len(err.splitlines()) == 1, err
    assert "--help" in err


def test_help_still_prints_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["roll", "--help"])
    assert exit_info.value.code == 0
    assert "roll" in capsys.readouterr().out.lower()


def test_a_successful_command_exits_normally(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["roll", "2D6", "--seed", "3", "--no-keep"])
    assert exit_info.value.code == 0
    assert "2D6" in capsys.readouterr().out


@pytest.mark.parametrize("command", ["battle", "play"])
def test_game_seeds_are_whole_numbers_from_0_like_roll_and_odds(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    roster = str(
        Path(__file__).parents[2] / "examples" / "warsurge" / "rosters" / "skirmish_a.yaml"
    )
    with pytest.raises(SystemExit) as exit_info:
        main([command, roster, roster, "--seed", "-1"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "--seed" in err and len(err.splitlines()) == 1
