"""Compiled board geometry and vectorised primitives (the hot paths of the battlefield).

:class:`BoardGeometry` turns a :class:`~.model.Board` into shapely polygons (prepared, in
STRtrees per property) once; :meth:`Board.geometry` caches it. The primitives work on NumPy
arrays of disc centres and radii so that a whole unit is measured in one call.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import numpy.typing as npt
import shapely
from shapely import STRtree

from warbench.rulesets.warsurge.battlefield.model import Footprint, Point

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.battlefield.model import Board

__all__ = [
    "EPS",
    "Blocker",
    "BoardGeometry",
    "FloatArray",
    "as_discs",
    "collinear_overlap",
    "footprint_distance",
    "footprint_shape",
    "footprints_overlap",
    "line_clears",
    "segment_altitudes_over",
    "segment_crossings",
    "segment_point_distance",
    "sight_from_above",
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
    """Distances ``(S, B)`` from each of ``S`` segments ``p0 -> p1`` to each of ``B`` points.

    x and y apart, ``(S, B)`` arrays: the (S, B, 2) arrays and their ``einsum`` over the last
    axis looped over rows of two; the same products, sums and quotients in the same order, so
    the very floats (issue 10, session 35; ``tests/warsurge/game/test_speed_player_s35.py``
    against the ``einsum`` form)."""
    dx = p1[:, 0] - p0[:, 0]  # (S,)
    dy = p1[:, 1] - p0[:, 1]
    dd = dx * dx + dy * dy
    wx = c[None, :, 0] - p0[:, 0, None]  # (S, B)
    wy = c[None, :, 1] - p0[:, 1, None]
    ex, ey = dx[:, None], dy[:, None]
    safe = np.where(dd > 0, dd, 1.0)
    t = np.clip((wx * ex + wy * ey) / safe[:, None], 0.0, 1.0)
    t[dd == 0] = 0.0
    gx = wx - t * ex
    gy = wy - t * ey
    gx *= gx
    gy *= gy
    gx += gy
    out: FloatArray = np.sqrt(gx, out=gx)
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


class ResultCache:
    """A bounded memo of query results for one board, keyed by the exact positions.

    A game asks the same question several times (the AI weighs a target, then attacks it;
    visibility, then cover), so answers are kept until :data:`size` entries, then forgotten all
    at once. Results are immutable or copied on the way out.
    """

    __slots__ = ("_data", "hits", "misses", "size")

    def __init__(self, size: int = 4096) -> None:
        self._data: dict[tuple[bytes, ...], Any] = {}
        self.size = size
        self.hits = 0
        self.misses = 0

    def get(self, key: tuple[bytes, ...]) -> Any:
        value = self._data.get(key)
        if value is None:
            self.misses += 1
        else:
            self.hits += 1
        return value

    def put(self, key: tuple[bytes, ...], value: Any) -> Any:
        if len(self._data) >= self.size:
            self._data.clear()
        self._data[key] = value
        return value

    def clear(self) -> None:
        self._data.clear()


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
        # every piece's edges as padded arrays, and a bounding circle, for the NumPy paths
        rings = [np.asarray(poly.exterior.coords, dtype=np.float64) for poly in self.polys]
        emax = max((len(ring) - 1 for ring in rings), default=1)
        self.edge0 = np.zeros((len(rings), emax, 2))
        self.edge1 = np.zeros((len(rings), emax, 2))
        self.centre = np.zeros((len(rings), 2))
        self.reach = np.zeros(len(rings))
        self.nedges: IntArray = np.array([len(ring) - 1 for ring in rings], dtype=np.intp)
        for i, ring in enumerate(rings):
            k = len(ring) - 1
            self.edge0[i, :k], self.edge1[i, :k] = ring[:-1], ring[1:]
            self.edge0[i, k:] = self.edge1[i, k:] = ring[0]  # zero-length padding never hits
            lo, hi = ring.min(axis=0), ring.max(axis=0)
            self.centre[i] = (lo + hi) / 2
            self.reach[i] = float(np.hypot(*(ring - self.centre[i]).T).max())
        self.cache = ResultCache()
        self.los_index: IntArray = np.flatnonzero(self.blocks_los)
        self.obscuring_index: IntArray = np.flatnonzero(obscures)
        #: the Cover Areas' positions (§5.6), for every cover question
        self.cover_areas: IntArray = np.flatnonzero(self.cover_area)

    def discs_in(self, pieces: IntArray, xy: FloatArray, r: FloatArray) -> BoolArray:
        """``(n, len(pieces))``: which bases overlap which of ``pieces`` (touching is not in).

        NumPy only (no shapely call): a base overlaps a polygon when its centre is inside or an
        edge passes closer than its radius.
        """
        n = len(xy)
        out = np.zeros((n, len(pieces)), dtype=bool)
        if not n or not len(pieces):
            return out
        # only pieces whose bounding circle some base reaches need the exact test
        c = self.centre[pieces]
        gap = np.hypot(xy[:, None, 0] - c[None, :, 0], xy[:, None, 1] - c[None, :, 1])
        close = (gap < self.reach[pieces][None, :] + r[:, None]).any(axis=0)
        if not close.any():
            return out
        sel = np.flatnonzero(close)
        out[:, sel] = self._discs_in(pieces[sel], xy, r)
        return out

    def _discs_in(self, pieces: IntArray, xy: FloatArray, r: FloatArray) -> BoolArray:
        e0 = self.edge0[pieces]  # (P, E, 2)
        e1 = self.edge1[pieces]
        px = xy[:, 0][:, None, None]
        py = xy[:, 1][:, None, None]
        y0, y1 = e0[None, :, :, 1], e1[None, :, :, 1]
        x0, x1 = e0[None, :, :, 0], e1[None, :, :, 0]
        crosses = (y0 > py) != (y1 > py)
        dy = np.where(y1 != y0, y1 - y0, 1.0)
        xint = x0 + (py - y0) * (x1 - x0) / dy
        inside = (crosses & (px < xint)).sum(axis=2) % 2 == 1
        d = e1 - e0  # (P, E, 2)
        dd = np.einsum("pek,pek->pe", d, d)
        wx, wy = px - x0, py - y0  # (n, P, E)
        t = np.clip((wx * d[None, :, :, 0] + wy * d[None, :, :, 1]) / np.where(dd > 0, dd, 1), 0, 1)
        ex = wx - t * d[None, :, :, 0]
        ey = wy - t * d[None, :, :, 1]
        near = np.sqrt(ex * ex + ey * ey).min(axis=2) < (r - EPS)[:, None]
        out: BoolArray = inside | near
        return out

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
        out: list[list[str]] = [[] for _ in range(len(m))]
        rows, cols = np.nonzero(m)  # row by row, each row's pieces in order (one NumPy call)
        for i, j in zip(rows.tolist(), cols.tolist(), strict=True):
            out[i].append(self.names[j])
        return out


def segments_cross(p0: FloatArray, p1: FloatArray, e0: FloatArray, e1: FloatArray) -> BoolArray:
    """``(C, K)``: whether segment ``p0[c, k] -> p1[c, k]`` meets any edge ``e0[c, e] ->
    e1[c, e]`` (touching counts). ``p0``, ``p1``: ``(C, K, 2)``; ``e0``, ``e1``: ``(C, E, 2)``.
    Zero-length edges (padding) never meet anything."""
    out: BoolArray = np.asarray(segments_cross_each(p0, p1, e0, e1).any(axis=2))
    return out


def segments_cross_each(
    p0: FloatArray, p1: FloatArray, e0: FloatArray, e1: FloatArray
) -> BoolArray:
    """``(C, K, E)``: whether segment ``p0[c, k] -> p1[c, k]`` meets edge ``e0[c, e] ->
    e1[c, e]``, edge by edge (:func:`segments_cross` is its any over the edges). Edges given
    as ``(E, 2)`` are the same for every row."""
    ax, ay = p0[:, :, None, 0], p0[:, :, None, 1]
    sx, sy = p1[:, :, None, 0] - ax, p1[:, :, None, 1] - ay
    bx, by = e0[..., None, :, 0], e0[..., None, :, 1]
    rx, ry = e1[..., None, :, 0] - bx, e1[..., None, :, 1] - by
    hit, flat = segment_crossings(ax, ay, sx, sy, bx, by, rx, ry, edges_may_be_points=True)
    if flat.any():  # collinear: they meet only when they overlap along the line
        c, k, e = np.nonzero(flat)
        ex0, ex1 = (e0[e], e1[e]) if e0.ndim == 2 else (e0[c, e], e1[c, e])
        apart = ~collinear_overlap(p0[c, k], p1[c, k], ex0, ex1)
        hit[c[apart], k[apart], e[apart]] = False
    return hit


def segment_crossings(
    ax: FloatArray,
    ay: FloatArray,
    sx: FloatArray,
    sy: FloatArray,
    bx: FloatArray,
    by: FloatArray,
    rx: FloatArray,
    ry: FloatArray,
    *,
    edges_may_be_points: bool,
) -> tuple[BoolArray, BoolArray]:
    """The sign tests of segments ``a -> a + s`` against edges ``b -> b + r`` (coordinates
    broadcast together): whether each pair meets, touching included, and which of those pairs
    are collinear (they meet only if they overlap along the line: :func:`collinear_overlap`).
    With ``edges_may_be_points`` an edge of no length meets nothing; without it the caller
    guarantees there is none. The one computation of :func:`segments_cross_each` and of
    ``sight_jit.edges_cross_lines``'s compiled loop (the very floats, product for product)."""
    wx, wy = ax - bx, ay - by
    # the same products as written out below, each computed once and in place (the same
    # floating-point operations in the same order, so the very same answers, with fewer arrays):
    #   d1 = rx * wy - ry * wx  side of p0 from the edge's line
    #   d2 = d1 + rx * sy - ry * sx  side of p1
    #   d3 = ry * sx - rx * sy  edge direction across the segment's line, times its length
    #   d4 = sx * wy - sy * wx  side of e0 from the segment's line (sign flipped)
    #   d5 = d4 - d3  side of e1
    tmp = ry * wx
    d1 = rx * wy
    d1 -= tmp
    rs = rx * sy
    d2 = d1 + rs
    sr = ry * sx
    d2 -= sr
    d3 = np.subtract(sr, rs, out=sr)
    d4 = np.multiply(sx, wy, out=wy)
    np.multiply(sy, wx, out=tmp)
    d4 -= tmp
    d5 = np.subtract(d4, d3, out=rs)
    hit: BoolArray = np.asarray(np.multiply(d1, d2, out=tmp) <= 0)
    hit &= np.multiply(d4, d5, out=wx) <= 0
    if edges_may_be_points:
        hit &= (rx != 0) | (ry != 0)
    flat = (d1 == 0) & hit
    flat &= d2 == 0
    return hit, flat


def collinear_overlap(
    px0: FloatArray, px1: FloatArray, ex0: FloatArray, ex1: FloatArray
) -> BoolArray:
    """``(N,)``: whether collinear segments ``px0[n] -> px1[n]`` and ``ex0[n] -> ex1[n]``
    overlap (within :data:`EPS`), their bounding boxes compared axis by axis."""
    out: BoolArray = np.all(
        (np.minimum(px0, px1) <= np.maximum(ex0, ex1) + EPS)
        & (np.minimum(ex0, ex1) <= np.maximum(px0, px1) + EPS),
        axis=1,
    )
    return out


def points_array(points: Sequence[Point]) -> FloatArray:
    """``points`` as a ``(n, 2)`` float array."""
    return np.asarray(points, dtype=np.float64).reshape(len(points), 2)


# ------------------------------------------------------------------ true bases and heights
#
# Oval and rectangular bases and hulls (§1.3) and heights (§4.2 III, L2360). These work on
# :class:`~.model.Footprint`s, one pair at a time; the disc functions above stay the hot path
# for round bases on a flat board.


def footprint_shape(fp: Footprint) -> Any:
    """The shapely polygon of a footprint's base (an oval as an inscribed polygon)."""
    if fp.base.round:
        return shapely.Point(fp.centre).buffer(fp.base.radius, quad_segs=16)
    return shapely.Polygon(fp.outline())


def footprint_distance(a: Footprint, b: Footprint) -> float:
    """Base-to-base distance on the board between two models on any bases or hulls (§1.3:
    measure from the base, or from the body or hull of a model without one); 0 when they touch
    or overlap. Round bases are measured exactly; ovals within ``OVAL_SIDES``'s tolerance."""
    if a.base.round and b.base.round:  # as edge_distance (measure.py), to the last bit
        gap = math.hypot(b.centre[0] - a.centre[0], b.centre[1] - a.centre[1])
        return max(0.0, gap - (a.base.radius + b.base.radius))
    if a.base.round or b.base.round:
        disc, other = (a, b) if a.base.round else (b, a)
        poly = shapely.Polygon(other.outline())
        centre = shapely.Point(disc.centre)
        if poly.contains(centre):
            return 0.0
        return max(0.0, float(poly.exterior.distance(centre)) - disc.base.radius)
    return float(shapely.Polygon(a.outline()).distance(shapely.Polygon(b.outline())))


def footprints_overlap(a: Footprint, b: Footprint) -> bool:
    """Whether two bases overlap on the board (touching is fine, §4.7). Models at heights more
    than both their heights apart (one on a floor above the other, §10.5) do not overlap."""
    if a.z >= b.top - EPS or b.z >= a.top - EPS:
        return False
    if a.base.round and b.base.round:
        gap = math.hypot(b.centre[0] - a.centre[0], b.centre[1] - a.centre[1])
        return gap < a.base.radius + b.base.radius - EPS
    if a.base.round or b.base.round:
        disc, other = (a, b) if a.base.round else (b, a)
        poly = shapely.Polygon(other.outline())
        centre = shapely.Point(disc.centre)
        return bool(poly.contains(centre)) or poly.exterior.distance(centre) < (
            disc.base.radius - EPS
        )
    pa, pb = shapely.Polygon(a.outline()), shapely.Polygon(b.outline())
    return bool(pa.intersects(pb)) and pa.intersection(pb).area > EPS


def segment_altitudes_over(
    p0: Point, z0: float, p1: Point, z1: float, area: Any
) -> list[tuple[float, float]]:
    """Where the straight line from ``(p0, z0)`` to ``(p1, z1)`` passes over ``area`` (a shapely
    geometry): ``(lowest, highest)`` altitude of each stretch over it, in inches."""
    seg = shapely.LineString([p0, p1])
    if not seg.length:
        return [(min(z0, z1), max(z0, z1))] if area.intersects(shapely.Point(p0)) else []
    hit = area.intersection(seg)
    if hit.is_empty:
        return []
    parts = getattr(hit, "geoms", [hit])
    out = []
    for part in parts:
        coords = list(part.coords)
        ts = [seg.project(shapely.Point(c)) / seg.length for c in coords]
        zs = [z0 + (z1 - z0) * t for t in ts]
        out.append((min(zs), max(zs)))
    return out


def line_clears(
    p0: Point,
    z0: float,
    p1: Point,
    z1: float,
    obstacles: Iterable[tuple[Any, float]],
) -> bool:
    """Whether the line from ``(p0, z0)`` to ``(p1, z1)`` passes over every obstacle, given as
    ``(area, top)`` pairs: a terrain piece's polygon and height, a model's base and top (L2360:
    a Unit in a tower "can see the Target from above", through another Unit). A line must
    pass above the top: one that only grazes it (models of one height seeing each other over a
    third of that height) is blocked (ruling 17). The flat-board rules (``sight.py``) treat
    terrain without a height as blocking every line; this answers the height question for the
    pieces and models that have one."""
    for area, top in obstacles:
        for low, _high in segment_altitudes_over(p0, z0, p1, z1, area):
            if low <= top + EPS:
                return False
    return True


def sight_from_above(
    board: Board,
    viewer: Footprint,
    target: Footprint,
    others: Iterable[Footprint] = (),
    ignore: Iterable[str] = (),
) -> bool:
    """Whether ``viewer`` sees ``target`` over the LoS-blocking terrain with a height and over
    the ``others`` (models of other units), from the viewer's eye (its top) to the target's
    top or the middle of its height (L2360; ruling 17). Terrain without a height is left to the
    flat-board rules; ``ignore`` names pieces the viewer or the target stand in (ruling 2)."""
    skip = set(ignore)
    obstacles: list[tuple[Any, float]] = [
        (shapely.Polygon(t.polygon), t.height)
        for t in board.terrain
        if t.blocks_los and t.height is not None and t.name not in skip
    ]
    obstacles += [(footprint_shape(o), o.top) for o in others]
    eye = viewer.top
    return any(
        line_clears(viewer.centre, eye, target.centre, z, obstacles)
        for z in (target.top, target.z + target.height / 2)
    )
