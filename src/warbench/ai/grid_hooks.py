"""Search hooks shared by the rulesets whose determinizer lives with the ruleset.

The WarEngine and Collision (``rulesets/warengine/determinize.py``,
``rulesets/collision/determinize.py``) write a view back as sampled whole states; what is left
to a ruleset's hooks is its evaluation. :class:`ViewHooks` holds the rest:

* **which decisions are searched** (``searched``): the ones the determinised states are exact
  for or nearly (choosing who activates and what a figure does); every other decision (set-up,
  placement, dice answers, reactions, Hero Points) is answered with its default, the engine's
  scripted choice, so the search never plays from a state that lacks the flow it answers to;
* **candidates**: the default first, then the legal set's listed actions taken one kind at a
  time in turn (a move, an attack, a reserve, ...), so a narrow search still compares kinds of
  action rather than the first few moves of one figure.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import islice
from typing import Any

from warbench.ai.hooks import Determinizer, distinct_candidates
from warbench.play.core import Decision, LegalActions, Ruleset, SetupArgs

#: ``(view, player, knowledge) -> (seed -> state)``: a ruleset's determinizer.
DeterminizerFactory = Callable[[Mapping[str, Any], int, SetupArgs], Determinizer]


class ViewHooks:
    """Search hooks around a ruleset's own determinizer (module docstring); subclasses give
    ``evaluate``."""

    #: The decision kinds searched; every other decision takes its default.
    searched: frozenset[str] = frozenset()

    def __init__(self, ruleset: Ruleset[Any, Any, Any], make: DeterminizerFactory) -> None:
        self.ruleset = ruleset
        self._make = make

    def determinizer(self, view: Any, player: int, knowledge: SetupArgs) -> Determinizer:
        """The ruleset's determinizer of ``view``."""
        return self._make(view, player, knowledge)

    def evaluate(self, state: Any, player: int) -> float:
        """How good a running game is for ``player`` (0 lost … 1 won): in the subclass."""
        raise NotImplementedError

    def candidates(
        self,
        state: Any,
        player: int,
        legal: LegalActions[Any],
        decision: Decision[Any],
        limit: int,
    ) -> list[Any]:
        """The default alone for a decision not searched; else the default, then listed
        actions one kind at a time in turn, at most ``limit``."""
        if decision.kind not in self.searched:
            return [decision.default] if decision.default is not None else []
        by_kind: dict[str, list[Any]] = {}
        for a in islice(iter(legal), 400):
            by_kind.setdefault(type(a).__name__, []).append(a)
        mixed: list[Any] = []
        queues = list(by_kind.values())
        while queues and len(mixed) < limit * 4:
            for q in queues:
                if q:
                    mixed.append(q.pop(0))
            queues = [q for q in queues if q]
        return distinct_candidates(decision.default, mixed, limit)
