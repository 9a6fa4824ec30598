"""JSON Schema of a game roster file (``docs/game.md`` "Game rosters", ``game/io.py``),
committed as ``docs/schemas/warsurge-game-roster.schema.json``.

The schema checks shape and ranges, including a unit's ``base_mm`` (round) or ``base`` (an oval
or rectangular base or hull, Core Rules 001_d3f5e425c5e1196d.txt §1.3); unit files, perk names
and weapon references are checked by the loader (``game.io.load_game_roster``), which names
the field and the allowed values of anything it refuses.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

#: The committed file's name under ``docs/schemas``.
SCHEMA_FILE = "warsurge-game-roster.schema.json"


def base_schema() -> dict[str, Any]:
    """An entry's ``base``: an oval or rectangular base or hull (§1.3)."""
    size = {"type": "number", "minimum": 10, "maximum": 2000}
    return {
        "title": "Base",
        "description": "An oval or rectangular base, or a hull (Core Rules §1.3): length along "
        "the model's facing, width across it, in mm. Round bases: base_mm.",
        "type": "object",
        "properties": {
            "shape": {"enum": ["oval", "rect"]},
            "length_mm": size,
            "width_mm": size,
            "hull": {"type": "boolean", "description": "No base: the model's body or hull."},
        },
        "required": ["shape", "length_mm", "width_mm"],
        "additionalProperties": False,
    }


def game_roster_schema() -> dict[str, Any]:
    """JSON Schema (draft 2020-12) of a game roster file."""
    from warbench.rulesets.warsurge.io import _profile_defs

    defs = _profile_defs()
    defs["Base"] = base_schema()
    entry = {
        "title": "Roster entry",
        "description": "A unit: a unit file or an inline unit, with what the roster adds.",
        "type": "object",
        "properties": {
            "file": {"type": "string", "description": "A unit file, relative to the roster."},
            "unit": {"$ref": "#/$defs/UnitProfile"},
            "weapons": {"type": "array", "items": {"$ref": "#/$defs/WeaponProfile"}},
            "models": {"type": "array", "items": {"$ref": "#/$defs/ModelGroup"}, "minItems": 1},
            "points": {"type": "integer", "minimum": 0},
            "base_mm": {"type": "number", "minimum": 5, "maximum": 400},
            "base": {"$ref": "#/$defs/Base"},
            "name": {"type": "string"},
            "count": {"type": "integer", "minimum": 1, "maximum": 20},
            "traits": {"type": "array", "items": {"type": "string"}},
        },
        "oneOf": [{"required": ["file"]}, {"required": ["unit"]}],
        "not": {"required": ["base_mm", "base"]},
        "additionalProperties": False,
    }
    defs["RosterEntry"] = entry
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_FILE,
        "title": "WARSURGE game roster",
        "description": "A player, an optional team and the units they field. See docs/game.md.",
        "type": "object",
        "properties": {
            "$schema": {"type": "string"},
            "player": {"type": "string", "minLength": 1},
            "team": {"type": "string"},
            "units": {"type": "array", "items": {"$ref": "#/$defs/RosterEntry"}, "minItems": 1},
        },
        "required": ["player", "units"],
        "additionalProperties": False,
        "$defs": defs,
    }


def write_schema(directory: str | Path) -> Path:
    """(Re)write the committed schema into ``directory`` (``docs/schemas``)."""
    path = Path(directory) / SCHEMA_FILE
    text = json.dumps(game_roster_schema(), indent=2, ensure_ascii=False) + "\n"
    path.write_text(text, encoding="utf-8")
    return path
