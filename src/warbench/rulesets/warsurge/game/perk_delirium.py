"""Delirium in a game (Perks 000_94ecc6a4c74d351b.txt §12.5 Affliction, L2678-L2688).

    "Delirium — HP Loss, Skill Test, Immediate. If Skill Test successful, the Target will attack
    the closest Unit (friend or foe) with all available Weapons. Standard Games: If the Unit has
    already made Attacks, the Perk applies next Game Turn instead. Advanced Games: Delirium does
    not cause the Target to spend CP or count as an Action."

* **The test** (:func:`delirium_on_hp_lost`): each time a Delirium Weapon costs a unit HP, its
  Wielder rolls a Skill Test for each HP lost (§12.1 L123, Example 3: one test per HP, as
  Disarm), with the Skill modifiers of the game (Skill, Resist …); a unit immune to Delirium
  (Courage …) is not affected. One pass is enough.
* **The rampage** (:func:`rampage`): the Target at once attacks the closest other unit on the
  battlefield, friend or foe (closest base edges; the lowest unit number on a tie), with every
  Weapon a living model carries that can reach it now (in Range and sight, not refused by a
  limitation, Heavy Weapons not after a Move; Heal Weapons do not attack): one Attack Sequence a
  Weapon, its casualties in the rules' order. In the Standard playstyle that is the unit's
  Attack for the Game Turn (it has then attacked); in the Advanced playstyle it costs no CP and
  is not an Action.
* **Already attacked** (Standard): the status ``Delirium (next Game Turn)``; as the next Game
  Turn's Attack Phase starts, the unit rampages instead of attacking
  (:func:`delirium_at_phase_start`). docs/rulings.md "Delirium".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.state import Location, Status

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["DELIRIUM", "closest_unit", "delirium_at_phase_start", "delirium_on_hp_lost", "rampage"]

DELIRIUM = "Delirium"
RULE = "Perks §12.5 Delirium (000_94ecc6a4c74d351b.txt L2678)"


def closest_unit(work: Work, uid: int) -> int | None:
    """The closest other unit on the battlefield, friend or foe (closest base edges; the lowest
    unit number on a tie), or ``None``."""
    best: tuple[float, int] | None = None
    for other in work.units:
        t = other.uid
        if t == uid or not work.standing(t):
            continue
        d = work.gap(uid, t)
        if best is None or (d, t) < best:
            best = (d, t)
    return None if best is None else best[1]


def rampage(work: Work, uid: int) -> None:
    """The Delirious unit ``uid`` attacks the closest unit with all available Weapons."""
    from warbench.rulesets.warsurge.attack import AttackContext
    from warbench.rulesets.warsurge.game import perk_mode
    from warbench.rulesets.warsurge.game.advstate import Playstyle
    from warbench.rulesets.warsurge.game.perk_heal import heals
    from warbench.rulesets.warsurge.game.perk_limits import weapon_refusal
    from warbench.rulesets.warsurge.game.perk_turn import WEAPONS_TURN
    from warbench.rulesets.warsurge.game.plans import WeaponPlan
    from warbench.rulesets.warsurge.game.targeting import view_target

    if not work.standing(uid):
        return
    target = closest_unit(work, uid)
    info = work.info(uid)
    if target is None:
        work.emit("perk", f"{info.label} is Delirious with no other unit on the battlefield",
                  RULE, unit=uid, perk=DELIRIUM)  # fmt: skip
        return
    work.emit("perk", f"{info.label} is Delirious: it attacks the closest unit, "
              f"{work.label(target)}", RULE, unit=uid, target=target, perk=DELIRIUM)  # fmt: skip
    view = view_target(work, uid, target)
    u = work.units[uid]
    struck = False
    for wp in info.unit.weapons:
        if view.reason or heals(work, uid, wp.name) or weapon_refusal(work, uid, wp.name):
            continue
        users = [m for m in view.users_in_range.get(wp.name, []) if m in u.living()]
        if wp.type.value == "Heavy":
            users = [m for m in users if not u.moved[m]]
        if not users or not (view.melee or view.visible):
            continue
        plan = WeaponPlan(wp.name, target, len(users), AttackContext())
        perk_mode._strike(work, uid, target, len(users), plan, DELIRIUM)
        struck = True
        if work.hooks.active(Hook.WEAPON_USED):
            work.hooks.fire(Hook.WEAPON_USED, work, unit=uid, weapon=wp.name, target=target)
        if not work.standing(uid):
            break
    if work.setup.playstyle is not Playstyle.ADVANCED:
        v = work.units[uid]
        work.units[uid] = v.with_counter(WEAPONS_TURN, work.flow.turn) if struck else v
        work.set_unit(uid, acted=True)  # its Attack for the Game Turn (ruling)


def delirium_on_hp_lost(
    work: Work, unit: int, amount: int, source: str, attacker: int | None
) -> None:
    """L2678: a Skill Test for each HP a Delirium Weapon costs ``unit``; a pass and the unit
    rampages now, or (Standard, already attacked) next Game Turn."""
    if attacker is None or amount <= 0 or not work.standing(unit):
        return
    from warbench.rulesets.warsurge.effects.model import PerkTest, TestSpec
    from warbench.rulesets.warsurge.effects.rolls import Outcome, run_test
    from warbench.rulesets.warsurge.game.advstate import Playstyle
    from warbench.rulesets.warsurge.game.perk_affliction import _immune
    from warbench.rulesets.warsurge.game.perk_effects import DELAYED
    from warbench.rulesets.warsurge.game.perk_index import weapon_perks
    from warbench.rulesets.warsurge.game.perk_limits import skill_modifier
    from warbench.rulesets.warsurge.game.perk_offering import rescue
    from warbench.rulesets.warsurge.game.perk_turn import fugued, lose_hp
    from warbench.rulesets.warsurge.game.state import Phase

    if DELIRIUM not in weapon_perks(work, attacker, source):
        return
    if DELIRIUM in _immune(work, unit):
        return
    mod = skill_modifier(work, attacker, source, unit)
    fail = fugued(work, attacker)
    spec = TestSpec(PerkTest.SKILL)
    from warbench.rulesets.warsurge.game.perk_reroll import settle

    def roll(label: str) -> Outcome:
        return run_test(work.dice, spec, mod, auto_fail=fail, label=label)

    tests = [roll("Delirium Skill Test") for _ in range(amount)]  # Lucky, Jinx … (L859-L867)
    passed = sum(o.passed for o in settle(work, attacker, tests, roll, "Delirium Skill Test", unit))
    if not passed and not fail:  # Offering, Sacrifice (L871, L1017)
        passed = int(rescue(work, attacker, "Delirium Skill Test", lose_hp))
    label = work.label(unit)
    if not passed:
        text = f"{label}: Delirium from {work.label(attacker)}'s {source}, no Skill Test passed"
        work.emit("perk", text, RULE, unit=unit, perk=DELIRIUM, landed=False)
        return
    u = work.units[unit]
    standard = work.setup.playstyle is not Playstyle.ADVANCED
    if standard and (u.acted or work.flow.phase is not Phase.ATTACK):
        if any(s.name.startswith(DELIRIUM) for s in u.statuses):
            return
        work.set_unit(
            unit, statuses=(*u.statuses, Status(DELIRIUM + DELAYED, 1, f"u{attacker}/{source}"))
        )
        work.emit("perk", f"{label}: Delirium from {work.label(attacker)}'s {source}: it has "
                  "attacked already, it rampages next Game Turn", RULE, unit=unit,
                  perk=DELIRIUM, landed=True)  # fmt: skip
        return
    text = f"{label}: Delirium from {work.label(attacker)}'s {source}, {passed} of {amount} passed"
    work.emit("perk", text, RULE, unit=unit, perk=DELIRIUM, landed=True)
    rampage(work, unit)


def delirium_at_phase_start(work: Work, phase: str) -> None:
    """A unit under Delirium (from the Game Turn before) rampages as the Attack Phase starts."""
    from warbench.rulesets.warsurge.game.state import Phase

    if phase != Phase.ATTACK.value:
        return
    for uid, u in enumerate(work.units):
        if not u.statuses or not any(s.name == DELIRIUM for s in u.statuses):
            continue
        work.set_unit(uid, statuses=tuple(s for s in u.statuses if s.name != DELIRIUM))
        if u.location is Location.TABLE:
            rampage(work, uid)


def register_hooks(reg: HookRegistry) -> None:
    """Register this module's hooks (one call from ``perk_families.register_family_hooks``)."""
    reg.register(Hook.HP_LOST, delirium_on_hp_lost, "Delirium (Skill Test)", perks=[DELIRIUM])
    reg.register(
        Hook.PHASE_START, delirium_at_phase_start, "Delirium (next Game Turn)", perks=[DELIRIUM]
    )
