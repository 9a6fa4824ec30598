"""How the roster layer asks for point costs: the :class:`RosterCoster` protocol and a cache.

The points model itself (``warbench.rulesets.warsurge.points``: ``cost_unit``,
``trait_adjusted``, ``POINTS_MODEL_VERSION``) is a separate module and the default
(:func:`default_coster`); rosters only need something that satisfies :class:`RosterCoster`, so
validation is tested with a transparent fake coster and runs unchanged with the real one.
:class:`CachingCoster` memoises unit costs by the content of the unit (profile, weapons and
model groups), so re-costing a roster after one change recomputes only the unit that changed.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from warbench.rulesets.warsurge.profiles import ModelGroup, Unit, WeaponProfile

__all__ = [
    "CachingCoster",
    "CostItemLike",
    "FunctionCoster",
    "PerkShareLike",
    "RosterCoster",
    "UnitCostLike",
    "default_coster",
    "weapon_costs",
]


class CostItemLike(Protocol):
    """One line of an itemised cost (``points.CostItem``)."""

    @property
    def label(self) -> str: ...
    @property
    def points(self) -> float: ...
    @property
    def reason(self) -> str: ...


class PerkShareLike(Protocol):
    """A priced perk's share of a unit's price (``points.PerkShare``)."""

    @property
    def perk(self) -> str: ...
    @property
    def on(self) -> str: ...
    @property
    def points(self) -> float: ...
    @property
    def method_text(self) -> str: ...


class UnitCostLike(Protocol):
    """What the roster reads from a unit's cost (``points.UnitCost``).

    ``total`` is the whole unit including the weapons its models carry, before Traits,
    rounded; ``model_points`` has one value per model (with the weapons it carries).
    """

    @property
    def unit(self) -> str: ...
    @property
    def total(self) -> int: ...
    @property
    def model_points(self) -> Sequence[float]: ...
    @property
    def items(self) -> Sequence[CostItemLike]: ...
    @property
    def version(self) -> str: ...
    @property
    def perks(self) -> Sequence[PerkShareLike]:
        """Each table-priced perk's share of the unrounded total (may be empty)."""
        ...


class RosterCoster(Protocol):
    """Costs units for a roster: the full cost of a unit and the Trait adjustment (§12.2)."""

    @property
    def version(self) -> str:
        """The points-model version, stamped into saved and exported rosters."""
        ...

    def cost_unit(self, unit: Unit) -> UnitCostLike:
        """The unit's full cost before Traits (Core Rules §1.6, §3.2)."""
        ...

    def trait_adjusted(self, cost: float, traits: Sequence[str]) -> float:
        """The unit's value: ``cost`` adjusted for Fusion x10, Respawn /2, Summon /4 (§12.2)."""
        ...

    def trait_price(self, cost: float, traits: Sequence[str]) -> float:
        """What the Roster pays for a unit of full cost ``cost`` with ``traits`` (§12.6)."""
        ...

    def roster_perk_price(self, perk: str) -> float:
        """What the Roster pays for one Roster Perk (§12.6)."""
        ...

    def price_method(self, perk: str) -> str:
        """How a perk (a Trait, a Roster Perk …) is priced, in words; ``""`` if unknown."""
        ...


def _no_method(perk: str) -> str:
    return ""


@dataclass(frozen=True)
class FunctionCoster:
    """A :class:`RosterCoster` made of two functions and a version string."""

    version: str
    cost_fn: Callable[[Unit], UnitCostLike]
    trait_fn: Callable[[float, Sequence[str]], float]
    price_fn: Callable[[float, Sequence[str]], float]
    perk_fn: Callable[[str], float]
    method_fn: Callable[[str], str] = _no_method

    def cost_unit(self, unit: Unit) -> UnitCostLike:
        return self.cost_fn(unit)

    def trait_adjusted(self, cost: float, traits: Sequence[str]) -> float:
        return self.trait_fn(cost, traits)

    def trait_price(self, cost: float, traits: Sequence[str]) -> float:
        return self.price_fn(cost, traits)

    def roster_perk_price(self, perk: str) -> float:
        return self.perk_fn(perk)

    def price_method(self, perk: str) -> str:
        return self.method_fn(perk)


class CachingCoster:
    """Memoises :meth:`cost_unit` by the content of the unit (its canonical JSON).

    Two entries with equal profiles, weapons and model groups are costed once; editing one
    entry of a roster costs only that entry again. At most ``maxsize`` units are remembered
    (least recently used first out). ``hits`` and ``misses`` count lookups.
    """

    def __init__(self, inner: RosterCoster, maxsize: int = 4096) -> None:
        self.inner = inner
        self.maxsize = maxsize
        self._cache: OrderedDict[str, UnitCostLike] = OrderedDict()
        self.hits = 0
        self.misses = 0

    @property
    def version(self) -> str:
        return self.inner.version

    def cost_unit(self, unit: Unit) -> UnitCostLike:
        key = unit.model_dump_json()
        found = self._cache.get(key)
        if found is not None:
            self.hits += 1
            self._cache.move_to_end(key)
            return found
        self.misses += 1
        cost = self.inner.cost_unit(unit)
        self._cache[key] = cost
        if len(self._cache) > self.maxsize:
            self._cache.popitem(last=False)
        return cost

    def trait_adjusted(self, cost: float, traits: Sequence[str]) -> float:
        return self.inner.trait_adjusted(cost, traits)

    def trait_price(self, cost: float, traits: Sequence[str]) -> float:
        return self.inner.trait_price(cost, traits)

    def roster_perk_price(self, perk: str) -> float:
        return self.inner.roster_perk_price(perk)

    def price_method(self, perk: str) -> str:
        return self.inner.price_method(perk)

    def clear(self) -> None:
        """Forget every cached cost (after the points model changed)."""
        self._cache.clear()


def weapon_costs(coster: RosterCoster, unit: Unit, weapons: Sequence[WeaponProfile]) -> list[float]:
    """The points each weapon adds to one model of ``unit`` (for Linked Profile, Perks §12.2).

    Derived from one unit cost: a model carrying nothing, then one model carrying each weapon,
    all with the unit's profile (so a profile-dependent weapon price is respected); a weapon's
    cost is its model's points minus the bare model's.
    """
    probe = Unit(
        profile=unit.profile,
        weapons=list(weapons),
        models=[ModelGroup(count=1), *(ModelGroup(count=1, weapons=[w.name]) for w in weapons)],
    )
    points = coster.cost_unit(probe).model_points
    return [float(p - points[0]) for p in points[1:]]


_DEFAULT: list[CachingCoster] = []


def default_coster() -> CachingCoster:
    """This warbench's points model (``points.cost_unit``, ``points.trait_adjusted``,
    ``POINTS_MODEL_VERSION``) behind one process-wide :class:`CachingCoster`."""
    if not _DEFAULT:
        from warbench.rulesets.warsurge import points  # the model loads its data on import

        _DEFAULT.append(
            CachingCoster(
                FunctionCoster(
                    version=points.POINTS_MODEL_VERSION,
                    cost_fn=points.cost_unit,
                    trait_fn=points.trait_adjusted,
                    price_fn=points.trait_cost,
                    perk_fn=points.roster_perk_cost,
                    method_fn=points.price_method,
                )
            )
        )
    return _DEFAULT[0]
