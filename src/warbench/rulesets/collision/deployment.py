"""Deployment zones of the four deployment styles on a square grid
(``003_fc239e71486306e1.txt`` L619-674) and who deploys first.

Squares are ``(x, y)`` with ``0 <= x < cols`` and ``0 <= y < rows``; a "12 x 10" board has 12
columns (its length, L380-382) and 10 rows. Terrain that cannot hold a deployed character
(vertical obstacles, impassable terrain, L694-700) and the 4-space gap to enemies (L708-714)
are the game's business; these are the zones only.
"""

from __future__ import annotations

from fractions import Fraction

from warbench.kernel.errors import RulesError
from warbench.rulesets.collision.objectives import Deployment

BOOK = "003_fc239e71486306e1.txt"
Square = tuple[int, int]
Zones = dict[str, frozenset[Square]]


def _check(cols: int, rows: int) -> None:
    if cols < 4 or rows < 4:
        raise RulesError(
            f"a {cols} x {rows} board is too small; allowed: 4 x 4 or larger", f"{BOOK} L376-384"
        )


def _split(n: int) -> tuple[range, range]:
    """The two halves of ``n`` lines without the centre 2 (3 when ``n`` is odd; docs/rulings.md
    Collision 15)."""
    band = 2 if n % 2 == 0 else 3
    side = (n - band) // 2
    return range(0, side), range(n - side, n)


def side_zones(cols: int, rows: int, *, short: bool) -> Zones:
    """Short-side (L632-643) or long-side (L645-651) zones: the two halves of the board away
    from the chosen edges, without the centre 2 rows. Keys: ``left``/``right`` when the zones
    touch the left and right edges, ``bottom``/``top`` otherwise."""
    _check(cols, rows)
    # the left and right edges are `rows` long; they are the short edges when cols >= rows
    left_right = (cols >= rows) == short
    if left_right:
        a, b = _split(cols)
        return {
            "left": frozenset((x, y) for x in a for y in range(rows)),
            "right": frozenset((x, y) for x in b for y in range(rows)),
        }
    a, b = _split(rows)
    return {
        "bottom": frozenset((x, y) for x in range(cols) for y in a),
        "top": frozenset((x, y) for x in range(cols) for y in b),
    }


def center_zones(cols: int, rows: int) -> Zones:
    """L653-662: the defender's zone is anywhere not within 2 of a board edge, the attacker's
    anywhere within 2 (the two outer rings of squares, docs/rulings.md Collision 15)."""
    _check(cols, rows)
    inner = frozenset((x, y) for x in range(2, cols - 2) for y in range(2, rows - 2))
    every = frozenset((x, y) for x in range(cols) for y in range(rows))
    return {"defender": inner, "attacker": every - inner}


def diagonal_zones(cols: int, rows: int, *, rising: bool = True) -> Zones:
    """L664-674: the board is divided by a diagonal through the centre (corner to corner;
    ``rising`` from the bottom-left corner); tiles the line crosses are in neither zone."""
    _check(cols, rows)
    above: set[Square] = set()
    below: set[Square] = set()
    for x in range(cols):
        for y in range(rows):
            # the side of the line y = rows/cols * x (or its mirror) each corner is on
            sides = []
            for cx in (x, x + 1):
                for cy in (y, y + 1):
                    lx = cx if rising else cols - cx
                    sides.append(Fraction(cy) - Fraction(rows, cols) * lx)
            if min(sides) >= 0:
                above.add((x, y))
            elif max(sides) <= 0:
                below.add((x, y))
    return {"above": frozenset(above), "below": frozenset(below)}


def zones(style: Deployment, cols: int, rows: int) -> Zones:
    """The zones of a deployment style on a ``cols`` x ``rows`` board."""
    if style is Deployment.SHORT_SIDE:
        return side_zones(cols, rows, short=True)
    if style is Deployment.LONG_SIDE:
        return side_zones(cols, rows, short=False)
    if style is Deployment.CENTER:
        return center_zones(cols, rows)
    return diagonal_zones(cols, rows)


def deploys_first(style: Deployment) -> str:
    """``attacker`` or ``defender``: the attacker starts deployment, except in centre
    deployment where the defender deploys first (L626-628, L642-643, L661-662, L673-674)."""
    return "defender" if style is Deployment.CENTER else "attacker"
