"""Sight's lines as compiled loops (numba): the kernels of ``sight._Scene.lines_hit``, a
sight question's culling (``scene_near``, ``discs_in``) and the nearest enemies' gaps
(``closest_gaps``, ``engine.nearest_enemies``: session 39).

Each function here answers, in one call and one loop, what ``lines_hit`` asked of NumPy in
about twenty calls on small arrays (issue 10, session 37, s37-jit: NumPy's cost per call was
most of sight's lines). They compute the very floats of the NumPy forms they replaced (the same
operations in the same order, IEEE ``+ - * /`` and ``sqrt``, no ``fastmath``, no reduction
reordered), and the test ``tests/warsurge/game/test_speed_sight_jit.py`` holds them to those
forms bit for bit on random and integer-grid cases.

numba is imported on the first call (:func:`kernels`), not with this module, so a command
that never asks a question of sight (``warbench --help``, ``warbench cost``) does not pay its
import (about a second on the shared machine). The compiled code is kept on disk
(``cache=True``: the package's ``__pycache__``, or numba's user cache directory when that is
not writable, ``NUMBA_CACHE_DIR`` to choose one), so only the first run after an install
compiles; where no cache directory is writable at all, each process compiles (a few
seconds) and the answers are the same.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

import numpy as np

from warbench.rulesets.warsurge.battlefield.geometry import EPS, BoolArray, FloatArray, IntArray

__all__ = [
    "JIT_OPTIONS",
    "Kernels",
    "closest_gaps",
    "compiler",
    "discs_in",
    "edges_cross_lines",
    "first",
    "kernels",
    "lines_worth",
    "near_corridor",
    "pair_lines",
    "rays",
    "scene_near",
    "warm",
]

#: numba's options for every kernel: kept on disk, no ``fastmath`` (IEEE floats, NumPy's)
JIT_OPTIONS: dict[str, Any] = {"cache": True, "nogil": True}

_K = TypeVar("_K")
_MAKE_LOCK = threading.RLock()  # a warm-up thread and a first question: kernels made once


def compiler(probe: Callable[..., Any]) -> Callable[[Callable[..., Any]], Any]:
    """numba's ``njit`` with :data:`JIT_OPTIONS`, or without its disk cache when no cache
    directory is writable (numba raises ``RuntimeError`` as ``probe`` is wrapped; the kernels
    are then compiled anew in each process). Imports numba: its first caller pays it (sight's,
    coherency's and the routes' kernels, sessions 37-38)."""
    from numba import njit

    try:
        jit = njit(**JIT_OPTIONS)
        jit(probe)  # a cache locator is found (or not) as a function is wrapped
    except RuntimeError:
        jit = njit(**{**JIT_OPTIONS, "cache": False})
    return jit  # type: ignore[no-any-return]


def first(made: list[_K], make: Callable[[], _K]) -> _K:
    """``made[0]``, made by ``make`` on the first call, and made once even when a warm-up
    thread (``route_jit.warm`` at ``warbench serve``) and a first question ask together."""
    if not made:
        with _MAKE_LOCK:
            if not made:
                made.append(make())
    return made[0]


def _edges_cross_lines(
    p0: Any, p1: Any, e0: Any, e1: Any, eps: float
) -> tuple[Any, int]:  # pragma: no cover - compiled
    n_lines, n_edges = p0.shape[0], e0.shape[0]
    hit = np.zeros((n_edges, n_lines), dtype=np.bool_)
    count = 0
    for e in range(n_edges):
        bx, by = e0[e, 0], e0[e, 1]
        ex1, ey1 = e1[e, 0], e1[e, 1]
        rx = ex1 - bx
        ry = ey1 - by
        for li in range(n_lines):
            ax, ay = p0[li, 0], p0[li, 1]
            px1, py1 = p1[li, 0], p1[li, 1]
            sx = px1 - ax
            sy = py1 - ay
            wx = ax - bx
            wy = ay - by
            # geometry.segment_crossings, product for product
            d1 = rx * wy
            d1 = d1 - ry * wx
            rs = rx * sy
            d2 = d1 + rs
            sr = ry * sx
            d2 = d2 - sr
            d3 = sr - rs
            d4 = sx * wy
            d4 = d4 - sy * wx
            d5 = d4 - d3
            if not (d1 * d2 <= 0 and d4 * d5 <= 0):
                continue
            # collinear: they meet when they overlap (geometry.collinear_overlap, by axis)
            if (
                d1 == 0
                and d2 == 0
                and not (
                    min(ax, px1) <= max(bx, ex1) + eps
                    and min(bx, ex1) <= max(ax, px1) + eps
                    and min(ay, py1) <= max(by, ey1) + eps
                    and min(by, ey1) <= max(ay, py1) + eps
                )
            ):
                continue
            hit[e, li] = True
            count += 1
    return hit, count


def _lines_worth(
    cross: Any, worth: Any, p0: Any, p1: Any, c: Any, lim: Any
) -> Any:  # pragma: no cover - compiled
    n_edges, n_lines = cross.shape
    out = np.zeros(n_lines, dtype=np.intp)
    for li in range(n_lines):
        # the largest worth of the edges the line crosses, 0 for the others: the very
        # ``np.where(cross, worth[:, None], 0).max(axis=0)``
        if n_edges:
            best = worth[0] if cross[0, li] else 0
            for e in range(1, n_edges):
                v = worth[e] if cross[e, li] else 0
                if v > best:
                    best = v
            out[li] = best
        if out[li] >= 1:  # a base's worth is 1: it cannot raise the line's answer
            continue
        # sight._discs_lines, float for float, against each blocker's radius less EPS
        x0, y0 = p0[li, 0], p0[li, 1]
        dx = p1[li, 0] - x0
        dy = p1[li, 1] - y0
        dd = dx * dx + dy * dy
        den = dd if dd > 0 else 1.0
        for b in range(c.shape[0]):
            wx = c[b, 0] - x0
            wy = c[b, 1] - y0
            t = wx * dx
            t = t + wy * dy
            t = t / den
            if t < 0.0:  # np.maximum(t, 0.0), np.minimum(t, 1.0); a NaN stays a NaN
                t = 0.0
            if t > 1.0:
                t = 1.0
            gx = wx - t * dx
            gy = wy - t * dy
            gx = gx * gx
            gy = gy * gy
            if math.sqrt(gx + gy) < lim[b]:
                out[li] = 1
                break
        if c.shape[0] and out[li] < 0:  # np.maximum(out, any over the bases): 0 at least
            out[li] = 0
    return out


def _pair_lines(
    axy: Any, ar: Any, txy: Any, tr: Any, ia: Any, it: Any, s: Any, centre: bool
) -> tuple[Any, Any]:  # pragma: no cover - compiled
    n_pairs, k = ia.shape[0], s.shape[0]
    first = 1 if centre else 0
    n_lines = first + k * k
    p0 = np.empty((n_pairs, n_lines, 2))
    p1 = np.empty((n_pairs, n_lines, 2))
    pa = np.empty((k, 2))
    pt = np.empty((k, 2))
    for q in range(n_pairs):
        i, j = ia[q], it[q]
        ax, ay = axy[i, 0], axy[i, 1]
        bx, by = txy[j, 0], txy[j, 1]
        # sight._across_both: the unit normal of the centre line, negated at the target
        dx = bx - ax
        dy = by - ay
        length = math.hypot(dx, dy)
        if length > 0:
            ux = dx / length
            uy = dy / length
            nx, ny = -uy, ux
            mx, my = -nx, -ny
        else:  # the centres meet (or a NaN): both ends take the same fallback
            ux, uy = 1.0, 0.0
            nx, ny = -uy, ux
            mx, my = nx, ny
        ra, rt = ar[i], tr[j]
        for m in range(k):
            fa = ra * s[m]
            ft = rt * s[m]
            pa[m, 0] = ax + fa * nx
            pa[m, 1] = ay + fa * ny
            pt[m, 0] = bx + ft * mx
            pt[m, 1] = by + ft * my
        if centre:  # the centre line first (sight._samples)
            p0[q, 0, 0], p0[q, 0, 1] = ax, ay
            p1[q, 0, 0], p1[q, 0, 1] = bx, by
        for m in range(k):  # from each point across the attacker's base to each across the target's
            for w in range(k):
                li = first + m * k + w
                p0[q, li, 0], p0[q, li, 1] = pa[m, 0], pa[m, 1]
                p1[q, li, 0], p1[q, li, 1] = pt[w, 0], pt[w, 1]
    return p0, p1


def _rays(
    axy: Any, txy: Any, tr: Any, ia: Any, it: Any, s: Any
) -> tuple[Any, Any]:  # pragma: no cover - compiled
    n_pairs, k = ia.shape[0], s.shape[0]
    p0 = np.empty((n_pairs, k, 2))
    p1 = np.empty((n_pairs, k, 2))
    for q in range(n_pairs):
        i, j = ia[q], it[q]
        ax, ay = axy[i, 0], axy[i, 1]
        bx, by = txy[j, 0], txy[j, 1]
        # sight._across(txy[it], axy[ia], tr[it], s): the normal of the line to the attacker
        dx = ax - bx
        dy = ay - by
        length = math.hypot(dx, dy)
        if length > 0:
            ux = dx / length
            uy = dy / length
        else:  # the centres meet (or a NaN): the fallback direction
            ux, uy = 1.0, 0.0
        nx, ny = -uy, ux
        rt = tr[j]
        for m in range(k):
            f = rt * s[m]
            p0[q, m, 0], p0[q, m, 1] = ax, ay
            p1[q, m, 0] = bx + f * nx
            p1[q, m, 1] = by + f * ny
    return p0, p1


def _near_corridor(
    start: Any, end: Any, reach: float, xy: Any, r: Any
) -> Any:  # pragma: no cover - compiled
    x0, y0 = start[0], start[1]
    dx = end[0] - x0
    dy = end[1] - y0
    dd = dx * dx + dy * dy
    den = dd if dd > 0 else 1.0
    keep = np.zeros(xy.shape[0], dtype=np.bool_)
    for b in range(xy.shape[0]):
        # sight._discs_lines with the one line, float for float
        wx = xy[b, 0] - x0
        wy = xy[b, 1] - y0
        t = wx * dx
        t = t + wy * dy
        t = t / den
        if t < 0.0:
            t = 0.0
        if t > 1.0:
            t = 1.0
        gx = wx - t * dx
        gy = wy - t * dy
        gx = gx * gx
        gy = gy * gy
        keep[b] = math.sqrt(gx + gy) <= (r[b] + reach) + 0.01
    return keep


def _scene_near(
    axy: Any, ar: Any, txy: Any, tr: Any, bxy: Any, br: Any, pxy: Any, plim: Any
) -> Any:  # pragma: no cover - compiled
    # sight._corridor: each group's ``_centroid_spread`` (float for float: the rows summed in
    # order, the largest squared distance from the centroid; Python's ``max``, a later term
    # only when greater), the larger spread plus the largest radius
    n = axy.shape[0]
    sx = axy[0, 0]
    sy = axy[0, 1]
    for i in range(1, n):
        sx += axy[i, 0]
        sy += axy[i, 1]
    x0 = sx / n
    y0 = sy / n
    most = 0.0
    for i in range(n):
        ex = axy[i, 0] - x0
        ey = axy[i, 1] - y0
        ex = ex * ex
        ey = ey * ey
        v = ex + ey
        if i == 0 or v > most:
            most = v
    sa = math.sqrt(most)
    n = txy.shape[0]
    sx = txy[0, 0]
    sy = txy[0, 1]
    for i in range(1, n):
        sx += txy[i, 0]
        sy += txy[i, 1]
    x1 = sx / n
    y1 = sy / n
    most = 0.0
    for i in range(n):
        ex = txy[i, 0] - x1
        ey = txy[i, 1] - y1
        ex = ex * ex
        ey = ey * ey
        v = ex + ey
        if i == 0 or v > most:
            most = v
    st = math.sqrt(most)
    spread = sa
    if st > spread:
        spread = st
    radius = ar[0]
    for i in range(1, ar.shape[0]):
        if ar[i] > radius:
            radius = ar[i]
    rt = tr[0]
    for i in range(1, tr.shape[0]):
        if tr[i] > rt:
            rt = tr[i]
    if rt > radius:
        radius = rt
    reach = spread + radius
    # _near_corridor's loop (its very floats) for the blockers, then the pieces' circles
    dx = x1 - x0
    dy = y1 - y0
    dd = dx * dx + dy * dy
    den = dd if dd > 0 else 1.0
    keep = np.zeros(bxy.shape[0], dtype=np.bool_)
    kept = 0
    for b in range(bxy.shape[0]):
        wx = bxy[b, 0] - x0
        wy = bxy[b, 1] - y0
        t = wx * dx
        t = t + wy * dy
        t = t / den
        if t < 0.0:
            t = 0.0
        if t > 1.0:
            t = 1.0
        gx = wx - t * dx
        gy = wy - t * dy
        gx = gx * gx
        gy = gy * gy
        if math.sqrt(gx + gy) <= (br[b] + reach) + 0.01:
            keep[b] = True
            kept += 1
    near = np.empty(pxy.shape[0], dtype=np.intp)
    k = 0
    for b in range(pxy.shape[0]):
        wx = pxy[b, 0] - x0
        wy = pxy[b, 1] - y0
        t = wx * dx
        t = t + wy * dy
        t = t / den
        if t < 0.0:
            t = 0.0
        if t > 1.0:
            t = 1.0
        gx = wx - t * dx
        gy = wy - t * dy
        gx = gx * gx
        gy = gy * gy
        if math.sqrt(gx + gy) <= (plim[b] + reach) + 0.01:
            near[k] = b
            k += 1
    return keep, kept, near[:k]


def _discs_in(
    pieces: Any, xy: Any, r: Any, centre: Any, reach: Any, e0: Any, e1: Any, eps: float
) -> Any:  # pragma: no cover - compiled
    # geometry.BoardGeometry.discs_in, float for float: a piece whose bounding circle no base
    # reaches is out; else a base is in when its centre is inside (crossings to its left, an
    # odd count) or an edge passes closer than its radius less eps
    n = xy.shape[0]
    npieces = pieces.shape[0]
    nedges = e0.shape[1]
    out = np.zeros((n, npieces), dtype=np.bool_)
    for j in range(npieces):
        p = pieces[j]
        close = False
        for i in range(n):
            gap = math.hypot(xy[i, 0] - centre[p, 0], xy[i, 1] - centre[p, 1])
            if gap < reach[p] + r[i]:
                close = True
        if not close:
            continue
        for i in range(n):
            px = xy[i, 0]
            py = xy[i, 1]
            crossings = 0
            least = math.inf
            nan = False
            for e in range(nedges):
                x0 = e0[p, e, 0]
                y0 = e0[p, e, 1]
                x1 = e1[p, e, 0]
                y1 = e1[p, e, 1]
                dy = y1 - y0 if y1 != y0 else 1.0
                xint = (py - y0) * (x1 - x0)
                xint = xint / dy
                xint = x0 + xint
                if ((y0 > py) != (y1 > py)) and px < xint:
                    crossings += 1
                dx0 = x1 - x0
                dy0 = y1 - y0
                dd = dx0 * dx0 + dy0 * dy0
                wx = px - x0
                wy = py - y0
                t = wx * dx0 + wy * dy0
                t = t / (dd if dd > 0 else 1.0)
                if t < 0.0:
                    t = 0.0
                if t > 1.0:
                    t = 1.0
                ex = wx - t * dx0
                ey = wy - t * dy0
                v = math.sqrt(ex * ex + ey * ey)
                if v != v:
                    nan = True
                elif v < least:
                    least = v
            near = (not nan) and least < r[i] - eps
            out[i, j] = crossings % 2 == 1 or near
    return out


def _closest_gaps(a: Any, ra: float, b: Any, rb: Any, starts: Any) -> Any:  # pragma: no cover
    # the engine's NumPy form until session 39 (the outer differences' least square, rooted,
    # less the radii) and np.minimum.reduceat over each unit's rows, float for float:
    # the least squared centre distance of each base of b to a base of a (a NaN wins, as in
    # np.minimum), rooted, less ra, less its radius; the least of a unit's rows (likewise)
    na = a.shape[0]
    nb = b.shape[0]
    ns = starts.shape[0]
    out = np.empty(ns)
    for u in range(ns):
        lo = starts[u]
        hi = starts[u + 1] if u + 1 < ns else nb
        best = 0.0
        for j in range(lo, hi):
            least = 0.0
            for i in range(na):
                dx = a[i, 0] - b[j, 0]
                dy = a[i, 1] - b[j, 1]
                dx = dx * dx
                dy = dy * dy
                v = dx + dy
                if i == 0 or (least == least and (v != v or v < least)):
                    least = v
            g = math.sqrt(least)
            g = g - ra
            g = g - rb[j]
            if j == lo or (best == best and (g != g or g < best)):
                best = g
        out[u] = best
    return out


class Kernels(Protocol):
    """The compiled kernels, typed (numba has no stubs)."""

    def edges_cross_lines(
        self, p0: FloatArray, p1: FloatArray, e0: FloatArray, e1: FloatArray, eps: float
    ) -> tuple[BoolArray, int]: ...

    def lines_worth(
        self,
        cross: BoolArray,
        worth: IntArray,
        p0: FloatArray,
        p1: FloatArray,
        c: FloatArray,
        lim: FloatArray,
    ) -> IntArray: ...

    def pair_lines(
        self,
        axy: FloatArray,
        ar: FloatArray,
        txy: FloatArray,
        tr: FloatArray,
        ia: IntArray,
        it: IntArray,
        s: FloatArray,
        centre: bool,
    ) -> tuple[FloatArray, FloatArray]: ...

    def rays(
        self,
        axy: FloatArray,
        txy: FloatArray,
        tr: FloatArray,
        ia: IntArray,
        it: IntArray,
        s: FloatArray,
    ) -> tuple[FloatArray, FloatArray]: ...

    def near_corridor(
        self, start: FloatArray, end: FloatArray, reach: float, xy: FloatArray, r: FloatArray
    ) -> BoolArray: ...

    def scene_near(
        self,
        axy: FloatArray,
        ar: FloatArray,
        txy: FloatArray,
        tr: FloatArray,
        bxy: FloatArray,
        br: FloatArray,
        pxy: FloatArray,
        plim: FloatArray,
    ) -> tuple[BoolArray, int, IntArray]: ...

    def closest_gaps(
        self, a: FloatArray, ra: float, b: FloatArray, rb: FloatArray, starts: IntArray
    ) -> FloatArray: ...

    def discs_in(
        self,
        pieces: IntArray,
        xy: FloatArray,
        r: FloatArray,
        centre: FloatArray,
        reach: FloatArray,
        e0: FloatArray,
        e1: FloatArray,
        eps: float,
    ) -> BoolArray: ...


class _Compiled:
    __slots__ = (
        "closest_gaps",
        "discs_in",
        "edges_cross_lines",
        "lines_worth",
        "near_corridor",
        "pair_lines",
        "rays",
        "scene_near",
    )

    def __init__(self) -> None:
        jit = compiler(_near_corridor)  # the first question of sight pays numba's import
        self.edges_cross_lines = jit(_edges_cross_lines)
        self.lines_worth = jit(_lines_worth)
        self.pair_lines = jit(_pair_lines)
        self.rays = jit(_rays)
        self.near_corridor = jit(_near_corridor)
        self.scene_near = jit(_scene_near)
        self.discs_in = jit(_discs_in)
        self.closest_gaps = jit(_closest_gaps)


_KERNELS: list[Kernels] = []


def kernels() -> Kernels:
    """The compiled kernels (numba imported and the functions compiled, or loaded from the
    disk cache, on the first call)."""
    return first(_KERNELS, _Compiled)


def edges_cross_lines(
    p0: FloatArray, p1: FloatArray, e0: FloatArray, e1: FloatArray
) -> tuple[BoolArray, int]:
    """``(E, L)``: whether edge ``e0[e] -> e1[e]`` (none of zero length) meets segment
    ``p0[l] -> p1[l]`` (touching counts; collinear ones when they overlap within
    :data:`~.geometry.EPS`), and how many pairs meet: ``geometry.segment_crossings`` and
    ``geometry.collinear_overlap``, float for float, in one loop. Arrays C-ordered ``(n, 2)``."""
    return kernels().edges_cross_lines(p0, p1, e0, e1, EPS)


def lines_worth(
    cross: BoolArray,
    worth: IntArray,
    p0: FloatArray,
    p1: FloatArray,
    c: FloatArray,
    lim: FloatArray,
) -> IntArray:
    """``(L,)``: for each line ``p0[l] -> p1[l]``, the largest ``worth[e]`` of the edges it
    crosses (``cross``, ``(E, L)``; 0 when none), raised to 1 when the line passes closer than
    ``lim[b]`` to a blocker's centre ``c[b]`` (a base: ``lim`` its radius less
    :data:`~.geometry.EPS`). The distances are ``sight._discs_lines``'s, float for float."""
    return kernels().lines_worth(cross, worth, p0, p1, c, lim)


def pair_lines(
    axy: FloatArray,
    ar: FloatArray,
    txy: FloatArray,
    tr: FloatArray,
    ia: IntArray,
    it: IntArray,
    s: FloatArray,
    centre: bool,
) -> tuple[FloatArray, FloatArray]:
    """``(Q, K, 2)`` starts and ends of the lines of sight between round bases ``axy[ia[q]]``
    (radius ``ar[ia[q]]``) and ``txy[it[q]]``: from each of the points at fractions ``s`` of
    the radius across the attacker's base, perpendicular to the centre line, to each across the
    target's; with ``centre``, the centre line first. ``sight._across_both`` and
    ``sight._Scene._samples``, float for float, in one loop."""
    return kernels().pair_lines(axy, ar, txy, tr, ia, it, s, centre)


def rays(
    axy: FloatArray, txy: FloatArray, tr: FloatArray, ia: IntArray, it: IntArray, s: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """``(Q, len(s), 2)`` starts and ends of the cover rays (§5.6) from attacker ``axy[ia[q]]``'s
    centre to the points at fractions ``s`` of the radius across round target base
    ``txy[it[q]]`` (radius ``tr[it[q]]``), perpendicular to the line between their centres:
    ``sight._across`` and the attacker's centre repeated, float for float, in one loop."""
    return kernels().rays(axy, txy, tr, ia, it, s)


def near_corridor(
    start: FloatArray, end: FloatArray, reach: float, xy: FloatArray, r: FloatArray
) -> BoolArray:
    """``(n,)``: whether the centre ``xy[b]`` lies within ``(r[b] + reach) + 0.01`` of the
    segment ``start -> end`` (a sight question's corridor, ``sight._Scene``), the distance
    ``sight._discs_lines``'s float, in one loop."""
    return kernels().near_corridor(start, end, reach, xy, r)


def scene_near(
    axy: FloatArray,
    ar: FloatArray,
    txy: FloatArray,
    tr: FloatArray,
    bxy: FloatArray,
    br: FloatArray,
    pxy: FloatArray,
    plim: FloatArray,
) -> tuple[BoolArray, int, IntArray]:
    """A sight question's culling (``sight._Scene``) in one loop: the corridor
    (``sight._corridor``: the centroids of the attacking and targeted bases, the larger spread
    plus the largest radius) and :func:`near_corridor` of the blockers ``bxy`` (radii ``br``)
    and of the pieces' bounding circles ``pxy`` (``plim``), float for float. Returns the
    blockers kept (a mask and its count) and the positions of the pieces near (``nonzero``'s
    indices). Every array C-ordered and not empty but ``bxy`` and ``pxy`` (issue 10, session
    39: one call for the Python sums and two kernels' calls)."""
    return kernels().scene_near(axy, ar, txy, tr, bxy, br, pxy, plim)


def closest_gaps(
    a: FloatArray, ra: float, b: FloatArray, rb: FloatArray, starts: IntArray
) -> FloatArray:
    """For each group of ``b``'s rows (a unit's models, from ``starts[u]`` to the next
    start), the least edge gap between one of them (radii ``rb``) and a base of ``a`` (radius
    ``ra``): the nearest enemies' distances (``engine._nearest_enemies``), float for float
    the NumPy form it replaced (``edge_distances(...).min(axis=0)``, the least square first,
    then ``np.minimum.reduceat``; the tests' oracle), in one loop (issue 10, session 39).
    ``starts`` increasing, the first 0; no group empty."""
    return kernels().closest_gaps(a, ra, b, rb, starts)


def discs_in(
    pieces: IntArray,
    xy: FloatArray,
    r: FloatArray,
    centre: FloatArray,
    reach: FloatArray,
    e0: FloatArray,
    e1: FloatArray,
) -> BoolArray:
    """``(n, len(pieces))``: :meth:`~.geometry.BoardGeometry.discs_in` (which bases overlap
    which of the board's ``pieces``: a centre inside, or an edge closer than the radius less
    :data:`~.geometry.EPS`; touching is not in), float for float, in one loop over the board's
    bounding circles ``centre``/``reach`` and padded edges ``e0``/``e1`` (issue 10, session 39:
    the twenty-odd NumPy calls on ``(bases, pieces, edges)`` arrays of a sight question)."""
    return kernels().discs_in(pieces, xy, r, centre, reach, e0, e1, EPS)


def warm() -> None:
    """Import numba and load (or compile) the kernels for the arrays sight passes them
    (C-ordered floats; the board's cached edges are read-only), so that a process about to
    play many games (a benchmark, a batch, the web app) pays it before the first game."""
    lines = np.zeros((1, 2))
    for edges in (np.ones((1, 2)), _read_only(np.ones((1, 2)))):
        cross, _ = edges_cross_lines(lines, lines, edges, edges)
        lines_worth(cross, np.ones(1, dtype=np.intp), lines, lines, edges, np.ones(1))
    one = np.zeros(1, dtype=np.intp)
    for centre in (False, True):
        pair_lines(lines, np.ones(1), lines, np.ones(1), one, one, np.ones(1), centre)
    rays(lines, lines, np.ones(1), one, one, np.ones(1))
    near_corridor(np.zeros(2), np.ones(2), 1.0, lines, np.ones(1))
    edges = np.zeros((1, 1, 2))
    closest_gaps(lines, 0.5, lines, np.ones(1), one)
    discs_in(one, lines, np.ones(1), lines, np.ones(1), edges, edges)
    for circles in (lines, _read_only(np.zeros((1, 2)))):  # the board's piece circles: read-only
        scene_near(lines, np.ones(1), lines, np.ones(1), lines, np.ones(1), circles, np.ones(1))


def _read_only(a: FloatArray) -> FloatArray:
    a.setflags(write=False)
    return a
