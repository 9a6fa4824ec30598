"""Attack Dice that strike another unit as successful ones: Furious's failed dice (Perks
000_94ecc6a4c74d351b.txt L2003, :mod:`.perk_furious`) and a slain Bodyguard's follow-on dice
(L1935, :mod:`.perk_bodyguard`).

:func:`strike` resolves them as one Attack Sequence of the same Weapon (its Power, AP and
Perks) with ``AttackContext.struck_dice`` (no Attack Dice roll, no Dice Modifier, no Cover
Bonus; the victim's Saves and the Weapon's HP Loss as normal), Combat Damage (L1154) on the
struck unit applied, and hands the caller what it needs to report it and fire its hooks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from warbench.rulesets.warsurge.attack import AttackContext
from warbench.rulesets.warsurge.game import perk_combat_damage
from warbench.rulesets.warsurge.game.terrain_split import split_side
from warbench.rulesets.warsurge.game.work import current_value, store_unit_state, to_unit_state
from warbench.rulesets.warsurge.odds import AttackPlan, RolledAttack, apply_rolled, roll_attack

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.attack import UnitState
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["Struck", "strike"]


class Struck(NamedTuple):
    """What :func:`strike` did: the roll, the models newly slain, and the attacker as it stood
    before the strike."""

    rolled: RolledAttack
    casualties: list[int]
    attacker: UnitState


def strike(
    work: Work, uid: int, target: int, weapon: str, dice: int, melee: bool = False
) -> Struck:
    """``dice`` Attack Dice of ``uid``'s ``weapon`` strike ``target`` as successful ones."""
    attacker = to_unit_state(work, uid)
    victim = split_side(work, target, uid, to_unit_state(work, target))  # L4466 (ruling 11)
    before = [m.hp for m in victim.models]
    ctx = AttackContext(
        melee=melee,
        struck_dice=dice,
        attacker_point_cost=current_value(work, uid),
        target_point_cost=current_value(work, target),
    )
    ctx = perk_combat_damage.in_effect(work, target, ctx)  # Combat Damage (L1154)
    plan = AttackPlan(attacker, victim, ctx, weapons=(weapon,), users=((weapon, 1),))
    rolled = roll_attack(plan, work.dice)
    apply_rolled(plan, rolled)
    store_unit_state(work, target, victim)
    perk_combat_damage.after_share(work, target, uid, rolled.combat_damage)
    new_cas = [i for i, m in enumerate(victim.models) if m.hp <= 0 < before[i] and not m.removed]
    return Struck(rolled, new_cas, attacker)
