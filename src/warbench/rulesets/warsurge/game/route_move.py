"""A Move toward a point that finds a way: along the planner's path when no straight move is legal.

The engine's automatic Move toward a point (``game.movement.plan_towards``) first tries straight
translations of the unit's formation toward it (Core Rules 001_d3f5e425c5e1196d.txt §4.1: each
model moves in a straight line, within its allowance). Where every one of them is refused (a
building in the way, Impassable Ground, §4.7; another unit's bases, §1.3, §4.7), a player would
go round: measured (docs/game.md, the eleventh pass), 162 of 214 of the scripted player's Move
decisions at 1000 points ended with every option refused.

:func:`route_towards` then follows the cost-to-goal field of the board's grid (``game.route``:
Impassable Ground blocked, Difficult and Dangerous Ground dearer, §4.5-4.6):

1. the formation translated rigidly (every model the same straight move, §4.1 L1855) to the
   end cheapest on the field among ``DIRECTIONS`` headings and ``SHARES`` of the allowance,
   the first that the engine's own check accepts (``legal``: §4.1-4.7, §4.2, a Melee's lock),
   of the ``TRIES`` cheapest ends that are not certainly refused (``coherency.clearly_illegal``:
   off the board, through another unit's base; the grid does not see units);
2. else the models placed one by one (``game.route_formation``: each its own straight move, the
   unit narrowing into a column, §4.1 L1833-1848, §4.2), when that is legal too.

Only moves that make progress on the field count (its value lower than where the unit stands),
so a unit boxed in finds none and the Move is refused as before (§4.7).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from warbench.rulesets.warsurge.game import bases, geom
from warbench.rulesets.warsurge.game.coherency import clearly_illegal
from warbench.rulesets.warsurge.game.move_prefilter import (
    clearly_blocked_headings,
    crosses_units,
)
from warbench.rulesets.warsurge.game.route import INF, nav_grid
from warbench.rulesets.warsurge.game.route_formation import (
    may_place,
    placed_one_by_one,
    value_at,
)
from warbench.rulesets.warsurge.game.work import Work

Point = tuple[float, float]

#: Headings tried round the formation's centre (every 15 degrees).
DIRECTIONS = 24
#: Shares of the allowance tried on each heading.
SHARES = (1.0, 0.75, 0.5, 0.25)
_ANGLES = [2 * math.pi * k / DIRECTIONS for k in range(DIRECTIONS)]
_COS = np.asarray([math.cos(a) for a in _ANGLES])
_SIN = np.asarray([math.sin(a) for a in _ANGLES])
_SHARES = np.asarray(SHARES)
#: The rigid moves checked by the engine, cheapest on the field first.
TRIES = 12
#: Progress (inches on the field) a move must make to count.
PROGRESS = 0.25


def route_towards(
    w: Work,
    uid: int,
    to: Point,
    allowance: float,
    models: Sequence[int],
    free: Sequence[int],
    legal: Callable[[tuple[Point, ...]], bool],
) -> tuple[Point, ...] | None:
    """The unit's positions (``models``' order; only ``free`` move) after a move toward ``to``
    along the planner's path (module docstring), or None when no legal move makes progress."""
    if allowance <= 0 or not free:
        return None
    u = w.units[uid]
    grid = nav_grid(w.field.board, float(w.info(uid).radius))
    centre = w.centre(uid, free)
    fs = set(free)
    # every heading and share at once (the very numbers of a loop over them: the same
    # products and sums, ``NavGrid.at_many``; issue 10, session 30)
    ds = float(allowance) * _SHARES
    dxs, dys = (ds[None, :] * _COS[:, None]).ravel(), (ds[None, :] * _SIN[:, None]).ravel()
    xs, ys = float(centre[0]) + dxs, float(centre[1]) + dys
    inside = ((xs >= 0) & (xs <= grid.width) & (ys >= 0) & (ys <= grid.height)).nonzero()[0]
    # the ends that certainly fail (off the board, through another unit's base) are known at
    # once, all together (``coherency.clearly_illegal``, each end on its own): where every one
    # does and the unit cannot be placed model by model (a single model, shaped bases), no
    # route exists and its field is not needed
    starts = geom.as_array([u.pos[i] for i in models])
    rejected: list[bool]
    if not len(inside):
        rejected = []
    elif crosses_units(w, uid):  # flight, Terrain units, Incorporeal: only the true check
        rejected = [False] * len(inside)
    elif bases.shaped(w.setup):  # oval and rectangular bases (§1.3): their outlines
        shift = np.asarray([i in fs for i in models], dtype=bool)[None, :, None]
        vecs = np.stack([dxs[inside], dys[inside]], axis=1)
        cands = np.where(shift, starts[None] + vecs[:, None, :], starts[None])
        rejected = clearly_illegal(w, uid, starts, cands).tolist()
    else:  # round bases: every heading's lengths at once (issue 10, session 31)
        moving = [k for k, i in enumerate(models) if i in fs]
        blocked = clearly_blocked_headings(w, uid, starts, moving, _COS, _SIN, ds)
        rejected = blocked.ravel()[inside].tolist()
    placeable = may_place(w, uid)
    if not placeable and all(rejected):
        return None
    dist = grid.cost_to([to])
    here = value_at(grid, dist, (float(centre[0]), float(centre[1])))
    if here >= INF / 2:
        return None
    vals = grid.at_many(dist, xs[inside], ys[inside])
    ks = (inside // len(SHARES)).tolist()
    # the TRIES cheapest of the ends that may be legal (issue 10, session 30: on a crowded
    # table most of the cheapest ends run into other units' bases, which the grid does not see)
    ends = sorted(
        (v, k, dx, dy)
        for v, k, dx, dy, no in zip(
            vals, ks, dxs[inside].tolist(), dys[inside].tolist(), rejected, strict=True
        )
        if v < here - PROGRESS and not no
    )
    for _v, _k, dx, dy in ends[:TRIES]:
        new = tuple((u.pos[i][0] + dx, u.pos[i][1] + dy) if i in fs else u.pos[i] for i in models)
        if legal(new):
            return new
    if not placeable:
        return None
    got = placed_one_by_one(w, uid, grid, dist, allowance, free)
    if got is None:
        return None
    placed = dict(zip(models, got[0], strict=True))
    new = tuple(placed[i] for i in models)
    if not np.isfinite(np.asarray(new)).all() or not legal(new):
        return None
    return new
