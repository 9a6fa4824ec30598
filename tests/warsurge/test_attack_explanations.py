"""Every attack-math perk explains itself, Volatile shares the use's rolls, Darkside's limits."""

from __future__ import annotations

import pytest

from warbench.kernel.dice import ScriptedDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.attack import AttackContext, compile_weapon_use

from .conftest import unit, weapon


def notes_of(
    wperks: list[str], uperks: list[str] = (), tperks: list[str] = (), **ctx: object
) -> str:  # type: ignore[assignment]
    attacker = unit("A", weapons=[weapon(perks=wperks)], perks=list(uperks), hp=3, armour="5+")
    target = unit("T", perks=list(tperks), armour="5+", aegis="5+")
    use = compile_weapon_use(
        attacker, attacker.weapons["Gun"], 1, target, AttackContext(**ctx),  # type: ignore[arg-type]
        ScriptedDice([3] * 6),
    )  # fmt: skip
    return " | ".join(use.notes)


@pytest.mark.parametrize(
    ("wperks", "uperks", "tperks", "ctx", "expected"),
    [
        (["Aim 3+"], [], [], {}, "Aim 3+"),
        ([], ["Accuracy 4+"], [], {}, "Accuracy 4+"),
        ([], ["Accursed"], [], {}, "Accursed"),
        (["Reroll Attack"], [], [], {}, "Reroll Attack"),
        (["Focus"], [], [], {"stationary": True}, "Focus"),
        ([], ["Assassin"], [], {"target_is_leader": True}, "Assassin"),
        (["Critical Hit II"], [], [], {}, "Critical Hit II"),
        (["Dire Hit"], [], [], {}, "Dire Hit"),
        (["Piercing Hit I"], [], [], {}, "Piercing Hit I"),
        (["Volatile"], [], [], {}, "Volatile"),
        ([], [], ["Reinforced"], {}, "Reinforced"),
        ([], [], ["Resilient"], {}, "Resilient"),
        (["Rupture II"], [], [], {}, "Rupture II"),
        ([], [], ["Emergency Save"], {}, "Emergency Save"),
        ([], [], ["Evasive"], {}, "Evasive"),
    ],
)
def test_s12_1_each_result_says_which_perk_changed_it(
    wperks: list[str], uperks: list[str], tperks: list[str], ctx: dict[str, object], expected: str
) -> None:
    assert expected in notes_of(wperks, uperks, tperks, **ctx)


def test_s12_5_volatile_self_attack_uses_this_uses_destroy_roll() -> None:
    # "referring to Weapon Power, AP and Perks as normal": one Destroy roll per use, shared.
    attacker = unit("A", weapons=[weapon(perks=["Volatile", "Destroy I", "+Power I (D3)"])], hp=3)
    target = unit("T", hp=3)
    dice = ScriptedDice([6, 5])  # +Power D3 = 3, Destroy D6 = 5; nothing else is rolled
    use = compile_weapon_use(attacker, attacker.weapons["Gun"], 1, target, AttackContext(), dice)
    assert dice.remaining == 0
    assert use.die.loss_constant == 5
    assert use.die.volatile is not None
    assert use.die.volatile.loss_constant == 5
    assert use.die.volatile.requirement == use.die.requirement  # Power 7 vs Defence 4 both


@pytest.mark.parametrize(("power", "attacks"), [(4, 0), (0, 4), (-1, 0)])
def test_s12_5_darkside_buys_at_most_three_of_each(power: int, attacks: int) -> None:
    attacker = unit("A", weapons=[weapon(perks=["Darkside"])], hp=9)
    with pytest.raises(RulesError, match="Darkside"):
        compile_weapon_use(
            attacker, attacker.weapons["Gun"], 1, unit("T"),
            AttackContext(darkside_power=power, darkside_attacks=attacks), ScriptedDice([]),
        )  # fmt: skip


def test_s12_5_darkside_never_risks_more_hp_than_the_wielder_has() -> None:
    attacker = unit("A", weapons=[weapon(perks=["Darkside"])], hp=2)
    with pytest.raises(RulesError, match="2 HP left"):
        compile_weapon_use(
            attacker, attacker.weapons["Gun"], 1, unit("T"),
            AttackContext(darkside_power=2, darkside_attacks=1), ScriptedDice([]),
        )  # fmt: skip
