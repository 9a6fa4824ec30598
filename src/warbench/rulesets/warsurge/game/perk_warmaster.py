"""War Master in a game (Perks 000_94ecc6a4c74d351b.txt §12.4 Leadership, L2057-L2067).

    "War Master — Single Model, Passive, Radius (6"). The User is defined as a 'Leader' for
    Leadership Perks. The User can redirect enemy Attacks onto friendly Units within 6" of the
    User, as long as both the attacker and User have line of sight and are in Range of the
    redirected Unit. A redirected Attack cannot be redirected again if the redirected Unit has
    War Master. If the User is the closest Target for an enemy Unit, then they cannot redirect
    that enemy's attack."

* **Which Attacks** (:func:`redirect_share`, called by ``attacks._attack_from`` for each share
  after Reflect): a share of an enemy unit's Attack that Targets the War Master's unit (a
  Weapon's share at one unit; not a template's or a Chain's, which strike where they land,
  nor a Heal's), unless the War Master is that enemy unit's closest enemy unit (base edge to
  edge; on a tie it is one of the closest). A share redirected onto another War Master is not
  redirected again (one redirection a share).
* **Onto whom** (:func:`candidates`): another friendly unit on the Battlefield within 6" of
  the War Master, that every model of the share has in Range and line of sight with that
  Weapon, that the War Master has in line of sight and within one of its Weapons' Range, and
  that the attacker may Target (``perk_limits.target_refusal``, given as a callable).
* **The choice** is the War Master's player's ("can redirect"); the engine's for now
  (docs/rulings.md "session 25, s25-lead" 6): it redirects whenever it may, onto the
  candidate with the most HP left (the first listed on a tie). The share is made against that
  unit with its own distance, Cover and sight (exact in ``odds`` as an Attack at it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game import geom
from warbench.rulesets.warsurge.game.perk_effects import weapon_ranges
from warbench.rulesets.warsurge.game.perk_turn import index
from warbench.rulesets.warsurge.game.targeting import view_target
from warbench.rulesets.warsurge.game.work import current_value, perks_of

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.plans import AttackPlanG, WeaponPlan
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["RADIUS", "WAR_MASTER", "candidates", "redirect_share", "retarget"]

WAR_MASTER = "War Master"
RULE = "Perks §12.4 War Master (000_94ecc6a4c74d351b.txt L2057)"
RADIUS = 6.0

#: ``(work, attacker, weapon, target)`` → why the attacker may not Target it, or ``None``.
Refusal = Callable[["Work", int, str, int], "str | None"]


def _war_master(work: Work, uid: int) -> bool:
    return WAR_MASTER in index(work.setup).units[uid].unit


def _closest_to(work: Work, attacker: int, uid: int) -> bool:
    """Whether ``uid`` is (one of) the closest enemy units of ``attacker``."""
    mine = work.gap(attacker, uid)
    return not any(
        t != uid
        and work.enemies(attacker, t)
        and work.standing(t)
        and work.gap(attacker, t) < mine - 1e-9
        for t in range(len(work.units))
    )


def _in_range(work: Work, uid: int, other: int) -> bool:
    """Whether ``uid`` has ``other`` in line of sight and within one of its Weapons' Range."""
    view = view_target(work, uid, other)
    if view.reason or not view.visible:
        return False
    ranges = weapon_ranges(work.info(uid), work.units[uid].statuses).values()
    return any(view.distance <= max(float(r), geom.CONTACT) + 1e-9 for r in ranges)


def candidates(
    work: Work, attacker: int, wp: WeaponPlan, master: int, refusal: Refusal
) -> list[int]:
    """The friendly units of ``master`` that the share ``wp`` of ``attacker`` may be
    redirected onto (see the module docstring)."""
    out = []
    side = work.info(master).side
    for f in work.side_units(side):
        if f == master or not work.standing(f) or work.gap(master, f) > RADIUS + 1e-9:
            continue
        view = view_target(work, attacker, f)
        if view.reason:
            continue
        users = set(view.users_in_range.get(wp.weapon, ()))
        if wp.models and not set(wp.models) <= users:
            continue
        if len(users) < wp.users or not _in_range(work, master, f):
            continue
        if refusal(work, attacker, wp.weapon, f) is not None:
            continue
        out.append(f)
    return out


def redirect_share(work: Work, plan: AttackPlanG, k: int, refusal: Refusal) -> AttackPlanG:
    """``plan`` with share ``k`` redirected by the War Master it Targets, if it may be (the
    engine's choice: onto the candidate with the most HP left), else ``plan`` unchanged."""
    wp = plan.weapons[k]
    master = wp.target
    uid = plan.uid
    if not 0 <= master < len(work.units) or master == uid or not work.enemies(uid, master):
        return plan
    if not _war_master(work, master) or not work.standing(master):
        return plan
    from warbench.rulesets.warsurge.game.perk_heal import heals
    from warbench.rulesets.warsurge.game.perk_mode import chain_of, template_of

    info = work.info(uid)
    if template_of(info, wp.weapon) or chain_of(info, wp.weapon) or heals(work, uid, wp.weapon):
        return plan
    if _closest_to(work, uid, master):
        return plan
    options = candidates(work, uid, wp, master, refusal)
    if not options:
        return plan
    onto = max(options, key=lambda f: (work.units[f].current_hp, -f))
    work.emit("perk", f"{work.label(master)} (War Master) redirects {info.label}'s "
              f"{wp.weapon} onto {work.label(onto)}", RULE, unit=master, perk=WAR_MASTER,
              attacker=uid, onto=onto)  # fmt: skip
    return retarget(work, plan, k, onto)


def retarget(work: Work, plan: AttackPlanG, k: int, onto: int) -> AttackPlanG:
    """``plan`` with share ``k`` made against ``onto`` instead: its distance, Cover and sight
    from the attacking unit (exact in ``odds`` as an Attack at ``onto``)."""
    wp = plan.weapons[k]
    uid = plan.uid
    info = work.info(uid)
    view = view_target(work, uid, onto)
    tperks = perks_of(work.info(onto).unit.profile.perks)
    rng = weapon_ranges(info, work.units[uid].statuses)[wp.weapon]
    ctx = replace(
        wp.context,
        melee=view.melee,
        attacker_engaged=view.attacker_engaged,
        target_engaged_elsewhere=view.target_engaged_elsewhere,
        cover=view.cover > 0,
        cover_bonus=max(1, view.cover) + view.custom_cover.defence,
        cover_armour=view.custom_cover.armour,
        cover_aegis=view.custom_cover.aegis,
        cover_save=view.custom_cover.save_needed,
        distance=view.distance,
        within_half_range=view.distance <= rng / 2,
        target_point_cost=current_value(work, onto),
        los_models=None if view.melee else view.visible,
        target_airborne=tperks.has("Airborne") or tperks.has("Jumper"),
        target_is_leader=tperks.has("Leader") or tperks.has("War Master"),
        target_out_of_sight=False,
    )
    moved = replace(wp, target=onto, context=ctx)
    return replace(plan, weapons=(*plan.weapons[:k], moved, *plan.weapons[k + 1 :]))
