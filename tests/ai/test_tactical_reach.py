"""The tactical player's fire position and approach (issue 15, session 28, ``ai.tactical_reach``)
on constructed states: each fails with its habit switched off. Core Rules
001_d3f5e425c5e1196d.txt: casualties are removed at the end of the Attack Phase (L2872), so
both sides fire in it; only the models within Range attack (L851-860 step II)."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from tests.warsurge.game.helpers import entry, scenario, unit, weapon
from warbench.ai.tactical import TacticalBot
from warbench.ai.tactical_reach import incoming, outgoing, still_to_move
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Move, Pass
from warbench.rulesets.warsurge.game.state import GameState, Phase
from warbench.rulesets.warsurge.game.work import Work


# The habit is the ``tactical:2`` level's; it is off at the default level (docs/ai.md,
# session 28: it cost the +1 Defence/+1 Power army its edge).
def reach_bot(**switches: bool) -> TacticalBot:
    """A fresh bot of the ``tactical:2`` level (a bot remembers its phase), ``switches`` off.
    These states hold one unit a side, for which the default level plays the habit too since
    session 30 (``few_units_reach``, ``tests/ai/test_tactical_kinds.py``): off here, so each
    switch is tested alone."""
    return replace(
        TacticalBot(fire_position=True, fire_approach=True, few_units_reach=False), **switches
    )


def _work(state: GameState) -> Work:
    return engine.legal_actions(state)._work


def _line_and_column(gap: float) -> GameState:
    """Move Phase, side 0 to act: its Riflemen (uid 0: four models abreast at y 5, Move 6",
    Range 24") face enemy Riflemen of the same profile in a column of eight (uid 1, 1.5"
    apart, the front one ``gap`` inches beyond the line, edge to edge) that have already
    moved this phase."""
    rifle = weapon("Rifle", range=24, attacks=2, power=4)
    ours = unit("Line", models=4, weapons=[rifle])
    theirs = unit("Column", models=8, weapons=[rifle])
    r = 25.4 / 25.4 / 2  # 25.4 mm bases: 0.5" radius
    front = 5.0 + 2 * r + gap
    state = scenario(
        [[entry(ours)], [entry(theirs)]],
        {
            0: [(21.0 + 2.0 * k, 5.0) for k in range(4)],
            1: [(24.0, front + 1.5 * k) for k in range(8)],
        },
        phase=Phase.MOVE,
    )
    units = list(state.units)
    units[1] = replace(units[1], acted=True)
    return replace(state, units=tuple(units))


def _front_gap(state: GameState) -> float:
    w = _work(state)
    a, b = w.xy(0), w.xy(1)
    d = np.hypot(a[:, None, 0] - b[None, :, 0], a[:, None, 1] - b[None, :, 1])
    return float(d.min()) - 2 * w.info(0).radius


def test_fire_position_L2872_backs_off_to_the_edge_of_range_where_fewer_enemies_reach() -> None:
    """The line stands 16" from the column's front: all four of its models reach the column
    and five of the column's eight reach back (L851-860: only models in Range attack).
    Standing still used to be the rule (a target in sight); with the habit it steps back
    toward the edge of its Range, where its four still reach the front model and fewer of
    the column do: the expected exchange is better there."""
    state = _line_and_column(16.0)
    w = _work(state)
    bot = reach_bot()
    here = outgoing(w, 0, bot._dist, bot._covered) - incoming(w, 0, bot._dist, still_to_move(w, 0))
    move = bot.choose(state)
    assert isinstance(move, Move) and move.unit == 0
    after, _ = engine.apply(state, move)
    wa = Work(after, None, w.hooks)
    there = outgoing(wa, 0, bot._dist, bot._covered) - incoming(
        wa, 0, bot._dist, still_to_move(w, 0)
    )
    assert there > here + 0.5
    assert 19.0 < _front_gap(after) <= 24.0 + 1e-6
    assert isinstance(reach_bot(fire_position=False).choose(state), Pass)


def test_fire_approach_L2872_stops_at_the_edge_of_range_not_a_full_move_in() -> None:
    """The line stands 28" from the column's front, out of its Range: a full 6" move along
    its path ends 22" away, where five of the column reach it. With the habit it stops where
    its nearest models are just inside 24": its four reach, the column's front one does."""
    state = _line_and_column(28.0)
    stops_at_the_edge(state, reach_bot(), reach_bot(fire_approach=False))
    assert math.isclose(_front_gap(state), 28.0, abs_tol=0.1)


def stops_at_the_edge(state: GameState, on: TacticalBot, off: TacticalBot) -> None:
    """On the line 28" from the column: ``on`` moves unit 0 until its nearest models are just
    inside 24" (its Range), ``off`` walks the full move (to 22")."""
    move = on.choose(state)
    assert isinstance(move, Move) and move.unit == 0
    after_on, _ = engine.apply(state, move)
    assert 23.0 <= _front_gap(after_on) <= 24.0 + 1e-6
    walk = off.choose(state)
    assert isinstance(walk, Move)
    after_off, _ = engine.apply(state, walk)
    assert _front_gap(after_off) < 23.0


def test_the_habit_is_the_tactical_2_level_and_off_at_the_default_level() -> None:
    """``tactical`` (= ``tactical:1``) plays without the habit, ``tactical:2`` with it; on the
    line 16" from the column the default level stands and shoots, level 2 steps back. (Since
    session 30 the default level plays it too for an army of one or two units,
    ``few_units_reach``, ``tests/ai/test_tactical_kinds.py``; switched off here.)"""
    from warbench.ai.players import make_player

    state = _line_and_column(16.0)
    assert isinstance(TacticalBot(few_units_reach=False).choose(state), Pass)
    assert isinstance(reach_bot().choose(state), Move)
    args = ("warsurge", object(), 0, 0)
    default = make_player("tactical", *args)
    level_2 = make_player("tactical:2", *args)
    assert not default.bot.fire_position and not default.bot.fire_approach  # type: ignore[attr-defined]
    assert level_2.bot.fire_position and level_2.bot.fire_approach  # type: ignore[attr-defined]
