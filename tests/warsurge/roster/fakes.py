"""A transparent fake coster, so roster tests do not depend on the points model's calibration.

Each model is worth ``hp * (defence + 1) / 2`` points plus ``attacks * power`` for each weapon
it carries, plus ``transport / 10`` for a Transport; a unit's total is the rounded sum.
Fusion multiplies the value by 10, Respawn halves it, Summon quarters it (Perks §12.2); a
Trait costs the roster +50 % of the unit (Respawn ×2, Summon ×3), a Roster Perk 25 pts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from warbench.rulesets.warsurge.profiles import ModelGroup, Unit, UnitProfile, WeaponProfile
from warbench.rulesets.warsurge.roster import Roster, RosterEntry


@dataclass(frozen=True)
class Item:
    label: str
    points: float
    reason: str


@dataclass(frozen=True)
class FakeCost:
    unit: str
    total: int
    model_points: tuple[float, ...]
    items: tuple[Item, ...]
    version: str
    perks: tuple[Any, ...] = ()


class FakeCoster:
    version = "fake-1"

    def __init__(self) -> None:
        self.calls = 0

    def cost_unit(self, unit: Unit) -> FakeCost:
        self.calls += 1
        p = unit.profile
        base = p.hp * (p.defence + 1) / 2 + p.transport / 10
        weapons = {w.name: w.attacks * w.power for w in unit.weapons}
        per_model: list[float] = []
        items = []
        for g in unit.models:
            pts = base + sum(weapons[n] for n in g.weapons)
            per_model += [pts] * g.count
            items.append(
                Item(f"{g.count} x {', '.join(g.weapons) or 'unarmed'}", pts * g.count, "")
            )
        return FakeCost(unit.name, round(sum(per_model)), tuple(per_model), tuple(items), "fake-1")

    def trait_adjusted(self, cost: float, traits: Sequence[str]) -> float:
        for t in traits:
            cost *= {"Fusion": 10, "Respawn": 0.5, "Summon": 0.25}.get(t, 1)
        return cost

    def trait_price(self, cost: float, traits: Sequence[str]) -> float:
        for t in traits:
            cost *= {"Respawn": 2, "Summon": 3}.get(t, 1.5)
        return cost

    def roster_perk_price(self, perk: str) -> float:
        return 25.0

    def price_method(self, perk: str) -> str:
        return "fake price"


def gun(name: str = "Gun", **kw: Any) -> WeaponProfile:
    data: dict[str, Any] = {"range": 24, "attacks": 2, "power": 5, "type": "Assault"}
    data.update(kw)
    return WeaponProfile(name=name, **data)


def unit(
    name: str = "Unit",
    *,
    models: int = 1,
    weapons: Sequence[WeaponProfile] | None = None,
    groups: Sequence[tuple[int, Sequence[str]]] | None = None,
    **stats: Any,
) -> Unit:
    """Defaults: Defence 4, 1 HP (2.5 pts a model), one Gun (10 pts)."""
    data: dict[str, Any] = {"move": 6, "dash": 6, "defence": 4, "hp": 1}
    data.update(stats)
    ws = [gun()] if weapons is None else list(weapons)
    if groups is None:
        groups = [(models, [w.name for w in ws])]
    return Unit(
        profile=UnitProfile(name=name, **data),
        weapons=ws,
        models=[ModelGroup(count=c, weapons=list(n)) for c, n in groups],
    )


def entry(name: str = "Unit", **kw: Any) -> RosterEntry:
    extra = {k: kw.pop(k) for k in ("traits", "embarked_in", "link", "designations") if k in kw}
    return RosterEntry(name=name, unit=unit(name, **kw), **extra)


def roster(*entries: RosterEntry, limit: int = 1000, **kw: Any) -> Roster:
    return Roster(name="Test", point_limit=limit, units=list(entries), **kw)
