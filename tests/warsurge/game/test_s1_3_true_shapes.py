"""Oval and rectangular bases seen, covered and placed with their true outline (Core Rules
001_d3f5e425c5e1196d.txt §1.3 L249-255 with §5.4-5.6 line of sight and cover; rulings
"WARSURGE bases in play: session 26" 4). Each test sets the true hull against a round base the
size of its covering circle, the measure used before."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.battlefield.model import Terrain
from warbench.rulesets.warsurge.game import bases, bases_ground, engine, geom
from warbench.rulesets.warsurge.game.actions import Move
from warbench.rulesets.warsurge.game.deployment import _check_deploy_positions
from warbench.rulesets.warsurge.game.perk_sentinel import watcher
from warbench.rulesets.warsurge.game.state import GameState, Phase
from warbench.rulesets.warsurge.game.targeting import view_target

from .helpers import board, entry, scenario, unit
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


# ------------------------------------------------------ the ground (§2.1, §3.6, §4.5-4.7)


def _moved(tank_entry: object, to: tuple[float, float], **kw: object) -> GameState:
    state = game(tank_entry, [(40.0, 40.0)], **kw)  # type: ignore[arg-type]
    after, _ = engine.apply(state, Move(0, positions=(to,)))
    return after


def _refused(tank_entry: object, to: tuple[float, float], **kw: object) -> RulesError:
    with pytest.raises(RulesError) as exc:
        _moved(tank_entry, to, **kw)
    return exc.value


def test_s2_1_the_hull_may_stand_where_its_covering_circle_would_leave_the_board() -> None:
    # 1.3" from the west edge: the hull (1.18" each way along x) is on the board, the circle
    # that covers it (2.30") would not be
    state = replace(
        game(tank(), [(40.0, 40.0)]),
        units=tuple(
            replace(u, pos=((6.0, 20.0),)) if u.uid == 0 else u
            for u in game(tank(), [(40.0, 40.0)]).units
        ),
    )
    after, _ = engine.apply(state, Move(0, positions=((1.3, 20.0),)))
    assert after.units[0].pos == ((1.3, 20.0),)
    disc = replace(
        game(tank(None, COVERING_MM), [(40.0, 40.0)]),
        units=tuple(
            replace(u, pos=((6.0, 20.0),)) if u.uid == 0 else u
            for u in game(tank(None, COVERING_MM), [(40.0, 40.0)]).units
        ),
    )
    with pytest.raises(RulesError, match="off the battlefield"):
        engine.apply(disc, Move(0, positions=((1.3, 20.0),)))
    # 1.1" from the edge the hull itself would leave it
    with pytest.raises(RulesError, match="off the battlefield"):
        engine.apply(state, Move(0, positions=((1.1, 20.0),)))


def test_s3_6_the_hull_is_deployed_wholly_in_its_zone_by_its_outline() -> None:
    # the south zone ends at y 12; facing north the hull reaches 1.97" beyond its centre
    w = work(game(tank(), [(40.0, 40.0)]))
    _check_deploy_positions(w, 0, [(20.0, 9.9)], 0)  # the hull inside: 11.87
    with pytest.raises(RulesError) as exc:
        _check_deploy_positions(w, 0, [(20.0, 10.1)], 0)  # 12.07: partly outside
    assert "§3.6" in exc.value.rule
    disc = work(game(tank(None, COVERING_MM), [(40.0, 40.0)]))
    with pytest.raises(RulesError):
        _check_deploy_positions(disc, 0, [(20.0, 9.9)], 0)  # the circle reaches 12.2


def _beside(difficult: bool) -> Terrain:
    """A piece east of the tank's way north: 1.5" from its centre line (the hull passes it
    0.32" away, its covering circle would cross it)."""
    return Terrain(
        name="Rubble" if difficult else "Rock",
        polygon=[(21.5, 22), (25, 22), (25, 26), (21.5, 26)],
        difficult=difficult,
        impassable=not difficult,
    )


def test_s4_5_difficult_ground_halves_the_move_only_where_the_hull_crosses_it() -> None:
    b = board(terrain=[_beside(True)])
    after = _moved(tank(), (20.0, 27.0), b=b)  # 7" of its 8": not halved
    assert after.units[0].pos == ((20.0, 27.0),)
    err = _refused(tank(None, COVERING_MM), (20.0, 27.0), b=b)
    assert err.rule == "§4.5" and "halved by Difficult Ground" in str(err)
    # turned east where it ends, the hull reaches into the rubble: halved, 7" is too far
    state = game(tank(), [(40.0, 40.0)], b=b)
    with pytest.raises(RulesError, match="halved by Difficult Ground"):
        engine.apply(state, Move(0, positions=((20.0, 24.0),), facing=0.0))


def test_s4_7_impassable_ground_stops_the_hull_only_where_it_would_cross_it() -> None:
    b = board(terrain=[_beside(False)])
    assert _moved(tank(), (20.0, 27.0), b=b).units[0].pos == ((20.0, 27.0),)
    assert _refused(tank(None, COVERING_MM), (20.0, 27.0), b=b).rule == "§4.7"
    state = game(tank(), [(40.0, 40.0)], b=b)
    with pytest.raises(RulesError) as exc:
        engine.apply(state, Move(0, positions=((20.0, 24.0),), facing=0.0))
    assert exc.value.rule == "§4.7"


def test_s4_6_dangerous_ground_strikes_the_hull_that_stands_on_it() -> None:
    piece = Terrain(
        name="Fire",
        polygon=[(21.5, 18), (25, 18), (25, 22), (21.5, 22)],
        dangerous={"kind": "roll"},
    )
    w = work(game(tank(), [(40.0, 40.0)], b=board(terrain=[piece])))
    assert bases_ground.dangerous_at(w, 0, TANK_AT, 90.0) == []  # 0.32" short of it
    assert bases_ground.dangerous_at(w, 0, TANK_AT, 0.0) == ["Fire"]  # turned east: on it
    assert w.field.dangerous_at(TANK_AT, HULL.radius) == ["Fire"]  # the covering circle


# ------------------------------------------------------------- the perks' own measurements


def test_s1_4_the_perks_own_distances_measure_the_hull() -> None:
    # 12.3" from the hull's long side, 11.18" from the circle that covers it
    foe = [(TANK_AT[0] + HULL.half_extents[1] + 0.5 + 12.3, TANK_AT[1])]
    w = work(game(tank(), foe))
    d = bases.distances(w, 0, w.xy(0), HULL.radius, 1, w.xy(1), 0.5)
    assert float(d.min()) == pytest.approx(12.3, abs=1e-6) == w.gap(0, 1)
    # to a point (Aim, Trap): from the long side
    point = geom.as_array([(TANK_AT[0] + 5.0, TANK_AT[1])])
    to_point = bases.distances(w, 0, w.xy(0), HULL.radius, None, point, 0.0)
    assert float(to_point.min()) == pytest.approx(5.0 - HULL.half_extents[1], abs=1e-6)
    # a game on round bases keeps the disc answer, bit for bit
    r = work(game(tank(None, COVERING_MM), foe))
    disc = bases.distances(r, 0, r.xy(0), HULL.radius, 1, r.xy(1), 0.5)
    assert np.array_equal(disc, geom.edge_distances(r.xy(0), HULL.radius, r.xy(1), 0.5))


def test_sentinel_L1749_watches_within_12_of_the_hull_not_of_its_covering_circle() -> None:
    sentry = entry(unit("Sentry", perks=["Sentinel"]))
    foe = [(TANK_AT[0] + HULL.half_extents[1] + 0.5 + 12.3, TANK_AT[1])]
    hull = work(scenario([[tank()], [sentry]], {0: [TANK_AT], 1: foe}))
    disc = work(scenario([[tank(None, COVERING_MM)], [sentry]], {0: [TANK_AT], 1: foe}))
    assert watcher(hull, 0, [TANK_AT]) is None  # 12.3" from the hull
    assert watcher(disc, 0, [TANK_AT]) == 1  # 11.18" from the circle
    near = (TANK_AT[0] + 0.4, TANK_AT[1])  # 0.4" nearer: 11.9" from the hull
    assert watcher(hull, 0, [near]) == 1


def test_s5_4_the_perks_own_sight_sees_past_the_true_hull() -> None:
    # Psych, Doppelganger and the perk hooks' "in sight" (bases.sees): as an Attack's sight
    assert bases.sees(work(_past_the_hull(tank())), 0, 2)
    assert not bases.sees(work(_past_the_hull(tank(None, COVERING_MM))), 0, 2)
