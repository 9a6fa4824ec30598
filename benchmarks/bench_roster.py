"""WARSURGE roster speed (issue 3): cost + validate a 30-unit roster with perks.

Targets: from scratch under 1 s; re-costing after one change under 50 ms (the coster caches
each distinct unit by content, so only the changed unit is costed again). Run with
``make bench``. The points model is used when it is installed; otherwise a stand-in coster that
walks every model and weapon like a points model would (so the roster layer is what is timed).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.costing import CachingCoster, RosterCoster, default_coster
from warbench.rulesets.warsurge.profiles import ModelGroup, Unit, UnitProfile, WeaponProfile
from warbench.rulesets.warsurge.roster import Roster, RosterEntry, RosterPerk, validate_roster


@dataclass(frozen=True)
class _Cost:
    unit: str
    total: int
    model_points: tuple[float, ...]
    items: tuple[Any, ...]
    version: str


class StandIn:
    """Stat-based stand-in for the points model (used only when it is not installed)."""

    version = "bench-stand-in"

    def cost_unit(self, unit: Unit) -> _Cost:
        p = unit.profile
        base = p.hp * (p.defence + 1) / 2 + (p.move + p.dash) / 6 + p.transport / 10
        base += sum(7 - s for s in (p.armour, p.aegis) if s) + 2 * len(p.perks)
        w_pts = {
            w.name: w.attacks * max(w.power, 1) * (1 + w.range / 48) + 3 * len(w.perks)
            for w in unit.weapons
        }
        pts = [base + sum(w_pts[n] for n in g.weapons) for g in unit.models for _ in range(g.count)]
        return _Cost(unit.name, round(sum(pts)), tuple(pts), (), self.version)

    def trait_adjusted(self, cost: float, traits: Sequence[str]) -> float:
        for t in traits:
            cost *= {"Fusion": 10, "Respawn": 0.5, "Summon": 0.25}.get(t, 1)
        return cost


def _inner() -> RosterCoster:
    try:
        return default_coster().inner
    except RulesError:
        return StandIn()


def roster_30() -> Roster:
    """30 distinct units: squads, Twin-armed heroes, transports with passengers, Presence."""
    entries: list[RosterEntry] = []
    for i in range(30):
        rifle = WeaponProfile(
            name="Rifle", range=18 + i, attacks=2, power=4, ap=5, perks=["Rapid", "Burn"]
        )
        blade = WeaponProfile(name="Blade", range=0, attacks=3, power=5, perks=["Destroy I"])
        left = WeaponProfile(name="Left", range=12, attacks=2, power=6, perks=["Twin"])
        right = WeaponProfile(name="Right", range=12, attacks=2, power=6, perks=["Twin"])
        kind = i % 5
        if kind == 3:  # transport
            profile = UnitProfile(
                name=f"Carrier {i}", move=10, dash=10, defence=8, hp=12 + i, armour=3,
                transport=1000, fire_points=2, perks=["Crew I"],
            )  # fmt: skip
            unit = Unit(
                profile=profile, weapons=[rifle], models=[ModelGroup(count=1, weapons=["Rifle"])]
            )
            entries.append(RosterEntry(name=profile.name, unit=unit))
            continue
        perks = ["Presence", "Leader", "Orders"] if kind == 4 else ["Evasive"]
        profile = UnitProfile(
            name=f"Unit {i}", move=6, dash=6, defence=3 + kind, hp=1 + kind, armour=4, aegis=5,
            perks=perks,
        )  # fmt: skip
        if kind == 4:
            unit = Unit(
                profile=profile,
                weapons=[left, right],
                models=[ModelGroup(count=1, weapons=["Left", "Right"])],
            )
        else:
            unit = Unit(
                profile=profile,
                weapons=[rifle, blade],
                models=[
                    ModelGroup(count=8 + i % 4, weapons=["Rifle"]),
                    ModelGroup(count=2, weapons=["Rifle", "Blade"]),
                ],
            )
        embark = f"Carrier {i + 1}" if kind == 2 else None
        traits = ["Respawn"] if kind == 1 else []
        entries.append(RosterEntry(name=profile.name, unit=unit, embarked_in=embark, traits=traits))
    return Roster(
        name="Thirty",
        point_limit=10_000,
        units=entries,
        roster_perks=[RosterPerk(perk="Inspiring", unit="Unit 4"), RosterPerk(perk="Deny")],
    )


def _changed(r: Roster) -> Roster:
    e = r.units[7]
    groups = [e.unit.models[0].model_copy(update={"count": e.unit.models[0].count + 1})]
    unit = e.unit.model_copy(update={"models": groups + e.unit.models[1:]})
    return r.with_entry(e.model_copy(update={"unit": unit}))


def test_bench_roster_30_units_from_scratch(benchmark: Any) -> None:
    r = roster_30()
    report = benchmark.pedantic(
        lambda: validate_roster(r, CachingCoster(_inner())), rounds=20, iterations=1
    )
    assert len(report.entries) == 30 and report.ok, report.violations


def test_bench_roster_30_units_after_one_change(benchmark: Any) -> None:
    r = roster_30()
    coster = CachingCoster(_inner())
    validate_roster(r, coster)
    changed = _changed(r)

    def again() -> Any:
        # The cache keeps the 29 unchanged units; the changed one is costed again every round.
        coster._cache.pop(changed.units[7].unit.model_dump_json(), None)
        return validate_roster(changed, coster)

    report = benchmark(again)
    assert len(report.entries) == 30
