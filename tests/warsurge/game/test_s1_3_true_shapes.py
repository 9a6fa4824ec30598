"""Oval and rectangular bases seen, covered and placed with their true outline (Core Rules
001_d3f5e425c5e1196d.txt §1.3 L249-255 with §5.4-5.6 line of sight and cover; rulings
"WARSURGE bases in play: session 26" 4). Each test sets the true hull against a round base the
size of its covering circle, the measure used before."""

from __future__ import annotations

from dataclasses import replace

from warbench.rulesets.warsurge.battlefield.model import Terrain
from warbench.rulesets.warsurge.game.state import GameState, Phase
from warbench.rulesets.warsurge.game.targeting import view_target

from .helpers import board, scenario
from .test_s1_3_bases_in_game import HULL, TANK_AT, game, tank, troop, work

#: a round base as wide as the circle that covers the hull (the measure before session 26b)
COVERING_MM = 2 * HULL.radius * 25.4


def _wall(top: float) -> Terrain:
    """A wall that blocks sight just east of the hull's long side, up to ``top``."""
    return Terrain(
        name="Wall", polygon=[(21.5, 5), (22, 5), (22, top), (21.5, top)], blocks_los=True
    )


def test_s5_4_L2331_a_wall_hides_the_true_hull_that_its_covering_circle_would_show() -> None:
    # the hull (facing north: 1.97" each way along y, 1.18" along x) ends at y 21.97; the
    # wall reaches y 22.1, the covering circle 22.30: a Troop due east sees over the wall
    # only the part of the circle outside the hull
    b = board(terrain=[_wall(22.1)])
    foe = [(34.0, 20.0)]
    hull = view_target(work(game(tank(), foe, phase=Phase.ATTACK, b=b, active=1)), 1, 0)
    disc = view_target(
        work(game(tank(None, COVERING_MM), foe, phase=Phase.ATTACK, b=b, active=1)), 1, 0
    )
    assert not hull.visible and not hull.users_in_range
    assert disc.visible and disc.users_in_range
    # from the north-east the hull's corner shows over the wall: seen
    ne = view_target(work(game(tank(), [(34.0, 24.0)], phase=Phase.ATTACK, b=b, active=1)), 1, 0)
    assert ne.visible and ne.users_in_range


def test_s5_4_the_tank_on_its_hull_sees_no_more_than_its_hull_does() -> None:
    # sight goes both ways (§5.4): the tank cannot see the Troop the wall hides from it
    b = board(terrain=[_wall(22.1)])
    foe = [(34.0, 20.0)]
    hull = view_target(work(game(tank(), foe, phase=Phase.ATTACK, b=b)), 0, 1)
    disc = view_target(work(game(tank(None, COVERING_MM), foe, phase=Phase.ATTACK, b=b)), 0, 1)
    assert not hull.visible and disc.visible


def _past_the_hull(tank_entry: object, shooter_x: float = 21.75) -> GameState:
    # a Troop shoots past the tank at a Troop as far beyond it: the lines between them pass
    # 1.25" to 2.25" east of the tank's centre, clear of its hull (1.18") and all inside the
    # circle that covers it (2.30")
    return scenario(
        [[troop(), tank_entry], [troop()]],  # type: ignore[list-item]
        {0: [(shooter_x, 10.0)], 1: [TANK_AT], 2: [(shooter_x, 30.0)]},
        phase=Phase.ATTACK,
    )


def test_s5_4_other_units_block_sight_with_their_true_hull() -> None:
    hull = view_target(work(_past_the_hull(tank())), 0, 2)
    disc = view_target(work(_past_the_hull(tank(None, COVERING_MM))), 0, 2)
    assert hull.visible and hull.users_in_range
    assert not disc.visible and not disc.users_in_range
    assert hull.cover == 0  # no ray passes through the hull


def test_s5_6_a_hull_obscures_with_its_true_outline() -> None:
    # shooting from a little farther east: the covering circle still obscures half of the
    # rays or more (Cover Bonus), the hull none of them
    hull = view_target(work(_past_the_hull(tank(), 22.0)), 0, 2)
    disc = view_target(work(_past_the_hull(tank(None, COVERING_MM), 22.0)), 0, 2)
    assert hull.visible and disc.visible
    assert hull.cover == 0 and disc.cover == 1


def test_s1_3_a_turned_hull_is_seen_with_its_turn() -> None:
    # a wall east of the tank up to y 21.3: facing north the hull reaches y 21.97 and shows
    # over it to a Troop due east; turned east (1.18" each way along y) it is hidden. The
    # covering circle is the same either way.
    wall = Terrain(
        name="Wall", polygon=[(23, 5), (23.5, 5), (23.5, 21.3), (23, 21.3)], blocks_los=True
    )
    state = game(tank(), [(34.0, 20.0)], phase=Phase.ATTACK, b=board(terrain=[wall]), active=1)
    units = list(state.units)
    units[0] = replace(units[0], facing=(0.0,))
    east = replace(state, units=tuple(units))
    assert view_target(work(state), 1, 0).visible
    assert not view_target(work(east), 1, 0).visible
