"""Formations that pass: a unit's models placed one by one where the rigid formation stalls.

A straight translation of the whole formation (``game.movement.plan_towards``) cannot follow a
path that hugs a building's wall when the formation is wider than the gap: measured (docs/ai.md,
session 29), the Red roster's ten Troopers stood against a wall on the city board for Game Turns
on end. The rules move models, not formations: Core Rules 001_d3f5e425c5e1196d.txt §4.1
L1833-1839 ("You do not need to move every model in a Unit ... however the Unit must maintain
Coherency"), L1845-1848 (each model is placed within its Move of where it stood) and L1855
("move the rest of the models in the Unit using that first model as a reference"); §4.2
L1893-1911 (every model within 2" of another, one group). So :func:`placed_one_by_one` places
each model itself: on a lattice of spots round the unit, each spot reachable by the model's own
straight move (no Impassable Ground under it, §4.7; within its allowance, §4.1; clear of other
units' bases, §4.7), the spot that is cheapest on the cost-to-goal field (``game.route``) first,
every later model within 2" of one already placed (§4.2), so the formation narrows into a
column where a gap is narrow and files round a corner. The result is checked like any Move
with positions (``game.coherency.problem_positions``).

Used by the engine's automatic Move when no straight move makes way (``game.route_move``,
session 29, s29-route) and by the tactical player (``warbench.ai.formation``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from warbench.rulesets.warsurge.battlefield.measure import COHERENCY
from warbench.rulesets.warsurge.game import geom, route_jit
from warbench.rulesets.warsurge.game.route import CELL, INF, FloatGrid, NavGrid, rows_near_boxes
from warbench.rulesets.warsurge.game.work import Work

Point = tuple[float, float]
BoolGrid = npt.NDArray[np.bool_]

#: Gap (inches) kept between two of the unit's bases on the lattice of spots.
BASE_GAP = 0.15
#: Margin (inches) kept inside the allowance and inside Coherency's 2".
SLACK = 0.05
#: Attempts with the front capped one inch further back each time, when the greedy
#: placement leaves a model unplaced.
CAPS = 6


def may_place(w: Work, uid: int) -> bool:
    """Whether :func:`placed_one_by_one` can place the unit at all: two or more models present
    on round bases (§1.3); otherwise it refuses at once, whatever the board."""
    return w.info(uid).base is None and len(w.units[uid].present()) >= 2


def placed_one_by_one(
    w: Work, uid: int, grid: NavGrid, dist: FloatGrid, allowance: float, free: Sequence[int]
) -> tuple[tuple[Point, ...], float] | None:
    """The unit's models placed one by one toward the goal of ``dist`` (module docstring),
    only the models ``free`` moving (Battle/Heavy users stay in a Dash, §5.1), with the mean
    of their values on the field; None when no coherent placement makes progress over where
    they stand or the unit's bases are not round (§1.3)."""
    info = w.info(uid)
    if info.base is not None:  # oval or rectangular bases: the engine's rigid move only
        return None
    u = w.units[uid]
    models = u.present()
    if len(models) < 2:
        return None
    r = float(info.radius)
    moving = set(free)
    starts = w.xy(uid, models)
    start_vals = np.asarray([value_at(grid, dist, (float(x), float(y))) for x, y in starts])
    if (start_vals >= INF / 2).any():
        return None
    spots = _lattice(w, starts, r, allowance)
    if not len(spots):
        return None
    t = w.table()
    other = w.others_mask([uid])
    if other.any():  # spots clear of other units' bases (§4.7: they are Impassable Ground)
        near = _near(spots, 0.0, t.xy[other], t.r[other] + r)
        if near.any():
            oxy, orad = t.xy[other][near], t.r[other][near]
            gap = geom.edge_distances(spots, r, oxy, orad).min(axis=1)
            spots = spots[gap > SLACK]
    vals = values_at(grid, dist, spots)
    keep = vals < INF / 2
    spots, vals = spots[keep], vals[keep]
    reach = _reach(w, uid, starts, spots, allowance, other)
    for k, i in enumerate(models):
        if i not in moving:
            reach[k, :] = False
    best: tuple[tuple[Point, ...], float] | None = None
    front = float(vals.min()) if len(vals) else INF
    for cap in range(CAPS):
        placed = _place(starts, spots, vals, reach, r, front + cap)
        if placed is None:
            continue
        mean = progress_of(grid, dist, placed)
        if mean < float(start_vals.mean()) - 0.25 and (best is None or mean < best[1]):
            best = (placed, mean)
        break
    return best


def _lattice(w: Work, starts: FloatGrid, r: float, allowance: float) -> FloatGrid:
    """Spots on a triangular lattice (bases ``BASE_GAP`` apart) within ``allowance`` of a
    model's start where a base may stand: on the board (§2.1), off Impassable Ground
    (§4.7)."""
    step = 2 * r + BASE_GAP
    lo = starts.min(axis=0) - allowance
    hi = starts.max(axis=0) + allowance
    rows = np.arange(lo[1], hi[1] + 1e-9, step * math.sqrt(3) / 2)
    # the rows' x as NumPy lays them out, the even and the odd rows (the very numbers of a
    # row by row ``arange``; issue 10, session 31: no Python float per spot)
    even = np.arange(lo[0], hi[0] + 1e-9, step)
    odd = np.arange(lo[0] + step / 2, hi[0] + 1e-9, step)
    xs = [odd if k % 2 else even for k in range(len(rows))]
    arr = np.empty((sum(len(x) for x in xs), 2), dtype=np.float64)
    arr[:, 0] = np.concatenate(xs) if xs else np.empty(0)
    arr[:, 1] = np.repeat(rows, [len(x) for x in xs])
    near = geom.centre_distances(arr, starts).min(axis=1)  # x and y apart (session 35)
    arr = arr[near <= allowance - SLACK]
    g = w.field.board.geometry()
    ok: BoolGrid = np.asarray(g.on_board(arr, r), dtype=bool)
    ok &= ~_on_impassable(g, arr, r + SLACK)
    out: FloatGrid = arr[ok]
    return out


def _on_impassable(g: Any, pts: FloatGrid, r: float) -> BoolGrid:
    """``g.on_impassable(pts, r)``, asked only of the bases whose box meets the box of an
    Impassable piece (the others overlap none: §4.7; issue 10, session 31)."""
    out = np.zeros(len(pts), dtype=bool)
    if not g.impassable or not len(pts):
        return out
    rows = rows_near_boxes(pts, g.impassable.polys, r + 1e-6)
    if len(rows):
        out[rows] = np.asarray(g.on_impassable(pts[rows], r), dtype=bool)
    return out


def _reach(
    w: Work,
    uid: int,
    starts: FloatGrid,
    spots: FloatGrid,
    allowance: float,
    other: BoolGrid,
) -> BoolGrid:
    """``reach[k, s]``: model ``k`` can make the straight move to spot ``s``: no Impassable
    Ground under it (§4.7, the engine's own path check), within its allowance (halved by
    Difficult Ground on the way, §4.5), no other unit's base in its way (§4.7)."""
    t = w.table()
    r = float(w.info(uid).radius)
    # only the bases that could come within reach of a move (the others are clear of every one)
    reach = t.r[other] + r
    near = _near(starts, allowance, t.xy[other], reach)
    oxy, reach = t.xy[other][near], reach[near]
    # the moves within the allowance and clear of other units' bases, in one compiled loop
    # (``geom.centre_distances`` and the segments' gaps of session 35's ``_clear_of``, float
    # for float; issue 10, session 39)
    d, out = route_jit.reach(
        np.ascontiguousarray(starts),
        np.ascontiguousarray(spots),
        allowance - SLACK,
        np.ascontiguousarray(oxy),
        np.ascontiguousarray(reach),
        SLACK,
    )
    slow = float(min(math.floor(allowance / 2), allowance - 1)) - SLACK  # §4.5
    ks, ss = np.nonzero(out)
    # then the terrain, move by move; a move whose box meets no terrain's is clear (the path
    # check's own first test, all moves at once)
    near_terrain = w.field.may_cross(starts[ks], spots[ss], r)
    for k, s in zip(ks[near_terrain], ss[near_terrain], strict=True):
        a = (float(starts[k, 0]), float(starts[k, 1]))
        b = (float(spots[s, 0]), float(spots[s, 1]))
        pc = w.field.path(a, b, r)
        if pc.blocked_by is not None or (pc.difficult and d[k, s] > slow):
            out[k, s] = False
    return out


def _near(points: FloatGrid, allowance: float, centres: FloatGrid, reach: FloatGrid) -> BoolGrid:
    """Which ``centres`` may come within ``reach + SLACK`` of a
    segment starting at one of ``points`` and at most ``allowance`` long (with 0: of a point):
    a centre farther than ``allowance + reach + SLACK`` from the box round ``points`` is
    farther than ``reach + SLACK`` from every such segment, so it decides no test of
    ``route_jit.reach``'s clearance or of the spots' gaps (issue 10, session 30: the same
    results for a fraction of the table; ``_NEAR_MARGIN`` covers rounding)."""
    lo = points.min(axis=0) - (allowance + _NEAR_MARGIN + SLACK)
    hi = points.max(axis=0) + (allowance + _NEAR_MARGIN + SLACK)
    out_x = np.maximum(lo[0] - centres[:, 0], centres[:, 0] - hi[0])
    out_y = np.maximum(lo[1] - centres[:, 1], centres[:, 1] - hi[1])
    keep: BoolGrid = np.maximum(out_x, out_y) <= reach
    return keep


#: Inches added to :func:`_near`'s box (far above any rounding of the distances).
_NEAR_MARGIN = 0.01


def _place(
    starts: FloatGrid,
    spots: FloatGrid,
    vals: FloatGrid,
    reach: BoolGrid,
    r: float,
    cap: float,
) -> tuple[Point, ...] | None:
    """Greedy: the models that reach no spot stay where they stand first (§4.1 L1833-1835),
    then the model and spot cheapest on the field, each later spot within Coherency of one
    already taken (§4.2) and clear of them; a model may also stay where it stands. None when
    a model finds no place."""
    # one compiled loop (``route_jit.place``: the very places of the NumPy form, kept as the
    # test's oracle; issue 10, session 38)
    ok, out = route_jit.place(
        starts, spots, vals, reach, r, cap, INF, BASE_GAP / 2, COHERENCY - SLACK
    )
    if not ok:
        return None
    return tuple((x, y) for x, y in out.tolist())


def progress_of(grid: NavGrid, dist: FloatGrid, positions: Sequence[Point]) -> float:
    """The mean :func:`value_at` of ``positions`` (lower: nearer the goal)."""
    return float(np.mean([value_at(grid, dist, p) for p in positions]))


def values_at(grid: NavGrid, dist: FloatGrid, points: FloatGrid) -> FloatGrid:
    """:func:`value_at` of each of ``points`` (an (n, 2) array): the very same numbers, the
    points in open cells all at once (``NavGrid.at_many``; issue 10, session 30)."""
    vals = grid.at_many(dist, points[:, 0], points[:, 1])
    for k, v in enumerate(vals):
        if v >= INF / 2:
            vals[k] = value_at(grid, dist, (float(points[k, 0]), float(points[k, 1])))
    return np.asarray(vals, dtype=np.float64)


def value_at(grid: NavGrid, dist: FloatGrid, p: Point) -> float:
    """The field's value at ``p``; where its cell is blocked (a base hugging a wall stands
    in a cell the grid's clearance closes), the nearest open cell's plus the way there."""
    v = grid.at(dist, p)
    if v < INF / 2:
        return v
    best = INF
    for row, col in grid.open_near(p, 2):
        cx, cy = (col + 0.5) * CELL, (row + 0.5) * CELL
        best = min(best, float(dist[row, col]) + math.hypot(p[0] - cx, p[1] - cy))
    return best
