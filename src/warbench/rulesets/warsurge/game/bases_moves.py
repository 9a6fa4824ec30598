"""The engine's own moves for oval and rectangular bases and hulls (Core Rules
001_d3f5e425c5e1196d.txt §1.3): restoring Coherency (§4.2 IV) and Base Contact (§4.4 III,
§5.11) with the true shapes (``game/bases.py``), where the round-base moves of
``casualties.py`` and ``melee.py`` reason with circles. Models keep their facings.
"""

from __future__ import annotations

import math

import numpy as np

from warbench.rulesets.warsurge.game import bases
from warbench.rulesets.warsurge.game.coherency import full_positions, problem_positions
from warbench.rulesets.warsurge.game.geom import COHERENCY, CONTACT, FloatArray
from warbench.rulesets.warsurge.game.work import Work

Point = tuple[float, float]

#: Angles (radians) tried around a model's own direction when it is placed next to another.
_ANGLES = (0.0, 0.4, -0.4, 0.8, -0.8, 1.3, -1.3, 1.8, -1.8, 2.4, -2.4, 2.8, -2.8, math.pi)


def restore_coherency(w: Work, uid: int) -> tuple[tuple[Point, ...], int] | None:
    """§4.2 IV for a unit on oval or rectangular bases: the models outside its largest
    Coherency group move, one by one and closest first, to the legal spot nearest to where
    they stand that is within 2" of a model of the group (a spot found by sliding the model
    straight toward that model, then at angles around it). Every model's position afterwards
    and how many moved; None when the unit is coherent or no model can move."""
    u = w.units[uid]
    present = u.present()
    xy = u.present_xy()
    fac = bases.facings(w, uid, present)
    comps = bases.group_of(w, uid, xy, fac)
    if len(comps) <= 1:
        return None
    main = [present[k] for k in comps[0]]
    strays = [present[k] for c in comps[1:] for k in c]
    pos = list(u.pos)
    moved = 0
    while strays:
        best: tuple[float, int, int] | None = None
        for i in strays:
            for m in main:
                g = _gap(w, uid, pos, i, m)
                if best is None or g < best[0]:
                    best = (g, i, m)
        assert best is not None
        _, i, m = best
        strays.remove(i)
        # next to the closest model of the group, else next to any other (closest first)
        anchors = sorted(main, key=lambda k: (k != m, _gap(w, uid, pos, i, k)))
        spot = None
        for anchor in anchors:
            spot = _spot_near(w, uid, pos, i, anchor, [*main, *strays])
            if spot is not None:
                break
        if spot is None:  # nowhere free next to the group: the model stays (not met in play)
            continue
        pos[i] = spot
        main.append(i)
        moved += 1
        still = []  # models now within 2" of the group join it where they stand
        for s in strays:
            if any(_gap(w, uid, pos, s, k) <= COHERENCY for k in main):
                main.append(s)
            else:
                still.append(s)
        strays = still
    if not moved:
        return None
    return tuple(pos), moved


def _gap(w: Work, uid: int, pos: list[Point], a: int, b: int) -> float:
    """The distance between two models of one unit (§1.3)."""
    info = w.setup.units[uid]
    one = (info.base, float(info.radius), np.asarray([pos[a]]), [bases.facing_of(w, uid, a)])
    two = (info.base, float(info.radius), np.asarray([pos[b]]), [bases.facing_of(w, uid, b)])
    return float(bases.gaps(one, two)[0, 0])


def _spot_near(
    w: Work, uid: int, pos: list[Point], i: int, anchor: int, taken: list[int]
) -> Point | None:
    """Where model ``i`` may stand within 2" of model ``anchor``, nearest to where it is."""
    here = np.asarray(pos[i], dtype=np.float64)
    there = np.asarray(pos[anchor], dtype=np.float64)
    v = here - there
    norm = float(np.hypot(*v)) or 1.0
    base_angle = math.atan2(v[1], v[0]) if norm > 1e-9 else 0.0
    info = w.setup.units[uid]
    step = max(0.1, info.radius / 4)
    for angle in _ANGLES:
        a = base_angle + angle
        d = np.asarray([math.cos(a), math.sin(a)])
        dist = 0.0
        while dist <= 2 * info.radius + COHERENCY + 1e-9:
            p = there + d * (2 * info.radius + COHERENCY - dist)
            cand = (float(p[0]), float(p[1]))
            dist += step
            trial = list(pos)
            trial[i] = cand
            if _gap(w, uid, trial, i, anchor) > COHERENCY - 0.01:
                continue
            if _clear(w, uid, trial, i, taken):
                return cand
    return None


def _clear(w: Work, uid: int, pos: list[Point], i: int, taken: list[int]) -> bool:
    """Model ``i`` at ``pos[i]`` is on legal ground and overlaps no other base (§1.3, §4.7)."""
    prob = problem_positions(w, uid, (pos[i],), (i,), None, None, False)
    if prob:
        return False
    return not any(_overlap(w, uid, pos, i, k) for k in taken if k != i)


def _overlap(w: Work, uid: int, pos: list[Point], a: int, b: int) -> bool:
    """Whether models ``a`` and ``b`` of the unit at ``pos`` overlap (§1.3)."""
    info = w.setup.units[uid]
    one = bases._solid(info.base, info.radius, np.asarray(pos[a]), bases.facing_of(w, uid, a))
    two, extra = bases._shapes(
        info.base, info.radius, np.asarray([pos[b]]), [bases.facing_of(w, uid, b)]
    )
    return bool(bases._overlapping(one, two, extra)[0])


def contact_placement(w: Work, mover: int, foe: int) -> tuple[tuple[Point, ...], int, bool] | None:
    """§4.4 III, §5.11 for oval or rectangular bases (``melee.contact_placement``): one model
    of the four closest pairs slid along the line between the closest points of the two bases
    into Base Contact while the unit stays legal and coherent, else the whole unit shifted the
    same way. Every model's position afterwards, how many moved and whether the whole unit
    shifted; None when neither works."""
    u = w.units[mover]
    present = u.present()
    a = w.xy(mover)
    d, vec = bases.closest_vectors(w, mover, a, present, foe)
    for flat in np.argsort(d, axis=None)[:4]:
        k, j = divmod(int(flat), d.shape[1])
        shift = _towards(vec[k, j], float(d[k, j]))
        if shift is None:
            continue
        pos = list(u.pos)
        m = present[k]
        pos[m] = (pos[m][0] + float(shift[0]), pos[m][1] + float(shift[1]))
        new = tuple(pos[i] for i in present)
        if problem_positions(w, mover, new, present, None, None, False) is None:
            return tuple(pos), 1, False
    k, j = divmod(int(np.argmin(d)), d.shape[1])
    shift = _towards(vec[k, j], float(d[k, j]))
    if shift is None:
        return None
    newt = tuple((float(x), float(y)) for x, y in a + shift)
    if problem_positions(w, mover, newt, present, None, None, False) is None:
        return full_positions(u, present, newt), len(present), True
    return None


def _towards(v: FloatArray, gap: float) -> FloatArray | None:
    """The move along ``v`` (closest points, of length ``gap``) that leaves ``CONTACT / 2``."""
    if gap <= CONTACT / 2 or gap < 1e-9:
        return None
    out: FloatArray = v / gap * (gap - CONTACT / 2)
    return out
