"""Reading and writing WarEngine figure and force files (YAML or JSON), and JSON Schemas.

Bad input raises typed kernel errors naming the file, the field, the value and what is
allowed: :class:`DataFileError` for a file that cannot be read or parsed,
:class:`UnknownNameError` (with the closest names) for an unknown tweak, power or figure, and
:class:`ProfileError` for a value that is not on its table.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from warbench.kernel import readers
from warbench.kernel.errors import DataFileError, ProfileError, UnknownNameError, WarbenchError
from warbench.rulesets.file_kinds import other_ruleset_error
from warbench.rulesets.warengine.models import Figure, Force, UnknownName
from warbench.rulesets.warengine.tables import InvalidValue


def _dotted(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(file)"


def _convert(exc: ValidationError, source: str) -> WarbenchError:
    """The first pydantic error as a kernel error."""
    err = exc.errors()[0]
    field = _dotted(tuple(err["loc"]))
    cause = (err.get("ctx") or {}).get("error")
    if isinstance(cause, UnknownName):
        return UnknownNameError(cause.kind, cause.name, cause.known, where=f"{source}: {field}")
    if isinstance(cause, InvalidValue):
        return ProfileError(field, cause.value, cause.allowed, source=source)
    if err["type"] == "missing":
        return ProfileError(field, None, "a value (the field is required)", source=source)
    if err["type"] == "extra_forbidden":
        return ProfileError(field, err.get("input"), "only the documented fields", source=source)
    return ProfileError(field, err.get("input"), err["msg"], source=source)


def read_data(path: str | Path) -> Any:
    """Parse a YAML or JSON file (by its suffix) within the limits of a WarEngine file
    (``kernel.readers.WARENGINE_FILE``); raises :class:`DataFileError`."""
    return readers.load_data(path, readers.WARENGINE_FILE)


def parse_figure(data: Any, source: str = "<figure>") -> Figure:
    """A :class:`Figure` from plain data; raises kernel errors."""
    if not isinstance(data, dict):
        raise DataFileError(source, "a figure file holds a mapping (name, type, mv, ...)")
    try:
        return Figure.model_validate(data)
    except ValidationError as exc:
        other = other_ruleset_error(
            data, source, "warengine", "figure or force", "warbench warengine"
        )
        raise other or _convert(exc, source) from None
    except UnknownName as exc:
        raise UnknownNameError(exc.kind, exc.name, exc.known, where=source) from None


def parse_force(data: Any, source: str = "<force>", base: Path | None = None) -> Force:
    """A :class:`Force` from plain data; a figure given as a string is a file path relative
    to ``base`` (the force file's folder)."""
    if not isinstance(data, dict):
        raise DataFileError(source, "a force file holds a mapping (name, renown, force, ...)")
    other = other_ruleset_error(data, source, "warengine", "figure or force", "warbench warengine")
    if other is not None:  # a WARSURGE game roster has units too (session 34)
        raise other
    figures = data.get("figures")
    if isinstance(figures, dict):
        data = dict(data)
        resolved: dict[str, Any] = {}
        for key, value in figures.items():
            if isinstance(value, str):
                path = (base or Path(".")) / value
                resolved[key] = read_data(path)
                parse_figure(resolved[key], str(path))  # errors name the figure's own file
            else:
                resolved[key] = value
        data["figures"] = resolved
    try:
        return Force.model_validate(data)
    except ValidationError as exc:
        raise _convert(exc, source) from None
    except UnknownName as exc:
        raise UnknownNameError(exc.kind, exc.name, exc.known, where=f"{source}: units") from None


def is_force_data(data: Any) -> bool:
    """A force file has ``units``; a figure file has ``type``."""
    return isinstance(data, dict) and "units" in data


def load(path: str | Path) -> Figure | Force:
    """Load a figure or force file (YAML or JSON)."""
    p = Path(path)
    data = read_data(p)
    if is_force_data(data):
        return parse_force(data, str(p), p.parent)
    return parse_figure(data, str(p))


def load_figure(path: str | Path) -> Figure:
    """Load a figure file."""
    return parse_figure(read_data(path), str(path))


def load_force(path: str | Path) -> Force:
    """Load a force file; figures may be inline or paths relative to the force file."""
    p = Path(path)
    return parse_force(read_data(p), str(p), p.parent)


def to_data(obj: BaseModel) -> dict[str, Any]:
    """Plain data in canonical spelling, without default values."""
    return obj.model_dump(mode="json", exclude_defaults=True)


def dumps(obj: BaseModel, fmt: str = "yaml") -> str:
    """Serialise to ``yaml`` or ``json``; loading the text gives back an equal object."""
    data = to_data(obj)
    if fmt == "json":
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if fmt == "yaml":
        return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
    raise ProfileError("format", fmt, "yaml or json")


def loads(text: str, fmt: str = "yaml", source: str = "<text>") -> Figure | Force:
    """Parse text written by :func:`dumps`."""
    data = readers.parse_data(text, fmt, source, readers.WARENGINE_FILE)
    return parse_force(data, source) if is_force_data(data) else parse_figure(data, source)


def json_schemas() -> dict[str, dict[str, Any]]:
    """JSON Schemas of figure and force files, generated from the pydantic models."""
    return {
        "warengine-figure.json": Figure.model_json_schema(),
        "warengine-force.json": Force.model_json_schema(),
    }


def write_schemas(folder: str | Path) -> list[Path]:
    """Write :func:`json_schemas` under ``folder`` (docs/schemas)."""
    out = []
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    for name, schema in json_schemas().items():
        path = target / name
        path.write_text(json.dumps(schema, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        out.append(path)
    return out
