"""Respawn in a game (Perks 000_94ecc6a4c74d351b.txt §12.6 Traits, L4205-L4217).

    "Respawn — Specific. At the start of the Game Turn, the player may choose to use Respawn on
    the Unit. If already on the Battlefield, the Unit is removed as a casualty. The Unit is then
    restored to full HP (with no negative Perk effects) and immediately Deployed via a
    Deployment Perk or within 6" of the Unit's Deployment Zone board edge (or if a large model,
    as close as possible). In Advanced Games, this is performed before determining CP. If the
    Unit Respawns, it counts as destroyed for Victory Conditions. If the Unit Respawns twice,
    it will be unable to seize or contest Objectives. Respawning does not reset Perks and
    Weapons with limited uses."

* **When** (:func:`respawn_at_turn_start`, ``Hook.TURN_START``, before the Turn Master roll-off
  and so before Command Points): from Game Turn 2, the engine's choice for the player
  (docs/rulings.md "session 25, s25-lead" 7): each destroyed unit with Respawn respawns; a
  unit still on the Battlefield is not removed to respawn.
* **How**: every model back at full HP, not removed; the negative Perk effects on it (the
  statuses an enemy's Affliction perk puts on a unit) gone, its other statuses, counters and
  limited uses kept; deployed in a formation (``coherency.place_unit``) inside its Deployment
  Zone with every model within 6" of a board edge that the zone touches (:func:`placement`),
  the edge's middle first. No room: it stays destroyed this Game Turn. ``Hook.DEPLOY`` fires.
* **Afterwards**: the unit's ``respawns`` counter (``state.RESPAWNS``) counts its respawns; a
  unit that respawned adds nothing to its side's Current Point Value at the end of the game
  (``GameState.side_values``: "counts as destroyed for Victory Conditions"), and one that
  respawned twice neither holds nor contests an Objective (:func:`may_hold`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.perk_illusion_slots import full_strength
from warbench.rulesets.warsurge.game.perk_turn import _negative_statuses, index
from warbench.rulesets.warsurge.game.state import RESPAWNS, Location

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.actions import Point
    from warbench.rulesets.warsurge.game.state import GameState
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["RESPAWN", "may_hold", "placement", "register_hooks", "respawn_at_turn_start"]

RESPAWN = "Respawn"
RULE = "Perks §12.6 Respawn (000_94ecc6a4c74d351b.txt L4205)"
#: L4207 "within 6" of the Unit's Deployment Zone board edge".
EDGE = 6.0
_SPOTS = (0.5, 0.3, 0.7, 0.1, 0.9)


def _edges(work: Work, zone: int) -> list[tuple[str, tuple[float, float, float, float]]]:
    """The board edges the zone touches, with the zone's bounding box."""
    f = work.field
    x0, y0, x1, y1 = f.zone_bounds(zone)
    eps = 1e-6
    out = []
    if x0 <= eps:
        out.append(("W", (x0, y0, x1, y1)))
    if x1 >= f.width - eps:
        out.append(("E", (x0, y0, x1, y1)))
    if y0 <= eps:
        out.append(("S", (x0, y0, x1, y1)))
    if y1 >= f.height - eps:
        out.append(("N", (x0, y0, x1, y1)))
    # the edge the zone lies along first (the longest stretch of it)
    return sorted(out, key=lambda e: -((x1 - x0) if e[0] in "SN" else (y1 - y0)))


def _from_edge(work: Work, side: str, p: Point) -> float:
    f = work.field
    return {"W": p[0], "E": f.width - p[0], "S": p[1], "N": f.height - p[1]}[side]


def placement(work: Work, uid: int) -> tuple[Point, ...] | None:
    """Where the respawning unit deploys: inside its side's Deployment Zone, every model's
    base within 6" of a board edge the zone touches; ``None`` when there is no room."""
    from warbench.rulesets.warsurge.game.coherency import place_unit

    zone = work.zones[work.info(uid).side]
    if zone is None:
        return None
    r = work.info(uid).radius
    for side, (x0, y0, x1, y1) in _edges(work, zone):
        inward = min(EDGE / 2, (x1 - x0) / 2 if side in "WE" else (y1 - y0) / 2)
        for t in _SPOTS:
            if side in "WE":
                x = x0 + inward if side == "W" else x1 - inward
                centre = (x, y0 + t * (y1 - y0))
            else:
                y = y0 + inward if side == "S" else y1 - inward
                centre = (x0 + t * (x1 - x0), y)
            placed = place_unit(work, uid, centre, zone=zone)
            if placed and all(_from_edge(work, side, p) - r <= EDGE + 1e-9 for p in placed):
                return placed
    return None


def _respawners(work: Work) -> list[int]:
    return [uid for uid, p in enumerate(index(work.setup).units) if RESPAWN in p.unit]


def respawn_at_turn_start(work: Work, turn: int) -> None:
    """L4205: from Game Turn 2, each destroyed unit with Respawn comes back at full HP,
    deployed within 6" of its Deployment Zone's board edge."""
    if turn < 2:
        return
    for uid in _respawners(work):
        u = work.units[uid]
        if u.location is not Location.DESTROYED:
            continue
        spot = placement(work, uid)
        if spot is None:
            work.emit("perk", f"{work.label(uid)} cannot Respawn: no room within 6\" of its "
                      "Deployment Zone's board edge", RULE, unit=uid, perk=RESPAWN)  # fmt: skip
            continue
        n = len(u.hp)
        negative = _negative_statuses()
        kept = tuple(s for s in u.statuses if s.name.partition("@")[0] not in negative)
        count = u.counter(RESPAWNS) + 1
        work.units[uid] = u.with_counter(RESPAWNS, count)
        work.set_unit(
            uid,
            location=Location.TABLE,
            pos=spot,
            hp=full_strength(work.info(uid))[0],  # Illusion slots off (L779)
            removed=full_strength(work.info(uid))[1],
            statuses=kept,
            moved=(False,) * n,
        )
        work.emit("perk", f"{work.label(uid)} Respawns at full HP by its Deployment Zone's "
                  f"board edge (respawn {count}: it counts as destroyed for Victory Conditions"
                  + ("; it may no longer hold or contest Objectives" if count >= 2 else "") + ")",
                  RULE, unit=uid, perk=RESPAWN, respawns=count)  # fmt: skip
        if work.hooks.active(Hook.DEPLOY):
            work.hooks.fire(Hook.DEPLOY, work, unit=uid)


def may_hold(state: GameState, uid: int) -> bool:
    """L4213: a unit that respawned twice may not seize or contest Objectives."""
    return state.units[uid].counter(RESPAWNS) < 2


def register_hooks(reg: HookRegistry) -> None:
    """Register this module's hooks (one call from ``perk_families.register_family_hooks``)."""
    reg.register(  # it goes over the set-up's Respawn units alone (s37)
        Hook.TURN_START,
        respawn_at_turn_start,
        "Respawn (a destroyed unit returns)",
        when=lambda setup: any(RESPAWN in p.unit for p in index(setup).units),
    )
