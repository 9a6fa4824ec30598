"""Defensive Unit Perks in a game (Perks 000_94ecc6a4c74d351b.txt §12.4 Defensive, L1460-L1800).

* **Immortal** (L1539-L1546): "User cannot lose more than half of its full HP (rounding up, 1 HP
  minimum) in a single Game Turn. Once the User has lost half of its full HP in a single Game
  Turn, the benefits of Immortal are lost at the end of the Game Turn. The User is also immune to
  Deathblow". The unit's HP is remembered as each Game Turn starts (and when it deploys); the
  attack kernel's :class:`~warbench.rulesets.warsurge.attack.UnitState` carries what it may
  still lose (``immortal_left``, :func:`.perk_immortal.immortal_state`), which caps every HP
  Loss the game applies through it (Attacks, templates, HP lost with no Saves) and turns
  Deathblow off; ``odds`` caps a fresh Immortal unit at half its full HP the same way. At the
  end of a Game Turn in which it lost that much, Immortal is spent for the rest of the game
  (its Limited Use; docs/rulings.md "perks in play: Tactical, Trait, Movement, Leadership,
  Defensive" 6).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.attack import immortal_allowance
from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.perk_immortal import (
    HP_AT_START,
    IMMORTAL,
    TURN_COUNTED,
    immortal_lost,
    immortal_units,
)

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.work import Work

__all__ = [
    "immortal_at_turn_end",
    "immortal_at_turn_start",
    "immortal_on_deploy",
    "register_hooks",
]

_RULE = "Perks §12.4 Immortal (000_94ecc6a4c74d351b.txt L1539)"


def _remember(work: Work, uid: int) -> None:
    u = work.units[uid]
    hp = sum(max(0, h) for h in u.hp)
    work.units[uid] = u.with_counter(TURN_COUNTED, work.flow.turn).with_counter(HP_AT_START, hp)
    work.dirty = True


def immortal_at_turn_start(work: Work, turn: int) -> None:
    """The HP each Immortal unit starts the Game Turn with."""
    for uid in sorted(immortal_units(work.setup)):
        if work.units[uid].living() and not work.units[uid].used(IMMORTAL):
            _remember(work, uid)


def immortal_on_deploy(work: Work, unit: int) -> None:
    """A unit deployed during the Game Turn starts counting from its arrival."""
    if unit not in immortal_units(work.setup):
        return
    if work.units[unit].counter(TURN_COUNTED) != work.flow.turn:
        _remember(work, unit)


def immortal_at_turn_end(work: Work, turn: int) -> None:
    """L1541: "Once the User has lost half of its full HP in a single Game Turn, the benefits of
    Immortal are lost at the end of the Game Turn"."""
    for uid in sorted(immortal_units(work.setup)):
        u = work.units[uid]
        if u.used(IMMORTAL) or u.counter(TURN_COUNTED) != turn:
            continue
        half = immortal_allowance(work.info(uid).max_hp)
        if immortal_lost(work.units[uid], turn) >= half:
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
