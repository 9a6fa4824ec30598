"""The closest-unit compulsions shared by Berserk and Wild Instinct (:mod:`.perk_psych`,
Perks 000_94ecc6a4c74d351b.txt L2187, L2341), Psychotic (:mod:`.perk_psychotic`, L2277) and a
defector's (Traitorous, Enslaved: :mod:`.perk_defect`, L2313, L1254).

Each reads "must direct any and all Movement toward the closest Unit … until all Weapons are in
Range" and "Weapons must be directed to the closest Unit"; they differ only in which units count
(enemies, any unit, the former side). This module holds the common machinery:

* :func:`nearest`: of some units, those at the least distance from the User (ties within
  :data:`TIE` all count; "If multiple Units are the same distance, User may choose", L2277);
* :func:`heal_weapon`: Heal Weapons are left to their own rules;
* :func:`out_of_range`: whether a Weapon (not Heal) of the User does not reach a unit now;
* :func:`moves_away`: whether a Move or Dash breaks the compulsion (a Weapon is out of Range of
  the closest units and, for every one of them, some model ends farther from it than it began).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game import bases, geom

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.actions import Point
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["TIE", "heal_weapon", "moves_away", "nearest", "out_of_range"]

#: Distances this close to the least count as the same distance (inches).
TIE = 1e-6


def nearest(work: Work, uid: int, units: Iterable[int]) -> list[int]:
    """Of ``units``, those at the least distance from ``uid`` (several when tied), sorted."""
    best = [(work.gap(uid, t), t) for t in units]
    if not best:
        return []
    least = min(d for d, _ in best)
    return sorted(t for d, t in best if d <= least + TIE)


def heal_weapon(work: Work, uid: int, weapon: str) -> bool:
    """Whether ``uid``'s ``weapon`` has the Heal perk."""
    from warbench.rulesets.warsurge.game.perk_index import weapon_perks

    return "Heal" in weapon_perks(work, uid, weapon)


def out_of_range(work: Work, uid: int, other: int) -> bool:
    """Whether some Weapon of ``uid`` (not Heal) does not reach ``other`` now."""
    from warbench.rulesets.warsurge.game.perk_effects import weapon_ranges

    ranges = weapon_ranges(work.info(uid), work.units[uid].statuses)
    gap = work.gap(uid, other)
    return any(r + 1e-9 < gap for name, r in ranges.items() if not heal_weapon(work, uid, name))


def moves_away(
    work: Work,
    uid: int,
    closest: Sequence[int],
    starts: tuple[Point, ...],
    new: tuple[Point, ...],
) -> bool:
    """Whether ``uid``'s models moving from ``starts`` to ``new`` break the compulsion toward
    ``closest``: some Weapon is out of Range of a closest unit, and no closest unit has every
    model end no farther from it than it began."""
    if not closest or not any(out_of_range(work, uid, c) for c in closest):
        return False
    r = work.info(uid).radius
    for c in closest:
        xy, cr = work.xy(c), work.info(c).radius
        before = bases.distances(work, uid, geom.as_array(starts), r, c, xy, cr).min(axis=1)
        after = bases.distances(work, uid, geom.as_array(new), r, c, xy, cr).min(axis=1)
        if bool((after <= before + 1e-6).all()):
            return False
    return True
