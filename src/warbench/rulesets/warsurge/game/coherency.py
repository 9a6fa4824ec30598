"""Where models may stand: bases, board edges, terrain, overlap and coherency.

Core Rules 001_d3f5e425c5e1196d.txt §1.3 (bases: no model overlaps another), §4.1 (moving: within
the Move or Dash allowance, never off the battlefield), §4.2 (coherency), §4.7 (Impassable Ground).
The checks here answer for deployment (§3.6), movement (§4), disembarking (§6.3) and placing
survivors (§6.6); :func:`place_unit` finds a legal formation for a unit in a zone or near a point.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from warbench.rulesets.warsurge.effects.movement import flight, ignores_difficult
from warbench.rulesets.warsurge.game import (
    bases,
    bases_ground,
    coherency_jit,
    geom,
    perk_effects,
    perk_incorporeal,
    place_memo,
)
from warbench.rulesets.warsurge.game.actions import (
    Point,
)
from warbench.rulesets.warsurge.game.geom import OVERLAP_TOL, FloatArray, point_distances
from warbench.rulesets.warsurge.game.horrific_limit import RADIUS as HORRIFIC_RADIUS
from warbench.rulesets.warsurge.game.horrific_limit import horrified_limit
from warbench.rulesets.warsurge.game.perk_terrain_unit import passable
from warbench.rulesets.warsurge.game.perk_wreckage import crossed, holders
from warbench.rulesets.warsurge.game.state import Location, UnitGS, UnitInfo
from warbench.rulesets.warsurge.game.terrain_split import split_problem
from warbench.rulesets.warsurge.game.work import TableIndex, Work, err


def problem_positions(
    w: Work,
    uid: int,
    new: Sequence[Point],
    models: Sequence[int],
    starts: Sequence[Point] | None,
    allowance: float | None,
    dash: bool,
    ignore: Iterable[int] = (),
) -> tuple[str, str] | None:
    """Why these model positions are not legal, or None (paths, ground, overlaps, coherency).

    ``starts`` None: a placement (deployment, disembark handled by the caller), no path."""
    info = w.info(uid)
    r = info.radius
    f = w.field
    t = w.table()
    other = w.others_mask([uid, *ignore, *passable(w, uid)])  # Terrain (Perks L1410)
    exact = bases.shaped(w.setup)  # oval or rectangular bases: measured in game/bases.py
    oxy = t.xy[other] if not exact else t.xy[:0]
    orad = t.r[other] if not exact else t.r[:0]
    skip_path: list[bool] = []
    new_arr = geom.as_array(new)
    u = w.units[uid]
    # The closest other base to each model's path and end, for every model at once: a model
    # clearly clear of them (by _MARGIN) skips the one-model tests below, which give the
    # answer (and the reason) whenever it might be a refusal.
    seg_gap: list[float] | None = None
    end_gap: list[float] | None = None
    if len(models) > 1 and len(oxy):
        seg_gap, end_gap = _gaps(
            new_arr, None if starts is None else geom.as_array(starts), r, oxy, orad
        )
    clear = -OVERLAP_TOL + _MARGIN
    # Morale I/II failed: "the Battlefield as Difficult Ground" (Perks 000 L2249)
    everywhere = bool(u.statuses) and perk_effects.difficult_everywhere(u.statuses)
    wreckage_on = bool(holders(w.setup))  # Wreckage (Perks L1448): Difficult Ground
    brave = bool(u.statuses) and perk_effects.ignores_ground(u.statuses)  # Courage L707
    # Incorporeal (Perks L2474-L2476): it moves through terrain and bases; bases of Incorporeal
    # units are passed through
    passing = perk_incorporeal.ghosts(w) if any(x.statuses for x in w.units) else frozenset()
    ghost = uid in passing
    brave = brave or ghost
    # an oval or rectangular base meets the board's edge and terrain with its outline (§1.3)
    shape = exact and info.base is not None
    ends = bases_ground.end_facings(w, uid, models) if shape else []
    flies = flight(info.unit.profile.perks)  # Airborne, Jumper: effects/movement.py
    for k, (i, p) in enumerate(zip(models, new, strict=True)):
        if not (bases_ground.on_board(w, uid, p, ends[k]) if shape else f.on_board(p, r)):
            return (f"model {i + 1} of {info.label} would be off the battlefield", "§2.1")
        if starts is not None:
            s = starts[k]
            skip_path.append(False)
            if s == p and not (exact and bases.turns(w, uid, i)):
                continue
            if dash and (u.heavy[i] or u.battle[i]):
                kind = "Heavy" if u.heavy[i] else "Battle"
                return (
                    f"model {i + 1} of {info.label} used a {kind} weapon this Game Turn and "
                    "cannot Dash",
                    "§5.1 Type",
                )
            length = math.dist(s, p) if not exact else bases.model_travel(w, uid, i, s, p)
            pc = bases_ground.model_path(w, uid, i, s, p) if shape else f.path(s, p, r)
            skip_path[-1] = bool(flies) or ghost
            if pc.blocked_by is not None and flies not in ("airborne", "juggernaut") and not ghost:
                return (
                    f"model {i + 1} of {info.label} cannot cross Impassable Ground "
                    f"({pc.blocked_by})",
                    "§4.7",
                )
            if allowance is not None:
                limit = float(allowance)
                difficult = (
                    (pc.difficult or everywhere or (wreckage_on and crossed(w, uid, s, p, r, i)))
                    and not brave
                    and not ignores_difficult(info.unit.profile.perks)
                )
                extra, rule = (
                    (" (halved by Difficult Ground)", "§4.5") if difficult else ("", "§4.1")
                )
                if difficult:  # Traverse (Perks L2164) ignores it: effects/movement.py
                    limit = float(min(math.floor(allowance / 2), allowance - 1))
                elif u.statuses and (h := horrified_limit(w, uid, s, p, allowance, i)) is not None:
                    limit = h  # Horrific (Perks L767): halved within 12" of the User
                    extra, rule = f' (halved by Horrific within {HORRIFIC_RADIUS:g}")', "Perks L767"
                if length > limit + 1e-6:
                    what = "Dash" if dash else "Move"
                    return (
                        f'model {i + 1} of {info.label} would travel {length:.2f}" but its '
                        f'{what} allows {limit:.0f}"{extra}',
                        rule,
                    )
            if len(oxy) and not flies and not ghost and (seg_gap is None or seg_gap[k] < clear):
                dd = geom.segment_distances(np.asarray(s), np.asarray(p), oxy) - orad - r
                if passing:
                    dd[np.isin(t.uid[other], sorted(passing))] = np.inf
                if (dd < -OVERLAP_TOL).any():
                    j = int(np.argmin(dd))
                    who = w.label(int(t.uid[other][j]))
                    return (
                        f"model {i + 1} of {info.label} cannot move through {who}: other units "
                        "are Impassable Ground",
                        "§4.7",
                    )
        elif not (bases_ground.spot_ok(w, uid, p, ends[k]) if shape else f.spot_ok(p, r)):
            return (f"model {i + 1} of {info.label} cannot stand on Impassable Ground", "§4.7")
        if (
            starts is not None  # a placement's spot was asked just above
            and not (bases_ground.spot_ok(w, uid, p, ends[k]) if shape else f.spot_ok(p, r))
            and not _lands_anywhere(info, starts)
        ):
            return (f"model {i + 1} of {info.label} cannot stand on Impassable Ground", "§4.7")
        if len(oxy) and (end_gap is None or end_gap[k] < clear):
            d = point_distances(oxy, p) - orad - r
            if (d < -OVERLAP_TOL).any():
                j = int(np.argmin(d))
                return (
                    f"model {i + 1} of {info.label} would overlap {w.label(int(t.uid[other][j]))}",
                    "§4.7",
                )
    if exact:
        problem = bases.problems(w, uid, new, models, starts, t, other, skip_path, passing)
        if problem is not None or not (u.inside and u.location is Location.TABLE):
            return problem
        return split_problem(w, uid, new, models)  # a split unit on true bases (L4459-4464)
    if len(new_arr) > 1:
        # the formation's own overlaps, then its Coherency (``geom.edge_distances`` and
        # ``geom.coherent``'s very tests) in one compiled loop (issue 10, session 39)
        own = coherency_jit.formation(new_arr, r, OVERLAP_TOL, geom.LINKED, not u.inside)
        if own == 1:
            return (f"models of {info.label} would overlap each other", "§1.3")
        if own == 2:
            return (
                f'{info.label} would break Coherency: every model within 2" of another, '
                "in one group",
                "§4.2",
            )
    if u.inside and u.location is Location.TABLE:  # a split unit (L4459-4464)
        return split_problem(w, uid, new, models)
    return None


def _lands_anywhere(info: UnitInfo, starts: Sequence[Point] | None) -> bool:
    """Airborne (Perks L2076) "allows Movement onto Impassable Ground"."""
    return starts is not None and flight(info.unit.profile.perks) == "airborne"


def _gaps(
    new: FloatArray, starts: FloatArray | None, r: float, oxy: FloatArray, orad: FloatArray
) -> tuple[list[float] | None, list[float]]:
    """For each model, the smallest edge gap to another base along its path (None without
    ``starts``) and at its end; bases far from every path are left out (their gaps are
    positive, so they never give a smallest gap below zero). One compiled loop
    (``coherency_jit.gaps``, issue 10, session 38: the NumPy form's ten calls)."""
    return coherency_jit.gaps(new, starts, r, oxy, orad)


def full_positions(u: UnitGS, models: Sequence[int], new: Sequence[Point]) -> tuple[Point, ...]:
    pos = list(u.pos)
    for i, p in zip(models, new, strict=True):
        pos[i] = p
    return tuple(pos)


#: Margin of :func:`clearly_illegal`: only a failure by more than this rejects a candidate.
_MARGIN = 1e-9


def clearly_illegal(
    w: Work,
    uid: int,
    starts: FloatArray | None,
    new: FloatArray,
    models: Sequence[int] | None = None,
) -> npt.NDArray[np.bool_]:
    """Which candidate positions ``new`` ``(C, m, 2)`` of the unit's models (from ``starts``
    ``(m, 2)``; None for a placement) certainly fail :func:`problem_positions`: a model off
    the battlefield, or a moving model passing through or ending on another unit's base, each
    by clearly more than the tolerances. All candidates are tested at once (a compiled loop,
    ``coherency_jit.candidate_overlaps``); the callers check the candidates not rejected here
    with :func:`problem_positions` itself, in their order, so they find the very same
    positions (the search is only faster). In a game
    with oval or rectangular bases (§1.3) a base is off the board by its outline at its facing
    (``models``: the unit's models in ``new``, default those present) and bases overlap by the
    circles inside them (``bases_ground.inner_radii``), the paths left to the true check."""
    return _clearly_illegal(w, uid, starts, new, models)[0]


def clearly_blocked_translations(
    w: Work,
    uid: int,
    starts: FloatArray,
    moving: Sequence[int],
    way: tuple[float, float],
    lengths: Sequence[float],
) -> list[bool]:
    """:func:`clearly_illegal` for the candidates of an automated Move of a unit on round
    bases (``movement.plan_towards``): the models ``moving`` (rows of ``starts``) translated
    ``length`` along the unit vector ``way``, the others staying put. A candidate is refused
    when a moving model ends clearly off the battlefield, or its path (its end included)
    comes within another unit's base by more than ``OVERLAP_TOL`` and the margin, as
    :func:`clearly_illegal` refuses it. Every path lies along one line, each a prefix of the
    longest, so a candidate is refused when its length reaches past the point where the
    first model's path enters a base: one pass for every candidate (issue 10; compiled,
    ``coherency_jit.first_entry``, session 38). Only what fails by more than the margin is
    refused, so the callers' own checks find the very same positions."""
    f = w.field
    r = w.info(uid).radius
    ux, uy = way
    pts = starts[list(moving)]
    xs, ys = pts[:, 0].tolist(), pts[:, 1].tolist()
    lo = r - 1e-6 - _MARGIN
    hx, hy = f.width - r + 1e-6 + _MARGIN, f.height - r + 1e-6 + _MARGIN
    # a moving model ends off the board at some length when the extreme starts do: adding
    # ``dx`` keeps the order of the floats (rounding is monotone), so ``lo <= x + dx`` holds
    # for every model exactly when it holds for the least x (the very comparisons, model by
    # model, of ``clearly_illegal``; issue 10, session 32)
    out: list[bool] = []
    if xs:
        x_lo, x_hi, y_lo, y_hi = min(xs), max(xs), min(ys), max(ys)
        for length in lengths:
            dx, dy = ux * length, uy * length
            out.append(
                length > 0.0
                and not (
                    lo <= x_lo + dx and x_hi + dx <= hx and lo <= y_lo + dy and y_hi + dy <= hy
                )
            )
    else:
        out = [False] * len(lengths)
    todo = [i for i, no in enumerate(out) if not no and lengths[i] > 0.0]
    if not todo or not xs:
        return out
    t = w.table()
    # the bases near the box of every path (start to the farthest end)
    far = max(lengths[i] for i in todo)
    ex, ey = ux * far, uy * far
    x0, x1 = min(xs) + min(ex, 0.0), max(xs) + max(ex, 0.0)
    y0, y1 = min(ys) + min(ey, 0.0), max(ys) + max(ey, 0.0)
    half = ((x1 - x0) / 2.0 + r + 1.0, (y1 - y0) / 2.0 + r + 1.0)
    centre = ((x0 + x1) / 2.0, (y0 + y1) / 2.0)
    # every candidate's path is a prefix of the longest: a base refuses the lengths beyond
    # where the first model's path enters it (the along-track distance less the half chord
    # cut in the disc of the base's radius plus ``r`` less the tolerances; issue 10, session
    # 31), one compiled loop over the models and the bases near (session 38)
    first = coherency_jit.first_entry(
        np.ascontiguousarray(pts),
        t.xy,
        t.r,
        t.uid,
        uid,
        centre,
        half,
        way,
        r - OVERLAP_TOL - _MARGIN,
    )
    for i in todo:
        out[i] = first < lengths[i]
    return out


def _clearly_illegal(
    w: Work,
    uid: int,
    starts: FloatArray | None,
    new: FloatArray,
    models: Sequence[int] | None = None,
    witness: bool = False,
    on_board: bool = False,
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.intp] | None]:
    """:func:`clearly_illegal`, and with ``witness`` (a placement: ``starts`` None) for each
    candidate and model ``(C, m)``, the row of the table index of a base it overlaps by
    clearly more than the tolerance (-1: none), which refuses the candidate on any table where
    that base stands (``place_memo``). ``on_board``: the caller knows no candidate is off the
    battlefield (a placement's candidates the board refuses are left out before: ``static``)."""
    r = w.info(uid).radius
    out = np.zeros(len(new), dtype=bool) if on_board else _off_table(w, uid, new, models)
    t = w.table()
    exact = bases.shaped(w.setup)
    inner, trad = _overlap_radii(w, t)
    if exact:  # oval and rectangular bases (§1.3): bases overlap by the circles inside them
        r = float(inner[uid])
    # the moving models ending on another unit's base by more than the tolerances, measured
    # against the bases near the box of the candidates (and starts) only, in one compiled loop
    # (``coherency_jit.candidate_overlaps``, issue 10, session 38)
    new = np.ascontiguousarray(new, dtype=np.float64)
    bad, which = coherency_jit.candidate_overlaps(
        new, out, starts, r, t.xy, np.ascontiguousarray(trad), t.uid, uid, OVERLAP_TOL + _MARGIN
    )
    wit = None
    if witness:
        wit = which if starts is None else np.full(new.shape[:2], -1, dtype=np.intp)
    if starts is not None and not exact:  # (true bases already touching may pass: bases.py)
        # passing through: only for the moving models of the candidates not already rejected
        moving = (new != starts[None]).any(axis=2)
        cand, k = np.nonzero(moving & ~(out | bad.any(axis=1))[:, None])
        if len(cand):
            oxy, orad = _near_box(t, trad, uid, new, starts, r)
            if len(oxy):
                dd = geom.segments_distances(starts[k], new[cand, k], oxy) - orad - r
                through = (dd < -OVERLAP_TOL - _MARGIN).any(axis=1)
                bad[cand[through], k[through]] = True
    out |= bad.any(axis=1)
    return out, wit


def _near_box(
    t: TableIndex, trad: FloatArray, uid: int, new: FloatArray, starts: FloatArray, r: float
) -> tuple[FloatArray, FloatArray]:
    """The other units' bases near the box of the candidates and starts: a base farther than
    the two radii from the box is farther than that from every segment inside it."""
    flat = np.vstack([new.reshape(-1, 2), starts])
    lo_xy = flat.min(axis=0) - r - 1.0
    hi_xy = flat.max(axis=0) + r + 1.0
    other = (
        (t.uid != uid)
        & (t.xy[:, 0] > lo_xy[0] - trad)
        & (t.xy[:, 0] < hi_xy[0] + trad)
        & (t.xy[:, 1] > lo_xy[1] - trad)
        & (t.xy[:, 1] < hi_xy[1] + trad)
    )
    return t.xy[other], trad[other]


def _overlap_radii(w: Work, t: TableIndex) -> tuple[Any, FloatArray]:
    """The radii :func:`clearly_illegal` measures overlaps with: per unit (by uid) and per
    base of the table index: the bases' own, or in a game with oval or rectangular bases
    (§1.3) the circles inside them (``bases_ground.inner_radii``)."""
    if bases.shaped(w.setup):
        inner = bases_ground.inner_radii(w.setup)
        return inner, inner[t.uid]
    return None, t.r


def _off_table(
    w: Work, uid: int, new: FloatArray, models: Sequence[int] | None = None
) -> npt.NDArray[np.bool_]:
    """Which candidates ``(C, m, 2)`` put one of the unit's bases clearly off the battlefield
    (an oval or rectangular one by its outline at its facing, ``models`` as in
    :func:`clearly_illegal`)."""
    f = w.field
    x, y = new[..., 0], new[..., 1]
    if bases.shaped(w.setup):  # oval and rectangular bases (§1.3): their outline on the board
        idx = w.units[uid].present() if models is None else list(models)
        ext = bases_ground.reach(w, uid, idx)
        rx, ry = ext[:, 0], ext[:, 1]
        off = (x < rx - 1e-6 - _MARGIN) | (x > f.width - rx + 1e-6 + _MARGIN)
        off |= (y < ry - 1e-6 - _MARGIN) | (y > f.height - ry + 1e-6 + _MARGIN)
    else:
        r = w.info(uid).radius
        lo = r - 1e-6 - _MARGIN
        off = (x < lo) | (x > f.width - r + 1e-6 + _MARGIN) | (y < lo)
        off |= y > f.height - r + 1e-6 + _MARGIN
    out: npt.NDArray[np.bool_] = np.asarray(off.any(axis=1))
    return out


def place_unit(
    w: Work,
    uid: int,
    centre: Point,
    *,
    zone: int | None = None,
    tries: int = 24,
    near: Point | None = None,
    within: float | None = None,
    from_xy: FloatArray | None = None,
    from_r: float = 0.0,
    models: Sequence[int] | None = None,
    from_unit: int | None = None,
) -> tuple[Point, ...] | None:
    """Automated placement: a compact formation around ``centre`` (then nearby points),
    inside ``zone`` if given, within ``within`` inches of the bases ``from_xy`` if given.

    The answer depends only on the models on the table (the table index), the unit's side,
    base and number of models (and its own models, if it is on the table), so it is kept with
    the index: the same shape of unit asked again at the same spot (the AI trying its units
    one by one) costs nothing."""
    info = w.info(uid)
    on_table = w.units[uid].location is Location.TABLE
    key = (
        "place",
        info.side,
        uid if on_table else None,
        info.models if models is None else tuple(models),
        info.radius,
        None if info.base is None else (repr(info.base), bases.facing_of(w, uid, 0)),  # §1.3
        centre,
        zone,
        tries,
        within,
        None if from_xy is None else from_xy.tobytes(),
        from_r,
        from_unit if info.base is not None or bases.shaped(w.setup) else None,
    )
    t = w.table()
    hit: tuple[tuple[Point, ...] | None, int] | None = t.memo.get(key)
    if hit is not None:
        return hit[0]
    # The same question asked of an index this one grew from by adding bases only: every
    # candidate refused there is refused here too (more bases only block more), so the search
    # resumes at the candidate found there (the 4000-point deployments ask it unit by unit).
    start = 0
    up = t.parent
    while up is not None:
        older: tuple[tuple[Point, ...] | None, int] | None = up.memo.get(key)
        if older is not None:
            start = older[1]
            break
        up = up.parent
    out = t.memo[key] = _place_unit(
        w,
        uid,
        centre,
        zone=zone,
        tries=tries,
        within=within,
        from_xy=from_xy,
        from_r=from_r,
        models=models,
        start=start,
        from_unit=from_unit,
        key=key,
    )
    return out[0]


def _place_unit(
    w: Work,
    uid: int,
    centre: Point,
    *,
    zone: int | None,
    tries: int,
    within: float | None,
    from_xy: FloatArray | None,
    from_r: float,
    models: Sequence[int] | None,
    start: int = 0,
    from_unit: int | None = None,
    key: Any = None,
) -> tuple[tuple[Point, ...] | None, int]:
    """The first legal candidate from ``start`` on (candidates before it are known to be
    refused), and its place in the order (the count of candidates when none is legal).

    The candidates and those the board alone refuses are kept with the battlefield under
    ``key`` (the question), and so is, for each candidate refused on another unit's base, that
    base: a candidate whose base still stands is refused without being measured
    (``place_memo``); the others are measured here, so the answer is the same."""
    info = w.info(uid)
    r = info.radius
    idx = list(range(info.real_models)) if models is None else list(models)
    offsets = (
        geom.formation(len(idx), r)
        if info.base is None
        else bases.formation(info.base, len(idx), bases.facing_of(w, uid, idx[0] if idx else 0))
    )
    # kept only for questions without bases to stay near (those are asked once or twice); an
    # oval or rectangular base's candidates depend on every model's facing (§1.3)
    store = place_memo.questions(w.field) if key is not None and from_xy is None else None
    turned = tuple(bases.facing_of(w, uid, i) for i in idx) if info.base is not None else ()
    qkey = (key, info.real_models, turned)
    q = None if store is None else store.get(qkey)
    if q is None:
        q = _question(w, uid, centre, offsets, idx, zone, tries)
        if store is not None:
            store[qkey] = q
    cands, allpts, static = q.cands, q.allpts, q.static
    zb = w.field.zone_bounds(zone) if zone is not None else None
    if start >= len(cands):
        return None, len(cands)
    t = w.table()
    table = t.memo.get("standing")
    if table is None:  # the radii the overlaps are measured with (clearly_illegal)
        rad = _overlap_radii(w, t)[1]
        table = t.memo["standing"] = place_memo.Standing.of(t.xy, rad, t.uid, t.model)
    # refused: by the board, by a base still standing (one question for every candidate)
    refused = static.copy()
    ahead = np.flatnonzero(~static[start:]) + start
    if len(ahead):
        refused[ahead[place_memo.still_refused(q, ahead, table)]] = True
    # measured in blocks (the first candidates often fit), or all at once where the question
    # found no place last time it was asked (a full zone)
    b0, block = start, len(cands) if q.failed else 8
    while b0 < len(cands):
        rows = np.arange(b0, min(b0 + block, len(cands)))
        b0, block = b0 + block, block * 3
        todo = rows[~refused[rows]]
        if len(todo):
            # ``static`` refused what ``_off_table`` refuses of these very candidates
            bad, which = _clearly_illegal(
                w, uid, None, allpts[todo], idx, witness=True, on_board=True
            )
            assert which is not None
            q.remember(todo, which, table)
            refused[todo[bad]] = True
        for k in rows[~refused[rows]].tolist():
            placed = _place_at(
                w, uid, cands[k], offsets, idx, r, zone, zb, within, from_xy, from_r, from_unit
            )
            if placed is not None:
                q.failed = False
                return placed, k
    q.failed = True
    return None, len(cands)


def _question(
    w: Work,
    uid: int,
    centre: Point,
    offsets: FloatArray,
    idx: Sequence[int],
    zone: int | None,
    tries: int,
) -> place_memo.PlaceQuestion:
    """A placement question's candidates (a compact formation around ``centre``, then around
    rings of points about it) and which of them the board alone refuses: outside the zone's
    box or the zone (§3.6), off the battlefield (the test of :func:`clearly_illegal`)."""
    info = w.info(uid)
    r = info.radius
    cands: list[Point] = [centre]
    step = max(2 * r + 0.5, 1.0)
    for ring in range(1, tries):
        k = 6 * ring
        rad = step * ring * 0.75
        cands.extend(geom.ring_points(centre, rad, min(k, 24)))
        if len(cands) > tries * 6:
            break
    # an oval or rectangular base reaches its outline's box at its facing (§1.3), a round one
    # its radius: the placement is as tight as a player's
    ext = bases_ground.reach(w, uid, idx) if info.base is not None else None
    rx, ry = (r, r) if ext is None else (ext[:, 0], ext[:, 1])
    allpts = offsets[None, :, :] + np.asarray(cands)[:, None, :]
    static = np.zeros(len(cands), dtype=bool)
    if zone is not None:
        zb = w.field.zone_bounds(zone)
        xs, ys = allpts[..., 0], allpts[..., 1]
        static = (
            (xs - rx < zb[0] - 1e-6).any(axis=1)
            | (xs + rx > zb[2] + 1e-6).any(axis=1)
            | (ys - ry < zb[1] - 1e-6).any(axis=1)
            | (ys + ry > zb[3] + 1e-6).any(axis=1)
        )
        live = np.flatnonzero(~static)
        if len(live):
            inside = _zone_holds(w, uid, zone, allpts[live].reshape(-1, 2), idx)
            static[live[~inside.reshape(len(live), -1).all(axis=1)]] = True
    static |= _off_table(w, uid, allpts, idx)
    return place_memo.PlaceQuestion(cands, allpts, static)


def _place_at(
    w: Work,
    uid: int,
    c: Point,
    offsets: FloatArray,
    idx: Sequence[int],
    r: float,
    zone: int | None,
    zb: tuple[float, float, float, float] | None,
    within: float | None,
    from_xy: FloatArray | None,
    from_r: float,
    from_unit: int | None = None,
) -> tuple[Point, ...] | None:
    """One candidate of :func:`place_unit`: the formation centred on ``c``, if legal."""
    pts = offsets + np.asarray(c)
    shape = w.setup.units[uid].base is not None
    ext = bases_ground.reach(w, uid, idx) if shape else None
    rx, ry = (r, r) if ext is None else (ext[:, 0], ext[:, 1])
    if zb is not None and (
        (pts[:, 0] - rx < zb[0] - 1e-6).any()
        or (pts[:, 0] + rx > zb[2] + 1e-6).any()
        or (pts[:, 1] - ry < zb[1] - 1e-6).any()
        or (pts[:, 1] + ry > zb[3] + 1e-6).any()
    ):
        return None
    pos = tuple((float(x), float(y)) for x, y in pts)
    if zone is not None and not bool(_zone_holds(w, uid, zone, pts, idx).all()):
        return None
    if from_xy is not None and within is not None:
        if from_unit is not None and bases.shaped(w.setup):  # the true bases (§1.3)
            mine = bases.unit_group(w, uid, pts, idx)
            d = bases.gaps(mine, bases.unit_group(w, from_unit)).min(axis=1)
        elif shape:  # from points (a terrain piece's way out, §10.2): the true bases
            mine = bases.unit_group(w, uid, pts, idx)
            d = bases.gaps(mine, (None, from_r, from_xy, [0.0] * len(from_xy))).min(axis=1)
        else:
            d = geom.edge_distances(pts, r, from_xy, from_r).min(axis=1)
        if (d > within + 1e-6).any():
            return None
    if problem_positions(w, uid, pos, idx, None, None, False):
        return None
    if zone is not None and w.contacts(uid, pts):
        return None
    return pos


def _zone_holds(
    w: Work, uid: int, zone: int, xy: FloatArray, idx: Sequence[int]
) -> npt.NDArray[np.bool_]:
    """Which of the bases ``xy`` (formations of the unit's models ``idx``, one after another)
    lie wholly in the zone (§3.6): an oval or rectangle by its outline at its facing."""
    if w.setup.units[uid].base is None:
        return w.field.zone_holds(zone, xy, w.setup.units[uid].radius)
    fac = bases_ground.end_facings(w, uid, idx) * (len(xy) // max(1, len(idx)))
    return bases_ground.zone_holds(w, uid, zone, xy, fac)


def overlaps_list(p: Point, r: float, others: Sequence[Point], skip: int) -> bool:
    return any(k != skip and math.dist(p, q) < 2 * r - OVERLAP_TOL for k, q in enumerate(others))


def spot_clear(
    w: Work, s: Point, r: float, oxy: FloatArray, orad: FloatArray, taken: Iterable[Point]
) -> bool:
    """A base of radius ``r`` at ``s`` stands on legal ground (§4.7), overlapping none of the
    bases ``oxy``/``orad`` nor the spots already ``taken`` by the unit's own models (§1.3)."""
    if not w.field.spot_ok(s, r):
        return False
    if len(oxy) and (point_distances(oxy, s) - orad - r < -OVERLAP_TOL).any():
        return False
    return not any(math.dist(s, q) < 2 * r - OVERLAP_TOL for q in taken)


def check_unit_positions(
    w: Work, uid: int, positions: Sequence[Point], rule: str
) -> tuple[list[int], int]:
    """Positions for every model of the unit on the battlefield, in model order, each a legal
    spot and the unit one coherent group (:func:`problem_positions`); the models present and
    how many of them the positions move."""
    u = w.units[uid]
    present = u.present()
    if len(positions) != len(present):
        raise err(
            f"{w.label(uid)} has {len(present)} models on the battlefield; "
            f"{len(positions)} positions given",
            rule,
        )
    prob = problem_positions(w, uid, positions, present, None, None, False)
    if prob:
        raise err(*prob)
    moved = sum(1 for i, q in zip(present, positions, strict=True) if q != u.pos[i])
    return present, moved
