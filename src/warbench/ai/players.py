"""Player kinds by name, for batches, the simulation lab and the commands.

=================  ================================================================
kind               player
=================  ================================================================
``random``         :class:`~warbench.play.RandomLegalPlayer` (defaults it is offered
                   are taken only when nothing can be drawn)
``scripted``       the engine's automatic choice for every decision (the ruleset's
                   scripted AI: :class:`~warbench.play.AutomaticPlayer`), random
                   where there is none; ``automatic`` is the same
``search``         :class:`~warbench.ai.search.SearchPlayer` at the default level
``search:N``       the search player at level ``N`` (:data:`~warbench.ai.search.LEVELS`)
=================  ================================================================

:class:`Seats` is the picklable ``(seed, seat) -> Player`` factory that ``run_batch`` and the
lab hand to worker processes and Ray: each player's randomness derives from the game's seed
and the seat, so a batch is the same on one core, all cores or a cluster.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from warbench.kernel.errors import UnknownNameError
from warbench.play.core import SetupArgs
from warbench.play.players import AutomaticPlayer, Budget, Player, RandomLegalPlayer

#: The kinds :func:`make_player` knows (``search:N`` for each level as well).
KINDS = ("random", "scripted", "automatic", "search")


def parse_kind(kind: str) -> tuple[str, int | None]:
    """``"search:3"`` → ``("search", 3)``; an unknown kind or level is an error naming them."""
    from warbench.ai.search import DEFAULT_LEVEL, LEVELS

    name, _, level = kind.strip().partition(":")
    if name not in KINDS:
        allowed = (*KINDS, *(f"search:{n}" for n in LEVELS))
        raise UnknownNameError("player kind", kind, allowed)
    if name != "search":
        if level:
            raise UnknownNameError("player kind", kind, KINDS)
        return name, None
    if not level:
        return name, DEFAULT_LEVEL
    if not level.isdigit() or int(level) not in LEVELS:
        raise UnknownNameError("search level", level, [str(n) for n in LEVELS])
    return name, int(level)


def make_player(
    kind: str, ruleset_id: str, knowledge: SetupArgs, seed: int, seat: int
) -> Player[Any]:
    """A fresh player of ``kind`` for ``seat`` of the game seeded ``seed``."""
    from warbench.ai.search import LEVELS, SearchPlayer
    from warbench.play.registry import get_ruleset

    name, level = parse_kind(kind)
    own = seed * 7919 + seat
    random: RandomLegalPlayer[Any] = RandomLegalPlayer(own)
    if name == "random":
        return random
    if name in ("scripted", "automatic"):
        return AutomaticPlayer(fallback=random)
    assert level is not None
    return SearchPlayer(get_ruleset(ruleset_id), knowledge, seat, own, LEVELS[level])


@dataclass(frozen=True)
class Seats:
    """Which kind of player sits in each seat of a game of ``ruleset_id`` set up as
    ``knowledge``: ``seats(seed, seat)`` builds a fresh player (picklable)."""

    kinds: tuple[str, ...]
    ruleset_id: str
    knowledge: SetupArgs

    def __post_init__(self) -> None:
        for k in self.kinds:
            parse_kind(k)

    def __call__(self, seed: int, seat: int) -> Player[Any]:
        kind = self.kinds[seat % len(self.kinds)]
        return make_player(kind, self.ruleset_id, self.knowledge, seed, seat)


#: The budget a lab game gives each decision: none (the levels' own iteration budgets decide,
#: so a seeded game is the same on every machine).
UNLIMITED = Budget()
