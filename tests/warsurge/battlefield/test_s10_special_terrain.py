"""Special terrain, heights, true bases and Objectives (issue 12): Core Rules
001_d3f5e425c5e1196d.txt §1.3 (L248-255), §4.2 III (L1918-1919), §5.3 (L2357-2366), §10.2-10.5
(L4383-4530); Perks 000_94ecc6a4c74d351b.txt L95-96 (Objective)."""

from __future__ import annotations

import math

import pytest

from tests.warsurge.battlefield.conftest import R25
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.battlefield import (
    Base,
    Board,
    CustomCover,
    Footprint,
    Terrain,
    board_from_data,
    coherency_groups,
    embark_terrain,
    footprint_coherency_groups,
    footprint_distance,
    footprints_overlap,
    line_clears,
    objective_control,
    sight_from_above,
    terrain_control,
)

MM = 1 / 25.4


def city(**extra: object) -> Board:
    data: dict[str, object] = {"name": "t", "width": 48, "height": 48, **extra}
    return board_from_data(data)


# ---------------------------------------------------------------- §1.3 bases and hulls


def test_s1_3_oval_and_rect_bases_need_both_dimensions() -> None:
    with pytest.raises(ValueError, match="length_mm and width_mm"):
        Base(shape="oval", length_mm=60)
    with pytest.raises(ValueError, match="round base takes diameter_mm only"):
        Base(length_mm=60, width_mm=35)


def test_s1_3_oval_base_is_measured_along_its_axes() -> None:
    oval = Base(shape="oval", length_mm=60, width_mm=35)  # a bike's oval base
    a = Footprint((10, 10), oval)  # length along +x
    # a 25 mm round base 2" beyond the end of the oval and 2" beyond its side
    end = Footprint((10 + 30 * MM + 2 + R25, 10))
    side = Footprint((10, 10 + 17.5 * MM + 2 + R25))
    assert footprint_distance(a, end) == pytest.approx(2, abs=1e-3)
    assert footprint_distance(a, side) == pytest.approx(2, abs=2e-3)
    # turned 90 degrees, the long axis points at the side model
    turned = Footprint((10, 10), oval, facing=90)
    assert footprint_distance(turned, side) == pytest.approx(2 - 12.5 * MM, abs=2e-3)
    # the covering disc never measures longer than the true base
    assert oval.radius == pytest.approx(30 * MM)


def test_s1_3_ursus_apc_without_a_base_is_measured_from_its_hull_l253() -> None:
    # "Some models may not have a base ... refer to the model's actual body or hull (exterior
    # of a vehicle)" (L253-255, the Ursus APC). A 120 x 80 mm hull:
    hull = Base.hull_of(120, 80)
    assert hull.shape == "rect" and hull.hull
    apc = Footprint((20, 20), hull)
    rounded = Footprint((20, 20), Base.for_hull(120, 80))  # ruling 10's round hull
    beside = Footprint((20, 20 + 40 * MM + 1 + R25))  # 1" off the long side
    assert footprint_distance(apc, beside) == pytest.approx(1)
    assert footprint_distance(rounded, beside) == pytest.approx(1 - 20 * MM)
    d = (1 + R25) / math.sqrt(2)
    off_corner = Footprint((20 + 60 * MM + d, 20 + 40 * MM + d))  # 1" off a corner
    assert footprint_distance(apc, off_corner) == pytest.approx(1)
    assert footprint_distance(rounded, off_corner) > 1
    trooper = Footprint((20 + 60 * MM + R25, 20))  # in base contact with the hull's end
    assert footprint_distance(apc, trooper) == pytest.approx(0, abs=1e-9)
    assert not footprints_overlap(apc, trooper)
    assert footprints_overlap(apc, Footprint((20 + 60 * MM, 20)))


def test_s1_3_rect_bases_overlap_by_area_not_touching() -> None:
    box = Base(shape="rect", length_mm=50.8, width_mm=25.4)  # 2" x 1"
    a = Footprint((5, 5), box)
    assert not footprints_overlap(a, Footprint((7, 5), box))  # end to end: touching
    assert footprints_overlap(a, Footprint((6.9, 5), box))
    assert footprint_distance(a, Footprint((8, 5), box)) == pytest.approx(1)
    # a model on a floor above does not overlap one below (§10.5 tower floors)
    assert not footprints_overlap(a, Footprint((5, 5), box, z=4))


# ---------------------------------------------------------------- §4.2 III vertical


def test_s4_2_iii_vertical_coherency_is_6_inches_l1918() -> None:
    # "Vertical Coherency is 6". When measuring Coherency vertically, models must be within 6"
    # of another model in the same Unit."
    pos = [(10.0, 10.0), (10.5, 10.0), (11.0, 10.0)]
    radii = [R25] * 3
    assert coherency_groups(pos, radii, elevations=[0, 6, 0]) == [[0, 1, 2]]
    assert coherency_groups(pos, radii, elevations=[0, 6.5, 0]) == [[0, 2], [1]]
    assert coherency_groups(pos, radii) == [[0, 1, 2]]  # flat board: as before
    models = [Footprint(p, z=z) for p, z in zip(pos, [0, 5, 11], strict=True)]
    assert footprint_coherency_groups(models) == [[0, 1, 2]]  # 5" then 6" up: a chain
    models[2] = Footprint(pos[2], z=11.5)
    assert footprint_coherency_groups(models) == [[0, 1], [2]]


def test_s4_2_i_footprint_coherency_across_the_board_is_still_2_inches() -> None:
    bike = Base(shape="oval", length_mm=60, width_mm=35)
    a = Footprint((10, 10), bike)
    b = Footprint((10 + 60 * MM + 2, 10), bike)  # 2" end to end
    c = Footprint((10 + 60 * MM + 2.01, 10), bike)
    assert footprint_coherency_groups([a, b]) == [[0, 1]]
    assert footprint_coherency_groups([a, c]) == [[0], [1]]


# ---------------------------------------------------------------- L2360 sight from above


def test_s5_3_unit_in_a_tower_sees_the_target_from_above_over_unit_a_l2360() -> None:
    # "Unit B is inside a tower ... it could also measure though Unit A, as Unit B can see the
    # Target from above" (L2357-2366).
    board = city(terrain=[{"name": "Tower", "rect": [2, 10, 6, 14], "height": 10, "level": 6}])
    unit_b = Footprint((4, 12), z=6)  # on the tower's upper floor
    unit_a = [Footprint((12, 12 + dy)) for dy in (-0.6, 0, 0.6)]  # a line of Unit A
    target = Footprint((20, 12))
    assert sight_from_above(board, unit_b, target, unit_a, ignore=["Tower"])
    # on the ground behind Unit A the same line is blocked by Unit A's bases
    ground = Footprint((4, 12))
    assert not sight_from_above(board, ground, target, unit_a)


def test_l2360_a_tall_building_blocks_a_low_line_but_not_one_over_its_top() -> None:
    board = city(terrain=[{"name": "Block", "rect": [10, 0, 14, 48], "height": 4,
                           "blocks_los": True}])  # fmt: skip
    low = Footprint((5, 24))
    target = Footprint((20, 24))
    assert not sight_from_above(board, low, target)
    assert sight_from_above(board, Footprint((5, 24), z=8), target)
    # line_clears by hand: the line from (5, z=9.25) to (20, z=1.25) is over the block at
    # 9.25 - 8 * 9/15 = 4.45" when it leaves it at x = 14, above its 4" top
    import shapely

    block = shapely.Polygon(board.terrain[0].polygon)
    assert line_clears((5, 24), 9.25, (20, 24), 1.25, [(block, 4.0)])
    assert not line_clears((5, 24), 6.0, (20, 24), 1.25, [(block, 4.0)])


def test_terrain_heights_are_checked() -> None:
    with pytest.raises(ValueError, match="below the piece's height"):
        Terrain(name="T", rect=[0, 0, 1, 1], height=4, level=4)  # type: ignore[call-arg]


# ---------------------------------------------------------------- §10.2 profiles, control


def test_s10_2_terrain_profile_is_checked_as_a_unit() -> None:
    from warbench.kernel.errors import ProfileError

    radar = {
        "name": "Radar",
        "rect": [2, 2, 6, 6],
        "profile": {
            "unit": {"name": "Radar Station", "move": 0, "dash": 0, "defence": 8, "hp": 10},
            "weapons": [{"name": "Uplink", "range": 48, "attacks": 1, "power": 6}],
            "models": [{"count": 1, "weapons": ["Uplink"]}],
        },
    }
    assert city(terrain=[radar]).terrain[0].profile is not None
    radar["profile"]["unit"]["defence"] = "tough"  # type: ignore[index]
    with pytest.raises(ProfileError) as e:
        city(terrain=[radar])
    assert e.value.field.startswith("terrain[0].profile")


def test_s10_2_control_within_coherency_or_embarked_and_contested_l4404() -> None:
    # "Terrain with profiles will count as under control by any player that has a Unit either
    # within Coherency or embarked inside it. If there are multiple Units vying for control of
    # the terrain, then it will be treated as contested" (L4404-4407).
    board = city(terrain=[{"name": "Radar", "rect": [10, 10, 14, 14], "transport": 200}])
    near = [((15 + R25 + 0.9, 12), R25)]  # 1.9" from the edge... measured base to base
    far = [((14 + 2.1 + R25, 12), R25)]
    assert terrain_control(board, "Radar", [(0, near)]).controller == 0
    assert terrain_control(board, "Radar", [(0, far)]).players == frozenset()
    assert terrain_control(board, "Radar", [(1, far)], embarked=[1]).controller == 1
    both = terrain_control(board, "Radar", [(0, near)], embarked=[1])
    assert both.contested and both.controller is None


def test_s10_2_multiple_players_embarking_terrain_example_l4443() -> None:
    # "Player A embarks a bunker with a Transport Capacity of 500 and takes up 100pts of
    # space. On Turn 2, Player B also embarks the Bunker with 150pts worth of Units and engages
    # Player A's Unit in a Melee." (L4443-4447)
    bunker = Terrain(name="Bunker", rect=[0, 0, 4, 4], transport=500)  # type: ignore[call-arg]
    a = embark_terrain(bunker, [], 0, [50, 50])
    assert a.inside == (0, 1) and a.space_left == 400 and a.melee_with == frozenset()
    b = embark_terrain(bunker, [(0, 100)], 1, [75, 75])
    assert b.inside == (0, 1) and b.space_left == 250 and b.melee_with == frozenset({0})


def test_s10_2_insufficient_capacity_leaves_the_rest_outside_l4455() -> None:
    # "If the terrain has insufficient space to embark an entire Unit, at least one model from
    # the remainder of the Unit (that could not embark) must maintain Coherency with the
    # terrain." (L4455-4457)
    hut = Terrain(name="Hut", rect=[0, 0, 4, 4], transport=100)  # type: ignore[call-arg]
    e = embark_terrain(hut, [], 0, [30, 30, 30, 30, 30])
    assert e.inside == (0, 1, 2) and e.outside == (3, 4) and e.space_left == 10
    with pytest.raises(RulesError, match="no Transport Stat"):
        embark_terrain(Terrain(name="Rock", rect=[0, 0, 1, 1]), [], 0, [10])  # type: ignore[call-arg]


# ---------------------------------------------------------------- §10.3, §10.4


def test_s10_3_destroyed_terrain_keeps_its_footprint_without_effects_l4470() -> None:
    board = city(
        terrain=[
            {"name": "Bunker", "rect": [10, 10, 16, 16], "blocks_los": True, "impassable": True,
             "transport": 300, "hp": 20, "connected_to": ["Trench"]},
            {"name": "Trench", "rect": [16, 10, 20, 12], "difficult": True, "transport": 100},
        ]
    )  # fmt: skip
    assert board.terrain_named("Bunker").destructible
    after = board.with_terrain_destroyed("Bunker")
    rubble = after.terrain_named("Bunker")
    assert rubble.polygon == board.terrain_named("Bunker").polygon
    assert not (rubble.blocks_los or rubble.impassable or rubble.embarkable or rubble.destructible)
    assert after.routes_from("Trench") == []
    assert board.terrain_named("Bunker").impassable  # the old board is unchanged
    # the occupants are placed as from a destroyed Transport (§6.6): in the footprint first
    from warbench.rulesets.warsurge.battlefield import place_near

    spots = place_near(after, (13, 13), R25, 5)
    assert len(spots) == 5 and all(10 <= x <= 16 and 10 <= y <= 16 for x, y in spots)


def test_s10_4_custom_cover_is_data_with_a_meaning_l4475() -> None:
    # "improving Armour or AEGIS Stats, adding an additional Armour Save as a form of 'Cover'
    # Save ... a negative effect too, such as hiding behind pipes with poisonous fumes that may
    # lower Defence" (L4477-4483)
    pipes = CustomCover(defence=-1, text="poisonous fumes")
    sandbags = CustomCover(armour=1, save="5+")
    assert pipes.defence == -1 and sandbags.save == "5+"
    with pytest.raises(ValueError, match="changes nothing"):
        CustomCover()
    with pytest.raises(ValueError):
        CustomCover(save="7+")
    fumes = {"defence": -1, "text": "poisonous fumes"}
    board = city(terrain=[{"name": "Pipes", "rect": [1, 1, 3, 3], "custom_cover": fumes}])
    assert board.terrain[0].custom_cover == pipes


# ---------------------------------------------------------------- §10.5 connected terrain


def test_s10_5_example_1_two_floors_of_a_tower_l4501() -> None:
    # "Two floors on a tower are connected by an internal stairway. A Unit embarks with a Move
    # onto the ground floor at A, then ... can embark onto the next floor above." (L4501-4513)
    board = city(
        terrain=[
            {"name": "Tower A", "rect": [10, 10, 16, 16], "height": 4, "transport_unlimited": True,
             "connected_to": ["Tower B"]},
            {"name": "Tower B", "rect": [10, 10, 16, 16], "height": 8, "level": 4,
             "transport_unlimited": True, "embark": False},
        ]
    )  # fmt: skip
    assert board.can_embark_at("Tower A") and not board.can_embark_at("Tower B")
    assert board.routes_from("Tower A") == ["Tower B"]
    assert board.routes_from("Tower B") == ["Tower A"]
    assert board.disembark_from("Tower A") == ["Tower A", "Tower B"]
    assert board.terrain_named("Tower A").capacity == math.inf  # "treated as unlimited"


def test_s10_5_example_2_bunker_with_a_one_way_escape_hatch_l4524() -> None:
    # "A Unit of Legionaries can only embark the bunker through the main entrance, but may
    # choose to disembark through the secret hatch or the bunker." (L4524-4530)
    board = city(
        terrain=[
            {"name": "Bunker", "rect": [10, 10, 16, 16], "transport": 300, "exits_to": ["Hatch"],
             "gates": [{"name": "Main entrance", "at": [13, 10]}]},
            {"name": "Hatch", "rect": [20, 20, 21, 21], "transport": 300, "embark": False},
        ]
    )  # fmt: skip
    assert board.can_embark_at("Bunker") and not board.can_embark_at("Hatch")
    assert [g.name for g in board.gates_of("Bunker", "embark") or []] == ["Main entrance"]
    assert board.disembark_from("Bunker") == ["Bunker", "Hatch"]
    assert board.routes_from("Hatch") == []  # one way: nothing leads back in


def test_s10_5_example_3_two_teleport_gates_l4551() -> None:
    # "Two teleport gates are connected with a shared Transport Stat. At position A, a Unit of
    # Troopers and an Enforcer Battlewalker embark a teleport gate with some of their Move then
    # immediately disembark through the other teleport gate (B)" (L4551-4556)
    board = city(
        terrain=[
            {"name": "Gate A", "circle": {"center": [10, 10], "radius": 2}, "transport": 400,
             "connected_to": ["Gate B"]},
            {"name": "Gate B", "circle": {"center": [40, 30], "radius": 2}, "transport": 400},
        ]
    )  # fmt: skip
    assert board.can_embark_at("Gate A") and board.can_embark_at("Gate B")
    assert board.disembark_from("Gate A") == ["Gate A", "Gate B"]
    assert board.disembark_from("Gate B") == ["Gate B", "Gate A"]  # connected both ways
    # destroying one gate cuts the connection (§10.3 with §10.5; ruling 21)
    cut = board.with_terrain_destroyed("Gate B")
    assert cut.disembark_from("Gate A") == ["Gate A"]


def test_s10_5_gates_and_connections_are_checked() -> None:
    from warbench.kernel.errors import ProfileError

    with pytest.raises(ProfileError, match="connected_to 'Nowhere' is not another piece"):
        city(terrain=[{"name": "A", "rect": [0, 0, 1, 1], "connected_to": ["Nowhere"]}])
    with pytest.raises(ProfileError, match="embark, disembark or both"):
        city(terrain=[{"name": "A", "rect": [0, 0, 1, 1],
                       "gates": [{"name": "G", "at": [0, 0], "embark": False,
                                  "disembark": False}]}])  # fmt: skip


def test_s10_5_exit_gate_only() -> None:
    board = city(
        terrain=[{"name": "Vault", "rect": [5, 5, 8, 8], "transport": 100,
                  "gates": [{"name": "Hatch", "at": [5, 6], "embark": False}]}]
    )  # fmt: skip
    assert not board.can_embark_at("Vault")
    assert board.disembark_from("Vault") == ["Vault"]


# ---------------------------------------------------------------- Objectives (Perks L95)


def test_objective_is_a_marker_or_terrain_and_is_controlled_within_2_inches() -> None:
    # "Objective: This is a marker, terrain piece or model on a Battlefield" (Perks L95-96)
    board = city(
        terrain=[{"name": "Relay", "rect": [30, 30, 34, 34], "transport": 100}],
        objectives=[{"name": "Crate", "at": [10, 10]}, {"name": "Relay", "terrain": "Relay"}],
    )
    crate = board.objective("Crate")
    edge = 10 + crate.radius
    mine = [((edge + 2 + R25 - 0.01, 10), R25)]
    theirs = [((10, edge + 2 + R25 + 0.01), R25)]
    assert objective_control(board, "Crate", [(0, mine), (1, theirs)]).controller == 0
    theirs_close = [((10, edge + 1 + R25), R25)]
    assert objective_control(board, "Crate", [(0, mine), (1, theirs_close)]).contested
    assert objective_control(board, "Relay", [], embarked=[1]).controller == 1
    from warbench.kernel.errors import ProfileError

    with pytest.raises(ProfileError, match=r"marker .* or a terrain piece .*exactly one"):
        city(objectives=[{"name": "X", "at": [1, 1], "terrain": "Relay"}])
    with pytest.raises(ProfileError, match="exactly one"):
        city(objectives=[{"name": "X"}])
    with pytest.raises(ProfileError, match="terrain 'Nope' is not on this board"):
        city(objectives=[{"name": "X", "terrain": "Nope"}])
