"""The tactical player's habit of session 37 (issue 15, ``ai.tactical_way``, switch
``TacticalBot.make_way``) on constructed states: the shooters make way for the side's melee
unit; the test of the habit fails with the switch off.

Core Rules 001_d3f5e425c5e1196d.txt §4.1 (a model moves in a straight line and may not pass
through another model's base: the engine's placement check), §5.1 L2234-2240 (a Heavy
weapon's user must stay stationary; a Battle weapon's user may Move and attack)."""

from __future__ import annotations

from tests.warsurge.game.helpers import board, entry, line, scenario, unit, weapon
from warbench.ai.tactical import TacticalBot
from warbench.ai.tactical_way import blocks, melee_friends, way_moves
from warbench.rulesets.warsurge.battlefield import Terrain
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Move
from warbench.rulesets.warsurge.game.players import sees_a_target
from warbench.rulesets.warsurge.game.state import GameState
from warbench.rulesets.warsurge.game.work import Work
from warbench.rulesets.warsurge.profiles import WeaponProfile

SWORD = weapon("Energy Sword", range=0, attacks=3, power=5, ap="3+")
LASER = weapon("Laser Rifle", range=18, attacks=2, power=3, ap="6+", type="Battle")
SNIPER = weapon("Sniper Rifle", range=36, attacks=1, power=5, ap="4+", type="Heavy")
AUTOCANNON = weapon("Autocannon", range=30, attacks=2, power=6, ap="4+", type="Battle")

TROOPERS, SQUAD, SNIPERS, CAR = 0, 1, 2, 3


def _work(state: GameState) -> Work:
    return engine.legal_actions(state)._work


def _state(gun: WeaponProfile = LASER) -> GameState:
    """Move Phase of Game Turn 2, side 0 to act. Two impassable blocks (x 0-12 and 24-36, y
    12-18) leave a 12" gap, filled by side 0's ten Troopers (uid 0, the skirmish roster's, a
    line at y 15, ``gun`` their weapon); its Assault Squad (uid 1, five models, Energy Swords)
    stands right behind them (y 13.7), its Sniper Troopers (uid 2) far off at the south-west corner.
    The enemy's Car (uid 3, the Urban Hunter Car, a 90 mm base) stands at (18, 28): in the
    Troopers' Range (18") and sight, about 12" from them."""
    walls = [
        Terrain(name="West", polygon=[(0, 12), (12, 12), (12, 18), (0, 18)], impassable=True),
        Terrain(name="East", polygon=[(24, 12), (36, 12), (36, 18), (24, 18)], impassable=True),
    ]
    troopers = unit(
        "Troopers",
        models=10,
        weapons=[gun],
        defence=3,
        armour="4+",
        aegis="5+",
    )
    squad = unit("Assault Squad", models=5, weapons=[SWORD], defence=4, armour="4+")
    snipers = unit("Sniper Troopers", models=3, weapons=[SNIPER], defence=3, armour="5+")
    car = unit("Urban Hunter Car", weapons=[AUTOCANNON], move=12, dash=12, defence=6, hp=4)
    return scenario(
        [
            [entry(troopers, 120), entry(squad, 90), entry(snipers, 90)],
            [entry(car, 110, 90)],
        ],
        {
            TROOPERS: line(12.6, 15.0, 10, gap=1.2),
            SQUAD: line(15.6, 13.7, 5, gap=1.2),
            SNIPERS: line(2.0, 3.0, 3),
            CAR: [(18.0, 28.0)],
        },
        b=board(36, 48, terrain=walls),
    )


def test_the_troopers_box_in_the_squad() -> None:
    """The squad has no path move toward the Car where the Troopers stand, and has one with
    the Troopers off the table: they block it; the Snipers block nothing."""
    state = _state()
    w = _work(state)
    bot = TacticalBot()
    assert list(melee_friends(w, TROOPERS)) == [SQUAD]
    assert list(melee_friends(w, SNIPERS)) == []
    assert bot._way_progress(w, SQUAD) is None
    assert blocks(state, w, TROOPERS, SQUAD, bot._way_progress)


def test_the_troopers_make_way_and_keep_their_shot() -> None:
    """With ``make_way`` the Troopers (the side's first unit to act, 120 points) step out of
    the gap, still seeing the Car in Range (their Battle weapon may be used after a Move,
    §5.1 L2240), and the squad then has a path move; with the switch off they hold where
    they stand to shoot and the squad is boxed in (the Move Phases of main's game 28)."""
    state = _state()
    on = TacticalBot(make_way=True).choose(state)
    assert isinstance(on, Move) and on.unit == TROOPERS
    after, _ = engine.apply(state, on)
    wa = _work(after)
    assert sees_a_target(wa, TROOPERS)
    assert TacticalBot()._way_progress(wa, SQUAD) is not None
    off = TacticalBot(make_way=False).choose(state)
    assert not (isinstance(off, Move) and off.unit == TROOPERS)


def test_a_heavy_gun_that_sees_a_target_does_not_move_aside() -> None:
    """A Heavy weapon's user must stay stationary to attack (§5.1 L2234-2236): Troopers with
    Sniper Rifles that see the Car keep their shot and the squad waits."""
    state = _state(SNIPER)
    w = _work(state)
    bot = TacticalBot(make_way=True)
    assert blocks(state, w, TROOPERS, SQUAD, bot._way_progress)
    assert way_moves(state, w, TROOPERS, bot._way_progress) == []
