"""Game records and replay at the protocol level, for every ruleset.

A record is JSON lines (a game in progress can be appended to and resumed):

* a header: ``{"type": "header", "format": "warbench-play-record/1", "ruleset": id,
  "ruleset_version": v, "seed": n, "rosters": [...], "board": ..., "options": {...},
  "digest": <initial state>}``;
* one line per action: ``{"type": "step", "step": k, "actor": player, "action": {...},
  "digest": <state after it>}`` (``actor`` -1 is chance: the recorded outcome of a chance
  decision, so a replay never rolls for it);
* once the game is over: ``{"type": "result", "winner": ..., "scores": [...], "reason": ...,
  "steps": n, "digest": <final state>}``.

Ruleset id and version + rosters + board + options + seed + actions replay a game exactly
(STYLE.md principle 3). :func:`replay` checks every digest and the result line and refuses a
record at the first step that differs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar

from pydantic import TypeAdapter, ValidationError

from warbench.kernel import readers
from warbench.kernel.errors import DataFileError, RulesError
from warbench.play.core import JSON, Event, ProtocolError, Result, Ruleset, SetupArgs

S = TypeVar("S")
A = TypeVar("A")
V = TypeVar("V")

RECORD_FORMAT = "warbench-play-record/1"


@dataclass(frozen=True)
class RecordHeader:
    """The first line of a record: everything a replay starts from."""

    ruleset: str
    ruleset_version: str
    seed: int
    rosters: list[JSON]
    board: JSON
    options: dict[str, JSON]
    digest: str
    format: Literal["warbench-play-record/1"] = "warbench-play-record/1"
    type: Literal["header"] = "header"

    @property
    def setup(self) -> SetupArgs:
        """The set-up arguments the header holds."""
        return SetupArgs(tuple(self.rosters), self.board, dict(self.options))


@dataclass(frozen=True)
class RecordStep:
    """One applied action: who made it (-1: chance), the action's JSON, the state's digest."""

    step: int
    actor: int
    action: JSON
    digest: str
    type: Literal["step"] = "step"


@dataclass(frozen=True)
class RecordResult:
    """The last line of a finished game."""

    winner: int | None
    scores: list[float]
    reason: str
    steps: int
    digest: str
    type: Literal["result"] = "result"

    @property
    def result(self) -> Result:
        """The line as a :class:`Result`."""
        return Result(self.winner, tuple(self.scores), self.reason)


RecordLine = RecordHeader | RecordStep | RecordResult
_LINE: TypeAdapter[RecordLine] = TypeAdapter(RecordLine)


def line_schema() -> dict[str, JSON]:
    """The JSON Schema of one record line (header, step or result)."""
    out = TypeAdapter(RecordLine).json_schema()
    out["title"] = "warbench play record line"
    return out


def _dump(line: RecordLine) -> str:
    return json.dumps(_LINE.dump_python(line, mode="json"), sort_keys=True, allow_nan=False)


@dataclass
class GameRecord:
    """A game's header, its steps and (once over) its result."""

    header: RecordHeader
    steps: list[RecordStep] = field(default_factory=list)
    result: RecordResult | None = None

    @classmethod
    def start(
        cls, ruleset: Ruleset[Any, Any, Any], setup: SetupArgs, seed: int, digest: str
    ) -> GameRecord:
        """A new record for a game set up with ``setup`` and ``seed``."""
        return cls(
            RecordHeader(
                ruleset=ruleset.id,
                ruleset_version=ruleset.version,
                seed=seed,
                rosters=list(setup.rosters),
                board=setup.board,
                options=dict(setup.options),
                digest=digest,
            )
        )

    @property
    def finished(self) -> bool:
        """Whether the record has its result line."""
        return self.result is not None

    def add(self, actor: int, action: JSON, digest: str) -> RecordStep:
        """Append one applied action with the digest of the state it produced."""
        if self.result is not None:
            raise ProtocolError("the record is finished; no step can follow", "game record")
        row = RecordStep(len(self.steps) + 1, actor, action, digest)
        self.steps.append(row)
        return row

    def finish(self, result: Result, digest: str) -> None:
        """Close the record with the game's result."""
        self.result = RecordResult(
            result.winner, list(result.scores), result.reason, len(self.steps), digest
        )

    # -- text ------------------------------------------------------------------------------
    def lines(self) -> list[str]:
        """The record's JSON lines."""
        out = [_dump(self.header)]
        out += [_dump(s) for s in self.steps]
        if self.result is not None:
            out.append(_dump(self.result))
        return out

    def dumps(self) -> str:
        """The record as text (one JSON object a line)."""
        return "\n".join(self.lines()) + "\n"

    def save(self, path: str | Path) -> None:
        """Write the record to ``path``."""
        Path(path).write_text(self.dumps(), encoding="utf-8")

    @classmethod
    def loads(cls, text: str, source: str = "<record>") -> GameRecord:
        """Read a record; a bad line is a :class:`DataFileError` naming the line."""
        header: RecordHeader | None = None
        steps: list[RecordStep] = []
        result: RecordResult | None = None
        for n, raw in enumerate(text.splitlines(), 1):
            if not raw.strip():
                continue
            try:  # bounded: nesting, keys once, finite numbers (docs/formats.md)
                data = readers.parse_json(raw, source, readers.GAME_RECORD)
            except DataFileError as exc:
                bad = "is not JSON:" if exc.reason.startswith("malformed JSON") else ":"
                raise DataFileError(source, f"line {n} {bad} {exc.reason}") from None
            try:
                line = _LINE.validate_python(data)
            except ValidationError as exc:
                raise DataFileError(
                    source, f"line {n}: {readers.validation_sentence(exc)}"
                ) from None
            if header is None:
                if not isinstance(line, RecordHeader):
                    raise DataFileError(source, "the first line must be the record header")
                header = line
            elif isinstance(line, RecordHeader):
                raise DataFileError(source, f"line {n}: a second header")
            elif result is not None:
                raise DataFileError(source, f"line {n}: nothing may follow the result line")
            elif isinstance(line, RecordStep):
                if line.step != len(steps) + 1:
                    raise DataFileError(
                        source, f"line {n}: step {line.step}, expected {len(steps) + 1}"
                    )
                steps.append(line)
            else:
                result = line
        if header is None:
            raise DataFileError(source, "empty record: the first line must be the header")
        return cls(header, steps, result)

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Read a record file (see :meth:`loads`)."""
        text = readers.read_text(path, readers.GAME_RECORD)  # bounded: docs/formats.md
        return cls.loads(text, str(path))


@dataclass
class Replay(Generic[S]):
    """A replayed record: the state reached, every event, the steps applied, the result."""

    state: S
    events: list[Event]
    steps: int
    digests: list[str]
    result: Result | None

    @property
    def finished(self) -> bool:
        """Whether the replayed game is over."""
        return self.result is not None


def replay(
    record: GameRecord,
    ruleset: Ruleset[S, A, V] | None = None,
    *,
    verify: bool = True,
    upto: int | None = None,
) -> Replay[S]:
    """Re-apply a record's actions (the first ``upto`` of them, default all).

    ``ruleset`` defaults to the registry's entry for the header's ruleset id. With
    ``verify``: the ruleset id and version must match, the initial state and every step's
    state must have the recorded digest, and a result line must match the final state.
    Returns the state reached, so an unfinished game can be resumed (``run_game(record=...)``).
    """
    h = record.header
    if ruleset is None:
        from warbench.play.registry import get_ruleset

        ruleset = get_ruleset(h.ruleset)
    if verify and (h.ruleset, h.ruleset_version) != (ruleset.id, ruleset.version):
        raise ProtocolError(
            f"the record was made with {h.ruleset} {h.ruleset_version}; "
            f"this is {ruleset.id} {ruleset.version}",
            "game record",
        )
    state = ruleset.setup(h.rosters, h.board, h.options, h.seed)
    if verify and ruleset.digest(state) != h.digest:
        raise ProtocolError(
            f"the set-up state differs from the record ({ruleset.digest(state)} vs {h.digest})",
            "game record",
        )
    events: list[Event] = []
    digests: list[str] = []
    steps = record.steps if upto is None else record.steps[:upto]
    for row in steps:
        try:
            action = ruleset.actions.load(row.action)
            state, evs = ruleset.apply(state, action, row.actor)
        except RulesError as exc:
            raise ProtocolError(
                f"step {row.step} of the record is illegal: {exc.reason}", exc.rule
            ) from None
        events.extend(evs)
        d = ruleset.digest(state)
        digests.append(d)
        if verify and d != row.digest:
            raise ProtocolError(
                f"replay differs from the record at step {row.step} "
                f"(state {d} vs recorded {row.digest})",
                "game record",
            )
    result = ruleset.result(state) if ruleset.is_over(state) else None
    if verify and upto is None and record.result is not None:
        r = record.result
        if result is None:
            raise ProtocolError(
                "the record claims a result but the game is not over", "game record"
            )
        if r.steps != len(steps) or r.digest != ruleset.digest(state):
            raise ProtocolError("the final state differs from the recorded result", "game record")
        if r.result.winner != result.winner or list(r.scores) != list(result.scores):
            raise ProtocolError(
                f"the recorded result ({r.result.to_json()}) differs from the replayed one "
                f"({result.to_json()})",
                "game record",
            )
    if verify and upto is None and record.result is None and result is not None:
        raise ProtocolError("the game is over but the record has no result line", "game record")
    return Replay(state, events, len(steps), digests, result)
