"""Every glossary entry that acts in play, tested in a game through the protocol, named with
its source lines (003_fc239e71486306e1.txt L1583-2289). ``test_every_entry_in_play_is_tested``
keeps the effects table and these tests in step."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.rulesets.collision.game.helpers import RS, card, duel_setup, placed, step
from warbench.play import IllegalAction
from warbench.rulesets.collision.game.abilities import EFFECTS, check_table, in_play
from warbench.rulesets.collision.game.state import (
    Attack,
    CollisionState,
    EndActivation,
    Hold,
    Move,
    React,
    SpendLuck,
    UseAbility,
    UsePlan,
)

COVERED: set[str] = set()
F = Callable[..., Any]


def covers(*names: str) -> Callable[[F], F]:
    """Mark a test as the test of these glossary entries."""
    COVERED.update(names)

    def wrap(fn: F) -> F:
        return fn

    return wrap


def duel(
    a: dict[str, Any] | None = None,
    b: dict[str, Any] | None = None,
    at: tuple[tuple[int, int], tuple[int, int]] = ((2, 2), (3, 2)),
    facing: tuple[str, str] = ("E", "W"),
    **options: Any,
) -> CollisionState:
    """Character 0 (player 0, active) and character 1 (player 1) on an open 8 x 6 board."""
    setup = duel_setup(a or card("A"), b or card("B"), **options)
    return placed(setup, {0: (at[0], facing[0]), 1: (at[1], facing[1])})


def sword(**kw: Any) -> Attack:
    return Attack(1, "Sword", **kw)


# --------------------------------------------------------------------------------------------
# The table
# --------------------------------------------------------------------------------------------


def test_effects_table_covers_the_glossary_exactly() -> None:
    assert check_table() == []
    assert len(EFFECTS) == 129


# --------------------------------------------------------------------------------------------
# Special attacks (L872-881)
# --------------------------------------------------------------------------------------------


@covers("Power Attack")
def test_power_attack_L2077_2081_w_att_minus_1_w_pow_plus_2() -> None:
    s = duel(card("A", abilities=["Power Attack"]))
    # to hit 3 + W-Att 3-1 = 5 >= Def 5; injury 1 + W-Pow 3+2 = 6 - Armor 3 = 3 -> Injury 2
    s, _ev = step(s, sword(ability="Power Attack"), [3, 1])
    assert s.units[1].injuries == 2
    assert s.units[0].mana == 2 and s.units[0].endurance == 4  # 1M + the Sword's EC 1


@covers("Guided Strike")
def test_guided_strike_L1814_1818_w_att_plus_2() -> None:
    s = duel()
    s, _ = step(s, sword(), [1])  # 1 + 3 = 4 < Def 5: a miss
    assert s.units[1].injuries == 0
    s = duel(card("A", abilities=["Guided Strike"]))
    s, _ = step(s, sword(ability="Guided Strike"), [1, 1])  # 1 + 5 hits; 1+3 beats 3 by 1
    assert s.units[1].injuries == 1


@covers("Butcher")
def test_butcher_L1629_1630_att_minus_2_pow_plus_4() -> None:
    s = duel(card("A", abilities=["Butcher"]))
    s, _ = step(s, sword(ability="Butcher"), [3])  # 3 + 3 - 2 = 4 < 5: a miss
    assert s.units[1].injuries == 0
    s = duel(card("A", abilities=["Butcher"]))
    s, _ = step(s, sword(ability="Butcher"), [4, 1])  # 1 + 7 - 3 = 5 -> Injury 3
    assert s.units[1].injuries == 3


@covers("Backstab")
def test_backstab_L1598_1600_rear_hit_is_a_critical_hit() -> None:
    a = card("A", abilities=["Backstab"], weapon={"crit": "Pow+2"})
    s = duel(a, facing=("E", "E"))  # B faces away: A is on its back facing
    # back: W-Att+1; face 1: 1+4 = 5 hits, a critical hit in the rear (Pow+2); W-Pow 3+1+2
    s, ev = step(s, sword(ability="Backstab"), [1, 1])
    assert any(e.kind == "to hit" and e.data["crit"] for e in ev)
    assert s.units[1].injuries == 2  # 1 + 6 - 3 = 4 -> Injury 2


@covers("Finishing Blow", "Slay", "No Reactions")
def test_finishing_blow_L1750_1757_slays_a_character_two_injuries_from_defeat() -> None:
    a = card("A", abilities=["Finishing Blow"])
    b = card("B", abilities=["Dodge"])
    s = duel(a, b)
    with pytest.raises(IllegalAction, match="2 injuries away"):
        step(s, sword(ability="Finishing Blow"))
    s.units[1].injuries = 2
    s, _ev = step(s, sword(ability="Finishing Blow"), [1])  # 1+3+1 = 5 hits: slay, no reaction
    assert s.units[1].where == "defeated" and s.stage == "act"


@covers("Gouge", "Hex X")
def test_gouge_L1809_1812_hex_on_hit_and_hex_penalties_L1834_1837() -> None:
    s = duel(card("A", abilities=["Gouge"]))
    s, _ = step(s, sword(ability="Gouge"), [2, 1])  # hit; 1+5-3 = 3 -> Injury 2; Hex 1
    assert s.units[1].statuses == {"hex": 1}
    assert s.units[1].injuries == 2


@covers("Rip Around", "Drain")
def test_rip_around_L2120_2122_turns_the_target_and_drains_2e() -> None:
    s = duel(card("A", abilities=["Rip Around"]))
    s, _ = step(s, sword(ability="Rip Around"), [1, 1])  # 1+3+1 = 5 hits; 1+3-3 no injury
    assert s.units[1].facing == "E" and s.units[1].endurance == 3


@covers("Snipe")
def test_snipe_L2182_2184_ignores_partial_cover() -> None:
    bow = {"name": "Bow", "ec": 1, "w-att": 3, "w-pow": 3, "reach": "4+"}
    a = card("A", abilities=["Snipe"], weapons=[bow])
    s = duel(a, at=((0, 2), (4, 2)))
    s.terrain = [(2, 2, "obstacle", 0), (2, 3, "vertical", 1)]  # line at y=2.5 skims (2,3)?
    s.terrain = [(2, 2, "vertical", 1)]
    s, ev = step(s, Attack(1, "Bow", "Snipe"), [5, 1])  # total cover stays: a cover roll
    assert any(e.kind in ("cover", "to hit") for e in ev)


@covers("Sudden Strike")
def test_sudden_strike_L2199_2204_w_att_plus_1_no_reactions() -> None:
    s = duel(card("A", abilities=["Sudden Strike"]), card("B", abilities=["Dodge"]))
    s, _ = step(s, sword(ability="Sudden Strike"), [1, 3])  # 1+4 = 5 hits, no Dodge asked
    assert s.stage == "act" and s.units[1].injuries == 2  # 3+3-3 = 3 -> Injury 2


@covers("Thunderstrike", "Blast attack")
def test_thunderstrike_L2228_2235_blast_radius_1_drains_1e() -> None:
    a = card("A", abilities=["Thunderstrike"])
    s = duel(a, card("B"), at=((2, 2), (3, 2)))
    s, _ev = step(s, Attack(None, "Sword", "Thunderstrike", at=(3, 2)), [1, 1])
    # the attacker is within 1 of the centre but can't hit itself; B: 1+3+1 hits, drained 1E
    assert s.units[1].endurance == 4 and s.units[0].injuries == 0


@covers("Checkmate")
def test_checkmate_L1659_1663_w_att_plus_2_no_slay_without_two_allies() -> None:
    s = duel(card("A", abilities=["Checkmate"]))
    s, _ = step(s, sword(ability="Checkmate"), [1, 1])  # 1+5 hits; no allies: no Slay
    assert s.units[1].where == "board"


@covers("Chilling Strike")
def test_chilling_strike_L1665_1671_drains_s_pow_endurance() -> None:
    a = card("A", abilities=["Chilling Strike"], stats={"s-pow": 3})
    s = duel(a)
    s, _ = step(s, sword(ability="Chilling Strike"), [2, 1])
    assert s.units[1].endurance == 2


@covers("Smite")
def test_smite_L2176_2180_adds_command_and_cannot_defeat() -> None:
    a = card("A", abilities=["Smite"], stats={"comm": 4})
    s = duel(a, card("B", stats={"tuf": 2}))
    s, _ = step(s, sword(ability="Smite"), [2, 10])  # 10+3+4-3 = 14 -> Injury 7: capped at 1
    assert s.units[1].where == "board" and s.units[1].injuries == 1


@covers("Scissor Strike")
def test_scissor_strike_L2124_2129_combines_two_melee_weapons() -> None:
    weapons = [
        {"name": "Sword", "ec": 1, "w-att": 3, "w-pow": 3, "reach": 1},
        {"name": "Dagger", "ec": 2, "w-att": 4, "w-pow": 1, "reach": 1},
    ]
    s = duel(card("A", abilities=["Scissor Strike"], weapons=weapons))
    s, _ = step(s, sword(ability="Scissor Strike"), [1, 1])  # W-Att 4: 5 hits; 1+4-3 = 2
    assert s.units[1].injuries == 1
    assert s.units[0].endurance == 5 - 2  # the highest EC


@covers("Barrage")
def test_barrage_L1602_1604_shoots_again_at_att_minus_1_until_a_miss() -> None:
    bow = {"name": "Bow", "ec": 1, "w-att": 3, "w-pow": 0, "reach": "4+"}
    s = duel(card("A", abilities=["Barrage"], weapons=[bow]), at=((2, 2), (4, 2)))
    # shot 1: 2+3 = 5 hits, injury 1+0-3 none; shot 2 at Att-1: 3+2 = 5 hits; shot 3: 3+1 miss
    s, ev = step(s, Attack(1, "Bow", "Barrage"), [2, 1, 3, 1, 3])
    assert sum(1 for e in ev if e.kind == "barrage") == 2


@covers("Throw")
def test_throw_L2224_2226_reach_plus_3() -> None:
    s = duel(card("A", abilities=["Throw"]), at=((2, 2), (5, 2)))
    with pytest.raises(IllegalAction):
        step(s, sword())  # reach 1
    s, ev = step(s, sword(ability="Throw"), [2, 1])
    assert any(e.kind == "to hit" for e in ev)


@covers("Clobber")
def test_clobber_L1680_1684_stuns_and_rolls_no_injury() -> None:
    s = duel(card("A", abilities=["Clobber"], stats={"att": 3}))
    s, _ = step(s, Attack(1, None, "Clobber"), [2])  # 2+3 = 5 hits: Stun, no injury roll
    assert s.units[1].statuses == {"stun": 1} and s.units[1].injuries == 0


@covers("Caustic Burst", "Burst Attack")
def test_caustic_burst_L1641_1648_hits_all_within_2_of_the_attacker() -> None:
    a = card("A", abilities=["Caustic Burst"], stats={"att": 3, "s-pow": 2})
    s = duel(a, at=((2, 2), (4, 2)))
    s, _ = step(s, Attack(None, None, "Caustic Burst"), [1, 2])  # 1+5 hits; 2+4-3 = 3
    assert s.units[1].injuries == 2 and s.units[0].mana == 0


@covers("Dazzle")
def test_dazzle_L1703_1709_stuns_and_deals_no_damage_without_a_crit() -> None:
    s = duel(card("A", abilities=["Dazzle"], stats={"att": 4}))
    s, _ = step(s, Attack(1, None, "Dazzle"), [1])
    assert s.units[1].statuses == {"stun": 1} and s.units[1].injuries == 0


@covers("Embloody")
def test_embloody_L1732_1738_one_injury_without_beating_armor() -> None:
    s = duel(card("A", abilities=["Embloody"], stats={"att": 4}), at=((1, 2), (4, 2)))
    s, _ = step(s, Attack(1, None, "Embloody"), [1])
    assert s.units[1].injuries == 1


@covers("Fire Breathing", "Line Attack")
def test_fire_breathing_L1759_1765_line_of_three_pow_4() -> None:
    s = duel(card("A", abilities=["Fire Breathing"], stats={"att": 4}), at=((1, 2), (3, 2)))
    line = ((2, 2), (3, 2), (4, 2))
    s, _ = step(s, Attack(None, None, "Fire Breathing", line=line), [1, 5])  # 5+4-3 = 6
    assert s.units[1].injuries == 3


@covers("Flash Freeze", "On Injury")
def test_flash_freeze_L1774_1779_on_injury_drains_all_and_stuns() -> None:
    a = card("A", abilities=["Flash Freeze"], stats={"att": 2, "s-pow": 1})
    s = duel(a, at=((2, 2), (4, 2)))
    s, _ = step(s, Attack(1, None, "Flash Freeze"), [1, 4])  # 1+5 hits; 4+3-3 = 4 -> 2
    assert s.units[1].endurance == 0 and s.units[1].statuses == {"stun": 1}


@covers("Hyper Cutter")
def test_hyper_cutter_L1839_1845_a_weapon_line_attack() -> None:
    s = duel(card("A", abilities=["Hyper Cutter"]), at=((1, 2), (3, 2)))
    line = ((2, 2), (3, 2), (4, 2))
    s, _ = step(s, Attack(None, "Sword", "Hyper Cutter", line=line), [1, 3])  # 1+4 hits
    assert s.units[1].injuries == 2


@covers("Mana Theft", "Steal X")
def test_mana_theft_L1997_2000_steals_one_mana() -> None:
    s = duel(card("A", abilities=["Mana Theft"], stats={"att": 4}))
    s.units[0].mana = 1
    s, _ = step(s, Attack(1, None, "Mana Theft"), [1])
    assert s.units[1].mana == 2 and s.units[0].mana == 2


@covers("Meteor")
def test_meteor_L2011_2021_falls_next_turn() -> None:
    a = card("A", abilities=["Meteor"], stats={"mana": 4, "att": 5, "s-pow": 2})
    s = duel(a, at=((1, 2), (5, 2)))
    s, _ = step(s, Attack(None, None, "Meteor", at=(5, 2)), [])
    assert any(m.kind == "meteor" and not m.gone for m in s.markers)
    assert s.units[1].injuries == 0


@covers("Pain Warp")
def test_pain_warp_L2045_2051_shares_your_injuries() -> None:
    s = duel(card("A", abilities=["Pain Warp"], stats={"att": 4, "comm": 2}), at=((2, 2), (4, 2)))
    s.units[0].injuries = 2
    s, _ = step(s, Attack(1, None, "Pain Warp"), [3])  # 3 + Att 4+1 - 2 injuries hits
    assert s.units[1].pain_warp == 0


@covers("Shockwave")
def test_shockwave_L2143_2146_hits_automatically_with_pow_2() -> None:
    s = duel(card("A", abilities=["Shockwave"]), at=((2, 2), (5, 2)))
    s, _ev = step(s, Attack(1, None, "Shockwave"), [6])  # no to-hit roll; 6+2-3 = 5 -> 3
    assert s.units[1].injuries == 3


@covers("Shove", "Knockback")
def test_shove_L2148_2152_knocks_back_2_and_drains_2e() -> None:
    s = duel(card("A", abilities=["Shove"], stats={"att": 4}))
    s, _ = step(s, Attack(1, None, "Shove"), [1])
    assert s.units[1].pos == (5, 2) and s.units[1].endurance == 3


@covers("Static Jolt")
def test_static_jolt_L2186_2190_ranged_s_pow_attack() -> None:
    s = duel(
        card("A", abilities=["Static Jolt"], stats={"att": 2, "s-pow": 3}), at=((0, 2), (4, 2))
    )
    s, _ = step(s, Attack(1, None, "Static Jolt"), [1, 3])  # 1+4 = 5 hits; 3+3-3 = 3 -> 2
    assert s.units[1].injuries == 2


@covers("Touch of Death")
def test_touch_of_death_L2239_2246_s_pow_contest_slays() -> None:
    s = duel(card("A", abilities=["Touch of Death"], stats={"att": 4, "s-pow": 3, "mana": 3}))
    s, _ = step(s, Attack(1, None, "Touch of Death"), [1, 5, 5])  # hit; contest 8 vs 5
    assert s.units[1].where == "defeated"


@covers("Venom", "Poison X")
def test_venom_L2262_2267_poison_1_and_poison_upkeep_L2067_2071() -> None:
    s = duel(card("A", abilities=["Venom"]))
    s, _ = step(s, Attack(1, None, "Venom"), [2, 1])  # 2+3 hits; 1+1-3 no injury; Poison 1
    assert s.units[1].statuses == {"poison": 1}


@covers("Whirling Gale", "On Hit")
def test_whirling_gale_L2276_2284_line_4_stuns_on_hit() -> None:
    s = duel(card("A", abilities=["Whirling Gale"], stats={"mana": 2}), at=((1, 2), (3, 2)))
    line = ((2, 2), (3, 2), (4, 2), (5, 2))
    s, _ = step(s, Attack(None, None, "Whirling Gale", line=line), [3, 1])
    assert s.units[1].statuses == {"stun": 1}


# --------------------------------------------------------------------------------------------
# Special actions that are not attacks
# --------------------------------------------------------------------------------------------


def use(s: CollisionState, name: str, faces: list[int] | None = None, **kw: Any) -> CollisionState:
    s, _ = step(s, UseAbility(name, **kw), faces or [])
    return s


@covers("Assess the Threat")
def test_assess_the_threat_L1590_1596_command_contest_wins_a_mana() -> None:
    s = duel(card("A", abilities=["Assess the Threat"]))
    s.units[0].mana = 1
    s = use(s, "Assess the Threat", [9, 1], target=1)
    assert s.units[0].mana == 2


@covers("Berserk")
def test_berserk_L1606_1607_one_injury_then_a_mana_per_injury() -> None:
    s = duel(card("A", abilities=["Berserk"]))
    s.units[0].mana = 0
    s = use(s, "Berserk")
    assert s.units[0].injuries == 1 and s.units[0].mana == 1


@covers("Buck Shot")
def test_buck_shot_L1621_1623_another_shot_after_a_ranged_hit() -> None:
    bow = {"name": "Bow", "ec": 1, "w-att": 3, "w-pow": 3, "reach": "4+"}
    s = duel(card("A", abilities=["Buck Shot"], weapons=[bow]), at=((1, 2), (4, 2)))
    with pytest.raises(IllegalAction, match="ranged attack that hit"):
        use(s, "Buck Shot")
    s, _ = step(s, Attack(1, "Bow"), [2, 1])
    s = use(s, "Buck Shot", [2, 3])
    assert s.units[1].injuries == 2 and s.units[0].endurance == 5 - 1 - 1


@covers("Check", "Flee")
def test_check_L1654_1657_flee_and_flee_run_L1781_1786() -> None:
    s = duel(card("A", abilities=["Check"]))
    s = use(s, "Check", [9, 1], target=1)
    assert s.units[1].statuses == {"flee": 1}


@covers("Dauntless")
def test_dauntless_L1700_1701_not_affected_by_fear() -> None:
    s = duel(card("A", abilities=["Check"]), card("B", effects=["Dauntless"]))
    with pytest.raises(IllegalAction, match="Fear"):
        use(s, "Check", [9, 1], target=1)


@covers("Epic Heal")
def test_epic_heal_L1740_1742() -> None:
    s = duel(card("A", abilities=["Epic Heal"]))
    s.units[0].injuries = 3
    s = use(s, "Epic Heal")
    assert s.units[0].injuries == 1


@covers("Fortune", "Luck")
def test_fortune_L1788_1789_and_luck_forces_a_reroll_L1977_1980() -> None:
    s = duel(card("A", abilities=["Fortune"]))
    s = use(s, "Fortune")
    assert s.units[0].luck == 1
    s = duel(b=card("B"))
    s.units[1].luck = 1
    s, _ = step(s, sword(), [5])  # 5+3 hits: B may force a re-roll (the ``luck`` decision)
    assert s.stage == "luck" and s.player == 1
    s, _ = step(s, SpendLuck(True), [1])  # re-rolled to a 1: a miss
    assert s.units[1].luck == 0 and s.units[1].injuries == 0


@covers("Frighten", "Stun")
def test_frighten_L1791_1793_stuns_and_stun_recovery_L2195_2197() -> None:
    s = duel(card("A", abilities=["Frighten"]))
    s = use(s, "Frighten", target=1)
    assert s.units[1].statuses == {"stun": 1}


@covers("Gather Courage")
def test_gather_courage_L1795_1800_only_out_of_clear_lines() -> None:
    s = duel(card("A", abilities=["Gather Courage"]))
    with pytest.raises(IllegalAction, match="without cover"):
        use(s, "Gather Courage")
    s = duel(card("A", abilities=["Gather Courage"]), at=((1, 2), (3, 2)))
    s.terrain = [(2, 2, "vertical", 1)]
    s.units[0].mana = 0
    s = use(s, "Gather Courage")
    assert s.units[0].mana == 1


@covers("Haste")
def test_haste_L1820_1823_a_move_in_addition() -> None:
    s = duel(card("A", abilities=["Haste"]), at=((0, 0), (7, 5)))
    s = use(s, "Haste")
    s, _ = step(s, Move("maneuver", (0, 3), "N"))
    s, _ = step(s, Move("haste", (3, 3), "E"))
    assert s.units[0].pos == (3, 3)


@covers("Heal")
def test_heal_L1825_1826() -> None:
    s = duel(card("A", abilities=["Heal"]))
    s.units[0].injuries = 2
    s = use(s, "Heal", target=0)
    assert s.units[0].injuries == 1


@covers("Heat of Battle")
def test_heat_of_battle_L1828_1832_with_an_enemy_in_melee_reach() -> None:
    s = duel(card("A", abilities=["Heat of Battle"]))
    s.units[0].mana = 0
    s = use(s, "Heat of Battle")
    assert s.units[0].mana == 2


@covers("Mana Gift")
def test_mana_gift_L1994_1995() -> None:
    s = duel(card("A", abilities=["Mana Gift"]))
    s.units[0].mana = 2
    s = use(s, "Mana Gift", target=0)
    assert s.units[0].mana == 2  # paid 1M, recovered 1 up to its maximum


@covers("Meditate")
def test_meditate_L2008_2009() -> None:
    s = duel(card("A", abilities=["Meditate"]))
    s.units[0].mana = 1
    s = use(s, "Meditate")
    assert s.units[0].mana == 2 and s.units[0].endurance == 3


@covers("Persevere")
def test_persevere_L2056_2060_no_injury_penalties_until_next_activation() -> None:
    s = duel(card("A", abilities=["Persevere"]))
    s.units[0].injuries = 2
    s = use(s, "Persevere")
    assert s.units[0].persevere


@covers("Plan Ahead")
def test_plan_ahead_L2062_2065_sets_a_die_aside_for_an_attack() -> None:
    s = duel(card("A", abilities=["Plan Ahead"]))
    s = use(s, "Plan Ahead", [9])
    assert s.planned == [9, None]
    s, _ = step(s, sword())
    assert s.stage == "plan" and s.player == 0  # asked before the to-hit D10 is rolled
    s, ev = step(s, UsePlan(True), [1])  # the 9 replaces the to-hit roll
    assert any(e.kind == "to hit" and e.data["face"] == 9 for e in ev)
    assert s.planned == [None, None]


@covers("Pounce", "Leaping Move")
def test_pounce_L2073_2075_leaps_through_enemies() -> None:
    s = duel(card("A", abilities=["Pounce"]), at=((2, 2), (3, 2)))
    s = use(s, "Pounce", at=(4, 2), option="E")
    assert s.units[0].pos == (4, 2)


@covers("Rally")
def test_rally_L2091_2093_removes_flee() -> None:
    s = duel(card("A", abilities=["Rally"]))
    s.units[0].statuses = {"flee": 2}
    s = use(s, "Rally")
    assert s.units[0].statuses == {}


@covers("Regenerate")
def test_regenerate_L2100_2101() -> None:
    s = duel(card("A", abilities=["Regenerate"]))
    s.units[0].injuries = 1
    s = use(s, "Regenerate")
    assert s.units[0].injuries == 0


@covers("Remedy")
def test_remedy_L2103_2105_removes_one_type_of_token() -> None:
    s = duel(card("A", abilities=["Remedy"]))
    s.units[0].statuses = {"hex": 2, "stun": 1}
    s = use(s, "Remedy", target=0, option="hex")
    assert s.units[0].statuses == {"stun": 1}


@covers("Tap into Gea")
def test_tap_into_gea_L2221_2222_repeatable() -> None:
    s = duel(card("A", abilities=["Tap into Gea"]))
    s.units[0].mana = 0
    s = use(s, "Tap into Gea", [4])
    s = use(s, "Tap into Gea", [3])
    assert s.units[0].mana == 1 and s.units[0].endurance == 3


@covers("Upheaval")
def test_upheaval_L2254_2260_raises_terrain_and_removes_the_previous() -> None:
    s = duel(card("A", abilities=["Upheaval"]), at=((2, 2), (6, 2)))
    s = use(s, "Upheaval", at=(2, 3), option="impassable")
    assert (2, 3, "vertical-impassable", 2) in s.terrain


@covers("Vigorate")
def test_vigorate_L2270_2273() -> None:
    s = duel(card("A", abilities=["Vigorate"]))
    s.units[0].endurance = 1
    s = use(s, "Vigorate", target=0)
    assert s.units[0].endurance == 3


@covers("Wreck")
def test_wreck_L2286_2289_destroys_adjacent_terrain_on_8_plus() -> None:
    s = duel(card("A", abilities=["Wreck"]), at=((2, 2), (6, 2)))
    s.terrain = [(2, 3, "vertical", 1)]
    s = use(s, "Wreck", [4], at=(2, 3))  # 4 + Tuf 4 = 8
    assert s.terrain == []


# --------------------------------------------------------------------------------------------
# Reactions (L891-899)
# --------------------------------------------------------------------------------------------


def attacked(b: dict[str, Any], faces: list[int], **kw: Any) -> CollisionState:
    s = duel(card("A"), b, **kw)
    s, _ = step(s, sword(), faces)
    assert s.stage == "react" and s.player == 1
    return s


@covers("Dodge")
def test_dodge_L1727_1729_def_plus_2_before_the_roll() -> None:
    s = attacked(card("B", abilities=["Dodge"]), [])
    s, _ = step(s, React(1, "Dodge"), [3])  # 3+3 = 6 < 7: a miss
    assert s.units[1].injuries == 0 and s.units[1].endurance == 3


@covers("Decoy")
def test_decoy_L1711_1713_total_cover() -> None:
    s = attacked(card("B", abilities=["Decoy"]), [])
    s, ev = step(s, React(1, "Decoy"), [6])  # cover roll 1-6 misses
    assert any(e.kind == "cover" for e in ev)


@covers("Parry")
def test_parry_L2053_2054_att_contest_ignores_the_attack() -> None:
    s = attacked(card("B", abilities=["Parry"], stats={"att": 5}), [])
    s, ev = step(s, React(1, "Parry"), [1, 5])  # 1+0 against 5+5
    assert s.units[1].injuries == 0 and any(e.kind == "negated" for e in ev)


@covers("Deflect")
def test_deflect_L1715_1718_s_pow_contest_against_a_ranged_attack() -> None:
    bow = {"name": "Bow", "ec": 1, "w-att": 3, "w-pow": 3, "reach": "4+"}
    s = duel(
        card("A", weapons=[bow]),
        card("B", abilities=["Deflect"], stats={"s-pow": 5}),
        at=((1, 2), (4, 2)),
    )
    s, _ = step(s, Attack(1, "Bow"), [])
    s, ev = step(s, React(1, "Deflect"), [1, 5])
    assert any(e.kind == "negated" for e in ev)


@covers("Sidestep")
def test_sidestep_L2163_2169_out_of_reach_ignores_the_attack() -> None:
    s = attacked(card("B", abilities=["Sidestep"]), [])
    s, ev = step(s, React(1, "Sidestep", at=(4, 2)), [])
    assert s.units[1].pos == (4, 2) and any(e.kind == "negated" for e in ev)


@covers("Castle")
def test_castle_L1637_1639_swaps_with_an_ally() -> None:
    from tests.rulesets.collision.game.helpers import duel_setup as ds

    setup = ds(card("A"), card("B", abilities=["Castle"]))
    rosters = list(setup.rosters)
    rosters[1] = {**rosters[1], "characters": rosters[1]["characters"] + [{"card": card("C")}]}
    from warbench.play import SetupArgs

    s = placed(
        SetupArgs(tuple(rosters), setup.board, setup.options),
        {0: ((2, 2), "E"), 1: ((3, 2), "W"), 2: ((4, 2), "W")},
    )
    s, _ = step(s, sword(), [])
    s, _ = step(s, React(1, "Castle", target=2), [1])
    assert s.units[2].pos == (3, 2) and s.units[1].pos == (4, 2)


@covers("Got your Back")
def test_got_your_back_L1802_1807() -> None:
    from warbench.play import SetupArgs

    setup = duel_setup(card("A"), card("B"))
    rosters = list(setup.rosters)
    helper = card("C", abilities=["Got your Back"])
    rosters[1] = {**rosters[1], "characters": rosters[1]["characters"] + [{"card": helper}]}
    s = placed(
        SetupArgs(tuple(rosters), setup.board, setup.options),
        {0: ((2, 2), "E"), 1: ((3, 2), "W"), 2: ((3, 3), "W")},
    )
    s, _ = step(s, sword(), [])
    s, _ = step(s, React(2, "Got your Back"), [1])
    assert s.units[2].pos == (3, 2)


@covers("Look Out")
def test_look_out_L1970_1975_def_plus_2_armor_plus_1() -> None:
    from warbench.play import SetupArgs

    setup = duel_setup(card("A"), card("B"))
    rosters = list(setup.rosters)
    helper = card("C", abilities=["Look Out"])
    rosters[1] = {**rosters[1], "characters": rosters[1]["characters"] + [{"card": helper}]}
    s = placed(
        SetupArgs(tuple(rosters), setup.board, setup.options),
        {0: ((2, 2), "E"), 1: ((3, 2), "W"), 2: ((4, 3), "W")},
    )
    s, _ = step(s, sword(), [])
    s, _ = step(s, React(2, "Look Out"), [3])  # 3+3 = 6 < Def 7
    assert s.units[1].injuries == 0


@covers("Tactical Strike")
def test_tactical_strike_L2213_2219_att_plus_2_pow_plus_1() -> None:
    from warbench.play import SetupArgs

    setup = duel_setup(card("A"), card("B"))
    rosters = list(setup.rosters)
    helper = card("C", abilities=["Tactical Strike"])
    rosters[0] = {**rosters[0], "characters": rosters[0]["characters"] + [{"card": helper}]}
    s = placed(
        SetupArgs(tuple(rosters), setup.board, setup.options),
        {0: ((2, 2), "E"), 2: ((3, 2), "W"), 1: ((1, 1), "E")},
    )
    s, _ = step(s, Attack(2, "Sword"), [])
    assert s.player == 0
    s, _ = step(s, React(1, "Tactical Strike"), [0 + 1, 2])  # 1+3+2 = 6 hits; 2+4-3 = 3
    assert s.units[2].injuries == 2


@covers("Block 2", "Block 4")
def test_block_L1615_1619_armor_plus_2_or_4_for_the_hit() -> None:
    s = attacked(card("B", abilities=["Block 2", "Block 4"]), [5])
    s, _ = step(s, React(1, "Block 4"), [5])  # 5+3 = 8 against Armor 3+4 = 7 -> Injury 1
    assert s.units[1].injuries == 1 and s.units[1].endurance == 3


@covers("Mage Armor")
def test_mage_armor_L1982_1987_armor_8() -> None:
    s = attacked(card("B", abilities=["Mage Armor"]), [5])
    s, _ = step(s, React(1, "Mage Armor"), [5])  # 5+3 = 8, not above Armor 8
    assert s.units[1].injuries == 0


@covers("Power Channel")
def test_power_channel_L2083_2089_against_an_elemental_hit() -> None:
    a = card("A", weapon={"type": "Fire"})
    s = duel(a, card("B", abilities=["Power Channel"], stats={"mana": 3}))
    s.units[1].mana = 1
    s, _ = step(s, sword(), [5])
    s, _ = step(s, React(1, "Power Channel"), [5])  # 8 against Armor 7 -> Injury 1
    assert s.units[1].injuries == 1 and s.units[1].mana == 2


@covers("Adamant Form")
def test_adamant_form_L1583_1588_at_most_one_injury() -> None:
    s = attacked(card("B", abilities=["Adamant Form"]), [5])
    s, _ = step(s, React(1, "Adamant Form"), [10])  # 10+3-3 = 10 -> Injury 5, kept to 1
    assert s.units[1].injuries == 1


@covers("Contort")
def test_contort_L1686_1690_negates_a_hit() -> None:
    s = attacked(card("B", abilities=["Contort"]), [5])
    s, _ = step(s, React(1, "Contort"), [])
    assert s.units[1].injuries == 0


@covers("Majesty")
def test_majesty_L1989_1992_the_attacker_rerolls() -> None:
    s = attacked(card("B", abilities=["Majesty"]), [5])
    s, _ = step(s, React(1, "Majesty"), [1])
    assert s.units[1].injuries == 0


@covers("Shadow Hop")
def test_shadow_hop_L2132_2138_into_reserves() -> None:
    s = attacked(card("B", abilities=["Shadow Hop"]), [5])
    s, _ = step(s, React(1, "Shadow Hop"), [])
    assert s.units[1].where == "reserve"


@covers("Shrug")
def test_shrug_L2160_2161_ignores_exactly_one_injury() -> None:
    s = attacked(card("B", abilities=["Shrug"]), [5, 1])  # 1+3-3 = 1... no: 1 beats 0
    s = duel(card("A"), card("B", abilities=["Shrug"]))
    s, _ = step(s, sword(), [5, 4])  # 4+3-3 = 4 -> Injury 2: no Shrug
    assert s.units[1].injuries == 2
    s = duel(card("A"), card("B", abilities=["Shrug"]))
    s, _ = step(s, sword(), [5, 2])  # 2+3-3 = 2 -> Injury 1
    assert s.stage == "react"
    s, _ = step(s, React(1, "Shrug"), [])
    assert s.units[1].injuries == 0


@covers("Cling to Life")
def test_cling_to_life_L1673_1678_defeated_at_the_end_of_its_recovery() -> None:
    s = duel(card("A"), card("B", abilities=["Cling to Life"], stats={"tuf": 1}))
    s, _ = step(s, sword(), [5, 2])
    s, _ = step(s, React(1, "Cling to Life"), [])
    assert s.units[1].where == "board" and s.units[1].clinging


@covers("Retaliate")
def test_retaliate_L2113_2118_a_free_attack_after_no_injury() -> None:
    s = duel(card("A"), card("B", abilities=["Retaliate"]))
    s, _ = step(s, sword(), [1])  # a miss
    assert s.stage == "react"
    s, _ = step(s, React(1, "Retaliate"), [5, 4])
    assert s.units[0].injuries == 2 and s.units[1].endurance == 4


@covers("Counter Attack")
def test_counter_attack_L1692_1698_stops_the_move_and_strikes() -> None:
    s = duel(
        card("A"), card("B", abilities=["Counter Attack"], stats={"comm": 5}), at=((0, 2), (4, 2))
    )
    s, _ = step(s, Move("run", (5, 1), "E"), [])  # by (0,1) (1,1) (2,1): reach at (3,1)
    assert s.stage == "react" and s.units[0].pos == (3, 1)
    s, _ = step(s, React(1, "Counter Attack"), [1, 9, 5, 4])  # contest 1+2 / 9+5; 5+3 hits
    assert s.units[0].pos == (3, 1) and s.units[0].injuries == 2 and s.stage == "act"


@covers("Out-Maneuver")
def test_out_maneuver_L2037_2043_moves_an_activation_to_phase_3() -> None:
    from warbench.rulesets.collision.game.state import Activate

    s = duel(card("A"), card("B", abilities=["Out-Maneuver"], stats={"comm": 5}))
    s.stage, s.active = "activate", None
    s.units[0].activated = False
    s, _ = step(s, Activate(0), [])
    assert s.stage == "react"
    s, _ = step(s, React(1, "Out-Maneuver"), [])
    assert s.units[0].pile == 3 and s.active is None


@covers("Kiss of Death")
def test_kiss_of_death_L1929_1935_restores_then_slays_in_recovery() -> None:
    from warbench.play import SetupArgs
    from warbench.rulesets.collision.game.state import Activate

    setup = duel_setup(card("A"), card("B"))
    rosters = list(setup.rosters)
    kisser = card("K", abilities=["Kiss of Death"], stats={"mana": 3})
    rosters[0] = {**rosters[0], "characters": rosters[0]["characters"] + [{"card": kisser}]}
    s = placed(
        SetupArgs(tuple(rosters), setup.board, setup.options),
        {0: ((2, 2), "E"), 1: ((2, 3), "E"), 2: ((6, 2), "W")},
    )
    s.stage, s.active = "activate", None
    s.units[0].activated = False
    s.units[0].injuries = 2
    s, _ = step(s, Activate(0), [])
    s, _ = step(s, React(1, "Kiss of Death"), [])
    assert s.units[0].injuries == 0 and s.units[0].kissed
    s, _ = step(s, EndActivation(), [])
    assert s.units[0].where == "defeated"


@covers("Distract")
def test_distract_L1720_1725_negates_a_special_ability() -> None:
    s = duel(card("A", abilities=["Meditate"]), card("B", abilities=["Distract"]))
    s.units[0].mana = 0
    s, _ = step(s, UseAbility("Meditate"), [])
    s, _ = step(s, React(1, "Distract"), [])
    assert s.units[0].mana == 0 and s.units[0].endurance == 3


@covers("Trip")
def test_trip_L2248_2251_a_hit_cancels_the_ability() -> None:
    s = duel(card("A", abilities=["Meditate"]), card("B", abilities=["Trip"], stats={"att": 5}))
    s.units[0].mana = 0
    s, _ = step(s, UseAbility("Meditate"), [])
    s, _ = step(s, React(1, "Trip"), [1])  # 1+5 >= Def 5
    assert s.units[0].mana == 0


# --------------------------------------------------------------------------------------------
# Effects always on
# --------------------------------------------------------------------------------------------


@covers("Camouflage")
def test_camouflage_L1632_1633_total_cover_at_4_spaces() -> None:
    bow = {"name": "Bow", "ec": 1, "w-att": 3, "w-pow": 3, "reach": "4+"}
    s = duel(card("A", weapons=[bow]), card("B", effects=["Camouflage"]), at=((0, 2), (4, 2)))
    s, ev = step(s, Attack(1, "Bow"), [4])
    assert any(e.kind == "cover" for e in ev)


@covers("Challenge")
def test_challenge_L1650_1652_a_won_contest_stops_the_move() -> None:
    s = duel(card("A"), card("B", effects=["Challenge"], stats={"comm": 5}))
    s, _ev = step(s, Move("maneuver", (0, 2), "E"), [1, 9])
    assert s.units[0].pos == (2, 2) and s.units[0].endurance == 4


@covers("Few Stood Against Many")
def test_few_stood_against_many_L1744_1748_one_vp() -> None:
    from tests.rulesets.collision.game.helpers import game
    from warbench.rulesets.collision.game.objectives import score

    s = duel(card("A", effects=["Few Stood Against Many"]))
    s.minors = ("God's Favor", "Glorious Combat")
    vp, why = score(game(s))
    assert vp[0] >= 1 and any("Few Stood" in w for w in why)


@covers("Flame Wreath")
def test_flame_wreath_L1767_1772_burns_an_enemy_moving_adjacent() -> None:
    s = duel(card("A"), card("B", effects=["Flame Wreath"]), at=((0, 2), (4, 2)))
    s, ev = step(s, Move("maneuver", (3, 2), "E"), [2])  # 2 + Pow 2 beats Armor 3 by 1
    assert any("Fire hit" in e.text for e in ev) and s.units[0].injuries == 1


@covers(
    *[
        f"Immune to {t}"
        for t in ("Mundane", "Acid", "Cold", "Dark", "Electric", "Fire", "Light", "Magic")
    ],
    "Immune",
)
def test_immune_L1847_1886_to_the_weapon_type() -> None:
    for t in ("Mundane", "Acid", "Cold", "Dark", "Electric", "Fire", "Light", "Magic"):
        s = duel(card("A", weapon={"type": t}), card("B", effects=[f"Immune to {t}"]))
        s, ev = step(s, sword(), [])
        assert any(e.kind == "immune" for e in ev), t


@covers("Immune to Slay")
def test_immune_to_slay_L1888_1891() -> None:
    s = duel(card("A", weapon={"crit": "Slay"}), card("B", effects=["Immune to Slay"]))
    s, _ = step(s, sword(), [10, 1])
    assert s.units[1].where == "board"


@covers("Inspire Bravery")
def test_inspire_bravery_L1893_1900_immune_to_fear() -> None:
    s = duel(card("A", abilities=["Frighten"]), card("B", effects=["Inspire Bravery"]))
    with pytest.raises(IllegalAction, match="Fear"):
        use(s, "Frighten", target=1)


def _with_ally(effect: str) -> CollisionState:
    from warbench.play import SetupArgs

    setup = duel_setup(card("A"), card("B"))
    rosters = list(setup.rosters)
    ally = card("C", effects=[effect], stats={"comm": 3})
    rosters[0] = {**rosters[0], "characters": rosters[0]["characters"] + [{"card": ally}]}
    return placed(
        SetupArgs(tuple(rosters), setup.board, setup.options),
        {0: ((2, 2), "E"), 2: ((3, 2), "W"), 1: ((1, 1), "E")},
    )


@covers("Inspire Hatred")
def test_inspire_hatred_L1911_1918_att_plus_1() -> None:
    s = _with_ally("Inspire Hatred")
    s, _ = step(s, Attack(2, "Sword"), [1, 1])  # 1+3+1 = 5 hits (4 would miss)
    assert s.units[2].injuries == 1


@covers("Inspire Fortitude")
def test_inspire_fortitude_L1902_1909_armor_plus_1_for_others() -> None:
    from warbench.play import SetupArgs

    setup = duel_setup(card("A"), card("B"))
    rosters = list(setup.rosters)
    ally = card("C", effects=["Inspire Fortitude"], stats={"comm": 3})
    rosters[1] = {**rosters[1], "characters": rosters[1]["characters"] + [{"card": ally}]}
    s = placed(
        SetupArgs(tuple(rosters), setup.board, setup.options),
        {0: ((2, 2), "E"), 1: ((3, 2), "W"), 2: ((4, 3), "W")},
    )
    s, _ = step(s, sword(), [5, 1])  # 1+3 against Armor 3+1: no injury
    assert s.units[1].injuries == 0


@covers("Inspire Urgency")
def test_inspire_urgency_L1920_1927_move_plus_1() -> None:
    from tests.rulesets.collision.game.helpers import game
    from warbench.rulesets.collision.game.movement import move_value

    s = _with_ally("Inspire Urgency")
    assert move_value(game(s), s.units[0]) == 4


@covers("Levitating Move")
def test_levitating_move_L1954_1962_ignores_obstacles() -> None:
    s = duel(card("A", effects=["Levitating Move"]), at=((0, 0), (7, 5)))
    s.terrain = [(1, 0, "obstacle", 0), (2, 0, "obstacle", 0)]
    s, _ = step(s, Move("maneuver", (3, 0), "E"))  # 3 spaces, obstacles ignored
    assert s.units[0].pos == (3, 0)


@covers("Mark of the Titans")
def test_mark_of_the_titans_L2002_2006_twice_end_at_most_9() -> None:
    setup = duel_setup(card("A", effects=["Mark of the Titans"]), card("B"))
    s = RS.setup(setup.rosters, setup.board, setup.options, 0)
    assert s.units[0].endurance == 9


@covers("Multiattack")
def test_multiattack_L2023_2024_attacks_again() -> None:
    s = duel(card("A", weapon={"special": ["Multiattack"]}))
    s, _ = step(s, sword(), [1])
    s, _ = step(s, sword(), [1])
    assert s.units[0].endurance == 3
    s = duel()
    s, _ = step(s, sword(), [1])
    with pytest.raises(IllegalAction, match="already attacked"):
        step(s, sword(), [1])


@covers("Ranged")
def test_ranged_L2095_2096_att_minus_1_per_space_beyond_reach() -> None:
    w = {"name": "Sling", "ec": 1, "w-att": 3, "w-pow": 3, "reach": 2, "special": ["Ranged"]}
    s = duel(card("A", weapons=[w]), at=((0, 2), (4, 2)))
    s, ev = step(s, Attack(1, "Sling"), [3])  # 3 + 3 - 2 = 4 < 5: a miss
    assert any(e.kind == "to hit" and not e.data["hit"] for e in ev)


@covers("Recovery", "Serenity")
def test_recovery_L2098_and_serenity_L2131_mana_in_recovery() -> None:
    s = duel(card("A", effects=["Recovery", "Serenity"]))
    s.units[0].mana = 0
    s, _ = step(s, EndActivation(), [])
    assert s.units[0].mana == 2


@covers("Resist Elements 2")
def test_resist_elements_L2107_2111_armor_plus_2() -> None:
    s = duel(card("A", weapon={"type": "Fire"}), card("B", effects=["Resist Elements 2"]))
    s, _ = step(s, sword(), [5, 4])  # 4+3 against Armor 5 -> Injury 1
    assert s.units[1].injuries == 1


@covers("Sharp")
def test_sharp_L2140_2141_crits_on_9() -> None:
    s = duel(card("A", weapon={"special": ["Sharp"], "crit": "Stun"}))
    s, _ = step(s, sword(), [9, 1])
    assert s.units[1].statuses == {"stun": 1}


@covers("Shrieking Armor")
def test_shrieking_armor_L2154_2158_melee_attacker_flees_under_5() -> None:
    s = duel(card("A"), card("B", effects=["Shrieking Armor"]))
    s, _ = step(s, sword(), [5, 1, 4])
    assert s.units[0].statuses == {"flee": 1}


@covers("Skittish")
def test_skittish_L2171_flees_on_4_plus_when_injured() -> None:
    s = duel(card("A"), card("B", effects=["Skittish"]))
    s, _ = step(s, sword(), [5, 4, 4])
    assert s.units[1].statuses == {"flee": 1}


@covers("Swift Assault")
def test_swift_assault_L2206_2211_chooses_the_side() -> None:
    setup = duel_setup(card("A"), card("B", effects=["Swift Assault"]))
    s = RS.setup(setup.rosters, setup.board, setup.options, 0)
    assert s.contest_winner == 1 and s.player == 1


@covers("Unstable")
def test_unstable_L2253_a_1_hits_itself() -> None:
    s = duel(card("A", effects=["Unstable"]))
    s, ev = step(s, sword(), [1, 9])
    assert any(e.kind == "unstable" for e in ev) and s.units[0].injuries > 0


@covers("Vicious")
def test_vicious_L2269_recovers_mana_on_an_injury() -> None:
    s = duel(card("A", effects=["Vicious"]))
    s.units[0].mana = 0
    s, _ = step(s, sword(), [5, 4])
    assert s.stage == "react" and s.player == 0  # "you may recover 1 Mana"
    d = RS.pending(s)[0]
    assert d.kind == "reaction" and d.default == React(0, "Vicious")
    passed, _ = step(s, React(), [])
    assert passed.units[0].mana == 0 and passed.stage == "act"
    s, _ = step(s, React(0, "Vicious"), [])
    assert s.units[0].mana == 1 and s.stage == "act"


@covers("Voodoo")
def test_voodoo_L2275_injures_the_attacker_on_7_plus() -> None:
    s = duel(card("A"), card("B", effects=["Voodoo"]))
    s, _ = step(s, sword(), [5, 4, 7])
    assert s.units[0].injuries == 1


def test_hold_is_the_only_action_L883_889() -> None:
    s = duel()
    s, _ = step(s, Hold("N"), [])
    assert s.units[0].facing == "N" and s.active != 0


def test_every_entry_in_play_is_tested() -> None:
    missing = sorted(set(in_play()) - COVERED)
    assert missing == [], f"entries in play without a test: {missing}"
