"""What a search player needs from a ruleset beyond the protocol: determinisation and evaluation.

The protocol gives a player its *view* only (docs/protocol.md), never the state. To look ahead
a search player needs whole states, so a ruleset that wants to be searched provides
:class:`SearchHooks` (OpenSpiel's ``resample_from_infostate``, TAG's ``copy(playerId)``):

* ``determinizer(view, player, knowledge)``: a function ``seed -> state`` giving states that
  agree with everything ``player`` sees (and with the set-up every seat knows before the
  game: ``knowledge``), with whatever the player cannot see drawn from ``seed`` — the
  opponent's hidden values, and above all the dice still to come (a state's seed decides its
  future rolls, so a fresh seed per playout makes chance a sample, never a peek).
* ``evaluate(state, player)``: how good ``state`` is for ``player``, from 0 (lost) to 1 (won),
  for states that are not over (the search's horizon ends before the game does).
* ``candidates(state, player, legal, decision, limit)``: the root actions worth searching
  (the decision's default first); the generic version lists the legal set's enumerable part.

Hooks are found in :data:`HOOKS` by ruleset id (``"module:attr"``, imported on first use, as
the ruleset registry) or on the ruleset object itself (an ``ai_hooks`` attribute). Without
hooks, :func:`generic_evaluate` scores a state from ``result`` once it is over.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import import_module
from itertools import islice
from typing import Any, Protocol

from warbench.kernel.errors import UnknownNameError
from warbench.play.core import Decision, LegalActions, Result, Ruleset, SetupArgs

#: ``seed -> state``: a determinisation of one view (see :class:`SearchHooks`).
Determinizer = Callable[[int], Any]


class SearchHooks(Protocol):
    """A ruleset's determinisation and evaluation for search players (module docstring)."""

    def determinizer(self, view: Any, player: int, knowledge: SetupArgs) -> Determinizer:
        """States consistent with ``view`` (what ``player`` sees), hidden parts from a seed."""
        ...

    def evaluate(self, state: Any, player: int) -> float:
        """How good a running game is for ``player``: 0 (lost) to 1 (won)."""
        ...

    def candidates(
        self,
        state: Any,
        player: int,
        legal: LegalActions[Any],
        decision: Decision[Any],
        limit: int,
    ) -> list[Any]:
        """At most ``limit`` distinct legal actions worth searching, the default first."""
        ...


#: Search hooks by ruleset id (docs/ai.md): ``"module:attr"`` of a zero-argument factory.
HOOKS: dict[str, str] = {
    "warsurge": "warbench.ai.warsurge:WarsurgeHooks",
    "toy-duel": "warbench.ai.toy:DuelHooks",
    "warengine": "warbench.ai.warengine:WarEngineHooks",
    "collision": "warbench.ai.collision:CollisionHooks",
}


def get_hooks(ruleset: Ruleset[Any, Any, Any]) -> SearchHooks:
    """The search hooks of ``ruleset``: its own ``ai_hooks`` attribute, else :data:`HOOKS`."""
    own = getattr(ruleset, "ai_hooks", None)
    if own is not None:
        return own  # type: ignore[no-any-return]
    entry = HOOKS.get(ruleset.id)
    if entry is None:
        raise UnknownNameError("ruleset with search hooks", ruleset.id, HOOKS)
    module, _, attr = entry.partition(":")
    factory = getattr(import_module(module), attr)
    return factory(ruleset)  # type: ignore[no-any-return]


def result_value(result: Result, player: int) -> float:
    """A finished game's value for ``player``: 1 for a win, 0 for a loss, ½ for a draw,
    moved a little (up to ±0.1) by the share of the scores, so a bigger win is preferred."""
    base = 0.5 if result.winner is None else 1.0 if result.winner == player else 0.0
    total = sum(max(0.0, s) for s in result.scores)
    share = max(0.0, result.scores[player]) / total if total > 0 else 0.5
    return 0.9 * base + 0.1 * share


def generic_evaluate(ruleset: Ruleset[Any, Any, Any], state: Any, player: int) -> float:
    """The ruleset-neutral evaluation: the result once the game is over, else ½ (unknown)."""
    result = ruleset.result(state)
    return 0.5 if result is None else result_value(result, player)


def distinct_candidates(
    default: Any, listed: Sequence[Any] | LegalActions[Any], limit: int
) -> list[Any]:
    """The default (if any), then listed actions in order, without repeats, at most ``limit``."""
    out: list[Any] = []
    seen: set[Any] = set()
    for a in ([default] if default is not None else []) + list(islice(iter(listed), limit * 4)):
        try:
            key: Any = a
            hash(key)
        except TypeError:
            key = repr(a)
        if key in seen:
            continue
        seen.add(key)
        out.append(a)
        if len(out) >= limit:
            break
    return out
