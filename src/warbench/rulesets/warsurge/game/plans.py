"""Plans: what an action will do, computed by its check and reused by apply.

A check (``verify_*``) proves an action legal and returns its plan (the positions a move ends at,
the weapons an attack fires and their contexts); apply only carries the plan out, so nothing is
decided twice (Core Rules 001_d3f5e425c5e1196d.txt §4.1 moves, §3.6 deployment, §5.2 attacks).
"""

from __future__ import annotations

from dataclasses import dataclass

from warbench.rulesets.warsurge.attack import (
    AttackContext,
)
from warbench.rulesets.warsurge.game.actions import (
    Point,
)


@dataclass(frozen=True)
class MovePlan:
    uid: int
    models: tuple[int, ...]
    positions: tuple[Point, ...]
    starts: tuple[Point, ...] | None
    dash: bool
    embark: int | None = None
    disembark: bool = False
    reserve: bool = False  # out of a Transport with Rift Gate into Reserve (Perks L1384)
    facing: tuple[float, ...] = ()  # every model's facing after a Move that turns (§1.3)


@dataclass(frozen=True)
class DeployPlan:
    uid: int
    positions: tuple[Point, ...]
    passengers: tuple[int, ...]
    into: int | None = None  # inside a Transport with Rift Gate (Perks L1384)


@dataclass(frozen=True)
class WeaponPlan:
    weapon: str
    target: int
    users: int
    context: AttackContext
    models: tuple[int, ...] = ()


@dataclass(frozen=True)
class AttackPlanG:
    uid: int
    weapons: tuple[WeaponPlan, ...]


@dataclass(frozen=True)
class TerrainPlan:
    """An embark into (or, with ``leave``, a disembark from) a terrain piece used as a
    Transport (§10.2; :mod:`.terrain_transport`)."""

    uid: int
    terrain: str
    dash: bool
    models: tuple[int, ...] = ()
    positions: tuple[Point, ...] = ()
    leave: bool = False
    #: a partial fit (L4459-4464): the models left outside, at ``positions``
    rest: tuple[int, ...] = ()


@dataclass(frozen=True)
class PieceAttackPlan:
    """A checked Attack of terrain piece ``piece`` (its place on the board; ``number`` the
    unit number naming it) for ``side``: one share per weapon and target (§10.2,
    :mod:`.terrain_army`)."""

    piece: int
    number: int
    side: int
    weapons: tuple[WeaponPlan, ...]


Plan = MovePlan | DeployPlan | AttackPlanG | TerrainPlan | PieceAttackPlan | None
