"""Vertical Coherency at deployment (001_d3f5e425c5e1196d.txt §4.2 III, L1918-1919: "Vertical
Coherency is 6". When measuring Coherency vertically, models must be within 6" of another
model in the same Unit"; docs/rulings.md "WARSURGE terrain in play" 7)."""

from __future__ import annotations

import pytest

from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.battlefield import Terrain
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Deploy
from warbench.rulesets.warsurge.game.state import GameState, Phase

from .helpers import board, entry, scenario, unit


def _deploying(level: float) -> GameState:
    # a deck in the south Deployment Zone (y 0-12), ``level`` inches up
    deck = Terrain(name="Deck", rect=[8, 4, 14, 10], level=level, height=level + 0.5)
    return scenario(
        [[entry(unit("Pair", models=2))], [entry(unit("Foe"))]],
        {1: [(40.0, 40.0)]},
        phase=Phase.DEPLOY,
        turn=1,
        b=board(terrain=[deck]),
    )


def test_s4_2_iii_L1918_a_unit_deploys_within_6_inches_vertically() -> None:
    # one model on the deck's edge, the other on the ground beside it: 1" apart across
    split = Deploy(0, positions=((8.6, 6.0), (7.0, 6.0)))
    engine.check(_deploying(6), split)  # 6" up: in Coherency
    with pytest.raises(RulesError, match="apart vertically") as exc:
        engine.check(_deploying(7), split)  # 7" up: not
    assert exc.value.rule == "§4.2 III"
    # both on the deck, or both on the ground, is fine at any height
    engine.check(_deploying(7), Deploy(0, positions=((9.0, 6.0), (10.5, 6.0))))
    engine.check(_deploying(7), Deploy(0, positions=((3.0, 6.0), (4.5, 6.0))))
