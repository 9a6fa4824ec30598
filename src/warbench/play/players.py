"""Players: anything that answers a pending decision from what it may see.

A :class:`Player` gets its own view (never the state), the legal actions, the decision and
a :class:`Budget`, and returns an action. The runner checks every answer with the ruleset, so
a player cannot cheat and a buggy player is refused with the rule it broke.

* :class:`RandomLegalPlayer`: seeded random among the legal actions (conformance, baselines).
* :class:`AutomaticPlayer`: always the decision's ``default`` — the engine's automatic choice —
  so a game of automatic players plays exactly as the engine would by itself.
* :class:`CallbackPlayer`: a function answers each question.
* :class:`PromptPlayer`: a person at a terminal (numbered choices, JSON for the rest).
* :class:`QueuePlayer`: questions go out on one queue and answers come back on another, within
  the budget's time (a web socket, another process).
"""

from __future__ import annotations

import json
import queue
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, Generic, Protocol, TypeVar

from warbench.kernel.dice import SeededChoices
from warbench.kernel.errors import WarbenchError
from warbench.play.core import Codec, Decision, LegalActions, Preview, ProtocolError, SetupArgs

A = TypeVar("A")


@dataclass(frozen=True)
class Budget:
    """How long a player may think: wall-clock ``seconds`` and/or search ``iterations``.

    ``None`` means unlimited. A search player stops at whichever comes first; a remote player
    that does not answer in time gets the decision's default (or forfeits the decision when
    there is none: :class:`PlayerTimeout`).
    """

    seconds: float | None = None
    iterations: int | None = None


class Player(Protocol[A]):
    """Answers the decisions of one seat."""

    def choose(self, view: Any, legal: LegalActions[A], decision: Decision[A], budget: Budget) -> A:
        """The action for ``decision``, chosen from ``view`` within ``budget``."""
        ...


class PlayerTimeout(ProtocolError):
    """A player did not answer within its budget and the decision has no default."""


@dataclass
class RandomLegalPlayer(Generic[A]):
    """A uniformly random legal action (a sample for continuous choices), seeded."""

    seed: int = 0
    rng: SeededChoices = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.rng = SeededChoices(self.seed)

    def choose(self, view: Any, legal: LegalActions[A], decision: Decision[A], budget: Budget) -> A:
        """A random legal action (the default if none can be drawn)."""
        picked = legal.sample(self.rng, 1)
        if picked:
            return picked[0]
        if decision.default is not None:
            return decision.default
        raise ProtocolError(
            f"player {decision.player} has no legal action for {decision.kind!r}",
            "protocol: pending decisions have a legal action",
        )


@dataclass
class AutomaticPlayer(Generic[A]):
    """The engine's automatic choice (``decision.default``) for every decision that has one;
    ``fallback`` answers the others (a player's ordinary turn)."""

    fallback: Player[A] | None = None

    def choose(self, view: Any, legal: LegalActions[A], decision: Decision[A], budget: Budget) -> A:
        """The decision's default, else the fallback's choice."""
        if decision.default is not None:
            return decision.default
        if self.fallback is None:
            raise ProtocolError(
                f"decision {decision.kind!r} of player {decision.player} has no default and "
                "the automatic player has no fallback",
                decision.rule or "protocol: defaults",
            )
        return self.fallback.choose(view, legal, decision, budget)


@dataclass(frozen=True)
class Ask(Generic[A]):
    """A question to a human or remote player: everything :meth:`Player.choose` receives."""

    view: Any
    legal: LegalActions[A]
    decision: Decision[A]
    budget: Budget


@dataclass
class CallbackPlayer(Generic[A]):
    """A function answers each :class:`Ask` (the terminal prompt: list the choices, read one)."""

    callback: Callable[[Ask[A]], A]

    def choose(self, view: Any, legal: LegalActions[A], decision: Decision[A], budget: Budget) -> A:
        """The callback's answer to the question."""
        return self.callback(Ask(view, legal, decision, budget))


@dataclass
class QueuePlayer(Generic[A]):
    """Questions go to ``outbox``; the answer is read from ``inbox`` within the budget's
    seconds (``None``: wait for ever). On time-out the decision's default is taken, or
    :class:`PlayerTimeout` raised when there is none. The server checks every answer."""

    outbox: queue.Queue[Ask[A]] = field(default_factory=queue.Queue)
    inbox: queue.Queue[A] = field(default_factory=queue.Queue)

    def choose(self, view: Any, legal: LegalActions[A], decision: Decision[A], budget: Budget) -> A:
        """Send the question, wait for the answer within the budget."""
        self.outbox.put(Ask(view, legal, decision, budget))
        try:
            return self.inbox.get(timeout=budget.seconds)
        except queue.Empty:
            if decision.default is not None:
                return decision.default
            raise PlayerTimeout(
                f"player {decision.player} did not answer {decision.kind!r} within "
                f"{budget.seconds} s",
                decision.rule or "protocol: budget",
            ) from None


@dataclass
class PromptPlayer(Generic[A]):
    """A person at a terminal: the decision's prompt and rule, the listed choices numbered
    (the default marked), the parameterised families' domains, then a line of input — a
    number, nothing for the default, or an action as JSON (a move to any point). An answer
    that is not understood or not legal is explained and the question asked again."""

    codec: Codec[A]
    read: Callable[[str], str] = input
    write: Callable[[str], None] = print
    limit: int = 40
    #: a choice in words (``describe(view, action)``, ``None``: none), shown before its JSON
    describe: Callable[[Any, A], str | None] | None = None
    #: an action typed as JSON that places pieces (the legal actions' ``preview(action)``, a
    #: :class:`~warbench.play.core.Preview`) is shown first (``preview_lines(preview)`` when
    #: the legal actions offer it, else each piece's start and end) and made only when the
    #: person confirms (Enter or ``y``; any other answer asks the question again); so is a
    #: listed action chosen by its number when the legal actions' ``asks_first(action)`` says
    #: so (a WARSURGE charge: it places models at no point the person named). False: made at
    #: once.
    confirm: bool = False
    #: the seats' names ("Red", "Blue"), said instead of "player 0" when given (session 32)
    seat_names: tuple[str, ...] = ()
    #: the listed choices to show (``distinct(view, listed)``): a ruleset whose choices may do
    #: the same thing lists each once (a WARSURGE casualty order, session 39)
    distinct: Callable[[Any, list[A]], list[A]] | None = None
    #: an answer in the ruleset's words (``typed(view, decision, line)``: the action, or
    #: ``None`` when the line is not one), with a line saying how to type it
    #: (``typed_hint(view, decision)``); a WARSURGE casualty choice in the player's own order,
    #: "models 3 5 1" (session 39). Checked as an action typed as JSON, said before it is made.
    typed: Callable[[Any, Decision[A], str], A | None] | None = None
    typed_hint: Callable[[Any, Decision[A]], str | None] | None = None
    #: decision kinds a person may answer for the rest of a run of them with the suggested
    #: choice (kind -> the answer's words, The WarEngine's placement, L303-309, as the play
    #: page's "Place the rest of your figures as suggested" button; session 39, s39-we2):
    #: the answer ``r`` takes the default now and at each next decision of that kind for the
    #: same seat, until one of another kind (or seat) comes. Empty: no such answer is shown.
    runs: dict[str, str] = field(default_factory=dict)
    _run: tuple[str, Any] | None = field(default=None, init=False, repr=False)

    def in_run(self, decision: Decision[A]) -> bool:
        """True when ``decision`` will be answered without asking, by an ``r`` answer's run of
        suggested choices (:attr:`runs`)."""
        return self._run == (decision.kind, decision.player) and decision.default is not None

    def choose(self, view: Any, legal: LegalActions[A], decision: Decision[A], budget: Budget) -> A:
        """Ask until the answer is a legal action."""
        rule = f" [{decision.rule}]" if decision.rule else ""
        seat = decision.player
        names = self.seat_names
        who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else f"player {seat}"
        asked = decision.prompt or decision.kind
        if self._run is not None:
            suggested = decision.default
            if self.in_run(decision) and suggested is not None:
                said = self.describe(view, suggested) if self.describe is not None else None
                made = said or json.dumps(self.codec.dump(suggested), sort_keys=True)
                self.write(f"{who}: as suggested: {made}{rule}")
                return suggested
            self._run = None
        listed: list[A] = list(islice(iter(legal), _SEEN))
        if self.distinct is not None:
            listed = self.distinct(view, listed)
        choices = _spread(listed, self.limit, decision.default, self.codec)
        # a prompt that names its seat first is not prefixed again (a WARSURGE casualty prompt
        # names the unit, "Blue: Dead Dogs loses 3 HP": it read "Blue: Blue: Dead Dogs")
        self.write(f"{asked if asked.startswith(f'{who}: ') else f'{who}: {asked}'}{rule}")
        for k, a in enumerate(choices, 1):
            mark = "  (default)" if a == decision.default else ""
            raw = json.dumps(self.codec.dump(a), sort_keys=True)
            said = self.describe(view, a) if self.describe is not None else None
            self.write(f"  {k}. {said}{mark}\n       {raw}" if said else f"  {k}. {raw}{mark}")
        if len(choices) < len(listed):  # the rest, typed as JSON (session 33)
            more = len(listed) - len(choices) if len(listed) < _SEEN else f"{_SEEN - len(choices)}+"
            example = json.dumps(
                self.codec.dump(next(a for a in listed if a not in choices)), sort_keys=True
            )
            self.write(f"  ({more} more not listed: type any as JSON, e.g. {example})")
        check_family = getattr(legal, "check", None)
        for fam in getattr(legal, "families", ()):
            # the example is one the ruleset's check accepts (session 36)
            self.write(f"  {_family_said(fam, self.codec, check_family)}")
        if decision.default is not None and decision.default not in choices:
            self.write(f"  default: {json.dumps(self.codec.dump(decision.default))}")
        hint = self.typed_hint(view, decision) if self.typed_hint is not None else None
        if hint:
            self.write(f"  {hint}")
        run = self.runs.get(decision.kind) if decision.default is not None else None
        if run is not None:
            self.write(f"  r. {run}")
        check = getattr(legal, "check", None)
        while True:
            line = self.read("> ").strip()
            if run is not None and line.lower() == "r":
                self._run = (decision.kind, seat)
                return decision.default  # type: ignore[return-value]  # run: a default
            if not line and decision.default is not None:
                # the default taken with Enter: an action whose preview is a note only (a
                # WARSURGE Attack a perk may move a unit after) says it first (s34-play2);
                # one that places pieces is made at once, as before
                first = getattr(legal, "asks_first", None)
                noted = self.confirm and callable(first) and bool(first(decision.default))
                if noted and not self._confirmed(legal, decision.default, places=False):
                    self.write("not made: your choice again")
                    continue
                return decision.default
            if line.isdigit() and 1 <= int(line) <= len(choices):
                chosen = choices[int(line) - 1]
                # a listed action that places pieces where the person named no point (a
                # WARSURGE charge: the legal actions' ``asks_first``) is previewed too
                asks = getattr(legal, "asks_first", None)
                ask = self.confirm and callable(asks) and bool(asks(chosen))
                if ask and not self._confirmed(legal, chosen):
                    self.write("not made: your choice again")
                    continue
                return chosen
            n = len(choices)
            answers = (
                ("the number 1" if n == 1 else f"a number 1-{n}" if n else "no number")
                + (", Enter for the default" if decision.default is not None else "")
                + (", r for the rest as suggested" if run is not None else "")
            )
            if line.isdigit() or not line:
                # a choice number out of range, or Enter with no default (session 32, s32-user)
                said = f"{line} is not one of the choices" if line else "there is no default"
                self.write(f"not understood: {said}; {answers}, or an action as JSON")
                continue
            try:
                own = self.typed(view, decision, line) if self.typed is not None else None
            except WarbenchError as exc:  # an answer in words naming what may not be chosen
                self.write(f"refused: {exc}")
                continue
            if own is not None:
                # the player's own answer in words, said as the listed choices are
                if own not in legal:
                    no = check(own) if callable(check) else None
                    self.write(f"refused: {f'{no.reason} [{no.rule}]' if no else 'not legal now'}")
                    continue
                said = self.describe(view, own) if self.describe is not None else None
                if said:
                    self.write(f"  your choice: {said}")
                if self.confirm and not self._confirmed(legal, own, places=False):
                    self.write("not made: your choice again")
                    continue
                return own
            try:
                action = self.codec.load(json.loads(line))
            except json.JSONDecodeError:
                self.write(f"not understood: {line[:60]!r} is not JSON; {answers}, or an action")
                continue
            except WarbenchError as exc:
                self.write(f"not understood ({exc}); {answers}, or an action")
                continue
            if action in legal:
                if self.confirm and not self._confirmed(legal, action):
                    self.write("not made: your choice again")
                    continue
                return action
            refusal = check(action) if callable(check) else None
            why = f"{refusal.reason} [{refusal.rule}]" if refusal is not None else "not legal now"
            self.write(f"refused: {why}")

    def _confirmed(self, legal: LegalActions[A], action: A, *, places: bool = True) -> bool:
        """Show where ``action`` puts the pieces and ask; True when there is nothing to show.
        A preview with no places but a note (a WARSURGE Attack: what a perk may move after the
        dice, s34-play2) shows its note, one line per "; " part, and asks too; ``places``
        False: only such a note is shown (a preview with places is made without asking)."""
        planned = getattr(legal, "preview", None)
        shown = planned(action) if callable(planned) else None
        if not isinstance(shown, Preview):
            return True
        if not shown.placements:
            if not shown.note:
                return True
            self.write("after the dice, a perk may move a unit:")
            for part in shown.note.split("; "):
                self.write(f"  note: {part}")
            answer = self.read("make it? [Y/n] ").strip().lower()
            return answer in ("", "y", "yes")
        if not places:
            return True
        words = getattr(legal, "preview_lines", None)
        lines = words(shown) if callable(words) else None
        if lines is None:
            lines = [
                f"  piece {p.unit}.{p.model}: "
                + ("off the table" if p.start is None else f"({p.start[0]:.2f}, {p.start[1]:.2f})")
                + f" -> ({p.end[0]:.2f}, {p.end[1]:.2f})"
                for p in shown.placements
            ]
            if shown.note:
                lines.append(f"  note: {shown.note}")
        for line in lines:
            self.write(line)
        answer = self.read("make it? [Y/n] ").strip().lower()
        return answer in ("", "y", "yes")


#: How many legal actions a question looks at to pick the ones it lists.
_SEEN = 400


def _spread(listed: list[A], limit: int, default: A | None, codec: Codec[A]) -> list[A]:
    """At most ``limit`` of ``listed``, in their order: all of them when they fit, else taken
    in turn from each unit's actions (the JSON's ``unit``), so every unit keeps a few choices
    (a Deploy question's spots of three units), the default always among them."""
    if len(listed) <= limit:
        return listed
    groups: dict[str, list[int]] = {}
    for i, a in enumerate(listed):
        data = codec.dump(a)
        key = json.dumps(data.get("unit") if isinstance(data, dict) else None)
        groups.setdefault(key, []).append(i)
    picked: list[int] = []
    if default is not None and default in listed:
        picked.append(listed.index(default))
    rounds = [iter(g) for g in groups.values()]
    while len(picked) < limit and rounds:
        for it in list(rounds):
            k = next(it, None)
            if k is None:
                rounds.remove(it)
            elif k not in picked and len(picked) < limit:
                picked.append(k)
    return [listed[i] for i in sorted(picked)]


#: Player kinds by name: ``"module:attr"`` of a :class:`PlayerKind`, imported on first use,
#: so that ``play`` names the AI's players without importing ``warbench.ai`` (layers point
#: down; the ruleset registry does the same). A kind may take a level: ``"search:3"``.
PLAYER_KINDS: dict[str, str] = {
    "random": "warbench.play.players:RANDOM_KIND",
    "automatic": "warbench.play.players:AUTOMATIC_KIND",
    "scripted": "warbench.play.players:AUTOMATIC_KIND",
    "search": "warbench.ai.players:SEARCH_KIND",
    "tactical": "warbench.ai.players:TACTICAL_KIND",
}


@dataclass(frozen=True)
class PlayerSpec:
    """What a kind's factory gets to build one player: the kind and its level (``None``: the
    kind's default), the game's ruleset and set-up as every seat knows it (``knowledge``: the
    rosters on the table; ``None`` when the caller has none), the game's seed and the seat."""

    kind: str
    level: str | None
    ruleset_id: str
    knowledge: SetupArgs | None
    seed: int
    seat: int

    @property
    def own_seed(self) -> int:
        """The player's own seed: from the game's seed and the seat (a batch repeats)."""
        return self.seed * 7919 + self.seat


class PlayerKind(Protocol):
    """One entry of :data:`PLAYER_KINDS`: the levels it takes and how it builds a player."""

    #: the levels ``kind:LEVEL`` may name (empty: the kind takes no level)
    levels: tuple[str, ...]

    def make(self, spec: PlayerSpec) -> Player[Any]:
        """A fresh player for ``spec``."""
        ...


@dataclass(frozen=True)
class SimpleKind:
    """A kind without levels built by a function of the spec."""

    build: Callable[[PlayerSpec], Player[Any]]
    levels: tuple[str, ...] = ()

    def make(self, spec: PlayerSpec) -> Player[Any]:
        """``build(spec)``."""
        return self.build(spec)


def _random(spec: PlayerSpec) -> Player[Any]:
    return RandomLegalPlayer(spec.own_seed)


def _automatic(spec: PlayerSpec) -> Player[Any]:
    return AutomaticPlayer(fallback=RandomLegalPlayer(spec.own_seed))


#: ``random``: a seeded random legal action.
RANDOM_KIND = SimpleKind(_random)
#: ``automatic`` = ``scripted``: the engine's automatic choice (random where there is none).
AUTOMATIC_KIND = SimpleKind(_automatic)


def player_kind(kind: str) -> tuple[PlayerKind, str | None]:
    """The registry entry of ``kind`` (``name`` or ``name:level``) and its level, imported on
    use; an unknown kind or level is an :class:`UnknownNameError` naming the allowed ones."""
    from importlib import import_module

    from warbench.kernel.errors import UnknownNameError

    name, colon, level = kind.strip().partition(":")
    entry = PLAYER_KINDS.get(name)
    if entry is None:
        raise UnknownNameError("player kind", kind, player_kind_names())
    module, _, attr = entry.partition(":")
    found: PlayerKind = getattr(import_module(module), attr)
    if colon and level not in found.levels:
        if not found.levels:
            raise UnknownNameError("player kind", kind, player_kind_names())
        raise UnknownNameError(f"{name} level", level, found.levels)
    return found, (level if colon else None)


def player_kind_names() -> tuple[str, ...]:
    """Every kind a lineup may name, levels included (``search:1`` …), for messages and menus;
    imports the kinds' modules."""
    from importlib import import_module

    out: list[str] = []
    for name, entry in PLAYER_KINDS.items():
        module, _, attr = entry.partition(":")
        levels = getattr(import_module(module), attr).levels
        out.append(name)
        out.extend(f"{name}:{lv}" for lv in levels)
    return tuple(out)


def check_kind(kind: str) -> str:
    """``kind`` if the registry knows it (and its level), else an ``UnknownNameError``."""
    player_kind(kind)
    return kind


def make_player(
    kind: str,
    seed: int,
    seat: int,
    ruleset_id: str = "",
    knowledge: SetupArgs | None = None,
) -> Player[Any]:
    """A fresh player of ``kind`` for ``seat`` of the game seeded ``seed`` (its randomness
    derives from both). Search players need ``ruleset_id`` and ``knowledge``."""
    found, level = player_kind(kind)
    return found.make(PlayerSpec(kind, level, ruleset_id, knowledge, seed, seat))


@dataclass(frozen=True)
class Lineup:
    """Which kind of player sits in each seat; ``lineup(seed, seat)`` builds a fresh player
    whose randomness derives from the game's seed and the seat (so a batch is repeatable).
    Picklable: a worker process or a Ray task builds its own players. ``ruleset_id`` and
    ``knowledge`` (the set-up every seat knows) are what search players need."""

    kinds: tuple[str, ...]
    ruleset_id: str = ""
    knowledge: SetupArgs | None = None

    def __post_init__(self) -> None:
        for k in self.kinds:
            check_kind(k)

    def __call__(self, seed: int, seat: int) -> Player[Any]:
        kind = self.kinds[seat % len(self.kinds)]
        return make_player(kind, seed, seat, self.ruleset_id, self.knowledge)


def _family_said(fam: Any, codec: Any, check: Callable[[Any], Any] | None = None) -> str:
    """A family of actions as a person can type one: its parameters' ranges in words and an
    action of it as JSON to copy (session 35: the line was the family's schema, ``{"name":
    "move #0", "params": [{"type": "box", ..., "x0": 2.8979999999999997, ...}]}``, which is
    not an action the prompt accepts); the schema when an example cannot be built.

    ``check``: the ruleset's check for this question (``None``: legal). The example is the
    first of a few values, from the middle of each range outwards, that the check accepts
    (session 36: the middle of a move's box may be past the unit's reach, or in terrain);
    when none is, the line says the example only shows the form.

    >>> from warbench.play.legal import Box, Family
    >>> class C:
    ...     def dump(self, a: object) -> object:
    ...         return a
    >>> fam = Family("move #0", (Box("to", 2.898, 11.472, 32.898, 41.472),),
    ...              lambda v: {"kind": "move", "x": v[0][0], "y": v[0][1]})
    >>> print(_family_said(fam, C())[:50])
    or any move #0 (to: x 2.9 to 32.9, y 11.5 to 41.5)
    >>> print(_family_said(fam, C())[50:])
     as JSON, e.g. {"kind": "move", "x": 17.9, "y": 26.5}
    >>> near = lambda a: None if a["x"] < 10 and a["y"] < 20 else "too far"
    >>> print(_family_said(fam, C(), near)[50:])
     as JSON, e.g. {"kind": "move", "x": 5.9, "y": 14.5}
    >>> print(_family_said(fam, C(), lambda a: "never")[50:])
     as JSON, of the form {"kind": "move", "x": 17.9, "y": 26.5} (this one the rules refuse)
    """
    from warbench.play.legal import Box, Choice, Interval, family_example

    words: list[str] = []
    for p in fam.params:
        if isinstance(p, Box):
            words.append(f"{p.name}: x {p.x0:.1f} to {p.x1:.1f}, y {p.y0:.1f} to {p.y1:.1f}")
        elif isinstance(p, Interval):
            words.append(f"{p.name}: {p.low:g} to {p.high:g}")
        elif isinstance(p, Choice) and p.values:
            shown = ", ".join(str(v) for v in p.values[:6]) + (", ..." if len(p.values) > 6 else "")
            words.append(f"{p.name}: one of {shown}")
    found = family_example(fam, check)
    if found is None:  # a family whose build wants other values: its schema, as before
        return f"or an action as JSON: {json.dumps(fam.to_json())}"
    action, accepted = found
    try:
        example = json.dumps(codec.dump(action), sort_keys=True)
    except Exception:
        return f"or an action as JSON: {json.dumps(fam.to_json())}"
    said = f"or any {fam.name} ({'; '.join(words)}) as JSON"
    if accepted:
        return f"{said}, e.g. {example}"
    return f"{said}, of the form {example} (this one the rules refuse)"
