"""§5.3-5.6 targeting, range, line of sight, cover; §5.9 melee; §5.14 ending a Melee;
§6 transports and fire points (001_d3f5e425c5e1196d.txt)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from warbench.kernel.dice import ScriptedDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.battlefield import Terrain
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack, Deploy, Disembark, Embark, Move, Pass
from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry, HookSpecError
from warbench.rulesets.warsurge.game.state import Location, Phase, Status

from .helpers import board, entry, line, scenario, unit, weapon


def test_s5_3_weapons_out_of_range_cannot_be_used() -> None:
    state = scenario(
        [[entry(unit("Troopers", weapons=[weapon("Rifle", range=12)]))], [entry(unit("Foe"))]],
        {0: [(10.0, 10.0)], 1: [(10.0, 30.0)]},
        phase=Phase.ATTACK,
    )
    with pytest.raises(RulesError, match="no model with it has the target in range") as exc:
        engine.check(state, Attack(0, (("Rifle", 1),)))
    assert exc.value.rule == "§5.3-5.4"
    near = scenario(
        [[entry(unit("Troopers", weapons=[weapon("Rifle", range=12)]))], [entry(unit("Foe"))]],
        {0: [(10.0, 10.0)], 1: [(10.0, 20.0)]},
        phase=Phase.ATTACK,
    )
    with pytest.raises(RulesError, match="aimed at P1: Foe twice"):
        engine.check(near, Attack(0, (("Rifle", 1), ("Rifle", 1))))


def _snipers():  # type: ignore[no-untyped-def]
    # §5.3 example (001 L2311-2319): five Sniper Troopers, Target A and Target B
    rifle = weapon("Sniper Rifle", range=36, attacks=1, power=4)
    return scenario(
        [
            [entry(unit("Sniper Troopers", models=5, weapons=[rifle, weapon("Grenade")]))],
            [entry(unit("Target A", hp=5)), entry(unit("Target B", hp=5))],
        ],
        {0: line(10.0, 10.0, 5), 1: [(8.0, 25.0)], 2: [(18.0, 25.0)]},
        phase=Phase.ATTACK,
    )


def test_s5_3_split_fire_three_sniper_rifles_at_a_and_two_at_b() -> None:
    state = _snipers()
    action = Attack(0, (("Sniper Rifle", 1, (0, 1, 2)), ("Sniper Rifle", 2, (3, 4))))
    new, events = engine.apply(state, action, dice=ScriptedDice([6, 6, 6, 6, 6]))
    attacks = [e for e in events if e.kind == "attack"]
    assert [(e.data["target"], e.data["hp_lost"]) for e in attacks] == [(1, 3), (2, 2)]
    assert "(3 models" in attacks[0].text and "(2 models" in attacks[1].text
    assert new.units[1].hp == (2,) and new.units[2].hp == (3,)
    # the record format keeps the models; plain shares stay [weapon, target]
    from warbench.rulesets.warsurge.game.actions import action_from_dict, action_to_dict

    data = action_to_dict(action)
    assert data["targets"] == [["Sniper Rifle", 1, [0, 1, 2]], ["Sniper Rifle", 2, [3, 4]]]
    assert action_from_dict(data) == action
    plain = {"kind": "attack", "unit": 0, "targets": [["Sniper Rifle", 1]]}
    assert action_from_dict(plain) == Attack(0, (("Sniper Rifle", 1),))


def test_s5_3_split_fire_refusals_name_the_model_and_the_rule() -> None:
    state = _snipers()
    cases = [
        # a split weapon names the models of each share
        (Attack(0, (("Sniper Rifle", 1), ("Sniper Rifle", 2, (3, 4)))), "name the models"),
        # one model's Attacks with a weapon go at one unit
        (
            Attack(0, (("Sniper Rifle", 1, (0, 1, 2)), ("Sniper Rifle", 2, (2, 3)))),
            "model 3 of P0: Sniper Troopers aims its Sniper Rifle at two units",
        ),
        (Attack(0, (("Sniper Rifle", 1, (0, 7)),)), "model 8 of .* does not carry"),
        (Attack(0, (("Sniper Rifle", 1, ()),)), "name at least one model"),
    ]
    for action, reason in cases:
        with pytest.raises(RulesError, match=reason) as exc:
            engine.check(state, action)
        assert exc.value.rule == "§5.3"
    # a model that cannot see or reach its share's target is named
    far = _snipers()
    far = replace(
        far, units=(far.units[0], far.units[1], replace(far.units[2], pos=((46.0, 47.0),)))
    )
    with pytest.raises(
        RulesError, match=r"model 4 of .* cannot use Sniper Rifle against P1: Target B"
    ):
        engine.check(far, Attack(0, (("Sniper Rifle", 1, (0, 1, 2)), ("Sniper Rifle", 2, (3, 4)))))


def test_s5_3_only_models_in_range_contribute_attack_dice() -> None:
    # Like model 1 of the Dead Dogs (§5.4 example), models out of range cannot attack
    state = scenario(
        [
            [entry(unit("Dead Dogs", models=4, weapons=[weapon("Rifle", range=12)]))],
            [entry(unit("F"))],
        ],
        {0: [(10.0, 10.0), (10.0, 8.5), (10.0, 7.0), (10.0, 5.5)], 1: [(10.0, 21.0)]},
        phase=Phase.ATTACK,
    )
    _, events = engine.apply(state, Attack(0, (("Rifle", 1),)), dice=ScriptedDice([1, 1]))
    assert "(2 models" in events[0].text


def test_s5_4_line_of_sight_blocked_by_terrain_and_other_units() -> None:
    wall = Terrain(name="Wall", polygon=[(5, 15), (15, 15), (15, 16), (5, 16)], blocks_los=True)
    state = scenario(
        [[entry(unit("Shooter"))], [entry(unit("Target"))]],
        {0: [(10.0, 10.0)], 1: [(10.0, 20.0)]},
        phase=Phase.ATTACK,
        b=board(terrain=[wall]),
    )
    with pytest.raises(RulesError, match="line of sight"):
        engine.check(state, Attack(0, (("Gun", 1),)))
    # another unit's bases block as well; the shooter's own unit never does
    screen = [(x, 15.0) for x in (8.0, 9.0, 10.0, 11.0, 12.0)]
    state2 = scenario(
        [[entry(unit("Shooter")), entry(unit("Screen", models=5))], [entry(unit("Target"))]],
        {0: [(10.0, 10.0)], 1: screen, 2: [(10.0, 20.0)]},
        phase=Phase.ATTACK,
    )
    with pytest.raises(RulesError, match="line of sight"):
        engine.check(state2, Attack(0, (("Gun", 2),)))


def test_s5_5_partial_line_of_sight_only_visible_models_can_be_casualties() -> None:
    # An APC hides Troopers 3 and 4: excess Attack Dice are discarded (§5.5, §5.13)
    apc = Terrain(
        name="Ursus APC", polygon=[(13, 14), (20, 14), (20, 17), (13, 17)], blocks_los=True
    )
    state = scenario(
        [
            [entry(unit("Cultists", weapons=[weapon("Claw", attacks=4, power=10)]))],
            [entry(unit("Troopers", models=4, defence=0))],
        ],
        {0: [(10.0, 10.0)], 1: [(9.0, 20.0), (10.5, 20.0), (16.5, 20.0), (18.0, 20.0)]},
        phase=Phase.ATTACK,
        b=board(terrain=[apc]),
    )
    new, events = engine.apply(state, Attack(0, (("Claw", 1),)))
    assert "2 HP lost, 2 casualties" in events[0].text
    assert new.units[1].hp == (0, 0, 1, 1)


def test_s5_6_cover_bonus_when_half_the_models_are_obscured() -> None:
    bushes = Terrain(name="Bushes", polygon=[(5, 17), (20, 17), (20, 18), (5, 18)], cover=1)
    state = scenario(
        [[entry(unit("Medusa"))], [entry(unit("Kapers", models=4))]],
        {0: [(10.0, 10.0)], 1: [(8.0, 20.0), (9.5, 20.0), (11.0, 20.0), (12.5, 20.0)]},
        phase=Phase.ATTACK,
        b=board(terrain=[bushes]),
    )
    _, events = engine.apply(state, Attack(0, (("Gun", 1),)), dice=ScriptedDice([1]))
    assert "Cover +1" in events[0].text


def test_s5_9_melee_ignores_range_line_of_sight_and_cover() -> None:
    # the Hoplite at the back strikes with a 0" weapon (§5.9 example)
    sword = weapon("Spear", range=0, attacks=1, power=4)
    state = scenario(
        [[entry(unit("Hoplites", models=3, weapons=[sword]))], [entry(unit("Warriors", models=2))]],
        {0: [(10.0, 10.0), (10.0, 8.5), (10.0, 7.0)], 1: [(10.0, 11.0), (11.5, 11.5)]},
        phase=Phase.ATTACK,
        engaged=[(0, 1)],
    )
    _, events = engine.apply(state, Attack(0, (("Spear", 1),)), dice=ScriptedDice([1, 1, 1]))
    assert "(3 models, in a Melee)" in events[0].text


def test_s5_14_melee_ends_when_no_opposing_units_are_left() -> None:
    axe = weapon("Axe", range=0, attacks=2, power=10)
    state = scenario(
        [[entry(unit("Warlord", weapons=[axe]))], [entry(unit("Biker"))]],
        {0: [(10.0, 10.0)], 1: [(10.0, 11.0)]},
        phase=Phase.ATTACK,
        engaged=[(0, 1)],
    )
    state, _ = engine.apply(state, Attack(0, (("Axe", 1),)), dice=ScriptedDice([6, 6]))
    assert (0, 1) in state.engaged  # the casualty still counts until removed (§5.15)
    state, _ = engine.apply(state, Pass())
    assert not state.engaged and state.units[1].location is Location.DESTROYED


def _transport_game(**kw):  # type: ignore[no-untyped-def]
    apc = unit(
        "Ursus APC",
        move=10,
        dash=10,
        hp=8,
        transport=150,
        fire_points=1,
        weapons=[weapon("Stubber")],
    )
    troopers = unit("Troopers", models=3, weapons=[weapon("Rifle", type="Heavy")])
    return [[entry(apc, 180, base_mm=76.2), entry(troopers, 120)], [entry(unit("Foe"))]]


def test_s6_1_transports_deploy_with_passengers() -> None:
    from .helpers import setup_of

    setup = setup_of(_transport_game())
    state, _ = engine.new_game(setup, 1, dice=ScriptedDice([6, 1]))
    state, events = engine.apply(state, Deploy(0, at=(10, 6), passengers=(1,)))
    assert state.units[1].location is Location.EMBARKED and state.units[1].embarked_in == 0
    assert "carrying P0: Troopers" in events[0].text


def test_s6_2_embark_by_movement_and_s6_4_capacity() -> None:
    state = scenario(_transport_game(), {0: [(10.0, 10.0)], 1: line(14, 10, 3), 2: [(40.0, 40.0)]})
    new, _ = engine.apply(state, Embark(1, 0))
    assert new.units[1].location is Location.EMBARKED
    big = _transport_game()
    big[0][1] = entry(unit("Troopers", models=3), 200)
    state = scenario(big, {0: [(10.0, 10.0)], 1: line(14, 10, 3), 2: [(40.0, 40.0)]})
    with pytest.raises(RulesError, match="can carry 150 points") as exc:
        engine.check(state, Embark(1, 0))
    assert exc.value.rule == "§6.4"


def test_s6_3_disembark_within_move_of_the_transport() -> None:
    state = scenario(_transport_game(), {0: [(10.0, 10.0)], 2: [(40.0, 40.0)]})
    units = list(state.units)
    units[1] = replace(units[1], location=Location.EMBARKED, embarked_in=0)
    state = replace(state, units=tuple(units))
    with pytest.raises(RulesError, match='within 6" of P0: Ursus APC'):
        engine.check(state, Disembark(1, positions=((20.0, 10.0), (21.5, 10.0), (23.0, 10.0))))
    new, _ = engine.apply(state, Disembark(1, to=(20.0, 10.0)))
    assert new.units[1].location is Location.TABLE
    # §6.8 Example 1: a Unit that moved (here: disembarked) cannot use Heavy weapons
    assert all(new.units[1].moved)


def test_s6_6_destroyed_transport_passengers_placed_where_it_stood() -> None:
    gun = weapon("Lascannon", range=24, attacks=8, power=10)
    sides = _transport_game()
    sides[1] = [entry(unit("Hunter", weapons=[gun]))]
    state = scenario(sides, {0: [(10.0, 10.0)], 2: [(10.0, 25.0)]}, phase=Phase.ATTACK, active=1)
    units = list(state.units)
    units[1] = replace(units[1], location=Location.EMBARKED, embarked_in=0)
    state = replace(state, units=tuple(units))
    state, _ = engine.apply(state, Attack(2, (("Lascannon", 0),)), dice=ScriptedDice([6] * 8))
    assert state.units[0].hp == (0,)
    state, _ = engine.apply(state, Pass())
    state, _events = (
        engine.apply(state, Pass()) if not state.over and state.flow.active == 1 else (state, [])
    )
    assert state.units[0].location is Location.DESTROYED
    assert state.units[1].location is Location.TABLE
    assert all(abs(x - 10.0) < 3 and abs(y - 10.0) < 3 for x, y in state.units[1].pos)


def test_s6_7_fire_points_and_s6_8_heavy_weapons_after_the_transport_moved() -> None:
    sides = _transport_game()
    sides[0][1] = entry(
        unit("Troopers", models=3, weapons=[weapon("Rifle"), weapon("Mortar", type="Heavy")]), 120
    )
    state = scenario(sides, {0: [(10.0, 10.0)], 2: [(10.0, 25.0)]}, phase=Phase.ATTACK)
    units = list(state.units)
    units[1] = replace(units[1], location=Location.EMBARKED, embarked_in=0)
    state = replace(state, units=tuple(units))
    _, events = engine.apply(
        state, Attack(1, (("Rifle", 2), ("Mortar", 2))), dice=ScriptedDice([1] * 6)
    )
    assert "with Rifle (3 models" in events[0].text
    moved = replace(state, units=(replace(state.units[0], unit_moved=True), *state.units[1:]))
    with pytest.raises(RulesError, match="Heavy"):
        engine.check(moved, Attack(1, (("Mortar", 2),)))
    engine.check(moved, Attack(1, (("Rifle", 2),)))


def test_s6_5_passenger_of_a_passenger_cannot_fire_from_the_outer_transport() -> None:
    # 001 L3394: "The 'passenger of a passenger' can't use Fire Points to attack from the
    # outer Transport", even when both Transports have Fire Points (docs/rulings.md).
    hangar = unit("Hangar", move=0, dash=0, hp=10, transport=400, fire_points=1)
    car = unit("Hunter Car", move=10, dash=10, hp=4, transport=150, fire_points=1)
    crew = unit("Arsonists", models=2, weapons=[weapon("Flamer", range=12)])
    sides = [
        [entry(hangar, 100, base_mm=101.6), entry(car, 100), entry(crew, 100)],
        [entry(unit("Foe"))],
    ]
    state = scenario(sides, {0: [(10.0, 10.0)], 3: [(10.0, 18.0)]}, phase=Phase.ATTACK)
    units = list(state.units)
    units[1] = replace(units[1], location=Location.EMBARKED, embarked_in=0)
    units[2] = replace(units[2], location=Location.EMBARKED, embarked_in=1)
    state = replace(state, units=tuple(units))
    with pytest.raises(RulesError, match="passenger of a passenger") as exc:
        engine.check(state, Attack(2, (("Flamer", 3),)))
    assert exc.value.rule == "§6.5"
    assert 2 not in engine.legal_actions(state).units()
    # the inner Transport itself is the outer one's passenger and fires through its Fire Points
    engine.check(state, Attack(1, (("Gun", 3),)))


def test_s6_9_engaged_transport_with_fire_points_exposes_its_passengers() -> None:
    sides = _transport_game()
    sides[1] = [entry(unit("Chimaera", weapons=[weapon("Claws", range=0)]))]
    state = scenario(sides, {0: [(10.0, 10.0)], 2: [(10.0, 12.0)]}, phase=Phase.ATTACK, active=1)
    units = list(state.units)
    units[1] = replace(units[1], location=Location.EMBARKED, embarked_in=0)
    state = replace(state, units=tuple(units))
    with pytest.raises(RulesError, match="inside a Transport"):
        engine.check(state, Attack(2, (("Claws", 1),)))
    engaged = replace(state, engaged=frozenset({(0, 2)}))
    engine.check(engaged, Attack(2, (("Claws", 1),)))


def test_hooks_are_checked_at_registration_and_statuses_expire() -> None:
    reg = HookRegistry()

    def wrong(work, unit):  # type: ignore[no-untyped-def]
        return None

    with pytest.raises(HookSpecError, match="spec is"):
        reg.register(Hook.AFTER_MOVE, wrong)
    seen: list[int] = []

    def after_move(work, unit, dash, distance):  # type: ignore[no-untyped-def]
        seen.append(unit)

    reg.register(Hook.AFTER_MOVE, after_move)
    from warbench.rulesets.warsurge.game.hooks import tick_statuses

    reg.register(Hook.TURN_END, tick_statuses)
    state = scenario([[entry(unit("A"))], [entry(unit("B"))]], {0: [(5, 5)], 1: [(5, 40)]})
    state = replace(
        state, units=(replace(state.units[0], statuses=(Status("Slowed", 1),)), state.units[1])
    )
    state, _ = engine.apply(state, Move(0, to=(5, 8)), hooks=reg)
    assert seen == [0]
    state, _ = engine.apply(state, Move(1, to=(5, 37)), hooks=reg)
    while state.flow.turn == 2:
        state, _ = engine.apply(state, Pass(), hooks=reg)
    assert state.flow.turn == 3
    assert state.units[0].statuses == ()
