"""Furious in a game (Perks 000_94ecc6a4c74d351b.txt §12.4 Leadership, L2003-L2015).

    "Furious — Leader, Specific, Radius (6"). When the User rolls Attack Dice with any of their
    Weapons, count up the dice that are not successful. Those failed Attack Dice will instead
    strike the closest friendly Unit within 6" instead, counting as successful Attack Dice
    against them. If there are no friendly Units within 6", the User attacks itself instead,
    starting with attached Units."

* **When** (:func:`after_share`, called by ``attacks._attack_from`` after each share of an
  Attack at a unit): the share's Attack Dice that did not succeed (its Attack Dice less its
  successful ones; an Accuracy or Aim pre-roll that failed counts as a failed die) strike back
  at once, before the next share.
* **Whom** (:func:`fury_target`): the closest other friendly unit on the Battlefield whose
  closest model is within 6" (base edge to edge, §1.4); a tie goes to the unit listed first.
  None: the User's own unit (docs/rulings.md "session 25, s25-lead" 1-2).
* **How**: one Attack Sequence of the same Weapon (its Power, AP and Perks) with that many
  Attack Dice counting as successful (``AttackContext.struck_dice``: no Attack Dice roll, no
  Dice Modifier, no Cover Bonus; the victim's Saves and the Weapon's HP Loss as normal; a 6 of
  the §12.2 Auto Test still triggers Critical, Piercing and Dire Hit). It fires the hooks an
  Attack fires (HP lost, casualties), so it counts as an attack by the User on that unit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.attack import AttackContext
from warbench.rulesets.warsurge.game import perk_incorporeal
from warbench.rulesets.warsurge.game.hooks import Hook
from warbench.rulesets.warsurge.game.perk_struck import strike
from warbench.rulesets.warsurge.game.perk_turn import index
from warbench.rulesets.warsurge.game.work import store_unit_state, to_unit_state
from warbench.rulesets.warsurge.odds import AttackPlan, allocate_loss

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["FURIOUS", "RADIUS", "after_share", "furious", "fury_target"]

FURIOUS = "Furious"
RULE = "Perks §12.4 Furious (000_94ecc6a4c74d351b.txt L2003)"
#: L2003: "Radius (6")", "the closest friendly Unit within 6"".
RADIUS = 6.0


def furious(work: Work, uid: int) -> bool:
    """Whether unit ``uid`` has Furious."""
    return FURIOUS in index(work.setup).units[uid].unit


def fury_target(work: Work, uid: int) -> int:
    """The unit the failed Attack Dice of ``uid`` strike: the closest other friendly unit on
    the Battlefield within 6" (the first listed on a tie), else ``uid`` itself (L2005-2007)."""
    best: tuple[float, int] | None = None
    for f in work.side_units(work.info(uid).side):
        if f == uid or not work.standing(f):
            continue
        if work.units[f].statuses and perk_incorporeal.immune(work, f, uid):
            continue  # Incorporeal (L2467): "immune to all damage"
        gap = work.gap(uid, f)
        if gap <= RADIUS + 1e-9 and (best is None or gap < best[0] - 1e-9):
            best = (gap, f)
    return uid if best is None else best[1]


def after_share(work: Work, uid: int, weapon: str, attack_dice: int, successes: int) -> None:
    """L2003: the ``attack_dice - successes`` failed Attack Dice of the User's share with
    ``weapon`` strike the closest friendly unit within 6" (else the User) as successful ones."""
    failed = attack_dice - successes
    if failed <= 0 or not furious(work, uid) or not work.units[uid].living():
        return
    target = fury_target(work, uid)
    rolled, new_cas, attacker = strike(work, uid, target, weapon, failed)
    if rolled.attacker_hp_lost and target != uid:
        mine = to_unit_state(work, uid)
        allocate_loss(
            AttackPlan(attacker, mine, AttackContext(melee=True)), rolled.attacker_hp_lost
        )
        store_unit_state(work, uid, mine)
    whom = "itself" if target == uid else work.label(target)
    work.emit(
        "perk",
        f"{work.label(uid)} is Furious: {failed} failed Attack Dice of its {weapon} strike "
        f"{whom} as successful ones: {rolled.loss} HP lost, {len(new_cas)} casualties",
        RULE,
        unit=uid,
        target=target,
        weapon=weapon,
        perk=FURIOUS,
        struck=failed,
        hp_lost=rolled.loss,
        casualties=len(new_cas),
    )
    if rolled.loss and work.hooks.active(Hook.HP_LOST):
        work.hooks.fire(
            Hook.HP_LOST, work, unit=target, amount=rolled.loss, source=weapon, attacker=uid
        )
    if work.hooks.active(Hook.CASUALTY):
        for i in new_cas:
            work.hooks.fire(Hook.CASUALTY, work, unit=target, model=i, source=weapon)
