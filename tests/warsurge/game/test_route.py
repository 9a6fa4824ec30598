"""A Move toward a point finds a way (issue 10, session 29): ``game.route_move`` behind
``movement.plan_towards`` when no straight move is legal, on the planner of ``game.route``.

Core Rules 001_d3f5e425c5e1196d.txt §4.7 L2147-2156 (Impassable Ground: models "cannot move
through or into" it; units are Impassable Ground too), §4.1 L1833-1848 (every model placed
within its Move; some may stay).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from tests.warsurge.game.helpers import entry, scenario, unit, weapon
from warbench.ai import formation as ai_formation
from warbench.ai import navigate
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.battlefield import board_from_data, sample_board
from warbench.rulesets.warsurge.game import engine, route, route_formation
from warbench.rulesets.warsurge.game.actions import Move
from warbench.rulesets.warsurge.game.movement import mover_models, plan_towards
from warbench.rulesets.warsurge.game.state import GameState, Phase
from warbench.rulesets.warsurge.game.work import Work

#: A wall from the bottom edge up to y 20 at x 14-16; open above it.
WALL: dict[str, Any] = {
    "name": "Wall",
    "width": 40,
    "height": 30,
    "deployment": {"layout": "thirds"},
    "terrain": [{"name": "Wall", "rect": [14, 0, 16, 20], "impassable": True}],
}
#: A closed box round (4-12, 4-12): no way out.
BOX: dict[str, Any] = {
    **WALL,
    "name": "Box",
    "terrain": [
        {"name": "S", "rect": [2, 2, 14, 4], "impassable": True},
        {"name": "N", "rect": [2, 12, 14, 14], "impassable": True},
        {"name": "W", "rect": [2, 4, 4, 12], "impassable": True},
        {"name": "E", "rect": [12, 4, 14, 12], "impassable": True},
    ],
}
#: A wall across the board at y 14-16 with a 3" gap at x 18.5-21.5 (tests/ai/test_formation.py).
GAP: dict[str, Any] = {
    **WALL,
    "name": "Gap",
    "terrain": [
        {"name": "West", "rect": [0, 14, 18.5, 16], "impassable": True},
        {"name": "East", "rect": [21.5, 14, 40, 16], "impassable": True},
    ],
}


def _state(board: dict[str, Any], ours_at: list[tuple[float, float]]) -> GameState:
    """Move Phase, side 0 to act: our unit (uid 0, Move 6") at ``ours_at``; one enemy model
    (uid 1, already moved) in the far corner."""
    ours = unit("Troopers", models=len(ours_at), weapons=[weapon("Rifle", range=12)])
    theirs = unit("Sentry", models=1, weapons=[weapon("Rifle", range=12)])
    state = scenario(
        [[entry(ours)], [entry(theirs)]],
        {0: ours_at, 1: [(38.0, 28.0)]},
        phase=Phase.MOVE,
        b=board_from_data(board),
    )
    units = list(state.units)
    units[1] = replace(units[1], acted=True)
    return replace(state, units=tuple(units))


def _work(state: GameState) -> Work:
    return engine.legal_actions(state)._work


def _after(state: GameState, move: Move) -> np.ndarray[Any, Any]:
    after, _ = engine.apply(state, move)
    return Work(after, None, _work(after).hooks).xy(0)


BEHIND = [(11.0, 8.0), (12.0, 9.5), (13.0, 8.0)]


def test_L2147_a_unit_behind_a_wall_goes_round_it() -> None:
    """The straight line at (30, 8) runs into the wall (§4.7 L2147-2149): every straight
    fraction is refused (without the fallback the Move is refused); the engine's Move now goes
    round, up toward the wall's open end (y > 20), no model inside the wall."""
    state = _state(WALL, BEHIND)
    w = _work(state)
    with pytest.raises(RulesError, match="finds no clear path"):
        plan_towards(w, 0, (30.0, 8.0), 6.0, False)  # straight fractions only
    move = Move(0, to=(30.0, 8.0))
    assert engine.can(state, move)
    xy = _after(state, move)
    before = w.xy(0)
    assert float(xy[:, 1].mean()) > float(before[:, 1].mean()) + 2.0  # toward the open end
    assert float(xy[:, 0].max()) < 14.0 - 0.5 + 1e-6  # not into the wall
    moved = np.hypot(*(xy - before).T)
    assert float(moved.max()) <= 6.0 + 1e-6  # within the Move (§4.1)


def test_L2147_a_boxed_in_unit_is_still_refused() -> None:
    """Walled in on every side there is no way to (30, 8): the Move is refused with §4.7's
    reason, the fallback's answer included."""
    state = _state(BOX, [(8.4, 8.0), (9.9, 8.0), (11.4, 8.0)])  # against the east wall
    move = Move(0, to=(30.0, 8.0))
    assert not engine.can(state, move)
    with pytest.raises(RulesError, match="finds no clear path") as exc:
        engine.apply(state, move)
    assert "4.7" in exc.value.rule


def test_a_legal_straight_move_is_unchanged() -> None:
    """On open ground the fallback is never asked: the Move is the straight translation of
    the formation by the full allowance, as before."""
    state = _state(WALL, [(20.0, 8.0), (21.0, 9.5), (22.0, 8.0)])
    w = _work(state)
    straight = plan_towards(w, 0, (34.0, 8.5), 6.0, False)
    assert plan_towards(w, 0, (34.0, 8.5), 6.0, False, route=True) == straight
    xy = _after(state, Move(0, to=(34.0, 8.5)))
    assert np.allclose(xy, np.asarray(straight))
    assert np.allclose(xy - w.xy(0), [[6.0, 0.0]] * 3)


def test_L1833_a_wide_formation_files_through_a_gap() -> None:
    """Ten models in two rows 7" wide against a wall with a 3" gap: no straight move of the
    formation fits, nor any rigid move along the path; the engine places the models one by one
    (§4.1 L1833-1848) and its front models stand in the gap or beyond."""
    ours_at = [(17.0 + 1.5 * k, y) for y in (11.5, 13.0) for k in range(5)]
    state = _state(GAP, ours_at)
    w = _work(state)
    with pytest.raises(RulesError):
        plan_towards(w, 0, (20.0, 26.0), 6.0, False)
    xy = _after(state, Move(0, to=(20.0, 26.0)))
    assert float(xy[:, 1].max()) > 15.0
    assert float(xy[:, 1].mean()) > float(w.xy(0)[:, 1].mean())


@pytest.mark.parametrize("name", ["ruins_48x48", "city_72x48"])
def test_the_ai_planner_is_the_game_planner(name: str) -> None:
    """``ai.navigate`` keeps its names and they are the game layer's planner: the same class,
    the same memoised grid and the same fields on the sample boards."""
    assert navigate.NavGrid is route.NavGrid and navigate.nav_grid is route.nav_grid
    board = sample_board(name)
    grid = navigate.nav_grid(board, 0.5)
    assert grid is route.nav_grid(board, 0.5)
    goal = [(float(board.width) - 3.0, float(board.height) / 2)]
    fresh = route.NavGrid(board, 0.5)
    assert np.array_equal(grid.cost_to(goal), fresh.cost_to(goal))
    assert grid.steps((3.0, 3.0), 6.0, grid.cost_to(goal)) == fresh.steps(
        (3.0, 3.0), 6.0, fresh.cost_to(goal)
    )


def test_ai_formation_reshaped_is_the_game_placement() -> None:
    """``ai.formation.reshaped`` places the models as ``game.route_formation`` does."""
    ours_at = [(17.0 + 1.5 * k, y) for y in (11.5, 13.0) for k in range(5)]
    w = _work(_state(GAP, ours_at))
    grid = route.nav_grid(w.field.board, 0.5)
    dist = grid.cost_to([(20.0, 26.0)])
    ai = ai_formation.reshaped(w, 0, grid, dist, 6.0, False)
    free, _stay = mover_models(w, 0, False)
    assert ai is not None
    assert ai == route_formation.placed_one_by_one(w, 0, grid, dist, 6.0, free)
