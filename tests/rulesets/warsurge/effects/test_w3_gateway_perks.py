"""Gateway, a Roster Perk, played in a game (Perks 000_94ecc6a4c74d351b.txt L4314;
``game/perk_gateway.py``): its markers placed at the start of Game Turns 1 and 2, the active
Gateway embarked like a Transport at one marker and left at the other by units of every side,
the Melee inside (Core Rules §10.2), and each player's Gateway apart. Each test plays the engine
and checks the same game without the perk. Test names carry the rank's source line (``p4314``),
which ``warbench perks --coverage`` reads."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from tests.warsurge.game.helpers import check_invariants, entry, scenario, unit
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Disembark, EmbarkTerrain, Pass
from warbench.rulesets.warsurge.game.gateway_markers import gateway_name, markers
from warbench.rulesets.warsurge.game.state import GameState, Location, Phase
from warbench.rulesets.warsurge.game.terrain_field import field_of

GATE0 = gateway_name(0)


def _game(holder: bool = True, foe_holder: bool = False) -> GameState:
    """The Dash Phase of "Game Turn 0", so the next Game Turn is the game's first. Side 0:
    Holder at (10, 10) (carrying Gateway when ``holder``), Friend at (14, 10); side 1: Foe at
    (30, 40) (carrying Gateway when ``foe_holder``)."""
    me = entry(unit("Holder", hp=3))
    if holder:
        me = replace(me, traits=("Gateway",))
    foe = entry(unit("Foe", hp=3))
    if foe_holder:
        foe = replace(foe, traits=("Gateway",))
    return scenario(
        [[me, entry(unit("Friend", hp=3))], [foe]],
        {0: [(10.0, 10.0)], 1: [(14.0, 10.0)], 2: [(30.0, 40.0)]},
        phase=Phase.DASH,
        turn=0,
    )


def _to(st: GameState, turn: int, phase: Phase = Phase.MOVE, side: int = 0) -> GameState:
    while not (st.flow.turn == turn and st.flow.phase is phase and engine.acting_side(st) == side):
        st, _ = engine.apply(st, Pass())
    check_invariants(st)
    return st


def test_p4314_gateway_markers_placed_at_the_start_of_game_turns_1_and_2() -> None:
    st = _to(_game(), 1)
    assert markers(st, 0) == [(12.0, 10.0)]  # the middle of its own units
    names = [t.name for t in field_of(st).board.terrain]
    assert GATE0 not in names  # one marker: not active yet
    st = _to(st, 2)
    assert markers(st, 0) == [(12.0, 10.0), (30.0, 40.0)]  # the middle of the enemy units
    piece = field_of(st).board.terrain_named(GATE0)
    assert [g.at for g in piece.gates] == [(12.0, 10.0), (30.0, 40.0)]
    assert math.isinf(piece.capacity)
    st = _to(st, 3)
    assert len(markers(st, 0)) == 2  # Limited Use (2): no third marker
    plain = _to(_game(holder=False), 3)
    assert all(not s.name.startswith("Gateway") for u in plain.units for s in u.statuses)
    assert field_of(plain) is plain.setup.field


def test_p4314_gateway_inactive_with_one_marker() -> None:
    st = _to(_game(), 1)
    with pytest.raises(RulesError):
        engine.apply(st, EmbarkTerrain(1, GATE0))


def test_p4314_gateway_embark_one_marker_disembark_at_the_other() -> None:
    st = _to(_game(), 2)
    st, ev = engine.apply(st, EmbarkTerrain(1, GATE0))  # Friend, 1.5" from marker 1
    assert st.units[1].location is Location.TERRAIN and st.units[1].terrain == GATE0
    st = _to(st, 3)
    st, ev = engine.apply(st, Disembark(1, to=(30.0, 34.0)))
    u = st.units[1]
    assert u.location is Location.TABLE
    (x, y) = u.pos[0]
    assert math.dist((x, y), (30.0, 40.0)) <= 6.5  # out at marker 2, 30" from where it went in
    assert any(e.kind == "disembark" for e in ev)
    plain = _to(_game(holder=False), 2)
    with pytest.raises(RulesError):
        engine.apply(plain, EmbarkTerrain(1, GATE0))


def test_p4314_gateway_foes_have_access_and_fight_inside() -> None:
    st = _to(_game(), 2)
    st, _ = engine.apply(st, EmbarkTerrain(1, GATE0))  # side 0 in at marker 1
    st = _to(st, 2, side=1)
    st, ev = engine.apply(st, EmbarkTerrain(2, GATE0))  # the foe in at marker 2
    assert st.units[2].terrain == GATE0
    assert (1, 2) in st.engaged  # inside the Gateway: a Melee (§10.2 L4437-4447)
    assert any(e.kind == "melee" for e in ev)
    st = _to(st, 3)
    with pytest.raises(RulesError):  # locked in the Melee inside (§4.4)
        engine.apply(st, Disembark(1, to=(12.0, 14.0)))


def test_p4314_gateway_of_each_player_not_connected() -> None:
    st = _to(_game(foe_holder=True), 2)
    board = field_of(st).board
    mine, theirs = board.terrain_named(GATE0), board.terrain_named(gateway_name(1))
    assert mine.name != theirs.name and not mine.connected_to and not theirs.connected_to
    assert board.disembark_from(GATE0) == [GATE0]
    assert [g.at for g in theirs.gates] == [(30.0, 40.0), (12.0, 10.0)]


def test_p4314_gateway_drawn_in_the_render() -> None:
    from warbench.rulesets.warsurge.game.render import render_state_text

    st = _to(_game(), 2)
    st, _ = engine.apply(st, EmbarkTerrain(1, GATE0))
    text = render_state_text(st)
    assert GATE0 in text and "Friend" in text.split(GATE0, 1)[1]
    plain = render_state_text(_to(_game(holder=False), 2))
    assert "Gateway" not in plain


def test_p4314_gateway_stays_when_its_holder_is_destroyed() -> None:
    st = _to(_game(), 1)
    u = st.units[0]
    units = list(st.units)
    units[0] = replace(
        u,
        location=Location.DESTROYED,
        hp=tuple(0 for _ in u.hp),
        removed=tuple(True for _ in u.hp),
    )
    st = replace(st, units=tuple(units))
    while st.flow.turn < 2:
        st, _ = engine.apply(st, Pass())
    assert markers(st, 0) == [(12.0, 10.0), (30.0, 40.0)]  # a Roster Perk: the player's
    assert GATE0 in [t.name for t in field_of(st).board.terrain]
