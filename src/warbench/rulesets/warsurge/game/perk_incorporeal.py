"""Incorporeal as the rest of the engine reads it (Perks 000_94ecc6a4c74d351b.txt §12.4
Transformation, L2466-L2504): who is Incorporeal, who may Target whom, who moves through whom,
who locks whom in a Melee, and what a Dangerous Ground or a Template does to it. The use
(activation, deactivation, Transports, the count of Game Turns) is ``perk_incorporeal_use``.

    "When activated, the User becomes immune to all damage, cannot be Targeted by any Unit, all
    negative Perk effects are removed and cannot lose any HP (except if self-inflicted by
    Perks). However, they cannot seize or interact with Objectives (dropping any when
    Activated), and cannot use any Weapons other than to Heal itself or attack other activated
    Incorporeal Units. If already engaged in a Melee, they immediately leave it. With
    Incorporeal active, the User can freely move through solid objects such as terrain and
    other Units, and other Units can pass through the User. … Other Units with Incorporeal
    active can Target other Incorporeal Units with Weapons and engage in a Melee, able to
    interact like normal Units."

* A unit is Incorporeal while it has the status :data:`INCORPOREAL` (no duration: until it is
  deactivated). This module imports only ``state``, so the movement, melee, attack and Template
  code may ask it without an import cycle.
* **Targeting** (:func:`target_refusal`, asked first by ``perk_limits.target_refusal``, before
  Heal weapons are let through: "cannot be Targeted by any Unit"): a unit that is not
  Incorporeal may not Target an Incorporeal unit with any Weapon, a Heal weapon included; an
  Incorporeal unit may Target only another Incorporeal unit, or itself with a Heal weapon.
* **Movement** (:func:`ghosts`, used by ``coherency.problem_positions``): an Incorporeal
  unit's models move through Impassable Ground, terrain and other units' bases; every unit's
  models move through an Incorporeal unit's bases. Where a model ends is checked as before: it
  may not end overlapping a base nor stand on Impassable Ground (the text allows moving
  *through*; docs/rulings.md w2-transform 2).
* **Melees** (:func:`may_lock`, used by ``melee.engage_new_contacts``): Base Contact locks two
  enemy units in a Melee only when both or neither are Incorporeal.
* **Damage** (:func:`immune`): no Template (``perk_mode``) and no Dangerous Ground harms an
  Incorporeal unit unless the source is an Incorporeal unit itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game.state import INCORPOREAL_TURN
from warbench.rulesets.warsurge.game.unit_marks import status_names

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.state import GameState
    from warbench.rulesets.warsurge.game.work import Work

__all__ = [
    "INCORPOREAL",
    "INCORPOREAL_TURN",
    "RULE",
    "active",
    "final_values",
    "ghosts",
    "immune",
    "may_lock",
    "target_refusal",
]

INCORPOREAL = "Incorporeal"
RULE = "Perks §12.4 Incorporeal (000_94ecc6a4c74d351b.txt L2466)"


def active(state: Work | GameState, uid: int) -> bool:
    """Whether unit ``uid`` is Incorporeal now."""
    u = state.units[uid]
    return bool(u.statuses) and INCORPOREAL in status_names(u)


def ghosts(state: Work | GameState) -> frozenset[int]:
    """The Incorporeal units (empty in every game without Incorporeal: no status, no cost)."""
    return frozenset(u.uid for u in state.units if u.statuses and active(state, u.uid))


def target_refusal(work: Work, uid: int, target: int, heal: bool) -> str | None:
    """Why ``uid`` may not Target ``target`` (``heal``: with a Heal weapon), or ``None``
    (L2468-L2471, L2490-L2491)."""
    mine, theirs = active(work, uid), active(work, target)
    if mine and theirs:
        return None  # L2490: "can Target other Incorporeal Units … like normal Units"
    if theirs:
        return f"{work.label(target)} is Incorporeal: it cannot be Targeted by any Unit ({RULE})"
    if not mine:
        return None
    if heal and target == uid:
        return None  # L2471: "other than to Heal itself"
    return (
        f"{work.label(uid)} is Incorporeal: it cannot use any Weapons other than to Heal itself "
        f"or attack other activated Incorporeal Units ({RULE})"
    )


def may_lock(work: Work, a: int, b: int) -> bool:
    """Whether Base Contact locks ``a`` and ``b`` in a Melee: both or neither Incorporeal
    (L2476 "other Units can pass through the User", L2490 "engage in a Melee")."""
    return active(work, a) == active(work, b)


def immune(work: Work, uid: int, source: int | None) -> bool:
    """Whether ``uid`` takes no HP Loss from ``source`` (a unit; ``None``: the battlefield, a
    Dangerous Ground): L2467 "immune to all damage … (except if self-inflicted by Perks)";
    an Incorporeal source hurts it like a normal unit (L2490)."""
    if not active(work, uid):
        return False
    return source is None or (source != uid and not active(work, source))


def final_values(state: GameState, values: list[float]) -> list[float]:
    """The sides' values as the game ends (L2502): "If Incorporeal is active or deactivated
    during the final Game Turn, the User counts as destroyed for the purposes of Victory
    Conditions" (its value is taken off its controller's)."""
    out = list(values)
    for u in state.units:
        if u.counters and u.counter(INCORPOREAL_TURN) == state.flow.turn:
            out[u.controller(state.setup.units[u.uid].side)] -= state.current_value(u.uid)
    return out


def last_turn(state: Work | GameState, uid: int) -> int:
    """The last Game Turn in which ``uid`` was Incorporeal, active or deactivated (0: never)."""
    u = state.units[uid]
    return u.counter(INCORPOREAL_TURN) if u.counters else 0
