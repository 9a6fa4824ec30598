"""Wreckage in a game (Perks 000_94ecc6a4c74d351b.txt §12.4 Aeonian, L1442-L1452; issue 11,
session 25 wave 2, lane w2-transport): the ``wreckage`` machinery of the effects table; rulings
"WARSURGE perks in play: session 25, w2-transport".

    "Wreckage — Single Model, Passive, Specific. When the User becomes a casualty, the model
    will remain on the Battlefield as terrain instead of being removed (unable to contest
    Objectives, Immobile, no Weapons and no Perks). The User can be traversed as Difficult
    Ground. The User's 'Wreckage' can be attacked, referring to the User's Stats except it has
    1 HP. If the User suffers HP Loss as 'Wreckage', they are removed as a casualty."

* **The casualty** (:func:`stays`, asked by ``casualties.destroy_unit``): a Single Model unit
  with Wreckage destroyed on the Battlefield keeps its model where it stood with 1 HP and the
  status :data:`~.state.WRECKED` only (every other status goes); its Melees end; passengers
  leave it as the survivors of a destroyed Transport (§6.6).
* **As terrain**: it has no value (``state.unit_value``), acts no more (``turn.eligible``), uses
  no Weapon (:func:`weapon_refusal`) and no Perk (its Unit Perks are off its profile in the
  attack kernel, ``work.to_unit_state``), holds and contests no Objective
  (``terrain_control``), keeps no side alive at the game's end (``turn``), is in no Melee
  (``melee.engage_new_contacts``), and other units' models move over it (``perk_terrain_unit.
  passable``) as Difficult Ground (:func:`crossed`, read by ``coherency.problem_positions``).
* **Attacked** as its unit (the User's Stats, 1 HP): its HP Loss removes it as a casualty.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game.memo import per_setup
from warbench.rulesets.warsurge.game.state import WRECKED, Location, Status

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.actions import Point
    from warbench.rulesets.warsurge.game.state import GameSetup
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["WRECKAGE", "crossed", "holders", "stays", "weapon_refusal", "wrecks"]

BOOK = "000_94ecc6a4c74d351b.txt"
WRECKAGE = "Wreckage"
RULE = f"Perks §12.4 Wreckage ({BOOK} L1442)"


@per_setup
def holders(setup: GameSetup) -> frozenset[int]:
    """The Single Model units of ``setup`` with Wreckage (once per set-up)."""
    out = frozenset(
        info.uid
        for info in setup.units
        if info.models == 1 and WRECKAGE in (*info.unit.profile.perks, *info.traits)
    )
    return out


def perk_holders(
    setup: GameSetup, units: tuple[int, ...]
) -> tuple[tuple[int, ...], frozenset[int]]:
    """A Passive Perk's holders in ``setup`` (``units``, read once per set-up by the perk's
    module) and those of them that can lose it in the game: Wreckage is the only rule that
    takes a Passive Perk away (L1442, "no Weapons and no Perks"; issue 10, session 36)."""
    return units, holders(setup).intersection(units)


def keeping_perks(w: Work, units: tuple[int, ...], wreckable: frozenset[int]) -> tuple[int, ...]:
    """``units`` (from :func:`perk_holders`) less those become Wreckage now (L1442); in a game
    where none of them has Wreckage, ``units`` as they are."""
    if wreckable:
        return tuple(u for u in units if u not in wreckable or not w.units[u].wrecked)
    return units


def wrecks(w: Work) -> list[int]:
    """The Wreckage on the Battlefield now."""
    mine = holders(w.setup)
    if not mine:
        return []
    return [k for k in sorted(mine) if w.units[k].wrecked and w.units[k].location is Location.TABLE]


def stays(w: Work, uid: int) -> bool:
    """``uid`` would be destroyed: with Wreckage, on the Battlefield, not Wreckage already, its
    model stays as Wreckage (1 HP) and it is not destroyed (``True``)."""
    if uid not in holders(w.setup):
        return False
    u = w.units[uid]
    if u.wrecked or u.location is not Location.TABLE or not u.pos:
        return False
    w.set_unit(
        uid,
        hp=tuple(1 for _ in u.hp),
        removed=tuple(False for _ in u.removed),
        statuses=(Status(WRECKED, None, WRECKAGE),),
        acted=True,
    )
    w.engaged = {p for p in w.engaged if uid not in p}
    w.emit("perk", f"{w.label(uid)} is a casualty; its model stays on the Battlefield as "
           "Wreckage (terrain, 1 HP)", RULE, unit=uid, perk=WRECKAGE)  # fmt: skip
    return True


def weapon_refusal(w: Work, uid: int, weapon: str) -> str | None:
    """Wreckage has no Weapons."""
    u = w.units[uid]
    if not u.statuses or not u.wrecked:
        return None
    return f"{w.label(uid)} is Wreckage: it has no Weapons ({RULE})"


def crossed(
    w: Work, uid: int, start: Point, end: Point, r: float, model: int | None = None
) -> bool:
    """Whether a model of ``uid`` (radius ``r``) moving from ``start`` to ``end`` passes over
    Wreckage (Difficult Ground, L1448). In a game with oval or rectangular bases (§1.3) the
    area the ``model``'s base sweeps (``bases_ground.swept``) meets the wrecks' true bases."""
    from warbench.rulesets.warsurge.game import bases, bases_ground

    exact = model is not None and bases.shaped(w.setup)
    sweep = bases_ground.swept(w, uid, model, start, end) if exact and model is not None else None
    for k in wrecks(w):
        if k == uid:
            continue
        if sweep is not None:
            pos = w.units[k].pos
            if bases_ground.swept_gaps(w, sweep, k, pos, range(len(pos)))[1].any():
                return True
            continue
        kr = w.info(k).radius
        for c in w.units[k].pos:
            if _segment_gap(start, end, c) < r + kr - 1e-9:
                return True
    return False


def _segment_gap(a: Point, b: Point, c: Point) -> float:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    n = dx * dx + dy * dy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((c[0] - ax) * dx + (c[1] - ay) * dy) / n))
    return math.dist((ax + t * dx, ay + t * dy), c)
