"""Terrain in play: the heights models stand at, climbing, and custom cover.

Core Rules 001_d3f5e425c5e1196d.txt §4.1 (moving: the distance a model travels), §4.2 III
(Vertical Coherency: "practical when scaling buildings and other tall scenery", L1918-1919),
§5.3-5.6 with L2360 (a unit "can see the Target from above"), §10.2-10.5 (special terrain).
The geometry is the battlefield's (:mod:`warbench.rulesets.warsurge.battlefield`): sight and
cover with heights are decided in ``battlefield/sight.py``; this module tells it where the
game's models stand, and counts the height a move climbs (``docs/rulings.md`` "WARSURGE
battlefield" 24-27).

A model's height is not stored in the game state: it follows from where the model stands. A
piece with a ``level`` above the board that models can stand on (a gantry, a raised deck: not
Impassable, ``embark`` not refused) raises the models whose base's centre is on it to that
level (an oval or rectangular base: whose outline overlaps it, ``bases_ground.heights``);
everywhere else models stand on the board (``z = 0``). A board without such pieces is
flat, and every answer is the flat one.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely

from warbench.rulesets.warsurge.battlefield import Board
from warbench.rulesets.warsurge.battlefield.model import CustomCover, Terrain
from warbench.rulesets.warsurge.battlefield.movement import difficult_allowance
from warbench.rulesets.warsurge.profiles import Unit

#: a GameState or a Work (both have ``setup`` and ``terrain_hp``)
GameStateLike = Any

FloatArray = npt.NDArray[np.float64]
Point = tuple[float, float]

#: A climb shorter than this (inches) is no climb (floating point noise between levels).
LEVEL_EPS = 1e-6


@dataclass(frozen=True)
class Levels:
    """The pieces of a board models can stand on above the board (§10.1-10.2: agreed data).

    ``names``, ``polys`` and ``levels`` are parallel; ``bounds`` prefilter points."""

    names: tuple[str, ...]
    polys: tuple[object, ...]
    levels: tuple[float, ...]
    bounds: tuple[tuple[float, float, float, float], ...]

    @property
    def flat(self) -> bool:
        """No piece raises a model above the board."""
        return not self.names

    def z_of(self, xy: FloatArray) -> FloatArray:
        """The height each point of ``xy`` (``(n, 2)``) stands at: the highest level of the
        pieces whose area holds it (a point on an edge is on the piece), else 0."""
        out = np.zeros(len(xy), dtype=np.float64)
        if self.flat or not len(xy):
            return out
        x, y = xy[:, 0], xy[:, 1]
        for poly, level, (x0, y0, x1, y1) in zip(self.polys, self.levels, self.bounds, strict=True):
            box = (x >= x0 - 1e-9) & (x <= x1 + 1e-9) & (y >= y0 - 1e-9) & (y <= y1 + 1e-9)
            if not box.any():
                continue
            on = np.zeros(len(xy), dtype=bool)
            idx = np.flatnonzero(box)
            on[idx] = shapely.intersects_xy(poly, x[idx], y[idx])
            out = np.where(on, np.maximum(out, level), out)
        return out

    def z_at(self, p: Point) -> float:
        """The height a model whose base's centre is at ``p`` stands at."""
        return float(self.z_of(np.asarray([p], dtype=np.float64))[0])


def levels_of(board: Board) -> Levels:
    """The raised pieces of ``board`` models can stand on: a ``level`` above 0, not Impassable
    (§4.7), not closed to units from the battlefield (``embark: false``, §10.5: the tower's
    roof is reached by its stair, not climbed from outside)."""
    names: list[str] = []
    polys: list[object] = []
    levels: list[float] = []
    bounds: list[tuple[float, float, float, float]] = []
    for t in board.terrain:
        if t.level > LEVEL_EPS and not t.impassable and t.embark:
            poly = shapely.Polygon(t.polygon)
            shapely.prepare(poly)
            names.append(t.name)
            polys.append(poly)
            levels.append(float(t.level))
            b = poly.bounds
            bounds.append((float(b[0]), float(b[1]), float(b[2]), float(b[3])))
    return Levels(tuple(names), tuple(polys), tuple(levels), tuple(bounds))


@dataclass(frozen=True)
class Climb:
    """What a model's move climbs (§4.1 with ruling 26): the distance across the board, the
    height climbed or descended, and the Move or Dash it needs (Difficult Ground halves the
    allowance, §4.5)."""

    across: float
    climbed: float
    allowance: float

    @property
    def cost(self) -> float:
        """The distance the move uses: across the board plus up or down (ruling 26)."""
        return self.across + self.climbed

    @property
    def ok(self) -> bool:
        return self.cost <= self.allowance + 1e-6


def climb_problem(
    levels: Levels,
    starts: Sequence[Point],
    ends: Sequence[Point],
    allowance: float,
    difficult: Callable[[int], bool],
    heights: tuple[FloatArray, FloatArray] | None = None,
) -> tuple[str, str] | None:
    """Why these moves cannot be made for the height they climb, as ``(reason, rule)``, or
    None. A model moving from one level to another (onto a gantry 3" up, down from it) uses
    the height climbed or descended of its Move or Dash as well as the distance across the
    board (§4.1 "place the model within that distance", L1918-1919 "scaling buildings";
    ruling 26). ``difficult(i)``: model ``i``'s path crosses Difficult Ground (§4.5 halves its
    allowance). ``heights``: the heights the models stand at before and after, when not where
    their centres are (oval and rectangular bases, ``bases_ground.heights``). A flat board
    never refuses anything here."""
    if levels.flat or not starts:
        return None
    s = np.asarray(starts, dtype=np.float64).reshape(-1, 2)
    e = np.asarray(ends, dtype=np.float64).reshape(-1, 2)
    z0, z1 = heights if heights is not None else (levels.z_of(s), levels.z_of(e))
    dz = np.abs(z1 - z0)
    for k in (int(x) for x in np.flatnonzero(dz > LEVEL_EPS)):
        a = float(difficult_allowance(int(allowance))) if difficult(k) else float(allowance)
        c = Climb(math.dist(starts[k], ends[k]), float(dz[k]), a)
        if not c.ok:
            return (
                f'model {k + 1} would move {c.across:.1f}" across and climb '
                f'{c.climbed:g}" ({c.cost:.1f}" in all) with {c.allowance:g}" to move',
                "§4.1 with L1918 (climbing levels; docs/rulings.md battlefield 26)",
            )
    return None


@dataclass(frozen=True)
class CoverEffect:
    """The custom cover (§10.4) a targeted unit gains with its Cover Bonus: Defence up or down
    (added to the Cover Bonus), Armour / AEGIS steps (1: a 4+ save becomes 3+) and the pieces
    it comes from."""

    defence: int = 0
    armour: int = 0
    aegis: int = 0
    save: str | None = None
    sources: tuple[str, ...] = ()

    @property
    def any(self) -> bool:
        return bool(self.defence or self.armour or self.aegis or self.save)

    @property
    def save_needed(self) -> int | None:
        """The additional Cover Save as the number a D6 needs (``"5+"`` -> 5), or None."""
        return int(self.save[0]) if self.save else None


NO_CUSTOM_COVER = CoverEffect()


def custom_cover(board: Board, sources: Sequence[str]) -> CoverEffect:
    """The custom cover of the pieces that give a unit its Cover Bonus (§10.4 L4475-4483,
    ruling 27): with several pieces, the one that helps the defender most (largest Defence
    change, then Armour, then AEGIS, then the best Cover Save) counts, so custom cover does
    not stack (the Cover Bonus of §5.6 does not either)."""
    best: tuple[tuple[int, int, int, int], CustomCover, str] | None = None
    by_name = {t.name: t for t in board.terrain}
    for name in sources:
        t = by_name.get(name)
        if t is None or t.custom_cover is None:
            continue
        cc = t.custom_cover
        rank = (cc.defence, cc.armour, cc.aegis, 7 - int(cc.save[0]) if cc.save else 0)
        if best is None or rank > best[0]:
            best = (rank, cc, name)
    if best is None:
        return NO_CUSTOM_COVER
    cc = best[1]
    return CoverEffect(cc.defence, cc.armour, cc.aegis, cc.save, (best[2],))


def improved_save(save: int | None, steps: int) -> int | None:
    """An Armour or AEGIS save improved by ``steps`` (1: 4+ becomes 3+; negative worsens it),
    kept within 2+ to 6+ (a 1 always fails, §5.10); None stays None (no save to improve)."""
    if save is None or not steps:
        return save
    return max(2, min(6, save - steps))


# --------------------------------------------------------------------------------------------
# Destructible terrain in play (§10.2 B/C, §10.3)
# --------------------------------------------------------------------------------------------
#
# A destructible piece (``hp`` and a ``profile``) is a Target of the Attack action: a share
# ``(weapon, target)`` whose ``target`` is past the last unit names the piece by its place on
# the board (:func:`terrain_target`; ``docs/rulings.md`` "WARSURGE terrain in play" 2). Its HP
# left is kept in ``GameState.terrain_hp`` from its first loss; at 0 it is destroyed: the game
# measures on the board with the piece destroyed from then on (``Board.with_terrain_destroyed``),
# and the models on or in it are unharmed (§10.3 L4470-4473, as §6.6).


def terrain_target(state: GameStateLike, name: str) -> int:
    """The target number of the terrain piece ``name`` in an Attack's shares (§10.3): the
    number of units plus the piece's place on the board."""
    board = state.setup.field.board
    for k, t in enumerate(board.terrain):
        if t.name == name:
            return len(state.setup.units) + k
    board.terrain_named(name)  # raises naming the pieces
    raise AssertionError  # pragma: no cover


def terrain_of_target(state: GameStateLike, target: int) -> Terrain | None:
    """The terrain piece a share's ``target`` names, None for a unit (or no piece)."""
    k = target - len(state.setup.units)
    terrain = state.setup.field.board.terrain
    return terrain[k] if 0 <= k < len(terrain) else None


def terrain_hp_left(state: GameStateLike, name: str) -> int | None:
    """The HP a destructible piece has left (None for an indestructible one, §10.2 A)."""
    t = state.setup.field.board.terrain_named(name)
    if t.hp is None:
        return None
    left: int = dict(state.terrain_hp).get(name, t.hp)
    return left


def destroyed_terrain(terrain_hp: Sequence[tuple[str, int]]) -> frozenset[str]:
    """The pieces destroyed (HP left 0, §10.3)."""
    return frozenset(name for name, hp in terrain_hp if hp <= 0)


def terrain_unit(piece: Terrain) -> Unit:
    """A destructible piece's profile as a unit (§10.2 B: "Give profiles to terrain"), cached.
    Its Defence, Armour and AEGIS defend it; its HP is the piece's ``hp`` (one model: the piece
    is one Target, ruling 3)."""
    key = (piece.name, json.dumps(piece.profile, sort_keys=True, default=str))
    hit = _UNITS.get(key)
    if hit is None:
        from warbench.rulesets.warsurge.io import unit_from_data

        assert piece.profile is not None
        data = dict(piece.profile)
        data.setdefault("models", [{"count": 1}])  # the piece is one Target (ruling 3)
        hit = _UNITS[key] = unit_from_data(data, "<board>", f"terrain {piece.name!r}")
    return hit


_UNITS: dict[tuple[str, str], Unit] = {}


def terrain_refusal(state: GameStateLike, target: int) -> str | None:
    """Why the terrain piece named by ``target`` cannot be attacked now, or None."""
    piece = terrain_of_target(state, target)
    if piece is None:
        return f"there is no unit or terrain piece {target}"
    if piece.hp is None or piece.profile is None:
        return (
            f"{piece.name} is indestructible: only terrain with HP and a profile can be "
            "attacked (§10.2 A/B)"
        )
    if (terrain_hp_left(state, piece.name) or 0) <= 0:
        return f"{piece.name} is already destroyed (§10.3)"
    return None
