"""Formations that pass: a unit's models placed one by one where the rigid formation stalls.

The engine's automatic Move (``game.movement.plan_towards``) translates the whole formation in
a straight line whenever one is legal (it goes round only when none is, session 29), and the
tactical player aims that line along the cheapest path for the
formation's centre (``ai.navigate``). A wide formation whose centre's path hugs a building's
wall cannot follow it: measured (docs/ai.md, session 29), the Red roster's ten Troopers stood
against a wall on the city board for Game Turns on end, Moves of 0.3" and 2.7" of their 6".

The rules move models, not formations: Core Rules 001_d3f5e425c5e1196d.txt §4.1 L1833-1839
("You do not need to move every model in a Unit ... however the Unit must maintain
Coherency"), L1845-1848 (each model is placed within its Move of where it stood) and L1855
("move the rest of the models in the Unit using that first model as a reference"); §4.2
L1893-1911 (every model within 2" of another, one group). So :func:`reshaped` places each
model itself: on a lattice of spots round the unit, each spot reachable by the model's own
straight move (no Impassable Ground under it on the navigation grid, §4.7; within its
allowance, §4.1; clear of other units' bases, §4.7), the spot that is cheapest on the
cost-to-goal field first, every later model within 2" of one already placed (§4.2), so the
formation narrows into a column where a gap is narrow and files round a corner. The engine
checks the result like any Move with positions (``game.coherency.problem_positions``).

The placement itself lives in the game layer since session 29 (s29-route, issue 10:
``game.route_formation``), where the engine's automatic Move uses it too; this module keeps
the tactical player's names and its choice between the rigid path moves and the placement.
"""

from __future__ import annotations

import numpy as np

from warbench.ai.navigate import FloatGrid, NavGrid
from warbench.rulesets.warsurge.game.actions import Move
from warbench.rulesets.warsurge.game.movement import mover_models
from warbench.rulesets.warsurge.game.route_formation import (
    BASE_GAP,
    CAPS,
    SLACK,
    placed_one_by_one,
    progress_of,
    value_at,
)
from warbench.rulesets.warsurge.game.work import Work

Point = tuple[float, float]

__all__ = [
    "BASE_GAP",
    "BETTER_BY",
    "CAPS",
    "SLACK",
    "STALLED",
    "pass_moves",
    "progress_of",
    "reshaped",
    "value_at",
]


def reshaped(
    w: Work, uid: int, grid: NavGrid, dist: FloatGrid, allowance: float, dash: bool
) -> tuple[tuple[Point, ...], float] | None:
    """The unit's models placed one by one toward the goal of ``dist``
    (``game.route_formation.placed_one_by_one``), those that may move in a Dash only (§5.1),
    with the mean of their values on the field; None when no coherent placement makes
    progress over where they stand or the unit's bases are not round (§1.3)."""
    free, _stay = mover_models(w, uid, dash)  # Battle/Heavy users stay in a Dash (§5.1)
    return placed_one_by_one(w, uid, grid, dist, allowance, free)


#: A formation is stalled when its best rigid path move gains less than this share of its
#: allowance on the field.
STALLED = 0.5
#: The placement model by model is offered when it gains this much more (inches on the field).
BETTER_BY = 1.0


def pass_moves(
    w: Work,
    uid: int,
    start: Point,
    grid: NavGrid,
    dist: FloatGrid,
    allowance: float,
    dash: bool,
    moves: list[Move],
    progress: dict[Move, float],
    landing: dict[Move, Point],
) -> list[Move]:
    """``moves`` (the rigid path moves of the tactical player, best first, ``progress``
    holding each one's value on the field where its centre lands), with the placement model
    by model (:func:`reshaped`) first when the best of them gains less than ``STALLED`` of
    the allowance and the placement gains ``BETTER_BY`` more; its value and landing are
    recorded like theirs."""
    here = grid.at(dist, start)
    rigid = here - min((progress.get(m, here) for m in moves), default=here)
    if rigid >= STALLED * allowance:
        return moves
    got = reshaped(w, uid, grid, dist, allowance, dash)
    if got is None:
        return moves
    placed, mean = got
    starts = [(float(x), float(y)) for x, y in w.xy(uid, w.units[uid].present())]
    gain = progress_of(grid, dist, starts) - mean
    if gain < rigid + BETTER_BY:
        return moves
    m = Move(uid, positions=placed, dash=dash)
    centre = np.asarray(placed, dtype=np.float64).mean(axis=0)
    progress[m] = here - gain
    landing[m] = (float(centre[0]), float(centre[1]))
    return [m, *moves]
