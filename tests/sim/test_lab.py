"""The simulation lab (warbench.sim): fair plans, repeatable batches, tallies, storage, reports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warbench.kernel.errors import DataFileError
from warbench.play import get_ruleset
from warbench.play.core import SetupArgs
from warbench.sim.lab import LabSpec, load_rosters, play_game, run_lab
from warbench.sim.report import summarise, write_report
from warbench.sim.results import load_run, runs, save_run, write_csv, write_parquet
from warbench.sim.stats import WinRate, wilson
from warbench.storage import Store

ROSTERS = Path(__file__).parents[2] / "examples" / "warsurge" / "rosters"
PAIR = (ROSTERS / "skirmish_a.yaml", ROSTERS / "skirmish_b.yaml")


@pytest.fixture(scope="module")
def spec() -> LabSpec:
    return LabSpec(load_rosters(PAIR), ("scripted", "random"), seed=40)


@pytest.fixture(scope="module")
def rows(spec: LabSpec) -> list:  # type: ignore[type-arg]
    return run_lab(spec, 6, backend="inline")


def test_games_come_in_pairs_that_swap_seats_on_one_seed_and_rotate_boards(spec: LabSpec) -> None:
    n = len(spec.board_list)
    assert n >= 3  # every sample board
    plans = [spec.plan(k) for k in range(2 * n + 2)]
    assert [p[0] for p in plans[:6]] == [40, 40, 41, 41, 42, 42]
    assert [p[2] for p in plans] == [0, 1] * (n + 1)
    assert [p[1] for p in plans[0::2]] == [p[1] for p in plans[1::2]]  # a pair shares its board
    boards = [p[1] for p in plans[::2]]
    assert boards[:n] == list(spec.board_list) and boards[n] == boards[0]


def test_each_roster_gets_the_first_zone_once_in_a_pair(spec: LabSpec) -> None:
    """Core Rules §3.6: the roll-off winner takes the first free zone; with the same seed the
    same seat wins it, so across a pair each roster deploys in that zone once."""
    ws = get_ruleset("warsurge")
    for pair in range(3):
        zones_of_a = []
        for game in (2 * pair, 2 * pair + 1):
            seed, board, a_seat = spec.plan(game)
            rosters = spec.rosters if a_seat == 0 else spec.rosters[::-1]
            state = ws.setup(rosters, board, {}, seed)
            while ws.states.dump(state)["flow"]["phase"] in ("Turn Master", "Deployment Zones"):
                d = ws.pending(state)[0]
                state, _ = ws.apply(state, d.default, d.player)
            zones_of_a.append(ws.states.dump(state)["zones"][a_seat])
        assert zones_of_a[0] != zones_of_a[1]


def test_a_batch_is_the_same_inline_on_processes_and_on_ray(spec: LabSpec, rows: list) -> None:  # type: ignore[type-arg]
    procs = run_lab(spec, 6, backend="processes", workers=2)
    assert [r.key() for r in procs] == [r.key() for r in rows]
    ray = pytest.importorskip("ray")
    on_ray = run_lab(spec, [0, 1, 5], backend="ray", workers=1)
    assert [r.key() for r in on_ray] == [rows[k].key() for k in (0, 1, 5)]
    assert not ray.is_initialized()


def test_the_default_rotation_leaves_out_boards_with_army_terrain(spec: LabSpec) -> None:
    # a board fielding terrain in an army (Core Rules §10.2 L4424-4430) gives each side a unit
    # its roster does not have: played only when named (--board)
    assert "hive_city_armed_72x48" not in spec.board_list
    assert "hive_city_72x48" in spec.board_list
    named = LabSpec(spec.rosters, spec.players, ("hive_city_armed_72x48",), seed=1)
    assert named.board_list == ("hive_city_armed_72x48",)


def test_tallies_add_up(rows: list) -> None:  # type: ignore[type-arg]
    """What one roster dealt is what the other took; the values left are the result's."""
    for r in rows:
        dealt = {s: sum(u.dealt for u in r.units if u.roster == s) for s in "AB"}
        taken = {s: sum(u.taken for u in r.units if u.roster == s) for s in "AB"}
        assert dealt["A"] == pytest.approx(taken["B"]) and dealt["B"] == pytest.approx(taken["A"])
        assert sum(u.left for u in r.units if u.roster == "A") == pytest.approx(r.points_a)
        assert sum(u.left for u in r.units if u.roster == "B") == pytest.approx(r.points_b)
        assert r.values[-1][1:] == pytest.approx((r.points_a, r.points_b))
        assert r.winner == (
            "A" if r.points_a > r.points_b else "B" if r.points_b > r.points_a else None
        )


def test_play_game_is_a_pure_function_of_spec_and_index(spec: LabSpec, rows: list) -> None:  # type: ignore[type-arg]
    assert play_game(spec, 3).key() == rows[3].key()


def test_results_round_trip_through_the_database(tmp_path: Path, spec: LabSpec, rows: list) -> None:  # type: ignore[type-arg]
    store = Store.open(f"sqlite:///{tmp_path / 'sim.db'}")
    run_id = save_run(store, spec, rows)
    info, back = load_run(store, run_id)
    assert back == rows
    assert (info.roster_a, info.roster_b, info.games) == ("Red", "Blue", 6)
    assert [r.id for r in runs(store)] == [run_id]
    with pytest.raises(Exception, match="no simulation run 99"):
        load_run(store, 99)


def test_csv_and_parquet(tmp_path: Path, rows: list) -> None:  # type: ignore[type-arg]
    games, units = write_csv(rows, tmp_path / "games.csv")
    assert units.name == "games.units.csv"
    lines = games.read_text().splitlines()
    assert lines[0].startswith("game,seed,board,a_seat") and len(lines) == 7
    assert len(units.read_text().splitlines()) == 1 + sum(len(r.units) for r in rows)
    try:
        import pyarrow  # type: ignore[import-not-found,unused-ignore]  # noqa: F401
    except ImportError:
        with pytest.raises(Exception, match="pyarrow"):
            write_parquet(rows, tmp_path / "games.parquet")


def test_report_has_the_three_plots(tmp_path: Path, rows: list) -> None:  # type: ignore[type-arg]
    page = write_report(rows, tmp_path / "r.html", names=("Red", "Blue"), png_dir=tmp_path)
    text = page.read_text()
    assert text.count("data:image/png;base64,") == 3
    assert "Win rate of A" in text and "Red" in text
    assert {p.name for p in tmp_path.glob("*.png")} == {"winrate.png", "values.png", "damage.png"}
    s = summarise(rows)
    assert s.games == 6 and s.a.games == 6


def test_wilson_intervals() -> None:
    lo, hi = wilson(8, 10)
    assert (round(lo, 3), round(hi, 3)) == (0.49, 0.943)
    assert wilson(0, 0) == (0.0, 1.0)
    rate = WinRate(190, 0, 10)
    assert rate.rate == 0.95 and rate.interval[0] == pytest.approx(0.9104, abs=1e-4)
    assert str(WinRate(1, 2, 1)).startswith("50.0% [")


def test_simulate_command(tmp_path: Path) -> None:
    from warbench.cli.app import _register, app

    _register(["simulate"])
    db = f"sqlite:///{tmp_path / 'cli.db'}"
    args = ["simulate", *map(str, PAIR), "-n", "2", "--jobs", "1", "--seed", "5", "--db", db]
    res = CliRunner().invoke(app, [*args, "--json", "--csv", str(tmp_path / "g.csv")])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["games"] == 2 and out["run"] == 1 and out["seed"] == 5
    again = CliRunner().invoke(
        app, ["simulate", "--run", "1", "--db", db, "--json", "--report", str(tmp_path / "r.html")]
    )
    assert again.exit_code == 0, again.output
    back = json.loads(again.stdout)
    assert {k: back[k] for k in ("a_wins", "draws", "b_wins", "mean_points")} == {
        k: out[k] for k in ("a_wins", "draws", "b_wins", "mean_points")
    }
    assert (tmp_path / "r.html").exists()


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--players", "serch"], "unknown player kind 'serch'"),
        (["--jobs", "lots"], "--jobs lots: allowed: auto or a whole number"),
        (["--board", "moon"], "--board moon: no such file or sample board"),
        (["--playstyle", "fast"], "--playstyle 'fast' is not allowed; allowed: standard, advanced"),
        (["--ruleset", "collision", "--playstyle", "advanced"], "WARSURGE's"),
    ],
)
def test_simulate_refuses_bad_options(extra: list[str], message: str) -> None:
    from warbench.cli.app import main

    with pytest.raises(SystemExit) as exc:
        main(["simulate", *map(str, PAIR), "-n", "1", "--no-save", *extra])
    assert exc.value.code == 2


def test_simulate_plays_the_advanced_playstyle(tmp_path: Path) -> None:
    """``--playstyle advanced`` (Core Rules 001_d3f5e425c5e1196d.txt §8-9): the batch's set-up
    options carry it, so the games are Advanced games (and differ from Standard ones)."""
    from warbench.cli.app import _register, app

    _register(["simulate"])
    db = f"sqlite:///{tmp_path / 'adv.db'}"
    base = ["simulate", *map(str, PAIR), "-n", "2", "--jobs", "1", "--seed", "5", "--json"]
    adv = CliRunner().invoke(app, [*base, "--db", db, "--playstyle", "advanced"])
    assert adv.exit_code == 0, adv.output
    info, _ = load_run(Store.open(db), json.loads(adv.stdout)["run"])
    assert info.spec["options"] == {"playstyle": "advanced"}


def test_setup_args_of_a_lab_game_are_json(spec: LabSpec) -> None:
    seed, board, a_seat = spec.plan(1)
    setup = SetupArgs(spec.rosters[::-1], board, {})
    json.dumps(setup.to_json())
    assert a_seat == 1 and seed == 40


def test_report_names_the_ruleset_seed_and_run(tmp_path: Path, rows: list) -> None:  # type: ignore[type-arg]
    """Session 34 (s34-user): the page named neither the seed nor the run, so its reader could
    not replay or re-open the batch; a WARSURGE page keeps its three plots and silent count."""
    page = write_report(rows, tmp_path / "r.html", names=("Red", "Blue"), seed=5, run=2)
    text = page.read_text()
    assert (
        "ruleset warsurge" in text
        and "seed 5 (the games' pair j, from 0, plays seed 5 + j)" in text
    )
    assert "warbench simulate --run 2" in text
    assert "Mean points left: A " in text and "dealt no damage: " in text
    assert text.count("data:image/png;base64,") == 3
    assert summarise(rows).silent is not None


def test_a_png_dir_that_cannot_be_written_is_named(tmp_path: Path, rows: list) -> None:  # type: ignore[type-arg]
    """``--png-dir`` under a file said "r.html: cannot write the report": the page's name, not
    the folder's (session 34, s34-user)."""
    import matplotlib.pyplot as plt

    blocker = tmp_path / "file"
    blocker.write_text("x")
    mine = plt.figure()  # the caller's own figure (a server's, a notebook's) stays open
    try:
        with pytest.raises(DataFileError, match=r"file/plots: cannot write the plots there"):
            write_report(rows, tmp_path / "r.html", png_dir=blocker / "plots")
        assert plt.get_fignums() == [mine.number]  # the report's figures closed, and only they
    finally:
        plt.close(mine)
    assert not (tmp_path / "r.html").exists()
