"""Scoring with Fusion x10, Respawn /2 and Summon /4 (Perks 000_94ecc6a4c74d351b.txt L333-335;
docs/rulings.md "WARSURGE points" 2): the Current Point Value that decides the winner (Core
001_d3f5e425c5e1196d.txt §2.2 step 8) is the unit's value, not the roster's spend."""

from __future__ import annotations

from dataclasses import replace

import pytest

from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Pass
from warbench.rulesets.warsurge.game.io import roster_from_data, roster_to_data
from warbench.rulesets.warsurge.game.state import GameState, Phase, RosterEntry

from .helpers import scenario, unit


def _end(state: GameState) -> GameState:
    state, _ = engine.apply(state, Pass())
    state, _ = engine.apply(state, Pass())
    assert state.over and state.result is not None
    return state


def _game(a: RosterEntry, b: RosterEntry) -> GameState:
    return scenario(
        [[a], [b]], {0: [(5, 5)], 1: [(5, 40)]}, phase=Phase.DASH, turn=4, game_length=4
    )


@pytest.mark.parametrize(
    # Summon (Perks L4235, in play since session 25): the HP left of the units produced per
    # Game Turn: 1 HP over 4 Game Turns rounds to 0 of its 1 HP
    ("trait", "value"),
    [("Summon", 0.0), ("Respawn", 50.0)],
    ids=["summon", "respawn"],
)
def test_p333_335_traits_chosen_in_the_roster_adjust_the_value_at_the_end(
    trait: str, value: float
) -> None:
    a = RosterEntry(unit("A"), 100, 25.4, traits=(trait,))
    b = RosterEntry(unit("B"), 60, 25.4)
    state = _end(_game(a, b))
    assert state.result is not None
    assert state.result.values == (value, 60.0)
    assert state.result.winner == 1  # 100 points spent, worth less than the 60-point unit


def test_p333_fusion_on_the_profile_multiplies_the_current_value_by_ten() -> None:
    fused = unit("Fused", hp=4, perks=["Fusion"])
    state = _game(RosterEntry(fused, 100, 25.4), RosterEntry(unit("B"), 900, 25.4))
    # two of four HP left: 100 x 10 x 2/4 = 500
    state = replace(state, units=(replace(state.units[0], hp=(2,)), state.units[1]))
    state = _end(state)
    assert state.result is not None
    assert state.result.values == (500.0, 900.0)


def test_p333_summon_halves_and_respawn_quarter_combine_with_damage() -> None:
    both = RosterEntry(unit("Both", hp=2, perks=["Respawn"]), 80, 25.4, traits=("Summon",))
    state = _game(both, RosterEntry(unit("B"), 10, 25.4))
    state = replace(state, units=(replace(state.units[0], hp=(1,)), *state.units[1:]))
    # 80 / 2 / 4 x 1/2 = 5
    assert state.current_value(0) == 5.0
    state = _end(state)
    assert state.result is not None and state.result.winner == 1


def test_game_roster_traits_round_trip_through_the_record_format() -> None:
    data = {
        "player": "P",
        "units": [
            {
                "unit": {"name": "S", "move": 6, "dash": 6, "defence": 4, "hp": 1},
                "models": [{"count": 1}],
                "points": 100,
                "traits": ["Summon"],
            }
        ],
    }
    player = roster_from_data(data)
    assert player.roster[0].traits == ("Summon",)
    again = roster_from_data(roster_to_data(player))
    assert again.roster[0].traits == ("Summon",)
