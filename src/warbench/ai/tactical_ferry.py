"""A habit of the ``tactical`` player added in session 39 (issue 15: the transport mirror of
``warbench.sim.army_kinds``, a Rhino with ten and two Breachers, against random-legal).

**Gets back in only for a ride into an attack** (:func:`ride_pays`, switch
``TacticalBot.ride_to_attack``). Passengers get out by the nearest enemy
(``tactical.DISEMBARK_DISTANCE``) and a melee unit gets in by the distance to the foe it heads
for (``tactical.EMBARK_DISTANCE``), two different enemies: in main's transport mirror a unit
of two Breachers got out of the Rhino and back in every Game Turn from 2 to 5 and never
attacked (docs/ai.md, session 38). Getting in by the nearest enemy instead (session 38's
``embark_by_nearest``) ended that game but cost three others in which the Rhino had carried
the Breachers back into a winning attack.

This habit keeps the ride that pays. A unit that got out of a Transport this Game Turn or the
last gets back in only when the Transport then carries it into an attack it could not make
on foot by the next Game Turn's Attack Phase, against the foe it heads for (Core Rules
001_d3f5e425c5e1196d.txt §2.2: Move, Attack and Dash Phases in that order; §6.2: a unit
embarks with its Move or Dash and the Transport, if it has not moved yet, may still Move;
§6.3: passengers disembark within their Move or Dash of the Transport, which is not a charge,
§4.3):

* on foot, from the Move Phase: its Move now, its Dash, and its Move next Game Turn into
  Base Contact (``2 Move + Dash``); from the Dash Phase its Dash and that Move;
* riding, from the Move Phase: it spends its Move getting in, the Transport makes its Move
  (when it has not moved this Game Turn), the unit disembarks with its Dash in the Dash Phase
  and charges with its Move next Game Turn (``Transport Move + Dash + Move``, measured from
  the Transport); from the Dash Phase the ride ends in the next Move Phase's disembark, which
  is no charge, so it is never an attack by the next Attack Phase.

A unit that has not got out lately (deployed on foot, far from the enemy) gets in as before.
"""

from __future__ import annotations

import numpy as np

from warbench.rulesets.warsurge.game.movement import unit_allowance
from warbench.rulesets.warsurge.game.work import Work

#: A unit that got out this many Game Turns ago or fewer "gets back in" (this Game Turn or the
#: last).
RECENT_TURNS = 1


def gap(w: Work, a: int, b: int) -> float:
    """The edge distance between the nearest models of units ``a`` and ``b`` (§5.3
    measuring, round bases)."""
    pa, pb = w.xy(a), w.xy(b)
    if not len(pa) or not len(pb):
        return float("inf")
    d = np.hypot(pa[:, None, 0] - pb[None, :, 0], pa[:, None, 1] - pb[None, :, 1])
    return float(d.min()) - w.info(a).radius - w.info(b).radius


def foot_reach(w: Work, uid: int, dash: bool) -> float:
    """How far ``uid`` goes on foot before the next Game Turn's Attack Phase: from the Move
    Phase its Move, Dash and next Move (``2 Move + Dash``), from the Dash Phase its Dash and
    next Move (§2.2, §4.3)."""
    move = float(unit_allowance(w, uid, False))
    run = float(unit_allowance(w, uid, True))
    return run + move if dash else 2.0 * move + run


def ride_reach(w: Work, uid: int, tr: int, dash: bool) -> float | None:
    """How far from Transport ``tr``'s edge ``uid`` reaches by the next Game Turn's Attack
    Phase if it gets in now: the Transport's Move (when it has not moved this Game Turn), the
    unit's Dash out of it and its Move next Game Turn (§6.2-6.3); ``None`` from the Dash
    Phase (the ride ends in a disembark next Move Phase, which is no charge, §4.3)."""
    if dash:
        return None
    t = w.units[tr]
    carry = 0.0 if t.unit_moved or t.unit_dashed else float(unit_allowance(w, tr, False))
    return carry + float(unit_allowance(w, uid, True)) + float(unit_allowance(w, uid, False))


def ride_pays(w: Work, uid: int, tr: int, foe: int, dash: bool) -> bool:
    """Whether getting into Transport ``tr`` now carries ``uid`` into an attack on ``foe`` by
    the next Game Turn's Attack Phase that it could not make on foot (module docstring)."""
    ride = ride_reach(w, uid, tr, dash)
    if ride is None:
        return False
    return gap(w, tr, foe) <= ride and gap(w, uid, foe) > foot_reach(w, uid, dash)


def got_out_lately(last_out: int | None, turn: int) -> bool:
    """Whether a unit that last got out of a Transport in Game Turn ``last_out`` (``None``:
    never) got out this Game Turn or the last (:data:`RECENT_TURNS`)."""
    return last_out is not None and turn - last_out <= RECENT_TURNS
