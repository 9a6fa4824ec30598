"""The WarEngine reading of a battlefield: line of sight and the four cover levels.

The board itself is the WARSURGE battlefield model (``rulesets/warsurge/battlefield``: a
``Board`` of terrain polygons, loaded from the same files and sample boards); this module
reads it the WarEngine way (004_f4ea5693af0644ce.txt L432-L465, docs/rulings.md "WarEngine"):

* a piece with ``blocks_los`` blocks a line of sight that passes through it, unless one of the
  two figures stands inside it (they see out and are seen, as the battlefield's ruling 2);
* friendly figures never block; vehicles and monsters (types L, M, H) block (L438-L440);
* cover (L444-L458): a piece's agreed ``cover`` value is its level: 1 light, 2 heavy, 3 or more
  entrenching; a figure standing inside a piece that blocks sight is in heavy cover.
  Entrenching cover counts only for a figure standing inside the piece (a foxhole, L456); light
  and heavy cover count when the piece lies between attacker and target or holds the target.

The WARSURGE sight module measures obscured fractions with shapely rays (its §5.6); WarEngine
needs a yes/no sight line and a level, so this is a small pure-Python segment test over the
pieces' polygons (fast enough for a game in well under 100 ms).
"""

from __future__ import annotations

from dataclasses import dataclass

from warbench.rulesets.warsurge.battlefield import Board

NO_COVER, LIGHT, HEAVY, ENTRENCHING = 0, 1, 2, 3
COVER_NAMES = ("no cover", "light cover", "heavy cover", "entrenching cover")
EPS = 1e-9

Point = tuple[float, float]


@dataclass(frozen=True)
class Piece:
    """A terrain piece as WarEngine reads it."""

    name: str
    poly: tuple[Point, ...]
    box: tuple[float, float, float, float]
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


def _inside(poly: tuple[Point, ...], x: float, y: float) -> bool:
    inside = False
    n = len(poly)
    j = n - 1
    for i in range(n):
        xi, yi = poly[i]
        xj, yj = poly[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _segments_meet(p: Point, q: Point, r: Point, s: Point) -> bool:
    d1, d2 = _cross(r, s, p), _cross(r, s, q)
    d3, d4 = _cross(p, q, r), _cross(p, q, s)
    return ((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0))


def seg_point_distance(a: Point, b: Point, c: Point) -> float:
    """Distance from point ``c`` to the segment ``a``-``b``."""
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
        pieces = []
        for t in board.terrain:
            poly = tuple((float(x), float(y)) for x, y in t.polygon)
            xs = [p[0] for p in poly]
            ys = [p[1] for p in poly]
            pieces.append(
                Piece(
                    t.name,
                    poly,
                    (min(xs), min(ys), max(xs), max(ys)),
                    _level(t.cover, t.blocks_los),
                    t.blocks_los,
                    t.impassable,
                )
            )
        self.pieces = tuple(pieces)
        self._sight: dict[tuple[Point, Point], bool] = {}
        self._cover: dict[tuple[Point, Point], tuple[int, str]] = {}

    # -- points and segments -----------------------------------------------------------------
    def inside(self, piece: Piece, x: float, y: float) -> bool:
        """Whether the point stands inside the piece."""
        x0, y0, x1, y1 = piece.box
        if x < x0 or x > x1 or y < y0 or y > y1:
            return False
        return _inside(piece.poly, x, y)

    def crosses(self, piece: Piece, a: Point, b: Point) -> bool:
        """Whether the segment ``a``-``b`` passes through the piece."""
        x0, y0, x1, y1 = piece.box
        if max(a[0], b[0]) < x0 or min(a[0], b[0]) > x1:
            return False
        if max(a[1], b[1]) < y0 or min(a[1], b[1]) > y1:
            return False
        if self.inside(piece, *a) or self.inside(piece, *b):
            return True
        poly = piece.poly
        n = len(poly)
        return any(_segments_meet(a, b, poly[i - 1], poly[i]) for i in range(n))

    def pieces_at(self, x: float, y: float) -> list[Piece]:
        """The pieces a figure standing at ``(x, y)`` is inside."""
        return [p for p in self.pieces if self.inside(p, x, y)]

    # -- the rules ---------------------------------------------------------------------------
    def terrain_sight(self, a: Point, b: Point) -> bool:
        """No sight-blocking piece lies between ``a`` and ``b`` (figures standing inside a
        piece see out and are seen). Memoised by the two points (figures mostly stand still)."""
        key = (a, b)
        hit = self._sight.get(key)
        if hit is None:
            if len(self._sight) > 200_000:
                self._sight.clear()
            hit = self._sight[key] = self._terrain_sight(a, b)
        return hit

    def _terrain_sight(self, a: Point, b: Point) -> bool:
        for p in self.pieces:
            if p.blocks and self.crosses(p, a, b):
                if self.inside(p, *a) or self.inside(p, *b):
                    continue
                return False
        return True

    def cover(self, a: Point, b: Point) -> tuple[int, str]:
        """The cover level of a target at ``b`` attacked from ``a`` and the piece giving it
        (L442-L458; docs/rulings.md). Memoised by the two points."""
        key = (a, b)
        hit = self._cover.get(key)
        if hit is None:
            if len(self._cover) > 200_000:
                self._cover.clear()
            hit = self._cover[key] = self._cover_of(a, b)
        return hit

    def _cover_of(self, a: Point, b: Point) -> tuple[int, str]:
        best, name = NO_COVER, ""
        for p in self.pieces:
            if p.level == NO_COVER:
                continue
            t_in = self.inside(p, *b)
            if t_in:
                level = p.level
            elif p.level == ENTRENCHING or not self.crosses(p, a, b) or self.inside(p, *a):
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
