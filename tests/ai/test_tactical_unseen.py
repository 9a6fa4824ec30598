"""The tactical player's deployment against a fast, long-ranged vehicle (issue 15, session 35,
``ai.tactical_unseen``) on constructed states: each fails with the switch ``reach_deploy``
off.

Core Rules 001_d3f5e425c5e1196d.txt §3.6 L1798-1800: the players alternate placing one unit
at a time, each choosing which; §5.4-5.5: a unit out of an attacker's Line of Sight is not a
legal Target."""

from __future__ import annotations

from tests.warsurge.game.helpers import board, entry, scenario, unit, weapon
from warbench.ai.tactical import TacticalBot
from warbench.ai.tactical_unseen import (
    fast_gun_against,
    hides,
    is_melee_unit,
    melee_last,
    unanswered_fast_gun,
)
from warbench.rulesets.warsurge.battlefield import Terrain
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Deploy, Move, Pass
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.state import GameState, Phase
from warbench.rulesets.warsurge.game.work import Work

SWORD = weapon("Energy Sword", range=0, attacks=3, power=5, ap="3+")
AUTOCANNON = weapon("Autocannon", range=30, attacks=2, power=6, ap="4+", type="Battle")
RIFLE = weapon("Laser Rifle", range=24, attacks=1, power=3)


def _deploying(shooters: bool, car_move: float = 12, own_car: bool = False) -> GameState:
    """Deploy Phase of Game Turn 1, side 0 to place: its Swordsmen (the skirmish roster's
    Assault Squad, 120 points here) are in Reserve, with ``shooters`` its Riflemen (80
    points) too; the enemy's Car (Move ``car_move``, Autocannon 30": the Urban Hunter Car) stands at
    (24, 40) in the north zone. A tall wall (blocks sight, impassable) at x 2-14, y 13-15,
    just ahead of the south zone (y 0-12), hides the zone's west end from the Car. With
    ``own_car`` side 0 has a Car of its own in Reserve (each side of skirmish_b has one)."""
    wall = Terrain(
        name="Wall",
        polygon=[(2, 13), (14, 13), (14, 15), (2, 15)],
        blocks_los=True,
        impassable=True,
    )
    swords = unit("Swordsmen", models=5, weapons=[SWORD], defence=4, armour="4+")
    car = unit("Car", models=1, weapons=[AUTOCANNON], defence=6, hp=4, armour="4+", move=car_move)
    ours = [entry(swords, 120)]
    if shooters:
        ours.append(entry(unit("Riflemen", models=5, weapons=[RIFLE]), 80))
    if own_car:  # side 0's own Car (Move 12"), in Reserve
        mine = unit("Car", models=1, weapons=[AUTOCANNON], defence=6, hp=4, armour="4+", move=12)
        ours.append(entry(mine, 110))
    return scenario(
        [ours, [entry(car, 110, 90)]],
        {len(ours): [(24.0, 40.0)]},
        phase=Phase.DEPLOY,
        turn=1,
        b=board(terrain=[wall]),
    )


def _exposure_after(bot: TacticalBot, state: GameState, action: Deploy) -> float:
    after, _ = engine.apply(state, action)
    return bot._exposure(Work(after, None, DEFAULT_HOOKS), action.unit)


def test_a_melee_unit_deploys_out_of_the_cars_sight() -> None:
    """§5.4-5.5: with the switch the Swordsmen are placed behind the wall, where the Car's
    Autocannon sees none of them; without it, at the front of the zone's middle in its
    sight (main's spread deployment)."""
    for on in (True, False):
        bot = TacticalBot(reach_deploy=on)
        state = _deploying(shooters=False)
        action = bot.choose(state)
        assert isinstance(action, Deploy) and action.unit == 0, action
        seen = _exposure_after(bot, state, action)
        if on:
            assert seen == 0.0
            assert action.at is not None and action.at[0] < 14.0
        else:
            assert seen > 0.0


def test_the_melee_unit_is_placed_after_the_sides_guns() -> None:
    """§3.6 L1798-1800: the player chooses which unit to place; with the switch the Riflemen
    go first (the melee unit waits to see the enemy's guns), without it the unit with the
    most points, the Swordsmen."""
    for on in (True, False):
        state = _deploying(shooters=True)
        action = TacticalBot(reach_deploy=on).choose(state)
        assert isinstance(action, Deploy)
        assert action.unit == (1 if on else 0)
    w = Work(_deploying(shooters=True), None, DEFAULT_HOOKS)
    assert is_melee_unit(w, 0) and not is_melee_unit(w, 1)
    assert (melee_last(w, 0), melee_last(w, 1)) == (1, 0)


def _hidden_swords(phase: Phase) -> GameState:
    """``phase`` of Game Turn 2, side 0 to act: its Swordsmen (Move and Dash 6") stand at
    (8, 20), hidden from the enemy's Car at (24, 40) by a tall wall at x 2-14, y 23-25; the
    Car is 20" and more away, beyond a charge in one Move or Dash."""
    wall = Terrain(
        name="Wall",
        polygon=[(2, 23), (14, 23), (14, 25), (2, 25)],
        blocks_los=True,
        impassable=True,
    )
    swords = unit("Swordsmen", models=5, weapons=[SWORD], defence=4, armour="4+")
    car = unit("Car", models=1, weapons=[AUTOCANNON], defence=6, hp=4, armour="4+", move=12)
    return scenario(
        [[entry(swords, 90)], [entry(car, 110, 90)]],
        {0: [(5.0 + 1.5 * k, 20.0) for k in range(5)], 1: [(24.0, 40.0)]},
        phase=phase,
        b=board(terrain=[wall]),
    )


def test_a_hidden_melee_unit_does_not_walk_into_the_cars_sight() -> None:
    """§5.4-5.5: the Swordsmen, out of the Car's sight, walk toward it on main's path,
    round the wall into its sight; with the switch they move only where the Car still does
    not see them, or hold (§4.3: they charge once it is within their Move or Dash)."""
    for on in (True, False):
        bot = TacticalBot(hidden_approach=on)
        state = _hidden_swords(Phase.MOVE)
        assert bot._exposure(Work(state, None, DEFAULT_HOOKS), 0) == 0.0
        action = bot.choose(state)
        if on:
            assert isinstance(action, Pass) or (
                isinstance(action, Move) and bot._exposure_after(state, 0, action) == 0.0
            ), action
        else:
            assert isinstance(action, Move), action
            assert bot._exposure_after(state, 0, action) > 0.0


def test_against_a_gun_no_faster_than_the_squad_it_deploys_as_main() -> None:
    """The habit is for a gun that outruns the melee unit (the Car's Move 12" against the
    squad's 6"): with the Car's Move at 6" the player with the switch on places the
    Swordsmen first and at main's spot, in the Car's sight, as with the switch off."""
    slow = _deploying(shooters=True, car_move=6)
    w = Work(slow, None, DEFAULT_HOOKS)
    assert not fast_gun_against(w, 0) and not hides(w, 0) and melee_last(w, 0) == 0
    on, off = (
        TacticalBot(reach_deploy=True).choose(slow),
        TacticalBot(reach_deploy=False).choose(slow),
    )
    assert on == off and isinstance(on, Deploy) and on.unit == 0
    assert fast_gun_against(Work(_deploying(shooters=True), None, DEFAULT_HOOKS), 0)


def test_with_a_car_of_its_own_the_side_does_not_hide_its_melee_unit() -> None:
    """A side with its own fast long-ranged vehicle contests the enemy's by shooting it
    (§5.3-5.5), so the habit does not apply (the +1 army's mirror on skirmish_b, a Car on
    each side, fell from 94% to 83% with both sides hiding): with its own Car (Move 12",
    Autocannon 30") in Reserve, side 0 with the switch on places the Swordsmen first and at
    main's spot, in the enemy Car's sight, as with the switch off."""
    both = _deploying(shooters=True, own_car=True)
    w = Work(both, None, DEFAULT_HOOKS)
    assert fast_gun_against(w, 0)  # the enemy's Car still outruns the Swordsmen
    assert not unanswered_fast_gun(w, 0) and not hides(w, 0) and melee_last(w, 0) == 0
    on, off = (
        TacticalBot(reach_deploy=True).choose(both),
        TacticalBot(reach_deploy=False).choose(both),
    )
    assert on == off and isinstance(on, Deploy) and on.unit == 0
    assert _exposure_after(TacticalBot(), both, on) > 0.0


def test_with_only_the_enemy_fast_the_side_still_hides_its_melee_unit() -> None:
    """The enemy's Car (Move 12") outruns the Swordsmen and side 0's own guns, the Riflemen
    (Move 6"), do not answer it: the Riflemen go first and the Swordsmen are then placed out
    of the Car's sight; a Car of side 0's own slower than the enemy's does not
    answer it either (its Car at 12" against the enemy's at 14")."""
    w = Work(_deploying(shooters=True), None, DEFAULT_HOOKS)
    assert unanswered_fast_gun(w, 0) and hides(w, 0)
    state = _deploying(shooters=True)
    bot = TacticalBot(reach_deploy=True)
    first = bot.choose(state)
    assert isinstance(first, Deploy) and first.unit == 1
    state, _ = engine.apply(state, first)
    second = bot.choose(state)
    assert isinstance(second, Deploy) and second.unit == 0
    assert _exposure_after(bot, state, second) == 0.0
    faster = _deploying(shooters=True, car_move=14, own_car=True)
    assert unanswered_fast_gun(Work(faster, None, DEFAULT_HOOKS), 0)
