"""Battlefield data: bases, terrain, deployment zones and the board (Core Rules
001_d3f5e425c5e1196d.txt §1.3, §2.1, §3.6, §4.5-4.8, §5.6, §10).

Everything is measured in inches on a board whose origin is the bottom-left corner, ``x``
to the right and ``y`` up; heights (``z``) are inches above the board. A model on the board is
a disc: the centre of its base and the base's radius in inches (``(Point, radius)``); a model
on an oval or rectangular base or hull (§1.3), or standing above the board (§4.2 III, L2360),
is a :class:`Footprint`. The pydantic models here are plain data; the shapely geometry the
measuring functions need is compiled once per board and cached (:meth:`Board.geometry`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator

__all__ = [
    "DEFAULT_MODEL_HEIGHT",
    "INCH_PER_MM",
    "OVAL_SIDES",
    "Base",
    "BaseShape",
    "Board",
    "CustomCover",
    "DangerousSpec",
    "DeploymentLayout",
    "DeploymentSpec",
    "Disc",
    "Footprint",
    "Gate",
    "Objective",
    "Point",
    "Terrain",
    "TerrainEmbark",
    "Zone",
    "deployment_zones",
    "embark_terrain",
]

#: 1 mm in inches; bases are sold in millimetres, the rules measure in inches (§1.3, §4.1).
INCH_PER_MM = 1 / 25.4

#: A position on the board in inches, ``(x, y)``.
Point = tuple[float, float]

#: A model on the board: the centre of its base and the base's radius in inches.
Disc = tuple[Point, float]

DeploymentLayout = Literal["thirds", "long-edge", "short-edge", "diagonal", "quarters"]

_DATA = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


BaseShape = Literal["round", "oval", "rect"]

#: Corners of the polygon that stands for an oval base (inscribed: the polygon lies inside the
#: ellipse, so it never claims a contact or an overlap that is not there; the gap it adds is at
#: most ``1 - cos(pi / OVAL_SIDES)`` of the half-length, 0.12%: 0.002" on a 120 mm oval).
OVAL_SIDES = 64

#: A model's height in inches when nobody says (a 28-32 mm miniature on foot), for sight over
#: and from above (L2360, ``docs/rulings.md`` "WARSURGE battlefield" 17).
DEFAULT_MODEL_HEIGHT = 1.25


class Base(BaseModel):
    """A model's base (§1.3): distances are measured from the base, not the miniature.

    ``shape``: ``round`` (``diameter_mm``), ``oval`` or ``rect`` (``length_mm`` along the
    model's facing, ``width_mm`` across). A model without a base is measured from its body or
    hull (§1.3, L253-255): give its hull as a ``rect`` (or ``oval``) with ``hull: true``, or use
    :meth:`for_hull` for the round base that covers it (ruling 10).

    Code that works with discs gets :attr:`radius`, the circle that covers the base (for an oval
    or rectangle, half its longest dimension, or half the diagonal); :class:`Footprint` and the
    ``footprint_*`` functions measure the true shape.
    """

    model_config = _DATA

    shape: BaseShape = "round"
    diameter_mm: float = Field(25.0, gt=0, le=1000, description="Base diameter in millimetres.")
    length_mm: float | None = Field(
        None, gt=0, le=2000, description="Oval or rectangle: length along the facing, mm."
    )
    width_mm: float | None = Field(
        None, gt=0, le=2000, description="Oval or rectangle: width across the facing, mm."
    )
    hull: bool = Field(False, description="No base: the model's body or hull (§1.3).")

    @model_validator(mode="after")
    def _dimensions(self) -> Base:
        if self.shape == "round" and (self.length_mm is not None or self.width_mm is not None):
            raise ValueError("a round base takes diameter_mm only; use shape oval or rect (§1.3)")
        if self.shape != "round" and (self.length_mm is None or self.width_mm is None):
            raise ValueError(f"a {self.shape} base needs length_mm and width_mm (§1.3)")
        return self

    @property
    def round(self) -> bool:
        """Whether the base is a circle (measured exactly as a disc)."""
        return self.shape == "round"

    @property
    def half_extents(self) -> tuple[float, float]:
        """Half the length and half the width in inches (both the radius for a round base)."""
        if self.shape == "round":
            r = self.diameter_mm * INCH_PER_MM / 2
            return r, r
        assert self.length_mm is not None and self.width_mm is not None
        return self.length_mm * INCH_PER_MM / 2, self.width_mm * INCH_PER_MM / 2

    @property
    def radius(self) -> float:
        """The radius in inches of the circle that covers the base (its own for a round one)."""
        a, b = self.half_extents
        if self.shape == "rect":
            return math.hypot(a, b)
        return max(a, b)

    def outline(self, centre: Point, facing: float = 0.0) -> list[Point]:
        """The base's corners on the board (an oval as :data:`OVAL_SIDES` corners), its length
        turned ``facing`` degrees counter-clockwise from ``+x``."""
        cx, cy = centre
        c, s = math.cos(math.radians(facing)), math.sin(math.radians(facing))
        local = _local_outline(self.shape, *self.half_extents)
        return [(cx + x * c - y * s, cy + x * s + y * c) for x, y in local]

    @classmethod
    def for_hull(cls, length_mm: float, width_mm: float) -> Base:
        """The round base standing for an unbased model's hull of ``length`` x ``width`` mm."""
        return cls(diameter_mm=max(length_mm, width_mm))

    @classmethod
    def hull_of(cls, length_mm: float, width_mm: float) -> Base:
        """An unbased model measured from its rectangular hull (§1.3: "the model's actual body
        or hull (exterior of a vehicle)")."""
        return cls(shape="rect", length_mm=length_mm, width_mm=width_mm, hull=True)


@functools.lru_cache(maxsize=256)
def _local_outline(shape: str, a: float, b: float) -> tuple[Point, ...]:
    """A base's corners around its own centre, length along ``+x`` (cached per size)."""
    if shape == "rect":
        return ((-a, -b), (a, -b), (a, b), (-a, b))
    n = OVAL_SIDES
    return tuple(
        (a * math.cos(2 * math.pi * i / n), b * math.sin(2 * math.pi * i / n)) for i in range(n)
    )


#: A 25 mm round base, the default of :class:`Base`.
ROUND_25MM = Base()


@dataclass(frozen=True)
class Footprint:
    """A model on the board with its true base: centre, :class:`Base`, facing (degrees
    counter-clockwise from ``+x``), the height its base stands at (``z``, inches above the
    board: on a floor of a building, §4.2 III) and the model's own height (for sight over and
    from above, L2360)."""

    centre: Point
    base: Base = ROUND_25MM
    facing: float = 0.0
    z: float = 0.0
    height: float = DEFAULT_MODEL_HEIGHT

    @property
    def disc(self) -> Disc:
        """The covering disc, for code that measures discs."""
        return self.centre, self.base.radius

    @property
    def top(self) -> float:
        """The height of the model's top above the board."""
        return self.z + self.height

    def outline(self) -> list[Point]:
        """The base's corners on the board (see :meth:`Base.outline`)."""
        return self.base.outline(self.centre, self.facing)


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


_SAVE = r"^[2-6]\+$"


class CustomCover(BaseModel):
    """Custom cover agreed by the players (§10.4, L4475-4483): beyond the Cover Bonus, changes to
    the Armour or AEGIS Stats, an additional Cover Save, or a negative effect such as lowering
    Defence. Data for the attack rules: ``defence`` adds to (or, negative, lowers) Defence,
    ``armour`` / ``aegis`` improve the Save by that many steps (1: 4+ becomes 3+; negative
    worsens it), ``save`` is an additional Cover Save (``5+``) and ``text`` says what was agreed.
    """

    model_config = _DATA

    defence: int = Field(0, ge=-10, le=10)
    armour: int = Field(0, ge=-5, le=5)
    aegis: int = Field(0, ge=-5, le=5)
    save: str | None = Field(None, pattern=_SAVE)
    text: str = Field("", max_length=300)

    @model_validator(mode="after")
    def _says_something(self) -> CustomCover:
        if not (self.defence or self.armour or self.aegis or self.save or self.text):
            raise ValueError(
                "custom cover changes nothing; give defence, armour, aegis, save or text"
            )
        return self


class Gate(BaseModel):
    """A way into or out of a terrain piece (§10.5, L4486-4530): a door, a stairway, a secret
    hatch. ``embark`` / ``disembark`` say which way it works (Example 2's escape hatch is a
    one-way exit: ``embark: false``)."""

    model_config = _DATA

    name: str = Field(min_length=1, max_length=80)
    at: Point
    embark: bool = True
    disembark: bool = True

    @model_validator(mode="after")
    def _one_way_at_least(self) -> Gate:
        if not (self.embark or self.disembark):
            raise ValueError("a gate lets units embark, disembark or both (§10.5)")
        return self


class Terrain(BaseModel):
    """A terrain piece (§2.1, §4.5-4.8, §5.6, §10), as the players agreed before the game.

    ``difficult``: halves Movement through, into or out of it (§4.5). ``dangerous``: strikes
    models moving through, into or out of it (§4.6). ``impassable``: models cannot move through
    or into it (§4.7). ``blocks_los``: tall solid terrain; a line of sight cannot pass through
    it, but models standing in it see out and are seen (ruling 2). ``cover``: the Cover Bonus
    (+Defence, §5.6) it gives to a model it obscures; 0 means the default +1 for LoS-blocking
    terrain and no obscuring for other terrain. ``cover_area``: models in the area count as
    obscured even when not hidden (§5.6 Cover Area). ``custom_cover``: agreed cover beyond the
    bonus (§10.4).

    Heights (inches above the board): ``height`` is the top of the piece (``None``: as tall as
    a line of sight needs, the flat-board reading); ``level`` is the floor that models in or on
    it stand on (a tower's upper floor, §10.5 Example 1). A line of sight passes over a piece
    whose top it clears (L2360, ``geometry.line_clears``).

    Terrain with a profile (§10.2 B/C, L4383-4468): ``profile`` is a unit (the mapping of a unit
    file: ``unit``, ``weapons``, ``models``), so the piece can attack and be attacked;
    ``transport`` its Transport Stat in points (``transport_unlimited``: any unit that fits,
    §10.5 Example 1), ``fire_points`` its Fire Points (§6.9). ``hp``: destructible terrain's HP
    (§10.3; ``None``: indestructible, §10.2 A). Connected terrain (§10.5): ``connected_to``
    pieces its occupants may move into and back, ``exits_to`` pieces they may only leave by
    (one-way), ``embark: false`` a piece units cannot embark from the battlefield, ``gates``
    the ways in and out (none: anywhere along its edge).

    Terrain in an army and terrain weapons (§10.2 L4388-4392, L4404-4408, L4424-4430; rulings
    "WARSURGE terrain in play: session 27, s27-armyterrain"): ``army`` fields the piece in the
    army of that side (0-based, the game's sides in order): an Immobile Unit of the side
    (§4.1 L1861-1881), priced by the points model, that attacks with its profile's weapons;
    ``armed: true`` puts the profile's weapons in play as terrain weapons, used by the side
    that alone controls the piece. Without either, a profile's weapons are data.
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
    custom_cover: CustomCover | None = None
    height: float | None = Field(None, gt=0, le=200)
    level: float = Field(0.0, ge=0, le=200)
    profile: dict[str, Any] | None = None
    transport: int | None = Field(None, ge=0)
    transport_unlimited: bool = False
    fire_points: int = Field(0, ge=0, le=100)
    hp: int | None = Field(None, ge=1, le=10000)
    connected_to: list[str] = Field(default_factory=list)
    exits_to: list[str] = Field(default_factory=list)
    embark: bool = True
    gates: list[Gate] = Field(default_factory=list)
    armed: bool = Field(
        False,
        description="Terrain weapons in play: the profile's weapons, used by the side that "
        "alone controls the piece (§10.2 L4388-4392, L4404-4408).",
    )
    army: int | None = Field(
        None,
        ge=0,
        le=7,
        strict=True,  # a side's number: ``army: true`` is no side 1, ``false`` no side 0
        description="Fielded in the army of this side (0-based): an Immobile Unit of that side, "
        "priced by the points model, that attacks with its profile's weapons (§10.2 L4424-4430).",
    )

    _shorthand = model_validator(mode="before")(_polygon_shorthand)
    _simple = field_validator("polygon")(_check_polygon)

    @model_validator(mode="after")
    def _heights_and_capacity(self) -> Terrain:
        if self.height is not None and self.level >= self.height:
            raise ValueError(
                f"level {self.level:g} must be below the piece's height {self.height:g} (inches)"
            )
        if self.transport_unlimited and self.transport is not None:
            raise ValueError("give transport (points) or transport_unlimited, not both (§10.5)")
        if self.armed and not (self.profile or {}).get("weapons"):
            raise ValueError("an armed piece needs a profile with weapons (§10.2 B, L4388-4392)")
        if self.army is not None and self.profile is None:
            raise ValueError("a piece in an army needs a profile (§10.2 B, L4424-4430)")
        return self

    @property
    def obscures(self) -> bool:
        """Whether a line through this piece makes a model behind it obscured (§5.6)."""
        return self.blocks_los or self.cover > 0

    @property
    def cover_value(self) -> int:
        """The Cover Bonus given by this piece when it obscures a model: +1 unless agreed."""
        return self.cover if self.cover > 0 else (1 if self.obscures or self.cover_area else 0)

    @property
    def capacity(self) -> float:
        """Transport Capacity in points (§6, §10.2): ``inf`` when unlimited, 0 when none."""
        if self.transport_unlimited:
            return math.inf
        return float(self.transport or 0)

    @property
    def embarkable(self) -> bool:
        """Whether units can be inside it at all (a Transport Stat, §10.2)."""
        return self.capacity > 0

    @property
    def destructible(self) -> bool:
        """Whether it has HP and can be destroyed (§10.3)."""
        return self.hp is not None

    def destroyed(self) -> Terrain:
        """The piece after it is destroyed (§10.3, L4470-4473): its footprint stays, with no
        effects (no blocking, cover, Transport, profile, HP or connections); its occupants are
        placed as from a destroyed Transport (§6.6, ``placement.place_near``). Rules the players
        add for rubble are theirs to give the piece again (ruling 21)."""
        return Terrain(name=self.name, polygon=self.polygon, level=0.0)

    @property
    def in_play_weapons(self) -> bool:
        """Whether its profile's weapons attack in a game (``armed`` or ``army``, §10.2); an
        army piece without weapons is a unit that never attacks."""
        weapons = bool((self.profile or {}).get("weapons"))
        return weapons and (self.armed or self.army is not None)


class Zone(BaseModel):
    """A named area of the board, such as a Deployment Zone (§2.1, §3.6)."""

    model_config = _DATA

    name: str = Field(min_length=1, max_length=80)
    polygon: list[Point]

    _shorthand = model_validator(mode="before")(_polygon_shorthand)
    _simple = field_validator("polygon")(_check_polygon)


class Objective(BaseModel):
    """An Objective (Perks 000_94ecc6a4c74d351b.txt L95-96: "a marker, terrain piece or model on
    a Battlefield"). A marker stands ``at`` a point with a ``diameter_mm``; a terrain objective
    names its ``terrain`` piece. A player controls it with a model within ``control_range``
    inches (default 2", Coherency, as for terrain with profiles, §10.2 L4404-4407; Book 3 is not
    among the sources, ruling 20), or embarked in the terrain; two players contest it."""

    model_config = _DATA

    name: str = Field(min_length=1, max_length=80)
    at: Point | None = None
    terrain: str | None = None
    diameter_mm: float = Field(40.0, gt=0, le=500)
    control_range: float = Field(2.0, ge=0, le=48)
    points: int = Field(0, ge=0, le=100000, description="What holding it scores (mission data).")

    @model_validator(mode="after")
    def _marker_or_terrain(self) -> Objective:
        if (self.at is None) == (self.terrain is None):
            raise ValueError(
                "an objective is a marker (at: [x, y]) or a terrain piece (terrain: NAME): "
                "give exactly one of them"
            )
        return self

    @property
    def radius(self) -> float:
        """The marker's radius in inches."""
        return self.diameter_mm * INCH_PER_MM / 2


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
    objectives: list[Objective] = Field(default_factory=list)

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
        known = set(names)
        for t in self.terrain:
            for field_name in ("connected_to", "exits_to"):
                for other in getattr(t, field_name):
                    if other == t.name or other not in known:
                        raise ValueError(
                            f"terrain {t.name!r}: {field_name} {other!r} is not another piece "
                            f"of this board; allowed: {', '.join(sorted(known - {t.name}))}"
                        )
            for g in t.gates:
                x, y = g.at
                if not (0 <= x <= self.width and 0 <= y <= self.height):
                    raise ValueError(f"terrain {t.name!r}: gate {g.name!r} is off the board")
        onames = [o.name for o in self.objectives]
        dup = sorted({n for n in onames if onames.count(n) > 1})
        if dup:
            raise ValueError(f"objective names must be unique; repeated: {', '.join(dup)}")
        for o in self.objectives:
            if o.terrain is not None and o.terrain not in known:
                raise ValueError(
                    f"objective {o.name!r}: terrain {o.terrain!r} is not on this board; "
                    f"allowed: {', '.join(names)}"
                )
            if o.at is not None and not (
                0 <= o.at[0] <= self.width and 0 <= o.at[1] <= self.height
            ):
                raise ValueError(f"objective {o.name!r} at {o.at} is off the board")
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
        # read from the private attributes' own dict: ``self._geometry`` goes through
        # pydantic's ``__getattr__``, and every sight question asks twice (issue 10, s34-speedp)
        priv = self.__pydantic_private__
        kept = None if priv is None else priv.get("_geometry")
        if kept is not None:
            return kept
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

    def objective(self, name: str) -> Objective:
        """The objective called ``name``."""
        for o in self.objectives:
            if o.name == name:
                return o
        from warbench.kernel.errors import UnknownNameError

        raise UnknownNameError(
            "objective", name, [o.name for o in self.objectives], where=self.name
        )

    def with_terrain_destroyed(self, name: str) -> Board:
        """This board with the piece ``name`` destroyed (§10.3, :meth:`Terrain.destroyed`);
        connections to it are cut. A new board: its geometry is compiled again."""
        self.terrain_named(name)
        terrain = [
            t.destroyed()
            if t.name == name
            else t.model_copy(
                update={
                    "connected_to": [c for c in t.connected_to if c != name],
                    "exits_to": [c for c in t.exits_to if c != name],
                }
            )
            for t in self.terrain
        ]
        board = self.model_copy(update={"terrain": terrain})
        board._geometry = None  # compiled again for the new terrain
        return board

    def routes_from(self, name: str) -> list[str]:
        """The pieces the occupants of ``name`` can move into without leaving the terrain
        (§10.5, L4486-4492): along ``connected_to`` either way and ``exits_to`` one way, and on
        from there; in board order."""
        self.terrain_named(name)
        succ: dict[str, set[str]] = {t.name: set() for t in self.terrain}
        for t in self.terrain:
            for other in t.connected_to:
                succ[t.name].add(other)
                succ[other].add(t.name)
            for other in t.exits_to:
                succ[t.name].add(other)
        seen, todo = {name}, [name]
        while todo:
            for nxt in succ[todo.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return [t.name for t in self.terrain if t.name in seen and t.name != name]

    def gates_of(self, name: str, way: Literal["embark", "disembark"]) -> list[Gate] | None:
        """The gates of ``name`` that work ``way``; ``None`` when the piece has no gates (any
        point of its edge will do)."""
        t = self.terrain_named(name)
        if not t.gates:
            return None
        return [g for g in t.gates if getattr(g, way)]

    def can_embark_at(self, name: str) -> bool:
        """Whether a unit on the battlefield can embark ``name`` (§10.2, §10.5 L4491): it has a
        Transport Stat, it is not an exit only (``embark: false``), and a gate lets units in."""
        t = self.terrain_named(name)
        gates = self.gates_of(name, "embark")
        return t.embark and t.embarkable and (gates is None or bool(gates))

    def disembark_from(self, name: str) -> list[str]:
        """The pieces the occupants of ``name`` may disembark from (§10.5 L4491-4492: "A Unit
        embarks at one terrain piece, then can disembark from any other connected terrain
        piece"): ``name`` itself and every piece it leads to, those with a way out."""
        out = []
        for piece in [name, *self.routes_from(name)]:
            gates = self.gates_of(piece, "disembark")
            if gates is None or gates:
                out.append(piece)
        return out

    def terrain_named(self, name: str) -> Terrain:
        """The terrain piece called ``name``."""
        for t in self.terrain:
            if t.name == name:
                return t
        from warbench.kernel.errors import UnknownNameError

        raise UnknownNameError("terrain", name, [t.name for t in self.terrain], where=self.name)


@dataclass(frozen=True)
class TerrainEmbark:
    """A unit embarking terrain (§10.2, L4437-4468): which of its models get ``inside`` (by
    index), which stay ``outside`` (one of them must keep Coherency with the terrain), the
    space left, and the players whose units inside it are now engaged with it in a Melee."""

    inside: tuple[int, ...]
    outside: tuple[int, ...]
    space_left: float
    melee_with: frozenset[int]


def embark_terrain(
    piece: Terrain,
    occupants: Sequence[tuple[int, float]],
    player: int,
    model_points: Sequence[float],
) -> TerrainEmbark:
    """Embark a unit of ``player`` whose models are worth ``model_points`` into ``piece``,
    which already holds ``occupants`` (``(player, points)`` per unit).

    Models embark in the order given while they fit the Transport Capacity that is left; the
    rest stay outside (L4455-4460: "at least one model from the remainder of the Unit ... must
    maintain Coherency with the terrain"; ruling 19). Units of other players inside are engaged
    in a Melee with this one (L4441-4447). A piece without a Transport Stat is refused.
    """
    from warbench.kernel.errors import RulesError

    if not piece.embarkable:
        raise RulesError(
            f"{piece.name} has no Transport Stat, so no unit can embark it",
            "Core Rules §10.2, lines 4383-4391",
        )
    space = piece.capacity - sum(p for _, p in occupants)
    inside: list[int] = []
    for i, pts in enumerate(model_points):
        if pts > space + 1e-9:
            break
        space -= pts
        inside.append(i)
    outside = tuple(i for i in range(len(model_points)) if i not in inside)
    melee = frozenset(p for p, _ in occupants if p != player) if inside else frozenset()
    return TerrainEmbark(tuple(inside), outside, space, melee)


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
