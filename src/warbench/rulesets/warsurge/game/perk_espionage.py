"""Espionage in a game (Perks 000_94ecc6a4c74d351b.txt §12.4 Deployment, L1840-L1862).

    "Players may Deploy their Espionage Units at the end of Deployment (after players finish in
    the Deploy Phase in Standard …). The User must be Deployed in an enemy Deployment Zone. For
    two Game Turns the Espionage Unit cannot be Targeted by the player who owns the Deployment
    Zone and they count as a friendly Unit. Enemy Units within 6" of the User suffer a -1 Dice
    Modifier to all Attack Dice and cannot claim Objectives, but can still contest them. After
    being on the table for two Game Turns, the Espionage effect ends … If the User makes any
    Attacks prior to two Game Turns, is attacked by a Unit with Keen Eye or engages an enemy
    Unit in a Melee, the Espionage benefit is immediately lost."

* **Deploying** (:func:`deploy_refusal`, asked by ``perk_deployment.deploy_outside_zone``): a
  Deploy of an Espionage unit may place it wholly inside an enemy Deployment Zone once every
  other unit of its side has left Reserve (the end of its Deployment), in the Standard Deploy
  Phase (or the Advanced Deploy Action); Limited Use (1).
* **The cover** (:func:`on_deploy`): so deployed, the unit is under ``Espionage@<side>`` (the
  zone's owner) for two Game Turns: that side may not Target it (:func:`target_refusal`), unless
  with a unit that has Keen Eye (L1324).
* **Around it** (:func:`dice_modifier`, :func:`may_claim`): an enemy unit with a model within 6"
  of it has -1 to all its Attack Dice, and holds no Objective (it still contests one).
* **Lost** (:func:`on_weapon_used`, :func:`on_after_move`) when the unit attacks, is attacked by
  a unit with Keen Eye, or ends a Move or Dash in a Melee with an enemy unit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.perk_turn import index
from warbench.rulesets.warsurge.game.state import Location, Status

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.attack import AttackContext
    from warbench.rulesets.warsurge.game.actions import Point
    from warbench.rulesets.warsurge.game.state import GameState
    from warbench.rulesets.warsurge.game.work import Work

__all__ = [
    "ESPIONAGE",
    "deploy_refusal",
    "dice_modifier",
    "enemy_zone_of",
    "may_claim",
    "on_after_move",
    "on_deploy",
    "on_weapon_used",
    "register_hooks",
    "spy",
    "target_refusal",
]

ESPIONAGE = "Espionage"
RULE = "Perks §12.4 Espionage (000_94ecc6a4c74d351b.txt L1840)"
RADIUS = 6.0
TURNS = 2


def spy(work: Work, uid: int) -> bool:
    """Whether ``uid`` has Espionage."""
    return _spy(work, uid)


def _spy(work: Work, uid: int) -> bool:
    return ESPIONAGE in index(work.setup).units[uid].unit


def enemy_zone_of(work: Work, uid: int, p: Point) -> int | None:
    """The enemy side whose Deployment Zone wholly holds a base of ``uid`` at ``p``."""
    info = work.info(uid)
    for side, zone in enumerate(work.zones):
        if zone is None or side == info.side:
            continue
        if work.field.in_zone(zone, p, info.radius):
            return side
    return None


def deploy_refusal(work: Work, uid: int, model: int, p: Point) -> str | None:
    """``None`` when the Espionage unit ``uid`` may deploy model ``model`` at ``p`` in an enemy
    Deployment Zone now; else why not. Not called for a unit without Espionage."""
    info = work.info(uid)
    if enemy_zone_of(work, uid, p) is None:
        return (
            f"model {model + 1} of {info.label} is outside its Deployment Zone; Espionage "
            f"deploys it wholly inside an enemy Deployment Zone ({RULE})"
        )
    if work.units[uid].used(ESPIONAGE):
        return f"{info.label} has used Espionage (Limited Use 1, {RULE})"
    waiting = [
        t
        for t in work.side_units(info.side)
        if t != uid and work.units[t].location is Location.RESERVE and not _spy(work, t)
    ]
    if waiting:
        return (
            f"{info.label} deploys by Espionage at the end of Deployment: "
            f"{work.label(waiting[0])} is still in Reserve ({RULE})"
        )
    return None


def on_deploy(work: Work, unit: int) -> None:
    """The unit deployed in an enemy Deployment Zone: under Espionage for two Game Turns."""
    if not _spy(work, unit) or not work.standing(unit):
        return
    xy = work.xy(unit)
    owners = {enemy_zone_of(work, unit, (float(x), float(y))) for x, y in xy}
    if len(owners) != 1 or None in owners:
        return
    (owner,) = owners
    assert owner is not None
    u = work.units[unit].with_use(ESPIONAGE)
    work.units[unit] = u
    work.dirty = True
    work.set_unit(
        unit, statuses=(*u.statuses, Status(f"{ESPIONAGE}@{owner}", TURNS, f"u{unit}/{ESPIONAGE}"))
    )
    work.emit("perk", f"{work.label(unit)} deploys by Espionage in {work.side_name(owner)}'s "
              "Deployment Zone: it may not be Targeted by them for two Game Turns", RULE,
              unit=unit, perk=ESPIONAGE, zone=owner)  # fmt: skip


def _cover(statuses: tuple[Status, ...]) -> int | None:
    for s in statuses:
        base, _, who = s.name.partition("@")
        if base == ESPIONAGE and who.isdigit():
            return int(who)
    return None


def _lose(work: Work, uid: int, why: str) -> None:
    u = work.units[uid]
    if not u.statuses or _cover(u.statuses) is None:
        return
    kept = tuple(s for s in u.statuses if s.name.partition("@")[0] != ESPIONAGE)
    work.set_unit(uid, statuses=kept)
    work.emit(
        "perk", f"{work.label(uid)} loses its Espionage: {why}", RULE, unit=uid, perk=ESPIONAGE
    )


def target_refusal(work: Work, uid: int, weapon: str, target: int) -> str | None:
    """Why ``uid`` may not Target ``target`` (a unit under Espionage in its side's zone), or
    ``None``."""
    t = work.units[target]
    if not t.statuses:
        return None
    owner = _cover(t.statuses)
    if owner is None or work.info(uid).side != owner:
        return None
    if "Keen Eye" in index(work.setup).units[uid].unit:
        return None  # L1324 "can Target Units with the Espionage Perk"
    return (
        f"{work.label(target)} is under Espionage: {work.side_name(owner)} may not Target it for "
        f"two Game Turns ({RULE}); Keen Eye can"
    )


def _near_spies(work: Work, uid: int) -> list[int]:
    out = []
    for other in work.units:
        t = other.uid
        if not other.statuses or _cover(other.statuses) is None or not work.enemies(uid, t):
            continue
        if work.standing(t) and work.standing(uid) and work.gap(uid, t) <= RADIUS + 1e-9:
            out.append(t)
    return out


def dice_modifier(work: Work, uid: int, ctx: AttackContext) -> AttackContext:
    """``ctx`` with Espionage's -1 to all Attack Dice when an enemy Espionage unit is within 6"
    of the attacking unit ``uid``."""
    if not _near_spies(work, uid):
        return ctx
    from dataclasses import replace

    return replace(ctx, status_modifiers=(*ctx.status_modifiers, (-1, ESPIONAGE)))


def may_claim(state: GameState, uid: int) -> bool:
    """Whether unit ``uid`` may hold (claim) an Objective: not with an enemy Espionage unit
    within 6" of it (it still contests)."""
    spies = [
        u.uid
        for u in state.units
        if u.statuses and _cover(u.statuses) is not None and u.location is Location.TABLE
    ]
    if not spies:
        return True
    from warbench.rulesets.warsurge.game import bases, geom

    me = state.units[uid]
    side = state.setup.units[uid].side
    r = state.setup.units[uid].radius
    mine = geom.as_array([me.pos[i] for i in me.present()])
    for s in spies:
        if state.setup.units[s].side == side:
            continue
        su = state.units[s]
        theirs = geom.as_array([su.pos[i] for i in su.present()])
        d = bases.distances(state, uid, mine, r, s, theirs, state.setup.units[s].radius)
        if d.size and float(d.min()) <= RADIUS + 1e-9:
            return False
    return True


def on_weapon_used(work: Work, unit: int, weapon: str, target: int) -> None:
    """Lost when the unit attacks, or is attacked by a unit with Keen Eye."""
    if _cover(work.units[unit].statuses or ()) is not None:
        _lose(work, unit, f"it attacks with {weapon}")
    if (
        0 <= target < len(work.units)
        and _cover(work.units[target].statuses or ()) is not None
        and "Keen Eye" in index(work.setup).units[unit].unit
    ):
        _lose(work, target, f"{work.label(unit)} (Keen Eye) attacks it")


def on_after_move(work: Work, unit: int, dash: bool, distance: float) -> None:
    """Lost when the unit engages an enemy unit in a Melee."""
    if work.engaged_with(unit) and _cover(work.units[unit].statuses or ()) is not None:
        _lose(work, unit, "it engages an enemy unit in a Melee")


def register_hooks(reg: HookRegistry) -> None:
    """Register this module's hooks (one call from ``perk_families.register_family_hooks``)."""
    reg.register(Hook.DEPLOY, on_deploy, "Espionage (deployed in an enemy zone)", perks=[ESPIONAGE])
    reg.register(
        Hook.WEAPON_USED, on_weapon_used, "Espionage (lost on attacking)", perks=[ESPIONAGE]
    )
    reg.register(Hook.AFTER_MOVE, on_after_move, "Espionage (lost in a Melee)", perks=[ESPIONAGE])
