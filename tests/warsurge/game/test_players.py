"""The scripted player does not stall: a unit with an enemy close enough but nothing in sight
moves until a weapon has a target (docs/game.md "Players").

Default: the sample rosters' own pairings on every sample board, 3 seeds each.
``WARBENCH_CONFORMANCE_GAMES=N`` plays N seeds of every ordered pair of sample rosters.
"""

from __future__ import annotations

import itertools
import os

import pytest

from warbench.rulesets.warsurge.battlefield import sample_board, sample_boards
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.geom import Field
from warbench.rulesets.warsurge.game.io import load_game_roster
from warbench.rulesets.warsurge.game.players import ScriptedPlayer, play
from warbench.rulesets.warsurge.game.state import PlayerSetup, RosterEntry, build_setup
from warbench.rulesets.warsurge.profiles import ModelGroup, Unit, UnitProfile, WeaponProfile

from .helpers import ROSTERS

_MANY = os.environ.get("WARBENCH_CONFORMANCE_GAMES")
SEEDS = range(int(_MANY)) if _MANY else range(3)
_ROSTERS = sorted(p.name for p in ROSTERS.glob("*.yaml"))
PAIRS = (
    list(itertools.permutations(_ROSTERS, 2))
    if _MANY
    else [("sci_fi_humans.yaml", "scavengers.yaml"), ("skirmish_a.yaml", "skirmish_b.yaml")]
)


def _squad(name: str, reach: int) -> Unit:
    rifle = WeaponProfile(name=f"{name} Rifle", range=reach, attacks=1, power=4, type="Battle")
    return Unit(
        profile=UnitProfile(name=name, move=6, dash=6, defence=4, hp=1),
        weapons=[rifle],
        models=[ModelGroup(count=5, weapons=[rifle.name])],
    )


def test_scripted_players_advance_around_terrain_that_hides_the_enemy() -> None:
    # Two 5-model squads with 24" and 30" Battle weapons deploy 15.8" apart on either side of
    # the Rocky outcrop of open_field_42x32 (blocks line of sight, 001 §5.4): within 75% of
    # their range but with nothing in sight, they used to stand still for the whole game.
    setup = build_setup(
        [
            PlayerSetup("A", (RosterEntry(_squad("A", 24), 100),)),
            PlayerSetup("B", (RosterEntry(_squad("B", 30), 100),)),
        ],
        Field(sample_board("open_field_42x32")),
    )
    state, events = engine.new_game(setup, 1)
    run = play(state, [ScriptedPlayer(), ScriptedPlayer()], events=events)
    kinds = [e.kind for e in run.events]
    assert "move" in kinds
    assert "attack" in kinds
    assert run.state.result is not None and run.state.result.values != (100.0, 100.0)


@pytest.mark.parametrize("board", sample_boards())
@pytest.mark.parametrize(("a", "b"), PAIRS, ids=["-".join(p) for p in PAIRS])
def test_no_scripted_game_between_the_sample_rosters_ends_without_an_attack(
    a: str, b: str, board: str
) -> None:
    setup = build_setup(
        [load_game_roster(ROSTERS / a), load_game_roster(ROSTERS / b)],
        Field(sample_board(board)),
    )
    for seed in SEEDS:
        state, events = engine.new_game(setup, seed)
        run = play(state, [ScriptedPlayer(), ScriptedPlayer()], events=events)
        assert run.state.over
        assert any(e.kind == "attack" for e in run.events), f"{a} v {b} on {board}, seed {seed}"
