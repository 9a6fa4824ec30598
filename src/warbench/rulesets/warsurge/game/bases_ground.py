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
