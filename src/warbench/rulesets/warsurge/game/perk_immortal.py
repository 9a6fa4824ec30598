"""Immortal's state as the attack kernel sees it (Perks 000_94ecc6a4c74d351b.txt L1539).

Kept apart from :mod:`.perk_defensive` (its hooks) because ``work.to_unit_state`` reads it, and
the game package has no import cycle: this module knows the game's data, not its ``Work``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.attack import PerkSet, UnitState, immortal_allowance
from warbench.rulesets.warsurge.game.memo import per_setup
from warbench.rulesets.warsurge.game.state import unit_max_hp

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.state import GameSetup, UnitGS

__all__ = [
    "HP_AT_START",
    "HP_LOSS_IMMUNE",
    "IMMORTAL",
    "TURN_COUNTED",
    "immortal_lost",
    "immortal_state",
    "immortal_units",
]

IMMORTAL = "Immortal"
#: Nightmare Anomaly's 6 (Perks L4354, game/perk_nightmare.py): "Unit is immune to HP Loss";
#: the kernel's cap on the HP the unit may lose is then 0, as Immortal's cap (session 25)
HP_LOSS_IMMUNE = "Nightmare Anomaly (6)"
#: The unit's counters: the Game Turn counted and the HP it had as that Game Turn started.
TURN_COUNTED = "immortal turn"
HP_AT_START = "immortal hp"


@per_setup
def immortal_units(setup: GameSetup) -> frozenset[int]:
    """The units of ``setup`` with Immortal (worked out once per set-up)."""
    found = frozenset(
        info.uid
        for info in setup.units
        if PerkSet([*info.unit.profile.perks, *info.traits]).has(IMMORTAL)
    )
    return found


def immortal_lost(u: UnitGS, turn: int) -> int:
    """HP the unit has lost in Game Turn ``turn``: below what it had as the Game Turn started
    (or as it deployed), HP restored since counting back (docs/rulings.md "perks in play:
    Tactical, Trait, Movement, Leadership, Defensive" 6)."""
    if u.counter(TURN_COUNTED) != turn:
        return 0
    return max(0, u.counter(HP_AT_START) - sum(max(0, h) for h in u.hp))


def immortal_state(setup: GameSetup, u: UnitGS, turn: int, st: UnitState) -> UnitState:
    """``st`` with Immortal's HP left this Game Turn (unchanged for any other unit, or once
    Immortal is spent)."""
    if u.statuses and any(s.name == HP_LOSS_IMMUNE for s in u.statuses):
        return replace(st, immortal_left=0)  # Nightmare Anomaly's 6 (L4354): no HP lost at all
    if u.uid not in immortal_units(setup) or u.used(IMMORTAL):
        return st
    full = unit_max_hp(setup.units[u.uid], u)
    return replace(st, immortal_left=max(0, immortal_allowance(full) - immortal_lost(u, turn)))
