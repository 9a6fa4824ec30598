"""The size of the battle (issue 10, session 28, s28-scale): shortcuts of the scripted
player's questions that grow with the battle give the very answers of the questions they skip.

* ``targeting.beyond_reach``: a target farther than the unit's longest Range (Core Rules
  001_d3f5e425c5e1196d.txt §5.3) gives no weapon a user, so the target search of
  ``engine.weapon_targets`` and ``players.sees_a_target`` skips its view unmeasured.
* ``LegalActions.units_by``: the units that may act, in a player's order, each tested only
  when reached: the very list of ``units()`` sorted, less the units a player skips.
* ``coherency._place_many``: when a Deployment spot finds no place for a unit in Reserve, the
  other spots asked before of its shape are answered together (one NumPy pass), each as its
  own search answers it (Core Rules §3.6).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from warbench.rulesets.warsurge.battlefield import sample_board
from warbench.rulesets.warsurge.game import coherency, engine
from warbench.rulesets.warsurge.game.actions import Deploy
from warbench.rulesets.warsurge.game.geom import Field
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.io import load_game_roster
from warbench.rulesets.warsurge.game.perk_effects import weapon_ranges
from warbench.rulesets.warsurge.game.players import ScriptedPlayer
from warbench.rulesets.warsurge.game.state import (
    GameSetup,
    GameState,
    Location,
    Phase,
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


def test_s3_6_deployment_spots_answered_together_are_each_spots_own_search() -> None:
    """Game Turns 1-3 of a 4000-point game (units wait in Reserve for room): at each
    Deployment Phase, every spot of the first units in Reserve is asked with the battlefield's
    memory (a refused spot answers the others together) and again from scratch (no memory,
    no index, one search per spot): the same answer, the same formation."""
    setup = _setup(4)
    field = setup.field
    state, _ = engine.new_game(setup, 0)
    chooser = [ScriptedPlayer(), ScriptedPlayer()]
    together = coherency._place_many
    batched = [0]

    def counted(*args: Any, **kw: Any) -> None:
        batched[0] += len(args[3])
        together(*args, **kw)

    compared = refused = 0
    coherency._place_many = counted
    try:
        while state.flow.turn <= 3:
            side = engine.acting_side(state)
            assert side is not None
            if state.flow.phase is Phase.DEPLOY:
                w = Work(state, None, DEFAULT_HOOKS)
                for uid in engine.legal_actions(state).units()[:2]:
                    for spot in engine.zone_points(w, w.zones[side] or 0):
                        action = Deploy(uid, at=spot)
                        here = engine.can(state, action)
                        placed = engine.with_positions(state, action) if here else None
                        kept = field._place_questions, field._place_spots  # type: ignore[attr-defined]
                        field._place_questions, field._place_spots = {}, {}  # type: ignore[attr-defined]
                        coherency._place_many = _nothing
                        fresh = replace(state)  # no index: the search from scratch
                        assert here == engine.can(fresh, action), (uid, spot)
                        if here:
                            assert placed == engine.with_positions(fresh, action)
                        coherency._place_many = counted
                        field._place_questions, field._place_spots = kept  # type: ignore[attr-defined]
                        compared += 1
                        refused += not here
            state, _ = engine.apply(state, chooser[side].choose(state))
    finally:
        coherency._place_many = together
    assert compared > 100 and refused > 50 and batched[0] > 50


def _nothing(*args: Any, **kw: Any) -> None:
    """No answers together: each spot's own search."""
