"""Terrain used as a Transport (001 §10.2 B/C L4383-4460, §10.5 L4486-4530; issue 12).

"Some scenery could even have the ability to move, be embarked and have Weapons equipped ...
Units could treat these terrain features as a Transport (refer to Section 6)" (L4385-4391).
"If the terrain has enough Transport Capacity, then multiple Units may embark it throughout
the game. If the embarked Units are from different players, these Units will count as being
engaged in a Melee" (L4437-4441), with the book's bunker example (L4443-4447).
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from warbench.kernel.dice import ScriptedDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.battlefield import Terrain
from warbench.rulesets.warsurge.battlefield.model import Gate
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import (
    Attack,
    Disembark,
    EmbarkTerrain,
    Move,
    action_from_dict,
    action_to_dict,
)
from warbench.rulesets.warsurge.game.render import render_state_text
from warbench.rulesets.warsurge.game.state import GameState, Location, Phase, unit_state_fields
from warbench.rulesets.warsurge.game.terrain_transport import occupants
from warbench.rulesets.warsurge.game.work import Work

from .helpers import board, check_invariants, entry, line, scenario, unit, weapon

#: the bunker of the L4443-4447 example: a Transport Capacity of 500
BUNKER = Terrain(
    name="Bunker", polygon=[(20, 20), (28, 20), (28, 28), (20, 28)], transport=500, blocks_los=True
)
WALL = Terrain(name="Wall", polygon=[(2, 30), (10, 30), (10, 31), (2, 31)], blocks_los=True)


def _bunker_game(phase: Phase = Phase.MOVE, *, c_points: int = 300) -> GameState:
    """Player A's 100-point unit 3" south of the Bunker, player B's 150-point unit 3" north of
    it, player A's ``c_points`` unit far away."""
    gun = weapon("Gun", range=12, attacks=3, power=10)
    sides = [
        [
            entry(unit("Legionaries", models=2, weapons=[gun]), 100),
            entry(unit("Heavies", models=2), c_points),
        ],
        [entry(unit("Raiders", models=2, weapons=[gun]), 150)],
    ]
    return scenario(
        sides,
        {0: line(23, 16.5, 2), 1: line(40, 10, 2), 2: line(23, 31.5, 2)},
        phase=phase,
        b=board(terrain=[BUNKER, WALL]),
    )


class _Rng:
    """Always the first choice (a fixed player for the rest of a Phase)."""

    def choice(self, xs):  # type: ignore[no-untyped-def]
        return xs[0]

    def random(self) -> float:
        return 1.0

    def shuffle(self, xs) -> None:  # type: ignore[no-untyped-def]
        return None


def _with_active(state: GameState, side: int) -> GameState:
    """``side`` to act, every unit free to act again (a later Phase)."""
    return replace(
        state,
        flow=replace(state.flow, active=side),
        units=tuple(replace(u, acted=False) for u in state.units),
    )


def test_s10_2_example_bunker_of_500_takes_a_100_point_unit_then_b_s_150_points_in_melee() -> None:
    state = _bunker_game()
    state, events = engine.apply(state, EmbarkTerrain(0, "Bunker"))
    a = state.units[0]
    assert a.location is Location.TERRAIN and a.terrain == "Bunker"
    assert occupants(state, "Bunker") == [0] and events[0].kind == "embark"
    assert "§10.2" in events[0].rule
    check_invariants(state)
    state, events = engine.apply(_with_active(state, 1), EmbarkTerrain(2, "Bunker"))
    assert occupants(state, "Bunker") == [0, 2]
    assert (0, 2) in state.engaged  # "engages Player A's Unit in a Melee" (L4446-4447)
    melee = [e for e in events if e.kind == "melee"]
    assert melee and "L4441-4447" in melee[0].rule
    check_invariants(state)
    # the units inside count on the battlefield (their value, §2.2 step 8)
    assert state.current_value(0) == 100 and state.current_value(2) == 150


def test_s10_2_transport_capacity_is_enforced() -> None:
    """100 + 150 inside leaves 250 of 500: a 600-point unit of two models (300 each) does not
    fit at all (L4459-4460); a 300-point one only partly: one model goes in, the other steps
    up to the Bunker and stays outside in Coherency with it (L4460-4462;
    test_s10_2_terrain_fire_split.py)."""

    def inside_with(points: int) -> GameState:
        state = _bunker_game(c_points=points)
        units = list(state.units)
        units[0] = replace(units[0], location=Location.TERRAIN, terrain="Bunker")
        units[2] = replace(units[2], location=Location.TERRAIN, terrain="Bunker")
        units[1] = replace(units[1], pos=tuple(line(23, 16.5, 2)))
        return replace(state, units=tuple(units), engaged=frozenset({(0, 2)}))

    with pytest.raises(RulesError, match="250 points of Transport Capacity left") as info:
        engine.check(inside_with(600), EmbarkTerrain(1, "Bunker"))
    assert "L4459-4460" in info.value.rule
    part, _ = engine.apply(inside_with(300), EmbarkTerrain(1, "Bunker"))
    assert part.units[1].inside == (0,) and part.units[1].location is Location.TABLE
    assert (1, 2) in part.engaged  # its model inside is in the Melee there (L4450-4457)
    check_invariants(part)
    small = _bunker_game(c_points=250)
    units = list(small.units)
    units[0] = replace(units[0], location=Location.TERRAIN, terrain="Bunker")
    units[2] = replace(units[2], location=Location.TERRAIN, terrain="Bunker")
    units[1] = replace(units[1], pos=tuple(line(23, 16.5, 2)))
    small = replace(small, units=tuple(units), engaged=frozenset({(0, 2)}))
    fits, _ = engine.apply(small, EmbarkTerrain(1, "Bunker"))
    assert occupants(fits, "Bunker") == [0, 1, 2]


def test_s10_2_refusals_name_the_piece_and_the_rule() -> None:
    state = _bunker_game()
    with pytest.raises(RulesError, match="no terrain piece 'Tower'; pieces with a Transport"):
        engine.check(state, EmbarkTerrain(0, "Tower"))
    with pytest.raises(RulesError, match="Wall has no Transport Stat"):
        engine.check(state, EmbarkTerrain(0, "Wall"))
    with pytest.raises(RulesError, match=r'Bunker is 15\.1" away') as info:
        engine.check(state, EmbarkTerrain(1, "Bunker"))
    assert info.value.rule == "§6.2"
    inside, _ = engine.apply(state, EmbarkTerrain(0, "Bunker"))
    inside = _with_active(inside, 0)
    with pytest.raises(RulesError, match="inside Bunker; use Disembark to leave it"):
        engine.check(inside, Move(0, to=(10.0, 10.0)))


def test_s10_2_the_melee_inside_is_fought_there_and_outsiders_cannot_attack_in() -> None:
    state = _bunker_game()
    state, _ = engine.apply(state, EmbarkTerrain(0, "Bunker"))
    state, _ = engine.apply(_with_active(state, 1), EmbarkTerrain(2, "Bunker"))
    attack = replace(
        state,
        flow=replace(state.flow, phase=Phase.ATTACK, active=0),
        units=tuple(replace(u, acted=False) for u in state.units),
    )
    # the Heavies outside cannot attack the Raiders inside (§6.9: occupants are not attacked)
    with pytest.raises(RulesError):
        engine.check(attack, Attack(1, (("Gun", 2),)))
    legal = engine.legal_actions(attack)
    assert Attack(0, (("Gun", 2),)) in list(legal.for_unit(0))
    done, events = engine.apply(attack, Attack(0, (("Gun", 2),)), dice=ScriptedDice([6] * 6))
    assert any(e.kind == "attack" for e in events)
    assert done.units[2].current_hp < 2
    check_invariants(done)
    # the casualties go at the end of the Attack Phase; the Melee inside needs no Base Contact
    while done.flow.phase is Phase.ATTACK:
        done, _ = engine.apply(done, engine.legal_actions(done).sample(_Rng()))
        check_invariants(done)
    alive = [u for u in (done.units[0], done.units[2]) if u.location is Location.TERRAIN]
    assert (0, 2) in done.engaged if len(alive) == 2 else not done.engaged
    assert any(u.location is Location.DESTROYED for u in done.units)  # the Melee was fought


def test_s10_2_a_unit_leaves_by_disembarking_within_its_move_of_the_piece() -> None:
    state = _bunker_game()
    state, _ = engine.apply(state, EmbarkTerrain(0, "Bunker"))
    state = _with_active(state, 0)
    out = ((18.0, 24.0), (16.5, 24.0))
    left, events = engine.apply(state, Disembark(0, positions=out))
    assert left.units[0].location is Location.TABLE and left.units[0].terrain is None
    assert left.units[0].pos == out and events[0].kind == "disembark"
    check_invariants(left)
    with pytest.raises(RulesError, match='beyond its 6" Move from Bunker') as info:
        engine.check(state, Disembark(0, positions=((5.0, 24.0), (3.5, 24.0))))
    assert "§6.3" in info.value.rule
    # the engine's placement toward a point, and the candidates the players are offered
    auto, _ = engine.apply(state, Disembark(0, to=(10.0, 24.0)))
    assert auto.units[0].location is Location.TABLE
    check_invariants(auto)
    assert any(isinstance(a, Disembark) for a in engine.legal_actions(state).for_unit(0))
    # locked in the Melee inside, a unit stays (§4.4 I)
    both, _ = engine.apply(_with_active(state, 1), EmbarkTerrain(2, "Bunker"))
    both = _with_active(both, 0)
    with pytest.raises(RulesError, match="locked in a Melee inside Bunker"):
        engine.check(both, Disembark(0, positions=out))


def test_s10_5_connected_floors_and_a_one_way_hatch() -> None:
    """Example 1 (L4494-4500): a unit embarks the ground floor and may disembark from the
    floor above; Example 2 (L4511-4520): the secret hatch is an exit only."""
    ground = Terrain(
        name="Tower ground", polygon=[(20, 20), (26, 20), (26, 26), (20, 26)],
        transport_unlimited=True, connected_to=["Tower top"],
    )  # fmt: skip
    top = Terrain(
        name="Tower top", polygon=[(26, 20), (32, 20), (32, 26), (26, 26)],
        transport_unlimited=True, embark=False, gates=[Gate(name="Ladder", at=(32, 23))],
    )  # fmt: skip
    sides = [[entry(unit("Legionaries", models=2))], [entry(unit("Foe"))]]
    state = scenario(
        sides,
        {0: line(21, 16.5, 2), 1: [(5.0, 45.0)]},
        b=board(terrain=[ground, top]),
    )
    with pytest.raises(RulesError, match="cannot be embarked from the battlefield") as info:
        engine.check(state, EmbarkTerrain(0, "Tower top"))
    assert "§10.5" in info.value.rule
    state, _ = engine.apply(state, EmbarkTerrain(0, "Tower ground"))
    state = _with_active(state, 0)
    # out by the ladder of the connected top floor, 5" east of it
    out = ((35.0, 23.0), (36.5, 23.0))
    left, _ = engine.apply(state, Disembark(0, positions=out))
    assert left.units[0].pos == out


def test_s10_2_occupants_in_the_state_json_digest_and_renders() -> None:
    from warbench.rulesets.warsurge.game.codecs import _unit_from_json, unit_to_json

    state = _bunker_game()
    inside, _ = engine.apply(state, EmbarkTerrain(0, "Bunker"))
    u = inside.units[0]
    back = _unit_from_json(json.loads(json.dumps(unit_to_json(u))))
    assert back == u and back.terrain == "Bunker"
    assert unit_state_fields(u)["terrain"] == "Bunker"
    assert "terrain" not in unit_state_fields(state.units[0])  # others' digests unchanged
    moved = replace(inside, units=(replace(u, terrain=None), *inside.units[1:]))
    assert moved.digest() != inside.digest()
    text = render_state_text(inside)
    assert "inside Bunker" in text and "Inside Bunker (100/500 pts): P0: Legionaries" in text
    a = EmbarkTerrain(0, "Bunker", dash=True)
    assert action_from_dict(action_to_dict(a)) == a
    w = Work(inside, None, engine.DEFAULT_HOOKS)
    assert w.units[0].location is Location.TERRAIN
