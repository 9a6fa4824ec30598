"""The six glossary entries that were in play only in part, now whole (issue 17): Luck
(L1977-1980), Plan Ahead (L2062-2065), Haste (L1820-1823), Trip (L2248-2251), Upheaval
(L2254-2260) and Shadow Hop (L2132-2138) of 003_fc239e71486306e1.txt, each choice a protocol
decision with a default, played through the protocol with scripted D10s."""

from __future__ import annotations

import os
from typing import Any

import pytest

from tests.rulesets.collision.game.helpers import RS, card, duel_setup, placed, step
from warbench.play import IllegalAction, SetupArgs
from warbench.rulesets.collision.dice import ScriptedD10
from warbench.rulesets.collision.game.abilities import partial
from warbench.rulesets.collision.game.core import Game, board_of
from warbench.rulesets.collision.game.protocol import make_view
from warbench.rulesets.collision.game.setup import zones
from warbench.rulesets.collision.game.state import (
    Activate,
    Attack,
    CollisionState,
    Deploy,
    EndActivation,
    HasteMove,
    Hold,
    Move,
    React,
    SpendLuck,
    UseAbility,
    UsePlan,
)


def duel(
    a: dict[str, Any] | None = None,
    b: dict[str, Any] | None = None,
    at: tuple[tuple[int, int], tuple[int, int]] = ((2, 2), (3, 2)),
) -> CollisionState:
    setup = duel_setup(a or card("A"), b or card("B"))
    return placed(setup, {0: (at[0], "E"), 1: (at[1], "W")})


def trio(
    a: dict[str, Any], ally: dict[str, Any], b: dict[str, Any], where: dict[int, Any]
) -> CollisionState:
    """Player 0: ``a`` (uid 0) and ``ally`` (uid 1); player 1: ``b`` (uid 2)."""
    setup = duel_setup(a, b)
    rosters = list(setup.rosters)
    rosters[0] = {**rosters[0], "characters": rosters[0]["characters"] + [{"card": ally}]}
    return placed(SetupArgs(tuple(rosters), setup.board, setup.options), where)


def sword() -> Attack:
    return Attack(1, "Sword")


def pending_kind(s: CollisionState) -> str:
    s.__dict__.pop("_memo", None)
    return RS.pending(s)[0].kind


def test_no_entry_is_in_play_only_in_part() -> None:
    assert partial() == {}


# --------------------------------------------------------------------------------------------
# Luck (L1977-1980): "re-roll any D10 this character rolls, or force a D10 rolled against
# this character to be re-rolled"
# --------------------------------------------------------------------------------------------


def test_luck_L1977_1978_the_roller_rerolls_its_own_to_hit_die() -> None:
    s = duel()
    s.units[0].luck = 1
    s, ev = step(s, sword(), [1])  # 1+3 < Def 5: a miss, A may spend its token
    assert s.stage == "luck" and s.player == 0 and pending_kind(s) == "luck"
    assert RS.pending(s)[0].default == SpendLuck(True)  # a 1 is worth a token
    assert s.units[1].injuries == 0 and s.units[0].endurance == 5  # the state before it
    s, ev = step(s, SpendLuck(True), [6, 4])  # 6+3 hits; injury 4+3-3 = 4 -> 2
    assert s.units[0].luck == 0 and s.units[1].injuries == 2 and s.stage == "act"
    assert [e.kind for e in ev].count("attack") == 0  # the events before the stop: once
    assert any(e.kind == "luck" and e.data["face"] == 6 for e in ev)


def test_luck_L1978_1979_a_die_against_the_character_is_forced_again() -> None:
    s = duel()
    s.units[1].luck = 2
    s, _ = step(s, sword(), [9])
    assert s.stage == "luck" and s.player == 1
    assert RS.pending(s)[0].default == SpendLuck(True)  # a 9 against it
    s, _ = step(s, SpendLuck(True), [1])  # re-rolled to a 1: a miss; each once a die
    assert s.units[1].luck == 1 and s.units[1].injuries == 0 and s.stage == "act"


def test_luck_kept_when_declined_and_any_d10_such_as_the_injury_roll() -> None:
    s = duel()
    s.units[1].luck = 1
    s, _ = step(s, sword(), [5])  # a hit: B keeps its token
    s, _ = step(s, SpendLuck(False), [6])  # injury 6+3-3 = 6: asked again, now the injury
    assert s.stage == "luck" and s.units[1].luck == 1
    s, _ = step(s, SpendLuck(True), [1])  # 1+3-3 = 1 -> Injury 1
    assert s.units[1].injuries == 1 and s.units[1].luck == 0


def test_luck_on_a_die_outside_attacks_the_recovery_injury_roll_L906_907() -> None:
    s = duel(at=((0, 0), (7, 5)))
    s.units[0].injuries, s.units[0].luck = 1, 1
    s, _ = step(s, Hold("N"), [2])  # 2: no injury recovered; A may re-roll its own die
    assert s.stage == "luck" and s.player == 0
    s, _ = step(s, SpendLuck(True), [5])
    assert s.units[0].injuries == 0 and s.units[0].luck == 0


def test_luck_decisions_replay_identically_through_the_protocol() -> None:
    s = duel()
    s.units[0].luck = s.units[1].luck = 1
    s.__dict__.pop("_memo", None)
    a, _ = RS.apply(s, sword(), 0)
    b, _ = RS.apply(s, sword(), 0)
    assert RS.digest(a) == RS.digest(b)
    while a.stage in ("luck", "plan"):
        d = RS.pending(a)[0]
        a, _ = RS.apply(a, d.default, d.player)
        b, _ = RS.apply(b, d.default, d.player)
        assert RS.digest(a) == RS.digest(b)
    assert a.stage == "act" and a.suspended is None


# --------------------------------------------------------------------------------------------
# Plan Ahead (L2062-2065): "Your characters may use this value once instead of rolling a D10
# during this turn. Using Plan Ahead again replaces the D10 already set aside."
# --------------------------------------------------------------------------------------------


def test_plan_ahead_L2063_2064_an_ally_uses_the_die_on_any_d10() -> None:
    s = trio(
        card("A", abilities=["Plan Ahead"]),
        card("C"),
        card("B"),
        {0: ((0, 0), "E"), 1: ((2, 2), "E"), 2: ((3, 2), "W")},
    )
    s, _ = step(s, UseAbility("Plan Ahead"), [8])
    assert s.planned == [8, None]
    s, _ = step(s, EndActivation(), [])
    s, _ = step(s, Activate(1), [])
    s, _ = step(s, Attack(2, "Sword"), [])
    assert s.stage == "plan" and RS.pending(s)[0].default == UsePlan(True)  # 8 beats a roll
    s, _ = step(s, UsePlan(True), [1])  # the 8 is the to-hit die; injury 1+3-3 = 1
    assert s.units[2].injuries == 1 and s.planned == [None, None]


def test_plan_ahead_declined_keeps_the_die_and_a_second_use_replaces_it() -> None:
    s = duel(card("A", abilities=["Plan Ahead"]))
    s, _ = step(s, UseAbility("Plan Ahead"), [3])
    s, _ = step(s, sword(), [])
    assert s.stage == "plan" and RS.pending(s)[0].default == UsePlan(False)  # a 3: roll
    s, _ = step(s, UsePlan(False), [1])  # rolled: a miss
    assert s.planned == [3, None] and s.units[1].injuries == 0 and s.stage == "act"
    with pytest.raises(IllegalAction, match="pending"):
        step(s, UsePlan(True), [])  # no plan decision is pending now


def test_plan_ahead_replaced_L2064_2065() -> None:
    s = duel(card("A", abilities=["Plan Ahead"]))
    s, _ = step(s, UseAbility("Plan Ahead"), [3])
    s.units[0].used = []  # used again (the old die is not offered for the new roll)
    s, _ = step(s, UseAbility("Plan Ahead"), [7])
    assert s.planned == [7, None]


# --------------------------------------------------------------------------------------------
# Haste (L1820-1823)
# --------------------------------------------------------------------------------------------


def test_haste_L1821_1823_the_user_moves_again_before_or_after_normal_movement() -> None:
    s = duel(card("A", abilities=["Haste"]), at=((0, 0), (7, 5)))
    s, _ = step(s, UseAbility("Haste"), [])
    s, _ = step(s, Move("haste", (0, 3), "N"), [])
    s, _ = step(s, Move("maneuver", (3, 3), "E"), [])  # "in addition to normal movement"
    assert s.units[0].pos == (3, 3)
    with pytest.raises(IllegalAction, match="no Haste move"):
        step(s, Move("haste", (3, 4), "E"), [])


def test_haste_L1821_1822_each_ally_within_command_moves_at_once() -> None:
    s = trio(
        card("A", abilities=["Haste"]),
        card("C"),
        card("B"),
        {0: ((0, 0), "E"), 1: ((1, 1), "E"), 2: ((7, 5), "W")},
    )
    s, _ = step(s, UseAbility("Haste"), [])
    assert s.stage == "haste" and s.player == 0 and s.haste == [1]
    d = RS.pending(s)[0]
    assert d.kind == "haste" and isinstance(d.default, HasteMove) and d.default.to is not None
    with pytest.raises(IllegalAction, match="no Haste move"):
        step(s, HasteMove(2, (6, 5)), [])
    s, _ = step(s, HasteMove(1, (1, 4), "N"), [])
    assert s.units[1].pos == (1, 4) and s.stage == "act" and s.active == 0
    assert s.units[1].moved == "" and not s.units[1].activated  # its own moves are still to come


def test_haste_an_ally_out_of_command_is_not_asked_and_an_ally_may_stay() -> None:
    s = trio(
        card("A", abilities=["Haste"], stats={"comm": 1}),
        card("C"),
        card("B"),
        {0: ((0, 0), "E"), 1: ((3, 3), "E"), 2: ((7, 5), "W")},
    )
    s, _ = step(s, UseAbility("Haste"), [])
    assert s.stage == "act" and s.haste == []
    s = trio(
        card("A", abilities=["Haste"]),
        card("C"),
        card("B"),
        {0: ((0, 0), "E"), 1: ((1, 1), "E"), 2: ((7, 5), "W")},
    )
    s.units[1].statuses = {"flee": 1}  # can't voluntarily move (L1781)
    s, _ = step(s, UseAbility("Haste"), [])
    with pytest.raises(IllegalAction, match="flees"):
        step(s, HasteMove(1, (1, 3), "N"), [])
    s, _ = step(s, HasteMove(1, None), [])
    assert s.units[1].pos == (1, 1) and s.stage == "act"


# --------------------------------------------------------------------------------------------
# Trip (L2248-2251): "an enemy within 2 spaces who is using an action other than movement and
# normal weapon attacks"
# --------------------------------------------------------------------------------------------


def test_trip_L2248_2251_cancels_a_special_attack() -> None:
    s = duel(card("A", abilities=["Power Attack"]), card("B", abilities=["Trip"], stats={"att": 5}))
    s, _ = step(s, Attack(1, "Sword", "Power Attack"), [])
    assert s.stage == "react" and s.player == 1
    s.__dict__.pop("_memo", None)
    legal = list(RS.legal_actions(s, 1))
    assert React(1, "Trip", target=0) in legal
    s, _ = step(s, React(1, "Trip", target=0), [1])  # 1 + Att 5 against Def 5: a hit
    assert s.units[1].injuries == 0 and s.units[0].mana == 2  # cancelled, its cost paid
    assert s.stage == "act"


def test_trip_not_against_a_normal_weapon_attack_L2249() -> None:
    s = duel(card("A"), card("B", abilities=["Trip", "Dodge"]))
    s, _ = step(s, sword(), [])
    s.__dict__.pop("_memo", None)
    assert all(a.ability != "Trip" for a in list(RS.legal_actions(s, 1)))


# --------------------------------------------------------------------------------------------
# Upheaval (L2254-2260)
# --------------------------------------------------------------------------------------------


def test_upheaval_L2256_an_elevation_piece_raises_the_square() -> None:
    s = duel(card("A", abilities=["Upheaval"]), at=((2, 2), (6, 2)))
    s, _ = step(s, UseAbility("Upheaval", at=(2, 3), option="elevation"), [])
    assert board_of(s).level((2, 3)) == 2 and board_of(s).level((2, 2)) == 1
    view = make_view(s, 0)
    assert view["board"]["elevation"][3][2] == 2 and view["board"]["terrain"] == []


def test_upheaval_L2257_a_2x1_obstacle_and_the_previous_piece_removed_L2259_2260() -> None:
    s = duel(card("A", abilities=["Upheaval"]), at=((2, 2), (6, 2)))
    s, _ = step(s, UseAbility("Upheaval", at=(3, 3), option="obstacle-h"), [])
    assert [t[:3] for t in s.terrain] == [(3, 3, "obstacle"), (4, 3, "obstacle")]
    s.units[0].used = []  # used again (a later turn)
    s, _ = step(s, UseAbility("Upheaval", at=(1, 1), option="obstacle-v"), [])
    assert [t[:3] for t in s.terrain] == [(1, 1, "obstacle"), (1, 2, "obstacle")]


def test_upheaval_L2258_2259_no_overlap_no_impassable_on_a_character() -> None:
    s = duel(card("A", abilities=["Upheaval"]), at=((2, 2), (3, 3)))
    s.terrain = [(1, 3, "vertical", 1)]
    with pytest.raises(IllegalAction, match="overlap"):
        step(s, UseAbility("Upheaval", at=(1, 3), option="elevation"), [])
    with pytest.raises(IllegalAction, match="occupied"):
        step(s, UseAbility("Upheaval", at=(3, 3), option="impassable"), [])
    with pytest.raises(IllegalAction, match="adjacent"):
        step(s, UseAbility("Upheaval", at=(5, 5), option="obstacle-h"), [])
    s, _ = step(s, UseAbility("Upheaval", at=(3, 3), option="elevation"), [])
    assert board_of(s).level((3, 3)) == 2  # an elevation piece under a character raises it


# --------------------------------------------------------------------------------------------
# Shadow Hop (L2132-2138)
# --------------------------------------------------------------------------------------------


def test_shadow_hop_L2136_2138_placed_anywhere_not_within_3_of_an_enemy() -> None:
    s = duel(card("A"), card("B", abilities=["Shadow Hop"]))
    s, _ = step(s, sword(), [5])
    s, _ = step(s, React(1, "Shadow Hop"), [])
    b = s.units[1]
    assert b.where == "reserve" and b.hopped
    # it returns to the hand as a reinforcement (L756-769), then activates
    b.where, b.pile = "hand", 1
    s.stage, s.player, s.active = "activate", 1, None
    keys = sorted(zones(Game(s, ScriptedD10([]))))
    s.zone_of = (keys[0], keys[1])
    s, _ = step(s, Activate(1), [])
    assert s.stage == "arrive"
    s.__dict__.pop("_memo", None)
    squares = {a.at for a in list(RS.legal_actions(s, 1)) if isinstance(a, Deploy)}
    assert (7, 2) in squares and (5, 2) not in squares  # A is at (2, 2): 5 away / 3 away
    with pytest.raises(IllegalAction, match="not a free square"):
        step(s, Deploy(1, (4, 4), "W"), [])
    s, _ = step(s, Deploy(1, (6, 3), "W"), [])
    assert s.units[1].pos == (6, 3) and not s.units[1].hopped


def test_games_with_the_six_entries_pass_the_conformance_suite() -> None:
    """Whole games where every character has Luck, Plan Ahead, Haste, Trip, Upheaval and
    Shadow Hop: the new decisions come up, keep the invariants and replay identically
    (``WARBENCH_CONFORMANCE_GAMES=N``: N games, the long run)."""
    from tests.rulesets.collision.game.helpers import group
    from tests.rulesets.collision.game.test_conformance import invariants
    from warbench.play.conformance import check_conformance

    rosters = []
    for name in ("deadholm_scouts", "guelivere_band"):
        g = group(name)
        for c in g["characters"]:
            card_ = c["card"]
            card_["effects"] = [*card_.get("effects", []), "Luck 1"]
            extra = ["Plan Ahead", "Haste", "Trip", "Upheaval", "Shadow Hop"]
            card_["abilities"] = [*card_.get("abilities", []), *extra]
        rosters.append(g)
    setup = SetupArgs(
        tuple(rosters),
        None,
        {"major": "Headhunter", "minors": ["High Ground", "God's Favor"], "turn_limit": 3},
    )
    games = int(os.environ.get("WARBENCH_CONFORMANCE_GAMES", "2"))  # the long run: more
    report = check_conformance(RS, setup, seeds=range(games), invariants=invariants)
    assert report.finished == games
    assert {"luck", "plan", "haste"} <= set(report.decisions)


def test_luck_L1979_1980_the_number_is_the_tokens_a_character_starts_with() -> None:
    s = duel(card("A", effects=["Luck 2"]), card("B", effects=["Luck"]))
    assert (s.units[0].luck, s.units[1].luck) == (2, 1)
