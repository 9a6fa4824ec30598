"""The worked examples of Core Rules §2.3 and §5 (001_d3f5e425c5e1196d.txt), with scripted dice."""

from __future__ import annotations

from warbench.kernel.dice import ScriptedDice
from warbench.rulesets.warsurge.attack import (
    AttackContext,
    Playstyle,
    casualty_order,
    compile_weapon_use,
    save_upgrades,
)
from warbench.rulesets.warsurge.odds import exact_attack, resolve_attack

from .conftest import plan, unit, weapon

LASER_RIFLE = weapon("Laser Rifle", range=18, type="Battle", attacks=2, power=3, ap="6+")
RIPPER_SWORD = weapon("Ripper Sword", range=0, type="Assault", attacks=3, power=5, ap="2+")


def test_s2_3_ranged_example_troopers_against_kataton_servitors() -> None:
    # 6 Troopers, 2 Attacks each = 12 Attack Dice; Power 3 vs Defence 5 needs a 6; three 6s.
    troopers = unit("Troopers", models=6, weapons=[LASER_RIFLE], defence=3, armour="4+")
    kataton = unit("Kataton", models=2, defence=5, hp=2, armour="3+")
    p = plan(troopers, kataton)
    attack_faces = [6, 6, 6, 1, 2, 3, 4, 5, 1, 2, 3, 4]
    armour_faces = [2, 1, 1]  # AP 6+ does not pierce 3+ Armour; all three fail
    dice = ScriptedDice(attack_faces + armour_faces)
    result = resolve_attack(p, dice)
    (w,) = result.weapons
    assert w.attack_dice == 12
    assert str(w.use.die.requirement) == "6+"
    assert w.use.die.armour.needed == 3
    assert w.successes == 3
    assert result.hp_lost == 3
    # one model reduced to 0 HP, the other left with 1 HP; removed at the end of the phase
    assert sorted(m.hp for m in kataton.models) == [0, 1]
    assert result.casualties == [0]
    assert result.removed == []
    assert dice.remaining == 0


def test_s2_3_melee_example_sisters_repentium_against_troopers() -> None:
    sisters = unit("Sisters", models=5, weapons=[RIPPER_SWORD], defence=3)
    troopers = unit("Troopers", models=10, defence=3, armour="4+", aegis="5+")
    p = plan(sisters, troopers, melee=True)
    attack_faces = [1, 1, 1] + [2, 3, 4, 5, 6, 2, 3, 4, 5, 6, 2, 3]  # 15 dice, twelve succeed
    aegis_faces = [6, 5, 5] + [1, 2, 3, 4, 1, 2, 3, 4, 1]  # AP 2+ pierces 4+ Armour
    dice = ScriptedDice(attack_faces + aegis_faces)
    result = resolve_attack(p, dice)
    (w,) = result.weapons
    assert w.attack_dice == 15
    assert str(w.use.die.requirement) == "2+"
    assert w.use.die.armour.needed is None
    assert w.use.die.aegis.needed == 5
    assert w.successes == 12
    assert result.hp_lost == 9
    assert sum(1 for m in troopers.models if m.hp > 0) == 1
    assert dice.remaining == 0


def test_s5_10_save_dice_example_lord_of_wrath() -> None:
    lord = unit("Lord of Wrath", defence=1, hp=3, armour="3+", aegis="4+")
    first = weapon("First", attacks=1, power=8, ap="3+")  # A against Defence 1
    second = weapon("Second", attacks=2, power=8, ap="6+")
    attacker = unit("Attackers", weapons=[first, second])
    p = plan(attacker, lord)
    # First: AP 3+ pierces 3+ Armour, AEGIS 3 fails. Second: Armour 2, 1 fail; AEGIS 2, 6.
    dice = ScriptedDice([3, 2, 1, 2, 6])
    result = resolve_attack(p, dice)
    assert [w.hp_loss for w in result.weapons] == [1, 1]
    assert lord.models[0].hp == 1


def test_s5_7_six_slash_five_example() -> None:
    # Four Attacks, Power 2 vs Defence 8 = 6/5: two 6s, rerolled to a 5 and a 4 -> one success.
    attacker = unit(weapons=[weapon(attacks=4, power=2)])
    target = unit(models=5, defence=8)
    result = resolve_attack(plan(attacker, target), ScriptedDice([6, 6, 1, 3, 5, 4]))
    assert result.weapons[0].successes == 1
    assert result.hp_lost == 1


def test_s5_7_ax2_four_attacks_cause_eight_saves_and_eight_casualties() -> None:
    attacker = unit(weapons=[weapon(attacks=4, power=8)])
    target = unit(models=10, defence=0, armour="6+")
    result = resolve_attack(plan(attacker, target), ScriptedDice([1] * 8))
    assert str(result.weapons[0].use.die.requirement) == "Ax2"
    assert result.weapons[0].hits == 8
    assert result.hp_lost == 8
    assert len(result.casualties) == 8


def test_s5_12_hunter_cars_five_hp_loss_one_casualty_and_one_wound() -> None:
    attacker = unit(weapons=[weapon(attacks=5, power=10)])
    cars = unit("Hunter Cars", models=3, defence=3, hp=4)
    result = resolve_attack(plan(attacker, cars), ScriptedDice([]))
    assert result.hp_lost == 5
    assert sorted(m.hp for m in cars.models) == [0, 3, 4]


def test_s5_12_wounded_models_take_hp_loss_first() -> None:
    attacker = unit(weapons=[weapon(attacks=1, power=10)])
    cars = unit("Hunter Cars", models=3, defence=3, hp=4)
    cars.models[2].hp = 1
    resolve_attack(plan(attacker, cars), ScriptedDice([]))
    assert [m.hp for m in cars.models] == [4, 4, 0]


def test_s5_5_partial_line_of_sight_excess_dice_are_discarded() -> None:
    # Troopers 1-6 of 8 in sight: at most six can be slain however many dice succeed.
    attacker = unit(weapons=[weapon(attacks=20, power=10)])
    troopers = unit("Troopers", models=8, defence=3)
    p = plan(attacker, troopers, los_models=frozenset(range(6)))
    result = resolve_attack(p, ScriptedDice([]))
    assert result.hp_lost == 6
    assert [m.hp for m in troopers.models] == [0, 0, 0, 0, 0, 0, 1, 1]
    assert exact_attack(
        plan(attacker, unit(models=8, defence=3), los_models=frozenset(range(6)))
    ).hp_lost == {6: 1.0}


def test_s5_13_melee_ignores_line_of_sight_for_casualties() -> None:
    attacker = unit(weapons=[weapon(attacks=20, power=10, range=0)])
    troopers = unit("Troopers", models=8, defence=3)
    p = plan(attacker, troopers, melee=True, los_models=frozenset(range(2)))
    assert resolve_attack(p, ScriptedDice([])).hp_lost == 8


def test_s5_11_advanced_playstyle_removes_casualties_at_once() -> None:
    attacker = unit(weapons=[weapon(attacks=2, power=10)])
    target = unit(models=3, defence=3)
    result = resolve_attack(plan(attacker, target, playstyle=Playstyle.ADVANCED), ScriptedDice([]))
    assert result.removed == [0, 1]
    assert target.on_table == [2]


def test_s5_8_melee_modifiers_heavy_battle_into_and_out_of_melee() -> None:
    attacker = unit(weapons=[weapon("Cannon", type="Heavy", power=4)])
    target = unit(defence=4)

    def req(**ctx: object) -> str:
        use = compile_weapon_use(
            attacker,
            attacker.weapons["Cannon"],
            1,
            target,
            AttackContext(**ctx),  # type: ignore[arg-type]
            ScriptedDice([]),
        )
        return str(use.die.requirement)

    assert req() == "4+"
    assert req(melee=True) == "6+"  # Heavy -2: "a 4+ Attack Dice needs a 6"
    assert req(target_engaged_elsewhere=True) == "5+"  # into a Melee
    assert req(attacker_engaged=True) == "6/2"  # Heavy -2 and out of a Melee -1
    battle = unit(weapons=[weapon("Blade", type="Battle", power=6)])
    use = compile_weapon_use(
        battle,
        battle.weapons["Blade"],
        1,
        unit(defence=3),
        AttackContext(melee=True),
        ScriptedDice([]),
    )
    assert str(use.die.requirement) == "3+"  # Battle: "a 2+ Attack Dice becomes 3+"


def test_s5_6_cover_bonus_adds_one_defence_but_not_in_melee() -> None:
    attacker = unit(weapons=[weapon(power=4)])
    target = unit(defence=4)
    ranged = compile_weapon_use(
        attacker, attacker.weapons["Gun"], 1, target, AttackContext(cover=True), ScriptedDice([])
    )
    assert str(ranged.die.requirement) == "5+"
    heavy_cover = compile_weapon_use(
        attacker,
        attacker.weapons["Gun"],
        1,
        target,
        AttackContext(cover=True, cover_bonus=2),
        ScriptedDice([]),
    )
    assert str(heavy_cover.die.requirement) == "6+"
    melee = compile_weapon_use(
        attacker,
        attacker.weapons["Gun"],
        1,
        target,
        AttackContext(cover=True, melee=True),
        ScriptedDice([]),
    )
    assert str(melee.die.requirement) == "4+"  # §5.9: Cover Bonuses ignored in a Melee


def test_s5_10_ap_pierces_equal_or_weaker_armour_only() -> None:
    target = unit(defence=1, armour="2+")
    for ap, armour_needed in (("3+", 2), ("2+", None)):
        attacker = unit(weapons=[weapon(power=8, ap=ap)])
        use = compile_weapon_use(
            attacker, attacker.weapons["Gun"], 1, target, AttackContext(), ScriptedDice([])
        )
        assert use.die.armour.needed == armour_needed


def test_s5_16_deflect_ward_parry_majority_and_casualty_priority() -> None:
    shield = weapon("Shield", deflect=1, attacks=1, power=1)
    halberd = weapon("Halberd", ward=1, parry=2, attacks=1, power=4)
    sword = weapon("Sword", attacks=1, power=4)
    # Models 1-3 shields, 2, 3 and 5 halberds, model 4 neither (example, numbered from 1).
    legion = unit(
        "Legionaries",
        weapons=[shield, halberd, sword],
        groups=[
            (1, ["Shield", "Sword"]),
            (2, ["Shield", "Halberd"]),
            (1, ["Sword"]),
            (1, ["Halberd"]),
        ],
        defence=3,
        armour="4+",
        aegis="5+",
    )
    ups = save_upgrades(legion, melee=True)
    assert (ups.deflect, ups.deflect_weapon) == (1, "Shield")
    assert (ups.aegis, ups.aegis_weapon) == (3, "Halberd")  # +1 Ward and +2 Parry in a Melee
    assert save_upgrades(legion, melee=False).aegis == 1
    # HP Loss priority: 2 and 3 (both), then 5 (AEGIS), then 1 (Armour), then 4.
    assert casualty_order(legion, ups, range(5)) == [1, 2, 4, 0, 3]
    attacker = unit(weapons=[weapon(power=8)])
    use = compile_weapon_use(
        attacker, attacker.weapons["Gun"], 1, legion, AttackContext(melee=True), ScriptedDice([])
    )
    assert use.die.armour.needed == 3  # "+1 Deflect increases a 4+ Armour Save to 3+"
    assert use.die.aegis.needed == 2  # 5+ with +3 is 2+ ("Saves cannot exceed 2+")


def test_s5_16_ward_and_parry_accumulate_only_on_the_same_weapon() -> None:
    ward = weapon("Ward", ward=1)
    parry = weapon("Parry", parry=2)
    both = unit(weapons=[ward, parry], models=2, aegis="6+")  # example B: separate weapons
    assert save_upgrades(both, melee=False).aegis == 1
    assert save_upgrades(both, melee=True).aegis == 2
    same = unit(weapons=[weapon("Halberd", ward=1, parry=2)], aegis="6+")  # example A
    assert save_upgrades(same, melee=False).aegis == 1
    assert save_upgrades(same, melee=True).aegis == 3


def test_s5_16_deflect_across_weapons_does_not_accumulate_and_minority_does_not_count() -> None:
    small = weapon("Buckler", deflect=1)
    big = weapon("Tower Shield", deflect=3)
    u = unit(weapons=[small, big], models=2, armour="6+")
    assert save_upgrades(u, melee=False).deflect == 3
    minority = unit(
        weapons=[big, weapon("Spear")], groups=[(1, ["Tower Shield"]), (3, ["Spear"])], armour="6+"
    )
    assert save_upgrades(minority, melee=False).deflect == 0
    half = unit(weapons=[big, weapon("Spear")], groups=[(2, ["Tower Shield"]), (2, ["Spear"])])
    assert save_upgrades(half, melee=False).deflect == 3  # "half or more" is the majority


def test_s5_16_casualties_do_not_count_for_the_majority() -> None:
    big = weapon("Tower Shield", deflect=2)
    u = unit(weapons=[big, weapon("Spear")], groups=[(2, ["Tower Shield"]), (3, ["Spear"])])
    assert save_upgrades(u, melee=False).deflect == 0
    u.models[3].hp = 0
    assert save_upgrades(u, melee=False).deflect == 2


def test_s2_2_attack_phase_example_dead_dogs_against_shadow_hounds() -> None:
    # 26 Dead Dogs, Scavenger Rifle (24", 1 Attack, Power 2, AP 6) against 5 Shadow Hounds
    # (Defence 3, Armour 4+, no AEGIS, 1 HP): Power 2 vs Defence 3 needs 5+.
    rifle = weapon("Scavenger Rifle", range=24, attacks=1, power=2, ap="6+")
    dogs = unit("Dead Dogs", models=26, weapons=[rifle], defence=3)
    hounds = unit("Shadow Hounds", models=5, weapons=[weapon("Hound Gun")], defence=3, armour="4+")
    attack = [6] * 8 + [5] * 2 + [1, 2, 3, 4] * 4  # "eight results of 6, and two results of 5"
    saves = [4, 5, 6, 4, 5, 1, 2, 3, 1, 2]  # "Five of the 4+ Armour Saves were successful"
    dice = ScriptedDice(attack + saves)
    result = resolve_attack(plan(dogs, hounds), dice)
    assert str(result.weapons[0].use.die.requirement) == "5+"
    assert result.weapons[0].successes == 10
    assert result.hp_lost == 5
    assert all(m.hp == 0 for m in hounds.models)
    # Standard game: the casualties are not removed yet and "will still be able to Attack".
    assert result.removed == []
    back = plan(hounds, dogs)
    assert back.users_of("Hound Gun") == 5
    hounds.remove_casualties()
    assert plan(hounds, dogs).users_of("Hound Gun") == 0


def test_s5_11_controlling_player_chooses_casualties_within_the_rules_order() -> None:
    attacker = unit(weapons=[weapon(attacks=2, power=10)])
    target = unit(models=4, defence=3)
    p = plan(attacker, target)
    from dataclasses import replace as _replace

    chosen = _replace(p, casualty_preference=(3, 1))
    resolve_attack(chosen, ScriptedDice([]))
    assert [m.hp for m in target.models] == [1, 0, 1, 0]
    # ... but a wounded model still goes first (§5.12)
    cars = unit(models=3, defence=3, hp=4)
    cars.models[0].hp = 2
    resolve_attack(_replace(plan(attacker, cars), casualty_preference=(2,)), ScriptedDice([]))
    assert [m.hp for m in cars.models] == [0, 4, 4]
