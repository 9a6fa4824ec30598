"""Trap (Tactical Weapon Perk, Perks 000_94ecc6a4c74d351b.txt L4085; Weapon Use, Specific;
docs/rulings.md "WARSURGE perks in play: session 25, s25-tactical" 11-13).

"Place a Trap marker inside the Weapon's maximum Range. After being placed, the Trap will arm and
can be triggered by any Unit that passes through or is within 2" of the marker, whether friend or
foe. When triggered, the Target will be struck with the Weapon's profile. The User cannot
trigger the Trap on the same Game Turn that they placed it. All Mode Perks are directed by the
Trap Wielder, with the Trap model or Marker as the origin point of the Weapon (especially for
Beam and Nova), but must strike the Unit that triggered the Trap."

* Placing: an Attack share of the Trap Weapon at a unit (checked as any share: Range, sight)
  places the marker instead of rolling, at the point the Attack names for the Weapon
  (``Attack.aim``, within its Range of the share's models), else where the Target's closest
  model stands (the engine's choice: ruling 11); the share's models are the Trap's users. The
  marker is a status on the User (``Trap@<weapon>@x,y@users@turn``); it goes with the User.
* Triggering (ruling 12): a unit whose Move, Dash or relocation passes within 2" of the marker
  (any model's straight path, base edge to the marker) or which stands within 2" of it as a
  Game Turn starts (the closest such unit). It is struck at once by the Weapon's profile with
  the users' Attacks, measured from the marker (no line of sight needed), the User's own
  modifiers applying; the Trap is then spent. The User does not trigger it in the Game Turn it
  was placed. A Mode Perk on the Weapon strikes the triggering unit alone (ruling 13).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

from warbench.rulesets.warsurge.game import bases, geom
from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.perk_index import looted_perks, weapon_perks
from warbench.rulesets.warsurge.game.perk_turn import index
from warbench.rulesets.warsurge.game.state import Location, Status

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.plans import WeaponPlan
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["TRAP", "TRIGGER", "is_trap", "place_trap", "register_hooks", "traps"]

TRAP = "Trap"
RULE = "Perks §12.5 Trap (000_94ecc6a4c74d351b.txt L4085)"
#: "passes through or is within 2\" of the marker"
TRIGGER = 2.0
_TRAPPERS: dict[int, tuple[object, frozenset[int]]] = {}


def is_trap(work: Work, uid: int, weapon: str) -> bool:
    return TRAP in weapon_perks(work, uid, weapon)


def _trappers(work: Work) -> frozenset[int]:
    """The units of the set-up with a Trap Weapon (memoised per set-up)."""
    setup = work.setup
    hit = _TRAPPERS.get(id(setup))
    if hit is not None and hit[0] is setup:
        return hit[1]
    idx = index(setup)
    out = frozenset(
        uid for uid, p in enumerate(idx.units) if any(TRAP in ps for _, ps in p.weapons)
    )
    if len(_TRAPPERS) > 64:
        _TRAPPERS.clear()
    _TRAPPERS[id(setup)] = (setup, out)
    return out


def _users(work: Work) -> Iterable[int]:
    """The units that may hold a marker: the set-up's with a Trap Weapon and, in a set-up with
    a Loot Trap Weapon (L3090: it keeps its Perks), any unit holding one (issue 10, session 39,
    s39-loot2: a picked-up Trap Weapon's markers are its new User's)."""
    found = _trappers(work)
    if TRAP not in looted_perks(work.setup):
        return found
    head = f"{TRAP}@"
    more = {u.uid for u in work.units if any(s.name.startswith(head) for s in u.statuses)}
    return sorted(found | more)


def traps(work: Work) -> list[tuple[int, Status, str, tuple[float, float], int, int]]:
    """Every marker on the battlefield: (User, status, Weapon, point, users, turn placed)."""
    out = []
    for uid in _users(work):
        for s in work.units[uid].statuses:
            if not s.name.startswith(f"{TRAP}@"):
                continue
            # the Weapon's name is its player's and may hold "@" (session 39, s39-loot2)
            weapon, xy, users, turn = s.name[len(TRAP) + 1 :].rsplit("@", 3)
            x, y = (float(v) for v in xy.split(","))
            out.append((uid, s, weapon, (x, y), int(users), int(turn)))
    return out


def place_trap(work: Work, uid: int, wp: WeaponPlan) -> None:
    """The share ``wp`` of the Trap Weapon places its marker where the Target's closest model
    stands (instead of rolling Attack Dice)."""
    from warbench.rulesets.warsurge.game.perk_aim import aim_of

    u = work.units[uid]
    tgt = work.units[wp.target]
    if not tgt.present():
        return
    point = aim_of(wp.weapon)  # the player's point (Attack.aim, checked within Range)
    if point is not None:
        x, y = point
    else:
        holder = work.outermost(uid)
        mine = work.xy(holder, None if holder != uid else (list(wp.models) or None))
        theirs = work.xy(wp.target)
        d = bases.distances(
            work,
            holder,
            mine,
            work.info(uid).radius,
            wp.target,
            theirs,
            work.info(wp.target).radius,
        )
        j = int(np.unravel_index(int(np.argmin(d)), d.shape)[1])
        x, y = float(theirs[j][0]), float(theirs[j][1])
    name = f"{TRAP}@{wp.weapon}@{x:.2f},{y:.2f}@{wp.users}@{work.flow.turn}"
    work.set_unit(uid, statuses=(*u.statuses, Status(name, None, f"u{uid}/{wp.weapon}")))
    work.emit("perk", f"{work.label(uid)} places a Trap marker with {wp.weapon} at ({x:.1f}, "
              f"{y:.1f}), by {work.label(wp.target)}", RULE, unit=uid, perk=TRAP,
              weapon=wp.weapon, at=[x, y])  # fmt: skip
    if work.hooks.active(Hook.WEAPON_USED):
        work.hooks.fire(Hook.WEAPON_USED, work, unit=uid, weapon=wp.weapon, target=wp.target)


def _spring(work: Work, trap: tuple[int, Status, str, tuple[float, float], int, int],
            victim: int) -> None:  # fmt: skip
    """The Trap strikes ``victim`` with the Weapon's profile, from the marker; it is spent."""
    from warbench.rulesets.warsurge.attack import AttackContext
    from warbench.rulesets.warsurge.game import perk_mode
    from warbench.rulesets.warsurge.game.perk_effects import weapon_ranges
    from warbench.rulesets.warsurge.game.plans import WeaponPlan

    user, status, weapon, at, users, _ = trap
    u = work.units[user]
    work.set_unit(user, statuses=tuple(s for s in u.statuses if s != status))
    info = work.info(victim)
    pts = work.xy(victim)
    dist = float(max(0.0, (np.hypot(*(pts - np.asarray(at)).T) - info.radius).min()))
    rng = weapon_ranges(work.info(user), u.statuses)[weapon]
    ctx = AttackContext(distance=dist, within_half_range=dist <= rng / 2)
    work.emit("perk", f"{work.label(victim)} triggers {work.label(user)}'s Trap ({weapon}) at "
              f"({at[0]:.1f}, {at[1]:.1f})", RULE, unit=victim, perk=TRAP)  # fmt: skip
    plan = WeaponPlan(weapon, victim, users, ctx)
    perk_mode._strike(work, user, victim, users, plan, TRAP, own=True)
    if work.hooks.active(Hook.WEAPON_USED):
        work.hooks.fire(Hook.WEAPON_USED, work, unit=user, weapon=weapon, target=victim)


def _may_trigger(work: Work, trap: tuple[int, Status, str, tuple[float, float], int, int],
                 uid: int) -> bool:  # fmt: skip
    user, _, _, _, _, turn = trap
    if work.units[user].location is Location.DESTROYED or not work.standing(uid):
        return False
    return not (uid == user and turn == work.flow.turn)


def trap_after_move(work: Work, unit: int, dash: bool, distance: float) -> None:
    """A unit whose models' straight paths came within 2" of a marker triggers it."""
    if not _trappers(work) or not work.standing(unit):
        return
    found = traps(work)
    if not found:
        return
    u = work.units[unit]
    old = work.before.units[unit]
    models = [i for i in u.present() if i < len(old.pos)]
    r = work.info(unit).radius
    for trap in found:
        if not _may_trigger(work, trap, unit):
            continue
        at = np.asarray(trap[3])
        near = False
        for i in models:
            s, e = np.asarray(old.pos[i]), np.asarray(u.pos[i])
            if float(geom.segment_distances(s, e, at[None, :])[0]) - r <= TRIGGER + 1e-9:
                near = True
                break
        if near:
            _spring(work, trap, unit)
            if not work.standing(unit):
                return


def trap_at_turn_start(work: Work, turn: int) -> None:
    """A unit standing within 2" of a marker as the Game Turn starts triggers it (the closest
    such unit; the lowest unit number on a tie)."""
    if not _trappers(work):
        return
    for trap in traps(work):
        at = np.asarray(trap[3])
        best: tuple[float, int] | None = None
        for v in work.units:
            if v.location is not Location.TABLE or not _may_trigger(work, trap, v.uid):
                continue
            gap = float((np.hypot(*(work.xy(v.uid) - at).T) - work.info(v.uid).radius).min())
            if gap <= TRIGGER + 1e-9 and (best is None or (gap, v.uid) < best):
                best = (gap, v.uid)
        if best is not None:
            _spring(work, trap, best[1])


def trap_user_falls(work: Work, turn: int) -> None:
    """The markers of a User no longer on the battlefield go with it (ruling 11)."""
    for uid in _users(work):
        u = work.units[uid]
        if u.location is Location.DESTROYED and any(
            s.name.startswith(f"{TRAP}@") for s in u.statuses
        ):
            kept = tuple(s for s in u.statuses if not s.name.startswith(f"{TRAP}@"))
            work.set_unit(uid, statuses=kept)


def register_hooks(reg: HookRegistry) -> None:
    """Register this module's hooks (one call from :func:`.perk_families.register_family_hooks`)."""
    reg.register(Hook.AFTER_MOVE, trap_after_move, "Trap (passing)", perks=[TRAP])
    reg.register(Hook.TURN_START, trap_at_turn_start, "Trap (standing)", perks=[TRAP])
    reg.register(Hook.TURN_END, trap_user_falls, "Trap (its User gone)", perks=[TRAP])
