"""Measuring between bases: distances, base contact, overlaps, Coherency (Core Rules
001_d3f5e425c5e1196d.txt §1.3, §2.1, §4.2, §5.3).

All distances are edge to edge: "measure from the model's base" (§1.3, §4.1, §5.3), so two
bases' distance is the distance between their centres less both radii, and never below 0.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from warbench.rulesets.warsurge.battlefield.geometry import EPS, FloatArray, as_discs, points_array
from warbench.rulesets.warsurge.battlefield.model import Disc, Point

__all__ = [
    "COHERENCY",
    "coherency_groups",
    "coherent",
    "distance_matrix",
    "edge_distance",
    "in_base_contact",
    "overlaps",
    "unit_distance",
]

#: Coherency: each model within 2" of another model of its unit (§2.1, §4.2 I).
COHERENCY = 2.0


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
    positions: Sequence[Point], radii: Sequence[float], coherency: float = COHERENCY
) -> list[list[int]]:
    """The unit's models split into groups linked by Coherency (§4.2 I).

    Two models are linked when their bases are within ``coherency`` inches; a group is a
    connected set of links. Groups are listed largest first (ties: lowest model index first),
    each sorted by model index. Vertical Coherency (§4.2 III) does not arise on a flat board.
    """
    n = len(positions)
    if n == 0:
        return []
    xy = points_array(positions)
    r = np.asarray(radii, dtype=np.float64)
    linked = _edge_matrix(xy, r, xy, r) <= coherency + EPS
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
