"""WarEngine 2.1 speed: costing a figure and exact attack-vs-defense odds.

Run with ``.venv/bin/pytest benchmarks/bench_warengine.py --benchmark-enable``
(004_f4ea5693af0644ce.txt Figure Builder Example and Attack rules).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from warbench.rulesets.warengine.costs import figure_cost
from warbench.rulesets.warengine.dice import _quantities, attack_faces, attack_odds, defense_faces
from warbench.rulesets.warengine.io import load_figure
from warbench.rulesets.warengine.validation import check_figure

WARPEYES = Path(__file__).resolve().parents[1] / "examples" / "warengine" / "warpeyes.yaml"


def test_bench_004_figure_builder_cost_warpeyes(benchmark: Any) -> None:
    # 004_f4ea5693af0644ce.txt Figure Builder Example: itemised cost of WarpEyes (244 points)
    fig = load_figure(WARPEYES)
    assert benchmark(figure_cost, fig).points == 244


def test_bench_004_figure_builder_validate_warpeyes(benchmark: Any) -> None:
    # 004_f4ea5693af0644ce.txt Troop Builder V2.1: every limit checked on WarpEyes
    fig = load_figure(WARPEYES)
    assert benchmark(check_figure, fig) == []


def test_bench_004_attack_exact_odds_cold(benchmark: Any) -> None:
    # 004_f4ea5693af0644ce.txt Attack: 6k5 (uncontrolled) vs 5k4 type H, pool cache cleared
    def run() -> float:
        _quantities.cache_clear()
        odds = attack_odds(
            "6k5",
            "5k4",
            attack_faces=attack_faces(uncontrolled=True),
            defense_faces=defense_faces(defender_type="H"),
        )
        return float(odds.p_kill)

    assert 0 < benchmark(run) < 1


def test_bench_004_attack_exact_odds_4k3_vs_3k2_warm(benchmark: Any) -> None:
    # 004_f4ea5693af0644ce.txt Attack: 4k3 vs 3k2 with keep-highest distributions cached
    assert 0.81 < float(benchmark(lambda: attack_odds("4k3", "3k2").p_kill)) < 0.82
