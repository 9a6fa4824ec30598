"""``warbench odds --situation``: every circumstance the attack model reads can be asked for
from the command line (issue 18 follow-up; Perks 000_94ecc6a4c74d351b.txt: Assassin L1136,
Anti-Air L3771-3775, Point Cost (Greater) L321-323)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warbench.cli import app
from warbench.cli.app import _register
from warbench.rulesets.warsurge.attack import AttackContext

EXAMPLES = Path(__file__).parents[2] / "examples" / "warsurge"
HUNTERS = str(EXAMPLES / "sky_hunters.yaml")
HERALD = str(EXAMPLES / "herald.yaml")
runner = CliRunner()
_register()


def odds_json(*args: str) -> dict[str, object]:
    result = runner.invoke(app, ["odds", *args, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, object] = json.loads(result.output)
    return data


def why(data: dict[str, object]) -> str:
    notes = data["explanations"]
    assert isinstance(notes, list)
    return " | ".join(notes)


def test_every_yes_no_circumstance_of_the_attack_model_is_a_situation() -> None:
    from warbench.cli.warsurge_cmds import SITUATIONS

    reachable = {field for field, _, _ in SITUATIONS.values()}
    flags = {
        f.name
        for f in dataclasses.fields(AttackContext)
        if isinstance(f.default, bool) or f.name == "attacker_engaged"
    }
    assert flags - reachable == set()
    # the Point Cost circumstance (Defiance, Might) is reachable as target-costs-more
    assert "point_cost_greater" in reachable


@pytest.mark.parametrize(
    ("situation", "perk"),
    [
        ("leader", "Assassin"),
        ("airborne", "Anti-Air +1"),
        ("stationary", "Focus"),
        ("target-costs-more", "Defiance"),
    ],
)
def test_situation_wakes_its_perk(situation: str, perk: str) -> None:
    plain = odds_json(HUNTERS, HERALD)
    woken = odds_json(HUNTERS, HERALD, "--situation", situation)
    assert perk not in why(plain)
    assert perk in why(woken)
    assert woken["expected_hp_lost"] > plain["expected_hp_lost"]  # type: ignore[operator]


def test_situations_combine_comma_separated_and_repeated() -> None:
    both = odds_json(HUNTERS, HERALD, "-s", "leader,airborne", "-s", "stationary")
    assert "Assassin" in why(both) and "Anti-Air +1" in why(both) and "Focus" in why(both)


def test_without_airborne_anti_air_i_is_a_penalty_l3771(tmp_path: Path) -> None:
    unit = tmp_path / "flak.yaml"
    unit.write_text(
        "unit: {name: Flak, move: 6, dash: 6, defence: 3, hp: 1, armour: 5+}\n"
        "weapons:\n  - {name: Flak Gun, range: 24, attacks: 2, power: 4, perks: [Anti-Air I]}\n"
        "models:\n  - {count: 2, weapons: [Flak Gun]}\n"
    )
    ground = odds_json(str(unit), HERALD)
    air = odds_json(str(unit), HERALD, "--situation", "airborne")
    assert "Anti-Air I against a ground Target -1" in why(ground)
    assert "Anti-Air +1" in why(air)


def test_distance_wakes_barrier(tmp_path: Path) -> None:
    target = tmp_path / "warded.yaml"
    target.write_text(
        "unit: {name: Warded, move: 6, dash: 6, defence: 3, hp: 1, armour: 5+, perks: [Barrier]}\n"
        "weapons:\n  - {name: Knife, range: 0, attacks: 1, power: 1}\n"
        "models:\n  - {count: 5, weapons: [Knife]}\n"
    )
    near = odds_json(HUNTERS, str(target), "--distance", "6")
    far = odds_json(HUNTERS, str(target), "--distance", "24")
    assert "Barrier" not in why(near)
    assert "Defence 3 → 5 from Barrier" in why(far)


def test_melee_situation_is_the_melee_flag() -> None:
    assert odds_json(HUNTERS, HERALD, "-s", "melee") == odds_json(HUNTERS, HERALD, "--melee")


def test_unknown_situation_is_one_line_listing_the_allowed_ones() -> None:
    result = runner.invoke(app, ["odds", HUNTERS, HERALD, "--situation", "leader,flying"])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1
    assert "'flying'" in result.output
    assert "allowed: melee, cover, half-range" in result.output
    assert "airborne" in result.output and "stationary" in result.output


def test_the_situations_are_recorded_in_the_output() -> None:
    data = odds_json(HUNTERS, HERALD, "-s", "Leader, airborne", "--cover", "--distance", "12")
    assert data["situations"] == ["airborne", "cover", "leader"]
    assert data["distance"] == 12
    result = runner.invoke(app, ["odds", HUNTERS, HERALD, "-s", "stationary"])
    assert result.exit_code == 0 and "situation: stationary" in result.output
    plain = runner.invoke(app, ["odds", HUNTERS, HERALD])
    assert "situation:" not in plain.output


def test_every_circumstance_of_the_attack_model_has_an_option() -> None:
    """Each AttackContext field is reachable: a --situation or one of these options."""
    from warbench.cli.warsurge_cmds import SITUATIONS

    by_option = {
        "cover_bonus": "--cover-bonus",
        "cover_armour": "--cover-armour",
        "cover_aegis": "--cover-aegis",
        "cover_save": "--cover-save",
        "distance": "--distance",
        "darkside_power": "--darkside",
        "darkside_attacks": "--darkside",
        "aether_modifier": "--aether-modifier",
        "playstyle": "--advanced",
        "los_models": "--in-sight",
        "attacker_point_cost": "target-costs-more",
        "target_point_cost": "target-costs-more",
        "status_modifiers": "--dice-modifier",
        "struck_dice": "--struck-dice",
        "combat_damage": "--combat-damage",
    }
    reachable = {field for field, _, _ in SITUATIONS.values()} | set(by_option)
    assert {f.name for f in dataclasses.fields(AttackContext)} - reachable == set()
    help_text = runner.invoke(app, ["odds", "--help"]).output
    for option in {o for o in by_option.values() if o.startswith("--")}:
        assert option in help_text, option


DARK = """\
unit: {name: Cultists, move: 6, dash: 6, defence: 3, hp: 2, armour: 5+}
weapons: [{name: Hex Blade, range: 0, attacks: 2, power: 3, perks: [Darkside]}]
models: [{count: 3, weapons: [Hex Blade]}]
"""


def test_darkside_buys_power_and_attacks_perks_s12_5(tmp_path: Path) -> None:
    unit = tmp_path / "cultists.yaml"
    unit.write_text(DARK)
    plain = odds_json(str(unit), HERALD, "--melee")
    dark = odds_json(str(unit), HERALD, "--melee", "--darkside", "2,1")
    assert "Power 3 → 5 from Darkside" in why(dark) and "Attacks +1 from Darkside" in why(dark)
    assert "Darkside" not in why(plain)
    result = runner.invoke(app, ["odds", str(unit), HERALD, "--melee", "--darkside", "4,0"])
    assert result.exit_code == 2 and result.output.count("\n") == 1
    assert "Perks §12.5 Darkside" in result.output
    result = runner.invoke(app, ["odds", str(unit), HERALD, "--darkside", "lots"])
    assert result.exit_code == 2 and "write POWER,ATTACKS" in result.output


def test_a_dice_modifier_from_a_status_lowers_the_odds_p12_1() -> None:
    """``--dice-modifier -1:Concussive`` (a status from the effects engine, Perks §12.1) is an
    enemy-caused Dice Modifier: fewer hits than without it, and named in the explanation."""
    plain = odds_json(HUNTERS, HERALD)
    worse = odds_json(HUNTERS, HERALD, "--dice-modifier", "-1:Concussive")
    assert isinstance(plain["expected_hp_lost"], float)
    assert isinstance(worse["expected_hp_lost"], float)
    assert worse["expected_hp_lost"] < plain["expected_hp_lost"]
    assert "Concussive" in why(worse)


@pytest.mark.parametrize("bad", ["-1", "x:Blind", "-9:Blind", "-1:"])
def test_a_bad_dice_modifier_is_one_line(bad: str) -> None:
    result = runner.invoke(app, ["odds", HUNTERS, HERALD, f"--dice-modifier={bad}"])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1
    assert "VALUE:SOURCE" in result.output


def test_struck_dice_counts_dice_as_successful_L2003(tmp_path: Path) -> None:
    """Furious (Perks L2003): --struck-dice N skips the Attack Dice roll; N dice succeed."""
    a = tmp_path / "a.yaml"
    t = tmp_path / "t.yaml"
    a.write_text(
        "unit: {name: Ravagers, move: 6, dash: 6, defence: 5, hp: 1}\n"
        "weapons: [{name: Claw, range: 0, attacks: 1, power: 1}]\n"
        "models: [{count: 1, weapons: [Claw]}]\n"
    )
    t.write_text(
        "unit: {name: Dummies, move: 6, dash: 6, defence: 1, hp: 1}\n"
        "weapons: [{name: Fist, range: 0, attacks: 1, power: 1}]\n"
        "models: [{count: 5, weapons: [Fist]}]\n"
    )
    rolled = runner.invoke(app, ["odds", str(a), str(t), "--melee", "--json"])
    struck = runner.invoke(app, ["odds", str(a), str(t), "--melee", "--struck-dice", "3", "--json"])
    assert rolled.exit_code == 0 and struck.exit_code == 0, struck.output
    assert "Furious" in struck.output and struck.output != rolled.output
