"""Movement Unit Perks that change what ground and moving cost (Perks 000_94ecc6a4c74d351b.txt §12.4
Movement): Traverse I (L2164) "The User ignores Difficult Ground", Traverse II (L2166) "The User
ignores Difficult and Dangerous Ground"; Implacable I (L2102) "The User may Move and use Heavy
Weapons, but will suffer a -2 Dice Modifier to Attack Dice with Heavy Weapons for the remainder
of the Game Turn" (II, L2110: -1). Read by the movement rules (``game/coherency.py``
§4.5's halving, ``game/movement.py`` §4.6's rolls, ``game/attacks.py`` §5.1 Heavy); pure,
over a profile's perk names.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

__all__ = ["IMPLACABLE", "ignores_dangerous", "ignores_difficult", "implacable"]

#: Implacable I (L2102), II (L2110): the Dice Modifier on Heavy Weapons' Attack Dice after a Move.
IMPLACABLE = {1: -2, 2: -1}


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


@lru_cache(maxsize=1024)
def _implacable(perks: tuple[str, ...]) -> int:
    from warbench.rulesets.warsurge.attack import PerkSet

    return PerkSet(perks).rank("Implacable")


def implacable(perks: Sequence[str]) -> tuple[int, str] | None:
    """Implacable's (Dice Modifier, rank) for Heavy Weapons used after a Move, or None."""
    rank = _implacable(tuple(perks)) if perks else 0
    if not rank:
        return None
    return IMPLACABLE[rank], f"Implacable {'I' * rank}"
