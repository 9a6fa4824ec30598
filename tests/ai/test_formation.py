"""Formations that pass (issue 15 and issue 10, session 29, ``ai.formation``): a wide unit
whose rigid move stalls against a wall places its models one by one and passes the gap.
Core Rules 001_d3f5e425c5e1196d.txt §4.1 L1833-1839 (models move each within its Move, the
unit keeps Coherency), L1845-1848; §4.2 L1893-1911 (Coherency); §4.7 (Impassable Ground)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from tests.warsurge.game.helpers import entry, scenario, unit, weapon
from warbench.ai.formation import reshaped
from warbench.ai.navigate import nav_grid
from warbench.ai.tactical import PATH_MARGIN, TacticalBot, sees_a_target
from warbench.rulesets.warsurge.battlefield import board_from_data
from warbench.rulesets.warsurge.game import engine, geom
from warbench.rulesets.warsurge.game.actions import Move, Point
from warbench.rulesets.warsurge.game.route_formation import _lattice, _place, _reach
from warbench.rulesets.warsurge.game.state import GameState, Phase
from warbench.rulesets.warsurge.game.work import Work

#: A wall across the board at y 14-16 with a 3" gap at x 18.5-21.5.
GAP_BOARD: dict[str, Any] = {
    "name": "Gap",
    "width": 40,
    "height": 30,
    "deployment": {"layout": "thirds"},
    "terrain": [
        {"name": "West", "rect": [0, 14, 18.5, 16], "impassable": True},
        {"name": "East", "rect": [21.5, 14, 40, 16], "impassable": True},
    ],
}


def _behind_the_wall(
    board: dict[str, Any] | None = None, enemy: list[tuple[float, float]] | None = None
) -> GameState:
    """Move Phase, side 0 to act: ten Troopers (uid 0, Move 6", 0.5" bases) in two rows of
    five 1.5" apart, the front row 0.5" short of the wall, centred on the gap; an enemy line
    (uid 1, already moved) beyond the wall, by default ten models out of the Troopers' 12"
    Range (with ``enemy``: 18" Range, the line there)."""
    rifle = weapon("Rifle", range=12 if enemy is None else 18, attacks=2, power=3)
    ours = unit("Troopers", models=10, weapons=[rifle])
    theirs_at = enemy or [(13.5 + 1.5 * k, 28.0) for k in range(10)]
    theirs = unit("Line", models=len(theirs_at), weapons=[rifle])
    ours_at = [(17.0 + 1.5 * k, y) for y in (11.5, 13.0) for k in range(5)]
    state = scenario(
        [[entry(ours)], [entry(theirs)]],
        {0: ours_at, 1: theirs_at},
        phase=Phase.MOVE,
        b=board_from_data(board or GAP_BOARD),
    )
    units = list(state.units)
    units[1] = replace(units[1], acted=True)
    return replace(state, units=tuple(units))


def _north(state: GameState, move: Move) -> float:
    """The Troopers' centre's gain northward (toward the enemy)."""
    after, _ = engine.apply(state, move)
    before = engine.legal_actions(state)._work.xy(0)
    now = Work(after, None, engine.legal_actions(after)._work.hooks).xy(0)
    return float(now[:, 1].mean() - before[:, 1].mean())


def test_L1833_a_wide_formation_behind_a_wall_files_through_the_gap() -> None:
    """The rigid formation (7" wide) cannot enter the 3" gap: its best move along the path
    gains under an inch; placed model by model (§4.1 L1833-1839) the unit gains more than
    2" and its front models stand in or beyond the gap, the unit in Coherency (§4.2)."""
    state = _behind_the_wall()
    rigid = TacticalBot(pass_gaps=False).choose(state)
    assert isinstance(rigid, Move) and rigid.unit == 0 and rigid.positions is None
    assert _north(state, rigid) < 1.0
    move = TacticalBot().choose(state)
    assert isinstance(move, Move) and move.unit == 0 and move.positions is not None
    assert _north(state, move) > 2.0
    after, _ = engine.apply(state, move)
    xy = Work(after, None, engine.legal_actions(after)._work.hooks).xy(0)
    assert float(xy[:, 1].max()) > 15.0  # in the gap (the wall spans y 14-16) or beyond
    assert geom.coherent(xy, 0.5)


def _placed_toward_the_enemy(state: GameState, *, dash: bool) -> tuple[Work, tuple[Point, ...]]:
    """Unit 0's models placed one by one toward unit 1 (its 6" allowance), asserted found."""
    w = engine.legal_actions(state)._work
    grid = nav_grid(w.field.board, 0.5 + PATH_MARGIN)
    dist = grid.cost_to([(float(x), float(y)) for x, y in w.xy(1)])
    got = reshaped(w, 0, grid, dist, 6.0, dash)
    assert got is not None
    return w, got[0]


def test_L1845_each_model_moves_within_its_move_and_clear_of_the_wall() -> None:
    """The placement itself: every model within its 6" (§4.1 L1845-1848), none on the wall
    (§4.7), no two bases overlapping (§1.3), the engine accepts it as a Move with positions."""
    state = _behind_the_wall()
    w, placed = _placed_toward_the_enemy(state, dash=False)
    starts = w.xy(0)
    new = np.asarray(placed)
    assert (np.hypot(*(new - starts).T) <= 6.0 + 1e-9).all()
    assert all(w.field.spot_ok(p, 0.5) for p in placed)
    d = geom.edge_distances(new, 0.5, new, 0.5)
    np.fill_diagonal(d, np.inf)
    assert (d > 0).all()
    assert engine.can(state, Move(0, positions=placed))


def test_a_stalled_unit_in_range_without_sight_still_seeks_sight() -> None:
    """The walls block line of sight; the enemy stands within the Troopers' Range (18") but
    out of their sight behind the east wall. Seeking sight turns the path move toward the
    enemy by 45 and 90 degrees, so it takes the first rigid path move (a point to aim at),
    never the model-by-model placement that comes first among the path moves."""
    walls = [{**t, "blocks_los": True} for t in GAP_BOARD["terrain"]]
    state = _behind_the_wall(
        board={**GAP_BOARD, "terrain": walls}, enemy=[(32.0 + 1.5 * k, 22.0) for k in range(4)]
    )
    w = engine.legal_actions(state)._work
    assert not sees_a_target(w, 0)
    assert engine.nearest_enemies(w, 0)[0][0] < 18 * 0.75
    bot = TacticalBot()
    paths = bot._path_moves(w, 0, 1, 6.0, False, state)
    assert paths and paths[0].positions is not None  # the placement comes first
    move = bot.choose(state)
    assert isinstance(move, Move) and move.to is not None


def test_L1893_each_later_model_stands_within_2_inches_of_one_placed() -> None:
    """§4.2 L1893-1897 (each model within 2" of another, base to base): the greedy placement
    takes the cheapest spot first (B), then for the second model the cheapest spot within
    2" of B: D (1.9" from B's base), not the cheaper A (2.1" away), nor C (nearer but dearer)."""
    r = 0.5
    starts = np.asarray([(50.0, 0.0), (51.2, 0.0)])
    spots = np.asarray([(0.0, 0.0), (3.1, 0.0), (2.9, 0.0), (1.5, 0.0)])  # B, A, D, C
    vals = np.asarray([0.0, 1.0, 1.5, 2.0])
    reach = np.ones((2, 4), dtype=bool)
    placed = _place(starts, spots, vals, reach, r, 0.0)
    assert placed is not None
    assert sorted(placed) == [(0.0, 0.0), (2.9, 0.0)]
    assert geom.coherent(np.asarray(placed), r)


def test_L1833_a_model_that_may_not_move_stays_where_it_stands() -> None:
    """A model without a reachable spot (a Battle or Heavy user in a Dash, §5.1; a spot
    beyond its Move, §4.1) stays where it stands (L1833-1835), and the others are placed
    within 2" of it."""
    r = 0.5
    starts = np.asarray([(0.0, 0.0), (1.2, 0.0)])
    spots = np.asarray([(2.4, 0.0), (3.6, 0.0), (9.0, 0.0)])
    vals = np.asarray([2.0, 1.0, 0.0])
    reach = np.asarray([[False, False, False], [True, True, True]])
    placed = _place(starts, spots, vals, reach, r, 0.0)
    assert placed is not None
    assert placed[0] == (0.0, 0.0)  # it stays
    assert placed[1] == (2.4, 0.0)  # the nearest spot within 2" of it (not 9.0, not 3.6)


def test_L1833_models_that_may_not_move_stay_even_touching() -> None:
    """Two models that reach no spot stand where they are, their bases closer than the
    lattice's gap (a formation may stand so); the third is placed within 2" of them."""
    r = 0.5
    starts = np.asarray([(0.0, 0.0), (1.02, 0.0), (2.04, 0.0)])
    spots = np.asarray([(3.2, 0.0), (8.0, 0.0)])
    vals = np.asarray([1.0, 0.0])
    reach = np.asarray([[False, False], [False, False], [True, True]])
    placed = _place(starts, spots, vals, reach, r, 0.0)
    assert placed == ((0.0, 0.0), (1.02, 0.0), (3.2, 0.0))


def test_L1845_each_models_own_move_keeps_clear_of_other_bases_and_slows_in_mud() -> None:
    """The straight move of each model to each spot it may take (``_reach``): never through
    another unit's base (§4.7: a friendly model standing in the gap), and through
    Difficult Ground (the gap is mud, §4.5 L2045-2052: 6" becomes 3") no farther than 3"."""
    mud = {"name": "Mud", "rect": [18.5, 14, 21.5, 16], "difficult": True}
    board = {**GAP_BOARD, "terrain": [*GAP_BOARD["terrain"], mud]}
    rifle = weapon("Rifle", range=12, attacks=2, power=3)
    ours = unit("Troopers", models=10, weapons=[rifle])
    post = unit("Post", models=1, weapons=[rifle])
    theirs = unit("Line", models=10, weapons=[rifle])
    where = {
        0: [(17.0 + 1.5 * k, y) for y in (11.5, 13.0) for k in range(5)],
        1: [(19.4, 14.8)],
        2: [(13.5 + 1.5 * k, 28.0) for k in range(10)],
    }
    state = scenario([[entry(ours), entry(post)], [entry(theirs)]], where, phase=Phase.MOVE,
                     b=board_from_data(board))  # fmt: skip
    w = engine.legal_actions(state)._work
    starts = w.xy(0)
    spots = _lattice(w, starts, 0.5, 6.0)
    reach = _reach(w, 0, starts, spots, 6.0, w.others_mask([0]))
    assert reach.any()
    post_xy = w.xy(1)
    crossing = through_mud = 0
    for k, s in zip(*np.nonzero(reach), strict=True):
        gap = geom.segment_distances(starts[k], spots[s], post_xy) - 1.0
        assert float(gap.min()) > 0.0
        d = float(np.hypot(*(spots[s] - starts[k])))
        if w.field.path(tuple(starts[k]), tuple(spots[s]), 0.5).difficult:
            assert d <= 3.0
            through_mud += 1
    for k in range(len(starts)):  # the test sees moves the post stands in the way of
        for s in range(len(spots)):
            gap = geom.segment_distances(starts[k], spots[s], post_xy) - 1.0
            crossing += bool(
                float(gap.min()) <= 0.0 and float(np.hypot(*(spots[s] - starts[k]))) <= 3.0
            )
    assert through_mud > 0 and crossing > 0


def test_S5_1_a_heavy_user_stays_in_a_dash_the_others_file_past_it() -> None:
    """In a Dash a model that used a Heavy weapon this Game Turn stays where it stands (§5.1):
    placed model by model, the front row's middle Trooper (a Heavy user) keeps its spot and
    the others move, the unit still in Coherency (§4.2)."""
    state = _behind_the_wall()
    units = list(state.units)
    heavy = tuple(k == 2 for k in range(10))
    units[0] = replace(units[0], heavy=heavy)
    state = replace(state, units=tuple(units), flow=replace(state.flow, phase=Phase.DASH))
    w, placed = _placed_toward_the_enemy(state, dash=True)
    starts = [(float(x), float(y)) for x, y in w.xy(0)]
    assert placed[2] == starts[2]
    assert sum(p != s for p, s in zip(placed, starts, strict=True)) >= 5
    assert geom.coherent(np.asarray(placed), 0.5)
