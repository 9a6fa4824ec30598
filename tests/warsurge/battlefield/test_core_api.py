"""The agreed battlefield API: every name importable and the basic measurements."""

from __future__ import annotations

import math

import pytest

from tests.warsurge.battlefield.conftest import R25, board, row
from warbench.rulesets.warsurge import battlefield as bf


def test_s1_3_base_radius_in_inches() -> None:
    # 001_d3f5e425c5e1196d.txt §1.3: distances are measured from the base
    assert bf.Base().radius == pytest.approx(25 / 25.4 / 2)
    assert bf.Base(diameter_mm=50.8).radius == pytest.approx(1.0)
    assert bf.Base.for_hull(120, 60).diameter_mm == 120


def test_s1_3_edge_distance_is_base_to_base() -> None:
    assert bf.edge_distance((0, 0), 0.5, (3, 4), 0.5) == pytest.approx(4.0)
    assert bf.edge_distance((0, 0), 1, (1, 0), 1) == 0.0
    assert bf.in_base_contact((0, 0), 0.5, (1, 0), 0.5)
    assert not bf.in_base_contact((0, 0), 0.5, (1.01, 0), 0.5)


def test_s5_3_unit_distance_is_the_closest_pair() -> None:
    a = row(0, 0, 3)
    b = row(0, 10, 3)
    assert bf.unit_distance(a, b) == pytest.approx(10 - 2 * R25)
    assert bf.unit_distance([], b) == math.inf
    assert bf.distance_matrix(a, b).shape == (3, 3)


def test_s4_7_overlaps() -> None:
    assert bf.overlaps([(0, 0), (0.9, 0), (5, 5)], [0.5, 0.5, 0.5]) == [(0, 1)]
    assert bf.overlaps([(0, 0), (1.0, 0)], [0.5, 0.5]) == []


def test_api_smoke_on_a_sample_board() -> None:
    b = bf.sample_board("ruins_48x48")
    a = row(10, 5, 10)
    t = row(10, 40, 10)
    assert len(bf.visible_models(b, a, t, [])) == 10
    assert isinstance(bf.cover_bonus(b, a, t, []), int)
    assert bf.check_move(b, (10, 5), (10, 10), R25, 6, []).ok
    assert bf.line_of_sight(b, ((30, 5), R25), ((30, 40), R25), [])
    assert not bf.line_of_sight(b, a[0], t[0], [])  # Ruin A is in the way
    assert board().geometry() is not None
