"""Psychotic in a game (Perks 000_94ecc6a4c74d351b.txt §12.4 Psychological, L2277-L2291).

    "From Game Turn 2 and onwards, Psychotic Units must direct any and all Movement toward the
    closest Unit, friend or foe, until all Weapons are in Range. Weapons must be directed to
    the closest Unit. … If multiple Units are the same distance, User may choose."

Berserk (``perk_psych``) with friends among the closest units:

* **Targets** (:func:`target_refusal`, asked by ``perk_limits.target_refusal``; and
  :func:`may_target_friend`, asked by ``attacks.verify_attack``): from Game Turn 2, a Weapon
  (not Heal) of a Psychotic unit may Target only a unit at the least distance from it (closest
  base edges, ties allowed), and that unit may be a friendly one. The game's attack candidates
  list the closest friendly units too (:func:`closest_units`, read by ``engine.weapon_targets``).
* **Movement** (:func:`move_refusal`, asked by ``perk_psych.move_refusal``): while a Weapon (not
  Heal) is out of Range of the closest unit, no model of a Move or Dash may end farther from it
  than it began.

Not in play: attacking itself when no other friendly unit is on the Battlefield, attached units
and Transports (docs/rulings.md "Psychotic").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game.perk_closest import heal_weapon, moves_away, nearest
from warbench.rulesets.warsurge.game.perk_turn import index

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.actions import Point
    from warbench.rulesets.warsurge.game.work import Work

__all__ = [
    "closest_units",
    "may_target_friend",
    "move_refusal",
    "psychotic",
    "target_refusal",
]

RULE = "Perks §12.4 Psychotic (000_94ecc6a4c74d351b.txt L2277)"


def psychotic(work: Work, uid: int) -> bool:
    """Whether ``uid`` is Psychotic and it is Game Turn 2 or later."""
    return work.flow.turn >= 2 and "Psychotic" in index(work.setup).units[uid].unit


def closest_units(work: Work, uid: int) -> list[int]:
    """The other units on the battlefield, friend or foe, at the least distance from ``uid``
    (several when tied)."""
    others = (u.uid for u in work.units)
    return nearest(work, uid, (t for t in others if t != uid and work.standing(t)))


def target_refusal(work: Work, uid: int, weapon: str, target: int) -> str | None:
    """Why the Psychotic unit's ``weapon`` may not Target ``target`` (not a closest unit), or
    ``None``."""
    if not psychotic(work, uid) or heal_weapon(work, uid, weapon):
        return None
    closest = closest_units(work, uid)
    if not closest or target in closest:
        return None
    names = ", ".join(work.label(t) for t in closest)
    return f"{weapon} must Target the closest unit, friend or foe ({names}): Psychotic, {RULE}"


def may_target_friend(work: Work, uid: int, weapon: str, target: int) -> bool:
    """Whether the Psychotic unit ``uid`` may aim ``weapon`` at the friendly unit ``target``
    (it is a closest unit)."""
    return (
        psychotic(work, uid)
        and target != uid
        and not heal_weapon(work, uid, weapon)
        and target in closest_units(work, uid)
    )


def move_refusal(
    work: Work, uid: int, starts: tuple[Point, ...], new: tuple[Point, ...]
) -> str | None:
    """Why this Move or Dash of a Psychotic unit is not allowed (a model ends farther from the
    closest unit while a Weapon is out of its Range), or ``None``."""
    if not psychotic(work, uid):
        return None
    closest = closest_units(work, uid)
    if not moves_away(work, uid, closest, starts, new):
        return None
    names = ", ".join(work.label(c) for c in closest)
    return (
        f"{work.label(uid)} must direct its Movement toward the closest unit, friend or foe "
        f"({names}): no model may end farther from it (Psychotic, {RULE})"
    )
