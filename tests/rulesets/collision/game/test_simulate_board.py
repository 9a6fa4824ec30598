"""``warbench simulate --ruleset collision --board FILE`` plays Collision board files (issue
17), as WARSURGE's ``--board`` does; a bad board is one line naming the field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.rulesets.collision.game.helpers import EXAMPLES
from warbench.rulesets.collision.game.board import board_from_json, load_board_file

GROUPS = [str(EXAMPLES / "deadholm_scouts.yaml"), str(EXAMPLES / "guelivere_band.yaml")]
RIDGE = EXAMPLES / "boards" / "ridge.json"


def test_the_example_board_file_loads_and_is_named() -> None:
    data = load_board_file(RIDGE)
    board = board_from_json(data)
    assert data["name"] == "ridge" and (board.cols, board.rows) == (16, 12)
    assert board.level((6, 5)) == 2 and board.level((9, 6)) == 2  # mirrored (L393)


def test_simulate_plays_collision_on_a_board_file(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from warbench.cli.app import _register, app

    _register(["simulate"])
    plain = {"cols": 12, "rows": 10}  # no name: the file's name
    (tmp_path / "plain.json").write_text(json.dumps(plain), encoding="utf-8")
    args = ["simulate", "--ruleset", "collision", *GROUPS, "-n", "4", "--jobs", "1"]
    boards = ["--board", str(RIDGE), "--board", str(tmp_path / "plain.json")]
    res = CliRunner().invoke(app, [*args, *boards, "--seed", "3", "--no-save", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert set(out["by_board"]) == {"ridge", "plain"} and out["games"] == 4


@pytest.mark.parametrize(
    ("board", "message"),
    [
        ('{"cols": 3, "rows": 8}', "cols = 3 is not allowed"),
        ('{"cols": 8, "rows": 8, "terrain": [{"at": [9, 1], "kind": "obstacle"}]}', "at"),
        ("[1, 2]", "a Collision board is a mapping"),
    ],
)
def test_simulate_refuses_a_bad_collision_board_in_one_line(
    board: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from warbench.cli.app import main

    path = tmp_path / "board.json"
    path.write_text(board, encoding="utf-8")
    with pytest.raises(SystemExit) as exc:
        main(
            ["simulate", "--ruleset", "collision", *GROUPS, "-n", "1", "--no-save"]
            + [
                "--board",
                str(path),
            ]
        )
    assert exc.value.code != 0
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1, err
