"""Melee: engaging in close combat and its effects on movement.

Core Rules 001_d3f5e425c5e1196d.txt §4.3 (engaging: Base Contact with an enemy model locks both
units in a Melee), §4.4 (a unit in a Melee may only move to keep or gain contact), and the
Clash/Melee-use statuses that end with the Attack Phase (§5.8-5.9, Perks).
"""

from __future__ import annotations

from collections.abc import Sequence

from warbench.rulesets.warsurge.game import geom
from warbench.rulesets.warsurge.game.actions import (
    Point,
)
from warbench.rulesets.warsurge.game.state import (
    Location,
    Status,
)
from warbench.rulesets.warsurge.game.work import Work, clash_status, err, perks_of


def check_locked(w: Work, uid: int, new: Sequence[Point]) -> None:
    """§4.4 I-II: a unit in a Melee keeps Base Contact with the units it is locked with."""
    foes = w.engaged_with(uid)
    if not foes:
        return
    now = w.contacts(uid, geom.as_array(new))
    lost = [f for f in foes if f not in now]
    if lost:
        raise err(
            f"{w.label(uid)} is locked in a Melee and must keep Base Contact with "
            f"{', '.join(w.label(f) for f in lost)}",
            "§4.4",
        )


def engage_new_contacts(w: Work, uid: int) -> None:
    """§4.3: moving into Base Contact with an enemy unit locks both in a Melee."""
    if w.units[uid].location is not Location.TABLE:
        return
    for foe in sorted(w.contacts(uid)):
        pair = (min(uid, foe), max(uid, foe))
        if pair not in w.engaged:
            w.engaged.add(pair)
            w.emit(
                "melee",
                f"{w.label(uid)} and {w.label(foe)} are locked in a Melee",
                "§4.3",
                units=[uid, foe],
            )
            _mark_engaged(w, uid)
            _mark_engaged(w, foe)


def _mark_engaged(w: Work, uid: int) -> None:
    """Clash (P L3785-3792): every Clash weapon of a unit that engages an enemy in a Melee
    gains +1 Attack the first time it is used after that."""
    info = w.info(uid)
    names = [wp.name for wp in info.unit.weapons if perks_of(wp.perks).has("Clash")]
    if not names:
        return
    u = w.units[uid]
    add = [
        Status(clash_status(n), None, "Clash") for n in names if not u.has_status(clash_status(n))
    ]
    if add:
        w.set_unit(uid, statuses=(*u.statuses, *add))


def clear_melee_statuses(w: Work) -> None:
    """A unit no longer in any Melee forgets its Melee's weapon uses and unused Clash."""
    for u in list(w.units):
        if not u.statuses or any(u.uid in pair for pair in w.engaged):
            continue
        kept = tuple(s for s in u.statuses if not s.name.startswith(("Melee use: ", "Clash: ")))
        if kept != u.statuses:
            w.set_unit(u.uid, statuses=kept)
