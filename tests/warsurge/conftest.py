"""Builders for WARSURGE test units."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from warbench.rulesets.warsurge.attack import AttackContext, UnitState
from warbench.rulesets.warsurge.odds import AttackPlan
from warbench.rulesets.warsurge.profiles import ModelGroup, Unit, UnitProfile, WeaponProfile


def weapon(name: str = "Gun", **kw: Any) -> WeaponProfile:
    data: dict[str, Any] = {"range": 24, "attacks": 1, "power": 4, "type": "Assault"}
    data.update(kw)
    return WeaponProfile(name=name, **data)


def unit(
    name: str = "Unit",
    *,
    models: int = 1,
    weapons: Sequence[WeaponProfile] = (),
    groups: Sequence[tuple[int, Sequence[str]]] | None = None,
    **stats: Any,
) -> UnitState:
    data: dict[str, Any] = {"move": 6, "dash": 6, "defence": 4, "hp": 1}
    data.update(stats)
    ws = list(weapons) or [weapon()]
    if groups is None:
        groups = [(models, [w.name for w in ws])]
    return UnitState.of(
        Unit(
            profile=UnitProfile(name=name, **data),
            weapons=ws,
            models=[ModelGroup(count=c, weapons=list(names)) for c, names in groups],
        )
    )


def plan(attacker: UnitState, target: UnitState, **ctx: Any) -> AttackPlan:
    return AttackPlan(attacker, target, AttackContext(**ctx))
