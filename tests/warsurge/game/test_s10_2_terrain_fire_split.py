"""Terrain Fire Points and units that only partly fit a terrain piece (001 §10.2, §6.7-6.9;
issue 12, session 26).

"Insufficient Transport Capacity to Embark Terrain ... When there is a Melee inside the
terrain and a Unit has models inside and outside the terrain, the outside models cannot
contribute to the Melee unless attacking from the outside through a Fire Point (Section 6.9)"
(L4449-4468). "Fire Points ... allows embarked Units to attack from inside the Transport. When
measuring range for attacking with the embarked models, measure from the Transport model
itself" (§6.7 L3455-3462). Rulings: docs/rulings.md "WARSURGE terrain in play: session 26,
s26-terrain".
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from warbench.kernel.dice import ScriptedDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.battlefield import Terrain
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack
from warbench.rulesets.warsurge.game.state import GameState, Location, Phase

from .helpers import board, check_invariants, entry, line, scenario, unit, weapon


def _bunker(fire_points: int = 1, transport: int = 500) -> Terrain:
    return Terrain(
        name="Bunker",
        polygon=[(20, 20), (28, 20), (28, 28), (20, 28)],
        transport=transport,
        blocks_los=True,
        fire_points=fire_points,
    )


WALL = Terrain(name="Wall", polygon=[(30, 10), (31, 10), (31, 38), (30, 38)], blocks_los=True)


def _attack_phase(state: GameState, side: int = 0) -> GameState:
    return replace(
        state,
        flow=replace(state.flow, phase=Phase.ATTACK, active=side),
        units=tuple(replace(u, acted=False) for u in state.units),
    )


def _inside(
    *,
    fire_points: int = 1,
    foe_at: tuple[float, float] = (24.0, 37.5),
    gun: str = "Assault",
    terrain: tuple[Terrain, ...] = (),
    moved: bool = False,
) -> GameState:
    """Player A's 2-model unit inside the Bunker, player B's unit outside at ``foe_at``."""
    g = weapon("Gun", range=12, attacks=3, power=10, type=gun)
    sides = [
        [entry(unit("Legionaries", models=2, weapons=[g]), 100)],
        [entry(unit("Raiders", models=2, weapons=[g]), 150)],
    ]
    state = scenario(
        sides,
        {0: line(23, 16.5, 2), 1: line(foe_at[0], foe_at[1], 2)},
        phase=Phase.ATTACK,
        b=board(terrain=[_bunker(fire_points), *terrain]),
    )
    units = list(state.units)
    units[0] = replace(
        units[0], location=Location.TERRAIN, terrain="Bunker", moved=(moved, moved)
    )
    return replace(state, units=tuple(units))


def test_s10_2_L4468_s6_7_L3455_occupants_fire_out_through_the_piece_s_fire_points() -> None:
    state = _inside()  # the Raiders 9.5" north of the Bunker's edge: a 12" Gun reaches
    legal = list(engine.legal_actions(state).for_unit(0))
    assert Attack(0, (("Gun", 1),)) in legal
    done, events = engine.apply(state, Attack(0, (("Gun", 1),)), dice=ScriptedDice([6] * 30))
    assert any(e.kind == "attack" for e in events)
    assert done.units[1].current_hp < 2
    check_invariants(done)


def test_s10_2_s6_7_L3455_without_fire_points_the_unit_inside_attacks_only_in_the_melee() -> None:
    state = _inside(fire_points=0)
    assert not any(isinstance(a, Attack) for a in engine.legal_actions(state).for_unit(0))
    with pytest.raises(RulesError, match="Bunker has no Fire Points"):
        engine.check(state, Attack(0, (("Gun", 1),)))


def test_s6_7_L3459_range_is_measured_from_the_piece_itself() -> None:
    """12.5" from the Bunker's edge is out of a 12" range although 'the models' are not on
    the table; 11.5" is in."""
    far = _inside(foe_at=(24.0, 28 + 12.5 + 0.5))
    with pytest.raises(RulesError, match="range and line of sight"):
        engine.check(far, Attack(0, (("Gun", 1),)))
    near = _inside(foe_at=(24.0, 28 + 11.5 + 0.5))
    engine.check(near, Attack(0, (("Gun", 1),)))


def test_s6_7_line_of_sight_from_the_piece_is_blocked_by_other_terrain() -> None:
    """The Raiders behind a wall east of the Bunker are out of sight; the Bunker itself never
    blocks its occupants' lines (they look out from just inside its edge)."""
    hidden = _inside(foe_at=(33.0, 24.0), terrain=(WALL,))
    with pytest.raises(RulesError, match="range and line of sight"):
        engine.check(hidden, Attack(0, (("Gun", 1),)))
    seen = _inside(foe_at=(33.0, 24.0))
    engine.check(seen, Attack(0, (("Gun", 1),)))


def test_s6_8_L3487_a_unit_that_moved_into_the_piece_cannot_fire_heavy_weapons_out() -> None:
    moved = _inside(gun="Heavy", moved=True)
    with pytest.raises(RulesError, match="moved"):
        engine.check(moved, Attack(0, (("Gun", 1),)))
    still = _inside(gun="Heavy", moved=False)
    engine.check(still, Attack(0, (("Gun", 1),)))


def test_s6_9_occupants_of_a_piece_with_fire_points_are_still_not_attacked_from_outside() -> None:
    """The piece is not a unit engaged in a Melee (§6.9 L3497-3499): the Raiders outside
    cannot Target the unit inside, only by embarking (L4441-4447)."""
    state = _attack_phase(_inside(), side=1)
    with pytest.raises(RulesError, match="inside Bunker"):
        engine.check(state, Attack(1, (("Gun", 0),)))


def test_s5_8_a_unit_locked_in_the_melee_inside_may_fire_out_with_the_out_of_melee_modifier() -> (
    None
):
    g = weapon("Gun", range=12, attacks=1, power=10)
    sides = [
        [entry(unit("Legionaries", models=2, weapons=[g]), 100)],
        [entry(unit("Raiders", models=2, weapons=[g]), 150), entry(unit("Scouts", weapons=[g]))],
    ]
    state = scenario(
        sides,
        {0: line(23, 16.5, 2), 1: line(23, 35.0, 2), 2: [(24.0, 37.5)]},
        phase=Phase.ATTACK,
        b=board(terrain=[_bunker()]),
        engaged=[(0, 1)],
    )
    units = list(state.units)
    for k in (0, 1):
        units[k] = replace(units[k], location=Location.TERRAIN, terrain="Bunker")
    state = replace(state, units=tuple(units))
    legal = list(engine.legal_actions(state).for_unit(0))
    assert Attack(0, (("Gun", 1),)) in legal and Attack(0, (("Gun", 2),)) in legal
    plan = engine._verified(state, Attack(0, (("Gun", 2),)), engine.DEFAULT_HOOKS)
    ctx = plan.weapons[0].context  # type: ignore[union-attr]
    # engaged (Out of a Melee, §5.8 L2679), the Weapon Type modifiers too: the piece is not an
    # engaged Transport (§6.9 L3499-3503 does not apply; ruling 3)
    assert ctx.attacker_engaged and not ctx.through_fire_points and not ctx.melee
    _, events = engine.apply(state, Attack(0, (("Gun", 2),)), dice=ScriptedDice([6] * 30))
    assert any(e.kind == "attack" and e.data["target"] == 2 for e in events)
