"""WARSURGE points model speed (issue 3 targets).

Costing a 30-unit roster with perks from scratch: under 1 s; re-costing after one change:
under 50 ms (the model caches every profile's durability, each weapon's offence and each
unit's price, so only the changed unit is recomputed). Run with ``make bench``.
"""

from __future__ import annotations

import random
from typing import Any

from warbench.rulesets.warsurge.odds import attack_roll_distribution, die_transitions, unsaved_loss
from warbench.rulesets.warsurge.points import PointsModel
from warbench.rulesets.warsurge.profiles import ModelGroup, Unit, UnitProfile, WeaponProfile

UNIT_PERKS = ["Tough", "Dodge", "Evasive", "Emergency Save", "Might I", "Recover", "Adrenaline"]
WEAPON_PERKS = ["Destroy I", "Rend", "Critical Hit I", "Piercing Hit I", "Puncture I", "Burn"]


def roster(seed: int = 7, size: int = 30) -> list[Unit]:
    """``size`` distinct units: 1-10 models, 1-2 weapons, a perk or two each."""
    rng = random.Random(seed)
    units = []
    for i in range(size):
        weapons = [
            WeaponProfile(
                name=f"W{i}-{k}",
                range=rng.choice([0, 12, 24, 36]),
                attacks=rng.randint(1, 4),
                power=rng.randint(3, 8),
                ap=rng.choice([None, 6, 5, 4, 3]),
                type=rng.choice(["Heavy", "Battle", "Assault"]),
                perks=rng.sample(WEAPON_PERKS, rng.randint(0, 1)),
            )
            for k in range(rng.randint(1, 2))
        ]
        hp = rng.choice([1, 1, 2, 3, 6])
        units.append(
            Unit(
                profile=UnitProfile(
                    name=f"Unit {i}",
                    move=rng.randint(4, 10),
                    dash=rng.randint(4, 10),
                    defence=rng.randint(2, 7),
                    hp=hp,
                    armour=rng.choice([None, 6, 5, 4, 3]),
                    aegis=rng.choice([None, None, 6, 5]),
                    perks=rng.sample(UNIT_PERKS, rng.randint(0, 2)),
                ),
                weapons=weapons,
                models=[ModelGroup(count=rng.randint(1, 10), weapons=[w.name for w in weapons])],
            )
        )
    return units


def test_cost_30_unit_roster_from_scratch(benchmark: Any) -> None:
    """Target: under 1 s (a fresh model, nothing cached)."""
    units = roster()

    def run() -> int:
        for f in (attack_roll_distribution, die_transitions, unsaved_loss):
            f.cache_clear()
        model = PointsModel()
        return sum(model.cost_unit(u).total for u in units)

    assert benchmark.pedantic(run, rounds=5, iterations=1) > 0


def test_recost_30_unit_roster_after_one_change(benchmark: Any) -> None:
    """Target: under 50 ms (one unit's Defence changed; the other 29 come from the cache)."""
    units = roster()
    model = PointsModel()
    for u in units:
        model.cost_unit(u)
    counter = iter(range(10**6))

    def run() -> int:
        n = next(counter)
        changed = units[3].profile.model_copy(update={"defence": 2 + n % 9, "move": 1 + n // 9})
        edited = [*units[:3], units[3].model_copy(update={"profile": changed}), *units[4:]]
        return sum(model.cost_unit(u).total for u in edited)

    assert benchmark.pedantic(run, rounds=20, iterations=1) > 0
