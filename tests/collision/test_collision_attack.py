"""Rolling to hit and for injuries, the combat bonuses and penalties, exact odds against
seeded Monte Carlo (003_fc239e71486306e1.txt L914-1106)."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from tests.collision.helpers import EXAMPLES, card
from warbench.cli.app import _register, app
from warbench.kernel.errors import DiceError, RulesError
from warbench.rulesets.collision.attack import (
    Cover,
    Elevation,
    ScriptedD10,
    Situation,
    apply_injury,
    attack_profile,
    injury_level,
    resolve,
)
from warbench.rulesets.collision.odds import attack_odds, enumerate_attack, sample_attack

runner = CliRunner()
_register()


def attacker(**weapon: object) -> object:
    return card(name="A", weapon={"w-att": 3, "w-pow": 3, **weapon})


def test_003_L1099_L1106_injury_chart() -> None:
    # "The number that you beat armor by is divided by 2 and rounded up"; 1-2 Injury 1,
    # 3-4 Injury 2 ... 11-12 Injury 6, +2 -> Injury +1.
    chart = {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3, 7: 4, 8: 4, 9: 5, 10: 5, 11: 6, 12: 6, 13: 7}
    assert {b: injury_level(b) for b in chart} == chart
    assert injury_level(14) == 7 and injury_level(15) == 8
    assert injury_level(0) == injury_level(-3) == 0


def test_003_L1093_L1098_injury_replaces_or_goes_up_by_one() -> None:
    assert apply_injury(1, 3) == 3  # L1094-1095: Injury 1 hit by Injury 3 -> Injury 3
    assert apply_injury(2, 1) == 3  # L1096-1098: Injury 2 hit by Injury 1 -> Injury 3
    assert apply_injury(2, 2) == 3  # equal: up by 1
    assert apply_injury(2, 0) == 2  # no injury


def test_003_L1074_a_roll_plus_w_att_equal_to_defense_hits() -> None:
    p = attack_profile(attacker(), card(name="D", stats={"def": 8, "arm": 3}))
    # face 5 + W-Att 3 = 8 >= Def 8: hit; injury roll 1 + W-Pow 3 = 4 beats Armor 3 by 1
    r = resolve(p, ScriptedD10([5, 1]))
    assert (r.hit, r.injury) == (True, 1)
    assert resolve(p, ScriptedD10([4])).stage == "miss"


def test_003_L1087_an_injury_roll_equal_to_armor_deals_no_injury() -> None:
    p = attack_profile(attacker(), card(name="D", stats={"def": 1, "arm": 6}))
    assert resolve(p, ScriptedD10([5, 3])).stage == "no injury"  # 3 + 3 = 6, not higher
    assert resolve(p, ScriptedD10([5, 4])).injury == 1


def test_003_L1076_a_10_that_hits_is_a_crit_and_a_10_does_not_always_hit() -> None:
    p = attack_profile(attacker(crit="Pow+2"), card(name="D", stats={"def": 13, "arm": 3}))
    r = resolve(p, ScriptedD10([10, 1]))
    assert (r.hit, r.crit, r.injury) == (True, True, 2)  # 1 + 3 + 2 = 6 beats 3 by 3
    far = attack_profile(attacker(crit="Pow+2"), card(name="D", stats={"def": 14}))
    assert resolve(far, ScriptedD10([10])).stage == "miss"


def test_003_L2140_sharp_crits_on_a_9_only_if_a_9_hits() -> None:
    sharp = attacker(special=["Sharp"], crit="Pow+2")
    p = attack_profile(sharp, card(name="D", stats={"def": 12}))
    assert resolve(p, ScriptedD10([9, 1])).crit
    hard = attack_profile(sharp, card(name="D", stats={"def": 13}))
    assert resolve(hard, ScriptedD10([9])).stage == "miss"
    assert resolve(hard, ScriptedD10([10, 1])).crit


def test_003_L2173_crit_slay_defeats_unless_immune_to_slay() -> None:
    slayer = attacker(crit="Slay")
    p = attack_profile(slayer, card(name="D", stats={"def": 5}))
    r = resolve(p, ScriptedD10([10]))
    assert (r.stage, r.defeated) == ("slay", True)
    immune = attack_profile(slayer, card(name="D", stats={"def": 5}, effects=["Immune to Slay"]))
    assert resolve(immune, ScriptedD10([10, 1])).stage == "injury"


@pytest.mark.parametrize(("cover", "misses"), [(Cover.PARTIAL, 3), (Cover.TOTAL, 6)])
def test_003_L925_L931_cover_roll_misses(cover: Cover, misses: int) -> None:
    p = attack_profile(attacker(), card(name="D", stats={"def": 1}), None, Situation(cover=cover))
    assert resolve(p, ScriptedD10([misses])).stage == "cover"
    assert resolve(p, ScriptedD10([misses + 1, 5, 5])).hit
    assert attack_odds(p).cover_miss == Fraction(misses, 10)


def test_003_L1050_L1056_minus_1_per_space_beyond_a_ranged_reach() -> None:
    bow = attacker(reach="4+")
    p = attack_profile(bow, card(name="D"), None, Situation(beyond_reach=2))
    assert p.w_att == 1
    with pytest.raises(RulesError, match="not a ranged weapon"):
        attack_profile(attacker(), card(name="D"), None, Situation(beyond_reach=1))


def test_003_L1058_L1065_back_facing_gives_plus_1_w_att_and_pow() -> None:
    p = attack_profile(attacker(), card(name="D"), None, Situation(back=True))
    assert (p.w_att, p.w_pow) == (4, 4)


def test_003_L1035_L1042_injuries_lower_att_def_and_armor() -> None:
    d = card(name="D", stats={"def": 6, "arm": 4})
    p = attack_profile(attacker(), d, None, Situation(attacker_injuries=1, defender_injuries=2))
    assert (p.w_att, p.defense, p.armor, p.current_injury) == (2, 4, 2, 2)


def test_003_L1044_L1048_hexed_is_minus_2_att_and_def() -> None:
    d = card(name="D", stats={"def": 6})
    p = attack_profile(attacker(), d, None, Situation(attacker_hexed=True, defender_hexed=True))
    assert (p.w_att, p.defense) == (1, 4)


def test_003_L1015_L1021_higher_elevation_plus_1() -> None:
    d = card(name="D", stats={"def": 6})
    up = attack_profile(attacker(), d, None, Situation(elevation=Elevation.HIGHER))
    down = attack_profile(attacker(), d, None, Situation(elevation=Elevation.LOWER))
    assert (up.w_att, up.defense) == (4, 6)
    assert (down.w_att, down.defense) == (3, 7)  # docs/rulings.md Collision 2


def test_003_L1847_immune_to_the_weapon_type_and_L2107_resist_elements() -> None:
    fire = attacker(type="Fire")
    immune = attack_profile(fire, card(name="D", effects=["Immune to Fire"]))
    assert attack_odds(immune).immune == 1
    resist = attack_profile(fire, card(name="D", stats={"arm": 3}, effects=["Resist Elements 2"]))
    assert resist.armor == 5


def test_003_L352_defeated_when_injury_reaches_toughness() -> None:
    p = attack_profile(attacker(), card(name="D", stats={"def": 1, "arm": 0, "tuf": 3}))
    r = resolve(p, ScriptedD10([5, 2]))  # 2 + 3 = 5 beats 0 by 5: Injury 3
    assert (r.injury_after, r.defeated) == (3, True)


def test_scripted_d10_refuses_bad_faces_and_running_out() -> None:
    with pytest.raises(DiceError):
        ScriptedD10([11])
    with pytest.raises(DiceError, match="ran out"):
        ScriptedD10([])("to hit")


def test_exact_hit_chance_is_the_closed_form() -> None:
    for w_att in range(-2, 12):
        for defense in range(0, 14):
            p = attack_profile(attacker(**{"w-att": w_att}), card(name="D", stats={"def": defense}))
            need = defense - w_att  # lowest face that hits
            expected = Fraction(min(10, max(0, 11 - max(1, need))), 10)
            assert attack_odds(p).hit == expected, (w_att, defense)


SITUATIONS = [
    ({}, {}, Situation()),
    ({"crit": "Pow+2"}, {"def": 7, "arm": 4}, Situation(cover=Cover.PARTIAL, back=True)),
    (
        {"special": ["Sharp"], "crit": "Stun, Pow+3", "reach": "3+"},
        {"def": 8, "tuf": 3},
        Situation(beyond_reach=1, defender_injuries=1, cover=Cover.TOTAL),
    ),
    (
        {"crit": "Slay", "w-pow": 6},
        {"def": 9, "arm": 5, "tuf": 5},
        Situation(elevation=Elevation.HIGHER, defender_injuries=2, attacker_hexed=True),
    ),
]


@pytest.mark.parametrize(("weapon", "stats", "situation"), SITUATIONS)
def test_exact_odds_agree_with_seeded_monte_carlo(
    weapon: dict[str, object], stats: dict[str, int], situation: Situation
) -> None:
    p = attack_profile(attacker(**weapon), card(name="D", stats=stats), None, situation)
    outcomes = enumerate_attack(p)
    assert sum(pr for _, pr in outcomes) == 1
    exact = attack_odds(p)
    trials = 20_000
    sample = sample_attack(p, trials, seed=17)

    def check(expected: Fraction, hits: int) -> None:
        q = float(expected)
        sigma = math.sqrt(max(q * (1 - q), 1e-9) / trials)
        assert abs(hits / trials - q) <= 4.5 * sigma + 1e-9

    check(exact.hit, sum(r.hit for r in sample))
    check(exact.crit, sum(r.crit for r in sample))
    check(exact.defeated, sum(r.defeated for r in sample))
    for level, pr in exact.injury.items():
        check(pr, sum(r.injury == level for r in sample))


def test_cli_odds_json_and_refusals() -> None:
    result = runner.invoke(
        app,
        [
            "collision",
            "odds",
            str(EXAMPLES / "skeleton_archer.yaml"),
            str(EXAMPLES / "rhona.yaml"),
            "--weapon",
            "bone bow",
            "--beyond",
            "2",
            "--cover",
            "partial",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    # W-Att 3 - 2 = 1 against Def 6: faces 5-10 hit (6/10), after the cover roll (7/10)
    assert data["hit"]["exact"] == "21/50"
    assert data["crit"]["exact"] == "7/50"  # Sharp: 9 and 10
    bad = runner.invoke(
        app,
        [
            "collision",
            "odds",
            str(EXAMPLES / "rhona.yaml"),
            str(EXAMPLES / "virgil.yaml"),
            "--beyond",
            "1",
        ],
    )
    assert bad.exit_code == 2 and "not a ranged weapon" in bad.output
    typo = runner.invoke(
        app,
        [
            "collision",
            "odds",
            str(EXAMPLES / "rhona.yaml"),
            str(EXAMPLES / "virgil.yaml"),
            "--weapon",
            "Broadaxe",
        ],
    )
    assert typo.exit_code == 2 and "did you mean 'Broadax'" in typo.output
    cover = runner.invoke(
        app,
        [
            "collision",
            "odds",
            str(EXAMPLES / "rhona.yaml"),
            str(EXAMPLES / "virgil.yaml"),
            "--cover",
            "half",
        ],
    )
    assert cover.exit_code == 2 and "none, partial, total" in cover.output


def test_003_L2077_power_attack_is_w_att_minus_1_w_pow_plus_2() -> None:
    a = card(name="A", weapon={"w-att": 3, "w-pow": 3}, abilities=["Power Attack"])
    p = attack_profile(a, card(name="D"), special="power attack")
    assert (p.w_att, p.w_pow) == (2, 5)
    assert [m.rule for m in p.modifiers] == ["003_fc239e71486306e1.txt L2077-2081"] * 2


def test_003_L2182_snipe_ignores_partial_cover_and_adds_crit_pow_2() -> None:
    a = card(name="A", weapon={"reach": "4+", "crit": "Pow+1"}, abilities=["Snipe"])
    partial = Situation(cover=Cover.PARTIAL)
    p = attack_profile(a, card(name="D"), None, partial, special="Snipe")
    assert (p.cover, p.crit_pow) == (Cover.NONE, 3)
    total = attack_profile(a, card(name="D"), None, Situation(cover=Cover.TOTAL), special="Snipe")
    assert total.cover is Cover.TOTAL


def test_003_L1598_backstab_in_the_rear_facing_always_crits() -> None:
    a = card(name="A", weapon={"crit": "Pow+2"}, abilities=["Backstab"])
    d = card(name="D", stats={"def": 5})
    rear = attack_odds(attack_profile(a, d, None, Situation(back=True), special="Backstab"))
    assert rear.crit == rear.hit == 1
    front = attack_odds(attack_profile(a, d, None, Situation(), special="Backstab"))
    assert front.crit == Fraction(1, 10)


def test_003_L1750_finishing_blow_slays_on_hit_two_injuries_from_defeat() -> None:
    a = card(name="A", abilities=["Finishing Blow"])
    d = card(name="D", stats={"def": 5, "tuf": 4})
    ok = Situation(defender_injuries=2)
    odds = attack_odds(attack_profile(a, d, None, ok, special="Finishing Blow"))
    assert odds.slay == odds.hit == odds.defeated
    with pytest.raises(RulesError, match="2 injuries away from defeat; D is 4 away"):
        attack_profile(a, d, None, Situation(), special="Finishing Blow")


def test_003_L872_special_attack_must_be_on_the_card_and_computable() -> None:
    with pytest.raises(RulesError, match="A does not have Power Attack"):
        attack_profile(card(name="A"), card(name="D"), special="Power Attack")
    a = card(name="A", abilities=["Meditate"])
    with pytest.raises(RulesError, match="not a special weapon attack"):
        attack_profile(a, card(name="D"), special="Meditate")


@pytest.mark.parametrize(
    ("reaction", "defense", "armor"),
    [("Block 2", 5, 5), ("Block 4", 5, 7), ("Dodge", 7, 3), ("Mage Armor", 5, 8)],
)
def test_003_reactions_change_def_and_armor(reaction: str, defense: int, armor: int) -> None:
    # L1615-1619 Block, L1727-1729 Dodge, L1982-1987 Mage Armor
    d = card(name="D", stats={"def": 5, "arm": 3}, abilities=[reaction])
    p = attack_profile(attacker(), d, reaction=reaction)
    assert (p.defense, p.armor) == (defense, armor)


def test_003_L1986_mage_armor_includes_injury_penalties() -> None:
    d = card(name="D", stats={"arm": 3}, abilities=["Mage Armor"])
    p = attack_profile(attacker(), d, None, Situation(defender_injuries=2), reaction="Mage Armor")
    assert p.armor == 6


def test_003_L2083_power_channel_only_against_elemental_or_magic() -> None:
    d = card(name="D", stats={"arm": 3}, abilities=["Power Channel"])
    assert attack_profile(attacker(), d, reaction="Power Channel").armor == 3
    assert attack_profile(attacker(type="Magic"), d, reaction="Power Channel").armor == 7


def test_003_L1711_decoy_gives_total_cover() -> None:
    d = card(name="D", abilities=["Decoy"])
    assert attack_odds(attack_profile(attacker(), d, reaction="Decoy")).cover_miss == Fraction(
        6, 10
    )


def test_003_L1583_adamant_form_raises_injury_by_at_most_1() -> None:
    d = card(name="D", stats={"def": 1, "arm": 0, "tuf": 9}, abilities=["Adamant Form"])
    p = attack_profile(attacker(), d, None, Situation(defender_injuries=1), reaction="Adamant Form")
    r = resolve(p, ScriptedD10([5, 10]))  # 10 + 3 - (0 - 1) = 14: Injury 7
    assert (r.injury, r.injury_after) == (7, 2)


def test_003_L899_a_hexed_character_cannot_react() -> None:
    d = card(name="D", abilities=["Dodge"])
    with pytest.raises(RulesError, match="hexed and cannot use reactions"):
        attack_profile(attacker(), d, None, Situation(defender_hexed=True), reaction="Dodge")


def test_cli_odds_with_special_and_reaction() -> None:
    result = runner.invoke(
        app,
        [
            "collision",
            "odds",
            str(EXAMPLES / "rhona.yaml"),
            str(EXAMPLES / "virgil.yaml"),
            "--special",
            "Power Attack",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["w_att"], data["w_pow"]) == (3, 7)
    refused = runner.invoke(
        app,
        [
            "collision",
            "odds",
            str(EXAMPLES / "rhona.yaml"),
            str(EXAMPLES / "virgil.yaml"),
            "--reaction",
            "Block 2",
        ],
    )
    assert refused.exit_code == 2 and "Virgil does not have Block 2" in refused.output


def test_special_attack_and_reaction_numbers_are_the_glossarys() -> None:
    from warbench.rulesets.collision.attack import DEFENCE_REACTIONS, SPECIAL_ATTACKS
    from warbench.rulesets.collision.glossary import EntryKind, Glossary

    glossary = Glossary.load()
    for sa in SPECIAL_ATTACKS.values():
        e = glossary.get(sa.name)
        assert e.kind is EntryKind.ACTION and e.source == sa.rule
        assert e.parameters.get("attack")
        if sa.w_att:
            assert f"Att{sa.w_att:+d}" in e.text, sa.name
        if sa.w_pow:
            assert f"Pow{sa.w_pow:+d}" in e.text, sa.name
        if sa.crit_pow:
            assert f"rit Pow+{sa.crit_pow}" in e.text, sa.name
    for r in DEFENCE_REACTIONS.values():
        e = glossary.get(r.name)
        assert e.kind is EntryKind.REACTION and e.source == r.rule
        if r.armor:
            assert f"Armor+{r.armor}" in e.text, r.name
        if r.defense:
            assert f"Def+{r.defense}" in e.text, r.name
        if r.armor_set_to:
            assert f"armor is {r.armor_set_to}" in e.text, r.name


def test_odds_ruleset_collision_is_the_collision_odds_command() -> None:
    from warbench.cli.app import ruleset_alias

    argv = ["odds", "--ruleset", "collision", "a.yaml", "b.yaml", "--back"]
    assert ruleset_alias(argv) == ["collision", "odds", "a.yaml", "b.yaml", "--back"]
