"""The NumPy forms that sight's compiled kernels replaced (issue 10, session 37, s37-jit;
``battlefield/sight_jit.py``), kept as the tests' oracles only: no live code calls them.
Each is the form as it was in the library, float for float (:func:`closest_gaps`: the nearest
enemies' gaps, ``engine._closest_gaps`` until session 39)."""

from __future__ import annotations

import numpy as np

from warbench.rulesets.warsurge.battlefield.geometry import collinear_overlap, segment_crossings

FloatArray = np.ndarray


def across_both(
    a: FloatArray, b: FloatArray, ra: FloatArray, rb: FloatArray, s: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """``_across(a, b, ra, s)`` and ``_across(b, a, rb, s)``, float for float: the direction
    from ``b`` to ``a`` is the negated one (negation is exact), so the normal is too, except
    where the centres meet (both take the same fallback)."""
    d = b - a
    length = np.hypot(d[:, 0], d[:, 1])
    # no centres meet (nearly always): the same floats, fewer NumPy calls (``> 0``, not
    # ``all``: a NaN distance takes the fallback as before, s33-review)
    if (length > 0).all():
        u = d / length[:, None]
        n = np.empty_like(u)
        np.negative(u[:, 1], out=n[:, 0])
        n[:, 1] = u[:, 0]
        nb = -n
    else:
        safe = np.where(length > 0, length, 1.0)
        u = np.where(length[:, None] > 0, d / safe[:, None], np.array([1.0, 0.0]))
        n = np.stack([-u[:, 1], u[:, 0]], axis=1)
        nb = np.where(length[:, None] > 0, -n, n)
    pa: FloatArray = a[:, None, :] + (ra[:, None] * s[None, :])[:, :, None] * n[:, None, :]
    pb: FloatArray = b[:, None, :] + (rb[:, None] * s[None, :])[:, :, None] * nb[:, None, :]
    return pa, pb


def edges_cross_lines(p0: np.ndarray, p1: np.ndarray, e0: np.ndarray, e1: np.ndarray) -> np.ndarray:
    """Session 34's ``sight._edges_cross_lines``: ``(E, L)`` whether edge ``e`` meets line ``l``
    (the edges as rows of ``geometry.segment_crossings``)."""
    ax, ay = p0[:, 0], p0[:, 1]
    sx, sy = p1[:, 0] - ax, p1[:, 1] - ay
    bx, by = e0[:, 0, None], e0[:, 1, None]
    rx, ry = e1[:, 0, None] - bx, e1[:, 1, None] - by
    hit, flat = segment_crossings(ax, ay, sx, sy, bx, by, rx, ry, edges_may_be_points=False)
    if flat.any():
        e, li = np.nonzero(flat)
        apart = ~collinear_overlap(p0[li], p1[li], e0[e], e1[e])
        hit[e[apart], li[apart]] = False
    return hit


def corridor_gaps(start: FloatArray, end: FloatArray, points: FloatArray) -> FloatArray:
    """Distance from each point to the segment ``start``-``end`` (the corridor's), for the
    culling of :class:`_Scene` alone: :func:`_discs_lines` with one line (its tests keep 0.01"
    to spare, so the last bit of a distance cannot change what is kept from what any line can
    meet, only how the work is cut; issue 10, session 34)."""
    gaps: FloatArray = discs_lines(start[None, :], end[None, :], points)[:, 0]
    return gaps


def lines_discs(p0: FloatArray, p1: FloatArray, c: FloatArray) -> FloatArray:
    """``(Q, K, B)``: distance from each of the ``K`` segments ``p0[q, k] -> p1[q, k]`` to
    each point ``c[b]``; the very numbers of ``sight._segment_distances`` (its dot products
    written out as ``x * x' + y * y'``, which is what its sums of two products give)."""
    dx = p1[..., 0] - p0[..., 0]  # (Q, K)
    dy = p1[..., 1] - p0[..., 1]
    wx = c[None, None, :, 0] - p0[..., 0, None]  # (Q, K, B)
    wy = c[None, None, :, 1] - p0[..., 1, None]
    dd = dx * dx + dy * dy
    t = (wx * dx[..., None] + wy * dy[..., None]) / np.where(dd > 0, dd, 1.0)[..., None]
    # ``np.clip(t, 0.0, 1.0, out=t)`` without its wrappers: where it would keep a -0.0 this
    # gives 0.0 or -0.0, and ``w - t * d`` is then squared, so the distances are the very
    # same floats (issue 10, session 34)
    np.maximum(t, 0.0, out=t)
    np.minimum(t, 1.0, out=t)
    wx -= t * dx[..., None]
    wy -= t * dy[..., None]
    wx *= wx
    wy *= wy
    wx += wy
    out: FloatArray = np.sqrt(wx, out=wx)
    return out


def discs_lines(p0: FloatArray, p1: FloatArray, c: FloatArray) -> FloatArray:
    """``(B, L)``: distance from each point ``c[b]`` to each segment ``p0[l] -> p1[l]``:
    ``lines_discs`` with the points as rows (the very floats, element by element: the
    same operations in the same order), so each broadcast loops over the few points and runs
    along the many lines (issue 10, session 34: a broadcast costs per row of its loop)."""
    x0, y0 = p0[:, 0], p0[:, 1]
    dx = p1[:, 0] - x0  # (L,)
    dy = p1[:, 1] - y0
    wx = c[:, 0, None] - x0  # (B, L)
    wy = c[:, 1, None] - y0
    dd = dx * dx + dy * dy
    t = wx * dx
    t += wy * dy
    t /= np.where(dd > 0, dd, 1.0)
    np.maximum(t, 0.0, out=t)  # as in lines_discs: a -0.0 kept or not is squared away
    np.minimum(t, 1.0, out=t)
    wx -= t * dx
    wy -= t * dy
    wx *= wx
    wy *= wy
    wx += wy
    out: FloatArray = np.sqrt(wx, out=wx)
    return out


def closest_gaps(a: FloatArray, ra: float, b: FloatArray, rb: FloatArray) -> FloatArray:
    """For each base of ``b``, its least edge distance to a base of ``a`` (radius ``ra``):
    ``geom.edge_distances(a, ra, b, rb).min(axis=0)`` to the last bit, with the least squared
    centre distance taken first. The square root and the subtraction of the radii keep the
    order of the floats (both are correctly rounded, so monotone), so the least of the rooted
    and reduced distances is the root, reduced, of the least square (issue 10, session 32: one
    row of roots and subtractions, not a matrix of them)."""
    dx = np.subtract.outer(a[:, 0], b[:, 0])
    dy = np.subtract.outer(a[:, 1], b[:, 1])
    dx *= dx
    dy *= dy
    dx += dy
    d = np.minimum.reduce(dx, axis=0) if len(dx) > 1 else dx[0]
    np.sqrt(d, out=d)
    d -= ra
    d -= rb
    return d
