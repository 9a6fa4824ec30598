"""The Victory Conditions value of Summon units (Perks 000_94ecc6a4c74d351b.txt L4229-L4242),
for ``GameState.side_values`` (this module imports nothing of the game, not even for types).

    "In games where a Unit's Point Value is used to determine a winner (such as Deathmatch),
    tally the remaining HP of all the Summon Units produced, then divide it by the number of
    Game Turns the game went for, rounding to the closest whole number. The result is the HP it
    lost during the game for Victory Conditions. Example: A Unit with Summon has 10 HP
    (maximum). It is summoned four times over four Game Turns (40 HP maximum). Of the 40 HP
    across all four Units, only 6 HP remains (lost 34 HP). 6 HP divided by 4 rounds up to 2 HP
    (from 1.5), meaning 2 of 10 HP remains on the Unit for Victory Conditions."

The original and each copy produced so far (``SUMMONED`` counter) count with their HP left on
the Battlefield; the Game Turns are those played so far (the current one included); a half
rounds up (the example's 1.5 → 2); the result, at most the unit's full HP, is its remaining HP
at its value (``UnitInfo.value``, the cost divided by four, L335).
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["SUMMONED", "summon_values", "summoned_hp"]

#: The counter on a Summon copy once it has been produced (its Game Turn).
SUMMONED = "summoned"


def summoned_hp(total_hp: float, turns: int, full_hp: int) -> int:
    """L4235: the HP left of all the units produced, divided by the Game Turns, rounded to the
    closest whole number (a half up), at most the unit's full HP (10 HP, 4 turns, 6 left: 2)."""
    return min(full_hp, math.floor(total_hp / max(1, turns) + 0.5))


def summon_values(state: Any) -> list[tuple[int, float]]:
    """(side, value) of each Summon unit with its copies, for ``state`` (a ``GameState``)."""
    groups: dict[int, list[int]] = {}
    for copy, original, _ in state.setup.summons:
        groups.setdefault(original, [original]).append(copy)
    out = []
    for original, members in groups.items():
        info = state.setup.units[original]
        hp = 0.0
        for uid in members:
            if uid != original and not state.units[uid].counter(SUMMONED):
                continue  # not produced yet
            if info.value > 0:
                hp += state.current_value(uid) * info.max_hp / info.value
        kept = summoned_hp(round(hp, 6), state.flow.turn, info.max_hp)
        out.append((info.side, info.value * kept / info.max_hp if info.max_hp else 0.0))
    return out
