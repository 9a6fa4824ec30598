"""The ruleset registry: ruleset id → factory, imported only when a game needs it.

Like an entry point, an entry is a ``"module:attribute"`` string, so listing the rulesets
imports none of them (the CLI starts fast). :func:`register` also accepts a ready factory and
checks what it builds against the :class:`~warbench.play.core.Ruleset` protocol at once
(pluggy: an implementation is checked when it registers, not when it first fires).
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any

from warbench.kernel.errors import UnknownNameError
from warbench.play.core import ProtocolError, Ruleset

Factory = Callable[[], Ruleset[Any, Any, Any]]

#: The rulesets warbench knows (docs/protocol.md).
RULESETS: dict[str, str | Factory] = {
    "toy-duel": "warbench.play.toy:DiceDuel",
    "warsurge": "warbench.rulesets.warsurge.game.protocol:WarsurgeRuleset",
    "warengine": "warbench.rulesets.warengine.game.protocol:WarEngineRuleset",
    "collision": "warbench.rulesets.collision.game.protocol:CollisionRuleset",
}

_REQUIRED = (
    "setup",
    "pending",
    "legal_actions",
    "check",
    "apply",
    "view",
    "is_over",
    "result",
    "digest",
)


def conforms(obj: object) -> list[str]:
    """The parts of the protocol ``obj`` lacks (empty when it has them all)."""
    missing = [name for name in _REQUIRED if not callable(getattr(obj, name, None))]
    for name in ("id", "version"):
        if not isinstance(getattr(obj, name, None), str):
            missing.append(name)
    for name in ("actions", "states", "views"):
        codec = getattr(obj, name, None)
        if not all(callable(getattr(codec, m, None)) for m in ("dump", "load", "schema")):
            missing.append(name)
    return missing


def register(ruleset_id: str, factory: str | Factory, *, replace: bool = False) -> None:
    """Add a ruleset. A callable factory is built and checked now; a ``"module:attr"`` string
    is checked when first used."""
    if ruleset_id in RULESETS and not replace:
        raise ProtocolError(f"ruleset {ruleset_id!r} is already registered", "registry")
    if callable(factory):
        _checked(ruleset_id, factory())
    RULESETS[ruleset_id] = factory


def _checked(ruleset_id: str, ruleset: object) -> Ruleset[Any, Any, Any]:
    missing = conforms(ruleset)
    if missing:
        raise ProtocolError(
            f"ruleset {ruleset_id!r} does not implement the protocol: missing {missing}",
            "docs/protocol.md",
        )
    if ruleset.id != ruleset_id:  # type: ignore[attr-defined]
        raise ProtocolError(
            f"ruleset registered as {ruleset_id!r} calls itself {ruleset.id!r}",  # type: ignore[attr-defined]
            "registry",
        )
    return ruleset  # type: ignore[return-value]


def get_ruleset(ruleset_id: str) -> Ruleset[Any, Any, Any]:
    """A fresh ruleset object for ``ruleset_id`` (imports its module on first use)."""
    entry = RULESETS.get(ruleset_id)
    if entry is None:
        raise UnknownNameError("ruleset", ruleset_id, RULESETS)
    if isinstance(entry, str):
        module, _, attr = entry.partition(":")
        factory: Factory = getattr(import_module(module), attr)
    else:
        factory = entry
    return _checked(ruleset_id, factory())


def ruleset_ids() -> list[str]:
    """The registered ruleset ids, sorted."""
    return sorted(RULESETS)
