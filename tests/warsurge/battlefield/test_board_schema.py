"""The board file's JSON Schema (docs/schemas/warsurge-board.schema.json) is current, and every
sample board validates against it and loads (issue 12)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml
from referencing import Registry, Resource

from warbench.rulesets.warsurge.battlefield import board_file_schema, sample_boards
from warbench.rulesets.warsurge.battlefield.io import BOARD_SCHEMA_FILE, _boards_dir

SCHEMAS = Path(__file__).parents[3] / "docs" / "schemas"


def validator() -> jsonschema.Draft202012Validator:
    schema = json.loads((SCHEMAS / BOARD_SCHEMA_FILE).read_text(encoding="utf-8"))
    unit = json.loads((SCHEMAS / "warsurge-unit.schema.json").read_text(encoding="utf-8"))
    registry: Registry = Registry().with_resource(
        "warsurge-unit.schema.json", Resource.from_contents(unit)
    )
    return jsonschema.Draft202012Validator(schema, registry=registry)


def test_committed_board_schema_is_current() -> None:
    committed = json.loads((SCHEMAS / BOARD_SCHEMA_FILE).read_text(encoding="utf-8"))
    assert committed == board_file_schema(), (
        f"docs/schemas/{BOARD_SCHEMA_FILE} is stale; regenerate with: .venv/bin/python -c "
        '"from warbench.rulesets.warsurge.battlefield.io import write_board_schema; '
        "write_board_schema('docs/schemas')\""
    )
    jsonschema.Draft202012Validator.check_schema(committed)


@pytest.mark.parametrize("name", sample_boards())
def test_sample_board_validates_against_the_schema(name: str) -> None:
    data = yaml.safe_load(_boards_dir().joinpath(f"{name}.yaml").read_text(encoding="utf-8"))
    validator().validate(data)


def test_the_schema_refuses_what_the_loader_refuses() -> None:
    v = validator()
    ok = {"width": 10, "height": 10, "terrain": [{"name": "A", "rect": [0, 0, 1, 1]}]}
    v.validate(ok)
    for bad in (
        {"width": 10, "height": 10, "terrain": [{"name": "A"}]},  # no shape
        {"width": 10, "height": 10, "terrain": [{"name": "A", "rect": [0, 0, 1, 1], "hp": 0}]},
        {"width": 10, "height": 10, "objectives": [{"name": "O", "at": [1, 1], "extra": 1}]},
        {"width": 10, "height": 10, "terrian": []},
    ):
        assert not v.is_valid(bad), bad
