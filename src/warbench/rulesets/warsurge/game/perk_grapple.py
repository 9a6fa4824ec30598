"""Grapple (Tactical Weapon Perk, Perks 000_94ecc6a4c74d351b.txt L3869; HP Loss, Skill Test,
Point Cost (Greater), Point Cost (Lesser), Specific, Instruct; docs/rulings.md "WARSURGE perks
in play: session 25, s25-tactical" 8-10).

"If successful, the User attacking with this weapon will either pull itself to the Target, or
the Target to the User, which is performed immediately after the Weapon causes HP Loss (or
restored with the Heal Perk) … Compare the full Point Cost of the Target to the User … If the
Target is a lower Point Cost, the Target will be pulled in. If the Target is a higher Point Cost,
the User will be pulled to the Target. If the Target or User is a casualty, still resolve
Grapple (relocating the casualty models). Grappled Units travel in a straight line to their
destination … The User may stop the Grapple anywhere on the path of travel, even into base
contact with enemy Units which will immediately begin a Melee … If the Target is Immobile or has
Unstoppable, the User goes to the Target. If the User is Immobile or has Unstoppable, the Target
goes to the User. If equal Point Cost or both … nothing happens. Grapple Weapons do not start a
Melee if Targeting friendly Units. Grapple does not count as Movement. If insufficient space, a
Unit relocates as close as possible. If the No Line of Sight Perk is on the Grapple Weapon,
Units can be grappled through Impassable Terrain and Units. The User cannot relocate if it
causes HP Loss with a Grapple Weapon to two or more Targets in a single Attack Sequence.
Relocating with Grapple can cause the User or Target to leave a Melee."

The pull is made at once when a share of the Weapon causes HP Loss (HP_LOST) or restores HP
(a Heal share, after it: WEAPON_USED): a Skill Test per HP (one pass is enough), then the
cheaper unit (full Point Cost) travels straight toward the other until Base Contact (the
engine's stop: ruling 8), stopping 0.1" short of anything else in its way (without No Line of
Sight). Reaching an enemy in Base Contact begins a Melee; a Melee left without Base Contact ends.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.perk_displace import (
    FORCE_GAP,
    end_broken_melees,
    skill_passes,
    slide,
)
from warbench.rulesets.warsurge.game.state import Location

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.work import Work

__all__ = [
    "GRAPPLE",
    "GRAPPLE_PULLS",
    "GRAPPLE_RULE",
    "grapple",
    "grapple_mover",
    "grapple_on_heal",
    "grapple_on_hp_lost",
    "register_hooks",
]

GRAPPLE = "Grapple"
RULE = GRAPPLE_RULE = "Perks §12.5 Grapple (000_94ecc6a4c74d351b.txt L3869)"
#: The User's count of Grapple relocations: ``attacks`` measures the rest of its Attack again
#: when it changes ("measure the Range of these Weapons after applying Grapple").
GRAPPLE_PULLS = "grapple pulls"
#: The User's counter: the Action (``Work.step`` + 1) and Target of its last Grapple HP Loss.
_LAST = "grapple step"
_LAST_TARGET = "grapple target"


def _has(work: Work, uid: int, weapon: str, perk: str) -> bool:
    from warbench.rulesets.warsurge.game.perk_index import weapon_perks

    return perk in weapon_perks(work, uid, weapon)


def _stuck(work: Work, uid: int) -> bool:
    """Immobile (Move 0 and Dash 0) or Unstoppable (L2178, immune to Grapple)."""
    from warbench.rulesets.warsurge.effects.runtime import immunities
    from warbench.rulesets.warsurge.game.perk_effects import status_immunities

    info = work.info(uid)
    names = [*info.unit.profile.perks, *info.traits]
    immune = immunities(names) | status_immunities(work.units[uid].statuses)
    return info.immobile or GRAPPLE in immune


def _second_target(work: Work, user: int, target: int) -> bool:
    """Whether this Attack Sequence (Action) already caused Grapple HP Loss to another unit;
    notes this one."""
    u = work.units[user]
    step = work.step + 1
    again = u.counter(_LAST) == step and u.counter(_LAST_TARGET) != target + 1
    work.units[user] = u.with_counter(_LAST, step).with_counter(_LAST_TARGET, target + 1)
    work.dirty = True
    return again


def grapple_mover(work: Work, user: int, target: int) -> tuple[int | None, str]:
    """Which unit a Grapple pulls, the User or the Target (``None``: neither), and why (L3869:
    the cheaper by full Point Cost; an Immobile or Unstoppable unit stays put): what
    :func:`grapple` moves and an Attack's preview names (``preview_why.attack_push_note``)."""
    cu, ct = work.info(user).value, work.info(target).value
    su, st = _stuck(work, user), _stuck(work, target)
    if su and st:
        return None, "both are Immobile or Unstoppable"
    if st:
        return user, f"{work.label(target)} is Immobile or Unstoppable"
    if su:
        return target, f"{work.label(user)} is Immobile or Unstoppable"
    if abs(cu - ct) < 1e-9:
        return None, "their full Point Costs are equal"
    return (target if ct < cu else user), f"full Point Cost {ct:g} against the User's {cu:g}"


def grapple(work: Work, user: int, target: int, weapon: str, amount: int, how: str) -> None:
    """Resolve Grapple for ``amount`` HP lost (or restored) by ``target`` to ``user``'s
    ``weapon``: the Skill Tests, then the pull (see the module docstring)."""
    if user == target or amount <= 0:
        return
    for uid in (user, target):
        if work.units[uid].location is not Location.TABLE or not work.units[uid].present():
            return
    twice = _second_target(work, user, target)
    passed = skill_passes(work, user, weapon, target, amount, "Grapple Skill Test", stop=True)
    text = f"{work.label(target)}: Grapple from {work.label(user)}'s {weapon} ({how}), "
    if not passed:
        work.emit("perk", text + "Skill Test failed", RULE, unit=target, perk=GRAPPLE,
                  landed=False)  # fmt: skip
        return
    mover, why = grapple_mover(work, user, target)
    if mover == user and twice:
        mover, why = None, "the User caused Grapple HP Loss to two Targets this Attack Sequence"
    if mover is None:
        work.emit("perk", text + f"nothing happens ({why})", RULE, unit=target, perk=GRAPPLE,
                  landed=False)  # fmt: skip
        return
    dest = target if mover == user else user
    a = work.xy(mover).mean(axis=0)
    b = work.xy(dest).mean(axis=0)
    v = b - a
    dist = float(np.hypot(*v))
    if dist < 1e-9:
        return
    way = v / dist
    through = any(_has(work, user, weapon, n) for n in ("No Line of Sight I", "No Line of Sight II",
                                                       "No Line of Sight III"))  # fmt: skip
    stop = slide(work, mover, way, dist, FORCE_GAP, goal=dest, through=through)
    if stop.distance > 1e-6:
        from warbench.rulesets.warsurge.game.perk_displace import move_rigid

        move_rigid(work, mover, way * stop.distance)
    touching = dest in work.contacts(mover) if work.enemies(mover, dest) else False
    work.emit("perk", text + f'{work.label(mover)} is pulled {stop.distance:.1f}" toward '
              f"{work.label(dest)} ({why})" + (", into Base Contact" if touching else ""), RULE,
              unit=mover, perk=GRAPPLE, landed=True, distance=round(stop.distance, 3))  # fmt: skip
    pulled = work.units[user]
    work.units[user] = pulled.with_counter(GRAPPLE_PULLS, pulled.counter(GRAPPLE_PULLS) + 1)
    work.dirty = True
    if touching:
        from warbench.rulesets.warsurge.game.melee import engage_new_contacts

        engage_new_contacts(work, mover)
    end_broken_melees(work, mover, RULE)


def grapple_on_hp_lost(
    work: Work, unit: int, amount: int, source: str, attacker: int | None
) -> None:
    """HP Loss caused by a Grapple Weapon (after Saves): the Grapple at once."""
    if attacker is None or amount <= 0 or not _has(work, attacker, source, GRAPPLE):
        return
    grapple(work, attacker, unit, source, amount, f"{amount} HP lost")


def grapple_on_heal(work: Work, unit: int, weapon: str, target: int) -> None:
    """A Heal share of a Grapple Weapon that restored HP ("or restored with the Heal Perk")."""
    if target >= len(work.units) or not _has(work, unit, weapon, GRAPPLE):
        return
    if not _has(work, unit, weapon, "Heal") or work.enemies(unit, target):
        return
    last = next((e for e in reversed(work.events) if e.kind in ("heal", "attack")), None)
    if last is None or last.kind != "heal" or last.data.get("target") != target:
        return
    restored = int(last.data.get("restored", 0))
    if restored > 0:
        grapple(work, unit, target, weapon, restored, f"{restored} HP restored")


def register_hooks(reg: HookRegistry) -> None:
    """Register this module's hooks (one call from :func:`.perk_families.register_family_hooks`)."""
    reg.register(Hook.HP_LOST, grapple_on_hp_lost, "Grapple", perks=[GRAPPLE])
    reg.register(Hook.WEAPON_USED, grapple_on_heal, "Grapple (Heal)", perks=[GRAPPLE])
