"""AI players over the game protocol (docs/ai.md).

``search`` (:class:`SearchPlayer`: determinised playouts with sequential halving, levels by
iteration budget), ``hooks`` (what a ruleset provides to be searched: determinisation,
evaluation, candidates), ``warsurge`` and ``toy`` (those hooks for WARSURGE and Dice Duel) and
``players`` (player kinds by name: ``random``, ``scripted``, ``search``, ``search:N``). The AI
knows rulesets only through the protocol and their hooks; it never receives a state, only views.
"""

from __future__ import annotations

from warbench.ai.hooks import HOOKS, SearchHooks, get_hooks
from warbench.ai.players import KINDS, Seats, make_player, parse_kind
from warbench.ai.search import DEFAULT_LEVEL, LEVELS, SearchConfig, SearchPlayer, SearchStats

__all__ = [
    "DEFAULT_LEVEL",
    "HOOKS",
    "KINDS",
    "LEVELS",
    "SearchConfig",
    "SearchHooks",
    "SearchPlayer",
    "SearchStats",
    "Seats",
    "get_hooks",
    "make_player",
    "parse_kind",
]
