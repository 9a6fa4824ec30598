"""Precision 2+-6+ (Tactical Weapon Perks, Perks 000_94ecc6a4c74d351b.txt L3993-L4027, Passive,
Auto Test) and Obscured (Defensive, L1587, D6 4+) in a game (docs/rulings.md "WARSURGE perks in
play: session 25, s25-tactical" 15-17).

"Any Attack Dice from this Weapon that results in a 2+ [3+ … 6+] will allow the attacking player
to choose a specific model in the Unit to receive the Attack Dice. If the Weapon requires
rerolls, it will be the last roll that requires a 2+." Obscured: "When targeted by a Precision
Weapon, on a D6 4+ that Weapon cannot single out models of the User for this Attack Sequence
(roll per Precision Weapon)."

The attack kernel counts the HP Loss of the Attack Dice whose last roll met the threshold
(``WeaponResult.precision_loss``; automatic damage rolls an Auto Test die for it, §12.2 L263).
That HP Loss is applied first, to the models the attacker chooses (``Attack.single_out``,
else the engine's choice: the model carrying the most Attacks x Power of Weapons, then model
order), within the rules' order
of casualties (§5.12: a wounded model first, models out of sight never), so the counts of HP
lost and models slain are the ones ``odds`` gives; the rest of the HP Loss is the defender's
to allocate as usual (§5.11). Obscured rolls after the Attack Dice; on a 4+ the share has no
Precision.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.work import Work
    from warbench.rulesets.warsurge.odds import AttackPlan, RolledAttack

__all__ = ["OBSCURED", "obscured", "precision_first", "precision_of"]

OBSCURED = "Obscured"
RULE = "Perks §12.5 Precision (000_94ecc6a4c74d351b.txt L3993)"
OBSCURED_RULE = "Perks §12.4 Obscured (000_94ecc6a4c74d351b.txt L1587)"


def precision_of(rolled: RolledAttack) -> int:
    """The share's HP Loss from Precision dice (at most its HP Loss)."""
    if not rolled.weapons:
        return 0
    return min(rolled.loss, sum(r.precision_loss for r in rolled.weapons))


def obscured(work: Work, target: int, weapon: str, rolled: RolledAttack) -> RolledAttack:
    """Obscured (L1587): the Target rolls a D6 for the Precision Weapon; on a 4+ it cannot
    single out models this Attack Sequence (the share's Precision HP Loss is none)."""
    if not precision_of(rolled):
        return rolled
    from warbench.rulesets.warsurge.game.perk_turn import index

    if OBSCURED not in index(work.setup).units[target].unit:
        return rolled
    roll = work.dice.d6("Obscured")
    hidden = roll >= 4
    work.emit("perk", f"{work.label(target)}: Obscured against {weapon}'s Precision, rolled "
              f"{roll}" + (": it cannot single out models" if hidden else ""), OBSCURED_RULE,
              unit=target, perk=OBSCURED, landed=hidden)  # fmt: skip
    if not hidden:
        return rolled
    return replace(rolled, weapons=[replace(r, precision_loss=0) for r in rolled.weapons])


def _preference(work: Work, target: int) -> tuple[int, ...]:
    """The attacker's choice of models: the most Attacks x Power carried first."""
    info = work.info(target)
    power = {wp.name: wp.attacks * max(1, wp.power) for wp in info.unit.weapons}
    models = range(len(info.model_weapons))
    return tuple(sorted(models, key=lambda i: (-sum(power[w] for w in info.model_weapons[i]), i)))


def precision_first(
    work: Work, target: int, weapon: str, ap: AttackPlan, rolled: RolledAttack
) -> RolledAttack:
    """Apply the Precision HP Loss of ``weapon``'s share to ``ap.target`` (the state of unit
    ``target``, in memory) on the attacker's choice of models; the rolled attack with the HP
    Loss left for the defender to allocate."""
    p = precision_of(rolled)
    if p <= 0:
        return rolled
    from warbench.rulesets.warsurge.game.perk_aim import picks_of
    from warbench.rulesets.warsurge.game.perk_illusion import dispel_for_precision
    from warbench.rulesets.warsurge.odds import allocate_loss

    dispel_for_precision(work, target, ap.target)  # L4007: Illusions dispelled first
    mine = picks_of(weapon)  # the player's picks (Attack.single_out), then the engine's order
    pref = (*mine, *(m for m in _preference(work, target) if m not in mine))
    chosen = allocate_loss(replace(ap, casualty_preference=pref), p)
    got = ", ".join(f"model {i + 1} {n} HP" for i, n in chosen)
    work.emit("perk", f"{work.label(target)}: {weapon}'s Precision singles out {got}", RULE,
              unit=target, perk="Precision", hp_lost=sum(n for _, n in chosen))  # fmt: skip
    return replace(rolled, loss=rolled.loss - sum(n for _, n in chosen))
