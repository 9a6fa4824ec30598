"""Heal Weapons in a game (Perks 000_94ecc6a4c74d351b.txt §12.5 Mode, L3433-L3456).

    "This Weapon restores HP rather than inflicting damage. Refer to the Weapon's Stats such as
    Power and AP as normal, as you must 'Attack' the Target to restore HP. Weapon Perks still
    apply but are reversed as HP restoration instead of damage. … Heal restores casualty models
    within a Unit, placing them within Coherency. A Unit must have at least one model that is
    not a casualty for Heal to function. … Heal Weapons that also equip Perks which cause
    negative non-damaging effects, such as Pulverise or Freeze, remove that Perk effect from the
    Target if 1 or more HP is restored or would have been restored if they had missing HP."

* **Targets** (:func:`heal_refusal`, asked by ``attacks.verify_attack``): a Heal Weapon Targets
  a friendly unit other than its own, with the usual Range and line of sight (0" Range: Base
  Contact); it may not Target an enemy unit (docs/rulings.md "Heal").
* **Resolution** (:func:`resolve_heal`, from ``attacks``): the share is rolled as an Attack on
  the friendly unit made whole (its Defence and Saves as normal, the Weapon's perks as they
  apply; every model at full HP, so the roll is not capped by the HP left); the HP it would
  have lost is restored instead (damaged models first, then casualty models placed in
  Coherency, as Recover, never above full HP), and the negative effects named by the Weapon's
  other perks are removed from the Target when 1 or more HP is (or would be) restored. No HP
  Loss hooks fire.
* **Choices** (:func:`heal_targets`): the wounded friendly units each Heal Weapon can reach,
  the most HP missing first — listed with the game's attack candidates and used by the
  scripted player.

Not in play: the Absorb shield of the excess HP, Heal in Reserve, and the Advanced Counter
Attack at the User (docs/rulings.md "Heal").
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from warbench.rulesets.warsurge.game.perk_index import perks_now, weapon_perks
from warbench.rulesets.warsurge.game.perk_turn import restore_hp
from warbench.rulesets.warsurge.game.state import Location, model_max_hp

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.plans import WeaponPlan
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["heal_refusal", "heal_targets", "heals", "resolve_heal"]

RULE = "Perks §12.5 Heal (000_94ecc6a4c74d351b.txt L3433)"


def heals(work: Work, uid: int, weapon: str) -> bool:
    """Whether ``weapon`` of ``uid`` has Heal."""
    return "Heal" in weapon_perks(work, uid, weapon)


def heal_refusal(work: Work, uid: int, weapon: str, target: int) -> str | None:
    """Why the Heal Weapon ``weapon`` may not Target ``target`` (an enemy, its own unit, a unit
    with no model standing), or ``None``."""
    if target == uid:
        return f"{weapon} (Heal) Targets another friendly unit, not its own ({RULE})"
    if work.enemies(uid, target):
        return (
            f"{weapon} restores HP rather than inflicting damage (Heal): it Targets friendly "
            f"units, not {work.label(target)} ({RULE})"
        )
    if not work.units[target].living():
        return f"{work.label(target)} has no model standing for Heal to function ({RULE})"
    return None


def _missing(work: Work, uid: int) -> int:
    u = work.units[uid]
    per = model_max_hp(work.info(uid), u)
    return sum(per - max(0, h) for h in u.hp)


def heal_targets(work: Work, uid: int) -> dict[str, list[int]]:
    """For each Heal Weapon of ``uid``, the wounded friendly units on the battlefield it may
    Target now (in Range and sight), the most HP missing first."""
    mine = [name for name, ps in perks_now(work, uid).weapons if "Heal" in ps]
    if not mine or work.units[uid].location is not Location.TABLE:
        return {}
    from warbench.rulesets.warsurge.game.perk_limits import weapon_refusal
    from warbench.rulesets.warsurge.game.targeting import view_target

    side = work.info(uid).side
    friends = sorted(
        (
            (-_missing(work, t), t)
            for t in work.side_units(side)
            if t != uid and work.standing(t) and _missing(work, t) > 0
        ),
    )
    out: dict[str, list[int]] = {}
    for _, t in friends:
        view = view_target(work, uid, t)
        if view.reason:
            continue
        for name in mine:
            if view.users_in_range.get(name) and weapon_refusal(work, uid, name) is None:
                out.setdefault(name, []).append(t)
    return out


def resolve_heal(
    work: Work,
    uid: int,
    wp: WeaponPlan,
) -> None:
    """Roll the Heal share ``wp`` as an Attack on the friendly Target and restore the HP it
    would have lost (Recover's restoration, ``perk_turn.restore_hp``)."""
    from warbench.rulesets.warsurge.game.hooks import Hook
    from warbench.rulesets.warsurge.game.perk_effects import status_dice
    from warbench.rulesets.warsurge.game.work import to_unit_state
    from warbench.rulesets.warsurge.odds import AttackPlan, roll_attack

    target = wp.target
    whole = to_unit_state(work, target)
    per = model_max_hp(work.info(target), work.units[target])
    # rolled as at the unit made whole: what Heal may restore is capped by the HP missing, not
    # by the HP left (docs/rulings.md "Heal")
    whole.models = [replace(m, hp=per, removed=False) for m in whole.models]
    whole.immortal_left = None
    ap = AttackPlan(
        to_unit_state(work, uid),
        whole,
        status_dice(
            replace(wp.context, los_models=None),  # every model may be restored (§5.13 is HP Loss)
            work.units[uid].statuses,
            work.units[target].statuses,
            wp.weapon,
        ),
        weapons=(wp.weapon,),
        users=((wp.weapon, wp.users),),
    )
    rolled = roll_attack(ap, work.dice)
    restored = restore_hp(work, target, rolled.loss)
    cleared: list[str] = []
    if rolled.loss:
        negative = weapon_perks(work, uid, wp.weapon) - {"Heal"}
        before = work.units[target].statuses
        kept = tuple(s for s in before if s.name.partition("@")[0] not in negative)
        if kept != before:
            cleared = sorted({s.name for s in before} - {s.name for s in kept})
            work.set_unit(target, statuses=kept)
    r0 = rolled.weapons[0] if rolled.weapons else None
    data: dict[str, Any] = {"restored": restored, "rolled": rolled.loss}
    if cleared:
        data["cleared"] = cleared
    work.emit(
        "heal",
        f"{work.label(uid)} heals {work.label(target)} with {wp.weapon} ({wp.users} models): "
        f"{r0.attack_dice if r0 else 0} Attack Dice, {rolled.loss} HP rolled, {restored} HP "
        "restored" + (f"; {', '.join(cleared)} removed" if cleared else ""),
        RULE,
        unit=uid,
        target=target,
        weapon=wp.weapon,
        **data,
    )
    if work.hooks.active(Hook.WEAPON_USED):
        work.hooks.fire(Hook.WEAPON_USED, work, unit=uid, weapon=wp.weapon, target=target)
