"""The scripted player embarks terrain (001 §10.2 L4437-4447, issue 12).

"If the embarked Units are from different players, these Units will count as being engaged in
a Melee": a melee unit of the scripted player goes into a terrain piece after an enemy
sheltering inside; a shooter does not (it cannot shoot from inside: terrain Fire Points are
not modelled), and a piece out of reach is not tried.
"""

from __future__ import annotations

from dataclasses import replace

from warbench.rulesets.warsurge.battlefield import Terrain
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import EmbarkTerrain
from warbench.rulesets.warsurge.game.players import ScriptedPlayer
from warbench.rulesets.warsurge.game.state import GameState, Location, Phase

from .helpers import board, entry, line, scenario, unit, weapon

BUNKER = Terrain(
    name="Bunker", polygon=[(20, 20), (28, 20), (28, 28), (20, 28)], transport=500, blocks_los=True
)


def _game(near: float, *, melee: bool = True) -> GameState:
    """Side 0's unit ``near`` inches south of the Bunker; side 1's unit inside it."""
    arm = weapon("Claws", range=0) if melee else weapon("Gun", range=24, attacks=3, power=10)
    state = scenario(
        [[entry(unit("Raiders", models=2, weapons=[arm]), 100)], [entry(unit("Holders"), 100)]],
        {0: line(23, 20 - near, 2), 1: line(40, 40, 1)},
        phase=Phase.MOVE,
        b=board(terrain=[BUNKER]),
    )
    units = list(state.units)
    units[1] = replace(units[1], location=Location.TERRAIN, terrain="Bunker")
    return replace(state, units=tuple(units))


def test_s10_2_L4441_the_scripted_melee_unit_goes_in_after_an_enemy_inside() -> None:
    state = _game(3.0)
    action = ScriptedPlayer().choose(state)
    assert action == EmbarkTerrain(0, "Bunker")
    after, _ = engine.apply(state, action)
    assert after.units[0].location is Location.TERRAIN
    assert (0, 1) in after.engaged  # a Melee inside (L4441-4447)


def test_the_scripted_player_does_not_embark_out_of_reach_or_with_a_shooter() -> None:
    assert not isinstance(ScriptedPlayer().choose(_game(30.0)), EmbarkTerrain)
    assert not isinstance(ScriptedPlayer().choose(_game(3.0, melee=False)), EmbarkTerrain)
