"""The scripted player's decisions made cheaper (issue 10, session 32, s32-choose): the
shortcuts give the very answers of what they stand in for.

* ``engine.trial`` keeps an applied action with its state, and ``engine.apply`` of the same
  action to that very state (no dice given, the default hooks) returns it: the answer a fresh
  ``apply`` gives; another action, other dice or another state are applied afresh.
* ``coherency.clearly_blocked_translations`` tells a Move off the board by the extreme
  starts alone: the very refusals of ``coherency.clearly_illegal``, model by model, at the
  board's edges to the last float.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from tests.warsurge.game.sight_oracles import closest_gaps
from warbench.kernel.dice import SeededDice
from warbench.rulesets.warsurge.battlefield import sample_board
from warbench.rulesets.warsurge.game import coherency, engine, geom
from warbench.rulesets.warsurge.game.actions import Attack, Move
from warbench.rulesets.warsurge.game.events import Event
from warbench.rulesets.warsurge.game.geom import Field
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.io import load_game_roster
from warbench.rulesets.warsurge.game.players import ScriptedPlayer
from warbench.rulesets.warsurge.game.state import GameSetup, GameState, Location, Phase, build_setup
from warbench.rulesets.warsurge.game.work import Work

ROSTERS = Path(__file__).parents[3] / "examples" / "warsurge" / "rosters"


def _sample() -> GameSetup:
    rosters = [load_game_roster(ROSTERS / n) for n in ("sci_fi_humans.yaml", "scavengers.yaml")]
    return build_setup(rosters, Field(sample_board("ruins_48x48")))


def _first(phase: Phase, seed: int = 0) -> GameState:
    """The first state of a seeded scripted game in ``phase`` with a unit on the table."""
    state, _ = engine.new_game(_sample(), seed)
    players = [ScriptedPlayer(), ScriptedPlayer()]
    while not state.over:
        on = [u for u in state.units if u.location is Location.TABLE]
        if state.flow.phase is phase and on and state.pause is None and state.restore is None:
            return state
        side = engine.acting_side(state)
        assert side is not None
        state, _ = engine.apply(state, players[side].choose(state))
    raise AssertionError(f"no {phase} state")


def _same(a: tuple[GameState, list[Event]], b: tuple[GameState, list[Event]]) -> bool:
    return a[0].digest() == b[0].digest() and [e.to_dict() for e in a[1]] == [
        e.to_dict() for e in b[1]
    ]


def _two_moves(state: GameState) -> tuple[Move, Move]:
    """Two legal Moves of the acting side that end in different places."""
    w = Work(state, None, DEFAULT_HOOKS)
    side = engine.acting_side(state)
    for uid in w.acting_units(side):
        if w.units[uid].location is not Location.TABLE:
            continue
        c = w.xy(uid).mean(axis=0)
        moves = [
            Move(uid, to=(float(c[0]) + dx, float(c[1]) + dy))
            for dx, dy in ((3.0, 0.0), (-3.0, 0.0), (0.0, 3.0), (0.0, -3.0))
        ]
        legal = [m for m in moves if engine.can(state, m)]
        if len(legal) >= 2:
            return legal[0], legal[1]
    raise AssertionError("no unit with two legal Moves")


def test_trial_then_apply_is_a_fresh_apply() -> None:
    """The kept answer is the answer of ``apply`` on a copy of the state (no kept answers);
    another action to the same state is applied afresh, not answered with the kept one."""
    state = _first(Phase.MOVE)
    m1, m2 = _two_moves(state)
    tried = engine.trial(state, m1)
    fresh1 = engine.apply(replace(state), m1)
    assert _same(tried, fresh1)
    again = engine.apply(state, m1)
    assert again[0] is tried[0]  # kept: not applied again
    assert _same(again, fresh1)
    # the kept answer is the action's: another Move is applied afresh
    other = engine.apply(state, m2)
    assert _same(other, engine.apply(replace(state), m2))
    assert other[0].digest() != tried[0].digest()
    # a copy of the state (another state object) keeps nothing: applied afresh
    assert engine.apply(replace(state), m1)[0] is not tried[0]


def test_trial_answers_no_apply_with_other_dice() -> None:
    """An Attack kept by ``trial`` (the step's own dice) is not the answer for other dice:
    ``apply`` with dice given rolls them, as on a copy of the state."""
    state = _first(Phase.ATTACK)
    w = Work(state, None, DEFAULT_HOOKS)
    side = engine.acting_side(state)
    attack = None
    for uid in w.acting_units(side):
        wt = engine.weapon_targets(w, uid)
        if wt:
            attack = Attack(uid, tuple((wn, ts[0]) for wn, ts in wt.items()))
            break
    assert attack is not None and engine.can(state, attack)
    tried = engine.trial(state, attack)
    assert _same(tried, engine.apply(replace(state), attack))
    differ = 0
    for seed in range(1, 6):
        rolled = engine.apply(state, attack, dice=SeededDice(seed))
        assert rolled[0] is not tried[0]
        assert _same(rolled, engine.apply(replace(state), attack, dice=SeededDice(seed)))
        differ += not _same(rolled, tried)
    assert differ  # the dice matter to this Attack: the kept answer would have been wrong


def test_blocked_translations_off_the_board_at_the_last_float() -> None:
    """Moves ending at each edge of the board to the last float (one step either side of
    where ``clearly_illegal`` starts refusing): the very refusals, model by model."""
    state = _first(Phase.MOVE)
    w = Work(state, None, DEFAULT_HOOKS)
    uid = next(u.uid for u in w.units if u.location is Location.TABLE and len(u.present()) >= 2)
    for u in w.units:  # the unit alone on the table: only the edges refuse
        if u.uid != uid and u.location is Location.TABLE:
            w.set_unit(u.uid, location=Location.RESERVE)
    starts = w.xy(uid)
    moving = list(range(len(starts)))
    r = w.info(uid).radius
    f = w.field
    margin = coherency._MARGIN
    refused = passed = 0
    for axis, sign, edge in (
        (0, 1.0, f.width - r + 1e-6 + margin),
        (0, -1.0, r - 1e-6 - margin),
        (1, 1.0, f.height - r + 1e-6 + margin),
        (1, -1.0, r - 1e-6 - margin),
    ):
        way = (sign, 0.0) if axis == 0 else (0.0, sign)
        extreme = float(starts[:, axis].max() if sign > 0 else starts[:, axis].min())
        base = abs(edge - extreme)
        lengths = [float(x) for x in np.nextafter(base, [0.0, np.inf])] + [base, base + 0.5]
        lengths += [float(np.nextafter(lengths[-1], np.inf)), base / 2.0]
        cands = np.repeat(starts[None], len(lengths), axis=0)
        for c, length in enumerate(lengths):
            cands[c, moving] = starts[moving] + np.asarray(way) * length
        want = coherency.clearly_illegal(w, uid, starts, cands).tolist()
        got = coherency.clearly_blocked_translations(w, uid, starts, moving, way, lengths)
        assert got == want
        refused += sum(got)
        passed += len(got) - sum(got)
    assert refused >= 4 and passed >= 4  # both answers seen at every edge


def test_closest_gaps_are_the_least_edge_distances_bit_for_bit() -> None:
    """``closest_gaps`` (``engine._closest_gaps`` until session 39, now the oracle of
    ``sight_jit.closest_gaps``: the least square first, then its root less the radii) gives
    the very floats of ``geom.edge_distances(...).min(axis=0)``: one model and several, bases
    of several radii, points on a fine grid (ties) and scattered at random."""
    rng = np.random.default_rng(32)
    compared = 0
    for m in (1, 2, 3, 10):
        for n in (1, 7, 70):
            for grid in (False, True):
                a = rng.random((m, 2)) * 48.0
                b = rng.random((n, 2)) * 48.0
                if grid:  # many equal distances, and bases on the models' own centres
                    a, b = np.round(a * 4.0) / 4.0, np.round(b * 4.0) / 4.0
                    b[: min(n, m)] = a[: min(n, m)]
                rb = rng.choice([0.5, 0.6299, 1.0, 1.57], size=n)
                for ra in (0.5, 1.57):
                    want = geom.edge_distances(a, ra, b, rb).min(axis=0)
                    got = closest_gaps(a, ra, b, rb)
                    assert got.tobytes() == want.tobytes()
                    compared += 1
    assert compared == 48
