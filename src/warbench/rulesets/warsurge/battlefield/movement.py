"""Moving a model: path length, Difficult, Dangerous and Impassable Ground, other units (Core
Rules 001_d3f5e425c5e1196d.txt §4.1, §4.5-4.7).

A model moves along a path of straight segments (its centre's path). The distance moved is
the path's length: measuring "from one side of the model's base" to where that side ends up
(§4.1) is the displacement of every point of the base. What the move crosses is the *swept
base*: the path thickened by the base's radius. Touching an edge is not crossing it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely

from warbench.rulesets.warsurge.battlefield.geometry import (
    EPS,
    BoardGeometry,
    as_discs,
    points_array,
    segment_point_distance,
)
from warbench.rulesets.warsurge.battlefield.model import Board, Point

__all__ = ["MoveCheck", "check_move", "difficult_allowance", "move_towards"]


@dataclass(frozen=True, slots=True)
class MoveCheck:
    """The verdict on one model's move (§4.1, §4.5-4.7).

    ``length`` is the distance moved; ``allowance`` the Move or Dash left after Difficult Ground
    (§4.5); ``cost`` how much of the original allowance the move uses (``length`` plus the
    Difficult Ground penalty), so the move is within the allowance when ``cost <= allowance``
    given. ``difficult_crossed`` / ``dangerous_crossed`` name the pieces the swept base
    entered, crossed or left. A refused move has ``ok=False``, a ``reason`` a player
    understands and the ``rule`` it comes from.
    """

    ok: bool
    length: float
    cost: float
    allowance: float
    difficult_crossed: list[str] = field(default_factory=list)
    dangerous_crossed: list[str] = field(default_factory=list)
    reason: str | None = None
    rule: str | None = None


def difficult_allowance(allowance: float) -> float:
    """A Move or Dash through Difficult Ground (§4.5): halved, rounded down, at least 1" less.

    "Movement reduced by half (50%). Round the Movement down if a fraction (3.5" Movement
    becomes 3"), and deduct at least 1"." So 9" becomes 4", 7" 3", 2" 1", 1" 0".
    """
    if allowance <= 0:
        return 0.0
    return float(max(0.0, min(math.floor(allowance / 2 + EPS), allowance - 1)))


def _path(start: Point, end: Point | Sequence[Point]) -> list[Point]:
    if len(end) == 2 and isinstance(end[0], int | float):
        return [start, end]  # type: ignore[list-item]
    return [start, *end]


def check_move(
    board: Board,
    start: Point,
    end: Point | Sequence[Point],
    radius: float,
    allowance: float,
    obstacles: Sequence[Any] = (),
) -> MoveCheck:
    """Check one model's move from ``start`` to ``end`` (a point, or a list of waypoints).

    Refused when the base would leave the board (§2.1), when the swept base crosses Impassable
    Ground (§4.7) or the base of a model of another unit (``obstacles``; "Units, both enemy and
    friendly are treated as Impassable Ground", §4.7), or when the path is longer than the
    allowance, halved if the swept base touches Difficult Ground (§4.5). Ending in base contact
    is allowed (§4.3).
    """
    pts = points_array(_path(start, end))
    g: BoardGeometry = board.geometry()
    seg = np.diff(pts, axis=0)
    length = float(np.hypot(seg[:, 0], seg[:, 1]).sum())
    if length <= EPS:
        return MoveCheck(True, 0.0, 0.0, float(allowance))
    r = float(radius)
    if not g.on_board(pts, r).all():
        return MoveCheck(
            False,
            length,
            length,
            float(allowance),
            reason="the model's base would leave the battlefield",
            rule="§2.1",
        )
    difficult: list[str] = []
    dangerous: list[str] = []
    if g.movement:
        line = shapely.linestrings(pts)
        _, hits = g.movement.query(line, "dwithin", max(r - EPS, 0.0))
        for j in sorted(hits.tolist()):
            if g.impassable_mask[j]:
                return MoveCheck(
                    False,
                    length,
                    length,
                    float(allowance),
                    reason=f"the model cannot move through or into Impassable Ground "
                    f"({g.names[j]})",
                    rule="§4.7",
                )
            if g.difficult[j]:
                difficult.append(g.names[j])
            if g.dangerous[j]:
                dangerous.append(g.names[j])
    if len(obstacles):
        oxy, orad = as_discs(obstacles)
        dist = segment_point_distance(pts[:-1], pts[1:], oxy).min(axis=0)
        bad = np.flatnonzero(dist < orad + r - EPS)
        if len(bad):
            o = oxy[bad[0]]
            return MoveCheck(
                False,
                length,
                length,
                float(allowance),
                difficult,
                dangerous,
                reason=f"the model cannot move through another unit's model at "
                f"({o[0]:.2f}, {o[1]:.2f}); units are Impassable Ground",
                rule="§4.7",
            )
    effective = difficult_allowance(allowance) if difficult else float(allowance)
    cost = length + (float(allowance) - effective)
    if length > effective + EPS:
        if difficult:
            reason = (
                f'the path is {length:.2f}" but Difficult Ground ({", ".join(difficult)}) '
                f'leaves {effective:g}" of the {allowance:g}" allowance'
            )
            rule = "§4.5"
        else:
            reason = f'the path is {length:.2f}", more than the {allowance:g}" allowance'
            rule = "§4.1"
        return MoveCheck(False, length, cost, effective, difficult, dangerous, reason, rule)
    return MoveCheck(True, length, cost, effective, difficult, dangerous)


def _first_entry(g: BoardGeometry, kind: str, start: FloatPair, end: FloatPair, r: float) -> float:
    """Distance along ``start -> end`` at which the swept base first enters terrain of
    ``kind`` ("impassable" or "difficult"); ``inf`` if it never does."""
    tree = g.impassable if kind == "impassable" else g.movement
    if not tree:
        return math.inf
    line = shapely.linestrings([start, end])
    _, hits = tree.query(line, "dwithin", max(r - EPS, 0.0))
    if kind == "difficult":
        hits = hits[g.difficult[hits]]
    if not len(hits):
        return math.inf
    best = math.inf
    for j in hits.tolist():
        grown = g.polys[j].buffer(max(r - EPS, 0.0), quad_segs=16)
        inter = line.intersection(grown)
        if inter.is_empty:
            continue
        coords = shapely.get_coordinates(inter)
        if len(coords):
            best = min(best, float(np.min(shapely.line_locate_point(line, shapely.points(coords)))))
    return best


FloatPair = tuple[float, float]


def move_towards(
    board: Board,
    start: Point,
    target: Point,
    radius: float,
    allowance: float,
    obstacles: Sequence[Any] = (),
) -> Point:
    """The furthest legal point on the straight line from ``start`` towards ``target``.

    Stops at the allowance (halved by Difficult Ground when going into it pays, §4.5), before
    Impassable Ground (§4.7), at the board edge, and in base contact with the first model of
    ``obstacles`` in the way (an enemy's centre as ``target`` means "charge it", §4.3).
    An automation helper for the AI and for forced moves.
    """
    sx, sy = float(start[0]), float(start[1])
    dx, dy = float(target[0]) - sx, float(target[1]) - sy
    dist = math.hypot(dx, dy)
    if dist <= EPS or allowance <= 0:
        return (sx, sy)
    ux, uy = dx / dist, dy / dist
    r = float(radius)
    limit = dist
    if len(obstacles):
        oxy, orad = as_discs(obstacles)
        wx, wy = oxy[:, 0] - sx, oxy[:, 1] - sy
        b = wx * ux + wy * uy
        rr = orad + r
        c = wx * wx + wy * wy - rr * rr
        disc = b * b - c
        for k in np.flatnonzero(disc > 0):
            t = b[k] - math.sqrt(disc[k])
            if t >= -EPS:
                limit = min(limit, max(t - 1e-9, 0.0))
            elif b[k] > 0 and c[k] < EPS:  # touching now and moving into it
                limit = 0.0
    g: BoardGeometry = board.geometry()
    for coord, u, size in ((sx, ux, g.width), (sy, uy, g.height)):
        if u > 0:
            limit = min(limit, (size - r - coord) / u)
        elif u < 0:
            limit = min(limit, (r - coord) / u)
    limit = max(limit, 0.0)
    far = (sx + ux * limit, sy + uy * limit)
    limit = min(limit, _first_entry(g, "impassable", (sx, sy), far, r))
    plain = min(limit, float(allowance))
    t = plain
    far = (sx + ux * plain, sy + uy * plain)
    entry = _first_entry(g, "difficult", (sx, sy), far, r)
    if entry < math.inf:
        before = max(entry - 1e-6, 0.0) if entry > EPS else 0.0
        into = min(limit, difficult_allowance(allowance))
        t = into if into > before else before
    for _ in range(8):
        p = (sx + ux * t, sy + uy * t)
        if check_move(board, (sx, sy), p, r, allowance, obstacles).ok:
            return p
        t = max(t - 1e-4 * (1 + t), 0.0)
    return (sx, sy)
