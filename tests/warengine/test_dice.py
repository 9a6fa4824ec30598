"""XkY rolls and exact odds (004_f4ea5693af0644ce.txt core rules: Attack, Hero Points, Rout)."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import product

import numpy as np
import pytest

from warbench.kernel.dice import ScriptedDice, SeededDice
from warbench.kernel.errors import ProfileError
from warbench.rulesets.warengine.dice import (
    Adjustment,
    FaceRule,
    XkY,
    attack_faces,
    attack_odds,
    defense_faces,
    distribution,
    massed,
    roll_xky,
    rout_odds,
)


def brute(pool: XkY, rule: FaceRule) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for faces in product(range(1, 7), repeat=pool.rolled):
        v = sum(sorted((rule.read(f) for f in faces), reverse=True)[: pool.kept])
        out[v] = out.get(v, Fraction(0)) + Fraction(1, 6**pool.rolled)
    return out


def test_004_attack_xky_keep_best_example() -> None:
    # 004_f4ea5693af0644ce.txt Attack (line 487): Df 4k3 rolls 6, 4, 3, 1 and keeps 13
    r = roll_xky(ScriptedDice([6, 4, 3, 1]), XkY.parse("4k3"))
    assert r.kept == (6, 4, 3) and r.total == 13


def test_004_hero_points_example_lt_wright() -> None:
    # 004_f4ea5693af0644ce.txt Figures with Hero Points (line 495): 4k4 rolls 6,4,2,1 = 13;
    # 5k4 rolls 6,6,5,3,2 = 20; 7 Hero Points needed to survive
    d = roll_xky(ScriptedDice([6, 4, 2, 1]), XkY(4, 4)).total
    a = roll_xky(ScriptedDice([6, 6, 5, 3, 2]), XkY(5, 4)).total
    assert (a, d, a - d) == (20, 13, 7)
    odds = attack_odds("5k4", "4k4")
    assert odds.p_kill_with(0, 10) < odds.p_kill


def test_004_attack_adjustments_light_cover_and_five_kept() -> None:
    # 004_f4ea5693af0644ce.txt Attack (line 487): 4k3 in light cover (+1k1) is 5k4; kept dice
    # never more than five
    assert XkY(4, 3).adjusted(Adjustment.parse("+1k1")) == XkY(5, 4)
    assert XkY(5, 5).adjusted(Adjustment.parse("+2k2")) == XkY(7, 5)
    assert XkY(3, 2).adjusted(Adjustment.parse("-0k1")) == XkY(3, 1)
    assert XkY(1, 1).adjusted(Adjustment.parse("-1k1")) == XkY(1, 1)  # ruling: floor 1k1
    assert str(Adjustment.parse("-0k1")) == "-0k1"


def test_004_uncontrolled_sixes_count_as_fives_example() -> None:
    # 004_f4ea5693af0644ce.txt Check Control (line 393): 6, 4, 2 counts 11 instead of 12
    r = roll_xky(ScriptedDice([6, 4, 2]), XkY(3, 3), attack_faces(uncontrolled=True))
    assert r.total == 11


def test_004_defense_type_m_and_h_and_armor_piercing() -> None:
    # 004_f4ea5693af0644ce.txt Defense Adjustments (lines 484-485); Armor Piercing (line 1753)
    assert defense_faces(defender_type="M") == FaceRule(2, 6)
    assert defense_faces(defender_type="H") == FaceRule(3, 6)
    assert defense_faces(defender_type="H", armor_piercing=True) == FaceRule(1, 6)
    assert roll_xky(ScriptedDice([1, 2]), XkY(2, 2), defense_faces(defender_type="H")).total == 6
    with pytest.raises(ProfileError):
        defense_faces(defender_type="Q")


def test_004_weapon_tweaks_extra_bite_and_charging_weapon() -> None:
    # 004_f4ea5693af0644ce.txt Weapon Tweaks: Extra Bite (1769), Charging Weapon (1759)
    assert attack_faces(extra_bite=True) == FaceRule(2, 6)
    assert attack_faces(charging_weapon=True, uncontrolled=True) == FaceRule(3, 5)


def test_004_massed_attacks_examples() -> None:
    # 004_f4ea5693af0644ce.txt Massed Attacks (lines 555-559): 3k2 + three helpers = 6k4,
    # 3k3 + three helpers = 6k5; Mob Mentality +2k1 each up to five kept (line 1153)
    assert massed(XkY(3, 2), 3) == XkY(6, 4)
    assert massed(XkY(3, 3), 3) == XkY(6, 5)
    assert massed(XkY(1, 1), 4) == XkY(5, 2)
    assert massed(XkY(2, 1), 4, mob_mentality=True) == XkY(10, 5)


@pytest.mark.parametrize("pool", ["1k1", "2k1", "3k2", "4k3", "5k4", "4k4"])
@pytest.mark.parametrize("rule", [FaceRule(), FaceRule(2, 6), FaceRule(3, 5), FaceRule(1, 5)])
def test_004_attack_exact_distribution_matches_brute_force(pool: str, rule: FaceRule) -> None:
    # 004_f4ea5693af0644ce.txt Attack (line 487): keep-highest totals; icepool engine checked
    # against a brute-force enumeration of every face combination
    assert distribution(XkY.parse(pool), rule) == brute(XkY.parse(pool), rule)


def test_004_attack_strictly_higher_kills() -> None:
    # 004_f4ea5693af0644ce.txt Attack (line 471): higher kills, equal or lower survives
    o = attack_odds("1k1", "1k1")
    assert o.p_kill == Fraction(15, 36)
    assert o.difference[0] == Fraction(6, 36)


def test_004_hero_points_attacker_first_then_defender() -> None:
    # 004_f4ea5693af0644ce.txt Figures with Hero Points (lines 493-497): kill iff
    # attack + attacker HP > defense + defender HP
    o = attack_odds("4k4", "4k4")
    assert o.p_kill_with(6, 3) == o.p_kill_with(3, 0)
    assert sum(o.survive_needing().values()) == 1
    assert sum(o.kill_needing().values()) == 1
    assert o.survive_needing()[0] == 1 - o.p_kill
    assert o.kill_needing()[0] == o.p_kill


def test_004_attack_exact_odds_match_monte_carlo() -> None:
    # 004_f4ea5693af0644ce.txt Attack (lines 471, 484, 487): exact odds within 5 sigma of
    # 200 000 seeded rolls (uncontrolled 5k4 against a type M 3k2 defender)
    n = 200_000
    a_rule, d_rule = attack_faces(uncontrolled=True), defense_faces(defender_type="M")
    exact = float(attack_odds("5k4", "3k2", attack_faces=a_rule, defense_faces=d_rule).p_kill)
    dice = SeededDice(2024)
    a = np.clip(dice.d6_array(5 * n, "attack").reshape(n, 5), a_rule.floor, a_rule.cap)
    d = np.clip(dice.d6_array(3 * n, "defense").reshape(n, 3), d_rule.floor, d_rule.cap)
    a_tot = np.sort(a, axis=1)[:, -4:].sum(axis=1)
    d_tot = np.sort(d, axis=1)[:, -2:].sum(axis=1)
    observed = float((a_tot > d_tot).mean())
    sigma = math.sqrt(exact * (1 - exact) / n)
    assert abs(observed - exact) < 5 * sigma


def test_004_rout_test_ten_or_more() -> None:
    # 004_f4ea5693af0644ce.txt Rout (lines 613-615): the Mental roll holds on 10 or more;
    # uncontrolled figures read sixes as fives; Automatic Mental always holds
    assert rout_odds("2k2") == Fraction(6, 36)
    assert rout_odds("2k2", attack_faces(uncontrolled=True)) == Fraction(4, 36)  # 5s and 6s
    assert rout_odds("A") == 1
    assert rout_odds("4k3", None, Adjustment.parse("+1k0")) > rout_odds("4k3")


def test_004_xky_parse_errors_name_what_is_allowed() -> None:
    # 004_f4ea5693af0644ce.txt Attack (line 487): XkY values
    with pytest.raises(ProfileError, match="allowed"):
        XkY.parse("4d3")
    with pytest.raises(ProfileError):
        XkY.parse("2k3")
