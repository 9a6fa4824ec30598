"""A unit split by a terrain piece (001_d3f5e425c5e1196d.txt §10.2 L4459-4468) under perk-made
strikes and in random-legal play (issue 12, session 26, lane s26b-split).

"When there is a Melee inside the terrain and a Unit has models inside and outside the terrain,
the outside models cannot contribute to the Melee unless attacking from the outside through a
Fire Point" (L4466-4468): the models of a split unit on the other side of the piece's walls are
out of reach of a strike as of an attack. Rulings: docs/rulings.md "WARSURGE terrain in play:
session 26, s26-terrain" 11-14.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from warbench.kernel.dice import ScriptedDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.battlefield import Terrain
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.perk_struck import strike
from warbench.rulesets.warsurge.game.state import GameState, Phase
from warbench.rulesets.warsurge.game.work import Work

from .helpers import board, check_invariants, entry, line, scenario, unit, weapon


def _post() -> Terrain:
    return Terrain(name="Post", polygon=[(20, 20), (28, 20), (28, 28), (20, 28)], transport=100)


def _split(counter: str = "Counter", melee: bool = False) -> GameState:
    """Player A's 4-model Legionaries (50 points a model), models 0-1 inside the Post and
    2-3 outside 2" south of it; player B's Scouts 8" south with a Spite (``counter``), or
    (``melee``) in base contact with model 3, the two units engaged in a Melee."""
    gun = weapon("Gun", range=12, attacks=1, power=10)
    spite = weapon("Spite", attacks=12, power=10, range=12, perks=[counter] if counter else [])
    sides = [
        [entry(unit("Legionaries", models=4, weapons=[gun]), 200)],
        [entry(unit("Scouts", hp=20, weapons=[weapon("Gun"), spite]))],
    ]
    state = scenario(
        sides,
        {0: line(21, 18.0, 4), 1: [(25.5, 17.0) if melee else (24.0, 10.0)]},
        b=board(terrain=[_post()]),
        phase=Phase.ATTACK,
        active=0,
        engaged=[(0, 1)] if melee else [],
    )
    units = list(state.units)
    units[0] = replace(units[0], terrain="Post", inside=(0, 1))
    return replace(state, units=tuple(units))


@pytest.mark.parametrize("melee", [False, True])
def test_s10_2_L4466_a_counter_strike_falls_only_on_the_split_unit_s_models_outside(
    melee: bool,
) -> None:
    # the Legionaries' two models outside attack the Scouts (2 hits), who strike back with
    # the Spite (Counter, Perks L3062): twelve 6s, but only the two models outside can fall
    # (in a Melee on the table too, where the Counter's casualties are not limited to the
    # models the Scouts see)
    dice = ScriptedDice([6] * 60)
    state, events = engine.apply(_split(melee=melee), Attack(0, (("Gun", 1),)), dice=dice)
    assert any("(Counter)" in e.text for e in events)
    u = state.units[0]
    assert u.hp[0] > 0 and u.hp[1] > 0  # inside the Post: out of the Spite's reach
    assert u.hp[2] == 0 and u.hp[3] == 0
    check_invariants(state)


def test_s10_2_L4466_a_struck_share_falls_only_on_the_side_of_the_walls_of_the_striker() -> None:
    # Furious and Bodyguard's strikes (perk_struck.strike): 4 successful dice from outside
    w = Work(_split(""), ScriptedDice([6] * 40), DEFAULT_HOOKS)
    done = strike(w, 1, 0, "Spite", 4)
    assert sorted(done.casualties) == [2, 3]
    hp = w.units[0].hp
    assert hp[0] > 0 and hp[1] > 0


def _forced(perks: list[str]) -> GameState:
    """The Legionaries split as in :func:`_split` (3 HP a model); the Scouts, 8" south, shoot
    them with a Gun of ``perks``: their Attack Phase."""
    gun = weapon("Gun", range=24, attacks=1, power=4, perks=perks)
    sides = [
        [entry(unit("Legionaries", models=4, hp=3), 200)],
        [entry(unit("Scouts", weapons=[gun]))],
    ]
    state = scenario(
        sides,
        {0: line(21, 18.0, 4), 1: [(24.0, 10.0)]},
        b=board(terrain=[_post()]),
        phase=Phase.ATTACK,
        active=1,
    )
    units = list(state.units)
    units[0] = replace(units[0], terrain="Post", inside=(0, 1))
    return replace(state, units=tuple(units))


def test_s10_2_L4460_a_force_push_stops_where_the_split_unit_keeps_coherency_with_its_piece() -> (
    None
):
    # Force I (Perks L3837) aimed 18" south: the models outside (1.5" from the Post) go only
    # 0.5", the last spot where one is within 2" of the Post; the models inside stay
    aim = Attack(1, (("Gun", 0),), aim=(("Gun", 24.0, 0.0),))
    state, events = engine.apply(_forced(["Force I"]), aim, dice=ScriptedDice([6, 5] + [1] * 9))
    check_invariants(state)
    u = state.units[0]
    assert u.pos[:2] == ((21.0, 18.0), (22.5, 18.0)) and u.inside == (0, 1)
    assert 17.4 < u.pos[2][1] < 17.6 and 17.4 < u.pos[3][1] < 17.6
    assert any("in Coherency with its terrain piece" in e.text for e in events)
    # a unit not split goes the full 6"
    fresh = _forced(["Force I"])
    whole = replace(fresh, units=(replace(fresh.units[0], inside=(), terrain=None), fresh.units[1]))
    pushed, _ = engine.apply(whole, aim, dice=ScriptedDice([6, 5] + [1] * 9))
    assert pushed.units[0].pos[3][1] < 12.5


def test_s6_7_L4466_a_split_unit_s_models_inside_fire_out_through_the_fire_points() -> None:
    # the Legionaries' models 0-1 inside the Post, 2-3 outside south of it; the Raiders 11.5"
    # north of the Post: only the models inside reach them, from the piece (§6.7 L3458)
    from .test_s10_2_terrain_fire_split import _split_game

    def split(fire_points: int) -> GameState:
        state = _split_game(fire_points=fire_points)
        units = list(state.units)
        units[0] = replace(units[0], terrain="Post", inside=(0, 1))
        return replace(state, units=tuple(units), flow=replace(state.flow, phase=Phase.ATTACK))

    state = split(1)
    plan = engine._verified(state, Attack(0, (("Gun", 1),)), engine.DEFAULT_HOOKS)
    assert plan.weapons[0].models == (0, 1)  # type: ignore[union-attr]
    done, events = engine.apply(state, Attack(0, (("Gun", 1),)), dice=ScriptedDice([6] * 20))
    assert "2 models" in events[0].text and sum(done.units[1].hp) < sum(state.units[1].hp)
    check_invariants(done)
    # the Scouts 8" south: the models outside and inside both reach them
    both = engine._verified(state, Attack(0, (("Gun", 2),)), engine.DEFAULT_HOOKS)
    assert both.weapons[0].models == (0, 1, 2, 3)  # type: ignore[union-attr]
    with pytest.raises(RulesError, match=r"range|sight|no model"):  # no Fire Points: none
        engine.check(split(0), Attack(0, (("Gun", 1),)))


def test_s10_2_L4466_kamikaze_s_crash_strikes_only_the_split_unit_s_models_outside() -> None:
    # the Legionaries' two models outside slay the User (3 HP, Kamikaze, Perks L1302); the
    # Scatter Arrow is a Hit, 2D6 = 7" toward them: the crash (3 Attacks at Power 6, three 6s)
    # can fell only the two models outside, never the two inside the Post
    gun = weapon("Gun", range=12, attacks=3, power=10)
    sides = [
        [entry(unit("Legionaries", models=4, weapons=[gun]), 200)],
        [entry(unit("User", hp=3, defence=6, perks=["Kamikaze"]))],
    ]
    state = scenario(
        sides,
        {0: line(21, 18.0, 4), 1: [(24.0, 10.0)]},
        b=board(terrain=[_post()]),
        phase=Phase.ATTACK,
        active=0,
    )
    units = list(state.units)
    units[0] = replace(units[0], terrain="Post", inside=(0, 1))
    state = replace(state, units=tuple(units))
    dice = ScriptedDice([6] * 6 + [1, 3, 4] + [6] * 8)
    done, events = engine.apply(state, Attack(0, (("Gun", 1),)), dice=dice)
    assert any("struck by Kamikaze" in e.text for e in events)
    assert done.units[0].hp == (1, 1, 0, 0)
