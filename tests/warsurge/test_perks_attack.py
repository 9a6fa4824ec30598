"""Every attack-math perk rank (class A of /work/shared/reference/warsurge_perks.json) against the
rulebook text in Perks 000_94ecc6a4c74d351b.txt §12.4 (Unit Perks) and §12.5 (Weapon Perks).

Each test cites the line of the perk's entry. Three kinds of checks are used: the compiled
program (what one Attack Dice needs, which Saves are rolled, how HP Loss is multiplied, and the
notes that explain which perk changed what), the book's worked examples replayed with scripted
dice through :func:`resolve_attack`, and a few exact probabilities (more in
``test_perks_attack_odds.py``). ``COVERAGE`` records which tests cite which perk rank; the last
test checks that all 92 ranks are cited.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest

from warbench.kernel.dice import ScriptedDice
from warbench.rulesets.warsurge.attack import (
    IMPLEMENTED_PERKS,
    MODE_PERKS,
    AttackContext,
    UnitState,
    WeaponUse,
    canonical_perk,
    compile_weapon_use,
    gravity_after,
)
from warbench.rulesets.warsurge.odds import exact_attack, resolve_attack
from warbench.rulesets.warsurge.profiles import WeaponProfile

from .conftest import plan, unit, weapon

PERKS_JSON = Path("/work/shared/reference/warsurge_perks.json")
F = TypeVar("F", bound=Callable[..., Any])
COVERAGE: dict[str, list[str]] = defaultdict(list)


def covers(*perks: str) -> Callable[[F], F]:
    """Record that the decorated test checks ``perks`` (names as in warsurge_perks.json)."""

    def deco(fn: F) -> F:
        for p in perks:
            COVERAGE[p].append(fn.__name__)
        return fn

    return deco


def use_of(
    w: WeaponProfile,
    target: UnitState | None = None,
    *,
    attacker: UnitState | None = None,
    attacker_perks: Sequence[str] = (),
    faces: Sequence[int] = (),
    users: int = 1,
    **ctx: Any,
) -> WeaponUse:
    """Compile one use of ``w``; every scripted face must be consumed by weapon-level rolls."""
    a = attacker or unit("Attacker", weapons=[w], perks=list(attacker_perks))
    t = target or unit("Target")
    dice = ScriptedDice(list(faces))
    result = compile_weapon_use(a, w, users, t, AttackContext(**ctx), dice)
    assert dice.remaining == 0, "a weapon-level roll was expected but not made"
    return result


def req(u: WeaponUse) -> str:
    return str(u.die.requirement)


def notes(u: WeaponUse) -> str:
    return " | ".join(u.notes)


# ------------------------------------------------------------------------------------------
# §12.4 Unit Perks: Aeonian
# ------------------------------------------------------------------------------------------


@covers(*(f"Accuracy {n}+" for n in range(2, 7)))
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_s12_4_accuracy_n_requires_a_roll_before_each_attack_dice(n: int) -> None:
    # 000_94ecc6a4c74d351b.txt line 1096 (Accuracy 2+), 1104, 1110, 1116, 1122 (6+: "a roll of 6")
    u = use_of(weapon(), attacker_perks=[f"Accuracy {n}+"])
    assert u.die.pre_rolls == (n,)
    assert req(u) == "4+"  # the Attack Dice itself is rolled as normal
    p = exact_attack(plan(unit(weapons=[weapon()], perks=[f"Accuracy {n}+"]), unit(hp=1)))
    assert p.expected_hp_lost == pytest.approx((7 - n) / 6 * 1 / 2)


@covers("Accuracy 4+", "Accuracy 6+")
def test_s12_4_accuracy_scripted_failed_accuracy_roll_means_no_attack_dice() -> None:
    # 000_94ecc6a4c74d351b.txt line 1096: "If successful, the Attack Dice can be rolled as normal"
    attacker = unit(weapons=[weapon(attacks=2)], perks=["Accuracy 4+"])
    target = unit(models=2)
    dice = ScriptedDice([4, 3] + [5])  # Accuracy 4 passes, 3 fails; one Attack Dice: 5
    result = resolve_attack(plan(attacker, target), dice)
    assert result.weapons[0].successes == 1 and result.hp_lost == 1
    assert dice.remaining == 0
    # line 1122: Accuracy 6+ needs a 6 ("a roll of 6 is required")
    six = unit(weapons=[weapon(attacks=2)], perks=["Accuracy 6+"])
    dice = ScriptedDice([5, 6] + [4])
    assert resolve_attack(plan(six, unit(models=2)), dice).hp_lost == 1
    assert dice.remaining == 0


@covers("Accuracy 3+", "Aim 4+")
def test_s12_4_accuracy_and_aim_stack_as_two_rolls() -> None:
    # 000_94ecc6a4c74d351b.txt line 1104 (Accuracy 3+) and line 3028 (Aim 4+): effects stack (§12.2)
    u = use_of(weapon(perks=["Aim 4+"]), attacker_perks=["Accuracy 3+"])
    assert u.die.pre_rolls == (3, 4)


@covers("Accursed")
def test_s12_4_accursed_sixes_are_rerolled_once_and_a_second_six_stands() -> None:
    # 000_94ecc6a4c74d351b.txt line 1128: "each result of 6 must be rerolled. If the next result
    # is also 6, the Attack will apply as normal"
    attacker = unit(weapons=[weapon(attacks=2)], perks=["Accursed"])
    u = use_of(weapon(), attacker_perks=["Accursed"])
    assert u.die.accursed
    dice = ScriptedDice([6, 6] + [6, 1])  # both 6s rerolled: a 6 stands, a 1 fails
    result = resolve_attack(plan(attacker, unit(models=2)), dice)
    assert result.hp_lost == 1
    assert dice.remaining == 0
    # On 6+ the chance is 1/6 x 1/6.
    six = unit(weapons=[weapon(power=2)], perks=["Accursed"])  # Power 2 vs Defence 4: 6+
    assert exact_attack(plan(six, unit())).expected_hp_lost == pytest.approx(1 / 36)


@covers("Accursed")
def test_s12_4_accursed_on_6_6_6_applies_only_to_the_final_roll() -> None:
    # 000_94ecc6a4c74d351b.txt line 1132: "such as 6/6/6 from Power 1 against Defence 15, only
    # apply Accursed to the final roll". Defence 10 + Cover Bonus 5 = 15.
    attacker = unit(weapons=[weapon(power=1)], perks=["Accursed"])
    target = unit(defence=10)
    p = plan(attacker, target, cover=True, cover_bonus=5)
    dice = ScriptedDice([6, 6, 6, 6])  # first two 6s stand; the final 6 is rerolled into a 6
    result = resolve_attack(p, dice)
    assert str(result.weapons[0].use.die.requirement) == "6/6/6"
    assert result.hp_lost == 1
    assert dice.remaining == 0
    dice = ScriptedDice([6, 6, 6, 5])
    assert (
        resolve_attack(plan(attacker, unit(defence=10), cover=True, cover_bonus=5), dice).hp_lost
        == 0
    )
    exact = exact_attack(plan(attacker, unit(defence=10), cover=True, cover_bonus=5))
    assert exact.expected_hp_lost == pytest.approx((1 / 6) ** 2 / 36)


@covers("Assassin")
def test_s12_4_assassin_rerolls_failed_attack_dice_only_against_a_leader() -> None:
    # 000_94ecc6a4c74d351b.txt line 1136
    assert use_of(weapon(), attacker_perks=["Assassin"], target_is_leader=True).die.reroll_failed
    assert not use_of(weapon(), attacker_perks=["Assassin"]).die.reroll_failed
    attacker = unit(weapons=[weapon()], perks=["Assassin"])
    odds = exact_attack(plan(attacker, unit(), target_is_leader=True))
    assert odds.expected_hp_lost == pytest.approx(1 / 2 + 1 / 4)


@covers("Defiance")
def test_s12_4_defiance_plus_one_against_an_equal_or_higher_current_point_cost() -> None:
    # 000_94ecc6a4c74d351b.txt line 1200: "+1 Dice Modifier ... against Units with a higher
    # Current Point Cost"; Defiance is Point Cost (Greater), which L321-323 defines as "equal or
    # higher" (docs/rulings.md 27): an equal cost gets the bonus, a lower one does not.
    u = use_of(
        weapon(), attacker_perks=["Defiance"], attacker_point_cost=100, target_point_cost=150
    )
    assert req(u) == "3+"
    assert "Defiance +1" in notes(u)
    same = use_of(
        weapon(), attacker_perks=["Defiance"], attacker_point_cost=100, target_point_cost=100
    )
    assert req(same) == "3+"
    cheaper = use_of(
        weapon(), attacker_perks=["Defiance"], attacker_point_cost=100, target_point_cost=99.5
    )
    assert req(cheaper) == "4+"
    assert req(use_of(weapon(), attacker_perks=["Defiance"])) == "4+"  # costs unknown


@covers("Outflank")
def test_s12_4_outflank_plus_two_power_in_a_melee_against_an_engaged_target() -> None:
    # 000_94ecc6a4c74d351b.txt line 1348
    u = use_of(weapon(range=0), attacker_perks=["Outflank"], melee=True, outflank=True)
    assert req(u) == "2+"  # Power 6 vs Defence 4
    assert "Power 4 → 6 from Outflank" in notes(u)
    assert req(use_of(weapon(range=0), attacker_perks=["Outflank"], melee=True)) == "4+"
    assert req(use_of(weapon(), attacker_perks=["Outflank"], outflank=True)) == "4+"  # ranged


@covers("Swarm")
def test_s12_4_swarm_double_from_mode_or_arc_and_quadruple_from_both() -> None:
    # 000_94ecc6a4c74d351b.txt line 1390. Code choice: "Mode Perk ... and Arc Perks" read as
    # either kind doubles; both together x4.
    swarm = unit(models=2, perks=["Swarm"])
    cases = [([], 1), (["Blast I"], 2), (["Arc I"], 2), (["Blast I", "Arc I"], 4), (["Heal"], 1)]
    for perks, mult in cases:
        u = use_of(weapon(perks=perks), swarm)
        assert u.die.loss_multiplier == mult, perks
        if mult > 1:
            assert f"HP Loss x{mult} (Swarm)" in notes(u)
    assert canonical_perk("Residue") not in MODE_PERKS
    assert canonical_perk("Heal") not in MODE_PERKS


# ------------------------------------------------------------------------------------------
# §12.4 Unit Perks: Defensive
# ------------------------------------------------------------------------------------------


@covers("Barrier")
def test_s12_4_barrier_defence_by_distance_bands_12_24_36() -> None:
    # 000_94ecc6a4c74d351b.txt line 1477
    target = unit(perks=["Barrier"])
    expected = {None: "4+", 11.9: "4+", 12: "5+", 23.9: "5+", 24: "6+", 36: "6/2", 60: "6/2"}
    for distance, need in expected.items():
        u = use_of(weapon(range=72), target, distance=distance)
        assert req(u) == need, distance
    assert "Defence 4 → 7 from Barrier" in notes(use_of(weapon(range=72), target, distance=40))


@covers("Camouflage", "Ignore Cover")
def test_s12_4_camouflage_minus_one_only_while_in_cover() -> None:
    # 000_94ecc6a4c74d351b.txt line 1483 (Camouflage) and line 3662 (Ignore Cover: "including
    # Perk bonuses relating to Cover")
    target = unit(perks=["Camouflage"])
    assert req(use_of(weapon(), target)) == "4+"
    u = use_of(weapon(), target, cover=True)  # Defence 5: 5+, then Camouflage -1: 6+
    assert req(u) == "6+"
    assert "Camouflage -1" in notes(u)
    assert req(use_of(weapon(perks=["Ignore Cover"]), target, cover=True)) == "4+"
    assert req(use_of(weapon(range=0), target, cover=True, melee=True)) == "4+"  # §5.9


@covers("Cover I", "Cover II", "Ignore Cover")
def test_s12_4_cover_i_and_ii_add_defence_on_top_of_the_cover_bonus() -> None:
    # 000_94ecc6a4c74d351b.txt line 1485 (Cover I), line 1487 (Cover II), line 3662 (Ignore Cover)
    one = use_of(weapon(), unit(perks=["Cover I"]), cover=True)
    assert req(one) == "6+"  # Defence 4 + 1 + 1 = 6 against Power 4
    assert "from Cover I" in notes(one)
    two = use_of(weapon(), unit(perks=["Cover II"]), cover=True)
    assert req(two) == "6/2"  # Defence 7
    assert "from Cover II" in notes(two)
    assert req(use_of(weapon(), unit(perks=["Cover II"]))) == "4+"  # not in cover
    ignored = use_of(weapon(perks=["Ignore Cover"]), unit(perks=["Cover II"]), cover=True)
    assert req(ignored) == "4+"
    assert "Ignore Cover" in notes(ignored)


@covers("Dodge")
def test_s12_4_dodge_example_melee_4_plus_becomes_5_plus() -> None:
    # 000_94ecc6a4c74d351b.txt line 1495: "Attack Dice in a Melee that succeed on a 4+ become 5+"
    target = unit(perks=["Dodge"])
    u = use_of(weapon(range=0), target, melee=True)
    assert req(u) == "5+"
    assert "Attack Dice 4+ → 5+ from Dodge -1" in u.notes
    assert req(use_of(weapon(), target)) == "4+"


@covers("Emergency Save")
def test_s12_4_emergency_save_one_2_plus_save_after_armour_and_aegis_once_per_game() -> None:
    # 000_94ecc6a4c74d351b.txt line 1503. Code choice: one die (the first unsaved hit), used
    # automatically; the target's emergency_save_used flag records the Limited Use (1).
    attacker = unit(weapons=[weapon(attacks=1, power=10)])  # Power 10 vs Defence 4: A
    target = unit(hp=3, armour="5+", aegis="6+", perks=["Emergency Save"])
    dice = ScriptedDice([1, 1, 2])  # Armour 1, AEGIS 1, Emergency Save 2: saved
    result = resolve_attack(plan(attacker, target), dice)
    assert result.hp_lost == 0
    assert target.emergency_save_used
    assert dice.remaining == 0
    dice = ScriptedDice([1, 1])  # the Save is spent: no third roll
    assert resolve_attack(plan(attacker, target), dice).hp_lost == 1
    assert dice.remaining == 0
    assert not use_of(weapon(power=10), target).die.emergency_save
    fresh = unit(hp=3, perks=["Emergency Save"])
    assert not use_of(weapon(), fresh, emergency_save=False).die.emergency_save
    two = unit(weapons=[weapon(attacks=2, power=10)])
    odds = exact_attack(plan(two, unit(hp=3, perks=["Emergency Save"])))
    assert odds.expected_hp_lost == pytest.approx(1 / 6 + 1)  # one die only


@covers("Evasive")
def test_s12_4_evasive_example_4_plus_becomes_5_plus() -> None:
    # 000_94ecc6a4c74d351b.txt line 1521: "Attack Dice that need a 4+ become 5+ instead"
    for melee in (False, True):
        u = use_of(weapon(range=0), unit(perks=["Evasive"]), melee=melee)
        assert req(u) == "5+"
        assert "Attack Dice 4+ → 5+ from Evasive -1" in u.notes


@covers("Reinforced", "Rupture I")
def test_s12_4_reinforced_rerolls_failed_armour_then_rupture_rerolls_successes() -> None:
    # 000_94ecc6a4c74d351b.txt line 1659 (Reinforced) and line 3756 (Rupture I: "If used against
    # a Unit with Reinforced, apply Rupture I afterwards")
    target = unit(armour="4+", perks=["Reinforced"])
    u = use_of(weapon(), target)
    assert (u.die.armour.needed, u.die.armour.reroll_failed) == (4, True)
    attacker = unit(weapons=[weapon(attacks=2, power=10)])
    dice = ScriptedDice([1, 5] + [4])  # Armour 1 fails, rerolled to 4: both saved
    assert (
        resolve_attack(
            plan(attacker, unit(models=2, armour="4+", perks=["Reinforced"])), dice
        ).hp_lost
        == 0
    )
    assert dice.remaining == 0
    ruptured = unit(weapons=[weapon(attacks=2, power=10, perks=["Rupture I"])])
    dice = ScriptedDice([1, 5] + [4] + [3, 6])  # Reinforced: 1 → 4; Rupture: 4 → 3, 5 → 6
    result = resolve_attack(plan(ruptured, unit(models=2, armour="4+", perks=["Reinforced"])), dice)
    assert result.hp_lost == 1
    assert dice.remaining == 0
    assert u.die.armour.probability() == pytest.approx(1 / 2 + 1 / 4)


@covers("Resilient", "Rupture II")
def test_s12_4_resilient_rerolls_failed_aegis_then_rupture_ii_rerolls_successes() -> None:
    # 000_94ecc6a4c74d351b.txt line 1675 (Resilient) and line 3760 (Rupture II)
    target = unit(aegis="5+", perks=["Resilient"])
    u = use_of(weapon(), target)
    assert (u.die.aegis.needed, u.die.aegis.reroll_failed) == (5, True)
    assert u.die.aegis.probability() == pytest.approx(1 / 3 + 2 / 3 * 1 / 3)
    r2 = use_of(weapon(perks=["Rupture II"]), unit(armour="4+", aegis="5+", perks=["Resilient"]))
    assert r2.die.armour.reroll_successful and r2.die.aegis.reroll_successful
    assert r2.die.aegis.probability() == pytest.approx((1 / 3 + 2 / 9) * 1 / 3)
    attacker = unit(weapons=[weapon(power=10, perks=["Rupture II"])])
    # Armour 6 saved, Rupture II reroll 2 fails; AEGIS 1, Resilient 5, Rupture II reroll 5 saves
    dice = ScriptedDice([6, 2, 1, 5, 5])
    tgt = unit(armour="4+", aegis="5+", perks=["Resilient"])
    assert resolve_attack(plan(attacker, tgt), dice).hp_lost == 0
    assert dice.remaining == 0


@covers("Retaliate I")
def test_s12_4_retaliate_i_each_hp_lost_in_melee_4_plus_forces_attacker_saves() -> None:
    # 000_94ecc6a4c74d351b.txt line 1733
    attacker = unit(weapons=[weapon(range=0, attacks=2, power=10)], hp=3, armour="4+")
    target = unit(models=3, perks=["Retaliate I"])
    # two HP lost; Retaliate D6: 4 and 3; one attacker Armour Save: 3 fails
    dice = ScriptedDice([4, 3] + [3])
    result = resolve_attack(plan(attacker, target, melee=True), dice)
    assert result.hp_lost == 2
    assert result.attacker_hp_lost == 1
    assert dice.remaining == 0
    u = use_of(weapon(range=0), target, attacker=attacker, melee=True)
    assert u.retaliation is not None and u.retaliation.armour.needed == 4
    assert use_of(weapon(), target, attacker=attacker).retaliation is None  # not in a Melee
    # expected attacker loss = HP lost x 1/2 x P(attacker fails its saves)
    odds = exact_attack(plan(attacker, unit(models=3, perks=["Retaliate I"]), melee=True))
    assert odds.expected_attacker_hp_lost == pytest.approx(2 * 1 / 2 * 1 / 2)


@covers("Retaliate II")
def test_s12_4_retaliate_ii_ignores_the_attackers_armour() -> None:
    # 000_94ecc6a4c74d351b.txt line 1741
    attacker = unit(weapons=[weapon(range=0, power=10)], hp=3, armour="2+", aegis="5+")
    target = unit(models=2, perks=["Retaliate II"])
    u = use_of(weapon(range=0), target, attacker=attacker, melee=True)
    assert u.retaliation is not None
    assert (u.retaliation.armour.needed, u.retaliation.aegis.needed) == (None, 5)
    dice = ScriptedDice([4] + [4])  # Retaliate 4: AEGIS 4 fails (Armour 2+ not rolled)
    result = resolve_attack(plan(attacker, target, melee=True), dice)
    assert result.attacker_hp_lost == 1
    assert dice.remaining == 0


@covers("Shroud")
def test_s12_4_shroud_example_ranged_4_plus_becomes_5_plus_but_not_in_melee() -> None:
    # 000_94ecc6a4c74d351b.txt line 1755
    u = use_of(weapon(), unit(perks=["Shroud"]))
    assert req(u) == "5+"
    assert "Attack Dice 4+ → 5+ from Shroud -1" in u.notes
    assert req(use_of(weapon(range=0), unit(perks=["Shroud"]), melee=True)) == "4+"


@covers("Stalwart")
def test_s12_4_stalwart_ignores_enemy_negative_modifiers_but_not_its_own() -> None:
    # 000_94ecc6a4c74d351b.txt line 1765: "negative Dice Modifiers caused by the User, such as
    # those from Weapon Types and Perks, still apply"
    target = unit(perks=["Evasive", "Dodge"])
    u = use_of(weapon(range=0), target, attacker_perks=["Stalwart"], melee=True)
    assert req(u) == "4+"
    assert "Stalwart ignores Evasive, Dodge" in notes(u)
    heavy = weapon(range=0, type="Heavy", perks=["Cumbersome"])
    own = use_of(heavy, target, attacker_perks=["Stalwart"], melee=True)
    assert req(own) == "6/2"  # Heavy -2 and Cumbersome -1 still apply
    assert req(use_of(weapon(), unit(perks=["Evasive"]))) == "5+"  # without Stalwart


@covers("Tough")
def test_s12_4_tough_example_five_hp_lost_becomes_three() -> None:
    # 000_94ecc6a4c74d351b.txt line 1793: "5 HP has been lost, but is reduced to 3 HP instead"
    attacker = unit(weapons=[weapon(attacks=5, power=10)])
    target = unit(hp=10, perks=["Tough"])
    result = resolve_attack(plan(attacker, target), ScriptedDice([]))
    assert result.hp_lost == 3
    assert target.models[0].hp == 7
    assert exact_attack(plan(attacker, unit(hp=10, perks=["Tough"]))).hp_lost == {3: 1.0}


@covers("Tough")
def test_s12_4_tough_halves_the_tally_of_all_weapons_together() -> None:
    # 000_94ecc6a4c74d351b.txt line 1793: "After a Unit has finished attacking the User (with all
    # Weapons), tally the amount of HP ... then halve it": 1 + 2 = 3 → 2, not 1 + 1.
    one = weapon("One", attacks=1, power=10)
    two = weapon("Two", attacks=2, power=10)
    attacker = unit(weapons=[one, two])
    assert exact_attack(plan(attacker, unit(hp=10, perks=["Tough"]))).hp_lost == {2: 1.0}


# ------------------------------------------------------------------------------------------
# §12.5 Weapon Perks: Affliction and Enhancement
# ------------------------------------------------------------------------------------------


@covers("Gravity")
def test_s12_5_gravity_example_nine_hp_two_sixes_five_then_three() -> None:
    # 000_94ecc6a4c74d351b.txt line 2728: "lowers HP from 9 down to 5 ..., then from 5 down to 3"
    assert gravity_after(9, 1) == 5
    assert gravity_after(9, 2) == 3
    assert gravity_after(2, 1) == 1  # minimum loss of 1 HP
    assert gravity_after(1, 1) == 0
    attacker = unit(weapons=[weapon(attacks=2, power=10, perks=["Gravity"])])
    target = unit(hp=11)  # two HP Loss: 11 → 9; two Gravity rolls of 6: 9 → 5 → 3
    dice = ScriptedDice([6, 6])
    result = resolve_attack(plan(attacker, target), dice)
    assert result.weapons[0].use.gravity
    assert target.models[0].hp == 3
    assert result.hp_lost == 8
    assert dice.remaining == 0
    dice = ScriptedDice([6, 5])
    result = resolve_attack(plan(attacker, unit(hp=11)), dice)
    assert result.hp_lost == 2 + 4


@covers("+AP I (D3)")
def test_s12_5_plus_ap_i_example_d3_of_2_turns_ap_5_into_3() -> None:
    # 000_94ecc6a4c74d351b.txt line 2901: "rolls a D3 and gets 2. The Weapon's AP of 5+ would
    # become 3+" - so it now pierces a 3+ Armour Save.
    u = use_of(weapon(ap="5+", perks=["+AP I (D3)"]), unit(armour="3+"), faces=[3])  # D3 = 2
    assert "AP 5+ → 3+ from +AP (rolled 2)" in u.notes
    assert u.die.armour.needed is None
    assert "AP 3+ ignores Armour 3+ (§5.10)" in u.notes
    u = use_of(weapon(ap="5+", perks=["+AP I (D3)"]), unit(armour="3+"), faces=[1])  # D3 = 1
    assert u.die.armour.needed == 3


@covers("+AP II (D6)")
def test_s12_5_plus_ap_ii_rolls_of_5_and_6_both_give_ap_2() -> None:
    # 000_94ecc6a4c74d351b.txt line 2905. Code choice: AP "-" counts as 7 before the D6, so a 5
    # gives AP 2+ exactly as the book says; anything better than 2+ stays 2+.
    target = unit(armour="2+")
    for face in (5, 6):
        u = use_of(weapon(perks=["+AP II (D6)"]), target, faces=[face])
        assert u.die.armour.needed is None
        assert f"AP - → 2+ from +AP (rolled {face})" in u.notes
    u = use_of(weapon(perks=["+AP II (D6)"]), target, faces=[4])
    assert "AP - → 3+" in notes(u) and u.die.armour.needed == 2
    u = use_of(weapon(ap="4+", perks=["+AP II (D6)"]), target, faces=[6])
    assert "AP 4+ → 2+" in notes(u)


ATTACKS_PERKS = [
    ("+Attacks I (D3)", [5], 1 + 3),  # line 2907: D3 read from a D6 face 5 = 3
    ("+Attacks II (D6)", [6], 1 + 6),  # line 2909
    ("+Attacks III (2D6)", [6, 5], 1 + 11),  # line 2911
]


@covers("+Attacks I (D3)", "+Attacks II (D6)", "+Attacks III (2D6)")
@pytest.mark.parametrize(("perk", "faces", "dice"), ATTACKS_PERKS)
def test_s12_5_plus_attacks_adds_the_roll_to_attacks(
    perk: str, faces: list[int], dice: int
) -> None:
    # 000_94ecc6a4c74d351b.txt line 2907 (+Attacks I), 2909 (II), 2911 (III)
    u = use_of(weapon(perks=[perk]), faces=faces, users=2)
    assert u.dice == 2 * dice  # "all Users share the same result" (§12.1)
    assert f"Attacks 1 → {dice} from +Attacks" in notes(u)


POWER_PERKS = [
    ("+Power I (D3)", [3], 6, "2+"),  # line 2913: D3 of 2 → Power 6 vs Defence 4
    ("+Power II (D6)", [1], 5, "3+"),  # line 2915
    ("+Power III (2D6)", [4, 4], 12, "Ax2"),  # line 2917: Power 12 vs Defence 4: 8 better
]


@covers("+Power I (D3)", "+Power II (D6)", "+Power III (2D6)")
@pytest.mark.parametrize(("perk", "faces", "power", "need"), POWER_PERKS)
def test_s12_5_plus_power_adds_the_roll_to_power(
    perk: str, faces: list[int], power: int, need: str
) -> None:
    # 000_94ecc6a4c74d351b.txt line 2913 (+Power I), 2915 (II), 2917 (III)
    u = use_of(weapon(perks=[perk]), faces=faces)
    assert req(u) == need
    assert f"Power 4 → {power} from +Power" in notes(u)


@covers("+Power II (D6)")
def test_s12_1_plus_power_d6_example_one_roll_shared_by_every_user() -> None:
    # 000_94ecc6a4c74d351b.txt line 108: "The Unit rolls a result of 2, increasing the Power of
    # all models using that Weapon in that Unit by +2" (line 2915: +Power II)
    attacker = unit(models=3, weapons=[weapon(perks=["+Power II (D6)"])])
    dice = ScriptedDice([2] + [3, 3, 2])  # one +Power roll: Power 6 vs Defence 4 = 2+
    result = resolve_attack(plan(attacker, unit(models=3)), dice)
    assert str(result.weapons[0].use.die.requirement) == "2+"
    assert result.hp_lost == 3
    assert dice.remaining == 0


@covers("Burst")
def test_s12_5_burst_doubles_attacks_for_the_activated_use() -> None:
    # 000_94ecc6a4c74d351b.txt line 2927
    w = weapon(attacks=3, perks=["Burst"])
    assert use_of(w, burst=True).dice == 6
    assert "Attacks doubled by Burst" in use_of(w, burst=True).notes
    assert use_of(w).dice == 3


@covers("Chaos")
@pytest.mark.parametrize("face", [1, 2, 3, 4, 5, 6])
def test_s12_5_chaos_each_result_of_the_d6(face: int) -> None:
    # 000_94ecc6a4c74d351b.txt line 2935, results 1) to 6)
    w = weapon(attacks=2, perks=["Chaos"])
    u = use_of(w, unit(defence=4), faces=[face])
    assert f"Chaos {face}" in notes(u)
    assert u.against_self == (face == 1)
    assert u.dice == {1: 2, 2: 0, 3: 4, 4: 2, 5: 2, 6: 3}[face]
    if face == 4:
        assert req(u) == "2+"  # Power 7 vs Defence 4
    if face == 5:
        assert u.self_heal == 3
    if face == 6:
        assert req(u) == "2+" and u.die.reroll_failed  # Power 6 vs Defence 4


@covers("Chaos")
def test_s12_5_chaos_one_attacks_the_wielders_own_unit() -> None:
    # 000_94ecc6a4c74d351b.txt line 2937: "Weapon immediately Targets the Wielder's Unit"
    attacker = unit(weapons=[weapon(power=10, perks=["Chaos"])], hp=5, defence=4)
    target = unit(hp=5)
    result = resolve_attack(plan(attacker, target), ScriptedDice([1]))  # Chaos 1, A vs itself
    assert result.hp_lost == 0
    assert result.attacker_hp_lost == 1
    odds = exact_attack(plan(attacker, unit(hp=5)))
    assert odds.expected_attacker_hp_lost == pytest.approx(1 / 6)


@covers("Darkside")
def test_s12_5_darkside_buys_power_and_attacks_each_costing_a_save() -> None:
    # 000_94ecc6a4c74d351b.txt line 2951
    w = weapon(perks=["Darkside"])
    attacker = unit(weapons=[w], hp=6, armour="4+")
    u = use_of(w, attacker=attacker, darkside_power=2, darkside_attacks=1)
    assert req(u) == "2+" and u.dice == 2  # Power 6, Attacks 2
    assert u.self_save_dice == 3
    assert "from Darkside" in notes(u)
    assert use_of(weapon(), attacker=attacker, darkside_power=2).self_save_dice == 0
    # Attack Dice 2, 2 (two successes), then three Armour Saves 4, 1, 1: two HP lost by the User
    dice = ScriptedDice([2, 2] + [4, 1, 1])
    p = plan(attacker, unit(models=2), darkside_power=2, darkside_attacks=1)
    result = resolve_attack(p, dice)
    assert (result.hp_lost, result.attacker_hp_lost) == (2, 2)
    assert dice.remaining == 0


@covers("xD3 Attacks")
def test_s12_5_xd3_attacks_example_two_attacks_times_three_is_six() -> None:
    # 000_94ecc6a4c74d351b.txt line 3001: "A Weapon with 2 Attacks rolls a D3, yielding a result
    # 3. The Weapon now has 6 Attacks."
    u = use_of(weapon(attacks=2, perks=["xD3 Attacks"]), faces=[6])
    assert u.dice == 6
    assert "Attacks 2 → 6 from xD3 Attacks (rolled 3)" in u.notes


@covers("xD6 Attacks")
def test_s12_5_xd6_attacks_multiplies_after_bonus_attacks() -> None:
    # 000_94ecc6a4c74d351b.txt line 3007, with §12.1 line 205 "add bonus Attacks then multiply"
    u = use_of(
        weapon(attacks=2, perks=["xD6 Attacks", "Clash"]), faces=[4], first_use_after_engaging=True
    )
    assert u.dice == (2 + 1) * 4
    assert "Attacks 3 → 12 from xD6 Attacks (rolled 4)" in u.notes


# ------------------------------------------------------------------------------------------
# §12.5 Weapon Perks: Limitation
# ------------------------------------------------------------------------------------------


@covers(*(f"Aim {n}+" for n in range(2, 7)))
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_s12_5_aim_n_requires_a_roll_before_each_attack_dice(n: int) -> None:
    # 000_94ecc6a4c74d351b.txt line 3014 (Aim 2+), 3022, 3028, 3034, 3040 (6+: "a roll of 6")
    u = use_of(weapon(power=10, perks=[f"Aim {n}+"]))
    assert u.die.pre_rolls == (n,)
    assert req(u) == "A"  # even automatic hits must pass the Aim roll
    attacker = unit(weapons=[weapon(power=10, perks=[f"Aim {n}+"])])
    odds = exact_attack(plan(attacker, unit()))
    assert odds.expected_hp_lost == pytest.approx((7 - n) / 6)


@covers("Aim 2+")
def test_s12_5_aim_scripted_a_failed_aim_roll_discards_the_attack_dice() -> None:
    # 000_94ecc6a4c74d351b.txt line 3014
    attacker = unit(weapons=[weapon(attacks=3, perks=["Aim 2+"])])
    dice = ScriptedDice([1, 2, 6] + [4, 3])  # Aim: 1 fails; the two others roll 4 and 3
    assert resolve_attack(plan(attacker, unit(models=3)), dice).hp_lost == 1
    assert dice.remaining == 0


@covers("Cumbersome")
def test_s12_5_cumbersome_minus_one_only_when_engaged_in_a_melee() -> None:
    # 000_94ecc6a4c74d351b.txt line 3074
    w = weapon(range=0, perks=["Cumbersome"])
    u = use_of(w, melee=True)
    assert req(u) == "5+"
    assert "Cumbersome -1" in notes(u)
    assert req(use_of(w)) == "4+"


@covers("Incantation")
def test_s12_5_incantation_aether_test_pass_fail_double_one_and_twelve() -> None:
    # 000_94ecc6a4c74d351b.txt line 3082 and §12.2 "Aether" line 245: 9 or lower passes, a 2
    # doubles, a 12 inflicts D6 HP Loss on the User (no Saves)
    w = weapon(attacks=2, perks=["Incantation"])
    assert use_of(w, faces=[4, 5]).dice == 2  # 9 passes
    failed = use_of(w, faces=[5, 5])  # 10 fails
    assert failed.dice == 0 and "Aether Test failed (10)" in notes(failed)
    assert use_of(w, faces=[5, 5], aether_modifier=1).dice == 2  # +1: passes on 10 or lower
    doubled = use_of(w, faces=[1, 1])
    assert doubled.dice == 4 and "double 1" in notes(doubled)
    backlash = use_of(w, faces=[6, 6, 3])
    assert backlash.dice == 0 and backlash.self_loss == 3
    caster = unit(weapons=[weapon(power=10, perks=["Incantation"])], hp=9)
    odds = exact_attack(plan(caster, unit(hp=9)))
    # P(2D6 <= 9) = 30/36, a double 1 (1/36) doubles to 2 hits
    assert odds.expected_hp_lost == pytest.approx(29 / 36 * 1 + 1 / 36 * 2)
    assert odds.expected_attacker_hp_lost == pytest.approx(1 / 36 * 3.5)


@covers("Unwieldy")
def test_s12_5_unwieldy_cannot_be_used_while_engaged() -> None:
    # 000_94ecc6a4c74d351b.txt line 3214
    w = weapon(perks=["Unwieldy"])
    u = use_of(w, melee=True)
    assert u.dice == 0 and "Unwieldy" in notes(u)
    assert use_of(w, attacker_engaged=True).dice == 0  # shooting out of a Melee
    assert use_of(w).dice == 1


@covers("Volatile")
def test_s12_5_volatile_each_one_rolls_a_new_attack_dice_against_the_wielder() -> None:
    # 000_94ecc6a4c74d351b.txt line 3252; "subsequent rolls of 1 ... do not generate new Attacks"
    w = weapon(attacks=2, perks=["Volatile"])
    attacker = unit(weapons=[w], hp=3, defence=4)
    u = use_of(w, attacker=attacker)
    assert u.die.volatile is not None and u.die.volatile.volatile is None
    assert str(u.die.volatile.requirement) == "4+"  # Power 4 vs the Wielder's Defence 4
    dice = ScriptedDice([1, 5] + [6])  # one 1: the Wielder rolls a 6 against itself
    result = resolve_attack(plan(attacker, unit(models=2)), dice)
    assert (result.hp_lost, result.attacker_hp_lost) == (1, 1)
    assert dice.remaining == 0
    dice = ScriptedDice([1, 1] + [1, 1])  # the Volatile 1s do not chain
    result = resolve_attack(plan(attacker, unit(models=2)), dice)
    assert (result.hp_lost, result.attacker_hp_lost) == (0, 0)
    assert dice.remaining == 0


@covers("Wildcard")
def test_s12_5_wildcard_rolls_its_stats_and_ignores_its_other_perks() -> None:
    # 000_94ecc6a4c74d351b.txt line 3276: Range 2D6 x 3, Power 2D6, Attacks 2D6, AP D6 (1 = -),
    # Type D2 (1 Battle, 2 Assault); "No other Weapon Perks are usable with Wildcard"
    w = weapon(range=0, attacks=1, power=0, perks=["Wildcard", "Rapid", "Reroll Attack"])
    faces = [2, 2] + [3, 3] + [1, 2] + [1] + [1]  # Range 12, Power 6, Attacks 3, AP -, Battle
    u = use_of(w, faces=faces, within_half_range=True)
    assert 'Wildcard rolled Range 12", Power 6, Attacks 3, AP -, Battle' in u.notes
    assert u.dice == 3 and req(u) == "2+" and not u.die.reroll_failed
    melee = use_of(w, faces=faces, melee=True)
    assert req(melee) == "3+"  # Battle Weapon in a Melee -1 (§5.8)
    far = use_of(w, faces=faces, distance=13)
    assert far.dice == 0
    armoured = use_of(w, unit(armour="3+"), faces=[2, 2, 3, 3, 1, 2, 3, 6])  # AP 3+, Assault
    assert armoured.die.armour.needed is None


# ------------------------------------------------------------------------------------------
# §12.5 Weapon Perks: Offensive
# ------------------------------------------------------------------------------------------


@covers("Annihilate I", "Annihilate II")
def test_s12_5_annihilate_multiplies_hp_loss_against_multi_hp_models() -> None:
    # 000_94ecc6a4c74d351b.txt line 3572 (Annihilate I: double), 3574 (II: tripled)
    for perk, mult in (("Annihilate I", 2), ("Annihilate II", 3)):
        u = use_of(weapon(perks=[perk]), unit(hp=2))
        assert u.die.loss_multiplier == mult
        assert f"HP Loss x{mult} (Annihilate)" in u.notes
        assert use_of(weapon(perks=[perk]), unit(hp=1)).die.loss_multiplier == 1
    attacker = unit(weapons=[weapon(attacks=2, power=10, perks=["Annihilate II"])])
    assert resolve_attack(plan(attacker, unit(models=3, hp=3)), ScriptedDice([])).hp_lost == 6


ARC = [("Arc I", 5, [5], 3), ("Arc II", 10, [4], 4), ("Arc III", 20, [6, 1], 7)]


@covers("Arc I", "Arc II", "Arc III")
@pytest.mark.parametrize(("perk", "models", "faces", "bonus"), ARC)
def test_s12_5_arc_adds_attacks_against_large_units(
    perk: str, models: int, faces: list[int], bonus: int
) -> None:
    # 000_94ecc6a4c74d351b.txt line 3576 (Arc I: 5+ models, +D3), 3578 (II: 10, +D6),
    # 3580 (III: 20, +2D6)
    u = use_of(weapon(perks=[perk]), unit(models=models), faces=faces)
    assert u.dice == 1 + bonus
    assert f"from Arc ({models} models)" in notes(u)
    assert use_of(weapon(perks=[perk]), unit(models=models - 1)).dice == 1  # no roll made


@covers("Critical Hit I", "Critical Hit II")
def test_s12_5_critical_hit_six_multiplies_hp_loss_of_that_dice() -> None:
    # 000_94ecc6a4c74d351b.txt line 3582 (Critical Hit I: double), 3590 (II: tripled)
    for perk, mult in (("Critical Hit I", 2), ("Critical Hit II", 3)):
        u = use_of(weapon(perks=[perk]))
        assert (u.die.six_loss_multiplier, u.die.auto_test) == (mult, True)
        attacker = unit(weapons=[weapon(attacks=2, perks=[perk])])
        dice = ScriptedDice([6, 5])
        assert resolve_attack(plan(attacker, unit(hp=9)), dice).hp_lost == mult + 1
        assert dice.remaining == 0


@covers("Critical Hit I", "Dire Hit", "Piercing Hit I")
def test_s12_5_six_effects_use_the_last_roll_of_a_multi_stage_roll() -> None:
    # 000_94ecc6a4c74d351b.txt line 3582/3596/3718: "If the Weapon requires rerolls, it will be
    # the last roll that requires a 6". Power 2 vs Defence 8 = 6/5.
    target = unit(defence=8, hp=9, armour="2+")
    crit = unit(weapons=[weapon(attacks=2, power=2, ap="6+", perks=["Critical Hit I"])])
    dice = ScriptedDice([6, 6] + [5, 6] + [1, 1])  # second stage 5 and 6; Armour fails twice
    assert resolve_attack(plan(crit, target), dice).hp_lost == 1 + 2
    assert dice.remaining == 0
    dire = unit(weapons=[weapon(power=2, ap="6+", perks=["Dire Hit"])])
    dice = ScriptedDice([6, 6] + [1] + [6])  # last roll 6; Armour 1; Dire D3 from a 6 = 3
    assert resolve_attack(plan(dire, unit(defence=8, hp=9, armour="2+")), dice).hp_lost == 3
    assert dice.remaining == 0
    pierce = unit(weapons=[weapon(attacks=2, power=2, perks=["Piercing Hit I"])])
    dice = ScriptedDice([6, 6] + [6, 5] + [2])  # first die ends on a 6 (no Save); second saved
    assert resolve_attack(plan(pierce, unit(defence=8, hp=9, armour="2+")), dice).hp_lost == 1
    assert dice.remaining == 0


@covers("Critical Hit I")
def test_s12_2_auto_test_critical_hit_still_rolls_against_automatic_damage() -> None:
    # 000_94ecc6a4c74d351b.txt line 251 "Auto Test" and line 3582 (Critical Hit I)
    attacker = unit(weapons=[weapon(attacks=2, power=10, perks=["Critical Hit I"])])
    dice = ScriptedDice([6, 2])  # A: both succeed; the Auto Test rolls a 6 and a 2
    assert resolve_attack(plan(attacker, unit(hp=9)), dice).hp_lost == 3
    assert dice.remaining == 0
    odds = exact_attack(plan(attacker, unit(hp=9)))
    assert odds.expected_hp_lost == pytest.approx(2 * (1 + 1 / 6))


@covers("Dire Hit")
def test_s12_5_dire_hit_six_causes_d3_hp_loss() -> None:
    # 000_94ecc6a4c74d351b.txt line 3596
    u = use_of(weapon(perks=["Dire Hit"]))
    assert u.die.six_dire and u.die.auto_test
    attacker = unit(weapons=[weapon(attacks=2, perks=["Dire Hit"])])
    dice = ScriptedDice([6, 4] + [3])  # the 6 rolls a D3 of 2; the 4 causes 1
    assert resolve_attack(plan(attacker, unit(hp=9)), dice).hp_lost == 3
    assert dice.remaining == 0
    one = unit(weapons=[weapon(perks=["Dire Hit"])])
    # a 4 or 5 causes 1 HP, a 6 a D3 (mean 2)
    assert exact_attack(plan(one, unit(hp=9))).expected_hp_lost == pytest.approx(2 / 6 + 2 / 6)


@covers(*(f"Damage {n}+" for n in range(2, 7)))
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_s12_5_damage_n_is_a_set_roll_power_is_optional(n: int) -> None:
    # 000_94ecc6a4c74d351b.txt line 3604 (Damage 2+), 3616, 3618, 3620, 3622
    u = use_of(weapon(power=0, perks=[f"Damage {n}+"]), unit(defence=10))
    assert req(u) == f"{n}+" and u.dice == 1
    assert f"from Damage {n}+" in notes(u)
    # Dice Modifiers do not worsen the set roll ...
    assert (
        req(use_of(weapon(power=0, perks=[f"Damage {n}+"]), unit(defence=10, perks=["Evasive"])))
        == f"{n}+"
    )
    # ... except Weapon Types in a Melee (Heavy -2)
    heavy = weapon(range=0, power=0, type="Heavy", perks=[f"Damage {n}+"])
    worse = {2: "4+", 3: "5+", 4: "6+", 5: "6/2", 6: "6/3"}[n]
    assert req(use_of(heavy, unit(defence=10), melee=True)) == worse
    attacker = unit(weapons=[weapon(power=0, perks=[f"Damage {n}+"])])
    assert exact_attack(plan(attacker, unit(defence=10))).expected_hp_lost == pytest.approx(
        (7 - n) / 6
    )


@covers("Damage 2+")
def test_s12_5_damage_2_plus_examples_power_0_vs_10_and_power_10_vs_4() -> None:
    # 000_94ecc6a4c74d351b.txt line 3610: "Power 0 Weapons attacking Defence 10 with this Perk
    # will succeed on a roll of 2+. A Power 10 Weapon ... will still damage a Defence 4 Target
    # automatically."
    assert req(use_of(weapon(power=0, perks=["Damage 2+"]), unit(defence=10))) == "2+"
    assert req(use_of(weapon(power=10, perks=["Damage 2+"]), unit(defence=4))) == "A"
    # "unless Power combined with Dice Modifiers allow for a stronger roll": Might II
    strong = use_of(
        weapon(range=0, power=4, perks=["Damage 4+", "Might II"]),
        melee=True,
        attacker_point_cost=50,
        target_point_cost=80,
    )
    assert req(strong) == "2+"


@covers("Deathblow")
def test_s12_5_deathblow_2d6_nine_halves_current_hp_twelve_slays() -> None:
    # 000_94ecc6a4c74d351b.txt line 3624
    w = weapon(power=10, perks=["Deathblow"])
    attacker = unit(weapons=[w])
    costs: dict[str, Any] = {"attacker_point_cost": 100, "target_point_cost": 100}
    assert use_of(w, **costs).deathblow  # "equal to or less"
    assert not use_of(w, attacker_point_cost=100, target_point_cost=101).deathblow
    cases = {(4, 5): 1 + 5, (6, 6): 10, (4, 4): 1}  # 9 HP left: 9 → 4 (5 lost); 12: all; 8: none
    for faces, lost in cases.items():
        target = unit(hp=10)
        dice = ScriptedDice(list(faces))
        result = resolve_attack(plan(attacker, target, **costs), dice)
        assert result.hp_lost == lost, faces
        assert dice.remaining == 0
    # no test when the target is already a casualty
    dice = ScriptedDice([])
    assert resolve_attack(plan(attacker, unit(hp=1), **costs), dice).hp_lost == 1


@covers("Destroy I")
def test_s12_5_destroy_i_example_two_hits_d6_of_4_is_8_hp() -> None:
    # 000_94ecc6a4c74d351b.txt line 3646: "two successful Attack Dice. The Target Unit fails its
    # Saves against both ... rolls a D6 and gets a 4, meaning that 8 HP is lost."
    attacker = unit(weapons=[weapon(attacks=2, power=10, perks=["Destroy I"])])
    target = unit(hp=10, armour="6+")
    dice = ScriptedDice([4] + [1, 2])  # Destroy D6 = 4 (once per use), two failed Armour Saves
    result = resolve_attack(plan(attacker, target), dice)
    assert result.hp_lost == 8
    assert "each unsaved hit causes 4 HP Loss (Destroy, rolled)" in result.weapons[0].use.notes
    assert dice.remaining == 0


@covers("Destroy II", "Destroy III")
def test_s12_5_destroy_ii_and_iii_roll_2d6_and_3d6_once_per_use() -> None:
    # 000_94ecc6a4c74d351b.txt line 3652 (Destroy II), 3654 (Destroy III)
    assert use_of(weapon(perks=["Destroy II"]), faces=[3, 4]).die.loss_constant == 7
    assert use_of(weapon(perks=["Destroy III"]), faces=[1, 2, 3]).die.loss_constant == 6
    attacker = unit(weapons=[weapon(attacks=2, power=10, perks=["Destroy II"])])
    assert resolve_attack(plan(attacker, unit(hp=20)), ScriptedDice([2, 3])).hp_lost == 10


@covers("Devastate I", "Devastate II")
def test_s12_5_devastate_rolls_hp_loss_per_attack_dice_against_multi_hp_models() -> None:
    # 000_94ecc6a4c74d351b.txt line 3656 (Devastate I: D3 per Attack Dice), 3660 (II: D6).
    # Code choice: rolled per unsaved Attack Dice ("per Attack Dice").
    u = use_of(weapon(perks=["Devastate I"]), unit(hp=2))
    assert str(u.die.loss_dice) == "D3"
    assert use_of(weapon(perks=["Devastate I"]), unit(hp=1)).die.loss_dice is None
    assert str(use_of(weapon(perks=["Devastate II"]), unit(hp=2)).die.loss_dice) == "D6"
    attacker = unit(weapons=[weapon(attacks=2, power=10, perks=["Devastate I"])])
    dice = ScriptedDice([6, 1])  # D3 = 3 and 1
    assert resolve_attack(plan(attacker, unit(hp=9)), dice).hp_lost == 4
    assert dice.remaining == 0
    two = unit(weapons=[weapon(attacks=2, power=10, perks=["Devastate II"])])
    assert resolve_attack(plan(two, unit(hp=12)), ScriptedDice([6, 5])).hp_lost == 11


@covers("Destroy I", "Devastate I", "Annihilate I", "Obliterate I")
def test_s12_1_damage_increasers_add_then_multiply() -> None:
    # 000_94ecc6a4c74d351b.txt line 205-209: "multiply successful Attack Dice, add HP Loss
    # increasers then multiply HP Loss ... Obliterate I. Destroy I (+) Devastate I (x) Annihilate I"
    w = weapon(power=10, perks=["Obliterate I", "Destroy I", "Devastate I", "Annihilate I"])
    attacker = unit(weapons=[w])
    dice = ScriptedDice([2] + [2, 2, 2, 2, 2])  # Destroy 2; five Devastate D3 of 1
    result = resolve_attack(plan(attacker, unit(hp=99)), dice)
    assert result.weapons[0].hits == 5
    assert result.hp_lost == 5 * (2 + 1) * 2
    assert dice.remaining == 0


@covers("Impact I", "Impact II")
def test_s12_5_impact_adds_power_within_half_range_for_18_inch_weapons() -> None:
    # 000_94ecc6a4c74d351b.txt line 3664 (Impact I: +1 Power), 3670 (Impact II: +2)
    for perk, power, need in (("Impact I", 5, "3+"), ("Impact II", 6, "2+")):
        u = use_of(weapon(range=24, perks=[perk]), within_half_range=True)
        assert req(u) == need
        assert f"Power 4 → {power} from Impact" in u.notes
        assert req(use_of(weapon(range=24, perks=[perk]))) == "4+"
        assert req(use_of(weapon(range=12, perks=[perk]), within_half_range=True)) == "4+"


@covers("Might I", "Might II")
def test_s12_5_might_examples_5_to_4_and_4_to_2_in_a_melee_against_richer_targets() -> None:
    # 000_94ecc6a4c74d351b.txt line 3672 (Might I: "5+ Attack Dice becomes 4+"), 3682 (Might II:
    # "4+ Attack Dice becomes 2+"); Melee, target currently worth more points.
    costs: dict[str, Any] = {"attacker_point_cost": 100, "target_point_cost": 120}
    one = use_of(weapon(range=0, power=3, perks=["Might I"]), melee=True, **costs)
    assert req(one) == "4+"
    assert "Attack Dice 5+ → 4+ from Might I +1" in one.notes
    two = use_of(weapon(range=0, power=4, perks=["Might II"]), melee=True, **costs)
    assert req(two) == "2+"
    assert "Attack Dice 4+ → 2+ from Might II +2" in two.notes
    assert req(use_of(weapon(power=4, perks=["Might II"]), **costs)) == "4+"  # not a Melee
    # Might is Point Cost (Greater): "equal or higher" (L321-323, docs/rulings.md 27).
    equal: dict[str, Any] = {"attacker_point_cost": 100, "target_point_cost": 100}
    assert req(use_of(weapon(range=0, perks=["Might II"]), melee=True, **equal)) == "2+"
    lower: dict[str, Any] = {"attacker_point_cost": 100, "target_point_cost": 99}
    assert req(use_of(weapon(range=0, perks=["Might II"]), melee=True, **lower)) == "4+"


@covers("Obliterate I")
def test_s12_5_obliterate_i_example_one_unpierced_success_five_armour_saves() -> None:
    # 000_94ecc6a4c74d351b.txt line 3690: "one successful Attack Dice ... the Weapon's AP wasn't
    # enough to pierce the Target's Armour Save. The Target will roll five Armour Saves."
    attacker = unit(weapons=[weapon(ap="5+", perks=["Obliterate I"])])
    target = unit(models=5, armour="4+")
    dice = ScriptedDice([4] + [4, 5, 6, 1, 2])  # one success; five Armour Saves, two fail
    result = resolve_attack(plan(attacker, target), dice)
    assert (result.weapons[0].successes, result.weapons[0].hits) == (1, 5)
    assert result.hp_lost == 2
    assert dice.remaining == 0
    u = use_of(weapon(perks=["Obliterate I"]))
    assert u.die.hits_per_success == 5
    assert "each successful Attack Dice x5 (Obliterate)" in u.notes
    # "If the Attack Dice has a multiplier ..., multiply that first then apply Obliterate"
    assert (
        use_of(weapon(power=8, perks=["Obliterate I"]), unit(defence=0)).die.hits_per_success
        == 5 * 2
    )


@covers("Obliterate II")
def test_s12_5_obliterate_ii_multiplies_successes_by_ten() -> None:
    # 000_94ecc6a4c74d351b.txt line 3700
    u = use_of(weapon(perks=["Obliterate II"]))
    assert u.die.hits_per_success == 10
    assert "x10 (Obliterate)" in notes(u)
    attacker = unit(weapons=[weapon(power=10, perks=["Obliterate II"])])
    assert resolve_attack(plan(attacker, unit(models=12)), ScriptedDice([])).hp_lost == 10


PENETRATE = [
    ("Penetrate I", "3+"),
    ("Penetrate II", "4+"),
    ("Penetrate III", "5+"),
    ("Penetrate IV", "6+"),
]


@covers("Penetrate I", "Penetrate II", "Penetrate III", "Penetrate IV")
@pytest.mark.parametrize(("perk", "need"), PENETRATE)
def test_s12_5_penetrate_example_ap_3_does_not_pierce_2_plus_reduced_armour(
    perk: str, need: str
) -> None:
    # 000_94ecc6a4c74d351b.txt line 3704 (Penetrate I: "AP 3+ would not pierce a 2+ Armour Save
    # reduced to 3+"), 3712 (II: -2), 3714 (III: -3), 3716 (IV: -4)
    u = use_of(weapon(ap="3+", perks=[perk]), unit(armour="2+"))
    assert str(u.die.armour) == need
    rank = len(perk.split()[-1].replace("IV", "IIII"))
    assert f"Armour Save -{rank} from Penetrate" in u.notes
    # "If the Save would be less than 6, then no Armour Save is available"
    assert use_of(weapon(perks=[perk]), unit(armour="6+")).die.armour.needed is None
    # a pierced Armour Save is not rolled at all
    assert use_of(weapon(ap="2+", perks=[perk]), unit(armour="2+")).die.armour.needed is None


@covers("Piercing Hit I", "Piercing Hit II")
def test_s12_5_piercing_hit_sixes_ignore_armour_and_with_ii_aegis() -> None:
    # 000_94ecc6a4c74d351b.txt line 3718 (Piercing Hit I: Armour), 3726 (II: also AEGIS)
    target = unit(models=2, armour="2+", aegis="2+")
    one = unit(weapons=[weapon(attacks=2, perks=["Piercing Hit I"])])
    dice = ScriptedDice([6, 5] + [3] + [1])  # 5: Armour 3 saves; 6: no Armour, AEGIS 1 fails
    # order: Armour for the non-six hit, then AEGIS for every hit that failed or skipped Armour
    result = resolve_attack(plan(one, target), dice)
    assert result.hp_lost == 1
    assert dice.remaining == 0
    two = unit(weapons=[weapon(attacks=2, perks=["Piercing Hit II"])])
    dice = ScriptedDice([6, 5] + [3])  # the 6 skips both Saves
    assert resolve_attack(plan(two, unit(models=2, armour="2+", aegis="2+")), dice).hp_lost == 1
    assert dice.remaining == 0
    u = use_of(weapon(perks=["Piercing Hit II"]))
    assert u.die.six_ignores_armour and u.die.six_ignores_aegis and u.die.auto_test


@covers("Puncture I")
def test_s12_5_puncture_i_example_d3_of_2_makes_3_plus_armour_need_5_plus() -> None:
    # 000_94ecc6a4c74d351b.txt line 3732: "User rolls a D3 and gets 2. The Target's Armour Save
    # of 3+ would require a 5+." Code choice: one roll per Weapon use.
    u = use_of(weapon(perks=["Puncture I"]), unit(armour="3+"), faces=[4])
    assert u.die.armour.needed == 5
    assert "Armour Save -2 from Puncture (rolled)" in u.notes
    assert (
        use_of(weapon(perks=["Puncture I"]), unit(armour="5+"), faces=[6]).die.armour.needed is None
    )
    # a pierced Armour Save means no Puncture roll at all
    assert (
        use_of(weapon(ap="3+", perks=["Puncture I"]), unit(armour="3+")).die.armour.needed is None
    )


@covers("Puncture II")
def test_s12_5_puncture_ii_minus_d6_to_the_armour_save() -> None:
    # 000_94ecc6a4c74d351b.txt line 3740
    assert (
        use_of(weapon(perks=["Puncture II"]), unit(armour="2+"), faces=[3]).die.armour.needed == 5
    )
    assert (
        use_of(weapon(perks=["Puncture II"]), unit(armour="2+"), faces=[5]).die.armour.needed
        is None
    )


@covers("Rapid")
def test_s12_5_rapid_doubles_attacks_within_half_range_of_18_inch_weapons() -> None:
    # 000_94ecc6a4c74d351b.txt line 3742
    u = use_of(weapon(range=24, attacks=3, perks=["Rapid"]), within_half_range=True)
    assert u.dice == 6
    assert "Attacks doubled by Rapid (within half Range)" in u.notes
    assert use_of(weapon(range=24, attacks=3, perks=["Rapid"])).dice == 3
    assert use_of(weapon(range=12, attacks=3, perks=["Rapid"]), within_half_range=True).dice == 3
    # §12.1: add bonus Attacks then multiply
    both = use_of(
        weapon(range=24, attacks=3, perks=["Rapid", "Clash"]),
        within_half_range=True,
        first_use_after_engaging=True,
    )
    assert both.dice == 8


@covers("Rend")
def test_s12_5_rend_example_ap_4_does_not_pierce_2_plus_that_became_4_plus() -> None:
    # 000_94ecc6a4c74d351b.txt line 3748
    u = use_of(weapon(ap="4+", perks=["Rend"]), unit(armour="2+"))
    assert u.die.armour.needed == 4
    assert "Armour 2+ → 4+ from Rend" in u.notes
    assert use_of(weapon(perks=["Rend"]), unit(armour="5+")).die.armour.needed == 5  # not better
    assert use_of(weapon(ap="2+", perks=["Rend"]), unit(armour="2+")).die.armour.needed is None


@covers("Reroll Attack")
def test_s12_5_reroll_attack_rerolls_failed_attack_dice() -> None:
    # 000_94ecc6a4c74d351b.txt line 3754
    assert use_of(weapon(perks=["Reroll Attack"])).die.reroll_failed
    attacker = unit(weapons=[weapon(attacks=2, perks=["Reroll Attack"])])
    dice = ScriptedDice([1, 5] + [4])  # the 1 is rerolled into a 4
    assert resolve_attack(plan(attacker, unit(models=2)), dice).hp_lost == 2
    assert dice.remaining == 0
    odds = exact_attack(plan(unit(weapons=[weapon(perks=["Reroll Attack"])]), unit()))
    assert odds.expected_hp_lost == pytest.approx(1 / 2 + 1 / 4)


@covers("Rupture I")
def test_s12_5_rupture_i_successful_armour_saves_are_rerolled() -> None:
    # 000_94ecc6a4c74d351b.txt line 3756
    u = use_of(weapon(perks=["Rupture I"]), unit(armour="3+", aegis="4+"))
    assert u.die.armour.reroll_successful and not u.die.aegis.reroll_successful
    assert u.die.armour.probability() == pytest.approx((4 / 6) ** 2)


@covers("Rupture II")
def test_s12_5_rupture_ii_rerolls_successful_armour_and_aegis() -> None:
    # 000_94ecc6a4c74d351b.txt line 3760
    u = use_of(weapon(perks=["Rupture II"]), unit(armour="3+", aegis="4+"))
    assert u.die.armour.reroll_successful and u.die.aegis.reroll_successful
    assert u.die.aegis.probability() == pytest.approx(1 / 4)


# ------------------------------------------------------------------------------------------
# §12.5 Weapon Perks: Tactical
# ------------------------------------------------------------------------------------------


@covers("Anti-Air I", "Anti-Air II")
def test_s12_5_anti_air_plus_one_against_airborne_and_i_minus_one_otherwise() -> None:
    # 000_94ecc6a4c74d351b.txt line 3771 (Anti-Air I), 3775 (Anti-Air II: no penalty)
    one = use_of(weapon(perks=["Anti-Air I"]), target_airborne=True)
    assert req(one) == "3+" and "Anti-Air +1" in notes(one)
    ground = use_of(weapon(perks=["Anti-Air I"]))
    assert req(ground) == "5+" and "Anti-Air I against a ground Target -1" in notes(ground)
    assert req(use_of(weapon(perks=["Anti-Air II"]), target_airborne=True)) == "3+"
    assert req(use_of(weapon(perks=["Anti-Air II"]))) == "4+"


@covers("Clash")
def test_s12_5_clash_plus_one_attack_on_the_first_use_after_engaging() -> None:
    # 000_94ecc6a4c74d351b.txt line 3785
    u = use_of(
        weapon(range=0, attacks=2, perks=["Clash"]), melee=True, first_use_after_engaging=True
    )
    assert u.dice == 3 and "Attacks +1 from Clash" in u.notes
    assert use_of(weapon(range=0, attacks=2, perks=["Clash"]), melee=True).dice == 2


@covers("Focus")
def test_s12_5_focus_rerolls_failed_attack_dice_when_both_stationary() -> None:
    # 000_94ecc6a4c74d351b.txt line 3833
    assert use_of(weapon(perks=["Focus"]), stationary=True).die.reroll_failed
    assert not use_of(weapon(perks=["Focus"])).die.reroll_failed
    attacker = unit(weapons=[weapon(perks=["Focus"])])
    odds = exact_attack(plan(attacker, unit(), stationary=True))
    assert odds.expected_hp_lost == pytest.approx(3 / 4)


@covers("Negate AEGIS")
def test_s12_5_negate_aegis_example_ap_3_ignores_3_plus_aegis_not_armour() -> None:
    # 000_94ecc6a4c74d351b.txt line 3955: "AP of 3+ will ignore a 3+ AEGIS Save, but not Armour.
    # This does not affect Armour modifying Perks such as Penetrate."
    u = use_of(weapon(ap="3+", perks=["Negate AEGIS"]), unit(armour="3+", aegis="3+"))
    assert (u.die.armour.needed, u.die.aegis.needed) == (3, None)
    assert "AP 3+ ignores AEGIS 3+ (Negate AEGIS)" in u.notes
    pen = use_of(
        weapon(ap="3+", perks=["Negate AEGIS", "Penetrate I"]), unit(armour="3+", aegis="3+")
    )
    assert (pen.die.armour.needed, pen.die.aegis.needed) == (4, None)
    weak = use_of(weapon(ap="4+", perks=["Negate AEGIS"]), unit(armour="6+", aegis="3+"))
    assert (weak.die.armour.needed, weak.die.aegis.needed) == (6, 3)


# ------------------------------------------------------------------------------------------
# Coverage of the reference index
# ------------------------------------------------------------------------------------------


def class_a_perks() -> list[dict[str, Any]]:
    data = json.loads(PERKS_JSON.read_text(encoding="utf-8"))
    return [p for p in data if p.get("impl_class") == "A"]


def test_every_class_a_perk_rank_is_cited_by_a_test() -> None:
    names = {p["name"] for p in class_a_perks()}
    assert len(names) == 92
    assert names == set(IMPLEMENTED_PERKS)
    missing = sorted(names - set(COVERAGE))
    assert not missing, f"class-A perks without a test: {missing}"
    assert not set(COVERAGE) - names, "COVERAGE names a perk that is not class A"
    module = globals()
    for perk, tests in COVERAGE.items():
        for t in tests:
            assert t in module, f"{perk}: {t} is not a test of this module"


def test_every_cited_line_is_the_perks_entry_in_the_book() -> None:
    book = Path("/work/shared/seeds/000_94ecc6a4c74d351b.txt").read_text(encoding="utf-8")
    lines = book.splitlines()
    for p in class_a_perks():
        line = int(p["source"].rsplit(" ", 1)[1])
        base = p["base_name"]
        assert base.lower() in lines[line - 1].lower(), (p["name"], lines[line - 1])


@covers("Retaliate I", "Retaliate II", "Darkside")
def test_s5_16_attackers_own_saves_against_retaliate_and_darkside_use_deflect_and_ward() -> None:
    # Core 001_d3f5e425c5e1196d.txt §5.16: Deflect/Ward "must be applied when the Unit is rolling
    # Armour and/or AEGIS Saves". Retaliate I/II (000_94ecc6a4c74d351b.txt line 1733/1741: the
    # attacker must "pass Saves") and Darkside (line 2951: "must pass Saves") are such rolls.
    shield = weapon("Shield", range=0, deflect=2, ward=1, perks=["Darkside"])
    attacker = unit(weapons=[shield], hp=4, armour="5+", aegis="6+")
    one = use_of(shield, unit(perks=["Retaliate I"]), attacker=attacker, melee=True)
    assert one.retaliation is not None
    assert (one.retaliation.armour.needed, one.retaliation.aegis.needed) == (3, 5)
    two = use_of(shield, unit(perks=["Retaliate II"]), attacker=attacker, melee=True)
    assert two.retaliation is not None
    assert (two.retaliation.armour.needed, two.retaliation.aegis.needed) == (None, 5)
    dark = use_of(shield, attacker=attacker, darkside_power=1)
    assert (dark.self_saves[0].needed, dark.self_saves[1].needed) == (3, 5)
