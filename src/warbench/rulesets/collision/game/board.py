"""The battlefield: a grid of squares with elevation and terrain, distances, facing, line of
sight and cover (``003_fc239e71486306e1.txt`` L375-577, L914-1008).

Squares are ``(x, y)``, ``0 <= x < cols`` (the board's length, L380-382) and ``0 <= y < rows``;
``y`` grows towards the top edge. Elevation levels are 1-5 (L391). A terrain piece occupies one
square here (a 2x1 or 2x2 piece is several squares of the same kind, L491-492).

Distances (docs/rulings.md, Collision 16): "within x spaces" (reach, command, radius, the
4-space deployment gap) counts squares as a king moves (Chebyshev); movement counts orthogonal
steps (L818-820), so a diagonal square costs two.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from pathlib import Path
from typing import Any

from warbench.kernel.errors import ProfileError
from warbench.rulesets.collision.attack import Cover

BOOK = "003_fc239e71486306e1.txt"
Square = tuple[int, int]


class Terrain(StrEnum):
    """Terrain kinds (L529-577)."""

    OPEN = "open"
    OBSTACLE = "obstacle"  # L529-531: one extra Movement moving onto it
    VERTICAL = "vertical"  # L535-542: +1 to move through, can't end on it, gives cover
    IMPASSABLE = "impassable"  # L567-569: can't be moved across (deep water, pits)
    VERTICAL_IMPASSABLE = "vertical-impassable"  # L570-572: impassable and gives cover

    @property
    def passable(self) -> bool:
        """Whether a character may move through the square (L807-808)."""
        return self not in (Terrain.IMPASSABLE, Terrain.VERTICAL_IMPASSABLE)

    @property
    def stands(self) -> bool:
        """Whether a character may end a move or deploy there (L694-700, L812-813)."""
        return self in (Terrain.OPEN, Terrain.OBSTACLE)

    @property
    def cover(self) -> bool:
        """Whether the piece blocks a line (L922-926: vertical obstacles, impassable pieces)."""
        return self in (Terrain.VERTICAL, Terrain.VERTICAL_IMPASSABLE)

    @property
    def extra_cost(self) -> int:
        """Extra movement to enter (L531, L538-539, L810)."""
        return 1 if self in (Terrain.OBSTACLE, Terrain.VERTICAL) else 0


#: Facing directions and their unit vectors (y grows to the top edge).
FACINGS: dict[str, Square] = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}


@dataclass(frozen=True)
class Piece:
    """A terrain piece on one square: its kind and height above the square (L542: 1-3")."""

    kind: Terrain
    height: int = 1


@dataclass(frozen=True)
class Board:
    """The grid: size, elevation per square (default 1) and terrain pieces."""

    cols: int
    rows: int
    elevation: tuple[tuple[int, ...], ...]  # elevation[y][x]
    pieces: tuple[tuple[Square, Piece], ...] = ()
    name: str = ""

    @cached_property
    def terrain(self) -> dict[Square, Piece]:
        """Pieces by square."""
        return dict(self.pieces)

    @cached_property
    def cells(self) -> dict[Square, tuple[bool, bool, int, int]]:
        """Per square: (passable, stands, extra movement cost, level), for the hot paths."""
        out = {}
        for y in range(self.rows):
            for x in range(self.cols):
                k = self.kind((x, y))
                out[(x, y)] = (k.passable, k.stands, k.extra_cost, self.elevation[y][x])
        return out

    def inside(self, sq: Square) -> bool:
        """Whether ``sq`` is on the board."""
        return 0 <= sq[0] < self.cols and 0 <= sq[1] < self.rows

    def level(self, sq: Square) -> int:
        """The elevation level of a square (L387-393)."""
        return self.elevation[sq[1]][sq[0]]

    def kind(self, sq: Square) -> Terrain:
        """The terrain kind of a square."""
        p = self.terrain.get(sq)
        return Terrain.OPEN if p is None else p.kind

    def squares(self) -> Iterable[Square]:
        """Every square, row by row."""
        for y in range(self.rows):
            for x in range(self.cols):
                yield (x, y)

    def with_piece(self, sq: Square, piece: Piece | None) -> Board:
        """A board with ``sq``'s piece replaced (objective terrain, Upheaval, Wreck)."""
        kept = tuple((s, p) for s, p in self.pieces if s != sq)
        if piece is not None:
            kept = tuple(sorted(kept + ((sq, piece),)))
        return Board(self.cols, self.rows, self.elevation, kept, self.name)

    def to_json(self) -> dict[str, Any]:
        """The board as JSON (what :func:`board_from_json` reads)."""
        return {
            "name": self.name,
            "cols": self.cols,
            "rows": self.rows,
            "elevation": [list(r) for r in self.elevation],
            "terrain": [
                {"at": [s[0], s[1]], "kind": p.kind.value, "height": p.height}
                for s, p in self.pieces
            ],
        }


def board_from_json(data: Any, *, source: str = "board") -> Board:
    """A board from ``{cols, rows, elevation?, terrain?}``; errors name the field."""
    if not isinstance(data, Mapping):
        raise ProfileError(source, data, "a mapping {cols, rows, elevation, terrain}")
    cols, rows = data.get("cols"), data.get("rows")
    for name, v in (("cols", cols), ("rows", rows)):
        if not isinstance(v, int) or not 4 <= v <= 40:
            raise ProfileError(f"{source}.{name}", v, "a whole number 4-40 (L376-384)")
    assert isinstance(cols, int) and isinstance(rows, int)
    elev = data.get("elevation")
    if elev is None:
        elevation = tuple(tuple(1 for _ in range(cols)) for _ in range(rows))
    else:
        if not isinstance(elev, list) or len(elev) != rows:
            raise ProfileError(f"{source}.elevation", elev, f"{rows} rows of {cols} levels")
        out = []
        for y, row in enumerate(elev):
            if not isinstance(row, list) or len(row) != cols:
                raise ProfileError(f"{source}.elevation[{y}]", row, f"{cols} levels")
            for v in row:
                if not isinstance(v, int) or not 1 <= v <= 5:
                    raise ProfileError(f"{source}.elevation[{y}]", v, "elevation levels 1-5 (L391)")
            out.append(tuple(row))
        elevation = tuple(out)
    pieces: dict[Square, Piece] = {}
    for i, t in enumerate(data.get("terrain") or []):
        where = f"{source}.terrain[{i}]"
        if not isinstance(t, Mapping):
            raise ProfileError(where, t, "a mapping {at: [x, y], kind, height}")
        at = t.get("at")
        if (
            not isinstance(at, list)
            or len(at) != 2
            or not all(isinstance(v, int) for v in at)
            or not (0 <= at[0] < cols and 0 <= at[1] < rows)
        ):
            raise ProfileError(f"{where}.at", at, f"[x, y] on the {cols} x {rows} board")
        try:
            kind = Terrain(str(t.get("kind", "")))
        except ValueError:
            raise ProfileError(
                f"{where}.kind", t.get("kind"), ", ".join(k.value for k in Terrain)
            ) from None
        height = t.get("height", 1)
        if not isinstance(height, int) or not 0 <= height <= 5:
            raise ProfileError(f"{where}.height", height, "a whole number 0-5")
        pieces[(at[0], at[1])] = Piece(kind, height)
    name = str(data.get("name", ""))
    return Board(cols, rows, elevation, tuple(sorted(pieces.items())), name)


def sample_board(cols: int, rows: int) -> Board:
    """A fair sample battlefield (L393: mirrored terrain): a hill of level 2 on each side of
    the centre, two vertical obstacles, two obstacles and two impassable pits, mirrored through
    the centre, about an eighth of the board covered."""
    elev = [[1] * cols for _ in range(rows)]
    pieces: dict[Square, Piece] = {}

    def mirror(sq: Square) -> Square:
        return (cols - 1 - sq[0], rows - 1 - sq[1])

    cx, cy = cols // 2, rows // 2
    hill = [(cx - 2, cy + 1), (cx - 2, cy + 2), (cx - 3, cy + 1)]
    for sq in hill:
        for s in (sq, mirror(sq)):
            if 0 <= s[0] < cols and 0 <= s[1] < rows:
                elev[s[1]][s[0]] = 2
    layout = [
        ((cx - 1, cy - 2), Piece(Terrain.VERTICAL, 1)),
        ((max(1, cx - 4), cy - 1), Piece(Terrain.OBSTACLE, 0)),
        ((cx + 1, max(0, cy - 3)), Piece(Terrain.VERTICAL_IMPASSABLE, 2)),
    ]
    for sq, p in layout:
        for s in (sq, mirror(sq)):
            if 0 <= s[0] < cols and 0 <= s[1] < rows:
                pieces[s] = p
    return Board(
        cols,
        rows,
        tuple(tuple(r) for r in elev),
        tuple(sorted(pieces.items())),
        f"sample {cols}x{rows}",
    )


# --------------------------------------------------------------------------------------------
# Distances and facing
# --------------------------------------------------------------------------------------------


def spaces(a: Square, b: Square) -> int:
    """ "Within x spaces" (docs/rulings.md, Collision 16): squares counted as a king moves."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def steps(a: Square, b: Square) -> int:
    """Orthogonal steps between two squares (L818-820)."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def in_front(at: Square, facing: str, target: Square) -> bool:
    """L917-920: the line from the centre of ``at`` to the centre of ``target`` crosses the
    front facing (the front edge) or one of its corners."""
    fx, fy = FACINGS[facing]
    dx, dy = target[0] - at[0], target[1] - at[1]
    forward = dx * fx + dy * fy
    lateral = abs(dx * fy - dy * fx)
    return forward > 0 and lateral <= forward


def in_back(target: Square, facing: str, attacker: Square) -> bool:
    """L1058-1065: the attacker is on the target's back facing (the line crosses the back edge
    or one of its corners; docs/rulings.md, Collision 17)."""
    back = {"N": "S", "S": "N", "E": "W", "W": "E"}[facing]
    return in_front(target, back, attacker)


def face_towards(at: Square, target: Square) -> str:
    """The facing whose front holds ``target`` (ties: the longer axis, then N/E)."""
    dx, dy = target[0] - at[0], target[1] - at[1]
    if abs(dx) > abs(dy):
        return "E" if dx > 0 else "W"
    if dy == 0:
        return "E"
    return "N" if dy > 0 else "S"


# --------------------------------------------------------------------------------------------
# Line of sight and cover
# --------------------------------------------------------------------------------------------

_EPS = 1e-9


@dataclass(frozen=True)
class Crossing:
    """How the attack line meets one square: through its interior, through its centre, or only
    at a corner."""

    square: Square
    interior: bool
    centre: bool


def crossings(a: Square, b: Square) -> list[Crossing]:
    """The squares (other than the two ends) the centre-to-centre line touches (L918-919)."""
    ax, ay = a[0] + 0.5, a[1] + 0.5
    bx, by = b[0] + 0.5, b[1] + 0.5
    out = []
    for x in range(min(a[0], b[0]), max(a[0], b[0]) + 1):
        for y in range(min(a[1], b[1]), max(a[1], b[1]) + 1):
            if (x, y) in (a, b):
                continue
            t = _clip(ax, ay, bx, by, x, y)
            if t is None:
                continue
            t0, t1 = t
            length = (t1 - t0) * ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
            interior = length > _EPS
            # passes the centre: the centre lies on the line
            cx, cy = x + 0.5, y + 0.5
            cross = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
            out.append(Crossing((x, y), interior, interior and abs(cross) < _EPS))
    return out


def _clip(ax: float, ay: float, bx: float, by: float, x: int, y: int) -> tuple[float, float] | None:
    """Liang-Barsky: the parameter range of the segment inside the closed square."""
    t0, t1 = 0.0, 1.0
    dx, dy = bx - ax, by - ay
    for p, q in ((-dx, ax - x), (dx, x + 1 - ax), (-dy, ay - y), (dy, y + 1 - ay)):
        if abs(p) < _EPS:
            if q < -_EPS:
                return None
            continue
        r = q / p
        if p < 0:
            t0 = max(t0, r)
        else:
            t1 = min(t1, r)
        if t0 > t1 + _EPS:
            return None
    return (t0, t1)


def cover_between(
    board: Board,
    attacker: Square,
    target: Square,
    occupied: Iterable[Square] = (),
    *,
    attacker_level: int | None = None,
    target_level: int | None = None,
) -> Cover:
    """The target's cover against an attack from ``attacker`` (L922-1008).

    A square gives cover when it holds a vertical obstacle or vertical impassable piece, another
    character, or is a level or more higher than both characters (L922-926). Heights (L978-989):
    a piece whose top is below the higher character's level gives no cover; at the same height
    it gives cover only when the lower character is nearer to it. Crossing a cover square's
    interior is partial cover; through its centre, or through two adjacent cover squares, total
    cover; touching only a corner gives partial cover only between two diagonal cover squares
    (L927-931, L936-972).
    """
    la = board.level(attacker) if attacker_level is None else attacker_level
    lt = board.level(target) if target_level is None else target_level
    high = max(la, lt)
    low_sq = attacker if la < lt else target
    high_sq = target if la < lt else attacker
    occ = set(occupied)

    def gives_cover(sq: Square) -> bool:
        lvl = board.level(sq)
        tops = []
        piece = board.terrain.get(sq)
        if piece is not None and piece.kind.cover:
            tops.append(lvl + piece.height)
        if sq in occ:
            tops.append(lvl + 1)  # a character stands about a level tall (ruling 18)
        if lvl > high:
            return True  # a tile one level or more higher than both characters (L924)
        for top in tops:
            if top > high:
                return True  # L978-979
            if top == high and la != lt and spaces(low_sq, sq) < spaces(high_sq, sq):
                return True  # L984-989
            if top == high and la == lt:
                return True  # same level: the piece is as tall as both (L922-926)
        return False

    cover_sqs: list[Crossing] = []
    corner_sqs: list[Square] = []
    for c in crossings(attacker, target):
        if not gives_cover(c.square):
            continue
        if c.interior:
            cover_sqs.append(c)
        else:
            corner_sqs.append(c.square)
    if any(c.centre for c in cover_sqs):
        return Cover.TOTAL
    inner = [c.square for c in cover_sqs]
    for i, s in enumerate(inner):
        for t in inner[i + 1 :]:
            if steps(s, t) == 1:
                return Cover.TOTAL  # two adjacent cover squares (L958-960)
    if inner:
        return Cover.PARTIAL
    for i, s in enumerate(corner_sqs):
        for t in corner_sqs[i + 1 :]:
            if abs(s[0] - t[0]) == 1 and abs(s[1] - t[1]) == 1:
                return Cover.PARTIAL  # between two diagonal cover squares (L927-928, L944-945)
    return Cover.NONE


def load_board_file(path: str | Path) -> dict[str, Any]:
    """A Collision board file (YAML or JSON ``{name?, cols, rows, elevation?, terrain?}``,
    what :meth:`Board.to_json` writes) as the set-up's board JSON: read within the board-file
    limits, checked by :func:`board_from_json` (errors name the field), named after the file
    when it has no ``name``."""
    from warbench.kernel import readers
    from warbench.kernel.errors import DataFileError

    data = readers.load_data(path, readers.BOARD_FILE)
    if not isinstance(data, Mapping):
        raise DataFileError(str(path), "a Collision board is a mapping {cols, rows, ...}")
    board_from_json(data, source=str(path))
    out = dict(data)
    out.setdefault("name", Path(path).stem)
    return out
