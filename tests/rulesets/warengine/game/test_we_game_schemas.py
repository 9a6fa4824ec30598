"""The WarEngine game's JSON Schemas (state, action, view, and the protocol's event) are
committed under ``docs/schemas/warengine/`` and current; a played game validates against them.

Regenerate with ``write()`` of this module (run from the repository root)::

    .venv/bin/python -c "import tests.rulesets.warengine.game.test_we_game_schemas as t; t.write()"
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from warbench.play import RandomLegalPlayer, SetupArgs, run_game
from warbench.play.schemas import dumps_schema, protocol_schemas, ruleset_schemas

from .helpers import WS, sample_forces

ROOT = Path(__file__).resolve().parents[4]
DIR = ROOT / "docs" / "schemas" / "warengine"


def schemas() -> dict[str, dict[str, Any]]:
    """The committed files: the ruleset's action, state and view, and the event schema."""
    out: dict[str, dict[str, Any]] = dict(ruleset_schemas(WS))
    out["warengine-event.schema.json"] = protocol_schemas()["event.schema.json"]
    return out


def write() -> None:
    """Write the schemas into docs/schemas/warengine/."""
    DIR.mkdir(parents=True, exist_ok=True)
    for name, schema in schemas().items():
        (DIR / name).write_text(dumps_schema(schema), encoding="utf-8")


@pytest.mark.parametrize("name", sorted(schemas()))
def test_committed_schema_is_current(name: str) -> None:
    committed = (DIR / name).read_text(encoding="utf-8")
    assert committed == dumps_schema(schemas()[name]), f"docs/schemas/warengine/{name} is stale"
    jsonschema.Draft202012Validator.check_schema(json.loads(committed))


def test_a_game_validates_against_the_schemas() -> None:
    sc = {n: jsonschema.Draft202012Validator(s) for n, s in schemas().items()}
    a, b = sample_forces()
    seen: list[Any] = []
    run = run_game(
        WS,
        SetupArgs((a, b), "ruins_48x48", {"turns": 2}),
        [RandomLegalPlayer(3), RandomLegalPlayer(4)],
        5,
        max_steps=60,
        on_step=lambda s, ev: seen.append((s, ev)),
    )
    assert run.record.steps
    for step in run.record.steps:
        sc["warengine-action.schema.json"].validate(step.action)
    for s, ev in seen[::4]:
        sc["warengine-state.schema.json"].validate(WS.states.dump(s))
        sc["warengine-view.schema.json"].validate(WS.views.dump(WS.view(s, 0)))
        for e in ev:
            sc["warengine-event.schema.json"].validate(e.to_json())
    assert not sc["warengine-action.schema.json"].is_valid({"kind": "move", "fig": "x"})
