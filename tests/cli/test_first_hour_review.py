"""A new user's first hour (issue 18 review): bad input anywhere gives one error line naming the
thing, the rule and the allowed values, exit status 2, never a traceback; options do what they
say."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.test_roster_cli import run
from tests.cli.test_roster_edit_cli import SF, db, refused
from warbench.kernel.errors import UnknownNameError
from warbench.storage import Store

__all__ = ["db"]  # the fixture, imported for the tests below

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "warsurge"


def one_error_line(code: int, err: str) -> str:
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


# ---------------------------------------------------------------------------------- files


@pytest.mark.parametrize("option", ["--output", "--pdf"])
def test_print_to_a_missing_directory_is_one_line(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path, option: str
) -> None:
    target = tmp_path / "no such dir" / "sheet.out"
    err = refused(capsys, db, "roster", "print", SF, option, str(target))
    assert str(target) in err and "No such file or directory" in err


def test_export_and_share_to_a_missing_directory_are_one_line(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    target = tmp_path / "nowhere" / "r.yaml"
    assert str(target) in refused(capsys, db, "roster", "export", SF, "-o", str(target))
    png = tmp_path / "nowhere" / "qr.png"
    assert str(png) in refused(capsys, db, "roster", "share", SF, "--png", str(png))


def test_print_onto_a_directory_is_one_line(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    err = refused(capsys, db, "roster", "print", SF, "-o", str(tmp_path))
    assert str(tmp_path) in err


def test_s3_1_point_limit_out_of_range_names_the_rule_and_the_range(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    # Core Rules §3.1 Point Limit; the roster model allows 1 to 1,000,000
    for limit in ("0", "-5", "2000000"):
        code, _out, err = run(capsys, "roster", "new", "Tiny", "--limit", limit, "--db", db)
        assert code == 2, err
        assert "Traceback" not in err and "--limit" in err and "1" in err, err


# ------------------------------------------------------------------------------ unknown names


def test_unknown_name_without_a_close_match_lists_the_known_names() -> None:
    err = UnknownNameError("roster entry", "Nobody", ["Herald", "Squad A", "APC"])
    assert "Herald" in str(err) and "Squad A" in str(err) and "APC" in str(err)
    many = UnknownNameError("perk", "Zzz", [f"Perk {i}" for i in range(40)])
    assert "Perk 0" in str(many) and "Perk 39" not in str(many) and "more" in str(many)
    close = UnknownNameError("unit", "Heral", ["Herald", "Squad A"])
    assert str(close).endswith("did you mean 'Herald'?")


def test_remove_an_unknown_entry_lists_the_entries(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    err = refused(capsys, db, "roster", "remove", SF, "Nobody")
    assert "troopers" in err.lower()


# ------------------------------------------------------------------------------------- roll


@pytest.mark.parametrize("args", [("roll", "2D6"), ("roll", "scatter")])
def test_s1_1_a_negative_seed_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    code, _out, err = run(capsys, *args, "--seed", "-1", "--no-keep")
    assert code == 2 and "Traceback" not in err and "--seed" in err, err


def test_odds_negative_seed_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run(
        capsys,
        "odds",
        str(EXAMPLES / "troopers_laser.yaml"),
        str(EXAMPLES / "kataton_servitors.yaml"),
        "--monte-carlo",
        "100",
        "--seed",
        "-1",
    )
    assert code == 2 and "Traceback" not in err and "--seed" in err, err


def test_s1_1_history_shows_as_many_rolls_as_asked(capsys: pytest.CaptureFixture[str]) -> None:
    for _ in range(3):
        assert run(capsys, "roll", "2D6")[0] == 0
    code, out, _err = run(capsys, "roll", "--history", "-n", "1", "--json")
    assert code == 0 and len(json.loads(out)) == 1
    code, out, _err = run(capsys, "roll", "--history", "-n", "1")
    assert code == 0 and len(out.strip().splitlines()) == 1
    code, out, _err = run(capsys, "roll", "--history")
    assert code == 0 and len(out.strip().splitlines()) == 3


def test_s1_1_history_with_something_to_roll_is_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    line = one_error_line(*run(capsys, "roll", "2D6", "--history")[::2])
    assert "--history" in line


def test_s1_4_a_roll_off_needs_different_players(capsys: pytest.CaptureFixture[str]) -> None:
    line = one_error_line(*run(capsys, "roll", "rolloff", "--players", "Ann,ann")[::2])
    assert "Ann" in line


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (("scatter", "--need", "4+"), "--need"),
        (("2D6", "--modifier", "1"), "--modifier"),
        (("aether", "--reroll", "1"), "--reroll"),
        (("2D6", "--players", "Ann,Bob"), "--players"),
        (("D6", "--distance-dice", "1"), "--distance-dice"),
    ],
)
def test_s1_1_an_option_that_does_not_apply_is_refused(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], option: str
) -> None:
    line = one_error_line(*run(capsys, "roll", *args, "--no-keep")[::2])
    assert option in line


# ------------------------------------------------------------------------------------- odds


def test_s5_a_weapon_attacks_once_per_sequence(capsys: pytest.CaptureFixture[str]) -> None:
    # Core Rules §5.2 (001 L2289-2308): a Weapon profile is chosen, resolved, then the next
    # one (Step 6); a profile does not attack twice in one sequence
    code, _out, err = run(
        capsys,
        "odds",
        str(EXAMPLES / "troopers_laser.yaml"),
        str(EXAMPLES / "kataton_servitors.yaml"),
        "--weapon",
        "Laser Rifle",
        "--weapon",
        "Laser Rifle",
    )
    line = one_error_line(code, err)
    assert "Laser Rifle" in line


def test_s5_2_no_model_in_sight_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    # Core Rules §5.3 (001 L2339-2344): only the models in line of sight can be attacked
    code, _out, err = run(
        capsys,
        "odds",
        str(EXAMPLES / "troopers_laser.yaml"),
        str(EXAMPLES / "kataton_servitors.yaml"),
        "--in-sight",
        "0",
    )
    assert code == 2 and "--in-sight" in err and "Traceback" not in err, err


def test_plot_format_is_checked_before_the_odds(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys,
        "odds",
        str(EXAMPLES / "troopers_laser.yaml"),
        str(EXAMPLES / "kataton_servitors.yaml"),
        "--plot",
        "odds.txt",
    )
    line = one_error_line(code, err)
    assert ".png" in line and ".svg" in line and out == ""


# ---------------------------------------------------------------------------------- rosters


def test_show_json_has_the_priced_lines_adding_up_to_the_total(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    # issue 18: every line that costs points is shown, in `roster show --json` too (docs/cli.md)
    code, out, err = run(capsys, "roster", "show", SF, "--json", "--db", db)
    assert code == 0, err
    data = json.loads(out)
    assert data["name"] == SF and data["units"]  # the roster itself, as before
    assert data["lines"] and sum(line["points"] for line in data["lines"]) == data["total"]
    assert {"unit"} <= {line["kind"] for line in data["lines"]}


def test_per_weapon_tallies_and_tough_are_explained(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Perks 000_94ecc6a4c74d351b.txt L1793-1795 Tough: the HP lost to the whole sequence is
    # halved, rounding up, so the weapons' tallies add up to more than the HP lost; say so.
    target = tmp_path / "tough.yaml"
    target.write_text(
        "unit: {name: Ogre, move: 6, dash: 6, defence: 4, hp: 3, armour: 5+, perks: [Tough]}\n"
        "models: [{count: 3}]\n",
        encoding="utf-8",
    )
    attacker = str(EXAMPLES / "troopers_laser.yaml")
    code, out, err = run(capsys, "odds", attacker, str(target), "--json")
    assert code == 0, err
    data = json.loads(out)
    tallied = sum(data["per_weapon_expected_hp_lost"].values())
    assert tallied > data["expected_hp_lost"] + 0.05
    assert any("Tough" in note and "halve" in note for note in data["explanations"])
    code, out, err = run(capsys, "odds", attacker, str(target), "--monte-carlo", "2000")
    assert code == 0, err
    assert "HP tallied" in out and "Tough" in out


@pytest.mark.parametrize(
    "args",
    [
        ("faction", "new", " "),
        ("roster", "copy", SF, ""),
        ("roster", "rename", SF, "  "),
        ("roster", "new", "", "--limit", "100"),
    ],
)
def test_blank_faction_and_roster_names_are_refused(
    capsys: pytest.CaptureFixture[str], db: str, args: tuple[str, ...]
) -> None:
    err = refused(capsys, db, *args)
    assert ("name" in err and "allowed" in err.lower()) or "at least 1 character" in err
    code, out, _err = run(capsys, "roster", "list", "--db", db)
    assert code == 0 and not any(line.startswith(" ") for line in out.splitlines()), out


def test_a_model_group_of_zero_is_one_line(capsys: pytest.CaptureFixture[str], db: str) -> None:
    err = refused(capsys, db, "roster", "add", SF, "Troopers", "--name", "Y", "--group", "0:")
    assert "count" in err and "0" in err


def test_s12_2_aether_test_shows_both_dice_and_tests_show_what_they_need(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Perks 000_94ecc6a4c74d351b.txt L251-259: an Aether Test is 2D6 added together; a double
    # matters to some perks (L3086), so the generator shows both faces (issue 18: faces, not
    # only the total). Mastery and Skill Tests say the number they need after the modifier.
    code, out, err = run(capsys, "roll", "aether", "--seed", "1", "-n", "8", "--json")
    assert code == 0, err
    for r in json.loads(out)["rolls"]:
        assert len(r["faces"]) == 2 and sum(r["faces"]) == r["roll"]
    code, out, err = run(capsys, "roll", "aether", "--seed", "1", "--no-keep")
    faces = json.loads(run(capsys, "roll", "aether", "--seed", "1", "--json")[1])["rolls"][0]
    assert f"rolled {faces['faces'][0]}+{faces['faces'][1]} = {faces['roll']}" in out
    code, out, err = run(capsys, "roll", "mastery", "--modifier", "1", "--no-keep")
    assert code == 0 and "needs 3+" in out, out


def test_rapid_doubles_attacks_within_half_range(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Perks Rapid: "Doubles the Weapon's Attacks if any target model is within half max Range";
    # odds had no way to say so, so a Rapid weapon never changed the answer
    shooter = tmp_path / "rapid.yaml"
    shooter.write_text(
        "unit: {name: Gunners, move: 6, dash: 6, defence: 3, hp: 1}\n"
        "weapons: [{name: Carbine, range: 18, attacks: 2, power: 4, perks: [Rapid]}]\n"
        "models: [{count: 4, weapons: [Carbine]}]\n",
        encoding="utf-8",
    )
    horde = tmp_path / "horde.yaml"  # more HP than 16 dice can take: the tally is never capped
    horde.write_text(
        "unit: {name: Horde, move: 6, dash: 6, defence: 4, hp: 1, armour: 5+}\n"
        "models: [{count: 30}]\n",
        encoding="utf-8",
    )
    target = str(horde)

    def mean(*extra: str) -> float:
        code, out, err = run(capsys, "odds", str(shooter), target, "--json", *extra)
        assert code == 0, err
        value: float = json.loads(out)["per_weapon_expected_hp_lost"]["Carbine"]
        return value

    assert mean("--half-range") == pytest.approx(2 * mean())
    code, out, err = run(capsys, "odds", str(shooter), target, "--json")
    assert code == 0, err
    notes = json.loads(out)["explanations"]
    assert any("Rapid" in n and "--half-range" in n for n in notes), notes
    code, out, err = run(capsys, "odds", str(shooter), target, "--json", "--half-range")
    assert code == 0, err
    assert not any("--half-range" in n for n in json.loads(out)["explanations"])


def test_s6_embark_in_a_unit_that_is_not_a_transport_is_refused_when_given(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    # Core Rules §6 (001 L3287-3291): a Transport is a unit whose Transport Stat is above 0
    before = Store.open(db).roster(SF)
    names = [e.name for e in before.units]
    transports = [e.name for e in before.units if e.unit.profile.transport]
    others = [n for n in names if n not in transports]
    err = refused(capsys, db, "roster", "edit", SF, others[0], "--embark-in", others[-1])
    assert "not a Transport" in err and all(t in err for t in transports)
    err = refused(capsys, db, "roster", "edit", SF, transports[0], "--embark-in", transports[0])
    assert "itself" in err
    assert Store.open(db).roster(SF) == before
