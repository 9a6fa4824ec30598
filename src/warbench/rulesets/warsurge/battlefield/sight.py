"""Line of sight, partial line of sight and the Cover Bonus (Core Rules
001_d3f5e425c5e1196d.txt §5.3-5.6, §5.9, §5.13, §5.15), top-down on a flat board.

Method (rulings 1-6 "WARSURGE battlefield" in ``docs/rulings.md``):

* **Line of sight** between two models exists when some straight line from any part of one base
  to any part of the other passes through no obstacle (§5.4 "if your Unit can see any of the
  enemy model or base"). Obstacles are the bases of models of *other* units (the caller leaves
  the firer's and the target's units out, §5.3, §5.4) and terrain that blocks line of sight,
  except the pieces either model stands in (a model in a ruin sees out and is seen). The lines
  tried are the centre line, then :data:`LOS_SAMPLES` x :data:`LOS_SAMPLES` lines between points
  spread across each base's width as seen from the other. It is symmetric: "Targeting goes both
  ways" (§5.4).
* **Partial line of sight** (§5.5, §5.13): a target model can be a casualty when at least one
  attacking model has line of sight to it.
* **Obscured** (§5.6): :data:`COVER_RAYS` rays from the attacker's centre to points evenly
  spread across the target's base as seen from the attacker; the fraction of rays passing
  through another unit's base, LoS-blocking terrain or terrain with a Cover Bonus (other than
  pieces the attacker stands in) is the fraction obscured. A target model's obscured fraction
  is the smallest over the attacking models (the best view decides). The unit gains the Cover
  Bonus when 50% or more of its models are 50% or more obscured, or in a Cover Area.

This module is the one place that decides sight and cover: the game
(:class:`warbench.rulesets.warsurge.game.geom.Field`) asks it with NumPy arrays of bases
(:class:`Bases`), the CLI and the web with ``(centre, radius)`` pairs; both get the same answer.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely

from warbench.rulesets.warsurge.battlefield import sight_jit
from warbench.rulesets.warsurge.battlefield.geometry import (
    EPS,
    BoardGeometry,
    BoolArray,
    FloatArray,
    IntArray,
    as_discs,
    segment_point_distance,
    segments_cross,
)
from warbench.rulesets.warsurge.battlefield.model import DEFAULT_MODEL_HEIGHT, Board, Disc

__all__ = [
    "COVER_RAYS",
    "LOS_SAMPLES",
    "Bases",
    "CoverReport",
    "attackers_in_sight",
    "cover_bonus",
    "cover_report",
    "elevated_cover_report",
    "elevated_sight_matrix",
    "elevated_visible_models",
    "line_of_sight",
    "obscured_fraction",
    "sight_matrix",
    "visible_models",
]

#: Points tried across each base for line of sight (§5.4): 5 x 5 lines per pair of models.
LOS_SAMPLES = 5
#: Rays per target model for the obscured fraction (§5.6); even, so half-hidden is exactly 50%.
COVER_RAYS = 10
#: Lines start and end this fraction inside the edge of a base, so a line grazing a base that
#: touches the firer or the target is not blocked by it.
_SHRINK = 1 - 1e-3
#: ``mask.any(axis=k)`` without ``ndarray.any``'s Python wrapper: the very reduction it calls
#: (issue 10, session 35)
_ANY = np.logical_or.reduce


@dataclass(frozen=True, slots=True, eq=False)
class Bases:
    """Many bases at once, as arrays: centres ``(n, 2)`` and radii ``(n,)`` (the fast path for
    callers that already hold arrays; any function here accepts it wherever it takes a sequence
    of ``(centre, radius)`` pairs)."""

    xy: FloatArray
    r: FloatArray
    #: Oval and rectangular bases (§1.3): ``(n, K + 1, 2)`` each base's true outline on the
    #: board, closed (its first corner again at the end) and padded with that corner; a round
    #: base's row is its centre repeated (``r`` is then its radius; for a shaped base ``r`` is
    #: the circle that covers it). None: every base is round (the disc answers, unchanged).
    poly: FloatArray | None = None

    def __len__(self) -> int:
        return len(self.xy)


def _arrays(discs: Bases | Sequence[Any]) -> tuple[FloatArray, FloatArray]:
    if isinstance(discs, Bases):
        return discs.xy, discs.r
    return as_discs(discs)


def _polys(discs: Bases | Sequence[Any]) -> FloatArray | None:
    """The true outlines of ``discs`` (:attr:`Bases.poly`), None when all are round."""
    return discs.poly if isinstance(discs, Bases) else None


def _poly_key(discs: Bases | Sequence[Any]) -> tuple[bytes, ...]:
    """The outlines of ``discs`` for a cache key (nothing when all are round)."""
    poly = _polys(discs)
    return () if poly is None else (poly.tobytes(),)


def _shaped_rows(poly: FloatArray) -> BoolArray:
    """Which rows of a :attr:`Bases.poly` are oval or rectangular (not a repeated centre)."""
    out: BoolArray = np.asarray((poly != poly[:, :1]).any(axis=(1, 2)))
    return out


def _support(poly: FloatArray, frm: FloatArray, n: FloatArray) -> FloatArray:
    """``(Q, 2)``: for each outline (``(Q, K + 1, 2)`` about centres ``frm``), the corner
    farthest along ``n`` (``(Q, 2)``), from the centre. A base is symmetric about its
    centre, so the segment between that corner and the opposite one lies inside it and spans
    the width the base shows seen along the perpendicular of ``n`` (§5.4 "any of the enemy
    model or base")."""
    rel = poly[:, :-1, :] - frm[:, None, :]
    k = np.argmax(np.einsum("qkx,qx->qk", rel, n), axis=1)
    out: FloatArray = rel[np.arange(len(rel)), k]
    return out


def near_blockers(
    axy: FloatArray,
    ar: FloatArray,
    txy: FloatArray,
    tr: FloatArray,
    bxy: FloatArray,
    br: FloatArray,
) -> tuple[FloatArray, FloatArray]:
    """The blocker bases that can matter to lines between these attackers and targets.

    A blocker is tested against the lines of a pair of models only when its centre is within
    ``max(radii) + its radius`` of the segment between their centres (every line between two
    bases lies that close to it). Each such segment lies within ``spread`` (the larger distance
    of a model from its group's centroid) of the segment between the two centroids, so a
    blocker farther than ``spread + max(radii) + its radius`` from that segment can never be
    tested: leaving it out gives the very same answers, with less work and a cache key that
    ignores models far away (the same sight is then found again after unrelated moves)."""
    keep = _near_keep(axy, ar, txy, tr, bxy, br)
    if keep.all():
        return bxy, br
    return bxy[keep], br[keep]


def _near_keep(
    axy: FloatArray,
    ar: FloatArray,
    txy: FloatArray,
    tr: FloatArray,
    bxy: FloatArray,
    br: FloatArray,
) -> BoolArray:
    """Which blockers :func:`near_blockers` keeps."""
    if not len(bxy) or not len(axy) or not len(txy):
        return np.ones(len(bxy), dtype=bool)
    ca, ct, reach = _corridor(axy, ar, txy, tr)
    d = _point_segment_distances(ca, ct, bxy)
    keep: BoolArray = d <= reach + br + 0.01
    return keep


def _corridor(
    axy: FloatArray, ar: FloatArray, txy: FloatArray, tr: FloatArray
) -> tuple[FloatArray, FloatArray, float]:
    """The segment between the attackers' and the targets' centroids, and how far from it
    every line between two of their bases stays: ``spread`` (the larger distance of a model
    from its group's centroid) plus the largest radius (see :func:`near_blockers`)."""
    if axy.flags.c_contiguous and txy.flags.c_contiguous:
        # a handful of models: the same sums, row after row as NumPy adds a C-ordered
        # array's rows, and distances in floats (issue 10: a NumPy call each cost more)
        (cax, cay), sa = _centroid_spread(axy.tolist())
        (ctx, cty), st = _centroid_spread(txy.tolist())
        ca, ct, spread = np.array([cax, cay]), np.array([ctx, cty]), max(sa, st)
        radius = max(max(ar.tolist()), max(tr.tolist()))
    else:
        ca = axy.sum(axis=0) / len(axy)  # the mean (np.mean's very sum and division)
        ct = txy.sum(axis=0) / len(txy)
        spread = max(
            float(np.sqrt(((axy - ca) ** 2).sum(axis=1)).max()),
            float(np.sqrt(((txy - ct) ** 2).sum(axis=1)).max()),
        )
        radius = max(float(ar.max()), float(tr.max()))
    return ca, ct, spread + radius


def _centroid_spread(xy: list[list[float]]) -> tuple[tuple[float, float], float]:
    """The centroid of the points (``xy.sum(axis=0) / len(xy)`` of a C-ordered array, float
    for float) and the largest distance of a point from it (``sqrt(dx*dx + dy*dy)``)."""
    sx, sy = xy[0]
    for x, y in xy[1:]:
        sx += x
        sy += y
    cx, cy = sx / len(xy), sy / len(xy)
    far = max((x - cx) * (x - cx) + (y - cy) * (y - cy) for x, y in xy)
    return (cx, cy), math.sqrt(far)


def _point_segment_distances(start: FloatArray, end: FloatArray, centres: FloatArray) -> FloatArray:
    """Distance from each centre to the one segment ``start``-``end``."""
    d = end - start
    length2 = float(d @ d)
    if length2 <= 1e-18:
        near: FloatArray = np.sqrt(((centres - start) ** 2).sum(axis=1))
        return near
    t = np.clip(((centres - start) @ d) / length2, 0.0, 1.0)
    proj = start + t[:, None] * d
    out: FloatArray = np.sqrt(((centres - proj) ** 2).sum(axis=1))
    return out


def _piece_circles(g: BoardGeometry, pieces: IntArray) -> tuple[FloatArray, FloatArray]:
    """The bounding circles (centres, radii) of the board's ``pieces`` (its LoS-blocking or
    its obscuring ones), kept in the board's cache."""
    key = (b"piece circles", pieces.tobytes())
    hit: tuple[FloatArray, FloatArray] | None = g.cache.get(key)
    if hit is None:
        hit = g.cache.put(key, (g.centre[pieces], g.reach[pieces]))
    return hit


class _Scene:
    """One query's models as arrays; obstacles are culled per pair of models first.

    Every line between two bases lies within ``max(radius)`` of the segment between their
    centres, so only the terrain pieces (by bounding circle) and blocker bases that come that
    close to a pair are tested against that pair's lines, with NumPy.
    """

    __slots__ = (
        "_corridor",
        "_in_a",
        "_in_t",
        "_near",
        "ap",
        "ar",
        "axy",
        "bp",
        "br",
        "bshaped",
        "bxy",
        "geom",
        "pieces",
        "tp",
        "tr",
        "txy",
    )

    def __init__(
        self,
        board: Board,
        attackers: Bases | Sequence[Any],
        targets: Bases | Sequence[Any],
        blockers: Bases | Sequence[Any],
        pieces: str = "los",
    ) -> None:
        self.geom: BoardGeometry = board.geometry()
        self.axy, self.ar = _arrays(attackers)
        self.txy, self.tr = _arrays(targets)
        bxy, br = _arrays(blockers)
        self.ap, self.tp, bp = _polys(attackers), _polys(targets), _polys(blockers)
        self.bp: FloatArray | None = None
        self.bshaped: BoolArray | None = None
        # the blockers near the corridor (:func:`near_blockers`, its very test)
        self._corridor: tuple[FloatArray, FloatArray, float] | None = None
        g = self.geom
        self.pieces: IntArray = g.los_index if pieces == "los" else g.obscuring_index
        self._near: IntArray | None = None
        keep: BoolArray | None = None
        every = True  # every blocker is kept
        if (
            len(bxy)
            and len(self.axy)
            and len(self.txy)
            and self.axy.flags.c_contiguous
            and self.txy.flags.c_contiguous
        ):
            # the corridor and both cullings in one compiled call (issue 10, session 39: the
            # Python sums of ``_corridor`` and two kernels' calls; the very floats)
            pxy, plim = _piece_circles(g, self.pieces) if len(self.pieces) else _NO_CIRCLES
            keep, kept, near = sight_jit.scene_near(
                self.axy, self.ar, self.txy, self.tr, bxy, br, pxy, plim
            )
            if len(self.pieces):
                self._near = near
            every = kept == len(bxy)
        elif len(bxy) and len(self.axy) and len(self.txy):
            ca, ct, reach = self._corridor = _corridor(self.axy, self.ar, self.txy, self.tr)
            # the blockers and the pieces near the corridor (compiled loops, sight_jit)
            keep = sight_jit.near_corridor(ca, ct, reach, bxy, br)
            if len(self.pieces):
                pxy, plim = _piece_circles(g, self.pieces)
                self._near = sight_jit.near_corridor(ca, ct, reach, pxy, plim).nonzero()[0]
            every = bool(keep.all())
        if bp is None:
            self.bxy, self.br = (bxy, br) if every or keep is None else (bxy[keep], br[keep])
        else:
            keep = np.ones(len(bxy), dtype=bool) if keep is None else keep
            self.bxy, self.br, self.bp = bxy[keep], br[keep], bp[keep]
            self.bshaped = _shaped_rows(self.bp)
        self._in_a: BoolArray | None = None
        self._in_t: BoolArray | None = None

    def key(self, kind: str) -> tuple[bytes, ...]:
        """A cache key for this query (positions and radii, bit for bit)."""
        key = (
            kind.encode(),
            self.axy.tobytes(),
            self.ar.tobytes(),
            self.txy.tobytes(),
            self.tr.tobytes(),
            self.bxy.tobytes(),
            self.br.tobytes(),
        )
        shapes = (self.ap, self.tp, self.bp)
        if all(p is None for p in shapes):
            return key
        return (*key, b"outlines", *(b"-" if p is None else p.tobytes() for p in shapes))

    def across(self, targets: bool, rows: IntArray, to: FloatArray, s: FloatArray) -> FloatArray:
        """:func:`_across` for the attackers' (or the targets') bases ``rows``: an oval or
        rectangle's points spread between its two corners that bound it as seen from ``to``
        (its true width, not the covering circle's)."""
        xy, r, poly = (self.txy, self.tr, self.tp) if targets else (self.axy, self.ar, self.ap)
        frm = xy[rows]
        out = _across(frm, to, r[rows], s)
        if poly is None:
            return out
        sub = poly[rows]
        shaped = np.flatnonzero(_shaped_rows(sub))
        if len(shaped):
            d = to[shaped] - frm[shaped]
            n = np.stack([-d[:, 1], d[:, 0]], axis=1)
            corner = _support(sub[shaped], frm[shaped], n)
            out[shaped] = frm[shaped][:, None, :] + s[None, :, None] * corner[:, None, :]
        return out

    def base_hits(self, p0: FloatArray, p1: FloatArray, bi: IntArray) -> BoolArray:
        """``(C, K)``: whether the ``K`` segments of row ``c`` pass through blocker base
        ``bi[c]`` (a disc: closer than its radius; an oval or rectangle: through its outline
        shrunk by :data:`EPS`, so a line grazing it is not blocked)."""
        d = _segment_distances(p0, p1, self.bxy[bi])
        hit: BoolArray = d < self.br[bi][:, None] - EPS
        if self.bp is None or self.bshaped is None:
            return hit
        rows = np.flatnonzero(self.bshaped[bi])
        if len(rows):
            b = bi[rows]
            c = self.bxy[b][:, None, :]
            shrink = (1.0 - EPS / np.maximum(self.br[b], EPS))[:, None, None]
            poly = c + (self.bp[b] - c) * shrink
            hit[rows] = segments_cross(p0[rows], p1[rows], poly[:, :-1], poly[:, 1:])
        return hit

    def inside(self) -> tuple[BoolArray, BoolArray]:
        """Which of the scene's pieces each attacker / target base overlaps."""
        if self._in_a is None or self._in_t is None:
            self._in_a = self._inside(self.axy, self.ar, self.ap)
            self._in_t = self._inside(self.txy, self.tr, self.tp)
        return self._in_a, self._in_t

    def _inside(self, xy: FloatArray, r: FloatArray, poly: FloatArray | None) -> BoolArray:
        """:meth:`BoardGeometry.discs_in` for the scene's pieces, kept in the board's cache
        (a unit's bases are asked about again and again, against each enemy unit); an oval
        or rectangular base stands in a piece its true outline overlaps (§1.3)."""
        g = self.geom
        key: tuple[bytes, ...] = (b"inside", self.pieces.tobytes(), xy.tobytes(), r.tobytes())
        if poly is not None:
            key = (*key, poly.tobytes())
        hit: BoolArray | None = g.cache.get(key)
        if hit is None:
            if xy.flags.c_contiguous and r.flags.c_contiguous:  # one compiled loop (sight_jit)
                hit = sight_jit.discs_in(self.pieces, xy, r, g.centre, g.reach, g.edge0, g.edge1)
            else:
                hit = g.discs_in(self.pieces, xy, r)
            if poly is not None and len(self.pieces):
                for i in np.flatnonzero(_shaped_rows(poly)).tolist():
                    shape = shapely.Polygon(poly[i])
                    area = shapely.area(shapely.intersection(shape, g.polys[self.pieces]))
                    hit[i] = area > EPS
            hit.setflags(write=False)
            g.cache.put(key, hit)
        return hit

    def round_blockers(self) -> bool:
        """Whether every blocker the scene keeps is a disc (no oval or rectangle): then
        :meth:`lines_hit` answers its lines."""
        return self.bshaped is None or not bool(self.bshaped.any())

    def lines_hit(
        self,
        p0: FloatArray,
        p1: FloatArray,
        ia: IntArray,
        it: IntArray,
        values: IntArray | None = None,
        exclude_target: bool = True,
    ) -> IntArray:
        """``(Q, K)``: :meth:`hits` of the ``K`` lines of each pair ``(ia[q], it[q])`` (0 when
        clear, else the largest value of what they meet, ``values[piece]`` or 1 for a base),
        in a few NumPy calls: every line against every edge of the pieces near the scene's
        corridor (:func:`_corridor`) and every blocker it keeps, with round blockers only.

        :meth:`candidates` leaves out, pair by pair, only pieces and bases that no line of the
        pair can meet (every line between two bases stays within the larger radius of the
        segment between their centres, and a piece within its reach of its centre), so testing
        them too gives the very same answers: each line and edge (or base) is the same
        computation, float for float (issue 10: a query's cost was its NumPy calls). Pieces a
        model of the pair stands in are left out as there (ruling 2)."""
        q, k = p0.shape[:2]
        g = self.geom
        near = self.near_pieces()
        # the lines as one row of starts and ends, asked of two compiled loops (sight_jit:
        # the very floats of ``segments_cross_each`` and ``_discs_lines``; issue 10, session
        # 37: the twenty NumPy calls on small arrays they replace cost more than the work)
        ends = p0.reshape(q * k, 2), p1.reshape(q * k, 2)
        cross, worth = _NO_CROSS, _NO_WORTH
        if len(near):
            e0, e1, owner = _flat_edges(g, self.pieces, near)
            if len(e0):
                cross, crossings = sight_jit.edges_cross_lines(*ends, e0, e1)  # (E, Q * K)
                if crossings:  # pieces a model of the pair stands in (asked only now)
                    in_a, in_t = self.inside()
                    skip = in_a[ia] | in_t[it] if exclude_target else in_a[ia]
                    if skip.any():
                        cross.reshape(len(e0), q, k)[skip[:, owner].T] = False
                worth = _ones(len(e0)) if values is None else values[self.pieces[owner]]
        if not len(cross):
            cross = np.zeros((0, q * k), dtype=bool)
        if len(self.bxy):
            out = sight_jit.lines_worth(cross, worth, *ends, self.bxy, self.br - EPS)
        else:  # no blocker (its arrays may be of any shape)
            out = sight_jit.lines_worth(cross, worth, *ends, _NO_XY, _NO_WORTH_F)
        return out.reshape(q, k)

    def near_pieces(self) -> IntArray:
        """Positions in :attr:`pieces` of the pieces whose bounding circle comes within the
        scene's corridor (:func:`_corridor`): no line between an attacker and a target can
        meet the others (the same argument as :func:`near_blockers`)."""
        if self._near is None:
            if not len(self.pieces) or not len(self.axy) or not len(self.txy):
                self._near = _EMPTY
            else:
                if self._corridor is None:
                    self._corridor = _corridor(self.axy, self.ar, self.txy, self.tr)
                ca, ct, reach = self._corridor
                pxy, plim = _piece_circles(self.geom, self.pieces)
                self._near = sight_jit.near_corridor(ca, ct, reach, pxy, plim).nonzero()[0]
        return self._near

    def candidates(self, ia: IntArray, it: IntArray, exclude_target: bool = True) -> _Cands:
        """(pair, piece) and (pair, blocker) couples close enough to matter."""
        g = self.geom
        a, b = self.axy[ia], self.txy[it]
        rmax = np.maximum(self.ar[ia], self.tr[it])[:, None]
        cq = cp = dq = db = _EMPTY
        if len(self.pieces):
            d = segment_point_distance(a, b, g.centre[self.pieces])
            near = d < rmax + g.reach[self.pieces][None, :] + EPS
            if near.any():
                in_a, in_t = self.inside()
                near &= ~in_a[ia]  # a model sees out of the piece it stands in (ruling 2)
                if exclude_target:
                    near &= ~in_t[it]
                cq, cp = np.nonzero(near)
        if len(self.bxy):
            d = segment_point_distance(a, b, self.bxy)
            dq, db = np.nonzero(d < rmax + self.br[None, :] + EPS)
        return cq, cp, dq, db

    def hits(
        self,
        p0: FloatArray,
        p1: FloatArray,
        cands: _Cands,
        values: IntArray | None = None,
    ) -> IntArray:
        """``(Q, K)``: for the ``K`` segments of each pair, 0 when clear, otherwise the largest
        value (``values[piece]``, 1 for a base) of what they meet.

        A segment a piece already gives a value is not tested against the bases: a base's
        value is 1, and a piece's that meets a segment is at least 1, so a base cannot change
        that segment's answer (the same answer, with less work)."""
        out = np.zeros(p0.shape[:2], dtype=np.intp)
        cq, cp, dq, db = cands
        g = self.geom
        if len(cq):
            pcs = self.pieces[cp]
            ne = g.nedges[pcs]
            for e in sorted(set(ne.tolist())):  # as many edges together: no padding work
                sel = ne == e
                q, pc = cq[sel], pcs[sel]
                hit = segments_cross(p0[q], p1[q], g.edge0[pc, :e], g.edge1[pc, :e])
                val = hit.astype(np.intp)
                if values is not None:
                    val *= values[pc][:, None]
                np.maximum.at(out, q, val)
        if len(dq):
            if len(cq):
                # only the (base, segment) couples whose segment no piece blocks
                ci, li = np.nonzero(out[dq] == 0)
                if len(ci):
                    rows = dq[ci]
                    hit = self.base_hits(
                        p0[rows, li][:, None, :], p1[rows, li][:, None, :], db[ci]
                    )[:, 0]
                    out[rows[hit], li[hit]] = 1
                return out
            np.maximum.at(out, dq, self.base_hits(p0[dq], p1[dq], db).astype(np.intp))
        return out

    def sight(self, ia: IntArray, it: IntArray, any_per_target: bool = False) -> BoolArray:
        """Line of sight for the pairs ``(ia[q], it[q])``: the centre line first, then
        :data:`LOS_SAMPLES` squared lines for the pairs still blocked (only for targets nobody
        sees yet, with ``any_per_target``). With round blockers, up to :data:`_ONE_PASS` pairs
        have all their lines tested at once: a pair sees when one of them is clear, so the
        answers are the same."""
        ok = np.ones(len(ia), dtype=bool)
        a, b = self.axy[ia], self.txy[it]
        cands: _Cands | None = None
        if self.round_blockers():  # every line against everything near (the same answers)
            if not (len(self.bxy) or len(self.near_pieces())):
                return ok
            if len(ia) <= _ONE_PASS:
                p0, p1 = self._samples(ia, it, centre=True)
                seen: BoolArray = _ANY(self.lines_hit(p0, p1, ia, it) == 0, axis=1)
                return seen
            ok = np.asarray(self.lines_hit(a[:, None, :], b[:, None, :], ia, it)[:, 0] == 0)
        else:
            cands = self.candidates(ia, it)
            if not (len(cands[0]) or len(cands[2])):
                return ok
            ok = np.asarray(self.hits(a[:, None, :], b[:, None, :], cands)[:, 0] == 0)
        todo = ~ok
        if any_per_target:
            done = np.zeros(len(self.txy), dtype=bool)
            done[it[ok]] = True
            todo &= ~done[it]
        rest = todo.nonzero()[0]
        if len(rest):
            ra, rt = ia[rest], it[rest]
            p0, p1 = self._samples(ra, rt)
            if cands is None:
                blocked = self.lines_hit(p0, p1, ra, rt)
            else:
                pos = np.full(len(ia), -1)
                pos[rest] = np.arange(len(rest))
                sub = tuple(_remap(pos, q, other) for q, other in (cands[:2], cands[2:]))
                blocked = self.hits(p0, p1, (*sub[0], *sub[1]))
            ok[rest] = _ANY(blocked == 0, axis=1)
        return ok

    def _samples(
        self, ra: IntArray, rt: IntArray, centre: bool = False
    ) -> tuple[FloatArray, FloatArray]:
        """``(R, LOS_SAMPLES ** 2, 2)`` starts and ends of the lines tried between the pairs
        ``(ra[r], rt[r])``: from each of :data:`LOS_SAMPLES` points across the attacker's base
        to each across the target's; with ``centre``, the centre line first (``(R, 1 +
        LOS_SAMPLES ** 2, 2)``). Each row is taken from the points across by one index (the
        very floats a broadcast would give)."""
        s = _LOS_ACROSS
        if self.ap is None and self.tp is None:  # round bases: one compiled loop (sight_jit)
            return sight_jit.pair_lines(self.axy, self.ar, self.txy, self.tr, ra, rt, s, centre)
        pa = self.across(False, ra, self.txy[rt], s)  # (R, k, 2)
        pt = self.across(True, rt, self.axy[ra], s)
        if not centre:
            return pa[:, _FROM_A], pt[:, _TO_T]
        pa = np.concatenate([self.axy[ra][:, None, :], pa], axis=1)  # the centre, then across
        pt = np.concatenate([self.txy[rt][:, None, :], pt], axis=1)
        return pa[:, _FROM_A_CENTRE], pt[:, _TO_T_CENTRE]


#: Up to this many pairs of models, :meth:`_Scene.sight` tests every line of every pair in one
#: pass (a pass costs mostly its NumPy calls); more pairs try their centre lines first.
_ONE_PASS = 12
_EMPTY: IntArray = np.zeros(0, dtype=np.intp)
#: no pieces' circles (a board without LoS-blocking or obscuring pieces)
_NO_CIRCLES: tuple[FloatArray, FloatArray] = (np.zeros((0, 2)), np.zeros(0))
_NO_FRAC: FloatArray = np.zeros(0)


_NO_CROSS: BoolArray = np.zeros((0, 0), dtype=bool)
_NO_WORTH: IntArray = np.zeros(0, dtype=np.intp)
_NO_XY: FloatArray = np.zeros((0, 2))
_NO_WORTH_F: FloatArray = np.zeros(0)
#: worth 1 for every edge (:meth:`_Scene.lines_hit` without values), by count (never written)
_ONES: dict[int, IntArray] = {}


def _ones(n: int) -> IntArray:
    out = _ONES.get(n)
    if out is None:
        out = _ONES[n] = np.ones(n, dtype=np.intp)
    return out


def _flat_edges(
    g: BoardGeometry, pieces: IntArray, near: IntArray
) -> tuple[FloatArray, FloatArray, IntArray]:
    """The edges of the pieces ``pieces[near]`` without padding, piece after piece: starts,
    ends, and each edge's piece as its position in ``pieces``; every piece's edges are kept
    in the board's cache. An edge of no length (a vertex repeated) is left out: it meets
    nothing (``segments_cross_each``), and ``sight_jit.edges_cross_lines`` needs no test of it."""
    key = (b"flat edges", pieces.tobytes())
    hit = g.cache.get(key)
    if hit is None:
        ne = g.nedges[pieces]
        real = np.arange(g.edge0.shape[1])[None, :] < ne[:, None]
        real &= (g.edge0[pieces] != g.edge1[pieces]).any(axis=2)
        e0, e1 = g.edge0[pieces][real], g.edge1[pieces][real]
        owner = np.repeat(np.arange(len(pieces)), real.sum(axis=1))
        for a in (e0, e1, owner):
            a.setflags(write=False)
        hit = g.cache.put(key, (e0, e1, owner))
    if len(near) == len(pieces):
        out: tuple[FloatArray, FloatArray, IntArray] = hit
        return out
    sub_key = (*key, near.tobytes())
    out = g.cache.get(sub_key)
    if out is None:
        e0, e1, owner = hit
        keep = np.zeros(len(pieces), dtype=bool)
        keep[near] = True
        keep = keep[owner]
        out = g.cache.put(sub_key, (e0[keep], e1[keep], owner[keep]))
    return out


#: where the :data:`LOS_SAMPLES` lines of a pair start and end across each base (fractions of
#: its radius)
_LOS_ACROSS: FloatArray = np.linspace(-1.0, 1.0, LOS_SAMPLES) * _SHRINK
_Cands = tuple[IntArray, IntArray, IntArray, IntArray]
#: where the :data:`COVER_RAYS` rays end across a target's base (fractions of its radius)
_COVER_ACROSS: FloatArray = ((np.arange(COVER_RAYS) + 0.5) / COVER_RAYS * 2 - 1) * _SHRINK
#: the lines of a pair, by the points they join: from point ``_FROM_A[j]`` across the
#: attacker's base to ``_TO_T[j]`` across the target's (each of one to each of the other); the
#: ``_CENTRE`` indices put the centres first (point 0) and the centre line first
_FROM_A: IntArray = np.repeat(np.arange(LOS_SAMPLES), LOS_SAMPLES)
_TO_T: IntArray = np.tile(np.arange(LOS_SAMPLES), LOS_SAMPLES)
_FROM_A_CENTRE: IntArray = np.concatenate([[0], _FROM_A + 1])
_TO_T_CENTRE: IntArray = np.concatenate([[0], _TO_T + 1])


def _remap(pos: IntArray, q: IntArray, other: IntArray) -> tuple[IntArray, IntArray]:
    keep = pos[q] >= 0
    return pos[q[keep]], other[keep]


def _segment_distances(p0: FloatArray, p1: FloatArray, c: FloatArray) -> FloatArray:
    """``(C, K)``: distance from each of the ``K`` segments of row ``c`` to point ``c[c]``."""
    d = p1 - p0
    w = c[:, None, :] - p0
    dd = np.einsum("ckx,ckx->ck", d, d)
    t = np.clip(np.einsum("ckx,ckx->ck", w, d) / np.where(dd > 0, dd, 1.0), 0.0, 1.0)
    e = w - t[..., None] * d
    out: FloatArray = np.sqrt(np.einsum("ckx,ckx->ck", e, e))
    return out


def _across(frm: FloatArray, to: FloatArray, r: FloatArray, s: FloatArray) -> FloatArray:
    """``(Q, len(s), 2)`` points across the bases at ``frm`` (radius ``r``), perpendicular to
    the direction towards ``to``, at fractions ``s`` of the radius."""
    d = to - frm
    length = np.hypot(d[:, 0], d[:, 1])
    safe = np.where(length > 0, length, 1.0)
    u = np.where(length[:, None] > 0, d / safe[:, None], np.array([1.0, 0.0]))
    n = np.stack([-u[:, 1], u[:, 0]], axis=1)
    out: FloatArray = frm[:, None, :] + (r[:, None] * s[None, :])[:, :, None] * n[:, None, :]
    return out


def sight_matrix(
    board: Board,
    attackers: Bases | Sequence[Disc],
    targets: Bases | Sequence[Disc],
    blockers: Bases | Sequence[Any] = (),
) -> BoolArray:
    """``(len(attackers), len(targets))``: which attacking model has line of sight to which
    target model (§5.4). ``blockers`` are the bases of every model of *other* units."""
    scene = _Scene(board, attackers, targets, blockers)
    n, m = len(scene.axy), len(scene.txy)
    if n == 0 or m == 0:
        return np.zeros((n, m), dtype=bool)
    key = scene.key("matrix")
    cache = scene.geom.cache
    hit = cache.get(key)
    if hit is None:
        ia, it = np.divmod(np.arange(n * m), m)
        hit = cache.put(key, scene.sight(ia, it).reshape(n, m))
    out: BoolArray = hit.copy()
    return out


def line_of_sight(board: Board, src: Disc, dst: Disc, blockers: Sequence[Any] = ()) -> bool:
    """Whether model ``src`` can see model ``dst`` (and so ``dst`` can see ``src``) (§5.4).

    ``src`` and ``dst`` are ``(centre, radius)``; ``blockers`` the bases of models of other
    units than theirs (models never block their own unit, §5.3, §5.4).
    """
    return bool(sight_matrix(board, [src], [dst], blockers)[0, 0])


def visible_models(
    board: Board,
    attackers: Bases | Sequence[Disc],
    targets: Bases | Sequence[Disc],
    blockers: Bases | Sequence[Any] = (),
) -> list[bool]:
    """Which target models at least one attacker can see, so can be casualties (§5.5, §5.13).

    "The models out of sight do not exist for casualty purposes" (§5.5). In a Melee line of sight
    is ignored (§5.9, §5.13): the caller then treats every model as visible.
    """
    scene = _Scene(board, attackers, targets, blockers)
    n, m = len(scene.axy), len(scene.txy)
    if n == 0 or m == 0:
        return [False] * m
    key = scene.key("visible")
    cache = scene.geom.cache
    hit = cache.get(key)
    if hit is None:
        ia, it = np.divmod(np.arange(n * m), m)
        ok = scene.sight(ia, it, any_per_target=True).reshape(n, m)
        hit = cache.put(key, [bool(ok[:, j].any()) for j in range(m)])
    return list(hit)


def attackers_in_sight(
    board: Board,
    attackers: Bases | Sequence[Disc],
    targets: Bases | Sequence[Disc],
    blockers: Bases | Sequence[Any] = (),
) -> list[bool]:
    """Which attacking models can see at least one target model, so can attack (§5.3, §5.5
    NOTE: "only Cultist B could attack")."""
    matrix = sight_matrix(board, attackers, targets, blockers)
    return [bool(matrix[i].any()) for i in range(len(matrix))]


# --------------------------------------------------------------------------- §5.6 cover


@dataclass(frozen=True, slots=True)
class CoverReport:
    """The Cover Bonus of a targeted unit against one attacking unit, and why (§5.6).

    ``obscured`` is each target model's obscured fraction (0 to 1) from the attacker with the
    best view; ``levels`` the Cover Bonus each model would give (0 when less than 50%
    obscured and not in a Cover Area); ``sources`` the terrain pieces (and ``"other units"``)
    that obscured them.
    """

    bonus: int
    obscured: tuple[float, ...]
    levels: tuple[int, ...]
    obscured_models: int
    models: int
    sources: tuple[str, ...]
    reason: str
    rule: str = "001_d3f5e425c5e1196d.txt §5.6"

    def __int__(self) -> int:
        return self.bonus


def cover_report(
    board: Board,
    attackers: Bases | Sequence[Disc],
    targets: Bases | Sequence[Disc],
    blockers: Bases | Sequence[Any] = (),
    *,
    melee: bool = False,
) -> CoverReport:
    """The Cover Bonus the target unit gains against the attacking unit (§5.6).

    "If a Unit is Targeted and 50% or more of the Unit's models are 50% or more obscured, the
    entire Unit gains a Cover Bonus ... +1 to their Defence Stat." A piece's agreed bonus
    (``Terrain.cover``) replaces the +1; with several, the unit gets the highest bonus that 50%
    or more of its models reach. Models in a Cover Area count as obscured. In a Melee cover is
    ignored (§5.9).
    """
    m = len(targets)
    if melee:
        return CoverReport(0, (0.0,) * m, (0,) * m, 0, m, (), "cover is ignored in a Melee", "§5.9")
    scene = _Scene(board, attackers, targets, blockers, pieces="obscuring")
    if m == 0:
        return CoverReport(0, (), (), 0, 0, (), "no target models")
    key = scene.key("cover")
    cached = scene.geom.cache.get(key)
    if cached is None:
        cached = scene.geom.cache.put(key, _cover(scene))
    report: CoverReport = cached
    return report


def _cover(scene: _Scene) -> CoverReport:
    sources: set[str] = set()
    frac, levels = _levels(scene, sources)
    return _unit_cover(scene, frac, levels, sources, "")


def _levels(scene: _Scene, sources: set[str] | None) -> tuple[FloatArray, IntArray]:
    """Each target model's obscured fraction and Cover Bonus level from the attacker with the
    best view (§5.6: the fraction of its rays a piece or a base obscures, and the bonus half or
    more of them reach), and into ``sources`` the pieces (and ``"other units"``) that obscure
    the covered models. With ``sources`` None only the levels are worked out (no fractions:
    an empty array): what the bonus alone needs (:func:`cover_bonus`)."""
    n, m = len(scene.axy), len(scene.txy)
    g = scene.geom
    levels = np.zeros(m, dtype=np.intp)
    frac: FloatArray = np.zeros(m) if sources is not None else _NO_FRAC
    if n:
        ia, it = np.divmod(np.arange(n * m), m)
        dense = scene.round_blockers()  # every ray against everything near (the same values)
        if dense:
            go = bool(len(scene.bxy) or len(scene.near_pieces()))
        else:
            cands = scene.candidates(ia, it, exclude_target=False)
            go = bool(len(cands[0]) or len(cands[2]))
        if go:
            k = COVER_RAYS
            s = _COVER_ACROSS
            if scene.tp is None:  # round targets: one compiled loop (sight_jit)
                p0, p1 = sight_jit.rays(scene.axy, scene.txy, scene.tr, ia, it, s)
            else:
                p1 = scene.across(True, it, scene.axy[ia], s)  # (Q, k, 2)
                p0 = np.broadcast_to(scene.axy[ia][:, None, :], p1.shape)
            if dense:
                value = scene.lines_hit(p0, p1, ia, it, g.cover_value, exclude_target=False)
            else:
                value = scene.hits(p0, p1, cands, g.cover_value)
            # the bonus reached by half or more of the rays: the median-from-the-top value
            pair_level = -np.sort(-value, axis=1)[:, math.ceil(k / 2) - 1]
            levels = pair_level.reshape(n, m).min(axis=0)
            if sources is None:  # the bonus alone: no fractions, no sources
                return frac, levels
            pair_frac = (value > 0).mean(axis=1)
            frac = pair_frac.reshape(n, m).min(axis=0)
            covered = levels > 0
            if covered.any():  # the sources: the candidates of the covered models' pairs
                if dense:
                    cands = scene.candidates(ia, it, exclude_target=False)
                cq, cp, dq, _ = cands
                # each piece once (a set of ints: np.unique cost more than the rest here)
                pcs = set(scene.pieces[cp[covered[it[cq]]]].tolist())
                sources.update(g.names[p] for p in pcs)
                if covered[it[dq]].any():
                    sources.add("other units")
    return frac, levels


def _area_levels(scene: _Scene, levels: IntArray, sources: set[str] | None) -> None:
    """Cover Areas raise the levels of the target models standing in them (001 §5.6), adding
    the areas to ``sources`` (when given)."""
    g, m = scene.geom, len(levels)
    areas = g.cover_areas
    if len(areas):
        inside = g.discs_in(areas, scene.txy, np.full(m, EPS))
        if scene.tp is not None:  # an oval or rectangle: half its outline or more in it (§1.3)
            for i in np.flatnonzero(_shaped_rows(scene.tp)).tolist():
                shape = shapely.Polygon(scene.tp[i])
                held = shapely.area(shapely.intersection(shape, g.polys[areas]))
                inside[i] = held >= shape.area / 2 - EPS
        for j, p in zip(*np.nonzero(inside), strict=True):
            levels[j] = max(levels[j], g.cover_value[areas[p]])
            if sources is not None:
                sources.add(g.names[areas[p]])


def _bonus(levels: IntArray) -> int:
    """The bonus reached by half or more of the unit's models (001 §5.6)."""
    need = math.ceil(len(levels) / 2)
    return int(-np.sort(-levels)[need - 1])


def _unit_cover(
    scene: _Scene,
    frac: FloatArray,
    levels: IntArray,
    sources: set[str],
    seen: str,
    lines: str = "",
) -> CoverReport:
    """The unit's Cover Bonus from each model's obscured level (001 §5.6): Cover Areas raise
    the models standing in them, then the bonus is the one reached by half or more of the
    unit's models (flat sight and sight in height share this rule)."""
    m = len(levels)
    _area_levels(scene, levels, sources)
    bonus = _bonus(levels)
    count = int((levels > 0).sum())
    pct = round(100 * count / m)
    why = ", ".join(sorted(sources)) or "nothing"
    if bonus:
        reason = (
            f"{count} of {m} models ({pct}%) are 50% or more obscured{seen} (by {why}): "
            f"Cover Bonus +{bonus} Defence"
        )
    else:
        reason = f"{count} of {m} models ({pct}%) are 50% or more obscured{seen}; fewer than 50%"
    return CoverReport(
        bonus,
        tuple(float(v) for v in frac),
        tuple(int(v) for v in levels),
        count,
        m,
        tuple(sorted(sources)),
        reason,
        f"001_d3f5e425c5e1196d.txt §5.6{lines}",
    )


def cover_bonus(
    board: Board,
    attackers: Bases | Sequence[Disc],
    targets: Bases | Sequence[Disc],
    blockers: Bases | Sequence[Any] = (),
    *,
    melee: bool = False,
) -> int:
    """The Cover Bonus (+Defence) of the target unit against the attacking unit (§5.6); see
    :func:`cover_report` for the method and the explanation.

    :func:`cover_report`'s very bonus, worked out without what only the report says (each
    model's obscured fraction, the pieces that give the cover, the words): an Attack reads
    the bonus alone (issue 10, session 39). A report already kept for the question answers it.
    """
    m = len(targets)
    if melee or m == 0:
        return 0
    scene = _Scene(board, attackers, targets, blockers, pieces="obscuring")
    cache = scene.geom.cache
    key = scene.key("cover")
    report: CoverReport | None = cache.get(key)
    if report is not None:
        return report.bonus
    key = (b"cover bonus", *key[1:])
    bonus: int | None = cache.get(key)
    if bonus is None:
        _, levels = _levels(scene, None)
        _area_levels(scene, levels, None)
        bonus = cache.put(key, _bonus(levels))
    return bonus


def obscured_fraction(
    board: Board, attacker: Disc, target: Disc, blockers: Sequence[Any] = ()
) -> float:
    """How much of ``target``'s base is obscured as seen from ``attacker`` (0 to 1, §5.6)."""
    return cover_report(board, [attacker], [target], blockers).obscured[0]


# --------------------------------------------------------------------------- heights (L2360)
#
# The game's line of sight and cover with models standing above the board (on a floor of a
# building, a gantry, a roof: ``docs/rulings.md`` "WARSURGE battlefield" 16-17 and 24-26). The
# flat answers above stay the rule on the ground: the height questions are asked only of the
# pairs of models one of which stands above the board, so a flat board gets the flat answers.


@dataclass(frozen=True, slots=True)
class _Obstacles:
    """What a line in three dimensions can meet, as parallel arrays: the scene's pieces (with
    their heights; a piece without one is as tall as any line, ruling 16) and the bases of the
    other units' models (up to each model's top). ``edges[k]`` are a piece's edges, ``None``
    for a base (a disc at ``centre[k]`` of radius ``radius[k]``)."""

    edges: tuple[tuple[FloatArray, FloatArray] | None, ...]
    centre: FloatArray  # (K, 2)
    radius: FloatArray  # (K,) bounding radius of a piece, the radius of a base
    tops: FloatArray
    values: IntArray
    names: tuple[str, ...]
    piece: IntArray  # position in the scene's pieces, -1 for a model's base


def _obstacles(
    board: Board,
    scene: _Scene,
    bxy: FloatArray,
    br: FloatArray,
    bz: FloatArray,
    height: float,
    bp: FloatArray | None = None,
) -> _Obstacles:
    g = scene.geom
    pieces = [int(p) for p in scene.pieces]
    edges: list[tuple[FloatArray, FloatArray] | None] = [
        (g.edge0[p, : g.nedges[p]], g.edge1[p, : g.nedges[p]]) for p in pieces
    ]
    if bp is None:
        edges += [None] * len(bxy)
    else:  # an oval or rectangular base is its outline (§1.3), a round one its disc
        shaped = _shaped_rows(bp)
        edges += [(q[:-1], q[1:]) if f else None for q, f in zip(bp, shaped, strict=True)]
    heights = [board.terrain[p].height for p in pieces]
    tops = np.array(
        [*(math.inf if h is None else float(h) for h in heights), *(bz + height)], dtype=np.float64
    )
    centre = np.concatenate([g.centre[pieces].reshape(-1, 2), bxy.reshape(-1, 2)])
    radius = np.concatenate([g.reach[pieces], br * _SHRINK])
    values = np.array([*(int(g.cover_value[p]) for p in pieces), *([1] * len(bxy))], np.intp)
    names = (*(g.names[p] for p in pieces), *(["other units"] * len(bxy)))
    piece = np.array([*range(len(pieces)), *([-1] * len(bxy))], dtype=np.intp)
    return _Obstacles(tuple(edges), centre, radius, tops, values, names, piece)


def _cross(a: FloatArray, b: FloatArray) -> FloatArray:
    out: FloatArray = a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]
    return out


def _low_over_polygon(
    p0: FloatArray, d: FloatArray, z0: FloatArray, dz: FloatArray, e0: FloatArray, e1: FloatArray
) -> FloatArray:
    """The lowest altitude of each line ``p0 + t d`` (``t`` in 0..1, altitude ``z0 + t dz``)
    over a polygon given by its edges; ``inf`` where it does not pass over it. The stretches
    over the polygon end at edge crossings or at a line's ends inside, and the altitude is
    linear, so the lowest point is one of those."""
    e = e1 - e0  # (E, 2)
    denom = _cross(d[:, None, :], e[None, :, :])  # (R, E)
    w = e0[None, :, :] - p0[:, None, :]
    safe = np.where(np.abs(denom) > 1e-12, denom, 1.0)
    t = _cross(w, e[None, :, :]) / safe
    u = _cross(w, d[:, None, :]) / safe
    ok = (np.abs(denom) > 1e-12) & (t >= -EPS) & (t <= 1 + EPS) & (u >= -EPS) & (u <= 1 + EPS)
    alt = np.where(ok, z0[:, None] + np.clip(t, 0, 1) * dz[:, None], np.inf)
    low: FloatArray = alt.min(axis=1) if alt.shape[1] else np.full(len(p0), np.inf)
    for end, z in ((p0, z0), (p0 + d, z0 + dz)):
        px, py = end[:, 0][:, None], end[:, 1][:, None]
        y0, y1 = e0[None, :, 1], e1[None, :, 1]
        x0, x1 = e0[None, :, 0], e1[None, :, 0]
        crosses = (y0 > py) != (y1 > py)
        xint = x0 + (py - y0) * (x1 - x0) / np.where(y1 != y0, y1 - y0, 1.0)
        inside = (crosses & (px < xint)).sum(axis=1) % 2 == 1
        low = np.where(inside, np.minimum(low, z), low)
    return low


def _low_over_disc(
    p0: FloatArray, d: FloatArray, z0: FloatArray, dz: FloatArray, c: FloatArray, r: float
) -> FloatArray:
    """:func:`_low_over_polygon` for a disc (a model's base)."""
    f = p0 - c
    a = (d * d).sum(axis=1)
    b = 2 * (f * d).sum(axis=1)
    cc = (f * f).sum(axis=1) - r * r
    disc = b * b - 4 * a * cc
    safe_a = np.where(a > 0, a, 1.0)
    root = np.sqrt(np.maximum(disc, 0.0))
    t0 = np.clip((-b - root) / (2 * safe_a), 0.0, 1.0)
    t1 = np.clip((-b + root) / (2 * safe_a), 0.0, 1.0)
    meets = (disc > 0) & (a > 0) & (t1 > t0)
    low: FloatArray = np.where(meets, z0 + np.minimum(t0 * dz, t1 * dz), np.inf)
    return low


def _rays_over(
    obs: _Obstacles,
    p0: FloatArray,
    z0: FloatArray,
    p1: FloatArray,
    z1: FloatArray,
    skip: BoolArray,
) -> tuple[IntArray, IntArray]:
    """For ``R`` straight lines from ``(p0, z0)`` to ``(p1, z1)``: 0 when a line passes above
    every obstacle, else the largest value of those it meets at or below their top (ruling
    17: grazing a top blocks), and which obstacle (-1: none). ``skip[r, q]``: line ``r``
    ignores the scene's piece ``q`` (one the model stands in, ruling 2)."""
    n = len(p0)
    val = np.zeros(n, dtype=np.intp)
    which = np.full(n, -1, dtype=np.intp)
    if not n or not len(obs.tops):
        return val, which
    d = p1 - p0
    dz = z1 - z0
    near = segment_point_distance(p0, p1, obs.centre) < obs.radius[None, :] + EPS  # (R, K)
    for k in np.argsort(-obs.values, kind="stable"):
        cand = near[:, k] & (val < obs.values[k])
        q = int(obs.piece[k])
        if q >= 0:
            cand &= ~skip[:, q]
        rows = np.flatnonzero(cand)
        if not len(rows):
            continue
        edges = obs.edges[k]
        if edges is None:
            low = _low_over_disc(
                p0[rows], d[rows], z0[rows], dz[rows], obs.centre[k], float(obs.radius[k])
            )
        else:
            low = _low_over_polygon(p0[rows], d[rows], z0[rows], dz[rows], *edges)
        hit = rows[low <= obs.tops[k] + EPS]
        val[hit] = obs.values[k]
        which[hit] = k
    return val, which


def _arrays_z(z: FloatArray | Sequence[float] | None, n: int) -> FloatArray:
    if z is None:
        return np.zeros(n)
    out = np.asarray(z, dtype=np.float64).reshape(-1)
    if len(out) != n:
        raise ValueError(f"{len(out)} heights given for {n} bases")
    return out


def elevated_sight_matrix(
    board: Board,
    attackers: Bases | Sequence[Disc],
    targets: Bases | Sequence[Disc],
    blockers: Bases | Sequence[Any] = (),
    *,
    attacker_z: FloatArray | Sequence[float] | None = None,
    target_z: FloatArray | Sequence[float] | None = None,
    blocker_z: FloatArray | Sequence[float] | None = None,
    model_height: float = DEFAULT_MODEL_HEIGHT,
) -> BoolArray:
    """:func:`sight_matrix` with the heights the models stand at (L2360, 001 L2363-2366: Unit
    B in the tower "can see the Target from above", through Unit A).

    A pair of models on the ground keeps the flat answer. A pair one of which stands above
    the board (``z > 0``) also sees each other when the straight line from either model's top
    to the other's top or the middle of its height passes above every LoS-blocking piece (a
    piece without a height is as tall as any line, ruling 16) and every other model's base up
    to that model's top (ruling 17); pieces either model stands in are left out (ruling 2).
    The answer stays symmetric (§5.4 "Targeting goes both ways")."""
    scene = _Scene(board, attackers, targets, blockers)
    n, m = len(scene.axy), len(scene.txy)
    az = _arrays_z(attacker_z, n)
    tz = _arrays_z(target_z, m)
    flat = sight_matrix(board, attackers, targets, blockers)
    if not n or not m or not ((az > EPS).any() or (tz > EPS).any()):
        return flat
    bxy, br = _arrays(blockers)
    bz = _arrays_z(blocker_z, len(bxy))
    key = (
        *scene.key("elevated"),
        az.tobytes(),
        tz.tobytes(),
        bxy.tobytes(),
        bz.tobytes(),
        np.float64(model_height).tobytes(),
        *_poly_key(blockers),
    )
    cache = scene.geom.cache
    hit = cache.get(key)
    if hit is None:
        out = flat.copy()
        ia, it = np.nonzero(~flat & ((az[:, None] > EPS) | (tz[None, :] > EPS)))
        if len(ia):
            obs = _obstacles(board, scene, bxy, br, bz, model_height, _polys(blockers))
            in_a, in_t = scene.inside()
            h = model_height
            a, t = scene.axy[ia], scene.txy[it]
            za, zt = az[ia], tz[it]
            # four lines a pair: from each model's top to the other's top and middle
            p0 = np.concatenate([a, a, t, t])
            p1 = np.concatenate([t, t, a, a])
            z0 = np.concatenate([za + h, za + h, zt + h, zt + h])
            z1 = np.concatenate([zt + h, zt + h / 2, za + h, za + h / 2])
            skip = np.tile(in_a[ia] | in_t[it], (4, 1))
            val, _ = _rays_over(obs, p0, z0, p1, z1, skip)
            clear = (val.reshape(4, len(ia)) == 0).any(axis=0)
            out[ia, it] = clear
        hit = cache.put(key, out)
    result: BoolArray = hit.copy()
    return result


def elevated_visible_models(
    board: Board,
    attackers: Bases | Sequence[Disc],
    targets: Bases | Sequence[Disc],
    blockers: Bases | Sequence[Any] = (),
    **heights: Any,
) -> list[bool]:
    """:func:`visible_models` with heights (§5.5 with L2360): the target models at least one
    attacker sees in :func:`elevated_sight_matrix`."""
    z = [heights.get("attacker_z"), heights.get("target_z")]
    if not any(v is not None and (np.asarray(v) > EPS).any() for v in z):
        return visible_models(board, attackers, targets, blockers)
    matrix = elevated_sight_matrix(board, attackers, targets, blockers, **heights)
    return [bool(matrix[:, j].any()) for j in range(matrix.shape[1])]


def elevated_cover_report(
    board: Board,
    attackers: Bases | Sequence[Disc],
    targets: Bases | Sequence[Disc],
    blockers: Bases | Sequence[Any] = (),
    *,
    attacker_z: FloatArray | Sequence[float] | None = None,
    target_z: FloatArray | Sequence[float] | None = None,
    blocker_z: FloatArray | Sequence[float] | None = None,
    model_height: float = DEFAULT_MODEL_HEIGHT,
    melee: bool = False,
) -> CoverReport:
    """:func:`cover_report` with heights (§5.6 with L2360; ruling 25).

    When every model stands on the ground this is :func:`cover_report`. Otherwise each of the
    :data:`COVER_RAYS` rays goes in three dimensions, from the attacking model's top to the
    middle of the target model's height at points spread across its base, and is obscured by
    what it meets at or below its top: an obscuring piece (its Cover Bonus; a piece without a
    height is as tall as any ray) or another unit's model (+1); pieces the attacker stands in
    are left out. A model on a roof firing down past a low wall is not obscured by it; a model
    behind a parapet on a roof is obscured by it from a firer below. The best view and the 50%
    rules are :func:`cover_report`'s, and a model in a Cover Area still counts as obscured."""
    m = len(targets)
    if melee:
        return cover_report(board, attackers, targets, blockers, melee=True)
    axy, _ = _arrays(attackers)
    txy, _ = _arrays(targets)
    az = _arrays_z(attacker_z, len(axy))
    tz = _arrays_z(target_z, len(txy))
    if not ((az > EPS).any() or (tz > EPS).any()):
        return cover_report(board, attackers, targets, blockers)
    if m == 0:
        return CoverReport(0, (), (), 0, 0, (), "no target models")
    scene = _Scene(board, attackers, targets, blockers, pieces="obscuring")
    bxy, br = _arrays(blockers)
    bz = _arrays_z(blocker_z, len(bxy))
    key = (
        *scene.key("elevated cover"),
        az.tobytes(),
        tz.tobytes(),
        bxy.tobytes(),
        bz.tobytes(),
        np.float64(model_height).tobytes(),
        *_poly_key(blockers),
    )
    cached = scene.geom.cache.get(key)
    if cached is None:
        cached = scene.geom.cache.put(
            key,
            _elevated_cover(board, scene, az, tz, bxy, br, bz, model_height, _polys(blockers)),
        )
    report: CoverReport = cached
    return report


def _elevated_cover(
    board: Board,
    scene: _Scene,
    az: FloatArray,
    tz: FloatArray,
    bxy: FloatArray,
    br: FloatArray,
    bz: FloatArray,
    h: float,
    bp: FloatArray | None = None,
) -> CoverReport:
    n, m = len(scene.axy), len(scene.txy)
    levels = np.zeros(m, dtype=np.intp)
    frac = np.zeros(m)
    sources: set[str] = set()
    if n:
        obs = _obstacles(board, scene, bxy, br, bz, h, bp)
        in_a, _ = scene.inside()
        k = COVER_RAYS
        s = ((np.arange(k) + 0.5) / k * 2 - 1) * _SHRINK
        ia, it = np.divmod(np.arange(n * m), m)
        ends = scene.across(True, it, scene.axy[ia], s)  # (Q, k, 2)
        p1 = ends.reshape(-1, 2)
        p0 = np.repeat(scene.axy[ia], k, axis=0)
        z0 = np.repeat(az[ia] + h, k)
        z1 = np.repeat(tz[it] + h / 2, k)
        skip = np.repeat(in_a[ia], k, axis=0)
        val, which = _rays_over(obs, p0, z0, p1, z1, skip)
        value = val.reshape(n * m, k)
        pair_frac = (value > 0).mean(axis=1).reshape(n, m)
        pair_level = (-np.sort(-value, axis=1)[:, math.ceil(k / 2) - 1]).reshape(n, m)
        frac = pair_frac.min(axis=0)
        levels = pair_level.min(axis=0)
        best = pair_level == levels[None, :]  # the best-placed attackers' views
        hits = which.reshape(n, m, k)
        for i, j in zip(*np.nonzero(best & (levels[None, :] > 0)), strict=True):
            sources.update(obs.names[int(x)] for x in hits[i, j] if x >= 0)
    return _unit_cover(scene, frac, levels, sources, ", seen in height", ", L2360")
