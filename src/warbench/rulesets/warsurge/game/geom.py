"""The game's view of the battlefield: fast model geometry plus terrain queries.

Models are circles (their bases, §1.3) on a 2D board measured in inches. The hot queries of a
game (edge distances, base contact, overlaps, a moving base sweeping past other bases,
coherency) are vectorised here with NumPy. Terrain (Difficult, Dangerous, Impassable Ground
§4.5-4.7, line of sight and cover §5.4-5.6, Cover Areas) comes from the battlefield: a
:class:`Field` is built from a :class:`~warbench.rulesets.warsurge.battlefield.Board` by
:func:`field_from_board`, and its terrain queries are cached by position.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely

from warbench.rulesets.warsurge.battlefield import Board, check_move
from warbench.rulesets.warsurge.battlefield.geometry import ResultCache
from warbench.rulesets.warsurge.battlefield.sight import (
    Bases,
    CoverReport,
    cover_bonus,
    cover_report,
    elevated_cover_report,
    elevated_sight_matrix,
    elevated_visible_models,
    sight_matrix,
    visible_models,
)
from warbench.rulesets.warsurge.profiles import WeaponProfile

FloatArray = npt.NDArray[np.float64]
Point = tuple[float, float]

#: Bases whose edges are closer than this (inches) are in Base Contact (§2.1). A ruling: the
#: tabletop has no exact zero, and automated moves stop this close.
CONTACT = 0.05
#: Coherency distance between bases (§4.2): 2".
COHERENCY = 2.0
#: Two bases are linked for Coherency when their edges are this close (§4.2; 1e-6 inch for
#: rounding): ``coherent`` and ``groups``, and ``coherency_jit.formation``'s test
LINKED = COHERENCY + 1e-6
#: Overlap tolerance: bases may touch, never overlap by more than this.
OVERLAP_TOL = 1e-3


@dataclass(frozen=True)
class PathCheck:
    """What a straight move of one base crosses (§4.5-4.7)."""

    blocked_by: str | None
    difficult: bool
    dangerous: tuple[str, ...]
    reason: str = ""


class Field:
    """The battlefield of a game: a :class:`Board` of the battlefield package plus the game's
    fast paths (bounding-box prefilters, caches). Every terrain rule is the battlefield
    package's (``check_move``, ``sight_matrix``, ``cover_report``, zones)."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.g = board.geometry()
        self.width = float(board.width)
        self.height = float(board.height)
        self.name = board.name or "battlefield"
        self.zones = tuple(board.zones)
        self._move_bbox = [
            (t.name, tuple(shapely.Polygon(t.polygon).bounds))
            for t in board.terrain
            if t.difficult or t.dangerous is not None or t.impassable
        ]
        self._imp_bbox = [
            tuple(shapely.Polygon(t.polygon).bounds) for t in board.terrain if t.impassable
        ]
        #: the same boxes as tuples of four floats, for the loops of ``path`` and ``spot_ok``
        self._move_boxes = tuple(_box4(bb) for _, bb in self._move_bbox)
        self._imp_boxes = tuple(_box4(bb) for bb in self._imp_bbox)
        self.dangerous_names = tuple(t.name for t in board.terrain if t.dangerous is not None)
        self._danger: dict[str, WeaponProfile | None] = {}
        for t in board.terrain:
            if t.dangerous is not None:
                spec = t.dangerous
                self._danger[t.name] = (
                    WeaponProfile(**{"name": t.name, **(spec.weapon or {})})
                    if spec.kind == "weapon"
                    else None
                )
        self._path_cache: dict[tuple[float, ...], PathCheck] = {}
        #: sight and cover answers of round bases on the ground, by the arrays asked (issue 10)
        self._asked = ResultCache()
        polys = [shapely.Polygon(z.polygon) for z in self.zones]
        self._zone_centres: list[Point] = [
            (float(p.centroid.x), float(p.centroid.y)) for p in polys
        ]
        self._zone_bounds: list[tuple[float, float, float, float]] = [
            (float(b[0]), float(b[1]), float(b[2]), float(b[3])) for b in (p.bounds for p in polys)
        ]
        # zones that are axis-aligned rectangles (the usual) are tested with NumPy alone
        self._zone_box: list[bool] = [
            len(p.exterior.coords) == 5 and bool(p.equals(shapely.box(*p.bounds))) for p in polys
        ]
        from warbench.rulesets.warsurge.game.terrain import levels_of

        #: the raised pieces models stand on (game/terrain.py); empty on a flat board
        self.levels = levels_of(board)
        #: pieces with custom cover (§10.4): without any, cover is the flat Cover Bonus alone
        self.custom_cover_pieces = tuple(t.name for t in board.terrain if t.custom_cover)

    @property
    def source(self) -> dict[str, Any]:
        from warbench.rulesets.warsurge.battlefield import board_to_data

        return board_to_data(self.board)

    # -- placement -----------------------------------------------------------------------
    def on_board(self, p: Point, r: float) -> bool:
        return (
            r - 1e-6 <= p[0] <= self.width - r + 1e-6 and r - 1e-6 <= p[1] <= self.height - r + 1e-6
        )

    def spot_ok(self, p: Point, r: float) -> bool:
        """A base fits here: on the board and not on Impassable Ground (§4.7)."""
        if not self.on_board(p, r):
            return False
        x, y = p
        x0, y0, x1, y1 = x - r, y - r, x + r, y + r
        # the boxes met, in a loop (no generator per question; issue 10, session 39)
        for b0, b1, b2, b3 in self._imp_boxes:
            if not (b2 < x0 or b0 > x1 or b3 < y0 or b1 > y1):
                break
        else:
            return True
        return not bool(self.g.on_impassable(np.asarray([p], dtype=np.float64), r)[0])

    def in_zone(self, zone: int, p: Point, r: float) -> bool:
        """The whole base is inside deployment zone ``zone`` (§3.6)."""
        return bool(self.zone_holds(zone, np.asarray([p], dtype=np.float64), r)[0])

    def in_zone_all(self, zone: int, xy: FloatArray, r: float) -> bool:
        """Every base of ``xy`` is inside zone ``zone``."""
        return bool(self.zone_holds(zone, xy, r).all())

    def zone_holds(self, zone: int, xy: FloatArray, r: float) -> npt.NDArray[np.bool_]:
        """Which bases of ``xy`` lie wholly inside zone ``zone`` (§3.6): the battlefield's
        answer (``in_zone``: the centre strictly inside, the edge at least ``r`` away, to
        1e-6). A rectangular zone is answered with NumPy alone: the distance from a point
        inside a rectangle to its edge is the least of its four distances to the sides."""
        if not self._zone_box[zone] or not len(xy):
            return np.asarray(self.g.in_zone(zone, xy, r))
        x0, y0, x1, y1 = self._zone_bounds[zone]
        x, y = xy[:, 0], xy[:, 1]
        inside = (x > x0) & (x < x1) & (y > y0) & (y < y1)
        edge = np.minimum(np.minimum(x - x0, x1 - x), np.minimum(y - y0, y1 - y))
        out: npt.NDArray[np.bool_] = inside & (edge >= r - 1e-6)
        return out

    def zone_centre(self, zone: int) -> Point:
        return self._zone_centres[zone]

    def zone_bounds(self, zone: int) -> tuple[float, float, float, float]:
        return self._zone_bounds[zone]

    # -- movement --------------------------------------------------------------------------
    def path(self, start: Point, end: Point, r: float) -> PathCheck:
        """Terrain a base crosses moving straight from ``start`` to ``end``: through, into or
        out of (§4.5, §4.6); Impassable Ground blocks (§4.7)."""
        minx = min(start[0], end[0]) - r
        maxx = max(start[0], end[0]) + r
        miny = min(start[1], end[1]) - r
        maxy = max(start[1], end[1]) + r
        # the boxes met, in a loop (no generator per question; issue 10, session 39)
        for b0, b1, b2, b3 in self._move_boxes:
            if not (b2 < minx or b0 > maxx or b3 < miny or b1 > maxy):
                break
        else:
            return _CLEAR
        key = (start[0], start[1], end[0], end[1], r)
        hit = self._path_cache.get(key)
        if hit is not None:
            return hit
        mc = check_move(self.board, start, end, r, 1e9)
        if not mc.ok and mc.rule == "§4.7":
            out = PathCheck(mc.reason or "Impassable Ground", False, (), mc.reason or "")
        else:
            out = PathCheck(None, bool(mc.difficult_crossed), tuple(mc.dangerous_crossed))
        if len(self._path_cache) > 100_000:
            self._path_cache.clear()
        self._path_cache[key] = out
        return out

    def may_cross(self, starts: FloatArray, ends: FloatArray, r: float) -> npt.NDArray[np.bool_]:
        """For each straight move ``starts[p]``-``ends[p]`` of a base of radius ``r``: whether
        its box meets the box of a piece of terrain that matters to a move, all at once; where
        not, :meth:`path` is clear (its own first test, the very same numbers; issue 10,
        session 30)."""
        out = np.zeros(len(starts), dtype=bool)
        if not self._move_bbox or not len(starts):
            return out
        minx = np.minimum(starts[:, 0], ends[:, 0]) - r
        maxx = np.maximum(starts[:, 0], ends[:, 0]) + r
        miny = np.minimum(starts[:, 1], ends[:, 1]) - r
        maxy = np.maximum(starts[:, 1], ends[:, 1]) + r
        for _, bb in self._move_bbox:
            out |= ~((bb[2] < minx) | (bb[0] > maxx) | (bb[3] < miny) | (bb[1] > maxy))
        return out

    def danger_weapon(self, name: str) -> WeaponProfile | None:
        """The Dangerous Ground weapon profile of a piece, None for the D6 roll (§4.6)."""
        return self._danger.get(name)

    def dangerous_at(self, p: Point, r: float) -> list[str]:
        if not self.dangerous_names:
            return []
        names = self.g.terrain_at(np.asarray([p], dtype=np.float64), r)[0]
        return [n for n in names if n in self._danger]

    def dangerous_at_many(
        self, points: Sequence[Point], r: float | Sequence[float]
    ) -> list[list[str]]:
        """:meth:`dangerous_at` for several bases at once (one radius, or one per base)."""
        if not self.dangerous_names or not points:
            return [[] for _ in points]
        rr = r if isinstance(r, float | int) else np.asarray(r, dtype=np.float64)
        rows = self.g.terrain_at(as_array(points), rr)
        return [[n for n in names if n in self._danger] for names in rows]

    # -- sight -------------------------------------------------------------------------------
    # Sight and cover are decided by the battlefield's sight module alone (§5.4-5.6); these
    # pass the game's arrays of bases to it. The answers to round bases on the ground are kept
    # by the very arrays asked (every blocker, before the module leaves out those far from the
    # lines for its own cache): the same question asked again, as on a copy of a state, is
    # answered without building the query (issue 10, session 31).
    def _ask(
        self,
        kind: bytes,
        plain: Callable[..., Any],
        elevated: Callable[..., Any] | None,
        args: tuple[FloatArray, float, FloatArray, float, FloatArray, FloatArray],
        z: Heights | None,
        polys: SightPolys | None,
    ) -> Any:
        """One sight or cover question: ``plain(board, attackers, targets, blockers)`` (kept
        in :attr:`_asked` for round bases on the ground, keyed by every input with each
        array's dtype and shape; the board is the Field's own, never changed: destroyed
        terrain and Gateway markers are another Field, ``game/terrain_field.py``), or
        ``elevated`` with the heights the models stand at (L2360; ``None`` for a question
        never asked with heights, :meth:`cover`). A kept answer is shared: the callers hand
        out copies."""
        if z is None and polys is None:
            key = (kind, *(_bits(a) for a in args))
            hit = self._asked.get(key)
            if hit is None:
                hit = self._asked.put(key, plain(self.board, *_three(*args, None)))
            return hit
        three = _three(*args, polys)
        if z is None:
            return plain(self.board, *three)
        if elevated is None:
            raise TypeError(f"{kind.decode()}: this question takes no heights (L2360)")
        return elevated(
            self.board, *three, attacker_z=z.attacker, target_z=z.target, blocker_z=z.blocker
        )

    def sight(
        self,
        axy: FloatArray,
        ar: float,
        txy: FloatArray,
        tr: float,
        bxy: FloatArray,
        br: FloatArray,
        z: Heights | None = None,
        polys: SightPolys | None = None,
    ) -> npt.NDArray[np.bool_]:
        """Line of sight matrix (attacker models, target models), §5.4; with the heights the
        models stand at (``z``: attackers', targets', blockers'), L2360 sight from above."""
        args = (axy, ar, txy, tr, bxy, br)
        out: npt.NDArray[np.bool_] = self._ask(
            b"sight", sight_matrix, elevated_sight_matrix, args, z, polys
        )
        return out.copy()

    def visible(
        self,
        axy: FloatArray,
        ar: float,
        txy: FloatArray,
        tr: float,
        bxy: FloatArray,
        br: FloatArray,
        z: Heights | None = None,
        polys: SightPolys | None = None,
    ) -> list[bool]:
        """Which target models at least one attacker model sees (§5.5): the columns of
        :meth:`sight` with any True, found with fewer lines."""
        args = (axy, ar, txy, tr, bxy, br)
        return list(self._ask(b"seen", visible_models, elevated_visible_models, args, z, polys))

    def cover(
        self,
        axy: FloatArray,
        ar: float,
        txy: FloatArray,
        tr: float,
        bxy: FloatArray,
        br: FloatArray,
        polys: SightPolys | None = None,
    ) -> int:
        """The target's Cover Bonus against these attackers (§5.6): :meth:`cover_report`'s
        bonus, worked out without the report's fractions, sources and words (``sight.
        cover_bonus``; an Attack reads the bonus alone, issue 10, session 39)."""
        args = (axy, ar, txy, tr, bxy, br)
        bonus: int = self._ask(b"cover bonus", cover_bonus, None, args, None, polys)
        return bonus

    def cover_report(
        self,
        axy: FloatArray,
        ar: float,
        txy: FloatArray,
        tr: float,
        bxy: FloatArray,
        br: FloatArray,
        z: Heights | None = None,
        polys: SightPolys | None = None,
    ) -> CoverReport:
        """The target's Cover Bonus and the pieces that give it (§5.6; with heights, L2360).
        A :class:`CoverReport` is frozen, so a kept one is handed out as it is."""
        args = (axy, ar, txy, tr, bxy, br)
        report: CoverReport = self._ask(
            b"cover", cover_report, elevated_cover_report, args, z, polys
        )
        return report


@dataclass(frozen=True)
class Heights:
    """The heights (inches above the board) the attacking, targeted and blocking models of a
    sight or cover question stand at (game/terrain.py)."""

    attacker: FloatArray
    target: FloatArray
    blocker: FloatArray


def _bases(xy: FloatArray, r: float, poly: FloatArray | None = None) -> Bases:
    """One unit's bases (one radius; ``poly``: their true outlines) for the sight module."""
    return Bases(xy, np.full(len(xy), float(r)), poly)


#: The true outlines of a sight question's attackers, targets and blockers (``game/bases.py``
#: ``SightPolys``): oval and rectangular bases are seen and see with their shape (§1.3, §5.4).
SightPolys = tuple[FloatArray | None, FloatArray | None, FloatArray | None]


def _bits(a: FloatArray | float) -> bytes:
    """``a`` for a cache key: its dtype, its shape and its values, bit for bit (the bytes
    alone would take a float32 array for a float64 one of half as many values). A Python
    float and an array's heading are the very bytes ``np.asarray`` would give, without it
    (issue 10, session 34: six keys a sight question)."""
    if type(a) is float:
        return _FLOAT_HEAD + _DOUBLE.pack(a)
    if type(a) is np.ndarray:
        head = _HEADS.get((a.dtype, a.shape))
        if head is None:
            if len(_HEADS) > 256:
                _HEADS.clear()
            head = _HEADS[(a.dtype, a.shape)] = f"{a.dtype.str}{a.shape}".encode()
        return head + a.tobytes()
    arr = np.asarray(a)
    return f"{arr.dtype.str}{arr.shape}".encode() + arr.tobytes()


#: what :func:`_bits` puts before a Python float's bytes (``np.asarray(x)``: float64, shape
#: ``()``), the native byte order of ``tobytes``, and the headings of arrays seen
_FLOAT_HEAD = f"{np.dtype(np.float64).str}{()}".encode()
_DOUBLE = struct.Struct("=d")
_HEADS: dict[tuple[Any, tuple[int, ...]], bytes] = {}


def _three(
    axy: FloatArray,
    ar: float,
    txy: FloatArray,
    tr: float,
    bxy: FloatArray,
    br: FloatArray,
    polys: SightPolys | None,
) -> tuple[Bases, Bases, Bases]:
    """The attacking, targeted and blocking bases of a sight or cover question."""
    ap, tp, bp = polys if polys is not None else (None, None, None)
    return _bases(axy, ar, ap), _bases(txy, tr, tp), Bases(bxy, br, bp)


_CLEAR = PathCheck(None, False, ())


def field_from_board(board: Board) -> Field:
    return Field(board)


def _box4(bb: tuple[float, ...]) -> tuple[float, float, float, float]:
    """A shapely ``bounds`` (min x, min y, max x, max y) as a tuple of four floats."""
    return (bb[0], bb[1], bb[2], bb[3])


# --------------------------------------------------------------------------------------------
# Bases (NumPy)
# --------------------------------------------------------------------------------------------


def as_array(points: Sequence[Point]) -> FloatArray:
    return np.asarray(points, dtype=np.float64).reshape(-1, 2)


def edge_distances(
    a: FloatArray, ra: float | FloatArray, b: FloatArray, rb: float | FloatArray
) -> FloatArray:
    """Matrix of base-edge distances between the models of ``a`` and ``b`` (§5.3 measuring)."""
    d = centre_distances(a, b)
    rb_arr = np.asarray(rb, dtype=np.float64)
    ra_arr = np.asarray(ra, dtype=np.float64)
    if ra_arr.ndim:
        ra_arr = ra_arr[:, None]
    d -= ra_arr
    d -= rb_arr[None, :] if rb_arr.ndim else rb_arr
    return d


def centre_distances(a: FloatArray, b: FloatArray) -> FloatArray:
    """Matrix of distances between the points of ``a`` and ``b``: ``sqrt(dx*dx + dy*dy)``
    in place, the very numbers of ``sqrt(((a[:, None] - b[None]) ** 2).sum(axis=2))`` without
    its (n, m, 2) arrays and its reduction over pairs (issue 10: most of a small matrix's
    cost). Up to ``_FEW_PAIRS`` pairs, in Python floats: the same subtractions, products, sum
    and correctly rounded square root, so the very floats, without the five NumPy calls
    (issue 10, session 35: a third of the calls are of one to four pairs)."""
    n, m = len(a), len(b)
    if 0 < n * m <= _FEW_PAIRS:
        sqrt = math.sqrt
        bl = b.tolist()
        rows = [[sqrt((x - u) * (x - u) + (y - v) * (y - v)) for u, v in bl] for x, y in a.tolist()]
        few: FloatArray = np.array(rows, dtype=np.float64)
        return few
    dx = np.subtract.outer(a[:, 0], b[:, 0])
    dy = np.subtract.outer(a[:, 1], b[:, 1])
    dx *= dx
    dy *= dy
    dx += dy
    out: FloatArray = np.sqrt(dx, out=dx)
    return out


def point_distances(xy: FloatArray, p: Sequence[float]) -> FloatArray:
    """Distance from each point of ``xy`` ``(n, 2)`` to the point ``p``: ``sqrt(dx*dx +
    dy*dy)`` with x and y apart, the very floats of ``sqrt(((xy - np.asarray(p)) ** 2).sum(
    axis=1))`` without its reduction over rows of two (NumPy runs a reduction's inner loop once
    per row; issue 10, session 36)."""
    dx = xy[:, 0] - p[0]
    dy = xy[:, 1] - p[1]
    dx *= dx
    dy *= dy
    dx += dy
    out: FloatArray = np.sqrt(dx, out=dx)
    return out


#: Pairs up to which :func:`centre_distances` works in Python floats (beyond, NumPy's five
#: calls cost less than a Python float's operations per pair; measured in one run)
_FEW_PAIRS = 6


def segment_distances(start: FloatArray, end: FloatArray, centres: FloatArray) -> FloatArray:
    """Distance from each centre to the segment ``start``-``end`` (one segment)."""
    d = end - start
    length2 = float(d @ d)
    if length2 <= 1e-18:
        near: FloatArray = np.sqrt(((centres - start) ** 2).sum(axis=1))
        return near
    t = np.clip(((centres - start) @ d) / length2, 0.0, 1.0)
    proj = start + t[:, None] * d
    out: FloatArray = np.sqrt(((centres - proj) ** 2).sum(axis=1))
    return out


def segments_distances(starts: FloatArray, ends: FloatArray, centres: FloatArray) -> FloatArray:
    """Matrix (segment, centre) of distances from centres to many segments."""
    # x and y written out (no (s, c, 2) arrays, no reductions over pairs, no error state):
    # the distances of the formulas with them, float for float (issue 10)
    d = ends - starts  # (s, 2)
    ex, ey = d[:, 0, None], d[:, 1, None]
    length2 = d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1]  # (s,)
    long = length2 > 1e-18
    rel_x = centres[None, :, 0] - starts[:, None, 0]  # (s, c)
    rel_y = centres[None, :, 1] - starts[:, None, 1]
    dot = rel_x * ex + rel_y * ey
    t = np.where(long[:, None], dot / np.where(long, length2, 1.0)[:, None], 0.0)
    t = np.clip(t, 0.0, 1.0)
    # sqrt(dx*dx + dy*dy) from centre to projection, as ``centre_distances`` computes it
    dx = centres[None, :, 0] - (starts[:, None, 0] + t * ex)
    dy = centres[None, :, 1] - (starts[:, None, 1] + t * ey)
    dx *= dx
    dy *= dy
    dx += dy
    out: FloatArray = np.sqrt(dx, out=dx)
    return out


def coherent(points: FloatArray, r: float) -> bool:
    """Every model within 2" of another and all in one group (§4.2 I)."""
    n = len(points)
    if n <= 1:
        return True
    d = edge_distances(points, r, points, r)
    # the group of model 0 grown over the rows of the adjacency as Python lists: the same
    # test of the same matrix, without NumPy calls per model (issue 10, session 33)
    adj = (d <= LINKED).tolist()
    seen = [False] * n
    seen[0] = True
    stack = [0]
    found = 1
    while stack:
        row = adj[stack.pop()]
        for j in range(n):
            if row[j] and not seen[j]:
                seen[j] = True
                found += 1
                stack.append(j)
    return found == n


def groups(points: FloatArray, r: float) -> list[list[int]]:
    """The coherency groups of a unit's models (largest first)."""
    n = len(points)
    d = edge_distances(points, r, points, r) if n else np.zeros((0, 0))
    adj = d <= LINKED
    seen = np.zeros(n, dtype=bool)
    out: list[list[int]] = []
    for s in range(n):
        if seen[s]:
            continue
        comp = [s]
        seen[s] = True
        stack = [s]
        while stack:
            i = stack.pop()
            for j in np.nonzero(adj[i] & ~seen)[0]:
                seen[j] = True
                comp.append(int(j))
                stack.append(int(j))
        out.append(sorted(comp))
    out.sort(key=lambda c: (-len(c), c[0]))
    return out


def formation(n: int, r: float, gap: float = 0.5) -> FloatArray:
    """Offsets of ``n`` bases packed on a hexagonal grid around the origin, nearest first.

    Bases ``gap`` inches apart are in coherency (§4.2) for any gap up to 2"."""
    key = (n, round(r, 4), round(gap, 4))
    hit = _FORMATIONS.get(key)
    if hit is not None:
        return hit
    step = 2 * r + gap
    k = math.ceil(math.sqrt(n)) + 2
    pts = []
    for row in range(-k, k + 1):
        for col in range(-k, k + 1):
            x = (col + (0.5 if row % 2 else 0.0)) * step
            y = row * step * math.sqrt(3) / 2
            pts.append((x, y))
    arr = np.asarray(pts)
    order = np.lexsort((arr[:, 1], arr[:, 0], np.round((arr**2).sum(axis=1), 6)))
    out = arr[order[:n]]
    _FORMATIONS[key] = out
    return out


_FORMATIONS: dict[tuple[int, float, float], FloatArray] = {}


def ring_points(centre: Point, radius: float, count: int) -> list[Point]:
    trig = _RING.get(count)
    if trig is None:
        trig = _RING[count] = [
            (math.cos(2 * math.pi * k / count), math.sin(2 * math.pi * k / count))
            for k in range(count)
        ]
    cx, cy = centre
    return [(cx + radius * c, cy + radius * s) for c, s in trig]


_RING: dict[int, list[tuple[float, float]]] = {}
