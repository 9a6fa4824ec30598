"""The candidate tests of ``coherency`` as compiled loops (numba): where a unit's models may
stand, asked of many candidates at once (issue 10, session 38, s38-speedc).

Core Rules 001_d3f5e425c5e1196d.txt §1.3 (no model overlaps another base) and §4.7 (other
units are Impassable Ground): ``coherency``'s prefilters ask these questions of every
candidate a placement or a Move tries, and the 4000-point game asks far more of them than the
1000-point one (its Deployment Phases try 17,000 candidate formations in three games, the
1000-point game's 570). Each function here answers in one call and one loop what ``coherency``
asked of NumPy in ten to thirty calls on small arrays:

* :func:`candidate_overlaps`: ``coherency._clearly_illegal``'s overlaps (the candidates' bases
  against the other units' bases, and the base each overlap is with: ``place_memo``'s
  witness), with its box of the bases near the candidates and ``_overlapping``'s band of x;
* :func:`gaps`: ``coherency._gaps``, each model's smallest edge gap to another base along its
  path and at its end (``problem_positions``' test of which models are clearly clear);
* :func:`first_entry`: ``coherency.clearly_blocked_translations``' length at which the first
  moving model's path enters another base;
* :func:`still_refused` and :func:`remember`: ``place_memo``'s witnesses, looked up on a
  new table and written down.

They compute the very floats of the NumPy forms they replaced (the same IEEE ``+ - * /`` and
``sqrt`` in the same order, no ``fastmath``, no reduction reordered; a minimum is NaN when a
NaN is among its terms, as NumPy's), and ``tests/warsurge/game/test_speed_coherency_jit.py``
holds them to those forms (``tests/warsurge/game/coherency_oracles.py``) bit for bit on random
and integer-grid cases. numba is imported on the first call (:func:`kernels`), as sight's
kernels are (``battlefield/sight_jit.py``, whose options and disk cache these share).
"""

from __future__ import annotations

import math
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from warbench.rulesets.warsurge.battlefield.sight_jit import compiler, first

__all__ = [
    "Kernels",
    "candidate_overlaps",
    "contacts",
    "first_entry",
    "formation",
    "gaps",
    "kernels",
    "remember",
    "still_refused",
    "warm",
]

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.intp]


def _candidate_overlaps(
    new: Any, off: Any, starts: Any, r: float, txy: Any, trad: Any, tuid: Any, uid: int, tol: float
) -> tuple[Any, Any]:  # pragma: no cover - compiled
    n_cand, m = new.shape[0], new.shape[1]
    n_bases = txy.shape[0]
    bad = np.zeros((n_cand, m), dtype=np.bool_)
    which = np.full((n_cand, m), -1, dtype=np.intp)
    # the box of every candidate's points (and the starts): min and max as NumPy's, a NaN
    # among them makes the box NaN (then no base is near)
    lo_x = lo_y = hi_x = hi_y = 0.0
    first = True
    n_starts = starts.shape[0]
    for i in range(n_cand * m + n_starts):
        if i < n_cand * m:
            x, y = new[i // m, i % m, 0], new[i // m, i % m, 1]
        else:
            x, y = starts[i - n_cand * m, 0], starts[i - n_cand * m, 1]
        if first:
            lo_x, hi_x, lo_y, hi_y = x, x, y, y
            first = False
            continue
        if lo_x == lo_x and (x != x or x < lo_x):
            lo_x = x
        if hi_x == hi_x and (x != x or x > hi_x):
            hi_x = x
        if lo_y == lo_y and (y != y or y < lo_y):
            lo_y = y
        if hi_y == hi_y and (y != y or y > hi_y):
            hi_y = y
    if first:
        return bad, which
    lo_x = lo_x - r - 1.0
    lo_y = lo_y - r - 1.0
    hi_x = hi_x + r + 1.0
    hi_y = hi_y + r + 1.0
    # the bases near the box, in the table's order
    near = np.empty(n_bases, dtype=np.intp)
    n_near = 0
    rmax = 0.0
    for b in range(n_bases):
        if tuid[b] == uid:
            continue
        bx, by, br = txy[b, 0], txy[b, 1], trad[b]
        if bx > lo_x - br and bx < hi_x + br and by > lo_y - br and by < hi_y + br:
            if n_near == 0 or (rmax == rmax and (br != br or br > rmax)):  # a NaN wins
                rmax = br
            near[n_near] = b
            n_near += 1
    if n_near == 0:
        return bad, which
    # _overlapping's band of x: the bases whose centre is within ``reach`` of a point's x
    reach = r + rmax + 1e-6
    for c in range(n_cand):
        if off[c]:
            continue
        for k in range(m):
            px, py = new[c, k, 0], new[c, k, 1]
            a, z = px - reach, px + reach
            best = -1
            best_x = 0.0
            for j in range(n_near):
                b = near[j]
                bx = txy[b, 0]
                if not (bx >= a and bx <= z):
                    continue
                dx = px - bx
                dy = py - txy[b, 1]
                dx = dx * dx
                dy = dy * dy
                d = math.sqrt(dx + dy) - trad[b] - r
                # the last in the band's order (x, then the table's order) is the witness
                if d < -tol and (best < 0 or bx > best_x or (bx == best_x and b > best)):
                    best, best_x = b, bx
            if best >= 0:
                which[c, k] = best
                if n_starts == 0 or px != starts[k, 0] or py != starts[k, 1]:
                    bad[c, k] = True
    return bad, which


def _gaps(
    new: Any, starts: Any, r: float, oxy: Any, orad: Any
) -> tuple[Any, Any, bool]:  # pragma: no cover - compiled
    m = new.shape[0]
    n_starts = starts.shape[0]
    end = np.full(m, np.inf)
    seg = np.full(m, np.inf)
    lo_x = lo_y = hi_x = hi_y = 0.0
    first = True
    for i in range(m + n_starts):
        if i < m:
            x, y = new[i, 0], new[i, 1]
        else:
            x, y = starts[i - m, 0], starts[i - m, 1]
        if first:
            lo_x, hi_x, lo_y, hi_y = x, x, y, y
            first = False
            continue
        if lo_x == lo_x and (x != x or x < lo_x):
            lo_x = x
        if hi_x == hi_x and (x != x or x > hi_x):
            hi_x = x
        if lo_y == lo_y and (y != y or y < lo_y):
            lo_y = y
        if hi_y == hi_y and (y != y or y > hi_y):
            hi_y = y
    lo_x = lo_x - r - 1.0
    lo_y = lo_y - r - 1.0
    hi_x = hi_x + r + 1.0
    hi_y = hi_y + r + 1.0
    any_near = False
    for b in range(oxy.shape[0]):
        bx, by, br = oxy[b, 0], oxy[b, 1], orad[b]
        if not (bx > lo_x - br and bx < hi_x + br and by > lo_y - br and by < hi_y + br):
            continue
        for k in range(m):
            # geom.centre_distances, less the radii: the gap at the model's end
            x, y = new[k, 0], new[k, 1]
            dx = x - bx
            dy = y - by
            dx = dx * dx
            dy = dy * dy
            e = math.sqrt(dx + dy) - br - r
            if not any_near or (end[k] == end[k] and (e != e or e < end[k])):  # a NaN wins
                end[k] = e
            if n_starts:
                # geom.segments_distances, less the radii: the gap along the model's path
                sx, sy = starts[k, 0], starts[k, 1]
                ex = x - sx
                ey = y - sy
                length2 = ex * ex + ey * ey
                rel_x = bx - sx
                rel_y = by - sy
                dot = rel_x * ex + rel_y * ey
                t = dot / length2 if length2 > 1e-18 else 0.0
                if t < 0.0:  # np.clip(t, 0.0, 1.0); a NaN stays a NaN
                    t = 0.0
                if t > 1.0:
                    t = 1.0
                qx = bx - (sx + t * ex)
                qy = by - (sy + t * ey)
                qx = qx * qx
                qy = qy * qy
                s = math.sqrt(qx + qy) - br - r
                if not any_near or (seg[k] == seg[k] and (s != s or s < seg[k])):
                    seg[k] = s
        any_near = True
    return seg, end, any_near


def _first_entry(
    pts: Any,
    txy: Any,
    tr: Any,
    tuid: Any,
    uid: int,
    cx: float,
    cy: float,
    hx: float,
    hy: float,
    ux: float,
    uy: float,
    inner: float,
) -> float:  # pragma: no cover - compiled
    first = np.inf
    for b in range(txy.shape[0]):
        bx, by, br = txy[b, 0], txy[b, 1], tr[b]
        if tuid[b] == uid or not (abs(bx - cx) < hx + br and abs(by - cy) < hy + br):
            continue
        reach = br + inner  # closer than this: overlapping by more than the tolerance
        for k in range(pts.shape[0]):
            rx = bx - pts[k, 0]
            ry = by - pts[k, 1]
            along = rx * ux + ry * uy
            half2 = along * along
            half2 = half2 - (rx * rx + ry * ry)
            half2 = half2 + (reach * reach if reach > 0.0 else -1.0)
            cuts = half2 > 0.0
            half = math.sqrt(half2 if cuts else 0.0)
            enters = along - half if cuts and along + half > 0.0 else np.inf
            if first != first:  # NumPy's min: a NaN wins
                continue
            if enters != enters or enters < first:
                first = enters
    return first


def _still_refused(
    who: Any, where: Any, rows: Any, keys: Any, order: Any, xy: Any, r: Any
) -> Any:  # pragma: no cover - compiled
    out = np.zeros(rows.shape[0], dtype=np.bool_)
    n = keys.shape[0]
    if n == 0:
        return out
    for i in range(rows.shape[0]):
        c = rows[i]
        for k in range(who.shape[1]):
            ident = who[c, k]
            if ident < 0:
                continue
            lo, hi = 0, n  # np.searchsorted(keys, ident), side "left"
            while lo < hi:
                mid = (lo + hi) // 2
                if keys[mid] < ident:
                    lo = mid + 1
                else:
                    hi = mid
            at = min(lo, n - 1)
            if keys[at] != ident:
                continue
            b = order[at]
            if xy[b, 0] == where[c, k, 0] and xy[b, 1] == where[c, k, 1] and r[b] == where[c, k, 2]:
                out[i] = True
                break
    return out


def _remember(
    who: Any, where: Any, rows: Any, base: Any, ident: Any, xy: Any, r: Any
) -> None:  # pragma: no cover - compiled
    m = base.shape[1]
    on = False
    for i in range(rows.shape[0]):
        for k in range(m):
            if base[i, k] >= 0:
                on = True
    for i in range(rows.shape[0]):
        c = rows[i]
        for k in range(m):
            b = base[i, k]
            if not on:
                who[c, k] = -1
                continue
            p = b if b >= 0 else 0
            who[c, k] = ident[p] if b >= 0 else -1
            where[c, k, 0] = xy[p, 0]
            where[c, k, 1] = xy[p, 1]
            where[c, k, 2] = r[p]


def _formation(
    xy: Any, r: float, tol: float, reach: float, linked: bool
) -> int:  # pragma: no cover - compiled
    # the unit's own bases: 1 when two overlap by more than ``tol``, else 2 when ``linked``
    # and they are not one group within ``reach`` of each other, else 0; the pairs' edge
    # distances are ``geom.edge_distances``' ((sqrt(dx*dx + dy*dy) - r) - r; the same for
    # (i, j) and (j, i): a difference's square is its negation's)
    n = xy.shape[0]
    adj = np.zeros((n, n), dtype=np.bool_)
    for i in range(n):
        for j in range(i + 1, n):
            dx = xy[i, 0] - xy[j, 0]
            dy = xy[i, 1] - xy[j, 1]
            dx *= dx
            dy *= dy
            d = math.sqrt(dx + dy) - r - r
            if d < -tol:
                return 1
            if d <= reach:
                adj[i, j] = True
                adj[j, i] = True
    if not linked or n <= 1:
        return 0
    # the group of model 0 grown over the adjacency (``geom.coherent``)
    seen = np.zeros(n, dtype=np.bool_)
    stack = np.empty(n, dtype=np.intp)
    seen[0] = True
    stack[0] = 0
    top = 1
    found = 1
    while top:
        top -= 1
        i = stack[top]
        for j in range(n):
            if adj[i, j] and not seen[j]:
                seen[j] = True
                found += 1
                stack[top] = j
                top += 1
    return 0 if found == n else 2


def _contacts(
    pts: Any, r: float, txy: Any, tr: Any, tuid: Any, tside: Any, uid: int, side: int, gap: float
) -> Any:  # pragma: no cover - compiled
    # the rows of the table of another unit of another side that a base of ``pts`` (radius
    # ``r``) comes within ``gap`` of: ``geom.edge_distances``' (sqrt(dx*dx + dy*dy) - r) - tr
    n = txy.shape[0]
    hit = np.zeros(n, dtype=np.bool_)
    for j in range(n):
        if tuid[j] == uid or tside[j] == side:
            continue
        for i in range(pts.shape[0]):
            dx = pts[i, 0] - txy[j, 0]
            dy = pts[i, 1] - txy[j, 1]
            dx *= dx
            dy *= dy
            if math.sqrt(dx + dy) - r - tr[j] <= gap:
                hit[j] = True
                break
    return hit


class Kernels(Protocol):
    """The compiled kernels, typed (numba has no stubs)."""

    def candidate_overlaps(
        self,
        new: FloatArray,
        off: BoolArray,
        starts: FloatArray,
        r: float,
        txy: FloatArray,
        trad: FloatArray,
        tuid: npt.NDArray[np.int64],
        uid: int,
        tol: float,
    ) -> tuple[BoolArray, IntArray]: ...

    def gaps(
        self, new: FloatArray, starts: FloatArray, r: float, oxy: FloatArray, orad: FloatArray
    ) -> tuple[FloatArray, FloatArray, bool]: ...

    def first_entry(
        self,
        pts: FloatArray,
        txy: FloatArray,
        tr: FloatArray,
        tuid: npt.NDArray[np.int64],
        uid: int,
        cx: float,
        cy: float,
        hx: float,
        hy: float,
        ux: float,
        uy: float,
        inner: float,
    ) -> float: ...

    def still_refused(
        self,
        who: npt.NDArray[np.int64],
        where: FloatArray,
        rows: IntArray,
        keys: npt.NDArray[np.int64],
        order: npt.NDArray[np.int64],
        xy: FloatArray,
        r: FloatArray,
    ) -> BoolArray: ...

    def remember(
        self,
        who: npt.NDArray[np.int64],
        where: FloatArray,
        rows: IntArray,
        base: IntArray,
        ident: npt.NDArray[np.int64],
        xy: FloatArray,
        r: FloatArray,
    ) -> None: ...

    def formation(
        self, xy: FloatArray, r: float, tol: float, reach: float, linked: bool
    ) -> int: ...

    def contacts(
        self,
        pts: FloatArray,
        r: float,
        txy: FloatArray,
        tr: FloatArray,
        tuid: npt.NDArray[np.int64],
        tside: npt.NDArray[np.int64],
        uid: int,
        side: int,
        gap: float,
    ) -> BoolArray: ...


class _Compiled:
    __slots__ = (
        "candidate_overlaps",
        "contacts",
        "first_entry",
        "formation",
        "gaps",
        "remember",
        "still_refused",
    )

    def __init__(self) -> None:
        jit = compiler(_gaps)  # the first candidate test pays numba's import
        self.candidate_overlaps = jit(_candidate_overlaps)
        self.gaps = jit(_gaps)
        self.first_entry = jit(_first_entry)
        self.still_refused = jit(_still_refused)
        self.remember = jit(_remember)
        self.formation = jit(_formation)
        self.contacts = jit(_contacts)


_KERNELS: list[Kernels] = []


def kernels() -> Kernels:
    """The compiled kernels (numba imported and the functions compiled, or loaded from the
    disk cache, on the first call)."""
    return first(_KERNELS, _Compiled)


_NO_STARTS = np.zeros((0, 2))


def candidate_overlaps(
    new: FloatArray,
    off: BoolArray,
    starts: FloatArray | None,
    r: float,
    txy: FloatArray,
    trad: FloatArray,
    tuid: npt.NDArray[np.int64],
    uid: int,
    tol: float,
) -> tuple[BoolArray, IntArray]:
    """For candidates ``new`` ``(C, m, 2)`` of unit ``uid``'s models (bases of radius ``r``;
    moved from ``starts`` ``(m, 2)``, or None for a placement), those not ``off`` ``(C,)``:
    ``(C, m)`` whether the model moves (always, for a placement) and its base overlaps one of
    the bases ``txy``/``trad`` of another unit (``tuid``) by more than ``tol`` (§1.3, §4.7),
    and the row of the last such base in the order of x (-1: none; the witness ``place_memo``
    keeps). The bases measured are those near the box of every candidate and start, and within
    the band of x of ``coherency._overlapping`` (to session 37): that NumPy form's answers."""
    return kernels().candidate_overlaps(
        new, off, _NO_STARTS if starts is None else starts, r, txy, trad, tuid, uid, tol
    )


def gaps(
    new: FloatArray, starts: FloatArray | None, r: float, oxy: FloatArray, orad: FloatArray
) -> tuple[list[float] | None, list[float]]:
    """``coherency._gaps``: for each model ``new[k]`` (radius ``r``), the smallest edge gap to
    the bases ``oxy``/``orad`` near the box of every model's path, along its path from
    ``starts[k]`` (None without ``starts``) and at its end; infinity when no base is near. The
    distances are ``geom.centre_distances``' and ``geom.segments_distances``', float for float."""
    seg, end, _ = kernels().gaps(new, _NO_STARTS if starts is None else starts, r, oxy, orad)
    return (None if starts is None else seg.tolist()), end.tolist()


def first_entry(
    pts: FloatArray,
    txy: FloatArray,
    tr: FloatArray,
    tuid: npt.NDArray[np.int64],
    uid: int,
    centre: tuple[float, float],
    half: tuple[float, float],
    way: tuple[float, float],
    inner: float,
) -> float:
    """``coherency.clearly_blocked_translations``' measure: of the bases ``txy``/``tr`` of
    units other than ``uid`` whose centre lies within ``half`` plus their radius of ``centre``
    (by x and by y), the least length along the unit vector ``way`` at which the path of one
    of the models at ``pts`` enters the disc of the base's radius plus ``inner`` (the moving
    radius less the tolerances; infinity: never; NaN when a NaN is measured, as NumPy's
    ``min``)."""
    return float(
        kernels().first_entry(
            pts, txy, tr, tuid, uid, centre[0], centre[1], half[0], half[1], way[0], way[1], inner
        )
    )


def still_refused(
    who: npt.NDArray[np.int64],
    where: FloatArray,
    rows: IntArray,
    keys: npt.NDArray[np.int64],
    order: npt.NDArray[np.int64],
    xy: FloatArray,
    r: FloatArray,
) -> BoolArray:
    """``place_memo.still_refused``: for each candidate of ``rows``, whether one of its
    witnesses ``who`` ``(C, m)`` (a base's identity, -1: none) stands among the identities
    ``keys`` (sorted; ``order`` their rows of ``xy``/``r``) at the very place and radius
    ``where`` ``(C, m, 3)`` it had when it refused the candidate."""
    return kernels().still_refused(who, where, rows, keys, order, xy, r)


def remember(
    who: npt.NDArray[np.int64],
    where: FloatArray,
    rows: IntArray,
    base: IntArray,
    ident: npt.NDArray[np.int64],
    xy: FloatArray,
    r: FloatArray,
) -> None:
    """``place_memo.PlaceQuestion.remember``: writes into ``who`` and ``where``, for the
    candidates ``rows``, the identity (``ident``), centre and radius of each model's witness
    ``base`` (a row of the table, -1: none), as the NumPy form wrote them."""
    kernels().remember(who, where, rows, base, ident, xy, r)


def formation(xy: FloatArray, r: float, tol: float, reach: float, linked: bool) -> int:
    """A unit's own bases at ``xy`` (radius ``r``; §1.3, §4.2 I): 1 when two of them overlap
    by more than ``tol`` (an edge distance below ``-tol``), else 2 when ``linked`` and they
    are not one group each within ``reach`` of another, else 0. The edge distances are
    ``geom.edge_distances``', float for float, and the group ``geom.coherent``'s (``problem_
    positions``' two tests of the formation, issue 10, session 39)."""
    return int(kernels().formation(xy, r, tol, reach, linked))


def contacts(
    pts: FloatArray,
    r: float,
    txy: FloatArray,
    tr: FloatArray,
    tuid: npt.NDArray[np.int64],
    tside: npt.NDArray[np.int64],
    uid: int,
    side: int,
    gap: float,
) -> BoolArray:
    """``Work.contacts``' test (§2.1 Base Contact): which rows of the table (``txy``, ``tr``,
    ``tuid``, ``tside``) are bases of a unit other than ``uid`` on a side other than ``side``
    whose edge comes within ``gap`` of a base at one of ``pts`` (radius ``r``); the edge
    distances are ``geom.edge_distances``', float for float (issue 10, session 39)."""
    return kernels().contacts(pts, r, txy, tr, tuid, tside, uid, side, gap)


def warm() -> None:
    """Import numba and load (or compile) the kernels for the arrays ``coherency`` passes
    them, so that a process about to play many games pays it before the first game."""
    one = np.zeros((1, 2))
    uids = np.zeros(1, dtype=np.int64)
    for starts in (None, one):
        off = np.zeros(1, dtype=bool)
        candidate_overlaps(np.zeros((1, 1, 2)), off, starts, 1.0, one, np.ones(1), uids, 1, 0.1)
        gaps(one, starts, 1.0, one, np.ones(1))
    first_entry(one, one, np.ones(1), uids, 1, (0.0, 0.0), (1.0, 1.0), (1.0, 0.0), 1.0)
    who, where = np.full((1, 1), -1, dtype=np.int64), np.zeros((1, 1, 3))
    rows = np.zeros(1, dtype=np.intp)
    remember(who, where, rows, np.zeros((1, 1), dtype=np.intp), uids, one, np.ones(1))
    still_refused(who, where, rows, uids, uids, one, np.ones(1))
    formation(one, 1.0, 0.1, 2.0, True)
    contacts(one, 1.0, one, np.ones(1), uids, uids, 1, 1, 0.05)
