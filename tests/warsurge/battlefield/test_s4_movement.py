"""Moving models: Core Rules 001_d3f5e425c5e1196d.txt §2.2 (Move Phase), §4.1, §4.3, §4.5-4.7."""

from __future__ import annotations

import pytest

from tests.warsurge.battlefield.conftest import R25, board, row
from warbench.rulesets.warsurge.battlefield import (
    check_move,
    difficult_allowance,
    in_base_contact,
    move_towards,
)


@pytest.mark.parametrize("distance", [0.1, 3.5, 7.0])
def test_s4_1_hoplite_moves_anything_up_to_7_inches(distance: float) -> None:
    # "the model could Move 0.1" to 7" or anything in between"
    res = check_move(board(), (10, 10), (10, 10 + distance), R25, 7)
    assert res.ok and res.length == pytest.approx(distance) and res.cost == res.length


def test_s4_1_not_to_the_far_side_of_the_move() -> None:
    # "Be sure not to move a model to the far side of its Move or Dash distance": placing the
    # base's rear edge at 7" moves the model 7" plus the base's width.
    res = check_move(board(), (10, 10), (10, 17 + 2 * R25), R25, 7)
    assert not res.ok and res.rule == "§4.1" and "allowance" in (res.reason or "")


def test_s2_2_heavy_flamer_car_moves_11_of_its_12_inches() -> None:
    # §2.2 Move Phase A: "In this case it is 12", but the player wants to Move it less than
    # this, 11" instead."
    car = 2.0  # an unbased vehicle measured from its hull (§1.3), as a 4" round hull
    assert check_move(board(), (10, 10), (21, 10), car, 12).ok


def test_s2_2_warp_caster_moves_into_base_contact() -> None:
    # §2.2 Move Phase: "In one Move, the Scavenger Warp Caster makes base-to-base contact with
    # the Light Biker Squadron, starting a Melee" (§4.3)
    bikers = [((20, 10), 0.8), ((21.7, 10), 0.8)]
    caster = (10.0, 10.0)
    end = move_towards(board(), caster, bikers[0][0], R25, 10, bikers)
    assert in_base_contact(end, R25, *bikers[0], tol=1e-3)
    assert check_move(board(), caster, end, R25, 10, bikers).ok


def test_s4_1_zero_move_is_fine() -> None:
    res = check_move(board(), (10, 10), (10, 10), R25, 0)
    assert res.ok and res.length == 0


def test_s4_1_waypoints_add_up() -> None:
    res = check_move(board(), (10, 10), [(13, 10), (13, 14)], R25, 7)
    assert res.ok and res.length == pytest.approx(7)
    assert not check_move(board(), (10, 10), [(13, 10), (13, 14.5)], R25, 7).ok


@pytest.mark.parametrize(
    ("allowance", "left"), [(9, 4), (7, 3), (6, 3), (2, 1), (1, 0), (0, 0), (12, 6)]
)
def test_s4_5_difficult_ground_halves_move(allowance: float, left: float) -> None:
    # "reduced by half (50%). Round the Movement down if a fraction (3.5" Movement becomes 3"),
    # and deduct at least 1""
    assert difficult_allowance(allowance) == left


def test_s4_5_legionaries_9_inch_move_through_stones_and_barbed_wire() -> None:
    # "Legionaries that can Move 9" ... The models passing through the Difficult Ground can only
    # Move 4" ... The two models that did not pass through the Difficult Ground ... may still
    # travel 9""
    b = board({"name": "Stones and barbed wire", "rect": [8, 12, 14, 14], "difficult": True})
    through = check_move(b, (10, 10), (10, 14), R25, 9)
    assert through.ok and through.difficult_crossed == ["Stones and barbed wire"]
    assert through.allowance == 4 and through.cost == pytest.approx(4 + 5)
    too_far = check_move(b, (10, 10), (10, 14.2), R25, 9)
    assert not too_far.ok and too_far.rule == "§4.5"
    beside = check_move(b, (17, 10), (17, 19), R25, 9)
    assert beside.ok and beside.difficult_crossed == [] and beside.length == 9


def test_s4_5_into_out_of_and_through() -> None:
    b = board({"name": "Slope", "rect": [10, 10, 14, 14], "difficult": True})
    assert check_move(b, (12, 7), (12, 9.8), R25, 6).difficult_crossed == ["Slope"]  # into
    assert check_move(b, (12, 12), (12, 16), R25, 6).difficult_crossed == ["Slope"]  # out of
    assert check_move(b, (8, 12), (16, 12), R25, 12).difficult_crossed == ["Slope"]  # through
    # touching the edge is not entering it
    assert check_move(b, (12, 7), (12, 10 - R25), R25, 6).difficult_crossed == []


def test_s4_6_ten_models_pass_through_a_minefield() -> None:
    # "Ten models pass through a minefield. The profile of a Mine ... is used ten times, one for
    # each model going through the Dangerous Ground."
    b = board(
        {
            "name": "Minefield",
            "rect": [5, 12, 25, 15],
            "dangerous": {"kind": "weapon", "weapon": {"attacks": 1, "power": 4}},
        }
    )
    models = row(6, 10, 10, step=1.5)
    crossed = [check_move(b, p, (p[0], p[1] + 7), r, 8).dangerous_crossed for p, r in models]
    assert crossed == [["Minefield"]] * 10


def test_s4_6_difficult_and_dangerous_together() -> None:
    # "Terrain can be both Difficult and Dangerous"
    b = board({"name": "Lava", "rect": [5, 12, 25, 15], "difficult": True, "dangerous": {}})
    res = check_move(b, (10, 10), (10, 13), R25, 8)
    assert res.difficult_crossed == ["Lava"] and res.dangerous_crossed == ["Lava"]


def test_s4_7_revengewing_bike_cannot_move_into_impassable_ground() -> None:
    # "The Revengewing Bike ... can't move into the red areas, which are blocked by other Units
    # or Impassable Ground (there's a tall, giant rock blocking the path)"
    b = board({"name": "Giant rock", "rect": [18, 8, 22, 14], "impassable": True})
    bike = (10.0, 11.0)
    legionaries = [((14, 18), R25), ((15.2, 18), R25), ((16.4, 18), R25)]
    into_rock = check_move(b, bike, (19, 11), 1.0, 20, legionaries)
    assert (
        not into_rock.ok and into_rock.rule == "§4.7" and "Giant rock" in (into_rock.reason or "")
    )
    through_rock = check_move(b, bike, (30, 11), 1.0, 24, legionaries)
    assert not through_rock.ok
    through_unit = check_move(b, bike, (15.2, 24), 1.0, 20, legionaries)
    assert not through_unit.ok and "another unit" in (through_unit.reason or "")
    around = check_move(b, bike, [(16, 6.5), (24, 6.5), (30, 11)], 1.0, 24, legionaries)
    assert around.ok
    # up to the rock's face is fine: touching is not entering
    assert check_move(b, bike, (17, 11), 1.0, 20, legionaries).ok


def test_s4_3_moving_into_base_contact_is_allowed() -> None:
    enemy = [((20, 10), R25)]
    assert check_move(board(), (10, 10), (20 - 2 * R25, 10), R25, 12, enemy).ok
    assert not check_move(board(), (10, 10), (20 - 2 * R25 + 0.01, 10), R25, 12, enemy).ok


def test_s4_4_a_model_in_contact_may_move_away() -> None:
    enemy = [((20, 10), R25)]
    start = (20 - 2 * R25, 10.0)
    assert check_move(board(), start, (12, 10), R25, 12, enemy).ok


def test_s2_1_models_cannot_leave_the_battlefield() -> None:
    res = check_move(board(width=20, height=20), (10, 10), (10, 19.8), R25, 12)
    assert not res.ok and res.rule == "§2.1"


def test_s4_7_move_towards_stops_before_impassable_ground_and_board_edges() -> None:
    b = board({"name": "Rock", "rect": [10, 15, 20, 20], "impassable": True}, width=30)
    end = move_towards(b, (15, 5), (15, 30), R25, 20, [])
    assert end[1] == pytest.approx(15 - R25, abs=1e-3)
    end = move_towards(b, (25, 40), (25, 60), R25, 20, [])
    assert end[1] == pytest.approx(48 - R25, abs=1e-3)
    assert move_towards(b, (25, 40), (25, 40), R25, 20, []) == (25, 40)


def test_s4_5_move_towards_chooses_between_stopping_short_and_wading_in() -> None:
    b = board({"name": "Bog", "rect": [0, 12, 48, 30], "difficult": True})
    # 9" allowance, bog 5" away: stopping at its edge (5") beats wading in (4")
    start = (10.0, 12 - R25 - 5)
    end = move_towards(b, start, (10, 40), R25, 9, [])
    assert end[1] == pytest.approx(12 - R25, abs=1e-3)
    # bog 2" away: wading in for 4" beats stopping after 2"
    start = (10.0, 12 - R25 - 2)
    end = move_towards(b, start, (10, 40), R25, 9, [])
    assert end[1] == pytest.approx(start[1] + 4)
