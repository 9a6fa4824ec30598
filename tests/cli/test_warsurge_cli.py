"""The WARSURGE command line: chart, roll, odds, demo; one-line errors and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warbench.cli import app
from warbench.cli.app import _register

EXAMPLES = Path(__file__).parents[2] / "examples" / "warsurge"
runner = CliRunner()
_register()


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def test_chart_cell_s5_7() -> None:
    code, out = run("chart", "--power", "2", "--defence", "8")
    assert code == 0
    assert "6/5" in out


def test_chart_rejects_power_zero_with_allowed_values() -> None:
    code, out = run("chart", "--power", "0")
    assert code == 2
    assert "allowed: 1 to 20" in out


@pytest.mark.parametrize("what", ["D6", "D3", "2D6", "scatter", "aether", "mastery", "rolloff"])
def test_roll_prints_result_and_seed(what: str) -> None:
    code, out = run("roll", what, "--seed", "5")
    assert code == 0
    assert "seed 5" in out


def test_roll_is_reproducible_from_the_seed() -> None:
    assert run("roll", "3D6", "-n", "5", "--seed", "9") == run(
        "roll", "3D6", "-n", "5", "--seed", "9"
    )


def test_roll_bad_expression_is_one_line_error() -> None:
    code, out = run("roll", "2Q6")
    assert code == 2
    assert out.count("\n") == 1 and "allowed" in out


def test_odds_json_melee_example_s2_3() -> None:
    code, out = run(
        "odds",
        str(EXAMPLES / "sisters_repentium.yaml"),
        str(EXAMPLES / "troopers_10.yaml"),
        "--melee",
        "--json",
    )
    assert code == 0, out
    data = json.loads(out)
    assert data["exact"] is True
    assert sum(data["hp_lost"].values()) == pytest.approx(1.0)
    # 15 dice at 2+, AP 2+ pierces, AEGIS 5+: each die takes 1 HP with p = 5/6 * 2/3
    p = 5 / 6 * 2 / 3
    assert data["expected_hp_lost"] < 15 * p
    assert data["expected_hp_lost"] == pytest.approx(
        data["per_weapon_expected_hp_lost"]["Ripper Sword"]
    )


def test_odds_plot_writes_png(tmp_path: Path) -> None:
    out_png = tmp_path / "odds.png"
    code, _ = run(
        "odds", str(EXAMPLES / "troopers_laser.yaml"), str(EXAMPLES / "kataton_servitors.yaml"),
        "--plot", str(out_png),
    )  # fmt: skip
    assert code == 0
    assert out_png.read_bytes()[:4] == b"\x89PNG"


def test_odds_unknown_weapon_suggests_closest_name() -> None:
    code, out = run(
        "odds", str(EXAMPLES / "sisters_repentium.yaml"), str(EXAMPLES / "troopers_10.yaml"),
        "-w", "Sword",
    )  # fmt: skip
    assert code == 2
    assert "Ripper Sword" in out
    assert "Traceback" not in out


def test_odds_missing_file_is_one_line_error(tmp_path: Path) -> None:
    code, out = run("odds", str(tmp_path / "nope.yaml"), str(EXAMPLES / "troopers_10.yaml"))
    assert code == 2
    assert "not found" in out


def test_odds_monte_carlo_option_agrees_with_exact() -> None:
    code, out = run(
        "odds", str(EXAMPLES / "troopers_laser.yaml"), str(EXAMPLES / "kataton_servitors.yaml"),
        "--monte-carlo", "20000", "--seed", "1", "--json",
    )  # fmt: skip
    assert code == 0
    data = json.loads(out)
    mc = data["monte_carlo"]
    assert abs(mc["expected_hp_lost"] - data["expected_hp_lost"]) < 3 * mc["confidence_95"]


def test_demo_runs() -> None:
    code, out = run("demo")
    assert code == 0
    assert "Attack Dice Chart" in out
    assert "expected HP lost" in out
