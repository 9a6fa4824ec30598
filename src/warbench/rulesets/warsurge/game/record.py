"""Game records: ruleset version + rosters + battlefield + seed + actions replay a game exactly.

A record is JSON lines (one object per line, so a game in progress can be appended to and
resumed):

* ``{"type": "header", ...}``: format, ruleset and engine versions, the seed, the game
  settings, every player's roster written out in full (with the unit costs the game used) and
  the battlefield;
* ``{"type": "action", "step": k, "action": {...}, "digest": "..."}`` per action, with the
  hash of the state after it;
* ``{"type": "result", ...}`` once the game is over: values, winner, final digest.

:func:`replay` re-applies the actions from the header and checks every digest, so a record
that does not reproduce its game is refused with the first step that differs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from warbench.kernel.errors import DataFileError, RulesError
from warbench.rulesets.warsurge import RULESET_VERSION
from warbench.rulesets.warsurge.battlefield import board_from_data, board_to_data
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Action, action_from_dict, action_to_dict
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


def setup_from_header(header: dict[str, Any], source: str = "<record>") -> GameSetup:
    """Rebuild the game settings of a record (rosters, board, costs, automation)."""
    if header.get("format") != RECORD_FORMAT:
        raise DataFileError(
            source, f"not a game record (format {header.get('format')!r}, want {RECORD_FORMAT})"
        )
    players: list[PlayerSetup] = [
        roster_from_data(p, f"{source}: players[{i}]") for i, p in enumerate(header["players"])
    ]
    board = board_from_data(header["board"], f"{source}: board")
    costs = list(header.get("unit_points") or [])
    it = iter(costs)

    def coster(unit: Any, listed: int | None) -> float:
        try:
            return float(next(it))
        except StopIteration:
            return float(listed or 0)

    automation = frozenset(Automation(a) for a in header.get("automation", []))
    return build_setup(
        players,
        Field(board),
        coster=coster,
        game_length=header.get("game_length"),
        max_turns=int(header.get("max_turns", 12)),
        automation=automation,
    )


def load_record(path: str | Path) -> GameRecord:
    """Read a JSON-lines game record (a finished game or one in progress)."""
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise DataFileError(source, "file not found") from exc
    return loads_record(text, source)


def loads_record(text: str, source: str = "<record>") -> GameRecord:
    """Read a JSON-lines game record from text (a file's or a saved game's in the database)."""
    rows = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise DataFileError(source, f"line {n} is not JSON: {exc.msg}") from exc
    if not rows or rows[0].get("type") != "header":
        raise DataFileError(source, "the first line must be the record header")
    header = rows[0]
    setup = setup_from_header(header, source)
    rec = GameRecord(
        setup,
        int(header["seed"]),
        ruleset_version=str(header.get("ruleset_version", "")),
        engine_version=str(header.get("engine_version", "")),
    )
    for n, row in enumerate(rows[1:], 2):
        kind = row.get("type")
        if kind == "action":
            rec.actions.append(action_from_dict(row["action"], f"{source}: line {n}"))
            if "digest" in row:
                rec.digests.append(str(row["digest"]))
        elif kind == "result":
            rec.result = {k: v for k, v in row.items() if k != "type"}
        else:
            raise DataFileError(source, f"line {n}: unknown record line type {kind!r}")
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
        if not state.over:
            raise RulesError("the record claims a result but the game is not over", "game record")
        if record.result.get("digest") != state.digest():
            raise RulesError("the final state differs from the recorded result", "game record")
    return Replay(state, events, len(record.actions))
