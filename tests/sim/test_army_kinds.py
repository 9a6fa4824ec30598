"""The every-kind-of-army measurement (issue 15, session 28, ``sim.army_kinds``)."""

from __future__ import annotations

import pytest

from warbench.play.core import ProtocolError
from warbench.sim.army_kinds import HEADER, main, measure, mirror


def test_a_mirror_holds_the_same_army_under_two_names() -> None:
    """A game needs two players (Core Rules 001_d3f5e425c5e1196d.txt §3.3)."""
    a, b = mirror("big")
    assert isinstance(a, dict) and isinstance(b, dict)
    assert a["units"] == b["units"] and a["player"] != b["player"]


def test_measure_plays_each_copy_half_the_games_and_tallies_them() -> None:
    (res,) = measure(2, names=["big"], backend="inline")
    p = res.pairing
    assert len(p.rows) == 2 and p.first_on == ("A", "B")
    assert p.rate.games == 2
    assert 0 <= res.untouched <= p.rate.draws
    assert res.row().startswith("| big | ")
    with pytest.raises(ProtocolError, match="games 3: an even number"):
        measure(3, names=["big"])


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["3"], "games 3: an even number from 2"),
        (["2", "--player", "bogus"], "unknown player kind 'bogus'; known: "),
        (["2", "--opponent", "tactical:9"], "unknown tactical level '9'; known: '1', '2'"),
        (["2", "--workers", "0"], "workers 0: a whole number from 1"),
    ],
)
def test_bad_input_is_one_line_and_exit_status_2(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main([*argv, "--names", "big"])
    assert exit_.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == "" and says in captured.err and len(captured.err.splitlines()) == 1


def test_the_command_prints_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    main(["2", "--names", "big"])
    out = capsys.readouterr().out
    assert out.startswith(HEADER) and "| big | " in out and "| all | " in out
