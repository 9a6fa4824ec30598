"""The ruleset registry, the committed JSON Schemas, and the layering of warbench.play."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import jsonschema
import pytest

from warbench.kernel.errors import UnknownNameError
from warbench.play import (
    ProtocolError,
    RandomLegalPlayer,
    SetupArgs,
    get_ruleset,
    register,
    ruleset_ids,
    run_game,
)
from warbench.play import registry as reg
from warbench.play.schemas import all_schemas, dumps_schema
from warbench.play.toy import DiceDuel

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "docs" / "schemas" / "play"
PLAY = ROOT / "src" / "warbench" / "play"


def test_registry_builds_rulesets_lazily_and_suggests_names() -> None:
    assert "toy-duel" in ruleset_ids()
    assert isinstance(get_ruleset("toy-duel"), DiceDuel)
    with pytest.raises(UnknownNameError, match="did you mean 'toy-duel'"):
        get_ruleset("toy-dual")


def test_register_checks_the_implementation_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reg, "RULESETS", dict(reg.RULESETS))

    class Half:
        id = "half"
        version = "1"

        def setup(self) -> None: ...

    with pytest.raises(ProtocolError, match=r"missing \['pending'"):
        register("half", Half)  # type: ignore[arg-type]
    with pytest.raises(ProtocolError, match="calls itself 'toy-duel'"):
        register("duel2", DiceDuel)
    with pytest.raises(ProtocolError, match="already registered"):
        register("toy-duel", DiceDuel)
    register("toy-duel", DiceDuel, replace=True)


@pytest.mark.parametrize("name", sorted(all_schemas()))
def test_committed_schema_is_current(name: str) -> None:
    committed = (SCHEMAS / name).read_text(encoding="utf-8")
    assert committed == dumps_schema(all_schemas()[name]), (
        f"docs/schemas/play/{name} is stale; regenerate with: .venv/bin/python -c "
        '"from warbench.play.schemas import write_schemas; write_schemas()"'
    )
    jsonschema.Draft202012Validator.check_schema(json.loads(committed))


def test_no_stray_schema_files() -> None:
    assert sorted(p.name for p in SCHEMAS.glob("*.json")) == sorted(all_schemas())


def test_a_game_validates_against_the_schemas(duel: DiceDuel, setup: SetupArgs) -> None:
    run = run_game(duel, setup, [RandomLegalPlayer(1), RandomLegalPlayer(2)], 9)
    schemas = all_schemas()
    line = jsonschema.Draft202012Validator(schemas["record-line.schema.json"])
    action = jsonschema.Draft202012Validator(schemas["toy-duel-action.schema.json"])
    event = jsonschema.Draft202012Validator(schemas["event.schema.json"])
    for text in run.record.lines():
        row = json.loads(text)
        line.validate(row)
        if row["type"] == "step":
            action.validate(row["action"])
    for e in run.events:
        event.validate(e.to_json())
    state = jsonschema.Draft202012Validator(schemas["toy-duel-state.schema.json"])
    state.validate(duel.states.dump(run.state))
    view = jsonschema.Draft202012Validator(schemas["toy-duel-view.schema.json"])
    view.validate(duel.views.dump(duel.view(run.state, 0)))
    with pytest.raises(jsonschema.ValidationError):
        action.validate({"kind": "move"})
    decision = jsonschema.Draft202012Validator(schemas["decision.schema.json"])
    s = duel.setup(setup.rosters, setup.board, setup.options, 9)
    for d in duel.pending(s):  # a chance decision with its outcomes
        decision.validate(d.to_json(duel.actions))
    assert run.result is not None
    jsonschema.Draft202012Validator(schemas["result.schema.json"]).validate(run.result.to_json())


def test_play_imports_no_ruleset() -> None:
    """Layers point down (STYLE.md principle 7): rulesets import play, never the reverse."""
    for path in PLAY.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for n in names:
                assert not n.startswith(
                    ("warbench.rulesets", "warbench.cli", "warbench.storage")
                ), f"{path.name} imports {n}"


def test_step_dice_match_the_warsurge_engine() -> None:
    """play.step_seed is WARSURGE's derivation, so moving that engine onto the protocol
    changes no roll (docs/protocol.md, "WARSURGE on the protocol")."""
    from warbench.play import step_dice, step_seed
    from warbench.rulesets.warsurge.game.state import step_seed as warsurge_step_seed

    for seed, step in [(0, 0), (7, 1), (2**62 + 5, 300)]:
        assert step_seed(seed, step) == warsurge_step_seed(seed, step)
    from warbench.kernel.dice import SeededDice

    assert step_dice(7, 3).roll_dice(20) == SeededDice(warsurge_step_seed(7, 3)).roll_dice(20)
