"""Movement Unit Perks played by the Game Turn (Perks 000_94ecc6a4c74d351b.txt §12.4 Movement,
L2076-L2180; ``game/perk_movement.py``). Each test applies actions through the game engine and
checks the same situation without the perk. Test names carry the rank's source line
(``p2138``), which ``warbench perks --coverage`` reads."""

from __future__ import annotations

import pytest

from tests.warsurge.game.helpers import board, check_invariants, entry, scenario, unit, weapon
from warbench.kernel.dice import ScriptedDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.battlefield import DangerousSpec, Terrain
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack, Move, Pass
from warbench.rulesets.warsurge.game.events import Event
from warbench.rulesets.warsurge.game.state import GameState, Phase

USER, FOE = 0, 1


def _state(perks: list[str], move: int = 12) -> GameState:
    """The User (side 0, two models at (10, 10) and (11.5, 10), Move ``move``) and a Foe far
    away (side 1), in the Attack Phase of Game Turn 2."""
    me = entry(unit("User", models=2, perks=perks, move=move, dash=6, hp=2))
    them = entry(unit("Foe"))
    return scenario(
        [[me], [them]], {USER: [(10.0, 10.0), (11.5, 10.0)], FOE: [(40.0, 44.0)]},
        phase=Phase.ATTACK, turn=2,
    )  # fmt: skip


def _to_turn(state: GameState, turn: int, events: list[Event]) -> GameState:
    while state.flow.turn < turn and not state.over:
        state, ev = engine.apply(state, Pass())
        events.extend(ev)
        check_invariants(state)
    return state


def _until_move(state: GameState, events: list[Event]) -> GameState:
    while not (state.flow.phase is Phase.MOVE and state.flow.active == 0):
        state, ev = engine.apply(state, Pass())
        events.extend(ev)
    return state


@pytest.mark.parametrize(
    ("rank", "need"),
    [
        pytest.param("Nonstop I", 12.0, id="p2138-Nonstop I"),
        pytest.param("Nonstop II", 18.0, id="p2148-Nonstop II"),
        pytest.param("Nonstop III", 24.0, id="p2154-Nonstop III"),
    ],
)
def test_p2138_nonstop_models_that_end_the_turn_short_of_the_distance_are_casualties(
    rank: str, need: float
) -> None:
    events: list[Event] = []
    # Game Turn 3 starts with the User on the Battlefield: it must end 12"/18"/24" away
    state = _to_turn(_state([rank], move=int(need)), 3, events)
    state = _until_move(state, events)
    # it moves the full distance straight up: it survives the end of Game Turn 3
    moved, _ = engine.apply(state, Move(USER, to=(10.0, 10.0 + need)))
    after: list[Event] = []
    moved = _to_turn(moved, 4, after)
    assert moved.units[USER].living() == [0, 1]
    assert not any(rank in e.text for e in after)
    # it moves one inch less: both models are casualties
    short, _ = engine.apply(state, Move(USER, to=(10.0, 9.0 + need)))
    after = []
    short = _to_turn(short, 4, after)
    assert short.units[USER].living() == []
    assert any(f"{rank}, 2 models less than" in e.text for e in after)
    # standing still without the perk: nothing happens
    plain = _to_turn(_state([], move=int(need)), 4, [])
    assert plain.units[USER].living() == [0, 1]


def test_p2138_nonstop_leaves_a_unit_alone_in_the_game_turn_it_arrives() -> None:
    # no place to have begun from in Game Turn 2 (the scenario puts it there mid-turn)
    state = _to_turn(_state(["Nonstop I"]), 3, [])
    assert state.units[USER].living() == [0, 1]


# -- Traverse (L2164, L2166): the ground's cost ---------------------------------------------------


def _ground(perks: list[str], terrain: Terrain) -> GameState:
    me = entry(unit("Rangers", models=2, perks=perks, move=9, armour=4))
    them = entry(unit("Foe"))
    return scenario(
        [[me], [them]], {USER: [(10.0, 10.0), (11.5, 10.0)], FOE: [(40.0, 44.0)]},
        phase=Phase.MOVE, turn=2, b=board(terrain=[terrain]),
    )  # fmt: skip


WIRE = Terrain(name="Wire", polygon=[(12, 5), (16, 5), (16, 15), (12, 15)], difficult=True)
PIT = Terrain(name="Pit", polygon=[(5, 12), (30, 12), (30, 14), (5, 14)], dangerous=DangerousSpec())


@pytest.mark.parametrize(
    "rank",
    [
        pytest.param("Traverse I", id="p2164-Traverse I"),
        pytest.param("Traverse II", id="p2166-Traverse II"),
    ],
)
def test_p2164_traverse_ignores_difficult_ground(rank: str) -> None:
    across = Move(USER, positions=((17.0, 10.0), (18.5, 10.0)))  # 7" through the wire
    with pytest.raises(RulesError, match="halved by Difficult Ground"):
        engine.check(_ground([], WIRE), across)
    new, _ = engine.apply(_ground([rank], WIRE), across)
    assert new.units[USER].pos == ((17.0, 10.0), (18.5, 10.0))


def test_p2166_traverse_ii_ignores_dangerous_ground() -> None:
    through = Move(USER, positions=((10.0, 16.0), (11.5, 16.0)))
    # without it: a D6 per model (a 1, then a failed Armour Save 3; a 2): one casualty
    new, events = engine.apply(_ground([], PIT), through, dice=ScriptedDice([1, 3, 2]))
    assert any(e.kind == "danger" for e in events) and new.units[USER].removed == (True, False)
    # Traverse I does not help; Traverse II rolls nothing
    _, events = engine.apply(_ground(["Traverse I"], PIT), through, dice=ScriptedDice([1, 3, 2]))
    assert any(e.kind == "danger" for e in events)
    new, events = engine.apply(_ground(["Traverse II"], PIT), through, dice=ScriptedDice([]))
    assert not any(e.kind == "danger" for e in events)
    assert new.units[USER].removed == (False, False)


# -- Implacable (L2102, L2110): Heavy Weapons after a Move -----------------------------------------


def _heavy(perks: list[str]) -> GameState:
    """The Gunner (a Heavy Cannon: Power 4, 3 Attacks, 24") moves 3" in the Move Phase; the Foe
    (Defence 4, 5 HP) is 10" away."""
    cannon = weapon("Cannon", type="Heavy", attacks=3)
    me = entry(unit("Gunner", perks=perks, weapons=[cannon]))
    them = entry(unit("Foe", hp=5))
    state = scenario(
        [[me], [them]], {USER: [(10.0, 10.0)], FOE: [(10.0, 24.0)]}, phase=Phase.MOVE, turn=2
    )
    state, _ = engine.apply(state, Move(USER, to=(10.0, 13.0)))
    while not (state.flow.phase is Phase.ATTACK and state.flow.active == 0):
        state, _ = engine.apply(state, Pass())
    return state


def _fire(state: GameState, faces: list[int]) -> int:
    new, events = engine.apply(state, Attack(USER, (("Cannon", FOE),)), dice=ScriptedDice(faces))
    check_invariants(new)
    e = next(e for e in events if e.kind == "attack")
    return int(e.text.split(" successes")[0].rsplit(" ", 1)[1])


@pytest.mark.parametrize(
    ("rank", "modifier"),
    [
        pytest.param("Implacable I", 2, id="p2102-Implacable I"),
        pytest.param("Implacable II", 1, id="p2110-Implacable II"),
    ],
)
def test_p2102_implacable_fires_heavy_weapons_after_a_move_with_a_dice_modifier(
    rank: str, modifier: int
) -> None:
    with pytest.raises(RulesError, match="Heavy"):
        engine.check(_heavy([]), Attack(USER, (("Cannon", FOE),)))
    state = _heavy([rank])
    # three Attack Dice: the needed roll is moved by the modifier, so faces one apart differ
    hits = [_fire(state, [f, f, f, *[1] * 20]) for f in range(1, 7)]
    assert hits[5] == 3 and hits[0] == 0
    # the weakest face that hits is higher than a stationary Gunner's
    first = next(f for f in range(1, 7) if hits[f - 1])
    still = scenario(
        [[entry(unit("Gunner", weapons=[weapon("Cannon", type="Heavy", attacks=3)]))],
         [entry(unit("Foe", hp=5))]],
        {USER: [(10.0, 13.0)], FOE: [(10.0, 24.0)]}, phase=Phase.ATTACK, turn=2,
    )  # fmt: skip
    base = [_fire(still, [f, f, f, *[1] * 20]) for f in range(1, 7)]
    first_still = next(f for f in range(1, 7) if base[f - 1])
    assert first == min(6, first_still + modifier)


# -- Charge (L2086, L2096): a relocation into a Melee after a Move ------------------------------


def _charger(perks: list[str], foe_y: float) -> GameState:
    me = entry(unit("Raiders", perks=perks))
    them = entry(unit("Foe", hp=5))
    return scenario(
        [[me], [them]], {USER: [(10.0, 10.0)], FOE: [(10.0, foe_y)]}, phase=Phase.MOVE, turn=2
    )


@pytest.mark.parametrize(
    ("rank", "foe_y", "faces", "short"),
    [
        # the Foe 5" away after a 1" Move (edge to edge 4"): a D6 of 5 reaches it, a 2 does not
        pytest.param("Charge I", 16.0, [5], [2], id="p2086-Charge I"),
        # Charge II reaches 12": the Foe 10" away after the Move, 2D6 (5 + 6) reach it
        pytest.param("Charge II", 22.0, [5, 6], [1, 2], id="p2096-Charge II"),
    ],
)
def test_p2086_charge_relocates_into_a_melee_after_a_move(
    rank: str, foe_y: float, faces: list[int], short: list[int]
) -> None:
    move = Move(USER, to=(10.0, 11.0))
    new, events = engine.apply(_charger([rank], foe_y), move, dice=ScriptedDice(faces))
    check_invariants(new)
    assert (USER, FOE) in new.engaged
    assert any(f"{rank}" in e.text and "charges" in e.text for e in events)
    # a short roll: it stays where its Move ended
    new, events = engine.apply(_charger([rank], foe_y), move, dice=ScriptedDice(short))
    assert (USER, FOE) not in new.engaged and new.units[USER].pos == ((10.0, 11.0),)
    assert any("no enemy in reach" in e.text for e in events)
    # without the rank: no roll, no Melee
    new, _ = engine.apply(_charger([], foe_y), move, dice=ScriptedDice([]))
    assert (USER, FOE) not in new.engaged


def test_p2086_charge_rolls_nothing_with_no_enemy_within_its_radius() -> None:
    _, events = engine.apply(
        _charger(["Charge I"], 30.0), Move(USER, to=(10.0, 11.0)), dice=ScriptedDice([])
    )
    assert not any("Charge" in e.text for e in events)


# -- Thrust (L2168): +1 AEGIS for each 12" in a straight line ------------------------------------


def _thruster(perks: list[str]) -> GameState:
    me = entry(unit("Jets", perks=perks, move=24, aegis=6))
    them = entry(unit("Foe"))
    return scenario(
        [[me], [them]], {USER: [(10.0, 4.0)], FOE: [(40.0, 44.0)]}, phase=Phase.MOVE, turn=2
    )


def _aegis(state: GameState) -> int | None:
    from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
    from warbench.rulesets.warsurge.game.work import Work, to_unit_state

    return to_unit_state(Work(state, None, DEFAULT_HOOKS), USER).profile.aegis


def test_p2168_thrust_gains_aegis_for_each_12_in_a_straight_line() -> None:
    new, _ = engine.apply(_thruster(["Thrust"]), Move(USER, to=(10.0, 28.0)))  # 24"
    assert _aegis(new) == 4  # 6+ improved twice
    short, _ = engine.apply(_thruster(["Thrust"]), Move(USER, to=(10.0, 15.0)))  # 11"
    assert _aegis(short) == 6
    plain, _ = engine.apply(_thruster([]), Move(USER, to=(10.0, 28.0)))
    assert _aegis(plain) == 6
    # it keeps the bonus at the end of a Game Turn it moved in, and loses it at the end of one
    # it did not move in
    events: list[Event] = []
    kept = _to_turn(new, 3, events)
    assert _aegis(kept) == 4 and not any("Thrust resets" in e.text for e in events)
    gone = _to_turn(kept, 4, events)
    assert _aegis(gone) == 6 and any("Thrust resets" in e.text for e in events)


# -- Airborne (L2076) and Jumper (L2126): over terrain and units -----------------------------------

ROCK = Terrain(name="Rock", polygon=[(12, 5), (14, 5), (14, 15), (12, 15)], impassable=True)
MIRE = Terrain(name="Mire", polygon=[(12, 25), (16, 25), (16, 35), (12, 35)], difficult=True)
MINES = Terrain(
    name="Mines", polygon=[(5, 40), (30, 40), (30, 42), (5, 42)], dangerous=DangerousSpec()
)


def _flyer(perks: list[str], at: tuple[float, float]) -> GameState:
    me = entry(unit("Flyer", perks=perks, move=9, armour=4))
    block = entry(unit("Wall of Shields"))
    them = entry(unit("Foe"))
    return scenario(
        [[me, block], [them]], {USER: [at], 1: [(13.5, 20.0)], 2: [(44.0, 4.0)]},
        phase=Phase.MOVE, turn=2, b=board(terrain=[ROCK, MIRE, MINES]),
    )  # fmt: skip


def _can(perks: list[str], at: tuple[float, float], to: tuple[float, float]) -> bool:
    try:
        engine.check(_flyer(perks, at), Move(USER, positions=(to,)))
    except RulesError:
        return False
    return True


@pytest.mark.parametrize(
    "rank",
    [pytest.param("Airborne", id="p2076-Airborne"), pytest.param("Jumper", id="p2126-Jumper")],
)
def test_p2076_flight_moves_over_units_and_difficult_ground(rank: str) -> None:
    over_unit = ((10.0, 20.0), (17.0, 20.0))  # through the Wall of Shields
    through_mire = ((10.0, 30.0), (18.0, 30.0))  # 8" across Difficult Ground
    assert not _can([], *over_unit) and _can([rank], *over_unit)
    assert not _can([], *through_mire) and _can([rank], *through_mire)


def test_p2076_airborne_moves_onto_impassable_ground_and_ignores_dangerous_ground() -> None:
    over_rock, onto_rock = ((10.0, 10.0), (17.0, 10.0)), ((10.0, 10.0), (13.0, 10.0))
    assert _can(["Airborne"], *over_rock) and _can(["Airborne"], *onto_rock)
    assert not _can([], *over_rock) and not _can([], *onto_rock)
    # Jumper: neither through nor onto Impassable Ground
    assert not _can(["Jumper"], *over_rock) and not _can(["Jumper"], *onto_rock)
    across = Move(USER, positions=((10.0, 45.0),))  # from (10, 37) over the Mines
    _, events = engine.apply(_flyer(["Airborne"], (10.0, 37.0)), across, dice=ScriptedDice([]))
    assert not any(e.kind == "danger" for e in events)


def test_p2126_jumper_is_struck_by_dangerous_ground_only_where_it_starts_or_ends() -> None:
    _, events = engine.apply(
        _flyer(["Jumper"], (10.0, 37.0)),
        Move(USER, positions=((10.0, 45.0),)),
        dice=ScriptedDice([]),
    )
    assert not any(e.kind == "danger" for e in events)
    _, events = engine.apply(
        _flyer(["Jumper"], (10.0, 37.0)),
        Move(USER, positions=((10.0, 41.0),)),
        dice=ScriptedDice([2]),
    )
    assert any(e.kind == "danger" for e in events)
    _, events = engine.apply(
        _flyer([], (10.0, 37.0)), Move(USER, positions=((10.0, 45.0),)), dice=ScriptedDice([2])
    )
    assert any(e.kind == "danger" for e in events)


def test_p2076_airborne_melee_attacks_at_it_suffer_minus_2() -> None:
    def hits(perks: list[str], face: int) -> int:
        me = entry(unit("Raider", weapons=[weapon("Blade", range=0, attacks=3)]))
        them = entry(unit("Flyer", perks=perks, hp=5))
        state = scenario(
            [[me], [them]], {USER: [(10.0, 10.0)], FOE: [(10.0, 11.0)]},
            phase=Phase.ATTACK, turn=2, engaged=[(USER, FOE)],
        )  # fmt: skip
        _, events = engine.apply(
            state, Attack(USER, (("Blade", FOE),)), dice=ScriptedDice([face] * 3 + [1] * 20)
        )
        e = next(e for e in events if e.kind == "attack")
        return int(e.text.split(" successes")[0].rsplit(" ", 1)[1])

    plain = [hits([], f) for f in range(1, 7)]
    flying = [hits(["Airborne"], f) for f in range(1, 7)]
    first = next(f for f in range(1, 7) if plain[f - 1])
    assert next(f for f in range(1, 7) if flying[f - 1]) == min(6, first + 2)
