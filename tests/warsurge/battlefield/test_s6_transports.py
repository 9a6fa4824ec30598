"""Placing passengers: Core Rules 001_d3f5e425c5e1196d.txt §6.3, §6.6, §6.7, §10.3 (positions
only; capacity is the game engine's)."""

from __future__ import annotations

import math

from tests.warsurge.battlefield.conftest import R25, board
from warbench.rulesets.warsurge.battlefield import (
    coherent,
    edge_distance,
    overlaps,
    place_near,
    unit_distance,
)

URSUS = ((24.0, 24.0), 2.0)  # the Ursus APC: no base, its hull as a 4" round hull (§1.3)
FOOTPRINT = 2.5  # where a bigger Ursus stood: room for ten Shadow Hounds


def test_s6_3_two_models_disembark_within_their_move_of_the_transport() -> None:
    # "place any passenger Units wishing to disembark within their Move or Dash distance from
    # the Transport's base"
    spots = place_near(board(), URSUS[0], R25, 2, [URSUS], 6, anchor_radius=URSUS[1])
    assert len(spots) == 2
    for p in spots:
        assert math.dist(p, URSUS[0]) + R25 <= URSUS[1] + 6 + 1e-9  # wholly within 6"
        assert edge_distance(p, R25, *URSUS) >= -1e-9  # not on the Transport
    assert coherent(spots, [R25, R25])


def test_s6_3_enemies_blocking_the_transport_prevent_disembarking() -> None:
    # "If there is not enough room to disembark or there are enemies blocking the Transport and
    # the disembarking Unit cannot avoid them, the Unit cannot disembark."
    ring = [
        (
            (
                URSUS[0][0] + 2.6 * math.cos(2 * math.pi * k / 16),
                URSUS[0][1] + 2.6 * math.sin(2 * math.pi * k / 16),
            ),
            0.6,
        )
        for k in range(16)
    ]
    assert place_near(board(), URSUS[0], R25, 2, [URSUS, *ring], 1.0, anchor_radius=2.0) == []


def test_s6_6_shadow_hounds_occupy_where_the_destroyed_ursus_stood() -> None:
    # "place surviving models where the Transport model once was ... The Unit of ten Shadow
    # Hounds must occupy where it once stood."
    hounds = place_near(board(), URSUS[0], R25, 10, [], math.inf)
    assert len(hounds) == 10 and not overlaps(hounds, [R25] * 10)
    assert all(math.dist(p, URSUS[0]) + R25 <= FOOTPRINT + 1e-9 for p in hounds)


def test_s6_6_surplus_models_form_a_circle_around() -> None:
    # "If there were surplus models, they would form a circle around the models already inside"
    models = place_near(board(), URSUS[0], R25, 30, [], math.inf)
    assert len(models) == 30 and not overlaps(models, [R25] * 30)
    d = [round(math.dist(p, URSUS[0]), 6) for p in models]
    assert d == sorted(d)  # filled from the centre outwards, ring by ring
    assert coherent(models, [R25] * 30)


def test_s6_6_models_that_cannot_be_placed_are_casualties() -> None:
    # "If models (friend or foe) completely surround the site of the removed Transport, any
    # models that cannot be placed are to be removed as casualties"
    ring = [
        (
            (
                URSUS[0][0] + 2.6 * math.cos(2 * math.pi * k / 16),
                URSUS[0][1] + 2.6 * math.sin(2 * math.pi * k / 16),
            ),
            0.6,
        )
        for k in range(16)
    ]
    placed = place_near(board(), URSUS[0], R25, 40, ring, math.inf)
    assert len(placed) == 7  # the centre and one ring fit inside the enemy ring
    assert all(math.dist(p, URSUS[0]) < 2.6 for p in placed)


def test_s6_7_fire_points_measure_from_the_transport() -> None:
    # "When measuring range for attacking with the embarked models, measure from the Transport
    # model itself"
    target = [((24.0, 40.0), R25)]
    assert unit_distance([URSUS], target) == 16 - 2 - R25


def test_s10_3_units_on_destroyed_terrain_are_placed_like_passengers() -> None:
    b = board({"name": "Watchtower", "rect": [20, 20, 24, 24], "impassable": True})
    # the tower is destroyed: the board without it, models placed where it stood
    spots = place_near(board(), (22, 22), R25, 5, [], math.inf)
    assert len(spots) == 5
    assert all(20 <= x <= 24 and 20 <= y <= 24 for x, y in spots)
    # while it stands, nothing can be placed on it
    assert all(not (20 < x < 24 and 20 < y < 24) for x, y in place_near(b, (22, 22), R25, 5))


def test_s3_6_deploy_wholly_within_a_zone() -> None:
    b = board()
    zone = [(28.0, 0.0), (42.0, 0.0), (42.0, 32.0), (28.0, 32.0)]
    spots = place_near(b, (30, 16), R25, 10, [], math.inf, zone=zone)
    assert len(spots) == 10
    assert all(28 + R25 - 1e-9 <= x <= 42 and y <= 32 for x, y in spots)
