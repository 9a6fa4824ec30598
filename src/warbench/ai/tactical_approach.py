"""A habit of the ``tactical`` player tried in session 34 (issue 15): **the squad's
approach** (switch ``TacticalBot.squad_approach``).

A melee unit does all its damage once it reaches Base Contact (§4.3, Core Rules
001_d3f5e425c5e1196d.txt L1990-1994), so every Attack Phase it spends crossing open ground
under an enemy gun it cannot answer is loss without return. Against random-legal the
Assault Squad of ``skirmish_a`` was shot down on its way to the Urban Hunter Car in 10 of
the 16 lost Red games (docs/ai.md, session 33), mostly by the Car's Autocannon in Game Turns
2-4. Two changes, for a melee unit only:

* **the path out of sight first** (:func:`hidden_first`): of the moves along the path
  planner's ways (``game/route.py``) that make at least half the progress of the best, the
  one where the enemy's guns are expected to take least next Attack Phase — out of their
  Line of Sight (§5.4-5.5), else with a Cover Bonus (§5.6) — comes first, then the
  farthest; the planner's own order (nearly the most progress, within a third of the
  allowance) kept a squad on the straight way in the Car's sight where a building hid a
  way a little longer;
* **no standing in sight** (:func:`runs_when_seen`): the Dash of a melee unit that an
  enemy gun already reaches where it stands is not refused for the exposure where it ends
  (the sixth session's ``melee_dash_hidden`` held it there, under the same gun, for a whole
  Game Turn); it runs along the least exposed of those ways. A unit hidden where it stands
  keeps the sixth session's rule.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

M = TypeVar("M")

#: A move along the path must make at least this share of the best move's progress.
APPROACH_SHARE = 0.5


def hidden_first(
    moves: Sequence[M],
    cost: Mapping[M, float],
    here: float,
    exposure: Callable[[M], float],
) -> list[M]:
    """``moves`` (best progress first) with those whose progress (``here`` less the path's
    ``cost`` to the enemy where each ends) is at least :data:`APPROACH_SHARE` of the best
    one's reordered least ``exposure`` first, then most progress; the rest after them."""
    if len(moves) < 2:
        return list(moves)
    best = here - cost.get(moves[0], here)
    if best <= 0.0:
        return list(moves)
    near = [m for m in moves if here - cost.get(m, here) >= APPROACH_SHARE * best]
    seen = {id(m): exposure(m) for m in near}
    near.sort(key=lambda m: (seen[id(m)], cost.get(m, here)))
    return near + [m for m in moves if all(m is not n for n in near)]


def runs_when_seen(now: float) -> bool:
    """Whether a melee unit exposed to ``now`` expected point value where it stands Dashes
    regardless of the exposure where the Dash ends (:func:`hidden_first` orders the ways)."""
    return now > 0.0
