"""Line of sight, partial line of sight and cover: Core Rules 001_d3f5e425c5e1196d.txt §5.3-5.6,
§5.9, §5.13, §5.15. Each worked example is laid out with explicit positions (inches)."""

from __future__ import annotations

import pytest

from tests.warsurge.battlefield.conftest import R25, board, row
from warbench.rulesets.warsurge.battlefield import (
    Blocker,
    attackers_in_sight,
    cover_bonus,
    cover_report,
    distance_matrix,
    line_of_sight,
    obscured_fraction,
    sight_matrix,
    visible_models,
)


def test_s5_3_models_of_the_same_unit_do_not_block_each_other() -> None:
    # §5.3 "Models from the same Unit do not block each other when Targeting other Units";
    # the faded blue line of Unit A passes through a member of its own unit.
    b = board()
    unit_a = [((10, 5), R25), ((10, 7), R25)]  # the rear model shoots past the front one
    enemy = [((10, 20), R25)]
    assert line_of_sight(b, unit_a[0], enemy[0], blockers=[])
    # the same model belonging to another unit does obscure (§5.4 "Any other Units ...")
    assert not line_of_sight(b, unit_a[0], enemy[0], blockers=[unit_a[1]])


def test_s5_3_range_is_measured_to_the_closest_enemy_model() -> None:
    # §5.3 / §5.4: "Each model measures to the closest model in the Gut-Hackers Unit"; model 1
    # is out of range although it can see them.
    dogs = [((5, 5), R25), ((7, 5), R25), ((30, 5), R25)]
    gut_hackers = [((10, 20), 0.6), ((12, 21), 0.6)]
    closest = distance_matrix(dogs, gut_hackers).min(axis=1)
    in_range = closest <= 18
    assert list(in_range) == [True, True, False]
    assert all(attackers_in_sight(board(), dogs, gut_hackers, []))


def test_s5_4_line_of_sight_from_any_part_of_the_base() -> None:
    # §5.4 "if your Unit can see any of the enemy model or base, you can Target that Unit";
    # photo: "Obscured by rocks, the Dwarf Engineer and Warriors of Wrath can still see each
    # other". The rock hides the centre line but not the edge of the bases.
    b = board({"name": "Rocks", "rect": [9.7, 10, 12, 12], "blocks_los": True})
    engineer = ((10, 5), R25)
    warriors = ((10, 18), R25)
    assert line_of_sight(b, engineer, warriors, [])
    # "Targeting goes both ways"
    assert line_of_sight(b, warriors, engineer, [])
    # and being mostly hidden behind the rock, the lone model gains the Cover Bonus (§5.6)
    assert obscured_fraction(b, engineer, warriors, []) >= 0.5
    assert cover_bonus(b, [engineer], [warriors], []) == 1


def test_s5_4_terrain_that_blocks_line_of_sight_hides_a_model_completely() -> None:
    b = board({"name": "Wall", "rect": [5, 10, 15, 11], "blocks_los": True})
    assert not line_of_sight(b, ((10, 5), R25), ((10, 18), R25), [])
    assert not line_of_sight(b, ((10, 18), R25), ((10, 5), R25), [])


def test_s5_4_a_model_inside_ruins_sees_out_and_is_seen() -> None:
    # ruling 2: LoS-blocking area terrain does not block lines of a model standing in it
    b = board({"name": "Ruin", "rect": [5, 10, 15, 16], "blocks_los": True})
    inside = ((10, 15), R25)
    outside = ((10, 25), R25)
    behind = ((10, 5), R25)
    assert line_of_sight(b, inside, outside, [])
    assert line_of_sight(b, outside, inside, [])
    assert line_of_sight(b, inside, behind, [])
    assert not line_of_sight(b, outside, behind, [])  # through the whole ruin: blocked


def test_s5_4_other_units_obscure_line_of_sight() -> None:
    b = board()
    screen = [Blocker((x, 12), 1.0, "screen") for x in (8, 10, 12)]
    assert not line_of_sight(b, ((10, 5), R25), ((10, 20), R25), screen)
    # a gap between the screen's bases lets a line through
    gappy = [Blocker((x, 12), 0.5, "screen") for x in (8, 12)]
    assert line_of_sight(b, ((10, 5), R25), ((10, 20), R25), gappy)


#: §5.5 diagram: Possessed Cultists A, B, C; Troopers 1-8; the Ursus APC (a unit) in front of
#: Troopers 5-8.
CULTIST_A = ((12, 4), R25)
CULTIST_B = ((7, 8), R25)
CULTIST_C = ((14, 4), R25)
TROOPERS = row(10, 20, 8)
URSUS_APC = Blocker((16, 16.5), 2.5, "Ursus APC")


def test_s5_5_partial_line_of_sight_possessed_cultists_and_troopers() -> None:
    # "Cultist A and C can only see Troopers 1 to 4, but Cultist B can also see Troopers 5 and
    # 6 ... Troopers 7 and 8 cannot be attacked by the Possessed Cultist Unit"
    b = board()
    cultists = [CULTIST_A, CULTIST_B, CULTIST_C]
    m = sight_matrix(b, cultists, TROOPERS, [URSUS_APC])
    assert list(m[0]) == [True] * 4 + [False] * 4
    assert list(m[1]) == [True] * 6 + [False] * 2
    assert list(m[2]) == [True] * 4 + [False] * 4
    # "Troopers 1 to 6 can be slain by the Unit of Possessed Cultists"
    assert visible_models(b, cultists, TROOPERS, [URSUS_APC]) == [True] * 6 + [False] * 2


def test_s5_5_note_without_troopers_1_to_4_only_cultist_b_can_attack() -> None:
    # "If Troopers 1 to 4 were not there, then only Cultist B could attack the Trooper Unit"
    b = board()
    cultists = [CULTIST_A, CULTIST_B, CULTIST_C]
    assert attackers_in_sight(b, cultists, TROOPERS[4:], [URSUS_APC]) == [False, True, False]
    assert visible_models(b, cultists, TROOPERS[4:], [URSUS_APC]) == [True, True, False, False]


def _kapers(behind: int) -> tuple[list[tuple[tuple[float, float], float]], object]:
    # §5.6: a Medusa Targets four Kapers; ``behind`` of them stand behind the bushes, which
    # hide half of their bodies (low terrain with a Cover Bonus: it obscures, it does not block).
    rect = [9, 17, 9 + 1.5 * behind, 18] if behind else [40, 40, 42, 41]
    b = board({"name": "Bushes", "rect": rect, "cover": 1})
    kapers = [((9.75 + 1.5 * i, 19), R25) for i in range(4)]
    return kapers, b


@pytest.mark.parametrize(("behind", "bonus"), [(3, 1), (2, 1), (1, 0), (0, 0)])
def test_s5_6_medusa_and_kapers_behind_bushes(behind: int, bonus: int) -> None:
    # "Three of the four Kapers (75%) are behind the bushes ... so they gain a +1 Cover Bonus";
    # 50% or more of the models is enough (2 of 4), 1 of 4 is not.
    kapers, b = _kapers(behind)
    medusa = ((12, 4), 1.0)
    report = cover_report(b, [medusa], kapers, [])  # type: ignore[arg-type]
    assert report.bonus == bonus
    assert report.obscured_models == behind
    assert report.models == 4
    if bonus:
        assert "Bushes" in report.reason and report.sources == ("Bushes",)
    assert int(report) == bonus


def test_s5_6_agreed_cover_bonus_of_heavy_fortifications() -> None:
    # "heavy fortifications might grant +2 Defence"
    b = board({"name": "Fortification", "rect": [5, 17, 20, 18], "cover": 2})
    targets = row(8, 19, 4)
    assert cover_bonus(b, [((12, 4), R25)], targets, []) == 2


def test_s5_6_cover_area_gives_cover_without_being_hidden() -> None:
    # "Cover Area: ... terrain such as forests or ruins could grant Units cover just by
    # occupying that space, even if not 50% blocked (but still 50% of models in that area)"
    b = board({"name": "Jungle", "rect": [20, 20, 30, 30], "cover_area": True})
    banebrood = [((21, 25), R25), ((22.2, 25), R25), ((18, 25), R25)]
    shooter = [((10, 25), R25)]  # from the side: no ray passes through the jungle first
    assert cover_bonus(b, shooter, banebrood, []) == 1  # 2 of 3 models in the area
    assert cover_bonus(b, shooter, [banebrood[2], ((17, 25), R25), banebrood[0]], []) == 0


def test_s5_6_other_units_obscure_and_give_cover() -> None:
    b = board()
    targets = row(10, 20, 2)
    screen = [Blocker((10.6, 15), 1.5, "screen")]
    report = cover_report(b, [((10.6, 5), R25)], targets, screen)
    assert report.bonus == 1 and report.sources == ("other units",)


def test_s5_9_melee_ignores_cover() -> None:
    kapers, b = _kapers(3)
    report = cover_report(b, [((12, 4), 1.0)], kapers, [], melee=True)  # type: ignore[arg-type]
    assert report.bonus == 0 and report.rule == "§5.9"


def test_s5_13_bisotaur_shaman_and_pirates() -> None:
    # "Pirates 1 to 4 are in obvious sight to the Shaman, while Pirates 5 and 6 are still
    # visible, but obscured ... Pirate 7 cannot see the Shaman ... the rest of the unnumbered
    # pirates ... are blocked by the building, so they cannot be casualties"
    b = board({"name": "Building", "rect": [20, 0, 30, 20], "blocks_los": True})
    shaman = ((10, 15), 0.75)
    xs = [17.6, 18.8, 20.0, 21.2, 23.6, 24.8, 26.0, 27.2, 28.4]
    pirates = [((x, 21.5), R25) for x in xs]
    assert visible_models(b, [shaman], pirates, []) == [True] * 6 + [False] * 3
    report = cover_report(b, [shaman], pirates, [])
    assert report.obscured[:4] == (0.0, 0.0, 0.0, 0.0)
    assert report.obscured[4] > 0 and report.obscured[5] > 0
    # "Pirate 6 can Target the Shaman, so that in itself is reason for the Shaman to be able to
    # Target that model": line of sight is symmetric
    assert line_of_sight(b, pirates[5], shaman, []) and not line_of_sight(b, pirates[6], shaman, [])


def test_s5_15_casualties_still_block_until_removed() -> None:
    # "casualties ... can also block line of sight for all Units as normal"; the engine keeps
    # them in the blockers until the end of the Attack Phase.
    b = board()
    casualty = Blocker((10, 12), 1.5, "Adepts")
    assert not line_of_sight(b, ((10, 5), R25), ((10, 20), R25), [casualty])
    assert line_of_sight(b, ((10, 5), R25), ((10, 20), R25), [])


def test_s5_4_no_models_no_sight() -> None:
    b = board()
    assert visible_models(b, [], [((1, 1), R25)], []) == [False]
    assert sight_matrix(b, [((1, 1), R25)], [], []).shape == (1, 0)
    assert cover_report(b, [((1, 1), R25)], [], []).bonus == 0
