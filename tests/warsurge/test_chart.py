"""The Attack Dice Chart, all 320 printed cells (001_d3f5e425c5e1196d.txt §5.7)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from warbench.rulesets.warsurge.chart import AttackRequirement, attack_requirement

PRINTED = Path(__file__).parent.parent / "data" / "attack_dice_chart_printed.txt"


def printed_cells() -> list[tuple[int, int, str]]:
    lines = PRINTED.read_text().splitlines()
    header = lines[0].split()
    assert header == [*map(str, range(15)), "15+"]
    cells = []
    for line in lines[1:]:
        tokens = line.split()
        power = int(tokens[0].rstrip("+"))
        assert len(tokens) == 17, line
        for defence, cell in enumerate(tokens[1:]):
            cells.append((power, defence, cell))
    return cells


def test_s5_7_printed_chart_has_320_cells() -> None:
    assert len(printed_cells()) == 320


@pytest.mark.parametrize(("power", "defence", "cell"), printed_cells())
def test_s5_7_chart_cell(power: int, defence: int, cell: str) -> None:
    req = attack_requirement(power, defence)
    assert req is not None
    assert str(req) == cell
    assert AttackRequirement.parse(cell) == req


def test_s5_7_maximum_power_and_defence_clamp() -> None:
    assert attack_requirement(21, 0) == attack_requirement(20, 0)
    assert attack_requirement(5, 17) == attack_requirement(5, 15)


def test_s5_7_quick_formula_examples() -> None:
    assert str(attack_requirement(5, 5)) == "4+"
    assert str(attack_requirement(5, 4)) == "3+"
    assert str(attack_requirement(5, 7)) == "6+"


def test_s1_6_power_zero_cannot_damage() -> None:
    assert attack_requirement(0, 0) is None


def test_s5_7_six_slash_five_example_probability() -> None:
    # Power 2 vs Defence 8 is 6/5+: a 6 followed by a reroll of 5+.
    req = attack_requirement(2, 8)
    assert str(req) == "6/5"
    assert req is not None and req.probability == Fraction(1, 6) * Fraction(2, 6)


def test_s5_7_dice_modifiers_clamp_and_keep_multiplier() -> None:
    assert str(AttackRequirement.parse("3+").modified(+5)) == "2+"
    assert str(AttackRequirement.parse("A").modified(+1)) == "A"
    assert str(AttackRequirement.parse("6/6/5").modified(-3)) == "6/6/6"
    assert str(AttackRequirement.parse("A").modified(-1)) == "2+"
    assert str(AttackRequirement.parse("Ax2").modified(-1)) == "2+ x2"
    assert str(AttackRequirement.parse("Ax2").modified(-2)) == "3+ x2"
    assert str(AttackRequirement.parse("6+").modified(-1)) == "6/2"


def test_s5_8_heavy_weapon_in_melee_4_plus_needs_6() -> None:
    assert str(AttackRequirement.parse("4+").modified(-2)) == "6+"
    assert str(AttackRequirement.parse("2+").modified(-1)) == "3+"
