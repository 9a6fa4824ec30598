"""Oval and rectangular bases on the ground: the board's edges, deployment zones and terrain
measured with their true outline (Core Rules 001_d3f5e425c5e1196d.txt §1.3 L249-255 with §2.1,
§3.6, §4.5-4.7 and §10; ruling 4 of "WARSURGE bases in play: session 26" in docs/rulings.md).

Each function takes a unit and answers with the unit's base: a round base goes to the
battlefield's disc answers (``geom.Field``), unchanged; an oval or rectangle is its polygon
(``Base.outline``) at the model's facing. A base is on the board when every corner is (to
1e-6), in a deployment zone when all of it is, on a piece of terrain when its outline overlaps
the piece by more than the battlefield's tolerance (``EPS``: touching is not standing on it),
and a move crosses what the area its base sweeps overlaps: the base moving straight at its old
facing, then the base turned where it ends (ruling 2).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely

from warbench.rulesets.warsurge.battlefield.geometry import EPS
from warbench.rulesets.warsurge.battlefield.model import Base
from warbench.rulesets.warsurge.game import bases
from warbench.rulesets.warsurge.game.geom import FloatArray, PathCheck

Point = tuple[float, float]


def base_of(w: Any, uid: int) -> Base | None:
    """The unit's oval or rectangular base, None for a round one (the disc answers)."""
    base: Base | None = w.setup.units[uid].base
    return base


def outline(base: Base, p: Point, facing: float) -> Any:
    """The base's polygon at ``p`` facing ``facing`` degrees."""
    return shapely.Polygon(base.outline((float(p[0]), float(p[1])), float(facing)))


def on_board(w: Any, uid: int, p: Point, facing: float) -> bool:
    """The whole base is on the battlefield (§2.1)."""
    base = base_of(w, uid)
    f = w.field
    if base is None:
        return bool(f.on_board(p, w.setup.units[uid].radius))
    pts = np.asarray(base.outline((float(p[0]), float(p[1])), float(facing)))
    return bool(
        (pts[:, 0] >= -1e-6).all()
        and (pts[:, 0] <= f.width + 1e-6).all()
        and (pts[:, 1] >= -1e-6).all()
        and (pts[:, 1] <= f.height + 1e-6).all()
    )


def _on(tree: Any, shape: Any) -> list[int]:
    """The board's pieces in ``tree`` the shape overlaps by more than the tolerance."""
    if not tree:
        return []
    inner = shapely.buffer(shape, -EPS)
    if inner.is_empty:
        inner = shape
    return sorted(int(j) for j in tree.query(inner, "intersects")[1].tolist())


def spot_ok(w: Any, uid: int, p: Point, facing: float) -> bool:
    """The base fits here: on the board and not on Impassable Ground (§4.7)."""
    base = base_of(w, uid)
    if base is None:
        return bool(w.field.spot_ok(p, w.setup.units[uid].radius))
    if not on_board(w, uid, p, facing):
        return False
    return not _on(w.field.g.impassable, outline(base, p, facing))


def path(w: Any, uid: int, start: Point, end: Point, f0: float, f1: float) -> PathCheck:
    """What the base crosses moving straight from ``start`` at facing ``f0`` to ``end`` and
    turning there to ``f1`` (§4.5 Difficult, §4.6 Dangerous, §4.7 Impassable Ground)."""
    base = base_of(w, uid)
    f = w.field
    if base is None:
        return f.path(start, end, w.setup.units[uid].radius)  # type: ignore[no-any-return]
    g = f.g
    if not g.movement:
        return PathCheck(None, False, ())
    a = outline(base, start, f0)
    swept = shapely.union(a, outline(base, end, f0)).convex_hull
    swept = shapely.union(swept, outline(base, end, f1))
    difficult = False
    dangerous: list[str] = []
    for j in _on(g.movement, swept):
        if g.impassable_mask[j]:
            why = f"the model cannot move through or into Impassable Ground ({g.names[j]})"
            return PathCheck(why, False, (), why)
        difficult = difficult or bool(g.difficult[j])
        if g.dangerous[j]:
            dangerous.append(g.names[j])
    return PathCheck(None, difficult, tuple(dangerous))


def model_path(w: Any, uid: int, model: int, start: Point, end: Point) -> PathCheck:
    """:func:`path` for one model of a Move being checked (its facing, and the facing the
    Move gives it, ``bases.turning``)."""
    if base_of(w, uid) is None:
        return path(w, uid, start, end, 0.0, 0.0)
    f0 = bases.facing_of(w, uid, model)
    new = bases.turning(w, uid)
    return path(w, uid, start, end, f0, f0 if new is None else new[model])


def dangerous_at(w: Any, uid: int, p: Point, facing: float) -> list[str]:
    """The Dangerous Ground pieces the base stands on (§4.6)."""
    base = base_of(w, uid)
    f = w.field
    if base is None:
        return list(f.dangerous_at(p, w.setup.units[uid].radius))
    g = f.g
    return [g.names[j] for j in _on(g.all, outline(base, p, facing)) if g.dangerous[j]]


def zone_holds(
    w: Any, uid: int, zone: int, xy: FloatArray, facings: Sequence[float]
) -> npt.NDArray[np.bool_]:
    """Which of the unit's bases at ``xy`` lie wholly inside deployment zone ``zone`` (§3.6;
    touching its edge counts, as for round bases)."""
    base = base_of(w, uid)
    f = w.field
    if base is None:
        out: npt.NDArray[np.bool_] = np.asarray(f.zone_holds(zone, xy, w.setup.units[uid].radius))
        return out
    room = shapely.buffer(f.g.zone_polys[zone], EPS)
    shapes = bases.outlines(base, np.asarray(xy, dtype=np.float64).reshape(-1, 2), facings)
    held: npt.NDArray[np.bool_] = np.asarray(shapely.contains(room, shapes), dtype=bool)
    return held


def end_facings(w: Any, uid: int, models: Sequence[int]) -> list[float]:
    """The facings ``models`` stand with at the end of the Move or placement being checked."""
    new = bases.turning(w, uid)
    if new is not None:
        return [new[i] for i in models]
    return bases.facings(w, uid, models)


# -- the engine's own placement (§3.6, §6.3; session 27) ----------------------------------------


def extents(base: Base, facings: Sequence[float]) -> FloatArray:
    """``(n, 2)``: how far each base facing ``facings`` reaches from its centre along x and
    along y (the box of its outline's corners: a base is on the board, or in a box, when its
    centre is that far inside, as :func:`on_board` measures it)."""
    local = np.asarray(base.outline((0.0, 0.0), 0.0), dtype=np.float64)
    rad = np.radians(np.asarray(facings, dtype=np.float64))
    c, s = np.cos(rad)[:, None], np.sin(rad)[:, None]
    x = local[None, :, 0] * c - local[None, :, 1] * s
    y = local[None, :, 0] * s + local[None, :, 1] * c
    out: FloatArray = np.stack([np.abs(x).max(axis=1), np.abs(y).max(axis=1)], axis=1)
    return out


def reach(w: Any, uid: int, models: Sequence[int]) -> FloatArray:
    """``(len(models), 2)``: :func:`extents` of the unit's ``models`` at the facings they
    stand with at the end of the placement or Move being checked; a round base reaches its
    radius both ways."""
    base = base_of(w, uid)
    if base is None:
        return np.full((len(models), 2), float(w.setup.units[uid].radius))
    return extents(base, end_facings(w, uid, models))


def inner_radii(setup: Any) -> FloatArray:
    """Per unit, the radius of the largest circle inside its base (half an oval's or a
    rectangle's width; a round base's radius): two bases whose inner circles overlap certainly
    overlap, so the engine's prefilters may refuse with it (kept with the set-up)."""
    got: FloatArray | None = setup.__dict__.get("_inner_radii")
    if got is None:
        got = np.asarray(
            [float(u.radius) if u.base is None else _inner(u.base) for u in setup.units],
            dtype=np.float64,
        )
        object.__setattr__(setup, "_inner_radii", got)
    return got


def _inner(base: Base) -> float:
    """The radius of the largest circle about the centre inside the base's outline."""
    ring = shapely.Polygon(base.outline((0.0, 0.0), 0.0)).exterior
    return float(shapely.distance(shapely.Point(0.0, 0.0), ring))


# -- heights on raised terrain (§4.1 L1918, §4.2 III, L2360; session 27) -------------------------


def levels_under(levels: Any, shapes: Any) -> FloatArray:
    """The height each base of ``shapes`` (shapely polygons) stands at: the highest level of
    the raised pieces (``terrain.Levels``) its outline overlaps by more than the tolerance
    (touching is not standing on it), else 0."""
    out = np.zeros(len(shapes), dtype=np.float64)
    if levels.flat or not len(shapes):
        return out
    inner = shapely.buffer(shapes, -EPS)
    inner = np.where(shapely.is_empty(inner), shapes, inner)
    for poly, level in zip(levels.polys, levels.levels, strict=True):
        on = np.asarray(shapely.intersects(poly, inner), dtype=bool)
        out = np.where(on, np.maximum(out, level), out)
    return out


def heights(w: Any, uid: int, xy: Any, models: Sequence[int], *, start: bool = False) -> FloatArray:
    """The heights the unit's ``models`` stand at with their bases at ``xy``: a round base
    where its centre is (``terrain.Levels.z_of``), an oval or rectangle on the pieces its
    outline overlaps (:func:`levels_under`), at the facings the Move or placement being
    checked ends with (``start``: the facings they have now)."""
    levels = w.field.levels
    pts = np.asarray(xy, dtype=np.float64).reshape(-1, 2)
    base = base_of(w, uid)
    if base is None or levels.flat:
        z: FloatArray = levels.z_of(pts)
        return z
    fac = bases.facings(w, uid, models) if start else end_facings(w, uid, models)
    return levels_under(levels, bases.outlines(base, pts, fac))


def outline_heights(levels: Any, xy: FloatArray, polys: FloatArray | None) -> FloatArray:
    """:func:`heights` for the rows of a sight question (``bases.group_outlines``,
    ``bases.table_outlines``: a round base's row is its centre repeated)."""
    z: FloatArray = levels.z_of(xy)
    if polys is None or levels.flat or len(polys) != len(xy):  # (points: a piece's eyes)
        return z
    shaped = np.ptp(polys, axis=1).max(axis=1) > 1e-9
    if shaped.any():
        z = z.copy()
        z[shaped] = levels_under(levels, shapely.polygons(polys[shaped]))
    return z


def vertical_groups(w: Any, uid: int, xy: Any, models: Sequence[int]) -> list[list[int]]:
    """The unit's bases at ``xy`` (its ``models``) split into Coherency groups across the board
    and up and down (§4.2 I, III: 2" base to base, 6" vertically), measured with their true
    outlines at the heights :func:`heights` gives."""
    from warbench.rulesets.warsurge.battlefield.measure import footprint_coherency_groups
    from warbench.rulesets.warsurge.battlefield.model import Footprint

    info = w.setup.units[uid]
    pts = np.asarray(xy, dtype=np.float64).reshape(-1, 2)
    fac = end_facings(w, uid, models)
    z = heights(w, uid, pts, models)
    base = info.base if info.base is not None else Base(diameter_mm=info.radius * 2 * 25.4)
    feet = [
        Footprint((float(p[0]), float(p[1])), base, float(f), float(h))
        for p, f, h in zip(pts, fac, z, strict=True)
    ]
    return footprint_coherency_groups(feet)


# -- what a Move passes (Perks L1448 Wreckage, L767 Horrific; session 27) -----------------------


def swept(w: Any, uid: int, model: int, start: Point, end: Point) -> tuple[Any, float]:
    """The area one model's base sweeps on a Move being checked, as a shapely geometry and how
    far around it the base reaches: an oval or rectangle going straight at its old facing and
    turning where it ends (:func:`path`), 0; a round base the segment its centre goes along,
    its radius."""
    base = base_of(w, uid)
    if base is None:
        r = float(w.setup.units[uid].radius)
        if tuple(start) == tuple(end):
            return shapely.Point(start), r
        return shapely.LineString([start, end]), r
    f0 = bases.facing_of(w, uid, model)
    new = bases.turning(w, uid)
    f1 = f0 if new is None else new[model]
    area = shapely.union(outline(base, start, f0), outline(base, end, f0)).convex_hull
    return shapely.union(area, outline(base, end, f1)), 0.0


def swept_gaps(
    w: Any, sweep: tuple[Any, float], other: int, xy: Any, models: Sequence[int]
) -> tuple[FloatArray, npt.NDArray[np.bool_]]:
    """The gaps from a :func:`swept` area to ``other``'s bases at ``xy`` (its ``models``, at
    their facings), and which of them it overlaps by more than the tolerance (a gap of 0
    between two polygons may be a touch or an overlap)."""
    info = w.setup.units[other]
    pts = np.asarray(xy, dtype=np.float64).reshape(-1, 2)
    shapes, extra = bases._shapes(
        info.base, float(info.radius), pts, [bases.facing_of(w, other, int(m)) for m in models]
    )
    geom_, reach_ = sweep
    d: FloatArray = np.asarray(shapely.distance(geom_, shapes), dtype=np.float64) - extra - reach_
    over = d < -1e-9
    flat = (extra == 0.0) & (reach_ == 0.0)
    if flat.any():
        inner = shapely.buffer(geom_, -EPS)
        over[flat] = np.asarray(shapely.intersects(inner, shapes[flat]), dtype=bool)
    return d, over


# -- the slides of Upheaval and Displace (Perks L3216, Displace; session 27) -------------------


def near_impassable(
    w: Any, uid: int, xy: Any, models: Sequence[int], margin: float = 0.0
) -> npt.NDArray[np.bool_]:
    """Which of the unit's bases at ``xy`` (its ``models``, at their facings) come within
    ``margin`` of Impassable Ground, overlapping it by more than the tolerance at 0 (§4.7);
    a round base as the battlefield's ``on_impassable`` answers."""
    pts = np.asarray(xy, dtype=np.float64).reshape(-1, 2)
    base = base_of(w, uid)
    g = w.field.g
    if base is None:
        r = float(w.setup.units[uid].radius)
        out: npt.NDArray[np.bool_] = np.asarray(g.on_impassable(pts, r + margin), dtype=bool)
        return out
    if not g.impassable:
        return np.zeros(len(pts), dtype=bool)
    shapes = bases.outlines(base, pts, bases.facings(w, uid, models))
    if margin > 0.0:
        shapes = shapely.buffer(shapes, margin)
    return np.asarray([bool(_on(g.impassable, s)) for s in shapes], dtype=bool)


def all_on_board(w: Any, uid: int, xy: Any, models: Sequence[int]) -> bool:
    """Every one of the unit's bases at ``xy`` (its ``models``) is on the battlefield (§2.1)."""
    fac = bases.facings(w, uid, models) if base_of(w, uid) is not None else [0.0] * len(models)
    return all(
        on_board(w, uid, (float(p[0]), float(p[1])), f)
        for p, f in zip(np.asarray(xy).reshape(-1, 2), fac, strict=True)
    )


def model_on_board(w: Any, uid: int, model: int, p: Point) -> bool:
    """:func:`on_board` for one model of the unit at its facing (§2.1)."""
    if base_of(w, uid) is None:
        return bool(w.field.on_board(p, w.setup.units[uid].radius))
    return on_board(w, uid, p, bases.facing_of(w, uid, model))


def gap_to_area(w: Any, uid: int, model: int, p: Point, area: Any) -> float:
    """The distance from one model's base at ``p`` to a shapely ``area`` (negative inside it
    for a round base, as its centre's distance less its radius; 0 for an oval or rectangle
    that touches or overlaps it)."""
    base = base_of(w, uid)
    if base is None:
        return float(area.distance(shapely.Point(p))) - float(w.setup.units[uid].radius)
    return float(shapely.distance(area, outline(base, p, bases.facing_of(w, uid, model))))
