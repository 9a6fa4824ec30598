"""The dice service (Core Rules 001_d3f5e425c5e1196d.txt §1.4; Perks 000_94ecc6a4c74d351b.txt
§12.2 tests, §12.3 Scatter Arrow)."""

from __future__ import annotations

from fractions import Fraction

import icepool
import pytest

from warbench.kernel.dice import (
    BatchRollEvent,
    DiceExpr,
    RollEvent,
    ScriptedDice,
    SeededDice,
    TestKind,
    enumerate_outcomes,
)
from warbench.kernel.errors import DiceError, EnumerationTooLarge


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("D6", "D6"), ("d3", "D3"), ("D2", "D2"), ("2D6", "2D6"), ("3d6+1", "3D6+1"),
     ("2D6x3", "2D6x3"), ("4", "4"), ("D6-1", "D6-1")],
)  # fmt: skip
def test_dice_expression_round_trip(text: str, canonical: str) -> None:
    expr = DiceExpr.parse(text)
    assert str(expr) == canonical
    assert DiceExpr.parse(str(expr)) == expr


@pytest.mark.parametrize("bad", ["", "D7", "2Q6", "D", "0D6", "x3"])
def test_bad_dice_expression_names_allowed_forms(bad: str) -> None:
    with pytest.raises(DiceError, match=r"allowed|1 to 50"):
        DiceExpr.parse(bad)


def test_s1_4_d3_is_a_d6_divided_by_two_rounded_up() -> None:
    assert DiceExpr.parse("D3").distribution() == {
        1: Fraction(1, 3),
        2: Fraction(1, 3),
        3: Fraction(1, 3),
    }
    dice = ScriptedDice([1, 2, 3, 4, 5, 6])
    assert [dice.d3() for _ in range(6)] == [1, 1, 2, 2, 3, 3]


def test_s1_4_d2_is_a_d6_divided_by_three_rounded_up() -> None:
    dice = ScriptedDice([1, 2, 3, 4, 5, 6])
    assert [dice.d2() for _ in range(6)] == [1, 1, 1, 2, 2, 2]


@pytest.mark.parametrize("text", ["2D6", "3D6", "D3", "2D6x3", "D6+1"])
def test_distributions_match_icepool(text: str) -> None:
    expr = DiceExpr.parse(text)
    base = {6: icepool.d6, 3: icepool.d6.map(lambda f: (f + 1) // 2)}[expr.sides]
    die = ((expr.count @ base) + expr.bonus) * expr.multiplier
    mine = expr.distribution()
    assert set(mine) == set(die.outcomes())
    for v, p in mine.items():
        assert float(p) == pytest.approx(float(die.probability(v)))


def test_s1_4_reroll_failed_or_successful_never_both() -> None:
    dice = ScriptedDice([1, 4, 6, 2, 5])  # 3 dice needing 4+: the 1 is rerolled to 2... no
    hits, faces = dice.roll_target(3, 4, reroll="failed")
    assert faces == [2, 4, 6] and hits == 2
    dice = ScriptedDice([5, 1, 6, 1, 3])
    hits, faces = dice.roll_target(3, 4, reroll="successful")
    assert faces == [1, 1, 3] and hits == 0
    with pytest.raises(DiceError, match="allowed"):
        ScriptedDice([1]).roll_target(1, 4, reroll="both")


def test_s1_4_roll_off_rerolls_ties_among_the_top_players_only() -> None:
    # A 5, B 5, C 2: A and B reroll; A 3, B 6 -> B.
    dice = ScriptedDice([5, 5, 2, 3, 6])
    assert dice.roll_off(["A", "B", "C"]) == "B"
    assert dice.remaining == 0


def test_s12_3_scatter_arrow_one_or_six_is_a_hit() -> None:
    for arrow in (1, 6):
        s = ScriptedDice([arrow, 3, 4]).scatter()
        assert s.hit and s.distance == 0


def test_s12_3_scatter_distance_is_the_total_of_the_d6_rolled_with_it() -> None:
    s = ScriptedDice([3, 3, 2, 1, 1]).scatter()  # arrow 3, 2D6 = 3 + 2, direction from 1,1
    assert not s.hit
    assert s.distance == 5
    assert s.direction is not None


def test_s12_3_scatter_hit_chance_is_one_third() -> None:
    def prog(d: object) -> bool:
        assert isinstance(d, ScriptedDice | object)
        return d.scatter(distance_dice=1).hit  # type: ignore[attr-defined]

    outcomes = enumerate_outcomes(prog).outcomes
    assert sum(p for hit, p in outcomes if hit) == pytest.approx(1 / 3)


def test_s12_2_mastery_and_skill_tests_pass_on_4_plus_and_modifiers_move_it() -> None:
    assert ScriptedDice([4]).test(TestKind.MASTERY).passed
    assert not ScriptedDice([3]).test(TestKind.SKILL).passed
    # Resist (-1): "a 4+ Mastery Test passes on a 5+ instead"
    assert not ScriptedDice([4]).test(TestKind.MASTERY, modifier=-1).passed
    assert ScriptedDice([3]).test(TestKind.MASTERY, modifier=+1).passed


def test_s12_2_aether_test_nine_or_lower_two_doubles_twelve_hurts() -> None:
    t = ScriptedDice([1, 1]).test(TestKind.AETHER)
    assert t.passed and t.doubled and not t.backlash
    t = ScriptedDice([4, 5]).test(TestKind.AETHER)
    assert t.passed and not t.doubled
    t = ScriptedDice([5, 5]).test(TestKind.AETHER)
    assert not t.passed
    t = ScriptedDice([6, 6]).test(TestKind.AETHER)
    assert not t.passed and t.backlash


def _aether(d1: int, d2: int, modifier: int) -> tuple[int, bool, bool, bool]:
    t = ScriptedDice([d1, d2]).test(TestKind.AETHER, modifier)
    return t.counts_as, t.passed, t.doubled, t.backlash


def test_s12_2_aether_resist_i_two_counts_as_three_eleven_counts_as_twelve() -> None:
    # 000_94ecc6a4c74d351b.txt L1687-1689 (Resist I, -1): "require 8 or less to succeed, also
    # causing a result of 2 to count as 3, and a result of 11 to count as 12"
    assert _aether(1, 1, -1) == (3, True, False, False)  # a natural 2 no longer doubles
    assert _aether(4, 4, -1) == (9, True, False, False)  # 8 passes
    assert _aether(4, 5, -1) == (10, False, False, False)  # 9 fails
    assert _aether(5, 6, -1) == (12, False, False, True)  # 11: D6 HP Loss to the User
    assert _aether(6, 6, -1) == (12, False, False, True)


def test_s12_2_aether_resist_ii_minus_two() -> None:
    # L1699 (Resist II: as Resist I with a -2 Dice Modifier): 2 counts as 4, 10 and 11 as 12
    assert _aether(1, 1, -2) == (4, True, False, False)
    assert _aether(3, 4, -2) == (9, True, False, False)
    assert _aether(4, 6, -2) == (12, False, False, True)


def test_s12_2_aether_fugue_two_counts_as_five_nine_to_eleven_count_as_twelve() -> None:
    # 000_94ecc6a4c74d351b.txt L2724-2725 (Fugue, -3): "requiring a total of 6 or less to
    # succeed, causing a result of 2 to count as 5 and a result of 9, 10 or 11 to count as 12"
    assert _aether(1, 1, -3) == (5, True, False, False)
    assert _aether(3, 3, -3) == (9, True, False, False)  # 6 passes
    assert _aether(3, 4, -3) == (10, False, False, False)  # 7 fails
    for d1, d2 in ((4, 5), (5, 5), (5, 6)):
        assert _aether(d1, d2, -3) == (12, False, False, True)


def test_s12_2_aether_plus_one_counts_one_lower_ruling_34() -> None:
    # docs/rulings.md 34: +1 passes on 10 or lower; the same "count as" reading makes a 3 count
    # as 2 (doubled) and a 12 count as 11 (no backlash)
    assert _aether(1, 2, +1) == (2, True, True, False)
    assert _aether(5, 5, +1) == (9, True, False, False)
    assert _aether(6, 6, +1) == (11, False, False, False)


def test_seeded_dice_record_their_seed_and_replay() -> None:
    a = SeededDice()
    seq = [a.d6() for _ in range(20)]
    b = SeededDice(a.seed)
    assert [b.d6() for _ in range(20)] == seq


def test_every_roll_is_an_event() -> None:
    dice = SeededDice(3)
    dice.roll("2D6", "test roll")
    dice.d6_array(10, "batch")
    assert isinstance(dice.log[0], RollEvent) and dice.log[0].label == "test roll"
    assert isinstance(dice.log[1], BatchRollEvent) and dice.log[1].count == 10


def test_scripted_dice_exhausted_is_a_clear_error() -> None:
    dice = ScriptedDice([3])
    dice.d6()
    with pytest.raises(DiceError, match="exhausted"):
        dice.d6("Armour Save")
    with pytest.raises(DiceError, match="1 to 6"):
        ScriptedDice([7])


def test_enumerate_outcomes_exact_probabilities() -> None:
    result = enumerate_outcomes(lambda d: d.roll("D3") + d.roll("D6"))
    dist: dict[int, float] = {}
    for v, p in result.outcomes:
        dist[v] = dist.get(v, 0.0) + p
    assert result.total_probability == pytest.approx(1.0)
    assert dist[2] == pytest.approx(1 / 18)
    assert dist[9] == pytest.approx(1 / 18)


def test_enumerate_outcomes_refuses_to_explode() -> None:
    with pytest.raises(EnumerationTooLarge):
        enumerate_outcomes(lambda d: sum(d.roll("2D6") for _ in range(6)), max_paths=1000)


def test_seeded_choices_repeat_for_a_seed_and_record_it() -> None:
    from warbench.kernel.dice import SeededChoices

    a, b = SeededChoices(11), SeededChoices(11)
    items = list(range(20))
    xs, ys = items[:], items[:]
    a.shuffle(xs)
    b.shuffle(ys)
    assert xs == ys and sorted(xs) == items and a.seed == 11
    assert a.choice("abc") == b.choice("abc") and 0 <= a.random() < 1
    with pytest.raises(DiceError):
        a.choice([])


def test_s1_4_reroll_chosen_faces_once_and_accept_the_new_result() -> None:
    # 001_d3f5e425c5e1196d.txt L327-329: "You must accept the new result, even if it is worse"
    dice = ScriptedDice([1, 5, 2, 1] + [1, 6])
    faces = dice.roll_dice(4)
    assert faces == [1, 5, 2, 1]
    assert dice.reroll_faces(faces, {1}) == [1, 5, 2, 6]  # the new 1 stands: rerolled once
    assert dice.remaining == 0
    assert [e.label for e in dice.log] == ["dice", "reroll"]


def test_dice_generator_pools_are_bigger_than_profile_expressions() -> None:
    with pytest.raises(DiceError, match="1 to 50"):
        DiceExpr.parse("51D6")
    assert DiceExpr.parse("10000D6", max_count=100_000).count == 10_000
