"""Finding legal places for models: deployment, disembarking, a destroyed Transport's
passengers, restoring Coherency (Core Rules 001_d3f5e425c5e1196d.txt §3.6, §4.2 IV, §4.4 III,
§6.3, §6.6, §10.3).

Candidate spots are the points of a hexagonal lattice around the anchor, half a base apart,
taken nearest first: a free spot where the anchor is, then rings around it, which is §6.6's
"placed in a circular fashion around the other models". A spot is legal when the base is on
the board, off Impassable Ground, inside the zone if one is given, and overlaps no other base.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
import shapely

from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.battlefield.geometry import (
    EPS,
    BoardGeometry,
    BoolArray,
    FloatArray,
    as_discs,
    points_array,
    segment_point_distance,
)
from warbench.rulesets.warsurge.battlefield.measure import COHERENCY, coherency_groups
from warbench.rulesets.warsurge.battlefield.model import Board, Point, Zone

__all__ = ["GAP", "place_near", "restore_coherency"]

#: Space left between bases placed side by side (inches), so that they touch no one.
GAP = 0.01


def _zone_mask(g: BoardGeometry, board: Board, zone: Any, xy: FloatArray, r: float) -> BoolArray:
    if zone is None:
        return np.ones(len(xy), dtype=bool)
    if isinstance(zone, str):
        return g.in_zone(g.zone_names.index(board.zone(zone).name), xy, r)
    if isinstance(zone, Zone):
        poly = shapely.Polygon(zone.polygon)
    elif isinstance(zone, shapely.Polygon):
        poly = zone
    else:
        poly = shapely.Polygon(zone)
    inside = shapely.contains_xy(poly, xy[:, 0], xy[:, 1])
    dist = shapely.distance(poly.exterior, shapely.points(xy))
    return inside & (dist >= r - EPS)  # type: ignore[no-any-return]


def _lattice(anchor: Point, spacing: float, reach: float) -> FloatArray:
    """Hexagonal lattice points within ``reach`` of ``anchor``, nearest first."""
    row = spacing * math.sqrt(3) / 2
    nj = int(reach / row) + 1
    ni = int(reach / spacing) + 2
    j = np.arange(-nj, nj + 1)
    i = np.arange(-ni, ni + 1)
    jj, ii = np.meshgrid(j, i, indexing="ij")
    x = anchor[0] + (ii + (jj % 2) * 0.5) * spacing
    y = anchor[1] + jj * row
    xy = np.stack([x.ravel(), y.ravel()], axis=1)
    d = np.hypot(xy[:, 0] - anchor[0], xy[:, 1] - anchor[1])
    keep = d <= reach + EPS
    xy, d = xy[keep], d[keep]
    ang = np.arctan2(xy[:, 1] - anchor[1], xy[:, 0] - anchor[0])
    order = np.lexsort((ang, np.round(d, 6)))
    return xy[order]


def place_near(
    board: Board,
    anchor: Point,
    radius: float,
    count: int,
    occupied: Sequence[Any] = (),
    within: float = math.inf,
    zone: Any = None,
    *,
    anchor_radius: float = 0.0,
    measure: Literal["whole", "edge"] = "whole",
    coherency: float | None = COHERENCY,
    avoid_dangerous: bool = False,
    prefer: Point | None = None,
    contiguous: bool = True,
) -> list[Point]:
    """Up to ``count`` legal, non-overlapping spots for bases of ``radius`` near ``anchor``.

    ``within``: how far from the anchor (a point, or a disc of ``anchor_radius``) a spot may be;
    ``measure="whole"`` keeps the whole base within that distance of the anchor's edge (placing
    models "within their Move ... from the Transport's base", §6.3), ``"edge"`` only its nearest
    edge (Coherency, range). ``zone``: a :class:`Zone`, a zone name of the board, a polygon or
    a shapely Polygon the bases must lie wholly in (deployment, §3.6). ``occupied``: the other
    bases on the board. With ``coherency``, each spot after the first is within that distance
    of an earlier one, so the placed models form one group (§4.2). Returns fewer spots when
    there is no more room (§6.6: models that cannot be placed are casualties). ``prefer``: take
    the spots nearest to this point first instead of nearest to the anchor. ``contiguous``: the
    models must be able to get there: the first slides out from the anchor, each next one from
    an earlier spot within ``coherency``, without passing through other bases (bases covering
    the anchor, such as the Transport, do not count), so a ring of enemies "completely
    surrounding" the site keeps them in (§6.3, §6.6).
    """
    if count <= 0:
        return []
    g: BoardGeometry = board.geometry()
    r = float(radius)
    ra = float(anchor_radius)
    reach = ra + within - r if measure == "whole" else ra + within + r
    reach = min(reach, math.hypot(g.width, g.height))
    if reach < -EPS:
        return []
    spacing = (2 * r + GAP) / 2
    cand = _lattice((float(anchor[0]), float(anchor[1])), spacing, max(reach, 0.0))
    legal = g.on_board(cand, r)
    legal &= _zone_mask(g, board, zone, cand, r)
    cand = cand[legal]
    if len(cand):
        rr = np.full(len(cand), r)
        bad = g.standing_in(g.impassable, cand, rr).any(axis=1)
        if avoid_dangerous and g.movement:
            bad |= g.standing_in(g.movement, cand, rr)[:, g.dangerous].any(axis=1)
        cand = cand[~bad]
    if len(occupied) and len(cand):
        oxy, orad = as_discs(occupied)
        d = np.hypot(cand[:, None, 0] - oxy[None, :, 0], cand[:, None, 1] - oxy[None, :, 1])
        cand = cand[(d >= orad[None, :] + r - EPS).all(axis=1)]
    if prefer is not None and len(cand):
        dp = np.hypot(cand[:, 0] - prefer[0], cand[:, 1] - prefer[1])
        cand = cand[np.argsort(np.round(dp, 9), kind="stable")]
    chosen: list[Point] = []
    avail = np.ones(len(cand), dtype=bool)
    linked = np.zeros(len(cand), dtype=bool)
    oxy, orad = as_discs(occupied)
    reach_ok = np.ones(len(cand), dtype=bool)
    if contiguous and len(oxy) and len(cand):
        # the first models walk out from the anchor: bases covering the anchor (the Transport
        # itself) do not stop them, any other base in the way does
        ax = np.array([[float(anchor[0]), float(anchor[1])]])
        holds = np.hypot(oxy[:, 0] - ax[0, 0], oxy[:, 1] - ax[0, 1]) < orad
        reach_ok = _clear(np.repeat(ax, len(cand), axis=0), cand, oxy[~holds], orad[~holds], r)
    link = coherency if coherency is not None else 2.0
    for _ in range(count):
        mask = avail & reach_ok
        if chosen and coherency is not None:
            mask &= linked
        idx = np.flatnonzero(mask)
        if not len(idx):
            break
        k = int(idx[0])
        p = cand[k]
        chosen.append((float(p[0]), float(p[1])))
        d = np.hypot(cand[:, 0] - p[0], cand[:, 1] - p[1])
        avail &= d >= 2 * r + GAP - EPS
        near = d - 2 * r <= link - GAP
        if coherency is not None:
            linked |= near
        if contiguous and len(oxy):
            sel = np.flatnonzero(near & ~reach_ok)
            if len(sel):
                start = np.repeat(p[None, :], len(sel), axis=0)
                reach_ok[sel] = _clear(start, cand[sel], oxy, orad, r)
    return chosen


def _clear(
    p0: FloatArray, p1: FloatArray, oxy: FloatArray, orad: FloatArray, r: float
) -> BoolArray:
    """Whether a base of radius ``r`` can slide from each ``p0`` to ``p1`` past the bases."""
    if not len(oxy):
        return np.ones(len(p0), dtype=bool)
    dist = segment_point_distance(p0, p1, oxy)
    out: BoolArray = np.asarray((dist >= orad[None, :] + r - EPS).all(axis=1))
    return out


def restore_coherency(
    board: Board,
    positions: Sequence[Point],
    radii: Sequence[float],
    occupied: Sequence[Any] = (),
    coherency: float = COHERENCY,
) -> list[Point]:
    """New positions that restore a unit's Coherency with the fewest, shortest moves (§4.2 IV).

    "Move the least number of models the minimum distance to regain Coherency." Method: the
    largest group stays where it is; every other group, nearest first, slides as a whole
    straight towards the nearest model already linked, just far enough to be within
    ``coherency``. When that slide is not legal (it would overlap another base, leave the board
    or enter Impassable Ground) its models are placed one by one at the nearest legal spots
    within Coherency of the linked models (:func:`place_near`). ``occupied``: bases of other
    units. Raises :class:`RulesError` when there is no room at all.
    """
    pos = points_array(positions).copy()
    r = np.asarray(radii, dtype=np.float64)
    groups = coherency_groups(positions, radii, coherency)
    if len(groups) <= 1:
        return [(float(x), float(y)) for x, y in pos]
    g: BoardGeometry = board.geometry()
    oxy, orad = as_discs(occupied)
    linked = list(groups[0])
    rest = [list(grp) for grp in groups[1:]]
    target = coherency - GAP
    while rest:
        # the group nearest to the linked models goes next
        best = None
        for gi, grp in enumerate(rest):
            d = _gaps(pos[grp], r[grp], pos[linked], r[linked])
            fi, fj = np.unravel_index(int(np.argmin(d)), d.shape)
            if best is None or d[fi, fj] < best[0]:
                best = (float(d[fi, fj]), gi, grp[int(fi)], linked[int(fj)])
        assert best is not None
        gap, gi, i, j = best
        grp = rest.pop(gi)
        v = pos[j] - pos[i]
        norm = float(np.hypot(v[0], v[1]))
        shift = v / norm * max(gap - target, 0.0) if norm > 0 else np.zeros(2)
        moved = pos[grp] + shift
        others = [k for k in range(len(pos)) if k not in grp]
        if _legal(
            g, moved, r[grp], np.vstack([oxy, pos[others]]), np.concatenate([orad, r[others]])
        ):
            pos[grp] = moved
        else:
            for k in sorted(
                grp, key=lambda k: float(_gaps(pos[[k]], r[[k]], pos[linked], r[linked]).min())
            ):
                spot = _spot_near_linked(board, pos, r, k, linked, oxy, orad, coherency)
                if spot is None:
                    raise RulesError(f"no room to bring model {k} back into Coherency", "§4.2 IV")
                pos[k] = spot
                linked.append(k)
            continue
        linked.extend(grp)
    return [(float(x), float(y)) for x, y in pos]


def _gaps(axy: FloatArray, ar: FloatArray, bxy: FloatArray, br: FloatArray) -> FloatArray:
    d = np.hypot(axy[:, None, 0] - bxy[None, :, 0], axy[:, None, 1] - bxy[None, :, 1])
    return d - ar[:, None] - br[None, :]


def _legal(
    g: BoardGeometry, xy: FloatArray, r: FloatArray, oxy: FloatArray, orad: FloatArray
) -> bool:
    if not g.on_board(xy, r).all():
        return False
    if g.standing_in(g.impassable, xy, r).any():
        return False
    return not (len(oxy) and (_gaps(xy, r, oxy, orad) < -EPS).any())


def _spot_near_linked(
    board: Board,
    pos: FloatArray,
    r: FloatArray,
    k: int,
    linked: list[int],
    oxy: FloatArray,
    orad: FloatArray,
    coherency: float,
) -> FloatArray | None:
    others = [m for m in range(len(pos)) if m != k]
    occ = [
        ((float(x), float(y)), float(rr)) for (x, y), rr in zip(pos[others], r[others], strict=True)
    ]
    occ += [((float(x), float(y)), float(rr)) for (x, y), rr in zip(oxy, orad, strict=True)]
    near = sorted(linked, key=lambda m: float(np.hypot(*(pos[m] - pos[k]))))
    best: tuple[float, Point] | None = None
    for m in near:
        spots = place_near(
            board,
            (float(pos[m][0]), float(pos[m][1])),
            float(r[k]),
            1,
            occ,
            coherency - GAP,
            anchor_radius=float(r[m]),
            measure="edge",
            prefer=(float(pos[k][0]), float(pos[k][1])),
        )
        if spots:
            s = spots[0]
            d = math.hypot(s[0] - pos[k][0], s[1] - pos[k][1])
            if best is None or d < best[0]:
                best = (d, s)
    return None if best is None else np.array(best[1])
