"""The tactical player's Heavy gun that leaves a losing exchange (issue 15, session 33,
``ai.tactical_heavy``) on a constructed state: it fails with the habit switched off
(``TacticalBot(heavy_withdraw=False)``). Core Rules 001_d3f5e425c5e1196d.txt: a unit that
moved may not fire a Heavy weapon (§5.1); casualties are removed at the end of the Attack
Phase (L2872), so the enemy in sight fires back in it; a unit out of sight is no target
(§5.5)."""

from __future__ import annotations

from dataclasses import replace

from tests.warsurge.game.helpers import board, entry, scenario, unit, weapon
from warbench.ai.tactical import TacticalBot
from warbench.ai.tactical_heavy import all_heavy, withdrawals
from warbench.ai.tactical_reach import incoming, outgoing, still_to_move
from warbench.rulesets.warsurge.battlefield import Terrain
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Move, Pass
from warbench.rulesets.warsurge.game.state import GameState, Phase
from warbench.rulesets.warsurge.game.work import Work


def _work(state: GameState) -> Work:
    return engine.legal_actions(state)._work


def _snipers_and_car(car_hp: int = 4) -> GameState:
    """Move Phase, side 0 to act: three Sniper Troopers (uid 0, the skirmish roster's: Heavy
    36" rifles, Power 5, Defence 3, 30 points a model) in the open about 20" from an Urban
    Hunter Car (uid 1: Autocannon 30", two attacks at Power 6, Defence 6, 4 HP, 110 points)
    that has moved this phase; a wall 5" north of the Snipers hides them from the Car once
    they step 6" north-west."""
    wall = Terrain(
        name="Wall",
        polygon=[(6, 17), (20, 17), (20, 19), (6, 19)],
        blocks_los=True,
        impassable=True,
    )
    rifle = weapon("Sniper Rifle", range=36, type="Heavy", attacks=1, power=5, ap="4+")
    cannon = weapon("Autocannon", range=30, type="Battle", attacks=2, power=6, ap="4+")
    snipers = unit("Sniper Troopers", models=3, defence=3, armour="5+", weapons=[rifle])
    car = unit("Urban Hunter Car", models=1, defence=6, hp=car_hp, armour="4+", weapons=[cannon])
    state = scenario(
        [[entry(snipers, points=90)], [entry(car, points=110, base_mm=90)]],
        {0: [(19.0 + 1.5 * k, 12.0) for k in range(3)], 1: [(27.0, 32.0)]},
        phase=Phase.MOVE,
        b=board(terrain=[wall]),
    )
    units = list(state.units)
    units[1] = replace(units[1], acted=True)
    return replace(state, units=tuple(units))


def test_heavy_withdraw_L2872_steps_out_of_the_sight_of_a_gun_that_outtrades_it() -> None:
    """The Snipers are expected to take about 1 of the Car's 4 HP (27.5 points) and the
    Car's Autocannon more than that off them where they stand; moving bars their Heavy
    rifles (§5.1), but behind the wall the Car sees nothing (§5.5): nothing taken either
    way beats the losing exchange, so they move there. Switched off, they stand and fire
    (Pass in the Move Phase)."""
    state = _snipers_and_car()
    w = _work(state)
    bot = TacticalBot()
    assert all_heavy(w, 0)
    moving = still_to_move(w, 0)
    took = outgoing(w, 0, bot._dist, bot._covered)
    given = incoming(w, 0, bot._dist, moving)
    assert 0.0 < took < given  # the exchange where they stand goes against them
    move = bot.choose(state)
    assert isinstance(move, Move) and move.unit == 0
    after, _ = engine.apply(state, move)
    assert incoming(Work(after, None, w.hooks), 0, bot._dist, moving) == 0.0  # out of sight
    assert isinstance(TacticalBot(heavy_withdraw=False).choose(state), Pass)


def test_heavy_withdraw_stands_and_fires_when_the_exchange_favours_it() -> None:
    """A Car of 1 HP (all its 110 points on it): the Snipers' volley is expected to take more
    off it than its Autocannon off them, so they stand and fire (Pass) and no withdrawal is
    offered."""
    state = _snipers_and_car(car_hp=1)
    w = _work(state)
    bot = TacticalBot()
    moving = still_to_move(w, 0)
    assert outgoing(w, 0, bot._dist, bot._covered) > incoming(w, 0, bot._dist, moving)
    assert withdrawals(state, w, 0, 6.0, bot._dist, bot._covered) == []
    assert isinstance(bot.choose(state), Pass)
