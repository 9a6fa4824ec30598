"""Collision full games through the game protocol: the example 500-point battle groups
(Deadholm scouts against the Guelivere band) on the sample 18 x 10 board, objectives rolled
by the Random method from the seed.

* ``scripted``: both sides take every decision's default (the scripted player), through
  ``run_game`` (views, legal sets, a digest and a record line per step);
* ``random``: random legal players (every listed and sampled action is checked).

Run with ``make bench`` (pytest-benchmark); the figure reported is the median seconds per game.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from warbench.play import AutomaticPlayer, RandomLegalPlayer, SetupArgs, run_game
from warbench.rulesets.collision.game.protocol import CollisionRuleset
from warbench.rulesets.collision.io import load, to_data

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "collision"


def _setup() -> SetupArgs:
    groups = [to_data(load(EXAMPLES / f"{n}.yaml")) for n in ("deadholm_scouts", "guelivere_band")]
    return SetupArgs(tuple(groups), None, {})


def test_bench_collision_game_scripted_vs_scripted(benchmark: Any) -> None:
    rs, setup = CollisionRuleset(), _setup()
    seeds = iter(range(10**6))

    def game() -> int:
        auto = AutomaticPlayer(RandomLegalPlayer(0))
        run = run_game(rs, setup, [auto, auto], next(seeds))
        assert run.finished
        return len(run.record.steps)

    benchmark.pedantic(game, rounds=10, iterations=1)


def test_bench_collision_game_random_vs_random(benchmark: Any) -> None:
    rs, setup = CollisionRuleset(), _setup()
    seeds = iter(range(10**6))

    def game() -> int:
        seed = next(seeds)
        run = run_game(rs, setup, [RandomLegalPlayer(seed), RandomLegalPlayer(seed + 1)], seed)
        assert run.finished
        return len(run.record.steps)

    benchmark.pedantic(game, rounds=10, iterations=1)
