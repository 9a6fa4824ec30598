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

Tried in session 30 and dropped for want of a gain (docs/ai.md): a melee unit that keeps
its side's lead out of even Melees, a trailing unit that never steps out of the exchange to
hide, and a small army that, ahead, Dashes out of the next exchange and does not walk into
an even one.
"""

from __future__ import annotations

from warbench.rulesets.warsurge.game.work import Work

#: An army whose roster holds at most this many units fights from the better spot.
SMALL_ARMY = 2


def small_army(w: Work, side: int) -> bool:
    """Whether ``side``'s roster holds at most :data:`SMALL_ARMY` units (counted as set up,
    so the answer does not change as units fall)."""
    return len(w.side_units(side)) <= SMALL_ARMY
