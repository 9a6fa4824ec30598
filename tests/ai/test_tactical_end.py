"""The tactical player's habit for the Game Turns that may be the last (issue 15, session 35,
``ai.tactical_end``, switch ``TacticalBot.end_points``) on constructed states: the test fails
with the switch off. Core Rules 001_d3f5e425c5e1196d.txt §2.2 step 7 (L1118-1126): a game of
random length may end at the end of Game Turn 4 and of each one after; step 8: it is decided
on the value of each army left."""

from __future__ import annotations

from tests.warsurge.game.helpers import entry, scenario, unit, weapon
from warbench.ai.tactical import TacticalBot
from warbench.ai.tactical_end import RANDOM_END, may_be_last
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack
from warbench.rulesets.warsurge.game.state import GameState, Phase
from warbench.rulesets.warsurge.game.work import Work


def _work(state: GameState) -> Work:
    return engine.legal_actions(state)._work


def test_the_game_may_end_from_game_turn_4_or_at_its_agreed_length_L1118() -> None:
    """§2.2 step 7: random length, from the end of Game Turn 4; an agreed length, its last."""
    assert RANDOM_END == 4
    assert [may_be_last(_work(_fire_state(t))) for t in (3, 4, 5)] == [False, True, True]
    assert [may_be_last(_work(_fire_state(t, 6))) for t in (5, 6)] == [False, True]


def _fire_state(turn: int, game_length: int | None = None) -> GameState:
    """Attack Phase of ``turn``, side 0 to act: its Rifles (uid 0: five models, Range 24")
    at (24, 10) see two enemy units 12" off: Blades (uid 1: a melee unit, 50 points, that
    reaches the Rifles next Game Turn and would take much off them) and Gunners (uid 2: the
    same models with a short gun, 100 points: twice the value a hit takes)."""
    rifle = weapon("Rifle", range=24, attacks=2, power=4)
    rifles = unit("Rifles", models=5, weapons=[rifle])
    blades = unit("Blades", models=5, weapons=[weapon("Blade", range=0, attacks=4, power=6)])
    gunners = unit("Gunners", models=5, weapons=[weapon("Pistol", range=6, attacks=1, power=2)])
    return scenario(
        [[entry(rifles)], [entry(blades, points=50), entry(gunners, points=100)]],
        {
            0: [(20.0 + 2 * k, 10.0) for k in range(5)],
            1: [(14.0 + 2 * k, 22.0) for k in range(5)],
            2: [(26.0 + 2 * k, 22.0) for k in range(5)],
        },
        phase=Phase.ATTACK,
        turn=turn,
        game_length=game_length,
    )


def test_in_the_last_game_turn_it_takes_the_points_that_are_there_L1118() -> None:
    """§2.2 step 8: the game is decided on the value left when it ends. In Game Turn 2 the
    Rifles shoot the Blades (the melee threat they carry into the next Game Turns outweighs
    the Gunners' value); in Game Turn 4, which may be the last, they shoot the Gunners, where
    a hit takes twice the points. Switched off they shoot the Blades in Game Turn 4 too."""

    def target(bot: TacticalBot, turn: int) -> int:
        act = bot.choose(_fire_state(turn))
        assert isinstance(act, Attack) and act.unit == 0
        return act.targets[0][1]

    assert target(TacticalBot(end_points=True), 2) == 1
    assert target(TacticalBot(end_points=True), RANDOM_END) == 2
    assert target(TacticalBot(end_points=False), RANDOM_END) == 1
