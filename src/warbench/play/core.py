"""The game protocol's types: what every ruleset provides and what every caller may rely on.

A ruleset is an object that satisfies :class:`Ruleset` (``setup``, ``legal_actions``,
``check``, ``apply``, ``pending``, ``view``, ``result``, ``is_over``, ``digest`` and three
codecs for JSON). The CLI, the web app, the AI players, the batch runner and replay know only
this module, never a ruleset's internals (STYLE.md principle 13).

The anchors (STYLE.md):

* PokerKit: every operation three ways. ``ruleset.check`` returns a :class:`Refusal` (the
  sentence and the rule), :func:`can` answers yes or no, :func:`verify` raises
  :class:`IllegalAction`, ``ruleset.apply`` verifies, applies and returns the new state and its
  events. A :class:`Decision` carries the engine's automatic choice as its ``default``, so an
  ``automate`` set in the runner (PokerKit's ``Automation``) answers mechanical decisions the
  way the engine always did.
* OpenSpiel: chance is explicit. A decision of the :data:`CHANCE` player lists its outcomes
  with probabilities; dice rolled inside ``apply`` come from :func:`step_dice` (derived from
  the seed kept in the state and the step number), or from dice the caller injects.
  ``view(state, player)`` is what that player may see.
* boardgame.io: flow state (whose decision, which phase) is kept apart from board state;
  several players may be pending at once (simultaneous decisions).
* Pgx: ``apply`` is a pure step over a frozen state.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, runtime_checkable

from warbench.kernel.errors import RulesError

if TYPE_CHECKING:
    from warbench.kernel.dice import Dice, SeededChoices, SeededDice

#: A JSON value (what ``json.dumps`` writes and ``json.loads`` reads).
JSON = Any

#: The player id of chance (OpenSpiel's chance player): its decisions list their outcomes.
CHANCE = -1

S = TypeVar("S")  # a ruleset's state
A = TypeVar("A")  # a ruleset's action
V = TypeVar("V")  # a ruleset's per-player view
T = TypeVar("T")


# --------------------------------------------------------------------------------------------
# Refusals, events, decisions, results
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Refusal:
    """Why an action is illegal: a sentence a player understands and the rule it comes from
    (``"001_d3f5e425c5e1196d.txt §4.1"``, ``"toy §3"``)."""

    reason: str
    rule: str

    def error(self) -> IllegalAction:
        """The typed error that ``apply`` raises for this refusal."""
        return IllegalAction(self.reason, self.rule)


@dataclass(frozen=True)
class Placement:
    """Where one piece would stand after an action: ``unit`` and its ``model`` (0-based, as
    the ruleset's view numbers them), its centre before (``start``; ``None`` when it was not on
    the table: a deployment, a disembarkation) and after (``end``), and its facing after in
    degrees counter-clockwise from ``+x`` (``None``: a round base, or unchanged)."""

    unit: int
    model: int
    start: tuple[float, float] | None
    end: tuple[float, float]
    facing: float | None = None

    def to_json(self) -> dict[str, JSON]:
        """``{"unit", "model", "start", "end"}``, and ``facing`` when set."""
        out: dict[str, JSON] = {
            "unit": self.unit,
            "model": self.model,
            "start": None if self.start is None else [self.start[0], self.start[1]],
            "end": [self.end[0], self.end[1]],
        }
        if self.facing is not None:
            out["facing"] = self.facing
        return out


@dataclass(frozen=True)
class Preview:
    """Where a legal action would put the pieces it places, as the ruleset itself plans it
    (the very plan ``apply`` carries out; no dice rolled, nothing changed): what a page or a
    prompt shows before the player commits. A ruleset offers it with an optional
    ``preview(state, action, player) -> Preview | None`` method (see :func:`preview`).
    ``note``: what may still change the places after they are taken, by dice or a later rule
    the plan does not hold (e.g. a WARSURGE Charge perk's roll after a Move); ``None``: the
    places shown are where the pieces end.
    ``why_short``: why the pieces end short of where they were sent, in a player's words, each
    with its rule (the ruleset's own refusals of the longer moves); empty when they do not."""

    placements: tuple[Placement, ...]
    note: str | None = None
    why_short: tuple[str, ...] = ()

    def to_json(self) -> dict[str, JSON]:
        """``{"placements": [...]}`` (each :meth:`Placement.to_json`), and ``note`` and
        ``why_short`` when set."""
        out: dict[str, JSON] = {"placements": [p.to_json() for p in self.placements]}
        if self.note is not None:
            out["note"] = self.note
        if self.why_short:
            out["why_short"] = list(self.why_short)
        return out


class IllegalAction(RulesError):
    """An action broke a rule: ``reason`` and ``rule`` as in :class:`Refusal`.

    A :class:`~warbench.kernel.errors.RulesError`, so the CLI prints it as one line and a
    ruleset's own rule errors (WARSURGE's ``RulesError``) convert without loss.
    """

    @property
    def refusal(self) -> Refusal:
        """The error as a :class:`Refusal`."""
        return Refusal(self.reason, self.rule)


@dataclass(frozen=True)
class Event:
    """One consequence of an action (a roll, a move, a hit, a removal, a phase change).

    ``kind`` names it (``"roll"``, ``"hit"``), ``text`` is the sentence for the log, ``rule``
    cites the section that produced it and ``data`` holds its JSON details.
    """

    kind: str
    text: str
    rule: str = ""
    data: Mapping[str, JSON] = field(default_factory=dict, compare=False, hash=False)

    def to_json(self) -> dict[str, JSON]:
        """The event as JSON (``rule`` and ``data`` only when set)."""
        out: dict[str, JSON] = {"kind": self.kind, "text": self.text}
        if self.rule:
            out["rule"] = self.rule
        if self.data:
            out["data"] = dict(self.data)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> Event:
        """Read an event written by :meth:`to_json`."""
        return cls(
            str(data["kind"]),
            str(data["text"]),
            str(data.get("rule", "")),
            dict(data.get("data") or {}),
        )


@dataclass(frozen=True)
class Decision(Generic[A]):
    """A decision that is pending: who decides, what kind of decision, under which rule.

    * ``player``: the deciding player, or :data:`CHANCE`.
    * ``kind``: what is decided (``"turn"`` for a player's ordinary action, ``"casualties"``,
      ``"positions"``, ``"zone"``, ``"may"`` …); the runner's ``automate`` set names kinds.
    * ``default``: the engine's automatic choice for decisions the rules give to a player
      (every "may", casualties, positions): an :class:`~warbench.play.players.AutomaticPlayer`
      answers it, so an automated game plays exactly as the engine would by itself. ``None``
      when the rules give no automatic answer (a player's turn).
    * ``outcomes``: for a chance decision, every outcome with its probability (they add to 1).
    """

    player: int
    kind: str
    rule: str = ""
    prompt: str = ""
    default: A | None = None
    outcomes: tuple[tuple[A, float], ...] = ()

    @classmethod
    def on_demand(
        cls, player: int, kind: str, rule: str, prompt: str, later: Callable[[], A | None]
    ) -> Decision[A]:
        """A decision whose ``default`` is ``later()``, called on the first read of
        ``default`` and kept. A default that costs a search (a scripted player's choice) is
        then paid only by the callers that read it (issue 10: a search's playouts ask
        ``pending`` on every state, and most never read the default). The decision is the
        same either way: equality, hashing, ``replace``, JSON and pickling read ``default``
        like any field."""
        out = cls(player, kind, rule, prompt)
        # no value in the instance: reading ``default`` falls through to _LaterDefault
        object.__delattr__(out, "default")
        object.__setattr__(out, "_later", later)
        return out

    def __getstate__(self) -> dict[str, Any]:
        """Pickled with its default worked out (a ``later`` function may not pickle)."""
        _ = self.default
        return {k: v for k, v in self.__dict__.items() if k != "_later"}

    @property
    def is_chance(self) -> bool:
        """Whether chance decides (its ``outcomes`` are listed)."""
        return self.player == CHANCE

    def to_json(self, actions: Codec[A]) -> dict[str, JSON]:
        """The decision as JSON, its actions written with the ruleset's codec."""
        out: dict[str, JSON] = {"player": self.player, "kind": self.kind}
        if self.rule:
            out["rule"] = self.rule
        if self.prompt:
            out["prompt"] = self.prompt
        if self.default is not None:
            out["default"] = actions.dump(self.default)
        if self.outcomes:
            out["outcomes"] = [[actions.dump(a), p] for a, p in self.outcomes]
        return out


class _LaterDefault:
    """``Decision.default`` when the instance holds none: an on-demand decision's ``later()``,
    worked out once and kept in the instance (a non-data descriptor, so a kept or given
    ``default`` in the instance is found first and this is never called again)."""

    def __get__(self, obj: Decision[Any] | None, owner: type | None = None) -> Any:
        if obj is None:
            return None  # the class attribute: the field's default value
        later = obj.__dict__.get("_later")
        value = later() if later is not None else None
        object.__setattr__(obj, "default", value)
        return value


setattr(Decision, "default", _LaterDefault())  # noqa: B010 (mypy keeps the field's type)


@dataclass(frozen=True)
class Result:
    """The end of a game: the winner (``None`` for a draw), each player's score, and why."""

    winner: int | None
    scores: tuple[float, ...]
    reason: str = ""

    @property
    def draw(self) -> bool:
        """Whether the game is a draw."""
        return self.winner is None

    def to_json(self) -> dict[str, JSON]:
        """The result as JSON."""
        return {"winner": self.winner, "scores": list(self.scores), "reason": self.reason}

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> Result:
        """Read a result written by :meth:`to_json`."""
        w = data.get("winner")
        return cls(
            None if w is None else int(w),
            tuple(float(s) for s in data.get("scores", ())),
            str(data.get("reason", "")),
        )


@dataclass(frozen=True)
class SetupArgs:
    """What players agree before a game: rosters (one per player), the board and options, all
    JSON so a record's header holds them verbatim."""

    rosters: tuple[JSON, ...]
    board: JSON = None
    options: Mapping[str, JSON] = field(default_factory=dict)

    def to_json(self) -> dict[str, JSON]:
        """The set-up as JSON (what a record header holds)."""
        return {"rosters": list(self.rosters), "board": self.board, "options": dict(self.options)}


# --------------------------------------------------------------------------------------------
# Codecs and legal actions
# --------------------------------------------------------------------------------------------


@runtime_checkable
class Codec(Protocol[T]):
    """JSON for one of a ruleset's types: ``load(dump(x)) == x`` and a JSON Schema."""

    def dump(self, value: T) -> JSON:
        """JSON for ``value``."""

    def load(self, data: JSON) -> T:
        """The value written by :meth:`dump` (validated)."""

    def schema(self) -> dict[str, JSON]:
        """The JSON Schema of :meth:`dump`'s output."""


@runtime_checkable
class LegalActions(Protocol[A]):
    """What one player may do now (python-chess's ``board.legal_moves``): a queryable object.

    * ``action in legal`` checks any proposal (the ruleset's ``check``).
    * ``finite`` is true when iterating lists every legal action; otherwise iteration yields
      the enumerable part and ``families`` describe the parameterised rest (a move to any
      point: its parameter domains).
    * ``sample(rng, n)`` draws ``n`` legal actions (from both parts).
    """

    @property
    def player(self) -> int:
        """The player these actions belong to."""

    @property
    def finite(self) -> bool:
        """Whether iterating lists every legal action."""

    def __contains__(self, action: object) -> bool: ...

    def __iter__(self) -> Iterator[A]: ...

    def sample(self, rng: SeededChoices, n: int = 1) -> list[A]:
        """``n`` legal actions drawn
        with ``rng`` (fewer, or none, if
        nothing is legal)."""


# --------------------------------------------------------------------------------------------
# The ruleset protocol
# --------------------------------------------------------------------------------------------


@runtime_checkable
class Ruleset(Protocol[S, A, V]):
    """What a ruleset provides (docs/protocol.md keeps the contract of each part).

    ``id`` names the ruleset in records and the registry; ``version`` is its behaviour
    version: it changes when a seeded game would play differently, never for a refactor.
    """

    id: str
    version: str

    @property
    def actions(self) -> Codec[A]:
        """JSON for actions (record steps, web requests)."""
        ...

    @property
    def states(self) -> Codec[S]:
        """JSON for whole states (saves, digests, debugging)."""
        ...

    @property
    def views(self) -> Codec[V]:
        """JSON for per-player views (what a remote player receives)."""
        ...

    def setup(
        self, rosters: Sequence[JSON], board: JSON, options: Mapping[str, JSON], seed: int
    ) -> S:
        """The state before the first decision (the seed is kept in the state)."""
        ...

    def pending(self, state: S) -> tuple[Decision[A], ...]:
        """The decisions pending now, one per deciding player (several when simultaneous);
        empty exactly when the game is over."""
        ...

    def legal_actions(self, state: S, player: int) -> LegalActions[A]:
        """What ``player`` may do now (empty when no decision of theirs is pending)."""
        ...

    def check(self, state: S, action: A, player: int) -> Refusal | None:
        """``None`` if ``player`` may make ``action`` now, else the refusal. Rolls no dice."""
        ...

    def apply(
        self, state: S, action: A, player: int, dice: Dice | None = None
    ) -> tuple[S, list[Event]]:
        """Check (raise :class:`IllegalAction`) and apply; a new state and its events. Pure:
        dice come from ``dice`` if given, else from :func:`step_dice` of the state."""
        ...

    def view(self, state: S, player: int) -> V:
        """What ``player`` may see (hidden information removed)."""
        ...

    def is_over(self, state: S) -> bool:
        """Whether the game has ended."""

    def result(self, state: S) -> Result | None:
        """The result once the game is over, else ``None``."""
        ...

    def digest(self, state: S) -> str:
        """A short hash of everything that changes, for record and replay identity."""
        ...


# --------------------------------------------------------------------------------------------
# Helpers every caller uses
# --------------------------------------------------------------------------------------------


def verify(ruleset: Ruleset[S, A, V], state: S, action: A, player: int) -> None:
    """Raise :class:`IllegalAction` if ``player`` may not make ``action`` now."""
    refusal = ruleset.check(state, action, player)
    if refusal is not None:
        raise refusal.error()


def can(ruleset: Ruleset[S, A, V], state: S, action: A, player: int) -> bool:
    """Whether ``player`` may make ``action`` now."""
    return ruleset.check(state, action, player) is None


def preview(ruleset: Ruleset[S, A, V], state: S, action: A, player: int) -> Preview | None:
    """Where ``action`` would put the pieces it places (:class:`Preview`), if the ruleset
    previews actions (an optional ``preview`` method) and this one places pieces; ``None``
    otherwise, and for an action ``check`` refuses. Rolls no dice, changes nothing."""
    planned = getattr(ruleset, "preview", None)
    if not callable(planned) or ruleset.check(state, action, player) is not None:
        return None
    out = planned(state, action, player)
    return out if isinstance(out, Preview) else None


def canonical(data: JSON) -> str:
    """The canonical JSON text of a value (sorted keys, no spaces): what digests hash."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), allow_nan=False)


def digest_of(data: JSON) -> str:
    """A 16-hex-digit SHA-256 digest of a JSON value (the default state digest)."""
    return hashlib.sha256(canonical(data).encode()).hexdigest()[:16]


def step_seed(seed: int, step: int) -> int:
    """The seed of the dice of one step, from the game's seed (independent streams).

    The same derivation as WARSURGE's ``game.state.step_seed``, so that engine can use this
    one without changing a single roll.
    """
    import numpy as np

    ss = np.random.SeedSequence([seed & (2**63 - 1), step])
    a, b = (int(x) for x in ss.generate_state(2))
    return ((a << 32) | b) & (2**63 - 1)


def step_dice(seed: int, step: int) -> SeededDice:
    """The dice of step ``step`` of a game seeded ``seed`` (so ``apply`` stays pure).

    Light dice (no NumPy until a batch of dice needs it): the faces are those of
    ``SeededDice(step_seed(seed, step))``."""
    from warbench.kernel.dice import SeededDice

    return SeededDice(step_seed(seed, step), light=True)


def pick_outcome(decision: Decision[A], dice: Dice) -> A:
    """Resolve a chance decision with one D6-based draw from ``dice`` (recorded in its log).

    Outcomes are chosen by their probabilities from a uniform number made of D6 faces
    (six faces give 6**6 = 46,656 cells, enough for any table of outcomes a wargame lists).
    """
    if not decision.outcomes:
        raise IllegalAction("a chance decision must list its outcomes", "protocol: chance")
    faces = dice.roll_dice(6, f"chance: {decision.kind}")
    cell = 0
    for f in faces:
        cell = cell * 6 + (f - 1)
    u = (cell + 0.5) / 6**6
    acc = 0.0
    for action, p in decision.outcomes:
        acc += p
        if u < acc:
            return action
    return decision.outcomes[-1][0]


def chance_dice(seed: int, step: int) -> SeededDice:
    """The dice a runner uses to resolve the chance decision at step ``step``: a stream apart
    from :func:`step_dice`, so resolving an outcome never shifts the rolls inside ``apply``.
    The outcome is recorded as the step's action, so replay never rolls these dice."""
    import numpy as np

    from warbench.kernel.dice import SeededDice

    ss = np.random.SeedSequence([seed & (2**63 - 1), step, 1])
    a, b = (int(x) for x in ss.generate_state(2))
    return SeededDice(((a << 32) | b) & (2**63 - 1))


class ProtocolError(RulesError):
    """A ruleset broke the protocol's contract (no decision pending in a running game, a
    record that does not replay …); ``rule`` names the part of the contract."""
