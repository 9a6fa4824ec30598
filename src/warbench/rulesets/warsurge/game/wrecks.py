"""A destroyed Transport's survivors (Core Rules 001_d3f5e425c5e1196d.txt §6.6, L3412-3425).

"After applying damage to passengers and removing the Transport as a casualty, place surviving
models where the Transport model once was. After the Transport's original area is filled,
models are placed in a circular fashion around the other models. If models (friend or foe)
completely surround the site of the removed Transport, any models that cannot be placed are to
be removed as casualties with no Saves permitted."

:func:`survivor_spots` is the engine's placement (the site's centres, then rings around them);
:func:`verify_survivors` checks a player's :class:`~.actions.Survivors` (the decision
``"survivors"``, asked when ``Automation.MODEL_PLACEMENT`` is off). What happens once the
models stand (the unit destroyed when none could be placed, its Coherency, new Melees) is
:mod:`.casualties`'.

§10.3 (L4470-4472): "Units may be inside or on top of a terrain when it is destroyed. When this
occurs, treat it as per the Transport rules listed in Section 6.6. Units are unharmed". The
units inside a destroyed piece leave it as from a wreck (:func:`terrain_wrecks`): the piece's
footprint is the site (filled first, from its middle out), then rings around its outline.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import shapely

from warbench.rulesets.warsurge.battlefield import Board
from warbench.rulesets.warsurge.game import geom
from warbench.rulesets.warsurge.game.actions import Point, Survivors
from warbench.rulesets.warsurge.game.coherency import problem_positions, spot_clear
from warbench.rulesets.warsurge.game.pauses import Wreck
from warbench.rulesets.warsurge.game.terrain_split import piece_of, survivors_of
from warbench.rulesets.warsurge.game.work import Work, err

#: the spacing of a destroyed piece's site grid, inches (each point covers the disc of
#: radius ``TERRAIN_STEP / sqrt(2)``, so the discs cover the footprint)
TERRAIN_STEP = 1.0


def terrain_site(board: Board, name: str) -> tuple[tuple[Point, ...], float]:
    """The site of the destroyed piece ``name`` (§10.3 with §6.6 "where the Transport model
    once was"): a grid of points ``TERRAIN_STEP`` apart over its footprint (at least its middle),
    and the radius of the disc each covers."""
    poly = shapely.Polygon(board.terrain_named(name).polygon)
    x0, y0, x1, y1 = poly.bounds
    xs = np.arange(x0 + TERRAIN_STEP / 2, x1, TERRAIN_STEP)
    ys = np.arange(y0 + TERRAIN_STEP / 2, y1, TERRAIN_STEP)
    gx, gy = np.meshgrid(xs, ys)
    inside = shapely.contains_xy(poly, gx.ravel(), gy.ravel())
    pts = [
        (float(x), float(y)) for x, y in zip(gx.ravel()[inside], gy.ravel()[inside], strict=True)
    ]
    mid = poly.representative_point()
    if not pts:
        pts = [(float(mid.x), float(mid.y))]
    pts.sort(key=lambda p: (math.dist(p, (mid.x, mid.y)), p))
    return tuple(pts), TERRAIN_STEP / math.sqrt(2)


def terrain_wrecks(w: Work) -> list[Wreck]:
    """The units inside a destroyed terrain piece, each as a wreck to leave (§10.3 L4470-4472
    with §6.6), in unit order."""
    out: list[Wreck] = []
    for u in w.units:
        if (name := piece_of(u)) and w.terrain_hp.get(name) == 0:  # split units too (L4460)
            site, site_r = terrain_site(w.setup.field.board, name)
            out.append(Wreck(u.uid, site, site_r, name))
    return out


def _terrain_spots(w: Work, piece: str, site: Sequence[Point], r: float, n: int) -> list[Point]:
    """The destroyed piece's footprint first (its grid, middle out), then rings ever farther
    around its outline (§6.6 "placed in a circular fashion around the other models")."""
    spots = list(site)
    poly = shapely.Polygon(w.setup.field.board.terrain_named(piece).polygon)
    for ring in range(1, 7):
        line = poly.buffer(r + (2 * r + 0.2) * (ring - 1) + 0.05, quad_segs=4).exterior
        count = max(8, int(line.length / (2 * r + 0.1)))
        for k in range(count):
            p = line.interpolate(k / count, normalized=True)
            spots.append((float(p.x), float(p.y)))
        if len(spots) >= len(site) + 6 * n + 6:
            break
    return spots


def survivor_spots(
    w: Work, uid: int, site: Sequence[Point], site_r: float, piece: str = ""
) -> dict[int, Point]:
    """The engine's placement of the unit's living models (§6.6): the centres of the site
    (the Transport's models) first, then rings inside its base and around it; a spot is taken
    when it is legal ground and overlaps no base. Models left out cannot be placed. Changes
    nothing. For a destroyed terrain piece (``piece``, §10.3) the spots are its footprint,
    then rings around it."""
    info = w.info(uid)
    u = w.units[uid]
    r = info.radius
    living = survivors_of(u)  # a split unit's models inside (L4460)
    taken: list[Point] = []
    t = w.table()
    oxy, orad = t.xy, t.r
    spots: list[Point] = _terrain_spots(w, piece, site, r, len(living)) if piece else []
    if piece and u.inside and u.present():  # a split unit: nearest its models outside first
        out = u.present_xy()
        near = [float(np.hypot(*(out - np.asarray(p)).T).min()) for p in spots[: len(site)]]
        order = sorted(range(len(near)), key=near.__getitem__)
        spots[: len(site)] = [spots[k] for k in order]
    for c in [] if piece else site:
        spots.append(c)
        ring = 1
        while len(spots) < 6 * len(living) + 6 and ring <= 6:
            rad = (
                max(0.0, site_r - r) * ring / 2
                if ring <= 2
                else site_r + (2 * r + 0.2) * (ring - 2)
            )
            count = max(6, int(2 * math.pi * max(rad, r) / (2 * r + 0.1)))
            spots.extend(geom.ring_points(c, rad, count))
            ring += 1
    placed: dict[int, Point] = {}
    for i in living:
        for s in spots:
            if not spot_clear(w, s, r, oxy, orad, taken):
                continue
            placed[i] = s
            taken.append(s)
            break
    return placed


def on_site(points: Sequence[Point], wreck: Wreck) -> int:
    """How many of these model centres stand where the Transport stood (inside the base of
    one of its models)."""
    if not points or not wreck.site:
        return 0
    d = np.sqrt(
        ((geom.as_array(points)[:, None, :] - geom.as_array(wreck.site)[None, :, :]) ** 2).sum(
            axis=2
        )
    )
    return int((d.min(axis=1) <= wreck.site_r + 1e-9).sum())


def verify_survivors(w: Work, action: Survivors, wreck: Wreck, engine: Survivors) -> None:
    """A player's placement of the survivors (§6.6), against the engine's own (``engine``):
    the waiting unit; each model lost is a living model, named once; one position for every
    other living model, each a legal spot (on the battlefield, off Impassable Ground,
    overlapping no base), the unit one coherent group (§4.2 IV: Coherency is never broken);
    no more models lost than the engine's placement loses (only models that cannot be placed
    are removed, L3420-3422) and at least as many standing where the Transport stood (its
    original area is filled first, L3415-3417; see docs/rulings.md)."""
    uid = wreck.unit
    label = w.label(uid)
    if action.unit != uid:
        raise err(f"{label} (unit {uid}) leaves the wreck now, not unit {action.unit}", "§6.6")
    living = survivors_of(w.units[uid])
    if len(set(action.lost)) != len(action.lost):
        raise err(f"a model of {label} is named lost twice", "§6.6")
    for m in action.lost:
        if m not in living:
            raise err(
                f"{label} has no living model {m}; its living models are "
                f"{', '.join(map(str, living))}",
                "§6.6",
            )
    models = [i for i in living if i not in action.lost]
    if len(action.positions) != len(models):
        raise err(
            f"{label} has {len(models)} living models to place ({len(living)} living, "
            f"{len(action.lost)} lost); {len(action.positions)} positions given",
            "§6.6",
        )
    if len(action.lost) > len(engine.lost):
        raise err(
            f"only models that cannot be placed are removed: {len(engine.lost)} of {label} "
            f"cannot be placed, {len(action.lost)} named lost",
            "§6.6",
        )
    if models:
        prob = problem_positions(w, uid, action.positions, models, None, None, False)
        if prob:
            raise err(*prob)
    need = on_site(engine.positions, wreck)
    got = on_site(action.positions, wreck)
    if got < need:
        raise err(
            f"the survivors fill the place where the Transport stood first: {need} models of "
            f"{label} fit there (the engine's placement), {got} placed there",
            "§6.6",
        )
