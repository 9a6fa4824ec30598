"""Habits of the ``tactical`` player added in session 30 for armies of one or two units
(issue 15: the elite, big and fast mirrors of ``warbench.sim.army_kinds``).

**A small army fights from the better spot** (:func:`small_army`, switch
``TacticalBot.few_units_reach``). Casualties are removed only at the end of the Attack Phase,
once every player has attacked (Core Rules 001_d3f5e425c5e1196d.txt L2872), so an enemy unit in
Range and in sight fires back in the same phase whatever the order: nothing is won by shooting
first, only by **where** the exchange is fought — the target's Cover Bonus (+1 Defence, §5.6
L2493-2497), the models out of sight that neither attack nor can be chosen as casualties (§5.5
L2443-2463), and the models out of Range that do not attack (L851-860 step II). Session 28's
habit *fights from the better spot* (``ai.tactical_reach``: a shooter with a target in sight
weighs a ring of spots within its Move by what it is expected to take there less what the
enemy is expected to take off it, and moves where that beats standing still; one coming into
Range stops where the exchange favours it) is the level ``tactical:2`` only, because in the
skirmish ladder's +1 army pairing (three units a side, both sides playing it) it cost the
stronger army its lead. With one or two units a side the game is one or two such exchanges
(docs/ai.md, session 28, causes 1-2: the elite mirror's lost games were never ahead at any
Game Turn's end), so where each is fought weighs most: an army whose roster holds at most
:data:`SMALL_ARMY` units plays the habit at every level. The roster's count is the set-up's,
so it does not change as units fall, and an army of three or more units (the skirmish
rosters of the ladder) plays exactly as before.

**A small army keeps its lead** (:func:`ahead`, :func:`steps_away`, switch
``TacticalBot.small_lead``). The exchanges are even, so a side that is ahead on points
(§2.2 step 8: the value left decides) only risks its lead by trading on; a Dash comes after
the Attack Phase (L552) and a model that used only Assault weapons may still make it (§5.1
L2244-2246). While its side is ahead, a unit of a small army that may Dash steps away (at
its Dash, in one of eight directions) to where the enemy is expected to take least off it
next Game Turn (each enemy's Move added), and in the Move Phase a unit out of every
enemy's reach does not walk into it unless its fire approach finds a spot where the
exchange is expected to favour it.

Tried in session 30 and dropped for want of a gain (docs/ai.md): a melee unit that keeps
its side's lead out of even Melees, and a trailing unit that never steps out of the
exchange to hide.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from warbench.rulesets.warsurge.game.actions import Move
from warbench.rulesets.warsurge.game.state import GameState
from warbench.rulesets.warsurge.game.work import Work

#: An army whose roster holds at most this many units fights from the better spot.
SMALL_ARMY = 2
#: A side is ahead when its value beats every other side's by this share (as the tactical
#: player's ``AHEAD_MARGIN``).
LEAD_MARGIN = 0.02
#: The directions a unit keeping its side's lead tries to step away in (evenly spaced).
AWAY_DIRECTIONS = 8


def small_army(w: Work, side: int) -> bool:
    """Whether ``side``'s roster holds at most :data:`SMALL_ARMY` units (counted as set up,
    so the answer does not change as units fall)."""
    return len(w.side_units(side)) <= SMALL_ARMY


def ahead(state: GameState, side: int) -> bool:
    """Whether ``side``'s value on the battlefield beats every other side's by
    :data:`LEAD_MARGIN` (§2.2 step 8)."""
    values = state.side_values()
    mine = values[side]
    others = max((v for k, v in enumerate(values) if k != side), default=0.0)
    return mine > others * (1.0 + LEAD_MARGIN)


def steps_away(
    w: Work,
    uid: int,
    allowance: float,
    seen: Callable[[Move | None], float],
    dash: bool,
) -> list[Move]:
    """Moves of ``uid`` by ``allowance`` in each of :data:`AWAY_DIRECTIONS` directions after
    which it is less exposed than where it stands (``seen(move)``, ``seen(None)`` where it
    stands: what the enemy is expected to take off it by sight and Cover, §5.5-5.6, each
    enemy's Move added), least exposed first; empty where it is not exposed or no step helps."""
    centre = w.xy(uid).mean(axis=0)
    here = (float(centre[0]), float(centre[1]))
    now = seen(None)
    if now <= 0.0 or allowance <= 0.0:
        return []
    ranked: list[tuple[float, int, Move]] = []
    for k in range(AWAY_DIRECTIONS):
        angle = 2 * math.pi * k / AWAY_DIRECTIONS
        to = (here[0] + allowance * math.cos(angle), here[1] + allowance * math.sin(angle))
        move = Move(uid, to=to, dash=dash)
        risk = seen(move)
        if risk < now - 1e-9:
            ranked.append((risk, k, move))
    ranked.sort(key=lambda r: (r[0], r[1]))
    return [m for _, _, m in ranked]
