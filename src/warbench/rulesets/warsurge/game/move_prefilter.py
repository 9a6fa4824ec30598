"""Candidate Moves that certainly fail, found all at once (issue 10, session 31).

The automated Moves try candidates in an order and take the first legal one
(``movement.plan_towards``, ``movement.plan_engage``, ``route_move.route_towards``); each
candidate's true check (``coherency.problem_positions``: Core Rules 001_d3f5e425c5e1196d.txt
§2.1 the battlefield's edge, §4.7 other units' bases are Impassable Ground) costs a dozen NumPy
calls. The tests here refuse, in one NumPy pass for every candidate, only what fails those
checks by more than ``OVERLAP_TOL`` and ``coherency``'s margin, as
``coherency.clearly_illegal`` does, so the callers' own checks, asked of the other candidates
in the same order, find the very same Moves.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from warbench.rulesets.warsurge.effects.movement import flight
from warbench.rulesets.warsurge.game import bases, perk_incorporeal, route_jit
from warbench.rulesets.warsurge.game.coherency import _MARGIN
from warbench.rulesets.warsurge.game.geom import OVERLAP_TOL, FloatArray
from warbench.rulesets.warsurge.game.perk_terrain_unit import passable
from warbench.rulesets.warsurge.game.work import Work


def clearly_blocked_headings(
    w: Work,
    uid: int,
    starts: FloatArray,
    moving: Sequence[int],
    ux: FloatArray,
    uy: FloatArray,
    lengths: FloatArray,
) -> npt.NDArray[np.bool_]:
    """:func:`coherency.clearly_illegal` of the rigid ends of a route (``route_move``): the
    models ``moving`` (rows of ``starts``, a unit on round bases) translated ``lengths[s]``
    along the heading ``(ux[d], uy[d])``, the other models staying put; ``out[d, s]`` True
    when a moving model ends clearly off the battlefield, or its straight path (its end
    included) comes within another unit's base by more than ``OVERLAP_TOL`` and the margin.
    Along one heading every length's path is a prefix of the longest, so a base refuses
    every length beyond the point where the first model's path enters it (the along-track
    distance less the half chord): one pass over (headings, models, bases), not one per
    length and heading as ``clearly_illegal`` measures them (issue 10, session 31)."""
    f = w.field
    r = w.info(uid).radius
    t = w.table()
    # one compiled loop (``route_jit``: the ends off the battlefield, the bases near the box
    # of every path, where the first path enters one; issue 10, session 38, the very floats
    # of the NumPy form kept as the test's oracle)
    return route_jit.headings_blocked(
        starts[list(moving)],
        ux,
        uy,
        lengths,
        float(r),
        r - 1e-6 - _MARGIN,
        f.width - r + 1e-6 + _MARGIN,
        f.height - r + 1e-6 + _MARGIN,
        t.xy,
        t.r,
        t.uid,
        uid,
        r - OVERLAP_TOL - _MARGIN,
    )


def clearly_blocked_each(
    w: Work, uid: int, starts: FloatArray, moving: Sequence[int], vecs: FloatArray
) -> list[list[bool]]:
    """What :func:`coherency.clearly_illegal` refuses, model by model, of any moves:
    ``out[c][j]`` is True when the model ``moving[j]`` moved alone by ``vecs[c]`` ends
    clearly off the battlefield or passes clearly through another unit's base (the path's
    point nearest each base: the along-track distance clamped to the move's length;
    ``movement.plan_engage``'s followers, each checked on its own). Only for a unit whose
    every move is measured against every other unit's base (:func:`plain_mover`)."""
    return [[bool(b) for b in row] for row in _blocked(w, uid, starts[list(moving)], vecs).tolist()]


def plain_mover(w: Work, uid: int) -> bool:
    """Whether ``coherency.problem_positions`` measures every path of the unit's models
    against every other unit's base: round bases (§1.3) and not :func:`crosses_units`."""
    return not bases.shaped(w.setup) and not crosses_units(w, uid)


def crosses_units(w: Work, uid: int) -> bool:
    """Whether the true check lets the unit's models pass over or through other units'
    bases, or stand on some: flight (Airborne, Jumper, Juggernaut: Perks L2076, L2112,
    L2126), Terrain units to pass over (L1410, Wreckage L1448), an Incorporeal unit on the
    table (L2474-L2476). The automated Moves refuse none of its candidates beforehand."""
    if flight(w.info(uid).unit.profile.perks) or passable(w, uid):
        return True
    return any(u.statuses for u in w.units) and bool(perk_incorporeal.ghosts(w))


def _blocked(w: Work, uid: int, pts: FloatArray, vecs: FloatArray) -> npt.NDArray[np.bool_]:
    """``(K, m)``: the model at ``pts[j]`` moved by ``vecs[c]`` ends clearly off the
    battlefield or passes clearly through another unit's base."""
    k_count = len(vecs)
    if not k_count or not len(pts):
        return np.zeros((k_count, len(pts)), dtype=bool)
    f = w.field
    r = w.info(uid).radius
    ends = pts[None, :, :] + vecs[:, None, :]  # (K, m, 2), as the callers add them
    x, y = ends[..., 0], ends[..., 1]
    lo = r - 1e-6 - _MARGIN
    out: npt.NDArray[np.bool_] = (x < lo) | (x > f.width - r + 1e-6 + _MARGIN) | (y < lo)
    out |= y > f.height - r + 1e-6 + _MARGIN
    lengths = np.hypot(vecs[:, 0], vecs[:, 1])
    live = np.flatnonzero(~out.all(axis=1) & (lengths > 0.0))
    if not len(live):
        return out
    # the bases near the box of every path (the starts and every end)
    lo_xy = np.minimum(pts.min(axis=0), ends[live].reshape(-1, 2).min(axis=0)) - r - 1.0
    hi_xy = np.maximum(pts.max(axis=0), ends[live].reshape(-1, 2).max(axis=0)) + r + 1.0
    near = _bases_near(w, uid, lo_xy, hi_xy)
    if near is None:
        return out
    oxy, orad = near
    # each live move's path against each base near (the along-track distance clipped to the
    # move, the squared gap against the squared reach: closer than the base's radius plus
    # ``r`` less the tolerances overlaps by more), one compiled loop (issue 10, session 39;
    # the NumPy form is the test's oracle)
    route_jit.paths_blocked(
        np.ascontiguousarray(pts),
        np.ascontiguousarray(vecs, dtype=np.float64),
        lengths,
        live,
        oxy,
        orad,
        r - OVERLAP_TOL - _MARGIN,
        out,
    )
    return out


def _bases_near(
    w: Work, uid: int, lo_xy: FloatArray, hi_xy: FloatArray
) -> tuple[FloatArray, FloatArray] | None:
    """The centres and radii of the other units' bases that reach into the box ``lo_xy`` -
    ``hi_xy`` (``None``: none does; the others are farther from every path than the box's
    margin)."""
    t = w.table()
    near = (
        (t.xy[:, 0] > lo_xy[0] - t.r)
        & (t.xy[:, 0] < hi_xy[0] + t.r)
        & (t.xy[:, 1] > lo_xy[1] - t.r)
        & (t.xy[:, 1] < hi_xy[1] + t.r)
        & (t.uid != uid)
    )
    if not near.any():
        return None
    return t.xy[near], t.r[near]
