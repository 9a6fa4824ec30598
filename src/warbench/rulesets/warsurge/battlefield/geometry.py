"""Compiled board geometry and vectorised primitives (the hot paths of the battlefield).

:class:`BoardGeometry` turns a :class:`~.model.Board` into shapely polygons (prepared, in
STRtrees per property) once; :meth:`Board.geometry` caches it. The primitives work on NumPy
arrays of disc centres and radii so that a whole unit is measured in one call.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import numpy.typing as npt
import shapely
from shapely import STRtree

from warbench.rulesets.warsurge.battlefield.model import Point

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.battlefield.model import Board

__all__ = [
    "EPS",
    "Blocker",
    "BoardGeometry",
    "FloatArray",
    "as_discs",
    "segment_point_distance",
]

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.intp]

#: Numerical tolerance in inches. Bases that touch are in contact, not overlapping; a base that
#: touches a terrain piece's edge is not in it.
EPS = 1e-6


class Blocker(NamedTuple):
    """A model's base that may block or obscure other units' line of sight (§5.4).

    ``unit_id`` names the model's unit so that callers can drop the firer's and the target's
    own units (models never block their own unit, §5.3, §5.4). It is also accepted wherever a
    ``(point, radius)`` disc is.
    """

    point: Point
    radius: float
    unit_id: str = ""


def as_discs(discs: Iterable[Any]) -> tuple[FloatArray, FloatArray]:
    """Centres ``(n, 2)`` and radii ``(n,)`` of ``(point, radius)`` pairs or :class:`Blocker`."""
    items = list(discs)
    if not items:
        return np.zeros((0, 2)), np.zeros(0)
    xy = np.array([d[0] for d in items], dtype=np.float64).reshape(len(items), 2)
    r = np.array([d[1] for d in items], dtype=np.float64)
    return xy, r


def segment_point_distance(p0: FloatArray, p1: FloatArray, c: FloatArray) -> FloatArray:
    """Distances ``(S, B)`` from each of ``S`` segments ``p0 -> p1`` to each of ``B`` points."""
    d = p1 - p0  # (S, 2)
    dd = np.einsum("ij,ij->i", d, d)
    w = c[None, :, :] - p0[:, None, :]  # (S, B, 2)
    safe = np.where(dd > 0, dd, 1.0)
    t = np.clip(np.einsum("sbk,sk->sb", w, d) / safe[:, None], 0.0, 1.0)
    t[dd == 0] = 0.0
    diff = w - t[..., None] * d[:, None, :]
    out: FloatArray = np.sqrt(np.einsum("sbk,sbk->sb", diff, diff))
    return out


class _Tree:
    """An STRtree over a subset of the board's terrain, with the subset's board indices."""

    __slots__ = ("index", "polys", "tree")

    def __init__(self, polys: npt.NDArray[Any], mask: BoolArray) -> None:
        self.index: IntArray = np.flatnonzero(mask)
        self.polys = polys[self.index]
        self.tree = STRtree(self.polys) if len(self.index) else None

    def __bool__(self) -> bool:
        return self.tree is not None

    def query(self, geoms: Any, predicate: str, distance: Any = None) -> IntArray:
        """``(2, k)`` pairs (input index, board terrain index)."""
        if self.tree is None:
            return np.zeros((2, 0), dtype=np.intp)
        if distance is None:
            hits = self.tree.query(geoms, predicate=predicate)
        else:
            hits = self.tree.query(geoms, predicate=predicate, distance=distance)
        hits = np.asarray(hits, dtype=np.intp)
        if hits.ndim == 1:  # a single geometry was queried
            hits = np.vstack([np.zeros_like(hits), hits])
        return np.vstack([hits[0], self.index[hits[1]]])


class BoardGeometry:
    """Shapely geometry of one board, compiled once: polygons, STRtrees, property masks.

    Terrain is indexed as in ``board.terrain``. ``los`` holds the pieces that block line of
    sight, ``obscuring`` those that obscure (LoS-blocking or with a Cover Bonus, §5.6),
    ``movement`` those that matter to a move (difficult, dangerous or impassable, §4.5-4.7),
    ``impassable`` the impassable ones and ``areas`` the Cover Areas.
    """

    def __init__(self, board: Board) -> None:
        self.width = float(board.width)
        self.height = float(board.height)
        terrain = board.terrain
        self.names: list[str] = [t.name for t in terrain]
        self.polys = np.array([shapely.Polygon(t.polygon) for t in terrain], dtype=object)
        if len(self.polys):
            shapely.prepare(self.polys)
        self.difficult: BoolArray = np.array([t.difficult for t in terrain], dtype=bool)
        self.dangerous: BoolArray = np.array([t.dangerous is not None for t in terrain], bool)
        self.impassable_mask: BoolArray = np.array([t.impassable for t in terrain], dtype=bool)
        self.blocks_los: BoolArray = np.array([t.blocks_los for t in terrain], dtype=bool)
        self.cover_area: BoolArray = np.array([t.cover_area for t in terrain], dtype=bool)
        self.cover_value: IntArray = np.array([t.cover_value for t in terrain], dtype=np.intp)
        obscures = np.array([t.obscures for t in terrain], dtype=bool)
        self.all = _Tree(self.polys, np.ones(len(terrain), dtype=bool))
        self.los = _Tree(self.polys, self.blocks_los)
        self.obscuring = _Tree(self.polys, obscures)
        self.movement = _Tree(self.polys, self.difficult | self.dangerous | self.impassable_mask)
        self.impassable = _Tree(self.polys, self.impassable_mask)
        self.areas = _Tree(self.polys, self.cover_area)
        self.zone_names: list[str] = [z.name for z in board.zones]
        self.zone_polys = np.array([shapely.Polygon(z.polygon) for z in board.zones], object)
        if len(self.zone_polys):
            shapely.prepare(self.zone_polys)
        self._blocked_cache: dict[float, Any] = {}

    # ------------------------------------------------------------------ placement queries

    def on_board(self, xy: FloatArray, r: FloatArray | float) -> BoolArray:
        """Which bases lie wholly on the board (§2.1 Battlefield)."""
        r_ = np.asarray(r, dtype=np.float64)
        x, y = xy[:, 0], xy[:, 1]
        out: BoolArray = np.asarray(
            (x >= r_ - EPS)
            & (x <= self.width - r_ + EPS)
            & (y >= r_ - EPS)
            & (y <= self.height - r_ + EPS)
        )
        return out

    def standing_in(self, tree: _Tree, xy: FloatArray, r: FloatArray) -> BoolArray:
        """``(n, terrain)``: which pieces of ``tree`` each base overlaps (touching is not in)."""
        out = np.zeros((len(xy), len(self.names)), dtype=bool)
        if tree and len(xy):
            pts = shapely.points(xy)
            hits = tree.query(pts, "dwithin", np.maximum(r - EPS, 0.0))
            out[hits[0], hits[1]] = True
        return out

    def on_impassable(self, xy: FloatArray, r: FloatArray | float) -> BoolArray:
        """Which bases overlap Impassable Ground (§4.7)."""
        rr = np.broadcast_to(np.asarray(r, dtype=np.float64), (len(xy),))
        out: BoolArray = np.asarray(self.standing_in(self.impassable, xy, rr).any(axis=1))
        return out

    def in_zone(self, zone: int, xy: FloatArray, r: FloatArray | float) -> BoolArray:
        """Which bases lie wholly within zone number ``zone`` (touching its edge counts)."""
        poly = self.zone_polys[zone]
        rr = np.broadcast_to(np.asarray(r, dtype=np.float64), (len(xy),))
        inside = shapely.contains_xy(poly, xy[:, 0], xy[:, 1])
        if not inside.any():
            return inside  # type: ignore[no-any-return]
        dist = shapely.distance(poly.exterior, shapely.points(xy))
        return inside & (dist >= rr - EPS)  # type: ignore[no-any-return]

    def terrain_at(self, xy: FloatArray, r: FloatArray | float) -> list[list[str]]:
        """For each base, the names of the terrain pieces it overlaps."""
        rr = np.broadcast_to(np.asarray(r, dtype=np.float64), (len(xy),))
        m = self.standing_in(self.all, xy, rr)
        return [[self.names[j] for j in np.flatnonzero(row)] for row in m]


def points_array(points: Sequence[Point]) -> FloatArray:
    """``points`` as a ``(n, 2)`` float array."""
    return np.asarray(points, dtype=np.float64).reshape(len(points), 2)
