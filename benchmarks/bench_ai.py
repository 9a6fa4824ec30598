"""The search player's and the lab's cost (issue 15).

* ``decision``: one search decision at level 1 and 2 (a Move Phase position of the skirmish
  pair): what a level costs per decision;
* ``lab``: 4 lab games (scripted against scripted) inline and on two worker processes: games
  per second on 1 and 2 workers (the rows are identical).

Run with ``make bench``; ``make test`` runs each once with timings off.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from warbench.ai import LEVELS, SearchPlayer
from warbench.play import AutomaticPlayer, Budget, RandomLegalPlayer, SetupArgs, get_ruleset
from warbench.play.runner import run_game
from warbench.sim.lab import LabSpec, load_rosters, run_lab

ROSTERS = Path(__file__).parents[1] / "examples" / "warsurge" / "rosters"
PAIR = load_rosters([ROSTERS / "skirmish_a.yaml", ROSTERS / "skirmish_b.yaml"])
SETUP = SetupArgs(PAIR, "ruins_48x48", {})


def _position() -> Any:
    ws = get_ruleset("warsurge")
    auto: AutomaticPlayer[Any] = AutomaticPlayer(RandomLegalPlayer(0))
    states: list[Any] = []
    run_game(ws, SETUP, [auto, auto], 4, automate={"*"}, on_step=lambda s, e: states.append(s))
    moves = [s for s in states if ws.view(s, 0)["phase"] == "Move"]
    return ws, moves[len(moves) // 2]


@pytest.mark.parametrize("level", [1, 2])
def test_bench_ai_decision(benchmark: Any, level: int) -> None:
    ws, state = _position()
    d = ws.pending(state)[0]
    view = ws.view(state, d.player)

    def decide() -> Any:
        player = SearchPlayer(ws, SETUP, d.player, 1, LEVELS[level])
        return player.choose(view, ws.legal_actions(state, d.player), d, Budget())

    action = benchmark.pedantic(decide, rounds=3, iterations=1)
    assert ws.check(state, action, d.player) is None


@pytest.mark.parametrize("workers", [1, 2])
def test_bench_ai_lab_games(benchmark: Any, workers: int) -> None:
    spec = LabSpec(PAIR, ("scripted", "scripted"), seed=2)
    rows = benchmark.pedantic(
        lambda: run_lab(spec, 4, backend="processes", workers=workers), rounds=1, iterations=1
    )
    assert len(rows) == 4
    if not benchmark.disabled:
        print(f"{workers} worker(s): {4 / benchmark.stats.stats.mean:.2f} games/s")
