"""Terrain pieces as Targets: the distance to a piece and the line of sight to it.

Core Rules 001_d3f5e425c5e1196d.txt §10.2 B/C (L4383-4407: terrain with a profile can "be
attacked"), §10.3 (L4470-4473: destroyed terrain), §5.3-5.4 (range is measured to the Target,
a line of sight must reach it). A terrain piece is not a model on a base: the range is measured
from a model's base to the nearest point of the piece's footprint, and the model sees the piece
when a line from its base's centre reaches some point of the footprint (its nearest point, a
corner or its middle) without passing through another piece that blocks line of sight
(``docs/rulings.md`` "WARSURGE terrain in play" 1). Models do not hide a piece: it is larger
than they are (the same ruling).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import shapely
from shapely.ops import nearest_points

from warbench.rulesets.warsurge.battlefield.model import Board, Disc, Point

__all__ = ["TerrainSight", "terrain_sight"]


@dataclass(frozen=True)
class TerrainSight:
    """What each model (in the order given) has of one terrain piece: the distance from its
    base's edge to the piece (0 when it touches or stands on it) and whether it sees it."""

    piece: str
    distances: tuple[float, ...]
    seen: tuple[bool, ...]

    @property
    def distance(self) -> float:
        """The distance from the closest model to the piece (``inf`` with no models)."""
        return min(self.distances, default=float("inf"))


def terrain_sight(board: Board, piece: str, models: Sequence[Disc]) -> TerrainSight:
    """The distance and line of sight from each model of ``models`` to the terrain ``piece``
    of ``board`` (see the module's docstring for the reading). A model standing in or on the
    piece sees it at distance 0; a piece the model stands in does not block its own lines
    (``docs/rulings.md`` "WARSURGE battlefield" 2)."""
    target = board.terrain_named(piece)
    area = shapely.Polygon(target.polygon)
    shapely.prepare(area)
    blockers = [
        (t.name, shapely.Polygon(t.polygon))
        for t in board.terrain
        if t.blocks_los and t.name != piece
    ]
    corners: list[Point] = [(float(x), float(y)) for x, y in target.polygon]
    c = area.representative_point()
    aims0: list[Point] = [(float(c.x), float(c.y)), *corners]
    distances: list[float] = []
    seen: list[bool] = []
    for (x, y), r in models:
        p = shapely.Point(x, y)
        d = max(0.0, float(area.distance(p)) - r)
        distances.append(d)
        if d <= 1e-9:
            seen.append(True)
            continue
        own = {name for name, b in blockers if b.intersects(p.buffer(r))}
        near = nearest_points(p, area)[1]
        aims = [(float(near.x), float(near.y)), *aims0]
        ok = False
        for ax, ay in aims:
            line = shapely.LineString([(x, y), (ax, ay)])
            if not any(
                name not in own and line.intersects(b) and not line.touches(b)
                for name, b in blockers
            ):
                ok = True
                break
        seen.append(ok)
    return TerrainSight(piece, tuple(distances), tuple(seen))
