"""Movement Unit Perks that change what ground costs (Perks 000_94ecc6a4c74d351b.txt §12.4
Movement): Traverse I (L2164) "The User ignores Difficult Ground", Traverse II (L2166) "The User
ignores Difficult and Dangerous Ground". Read by the movement rules (``game/coherency.py``
§4.5's halving, ``game/movement.py`` §4.6's rolls); pure, over a profile's perk names.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

__all__ = ["ignores_dangerous", "ignores_difficult"]


@lru_cache(maxsize=1024)
def _traverse(perks: tuple[str, ...]) -> int:
    """The highest Traverse rank held (0: none)."""
    from warbench.rulesets.warsurge.attack import PerkSet

    return PerkSet(perks).rank("Traverse")


def ignores_difficult(perks: Sequence[str]) -> bool:
    """Traverse I or II: Difficult Ground does not halve the User's Movement (§4.5)."""
    return bool(perks) and _traverse(tuple(perks)) >= 1


def ignores_dangerous(perks: Sequence[str]) -> bool:
    """Traverse II: Dangerous Ground does not strike the User (§4.6)."""
    return bool(perks) and _traverse(tuple(perks)) >= 2
