"""Files, schemas, errors and the ``warbench warengine`` CLI (004_f4ea5693af0644ce.txt)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml
from typer.testing import CliRunner
from we_helpers import EXAMPLES, ROOT

from warbench.cli.app import _register, app
from warbench.kernel.errors import DataFileError, ProfileError, UnknownNameError
from warbench.rulesets.warengine.io import dumps, json_schemas, load, loads, to_data

runner = CliRunner()
_register()


@pytest.mark.parametrize("name", ["warpeyes.yaml", "reaver_sergeant.yaml", "stormreavers.yaml"])
@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_004_troop_builder_files_round_trip_exactly(name: str, fmt: str) -> None:
    # 004_f4ea5693af0644ce.txt Troop Builder / Force Builder: export then import gives the same
    obj = load(EXAMPLES / name)
    text = dumps(obj, fmt)
    again = loads(text, fmt)
    assert again == obj
    assert dumps(again, fmt) == text


@pytest.mark.parametrize("name", ["warpeyes.yaml", "reaver_sergeant.yaml", "stormreavers.yaml"])
def test_004_troop_builder_examples_validate_against_published_schema(name: str) -> None:
    # 004_f4ea5693af0644ce.txt Troop Builder V2.1: docs/schemas/warengine-*.json
    obj = load(EXAMPLES / name)
    kind = "force" if "units" in to_data(obj) else "figure"
    schema = json.loads((ROOT / "docs" / "schemas" / f"warengine-{kind}.json").read_text())
    jsonschema.validate(to_data(obj), schema)


def test_004_troop_builder_published_schemas_are_current() -> None:
    # 004_f4ea5693af0644ce.txt Troop Builder V2.1: schemas generated from the pydantic models
    for name, schema in json_schemas().items():
        assert json.loads((ROOT / "docs" / "schemas" / name).read_text()) == schema


def _write(tmp_path: Path, data: object, name: str = "f.yaml") -> Path:
    p = tmp_path / name
    p.write_text(yaml.safe_dump(data) if not isinstance(data, str) else data)
    return p


def test_004_personal_tweaks_unknown_tweak_suggests_closest(tmp_path: Path) -> None:
    # 004_f4ea5693af0644ce.txt Personal Tweaks list (lines 1353-1681)
    p = _write(tmp_path, {"name": "x", "type": "C", "tweaks": ["Lightning Reflex"]})
    with pytest.raises(UnknownNameError) as exc:
        load(p)
    assert "Lightning Reflexes" in exc.value.suggestions
    assert str(p) in str(exc.value) and "tweaks" in str(exc.value)


def test_004_weapon_tweaks_unknown_weapon_tweak_names_field(tmp_path: Path) -> None:
    # 004_f4ea5693af0644ce.txt Weapon Tweaks list (lines 1683-1853)
    w = {"name": "w", "av": "1k1", "tweaks": ["Armour Piercing"]}
    p = _write(tmp_path, {"name": "x", "type": "C", "weapons": [w]})
    with pytest.raises(UnknownNameError, match=r"weapons\[0\].tweaks.*Armor Piercing"):
        load(p)


def test_004_troop_builder_value_not_on_table(tmp_path: Path) -> None:
    # 004_f4ea5693af0644ce.txt Troop Builder: Movement Table (lines 662-672)
    p = _write(tmp_path, {"name": "x", "type": "C", "mv": 13})
    with pytest.raises(ProfileError) as exc:
        load(p)
    assert exc.value.field == "mv" and exc.value.value == '13"' and '12"' in exc.value.allowed
    assert str(p) in str(exc.value)


def test_004_troop_builder_malformed_yaml(tmp_path: Path) -> None:
    # 004_f4ea5693af0644ce.txt Troop Builder V2.1: figure files
    p = _write(tmp_path, "name: [unclosed\ntype: C\n")
    with pytest.raises(DataFileError, match="malformed"):
        load(p)
    with pytest.raises(DataFileError):
        load(tmp_path / "missing.yaml")


def test_004_force_builder_unknown_figure_in_unit(tmp_path: Path) -> None:
    # 004_f4ea5693af0644ce.txt Force Builder V2.1: units name figures of the force
    data = {"name": "f", "renown": 0, "force": 0, "figures": {"reaver": {"name": "r", "type": "T"}},
            "units": [{"name": "u", "members": [{"figure": "reavr"}]}]}  # fmt: skip
    with pytest.raises(UnknownNameError, match="reaver"):
        load(_write(tmp_path, data))


def test_004_figure_builder_example_cli_points() -> None:
    # 004_f4ea5693af0644ce.txt Figure Builder Example (lines 951-963): itemised cost and card
    r = runner.invoke(app, ["warengine", "points", str(EXAMPLES / "warpeyes.yaml")])
    assert r.exit_code == 0, r.output
    assert "WarpEyes: 244 points, 32 tweak points" in r.output
    assert "Heavy Laser Rifle" in r.output and "244 pts" in r.output
    r = runner.invoke(app, ["warengine", "points", str(EXAMPLES / "warpeyes.yaml"), "--json"])
    data = json.loads(r.output)
    assert data["points"] == 244 and data["tweak_points"] == 32


def test_004_force_builder_cli_points_and_validate() -> None:
    # 004_f4ea5693af0644ce.txt Force Builder V2.1 (lines 971-990)
    f = str(EXAMPLES / "stormreavers.yaml")
    r = runner.invoke(app, ["warengine", "points", f, "--json"])
    assert r.exit_code == 0 and json.loads(r.output)["renown"]["unused"] == 256
    r = runner.invoke(app, ["warengine", "validate", f])
    assert r.exit_code == 0 and "legal" in r.output


def test_004_troop_builder_cli_validate_lists_all_violations(tmp_path: Path) -> None:
    # 004_f4ea5693af0644ce.txt Troop Builder: per-type maxima and hero points (lines 651-727)
    p = _write(tmp_path, {"name": "x", "type": "T", "mv": '15"', "df": "4k4", "hero_points": 5})
    r = runner.invoke(app, ["warengine", "validate", str(p)])
    assert r.exit_code == 1
    assert "3 violation(s)" in r.output
    r = runner.invoke(app, ["warengine", "points", str(p)])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert "mv" in r.output and '15"' in r.output


def test_004_troop_builder_cli_bad_input_one_line(tmp_path: Path) -> None:
    # 004_f4ea5693af0644ce.txt Personal Tweaks list: unknown tweak, one line, no traceback
    p = _write(tmp_path, {"name": "x", "type": "C", "tweaks": ["Dodgy"]})
    r = runner.invoke(app, ["warengine", "validate", str(p)])
    assert r.exit_code == 2 and "Dodge" in r.output and "Traceback" not in r.output
    bad = _write(tmp_path, "a: [", "bad.yaml")
    r = runner.invoke(app, ["warengine", "points", str(bad)])
    assert r.exit_code == 2 and "malformed" in r.output


def test_004_attack_cli_odds() -> None:
    # 004_f4ea5693af0644ce.txt Attack (lines 471-487) and Hero Points (493)
    r = runner.invoke(app, ["warengine", "odds", "--attack", "4k3", "--defense", "3k2", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["attack"] == "4k3" and 0.81 < data["p_kill"] < 0.82
    assert data["defender_hero_points_to_survive"]["0"] == data["p_kill"]
    r = runner.invoke(
        app,
        ["warengine", "odds", "-a", "4k3", "-d", "3k2", "--uncontrolled", "--defender-type", "M"],
    )
    assert r.exit_code == 0 and "P(attack > defense)" in r.output and "Hero Points" in r.output
    r = runner.invoke(app, ["warengine", "odds", "-a", "3k2", "-d", "5k4", "--helpers", "3"])
    assert "Attack 6k4" in r.output
    r = runner.invoke(app, ["warengine", "odds", "--rout", "4k3"])
    assert r.exit_code == 0 and "Rout test" in r.output
    r = runner.invoke(app, ["warengine", "odds", "-a", "4x3", "-d", "3k2"])
    assert r.exit_code == 2 and "XkY" in r.output


def test_004_troop_builder_cli_export_round_trip(tmp_path: Path) -> None:
    # 004_f4ea5693af0644ce.txt Figure Builder Example: canonical export
    r = runner.invoke(app, ["warengine", "export", str(EXAMPLES / "warpeyes.yaml"), "-f", "json"])
    assert r.exit_code == 0
    p = tmp_path / "w.json"
    p.write_text(r.output)
    assert load(p) == load(EXAMPLES / "warpeyes.yaml")
