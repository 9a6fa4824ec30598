"""The size of the battle (issue 10, session 28, s28-scale): shortcuts of the scripted
player's questions that grow with the battle give the very answers of the questions they skip.

* ``targeting.beyond_reach``: a target farther than the unit's longest Range (Core Rules
  001_d3f5e425c5e1196d.txt §5.3) gives no weapon a user, so the target search of
  ``engine.weapon_targets`` and ``players.sees_a_target`` skips its view unmeasured.
* ``LegalActions.units_by``: the units that may act, in a player's order, each tested only
  when reached: the very list of ``units()`` sorted, less the units a player skips.
"""

from __future__ import annotations

import math
from dataclasses import replace

from warbench.rulesets.warsurge.battlefield import sample_board
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.geom import Field
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.io import load_game_roster
from warbench.rulesets.warsurge.game.perk_effects import weapon_ranges
from warbench.rulesets.warsurge.game.players import ScriptedPlayer
from warbench.rulesets.warsurge.game.state import (
    GameSetup,
    GameState,
    Location,
    build_setup,
)
from warbench.rulesets.warsurge.game.targeting import REACH_MARGIN, beyond_reach, view_target
from warbench.rulesets.warsurge.game.work import Work

from .helpers import ROSTERS


def _setup(times: int) -> GameSetup:
    players = [load_game_roster(ROSTERS / n) for n in ("sci_fi_humans.yaml", "scavengers.yaml")]
    players = [replace(p, roster=p.roster * times) for p in players]
    return build_setup(players, Field(sample_board("ruins_48x48")))


def _states(setup: GameSetup, seed: int, turns: int) -> list[GameState]:
    """Every state of a scripted game up to the end of Game Turn ``turns``."""
    state, _ = engine.new_game(setup, seed)
    players = [ScriptedPlayer(), ScriptedPlayer()]
    out = [state]
    while not state.over and state.flow.turn <= turns:
        side = engine.acting_side(state)
        assert side is not None
        state, _ = engine.apply(state, players[side].choose(state))
        out.append(state)
    return out


def test_s5_3_a_target_beyond_every_range_has_no_user_in_its_view() -> None:
    """On every state of Game Turns 1-3 of a 2000-point game, for every unit on the table and
    every enemy unit: where ``beyond_reach`` says so, the full view finds no user and no
    Melee; and it does say so for many pairs (the shortcut is taken)."""
    skipped = measured = 0
    for state in _states(_setup(2), 0, 3)[::4]:
        w = Work(state, None, DEFAULT_HOOKS)
        for uid, u in enumerate(state.units):
            if u.location is not Location.TABLE:
                continue
            for gap, foe in engine.nearest_enemies(w, uid):
                view = view_target(w, uid, foe)
                if beyond_reach(w, uid, foe, gap):
                    skipped += 1
                    assert not view.users_in_range and not view.melee, (uid, foe, gap)
                else:
                    measured += 1
    assert skipped > 100 and measured > 100


def test_s5_3_a_target_within_a_range_or_in_a_melee_is_measured() -> None:
    """The shortcut is taken only beyond the longest Range (by its margin), and never for a
    Melee (§5.9: every weapon has users there) nor without a distance."""
    states = _states(_setup(1), 1, 3)
    engaged = next(s for s in states if s.engaged)
    w = Work(engaged, None, DEFAULT_HOOKS)
    a, b = sorted(engaged.engaged)[0]
    reach = max(weapon_ranges(w.info(a), w.units[a].statuses).values())
    far = reach + 1e-6 + 2 * REACH_MARGIN
    assert not beyond_reach(w, a, b, far)  # in a Melee together
    assert view_target(w, a, b).melee
    other = next(
        f for _, f in engine.nearest_enemies(w, a) if (min(a, f), max(a, f)) not in w.engaged
    )
    assert beyond_reach(w, a, other, far)
    assert not beyond_reach(w, a, other, reach + 1e-6)
    assert not beyond_reach(w, a, other, reach)
    assert not beyond_reach(w, a, other, None)


def test_units_by_is_units_sorted_less_the_skipped() -> None:
    """On every state of a 2000-point game's first Game Turns, in every phase: the units in
    the scripted player's order (points, then board order) with every other unit skipped."""
    setup = _setup(2)
    n = len(setup.units)

    def key(u: int) -> float:
        return -setup.units[u].points if u < n else -math.inf

    compared = 0
    for k, state in enumerate(_states(setup, 2, 2)):
        legal = engine.legal_actions(state)
        every = legal.units()
        skip = set(every[k % 2 :: 2])
        want = sorted((u for u in every if u not in skip), key=key)
        assert list(legal.units_by(key, skip)) == want
        assert list(legal.units_by(None)) == every
        compared += bool(want)
    assert compared > 50
