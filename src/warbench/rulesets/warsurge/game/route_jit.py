"""The Move's route round as compiled loops (numba): the rigid ends' prefilter and the greedy
placement of a unit model by model.

A routed Move (``game.route_move``, Core Rules 001_d3f5e425c5e1196d.txt §4.1-4.7) asks two
questions of NumPy in many calls on small arrays (issue 10, session 38, s38-speedr):

* :func:`headings_blocked`: which of the rigid ends (every heading by every length) certainly
  fail, ``move_prefilter.clearly_blocked_headings``'s answer (about thirty NumPy calls);
* :func:`place`: the unit's models placed one by one on the lattice's spots,
  ``route_formation._place``'s greedy loop (a dozen NumPy calls a model);
* :func:`reach`: which spots each model's straight move reaches, clear of other units' bases
  (``route_formation._reach`` before the terrain and its ``_clear_of``; session 39);
* :func:`paths_blocked`: which models' own moves of a charge pass through another unit's
  base (``move_prefilter._blocked``'s paths, ``movement.plan_engage``'s followers; session
  39).

Each kernel computes the very floats of the NumPy form it replaced (the same operations in the
same order, IEEE ``+ - * /`` and ``sqrt``, no ``fastmath``, no sum reordered), and the test
``tests/warsurge/game/test_speed_route_jit.py`` holds them to those forms (kept there as the
oracles) bit for bit on many random cases.

numba is imported by the first call (:func:`kernels`), as ``battlefield.sight_jit`` does, so a
command that never moves a unit does not pay its import; the compiled code is kept on disk
(``cache=True``, ``sight_jit.JIT_OPTIONS``). :func:`warm` loads them (and sight's) ahead of a
game: ``warbench serve`` and ``warbench play`` call it in the background (the player's first
Move does not wait for numba).
"""

from __future__ import annotations

import math
from typing import Any, Protocol

import numpy as np

from warbench.rulesets.warsurge.battlefield import sight_jit
from warbench.rulesets.warsurge.battlefield.geometry import BoolArray, FloatArray, IntArray

__all__ = ["Kernels", "headings_blocked", "kernels", "paths_blocked", "place", "reach", "warm"]


def _headings_blocked(
    pts: Any,
    ux: Any,
    uy: Any,
    lengths: Any,
    r: float,
    lo: float,
    hx: float,
    hy: float,
    txy: Any,
    tr: Any,
    tuid: Any,
    uid: int,
    slack: float,
) -> Any:  # pragma: no cover - compiled
    n_d, n_s, m = ux.shape[0], lengths.shape[0], pts.shape[0]
    out = np.zeros((n_d, n_s), dtype=np.bool_)
    # off the battlefield: every model's end, as the route adds them (``length * u``, then
    # the start plus it)
    for d in range(n_d):
        for s in range(n_s):
            vx = lengths[s] * ux[d]
            vy = lengths[s] * uy[d]
            for k in range(m):
                x = pts[k, 0] + vx
                y = pts[k, 1] + vy
                if x < lo or x > hx or y < lo or y > hy:
                    out[d, s] = True
                    break
    if m == 0 or n_s == 0:
        return out
    # the other units' bases near the box of every path (``move_prefilter._bases_near``)
    far = lengths[0]
    for s in range(1, n_s):
        if lengths[s] > far or lengths[s] != lengths[s]:
            far = lengths[s]
    x0, y0, x1, y1 = pts[0, 0], pts[0, 1], pts[0, 0], pts[0, 1]
    for k in range(1, m):
        x0 = min(x0, pts[k, 0])
        y0 = min(y0, pts[k, 1])
        x1 = max(x1, pts[k, 0])
        y1 = max(y1, pts[k, 1])
    bx0 = ((x0 - far) - r) - 1.0
    by0 = ((y0 - far) - r) - 1.0
    bx1 = ((x1 + far) + r) + 1.0
    by1 = ((y1 + far) + r) + 1.0
    first = np.full(n_d, np.inf)
    for b in range(txy.shape[0]):
        ox, oy, orad = txy[b, 0], txy[b, 1], tr[b]
        if not (
            ox > bx0 - orad
            and ox < bx1 + orad
            and oy > by0 - orad
            and oy < by1 + orad
            and tuid[b] != uid
        ):
            continue
        reach = orad + slack  # closer than this: overlapping by more
        rr = reach * reach if reach > 0.0 else -1.0
        for k in range(m):
            rx = ox - pts[k, 0]
            ry = oy - pts[k, 1]
            d2 = rx * rx + ry * ry
            for d in range(n_d):
                along = rx * ux[d] + ry * uy[d]
                # the square of the half chord the path cuts in the disc of radius ``reach``
                h2 = along * along
                h2 = h2 - d2
                h2 = h2 + rr
                if h2 > 0.0:
                    half = math.sqrt(h2)
                    if along + half > 0.0:
                        e = along - half
                        if e < first[d] or e != e:
                            first[d] = e
    for d in range(n_d):
        for s in range(n_s):
            if first[d] < lengths[s]:
                out[d, s] = True
    return out


def _place(
    starts: Any,
    spots: Any,
    vals: Any,
    reach: Any,
    r: float,
    cap: float,
    inf: float,
    gap_free: float,
    gap_link: float,
) -> tuple[bool, Any]:  # pragma: no cover - compiled
    n, n_s = starts.shape[0], spots.shape[0]
    n_c = n_s + n
    cand = np.empty((n_c, 2))
    cval = np.empty(n_c)
    for s in range(n_s):
        cand[s, 0] = spots[s, 0]
        cand[s, 1] = spots[s, 1]
        cval[s] = inf if vals[s] < cap else vals[s]
    for k in range(n):
        cand[n_s + k, 0] = starts[k, 0]
        cand[n_s + k, 1] = starts[k, 1]
        cval[n_s + k] = inf / 4
    out = np.full((n, 2), np.nan)
    free_spot = np.ones(n_c, dtype=np.bool_)
    link = np.ones(n_c, dtype=np.bool_)
    left = np.ones(n, dtype=np.bool_)
    fixed = np.zeros(n, dtype=np.intp)
    n_fixed = 0
    for k in range(n):
        any_reach = False
        for s in range(n_s):
            if reach[k, s]:
                any_reach = True
                break
        if not any_reach:
            fixed[n_fixed] = k
            n_fixed += 1
    next_fixed = 0
    two_r = 2 * r
    for placed in range(n):
        if next_fixed < n_fixed:
            k = fixed[next_fixed]
            next_fixed += 1
            s = n_s + k
            if not link[s]:
                return False, out
        else:
            # the model and spot cheapest (the first in the models' order, then the spots'):
            # ``np.argmin`` of the rows of the models left
            best = np.inf
            bk, bs = -1, -1
            for k in range(n):
                if not left[k]:
                    continue
                for s in range(n_c):
                    ok = reach[k, s] if s < n_s else s - n_s == k
                    v = cval[s] if ok and free_spot[s] and link[s] else np.inf
                    if bk < 0 or v < best:
                        best, bk, bs = v, k, s
            if bk < 0 or not best < np.inf or best >= inf:
                return False, out
            k, s = bk, bs
        px, py = cand[s, 0], cand[s, 1]
        out[k, 0] = px
        out[k, 1] = py
        left[k] = False
        for c in range(n_c):
            dx = cand[c, 0] - px
            dy = cand[c, 1] - py
            gap = math.sqrt(dx * dx + dy * dy) - two_r
            if not gap > gap_free:
                free_spot[c] = False
            now = gap <= gap_link
            link[c] = now if placed == 0 else (link[c] or now)
    return True, out


def _reach(
    starts: Any, spots: Any, limit: float, oxy: Any, oreach: Any, slack: float
) -> tuple[Any, Any]:  # pragma: no cover - compiled
    # ``d[k, s]``: model ``k``'s centre to spot ``s`` (``geom.centre_distances``); ``out[k,
    # s]``: ``d <= limit`` and every centre of ``oxy`` more than ``oreach + slack`` from the
    # move's segment (``route_formation._clear_of``'s very operations)
    m, n, c = starts.shape[0], spots.shape[0], oxy.shape[0]
    d = np.empty((m, n), dtype=np.float64)
    out = np.zeros((m, n), dtype=np.bool_)
    for k in range(m):
        ax, ay = starts[k, 0], starts[k, 1]
        for s in range(n):
            dx = ax - spots[s, 0]
            dy = ay - spots[s, 1]
            dx *= dx
            dy *= dy
            d[k, s] = math.sqrt(dx + dy)
            if not d[k, s] <= limit:
                continue
            ex = spots[s, 0] - ax
            ey = spots[s, 1] - ay
            length2 = ex * ex + ey * ey
            long = length2 > 1e-18
            safe = length2 if long else 1.0
            ok = True
            for j in range(c):
                rx = oxy[j, 0] - ax
                ry = oxy[j, 1] - ay
                t = (rx * ex + ry * ey) / safe
                if t < 0.0:  # np.clip: a NaN stays NaN
                    t = 0.0
                elif t > 1.0:
                    t = 1.0
                if not long:
                    t = 0.0
                gx = rx - t * ex
                gy = ry - t * ey
                gx *= gx
                gy *= gy
                if not math.sqrt(gx + gy) - oreach[j] > slack:
                    ok = False
                    break
            out[k, s] = ok
    return d, out


def _paths_blocked(
    pts: Any, vecs: Any, lengths: Any, live: Any, oxy: Any, orad: Any, inner: float, out: Any
) -> None:  # pragma: no cover - compiled
    # ``out[c, k] |= ``: the model at ``pts[k]`` moved by ``vecs[c]`` (of length
    # ``lengths[c]``, the rows ``live``) passes nearer a base's centre than its radius plus
    # ``inner`` (``move_prefilter._blocked``'s very operations: the along-track distance
    # clipped to the move, the squared gap against the squared reach)
    for c in live:
        ln = lengths[c]
        ux = vecs[c, 0] / ln
        uy = vecs[c, 1] / ln
        for k in range(pts.shape[0]):
            if out[c, k]:
                continue
            for j in range(oxy.shape[0]):
                rx = oxy[j, 0] - pts[k, 0]
                ry = oxy[j, 1] - pts[k, 1]
                along = rx * ux + ry * uy
                if along < 0.0:  # np.clip: a NaN stays NaN
                    along = 0.0
                elif along > ln:
                    along = ln
                gx = rx - along * ux
                gy = ry - along * uy
                gx *= gx
                gy *= gy
                reach = orad[j] + inner
                if gx + gy < (reach * reach if reach > 0.0 else -1.0):
                    out[c, k] = True
                    break


class Kernels(Protocol):
    """The compiled kernels, typed (numba has no stubs)."""

    def headings_blocked(
        self,
        pts: FloatArray,
        ux: FloatArray,
        uy: FloatArray,
        lengths: FloatArray,
        r: float,
        lo: float,
        hx: float,
        hy: float,
        txy: FloatArray,
        tr: FloatArray,
        tuid: IntArray,
        uid: int,
        slack: float,
    ) -> BoolArray: ...

    def place(
        self,
        starts: FloatArray,
        spots: FloatArray,
        vals: FloatArray,
        reach: BoolArray,
        r: float,
        cap: float,
        inf: float,
        gap_free: float,
        gap_link: float,
    ) -> tuple[bool, FloatArray]: ...

    def reach(
        self,
        starts: FloatArray,
        spots: FloatArray,
        limit: float,
        oxy: FloatArray,
        oreach: FloatArray,
        slack: float,
    ) -> tuple[FloatArray, BoolArray]: ...

    def paths_blocked(
        self,
        pts: FloatArray,
        vecs: FloatArray,
        lengths: FloatArray,
        live: IntArray,
        oxy: FloatArray,
        orad: FloatArray,
        inner: float,
        out: BoolArray,
    ) -> None: ...


class _Compiled:
    __slots__ = ("headings_blocked", "paths_blocked", "place", "reach")

    def __init__(self) -> None:
        jit = sight_jit.compiler(_place)  # the first routed Move pays numba's import
        self.headings_blocked = jit(_headings_blocked)
        self.place = jit(_place)
        self.reach = jit(_reach)
        self.paths_blocked = jit(_paths_blocked)


_KERNELS: list[Kernels] = []


def kernels() -> Kernels:
    """The compiled kernels (numba imported and the functions compiled, or loaded from the
    disk cache, on the first call)."""
    return sight_jit.first(_KERNELS, _Compiled)


def headings_blocked(
    pts: FloatArray,
    ux: FloatArray,
    uy: FloatArray,
    lengths: FloatArray,
    r: float,
    lo: float,
    hx: float,
    hy: float,
    txy: FloatArray,
    tr: FloatArray,
    tuid: IntArray,
    uid: int,
    slack: float,
) -> BoolArray:
    """``(D, S)``: the models at ``pts`` (radius ``r``) translated ``lengths[s]`` along the
    heading ``(ux[d], uy[d])`` end off the battlefield (an end's x or y below ``lo``, x above
    ``hx`` or y above ``hy``), or the first path to enter the disc of radius ``tr[b] + slack``
    round another unit's base (``tuid[b] != uid``, ``txy[b]``) does so before ``lengths[s]``:
    ``move_prefilter.clearly_blocked_headings``'s answer, float for float, in one loop."""
    return kernels().headings_blocked(
        pts, ux, uy, lengths, r, lo, hx, hy, txy, tr, tuid, uid, slack
    )


def place(
    starts: FloatArray,
    spots: FloatArray,
    vals: FloatArray,
    reach: BoolArray,
    r: float,
    cap: float,
    inf: float,
    gap_free: float,
    gap_link: float,
) -> tuple[bool, FloatArray]:
    """``route_formation._place``'s greedy placement in one loop: ``(placed, (n, 2) places)``
    of the models at ``starts`` on ``spots`` (field values ``vals``; ``reach[k, s]``: model
    ``k`` can move to spot ``s``), a spot valued below ``cap`` left out (``inf``), a model's
    own start its last resort (``inf / 4``), every later place within ``gap_link`` of one
    taken (edge to edge) and more than ``gap_free`` from every one (bases of radius ``r``)."""
    return kernels().place(starts, spots, vals, reach, r, cap, inf, gap_free, gap_link)


def reach(
    starts: FloatArray,
    spots: FloatArray,
    limit: float,
    oxy: FloatArray,
    oreach: FloatArray,
    slack: float,
) -> tuple[FloatArray, BoolArray]:
    """``route_formation._reach``'s moves before the terrain, in one loop: ``(d, out)``, the
    distances ``(m, n)`` from each start to each spot (``geom.centre_distances``' floats) and
    whether the move is within ``limit`` (§4.1) with every centre of ``oxy`` more than its
    ``oreach`` plus ``slack`` from the move's segment (other units' bases, §4.7;
    ``route_formation._clear_of``'s floats; issue 10, session 39)."""
    return kernels().reach(starts, spots, limit, oxy, oreach, slack)


def paths_blocked(
    pts: FloatArray,
    vecs: FloatArray,
    lengths: FloatArray,
    live: IntArray,
    oxy: FloatArray,
    orad: FloatArray,
    inner: float,
    out: BoolArray,
) -> None:
    """``move_prefilter._blocked``'s paths in one loop: sets ``out[c, k]`` (``(K, m)``, for
    the rows ``live``) where the model at ``pts[k]`` moved alone by ``vecs[c]`` (of length
    ``lengths[c]``) passes within a base of ``oxy`` by more than the tolerances: nearer its
    centre than ``orad + inner`` (§4.7; issue 10, session 39)."""
    kernels().paths_blocked(pts, vecs, lengths, live, oxy, orad, inner, out)


def warm() -> None:
    """Import numba and load (or compile) the route's kernels, sight's (``sight_jit.warm``)
    and the candidate tests' (``coherency_jit.warm``) for the arrays the rules pass them, so
    that a process about to play (the web app, ``warbench play``, a benchmark) pays it before
    the first Move."""
    from warbench.rulesets.warsurge.game import coherency_jit

    sight_jit.warm()
    coherency_jit.warm()
    one = np.zeros((1, 2))
    unit = np.ones(1)
    headings_blocked(
        one, unit, unit, unit, 1.0, 0.0, 1.0, 1.0, one, unit, np.zeros(1, np.intp), 1, 0.0
    )
    place(one, one, unit, np.ones((1, 1), dtype=bool), 1.0, 0.0, 1.0, 0.0, 1.0)
    reach(one, one, 1.0, one, unit, 0.05)
    paths_blocked(
        one, one, unit, np.zeros(1, np.intp), one, unit, 0.9, np.zeros((1, 1), dtype=bool)
    )
