"""Aether Tests under a Dice Modifier, through an Incantation weapon (issue 18).

Perks 000_94ecc6a4c74d351b.txt L3082-3087 (Incantation: a double 1 doubles the Attacks, a 12
inflicts D6 HP Loss on the User), L1687-1689 (Resist I: a 2 counts as 3, an 11 as 12) and
L2724-2725 (Fugue: a 2 counts as 5, 9-11 count as 12).
"""

from __future__ import annotations

from warbench.kernel.dice import ScriptedDice
from warbench.rulesets.warsurge.attack import AttackContext, WeaponUse, compile_weapon_use

from .conftest import unit, weapon


def _incantation(faces: list[int], modifier: int) -> WeaponUse:
    w = weapon(attacks=2, perks=["Incantation"])
    dice = ScriptedDice(faces)
    use = compile_weapon_use(
        unit("Caster", weapons=[w]), w, 1, unit("Target"), AttackContext(aether_modifier=modifier),
        dice,
    )  # fmt: skip
    assert dice.remaining == 0
    return use


def test_s12_2_incantation_double_one_under_resist_counts_as_three_no_doubling() -> None:
    assert _incantation([1, 1], 0).dice == 4  # no modifier: a double 1 doubles the Attacks
    assert _incantation([1, 1], -1).dice == 2  # Resist I: passes, Attacks not doubled


def test_s12_2_incantation_eleven_under_resist_counts_as_twelve_backlash() -> None:
    use = _incantation([5, 6, 4], -1)  # 11 counts as 12: fails, the User suffers D6 (4)
    assert use.dice == 0 and use.self_loss == 4


def test_s12_2_incantation_nine_under_fugue_counts_as_twelve_backlash() -> None:
    use = _incantation([4, 5, 2], -3)
    assert use.dice == 0 and use.self_loss == 2
    assert _incantation([1, 1], -3).dice == 2  # a 2 counts as 5: passes, not doubled
