"""Paths round terrain for the AI's moves (``ai.navigate``, issue 15): the engine moves a unit
in a straight line (Core Rules 001_d3f5e425c5e1196d.txt §4.1), so the tactical player must aim
round Impassable Ground (§4.7) itself."""

from __future__ import annotations

import math
from typing import Any

from warbench.ai.navigate import DIFFICULT_COST, INF, NavGrid, nav_grid
from warbench.rulesets.warsurge.battlefield import board_from_data, sample_board
from warbench.sim.lab import LabSpec, load_rosters, play_game

WALL = {
    "name": "Wall",
    "width": 30,
    "height": 20,
    "deployment": {"layout": "thirds"},
    "terrain": [{"name": "Wall", "rect": [14, 0, 16, 16], "impassable": True}],
}


def _grid(**extra: Any) -> NavGrid:
    return NavGrid(board_from_data({**WALL, **extra}), 0.5)


def test_the_cost_field_goes_round_impassable_ground_s4_7() -> None:
    """§4.7: a base may not cross Impassable Ground, so the cheapest path from behind the wall
    to a goal on the other side goes over its open end (y > 16), much longer than the straight
    line."""
    g = _grid()
    dist = g.cost_to([(25.0, 5.0)])
    here = g.at(dist, (5.0, 5.0))
    assert here < INF / 2
    assert here > math.hypot(20.0, 0.0) + 10  # up past y = 16 and back down
    assert g.blocked[g.cell((15.0, 5.0))]


def test_a_step_from_behind_the_wall_does_not_run_into_it() -> None:
    """The proposed moves are straight (the engine's), clear of the wall, and make progress;
    the straight line at the goal is blocked and is not proposed."""
    g = _grid()
    dist = g.cost_to([(25.0, 5.0)])
    start = (10.0, 8.0)
    steps = g.steps(start, 6.0, dist)
    assert steps
    value, end = steps[0]
    assert g.clear_line(start, end)
    assert value < g.at(dist, start)
    assert end[1] > start[1]  # heads for the open end of the wall
    assert not g.clear_line(start, (20.0, 8.0))


def test_difficult_ground_costs_double_s4_5() -> None:
    """§4.5 halves a move through Difficult Ground: the field charges double there."""
    g = _grid(terrain=[{"name": "Mud", "rect": [10, 0, 20, 20], "difficult": True}])
    dist = g.cost_to([(25.0, 10.0)])
    across = g.at(dist, (5.0, 10.0))
    assert across > 20.0 + (DIFFICULT_COST - 1) * 9  # 10" of mud cost about twice
    assert g.cost[g.cell((15.0, 10.0))] == DIFFICULT_COST


def test_grids_are_memoised_by_board_terrain_and_radius() -> None:
    board = sample_board("city_72x48")
    assert nav_grid(board, 0.75) is nav_grid(board, 0.75)
    assert nav_grid(board, 0.75) is not nav_grid(board, 1.5)


def test_on_the_city_board_the_tactical_player_always_deals_damage() -> None:
    """Before paths, the tactical player's units parked against the city's buildings and dealt
    no damage in a third of its games against random-legal there. Four city games, each
    roster: the tactical side deals damage in every one."""
    rosters = load_rosters(
        ["examples/warsurge/rosters/skirmish_a.yaml", "examples/warsurge/rosters/skirmish_b.yaml"]
    )
    for kinds, mine in ((("tactical", "random"), "A"), (("random", "tactical"), "B")):
        spec = LabSpec(rosters, kinds, boards=("city_72x48",), seed=0)
        for game in range(2):
            row = play_game(spec, game)
            dealt = sum(u.dealt for u in row.units if u.roster == mine)
            assert dealt > 0, (kinds, game)
