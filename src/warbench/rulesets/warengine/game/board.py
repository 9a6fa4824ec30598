"""The WarEngine reading of a battlefield: line of sight and the four cover levels.

The board itself is the WARSURGE battlefield model (``rulesets/warsurge/battlefield``: a
``Board`` of terrain polygons, loaded from the same files and sample boards); this module
reads it the WarEngine way (004_f4ea5693af0644ce.txt L427-L465, docs/rulings.md "WarEngine"):

* a piece with ``blocks_los`` blocks a line of sight that passes through it, unless one of the
  two figures stands inside it (they see out and are seen, as the battlefield's ruling 2);
* friendly figures never block; vehicles and monsters (types L, M, H) block (L431-L433);
* cover (L437-L457): a piece's agreed ``cover`` value is its level: 1 light, 2 heavy, 3 or more
  entrenching; a figure standing inside a piece that blocks sight is in heavy cover.
  Entrenching cover counts only for a figure standing inside the piece (a foxhole, L453); light
  and heavy cover count when the piece lies between attacker and target or holds the target.

Sight is decided in one place: :meth:`Field.sight` asks the battlefield's query
(``battlefield.sight.line_of_sight``) with the two figures as points (WarEngine draws the line
centre to centre, docs/rulings.md) and the bases of the vehicles and monsters as blockers; the
answer is the one the WARSURGE game and the CLI get for the same question. Which pieces hold a
point or lie across a line (for cover, moves and objectives) comes from the same compiled board
geometry (``BoardGeometry.discs_in``, ``segments_cross``). This module only says what the
answers mean in WarEngine terms (the cover levels).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from warbench.rulesets.warsurge.battlefield import Board
from warbench.rulesets.warsurge.battlefield.geometry import BoardGeometry, segments_cross
from warbench.rulesets.warsurge.battlefield.sight import line_of_sight, sight_matrix

NO_COVER, LIGHT, HEAVY, ENTRENCHING = 0, 1, 2, 3
COVER_NAMES = ("no cover", "light cover", "heavy cover", "entrenching cover")
EPS = 1e-9

Point = tuple[float, float]
#: A figure's base that may block sight: ``(centre, radius)``.
Blocker = tuple[Point, float]


@dataclass(frozen=True)
class Piece:
    """A terrain piece as WarEngine reads it (``index``: its place in ``board.terrain``)."""

    name: str
    index: int
    level: int  # cover level for a target behind or inside it
    blocks: bool  # blocks line of sight through it
    impassable: bool


def _level(cover: int, blocks: bool) -> int:
    if cover >= 3:
        return ENTRENCHING
    if cover == 2:
        return HEAVY
    if cover == 1:
        return LIGHT
    return HEAVY if blocks else NO_COVER


def seg_point_distance(a: Point, b: Point, c: Point) -> float:
    """Distance from point ``c`` to the segment ``a``-``b`` (which figures a Linear area
    effect passes over, L543; not a sight question)."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    n = dx * dx + dy * dy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((c[0] - ax) * dx + (c[1] - ay) * dy) / n))
    px, py = ax + t * dx - c[0], ay + t * dy - c[1]
    return float((px * px + py * py) ** 0.5)


class Field:
    """A WarEngine battlefield over a WARSURGE :class:`Board`."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.width = float(board.width)
        self.height = float(board.height)
        self.geom: BoardGeometry = board.geometry()
        self.pieces = tuple(
            Piece(t.name, i, _level(t.cover, t.blocks_los), t.blocks_los, t.impassable)
            for i, t in enumerate(board.terrain)
        )
        self._all = np.arange(len(self.pieces), dtype=np.intp)
        self._sight: dict[tuple[Point, Point, tuple[Blocker, ...]], bool] = {}
        self._cover: dict[tuple[Point, Point], tuple[int, str]] = {}
        self._lines: dict[tuple[Point, Point], tuple[tuple[bool, ...], ...]] = {}
        self._at: dict[Point, tuple[bool, ...]] = {}

    # -- points and segments (the board geometry's answers) --------------------------------
    def _inside_all(self, x: float, y: float) -> tuple[bool, ...]:
        """Which pieces the point ``(x, y)`` stands inside (memoised)."""
        key = (x, y)
        hit = self._at.get(key)
        if hit is None:
            if len(self._at) > 200_000:
                self._at.clear()
            row = self.geom.discs_in(self._all, np.array([[x, y]]), np.zeros(1))[0]
            hit = self._at[key] = tuple(bool(v) for v in row)
        return hit

    def _line(self, a: Point, b: Point) -> tuple[tuple[bool, ...], ...]:
        """``(a inside, b inside, the segment meets an edge)`` for every piece (memoised)."""
        key = (a, b)
        hit = self._lines.get(key)
        if hit is None:
            if len(self._lines) > 200_000:
                self._lines.clear()
            n = len(self.pieces)
            g = self.geom
            if n:
                p0 = np.broadcast_to(np.array(a, dtype=np.float64), (n, 1, 2))
                p1 = np.broadcast_to(np.array(b, dtype=np.float64), (n, 1, 2))
                meets = tuple(bool(v) for v in segments_cross(p0, p1, g.edge0, g.edge1)[:, 0])
            else:
                meets = ()
            hit = self._lines[key] = (self._inside_all(*a), self._inside_all(*b), meets)
        return hit

    def inside(self, piece: Piece, x: float, y: float) -> bool:
        """Whether the point stands inside the piece."""
        return self._inside_all(x, y)[piece.index]

    def crosses(self, piece: Piece, a: Point, b: Point) -> bool:
        """Whether the segment ``a``-``b`` passes through the piece."""
        in_a, in_b, meets = self._line(a, b)
        i = piece.index
        return in_a[i] or in_b[i] or meets[i]

    def pieces_at(self, x: float, y: float) -> list[Piece]:
        """The pieces a figure standing at ``(x, y)`` is inside."""
        row = self._inside_all(x, y)
        return [p for p in self.pieces if row[p.index]]

    # -- the rules ---------------------------------------------------------------------------
    def sight(self, a: Point, b: Point, blockers: Sequence[Blocker] = ()) -> bool:
        """Line of sight from a figure at ``a`` to one at ``b`` (L427-L433): the battlefield's
        query with the two figures as points and ``blockers`` (vehicles' and monsters'
        bases) in the way. Memoised by the points and blockers (figures mostly stand still)."""
        key = (a, b, tuple(blockers))
        hit = self._sight.get(key)
        if hit is None:
            if len(self._sight) > 200_000:
                self._sight.clear()
            hit = self._sight[key] = line_of_sight(self.board, (a, 0.0), (b, 0.0), key[2])
        return hit

    def sight_many(
        self, a: Point, bs: Sequence[Point], blockers: Sequence[Blocker] = ()
    ) -> list[bool]:
        """:meth:`sight` from ``a`` to each of ``bs`` with the same ``blockers``, asked of the
        battlefield in one query (``sight_matrix``: the same answer per pair as
        ``line_of_sight``) for the pairs not known yet."""
        blk = tuple(blockers)
        todo = [b for b in dict.fromkeys(bs) if (a, b, blk) not in self._sight]
        if len(todo) > 1:
            if len(self._sight) > 200_000:
                self._sight.clear()
            row = sight_matrix(self.board, [(a, 0.0)], [(b, 0.0) for b in todo], blk)[0]
            for b, ok in zip(todo, row, strict=True):
                self._sight[(a, b, blk)] = bool(ok)
        return [self.sight(a, b, blk) for b in bs]

    def terrain_sight(self, a: Point, b: Point) -> bool:
        """No sight-blocking piece lies between ``a`` and ``b`` (figures standing inside a
        piece see out and are seen): :meth:`sight` with no figure in the way."""
        return self.sight(a, b)

    def cover(self, a: Point, b: Point) -> tuple[int, str]:
        """The cover level of a target at ``b`` attacked from ``a`` and the piece giving it
        (L437-L457; docs/rulings.md). Memoised by the two points."""
        key = (a, b)
        hit = self._cover.get(key)
        if hit is None:
            if len(self._cover) > 200_000:
                self._cover.clear()
            hit = self._cover[key] = self._cover_of(a, b)
        return hit

    def _cover_of(self, a: Point, b: Point) -> tuple[int, str]:
        best, name = NO_COVER, ""
        in_a, in_b, meets = self._line(a, b) if self.pieces else ((), (), ())
        for p in self.pieces:
            if p.level == NO_COVER:
                continue
            i = p.index
            if in_b[i]:
                level = p.level
            elif p.level == ENTRENCHING or not (in_a[i] or meets[i]) or in_a[i]:
                continue
            else:
                level = min(p.level, HEAVY)
            if level > best:
                best, name = level, p.name
        return best, name

    def passable(self, a: Point, b: Point, radius: float) -> str | None:
        """Why a straight move from ``a`` to ``b`` is not allowed, or ``None``: the end must be
        on the board and the path may not cross impassable terrain."""
        x, y = b
        if x - radius < -EPS or y - radius < -EPS:
            return f"({x:g}, {y:g}) puts the base off the board"
        if x + radius > self.width + EPS or y + radius > self.height + EPS:
            return f"({x:g}, {y:g}) puts the base off the board"
        for p in self.pieces:
            if p.impassable and self.crosses(p, a, b):
                return f"the path crosses impassable terrain ({p.name})"
        return None
