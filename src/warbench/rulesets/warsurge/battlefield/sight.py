"""Line of sight, partial line of sight and the Cover Bonus (Core Rules
001_d3f5e425c5e1196d.txt §5.3-5.6, §5.9, §5.13, §5.15), top-down on a flat board.

Method (rulings 1-5 "WARSURGE battlefield" in ``docs/rulings.md``):

* **Line of sight** between two models exists when some straight line from any part of one base
  to any part of the other passes through no obstacle (§5.4 "if your Unit can see any of the
  enemy model or base"). Obstacles are the bases of models of *other* units (the caller leaves
  the firer's and the target's units out, §5.3, §5.4) and terrain that blocks line of sight,
  except the pieces either model stands in (a model in a ruin sees out and is seen). The lines
  tried are the centre line, then :data:`LOS_SAMPLES` x :data:`LOS_SAMPLES` lines between points
  spread across each base's width as seen from the other. It is symmetric: "Targeting goes both
  ways" (§5.4).
* **Partial line of sight** (§5.5, §5.13): a target model can be a casualty when at least one
  attacking model has line of sight to it.
* **Obscured** (§5.6): :data:`COVER_RAYS` rays from the attacker's centre to points evenly
  spread across the target's base as seen from the attacker; the fraction of rays passing
  through another unit's base, LoS-blocking terrain or terrain with a Cover Bonus (other than
  pieces the attacker stands in) is the fraction obscured. A target model's obscured fraction
  is the smallest over the attacking models (the best view decides). The unit gains the Cover
  Bonus when 50% or more of its models are 50% or more obscured, or in a Cover Area.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely

from warbench.rulesets.warsurge.battlefield.geometry import (
    EPS,
    BoardGeometry,
    BoolArray,
    FloatArray,
    IntArray,
    as_discs,
    segment_point_distance,
)
from warbench.rulesets.warsurge.battlefield.model import Board, Disc

__all__ = [
    "COVER_RAYS",
    "LOS_SAMPLES",
    "CoverReport",
    "attackers_in_sight",
    "cover_bonus",
    "cover_report",
    "line_of_sight",
    "obscured_fraction",
    "sight_matrix",
    "visible_models",
]

#: Points tried across each base for line of sight (§5.4): 5 x 5 lines per pair of models.
LOS_SAMPLES = 5
#: Rays per target model for the obscured fraction (§5.6); even, so half-hidden is exactly 50%.
COVER_RAYS = 10
#: Lines start and end this fraction inside the edge of a base, so a line grazing a base that
#: touches the firer or the target is not blocked by it.
_SHRINK = 1 - 1e-3


class _Scene:
    """One query's models as arrays, with the LoS-blocking pieces each model stands in."""

    __slots__ = ("ar", "axy", "br", "bxy", "excl_a", "excl_t", "geom", "tr", "txy")

    def __init__(
        self,
        board: Board,
        attackers: Sequence[Any],
        targets: Sequence[Any],
        blockers: Sequence[Any],
    ) -> None:
        self.geom: BoardGeometry = board.geometry()
        self.axy, self.ar = as_discs(attackers)
        self.txy, self.tr = as_discs(targets)
        self.bxy, self.br = as_discs(blockers)
        self.excl_a: BoolArray | None = None
        self.excl_t: BoolArray | None = None

    def nothing_in_between(self) -> bool:
        """True when no blocker or LoS-blocking terrain lies near both units (fast path)."""
        g = self.geom
        allxy = np.vstack([self.axy, self.txy])
        allr = np.concatenate([self.ar, self.tr])
        lo = (allxy - allr[:, None]).min(axis=0)
        hi = (allxy + allr[:, None]).max(axis=0)
        if len(self.bxy):
            near = (
                (self.bxy[:, 0] + self.br > lo[0])
                & (self.bxy[:, 0] - self.br < hi[0])
                & (self.bxy[:, 1] + self.br > lo[1])
                & (self.bxy[:, 1] - self.br < hi[1])
            )
            if near.any():
                return False
        if g.los:
            box = shapely.box(lo[0], lo[1], hi[0], hi[1])
            if g.los.query(box, "intersects").shape[1]:
                return False
        return True

    def exclusions(self) -> tuple[BoolArray, BoolArray]:
        if self.excl_a is None or self.excl_t is None:
            g = self.geom
            self.excl_a = g.standing_in(g.los, self.axy, self.ar)
            self.excl_t = g.standing_in(g.los, self.txy, self.tr)
        return self.excl_a, self.excl_t

    def blocked(self, p0: FloatArray, p1: FloatArray, ia: IntArray, it: IntArray) -> BoolArray:
        """Which segments ``p0 -> p1`` (from attacker ``ia`` to target ``it``) are blocked."""
        blocked = np.zeros(len(p0), dtype=bool)
        if len(self.bxy):
            dist = segment_point_distance(p0, p1, self.bxy)
            blocked |= (dist < self.br[None, :] - EPS).any(axis=1)
        g = self.geom
        if g.los:
            todo = np.flatnonzero(~blocked)
            if len(todo):
                lines = shapely.linestrings(np.stack([p0[todo], p1[todo]], axis=1))
                li, pi = g.los.query(lines, "intersects")
                if len(li):
                    excl_a, excl_t = self.exclusions()
                    seg = todo[li]
                    real = ~(excl_a[ia[seg], pi] | excl_t[it[seg], pi])
                    blocked[seg[real]] = True
        return blocked

    def sight(self, ia: IntArray, it: IntArray, centre_done: bool = False) -> BoolArray:
        """Line of sight for the pairs ``(ia[q], it[q])``: centre lines first, then samples."""
        ok = np.zeros(len(ia), dtype=bool)
        if not len(ia):
            return ok
        if not centre_done:
            ok = ~self.blocked(self.axy[ia], self.txy[it], ia, it)
        rest = np.flatnonzero(~ok)
        if len(rest):
            ra, rt = ia[rest], it[rest]
            k = LOS_SAMPLES
            s = np.linspace(-1.0, 1.0, k) * _SHRINK
            pa = _across(self.axy[ra], self.txy[rt], self.ar[ra], s)  # (R, k, 2)
            pt = _across(self.txy[rt], self.axy[ra], self.tr[rt], s)
            p0 = np.broadcast_to(pa[:, :, None, :], (len(rest), k, k, 2)).reshape(-1, 2)
            p1 = np.broadcast_to(pt[:, None, :, :], (len(rest), k, k, 2)).reshape(-1, 2)
            qa = np.repeat(ra, k * k)
            qt = np.repeat(rt, k * k)
            b = self.blocked(p0, p1, qa, qt).reshape(len(rest), k * k)
            ok[rest] = ~b.all(axis=1)
        return ok


def _across(frm: FloatArray, to: FloatArray, r: FloatArray, s: FloatArray) -> FloatArray:
    """``(Q, len(s), 2)`` points across the bases at ``frm`` (radius ``r``), perpendicular to
    the direction towards ``to``, at fractions ``s`` of the radius."""
    d = to - frm
    length = np.hypot(d[:, 0], d[:, 1])
    safe = np.where(length > 0, length, 1.0)
    u = np.where(length[:, None] > 0, d / safe[:, None], np.array([1.0, 0.0]))
    n = np.stack([-u[:, 1], u[:, 0]], axis=1)
    return frm[:, None, :] + (r[:, None] * s[None, :])[:, :, None] * n[:, None, :]  # type: ignore[no-any-return]


def sight_matrix(
    board: Board,
    attackers: Sequence[Disc],
    targets: Sequence[Disc],
    blockers: Sequence[Any] = (),
) -> BoolArray:
    """``(len(attackers), len(targets))``: which attacking model has line of sight to which
    target model (§5.4). ``blockers`` are the bases of every model of *other* units."""
    scene = _Scene(board, attackers, targets, blockers)
    n, m = len(scene.axy), len(scene.txy)
    if n == 0 or m == 0:
        return np.zeros((n, m), dtype=bool)
    if scene.nothing_in_between():
        return np.ones((n, m), dtype=bool)
    ia, it = np.divmod(np.arange(n * m), m)
    return scene.sight(ia, it).reshape(n, m)


def line_of_sight(board: Board, src: Disc, dst: Disc, blockers: Sequence[Any] = ()) -> bool:
    """Whether model ``src`` can see model ``dst`` (and so ``dst`` can see ``src``) (§5.4).

    ``src`` and ``dst`` are ``(centre, radius)``; ``blockers`` the bases of models of other
    units than theirs (models never block their own unit, §5.3, §5.4).
    """
    return bool(sight_matrix(board, [src], [dst], blockers)[0, 0])


def visible_models(
    board: Board,
    attackers: Sequence[Disc],
    targets: Sequence[Disc],
    blockers: Sequence[Any] = (),
) -> list[bool]:
    """Which target models at least one attacker can see, so can be casualties (§5.5, §5.13).

    "The models out of sight do not exist for casualty purposes" (§5.5). In a Melee line of sight
    is ignored (§5.9, §5.13): the caller then treats every model as visible.
    """
    scene = _Scene(board, attackers, targets, blockers)
    n, m = len(scene.axy), len(scene.txy)
    if n == 0 or m == 0:
        return [False] * m
    if scene.nothing_in_between():
        return [True] * m
    ia, it = np.divmod(np.arange(n * m), m)
    centre = ~scene.blocked(scene.axy[ia], scene.txy[it], ia, it)
    seen: BoolArray = np.asarray(centre.reshape(n, m).any(axis=0))
    hidden = np.flatnonzero(~seen)
    if len(hidden):
        ja, jt = np.divmod(np.arange(n * len(hidden)), len(hidden))
        jt = hidden[jt]
        ok = scene.sight(ja, jt, centre_done=True).reshape(n, len(hidden))
        seen[hidden] = ok.any(axis=0)
    return [bool(v) for v in seen]


def attackers_in_sight(
    board: Board,
    attackers: Sequence[Disc],
    targets: Sequence[Disc],
    blockers: Sequence[Any] = (),
) -> list[bool]:
    """Which attacking models can see at least one target model, so can attack (§5.3, §5.5
    NOTE: "only Cultist B could attack")."""
    matrix = sight_matrix(board, attackers, targets, blockers)
    return [bool(matrix[i].any()) for i in range(len(matrix))]


# --------------------------------------------------------------------------- §5.6 cover


@dataclass(frozen=True, slots=True)
class CoverReport:
    """The Cover Bonus of a targeted unit against one attacking unit, and why (§5.6).

    ``obscured`` is each target model's obscured fraction (0 to 1) from the attacker with the
    best view; ``levels`` the Cover Bonus each model would give (0 when less than 50%
    obscured and not in a Cover Area); ``sources`` the terrain pieces (and ``"other units"``)
    that obscured them.
    """

    bonus: int
    obscured: tuple[float, ...]
    levels: tuple[int, ...]
    obscured_models: int
    models: int
    sources: tuple[str, ...]
    reason: str
    rule: str = "001_d3f5e425c5e1196d.txt §5.6"

    def __int__(self) -> int:
        return self.bonus


def _cover_rays(
    scene: _Scene, ia: IntArray, it: IntArray
) -> tuple[FloatArray, FloatArray, IntArray, IntArray]:
    k = COVER_RAYS
    s = ((np.arange(k) + 0.5) / k * 2 - 1) * _SHRINK
    pt = _across(scene.txy[it], scene.axy[ia], scene.tr[it], s)  # (Q, k, 2)
    p0 = np.repeat(scene.axy[ia], k, axis=0)
    return p0, pt.reshape(-1, 2), np.repeat(ia, k), np.repeat(it, k)


def cover_report(
    board: Board,
    attackers: Sequence[Disc],
    targets: Sequence[Disc],
    blockers: Sequence[Any] = (),
    *,
    melee: bool = False,
) -> CoverReport:
    """The Cover Bonus the target unit gains against the attacking unit (§5.6).

    "If a Unit is Targeted and 50% or more of the Unit's models are 50% or more obscured, the
    entire Unit gains a Cover Bonus ... +1 to their Defence Stat." A piece's agreed bonus
    (``Terrain.cover``) replaces the +1; with several, the unit gets the highest bonus that 50%
    or more of its models reach. Models in a Cover Area count as obscured. In a Melee cover is
    ignored (§5.9).
    """
    m = len(targets)
    if melee:
        return CoverReport(0, (0.0,) * m, (0,) * m, 0, m, (), "cover is ignored in a Melee", "§5.9")
    scene = _Scene(board, attackers, targets, blockers)
    n = len(scene.axy)
    g = scene.geom
    if m == 0:
        return CoverReport(0, (), (), 0, 0, (), "no target models")
    sources: set[str] = set()
    levels = np.zeros(m, dtype=np.intp)
    frac = np.zeros(m)
    if n and (len(scene.bxy) or g.obscuring):
        k = COVER_RAYS
        ia, it = np.divmod(np.arange(n * m), m)
        p0, p1, ra, _rt = _cover_rays(scene, ia, it)
        value = np.zeros(len(p0), dtype=np.intp)
        if len(scene.bxy):
            dist = segment_point_distance(p0, p1, scene.bxy)
            hit_disc = (dist < scene.br[None, :] - EPS).any(axis=1)
            value[hit_disc] = 1
            if hit_disc.any():
                sources.add("other units")
        if g.obscuring:
            lines = shapely.linestrings(np.stack([p0, p1], axis=1))
            li, pi = g.obscuring.query(lines, "intersects")
            if len(li):
                own = g.standing_in(g.obscuring, scene.axy, scene.ar)
                real = ~own[ra[li], pi]
                li, pi = li[real], pi[real]
                np.maximum.at(value, li, g.cover_value[pi])
                sources.update(g.names[p] for p in np.unique(pi))
        per_pair = value.reshape(n * m, k)
        pair_frac = (per_pair > 0).mean(axis=1)
        # the bonus reached by half or more of the rays: the median-from-the-top value
        pair_level = -np.sort(-per_pair, axis=1)[:, math.ceil(k / 2) - 1]
        frac = pair_frac.reshape(n, m).min(axis=0)
        levels = pair_level.reshape(n, m).min(axis=0)
    if g.areas:
        pts = shapely.points(scene.txy)
        ti, pi = g.areas.query(pts, "intersects")
        for j, p in zip(ti, pi, strict=True):
            if g.polys[p].contains(pts[j]):
                levels[j] = max(levels[j], g.cover_value[p])
                sources.add(g.names[p])
    need = math.ceil(m / 2)
    bonus = int(-np.sort(-levels)[need - 1])
    count = int((levels > 0).sum())
    pct = round(100 * count / m)
    why = ", ".join(sorted(sources)) or "nothing"
    if bonus:
        reason = (
            f"{count} of {m} models ({pct}%) are 50% or more obscured (by {why}): "
            f"Cover Bonus +{bonus} Defence"
        )
    else:
        reason = f"{count} of {m} models ({pct}%) are 50% or more obscured; fewer than 50%"
    return CoverReport(
        bonus,
        tuple(float(v) for v in frac),
        tuple(int(v) for v in levels),
        count,
        m,
        tuple(sorted(sources)),
        reason,
    )


def cover_bonus(
    board: Board,
    attackers: Sequence[Disc],
    targets: Sequence[Disc],
    blockers: Sequence[Any] = (),
    *,
    melee: bool = False,
) -> int:
    """The Cover Bonus (+Defence) of the target unit against the attacking unit (§5.6); see
    :func:`cover_report` for the method and the explanation."""
    return cover_report(board, attackers, targets, blockers, melee=melee).bonus


def obscured_fraction(
    board: Board, attacker: Disc, target: Disc, blockers: Sequence[Any] = ()
) -> float:
    """How much of ``target``'s base is obscured as seen from ``attacker`` (0 to 1, §5.6)."""
    return cover_report(board, [attacker], [target], blockers).obscured[0]
