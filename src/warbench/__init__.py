"""warbench: an open workbench for build-your-own-army tabletop wargames.

The everyday verbs are here (docs/api.md)::

    import warbench

    unit = warbench.load_unit("examples/warsurge/troopers_laser.yaml")
    warbench.cost(unit).total
    warbench.odds(unit, warbench.load_unit("examples/warsurge/kataton_servitors.yaml"))

They live in :mod:`warbench.api` and are loaded on first use (PEP 562 module ``__getattr__``),
so ``import warbench`` stays cheap: it imports neither NumPy, pydantic, shapely nor the rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from warbench.api import (
        BattleResult,
        DiceRoll,
        battle,
        cost,
        load_roster,
        load_unit,
        odds,
        report,
        roll,
        validate,
    )

__all__ = [
    "BattleResult",
    "DiceRoll",
    "__version__",
    "battle",
    "cost",
    "load_roster",
    "load_unit",
    "odds",
    "report",
    "roll",
    "validate",
]

#: The names loaded from :mod:`warbench.api` on first use.
_API = frozenset(__all__) - {"__version__"}


def __getattr__(name: str) -> Any:
    """Load :mod:`warbench.api` when one of its verbs is first used (PEP 562)."""
    if name in _API:
        from warbench import api

        value = getattr(api, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'warbench' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_API])
