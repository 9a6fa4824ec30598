"""The game protocol: one way for every ruleset to be played, recorded and replayed.

``core`` (types and the :class:`Ruleset` protocol), ``legal`` (legal actions as a queryable
object), ``codec`` (JSON for dataclass-based rulesets), ``record`` (JSON-lines records and
replay), ``registry`` (ruleset id → factory, lazy), ``players``, ``runner`` (one game and
batches on processes or Ray), ``conformance`` (the suite every ruleset passes), ``toy`` (Dice
Duel, a complete ruleset that proves the protocol neutral) and ``schemas``. See
docs/protocol.md. This package imports no ruleset: rulesets import it.
"""

from __future__ import annotations

from warbench.play.core import (
    CHANCE,
    JSON,
    Codec,
    Decision,
    Event,
    IllegalAction,
    LegalActions,
    Placement,
    Preview,
    ProtocolError,
    Refusal,
    Result,
    Ruleset,
    SetupArgs,
    can,
    chance_dice,
    digest_of,
    preview,
    step_dice,
    step_seed,
    verify,
)
from warbench.play.legal import Box, Choice, Family, Interval, LegalSet
from warbench.play.players import (
    AutomaticPlayer,
    Budget,
    CallbackPlayer,
    Player,
    PromptPlayer,
    QueuePlayer,
    RandomLegalPlayer,
)
from warbench.play.record import GameRecord, Replay, replay
from warbench.play.registry import get_ruleset, register, ruleset_ids
from warbench.play.runner import EVERY, BatchRow, GameRun, run_batch, run_game

__all__ = [
    "CHANCE",
    "EVERY",
    "JSON",
    "AutomaticPlayer",
    "BatchRow",
    "Box",
    "Budget",
    "CallbackPlayer",
    "Choice",
    "Codec",
    "Decision",
    "Event",
    "Family",
    "GameRecord",
    "GameRun",
    "IllegalAction",
    "Interval",
    "LegalActions",
    "LegalSet",
    "Placement",
    "Player",
    "Preview",
    "PromptPlayer",
    "ProtocolError",
    "QueuePlayer",
    "RandomLegalPlayer",
    "Refusal",
    "Replay",
    "Result",
    "Ruleset",
    "SetupArgs",
    "can",
    "chance_dice",
    "digest_of",
    "get_ruleset",
    "preview",
    "register",
    "replay",
    "ruleset_ids",
    "run_batch",
    "run_game",
    "step_dice",
    "step_seed",
    "verify",
]
