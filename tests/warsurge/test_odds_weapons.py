"""Which weapons attack in ``odds``: shooting uses weapons that can shoot, a Melee those that may
strike there (001_d3f5e425c5e1196d.txt L1287-1291, §5.8-5.9; Perks §12.5 Unwieldy, Wildcard)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warbench.cli import app
from warbench.cli.app import _register
from warbench.kernel.dice import SeededDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.attack import (
    AttackContext,
    UnitState,
    can_attack_with,
    weapon_refusal,
)
from warbench.rulesets.warsurge.odds import AttackPlan, attack_odds, exact_attack, sample_attack
from warbench.rulesets.warsurge.profiles import WeaponProfile

from .conftest import plan, unit, weapon

EXAMPLES = Path(__file__).parents[2] / "examples" / "warsurge"
runner = CliRunner()
_register()

CARBINE = weapon("Carbine", range=18, type="Battle", attacks=2, power=4, ap="5+")
KNIFE = weapon("Knife", range=0, type="Assault", attacks=2, power=4, ap="5+")


def _troopers(*weapons: WeaponProfile) -> UnitState:
    return unit("Troopers", models=5, weapons=list(weapons) or [CARBINE, KNIFE], armour="5+")


def _target() -> UnitState:
    return unit("Targets", models=10, defence=4, armour="5+")


def test_l1287_plain_odds_use_only_weapons_that_can_shoot() -> None:
    both = exact_attack(plan(_troopers(CARBINE, KNIFE), _target()))
    carbine_only = exact_attack(plan(_troopers(CARBINE), _target()))
    assert both.weapons == ["Carbine"]
    assert both.unused_weapons == [
        ("Knife", 'a 0" Weapon attacks only in a Melee (Core Rules L1287, §5.9)')
    ]
    assert both.expected_hp_lost == pytest.approx(carbine_only.expected_hp_lost, abs=1e-12)
    assert both.hp_lost == pytest.approx(carbine_only.hp_lost)


def test_s5_9_melee_odds_use_every_weapon_type_with_s5_8_modifiers() -> None:
    melee = exact_attack(plan(_troopers(CARBINE, KNIFE), _target(), melee=True))
    assert melee.weapons == ["Carbine", "Knife"]
    assert melee.unused_weapons == []
    # §5.8: the Battle Carbine is -1 in a Melee (4+ becomes 5+), the Assault Knife is not
    assert melee.per_weapon_mean["Carbine"] < melee.per_weapon_mean["Knife"]
    assert any("Battle Weapon in a Melee" in n for n in melee.notes)


def test_monte_carlo_makes_the_same_weapon_choice_as_exact() -> None:
    p = plan(_troopers(CARBINE, KNIFE), _target())
    sampled = sample_attack(p, 2_000, SeededDice(4))
    assert sampled.weapons == ["Carbine"]
    assert list(sampled.per_weapon_mean) == ["Carbine"]


def test_unwieldy_weapon_is_not_used_in_a_melee_perks_s12_5() -> None:
    maul = weapon("Maul", range=12, attacks=1, power=6, perks=["Unwieldy"])
    p = plan(_troopers(maul, KNIFE), _target(), melee=True)
    assert p.weapon_order() == ["Knife"]
    ((name, why),) = p.unused_weapons()
    assert name == "Maul" and "Unwieldy" in why
    assert plan(_troopers(maul, KNIFE), _target()).weapon_order() == ["Maul"]


def test_wildcard_rolls_its_range_so_its_listed_0_inches_can_shoot_perks_s12_5() -> None:
    wild = weapon("Wild", range=0, attacks=1, power=1, perks=["Wildcard"])
    assert can_attack_with(wild, AttackContext())
    assert weapon_refusal(KNIFE, AttackContext()) is not None
    assert can_attack_with(KNIFE, AttackContext(melee=True))


def test_no_weapon_can_shoot_is_a_rules_error_naming_unit_rule_and_remedy() -> None:
    p = plan(_troopers(KNIFE), _target())
    assert p.weapon_order() == []
    with pytest.raises(RulesError) as exc:
        attack_odds(p)
    text = str(exc.value)
    assert "Troopers" in text and "Knife" in text
    assert "§5.8-5.9" in text and "--melee" in text


def test_chosen_weapon_that_cannot_shoot_is_refused() -> None:
    p = AttackPlan(_troopers(CARBINE, KNIFE), _target(), AttackContext(), weapons=("Knife",))
    with pytest.raises(RulesError, match="Knife cannot attack outside a Melee"):
        attack_odds(p)


def _run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def _mixed_files(tmp_path: Path) -> tuple[Path, Path]:
    a = tmp_path / "mixed.yaml"
    a.write_text(
        "unit: {name: Troopers, move: 6, dash: 6, defence: 3, hp: 1, armour: 5+}\n"
        "weapons:\n"
        "  - {name: Carbine, range: 18, type: Battle, attacks: 2, power: 4, ap: 5+}\n"
        "  - {name: Knife, range: 0, type: Assault, attacks: 2, power: 4, ap: 5+}\n"
        "models:\n"
        "  - {count: 5, weapons: [Carbine, Knife]}\n"
    )
    return a, EXAMPLES / "troopers_10.yaml"


def test_cli_odds_shows_weapons_used_and_not_used(tmp_path: Path) -> None:
    a, t = _mixed_files(tmp_path)
    code, out = _run("odds", str(a), str(t))
    assert code == 0, out
    assert "weapons used" in out and "Carbine" in out
    assert "not used: Knife" in out
    code, out = _run("odds", str(a), str(t), "--json")
    data = json.loads(out)
    assert data["weapons"] == ["Carbine"]
    assert data["weapons_not_used"][0]["weapon"] == "Knife"
    assert list(data["per_weapon_expected_hp_lost"]) == ["Carbine"]
    code, out = _run("odds", str(a), str(t), "--json", "--melee")
    assert json.loads(out)["weapons"] == ["Carbine", "Knife"]


def test_cli_odds_melee_only_unit_without_melee_is_one_line_error() -> None:
    code, out = _run(
        "odds", str(EXAMPLES / "sisters_repentium.yaml"), str(EXAMPLES / "troopers_10.yaml")
    )
    assert code == 2
    assert out.count("\n") == 1, out
    assert "Sisters Repentium" in out and "Ripper Sword" in out and "--melee" in out
    assert "Traceback" not in out
