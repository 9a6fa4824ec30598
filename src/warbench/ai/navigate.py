"""Paths around terrain for the AI's moves: the grid planner of the game layer.

The planner (:class:`NavGrid`: a grid of 1" cells over a board for one base radius, blocked
where a base would be off the board or overlap Impassable Ground, Core Rules
001_d3f5e425c5e1196d.txt §4.7; Difficult Ground costing double, §4.5, Dangerous Ground five
times, §4.6; :meth:`NavGrid.cost_to` the cost-to-goal field, :meth:`NavGrid.steps` the straight
moves cheapest on it) lives in ``warbench.rulesets.warsurge.game.route`` since session 29
(s29-route, issue 10): the engine's automatic Move uses it when no straight move toward a
point is legal (``game.movement.plan_towards``). The tactical player aims its moves along the
same field; this module keeps the names it has always imported.
"""

from __future__ import annotations

from warbench.rulesets.warsurge.game.route import (
    CELL,
    DANGEROUS_COST,
    DIFFICULT_COST,
    INF,
    FloatGrid,
    NavGrid,
    nav_grid,
)

__all__ = ["CELL", "DANGEROUS_COST", "DIFFICULT_COST", "INF", "FloatGrid", "NavGrid", "nav_grid"]
