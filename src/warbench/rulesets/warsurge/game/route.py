"""Paths round terrain: a cost-to-goal field on a grid of the battlefield (one planner for the
engine and the AI).

A straight move toward a point runs into Impassable Ground (Core Rules
001_d3f5e425c5e1196d.txt §4.7) where a player would go round it. :class:`NavGrid` lays a grid
of 1" cells over a board for one base radius: a cell is blocked when a base centred there
would be off the board or overlap Impassable Ground; entering Difficult Ground costs double
(its Move is halved, §4.5) and Dangerous Ground five times (a roll per model that ends there,
§4.6). :meth:`NavGrid.cost_to` is the cost of the cheapest 8-connected path from every cell
to the goal cells (a Dijkstra-equivalent relaxation in NumPy), and :meth:`NavGrid.steps`
proposes the straight moves whose end is cheapest on that field, so a unit goes round a
building instead of into it. Only the board's terrain is read; units are not obstacles here
(the engine's move check refuses moves through them).

Used by the engine's automatic Move when no straight move toward the point is legal
(``game.movement.plan_towards``, ``game.route_move``) and by the tactical player
(``warbench.ai.navigate`` re-exports these names).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely

FloatGrid = npt.NDArray[np.float64]

#: Cell size of the grid (inches).
CELL = 1.0
#: The multiplier of a cell's step cost in Difficult Ground (§4.5 halves a move through it).
DIFFICULT_COST = 2.0
#: The multiplier in Dangerous Ground (§4.6: a roll per model that ends its move there).
DANGEROUS_COST = 5.0
#: Blocked (and unreachable) cells' cost.
INF = 1e9

_SHIFTS = tuple((dy, dx) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dy or dx)


class NavGrid:
    """A board's grid for bases of ``radius`` (module docstring)."""

    def __init__(self, board: Any, radius: float) -> None:
        g = board.geometry()
        self.width = float(board.width)
        self.height = float(board.height)
        self.nx = max(1, math.ceil(self.width / CELL))
        self.ny = max(1, math.ceil(self.height / CELL))
        xs = (np.arange(self.nx) + 0.5) * CELL
        ys = (np.arange(self.ny) + 0.5) * CELL
        gx, gy = np.meshgrid(xs, ys)
        pts = np.column_stack([gx.ravel(), gy.ravel()])
        r = float(radius)
        blocked = ~np.asarray(g.on_board(pts, r))
        cost = np.ones(len(pts))
        if len(g.names):
            rr = np.full(len(pts), r)
            # the pieces that matter to a move (Impassable among them) each cell's base
            # overlaps, in one question: ``on_impassable`` is its Impassable columns (issue 10)
            inside = _standing_in(g, pts, rr)
            blocked |= (inside & g.impassable_mask[None, :]).any(axis=1)
            cost = np.where((inside & g.difficult[None, :]).any(axis=1), DIFFICULT_COST, cost)
            cost = np.where((inside & g.dangerous[None, :]).any(axis=1), DANGEROUS_COST, cost)
        self.blocked = blocked.reshape(self.ny, self.nx)
        self.cost = cost.reshape(self.ny, self.nx)
        self._fields: dict[tuple[int, ...], FloatGrid] = {}
        self._step_planes: FloatGrid | None = None
        # a step from a cell into its neighbour costs its length times the mean of both costs
        self._steps = [
            (dy, dx, math.hypot(dy, dx) * CELL * 0.5 * (self.cost + _shifted(self.cost, dy, dx)))
            for dy, dx in _SHIFTS
        ]

    # -- cells -------------------------------------------------------------------------------
    def cell(self, p: Sequence[float]) -> tuple[int, int]:
        """The (row, column) of the cell holding ``p`` (clamped to the board)."""
        col = min(self.nx - 1, max(0, int(p[0] / CELL)))
        row = min(self.ny - 1, max(0, int(p[1] / CELL)))
        return row, col

    def open_near(self, p: Sequence[float], reach: int = 4) -> list[tuple[int, int]]:
        """The open cells nearest ``p`` (its own cell when open), within ``reach`` cells."""
        r0, c0 = self.cell(p)
        if not self.blocked[r0, c0]:
            return [(r0, c0)]
        for k in range(1, reach + 1):
            ring = [
                (r, c)
                for r in range(r0 - k, r0 + k + 1)
                for c in range(c0 - k, c0 + k + 1)
                if max(abs(r - r0), abs(c - c0)) == k
                and 0 <= r < self.ny
                and 0 <= c < self.nx
                and not self.blocked[r, c]
            ]
            if ring:
                return ring
        return []

    # -- fields --------------------------------------------------------------------------------
    def cost_to(self, goals: Sequence[Sequence[float]]) -> FloatGrid:
        """Cost of the cheapest path from each cell to the nearest goal point (``INF`` where
        blocked or cut off); memoised per set of goal cells."""
        cells = sorted({c for p in goals for c in self.open_near(p)})
        key = tuple(v for c in cells for v in c)
        hit = self._fields.get(key)
        if hit is not None:
            return hit
        ny, nx = self.ny, self.nx
        # the field framed by a border of INF; its 3 x 3 neighbourhoods are one strided view
        # (``near[dy + 1, dx + 1, r, c]`` is the neighbour (dy, dx) of cell (r, c)), so a pass
        # is one sum with the steps' planes and one minimum over the nine (issue 10, session
        # 30: the relaxation of eight shifted views before, the very same fields)
        framed = np.full((ny + 2, nx + 2), INF)
        field = framed[1:-1, 1:-1]
        for r, c in cells:
            field[r, c] = 0.0
        s0, s1 = framed.strides
        near = np.lib.stride_tricks.as_strided(
            framed, shape=(3, 3, ny, nx), strides=(s0, s1, s0, s1), writeable=False
        )
        planes = self._planes()
        trial = np.empty((3, 3, ny, nx))
        flat = trial.reshape(9, ny, nx)
        dist = np.empty((ny, nx))
        for _ in range(nx * ny):
            # through the neighbour (dy, dx): its cost-to-goal plus the step into it
            np.add(near, planes, out=trial)
            np.minimum.reduce(flat, axis=0, out=dist)
            if np.array_equal(dist, field):
                break
            field[...] = dist
        if len(self._fields) > 64:
            self._fields.clear()
        self._fields[key] = dist
        return dist

    def _planes(self) -> FloatGrid:
        """The steps as a (3, 3, ny, nx) array for :meth:`cost_to`: ``[dy + 1, dx + 1]`` the
        step into the neighbour (dy, dx), the centre 0 (a cell keeps its value); a blocked
        cell's steps ``INF``, so it keeps ``INF`` (and ``INF`` plus a step is never less)."""
        if self._step_planes is None:
            planes = np.zeros((3, 3, self.ny, self.nx))
            for dy, dx, step in self._steps:
                planes[dy + 1, dx + 1] = np.where(self.blocked, INF, step)
            self._step_planes = planes
        return self._step_planes

    def at(self, dist: FloatGrid, p: Sequence[float]) -> float:
        """The field's value at ``p`` (its cell's), plus the distance to the cell's centre."""
        r, c = self.cell(p)
        cx, cy = (c + 0.5) * CELL, (r + 0.5) * CELL
        return float(dist[r, c]) + math.hypot(p[0] - cx, p[1] - cy)

    def at_many(self, dist: FloatGrid, xs: FloatGrid, ys: FloatGrid) -> list[float]:
        """:meth:`at` of the points ``(xs[i], ys[i])`` on the board, all at once: the very
        same numbers (the cells' indices and offsets in NumPy, the distances by
        ``math.hypot``; issue 10, session 30)."""
        cols = np.minimum(self.nx - 1, np.maximum(0, (xs / CELL).astype(np.int64)))
        rows = np.minimum(self.ny - 1, np.maximum(0, (ys / CELL).astype(np.int64)))
        ox = (xs - (cols + 0.5) * CELL).tolist()
        oy = (ys - (rows + 0.5) * CELL).tolist()
        base = dist[rows, cols].tolist()
        return [v + h for v, h in zip(base, map(math.hypot, ox, oy), strict=True)]

    def clear_line(self, a: Sequence[float], b: Sequence[float]) -> bool:
        """No blocked cell under the segment ``a``-``b`` (sampled every half cell), but for
        the cells it starts in: a unit standing where the grid is blocked (a wide clearance
        near a wall) may leave, never re-enter."""
        n = max(1, math.ceil(math.hypot(b[0] - a[0], b[1] - a[1]) / (CELL / 2)))
        t = np.linspace(0.0, 1.0, n + 1)
        xs = np.clip(((a[0] + (b[0] - a[0]) * t) / CELL).astype(int), 0, self.nx - 1)
        ys = np.clip(((a[1] + (b[1] - a[1]) * t) / CELL).astype(int), 0, self.ny - 1)
        hit = self.blocked[ys, xs]
        if not hit[0]:
            return not bool(hit.any())
        out = np.flatnonzero(~hit)
        return bool(len(out)) and not bool(hit[out[0] :].any())

    def steps(
        self, start: Sequence[float], allowance: float, dist: FloatGrid, directions: int = 24
    ) -> list[tuple[float, tuple[float, float]]]:
        """Straight moves of up to ``allowance`` from ``start`` whose line is clear, as
        ``(field value at the end, end point)``, cheapest first; only moves that make progress
        on ``dist`` (a lower value than ``start``'s)."""
        here = self.at(dist, start)
        out: list[tuple[float, tuple[float, float]]] = []
        for k in range(directions):
            a = 2 * math.pi * k / directions
            for share in (1.0, 0.6, 0.3):
                d = allowance * share
                end = (start[0] + d * math.cos(a), start[1] + d * math.sin(a))
                if not (0 <= end[0] <= self.width and 0 <= end[1] <= self.height):
                    continue
                if not self.clear_line(start, end):
                    continue
                v = self.at(dist, end)
                if v < here - 0.25 and v < INF / 2:
                    out.append((v, (round(end[0], 6), round(end[1], 6))))
                    break  # the longest clear move in this direction
        out.sort()
        return out


def _standing_in(g: Any, pts: FloatGrid, rr: FloatGrid) -> npt.NDArray[np.bool_]:
    """``g.standing_in(g.movement, pts, rr)``: the pieces that matter to a move each base
    overlaps, asked only of the bases whose box meets a piece's box (the others overlap
    none: a base within ``rr`` of a piece lies in its box grown by ``rr``; issue 10)."""
    out = np.zeros((len(pts), len(g.names)), dtype=bool)
    if not g.movement or not len(pts):
        return out
    rows = rows_near_boxes(pts, g.movement.polys, rr[:, None] + 1e-6)
    if len(rows):
        out[rows] = np.asarray(g.standing_in(g.movement, pts[rows], rr[rows]), dtype=bool)
    return out


def rows_near_boxes(pts: FloatGrid, polys: Any, grow: FloatGrid | float) -> npt.NDArray[np.intp]:
    """The rows of ``pts`` within ``grow`` (a number, or a column per point) of the bounding
    box of one of ``polys``: the only bases that may overlap a piece (issue 10, session 31)."""
    boxes = np.asarray(shapely.bounds(polys), dtype=np.float64)
    near: npt.NDArray[np.bool_] = np.logical_or.reduce(
        (pts[:, 0, None] + grow >= boxes[None, :, 0])
        & (pts[:, 0, None] - grow <= boxes[None, :, 2])
        & (pts[:, 1, None] + grow >= boxes[None, :, 1])
        & (pts[:, 1, None] - grow <= boxes[None, :, 3]),
        axis=1,
    )
    out: npt.NDArray[np.intp] = near.nonzero()[0]  # ``np.flatnonzero``'s (issue 10, session 35)
    return out


def _shifted(a: FloatGrid, dy: int, dx: int, fill: float = INF) -> FloatGrid:
    """``out[r, c] = a[r + dy, c + dx]`` (``fill`` off the grid)."""
    out = np.full_like(a, fill)
    ny, nx = a.shape
    rs = slice(max(0, -dy), ny - max(0, dy))
    cs = slice(max(0, -dx), nx - max(0, dx))
    rd = slice(max(0, dy), ny - max(0, -dy))
    cd = slice(max(0, dx), nx - max(0, -dx))
    out[rs, cs] = a[rd, cd]
    return out


_GRIDS: dict[tuple[Any, ...], NavGrid] = {}


def nav_grid(board: Any, radius: float) -> NavGrid:
    """The :class:`NavGrid` of ``board`` for ``radius`` (memoised by the board's terrain;
    a board met again, the very object, is found by its identity first: boards are frozen)."""
    mine = _BY_BOARD.get((id(board), float(radius)))
    if mine is not None and mine[0] is board:
        return mine[1]
    key = (
        float(board.width),
        float(board.height),
        round(float(radius), 2),
        tuple(
            (t.name, bool(t.impassable), bool(t.difficult), t.dangerous is not None, str(t.polygon))
            for t in board.terrain
        ),
    )
    hit = _GRIDS.get(key)
    if hit is None:
        if len(_GRIDS) > 32:
            _GRIDS.clear()
            _BY_BOARD.clear()  # (its grids are the ones of the key: never an older one)
        hit = _GRIDS[key] = NavGrid(board, radius)
    if len(_BY_BOARD) > 32:
        _BY_BOARD.clear()
    _BY_BOARD[(id(board), float(radius))] = (board, hit)
    return hit


# (id of a board, radius) -> (that board, its grid): the board is kept, so its id is not reused
_BY_BOARD: dict[tuple[int, float], tuple[Any, NavGrid]] = {}
