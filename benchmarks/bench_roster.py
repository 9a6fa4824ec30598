"""WARSURGE roster speed (issue 3): cost + validate a 30-unit roster with perks.

Targets: from scratch under 1 s; re-costing after one change under 50 ms. "From scratch" uses
a new points model (its durability/offence caches empty) behind a new CachingCoster; "after one
change" keeps both warm and costs only the changed unit again. Run with ``make bench``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from warbench.rulesets.warsurge.costing import CachingCoster, FunctionCoster, default_coster
from warbench.rulesets.warsurge.points import PointsModel
from warbench.rulesets.warsurge.profiles import ModelGroup, Unit, UnitProfile, WeaponProfile
from warbench.rulesets.warsurge.roster import Roster, RosterEntry, RosterPerk, validate_roster


def fresh_coster() -> CachingCoster:
    """This warbench's coster with a new points model (empty caches) behind an empty roster
    cache. Built from :func:`default_coster`, so new coster fields (trait and perk prices ...)
    come along instead of breaking the benchmark."""
    inner = default_coster().inner
    assert isinstance(inner, FunctionCoster), type(inner)
    return CachingCoster(dataclasses.replace(inner, cost_fn=PointsModel().cost_unit))


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
                transport=2000, fire_points=2, perks=["Crew I"],
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
        # The 30 units cost 29,103 pts under points model ws-points-1 (issue 18: the old
        # limit of 25,000 made the roster illegal); 40,000 leaves room for price changes.
        point_limit=40_000,
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
    report = benchmark.pedantic(lambda: validate_roster(r, fresh_coster()), rounds=5, iterations=1)
    assert len(report.entries) == 30
    assert report.ok, [v.explanation for v in report.violations]


def test_bench_roster_30_units_after_one_change(benchmark: Any) -> None:
    r = roster_30()
    coster = fresh_coster()
    validate_roster(r, coster)
    changed = _changed(r)

    def again() -> Any:
        # The cache keeps the 29 unchanged units; the changed one is costed again every round.
        coster._cache.pop(changed.units[7].unit.model_dump_json(), None)
        return validate_roster(changed, coster)

    report = benchmark(again)
    assert len(report.entries) == 30
