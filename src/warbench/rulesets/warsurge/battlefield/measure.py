"""Measuring between bases: distances, base contact, overlaps, Coherency, control of terrain
and Objectives (Core Rules 001_d3f5e425c5e1196d.txt §1.3, §2.1, §4.2, §5.3, §10.2; Perks
000_94ecc6a4c74d351b.txt L95).

All distances are edge to edge: "measure from the model's base" (§1.3, §4.1, §5.3), so two
bases' distance is the distance between their centres less both radii, and never below 0.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from warbench.rulesets.warsurge.battlefield.geometry import (
    EPS,
    BoolArray,
    FloatArray,
    as_discs,
    points_array,
)
from warbench.rulesets.warsurge.battlefield.model import Disc, Footprint, Point

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.battlefield.model import Board

__all__ = [
    "COHERENCY",
    "VERTICAL_COHERENCY",
    "Control",
    "coherency_groups",
    "coherent",
    "distance_matrix",
    "edge_distance",
    "footprint_coherency_groups",
    "footprint_distance_matrix",
    "in_base_contact",
    "objective_control",
    "overlaps",
    "terrain_control",
    "unit_distance",
]

#: Coherency: each model within 2" of another model of its unit (§2.1, §4.2 I).
COHERENCY = 2.0

#: Vertical Coherency (§4.2 III, L1918-1919): "models must be within 6" of another model in the
#: same Unit" when measuring vertically (scaling buildings and tall scenery).
VERTICAL_COHERENCY = 6.0


def edge_distance(a: Point, ra: float, b: Point, rb: float) -> float:
    """Base-to-base distance between two models (§1.3): centre distance less both radii, >= 0."""
    return max(0.0, math.hypot(b[0] - a[0], b[1] - a[1]) - (ra + rb))


def distance_matrix(a: Sequence[Disc], b: Sequence[Disc]) -> FloatArray:
    """``(len(a), len(b))`` base-to-base distances between two groups of models (§1.3, §5.3)."""
    axy, ar = as_discs(a)
    bxy, br = as_discs(b)
    return _edge_matrix(axy, ar, bxy, br)


def _edge_matrix(axy: FloatArray, ar: FloatArray, bxy: FloatArray, br: FloatArray) -> FloatArray:
    d = np.hypot(axy[:, None, 0] - bxy[None, :, 0], axy[:, None, 1] - bxy[None, :, 1])
    return np.maximum(d - (ar[:, None] + br[None, :]), 0.0)


def unit_distance(models_a: Sequence[Disc], models_b: Sequence[Disc]) -> float:
    """The closest base-to-base distance between two units (§5.3: "measure to the closest
    model"); ``inf`` when either unit has no model on the board."""
    if not models_a or not models_b:
        return math.inf
    return float(distance_matrix(models_a, models_b).min())


def in_base_contact(a: Point, ra: float, b: Point, rb: float, tol: float = 1e-6) -> bool:
    """Whether two bases touch (§2.1 Base-to-Base Contact): edge distance at most ``tol``."""
    return math.hypot(b[0] - a[0], b[1] - a[1]) - (ra + rb) <= tol


def overlaps(positions: Sequence[Point], radii: Sequence[float]) -> list[tuple[int, int]]:
    """Pairs ``(i, j)``, ``i < j``, of bases that overlap (touching is fine). Bases must never
    overlap (§4.7: models cannot move into other models)."""
    n = len(positions)
    if n < 2:
        return []
    xy = points_array(positions)
    r = np.asarray(radii, dtype=np.float64)
    d = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1])
    bad = np.triu(d < r[:, None] + r[None, :] - EPS, k=1)
    return [(int(i), int(j)) for i, j in zip(*np.nonzero(bad), strict=True)]


def coherency_groups(
    positions: Sequence[Point],
    radii: Sequence[float],
    coherency: float = COHERENCY,
    elevations: Sequence[float] | None = None,
    vertical: float = VERTICAL_COHERENCY,
) -> list[list[int]]:
    """The unit's models split into groups linked by Coherency (§4.2 I, III).

    Two models are linked when their bases are within ``coherency`` inches across the board
    and, when ``elevations`` (the height each base stands at) are given, within ``vertical``
    inches of each other vertically (§4.2 III; ruling 18); a group is a connected set of
    links. Groups are listed largest first (ties: lowest model index first), each sorted by
    model index.
    """
    n = len(positions)
    if n == 0:
        return []
    xy = points_array(positions)
    r = np.asarray(radii, dtype=np.float64)
    linked = _edge_matrix(xy, r, xy, r) <= coherency + EPS
    if elevations is not None:
        z = np.asarray(elevations, dtype=np.float64)
        linked &= np.abs(z[:, None] - z[None, :]) <= vertical + EPS
    return _groups(linked)


def footprint_coherency_groups(
    models: Sequence[Footprint], coherency: float = COHERENCY, vertical: float = VERTICAL_COHERENCY
) -> list[list[int]]:
    """:func:`coherency_groups` for models on any bases or hulls (§1.3) at any heights:
    linked within ``coherency`` inches base to base across the board and ``vertical`` inches
    vertically (§4.2 I, III)."""
    if not models:
        return []
    gaps = footprint_distance_matrix(models)
    z = np.array([m.z for m in models], dtype=np.float64)
    linked = (gaps <= coherency + EPS) & (np.abs(z[:, None] - z[None, :]) <= vertical + EPS)
    return _groups(linked)


def footprint_distance_matrix(models: Sequence[Footprint]) -> FloatArray:
    """``(n, n)`` base-to-base distances across the board between models on any bases or
    hulls (§1.3), in one vectorised shapely call: a round base is its centre less its radius
    (exact), an oval or rectangle its polygon (as :func:`footprint_distance`)."""
    import shapely

    shapes = np.array(
        [shapely.Point(m.centre) if m.base.round else shapely.Polygon(m.outline()) for m in models],
        dtype=object,
    )
    extra = np.array([m.base.radius if m.base.round else 0.0 for m in models])
    d = shapely.distance(shapes[:, None], shapes[None, :])
    out: FloatArray = np.maximum(d - extra[:, None] - extra[None, :], 0.0)
    return out


def _groups(linked: BoolArray) -> list[list[int]]:
    n = len(linked)
    label = [-1] * n
    groups: list[list[int]] = []
    for s in range(n):
        if label[s] >= 0:
            continue
        label[s] = len(groups)
        stack, group = [s], [s]
        while stack:
            i = stack.pop()
            for j in np.flatnonzero(linked[i]):
                if label[j] < 0:
                    label[j] = label[s]
                    stack.append(int(j))
                    group.append(int(j))
        groups.append(sorted(group))
    groups.sort(key=lambda g: (-len(g), g[0]))
    return groups


def coherent(
    positions: Sequence[Point], radii: Sequence[float], coherency: float = COHERENCY
) -> bool:
    """Whether a unit is in Coherency (§4.2): every model within ``coherency`` inches of another
    model of the unit and all of them one group. A single model is always coherent."""
    return len(coherency_groups(positions, radii, coherency)) <= 1


# ----------------------------------------------------------------------- control (§10.2)


@dataclass(frozen=True)
class Control:
    """Who holds a piece of terrain with a profile or an Objective: the players with a unit
    close enough (or embarked), the ``controller`` when there is exactly one, and whether it
    is ``contested`` (several players: the terrain's Weapons and Perks are unavailable until one
    player asserts full control, §10.2 L4406-4407)."""

    players: frozenset[int]

    @property
    def controller(self) -> int | None:
        """The one player in control, or ``None`` (nobody, or contested)."""
        return next(iter(self.players)) if len(self.players) == 1 else None

    @property
    def contested(self) -> bool:
        """Whether several players vie for it."""
        return len(self.players) > 1


def _near_area(area: object, models: Iterable[Disc | Footprint], reach: float) -> bool:
    import shapely

    from warbench.rulesets.warsurge.battlefield.geometry import footprint_shape

    for m in models:
        shape = (
            footprint_shape(m)
            if isinstance(m, Footprint)
            else shapely.Point(m[0]).buffer(m[1], quad_segs=16)
        )
        if shapely.distance(area, shape) <= reach + EPS:
            return True
    return False


def terrain_control(
    board: Board,
    name: str,
    units: Iterable[tuple[int, Sequence[Disc | Footprint]]],
    embarked: Iterable[int] = (),
) -> Control:
    """Control of the terrain piece ``name`` (§10.2, L4404-4407): "under control by any player
    that has a Unit either within Coherency or embarked inside it"; several such players
    contest it. ``units`` are ``(player, models)`` on the board; ``embarked`` the players with a
    unit inside it."""
    import shapely

    area = shapely.Polygon(board.terrain_named(name).polygon)
    players = set(embarked)
    for player, models in units:
        if player not in players and _near_area(area, models, COHERENCY):
            players.add(player)
    return Control(frozenset(players))


def objective_control(
    board: Board,
    name: str,
    units: Iterable[tuple[int, Sequence[Disc | Footprint]]],
    embarked: Iterable[int] = (),
) -> Control:
    """Control of the Objective ``name`` (Perks L95-96; ruling 20): a marker is held by the
    players with a model within its ``control_range`` of the marker's edge; a terrain
    Objective as the terrain (:func:`terrain_control`). The game removes the units that may
    not hold or contest Objectives (Stealth, Concealed, Paralysis ...) before asking."""
    import shapely

    obj = board.objective(name)
    if obj.terrain is not None:
        return terrain_control(board, obj.terrain, units, embarked)
    assert obj.at is not None
    marker = shapely.Point(obj.at).buffer(obj.radius, quad_segs=16)
    players = {p for p, models in units if _near_area(marker, models, obj.control_range)}
    return Control(frozenset(players))
