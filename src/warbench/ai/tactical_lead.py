"""Habits of the ``tactical`` player added in session 37 (issue 15: every kind of army, the
big mirror of ``warbench.sim.army_kinds``).

**Plays for the lead** (switch ``TacticalBot.play_for_lead``, on by default; an army of one or
two units, ``tactical_kinds.small_army``). The game is decided on the point value each side
has left when it ends (Core Rules 001_d3f5e425c5e1196d.txt §2.2 step 8), so a side that is
ahead wins by keeping what it has. A Melee between two equal models is
a coin toss that, once begun, cannot be left (§4.4: engaged Units stay locked until one side
is gone), and both sides strike in full before casualties are removed (L2872). In the big
mirror (one Behemoth a side: Claws 5 attacks at Power 8 against Defence 8, each Attack Phase
about 2 HP of 18 each way) the tactical Behemoth that had taken the first HP with its Bile
Spit walked into a Melee as readily as one that had not, and lost two of the five such games
of main's seed 0 (docs/ai.md, session 37). With the switch, while its side is ahead on
points (:func:`ahead`, by :data:`LEAD_MARGIN`, as the fifth session's *holds out of reach*):

* it makes no charge into an even Melee (:func:`lead_charges`: one in which it is not
  expected to take more than it loses by ``TRADE_EDGE``, as session 29's trades; §4.3), and
* a melee unit for which every Melee on the table is even keeps out of the enemy's reach
  (:func:`keeps_lead`, :func:`lead_steps`): the enemy's charge reach before the next
  Attack Phase is its Move plus its Dash (§2.2: Move, Attack and Dash Phases, each
  alternating unit by unit, §4.1), its shooting reach that plus its longest Range; where
  the enemy reaches it, it steps away (straight from the nearest enemy, or 45 or 90
  degrees to a side) to where it reaches less, and otherwise it holds its ground: no
  exchange of shots or blows, each of which can only give the lead back. Its guns still
  fire at what comes into Range (the Attack Phase is not changed).

A side that is behind keeps seeking the fight (it must win points back), and from a Game
Turn that may be the last (§2.2 step 7, ``tactical_end.may_be_last``) its melee units Dash
toward the enemy without the sixth session's *no more exposed* test (:func:`must_fight`): a
game that ends now is lost anyway.

Only an army of one or two units plays so: with three units or more, one unit kept out of a
Melee does not keep the side's lead while the others fight on, and on the skirmish ladder's
Red half (three units a side) the habit without that gate lost 3 of main's wins in 200 games
and won none (docs/ai.md, session 37).

Tried and dropped (docs/ai.md, session 37): a shooter that, ahead, steps out of an exchange
that does not favour it (the line mirror won four of the five games it was aimed at and lost
four others), and counting a level side as ahead (the big mirror: 50 untouched draws in 50).

The level case (the brief's "level, with damage it can deal from range") is left to the
habits before: in main's seed-0 games a Melee begun level was won 20 times in 31 against
random-legal (docs/ai.md, session 37), more than the Bile Spit's 0.09 HP a Game Turn would
win by keeping away.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from warbench.ai.tactical_end import may_be_last
from warbench.ai.tactical_melee import TRADE_EDGE, Worth, behind
from warbench.ai.tactical_reach import enemy_units
from warbench.rulesets.warsurge.game.actions import Move
from warbench.rulesets.warsurge.game.movement import unit_allowance
from warbench.rulesets.warsurge.game.state import GameState, Phase
from warbench.rulesets.warsurge.game.work import Work

#: A side is ahead when its value on the battlefield beats every other side's by this share
#: (as ``tactical.AHEAD_MARGIN``: 1 HP of a 400-point Behemoth is 5.6%).
LEAD_MARGIN = 0.02


def ahead(state: GameState, side: int) -> bool:
    """Whether ``side``'s value on the battlefield beats every other side's by
    :data:`LEAD_MARGIN` (§2.2 step 8: the game is decided on the value left)."""
    values = state.side_values()
    mine = values[side]
    others = max((v for k, v in enumerate(values) if k != side), default=0.0)
    return mine > others * (1.0 + LEAD_MARGIN)


def even(gain: float, loss: float) -> bool:
    """A Melee expected to take ``gain`` and lose ``loss`` (point values) is no trade up: it
    does not take more than it loses by :data:`TRADE_EDGE`."""
    return gain <= loss * (1.0 + TRADE_EDGE)


def lead_charges(
    charges: Sequence[tuple[float, float, int]], state: GameState, w: Work, uid: int
) -> list[tuple[float, float, int]]:
    """The charges ``(gain, loss, foe)`` unit ``uid`` makes: all of them unless its side is
    ahead, then only those that trade up (not :func:`even`)."""
    if not ahead(state, w.info(uid).side):
        return list(charges)
    return [c for c in charges if not even(c[0], c[1])]


def keeps_lead(
    state: GameState, w: Work, uid: int, foes: Sequence[tuple[float, int]], worth: Worth
) -> bool:
    """Whether melee unit ``uid`` keeps out of the enemy's reach: its side is ahead and
    every Melee on the table (the four nearest enemy units) would be :func:`even`."""
    if not foes or not ahead(state, w.info(uid).side):
        return False
    return all(
        even(worth(w, uid, f, None, True), worth(w, f, uid, None, True)) for _, f in foes[:4]
    )


def _spread(w: Work, uid: int) -> float:
    """How far the unit's models reach from their centre, bases included."""
    xy = w.xy(uid)
    spread = w.info(uid).radius
    if len(xy) > 1:
        spread += float(np.hypot(*(xy - xy.mean(axis=0)).T).max())
    return spread


def reach_exposure(
    w: Work, uid: int, at: tuple[float, float], spread: float, worth: Worth
) -> float:
    """The point value the enemy units could take off ``uid`` with its centre at ``at`` (its
    models ``spread`` inches round it, bases included) by the next Attack Phase: each enemy
    unit on the table and not in a Melee counts its best attack, its melee within its Move
    plus Dash (a charge, §4.3) and its shooting within that plus its longest Range; sight is
    not checked."""
    total = 0.0
    for v, fi, longest in enemy_units(w, uid):
        fxy = w.xy(v.uid)
        if not len(fxy):
            continue
        gap = float(np.hypot(fxy[:, 0] - at[0], fxy[:, 1] - at[1]).min()) - fi.radius - spread
        step = float(fi.unit.profile.move) + float(fi.unit.profile.dash)
        best = 0.0
        if longest is not None and gap <= longest + step:
            best = worth(w, v.uid, uid, None, False)
        if any(wp.range <= 1 for wp in fi.unit.weapons) and gap <= step:
            best = max(best, worth(w, v.uid, uid, None, True))
        total += best
    return total


def lead_steps(
    w: Work,
    uid: int,
    foes: Sequence[tuple[float, int]],
    worth: Worth,
    seen: Callable[[Move | None], float],
) -> list[Move]:
    """The moves of a melee unit that keeps the lead (:func:`keeps_lead`): where the enemy
    reaches it (:func:`reach_exposure`), steps of its full allowance straight away from the
    nearest enemy, or 45 or 90 degrees to a side, that end no more reached and at least 1"
    farther from the enemy, the least reached first, then the farthest; of these only those
    after which it is no more in the enemy's sight (``seen(move)`` against ``seen(None)``,
    §5.5-5.6). None where nothing reaches it (it holds its ground)."""
    if not foes:
        return []
    centre = w.xy(uid).mean(axis=0)
    here = (float(centre[0]), float(centre[1]))
    spread = _spread(w, uid)
    now = reach_exposure(w, uid, here, spread, worth)
    if now <= 0.0:
        return []
    dash = w.flow.phase is Phase.DASH
    step = float(unit_allowance(w, uid, dash))
    foe = w.xy(foes[0][1]).mean(axis=0)
    away = math.atan2(here[1] - float(foe[1]), here[0] - float(foe[0]))
    gap_now = _gap(w, uid, here, spread)
    ranked: list[tuple[float, float, Move]] = []
    for turn in (0.0, math.pi / 4, -math.pi / 4, math.pi / 2, -math.pi / 2):
        to = (here[0] + step * math.cos(away + turn), here[1] + step * math.sin(away + turn))
        gap = _gap(w, uid, to, spread)
        risk = reach_exposure(w, uid, to, spread, worth)
        if risk <= now + 1e-9 and gap >= gap_now + 1.0:
            ranked.append((risk, -gap, Move(uid, to=to, dash=dash)))
    ranked.sort(key=lambda r: (r[0], r[1]))
    hidden = seen(None)
    return [m for _, _, m in ranked if seen(m) <= hidden + 1e-9]


def _gap(w: Work, uid: int, at: tuple[float, float], spread: float) -> float:
    """The edge distance from ``uid`` with its centre at ``at`` to the nearest enemy model on
    the table."""
    best = math.inf
    for v, fi, _ in enemy_units(w, uid):
        fxy = w.xy(v.uid)
        if len(fxy):
            d = float(np.hypot(fxy[:, 0] - at[0], fxy[:, 1] - at[1]).min())
            best = min(best, d - fi.radius - spread)
    return best


def must_fight(state: GameState, w: Work, uid: int) -> bool:
    """Whether ``uid``'s side is behind on points in a Game Turn that may be the last
    (§2.2 step 7): its melee units run at the enemy whatever they risk."""
    return may_be_last(w) and behind(state, w.info(uid).side)
