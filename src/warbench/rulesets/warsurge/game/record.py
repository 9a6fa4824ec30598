"""Game records: ruleset version + rosters + battlefield + seed + actions replay a game exactly.

A record is JSON lines (one object per line, so a game in progress can be appended to and
resumed):

* ``{"type": "header", ...}``: format, ruleset and engine versions, the seed, the game
  settings, every player's roster written out in full (with the unit costs the game used) and
  the battlefield;
* ``{"type": "action", "step": k, "action": {...}, "digest": "..."}`` per action, with the
  hash of the state after it;
* ``{"type": "result", ...}`` once the game is over: values, winner, final digest.

:func:`replay` re-applies the actions from the header and checks every digest and the result
line (winner, values, turns, final digest), so a record that does not reproduce its game is
refused with the first step (or result field) that differs.

Reading is bounded like every other input (``kernel.readers``): a record is UTF-8 JSON lines of
at most ``GAME_RECORD.max_bytes``; every line is checked against its schema (header, action
with a known ``kind`` and typed fields, result), and an error names the line and the field.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal

import pydantic
from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from warbench.kernel import readers
from warbench.kernel.errors import DataFileError, RulesError, preview
from warbench.rulesets.warsurge import RULESET_VERSION
from warbench.rulesets.warsurge.battlefield import board_from_data, board_to_data
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import _KINDS, Action, action_to_dict
from warbench.rulesets.warsurge.game.advstate import Playstyle
from warbench.rulesets.warsurge.game.events import Event
from warbench.rulesets.warsurge.game.geom import Field
from warbench.rulesets.warsurge.game.io import roster_from_data, roster_to_data
from warbench.rulesets.warsurge.game.state import (
    Automation,
    GameSetup,
    GameState,
    PlayerSetup,
    build_setup,
)

RECORD_FORMAT = "warbench-game-record/1"


@dataclass
class GameRecord:
    """Everything needed to replay a game, plus the digests that prove it."""

    setup: GameSetup
    seed: int
    actions: list[Action] = field(default_factory=list)
    digests: list[str] = field(default_factory=list)
    ruleset_version: str = RULESET_VERSION
    engine_version: str = ""
    result: dict[str, Any] | None = None
    #: The line of the result in the file read (for messages); ``None`` when not read.
    result_line: int | None = None

    def __post_init__(self) -> None:
        if not self.engine_version:
            from warbench.rulesets.warsurge.game import ENGINE_VERSION

            self.engine_version = ENGINE_VERSION

    # -- writing ---------------------------------------------------------------------------
    def header(self) -> dict[str, Any]:
        s = self.setup
        return {
            "type": "header",
            "format": RECORD_FORMAT,
            "ruleset_version": self.ruleset_version,
            "engine_version": self.engine_version,
            "seed": self.seed,
            "game_length": s.game_length,
            "max_turns": s.max_turns,
            "automation": sorted(a.value for a in s.automation),
            "players": [roster_to_data(p) for p in s.players],
            "unit_points": [u.points for u in s.units],
            "board": board_to_data(s.field.board),
            # Advanced only (§9), so Standard records are unchanged
            **(
                {"playstyle": s.playstyle.value, "point_limit": s.point_limit}
                if s.playstyle is not Playstyle.STANDARD
                else {}
            ),
        }

    def lines(self) -> list[str]:
        out = [json.dumps(self.header(), sort_keys=True)]
        for k, a in enumerate(self.actions):
            row: dict[str, Any] = {"type": "action", "step": k + 1, "action": action_to_dict(a)}
            if k < len(self.digests):
                row["digest"] = self.digests[k]
            out.append(json.dumps(row, sort_keys=True))
        if self.result is not None:
            out.append(json.dumps({"type": "result", **self.result}, sort_keys=True))
        return out

    def save(self, path: str | Path) -> None:
        Path(path).write_text("\n".join(self.lines()) + "\n", encoding="utf-8")

    def add(self, action: Action, state: GameState) -> None:
        """Append one applied action and the digest of the state it produced."""
        self.actions.append(action)
        self.digests.append(state.digest())
        if state.over and state.result is not None:
            self.result = result_dict(state)


def result_dict(state: GameState) -> dict[str, Any]:
    r = state.result
    assert r is not None
    names = state.setup.sides
    return {
        "values": {names[s]: round(v, 4) for s, v in enumerate(r.values)},
        "winner": None if r.winner is None else names[r.winner],
        "turns": r.turns,
        "digest": state.digest(),
    }


class _Header(BaseModel):
    """The first line of a record."""

    model_config = ConfigDict(extra="forbid")

    type: Literal["header"]
    format: str
    ruleset_version: str = ""
    engine_version: str = ""
    seed: int = pydantic.Field(ge=0, lt=2**64)
    game_length: int | None = pydantic.Field(default=None, ge=1, le=1000)
    max_turns: int = pydantic.Field(default=12, ge=1, le=1000)
    automation: list[Automation] = pydantic.Field(default_factory=list)
    players: list[dict[str, Any]] = pydantic.Field(min_length=1)
    unit_points: list[float] = pydantic.Field(default_factory=list)
    board: dict[str, Any]
    playstyle: Playstyle = Playstyle.STANDARD
    point_limit: int | None = pydantic.Field(default=None, ge=1)


class _ActionLine(BaseModel):
    """One action line; ``action`` is checked against the fields of its kind."""

    model_config = ConfigDict(extra="forbid")

    type: Literal["action"]
    step: int
    action: dict[str, Any]
    digest: str | None = None


class _ResultLine(BaseModel):
    """The result line; every field is compared with the replay's (see :func:`replay`)."""

    model_config = ConfigDict(extra="allow")

    type: Literal["result"]
    values: dict[str, float]
    winner: str | None
    turns: int
    digest: str


@cache
def _action_adapter(kind: str) -> TypeAdapter[Any]:
    return TypeAdapter(_KINDS[kind])


def _action(data: dict[str, Any], where: str) -> Action:
    """The action in an action line, its fields checked against its kind's types."""
    kind = data.get("kind")
    cls = _KINDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise DataFileError(
            where, f"action.kind = {preview(kind)} is not allowed; allowed: {', '.join(_KINDS)}"
        )
    names = [f.name for f in dataclasses.fields(cls)]
    for key in data:
        if key != "kind" and key not in names:
            raise DataFileError(
                where,
                f"action.{preview(key, 30)} is not a field of a {kind} action; "
                f"allowed: {', '.join(names) or '(none)'}",
            )
    fields = {k: v for k, v in data.items() if k != "kind"}
    try:
        action: Action = _action_adapter(kind).validate_python(fields)
    except ValidationError as exc:
        raise DataFileError(where, readers.validation_sentence(exc, "action")) from None
    return action


def _line(model: type[BaseModel], row: dict[str, Any], where: str) -> Any:
    try:
        return model.model_validate(row)
    except ValidationError as exc:
        raise DataFileError(where, readers.validation_sentence(exc)) from None


def setup_from_header(header: dict[str, Any], source: str = "<record>") -> GameSetup:
    """Rebuild the game settings of a record (rosters, board, costs, automation)."""
    if header.get("format") != RECORD_FORMAT:
        raise DataFileError(
            source,
            f"not a game record (format {preview(header.get('format'))}, want {RECORD_FORMAT})",
        )
    h: _Header = _line(_Header, header, f"{source}: line 1")
    players: list[PlayerSetup] = [
        roster_from_data(p, f"{source}: players[{i}]") for i, p in enumerate(h.players)
    ]
    board = board_from_data(h.board, f"{source}: board")
    it = iter(h.unit_points)

    def coster(unit: Any, listed: int | None) -> float:
        try:
            return float(next(it))
        except StopIteration:
            return float(listed or 0)

    return build_setup(
        players,
        Field(board),
        coster=coster,
        game_length=h.game_length,
        max_turns=h.max_turns,
        automation=frozenset(h.automation),
        playstyle=h.playstyle,
        point_limit=h.point_limit,
    )


def load_record(path: str | Path) -> GameRecord:
    """Read a JSON-lines game record (a finished game or one in progress)."""
    source = str(path)
    return loads_record(readers.read_text(path, readers.GAME_RECORD, source), source)


def loads_record(text: str, source: str = "<record>") -> GameRecord:
    """Read a JSON-lines game record from text (a file's or a saved game's in the database)."""
    if len(text) > readers.GAME_RECORD.max_bytes:
        raise readers.InputLimitError(
            source,
            f"the record is larger than {readers.GAME_RECORD.max_bytes // readers.MIB} MiB, "
            "the limit for a game record",
        )
    rows: list[tuple[int, dict[str, Any]]] = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{source}: line {n}"
        row = readers.parse_json(line, where, readers.GAME_RECORD)
        if not isinstance(row, dict):
            raise DataFileError(where, f"a record line is a JSON object, not {preview(row, 30)}")
        rows.append((n, row))
    if not rows or rows[0][1].get("type") != "header":
        raise DataFileError(source, "the first line must be the record header")
    header = rows[0][1]
    setup = setup_from_header(header, source)
    rec = GameRecord(
        setup,
        int(header["seed"]),
        ruleset_version=str(header.get("ruleset_version", "")),
        engine_version=str(header.get("engine_version", "")),
    )
    for n, row in rows[1:]:
        kind = row.get("type")
        where = f"{source}: line {n}"
        if rec.result is not None:
            raise DataFileError(where, "nothing may follow the result line")
        if kind == "action":
            step: _ActionLine = _line(_ActionLine, row, where)
            if step.step != len(rec.actions) + 1:
                raise DataFileError(
                    where, f"step = {step.step} is out of order; expected {len(rec.actions) + 1}"
                )
            if step.digest is not None and len(rec.digests) != len(rec.actions):
                raise DataFileError(where, "a digest follows a step recorded without one")
            rec.actions.append(_action(step.action, where))
            if step.digest is not None:
                rec.digests.append(step.digest)
        elif kind == "result":
            _line(_ResultLine, row, where)
            rec.result = {k: v for k, v in row.items() if k != "type"}
            rec.result_line = n
        else:
            raise DataFileError(where, f"unknown record line type {preview(kind)}")
    return rec


@dataclass
class Replay:
    state: GameState
    events: list[Event]
    steps: int


def replay(record: GameRecord, *, verify: bool = True) -> Replay:
    """Re-apply every action; with ``verify``, check each digest and the final result."""
    from warbench.rulesets.warsurge import RULESET_VERSION as current

    if verify and record.ruleset_version != current:
        raise RulesError(
            f"the record was made with ruleset {record.ruleset_version}; this is {current}",
            "game record",
        )
    state, events = engine.new_game(record.setup, record.seed)
    for k, action in enumerate(record.actions):
        try:
            state, evs = engine.apply(state, action)
        except RulesError as exc:
            raise RulesError(
                f"step {k + 1} of the record is illegal: {exc.reason}", exc.rule
            ) from exc
        events.extend(evs)
        if verify and k < len(record.digests) and state.digest() != record.digests[k]:
            raise RulesError(
                f"replay differs from the record at step {k + 1} "
                f"(state {state.digest()} vs recorded {record.digests[k]})",
                "game record",
            )
    if verify and record.result is not None:
        _verify_result(record, state)
    return Replay(state, events, len(record.actions))


_ABSENT = object()


def _verify_result(record: GameRecord, state: GameState) -> None:
    """The recorded result line says what the replay gives: winner, values, turns, digest."""
    assert record.result is not None
    where = f"line {record.result_line}" if record.result_line else "the result line"
    if not state.over:
        raise RulesError(
            f"{where}: the record claims a result but the game is not over", "game record"
        )
    replayed = result_dict(state)
    for key in (*replayed, *sorted(set(record.result) - set(replayed))):
        claimed, actual = record.result.get(key, _ABSENT), replayed.get(key, _ABSENT)
        if claimed == actual:
            continue
        if key == "digest":
            raise RulesError(
                f"{where}: the final state differs from the recorded result "
                f"(state {actual} vs recorded {preview(claimed)})",
                "game record",
            )
        said = "nothing" if claimed is _ABSENT else preview(claimed)
        got = "nothing" if actual is _ABSENT else preview(actual)
        raise RulesError(
            f"{where}: the recorded result gives {key} = {said}, the replay gives {got}",
            "game record",
        )
