"""The AI's player kinds, registered in :data:`warbench.play.players.PLAYER_KINDS`.

=================  ================================================================
kind               player
=================  ================================================================
``random``         :class:`~warbench.play.RandomLegalPlayer` (defaults it is offered
                   are taken only when nothing can be drawn)
``scripted``       the engine's automatic choice for every decision (the ruleset's
                   scripted AI: :class:`~warbench.play.AutomaticPlayer`), random
                   where there is none; ``automatic`` is the same
``tactical``       :class:`~warbench.ai.tactical.TacticalPlayer`: the scripted AI
                   made sensible (spread deployment, targets by expected damage,
                   charges when melee beats shooting, transports); WARSURGE only,
                   the engine's default elsewhere
``search``         :class:`~warbench.ai.search.SearchPlayer` at the default level
``search:N``       the search player at level ``N`` (:data:`~warbench.ai.search.LEVELS`)
=================  ================================================================

The registry lives in ``play`` and names these by import path, so ``play`` never imports
``ai``; :class:`Seats` is :class:`~warbench.play.players.Lineup`, the picklable
``(seed, seat) -> Player`` factory that ``run_batch`` and the lab hand to worker processes and
Ray: each player's randomness derives from the game's seed and the seat, so a batch is the
same on one core, all cores or a cluster.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from warbench.play.core import ProtocolError, SetupArgs
from warbench.play.players import (
    PLAYER_KINDS,
    Budget,
    Lineup,
    Player,
    PlayerSpec,
    player_kind,
)
from warbench.play.players import make_player as _make

#: The kind names the registry knows (``search:N`` for each level as well).
KINDS = tuple(PLAYER_KINDS)

#: Which kind sits in each seat (the registry's :class:`~warbench.play.players.Lineup`).
Seats = Lineup


def _needs(spec: PlayerSpec) -> SetupArgs:
    if spec.knowledge is None or not spec.ruleset_id:
        raise ProtocolError(
            f"player kind {spec.kind!r} needs the game's ruleset id and set-up: "
            "Lineup(kinds, ruleset_id, setup) or make_player(kind, seed, seat, ruleset_id, setup)",
            "play: player kinds",
        )
    return spec.knowledge


@dataclass(frozen=True)
class _SearchKind:
    """``search`` and ``search:N``: the search player at a level (docs/ai.md)."""

    @property
    def levels(self) -> tuple[str, ...]:
        from warbench.ai.search import LEVELS

        return tuple(str(n) for n in LEVELS)

    def make(self, spec: PlayerSpec) -> Player[Any]:
        from warbench.ai.search import DEFAULT_LEVEL, LEVELS, SearchPlayer
        from warbench.play.registry import get_ruleset

        knowledge = _needs(spec)
        level = DEFAULT_LEVEL if spec.level is None else int(spec.level)
        ruleset = get_ruleset(spec.ruleset_id)
        return SearchPlayer(ruleset, knowledge, spec.seat, spec.own_seed, LEVELS[level])


@dataclass(frozen=True)
class _TacticalKind:
    """``tactical``: the sensible scripted player (WARSURGE; the default elsewhere), and
    ``tactical:2``: the same that also fights from the better spot (``ai.tactical_reach``,
    session 28: measured, but not the default: docs/ai.md; an army of one or two units plays
    it at both levels, session 30, ``ai.tactical_kinds``); ``tactical:1`` is ``tactical``."""

    levels: tuple[str, ...] = ("1", "2")

    def make(self, spec: PlayerSpec) -> Player[Any]:
        from warbench.ai.tactical import TacticalBot, TacticalPlayer
        from warbench.play.players import AutomaticPlayer, RandomLegalPlayer
        from warbench.play.registry import get_ruleset

        fallback: RandomLegalPlayer[Any] = RandomLegalPlayer(spec.own_seed)
        if spec.ruleset_id != "warsurge":
            return AutomaticPlayer(fallback=fallback)
        knowledge = _needs(spec)
        reach = spec.level == "2"  # fights from the better spot (session 28)
        bot = TacticalBot(fire_position=reach, fire_approach=reach)
        return TacticalPlayer(
            get_ruleset(spec.ruleset_id), knowledge, spec.seat, spec.own_seed, bot
        )


SEARCH_KIND = _SearchKind()
TACTICAL_KIND = _TacticalKind()


def parse_kind(kind: str) -> tuple[str, int | None]:
    """``"search:3"`` → ``("search", 3)``, ``"search"`` → ``("search", 2)`` (the default
    level), other kinds ``(name, None)``; an unknown kind or level is an error naming them."""
    from warbench.ai.search import DEFAULT_LEVEL

    _, level = player_kind(kind)
    name = kind.strip().partition(":")[0]
    if name != "search":
        return name, None
    return name, DEFAULT_LEVEL if level is None else int(level)


def make_player(
    kind: str, ruleset_id: str, knowledge: SetupArgs, seed: int, seat: int
) -> Player[Any]:
    """A fresh player of ``kind`` for ``seat`` of the game seeded ``seed``."""
    return _make(kind, seed, seat, ruleset_id, knowledge)


#: The budget a lab game gives each decision: none (the levels' own iteration budgets decide,
#: so a seeded game is the same on every machine).
UNLIMITED = Budget()
