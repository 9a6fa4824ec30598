"""Properties of the true-base geometry (§1.3, issue 12): round footprints agree with the disc
functions, distances are symmetric and never negative, overlap means sharing area, the matrix
agrees with the pairwise function, and the covering disc is never further than the true base."""

from __future__ import annotations

import math

import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from warbench.rulesets.warsurge.battlefield import (
    Base,
    Footprint,
    edge_distance,
    footprint_distance,
    footprint_distance_matrix,
    footprints_overlap,
)

coord = st.floats(0, 20, allow_nan=False)
size = st.floats(20, 150, allow_nan=False)


@st.composite
def footprints(draw: st.DrawFn) -> Footprint:
    shape = draw(st.sampled_from(["round", "oval", "rect"]))
    if shape == "round":
        base = Base(diameter_mm=draw(size))
    else:
        base = Base(shape=shape, length_mm=draw(size), width_mm=draw(size))
    return Footprint((draw(coord), draw(coord)), base, facing=draw(st.floats(0, 360)))


@settings(max_examples=150, deadline=None)
@given(footprints(), footprints())
def test_distance_is_symmetric_and_the_covering_disc_is_never_further(
    a: Footprint, b: Footprint
) -> None:
    d = footprint_distance(a, b)
    assert d >= 0 and math.isclose(d, footprint_distance(b, a), abs_tol=1e-9)
    (pa, ra), (pb, rb) = a.disc, b.disc
    assert edge_distance(pa, ra, pb, rb) <= d + 1e-9


@settings(max_examples=150, deadline=None)
@given(footprints(), footprints())
def test_overlap_means_shared_area_and_zero_distance(a: Footprint, b: Footprint) -> None:
    if footprints_overlap(a, b):
        assert footprint_distance(a, b) == 0
        shape_a = shapely.Polygon(a.outline()) if not a.base.round else None
        shape_b = shapely.Polygon(b.outline()) if not b.base.round else None
        if shape_a is not None and shape_b is not None:
            assert shape_a.intersection(shape_b).area > 0
    elif footprint_distance(a, b) > 1e-6:
        assert not footprints_overlap(a, b)


@given(st.lists(footprints(), min_size=1, max_size=6))
@settings(max_examples=60, deadline=None)
def test_matrix_agrees_with_the_pairwise_distance(models: list[Footprint]) -> None:
    m = footprint_distance_matrix(models)
    for i, a in enumerate(models):
        for j, b in enumerate(models):
            if i != j:
                assert math.isclose(m[i, j], footprint_distance(a, b), abs_tol=1e-6)


@settings(max_examples=100, deadline=None)
@given(coord, coord, coord, coord, size, size)
def test_round_footprints_are_the_disc_functions(
    x0: float, y0: float, x1: float, y1: float, d0: float, d1: float
) -> None:
    a, b = Footprint((x0, y0), Base(diameter_mm=d0)), Footprint((x1, y1), Base(diameter_mm=d1))
    assert footprint_distance(a, b) == edge_distance(
        a.centre, a.base.radius, b.centre, b.base.radius
    )
