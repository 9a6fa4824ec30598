"""Conformance: seeded games between random-legal players, invariants on every state.

OpenSpiel's random-play test. Every state: no overlapping bases, every unit in coherency,
enemy units in Base Contact are in a Melee, HP never below zero, current point values
consistent; at the end the record replays to the identical state.

Default: a handful of games (a few seconds). ``WARBENCH_CONFORMANCE_GAMES=2000`` plays
thousands (skirmish rosters, random boards among the samples and seeds).
"""

from __future__ import annotations

import os
import random

import pytest

from warbench.rulesets.warsurge.battlefield import sample_board
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.geom import Field
from warbench.rulesets.warsurge.game.io import load_game_roster
from warbench.rulesets.warsurge.game.players import RandomLegalPlayer, ScriptedPlayer
from warbench.rulesets.warsurge.game.record import GameRecord, replay
from warbench.rulesets.warsurge.game.state import build_setup

from .helpers import ROSTERS, check_invariants

GAMES = int(os.environ.get("WARBENCH_CONFORMANCE_GAMES", "6"))
BOARDS = ["ruins_48x48", "open_field_42x32", "city_72x48"]


def _setup(k: int, big: bool):  # type: ignore[no-untyped-def]
    if big:
        names = ("sci_fi_humans.yaml", "scavengers.yaml")
    else:
        names = ("skirmish_a.yaml", "skirmish_b.yaml")
    players = [load_game_roster(ROSTERS / n) for n in names]
    return build_setup(players, Field(sample_board(BOARDS[k % len(BOARDS)])), max_turns=6)


def _play(setup, seed: int, scripted: bool = False) -> None:  # type: ignore[no-untyped-def]
    state, _ = engine.new_game(setup, seed)
    check_invariants(state)
    rec = GameRecord(setup, seed)
    players = (
        [ScriptedPlayer(), ScriptedPlayer()]
        if scripted
        else [RandomLegalPlayer(seed * 7 + 1), RandomLegalPlayer(seed * 7 + 2)]
    )
    steps = 0
    while not state.over:
        side = engine.acting_side(state)
        assert side is not None
        action = players[side].choose(state)
        state, _events = engine.apply(state, action)
        rec.add(action, state)
        check_invariants(state)
        steps += 1
        assert steps < 5000, "the game does not end"
    assert state.result is not None
    again = replay(rec)
    assert again.state.digest() == state.digest()


@pytest.mark.parametrize("k", range(GAMES))
def test_conformance_random_legal_skirmish(k: int) -> None:
    rng = random.Random(k)
    _play(_setup(k, big=False), seed=rng.randrange(2**31))


def test_conformance_random_legal_1000_points() -> None:
    _play(_setup(0, big=True), seed=11)


def test_conformance_scripted_1000_points() -> None:
    _play(_setup(0, big=True), seed=12, scripted=True)
