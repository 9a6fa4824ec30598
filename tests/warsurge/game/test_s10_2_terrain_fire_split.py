"""Terrain Fire Points and units that only partly fit a terrain piece (001 §10.2, §6.7-6.9;
issue 12, session 26).

"Insufficient Transport Capacity to Embark Terrain ... When there is a Melee inside the
terrain and a Unit has models inside and outside the terrain, the outside models cannot
contribute to the Melee unless attacking from the outside through a Fire Point (Section 6.9)"
(L4459-4468). "Fire Points ... allows embarked Units to attack from inside the Transport. When
measuring range for attacking with the embarked models, measure from the Transport model
itself" (§6.7 L3455-3460). Rulings: docs/rulings.md "WARSURGE terrain in play: session 26,
s26-terrain".
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from warbench.kernel.dice import ScriptedDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.battlefield import Terrain
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import (
    Attack,
    Disembark,
    EmbarkTerrain,
    Move,
    Pass,
    action_from_dict,
    action_to_dict,
)
from warbench.rulesets.warsurge.game.render import render_state_text
from warbench.rulesets.warsurge.game.state import (
    ALL_AUTOMATIONS,
    Automation,
    GameState,
    Location,
    Phase,
    unit_state_fields,
)
from warbench.rulesets.warsurge.game.terrain import terrain_target
from warbench.rulesets.warsurge.game.terrain_transport import occupants
from warbench.rulesets.warsurge.game.work import Work

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
    units[0] = replace(units[0], location=Location.TERRAIN, terrain="Bunker", moved=(moved, moved))
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


def test_s6_7_L3458_range_is_measured_from_the_piece_itself() -> None:
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


def test_s6_8_L3485_a_unit_that_moved_into_the_piece_cannot_fire_heavy_weapons_out() -> None:
    moved = _inside(gun="Heavy", moved=True)
    with pytest.raises(RulesError, match="moved"):
        engine.check(moved, Attack(0, (("Gun", 1),)))
    still = _inside(gun="Heavy", moved=False)
    engine.check(still, Attack(0, (("Gun", 1),)))


def test_s6_9_occupants_of_a_piece_with_fire_points_are_still_not_attacked_from_outside() -> None:
    """The piece is not a unit engaged in a Melee (§6.9 L3497-3499): the Raiders outside
    cannot Target the unit inside, only by embarking (L4450-4457)."""
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
    # engaged (Out of a Melee, §5.8 L2682), the Weapon Type modifiers too: the piece is not an
    # engaged Transport (§6.9 L3499-3503 does not apply; ruling 3)
    assert ctx.attacker_engaged and not ctx.through_fire_points and not ctx.melee
    _, events = engine.apply(state, Attack(0, (("Gun", 2),)), dice=ScriptedDice([6] * 30))
    assert any(e.kind == "attack" and e.data["target"] == 2 for e in events)


# --------------------------------------------------------------------------- partial fit

_PROFILE = {
    "unit": {"name": "Post", "move": 0, "dash": 0, "defence": 2, "hp": 2},
    "models": [{"count": 1}],
}


def _post(transport: int = 100, fire_points: int = 0, hp: int | None = None) -> Terrain:
    return Terrain(
        name="Post",
        polygon=[(20, 20), (28, 20), (28, 28), (20, 28)],
        transport=transport,
        blocks_los=True,
        fire_points=fire_points,
        hp=hp,
        profile=_PROFILE if hp else None,
    )


def _split_game(
    transport: int = 100,
    *,
    fire_points: int = 0,
    column: bool = False,
    foe_inside: bool = False,
    hp: int | None = None,
    move: int = 6,
    gap: float = 1.5,
    **kw: object,
) -> GameState:
    """Player A's 4-model, 200-point unit (50 points a model) 1.5" south of the Post, in a
    line along it (or a column away from it); player B's Raiders far north (or inside)."""
    g = weapon("Gun", range=12, attacks=3, power=10)
    sides = [
        [entry(unit("Legionaries", models=4, weapons=[g], move=move, dash=move), 200)],
        [entry(unit("Raiders", models=2, weapons=[g]), 50), entry(unit("Scouts", weapons=[g]))],
    ]
    a = [(24.0, 18.0 - gap * k) for k in range(4)] if column else line(21, 18.0, 4)
    state = scenario(
        sides,
        {0: a, 1: line(23, 40, 2), 2: [(24.0, 10.0)]},
        b=board(terrain=[_post(transport + (50 if foe_inside else 0), fire_points, hp)]),
        **kw,  # type: ignore[arg-type]
    )
    if foe_inside:
        units = list(state.units)
        units[1] = replace(units[1], location=Location.TERRAIN, terrain="Post")
        state = replace(state, units=tuple(units))
    return state


def test_s10_2_L4460_partial_fit_the_models_that_fit_go_in_the_rest_stay_outside() -> None:
    state = _split_game()
    done, events = engine.apply(state, EmbarkTerrain(0, "Post"))
    u = done.units[0]
    assert u.location is Location.TABLE and u.terrain == "Post"
    assert u.inside == (0, 1) and u.present() == [2, 3]  # 100 of the 200 points fit
    assert u.moved == (True, True, False, False)  # the models that went in moved (§6.8)
    assert events[0].kind == "embark" and "L4459-4464" in events[0].rule
    assert "2 stay outside in Coherency" in events[0].text
    assert occupants(done, "Post") == [0]
    check_invariants(done)
    # the models inside are off the table: the index, the renders, the value
    w = Work(done, None, engine.DEFAULT_HOOKS)
    assert sorted(w.table().model[w.table().uid == 0].tolist()) == [2, 3]
    assert done.current_value(0) == 200
    text = render_state_text(done)
    assert "on the table, 2 inside Post, 4/4 models" in text and "Inside Post (100/100 pts)" in text


def test_s10_2_L4460_the_player_names_the_models_that_go_in() -> None:
    state = _split_game()
    done, _ = engine.apply(state, EmbarkTerrain(0, "Post", models=(2, 3)))
    assert done.units[0].inside == (2, 3) and done.units[0].present() == [0, 1]
    check_invariants(done)
    with pytest.raises(RulesError, match=r"3 models of P0: Legionaries .150 points. do not fit"):
        engine.check(state, EmbarkTerrain(0, "Post", models=(0, 1, 2)))
    with pytest.raises(RulesError, match="each once"):
        engine.check(state, EmbarkTerrain(0, "Post", models=(1, 1)))
    with pytest.raises(RulesError, match="fits Post whole"):
        engine.check(_split_game(transport=300), EmbarkTerrain(0, "Post", models=(0,)))
    with pytest.raises(RulesError, match="not one model"):
        engine.check(_split_game(transport=40), EmbarkTerrain(0, "Post"))
    # without the engine's placement the player must name them (a decision)
    manual = _split_game(automation=ALL_AUTOMATIONS - {Automation.MODEL_PLACEMENT})
    with pytest.raises(RulesError, match="name the models that go in"):
        engine.check(manual, EmbarkTerrain(0, "Post"))
    engine.check(manual, EmbarkTerrain(0, "Post", models=(0, 3)))
    a = EmbarkTerrain(0, "Post", models=(0, 3))
    assert action_from_dict(action_to_dict(a)) == a


def test_s10_2_L4460_the_models_left_outside_step_up_to_keep_coherency_with_the_piece() -> None:
    """A column walking away from the Post: the two nearest go in, the other two follow
    within their Move until 1" from the Post (L4460-4462: "at least one model ... must
    maintain Coherency with the terrain")."""
    state = _split_game(column=True)
    done, _ = engine.apply(state, EmbarkTerrain(0, "Post"))
    u = done.units[0]
    assert u.inside == (0, 1) and u.present() == [2, 3]
    assert u.pos[2] == pytest.approx((24.0, 18.5)) and u.pos[3] == pytest.approx((24.0, 17.0))
    assert u.moved == (True, True, True, True)
    check_invariants(done)
    # 2" apart and with a 2" Move, whichever two go in, the others cannot get that close
    slow = _split_game(column=True, move=2, gap=3.0)
    with pytest.raises(RulesError, match="would not keep Coherency") as info:
        engine.check(slow, EmbarkTerrain(0, "Post"))
    assert "L4459-4462" in info.value.rule
    # the player's own choice and positions (a decision)
    mine = EmbarkTerrain(0, "Post", models=(2, 3), positions=((23.0, 18.0), (24.5, 18.0)))
    done, _ = engine.apply(state, mine)
    assert done.units[0].inside == (2, 3) and done.units[0].pos[:2] == mine.positions
    check_invariants(done)
    with pytest.raises(RulesError, match="2 models of P0: Legionaries stay outside; 3 positions"):
        engine.check(state, replace(mine, positions=mine.positions[:1] * 3))
    with pytest.raises(RulesError, match="would not keep Coherency"):
        engine.check(state, replace(mine, positions=((24.0, 16.0), (24.0, 14.5))))
    manual = _split_game(column=True, automation=ALL_AUTOMATIONS - {Automation.MODEL_PLACEMENT})
    engine.check(manual, replace(mine, positions=()))  # the two left are within 2" already
    with pytest.raises(RulesError, match="give the positions"):
        engine.check(manual, EmbarkTerrain(0, "Post", models=(0, 1)))
    assert action_from_dict(action_to_dict(mine)) == mine


def test_s10_2_L4462_models_stepping_up_into_base_contact_engage_a_melee() -> None:
    """§4.3: the models left outside that step up to the Post and touch an enemy engage it."""
    state = _split_game(column=True)
    units = list(state.units)
    units[2] = replace(units[2], pos=((25.0, 18.5),))  # the Scouts beside the Post
    state = replace(state, units=tuple(units))
    done, _ = engine.apply(state, EmbarkTerrain(0, "Post"))
    assert done.units[0].pos[2] == pytest.approx((24.0, 18.5))
    assert (0, 2) in done.engaged
    check_invariants(done)


def _split(state: GameState, inside: tuple[int, ...] = (0, 1)) -> GameState:
    units = list(state.units)
    units[0] = replace(units[0], terrain="Post", inside=inside)
    return replace(state, units=tuple(units))


def test_s10_2_L4464_outside_models_embark_when_space_becomes_available() -> None:
    state = _split(_split_game(transport=150))  # 100 inside, 50 left: one more model fits
    state = replace(state, units=tuple(replace(u, acted=False) for u in state.units))
    more, _ = engine.apply(state, EmbarkTerrain(0, "Post"))
    assert more.units[0].inside == (0, 1, 2) and more.units[0].present() == [3]
    check_invariants(more)
    full = _split(_split_game(transport=200))  # the last two fit: the whole unit is inside
    whole, _ = engine.apply(full, EmbarkTerrain(0, "Post"))
    assert whole.units[0].location is Location.TERRAIN and whole.units[0].inside == ()
    check_invariants(whole)
    with pytest.raises(RulesError, match="not one model"):
        engine.check(_split(_split_game()), EmbarkTerrain(0, "Post"))


def test_s10_2_L4460_a_split_unit_moves_its_outside_models_in_coherency_with_the_piece() -> None:
    state = _split(_split_game())
    near = ((24.0, 18.5), (25.5, 18.5))
    moved, _ = engine.apply(state, Move(0, positions=near))
    assert moved.units[0].pos[2:] == near and moved.units[0].inside == (0, 1)
    check_invariants(moved)
    with pytest.raises(RulesError, match="would not keep Coherency with it") as info:
        engine.check(state, Move(0, positions=((24.0, 14.0), (25.5, 14.0))))
    assert "L4459-4468" in info.value.rule


def test_s10_2_L4464_a_split_unit_disembarks_its_models_inside_beside_the_rest() -> None:
    state = _split(_split_game())
    assert Disembark(0) in list(engine.legal_actions(state).for_unit(0))
    out, events = engine.apply(state, Disembark(0))
    u = out.units[0]
    assert u.location is Location.TABLE and u.inside == () and u.terrain is None
    assert u.present() == [0, 1, 2, 3] and events[0].kind == "disembark"
    check_invariants(out)
    with pytest.raises(RulesError, match="break Coherency"):  # far from the two outside
        engine.check(state, Disembark(0, positions=((16.0, 24.0), (14.5, 24.0))))


def _melee_inside(fire_points: int = 0) -> GameState:
    """The Legionaries split (models 0-1 inside the Post), the Raiders inside with them: a
    Melee inside (L4450-4457); the Attack Phase, player A to act."""
    state = _split(_split_game(foe_inside=True, fire_points=fire_points))
    return replace(
        state,
        engaged=frozenset({(0, 1)}),
        flow=replace(state.flow, phase=Phase.ATTACK, active=0),
    )


def test_s10_2_L4466_only_the_models_inside_fight_the_melee_inside() -> None:
    state = _melee_inside()
    check_invariants(state)
    plan = engine._verified(state, Attack(0, (("Gun", 1),)), engine.DEFAULT_HOOKS)
    wp = plan.weapons[0]  # type: ignore[union-attr]
    assert wp.models == (0, 1) and wp.context.melee  # the two outside cannot contribute
    # the Raiders inside strike the Legionaries' models inside only
    back = replace(state, flow=replace(state.flow, active=1))
    done, _ = engine.apply(back, Attack(1, (("Gun", 0),)), dice=ScriptedDice([6] * 40))
    hp = done.units[0].hp
    assert hp[2] == hp[3] == 1 and min(hp[0], hp[1]) == 0
    # the Scouts outside strike the models outside only (occupants are not attacked, §6.9)
    scouts = replace(state, flow=replace(state.flow, active=1))
    shot, _ = engine.apply(scouts, Attack(2, (("Gun", 0),)), dice=ScriptedDice([6] * 40))
    hp = shot.units[0].hp
    assert hp[0] == hp[1] == 1 and min(hp[2], hp[3]) == 0


def test_s10_2_L4468_outside_models_join_the_melee_inside_through_a_fire_point() -> None:
    state = _melee_inside(fire_points=1)
    plan = engine._verified(state, Attack(0, (("Gun", 1),)), engine.DEFAULT_HOOKS)
    assert plan.weapons[0].models == (0, 1, 2, 3)  # type: ignore[union-attr]


def test_s10_2_L4466_casualties_leave_a_split_unit_whole_on_one_side() -> None:
    """All the models inside fall: the unit is on the table, its Melee inside over; all the
    models outside fall: it is inside the piece."""
    state = _melee_inside()
    back = replace(state, flow=replace(state.flow, active=1))
    done, _ = engine.apply(back, Attack(1, (("Gun", 0),)), dice=ScriptedDice([6] * 40))
    while done.flow.phase is Phase.ATTACK:
        done, _ = engine.apply(done, Pass())
        check_invariants(done)
    u = done.units[0]
    assert u.removed == (True, True, False, False) and u.inside == () and u.terrain is None
    assert (0, 1) not in done.engaged
    scouts = replace(state, flow=replace(state.flow, active=1))
    shot, _ = engine.apply(scouts, Attack(2, (("Gun", 0),)), dice=ScriptedDice([6] * 40))
    while shot.flow.phase is Phase.ATTACK:
        shot, _ = engine.apply(shot, Pass())
        check_invariants(shot)
    u = shot.units[0]
    assert u.location is Location.TERRAIN and u.terrain == "Post" and u.inside == ()
    assert (0, 1) in shot.engaged


def test_s10_3_a_split_unit_s_models_inside_leave_the_destroyed_piece_the_rest_stay() -> None:
    state = _split(_split_game(hp=2))
    state = replace(state, flow=replace(state.flow, phase=Phase.ATTACK, active=1))
    target = terrain_target(state, "Post")
    state, events = engine.apply(state, Attack(2, (("Gun", target),)), dice=ScriptedDice([6] * 8))
    gone = next(e for e in events if e.kind == "terrain_destroyed")
    assert gone.data["inside"] == [0]
    before = state.units[0].pos[2:]
    while state.flow.phase is Phase.ATTACK:
        state, _ = engine.apply(state, Pass())
        check_invariants(state)
    u = state.units[0]
    assert u.location is Location.TABLE and u.inside == () and u.present() == [0, 1, 2, 3]
    assert u.pos[2:] == before  # the models outside stay where they stood


def test_s10_2_a_split_unit_in_the_state_json_and_digest() -> None:
    from warbench.rulesets.warsurge.game.codecs import _unit_from_json, unit_to_json

    state = _split(_split_game())
    u = state.units[0]
    back = _unit_from_json(json.loads(json.dumps(unit_to_json(u))))
    assert back == u and back.inside == (0, 1)
    assert unit_state_fields(u)["inside"] == [0, 1]
    assert "inside" not in unit_state_fields(state.units[1])  # others' digests unchanged
    whole = replace(state, units=(replace(u, terrain=None, inside=()), *state.units[1:]))
    assert whole.digest() != state.digest()


@pytest.mark.parametrize(("playstyle", "seed"), [("standard", 4), ("advanced", 11)])
def test_s10_2_L4460_partial_fits_in_hive_city_games_of_each_playstyle(
    playstyle: str, seed: int
) -> None:
    """Players that embark terrain now and then (``EmbarkingPlayer``) on the hive city, whose
    guard posts hold 60 points: units split by them play on (moving, attacking, attacked,
    leaving), every invariant holds on every state and the record replays."""
    from warbench.rulesets.warsurge.game.record import GameRecord, replay

    from .test_terrain_games import EmbarkingPlayer, check_terrain_invariants, setup_for

    setup = setup_for("hive_city_72x48", playstyle)
    state, _ = engine.new_game(setup, seed)
    rec = GameRecord(setup, seed)
    players = [EmbarkingPlayer(seed * 7 + 1), EmbarkingPlayer(seed * 7 + 2)]
    splits = split_states = split_attacks = 0
    while not state.over:
        side = engine.acting_side(state)
        assert side is not None
        action = players[side].choose(state)
        before = state
        state, events = engine.apply(state, action)
        rec.add(action, state)
        check_invariants(state)
        check_terrain_invariants(before, state)
        splits += sum(e.kind == "embark" and "stay outside" in e.text for e in events)
        split_states += any(u.inside for u in state.units)
        for e in events:  # by a split unit (at a unit or a piece), or at one
            if e.kind == "attack" and "unit" in e.data:
                who = [e.data["unit"], *([e.data["target"]] if "target" in e.data else [])]
                split_attacks += any(before.units[x].inside for x in who)
    assert splits > 0 and split_states > 0 and split_attacks > 0
    assert replay(rec).state.digest() == state.digest()
