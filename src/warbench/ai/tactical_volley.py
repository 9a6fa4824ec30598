"""The first exchange of fire (issue 15, session 39, s39-fire): **a full volley or none**.

Replayed, main's lost mirrors (line, horde and fast against random-legal, docs/ai.md, session
38) lost their first exchange of fire in 19 of 28 games, and in most of them a tactical unit
had walked (or Dashed) to where only its front models reached: a deep formation of ten
Troopers or fifteen Rabble whose nearest model ends 16-17.6" from an 18" gun's target fires
with one to three models (Core Rules 001_d3f5e425c5e1196d.txt L851-860 step II: only the
models within Range attack), while the enemy unit, walking the last inches itself in the same
Game Turn, fires back with most of its own (casualties are removed only at the end of the
Attack Phase, L2872, so both volleys are made).

With the switch (``TacticalBot(full_volley=True)``, :func:`volley_moves`) a shooter whose
best move toward the enemy would end in such a **sliver** (some of its models within its
longest Range of an enemy unit it sees, fewer than :data:`FULL_SHARE` of them) looks first
for a move that brings at least that share within Range of a unit it sees (a full volley
this Game Turn), and else stops short along the same way, where none of its models is within
Range of an enemy it sees (it lets the enemy come, and steps in whole next time; in one Game
Turn only, :data:`WAIT_TURNS`, so it does not wait all game). A move that
ends with no enemy in Range, or with the whole unit in it, is played as before.

The second switch, ``TacticalBot(range_share=True)`` (:func:`range_share`), is the same
sentence in the Attack Phase: the focus fire priced each shot as the volley of the unit's
models still standing, so a target that one model of ten reaches looked as good as one they
all reach; with it a shot is scaled by the share of the models within the weapon's Range.

Both are off by default (docs/ai.md, "Measured (issue 15, session 39, s39-fire ...)"):
``full_volley`` changed the mirrors' results both ways about evenly and cost the ladder's Red
half against the scripted player 7 of its wins (1 won back); ``range_share`` won 12 and lost 2
of main's results in the line, horde and fast mirrors, but lost 3 of the Red half's wins
against random-legal, not yet explained.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from warbench.ai.tactical_reach import _in_range
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Move
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.state import GameState
from warbench.rulesets.warsurge.game.work import Work

#: The share of a unit's models within Range of a target it sees that counts as a full volley.
FULL_SHARE = 0.75
#: The fractions of the first move's way tried, longest first, when the unit stops short.
SHORT_STEPS = (0.8, 0.6, 0.4, 0.2)
#: The moves (after the first) weighed for a full volley.
VOLLEY_TRIES = 6
#: The Game Turns in which a unit may stop short (the first in which it does, counted from
#: then): it lets the enemy come once, then goes in as before, so it does not wait all game
#: on a way where no move brings the whole unit in (a column in a street).
WAIT_TURNS = 1


def volley_share(w: Work, uid: int) -> float | None:
    """The largest share of ``uid``'s models within its longest Range of one enemy unit its
    weapons may attack where it stands in ``w`` (in Range and in sight of some model,
    §5.2-5.5; only the models within Range attack, L851-860 step II); ``None`` when it may
    attack none (or has no gun)."""
    longest = max((wp.range for wp in w.info(uid).unit.weapons if wp.range > 1), default=None)
    if longest is None:
        return None
    targets = {t for ts in engine.weapon_targets(w, uid, limit=4).values() for t in ts}
    if not targets:
        return None
    return max(_in_range(w, uid, t, float(longest)) for t in targets)


def _share_after(state: GameState, move: Move) -> tuple[bool, float | None]:
    """Whether the engine allows ``move``, and :func:`volley_share` after it."""
    if not engine.can(state, move):
        return False, None
    after, _ = engine.apply(state, move)
    return True, volley_share(Work(after, None, DEFAULT_HOOKS), move.unit)


def is_sliver(share: float | None) -> bool:
    """Some models reach a target, fewer than :data:`FULL_SHARE` of them."""
    return share is not None and share < FULL_SHARE - 1e-9


def volley_moves(
    state: GameState, w: Work, uid: int, moves: Sequence[Move], may_stop: bool = True
) -> tuple[list[Move], bool] | None:
    """The moves to play instead of ``moves`` (best first), or ``None`` to keep them: when
    the first of ``moves`` (the unit's best way toward the enemy) ends in a sliver
    (:func:`is_sliver`), the moves among the next :data:`VOLLEY_TRIES` after which at least
    :data:`FULL_SHARE` of the unit's models are within Range of a target (in their order),
    else the longest stop along the first move's way (:data:`SHORT_STEPS`) after which no
    model is within Range of a target it sees (only with ``may_stop``: a unit waits in one
    Game Turn only, :data:`WAIT_TURNS`), with ``True`` for a stop; ``None`` when there is
    neither."""
    if not moves or moves[0].to is None:
        return None
    ok, share = _share_after(state, moves[0])
    if not ok or not is_sliver(share):
        return None
    full: list[Move] = []
    for m in moves[1 : 1 + VOLLEY_TRIES]:
        ok, s = _share_after(state, m)
        if ok and s is not None and not is_sliver(s):
            full.append(m)
    if full:
        return full, False
    if not may_stop:
        return None
    centre = w.xy(uid).mean(axis=0)
    cx, cy = float(centre[0]), float(centre[1])
    tx, ty = moves[0].to
    if math.hypot(tx - cx, ty - cy) < 0.5:
        return None
    for f in SHORT_STEPS:
        short = Move(uid, to=(cx + f * (tx - cx), cy + f * (ty - cy)), dash=moves[0].dash)
        ok, s = _share_after(state, short)
        if ok and s is None:
            return [short], True
    return None


def range_share(w: Work, a: int, b: int, weapon: str | None) -> float:
    """The share of ``a``'s models within ``weapon``'s Range of ``b`` (1 for a melee weapon
    or an unknown name): the focus fire's scale for the models that attack (L851-860 step
    II), with ``TacticalBot(range_share=True)``."""
    ranges = [wp.range for wp in w.info(a).unit.weapons if weapon is None or wp.name == weapon]
    reach = max(ranges, default=0)
    if reach <= 1:
        return 1.0
    return _in_range(w, a, b, float(reach))


def may_wait(waits: dict[int, int], uid: int, turn: int) -> bool:
    """Whether ``uid`` may still stop short in Game Turn ``turn`` (:data:`WAIT_TURNS` from
    the first in which it did, as ``waits`` records; a turn before the first is a new game)."""
    first = waits.get(uid)
    if first is None or turn < first:
        return True
    return turn < first + WAIT_TURNS
