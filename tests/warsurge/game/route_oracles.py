"""The NumPy forms of the route round's compiled loops (issue 10, session 38, s38-speedr, and
session 39, s39-speedm; ``game/route_jit.py``), kept as the tests' oracles only: no live code
calls them. Each is the form the engine ran before the kernel, written over the kernel's own
arguments."""

from __future__ import annotations

import numpy as np

from warbench.rulesets.warsurge.battlefield.measure import COHERENCY
from warbench.rulesets.warsurge.game import geom
from warbench.rulesets.warsurge.game.route import INF
from warbench.rulesets.warsurge.game.route_formation import BASE_GAP, SLACK

Point = tuple[float, float]


def headings_blocked(
    pts: np.ndarray,
    ux: np.ndarray,
    uy: np.ndarray,
    lengths: np.ndarray,
    r: float,
    lo: float,
    hx: float,
    hy: float,
    txy: np.ndarray,
    tr: np.ndarray,
    tuid: np.ndarray,
    uid: int,
    slack: float,
) -> np.ndarray:
    """``move_prefilter.clearly_blocked_headings`` of session 31 (with ``_bases_near``)."""
    vx = lengths[None, :] * ux[:, None]  # (D, S): the route's own products
    vy = lengths[None, :] * uy[:, None]
    x = pts[None, None, :, 0] + vx[:, :, None]  # (D, S, m): the ends, as the route adds them
    y = pts[None, None, :, 1] + vy[:, :, None]
    off = (x < lo) | (x > hx) | (y < lo)
    off |= y > hy
    out = np.asarray(off.any(axis=2), dtype=bool)
    if not len(pts) or not len(lengths):
        return out
    far = float(lengths.max())
    lo_xy = pts.min(axis=0) - far - r - 1.0
    hi_xy = pts.max(axis=0) + far + r + 1.0
    near = (
        (txy[:, 0] > lo_xy[0] - tr)
        & (txy[:, 0] < hi_xy[0] + tr)
        & (txy[:, 1] > lo_xy[1] - tr)
        & (txy[:, 1] < hi_xy[1] + tr)
        & (tuid != uid)
    )
    if not near.any():
        return out
    oxy, orad = txy[near], tr[near]
    rx = oxy[None, :, 0] - pts[:, 0, None]  # (models, bases): each base from each start
    ry = oxy[None, :, 1] - pts[:, 1, None]
    along = rx[None] * ux[:, None, None] + ry[None] * uy[:, None, None]  # (D, m, B)
    reach = orad + slack  # closer than this: overlapping by more
    half2 = along * along
    half2 -= (rx * rx + ry * ry)[None]
    half2 += np.where(reach > 0.0, reach * reach, -1.0)
    cuts = half2 > 0.0
    half = np.sqrt(np.where(cuts, half2, 0.0))
    enters = np.where(cuts & (along + half > 0.0), along - half, np.inf)
    first = enters.min(axis=(1, 2))  # (D,): where the first path enters a base
    out |= first[:, None] < lengths[None, :]
    return out


def place(
    starts: np.ndarray,
    spots: np.ndarray,
    vals: np.ndarray,
    reach: np.ndarray,
    r: float,
    cap: float,
) -> tuple[Point, ...] | None:
    """``route_formation._place`` of session 35: the greedy placement in NumPy."""
    n = len(starts)
    cand = np.vstack([spots, starts])
    cval = np.concatenate([np.where(vals < cap, INF, vals), np.full(n, INF / 4)])
    creach = np.hstack([reach, np.eye(n, dtype=bool)])
    taken: list[int] = []
    out: list[Point | None] = [None] * n
    free_spot = np.ones(len(cand), dtype=bool)
    link = np.ones(len(cand), dtype=bool)  # within Coherency of a placed model
    left = set(range(n))
    fixed = [k for k in range(n) if not reach[k].any()]
    while left:
        if fixed:
            k = fixed.pop(0)
            s = len(spots) + k
            if not link[s]:
                return None
        else:
            ok = creach & (free_spot & link)[None, :]
            rows = sorted(left)
            sub = np.where(ok[rows], cval[None, :], np.inf)
            flat = int(np.argmin(sub))
            k_row, s = divmod(flat, len(cand))
            if not np.isfinite(sub[k_row, s]) or sub[k_row, s] >= INF:
                return None
            k = rows[k_row]
        p = cand[s]
        out[k] = (float(p[0]), float(p[1]))
        taken.append(s)
        left.discard(k)
        gaps = geom.centre_distances(cand, cand[s : s + 1])[:, 0] - 2 * r
        free_spot &= gaps > BASE_GAP / 2
        now = gaps <= COHERENCY - SLACK
        link = now if len(taken) == 1 else (link | now)
    return tuple(p for p in out if p is not None)


def clear_of(a: np.ndarray, b: np.ndarray, centres: np.ndarray, reach: np.ndarray) -> np.ndarray:
    """``route_formation._clear_of`` of session 35 (compiled in session 39, ``route_jit.reach``).
    For each segment ``a[p]``-``b[p]``: every centre farther than its ``reach`` plus ``SLACK``
    from it (``geom.segment_distances``, all segments at once).

    x and y are kept apart, (segments, centres) arrays: the (segments, centres, 2) arrays and
    their sums over the last axis made NumPy run its inner loop over rows of two (issue 10,
    session 35); the same products, sums and quotients in the same order, so the very floats
    (``tests/warsurge/game/test_speed_player_s35.py`` against the (…, 2) form)."""
    dx, dy = b[:, 0] - a[:, 0], b[:, 1] - a[:, 1]
    length2 = dx * dx + dy * dy
    ex, ey = dx[:, None], dy[:, None]
    rx = centres[None, :, 0] - a[:, 0, None]
    ry = centres[None, :, 1] - a[:, 1, None]
    long = length2 > 1e-18
    safe = np.where(long, length2, 1.0)
    t = np.clip((rx * ex + ry * ey) / safe[:, None], 0.0, 1.0)
    t = np.where(long[:, None], t, 0.0)
    gx = rx - t * ex
    gy = ry - t * ey
    gx *= gx
    gy *= gy
    gx += gy
    gap: np.ndarray = np.sqrt(gx, out=gx) - reach[None, :]
    ok: np.ndarray = np.logical_and.reduce(gap > SLACK, axis=1)
    return ok


def reach(
    starts: np.ndarray,
    spots: np.ndarray,
    limit: float,
    oxy: np.ndarray,
    oreach: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """``route_formation._reach`` before the terrain, as session 38 left it: the distances
    and the moves within ``limit`` clear of the bases ``oxy`` (by ``oreach`` plus ``SLACK``)."""
    d = geom.centre_distances(starts, spots)
    out = d <= limit
    ks, ss = np.nonzero(out)
    if len(oxy) and len(ks):
        out[ks, ss] = clear_of(starts[ks], spots[ss], oxy, oreach)
    return d, out


def paths_blocked(
    pts: np.ndarray,
    vecs: np.ndarray,
    lengths: np.ndarray,
    live: np.ndarray,
    oxy: np.ndarray,
    orad: np.ndarray,
    inner: float,
    out: np.ndarray,
) -> None:
    """``move_prefilter._blocked``'s paths as session 31 wrote them (compiled in session 39,
    ``route_jit.paths_blocked``): sets ``out[c, k]`` where the model at ``pts[k]`` moved by
    ``vecs[c]`` passes nearer a base's centre than its radius plus ``inner``."""
    rx = oxy[None, :, 0] - pts[:, 0, None]  # (models, bases): each base from each start
    ry = oxy[None, :, 1] - pts[:, 1, None]
    ln = lengths[live]
    ux = (vecs[live, 0] / ln)[:, None, None]
    uy = (vecs[live, 1] / ln)[:, None, None]
    along = rx[None] * ux + ry[None] * uy  # (K', models, bases)
    np.clip(along, 0.0, ln[:, None, None], out=along)
    gx = rx[None] - along * ux
    gy = ry[None] - along * uy
    gx *= gx
    gy *= gy
    gx += gy
    reach = orad + inner
    out[live] |= (gx < np.where(reach > 0.0, reach * reach, -1.0)).any(axis=2)
