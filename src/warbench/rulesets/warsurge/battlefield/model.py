"""Battlefield data: bases, terrain, deployment zones and the board (Core Rules
001_d3f5e425c5e1196d.txt §1.3, §2.1, §3.6, §4.5-4.8, §5.6, §10).

Everything is measured in inches on a flat board whose origin is the bottom-left corner, ``x``
to the right and ``y`` up. A model on the board is a disc: the centre of its base and the
base's radius in inches (``(Point, radius)``). The pydantic models here are plain data; the
shapely geometry the measuring functions need is compiled once per board and cached
(:meth:`Board.geometry`).
"""

from __future__ import annotations

import math
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator

__all__ = [
    "INCH_PER_MM",
    "Base",
    "Board",
    "DangerousSpec",
    "DeploymentLayout",
    "DeploymentSpec",
    "Disc",
    "Point",
    "Terrain",
    "Zone",
    "deployment_zones",
]

#: 1 mm in inches; bases are sold in millimetres, the rules measure in inches (§1.3, §4.1).
INCH_PER_MM = 1 / 25.4

#: A position on the board in inches, ``(x, y)``.
Point = tuple[float, float]

#: A model on the board: the centre of its base and the base's radius in inches.
Disc = tuple[Point, float]

DeploymentLayout = Literal["thirds", "long-edge", "short-edge", "diagonal", "quarters"]

_DATA = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


class Base(BaseModel):
    """A model's base (§1.3): distances are measured from the base, not the miniature.

    Round bases only for now. A model without a base is measured from its body or hull (§1.3);
    :meth:`for_hull` gives such a model the round base that covers its longest dimension
    (ruling "WARSURGE battlefield" 10 in ``docs/rulings.md``).
    """

    model_config = _DATA

    diameter_mm: float = Field(25.0, gt=0, le=1000, description="Base diameter in millimetres.")

    @property
    def radius(self) -> float:
        """The base's radius in inches."""
        return self.diameter_mm * INCH_PER_MM / 2

    @classmethod
    def for_hull(cls, length_mm: float, width_mm: float) -> Base:
        """The round base standing for an unbased model's hull of ``length`` x ``width`` mm."""
        return cls(diameter_mm=max(length_mm, width_mm))


class DangerousSpec(BaseModel):
    """How Dangerous Ground strikes (§4.6): a D6 per model, failing on a 1, or a Weapon profile.

    ``kind="roll"``: "each model that suffers Dangerous Ground rolls a D6; on a '1' they must
    pass Saves or lose 1 HP". ``kind="weapon"``: ``weapon`` is a Weapon profile (the mapping a
    unit file uses, e.g. ``{name: Mine, attacks: 1, power: 4}``) used once per model that
    traversed the terrain.
    """

    model_config = _DATA

    kind: Literal["roll", "weapon"] = "roll"
    weapon: dict[str, Any] | None = None

    @model_validator(mode="after")
    def _weapon_iff_weapon_kind(self) -> DangerousSpec:
        if self.kind == "weapon" and not self.weapon:
            raise ValueError('kind "weapon" needs a weapon profile (§4.6)')
        if self.kind == "roll" and self.weapon:
            raise ValueError('kind "roll" takes no weapon profile; use kind "weapon" (§4.6)')
        return self


_RECT = "rect must be [x0, y0, x1, y1]"
_CIRCLE = "circle must be {center: [x, y], radius: r, sides: 3 to 360}"


def _numbers(values: Any, count: int, message: str) -> list[float]:
    """``count`` finite numbers from a list (a value error with ``message`` otherwise)."""
    if not (isinstance(values, list | tuple) and len(values) == count):
        raise ValueError(message)
    try:
        out = [float(v) for v in values]
    except (TypeError, ValueError):
        raise ValueError(message) from None
    if not all(math.isfinite(v) for v in out):
        raise ValueError(message)
    return out


def _polygon_shorthand(data: Any) -> Any:
    """Accept ``rect: [x0, y0, x1, y1]`` and ``circle: {center: [x, y], radius: r}``."""
    if not isinstance(data, dict):
        return data
    if "rect" in data and "polygon" not in data:
        data = dict(data)
        x0, y0, x1, y1 = _numbers(data.pop("rect"), 4, _RECT)
        data["polygon"] = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    elif "circle" in data and "polygon" not in data:
        data = dict(data)
        circle = data.pop("circle")
        if not (isinstance(circle, dict) and "radius" in circle):
            raise ValueError(_CIRCLE)
        centre = circle.get("center", circle.get("centre")) or (0, 0)
        cx, cy = _numbers(centre, 2, _CIRCLE)
        (r,) = _numbers([circle["radius"]], 1, _CIRCLE)
        sides = circle.get("sides", 16)
        if isinstance(sides, bool) or not isinstance(sides, int) or not 3 <= sides <= 360:
            raise ValueError(_CIRCLE)
        n = sides
        data["polygon"] = [
            (
                round(cx + r * math.cos(2 * math.pi * i / n), 4),
                round(cy + r * math.sin(2 * math.pi * i / n), 4),
            )
            for i in range(n)
        ]
    return data


def _check_polygon(points: list[Point]) -> list[Point]:
    if len(points) < 3:
        raise ValueError("a polygon needs at least 3 corners")
    from shapely import Polygon, is_valid_reason

    reason = is_valid_reason(Polygon(points))
    if reason != "Valid Geometry":
        raise ValueError(f"the polygon is not simple ({reason})")
    return [(float(x), float(y)) for x, y in points]


class Terrain(BaseModel):
    """A terrain piece (§2.1, §4.5-4.8, §5.6, §10.2), as the players agreed before the game.

    ``difficult``: halves Movement through, into or out of it (§4.5). ``dangerous``: strikes
    models moving through, into or out of it (§4.6). ``impassable``: models cannot move through
    or into it (§4.7). ``blocks_los``: tall solid terrain; a line of sight cannot pass through
    it, but models standing in it see out and are seen (ruling 2). ``cover``: the Cover Bonus
    (+Defence, §5.6) it gives to a model it obscures; 0 means the default +1 for LoS-blocking
    terrain and no obscuring for other terrain. ``cover_area``: models in the area count as
    obscured even when not hidden (§5.6 Cover Area). ``profile``, ``transport`` and
    ``connected_to`` are data for terrain with a profile, a Transport Stat or connections
    (§10.2, §10.5); the game engine interprets them.
    """

    model_config = _DATA

    name: str = Field(min_length=1, max_length=80)
    polygon: list[Point]
    difficult: bool = False
    dangerous: DangerousSpec | None = None
    impassable: bool = False
    blocks_los: bool = False
    cover: int = Field(0, ge=0, le=10)
    cover_area: bool = False
    profile: dict[str, Any] | None = None
    transport: int | None = Field(None, ge=0)
    connected_to: list[str] = Field(default_factory=list)

    _shorthand = model_validator(mode="before")(_polygon_shorthand)
    _simple = field_validator("polygon")(_check_polygon)

    @property
    def obscures(self) -> bool:
        """Whether a line through this piece makes a model behind it obscured (§5.6)."""
        return self.blocks_los or self.cover > 0

    @property
    def cover_value(self) -> int:
        """The Cover Bonus given by this piece when it obscures a model: +1 unless agreed."""
        return self.cover if self.cover > 0 else (1 if self.obscures or self.cover_area else 0)


class Zone(BaseModel):
    """A named area of the board, such as a Deployment Zone (§2.1, §3.6)."""

    model_config = _DATA

    name: str = Field(min_length=1, max_length=80)
    polygon: list[Point]

    _shorthand = model_validator(mode="before")(_polygon_shorthand)
    _simple = field_validator("polygon")(_check_polygon)


class DeploymentSpec(BaseModel):
    """How the Deployment Zones of a board are laid out (see :func:`deployment_zones`)."""

    model_config = _DATA

    layout: DeploymentLayout
    players: int = Field(2, ge=2, le=4)
    depth: float | None = Field(None, gt=0)


class Board(BaseModel):
    """A Battlefield (§2.1): its size in inches, terrain pieces and zones.

    When ``zones`` is empty and ``deployment`` is given, the Deployment Zones are generated by
    :func:`deployment_zones`.
    """

    model_config = _DATA

    name: str = ""
    width: float = Field(gt=0, le=1000)
    height: float = Field(gt=0, le=1000)
    terrain: list[Terrain] = Field(default_factory=list)
    zones: list[Zone] = Field(default_factory=list)
    deployment: DeploymentSpec | None = None

    _geometry: Any = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _check(self) -> Board:
        names = [t.name for t in self.terrain]
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise ValueError(f"terrain names must be unique; repeated: {', '.join(dup)}")
        for kind, items in (("terrain", self.terrain), ("zone", self.zones)):
            for item in items:
                for x, y in item.polygon:
                    if not (-1e-9 <= x <= self.width + 1e-9 and -1e-9 <= y <= self.height + 1e-9):
                        raise ValueError(
                            f"{kind} {item.name!r} has the corner ({x:g}, {y:g}) off the "
                            f"{self.width:g} x {self.height:g} board"
                        )
        if not self.zones and self.deployment is not None:
            zones = deployment_zones(
                self.deployment.layout,
                self.width,
                self.height,
                players=self.deployment.players,
                depth=self.deployment.depth,
            )
            object.__setattr__(self, "zones", zones)
        return self

    def geometry(self) -> Any:
        """The compiled shapely geometry of this board (built once, then cached)."""
        if self._geometry is None:
            from warbench.rulesets.warsurge.battlefield.geometry import BoardGeometry

            self._geometry = BoardGeometry(self)
        return self._geometry

    def zone(self, name: str) -> Zone:
        """The zone called ``name``."""
        for z in self.zones:
            if z.name == name:
                return z
        from warbench.kernel.errors import UnknownNameError

        raise UnknownNameError("zone", name, [z.name for z in self.zones], where=self.name)

    def terrain_named(self, name: str) -> Terrain:
        """The terrain piece called ``name``."""
        for t in self.terrain:
            if t.name == name:
                return t
        from warbench.kernel.errors import UnknownNameError

        raise UnknownNameError("terrain", name, [t.name for t in self.terrain], where=self.name)


def _rect(x0: float, y0: float, x1: float, y1: float) -> list[Point]:
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def deployment_zones(
    layout: DeploymentLayout,
    width: float,
    height: float,
    players: int = 2,
    depth: float | None = None,
) -> list[Zone]:
    """The Deployment Zones of a ``width`` x ``height`` board, in clockwise order (§3.3, §3.6).

    The layouts are described in Book 3 (Competitive Games), which is not part of the sources;
    these are documented defaults (``docs/battlefield.md``):

    * ``thirds``: the board is cut into thirds across its width (§2.2 example: 42" x 32", zones
      14" from the vertical board edges). 2 players take the left and right thirds, 3 players
      all three. ``depth`` defaults to a third of the width.
    * ``long-edge`` / ``short-edge``: strips along the two long (short) edges, ``depth``
      defaulting to a quarter of the distance between them. 2 players.
    * ``diagonal``: triangles in the bottom-left and top-right corners cut by lines parallel to
      the other diagonal; ``depth`` (from the corner, perpendicular to that line) defaults to
      half the corner's distance to that diagonal, so the triangles' legs are half the
      board's sides. 2 players.
    * ``quarters``: the quarters of the board (2 players: opposite quarters; 3 or 4 players:
      clockwise from the bottom-left); with ``depth``, the ``depth`` x ``depth`` corner squares.
    """
    from warbench.kernel.errors import ProfileError

    w, h = float(width), float(height)
    if layout not in ("thirds", "long-edge", "short-edge", "diagonal", "quarters"):
        raise ProfileError(
            "deployment.layout", layout, "thirds, long-edge, short-edge, diagonal or quarters"
        )
    max_players = {"thirds": 3, "quarters": 4}.get(layout, 2)
    if not 2 <= players <= max_players:
        raise ProfileError("deployment.players", players, f"2 to {max_players} for {layout}")
    if depth is not None and depth <= 0:
        raise ProfileError("deployment.depth", depth, "a positive number of inches")

    def too_deep(limit: float) -> None:
        if depth is not None and depth > limit + 1e-9:
            raise ProfileError(
                "deployment.depth", depth, f'at most {limit:g}" so that the zones do not overlap'
            )

    if layout == "thirds":
        d = w / 3 if depth is None else depth
        too_deep(w / 3 if players == 3 else w / 2)
        if players == 3:
            return [
                Zone(name="left third", polygon=_rect(0, 0, w / 3, h)),
                Zone(name="middle third", polygon=_rect(w / 3, 0, 2 * w / 3, h)),
                Zone(name="right third", polygon=_rect(2 * w / 3, 0, w, h)),
            ]
        return [
            Zone(name="left third", polygon=_rect(0, 0, d, h)),
            Zone(name="right third", polygon=_rect(w - d, 0, w, h)),
        ]
    if layout in ("long-edge", "short-edge"):
        along_x = (w >= h) == (layout == "long-edge")  # zones are strips along the x edges
        across = h if along_x else w
        d = across / 4 if depth is None else depth
        too_deep(across / 2)
        if along_x:
            return [
                Zone(name="south edge", polygon=_rect(0, 0, w, d)),
                Zone(name="north edge", polygon=_rect(0, h - d, w, h)),
            ]
        return [
            Zone(name="west edge", polygon=_rect(0, 0, d, h)),
            Zone(name="east edge", polygon=_rect(w - d, 0, w, h)),
        ]
    if layout == "diagonal":
        reach = w * h / math.hypot(w, h)  # corner to the other diagonal
        d = reach / 2 if depth is None else depth
        too_deep(reach)
        f = d / reach  # the zone's legs are this fraction of the board's sides
        return [
            Zone(name="south-west corner", polygon=[(0, 0), (f * w, 0), (0, f * h)]),
            Zone(name="north-east corner", polygon=[(w, h), (w - f * w, h), (w, h - f * h)]),
        ]
    # quarters
    qw, qh = (w / 2, h / 2) if depth is None else (min(depth, w / 2), min(depth, h / 2))
    corners = {
        "south-west quarter": _rect(0, 0, qw, qh),
        "north-west quarter": _rect(0, h - qh, qw, h),
        "north-east quarter": _rect(w - qw, h - qh, w, h),
        "south-east quarter": _rect(w - qw, 0, w, qh),
    }
    names = list(corners)
    chosen = [names[0], names[2]] if players == 2 else names[:players]
    return [Zone(name=n, polygon=corners[n]) for n in chosen]
