"""The simulation lab plays Collision battle groups and WarEngine forces (issue 17: Collision
"in simulations"), through the same protocol, tables and summary as WARSURGE."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from warbench.kernel.errors import DataFileError, UnknownNameError
from warbench.play.core import SetupArgs
from warbench.play.runner import run_batch
from warbench.sim.lab import GameRow, LabSpec, load_rosters, play_game, run_lab
from warbench.sim.report import summarise, write_report
from warbench.sim.results import load_run, save_run
from warbench.storage import Store

EXAMPLES = Path(__file__).parents[2] / "examples"
GROUPS = (
    EXAMPLES / "collision" / "deadholm_scouts.yaml",
    EXAMPLES / "collision" / "guelivere_band.yaml",
)
FORCES = (
    EXAMPLES / "warengine" / "stormreavers.yaml",
    EXAMPLES / "warengine" / "stormreavers.yaml",
)


@pytest.fixture(scope="module")
def collision() -> LabSpec:
    return LabSpec(
        load_rosters(GROUPS, "collision"), ("scripted", "random"), seed=11, ruleset_id="collision"
    )


@pytest.fixture(scope="module")
def collision_rows(collision: LabSpec) -> list[GameRow]:
    return run_lab(collision, 4, backend="inline")


def test_collision_batch_is_the_same_inline_and_on_processes(
    collision: LabSpec, collision_rows: list[GameRow]
) -> None:
    procs = run_lab(collision, 4, backend="processes", workers=2)
    assert [r.key() for r in procs] == [r.key() for r in collision_rows]
    assert play_game(collision, 2).key() == collision_rows[2].key()


def test_collision_rows_are_the_protocol_runners_games(
    collision: LabSpec, collision_rows: list[GameRow]
) -> None:
    """Each lab row is the game ``play.runner.run_batch`` plays for that seed and seating:
    the same digest, winner and Victory Points, with the seats mapped to rosters A and B."""
    for row in collision_rows:
        rosters = collision.rosters if row.a_seat == 0 else collision.rosters[::-1]
        kinds = collision.players if row.a_seat == 0 else collision.players[::-1]
        (ref,) = run_batch(
            "collision",
            SetupArgs(tuple(rosters), None, {}),
            [row.seed],
            players=kinds,
            backend="inline",
        )
        assert ref.finished and ref.digest == row.digest and ref.steps == row.steps
        assert (row.points_a, row.points_b) == (ref.scores[row.a_seat], ref.scores[1 - row.a_seat])
        expected = None if ref.winner is None else ("A" if ref.winner == row.a_seat else "B")
        assert row.winner == expected


def test_collision_rows_report_turns_and_no_units(collision_rows: list[GameRow]) -> None:
    assert [r.a_seat for r in collision_rows] == [0, 1, 0, 1]
    assert [r.seed for r in collision_rows] == [11, 11, 12, 12]
    for r in collision_rows:
        assert r.turns >= 1 and r.board == "default"
        assert r.units == () and r.values == ()
    s = summarise(collision_rows)
    assert s.games == 4 and s.a.wins + s.a.draws + s.a.losses == 4
    lo, hi = s.a.interval
    assert 0.0 <= lo <= s.a.rate <= hi <= 1.0


def test_collision_results_round_trip_through_the_database(
    tmp_path: Path, collision: LabSpec, collision_rows: list[GameRow]
) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 'sim.db'}")
    run_id = save_run(store, collision, collision_rows)
    info, back = load_run(store, run_id)
    assert back == collision_rows
    assert (info.roster_a, info.roster_b) == ("Deadholm scouts", "Guelivere band")
    assert info.spec["ruleset"] == "collision" and info.spec["boards"] == [None]


def test_warengine_batch_is_the_same_inline_and_on_processes() -> None:
    spec = LabSpec(
        load_rosters(FORCES, "warengine"), seed=2, ruleset_id="warengine", options={"turns": 2}
    )
    inline = run_lab(spec, 2, backend="inline")
    procs = run_lab(spec, 2, backend="processes", workers=2)
    assert [r.key() for r in procs] == [r.key() for r in inline]
    assert all(r.units == () and 1 <= r.turns <= 2 for r in inline)


def test_unknown_ruleset_and_wrong_file_kinds_are_refused() -> None:
    with pytest.raises(UnknownNameError, match="unknown simulate ruleset 'chess'"):
        load_rosters(GROUPS, "chess")
    with pytest.raises(UnknownNameError, match="toy-duel"):
        LabSpec(load_rosters(GROUPS, "collision"), ruleset_id="toy-duel")
    card = EXAMPLES / "collision" / "virgil.yaml"
    with pytest.raises(DataFileError, match="is a character card, not a battle group"):
        load_rosters((card, GROUPS[1]), "collision")
    figure = EXAMPLES / "warengine" / "warpeyes.yaml"
    with pytest.raises(DataFileError, match="is a figure, not a force"):
        load_rosters((figure, FORCES[1]), "warengine")
    with pytest.raises(DataFileError, match="is not a force"):
        load_rosters((GROUPS[0], FORCES[1]), "warengine")


def test_simulate_command_plays_collision(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from warbench.cli.app import _register, app

    _register(["simulate"])
    db = f"sqlite:///{tmp_path / 'cli.db'}"
    args = ["simulate", "--ruleset", "collision", *map(str, GROUPS), "-n", "2", "--jobs", "1"]
    res = CliRunner().invoke(app, [*args, "--seed", "3", "--db", db, "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["ruleset"] == "collision" and out["games"] == 2 and out["run"] == 1
    assert out["units_reported"] is False and out["silent_games"] is None
    again = CliRunner().invoke(app, ["simulate", "--run", "1", "--db", db, "--json"])
    assert again.exit_code == 0, again.output
    back = json.loads(again.stdout)
    assert back["ruleset"] == "collision"
    assert [back[k] for k in ("a_wins", "draws", "b_wins", "mean_points", "mean_turns")] == [
        out[k] for k in ("a_wins", "draws", "b_wins", "mean_points", "mean_turns")
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--ruleset", "chess", *map(str, GROUPS)], "unknown simulate ruleset 'chess'"),
        (
            ["--ruleset", "collision", str(EXAMPLES / "collision" / "virgil.yaml"), str(GROUPS[1])],
            "is a character card, not a battle group; collision expects battle-group files",
        ),
        (
            [
                "--ruleset",
                "warengine",
                str(EXAMPLES / "warengine" / "warpeyes.yaml"),
                str(FORCES[1]),
            ],
            "is a figure, not a force; warengine expects force files",
        ),
        (["--ruleset", "collision", *map(str, GROUPS), "--board", "x"], "--board: collision"),
    ],
)
def test_simulate_refuses_unknown_rulesets_and_wrong_files(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from warbench.cli.app import main

    with pytest.raises(SystemExit) as exc:
        main(["simulate", *args, "-n", "1", "--no-save"])
    assert exc.value.code != 0
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1, err


def test_report_of_a_collision_batch_says_victory_points_and_no_units(
    tmp_path: Path, collision_rows: list[GameRow]
) -> None:
    """Session 34 (s34-user): a Collision batch's report said "Mean points left" and "games in
    which one roster dealt no damage: 4" of 4 (no units are reported, so every game counted),
    and drew two empty plots. It names Victory Points, says why there are no unit figures,
    and draws the win rate only; it names the ruleset, the seed and the run to re-open."""
    assert summarise(collision_rows).silent is None
    page = write_report(
        collision_rows,
        tmp_path / "c.html",
        names=("Deadholm scouts", "Guelivere band"),
        png_dir=tmp_path,
        ruleset="collision",
        seed=11,
        run=7,
    )
    text = page.read_text()
    assert "Mean Victory Points: A " in text and "points left" not in text
    assert "dealt no damage" not in text
    assert "Collision reports no units" in text
    assert text.count("data:image/png;base64,") == 1
    assert {p.name for p in tmp_path.glob("*.png")} == {"winrate.png"}
    assert "<th>dealt</th>" not in text
    assert "ruleset collision" in text and "seed 11" in text
    assert "warbench simulate --run 7" in text
