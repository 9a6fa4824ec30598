"""Invariants of the battlefield geometry on random positions (hypothesis)."""

from __future__ import annotations

import math

import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.warsurge.battlefield.conftest import R25, board
from warbench.rulesets.warsurge.battlefield import (
    Disc,
    check_move,
    coherent,
    edge_distance,
    line_of_sight,
    move_towards,
    overlaps,
    place_near,
    restore_coherency,
    sample_board,
)

coord = st.floats(min_value=1.0, max_value=47.0, allow_nan=False)
point = st.tuples(coord, coord)
radius = st.floats(min_value=0.3, max_value=2.0)
RUINS = sample_board("ruins_48x48")
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(point, radius, point, radius)
def test_edge_distance_symmetric_and_never_negative(
    a: tuple[float, float], ra: float, b: tuple[float, float], rb: float
) -> None:
    d = edge_distance(a, ra, b, rb)
    assert d >= 0
    assert d == edge_distance(b, rb, a, ra)
    assert d <= math.dist(a, b)


@FAST
@given(point, point, st.lists(st.tuples(point, radius), max_size=4))
def test_s5_4_line_of_sight_goes_both_ways(
    a: tuple[float, float], b: tuple[float, float], blockers: list[Disc]
) -> None:
    src, dst = (a, R25), (b, R25)
    others = [o for o in blockers if edge_distance(o[0], o[1], a, R25) > 0.01]
    others = [o for o in others if edge_distance(o[0], o[1], b, R25) > 0.01]
    assert line_of_sight(RUINS, src, dst, others) == line_of_sight(RUINS, dst, src, others)


@FAST
@given(point, st.integers(min_value=1, max_value=15), st.floats(min_value=0.5, max_value=12))
def test_place_near_never_overlaps_and_stays_on_the_board(
    anchor: tuple[float, float], count: int, within: float
) -> None:
    occupied = [((24.0, 24.0), 2.0), ((10.0, 30.0), 1.0)]
    spots = place_near(RUINS, anchor, R25, count, occupied, within)
    assert len(spots) <= count
    assert not overlaps(spots + [p for p, _ in occupied], [R25] * len(spots) + [2.0, 1.0])
    g = RUINS.geometry()
    for x, y in spots:
        assert R25 - 1e-9 <= x <= 48 - R25 + 1e-9 and R25 - 1e-9 <= y <= 48 - R25 + 1e-9
        assert math.hypot(x - anchor[0], y - anchor[1]) + R25 <= within + 1e-6
    if spots:
        import numpy as np

        assert not g.on_impassable(np.array(spots), R25).any()
        assert coherent(spots, [R25] * len(spots))


@FAST
@given(st.lists(point, min_size=1, max_size=8))
def test_s4_2_restore_coherency_output_is_coherent(points: list[tuple[float, float]]) -> None:
    # spread the models out so they never overlap to begin with
    models: list[tuple[float, float]] = []
    for p in points:
        if all(math.dist(p, q) >= 2 * R25 + 0.01 for q in models):
            models.append(p)
    b = board()
    fixed = restore_coherency(b, models, [R25] * len(models), occupied=[])
    assert coherent(fixed, [R25] * len(fixed))
    assert not overlaps(fixed, [R25] * len(fixed))


@FAST
@given(point, st.lists(point, min_size=1, max_size=3), st.floats(min_value=0, max_value=14))
def test_s4_7_an_accepted_move_never_crosses_impassable_ground(
    start: tuple[float, float], path: list[tuple[float, float]], allowance: float
) -> None:
    res = check_move(RUINS, start, path, R25, allowance)
    if res.ok and res.length > 0:
        swept = shapely.LineString([start, *path]).buffer(R25 - 1e-4)
        for t in RUINS.terrain:
            if t.impassable:
                assert not swept.intersects(shapely.Polygon(t.polygon))
        assert res.length <= allowance + 1e-6


@FAST
@given(point, point, st.floats(min_value=0, max_value=14))
def test_move_towards_ends_where_check_move_agrees(
    start: tuple[float, float], target: tuple[float, float], allowance: float
) -> None:
    g = RUINS.geometry()
    import numpy as np

    if g.on_impassable(np.array([start]), R25).any() or not g.on_board(np.array([start]), R25)[0]:
        return
    blockers = [((24.0, 24.0), 1.5)]
    if edge_distance(start, R25, *blockers[0]) < 0:
        return
    end = move_towards(RUINS, start, target, R25, allowance, blockers)
    assert check_move(RUINS, start, end, R25, allowance, blockers).ok
    assert math.dist(start, end) <= math.dist(start, target) + 1e-6
