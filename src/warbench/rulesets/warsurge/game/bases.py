"""Oval and rectangular bases and hulls in play (Core Rules 001_d3f5e425c5e1196d.txt §1.3).

L249-255: bases "are used as a reference for measuring distances between themselves and other
models"; "Some models may not have a base. When this happens, refer to the model's actual body
or hull (exterior of a vehicle) when measuring." A roster entry may give a unit an oval or
rectangular base, or a hull (``game/io.py``); its :class:`~.state.UnitInfo` then carries the
battlefield's :class:`~warbench.rulesets.warsurge.battlefield.Base` and its ``radius`` is the
circle that covers it. Its models carry a facing (``UnitGS.facing``, degrees counter-clockwise
from ``+x``, the base's length along it).

Every measurement that needs the true shape is made here with the battlefield's footprint
geometry (``footprint_distance`` and its vectorised form, shapely polygons): ranges and
"within X" (§1.4, §5.4), Base Contact (§2.1), Melee engagement and moves into contact (§4.3),
overlaps (§1.3, §4.7), Coherency (§4.2) and templates (Perks §12.5 Mode). Games whose bases are
all round never come here (:func:`shaped` is False), so their discs stay the fast path and
their records are unchanged. Rulings: ``docs/rulings.md`` "WARSURGE bases in play: session 26".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely

from warbench.rulesets.warsurge.battlefield.model import Base, Footprint
from warbench.rulesets.warsurge.game.geom import COHERENCY, CONTACT, OVERLAP_TOL, FloatArray

Point = tuple[float, float]

#: How close (inches) two shapes may come into each other and still only touch: the game's
#: overlap tolerance (``geom.OVERLAP_TOL``), as a depth.
_TOUCH = OVERLAP_TOL


def shaped(setup: Any) -> bool:
    """Whether a unit of the game stands on an oval or rectangular base or hull (worked out
    once per set-up; False keeps every measurement on the round-base fast path)."""
    got: bool | None = setup.__dict__.get("_shaped_bases")
    if got is None:
        got = any(u.base is not None for u in setup.units)
        object.__setattr__(setup, "_shaped_bases", got)
    return got


def base_of(info: Any) -> Base | None:
    """The unit's oval or rectangular base (None: round, measured as a disc)."""
    base: Base | None = info.base
    return base


# -- facing -------------------------------------------------------------------------------------


def default_facing(game: Any, uid: int) -> float:
    """:func:`_default_facing`, kept with the set-up per unit and chosen zones."""
    memo: dict[tuple[int, tuple[int | None, ...]], float] = game.setup.__dict__.setdefault(
        "_facing_memo", {}
    )
    key = (uid, tuple(game.zones))
    got = memo.get(key)
    if got is None:
        got = memo[key] = _default_facing(game, uid)
    return got


def _default_facing(game: Any, uid: int) -> float:
    """The facing a unit is deployed with (ruling 1): from the centre of its side's deployment
    zone toward the centre of the nearest enemy side's zone (toward the battlefield's centre
    when no enemy zone is chosen yet), in degrees counter-clockwise from ``+x``, to 1e-6."""
    setup = game.setup
    info = setup.units[uid]
    field = setup.field
    zones = game.zones
    own = zones[info.side] if info.side < len(zones) else None
    here = field.zone_centre(own) if own is not None else (field.width / 2, field.height / 2)
    foes = [field.zone_centre(z) for s, z in enumerate(zones) if s != info.side and z is not None]
    there = (
        min(foes, key=lambda c: (math.dist(here, c), c))
        if foes
        else (field.width / 2, field.height / 2)
    )
    if math.dist(here, there) < 1e-9:
        return 0.0
    return round(math.degrees(math.atan2(there[1] - here[1], there[0] - here[0])), 6)


def facing_of(game: Any, uid: int, model: int) -> float:
    """The facing of one model (the unit's recorded facing, else its deployment default)."""
    u = game.units[uid]
    if u.facing and model < len(u.facing):
        return float(u.facing[model])
    return default_facing(game, uid)


def facings(game: Any, uid: int, models: Sequence[int] | None = None) -> list[float]:
    """The facings of the unit's ``models`` (default: those present), in that order."""
    idx = game.units[uid].present() if models is None else models
    return [facing_of(game, uid, int(i)) for i in idx]


def deployed_facings(game: Any, uid: int) -> tuple[float, ...]:
    """The facing every model of an oval or rectangular unit gets when it is set up on the
    battlefield (ruling 1); ``()`` for a round one (its facing changes nothing)."""
    if game.setup.units[uid].base is None:
        return ()
    return (default_facing(game, uid),) * len(game.units[uid].hp)


def turned(game: Any, uid: int, models: Sequence[int], facing: float) -> tuple[float, ...]:
    """The unit's facings after ``models`` turn to ``facing`` (a Move's ``facing``, ruling 2)."""
    u = game.units[uid]
    out = list(u.facing) if u.facing else [default_facing(game, uid)] * len(u.hp)
    for i in models:
        out[i] = float(facing) % 360.0
    return tuple(out)


# -- shapes -------------------------------------------------------------------------------------


def footprints(
    base: Base | None, radius: float, xy: FloatArray, facing: Sequence[float]
) -> list[Footprint]:
    """The footprints of bases at ``xy`` with these facings (a round base of ``radius``)."""
    b = base if base is not None else _round(radius)
    return [
        Footprint((float(p[0]), float(p[1])), b, float(f)) for p, f in zip(xy, facing, strict=True)
    ]


def _round(radius: float) -> Base:
    return Base(diameter_mm=radius * 2 * 25.4)


def _shapes(
    base: Base | None, radius: float, xy: FloatArray, facing: Sequence[float]
) -> tuple[npt.NDArray[Any], FloatArray]:
    """shapely geometries of the bases and what to take off their distances: a round base is
    its centre less its radius (exact), an oval or rectangle its polygon."""
    pts = np.asarray(xy, dtype=np.float64).reshape(-1, 2)
    if base is None:
        return shapely.points(pts), np.full(len(pts), float(radius))
    return outlines(base, pts, facing), np.zeros(len(pts))


def outlines(base: Base, pts: FloatArray, facing: Sequence[float]) -> npt.NDArray[Any]:
    """The polygons of one kind of base at ``pts`` with these facings, made at once (the
    corners of ``Base.outline`` turned and moved with NumPy)."""
    if not len(pts):
        return np.zeros(0, dtype=object)
    local = np.asarray(base.outline((0.0, 0.0), 0.0), dtype=np.float64)  # (k, 2)
    rad = np.radians(np.asarray(facing, dtype=np.float64))
    c, s = np.cos(rad)[:, None], np.sin(rad)[:, None]
    x = local[None, :, 0] * c - local[None, :, 1] * s + pts[:, 0:1]
    y = local[None, :, 0] * s + local[None, :, 1] * c + pts[:, 1:2]
    out: npt.NDArray[Any] = shapely.polygons(np.stack([x, y], axis=2))
    return out


def gaps(
    a: tuple[Base | None, float, FloatArray, Sequence[float]],
    b: tuple[Base | None, float, FloatArray, Sequence[float]],
) -> FloatArray:
    """``(len(a), len(b))`` base-to-base distances between two groups of bases, each given as
    ``(base, radius, centres, facings)``; 0 where they touch or overlap (§1.3)."""
    sa, ea = _shapes(*a)
    sb, eb = _shapes(*b)
    if not len(sa) or not len(sb):
        return np.zeros((len(sa), len(sb)))
    d = shapely.distance(sa[:, None], sb[None, :])
    out: FloatArray = np.maximum(d - ea[:, None] - eb[None, :], 0.0)
    return out


def unit_group(
    game: Any, uid: int, xy: FloatArray | None = None, models: Sequence[int] | None = None
) -> tuple[Base | None, float, FloatArray, list[float]]:
    """A unit's bases as :func:`gaps` takes them: its present models (or ``models``), where
    they stand or at ``xy`` (a position being checked: with the facings a Move gives them)."""
    info = game.setup.units[uid]
    u = game.units[uid]
    if xy is None:
        idx = u.present() if models is None else list(models)
        pts = u.present_xy() if models is None else _array([u.pos[i] for i in idx])
        return info.base, float(info.radius), pts, facings(game, uid, idx)
    pts = _array(xy)
    idx = list(models) if models is not None else _present(game, uid, pts)
    return info.base, float(info.radius), pts, _new_facings(game, uid, idx)


def _array(xy: Any) -> FloatArray:
    out: FloatArray = np.asarray(xy, dtype=np.float64).reshape(-1, 2)
    return out


def unit_gaps(game: Any, a: int, b: int, a_xy: FloatArray | None = None) -> FloatArray:
    """Distances between the models of units ``a`` (present, or at ``a_xy``) and ``b``."""
    return gaps(
        unit_group(game, a, a_xy, None if a_xy is None else _present(game, a, a_xy)),
        unit_group(game, b),
    )


def _present(game: Any, uid: int, xy: FloatArray) -> list[int]:
    """The models that stand at ``xy``: the present ones in order (model 0's facing for any
    beyond them)."""
    present: list[int] = game.units[uid].present()[: len(xy)]
    return present + [0] * (len(xy) - len(present))


def table_gaps(
    game: Any, uid: int, pts: FloatArray, t: Any, mask: npt.NDArray[np.bool_]
) -> FloatArray:
    """Distances from ``uid``'s bases at ``pts`` to the table index's rows in ``mask``."""
    mine = unit_group(game, uid, pts, _present(game, uid, pts))
    rows = np.flatnonzero(mask)
    out = np.zeros((len(pts), len(rows)))
    uids = t.uid[rows]
    for other in sorted({int(x) for x in uids}):
        cols = np.flatnonzero(uids == other)
        info = game.setup.units[other]
        fac = [facing_of(game, other, int(m)) for m in t.model[rows[cols]]]
        out[:, cols] = gaps(mine, (info.base, float(info.radius), t.xy[rows[cols]], fac))
    return out


# -- the game's questions -----------------------------------------------------------------------


def contacts(game: Any, uid: int, pts: FloatArray, t: Any, mask: npt.NDArray[np.bool_]) -> set[int]:
    """Units of ``mask`` with a model in Base Contact (§2.1) with ``uid``'s bases at ``pts``."""
    d = table_gaps(game, uid, pts, t, mask)
    hit = (d <= CONTACT).any(axis=0)
    return {int(x) for x in t.uid[mask][hit]}


def closest_vectors(
    game: Any, a: int, a_xy: FloatArray, models: Sequence[int], b: int
) -> tuple[FloatArray, FloatArray]:
    """The distances ``(len(a_xy), models of b)`` and, for each pair, the vector from the
    closest point of ``a``'s base to the closest point of ``b``'s (a move along it by the
    distance less ``CONTACT / 2`` ends in Base Contact, §4.3: translating a convex base along
    its closest-points line closes the gap by exactly the distance moved)."""
    ga = unit_group(game, a, a_xy, models)
    gb = unit_group(game, b)
    sa, ea = _shapes(*ga)
    sb, eb = _shapes(*gb)
    d = np.zeros((len(sa), len(sb)))
    vec = np.zeros((len(sa), len(sb), 2))
    for i in range(len(sa)):
        for j in range(len(sb)):
            line = shapely.shortest_line(sa[i], sb[j])
            (x0, y0), (x1, y1) = line.coords
            v = np.asarray([x1 - x0, y1 - y0])
            n = float(np.hypot(*v))
            if n < 1e-12:
                v = ga[2][i] - gb[2][j]
                v = -v / (float(np.hypot(*v)) or 1.0)
                d[i, j] = 0.0
                vec[i, j] = v * 1e-9
                continue
            d[i, j] = max(0.0, n - ea[i] - eb[j])
            vec[i, j] = v / n * d[i, j]
    return d, vec


def overlap_problem(
    game: Any,
    uid: int,
    new: Sequence[Point],
    models: Sequence[int],
    starts: Sequence[Point] | None,
    t: Any,
    other: npt.NDArray[np.bool_],
    skip_path: Sequence[bool],
    passing: frozenset[int],
) -> tuple[int, int, str] | None:
    """The first model of ``models`` at ``new`` whose base would overlap another unit's (§4.7,
    at its end) or pass through one (§4.7: other units are Impassable Ground; the base swept
    from start to end, ruling 2), as ``(k, other unit, "end" | "path")``; None when clear."""
    info = game.setup.units[uid]
    fac_now = facings(game, uid, models)
    fac_new = fac_now
    new_fac = turning(game, uid)
    if new_fac is not None:
        fac_new = [new_fac[i] for i in models]
    pts = np.asarray(new, dtype=np.float64).reshape(-1, 2)
    rows = np.flatnonzero(other)
    if not len(rows):
        return None
    oshape: list[Any] = []
    oextra: list[float] = []
    for row in rows.tolist():
        o = int(t.uid[row])
        oi = game.setup.units[o]
        s, e = _shapes(
            oi.base, float(oi.radius), t.xy[row : row + 1], [facing_of(game, o, int(t.model[row]))]
        )
        oshape.append(s[0])
        oextra.append(float(e[0]))
    shapes = np.asarray(oshape, dtype=object)
    extra = np.asarray(oextra)
    owner = t.uid[rows]
    ghost = np.isin(owner, sorted(passing)) if passing else np.zeros(len(rows), dtype=bool)
    for k in range(len(pts)):
        end = _solid(info.base, float(info.radius), pts[k], fac_new[k])
        if _overlaps(end, shapes, extra):
            j = int(np.flatnonzero(_overlapping(end, shapes, extra))[0])
            return k, int(owner[j]), "end"
        if starts is None or skip_path[k] or tuple(starts[k]) == tuple(new[k]):
            continue
        s = np.asarray(starts[k], dtype=np.float64)
        start_shape = _solid(info.base, float(info.radius), s, fac_now[k])
        moved = _solid(info.base, float(info.radius), pts[k], fac_now[k])
        swept = _swept(start_shape, moved)
        hit = _overlapping(swept, shapes, extra) & ~ghost
        hit &= ~_overlapping(start_shape, shapes, extra)  # already touching where it stands
        if hit.any():
            return k, int(owner[int(np.flatnonzero(hit)[0])]), "path"
    return None


#: A base as :func:`_solid` gives it: a shapely geometry and how far around it the base
#: reaches (a round base: its centre, or the segment it sweeps, and its radius less the touch
#: tolerance; an oval or rectangle: its polygon shrunk by the tolerance, and 0).
Solid = tuple[Any, float]


def _solid(base: Base | None, radius: float, p: FloatArray, facing: float) -> Solid:
    """What of a base may not meet another base (:data:`Solid`): the base shrunk by the touch
    tolerance (``_TOUCH``), an oval's or rectangle's half-length and half-width less it."""
    x, y = float(p[0]), float(p[1])
    if base is None:
        return shapely.Point(x, y), radius - _TOUCH
    a, b = base.half_extents
    local = np.asarray(base.outline((0.0, 0.0), 0.0), dtype=np.float64)
    local = local * [(a - _TOUCH) / a, (b - _TOUCH) / b]
    c, s = math.cos(math.radians(facing)), math.sin(math.radians(facing))
    poly = shapely.Polygon(
        np.stack([local[:, 0] * c - local[:, 1] * s + x, local[:, 0] * s + local[:, 1] * c + y], 1)
    )
    return poly, 0.0


def _swept(start: Solid, end: Solid) -> Solid:
    """The area a base sweeps moving straight from ``start`` to ``end`` without turning."""
    if start[1] > 0.0:
        return shapely.LineString([start[0].coords[0], end[0].coords[0]]), start[1]
    return shapely.union(start[0], end[0]).convex_hull, 0.0


def _overlapping(
    solid: Solid, shapes: npt.NDArray[Any], extra: FloatArray
) -> npt.NDArray[np.bool_]:
    """Which bases ``shapes`` (each less its ``extra``, as :func:`_shapes` gives them) meet
    ``solid``: overlap a base by more than the touch tolerance."""
    if not len(shapes):
        return np.zeros(len(shapes), dtype=bool)
    d = shapely.distance(solid[0], shapes)
    reach = solid[1] + extra
    out: npt.NDArray[np.bool_] = np.asarray((d < reach) | ((reach <= 0.0) & (d <= 0.0)))
    return out


def _overlaps(solid: Solid, shapes: npt.NDArray[Any], extra: FloatArray) -> bool:
    return bool(_overlapping(solid, shapes, extra).any())


def own_problem(game: Any, uid: int, new: Sequence[Point], models: Sequence[int]) -> str | None:
    """``"overlap"`` when the unit's bases at ``new`` overlap each other (§1.3), ``"coherency"``
    when they are not one group linked within 2" (§4.2), else None."""
    info = game.setup.units[uid]
    pts = np.asarray(new, dtype=np.float64).reshape(-1, 2)
    if len(pts) < 2:
        return None
    fac = _new_facings(game, uid, models)
    shapes, extra = _shapes(info.base, float(info.radius), pts, fac)
    for i in range(len(pts) - 1):
        solid = _solid(info.base, float(info.radius), pts[i], fac[i])
        if _overlaps(solid, shapes[i + 1 :], extra[i + 1 :]):
            return "overlap"
    if len(group_of(game, uid, pts, fac)) > 1:
        return "coherency"
    return None


def _new_facings(game: Any, uid: int, models: Sequence[int]) -> list[float]:
    new_fac = turning(game, uid)
    if new_fac is not None:
        return [new_fac[i] for i in models]
    return facings(game, uid, models)


def group_of(game: Any, uid: int, pts: FloatArray, fac: Sequence[float]) -> list[list[int]]:
    """The unit's bases at ``pts`` split into Coherency groups (§4.2 I), largest first."""
    from warbench.rulesets.warsurge.battlefield.measure import footprint_coherency_groups

    info = game.setup.units[uid]
    return footprint_coherency_groups(
        footprints(info.base, float(info.radius), pts, fac), COHERENCY
    )


def coherent(game: Any, uid: int, pts: FloatArray | None = None) -> bool:
    """Whether the unit's present models (or bases at ``pts``) are in Coherency (§4.2 I)."""
    u = game.units[uid]
    idx = u.present()
    xy = u.present_xy() if pts is None else pts
    if len(xy) <= 1:
        return True
    return len(group_of(game, uid, xy, facings(game, uid, idx[: len(xy)]))) == 1


def travelled(base: Base | None, start: Point, end: Point, f0: float, f1: float) -> float:
    """How far a model travels from ``start`` facing ``f0`` to ``end`` facing ``f1`` (ruling 3,
    §4.1 L1843-1847 "Measure from one side of the model's base ... place the model within
    that distance"): the farthest any corner of its base goes; its centre's distance when it
    does not turn."""
    if base is None or abs(((f1 - f0) + 180.0) % 360.0 - 180.0) < 1e-9:
        return math.dist(start, end)
    a = base.outline(start, f0)
    b = base.outline(end, f1)
    return max(math.dist(p, q) for p, q in zip(a, b, strict=True))


def under_template(
    at: Any, base: Base | None, radius: float, xy: FloatArray, fac: Sequence[float]
) -> npt.NDArray[np.bool_]:
    """Which bases at ``xy`` are under the template ``at`` (Perks §12.5 Mode: "fully or
    partially under"): the template's area touches the base's true shape. Nova and Diffuse
    take the models whose centres are inside (``effects/mode.py``), as for round bases."""
    from warbench.rulesets.warsurge.effects.mode import (
        DROPLET_WIDTH,
        LINE_WIDTH,
        Shape,
        under,
    )

    t = at.template
    if base is None or t.centres or t.shape is Shape.ARC:
        return under(at, xy, radius)
    if t.shape is Shape.CIRCLE:
        area = shapely.Point(at.origin).buffer(t.size / 2, 32)
    else:
        poly = at.polygon()
        if t.shape in (Shape.LINE, Shape.BEAM):
            area = shapely.LineString(poly[:2]).buffer(LINE_WIDTH / 2, 4)
        else:
            area = shapely.Polygon(poly)
            if t.shape is Shape.DROPLET:
                cap = (poly[1] + poly[2]) / 2
                area = area.union(shapely.Point(cap).buffer(t.size * DROPLET_WIDTH / 2, 32))
    shapes, _ = _shapes(base, radius, xy, fac)
    out: npt.NDArray[np.bool_] = np.asarray(shapely.distance(area, shapes) <= 1e-9)
    return out


# -- moves --------------------------------------------------------------------------------------


def turning(game: Any, uid: int) -> tuple[float, ...] | None:
    """The facings a Move being checked gives the unit (``Work.turning``), else None."""
    pending: dict[int, tuple[float, ...]] = getattr(game, "turning", None) or {}
    return pending.get(uid)


def turns(game: Any, uid: int, model: int) -> bool:
    """Whether the Move being checked turns this model (ruling 2)."""
    new = turning(game, uid)
    return new is not None and abs(_angle(new[model] - facing_of(game, uid, model))) > 1e-9


def _angle(d: float) -> float:
    return (d + 180.0) % 360.0 - 180.0


def model_travel(game: Any, uid: int, model: int, start: Point, end: Point) -> float:
    """:func:`travelled` for one model of a Move being checked."""
    new = turning(game, uid)
    f0 = facing_of(game, uid, model)
    f1 = f0 if new is None else new[model]
    return travelled(game.setup.units[uid].base, start, end, f0, f1)


def problems(
    game: Any,
    uid: int,
    new: Sequence[Point],
    models: Sequence[int],
    starts: Sequence[Point] | None,
    t: Any,
    other: npt.NDArray[np.bool_],
    skip_path: Sequence[bool],
    passing: frozenset[int],
) -> tuple[str, str] | None:
    """The overlap and Coherency refusals of ``coherency.problem_positions`` measured with the
    true bases (§1.3, §4.2, §4.7); the board, terrain and allowance checks are made there."""
    label = game.setup.units[uid].label
    hit = overlap_problem(game, uid, new, models, starts, t, other, skip_path, passing)
    if hit is not None:
        k, who, where = hit
        name = game.setup.units[who].label
        if where == "path":
            return (
                f"model {models[k] + 1} of {label} cannot move through {name}: other units "
                "are Impassable Ground",
                "§4.7",
            )
        return (f"model {models[k] + 1} of {label} would overlap {name}", "§4.7")
    own = own_problem(game, uid, new, models)
    if own == "overlap":
        return (f"models of {label} would overlap each other", "§1.3")
    if own == "coherency" and not game.units[uid].inside:  # a split unit: its piece links it
        return (
            f'{label} would break Coherency: every model within 2" of another, in one group',
            "§4.2",
        )
    return None


def formation(base: Base, n: int, facing: float, gap: float = 0.5) -> FloatArray:
    """Offsets of ``n`` oval or rectangular bases facing ``facing``: ranks abreast across the
    facing, each ``gap`` inches from its neighbours (in Coherency, §4.2), nearest first."""
    length, width = (2 * h for h in base.half_extents)
    cols = max(1, math.ceil(math.sqrt(n * length / width))) if n > 1 else 1
    out = []
    for k in range(n):
        row, col = divmod(k, cols)
        across = (col - (min(cols, n - row * cols) - 1) / 2) * (width + gap)
        out.append((-row * (length + gap), across))
    c, s = math.cos(math.radians(facing)), math.sin(math.radians(facing))
    pts = np.asarray([(x * c - y * s, x * s + y * c) for x, y in out], dtype=np.float64)
    return pts.reshape(-1, 2)


def check_turn(game: Any, uid: int, models: Sequence[int], facing: float) -> tuple[float, ...]:
    """The unit's facings after a Move that turns its moving ``models`` to ``facing``; a round
    base has no facing to turn (§1.3), so a Move giving one is refused."""
    from warbench.kernel.errors import RulesError

    info = game.setup.units[uid]
    if info.base is None:
        raise RulesError(
            f"{info.label} stands on round bases, which have no facing; give a facing only to "
            "oval or rectangular bases and hulls",
            "§1.3",
        )
    if not math.isfinite(float(facing)):
        raise RulesError(f"a facing of {facing!r} degrees is not a direction", "§1.3")
    return turned(game, uid, models, facing)


# -- sight and cover ----------------------------------------------------------------------------


def _closed(
    base: Base | None, radius: float, xy: FloatArray, facing: Sequence[float], k: int
) -> FloatArray:
    """``(n, k, 2)`` closed outlines padded to ``k`` corners with their first; a round base's
    row its centre repeated."""
    pts = np.asarray(xy, dtype=np.float64).reshape(-1, 2)
    out = np.repeat(pts[:, None, :], k, axis=1)
    if base is None or not len(pts):
        return out
    local = np.asarray(base.outline((0.0, 0.0), 0.0), dtype=np.float64)
    rad = np.radians(np.asarray(facing, dtype=np.float64))
    c, s = np.cos(rad)[:, None], np.sin(rad)[:, None]
    x = local[None, :, 0] * c - local[None, :, 1] * s + pts[:, 0:1]
    y = local[None, :, 0] * s + local[None, :, 1] * c + pts[:, 1:2]
    ring = np.stack([x, y], axis=2)
    out[:, : len(local)] = ring
    out[:, len(local) :] = ring[:, :1]
    return out


def _corners(base: Base | None) -> int:
    return 1 if base is None else len(base.outline((0.0, 0.0), 0.0)) + 1


def group_outlines(
    group: tuple[Base | None, float, FloatArray, Sequence[float]],
) -> FloatArray | None:
    """The true outlines of a :func:`unit_group` for the sight module (§5.4-5.6), None for
    round bases (the disc answers)."""
    base, radius, xy, fac = group
    if base is None:
        return None
    return _closed(base, radius, xy, fac, _corners(base))


def table_outlines(game: Any, t: Any, mask: npt.NDArray[np.bool_]) -> FloatArray | None:
    """The true outlines of the table index's rows in ``mask`` (the blockers of a sight or
    cover question), None when all of them stand on round bases."""
    rows = np.flatnonzero(mask)
    uids = t.uid[rows]
    kinds = {int(u): game.setup.units[int(u)].base for u in set(uids.tolist())}
    if all(b is None for b in kinds.values()):
        return None
    k = max(_corners(b) for b in kinds.values())
    out = np.repeat(t.xy[rows][:, None, :].astype(np.float64), k, axis=1)
    for other, base in kinds.items():
        if base is None:
            continue
        cols = np.flatnonzero(uids == other)
        fac = [facing_of(game, other, int(m)) for m in t.model[rows[cols]]]
        out[cols] = _closed(base, 0.0, t.xy[rows[cols]], fac, k)
    return out


# -- the perks' own measurements ----------------------------------------------------------------


def distances(
    game: Any,
    a: int | None,
    axy: FloatArray,
    ra: float,
    b: int | None,
    bxy: FloatArray,
    rb: float,
) -> FloatArray:
    """``geom.edge_distances(axy, ra, bxy, rb)`` for the perks that measure their own way
    (Counter, Decoy, Displace, Aim, ...): when a unit of the game stands on an oval or
    rectangular base, unit ``a``'s bases at ``axy`` and unit ``b``'s at ``bxy`` are measured
    with their true shapes (§1.3; a ``None`` unit, or a round one, is discs of radius ``ra`` or
    ``rb``: a point is radius 0). Games on round bases get the disc answer, bit for bit."""
    from warbench.rulesets.warsurge.game.geom import edge_distances

    if not shaped(game.setup):
        return edge_distances(axy, ra, bxy, rb)
    return gaps(_group(game, a, axy, ra), _group(game, b, bxy, rb))


def _group(
    game: Any, uid: int | None, xy: FloatArray, r: float
) -> tuple[Base | None, float, FloatArray, Sequence[float]]:
    pts = _array(xy)
    if uid is None or game.setup.units[uid].base is None:
        return None, float(r), pts, [0.0] * len(pts)
    return unit_group(game, uid, pts)


def table_distances(
    game: Any, uid: int, pts: FloatArray, r: float, t: Any, mask: npt.NDArray[np.bool_]
) -> FloatArray:
    """:func:`distances` from ``uid``'s bases at ``pts`` to the table index's rows in
    ``mask`` (``geom.edge_distances(pts, r, t.xy[mask], t.r[mask])`` on round bases)."""
    from warbench.rulesets.warsurge.game.geom import edge_distances

    if not shaped(game.setup):
        return edge_distances(pts, r, t.xy[mask], t.r[mask])
    return table_gaps(game, uid, _array(pts), t, mask)


def sight_polys(
    game: Any, a: int, b: int, t: Any, mask: npt.NDArray[np.bool_]
) -> tuple[FloatArray | None, FloatArray | None, FloatArray | None] | None:
    """The true outlines of units ``a`` and ``b`` and of the table index's rows in ``mask``
    for a sight question (``geom.Field.visible``'s ``polys``); None on round bases."""
    if not shaped(game.setup):
        return None
    ga, gb = group_outlines(unit_group(game, a)), group_outlines(unit_group(game, b))
    return ga, gb, table_outlines(game, t, mask)


def sees(game: Any, a: int, b: int) -> bool:
    """Some model of ``a`` sees some model of ``b`` (§5.4 line of sight), the models of the
    other units blocking; oval and rectangular bases with their outline (ruling 4)."""
    t = game.table()
    others = game.others_mask([a, b])
    r, tr = game.info(a).radius, game.info(b).radius
    polys = sight_polys(game, a, b, t, others)
    bxy, br = t.xy[others], t.r[others]
    return any(game.field.visible(game.xy(a), r, game.xy(b), tr, bxy, br, None, polys))
