"""Defensive Unit Perks in a game (Perks 000_94ecc6a4c74d351b.txt §12.4 Defensive, L1460-L1800).

* **Immortal** (L1539-L1546): "User cannot lose more than half of its full HP (rounding up, 1 HP
  minimum) in a single Game Turn. Once the User has lost half of its full HP in a single Game
  Turn, the benefits of Immortal are lost at the end of the Game Turn. The User is also immune to
  Deathblow". The unit's HP is remembered as each Game Turn starts (and when it deploys); the
  attack kernel's :class:`~warbench.rulesets.warsurge.attack.UnitState` carries what it may still
  lose (``immortal_left``, :func:`immortal_state`), which caps every HP Loss the game applies
  through it (Attacks, templates, HP lost with no Saves) and turns Deathblow off; ``odds`` caps
  a fresh Immortal unit at half its full HP the same way. At the end of a Game Turn in which it
  lost that much, Immortal is spent for the rest of the game (its Limited Use; docs/rulings.md
  "perks in play: Tactical, Trait, Movement, Leadership, Defensive" 6).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.attack import PerkSet, UnitState, immortal_allowance
from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.state import GameSetup
    from warbench.rulesets.warsurge.game.work import Work

__all__ = [
    "IMMORTAL",
    "immortal_at_turn_end",
    "immortal_lost",
    "immortal_on_deploy",
    "immortal_state",
    "immortal_units",
    "register_hooks",
]

IMMORTAL = "Immortal"
_RULE = "Perks §12.4 Immortal (000_94ecc6a4c74d351b.txt L1539)"
_TURN = "immortal turn"
_HP = "immortal hp"

_UNITS: dict[int, tuple[GameSetup, frozenset[int]]] = {}


def immortal_units(setup: GameSetup) -> frozenset[int]:
    """The units of ``setup`` with Immortal (worked out once per set-up)."""
    hit = _UNITS.get(id(setup))
    if hit is not None and hit[0] is setup:
        return hit[1]
    found = frozenset(
        info.uid
        for info in setup.units
        if PerkSet([*info.unit.profile.perks, *info.traits]).has(IMMORTAL)
    )
    if len(_UNITS) > 64:
        _UNITS.clear()
    _UNITS[id(setup)] = (setup, found)
    return found


def immortal_lost(work: Work, uid: int) -> int:
    """HP the unit has lost this Game Turn: below what it had as the Game Turn started (or as it
    deployed), HP restored since counting back (ruling 6)."""
    u = work.units[uid]
    if u.counter(_TURN) != work.flow.turn:
        return 0
    return max(0, u.counter(_HP) - sum(max(0, h) for h in u.hp))


def immortal_state(work: Work, uid: int, st: UnitState) -> UnitState:
    """``st`` with Immortal's HP left this Game Turn (unchanged for any other unit)."""
    if uid not in immortal_units(work.setup) or work.units[uid].used(IMMORTAL):
        return st
    left = max(0, immortal_allowance(work.info(uid).max_hp) - immortal_lost(work, uid))
    return replace(st, immortal_left=left)


def _remember(work: Work, uid: int) -> None:
    u = work.units[uid]
    hp = sum(max(0, h) for h in u.hp)
    work.units[uid] = u.with_counter(_TURN, work.flow.turn).with_counter(_HP, hp)
    work.dirty = True


def immortal_at_turn_start(work: Work, turn: int) -> None:
    """The HP each Immortal unit starts the Game Turn with."""
    for uid in immortal_units(work.setup):
        if work.units[uid].living() and not work.units[uid].used(IMMORTAL):
            _remember(work, uid)


def immortal_on_deploy(work: Work, unit: int) -> None:
    """A unit deployed during the Game Turn starts counting from its arrival."""
    if unit in immortal_units(work.setup) and work.units[unit].counter(_TURN) != work.flow.turn:
        _remember(work, unit)


def immortal_at_turn_end(work: Work, turn: int) -> None:
    """L1541: "Once the User has lost half of its full HP in a single Game Turn, the benefits of
    Immortal are lost at the end of the Game Turn"."""
    for uid in sorted(immortal_units(work.setup)):
        u = work.units[uid]
        if u.used(IMMORTAL) or u.counter(_TURN) != turn:
            continue
        half = immortal_allowance(work.info(uid).max_hp)
        if immortal_lost(work, uid) >= half:
            work.units[uid] = work.units[uid].with_use(IMMORTAL)
            work.dirty = True
            work.emit(
                "perk",
                f"{work.label(uid)} lost {half} HP this Game Turn: Immortal is lost",
                _RULE,
                unit=uid,
                perk=IMMORTAL,
            )


def register_hooks(reg: HookRegistry) -> None:
    """Register this module's hooks (one call from :func:`.perk_hooks.register_perk_hooks`)."""
    reg.register(Hook.TURN_START, immortal_at_turn_start, "Immortal (HP at the start)")
    reg.register(Hook.DEPLOY, immortal_on_deploy, "Immortal (HP on arrival)")
    reg.register(Hook.TURN_END, immortal_at_turn_end, "Immortal is lost")
