"""JSON Schemas of the protocol's documents, committed under ``docs/schemas/play/``.

The protocol's own shapes (record lines, events, refusals, decisions, results, legal-action
sets, batch rows) and, per registered ruleset, its actions, states and views (from the
ruleset's codecs). ``tests/play/test_schemas.py`` fails when a committed schema is stale;
regenerate with::

    .venv/bin/python -c "from warbench.play.schemas import write_schemas; write_schemas()"
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from warbench.play.core import JSON, Decision, Event, Preview, Refusal, Result, Ruleset
from warbench.play.record import line_schema
from warbench.play.runner import BatchRow

#: Where the schemas are committed, relative to the repository root.
SCHEMA_DIR = Path("docs") / "schemas" / "play"

_LEGAL_SET: dict[str, JSON] = {
    "title": "warbench legal actions",
    "description": "LegalSet.to_json: the listed actions and the parameterised families.",
    "type": "object",
    "required": ["player", "finite", "actions", "families"],
    "properties": {
        "player": {"type": "integer"},
        "finite": {"type": "boolean"},
        "actions": {"type": "array", "items": {"type": "object"}},
        "families": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["name", "params"],
                "properties": {
                    "name": {"type": "string"},
                    "params": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["type", "name"],
                            "properties": {
                                "type": {"enum": ["interval", "box", "choice"]},
                                "name": {"type": "string"},
                            },
                        },
                    },
                },
            },
        },
    },
}


def _titled(tp: Any, title: str) -> dict[str, JSON]:
    out: dict[str, JSON] = TypeAdapter(tp).json_schema()
    out["title"] = title
    return out


def protocol_schemas() -> dict[str, dict[str, JSON]]:
    """The ruleset-neutral schemas, by file name."""
    return {
        "record-line.schema.json": line_schema(),
        "event.schema.json": _titled(Event, "warbench event"),
        "refusal.schema.json": _titled(Refusal, "warbench refusal"),
        "preview.schema.json": _titled(Preview, "warbench preview"),
        "decision.schema.json": _titled(Decision[Any], "warbench decision"),
        "result.schema.json": _titled(Result, "warbench result"),
        "legal-actions.schema.json": _LEGAL_SET,
        "batch-row.schema.json": _titled(BatchRow, "warbench batch row"),
    }


def ruleset_schemas(ruleset: Ruleset[Any, Any, Any]) -> dict[str, dict[str, JSON]]:
    """A ruleset's action, state and view schemas, by file name."""
    return {
        f"{ruleset.id}-action.schema.json": ruleset.actions.schema(),
        f"{ruleset.id}-state.schema.json": ruleset.states.schema(),
        f"{ruleset.id}-view.schema.json": ruleset.views.schema(),
    }


def all_schemas() -> dict[str, dict[str, JSON]]:
    """Every schema committed under docs/schemas/play/ (the protocol's and the toy's)."""
    from warbench.play.toy import DiceDuel

    return {**protocol_schemas(), **ruleset_schemas(DiceDuel())}


def dumps_schema(schema: dict[str, JSON]) -> str:
    """A schema as the committed text (sorted keys, two-space indent)."""
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


def write_schemas(directory: str | Path = SCHEMA_DIR) -> list[Path]:
    """Write every schema into ``directory``; return the files written."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, schema in sorted(all_schemas().items()):
        path = out / name
        path.write_text(dumps_schema(schema), encoding="utf-8")
        written.append(path)
    return written
