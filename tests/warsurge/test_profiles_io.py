"""Unit and weapon files (Core Rules 001_d3f5e425c5e1196d.txt §1.5 Unit Stats, §1.6 Weapon
Stats, §2.3 Attack Examples, §5.1, §5.16; Book 2 §12.4-§12.6 perks) and their JSON Schema."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from warbench.kernel.errors import DataFileError, ProfileError, UnknownNameError
from warbench.rulesets.warsurge import io
from warbench.rulesets.warsurge.profiles import WeaponType

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "warsurge"
SCHEMAS = ROOT / "docs" / "schemas"

TROOPERS = """\
unit: {name: Troopers, move: 6, dash: 6, defence: 3, hp: 1, armour: 4+, aegis: 5+, perks: [Evasive]}
weapons:
  - {name: Laser Rifle, range: 18, type: Battle, attacks: 2, power: 3, ap: 6+}
models:
  - {count: 10, weapons: [Laser Rifle]}
"""


def write(tmp_path: Path, text: str, name: str = "unit.yaml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def troopers_with(tmp_path: Path, old: str, new: str) -> Path:
    assert old in TROOPERS
    return write(tmp_path, TROOPERS.replace(old, new, 1))


# ------------------------------------------------------------------ reading good files


def test_s1_5_unit_file_loads(tmp_path: Path) -> None:
    unit = io.load_unit(write(tmp_path, TROOPERS))
    assert unit.name == "Troopers"
    assert (unit.profile.move, unit.profile.armour, unit.profile.aegis) == (6, 4, 5)
    assert unit.profile.perks == ["Evasive"]
    assert unit.weapon("laser rifle").type is WeaponType.BATTLE
    assert unit.model_count == 10


def test_s1_5_profile_is_another_spelling_of_unit(tmp_path: Path) -> None:
    unit = io.load_unit(write(tmp_path, TROOPERS.replace("unit:", "profile:", 1)))
    assert unit.name == "Troopers"


def test_s12_2_perk_names_are_stored_as_printed(tmp_path: Path) -> None:
    text = TROOPERS.replace("ap: 6+}", "ap: 6+, perks: [destroy 1, +power i]}")
    unit = io.load_unit(write(tmp_path, text))
    assert unit.weapons[0].perks == ["Destroy I", "+Power I (D3)"]


@pytest.mark.parametrize("suffix", [".yaml", ".json"])
def test_s1_5_unit_round_trips_exactly(tmp_path: Path, suffix: str) -> None:
    unit = io.load_unit(EXAMPLES / "legionaries_mixed.yaml")
    out = tmp_path / f"legionaries{suffix}"
    io.dump_unit(unit, out)
    again = io.load_unit(out)
    assert again == unit
    assert io.unit_to_data(again) == io.unit_to_data(unit)
    if suffix == ".json":
        assert json.loads(out.read_text())["unit"]["armour"] == "4+"


def test_s1_5_unit_data_keeps_core_stats_and_saves_as_written(tmp_path: Path) -> None:
    data = io.unit_to_data(io.load_unit(EXAMPLES / "kataton_servitors.yaml"))
    assert data["unit"] == {
        "name": "Kataton Battle Servitors",
        "move": 5,
        "dash": 5,
        "defence": 5,
        "hp": 2,
        "armour": "3+",
        "aegis": "-",
    }
    assert data["models"] == [{"count": 2, "weapons": []}]


def test_s1_5_several_units_round_trip(tmp_path: Path) -> None:
    units = io.load_units(EXAMPLES / "s2_3_attack_examples.yaml")
    assert [u.model_count for u in units] == [6, 2, 5, 10]
    out = tmp_path / "all.json"
    io.dump_units(units, out)
    assert io.load_units(out) == units
    with pytest.raises(ProfileError, match="several units"):
        io.load_unit(out)


@pytest.mark.parametrize("suffix", [".yml", ".json"])
def test_s1_6_weapon_file_round_trips(tmp_path: Path, suffix: str) -> None:
    beam = io.load_weapon(EXAMPLES / "plasma_beam.yaml")
    out = tmp_path / f"beam{suffix}"
    io.dump_weapon(beam, out)
    assert io.load_weapon(out) == beam


# ------------------------------------------------------------------ the book's examples


def test_s2_3_ranged_example_units(tmp_path: Path) -> None:
    troopers = io.load_unit(EXAMPLES / "troopers_laser.yaml")
    rifle = troopers.weapon("Laser Rifle")
    assert (rifle.range, rifle.attacks, rifle.power, rifle.ap) == (18, 2, 3, 6)
    assert troopers.model_count == 6
    assert sum(rifle.attacks for _ in troopers.model_weapons()) == 12  # "12 Attacks"
    servitors = io.load_unit(EXAMPLES / "kataton_servitors.yaml")
    p = servitors.profile
    assert (p.defence, p.armour, p.aegis, p.hp) == (5, 3, None, 2)
    assert servitors.model_count * p.hp == 4  # "4 HP in total between the two models"


def test_s2_3_melee_example_units() -> None:
    sisters = io.load_unit(EXAMPLES / "sisters_repentium.yaml")
    sword = sisters.weapon("Ripper Sword")
    assert (sword.range, sword.attacks, sword.power, sword.ap) == (0, 3, 5, 2)
    assert sisters.model_count * sword.attacks == 15  # "15 Attacks"
    troopers = io.load_unit(EXAMPLES / "troopers_10.yaml")
    p = troopers.profile
    assert (p.defence, p.armour, p.aegis, p.hp, troopers.model_count) == (3, 4, 5, 1, 10)


def test_s5_1_weapon_table() -> None:
    longbow = io.load_weapon(EXAMPLES / "longbow.yaml")
    beam = io.load_weapon(EXAMPLES / "plasma_beam.yaml")
    sword = io.load_weapon(EXAMPLES / "energy_sword.yaml")
    assert (longbow.range, longbow.type, longbow.attacks, longbow.power, longbow.ap) == (
        36,
        WeaponType.HEAVY,
        2,
        4,
        4,
    )
    assert longbow.perks == []
    assert (beam.range, beam.type, beam.attacks, beam.power, beam.ap) == (
        18,
        WeaponType.BATTLE,
        1,
        7,
        2,
    )
    assert beam.perks == ["Beam I", "Burn"]
    assert (sword.range, sword.type, sword.attacks, sword.power, sword.ap) == (
        0,
        WeaponType.ASSAULT,
        3,
        5,
        3,
    )
    assert sword.perks == ["Piercing Hit I"]


def test_s5_16_legionaries_mix_shields_and_halberds() -> None:
    unit = io.load_unit(EXAMPLES / "legionaries_mixed.yaml")
    per_model = unit.model_weapons()
    assert len(per_model) == 5
    shields = [i + 1 for i, ws in enumerate(per_model) if "Shield" in ws]
    halberds = [i + 1 for i, ws in enumerate(per_model) if "Halberd" in ws]
    assert shields == [1, 2, 3]
    assert halberds == [2, 3, 5]
    assert unit.weapon("Shield").deflect == 1
    h = unit.weapon("Halberd")
    assert (h.ward, h.parry) == (1, 2)
    assert not any(
        unit.weapon(w).deflect or unit.weapon(w).ward or unit.weapon(w).parry for w in per_model[3]
    )


# ------------------------------------------------------------------ bad files


def test_s1_5_move_over_50_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(ProfileError) as err:
        io.load_unit(troopers_with(tmp_path, "move: 6", "move: 60"))
    e = err.value
    assert e.source is not None and e.source.endswith("unit.yaml")
    assert (e.field, e.value, e.allowed) == ("unit.move", 60, "0 to 50")
    assert "§1.5" in str(e)


def test_s1_5_armour_7_plus_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(ProfileError) as err:
        io.load_unit(troopers_with(tmp_path, "armour: 4+", "armour: 7+"))
    e = err.value
    assert (e.field, e.value) == ("unit.armour", "7+")
    assert e.allowed == "-, 2+, 3+, 4+, 5+ or 6+"


def test_s1_6_attacks_0_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(ProfileError) as err:
        io.load_unit(troopers_with(tmp_path, "attacks: 2", "attacks: 0"))
    e = err.value
    assert (e.field, e.value, e.allowed) == ("weapons[0].attacks", 0, "1 to 30")
    assert "§1.6" in str(e)


def test_s1_5_first_error_is_reported_with_a_count_of_the_others(tmp_path: Path) -> None:
    text = TROOPERS.replace("move: 6", "move: 60").replace("attacks: 2", "attacks: 0")
    with pytest.raises(ProfileError) as err:
        io.load_unit(write(tmp_path, text))
    assert err.value.field == "unit.move"
    assert "and 1 more problem" in str(err.value)


def test_s1_6_unknown_field_suggests_the_known_one(tmp_path: Path) -> None:
    with pytest.raises(ProfileError) as err:
        io.load_unit(troopers_with(tmp_path, "attacks: 2", "atacks: 2"))
    e = err.value
    assert e.field == "weapons[0].atacks"
    assert "did you mean 'attacks'?" in str(e)
    assert "attacks" in e.allowed


def test_s1_5_unknown_top_level_key_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(ProfileError, match="did you mean 'weapons'"):
        io.load_unit(troopers_with(tmp_path, "weapons:", "weapon:"))


def test_s5_16_model_group_with_unknown_weapon_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(ProfileError) as err:
        io.load_unit(troopers_with(tmp_path, "weapons: [Laser Rifle]", "weapons: [Lazer Rifle]"))
    e = err.value
    assert (e.field, e.value) == ("models[0].weapons[0]", "Lazer Rifle")
    assert "did you mean 'Laser Rifle'?" in str(e)
    assert "Laser Rifle" in e.allowed


def test_s12_5_weapon_perk_on_a_unit_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(ProfileError) as err:
        io.load_unit(troopers_with(tmp_path, "perks: [Evasive]", "perks: [Evasive, Destroy I]"))
    e = err.value
    assert e.field == "unit.perks[1]"
    assert e.source is not None and e.source.endswith("unit.yaml")
    assert "Destroy I is a Weapon Perk (Book 2 §12.5)" in str(e)


def test_s12_4_unit_perk_on_a_weapon_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(ProfileError) as err:
        io.load_unit(troopers_with(tmp_path, "ap: 6+}", "ap: 6+, perks: [Evasive]}"))
    assert err.value.field == "weapons[0].perks[0]"
    assert "Evasive is a Unit Perk (Book 2 §12.4)" in str(err.value)


def test_s12_6_trait_on_a_unit_is_accepted(tmp_path: Path) -> None:
    unit = io.load_unit(troopers_with(tmp_path, "perks: [Evasive]", "perks: [Evasive, Decoy 2]"))
    assert unit.profile.perks == ["Evasive", "Decoy II"]


def test_s12_5_unknown_perk_suggests_the_closest(tmp_path: Path) -> None:
    with pytest.raises(UnknownNameError) as err:
        io.load_unit(troopers_with(tmp_path, "ap: 6+}", "ap: 6+, perks: [Destory I]}"))
    msg = str(err.value)
    assert "unit.yaml, weapons[0].perks[0]: unknown perk 'Destory I'" in msg
    assert err.value.suggestions[0] == "Destroy I"


def test_s12_weapon_file_perk_checks(tmp_path: Path) -> None:
    p = write(tmp_path, "weapon: {name: Axe, attacks: 1, power: 4, perks: Evasive}\n", "w.yaml")
    with pytest.raises(ProfileError, match=r"weapon\.perks\[0\]"):
        io.load_weapon(p)


def test_malformed_yaml_names_the_line(tmp_path: Path) -> None:
    p = write(tmp_path, TROOPERS + "models: [ {count: 2\n")
    with pytest.raises(DataFileError) as err:
        io.load_unit(p)
    assert err.value.source == str(p)
    assert "malformed YAML at line" in str(err.value)


def test_duplicate_yaml_key_is_rejected(tmp_path: Path) -> None:
    p = write(tmp_path, TROOPERS + "models: []\n")
    with pytest.raises(DataFileError, match=r"line \d+.*key 'models' twice"):
        io.load_unit(p)


def test_malformed_json_names_the_line(tmp_path: Path) -> None:
    p = write(tmp_path, '{\n  "unit": {"name": "X",}\n}\n', "unit.json")
    with pytest.raises(DataFileError, match="malformed JSON at line 2"):
        io.load_unit(p)


def test_missing_file_is_a_data_file_error(tmp_path: Path) -> None:
    p = tmp_path / "nope.yaml"
    with pytest.raises(DataFileError) as err:
        io.load_unit(p)
    assert err.value.source == str(p)
    assert "file not found" in str(err.value)


def test_unknown_extension_is_a_data_file_error(tmp_path: Path) -> None:
    with pytest.raises(DataFileError, match="unknown file type"):
        io.load_unit(write(tmp_path, TROOPERS, "unit.txt"))


def test_s12_perk_warnings_list_unimplemented_perks(tmp_path: Path) -> None:
    unit = io.load_unit(write(tmp_path, TROOPERS))
    warnings = io.perk_warnings(unit, "unit.yaml")
    assert all(w.startswith("unit.yaml") for w in warnings)
    assert len(warnings) <= 1  # Evasive, unless the attack engine registered it


# ------------------------------------------------------------------ JSON Schema


@pytest.mark.parametrize(("name", "build"), list(io.SCHEMA_FILES.items()))
def test_committed_schema_is_current(name: str, build: object) -> None:
    committed = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
    assert callable(build)
    assert committed == build(), (
        f"docs/schemas/{name} is stale; regenerate with: .venv/bin/python -c "
        "\"from warbench.rulesets.warsurge.io import write_schemas; write_schemas('docs/schemas')\""
    )
    jsonschema.Draft202012Validator.check_schema(committed)


EXAMPLE_FILES = sorted(EXAMPLES.glob("*.yaml"))


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.name)
def test_every_example_validates_against_its_schema_and_loads(path: Path) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    name = "warsurge-weapon.schema.json" if "weapon" in data else "warsurge-unit.schema.json"
    schema = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(data)
    loaded = io.load_weapon(path) if "weapon" in data else io.load_units(path)
    assert loaded


def test_examples_exist() -> None:
    names = {p.name for p in EXAMPLE_FILES}
    assert {
        "troopers_laser.yaml",
        "kataton_servitors.yaml",
        "sisters_repentium.yaml",
        "troopers_10.yaml",
        "legionaries_mixed.yaml",
        "longbow.yaml",
        "plasma_beam.yaml",
        "energy_sword.yaml",
    } <= names


def test_schema_rejects_what_the_loader_rejects() -> None:
    schema = io.unit_file_schema()
    bad = {
        "unit": {"name": "X", "move": 60, "dash": 1, "defence": 1, "hp": 1, "armour": "7+"},
        "models": [{"count": 1}],
    }
    assert not jsonschema.Draft202012Validator(schema).is_valid(bad)
    good = io.unit_to_data(io.load_unit(EXAMPLES / "troopers_10.yaml"))
    assert jsonschema.Draft202012Validator(schema).is_valid(good)
