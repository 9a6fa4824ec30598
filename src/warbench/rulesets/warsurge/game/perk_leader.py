"""Leader in a game (Perks 000_94ecc6a4c74d351b.txt §12.4 Leadership, L2017-L2031).

    "Leader — Passive. The User is defined as a 'Leader'. The User can attach itself to another
    Unit by having the User or Unit's Movement end within Coherency of each other, or can
    detach from a Unit by using Movement to leave Coherency. The User will not receive damage
    until the attached Unit is destroyed, unless the User is the only model in line of sight.
    If any Unit engages a Melee, all attached Units also engage in a Melee. If more than one
    Leader Unit is attached to a Unit, the Leader with the lowest Point Cost value at full HP is
    the one that receives damage first. When negative Perk effects (such as Weapon Afflictions)
    are directed at a merged Unit, only the Unit that is first to receive damage will suffer
    the effect. However, Precision Weapons can bypass this."

* **Attached** (:func:`refresh`, after every Move, Dash and Deploy): a Leader unit with no
  attachment attaches to the friendly unit (without Leader) whose closest model is within
  Coherency (2", §4.2) of it when its own Movement or that unit's ends so (the closest; the
  first listed on a tie); an attached Leader whose Movement, or its unit's, ends out of
  Coherency detaches. The status ``Attached@<unit>`` on the Leader keeps it; it lapses when
  that unit is no longer on the Battlefield.
* **Damage** (:func:`leader_share`, from ``attacks._attack_from`` after War Master): a share of
  an enemy Attack at an attached Leader (a Weapon's share at one unit: templates strike what
  they cover) is made against its unit instead while the attacker has a model of that unit in
  line of sight; otherwise against the attached Leader with the lowest Point Cost at full HP
  that the attacker sees (the Leader itself when it is "the only model in line of sight"). The
  share's effects (Afflictions included) land on the unit it is made against.
* **Melee** (:func:`engage_attached`, after every Move and Dash): every unit of a merged group
  (a unit and the Leaders attached to it) is engaged with every enemy unit one of them is
  engaged with.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game import geom
from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.memo import per_setup
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
    "ATTACHED",
    "LEADER",
    "attached_to",
    "engage_attached",
    "group_of",
    "leader_share",
    "refresh",
    "register_hooks",
]

LEADER = "Leader"
RULE = "Perks §12.4 Leader (000_94ecc6a4c74d351b.txt L2017)"
ATTACHED = "Attached@"


def _leaders(work: Work) -> tuple[int, ...]:
    """The Leaders now: the set-up's, less those become Wreckage (no Perks, L1442)."""
    return keeping_perks(work, *_leader_units(work.setup))


@per_setup
def _leader_units(setup: GameSetup) -> tuple[tuple[int, ...], frozenset[int]]:
    """The set-up's units with Leader (read once per set-up, issue 10, session 36), and those
    of them that can lose it (``perk_wreckage.perk_holders``; s36-wreck)."""
    units = tuple(uid for uid, p in enumerate(index(setup).units) if LEADER in p.unit)
    return perk_holders(setup, units)


def attached_to(work: Work, uid: int) -> int | None:
    """The unit the Leader ``uid`` is attached to (on the Battlefield), or ``None``."""
    statuses = work.units[uid].statuses
    if not statuses:
        return None
    for s in statuses:
        if s.name.startswith(ATTACHED):
            t = int(s.name[len(ATTACHED) :])
            if not (work.standing(t) and work.standing(uid)) or work.units[t].wrecked:
                return None  # Wreckage is terrain, a casualty (L1442): no unit to lead
            return t
    return None


def group_of(work: Work, uid: int) -> list[int]:
    """The merged group ``uid`` belongs to: the unit and the Leaders attached to it."""
    base = attached_to(work, uid)
    if base is None:
        base = uid
    return [base] + [ld for ld in _leaders(work) if ld != base and attached_to(work, ld) == base]


def _set(work: Work, leader: int, onto: int | None, why: str) -> None:
    u = work.units[leader]
    kept = tuple(s for s in u.statuses if not s.name.startswith(ATTACHED))
    if onto is not None:
        kept = (*kept, Status(f"{ATTACHED}{onto}", None, LEADER))
    work.set_unit(leader, statuses=kept)
    text = (
        f"{work.label(leader)} attaches to {work.label(onto)}"
        if onto is not None
        else f"{work.label(leader)} detaches ({why})"
    )
    work.emit("perk", text, RULE, unit=leader, perk=LEADER, attached=onto)


def _close(work: Work, a: int, b: int) -> bool:
    return work.gap(a, b) <= geom.COHERENCY + 1e-9


def refresh(work: Work, unit: int) -> None:
    """After ``unit``'s Movement (or Deploy) ends: Leaders attach or detach (L2017)."""
    leaders = _leaders(work)
    if not leaders:
        return
    for ld in leaders:
        if not work.standing(ld):
            continue
        side = work.info(ld).side
        has = any(s.name.startswith(ATTACHED) for s in work.units[ld].statuses)
        cur = attached_to(work, ld)
        if has and cur is None:
            _set(work, ld, None, "its unit is gone")
        if cur is not None:
            if unit in (ld, cur) and not _close(work, ld, cur):
                _set(work, ld, None, "out of Coherency")
            continue
        if unit == ld:
            options = [
                f
                for f in work.side_units(side)
                if f != ld
                and f not in leaders
                and work.standing(f)
                and not work.units[f].wrecked  # Wreckage is terrain (L1442)
                and _close(work, ld, f)
            ]
        elif unit not in leaders and work.info(unit).side == side and _close(work, ld, unit):
            options = [unit]
        else:
            options = []
        if options:
            _set(work, ld, min(options, key=lambda f: (work.gap(ld, f), f)), "")


def leader_share(work: Work, plan: AttackPlanG, k: int) -> AttackPlanG:
    """``plan`` with share ``k`` at an attached Leader made against the unit first to receive
    its damage (see the module docstring)."""
    wp = plan.weapons[k]
    t = wp.target
    uid = plan.uid
    if not 0 <= t < len(work.units) or t == uid or not work.enemies(uid, t):
        return plan
    base = attached_to(work, t)
    if base is None:
        return plan
    from warbench.rulesets.warsurge.game.perk_heal import heals
    from warbench.rulesets.warsurge.game.perk_mode import chain_of, template_of

    info = work.info(uid)
    if template_of(info, wp.weapon) or chain_of(info, wp.weapon) or heals(work, uid, wp.weapon):
        return plan

    def seen(x: int) -> bool:
        view = view_target(work, uid, x)
        return not view.reason and bool(view.visible or view.melee)

    if seen(base):
        onto = base
    else:
        leaders = [ld for ld in group_of(work, t) if ld != base and (ld == t or seen(ld))]
        onto = min(leaders, key=lambda ld: (work.info(ld).value, ld))
    if onto == t:
        return plan
    work.emit("perk", f"{work.label(t)} is attached to {work.label(base)}: {info.label}'s "
              f"{wp.weapon} strikes {work.label(onto)} first", RULE, unit=t, perk=LEADER,
              attacker=uid, onto=onto)  # fmt: skip
    return retarget(work, plan, k, onto)


def engage_attached(work: Work) -> None:
    """L2021: "If any Unit engages a Melee, all attached Units also engage in a Melee"."""
    if not work.engaged:
        return
    add: set[tuple[int, int]] = set()
    for a, b in list(work.engaged):
        for x, enemy in ((a, b), (b, a)):
            for m in group_of(work, x):
                if m != x and work.standing(m) and work.enemies(m, enemy):
                    add.add((min(m, enemy), max(m, enemy)))
    new = add - work.engaged
    if new:
        work.engaged |= new
        for m, e in sorted(new):
            work.emit("perk", f"{work.label(m)} and {work.label(e)} are in a Melee (an attached "
                      "unit engages)", RULE, unit=m, perk=LEADER, enemy=e)  # fmt: skip


def on_after_move(work: Work, unit: int, dash: bool, distance: float) -> None:
    refresh(work, unit)
    if _leaders(work):
        engage_attached(work)


def on_deploy(work: Work, unit: int) -> None:
    refresh(work, unit)


def register_hooks(reg: HookRegistry) -> None:
    """Register this module's hooks (one call from ``perk_families.register_family_hooks``)."""
    reg.register(Hook.AFTER_MOVE, on_after_move, "Leader (attach, detach, Melee)", perks=[LEADER])
    reg.register(Hook.DEPLOY, on_deploy, "Leader (attach on deployment)", perks=[LEADER])
