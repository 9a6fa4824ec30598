"""Multi-Strike (Tactical Weapon Perk, Perks 000_94ecc6a4c74d351b.txt L3943, Passive;
docs/rulings.md "WARSURGE perks in play: session 25, s25-tactical" 14).

"The Wielder can direct each of this Weapon's Attacks to different Units."

In an Attack action a Multi-Strike Weapon's shares name their models as usual; a model may be
named in several shares (at different units) and more than once in one share. When any model is
so named, every naming of that Weapon in the Attack is one of that model's Attacks (a model named
three times at unit 1 and once at unit 2 directs three Attacks at one and one at the other), at
most the Weapon's Attacks per model; otherwise each model named gives all its Attacks, as for any
Weapon (§5.3). A divided share is resolved as the Weapon with one Attack, made by each naming,
without the bonuses that add to or multiply a model's Attacks (they are not divided).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.attack import PerkSet

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.attack import AttackContext
    from warbench.rulesets.warsurge.game.plans import AttackPlanG, WeaponPlan
    from warbench.rulesets.warsurge.game.state import UnitInfo
    from warbench.rulesets.warsurge.profiles import WeaponProfile

__all__ = ["MULTI_STRIKE", "divided", "multi_strike", "one_attack", "split_refusal"]

MULTI_STRIKE = "Multi-Strike"
RULE = "Perks §12.5 Multi-Strike (000_94ecc6a4c74d351b.txt L3943)"


def multi_strike(info: UnitInfo, weapon: str) -> bool:
    return PerkSet(info.unit.weapon(weapon).perks).has(MULTI_STRIKE)


def _divided(namings: Sequence[Sequence[int]]) -> bool:
    seen = Counter(m for models in namings for m in models)
    return any(n > 1 for n in seen.values())


def split_refusal(info: UnitInfo, weapon: str, namings: Sequence[Sequence[int]]) -> str | None:
    """A divided Multi-Strike Weapon naming a model more often than the Weapon's Attacks."""
    if not _divided(namings):
        return None
    attacks = info.unit.weapon(weapon).attacks
    for m, n in sorted(Counter(m for models in namings for m in models).items()):
        if n > attacks:
            return (
                f"model {m + 1} of {info.label} directs {n} Attacks of {weapon}, which has "
                f"{attacks} ({RULE})"
            )
    return None


def divided(info: UnitInfo, plan: AttackPlanG, wp: WeaponPlan) -> bool:
    """Whether the share ``wp`` of ``plan`` is one of a divided Multi-Strike Weapon."""
    if not multi_strike(info, wp.weapon):
        return False
    return _divided([p.models for p in plan.weapons if p.weapon == wp.weapon])


def one_attack(weapons: dict[str, WeaponProfile], weapon: str, ctx: AttackContext) -> AttackContext:
    """A divided share: ``weapon`` in the attacker's ``weapons`` made with one Attack (each
    naming is one), and the context without the bonuses that add or multiply a model's Attacks
    (Burst, Darkside's Attacks, Clash, the Melee bonus Attacks): they are not divided."""
    from dataclasses import replace

    weapons[weapon] = weapons[weapon].model_copy(update={"attacks": 1})
    return replace(
        ctx, burst=False, darkside_attacks=0, first_use_after_engaging=False, melee_bonus_attacks=0
    )
