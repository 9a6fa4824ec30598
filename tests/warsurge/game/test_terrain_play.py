"""Terrain in the game: heights and sight from above (L2360), cover seen in height (§5.6),
climbing levels (§4.1, L1918), custom cover (§10.4), Fire Points of an engaged Transport (§6.9).
001_d3f5e425c5e1196d.txt; rulings 24-27 "WARSURGE battlefield" in docs/rulings.md."""

from __future__ import annotations

from dataclasses import replace

import pytest

from warbench.kernel.dice import SeededDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.attack import compile_weapon_use
from warbench.rulesets.warsurge.battlefield import CustomCover, Terrain
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack, Move
from warbench.rulesets.warsurge.game.attacks import verify_attack
from warbench.rulesets.warsurge.game.state import GameState, Location, Phase
from warbench.rulesets.warsurge.game.targeting import view_target
from warbench.rulesets.warsurge.game.terrain import levels_of
from warbench.rulesets.warsurge.game.work import Work, to_unit_state

from .helpers import board, entry, scenario, unit, weapon

#: a wall 2" tall between y 15 and 16; a platform 3" up around (10, 10)
WALL = Terrain(name="Wall", rect=[5, 15, 15, 16], blocks_los=True, height=2)
PLATFORM = Terrain(name="Platform", rect=[8, 8, 12, 12], level=3, height=3.5)


def _duel(shooter_at: tuple[float, float], *terrain: Terrain, **kw: object) -> GameState:
    return scenario(
        [[entry(unit("Shooter"))], [entry(unit("Target"))]],
        {0: [shooter_at], 1: [(10.0, 20.0)]},
        phase=Phase.ATTACK,
        b=board(terrain=list(terrain)),
        **kw,  # type: ignore[arg-type]
    )


def _work(state: GameState) -> Work:
    return Work(state, None, engine.DEFAULT_HOOKS)


def _use(state: GameState, action: Attack):  # type: ignore[no-untyped-def]
    """The compiled first weapon use of an Attack (its Defence, modifiers, saves and notes)."""
    w = _work(state)
    plan = verify_attack(w, action)
    wp = plan.weapons[0]
    info = w.info(action.unit)
    profile = next(p for p in info.unit.weapons if p.name == wp.weapon)
    return wp, compile_weapon_use(
        to_unit_state(w, action.unit),
        profile,
        wp.users,
        to_unit_state(w, wp.target),
        wp.context,
        SeededDice(1),
    )


# ------------------------------------------------------------------- L2360 sight from above


def test_L2360_a_model_on_a_raised_level_sees_over_lower_terrain() -> None:
    # on the ground the 2" wall hides the target; from the platform 3" up the shooter sees the
    # target "from above" (001 L2363-2366), and Targeting goes both ways (§5.4 L2411)
    with pytest.raises(RulesError, match="line of sight"):
        engine.check(_duel((10.0, 10.0), WALL), Attack(0, (("Gun", 1),)))
    up = _duel((10.0, 10.0), WALL, PLATFORM)
    assert levels_of(up.setup.field.board).z_at((10.0, 10.0)) == 3.0
    engine.check(up, Attack(0, (("Gun", 1),)))
    back = replace(up, flow=replace(up.flow, active=1, turn_master=1, order=(1, 0)))
    engine.check(back, Attack(1, (("Gun", 0),)))


def test_L2360_terrain_without_a_height_blocks_every_line_ruling_16() -> None:
    tall = Terrain(name="Tall wall", rect=[5, 15, 15, 16], blocks_los=True)
    with pytest.raises(RulesError, match="line of sight"):
        engine.check(_duel((10.0, 10.0), tall, PLATFORM), Attack(0, (("Gun", 1),)))


def test_L2360_a_wall_taller_than_the_line_still_blocks_from_above() -> None:
    high = Terrain(name="High wall", rect=[5, 15, 15, 16], blocks_los=True, height=4)
    with pytest.raises(RulesError, match="line of sight"):
        engine.check(_duel((10.0, 10.0), high, PLATFORM), Attack(0, (("Gun", 1),)))


def test_L2360_other_units_are_seen_over_from_above() -> None:
    # L2365: Unit B "could also measure though Unit A, as Unit B can see the Target from above"
    screen = [(x, 15.0) for x in (8.0, 9.0, 10.0, 11.0, 12.0)]
    sides = [[entry(unit("Shooter")), entry(unit("Unit A", models=5))], [entry(unit("Target"))]]
    ground = scenario(sides, {0: [(10.0, 10.0)], 1: screen, 2: [(10.0, 20.0)]}, phase=Phase.ATTACK)
    with pytest.raises(RulesError, match="line of sight"):
        engine.check(ground, Attack(0, (("Gun", 2),)))
    tower = scenario(
        sides,
        {0: [(10.0, 10.0)], 1: screen, 2: [(10.0, 20.0)]},
        phase=Phase.ATTACK,
        b=board(terrain=[PLATFORM]),
    )
    engine.check(tower, Attack(0, (("Gun", 2),)))


# ------------------------------------------------------------------- §5.6 cover seen in height


def test_s5_6_low_cover_does_not_obscure_a_target_seen_from_above() -> None:
    bushes = Terrain(name="Bushes", rect=[5, 17, 20, 18], cover=1, height=1)
    kapers = [(8.0, 20.0), (9.5, 20.0), (11.0, 20.0), (12.5, 20.0)]
    sides = [[entry(unit("Medusa"))], [entry(unit("Kapers", models=4))]]
    ground = scenario(
        sides, {0: [(10.0, 10.0)], 1: kapers}, phase=Phase.ATTACK, b=board(terrain=[bushes])
    )
    assert view_target(_work(ground), 0, 1).cover == 1
    above = scenario(
        sides,
        {0: [(10.0, 10.0)], 1: kapers},
        phase=Phase.ATTACK,
        b=board(terrain=[bushes, PLATFORM]),
    )
    view = view_target(_work(above), 0, 1)
    assert view.cover == 0
    assert view.visible == frozenset(range(4))


def test_s5_6_a_target_on_a_level_behind_its_own_parapet_keeps_its_cover() -> None:
    # a target on a deck 3" up behind a 4"-tall parapet is obscured from the ground
    deck = Terrain(name="Deck", rect=[4, 19, 16, 22], level=3, height=3.5)
    parapet = Terrain(name="Parapet", rect=[4, 18, 16, 19], cover=2, height=4)
    state = scenario(
        [[entry(unit("Shooter"))], [entry(unit("Target"))]],
        {0: [(10.0, 10.0)], 1: [(10.0, 20.5)]},
        phase=Phase.ATTACK,
        b=board(terrain=[deck, parapet]),
    )
    assert view_target(_work(state), 0, 1).cover == 2


# ------------------------------------------------------------------- §4.1 climbing levels


def _climber(move: int = 6, terrain: tuple[Terrain, ...] = (PLATFORM,)) -> GameState:
    return scenario(
        [[entry(unit("Climber", move=move, dash=move))], [entry(unit("Foe"))]],
        {0: [(10.0, 4.0)], 1: [(40.0, 40.0)]},
        b=board(terrain=list(terrain)),
    )


def test_s4_1_climbing_onto_a_level_uses_its_height_of_the_move() -> None:
    # 4.5" across onto the platform plus 3" up is 7.5": too far for a 6" Move, fine for 8"
    with pytest.raises(RulesError, match=r'climb 3" \(7.5" in all\) with 6" to move') as exc:
        engine.check(_climber(6), Move(0, positions=((10.0, 8.5),)))
    assert exc.value.rule.startswith("§4.1")
    engine.check(_climber(8), Move(0, positions=((10.0, 8.5),)))
    # the same 4.5" on the ground is a legal 6" Move
    engine.check(_climber(6, ()), Move(0, positions=((10.0, 8.5),)))


def test_s4_1_climbing_down_costs_the_same() -> None:
    state = scenario(
        [[entry(unit("Climber", move=6, dash=6))], [entry(unit("Foe"))]],
        {0: [(10.0, 10.0)], 1: [(40.0, 40.0)]},
        b=board(terrain=[PLATFORM]),
    )
    with pytest.raises(RulesError, match="climb"):
        engine.check(state, Move(0, positions=((10.0, 5.5),)))  # 4.5" + 3" down
    engine.check(state, Move(0, positions=((10.0, 7.0),)))  # 3" + 3"
    engine.check(state, Move(0, positions=((10.0, 11.5),)))  # on the level: no climb


def test_s4_5_difficult_ground_halves_the_allowance_a_climb_must_fit() -> None:
    rough = Terrain(name="Rough deck", rect=[8, 8, 12, 12], level=1, height=1.5, difficult=True)
    state = scenario(
        [[entry(unit("Climber", move=6, dash=6))], [entry(unit("Foe"))]],
        {0: [(10.0, 7.0)], 1: [(40.0, 40.0)]},
        b=board(terrain=[rough]),
    )
    # Move 6 through Difficult Ground is 3" (§4.5): 1" across + 1" up fits ...
    engine.check(state, Move(0, positions=((10.0, 8.0),)))
    # ... 2.5" across + 1" up does not, though 2.5" alone would
    with pytest.raises(RulesError, match=r'climb 1" \(3.5" in all\) with 3" to move'):
        engine.check(state, Move(0, positions=((10.0, 9.5),)))
    flat = Terrain(name="Rough ground", rect=[8, 8, 12, 12], difficult=True)
    engine.check(
        scenario(
            [[entry(unit("Climber", move=6, dash=6))], [entry(unit("Foe"))]],
            {0: [(10.0, 7.0)], 1: [(40.0, 40.0)]},
            b=board(terrain=[flat]),
        ),
        Move(0, positions=((10.0, 9.5),)),
    )


def test_s4_1_an_automated_move_stops_where_its_climb_fits() -> None:
    state = _climber(6)
    new, _ = engine.apply(state, Move(0, to=(10.0, 11.0)))
    x, y = new.units[0].pos[0]
    # the full 6" toward the platform would need 3" more to climb: the move is shortened
    assert (x, y) != (10.0, 10.0)
    z = levels_of(state.setup.field.board).z_at((x, y))
    assert abs(y - 4.0) + z <= 6 + 1e-6


def test_s10_5_a_roof_closed_to_the_battlefield_is_not_stood_on() -> None:
    # the hive city's roof (`embark: false`) is reached by the stair, not climbed from outside
    roof = Terrain(name="Roof", rect=[8, 8, 12, 12], level=4, height=5, embark=False)
    b = board(terrain=[roof])
    assert levels_of(b).flat


# ------------------------------------------------------------------- §10.4 custom cover


def _sandbags(**cc: object) -> Terrain:
    return Terrain(
        name="Sandbags",
        rect=[5, 17, 20, 18],
        cover=1,
        custom_cover=CustomCover(**cc),  # type: ignore[arg-type]
    )


def test_s10_4_custom_cover_improves_armour_with_the_cover_bonus() -> None:
    state = scenario(
        [[entry(unit("Shooter"))], [entry(unit("Troopers", models=2, armour="5+"))]],
        {0: [(10.0, 10.0)], 1: [(9.0, 20.0), (11.0, 20.0)]},
        phase=Phase.ATTACK,
        b=board(terrain=[_sandbags(armour=1, text="sandbags")]),
    )
    wp, use = _use(state, Attack(0, (("Gun", 1),)))
    assert wp.context.cover and wp.context.cover_armour == 1
    assert use.die.armour.needed == 4
    assert any("custom cover (§10.4)" in n for n in use.notes)


def test_s10_4_negative_custom_cover_lowers_defence() -> None:
    # L4480-4483: "hiding behind pipes with poisonous fumes that may lower Defence"
    fumes = scenario(
        [[entry(unit("Shooter"))], [entry(unit("Troopers", models=2, defence=4))]],
        {0: [(10.0, 10.0)], 1: [(9.0, 20.0), (11.0, 20.0)]},
        phase=Phase.ATTACK,
        b=board(terrain=[_sandbags(defence=-2, text="poisonous fumes")]),
    )
    wp, use = _use(fumes, Attack(0, (("Gun", 1),)))
    assert wp.context.cover_bonus == -1  # +1 Cover Bonus, -2 from the fumes
    assert any("Defence 4 → 3" in n for n in use.notes)


def test_s10_4_no_custom_cover_without_the_cover_bonus() -> None:
    state = scenario(
        [[entry(unit("Shooter"))], [entry(unit("Troopers", models=2, armour="5+"))]],
        {0: [(10.0, 10.0)], 1: [(9.0, 14.0), (11.0, 14.0)]},  # in front of the sandbags
        phase=Phase.ATTACK,
        b=board(terrain=[_sandbags(armour=1)]),
    )
    wp, use = _use(state, Attack(0, (("Gun", 1),)))
    assert not wp.context.cover and wp.context.cover_armour == 0
    assert use.die.armour.needed == 5


# ------------------------------------------------------------------- §6.9 engaged Transport


def _engaged_transport(target: int) -> tuple[object, object]:
    rhino = unit("Ursus APC", move=10, dash=10, hp=6, transport=300, fire_points=1)
    crew = unit("Troopers", models=2, weapons=[weapon("Cannon", type="Heavy", range=24)])
    sides = [
        [entry(rhino, 100, base_mm=76.2), entry(crew, 100)],
        [entry(unit("Chimaera", weapons=[weapon("Claws", range=0)])), entry(unit("Sniper"))],
    ]
    state = scenario(
        sides,
        {0: [(10.0, 10.0)], 2: [(10.0, 12.05)], 3: [(20.0, 10.0)]},
        phase=Phase.ATTACK,
        engaged=[(0, 2)],
    )
    units = list(state.units)
    units[1] = replace(units[1], location=Location.EMBARKED, embarked_in=0)
    state = replace(state, units=tuple(units))
    return _use(state, Attack(1, (("Cannon", target),)))


def test_s6_9_passengers_of_an_engaged_transport_have_no_weapon_type_modifiers() -> None:
    # L3499-3501: "embarked Units do not suffer the negative Dice Modifiers for using Battle
    # and Heavy Weapons while engaged"
    wp, use = _engaged_transport(2)
    assert wp.context.melee and wp.context.through_fire_points
    assert not any("Heavy Weapon in a Melee" in n for n in use.notes)
    assert any("(§6.9)" in n for n in use.notes)


def test_s6_9_targeting_out_of_the_transports_melee_still_has_its_modifier() -> None:
    # L3501-3503: "Modifiers for Targeting Units in a different Melee ... still apply"
    wp, use = _engaged_transport(3)
    assert not wp.context.melee and wp.context.through_fire_points
    assert any("out of a Melee" in n for n in use.notes)
    assert not any("Heavy Weapon in a Melee" in n for n in use.notes)


# ------------------------------------------------------------------- §4.2 III vertical Coherency


def _pair_by_a_deck(level: float) -> GameState:
    deck = Terrain(name="Deck", rect=[8, 8, 14, 14], level=level, height=level + 0.5)
    return scenario(
        [[entry(unit("Pair", models=2, move=12, dash=12))], [entry(unit("Foe"))]],
        {0: [(10.0, 6.0), (11.5, 6.0)], 1: [(40.0, 40.0)]},
        b=board(terrain=[deck]),
    )


def test_s4_2_iii_vertical_coherency_is_6_inches_in_a_move() -> None:
    # L1918-1919: one model climbs onto a deck right above the other: 6" up is in Coherency,
    # 7" up is not
    move = Move(0, positions=((10.0, 6.0), (11.5, 8.2)))
    engine.check(_pair_by_a_deck(6), move)
    with pytest.raises(RulesError, match="apart vertically") as exc:
        engine.check(_pair_by_a_deck(7), move)
    assert exc.value.rule == "§4.2 III"
    # both up together is fine
    engine.check(_pair_by_a_deck(7), Move(0, positions=((10.0, 8.5), (11.5, 8.5))))


# ------------------------------------------------------------------- §10.2 control, Objectives


def _hive(positions: dict[int, list[tuple[float, float]]]) -> GameState:
    from warbench.rulesets.warsurge.battlefield import sample_board

    return scenario(
        [[entry(unit("Troopers"))], [entry(unit("Raiders"))]],
        positions,
        b=sample_board("hive_city_72x48"),
    )


def test_s10_2_terrain_with_a_profile_is_controlled_within_coherency_and_contested() -> None:
    # L4404-4407: "under control by any player that has a Unit either within Coherency ...
    # If there are multiple Units vying for control of the terrain, then it will be treated as
    # contested"; the command bunker spans x 46-54, y 28-34
    from warbench.rulesets.warsurge.game.terrain_control import control

    one = {h.name: h for h in control(_hive({0: [(50.0, 36.0)], 1: [(10.0, 44.0)]}))}
    assert one["Command bunker"].controller == 0 and not one["Command bunker"].contested
    assert one["Comms relay"].sides == frozenset()
    both = {h.name: h for h in control(_hive({0: [(50.0, 36.0)], 1: [(50.0, 26.0)]}))}
    assert both["Command bunker"].contested and both["Command bunker"].controller is None
    # 2.6" from the bunker's edge is out of Coherency: nobody holds it
    far = {h.name: h for h in control(_hive({0: [(50.0, 37.1)], 1: [(10.0, 44.0)]}))}
    assert far["Command bunker"].sides == frozenset()


def test_P_L95_objective_markers_and_terrain_objectives_are_held() -> None:
    from warbench.rulesets.warsurge.game.terrain_control import control

    held = {h.name: h for h in control(_hive({0: [(40.0, 22.5)], 1: [(61.5, 22.0)]}))}
    assert held["Data cache"].controller == 0  # the marker at (40, 24)
    assert held["Relay"].controller == 1  # the Comms relay's Objective, held as the terrain
    assert held["Supply crate"].sides == frozenset()
    # a unit that may not hold Objectives (Stealth active, P L1775) is left out
    held2 = {
        h.name: h for h in control(_hive({0: [(40.0, 22.5)], 1: [(61.5, 22.0)]}), lambda u: u != 0)
    }
    assert held2["Data cache"].sides == frozenset()
