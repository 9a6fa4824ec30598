"""A habit of the ``tactical`` player added in session 33 (issue 15, the losses to
random-legal): **a Heavy gun leaves a losing exchange** (switch ``TacticalBot.heavy_withdraw``).

A unit whose guns are all Heavy may not fire them in a Game Turn in which it moved (Core Rules
001_d3f5e425c5e1196d.txt §5.1), so with a target in sight it used to stand and fire, whatever
came back: casualties are removed only at the end of the Attack Phase (L2872), so every enemy
unit in Range and in sight of it fires back in the same phase. The Sniper Troopers of the
skirmish pair (three 30-point models, Defence 3) are expected to take 27.5 points a volley off
the Urban Hunter Car (1 of its 4 HP) and the Car's Autocannon 50 off them (1.67 HP); standing
in its sight they were shot down in Game Turns 2-4 of lost games (docs/ai.md, session 33).

With the habit, in the Move Phase such a unit weighs standing (what its guns are expected to
take, :func:`~warbench.ai.tactical_reach.outgoing`, less what the enemy units that see it are
expected to take off it, :func:`~warbench.ai.tactical_reach.incoming`, their Move added while
they may still move) against the spots within its Move (a ring round it and the ends of its
path moves): there its Heavy guns are silent (§5.1), so a spot is worth minus what the enemy
is expected to take off it there, out of sight (§5.5) or in cover (§5.6). It moves to the best
spot when that beats standing by :data:`MARGIN`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from warbench.ai.tactical_reach import Covered, Dist, incoming, outgoing, still_to_move
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Move
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.state import GameState, Phase
from warbench.rulesets.warsurge.game.work import Work

#: The directions of the ring of spots tried (evenly spaced).
DIRECTIONS = 8
#: The fractions of the Move allowance at which spots are tried.
RINGS = (0.5, 1.0)
#: How much better (point value) a spot must be than standing and firing to move there.
MARGIN = 5.0


def all_heavy(w: Work, uid: int) -> bool:
    """Whether every gun (Range over 1") of ``uid`` is Heavy and it has one (§5.1)."""
    guns = [wp for wp in w.info(uid).unit.weapons if wp.range > 1]
    return bool(guns) and all(wp.type.value == "Heavy" for wp in guns)


def withdrawals(
    state: GameState,
    w: Work,
    uid: int,
    allowance: float,
    dist: Dist,
    covered: Covered,
    extra: Sequence[Move] = (),
) -> list[Move]:
    """The Moves (best first) of a unit whose guns are all Heavy to spots within
    ``allowance`` where minus the enemy's expected take off it beats standing and firing
    (its take less the enemy's) by :data:`MARGIN`; empty when standing is as good."""
    if w.flow.phase is not Phase.MOVE or allowance <= 0 or not all_heavy(w, uid):
        return []
    moving = still_to_move(w, uid)
    here = outgoing(w, uid, dist, covered) - incoming(w, uid, dist, moving)
    centre = w.xy(uid).mean(axis=0)
    cx, cy = float(centre[0]), float(centre[1])
    moves: list[Move] = []
    for ring in RINGS:
        for j in range(DIRECTIONS):
            angle = 2 * math.pi * (j + 0.5 * (ring != RINGS[0])) / DIRECTIONS
            to = (cx + ring * allowance * math.cos(angle), cy + ring * allowance * math.sin(angle))
            moves.append(Move(uid, to=to))
    moves.extend(m for m in extra if not m.dash)
    scored: list[tuple[float, int, Move]] = []
    for k, move in enumerate(moves):
        if not engine.can(state, move):
            continue
        after, _ = engine.apply(state, move)
        score = -incoming(Work(after, None, DEFAULT_HOOKS), uid, dist, moving)
        if score > here + MARGIN:
            scored.append((-score, k, move))
    scored.sort()
    return [m for _, _, m in scored]
