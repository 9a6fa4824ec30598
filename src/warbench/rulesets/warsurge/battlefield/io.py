"""Board files (YAML or JSON) and the sample boards shipped with warbench.

A board file is one mapping (``docs/battlefield.md`` describes every field)::

    name: Ruins
    width: 48
    height: 48
    deployment: {layout: long-edge, depth: 12}
    terrain:
      - {name: Ruin A, rect: [10, 30, 16, 36], blocks_los: true, difficult: true}
      - {name: Pit, circle: {center: [24, 24], radius: 2}, dangerous: {kind: roll}}

Loading raises :class:`DataFileError` when the file cannot be read or parsed, and
:class:`ProfileError` naming the file, the field (``terrain[1].polygon``), the value and what
is allowed when the content is wrong. A Dangerous Ground weapon (§4.6) is checked as a Weapon
profile, a terrain profile (§10.2 B) as a unit. ``docs/schemas/warsurge-board.schema.json`` is
:func:`board_file_schema`.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from warbench.kernel import readers
from warbench.kernel.errors import DataFileError, ProfileError, UnknownNameError
from warbench.rulesets.warsurge.battlefield.model import Board
from warbench.rulesets.warsurge.io import SCHEMA_DIALECT, _read, _write, unit_from_data
from warbench.rulesets.warsurge.profiles import WeaponProfile

__all__ = [
    "BOARD_SCHEMA_FILE",
    "board_file_schema",
    "board_from_data",
    "board_to_data",
    "dump_board",
    "load_board",
    "sample_board",
    "sample_boards",
]

PathLike = str | Path

_ALLOWED = {
    "name": "text of up to 80 characters",
    "width": 'a number of inches above 0 (at most 1000")',
    "polygon": "a list of at least 3 [x, y] corners forming a simple polygon on the board",
    "rect": "[x0, y0, x1, y1]",
    "circle": "{center: [x, y], radius: r}",
    "cover": "a whole number from 0 to 10 (the Cover Bonus, §5.6)",
    "kind": "roll or weapon (§4.6)",
    "layout": "thirds, long-edge, short-edge, diagonal or quarters",
    "players": "2 to 4",
    "depth": "a number of inches above 0",
    "transport": "a whole number of Points, 0 or more (§6, §10.2)",
    "height": "a number of inches above 0 (at most 200; the top of the piece, L2360)",
    "level": "a number of inches from 0, below the piece's height (the floor models stand on)",
    "hp": "a whole number from 1 to 10000 (destructible terrain, §10.3)",
    "fire_points": "a whole number from 0 to 100 (§6.9)",
    "armed": "true or false (terrain weapons in play, §10.2 L4388-4392)",
    "army": "a side's number from 0 to 7 (the piece is a unit of that army, §10.2 L4424-4430)",
    "shape": "round, oval or rect (§1.3)",
    "save": "a Cover Save such as 5+ (§10.4)",
    "defence": "a whole number from -10 to 10 (§10.4)",
    "armour": "a whole number of steps from -5 to 5 (§10.4)",
    "aegis": "a whole number of steps from -5 to 5 (§10.4)",
    "at": "[x, y] on the board, in inches",
    "diameter_mm": "a number of millimetres above 0 (at most 500)",
    "control_range": 'a number of inches from 0 to 48 (default 2", ruling 20)',
    "gates": "a list of {name, at: [x, y], embark: true/false, disembark: true/false} (§10.5)",
    "connected_to": "a list of other terrain pieces' names (§10.5)",
    "exits_to": "a list of other terrain pieces' names (§10.5, one way)",
    "profile": "a unit file's mapping: unit, weapons, models (§10.2 B)",
    "objectives": "a list of {name, at: [x, y]} or {name, terrain: NAME} (Perks L95)",
}


def _field(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def board_from_data(data: Any, source: str = "<data>") -> Board:
    """A :class:`Board` from parsed YAML/JSON, with precise errors."""
    if not isinstance(data, dict):
        raise ProfileError(
            "", type(data).__name__, "a mapping with width, height and terrain", source=source
        )
    data = {k: v for k, v in data.items() if k != "$schema"}
    try:
        board = Board.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors()
        errors.sort(key=lambda e: e["type"] != "extra_forbidden")
        first = errors[0]
        loc = tuple(first["loc"])
        last = next((p for p in reversed(loc) if isinstance(p, str)), "")
        allowed = _ALLOWED.get(last, "see docs/battlefield.md")
        if last == "height" and len(loc) == 1:
            allowed = 'a number of inches above 0 (at most 1000")'
        elif last == "height":
            allowed = _ALLOWED["height"]
        if first["type"] == "extra_forbidden":
            allowed = "a known field (see docs/battlefield.md)"
        more = f"; {len(errors) - 1} more problem(s)" if len(errors) > 1 else ""
        value = first.get("input") if first["type"] != "missing" else "(missing)"
        raise ProfileError(
            _field(loc) or "board",
            value,
            allowed,
            source=source,
            reason=first["msg"].removeprefix("Value error, ") + more,
        ) from exc
    for i, t in enumerate(board.terrain):
        if t.dangerous is not None and t.dangerous.weapon is not None:
            weapon = {"name": f"{t.name} (Dangerous Ground)", **t.dangerous.weapon}
            try:
                WeaponProfile.model_validate(weapon)
            except ValidationError as exc:
                e = exc.errors()[0]
                raise ProfileError(
                    _field(("terrain", i, "dangerous", "weapon", *e["loc"])),
                    e.get("input"),
                    "a Weapon profile (§1.6, §4.6)",
                    source=source,
                    reason=e["msg"],
                ) from exc
        if t.profile is not None:
            unit_from_data(t.profile, source, f"terrain[{i}].profile")
    return board


def board_to_data(board: Board) -> dict[str, Any]:
    """The plain data of ``board`` (round-trips through :func:`board_from_data`)."""
    data = board.model_dump(mode="json", exclude_defaults=True)
    data.setdefault("width", board.width)
    data.setdefault("height", board.height)
    for t in data.get("terrain", []):
        t["polygon"] = [list(p) for p in t["polygon"]]
    for z in data.get("zones", []):
        z["polygon"] = [list(p) for p in z["polygon"]]
    return data


def load_board(path: PathLike) -> Board:
    """Read a board file (``.yaml``, ``.yml`` or ``.json``)."""
    data, source = _read(path, readers.BOARD_FILE)
    return board_from_data(data, source)


def dump_board(board: Board, path: PathLike) -> None:
    """Write ``board`` as YAML or JSON (by the file's suffix)."""
    _write(board_to_data(board), path)


#: The committed JSON Schema of board files (``docs/schemas/``).
BOARD_SCHEMA_FILE = "warsurge-board.schema.json"

_POINT = {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2}
_SHORTHANDS: dict[str, Any] = {
    "rect": {
        "description": "[x0, y0, x1, y1]: a rectangle (shorthand for polygon).",
        "type": "array",
        "items": {"type": "number"},
        "minItems": 4,
        "maxItems": 4,
    },
    "circle": {
        "description": "{center: [x, y], radius: r, sides: 16}: a regular polygon.",
        "type": "object",
        "properties": {
            "center": _POINT,
            "centre": _POINT,
            "radius": {"type": "number", "exclusiveMinimum": 0},
            "sides": {"type": "integer", "minimum": 3, "maximum": 360},
        },
        "required": ["radius"],
        "additionalProperties": False,
    },
}


def board_file_schema() -> dict[str, Any]:
    """JSON Schema of a board file (committed as ``docs/schemas/warsurge-board.schema.json``):
    the :class:`Board` model, with the ``rect`` / ``circle`` shorthands, a terrain profile as a
    unit of the unit-file schema and a Dangerous Ground weapon as a Weapon profile."""
    schema = Board.model_json_schema()
    defs: dict[str, Any] = schema.pop("$defs")
    for name in ("Terrain", "Zone"):
        d = defs[name]
        d["properties"].update(_SHORTHANDS)
        d["required"] = [r for r in d.get("required", []) if r != "polygon"]
        d["oneOf"] = [{"required": [k]} for k in ("polygon", "rect", "circle")]
    defs["Terrain"]["properties"]["profile"] = {
        "description": "A terrain profile (§10.2 B): the mapping of a unit file.",
        "anyOf": [
            {"$ref": "warsurge-unit.schema.json#/$defs/UnitEntry"},
            {"type": "null"},
        ],
    }
    defs["DangerousSpec"]["properties"]["weapon"] = {
        "description": "A Weapon profile without its name (§4.6).",
        "anyOf": [{"type": "object"}, {"type": "null"}],
    }
    schema["properties"]["$schema"] = {"type": "string"}
    return {
        "$schema": SCHEMA_DIALECT,
        "$id": BOARD_SCHEMA_FILE,
        "title": "WARSURGE board file",
        "description": "A Battlefield: size, terrain, zones, objectives. See docs/battlefield.md.",
        **schema,
        "$defs": dict(sorted(defs.items())),
    }


def write_board_schema(directory: PathLike) -> Path:
    """(Re)write the board schema into ``directory`` (``docs/schemas``); returns its path."""
    p = Path(directory) / BOARD_SCHEMA_FILE
    text = json.dumps(board_file_schema(), indent=2, ensure_ascii=False) + "\n"
    p.write_text(text, encoding="utf-8")
    return p


def _boards_dir() -> Any:
    return resources.files("warbench.rulesets.warsurge").joinpath("data", "boards")


def sample_boards() -> list[str]:
    """Names of the sample boards shipped with warbench (``open_field_42x32`` ...)."""
    return sorted(
        p.name.removesuffix(".yaml") for p in _boards_dir().iterdir() if p.name.endswith(".yaml")
    )


def sample_board(name: str) -> Board:
    """A sample board by name (``open_field_42x32``, ``ruins_48x48``, ``city_72x48``,
    ``hive_city_72x48``)."""
    names = sample_boards()
    if name not in names:
        raise UnknownNameError("sample board", name, names)
    item = _boards_dir().joinpath(f"{name}.yaml")
    try:
        with resources.as_file(item) as p:
            return load_board(p)
    except FileNotFoundError as exc:  # pragma: no cover - packaging problem
        raise DataFileError(str(item), "sample board missing from the package") from exc
