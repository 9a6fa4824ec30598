"""Terrain Fire Points: units inside a terrain piece with Fire Points attack out of it.

Core Rules 001_d3f5e425c5e1196d.txt §10.2 (L4383-4391: terrain embarked is treated "as a
Transport (refer to Section 6)"; L4466-4468 names a terrain piece's Fire Point), §6.7
(L3455-3478: "Fire Points ... allows embarked Units to attack from inside the Transport. When
measuring range for attacking with the embarked models, measure from the Transport model
itself"; "all models of an embarked Unit ... use all their Weapons"), §6.8 (L3480-3493: the
unit's own Movement limits its Heavy Weapons) and §6.9 (L3495-3503).

A piece's ``fire_points`` above 0 means it has Fire Points (§1.5 L1565-1568: a Yes or No; the
number is not a limit, rulings "WARSURGE terrain in play: session 26, s26-terrain" 1). Range is
measured from the piece's footprint to the target's bases, exactly; line of sight and cover are
traced from "eyes" on the piece's edge, just inside it, so the piece itself never blocks them
(a model sees out of the piece it stands in, battlefield ruling 2), at the height of the floor
when the piece is a level (L2360). Occupants are still attacked only in the Melee inside (the
piece is not a unit engaged in a Melee, §6.9; rulings 2-3). The models inside of a unit split by
the piece fire out the same way, in one Attack with its models outside (``targeting``; ruling 13).
"""

from __future__ import annotations

import numpy as np
import shapely

from warbench.rulesets.warsurge.game.geom import FloatArray
from warbench.rulesets.warsurge.game.state import GameState, Location
from warbench.rulesets.warsurge.game.work import Work

#: the radius of an eye (inches): a point that overlaps the piece it stands just inside
EYE_RADIUS = 0.01
#: how far inside the piece's edge the eyes stand (inches)
EYE_INSET = 0.02
#: the spacing of the eyes along the piece's edge (inches)
EYE_SPACING = 1.0


def has_fire_points(w: Work | GameState, name: str | None) -> bool:
    """The terrain piece ``name`` of the battlefield as it stands has Fire Points."""
    if name is None:
        return False
    if isinstance(w, Work):
        board = w.field.board
    else:
        from warbench.rulesets.warsurge.game.terrain_field import field_of

        board = field_of(w).board
    for t in board.terrain:
        if t.name == name:
            return t.fire_points > 0
    return False


def fire_point_pieces(w: Work) -> list[str]:
    """The names of the battlefield's terrain pieces that units may embark and that have Fire
    Points, in board order (random-legal play offers to go into them, §10.2, §6.7)."""
    return [t.name for t in w.field.board.terrain if t.embarkable and t.fire_points > 0]


def fires_from_terrain(w: Work, uid: int) -> bool:
    """The unit is inside a terrain piece with Fire Points, so it may attack out (§6.7)."""
    u = w.units[uid]
    return u.location is Location.TERRAIN and has_fire_points(w, u.terrain)


def _polygon(w: Work, name: str) -> shapely.Polygon:
    return shapely.Polygon(w.field.board.terrain_named(name).polygon)


def eyes(w: Work, name: str) -> FloatArray:
    """Where the occupants of ``name`` look out from: points along its edge, ``EYE_INSET``
    inside it (its corners among them), as an ``(n, 2)`` array; radius :data:`EYE_RADIUS`."""
    memo = w.table().memo
    key = ("terrain-eyes", name)
    hit: FloatArray | None = memo.get(key)
    if hit is not None:
        return hit
    poly = _polygon(w, name)
    inner = poly.buffer(-EYE_INSET, join_style="mitre")
    ring = (
        inner.exterior
        if isinstance(inner, shapely.Polygon) and not inner.is_empty
        else poly.exterior
    )
    pts = np.asarray(shapely.segmentize(ring, EYE_SPACING).coords, dtype=np.float64)[:-1]
    pts.setflags(write=False)
    memo[key] = pts
    return pts


def piece_distances(
    w: Work, name: str, xy: FloatArray, r: float, uid: int | None = None
) -> FloatArray:
    """The distance from the piece's footprint to each base (centres ``xy``, radius ``r``):
    0 when a base touches or overlaps it (§6.7: measured from the Transport itself). ``uid``:
    the unit whose present models stand at ``xy``, measured by its outlines when it stands on
    oval or rectangular bases (§1.3)."""
    if not len(xy):
        return np.zeros(0, dtype=np.float64)
    poly = _polygon(w, name)
    info = w.setup.units[uid] if uid is not None else None
    if info is not None and info.base is not None and uid is not None:
        from warbench.rulesets.warsurge.game import bases

        fac = bases.facings(w, uid, w.units[uid].present()[: len(xy)])
        out: FloatArray = np.asarray(
            shapely.distance(poly, bases.outlines(info.base, np.asarray(xy), fac)),
            dtype=np.float64,
        )
        return out
    d = shapely.distance(poly, shapely.points(xy))
    return np.maximum(0.0, np.asarray(d, dtype=np.float64) - r)


def nearest_from_piece(w: Work, uid: int) -> list[tuple[float, int]]:
    """Enemy units on the table by distance from the piece the unit is inside (nearest
    first), for a unit that fires from a piece with Fire Points; else empty."""
    if not fires_from_terrain(w, uid):
        return []
    name = w.units[uid].terrain
    assert name is not None
    side = w.units[uid].table_side(w.info(uid).side)
    t = w.table()
    mask = t.side != side
    if not mask.any():
        return []
    d = piece_distances(w, name, t.xy[mask], 0.0) - t.r[mask]
    best: dict[int, float] = {}
    for dist, who in zip(np.maximum(0.0, d).tolist(), t.uid[mask].tolist(), strict=True):
        if dist < best.get(who, float("inf")):
            best[who] = dist
    return sorted((v, k) for k, v in best.items())
