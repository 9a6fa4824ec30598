"""The NumPy forms that ``coherency``'s compiled kernels replaced (issue 10, session 38,
s38-speedc; ``game/coherency_jit.py``), kept as the tests' oracles only: no live code calls
them. Each is the form as it was in the library (main ``c40096b``), float for float."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from warbench.rulesets.warsurge.game import geom
from warbench.rulesets.warsurge.game.geom import OVERLAP_TOL

FloatArray = npt.NDArray[np.float64]

#: ``coherency._MARGIN``
MARGIN = 1e-9


def overlapping(
    pts: FloatArray,
    r: float,
    oxy: FloatArray,
    orad: FloatArray,
    tol: float,
    which: npt.NDArray[np.intp] | None = None,
) -> npt.NDArray[np.bool_]:
    """``coherency._overlapping``: which points ``(P, 2)`` overlap one of the bases by more
    than ``tol``, measured in a band of x; ``which`` the base (row of ``oxy``) for each."""
    out = np.zeros(len(pts), dtype=bool)
    if not len(pts) or not len(oxy):
        return out
    reach = r + float(orad.max()) + 1e-6
    order = np.argsort(oxy[:, 0], kind="stable")
    sx = oxy[order, 0]
    lo = np.searchsorted(sx, pts[:, 0] - reach, side="left")
    hi = np.searchsorted(sx, pts[:, 0] + reach, side="right")
    n = hi - lo
    total = int(n.sum())
    if not total:
        return out
    pi = np.repeat(np.arange(len(pts)), n)
    first = np.repeat(lo - (np.cumsum(n) - n), n)
    oi = order[np.arange(total) + first]
    dx = pts[:, 0][pi] - oxy[:, 0][oi]
    dy = pts[:, 1][pi] - oxy[:, 1][oi]
    dx *= dx
    dy *= dy
    dx += dy
    d = np.sqrt(dx, out=dx) - orad[oi] - r
    over = d < -tol
    hit = pi[over]
    out[hit] = True
    if which is not None:
        which[hit] = oi[over]
    return out


def candidate_overlaps(
    new: FloatArray,
    off: npt.NDArray[np.bool_],
    starts: FloatArray | None,
    r: float,
    txy: FloatArray,
    trad: FloatArray,
    tuid: npt.NDArray[np.int64],
    uid: int,
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.intp], npt.NDArray[np.bool_] | None]:
    """The overlaps of ``coherency._clearly_illegal`` (from the table's bases, after
    ``_off_table``'s ``off``): ``(C, m)`` the moving models ending on another base by more than
    the tolerance and margin, the witness rows (-1: none), and for a Move the models that the
    test of paths then measures (None for a placement)."""
    c, m = new.shape[:2]
    bad_all = np.zeros((c, m), dtype=bool)
    wit = np.full((c, m), -1, dtype=np.intp)
    other = tuid != uid
    flat = new.reshape(-1, 2) if starts is None else np.vstack([new.reshape(-1, 2), starts])
    if len(flat):
        lo_xy = flat.min(axis=0) - r - 1.0
        hi_xy = flat.max(axis=0) + r + 1.0
        other &= (
            (txy[:, 0] > lo_xy[0] - trad)
            & (txy[:, 0] < hi_xy[0] + trad)
            & (txy[:, 1] > lo_xy[1] - trad)
            & (txy[:, 1] < hi_xy[1] + trad)
        )
    oxy, orad = txy[other], trad[other]
    if not len(oxy):
        return bad_all, wit, None
    moving = np.ones((c, m), dtype=bool) if starts is None else (new != starts[None]).any(axis=2)
    live = np.flatnonzero(~off)
    if not len(live):
        return bad_all, wit, None
    sub = new[live]
    which = np.full(sub.shape[0] * sub.shape[1], -1, dtype=np.intp)
    ends = overlapping(sub.reshape(-1, 2), r, oxy, orad, OVERLAP_TOL + MARGIN, which)
    bad = ends.reshape(sub.shape[:2]) & moving[live]
    over = which.reshape(bad.shape)
    wit[live] = np.where(over >= 0, np.flatnonzero(other)[np.maximum(over, 0)], -1)
    bad_all[live] = bad
    paths = None
    if starts is not None:
        paths = np.zeros((c, m), dtype=bool)
        paths[live] = moving[live] & ~bad.any(axis=1)[:, None]
    return bad_all, wit, paths


def gaps(
    new: FloatArray, starts: FloatArray | None, r: float, oxy: FloatArray, orad: FloatArray
) -> tuple[list[float] | None, list[float]]:
    """``coherency._gaps``: each model's smallest edge gap to a base near the box, along its
    path (None without ``starts``) and at its end."""
    box = new if starts is None else np.vstack([new, starts])
    lo = box.min(axis=0) - r - 1.0
    hi = box.max(axis=0) + r + 1.0
    near = (
        (oxy[:, 0] > lo[0] - orad)
        & (oxy[:, 0] < hi[0] + orad)
        & (oxy[:, 1] > lo[1] - orad)
        & (oxy[:, 1] < hi[1] + orad)
    )
    m = len(new)
    if not near.any():
        far = [math.inf] * m
        return (None if starts is None else far), far
    nxy, nrad = oxy[near], orad[near]
    end = geom.centre_distances(new, nxy) - nrad - r
    seg = None
    if starts is not None:
        seg = (geom.segments_distances(starts, new, nxy) - nrad - r).min(axis=1).tolist()
    return seg, end.min(axis=1).tolist()


def first_entry(
    pts: FloatArray,
    txy: FloatArray,
    tr: FloatArray,
    tuid: npt.NDArray[np.int64],
    uid: int,
    centre: tuple[float, float],
    half: tuple[float, float],
    way: tuple[float, float],
    r: float,
) -> float:
    """``coherency.clearly_blocked_translations``' measure of the first entry into a base."""
    ux, uy = way
    near = (np.abs(txy - np.array(centre)) < np.array(half) + tr[:, None]).all(axis=1)
    near &= tuid != uid
    if not near.any():
        return math.inf
    oxy, orad = txy[near], tr[near]
    rx = oxy[None, :, 0] - pts[:, 0, None]
    ry = oxy[None, :, 1] - pts[:, 1, None]
    along = rx * ux + ry * uy
    reach = orad + (r - OVERLAP_TOL - MARGIN)
    half2 = along * along
    half2 -= rx * rx + ry * ry
    half2 += np.where(reach > 0.0, reach * reach, -1.0)
    cuts = half2 > 0.0
    hl = np.sqrt(np.where(cuts, half2, 0.0))
    enters = np.where(cuts & (along + hl > 0.0), along - hl, np.inf)
    return float(enters.min()) if enters.size else math.inf


def clearly_blocked_translations(
    w: Any,
    uid: int,
    starts: FloatArray,
    moving: Sequence[int],
    way: tuple[float, float],
    lengths: Sequence[float],
) -> list[bool]:
    """``coherency.clearly_blocked_translations`` as it was (the oracle only)."""
    f = w.field
    r = w.info(uid).radius
    ux, uy = way
    pts = starts[list(moving)]
    xs, ys = pts[:, 0].tolist(), pts[:, 1].tolist()
    lo = r - 1e-6 - MARGIN
    hx, hy = f.width - r + 1e-6 + MARGIN, f.height - r + 1e-6 + MARGIN
    # a moving model ends off the board at some length when the extreme starts do: adding
    # ``dx`` keeps the order of the floats (rounding is monotone), so ``lo <= x + dx`` holds
    # for every model exactly when it holds for the least x (the very comparisons, model by
    # model, of ``clearly_illegal``; issue 10, session 32)
    out: list[bool] = []
    if xs:
        x_lo, x_hi, y_lo, y_hi = min(xs), max(xs), min(ys), max(ys)
        for length in lengths:
            dx, dy = ux * length, uy * length
            out.append(
                length > 0.0
                and not (
                    lo <= x_lo + dx and x_hi + dx <= hx and lo <= y_lo + dy and y_hi + dy <= hy
                )
            )
    else:
        out = [False] * len(lengths)
    todo = [i for i, no in enumerate(out) if not no and lengths[i] > 0.0]
    if not todo or not xs:
        return out
    t = w.table()
    # the bases near the box of every path (start to the farthest end)
    far = max(lengths[i] for i in todo)
    ex, ey = ux * far, uy * far
    x0, x1 = min(xs) + min(ex, 0.0), max(xs) + max(ex, 0.0)
    y0, y1 = min(ys) + min(ey, 0.0), max(ys) + max(ey, 0.0)
    half = np.array([(x1 - x0) / 2.0 + r + 1.0, (y1 - y0) / 2.0 + r + 1.0])
    centre = np.array([(x0 + x1) / 2.0, (y0 + y1) / 2.0])
    near = (np.abs(t.xy - centre) < half + t.r[:, None]).all(axis=1)
    near &= t.uid != uid
    if not near.any():
        return out
    oxy, orad = t.xy[near], t.r[near]
    rx = oxy[None, :, 0] - pts[:, 0, None]  # (models, bases): base centre from the start
    ry = oxy[None, :, 1] - pts[:, 1, None]
    along = rx * ux + ry * uy  # how far along the way the base's centre is
    reach = orad + (r - OVERLAP_TOL - MARGIN)  # closer than this: overlapping by more
    # every candidate's path is a prefix of the longest: a base refuses the lengths beyond
    # where the first model's path enters it (the along-track distance less the half chord
    # cut in the disc of radius ``reach``; issue 10, session 31: one (models, bases) pass)
    half2 = along * along
    half2 -= rx * rx + ry * ry
    half2 += np.where(reach > 0.0, reach * reach, -1.0)
    cuts = half2 > 0.0
    half = np.sqrt(np.where(cuts, half2, 0.0))
    enters = np.where(cuts & (along + half > 0.0), along - half, np.inf)
    first = float(enters.min()) if enters.size else math.inf
    for i in todo:
        out[i] = first < lengths[i]
    return out


def remember(
    who: npt.NDArray[np.int64],
    where: FloatArray,
    rows: npt.NDArray[np.intp],
    base: npt.NDArray[np.intp],
    ident: npt.NDArray[np.int64],
    xy: FloatArray,
    r: FloatArray,
) -> None:
    """``place_memo.PlaceQuestion.remember`` as it was: the witnesses written down."""
    on = base >= 0
    if not on.any():
        who[rows] = -1
        return
    pick = np.where(on, base, 0)
    who[rows] = np.where(on, ident[pick], -1)
    where[rows] = np.concatenate([xy[pick], r[pick][..., None]], axis=-1)


def still_refused(
    who_all: npt.NDArray[np.int64],
    where_all: FloatArray,
    rows: npt.NDArray[np.intp],
    keys: npt.NDArray[np.int64],
    order: npt.NDArray[np.int64],
    xy: FloatArray,
    r: FloatArray,
) -> npt.NDArray[np.bool_]:
    """``place_memo.still_refused`` as it was: a witness standing at its place and radius."""
    who = who_all[rows]
    known = who >= 0
    if not len(keys) or not known.any():
        return np.zeros(len(rows), dtype=bool)
    at = np.minimum(np.searchsorted(keys, who), len(keys) - 1)
    row = order[at]
    where = where_all[rows]
    same = (
        known
        & (keys[at] == who)
        & (xy[row, 0] == where[..., 0])
        & (xy[row, 1] == where[..., 1])
        & (r[row] == where[..., 2])
    )
    out: npt.NDArray[np.bool_] = same.any(axis=1)
    return out
