"""WARSURGE full Standard games: 1000 points a side (8 and 10 units), the 48" x 48" Ruins board.

Run with ``make bench`` (pytest-benchmark). Target: at least 10 complete games per second per
core between the scripted players. Seconds per game = the mean; games per second per core =
1 / mean (each game runs on one core).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from warbench.rulesets.warsurge.battlefield import sample_board
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.geom import Field
from warbench.rulesets.warsurge.game.io import load_game_roster
from warbench.rulesets.warsurge.game.players import RandomLegalPlayer, ScriptedPlayer, play
from warbench.rulesets.warsurge.game.state import GameSetup, build_setup

ROSTERS = Path(__file__).resolve().parents[1] / "examples" / "warsurge" / "rosters"


def _setup() -> GameSetup:
    players = [load_game_roster(ROSTERS / n) for n in ("sci_fi_humans.yaml", "scavengers.yaml")]
    return build_setup(players, Field(sample_board("ruins_48x48")))


def test_bench_game_scripted_vs_scripted_1000_points(benchmark: Any) -> None:
    setup = _setup()
    seeds = iter(range(10**6))

    def game() -> int:
        state, events = engine.new_game(setup, next(seeds))
        run = play(state, [ScriptedPlayer(), ScriptedPlayer()], events=events)
        assert run.state.over
        return len(run.actions)

    benchmark.pedantic(game, rounds=8, iterations=1)


def test_bench_game_random_vs_random_1000_points(benchmark: Any) -> None:
    setup = _setup()
    seeds = iter(range(10**6))

    def game() -> int:
        seed = next(seeds)
        state, events = engine.new_game(setup, seed)
        run = play(state, [RandomLegalPlayer(seed), RandomLegalPlayer(seed + 1)], events=events)
        assert run.state.over
        return len(run.actions)

    benchmark.pedantic(game, rounds=5, iterations=1)
