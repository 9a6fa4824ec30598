"""``warbench simulate --ladder`` (issue 15): the strength ladder from the command line, with a
report page and its plot."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from warbench.cli.app import _register, app
from warbench.sim.lab import GameRow
from warbench.sim.ladder import Pairing, parse_pairings

ROSTERS = Path(__file__).parents[2] / "examples" / "warsurge" / "rosters"
_register(["simulate"])


def test_rungs_play_the_one_below_and_slash_names_a_pairing() -> None:
    assert parse_pairings(["random", "scripted", "tactical"]) == [
        ("scripted", "random"),
        ("tactical", "scripted"),
    ]
    assert parse_pairings(["tactical/random", "search/tactical"]) == [
        ("tactical", "random"),
        ("search", "tactical"),
    ]


def test_the_ladder_plays_both_roster_assignments_and_writes_its_report(tmp_path: Path) -> None:
    page = tmp_path / "ladder.html"
    res = CliRunner().invoke(
        app,
        [
            "simulate",
            str(ROSTERS / "skirmish_a.yaml"),
            str(ROSTERS / "skirmish_b.yaml"),
            "--ladder",
            "scripted/random",
            "--games",
            "2",
            "--jobs",
            "1",
            "--board",
            "open_field_42x32",
            "--report",
            str(page),
            "--png-dir",
            str(tmp_path / "png"),
            "--json",
        ],
    )
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    (line,) = out["pairings"]
    assert (line["first"], line["second"], line["games"]) == ("scripted", "random", 4)
    assert sum(line["record"]) == 4
    lo, hi = line["interval"]
    assert lo <= line["rate"] <= hi
    (board,) = line["boards"]  # one board named: its games are all the games
    assert (board["board"], board["games"], board["record"]) == (
        "open_field_42x32",
        4,
        line["record"],
    )
    text = page.read_text()
    assert "scripted" in text and "data:image/png;base64," in text
    assert "Board by board" in text and "<td>open_field_42x32</td>" in text
    assert (tmp_path / "png" / "ladder.png").stat().st_size > 0


def test_an_unknown_rung_is_one_line_and_exit_2() -> None:
    res = CliRunner().invoke(
        app,
        [
            "simulate",
            str(ROSTERS / "skirmish_a.yaml"),
            str(ROSTERS / "skirmish_b.yaml"),
            "--ladder",
            "tactical/wizard",
            "--no-save",
        ],
    )
    assert res.exit_code == 2
    assert "wizard" in res.output


def test_the_ladder_plays_collision_and_warengine_with_ruleset() -> None:
    """Issue 15: the ladder plays every ruleset the lab plays (their rows have no units, so no
    silent-side count)."""
    examples = ROSTERS.parents[1]
    for ruleset, files in (
        ("collision", ("collision/deadholm_scouts.yaml", "collision/guelivere_band.yaml")),
        ("warengine", ("warengine/stormreavers.yaml", "warengine/stormreavers.yaml")),
    ):
        args = ["simulate", "--ruleset", ruleset, *(str(examples / f) for f in files)]
        args += ["--ladder", "scripted/random", "--games", "1", "--jobs", "1", "--json"]
        res = CliRunner().invoke(app, args)
        assert res.exit_code == 0, res.output
        (line,) = json.loads(res.output[res.output.index("{") :])["pairings"]
        assert line["games"] == 2 and line["silent"] is None


def _row(game: int, board: str, winner: str | None) -> GameRow:
    return GameRow(game, 0, board, game % 2, ("x", "y"), winner, 0.0, 0.0, 4, 0, 0.0, "")


def test_a_pairing_counts_its_games_board_by_board() -> None:
    """Issue 15 asks strength on every sample board: each board's W-D-L is the first kind's
    (whichever roster it played), in the order the boards first came, adding up to the total."""
    rows = (
        _row(0, "city", "A"),  # first on A: a win
        _row(1, "city", "B"),  # a loss
        _row(2, "ruins", None),  # a draw
        _row(0, "city", "B"),  # first on B: a win
        _row(1, "ruins", "B"),  # a win
        _row(2, "ruins", "A"),  # a loss
    )
    p = Pairing("x", "y", rows, ("A", "A", "A", "B", "B", "B"))
    assert list(p.by_board) == ["city", "ruins"]
    city, ruins = p.by_board.values()
    assert (city.wins, city.draws, city.losses) == (2, 0, 1)
    assert (ruins.wins, ruins.draws, ruins.losses) == (1, 1, 1)
    total = p.rate
    assert (total.wins, total.draws, total.losses) == (3, 1, 2)
    boards = p.summary(silent=False)["boards"]
    assert [(b["board"], b["games"], b["record"]) for b in boards] == [
        ("city", 3, [2, 0, 1]),
        ("ruins", 3, [1, 1, 1]),
    ]
    lo, hi = boards[1]["interval"]
    assert lo < boards[1]["rate"] == 0.5 < hi
