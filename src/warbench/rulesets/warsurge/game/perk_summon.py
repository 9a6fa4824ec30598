"""Summon in a game (Perks 000_94ecc6a4c74d351b.txt §12.6 Traits, L4219-L4242).

    "This Unit is produced as a new Unit once at the start of every Game Turn. Deploy the Unit
    following normal Deployment rules. In Advanced Games, the Summon Unit must be Deployed at
    the start of each Game Turn, before determining CP. The Unit is not to be kept in Reserve
    when it is produced; it must be Deployed onto the Battlefield, or the Unit counts as
    destroyed. The only exception is if the Summon Unit has a Deployment Perk such as Seed
    which forces it to be in Reserve; in this case, the Unit will be produced and held in
    Reserve."

* **The copies** are made with the set-up (``GameSetup.summons``): one for each Game Turn from
  2 to the game's safety cap (the unit itself is the one of Game Turn 1), after every other
  unit, labelled "(Summon <turn>)"; a copy not produced yet counts as destroyed
  (``state.initial_state``).
* **Produced** (:func:`summon_at_turn_start`, ``Hook.TURN_START``, before the Turn Master
  roll-off and so before Command Points): the copy of the Game Turn is deployed by the engine
  (docs/rulings.md "session 25, s25-lead" 13) in a formation inside its side's Deployment
  Zone, as near its middle as there is room (``coherency.place_unit``); no room: it counts as
  destroyed. A copy with Seed I or Phoenix goes into Reserve instead, held there as those
  perks hold a unit (``perk_deploy.arrivals``).
* **Victory Conditions**: ``perk_summon_value`` (the HP left of all the units produced, a Game
  Turn each).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.perk_summon_value import SUMMONED
from warbench.rulesets.warsurge.game.perk_turn import index
from warbench.rulesets.warsurge.game.state import Location

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["RULE", "SUMMON", "register_hooks", "summon_at_turn_start"]

SUMMON = "Summon"
RULE = "Perks §12.6 Summon (000_94ecc6a4c74d351b.txt L4219)"
#: Deployment Perks that keep a unit in Reserve (L4229 "such as Seed").
HELD_IN_RESERVE = frozenset({"Seed I", "Phoenix"})


def summon_at_turn_start(work: Work, turn: int) -> None:
    """L4219: the copy of this Game Turn of each Summon unit is produced and deployed."""
    from warbench.rulesets.warsurge.game.coherency import place_unit

    for copy, original, due in work.setup.summons:
        if due != turn or work.units[copy].counter(SUMMONED):
            continue
        work.units[copy] = work.units[copy].with_counter(SUMMONED, turn)
        work.dirty = True
        if index(work.setup).units[copy].unit & HELD_IN_RESERVE:
            work.set_unit(copy, location=Location.RESERVE)
            work.emit("perk", f"{work.label(copy)} is produced and held in Reserve (Summon)",
                      RULE, unit=copy, perk=SUMMON, original=original)  # fmt: skip
            continue
        zone = work.zones[work.info(copy).side]
        placed = None
        if zone is not None:
            x0, y0, x1, y1 = work.field.zone_bounds(zone)
            placed = place_unit(work, copy, ((x0 + x1) / 2, (y0 + y1) / 2), zone=zone)
        if placed is None:
            work.emit("perk", f"{work.label(copy)} is produced but there is no room to deploy "
                      "it: it counts as destroyed (Summon)", RULE, unit=copy, perk=SUMMON,
                      original=original)  # fmt: skip
            continue
        work.set_unit(copy, location=Location.TABLE, pos=placed)
        work.emit("perk", f"{work.label(copy)} is produced and deployed in its Deployment Zone "
                  "(Summon)", RULE, unit=copy, perk=SUMMON, original=original)  # fmt: skip
        if work.hooks.active(Hook.DEPLOY):
            work.hooks.fire(Hook.DEPLOY, work, unit=copy)


def register_hooks(reg: HookRegistry) -> None:
    """Register this module's hooks (one call from ``perk_families.register_family_hooks``)."""
    reg.register(Hook.TURN_START, summon_at_turn_start, "Summon (a copy produced)", perks=[SUMMON])
