"""The fourteenth pass (issue 10, s32-apply): what ``apply`` keeps gives the answer a fresh
computation gives.

* The table index kept by a state's units (``work._by_units``): a copy of a state (the very
  units tuple and set-up, ``dataclasses.replace``) gets the arrays a rebuild makes and a memo
  of its own; a state with other units, or the same units under another set-up, never gets it.
"""

from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path

import numpy as np

from warbench.rulesets.warsurge.battlefield import sample_board
from warbench.rulesets.warsurge.game import work
from warbench.rulesets.warsurge.game.geom import Field
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.io import load_game_roster
from warbench.rulesets.warsurge.game.state import GameSetup, GameState, Location, build_setup

from .test_battle_size import _states  # every state of a scripted game up to a Game Turn

ROSTERS = Path(__file__).parents[3] / "examples" / "warsurge" / "rosters"
ARRAYS = ("xy", "r", "uid", "model", "side")


def _setup() -> GameSetup:
    rosters = [load_game_roster(ROSTERS / n) for n in ("sci_fi_humans.yaml", "scavengers.yaml")]
    return build_setup(rosters, Field(sample_board("ruins_48x48")))


def _rebuilt(state: GameState) -> work.TableIndex:
    """The index a Work builds from the units, nothing kept."""
    w = work.Work(state, None, DEFAULT_HOOKS)
    w._index, w._stale, w._grown_from, w.dirty = None, None, None, True
    return w.table()


def _same(a: work.TableIndex, b: work.TableIndex) -> bool:
    return all(
        getattr(a, n).dtype == getattr(b, n).dtype and np.array_equal(getattr(a, n), getattr(b, n))
        for n in ARRAYS
    )


def test_a_copy_gets_the_rebuilt_index_with_a_memo_of_its_own() -> None:
    setup = _setup()
    checked = 0
    for state in _states(setup, 0, 2):
        if not any(u.location is Location.TABLE for u in state.units):
            continue
        work._BY_UNITS.clear()
        first = work.Work(dataclasses.replace(state), None, DEFAULT_HOOKS).table()
        first.memo["answer"] = 1
        copy = dataclasses.replace(state)
        got = work.Work(copy, None, DEFAULT_HOOKS).table()
        assert got is not first and got.memo == {}  # the copy's own answers
        assert got.xy is first.xy  # the kept arrays, not a rebuild
        assert _same(got, _rebuilt(state))
        assert copy.cache["index"] is got
        checked += 1
    assert checked > 10


def test_other_units_or_another_setup_never_get_the_kept_index() -> None:
    setup = _setup()
    states = [s for s in _states(setup, 0, 2) if any(u.location is Location.TABLE for u in s.units)]
    moved = [(a, b) for a, b in itertools.pairwise(states) if not _same(_rebuilt(a), _rebuilt(b))]
    assert moved
    a, b = moved[-1]
    work._BY_UNITS.clear()
    work.Work(dataclasses.replace(a), None, DEFAULT_HOOKS).table()
    got = work.Work(dataclasses.replace(b), None, DEFAULT_HOOKS).table()
    assert _same(got, _rebuilt(b)) and not _same(got, _rebuilt(a))  # fails keyed by set-up only
    # the very units under another set-up (every base twice as wide): its own radii
    wide = dataclasses.replace(
        setup, units=tuple(dataclasses.replace(i, radius=2 * i.radius) for i in setup.units)
    )
    other = dataclasses.replace(b, setup=wide)
    got = work.Work(other, None, DEFAULT_HOOKS).table()
    assert np.array_equal(got.r, 2 * _rebuilt(b).r)  # fails keyed by the units only
    assert _same(got, _rebuilt(other))
