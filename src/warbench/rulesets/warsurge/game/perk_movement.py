"""Movement Unit Perks played by the Game Turn (Perks 000_94ecc6a4c74d351b.txt §12.4 Movement,
L2076-L2180).

* **Nonstop I-III** (L2138-L2158): "At the end of each Game Turn, the User must be at least 12"
  away from where it began at the start of the Game Turn. If the User (all models in the Unit)
  cannot do this, it becomes a casualty" (18", 24"). Each model's place at the start of the Game
  Turn is remembered (``Hook.TURN_START``); at its end (``Hook.TURN_END``) a model less than the
  distance from where it began is a casualty (docs/rulings.md, "Nonstop"). A unit that was not on
  the Battlefield when the Game Turn started (deployed in it, in Reserve, embarked) has no place
  to have begun from and is left alone.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game.casualties import remove_models, restore_coherency
from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.perk_turn import index
from warbench.rulesets.warsurge.game.state import Location

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["NONSTOP", "nonstop_at_turn_end", "nonstop_at_turn_start", "register_hooks"]

#: Nonstop rank → the distance a model must end from where it began (L2138, L2148, L2154).
NONSTOP = {"Nonstop I": 12.0, "Nonstop II": 18.0, "Nonstop III": 24.0}
NONSTOP_LINES = {"Nonstop I": 2138, "Nonstop II": 2148, "Nonstop III": 2154}

_TURN = "nonstop turn"
_SCALE = 100  # positions kept in counters as hundredths of an inch
_SPAN = 100_000


def _start(i: int) -> str:
    return f"nonstop start {i}"


def _distance(work: Work, uid: int) -> tuple[str, float] | None:
    perks = index(work.setup).units[uid].unit
    best = [(d, n) for n, d in NONSTOP.items() if n in perks]
    if not best:
        return None
    d, n = max(best)
    return n, d


def _nonstop_units(work: Work) -> list[tuple[int, str, float]]:
    out = []
    for uid in range(len(work.units)):
        found = _distance(work, uid)
        if found is not None:
            out.append((uid, *found))
    return out


def nonstop_at_turn_start(work: Work, turn: int) -> None:
    """Remember where each model of a Nonstop unit on the Battlefield begins the Game Turn."""
    for uid, _, _ in _nonstop_units(work):
        u = work.units[uid]
        if u.location is not Location.TABLE:
            continue
        for i in u.present():
            x, y = u.pos[i]
            code = round(x * _SCALE) * _SPAN + round(y * _SCALE)
            u = u.with_counter(_start(i), code)
        work.units[uid] = u.with_counter(_TURN, turn)
        work.dirty = True


def nonstop_at_turn_end(work: Work, turn: int) -> None:
    """L2138: models less than the rank's distance from where they began are casualties."""
    for uid, rank, need in _nonstop_units(work):
        u = work.units[uid]
        if u.location is not Location.TABLE or u.counter(_TURN) != turn or not u.living():
            continue
        short = []
        for i in u.living():
            code = u.counter(_start(i))
            x0, y0 = divmod(code, _SPAN)
            x, y = u.pos[i]
            if math.hypot(x - x0 / _SCALE, y - y0 / _SCALE) < need - 1e-6:
                short.append(i)
        if not short:
            continue
        hp = list(u.hp)
        for i in short:
            hp[i] = 0
        work.set_unit(uid, hp=tuple(hp))
        rule = f"Perks §12.4 {rank} (000_94ecc6a4c74d351b.txt L{NONSTOP_LINES[rank]})"
        work.emit(
            "perk",
            f'{work.label(uid)}: {rank}, {len(short)} models less than {need:g}" from where they '
            "began the Game Turn are casualties",
            rule,
            unit=uid,
            casualties=len(short),
        )
        remove_models(work, uid, short, rank)
        if work.units[uid].living():
            restore_coherency(work, uid)


def register_hooks(reg: HookRegistry) -> None:
    """Register this module's hooks (one call from :func:`.perk_hooks.register_perk_hooks`)."""
    reg.register(Hook.TURN_START, nonstop_at_turn_start, "Nonstop (start)")
    reg.register(Hook.TURN_END, nonstop_at_turn_end, "Nonstop", first=True)
