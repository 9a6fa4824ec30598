"""What automated placement (``coherency.place_unit``) keeps from one table to the next.

A placement question (a unit's shape, a centre, a Deployment Zone) is asked again and again
as the battle grows: once per unit in Reserve and Deployment spot, at every Deployment
Phase, on a table that changed only in part. Two things of an answer outlive its table:

* its candidate formations and which of them the board alone refuses (outside the zone's
  box or the zone, off the battlefield): they depend on the question, never on the models;
* for each candidate refused because a model would overlap another base (Core Rules
  001_d3f5e425c5e1196d.txt §1.3, §4.7), that base, its *witness*: while a base of the same
  unit stands at the same place with the same radius, the candidate overlaps it by the very
  same numbers, so it is refused again without being measured.

Every other candidate is measured anew on the table asked about, so the search finds the very
same formation as without this memory (only faster). This module imports nothing of the game
package but ``geom``'s types.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from warbench.rulesets.warsurge.game.geom import FloatArray, Point

#: Questions a battlefield remembers before it forgets them all (a long run of games).
LIMIT = 4096


@dataclass
class PlaceQuestion:
    """One placement question's candidates and what is known of them.

    ``static``: refused by the board alone. ``witness``: per candidate, the base ``(x, y,
    radius, unit)`` an earlier table refused it on (NaN where none is known)."""

    cands: list[Point]
    allpts: FloatArray
    static: npt.NDArray[np.bool_]
    witness: FloatArray = field(init=False)

    def __post_init__(self) -> None:
        self.witness = np.full((len(self.cands), 4), np.nan)


def questions(holder: Any) -> dict[Any, PlaceQuestion]:
    """The placement questions kept with ``holder`` (the game's battlefield object), emptied
    when more than :data:`LIMIT` are kept."""
    store: dict[Any, PlaceQuestion] | None = getattr(holder, "_place_questions", None)
    if store is None or len(store) > LIMIT:
        store = {}
        holder._place_questions = store
    return store


def base_set(xy: FloatArray, r: FloatArray, uid: npt.NDArray[Any]) -> frozenset[tuple[float, ...]]:
    """Every base of a table as ``(x, y, radius, unit)``."""
    return frozenset(
        zip(xy[:, 0].tolist(), xy[:, 1].tolist(), r.tolist(), uid.tolist(), strict=True)
    )


def still_refused(
    q: PlaceQuestion, rows: list[int], bases: frozenset[tuple[float, ...]]
) -> list[bool]:
    """For each candidate of ``rows``, whether its witness still stands on this table."""
    out = []
    for x, y, r, u in q.witness[rows].tolist():
        out.append(x == x and (x, y, r, int(u)) in bases)  # NaN (x != x): no witness
    return out
