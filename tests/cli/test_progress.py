"""Progress bars for long work (issue 18): the rules call a plain callback, the CLI draws a rich
bar only on a terminal and never under ``--json`` or in piped output."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
from rich.console import Console
from typer.testing import CliRunner

from warbench.cli import app, progress
from warbench.cli.app import _register
from warbench.kernel.dice import SeededDice
from warbench.rulesets.warsurge.attack import AttackContext, UnitState
from warbench.rulesets.warsurge.io import load_units
from warbench.rulesets.warsurge.odds import MC_CHUNK, AttackPlan, sample_attack

EXAMPLES = Path(__file__).parents[2] / "examples" / "warsurge"
TROOPERS = str(EXAMPLES / "troopers_10.yaml")
KATATON = str(EXAMPLES / "kataton_servitors.yaml")
runner = CliRunner()
_register()


def _plan() -> AttackPlan:
    a, t = load_units(TROOPERS)[0], load_units(KATATON)[0]
    return AttackPlan(UnitState.of(a), UnitState.of(t), AttackContext())


def test_monte_carlo_calls_the_progress_callback_after_each_chunk() -> None:
    calls: list[tuple[int, int]] = []
    trials = 2 * MC_CHUNK + 5
    sample_attack(_plan(), trials, SeededDice(3), lambda d, t: calls.append((d, t)))
    assert calls == [(MC_CHUNK, trials), (2 * MC_CHUNK, trials), (trials, trials)]


def test_monte_carlo_result_does_not_depend_on_the_callback() -> None:
    trials = MC_CHUNK + 100
    quiet = sample_attack(_plan(), trials, SeededDice(5))
    watched = sample_attack(_plan(), trials, SeededDice(5), lambda d, t: None)
    assert quiet.hp_lost == watched.hp_lost and quiet.trials == trials
    assert sum(quiet.hp_lost.values()) == pytest.approx(1)
    assert np.isclose(sum(quiet.per_weapon_mean.values()), quiet.expected_hp_lost)


def test_progress_bar_draws_on_a_terminal_console() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=100)
    with progress.progress_bar("sampling things", console=console) as bar:
        assert bar is not None
        bar(5, 10)
        bar(10, 10)
    assert "sampling things" in out.getvalue()


def test_progress_bar_is_none_under_json_and_off_a_terminal() -> None:
    with progress.progress_bar("x", as_json=True, console=Console(file=io.StringIO())) as bar:
        assert bar is None
    with progress.progress_bar("x") as bar:  # pytest's stdout is not a terminal
        assert bar is None


@contextmanager
def _recording(calls: list[tuple[str, int, int]]) -> Iterator[None]:
    """Pretend to be on a terminal; record every progress call instead of drawing."""

    @contextmanager
    def fake(description: str, *, as_json: bool = False) -> Iterator[progress.ProgressCallback]:
        assert not as_json
        yield lambda d, t: calls.append((description, d, t))

    mp = pytest.MonkeyPatch()
    from warbench.cli import roster_cmds, warsurge_cmds, warsurge_points

    for module in (warsurge_cmds, warsurge_points, roster_cmds):
        mp.setattr(module, "progress_bar", fake)
    try:
        yield
    finally:
        mp.undo()


def test_odds_monte_carlo_reports_progress_on_a_terminal() -> None:
    calls: list[tuple[str, int, int]] = []
    with _recording(calls):
        result = runner.invoke(app, ["odds", TROOPERS, KATATON, "--monte-carlo", "45000"])
    assert result.exit_code == 0, result.output
    assert ("Monte Carlo trials", 45_000, 45_000) in calls


def test_points_of_many_units_reports_progress_on_a_terminal() -> None:
    calls: list[tuple[str, int, int]] = []
    path = str(EXAMPLES / "s2_3_attack_examples.yaml")
    with _recording(calls):
        result = runner.invoke(app, ["points", path])
    assert result.exit_code == 0, result.output
    n = len(load_units(path))
    assert n > 1 and [c[1:] for c in calls] == [(i, n) for i in range(1, n + 1)]


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_no_progress_text_when_not_on_a_terminal(json_flag: list[str]) -> None:
    args = ["odds", TROOPERS, KATATON, "--monte-carlo", "45000", *json_flag]
    result = runner.invoke(app, args)
    assert result.exit_code == 0
    assert "Monte Carlo trials" not in result.output
    points = runner.invoke(app, ["points", str(EXAMPLES / "s2_3_attack_examples.yaml")])
    assert "costing units" not in points.output


def test_roster_validate_costs_each_entry_under_progress(tmp_path: Path) -> None:
    from warbench.rulesets.warsurge.roster import Roster, RosterEntry
    from warbench.rulesets.warsurge.roster_io import dump_roster

    units = load_units(str(EXAMPLES / "s2_3_attack_examples.yaml"))
    r = Roster(
        name="Progress",
        point_limit=100_000,
        units=[RosterEntry(name=f"{u.name} {i}", unit=u) for i, u in enumerate(units)],
    )
    path = tmp_path / "r.yaml"
    dump_roster(r, path)
    calls: list[tuple[str, int, int]] = []
    with _recording(calls):
        result = runner.invoke(app, ["roster", "validate", str(path)])
    assert result.exit_code in (0, 1), result.output  # 1: the roster breaks a rule
    assert calls == [("costing Progress", i, len(units)) for i in range(1, len(units) + 1)]
    quiet = runner.invoke(app, ["roster", "validate", str(path), "--json"])
    assert quiet.exit_code in (0, 1) and "costing" not in quiet.output
