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

__all__ = [
    "IMPLACABLE",
    "flight",
    "ignores_dangerous",
    "ignores_difficult",
    "implacable",
    "juggernaut",
]

#: Implacable I (L2102), II (L2110): the Dice Modifier on Heavy Weapons' Attack Dice after a Move.
IMPLACABLE = {1: -2, 2: -1}


@lru_cache(maxsize=1024)
def _traverse(perks: tuple[str, ...]) -> int:
    """The highest Traverse rank held (0: none)."""
    from warbench.rulesets.warsurge.attack import PerkSet

    return PerkSet(perks).rank("Traverse")


@lru_cache(maxsize=1024)
def _flight(perks: tuple[str, ...]) -> str:
    from warbench.rulesets.warsurge.attack import PerkSet

    held = PerkSet(perks)
    if held.has("Airborne"):
        return "airborne"
    if held.rank("Juggernaut"):
        return "juggernaut"
    return "jumper" if held.has("Jumper") else ""


@lru_cache(maxsize=1024)
def _juggernaut(perks: tuple[str, ...]) -> int:
    from warbench.rulesets.warsurge.attack import PerkSet

    return PerkSet(perks).rank("Juggernaut")


def juggernaut(perks: Sequence[str]) -> int:
    """The Juggernaut rank held (L2112 I, L2124 II; 0: none): the User's Movement passes
    through Units and Terrain Pieces, and each piece passed through is destroyed (I: on a D6
    of 4+; II: always; ``game/perk_juggernaut.py``)."""
    return _juggernaut(tuple(perks)) if perks else 0


def flight(perks: Sequence[str]) -> str:
    """How the User's Movement leaves the ground: ``"airborne"`` (L2076: it "completely ignores
    all Terrain Pieces, Units and Trap Weapons" and may move onto Impassable Ground),
    ``"juggernaut"`` (L2112: "pass through other Units, and also ignore … Terrain Pieces": it
    crosses Units, Difficult, Dangerous and Impassable Ground, but does not end on Impassable
    Ground), ``"jumper"`` (L2126: "through or over Difficult Ground and other Units", not onto
    Impassable Ground; Dangerous Ground only where it starts or ends) or ``""``."""
    return _flight(tuple(perks)) if perks else ""


def ignores_difficult(perks: Sequence[str]) -> bool:
    """Traverse I or II, Airborne, Jumper: Difficult Ground does not halve the User's Movement
    (§4.5)."""
    return bool(perks) and (_traverse(tuple(perks)) >= 1 or bool(_flight(tuple(perks))))


def ignores_dangerous(perks: Sequence[str]) -> bool:
    """Traverse II, Airborne, Juggernaut: Dangerous Ground does not strike the User (§4.6)."""
    return bool(perks) and (
        _traverse(tuple(perks)) >= 2 or _flight(tuple(perks)) in ("airborne", "juggernaut")
    )


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
