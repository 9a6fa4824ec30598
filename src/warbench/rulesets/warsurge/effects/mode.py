"""Mode templates (Book 2 ``000_94ecc6a4c74d351b.txt`` §12.5 Mode, L3295-L3563; §12.3 L564).

A Mode rank changes how its Weapon strikes: a template is laid on the Battlefield and every unit
under it (friend and foe, Nova: foes only) receives Attack Dice, the models under the template
multiplied by the Weapon's Attacks. The rows of ``data/effects.json`` say which template a rank
lays (:class:`Template`: its shape, its size, where it is placed, the Scatter Arrow, what a Fire
Point receives); this module is its geometry, pure functions over model centres and base radii
(nothing here rolls a die or knows a game: ``game/perk_mode.py`` places, scatters and attacks).

* ``circle`` (Blast L3321, Explode L3413, Nova L3463): a disc of ``size`` inches across.
* ``droplet`` (Cone L3377): ``size`` inches long from its narrow end (ruling: a triangle whose far
  end is ``3/8`` of its length across, with a round cap; the book prints no shape).
* ``line`` (Wall L3549): a 1 mm line ``size`` inches long.
* ``beam`` (Beam L3295): a 1 mm line from the Wielder to the Weapon's maximum Range.
* ``arc`` (Diffuse L3393): a V of 90 degrees from the Wielder to the Weapon's Range (at most 12").

A model is under a template when its base touches it ("fully or partially under"), Nova's when
its centre is inside ("each enemy model inside the template"; docs/rulings.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = [
    "MODE_RANKS",
    "Placement",
    "Shape",
    "Template",
    "TemplateAt",
    "template_from",
    "under",
]

FloatArray = npt.NDArray[np.float64]

#: The width of a 1 mm line in inches (Beam, Wall).
LINE_WIDTH = 1 / 25.4
#: A Cone's droplet: its far end across, as a share of its length (ruling).
DROPLET_WIDTH = 3 / 8
#: Diffuse's V (L3393): 90 degrees, Range 3" to 12".
ARC_DEGREES = 90.0
ARC_MAX_RANGE = 12.0


class Shape(StrEnum):
    """The template's shape."""

    CIRCLE = "circle"
    DROPLET = "droplet"
    LINE = "line"
    BEAM = "beam"
    ARC = "arc"


class Placement(StrEnum):
    """Where the template is laid (the Mode texts)."""

    IN_RANGE = "in range"  # fully inside Weapon Range (Blast, Explode, Wall)
    EDGE_IN_RANGE = "edge in range"  # one edge inside Weapon Range (Cone)
    WIELDER = "wielder"  # over the centre of the Wielder's model (Nova)
    FROM_WIELDER = "from wielder"  # from the Wielder towards the Target (Beam, Diffuse)


@dataclass(frozen=True, slots=True)
class Template:
    """A Mode rank's template, as its row in ``data/effects.json`` gives it."""

    shape: Shape
    size: float = 0.0  # diameter (circle) or length (droplet, line); beam/arc: Weapon Range
    placement: Placement = Placement.IN_RANGE
    scatter: int = 0  # D6 rolled for a Scatter Arrow's distance (Blast: 2); 0: none
    enemies_only: bool = False  # Nova counts enemy models only
    centres: bool = False  # Nova: a model counts when its centre is inside the template
    per_model: bool = True  # Attack Dice = models under x Attacks (Beam I: the profile's dice)
    onward: bool = False  # Beam: strikes unit after unit while it causes HP Loss
    fire_point: str = "D6"  # Attack Dice (x Attacks) against occupants through a Fire Point


def template_from(data: Any, where: str) -> Template:
    """Read a row's ``template`` mapping; raises ``ValueError`` naming the bad field."""
    if not isinstance(data, dict):
        raise ValueError(f"{where}: template must be a mapping, not {data!r}")
    known = set(Template.__dataclass_fields__)
    extra = set(data) - known
    if extra:
        raise ValueError(
            f"{where}: unknown template fields {sorted(extra)}; known: {sorted(known)}"
        )
    shape = Shape(data["shape"])
    placement = Placement(data.get("placement", Placement.IN_RANGE))
    size = float(data.get("size", 0))
    if shape in (Shape.CIRCLE, Shape.DROPLET, Shape.LINE) and size <= 0:
        raise ValueError(f"{where}: a {shape} template needs a size in inches")
    return Template(
        shape=shape,
        size=size,
        placement=placement,
        scatter=int(data.get("scatter", 0)),
        enemies_only=bool(data.get("enemies_only", False)),
        centres=bool(data.get("centres", False)),
        per_model=bool(data.get("per_model", True)),
        onward=bool(data.get("onward", False)),
        fire_point=str(data.get("fire_point", "D6")),
    )


@dataclass(frozen=True, slots=True)
class TemplateAt:
    """A template laid on the Battlefield: its ``origin`` (a circle's centre, the narrow end of
    a droplet or V, a line's middle, a Beam's start) and unit ``heading`` (towards the Target;
    a Wall lies across it), with ``length`` (a Beam's or V's reach)."""

    template: Template
    origin: tuple[float, float]
    heading: tuple[float, float] = (0.0, 1.0)
    length: float = 0.0

    def moved(self, dx: float, dy: float) -> TemplateAt:
        """The template after a Scatter of (dx, dy) inches."""
        return TemplateAt(
            self.template, (self.origin[0] + dx, self.origin[1] + dy), self.heading, self.length
        )

    def polygon(self) -> FloatArray:
        """The template's outline (droplet, V) as an ``(n, 2)`` array; a line's two ends."""
        t = self.template
        ox, oy = self.origin
        hx, hy = self.heading
        px, py = -hy, hx  # across the heading
        if t.shape is Shape.DROPLET:
            half = t.size * DROPLET_WIDTH / 2
            return np.array(
                [
                    (ox, oy),
                    (ox + hx * t.size + px * half, oy + hy * t.size + py * half),
                    (ox + hx * t.size - px * half, oy + hy * t.size - py * half),
                ]
            )
        if t.shape is Shape.ARC:
            reach = self.length
            c = math.cos(math.radians(ARC_DEGREES / 2))
            s = math.sin(math.radians(ARC_DEGREES / 2))
            side = reach  # "measuring to maximum Range at both ends of the V"
            a = (hx * c - hy * s, hx * s + hy * c)
            b = (hx * c + hy * s, -hx * s + hy * c)
            return np.array(
                [
                    (ox, oy),
                    (ox + a[0] * side, oy + a[1] * side),
                    (ox + b[0] * side, oy + b[1] * side),
                ]
            )
        if t.shape is Shape.LINE:
            half = t.size / 2
            return np.array([(ox - px * half, oy - py * half), (ox + px * half, oy + py * half)])
        if t.shape is Shape.BEAM:
            return np.array([(ox, oy), (ox + hx * self.length, oy + hy * self.length)])
        return np.array([(ox, oy)])


def _segment_distance(a: FloatArray, b: FloatArray, c: FloatArray) -> FloatArray:
    """Distances from points ``c`` (n, 2) to the segment a-b."""
    ab = b - a
    denom = float(ab @ ab)
    if denom == 0:
        return np.asarray(np.hypot(*(c - a).T), dtype=np.float64)
    t = np.clip(((c - a) @ ab) / denom, 0.0, 1.0)
    proj = a + t[:, None] * ab
    return np.asarray(np.hypot(*(c - proj).T), dtype=np.float64)


def _inside_convex(poly: FloatArray, c: FloatArray) -> npt.NDArray[np.bool_]:
    """Whether points ``c`` are inside the convex polygon ``poly`` (either winding)."""
    n = len(poly)
    signs = []
    for k in range(n):
        a, b = poly[k], poly[(k + 1) % n]
        signs.append((b[0] - a[0]) * (c[:, 1] - a[1]) - (b[1] - a[1]) * (c[:, 0] - a[0]))
    s = np.array(signs)
    return np.asarray((s >= 0).all(axis=0) | (s <= 0).all(axis=0))


def under(at: TemplateAt, xy: FloatArray, radius: float) -> npt.NDArray[np.bool_]:
    """Which models (centres ``xy``, base ``radius``) are under the template: their base
    touches it (Nova: their centre is inside it)."""
    pts = np.asarray(xy, dtype=np.float64).reshape(-1, 2)
    if not len(pts):
        return np.zeros(0, dtype=bool)
    t = at.template
    origin = np.asarray(at.origin, dtype=np.float64)
    if t.shape is Shape.CIRCLE:
        d = np.hypot(*(pts - origin).T)
        reach = t.size / 2 + (0.0 if t.centres else radius)
        return np.asarray(d <= reach + 1e-9)
    poly = at.polygon()
    if t.shape in (Shape.LINE, Shape.BEAM):
        d = _segment_distance(poly[0], poly[1], pts)
        return np.asarray(d <= radius + LINE_WIDTH / 2 + 1e-9)
    inside = _inside_convex(poly, pts)
    if t.shape is Shape.ARC:
        # Diffuse: models inside the arc and within its Range of the Wielder's centre
        d = np.hypot(*(pts - origin).T)
        return np.asarray(inside & (d <= at.length + 1e-9))
    near = np.zeros(len(pts), dtype=bool)
    for k in range(len(poly)):
        near |= _segment_distance(poly[k], poly[(k + 1) % len(poly)], pts) <= radius + 1e-9
    if t.shape is Shape.DROPLET:  # the droplet's round far end
        cap = (poly[1] + poly[2]) / 2
        half = t.size * DROPLET_WIDTH / 2
        near |= np.hypot(*(pts - cap).T) <= half + radius + 1e-9
    return np.asarray(inside | near)


#: The Mode ranks that lay a template (rank → its line), for tests and the docs.
MODE_RANKS: dict[str, int] = {
    "Beam I": 3295,
    "Beam II": 3309,
    "Blast I": 3321,
    "Blast II": 3337,
    "Blast III": 3345,
    "Cone I": 3377,
    "Cone II": 3389,
    "Diffuse": 3393,
    "Explode I": 3413,
    "Explode II": 3423,
    "Explode III": 3429,
    "Nova I": 3463,
    "Nova II": 3473,
    "Nova III": 3477,
    "Wall I": 3549,
    "Wall II": 3559,
    "Wall III": 3563,
}
