"""Shared Weapons (Tactical, Perks 000_94ecc6a4c74d351b.txt L4055; docs/rulings.md "WARSURGE
perks in play: session 25, s25-tactical" 7).

"Any model in the Unit has access to this Weapon. Measure from any model in the Unit to attack.
Precision Damage on the current Wielder will not remove the Weapon from the Unit."

The game reads it so: every model of the unit carries the Weapon (:func:`model_weapons`, used
when the set-up is built), so any of its models on the battlefield may use it, from where it
stands, and the Weapon stays with the unit while any model lives; but the unit still has only
as many of it as its profile gives (its copies, :func:`copies`), so no more models than that
attack with it at once (:func:`cap_users`, which the targeting view applies; the carriers of
the profile first, then the others in model order). This module imports nothing of the game
package: ``state`` uses it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.attack import PerkSet

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.profiles import Unit

__all__ = ["SHARED", "cap_users", "copies", "model_weapons", "shared_weapons", "split_refusal"]

SHARED = "Shared"
RULE = "Perks §12.5 Shared (000_94ecc6a4c74d351b.txt L4055)"
_CACHE: dict[int, tuple[Unit, frozenset[str]]] = {}


def shared_weapons(unit: Unit) -> frozenset[str]:
    """The unit's Weapons with the Shared perk (memoised per profile object)."""
    hit = _CACHE.get(id(unit))
    if hit is not None and hit[0] is unit:
        return hit[1]
    names = frozenset(wp.name for wp in unit.weapons if PerkSet(wp.perks).has(SHARED))
    if len(_CACHE) > 4096:
        _CACHE.clear()
    _CACHE[id(unit)] = (unit, names)
    return names


def model_weapons(unit: Unit) -> list[tuple[str, ...]]:
    """One entry per model, the names of the weapons it may use: the profile's, and every
    Shared Weapon of the unit (in profile order) for every model."""
    base = unit.model_weapons()
    shared = shared_weapons(unit)
    if not shared:
        return base
    order = [wp.name for wp in unit.weapons]
    return [tuple(n for n in order if n in ws or n in shared) for ws in base]


def copies(unit: Unit, weapon: str) -> int:
    """How many of ``weapon`` the profile gives the unit (the models carrying it)."""
    return sum(g.count for g in unit.models if weapon in g.weapons)


def cap_users(unit: Unit, users: Mapping[str, list[int]]) -> dict[str, list[int]]:
    """``users`` (Weapon → models that could use it) with a Shared Weapon's users cut to its
    copies: the profile's carriers first, then the other models in model order."""
    shared = shared_weapons(unit)
    if not shared or not shared & set(users):
        return users if isinstance(users, dict) else dict(users)
    out = dict(users)
    base = unit.model_weapons()
    for name in shared & set(users):
        n = copies(unit, name)
        models = users[name]
        if len(models) <= n:
            continue
        own = [m for m in models if m < len(base) and name in base[m]]
        rest = [m for m in models if m not in own]
        out[name] = sorted((own + rest)[:n])
    return out


Share = tuple[str, int, tuple[int, ...] | None]


def split_refusal(unit: Unit, shares: Sequence[Share]) -> str | None:
    """A Shared Weapon split among Targets with more models named than its copies, or None."""
    shared = shared_weapons(unit)
    if not shared:
        return None
    for name in sorted(shared):
        named = sum(len(c) for w, _, c in shares if w == name and c is not None)
        n = copies(unit, name)
        if named > n:
            return (
                f"{name} is Shared: any model may use it, but the unit has {n} of it and "
                f"{named} models are named ({RULE})"
            )
    return None
