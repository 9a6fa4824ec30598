"""What automated placement (``coherency.place_unit``) keeps from one table to the next.

A placement question (a unit's shape, a centre, a Deployment Zone) is asked again and again
as the battle grows: once per unit in Reserve and Deployment spot, at every Deployment
Phase, on a table that changed only in part. Two things of an answer outlive its table:

* its candidate formations and which of them the board alone refuses (outside the zone's
  box or the zone, off the battlefield): they depend on the question, never on the models;
* for each candidate refused because a model would overlap another base (Core Rules
  001_d3f5e425c5e1196d.txt §1.3, §4.7), the bases its models overlap, its *witnesses*:
  while one of them (the same model of the same unit) stands at the same place with the same
  radius, the candidate overlaps it by the very same numbers, so it is refused again without
  being measured.

Every other candidate is measured anew on the table asked about, so the search finds the very
same formation as without this memory (only faster). This module imports nothing of the game
package but ``geom``'s types and the compiled loops that look the witnesses up and write them
down (``coherency_jit``, issue 10, session 38: one call for the NumPy form's dozen).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from warbench.rulesets.warsurge.game import coherency_jit
from warbench.rulesets.warsurge.game.geom import FloatArray, Point

#: Questions a battlefield remembers before it forgets them all (a long run of games; a
#: question keeps about 48 bytes per candidate model: 75 kB for 157 candidates of 10 models).
LIMIT = 512
#: A base's identity on the table: its unit times this, plus its model.
_MODELS = 1 << 20

IntArray = npt.NDArray[np.int64]


@dataclass
class PlaceQuestion:
    """One placement question's candidates ``(C, m, 2)`` and what is known of them.

    ``static``: refused by the board alone. ``who`` ``(C, m)``: per candidate and model, the
    base (unit and model, :func:`identities`) an earlier table refused it on, -1 where none is
    known; ``where`` ``(C, m, 3)``: that base's centre and radius then."""

    cands: list[Point]
    allpts: FloatArray
    static: npt.NDArray[np.bool_]
    who: IntArray = field(init=False)
    where: FloatArray = field(init=False)
    #: the last search found no place (every candidate is then measured at once)
    failed: bool = False

    def __post_init__(self) -> None:
        c, m = self.allpts.shape[:2]
        self.who = np.full((c, m), -1, dtype=np.int64)
        self.where = np.zeros((c, m, 3))

    def remember(self, rows: IntArray, base: npt.NDArray[np.intp], table: Standing) -> None:
        """Candidates ``rows`` measured on ``table``: ``base`` ``(len(rows), m)``, the row of
        the table index of a base each model overlaps (-1: none; a candidate without any is
        not refused for an overlap)."""
        coherency_jit.remember(self.who, self.where, rows, base, table.ident, table.xy, table.r)


def questions(holder: Any) -> dict[Any, PlaceQuestion]:
    """The placement questions kept with ``holder`` (the game's battlefield object), emptied
    when more than :data:`LIMIT` are kept."""
    store: dict[Any, PlaceQuestion] | None = getattr(holder, "_place_questions", None)
    if store is None or len(store) > LIMIT:
        store = {}
        holder._place_questions = store
    return store


@dataclass(frozen=True)
class Standing:
    """A table's bases (rows of its index) by identity (unit and model as one number),
    with the identities sorted for :func:`still_refused`."""

    ident: IntArray
    keys: IntArray
    order: IntArray
    xy: FloatArray
    r: FloatArray

    @staticmethod
    def of(xy: FloatArray, r: FloatArray, uid: IntArray, model: IntArray) -> Standing:
        ident = uid * _MODELS + model
        order = np.argsort(ident, kind="stable")
        return Standing(ident, ident[order], order, xy, r)


def still_refused(q: PlaceQuestion, rows: IntArray, table: Standing) -> npt.NDArray[np.bool_]:
    """For each candidate of ``rows``, whether one of its witnesses stands on this table (the
    same model of the same unit, at the same place, with the same radius)."""
    return coherency_jit.still_refused(
        q.who, q.where, rows, table.keys, table.order, table.xy, table.r
    )
