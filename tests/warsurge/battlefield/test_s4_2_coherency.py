"""Coherency: Core Rules 001_d3f5e425c5e1196d.txt §2.1, §4.2, §4.4 III (and §5.11 casualties)."""

from __future__ import annotations

import math

import pytest

from tests.warsurge.battlefield.conftest import R25, board
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.battlefield import (
    coherency_groups,
    coherent,
    edge_distance,
    restore_coherency,
)


def test_s4_2_a_two_groups_break_coherency() -> None:
    # A: "Although each model in the Legionaries Unit is within 2" of another model in the same
    # Unit, they have been separated into two groups. This is breaking Coherency."
    legionaries = [(10, 10), (11.5, 10), (13, 10), (20, 10), (21.5, 10), (23, 10)]
    radii = [R25] * 6
    assert coherency_groups(legionaries, radii) == [[0, 1, 2], [3, 4, 5]]
    assert not coherent(legionaries, radii)


def test_s4_2_b_one_group_obeys_coherency() -> None:
    # B: "Each model is within 2" of at least one other model, and they are grouped together."
    legionaries = [(10, 10), (11.5, 10), (13, 10), (14.5, 11), (16, 12), (17.5, 13)]
    assert coherent(legionaries, [R25] * 6)


def test_s4_2_i_measured_base_to_base_exactly_2_inches() -> None:
    a, b = (10.0, 10.0), (10.0 + 2 + 2 * R25, 10.0)
    assert edge_distance(a, R25, b, R25) == pytest.approx(2)
    assert coherent([a, b], [R25, R25])
    assert not coherent([a, (b[0] + 0.01, b[1])], [R25, R25])


def test_s4_2_i_one_neighbour_is_enough_even_in_big_units() -> None:
    # "Models must be within 2" of at least one other model in the Unit": a long conga line of
    # 20 models is coherent (no second-neighbour rule in WARSURGE)
    line = [(2 + 2.9 * i, 10) for i in range(15)]
    assert coherent(line, [R25] * 15)


def test_s4_2_single_model_and_empty_unit() -> None:
    assert coherent([(1, 1)], [R25])
    assert coherent([], [])
    assert coherency_groups([], []) == []


def test_s4_2_iv_dead_dogs_shift_two_models_to_restore_coherency() -> None:
    # §4.4 A/B: "The Dead Dog player selects their casualties, but it creates a gap that breaks
    # Coherency ... the player shifts two Dead Dog models to restore Coherency." §4.2 IV: "move
    # the least number of models the minimum distance to regain Coherency."
    dogs = [(10, 10), (11.2, 10), (12.4, 10), (16.0, 10), (17.2, 10)]
    radii = [R25] * 5
    assert not coherent(dogs, radii)
    fixed = restore_coherency(board(), dogs, radii, occupied=[])
    assert coherent(fixed, radii)
    moved = [i for i, (a, b) in enumerate(zip(dogs, fixed, strict=True)) if a != b]
    assert moved == [3, 4]
    gap = edge_distance(dogs[2], R25, dogs[3], R25)
    for i in moved:
        assert math.dist(dogs[i], fixed[i]) == pytest.approx(gap - 2, abs=0.02)


def test_s4_2_iv_blocked_slide_falls_back_to_placing_models() -> None:
    dogs = [(10, 10), (11.2, 10), (16.0, 10), (17.2, 10), (30, 30)]
    radii = [R25] * 5
    wall = [((13.5, 10), 0.9)]  # another unit's model between the groups
    fixed = restore_coherency(board(), dogs, radii, occupied=wall)
    assert coherent(fixed, radii)
    for p, r in zip(fixed, radii, strict=True):
        assert edge_distance(p, r, *wall[0]) >= -1e-9


def test_s4_2_iv_no_room_raises() -> None:
    b = board(width=4, height=4)
    with pytest.raises(RulesError, match="Coherency"):
        restore_coherency(
            b, [(0.6, 0.6), (3.4, 3.4)], [0.55, 0.55], occupied=[((2, 2), 1.3), ((3.4, 0.6), 0.55)]
        )
