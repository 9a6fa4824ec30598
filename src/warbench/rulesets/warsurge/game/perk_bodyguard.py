"""Bodyguard in a game (Perks 000_94ecc6a4c74d351b.txt §12.4 Leadership, L1935-L1951).

    "A Bodyguard Unit can attach to any Unit by having the User or Unit's Movement end within
    Coherency of each other, or can detach from a Unit by using Movement to leave Coherency.
    Order of damage received from Attacks is as follows: Bodyguards, Attached Units then
    Leaders. If any Unit engages a Melee, all attached Units also engage in a Melee. Once a
    Bodyguard Unit is slain, any remaining successful Attack Dice and Saves are followed on to
    an attached Unit or Leader. If there are multiple Bodyguard Units present, the Bodyguard
    with the lowest Point Cost value at full HP is the one that receives damage first. If an
    attacking Unit has no line of sight to the Bodyguard but does to the attached Unit, then
    the attached Unit is not protected by the Bodyguard. When negative Perk effects … are
    directed at a merged Unit, only the Unit that is first to receive damage will suffer the
    effect. However, Precision Weapons can bypass this."

* **Attached** (:func:`refresh`, after every Move, Dash and Deploy): as Leader's attachment
  (``perk_leader``): a Bodyguard with no attachment attaches to the closest friendly unit (not
  a Bodyguard) within Coherency when its Movement or that unit's ends so; it detaches when one
  of them ends its Movement out of Coherency. The status ``Guarding@<unit>`` keeps it.
* **Damage** (:func:`bodyguard_share`, after Leader's): a share of an enemy Attack at a unit
  of a guarded group (the guarded unit and the Leaders attached to it) is made against the
  cheapest Bodyguard (Point Cost at full HP) guarding it that the attacker sees; none seen, the
  group is not protected. Precision Weapons, templates, Chain and Heal are not redirected.
* **Followed on** (:func:`follow_on`): the share at a Bodyguard is resolved die by die
  (``odds.roll_attack(…, follow_on=True)``); once it is slain, the successful Attack Dice left
  strike the unit it guards as successful Attack Dice (``AttackContext.struck_dice``, its own
  Saves rolled; exact odds: ``odds.follow_on_dice``). They carry no Weapon Afflictions (only the
  unit first to receive damage suffers them).
* **Melee** (:func:`engage_guarded`): a Bodyguard and the unit it guards engage together.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.attack import AttackContext
from warbench.rulesets.warsurge.game import geom
from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.memo import per_setup
from warbench.rulesets.warsurge.game.perk_index import weapon_perks
from warbench.rulesets.warsurge.game.perk_leader import group_of
from warbench.rulesets.warsurge.game.perk_struck import strike
from warbench.rulesets.warsurge.game.perk_turn import index
from warbench.rulesets.warsurge.game.perk_warmaster import retarget
from warbench.rulesets.warsurge.game.perk_wreckage import keeping_perks, perk_holders
from warbench.rulesets.warsurge.game.state import Status
from warbench.rulesets.warsurge.game.targeting import view_target

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.plans import AttackPlanG
    from warbench.rulesets.warsurge.game.state import GameSetup
    from warbench.rulesets.warsurge.game.work import Work

__all__ = [
    "BODYGUARD",
    "GUARDING",
    "bodyguard_share",
    "engage_guarded",
    "follow_on",
    "guarded",
    "refresh",
    "register_hooks",
]

BODYGUARD = "Bodyguard"
RULE = "Perks §12.4 Bodyguard (000_94ecc6a4c74d351b.txt L1935)"
GUARDING = "Guarding@"


def _bodyguards(work: Work) -> tuple[int, ...]:
    """The Bodyguards now: the set-up's, less those become Wreckage (no Perks, L1442)."""
    return keeping_perks(work, *_bodyguard_units(work.setup))


@per_setup
def _bodyguard_units(setup: GameSetup) -> tuple[tuple[int, ...], frozenset[int]]:
    """The set-up's units with Bodyguard (read once per set-up, issue 10, session 36), and those
    of them that can lose it (``perk_wreckage.perk_holders``; s36-wreck)."""
    units = tuple(uid for uid, p in enumerate(index(setup).units) if BODYGUARD in p.unit)
    return perk_holders(setup, units)


def guarded(work: Work, uid: int) -> int | None:
    """The unit the Bodyguard ``uid`` guards (both on the Battlefield), or ``None``."""
    statuses = work.units[uid].statuses
    if not statuses:
        return None
    for s in statuses:
        if s.name.startswith(GUARDING):
            t = int(s.name[len(GUARDING) :])
            if not (work.standing(t) and work.standing(uid)) or work.units[t].wrecked:
                return None  # Wreckage is terrain, a casualty (L1442): no unit to guard
            return t
    return None


def _set(work: Work, bg: int, onto: int | None, why: str) -> None:
    kept = tuple(s for s in work.units[bg].statuses if not s.name.startswith(GUARDING))
    if onto is not None:
        kept = (*kept, Status(f"{GUARDING}{onto}", None, BODYGUARD))
    work.set_unit(bg, statuses=kept)
    text = (
        f"{work.label(bg)} attaches to {work.label(onto)} as its Bodyguard"
        if onto is not None
        else f"{work.label(bg)} detaches ({why})"
    )
    work.emit("perk", text, RULE, unit=bg, perk=BODYGUARD, attached=onto)


def _close(work: Work, a: int, b: int) -> bool:
    return work.gap(a, b) <= geom.COHERENCY + 1e-9


def refresh(work: Work, unit: int) -> None:
    """After ``unit``'s Movement (or Deploy) ends: Bodyguards attach or detach (L1935)."""
    bgs = _bodyguards(work)
    if not bgs:
        return
    for bg in bgs:
        if not work.standing(bg):
            continue
        side = work.info(bg).side
        has = any(s.name.startswith(GUARDING) for s in work.units[bg].statuses)
        cur = guarded(work, bg)
        if has and cur is None:
            _set(work, bg, None, "its unit is gone")
        if cur is not None:
            if unit in (bg, cur) and not _close(work, bg, cur):
                _set(work, bg, None, "out of Coherency")
            continue
        if unit == bg:
            options = [
                f
                for f in work.side_units(side)
                if f != bg
                and f not in bgs
                and work.standing(f)
                and not work.units[f].wrecked  # Wreckage is terrain (L1442)
                and _close(work, bg, f)
            ]
        elif unit not in bgs and work.info(unit).side == side and _close(work, bg, unit):
            options = [unit]
        else:
            options = []
        if options:
            _set(work, bg, min(options, key=lambda f: (work.gap(bg, f), f)), "")


def _protectors(work: Work, t: int) -> list[int]:
    """The Bodyguards guarding the group of ``t`` (its unit and the Leaders attached)."""
    bgs = _bodyguards(work)
    if not bgs:  # no Bodyguard in the game: no group to work out (issue 10, session 36)
        return []
    group = set(group_of(work, t))
    return [b for b in bgs if b != t and guarded(work, b) in group]


def bodyguard_share(work: Work, plan: AttackPlanG, k: int) -> AttackPlanG:
    """``plan`` with share ``k`` at a guarded group made against its Bodyguard (see the module
    docstring)."""
    wp = plan.weapons[k]
    t = wp.target
    uid = plan.uid
    if not 0 <= t < len(work.units) or t == uid or not work.enemies(uid, t):
        return plan
    guards = _protectors(work, t)
    if not guards:
        return plan
    from warbench.rulesets.warsurge.game.perk_heal import heals
    from warbench.rulesets.warsurge.game.perk_mode import chain_of, template_of

    info = work.info(uid)
    if template_of(info, wp.weapon) or chain_of(info, wp.weapon) or heals(work, uid, wp.weapon):
        return plan
    wperks = weapon_perks(work, uid, wp.weapon)
    if any(p.startswith("Precision") for p in wperks):  # "Precision Weapons can bypass this"
        return plan

    def seen(x: int) -> bool:
        view = view_target(work, uid, x)
        return not view.reason and bool(view.visible or view.melee)

    visible = [b for b in guards if seen(b)]
    if not visible:  # "no line of sight to the Bodyguard … not protected"
        return plan
    onto = min(visible, key=lambda b: (work.info(b).value, b))
    text = f"{work.label(onto)} guards {work.label(t)}: {info.label}'s {wp.weapon} strikes it"
    work.emit("perk", text, RULE, unit=onto, perk=BODYGUARD, attacker=uid, guarded=t)
    return retarget(work, plan, k, onto)


def follows_on(work: Work, target: int) -> bool:
    """Whether a share at ``target`` is resolved die by die (a Bodyguard guarding a unit)."""
    return bool(work.units[target].statuses) and guarded(work, target) is not None


def follow_on(work: Work, uid: int, bg: int, weapon: str, dice: int, ctx: AttackContext) -> None:
    """L1935: the ``dice`` successful Attack Dice left once the Bodyguard ``bg`` is slain
    strike the unit it guarded as successful ones, its own Saves rolled."""
    if dice <= 0:
        return
    st = next((s for s in work.units[bg].statuses if s.name.startswith(GUARDING)), None)
    if st is None:
        return
    target = int(st.name[len(GUARDING) :])
    if not work.standing(target) or not work.units[target].living():
        return
    rolled, new_cas, _ = strike(work, uid, target, weapon, dice, melee=ctx.melee)
    work.emit(
        "perk",
        f"{work.label(bg)} is slain: {dice} successful Attack Dice of {work.label(uid)}'s "
        f"{weapon} follow on to {work.label(target)}: {rolled.loss} HP lost, "
        f"{len(new_cas)} casualties",
        RULE,
        unit=target,
        perk=BODYGUARD,
        attacker=uid,
        struck=dice,
        hp_lost=rolled.loss,
        casualties=len(new_cas),
    )
    if work.hooks.active(Hook.CASUALTY):
        for i in new_cas:
            work.hooks.fire(Hook.CASUALTY, work, unit=target, model=i, source=weapon)


def engage_guarded(work: Work) -> None:
    """L1935: "If any Unit engages a Melee, all attached Units also engage in a Melee"."""
    if not work.engaged:
        return
    pairs = [(b, g) for b in _bodyguards(work) if (g := guarded(work, b)) is not None]
    if not pairs:
        return
    add: set[tuple[int, int]] = set()
    for a, b in list(work.engaged):
        for x, enemy in ((a, b), (b, a)):
            for bg, g in pairs:
                for m in (bg, g):
                    other = g if m == bg else bg
                    if x == m and work.standing(other) and work.enemies(other, enemy):
                        add.add((min(other, enemy), max(other, enemy)))
    new = add - work.engaged
    if new:
        work.engaged |= new
        for m, e in sorted(new):
            work.emit("perk", f"{work.label(m)} and {work.label(e)} are in a Melee (a Bodyguard "
                      "and the unit it guards engage together)", RULE, unit=m, perk=BODYGUARD,
                      enemy=e)  # fmt: skip


def on_after_move(work: Work, unit: int, dash: bool, distance: float) -> None:
    refresh(work, unit)
    if _bodyguards(work):
        engage_guarded(work)


def on_deploy(work: Work, unit: int) -> None:
    refresh(work, unit)


def register_hooks(reg: HookRegistry) -> None:
    """Register this module's hooks (one call from ``perk_families.register_family_hooks``)."""
    reg.register(
        Hook.AFTER_MOVE, on_after_move, "Bodyguard (attach, detach, Melee)", perks=[BODYGUARD]
    )
    reg.register(Hook.DEPLOY, on_deploy, "Bodyguard (attach on deployment)", perks=[BODYGUARD])
