"""Special Powers that change the battlefield during a game (004_f4ea5693af0644ce.txt):
Battering Waves (L1033), Remove Earthen Barrier (L1189), Wall of Air (L1321), Wall of Fire
(L1327) and Wall of Spewing Filth (L1333).

A changed board is a **derived set-up key**: the state's ``setup_key`` is the set-up's key
followed by one token a change (``…+B3@12,4``: Battering Waves on piece 3 at (12, 4);
``…+F7@20,24/20,18``: figure 7's Wall of Fire centred at (20, 24), made from (20, 18)).
:func:`.setup.context` builds a derived key's context once (the set-up's, with a
:class:`.board.Field` over the changed board, :func:`derive`), so sight, cover, moves and
objectives see the change with no other code touched, and a game without these powers keeps
its key and its digests. The changes are ordered: the lasting ones (B, R) first, each naming
a piece of the board the earlier ones left; the walls (A, F, S) after them, appended to the
terrain in order (:func:`walls`), so a wall's end never renumbers a piece.

What the board cannot say is read here: a Wall of Air deflects ranged attacks but not sight
or powers (:func:`deflected`), a Wall of Fire attacks a figure moving through it with 5k4
(:func:`burn`), walls end with their user (:func:`expire`, :func:`end_walls`) and the Wall of
Spewing Filth in the Follow Up step (:func:`follow_up`). Readings: docs/rulings.md, "The
WarEngine 2.1 game: session 25, s25-we-terrain".
"""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from warbench.kernel.dice import Dice
from warbench.play.core import Event
from warbench.rulesets.warengine.game import setup as stp
from warbench.rulesets.warengine.game.board import ENTRENCHING, HEAVY, LIGHT, NO_COVER, Field
from warbench.rulesets.warengine.game.board import Piece as FieldPiece
from warbench.rulesets.warengine.game.measure import (
    blockers_for,
    in_close_combat,
    nearest_enemy,
    on_table,
)
from warbench.rulesets.warengine.game.state import Fig, GameState, rule

#: The powers and their change kinds.
KINDS = {
    "Battering Waves": "B",
    "Remove Earthen Barrier": "R",
    "Wall of Air": "A",
    "Wall of Fire": "F",
    "Wall of Spewing Filth": "S",
}
NAMES = {k: n for n, k in KINDS.items()}
LINES = {"B": 1033, "R": 1189, "A": 1321, "F": 1327, "S": 1333}
#: Wall sizes (length, depth) in inches: L1321, L1327 (12" by 1"), L1333 (a 6"x2" marker).
WALL = {"A": (12.0, 1.0), "F": (12.0, 1.0), "S": (6.0, 2.0)}
#: The area Battering Waves reduces and the piece Remove Earthen Barrier removes (L1033, L1189).
SECTION = (6.0, 2.0)
#: Words of a piece's name that say it is stone, rock, dirt or another earthen material
#: (L1189; the board format has no material: docs/rulings.md, session 25 s25-we-terrain 3).
EARTHEN = (
    "rock",
    "stone",
    "rubble",
    "ruin",
    "wall",
    "bunker",
    "sandbag",
    "outcrop",
    "boulder",
    "cliff",
    "earth",
    "dirt",
    "mound",
    "hill",
    "berm",
    "trench",
    "brick",
    "concrete",
    "statue",
    "crater",
)
FIRE = "5k4"  # L1327
EPS = 1e-6
#: A user further than this from where it made its wall has moved (the key keeps thousandths).
MOVED = 2e-3


@dataclass(frozen=True)
class Change:
    """One change of the board: ``kind`` (B, R, A, F, S), ``ref`` (the piece for B and R, the
    user for a wall), the point named and, for a wall, where its user stood when it made it."""

    kind: str
    ref: int
    x: float
    y: float
    ux: float = 0.0
    uy: float = 0.0

    @property
    def wall(self) -> bool:
        """A wall (added terrain) rather than a lasting change of a piece."""
        return self.kind in WALL

    def token(self) -> str:
        """The change as it is written in a derived key."""
        text = f"{self.kind}{self.ref}@{_num(self.x)},{_num(self.y)}"
        return text + (f"/{_num(self.ux)},{_num(self.uy)}" if self.wall else "")


def _num(v: float) -> str:
    return f"{round(v, 3):g}"


@lru_cache(maxsize=4096)
def parse(key: str) -> tuple[str, tuple[Change, ...]]:
    """The set-up's key and the changes a (derived) key names."""
    base, *tokens = key.split("+")
    out: list[Change] = []
    for tok in tokens:
        head, _, rest = tok.partition("@")
        point, _, user = rest.partition("/")
        x, y = (float(v) for v in point.split(","))
        ux, uy = (float(v) for v in user.split(",")) if user else (0.0, 0.0)
        out.append(Change(head[0], int(head[1:]), x, y, ux, uy))
    return base, tuple(out)


def compose(base: str, changes: tuple[Change, ...] | list[Change]) -> str:
    """The key of the set-up ``base`` with ``changes`` (lasting ones first, in order)."""
    ordered = [c for c in changes if not c.wall] + [c for c in changes if c.wall]
    return "".join([base, *("+" + c.token() for c in ordered)])


# --------------------------------------------------------------------------------------------
# The changed board
# --------------------------------------------------------------------------------------------


#: The contexts of derived keys, the most recently used kept (each change of a wall is a new
#: key, so a long run makes many; a dropped one is rebuilt from its key, about 5 ms).
_DERIVED: OrderedDict[str, stp.Context] = OrderedDict()
KEEP = 256


def derive(key: str, args: Any = None) -> stp.Context:
    """The context of a derived key: the set-up's with a field over the changed board."""
    ctx = _DERIVED.get(key)
    if ctx is not None:
        _DERIVED.move_to_end(key)
        return ctx
    base_key, changes = parse(key)
    base = stp.context(base_key, args)
    ctx = replace(base, key=key, field=Field(changed_board(base.field.board, changes)))
    _DERIVED[key] = ctx
    if len(_DERIVED) > KEEP:
        _DERIVED.popitem(last=False)
    return ctx


def changed_board(board: Any, changes: tuple[Change, ...]) -> Any:
    """``board`` with the changes made (a new validated WARSURGE board)."""
    from warbench.rulesets.warsurge.battlefield import Board

    terrain = list(board.terrain)
    for c in changes:
        if not c.wall:
            terrain = _change_piece(terrain, c)
    taken = {t.name for t in terrain}
    for c in changes:
        if c.wall:
            terrain.append(_wall_piece(board, c, taken))
    data = board.model_dump(mode="json")
    data["terrain"] = [t.model_dump(mode="json") for t in terrain]
    return Board.model_validate(data)


def _unique(name: str, taken: set[str]) -> str:
    out, k = name, 2
    while out in taken:
        out, k = f"{name} {k}", k + 1
    taken.add(out)
    return out


def _wall_piece(board: Any, c: Change, taken: set[str]) -> Any:
    from warbench.rulesets.warsurge.battlefield.model import Terrain

    poly = wall_polygon(c.kind, (c.x, c.y), (c.ux, c.uy), board.width, board.height)
    return Terrain(
        name=_unique(f"{NAMES[c.kind]} #{c.ref}", taken),
        polygon=_coords(poly),
        impassable=c.kind == "A",  # L1321: figures may not move through
        blocks_los=c.kind in ("F", "S"),  # L1327, L1333
    )


def wall_polygon(
    kind: str, at: tuple[float, float], user: tuple[float, float], width: float, height: float
) -> Any:
    """A wall centred at ``at``, its long side square to the line from its user (the wall
    faces the user, docs/rulings.md), cut to the table."""
    from shapely import box

    length, depth = WALL[kind]
    dx, dy = at[0] - user[0], at[1] - user[1]
    d = math.hypot(dx, dy) or 1.0
    return _rect(at, (-dy / d, dx / d), length, depth).intersection(box(0, 0, width, height))


def _rect(c: tuple[float, float], axis: tuple[float, float], length: float, depth: float) -> Any:
    from shapely import Polygon

    ax, ay = axis
    px, py = -ay, ax
    hl, hd = length / 2, depth / 2
    return Polygon(
        [
            (c[0] + s * ax * hl + t * px * hd, c[1] + s * ay * hl + t * py * hd)
            for s, t in ((-1, -1), (1, -1), (1, 1), (-1, 1))
        ]
    )


def _coords(poly: Any) -> list[tuple[float, float]]:
    pts = [(round(x, 3), round(y, 3)) for x, y in list(poly.exterior.coords)[:-1]]
    return pts


def section(poly: Any, at: tuple[float, float]) -> Any:
    """The 6" by 2" area centred at ``at`` along the piece's long side (its smallest
    bounding rectangle's longer side, docs/rulings.md)."""
    mrr = poly.minimum_rotated_rectangle
    pts = list(mrr.exterior.coords)
    e1 = (pts[1][0] - pts[0][0], pts[1][1] - pts[0][1])
    e2 = (pts[2][0] - pts[1][0], pts[2][1] - pts[1][1])
    e = e1 if math.hypot(*e1) >= math.hypot(*e2) else e2
    n = math.hypot(*e) or 1.0
    return _rect(at, (e[0] / n, e[1] / n), *SECTION)


def fits(poly: Any) -> bool:
    """Whether the piece is no greater than 6" by 2" (L1033, L1189)."""
    pts = list(poly.minimum_rotated_rectangle.exterior.coords)
    sides = sorted(math.hypot(pts[i + 1][0] - pts[i][0], pts[i + 1][1] - pts[i][1]) for i in (0, 1))
    return sides[0] <= SECTION[1] + EPS and sides[1] <= SECTION[0] + EPS


def _parts(geom: Any, cut: Any) -> list[Any]:
    """The simple polygons of ``geom`` (a hole is cut open along ``cut``), tiny slivers off."""
    from shapely import set_precision
    from shapely.ops import split

    out: list[Any] = []
    todo = [set_precision(geom, 0.001)]
    while todo:
        g = todo.pop(0)
        if g.is_empty:
            continue
        if g.geom_type in ("MultiPolygon", "GeometryCollection"):
            todo.extend(g.geoms)
        elif g.geom_type == "Polygon" and g.area > 1e-3:
            if g.interiors:
                todo.extend(split(g, cut).geoms)
            else:
                out.append(g)
    return sorted(out, key=lambda p: (-p.area, p.bounds))


def _change_piece(terrain: list[Any], c: Change) -> list[Any]:
    from shapely import LineString, Polygon

    t = terrain[c.ref]
    poly = Polygon(t.polygon)
    taken = {x.name for k, x in enumerate(terrain) if k != c.ref}
    if fits(poly):
        keep: list[Any] = []
        hit = [poly]
    else:
        rect = section(poly, (c.x, c.y))
        pts = list(rect.exterior.coords)
        mid = ((pts[0][0] + pts[1][0]) / 2, (pts[0][1] + pts[1][1]) / 2)
        far = (2 * c.x - mid[0], 2 * c.y - mid[1])
        dx, dy = far[0] - mid[0], far[1] - mid[1]
        cut = LineString(
            [(mid[0] - 100 * dx, mid[1] - 100 * dy), (far[0] + 100 * dx, far[1] + 100 * dy)]
        )
        keep = _parts(poly.difference(rect), cut)
        hit = _parts(poly.intersection(rect), cut)
    new: list[Any] = []
    for k, p in enumerate(keep):
        name = t.name if k == 0 else _unique(f"{t.name} ({k + 1})", taken)
        new.append(t.model_copy(update={"name": name, "polygon": _coords(p)}))
    if c.kind == "R" or _level_of(t) == LIGHT:  # removed; light cover is destroyed (L1033)
        if not keep:  # its footprint stays, with no effect (objectives name it)
            new.append(t.destroyed())
    else:
        for k, p in enumerate(hit):
            name = t.name if not keep and k == 0 else _unique(f"{t.name} (battered)", taken)
            new.append(_reduced(t).model_copy(update={"name": name, "polygon": _coords(p)}))
    return terrain[: c.ref] + new + terrain[c.ref + 1 :]


def _level_of(t: Any) -> int:
    from warbench.rulesets.warengine.game.board import _level

    return _level(int(t.cover), bool(t.blocks_los))


def _reduced(t: Any) -> Any:
    """Entrenching cover becomes heavy, heavy becomes light (L1033); a piece that becomes
    light no longer blocks sight (docs/rulings.md)."""
    if _level_of(t) == ENTRENCHING:
        return t.model_copy(update={"cover": HEAVY})
    return t.model_copy(update={"cover": LIGHT, "blocks_los": False})


def board_data(ctx: stp.Context) -> dict[str, Any]:
    """The changed board as board data (the view's ``board``, for drawing it)."""
    data: dict[str, Any] = ctx.field.board.model_dump(mode="json", exclude_defaults=True)
    return data


# --------------------------------------------------------------------------------------------
# Using the powers
# --------------------------------------------------------------------------------------------


def walls(ctx: stp.Context) -> list[tuple[Change, FieldPiece]]:
    """The walls on the board of ``ctx`` and their pieces."""
    if "+" not in ctx.key:
        return []
    ws = [c for c in parse(ctx.key)[1] if c.wall]
    n = len(ctx.field.pieces) - len(ws)
    return [(c, ctx.field.pieces[n + k]) for k, c in enumerate(ws)]


def _wall_indices(ctx: stp.Context) -> set[int]:
    return {p.index for _, p in walls(ctx)}


def earthen(name: str) -> bool:
    """Whether a piece models stone, rock, dirt or another earthen material (L1189), read
    from its name (docs/rulings.md)."""
    low = name.lower()
    return any(w in low for w in EARTHEN)


def target_piece(ctx: stp.Context, kind: str, at: tuple[float, float]) -> FieldPiece | None:
    """The piece holding ``at`` that the power may change: cover-producing scenery for
    Battering Waves (L1033), an earthen piece for Remove Earthen Barrier (L1189); walls made
    by powers are not scenery. The first such piece the board lists."""
    skip = _wall_indices(ctx)
    for p in ctx.field.pieces_at(*at):
        if p.index in skip:
            continue
        if kind == "B" and p.level > NO_COVER:
            return p
        if kind == "R" and earthen(p.name) and (p.level > NO_COVER or p.impassable):
            return p
    return None


def at_refusal(
    state: GameState, ctx: stp.Context, f: Fig, w: stp.WeaponProfile, at: tuple[float, float]
) -> str | None:
    """Why the power may not be used at ``at``: the point within the power's Range of the
    user and in its sight; a piece it may change there (B, R), or room for the wall on the
    table, overlapping no figure (L1321, L1327; the Spewing Filth's marker as well)."""
    kind = KINDS[str(w.power)]
    x, y = at
    if not (math.isfinite(x) and math.isfinite(y)):
        return "name a finite point"
    if not (0 <= x <= ctx.field.width and 0 <= y <= ctx.field.height):
        return f"({x:g}, {y:g}) is off the table"
    rng = w.range if w.range is not None else 0.0
    if math.hypot(x - f.x, y - f.y) - ctx.profiles[f.id].radius > rng + 1e-9:
        return f"({x:g}, {y:g}) is beyond the power's {rng:g}\" Range"
    why = _place_refusal(state, ctx, f, kind, at)
    if why is None and not ctx.field.sight((f.x, f.y), (x, y), blockers_for(state, ctx, f.id)):
        why = f"the user has no line of sight to ({x:g}, {y:g})"  # asked last: the costliest
    return why


def _place_refusal(
    state: GameState, ctx: stp.Context, f: Fig, kind: str, at: tuple[float, float]
) -> str | None:
    x, y = at
    if kind in ("B", "R"):
        if target_piece(ctx, kind, at) is None:
            what = "cover-producing scenery" if kind == "B" else "an earthen piece of terrain"
            return f"({x:g}, {y:g}) is not on {what}"
        return None
    if math.hypot(x - f.x, y - f.y) < EPS:
        return "the wall may not be centred on its user"
    length, depth = WALL[kind]
    dx, dy = x - f.x, y - f.y
    d = math.hypot(dx, dy)
    ax, ay = -dy / d, dx / d  # the wall's long side (as wall_polygon)
    for g in state.figs:
        if not on_table(g):
            continue
        # the distance from the figure's centre to the wall, in the wall's own frame (the
        # part of a wall cut off at the table's edge touches no base on the table)
        gx, gy = g.x - x, g.y - y
        u = max(abs(gx * ax + gy * ay) - length / 2, 0.0)
        v = max(abs(gx * dx / d + gy * dy / d) - depth / 2, 0.0)
        if math.hypot(u, v) < ctx.profiles[g.id].radius - EPS:
            return f"the wall would overlap {ctx.profiles[g.id].name} #{g.id}"
    return None


def default_point(
    state: GameState, ctx: stp.Context, f: Fig, w: stp.WeaponProfile
) -> tuple[float, float] | None:
    """The engine's choice of the point: a wall across the line to the nearest enemy, as
    far out as half the way and the power's Range allow (nearer if that place is taken);
    Battering Waves and Remove Earthen Barrier on the piece the power may change nearest the
    nearest enemy (where it would take cover). ``None``: no place."""
    foe = nearest_enemy(state, ctx, f)
    if foe is None:
        return None
    kind = KINDS[str(w.power)]
    if kind in WALL:
        d = math.hypot(foe.x - f.x, foe.y - f.y)
        if d < EPS:
            return None
        rng = (w.range if w.range is not None else 0.0) + ctx.profiles[f.id].radius
        k = min(rng, d / 2)
        while k >= 1.0:
            pt = (round(f.x + (foe.x - f.x) / d * k, 3), round(f.y + (foe.y - f.y) / d * k, 3))
            if at_refusal(state, ctx, f, w, pt) is None:
                return pt
            k -= 0.5
        return None
    best = sorted(
        (math.hypot(pt[0] - foe.x, pt[1] - foe.y), pt) for pt in piece_points(state, ctx, f, w)
    )
    return best[0][1] if best else None


def piece_points(
    state: GameState, ctx: stp.Context, f: Fig, w: stp.WeaponProfile
) -> list[tuple[float, float]]:
    """A point on each piece Battering Waves or Remove Earthen Barrier may change from
    where the user stands (for the listed choices and the engine's)."""
    kind = KINDS[str(w.power)]
    pts = _piece_points(ctx.key, kind)
    rng = (w.range if w.range is not None else 0.0) + ctx.profiles[f.id].radius + 1e-9
    near = [pt for pt in pts if math.hypot(pt[0] - f.x, pt[1] - f.y) <= rng]
    ctx.field.sight_many((f.x, f.y), near, blockers_for(state, ctx, f.id))  # asked at once
    return [pt for pt in near if at_refusal(state, ctx, f, w, pt) is None]


@lru_cache(maxsize=1024)
def _piece_points(key: str, kind: str) -> tuple[tuple[float, float], ...]:
    """A point inside each piece of the board of ``key`` that the power may change (the
    board's alone: computed once a board)."""
    from shapely import Polygon

    ctx = stp.context(key)
    out: list[tuple[float, float]] = []
    skip = _wall_indices(ctx)
    for p in ctx.field.pieces:
        if p.index in skip:
            continue
        rp = Polygon(ctx.field.board.terrain[p.index].polygon).representative_point()
        pt = (round(rp.x, 3), round(rp.y, 3))
        hit = target_piece(ctx, kind, pt)
        if hit is not None and hit.index == p.index:
            out.append(pt)
    return tuple(out)


def choices(
    state: GameState, ctx: stp.Context, f: Fig, w: stp.WeaponProfile
) -> list[tuple[float, float]]:
    """The listed points of a power's ``Attack.at``: eight walls around the user, 3" out
    (square to each compass direction), or a point on each piece it may change."""
    kind = KINDS[str(w.power)]
    if kind not in WALL:
        return piece_points(state, ctx, f, w)
    r = ctx.profiles[f.id].radius + 3.0
    pts = [
        (
            round(f.x + r * math.cos(k * math.pi / 4), 3),
            round(f.y + r * math.sin(k * math.pi / 4), 3),
        )
        for k in range(8)
    ]
    ctx.field.sight_many((f.x, f.y), pts, blockers_for(state, ctx, f.id))  # asked at once
    return [pt for pt in pts if at_refusal(state, ctx, f, w, pt) is None]


def use(
    state: GameState,
    ctx: stp.Context,
    f: Fig,
    w: stp.WeaponProfile,
    at: tuple[float, float] | None,
    events: list[Event],
) -> None:
    """A successful power changes the board at ``at`` (else the engine's point)."""
    kind = KINDS[str(w.power)]
    line = rule(LINES[kind])
    cur = stp.context(state.setup_key)
    pt = at if at is not None else default_point(state, cur, f, w)
    if pt is not None:  # as the key will hold it
        pt = (round(pt[0], 3), round(pt[1], 3))
    if pt is None or at_refusal(state, cur, f, w, pt) is not None:
        events.append(Event("terrain", f"{w.power}: no place to use it", line))
        return
    base, changes = parse(state.setup_key)
    if kind in WALL:
        c = Change(kind, f.id, pt[0], pt[1], f.x, f.y)
        what = f"{NAMES[kind]} stands at ({pt[0]:g}, {pt[1]:g})"
    else:
        piece = target_piece(cur, kind, pt)
        assert piece is not None
        c = Change(kind, piece.index, pt[0], pt[1])
        verb = "reduces" if kind == "B" else "removes"
        what = f"{NAMES[kind]} {verb} {piece.name} at ({pt[0]:g}, {pt[1]:g})"
    state.setup_key = compose(base, (*changes, c))
    events.append(Event("terrain", what, line, {"key": state.setup_key}))


# --------------------------------------------------------------------------------------------
# Walls in play
# --------------------------------------------------------------------------------------------


def deflected(ctx: stp.Context, a: Fig, t: Fig) -> str | None:
    """The Wall of Air a ranged attack from ``a`` to ``t`` would pass through (L1321:
    powers may still be targeted through it), or ``None``."""
    for c, p in walls(ctx):
        if c.kind == "A" and ctx.field.crosses(p, (a.x, a.y), (t.x, t.y)):
            return p.name
    return None


def burn(
    state: GameState,
    ctx: stp.Context,
    f: Fig,
    a: tuple[float, float],
    dice: Dice,
    events: list[Event],
) -> bool:
    """A figure that moved from ``a`` to where it stands through a Wall of Fire is attacked
    by it with 5k4 (L1327) against its Defense (docs/rulings.md), queued for Hero Points
    (L493) with the wall's user as the attacker. Whether an attack was queued."""
    if "+" not in state.setup_key:
        return False
    from warbench.rulesets.warengine.dice import XkY, attack_faces, roll_xky
    from warbench.rulesets.warengine.game.attacks import defense_pool
    from warbench.rulesets.warengine.game.state import Resolution

    cur = stp.context(state.setup_key)
    hit = False
    for c, p in walls(cur):
        if c.kind != "F" or not on_table(f) or not cur.field.crosses(p, a, (f.x, f.y)):
            continue
        if cur.field.inside(p, *a):  # burnt on the way in (docs/rulings.md)
            continue
        user = state.figs[c.ref]
        pool = XkY.parse(FIRE)
        plain = stp.WeaponProfile(-1, "Wall of Fire", None, pool, 1, None, None, (), ())
        roll = roll_xky(dice, pool, attack_faces(), "Wall of Fire")
        dpool, dfaces, _ = defense_pool(state, cur, user, plain, f, basic=True)
        dr = roll_xky(dice, dpool, dfaces, f"{cur.profiles[f.id].name} #{f.id} defends")
        events.append(
            Event(
                "terrain",
                f"{p.name} burns {cur.profiles[f.id].name} #{f.id} moving through it: "
                f"{roll.total} against {dr.total}",
                rule(1327),
            )
        )
        state.queue.append(Resolution(user.id, -1, "Wall of Fire", roll.total, [[f.id, dr.total]]))
        hit = True
    return hit


def _drop(state: GameState, gone: list[Change], events: list[Event], why: str) -> None:
    if not gone:
        return
    base, changes = parse(state.setup_key)
    state.setup_key = compose(base, [c for c in changes if c not in gone])
    for c in gone:
        events.append(
            Event("terrain", f"the {NAMES[c.kind]} of #{c.ref} ends ({why})", rule(LINES[c.kind]))
        )


def expire(state: GameState, events: list[Event]) -> None:
    """Walls of Air and Fire end when their user is destroyed, routed, engaged in close
    combat or moves (L1321, L1327): any change of its place ends it (docs/rulings.md)."""
    if "+" not in state.setup_key:
        return
    base, changes = parse(state.setup_key)
    ctx = stp.context(base)
    for c in changes:
        why = _ended(state, ctx, c) if c.kind in ("A", "F") else None
        if why is not None:
            _drop(state, [c], events, why)


def _ended(state: GameState, ctx: stp.Context, c: Change) -> str | None:
    u = state.figs[c.ref]
    if not on_table(u) or u.routed:
        return "its user is gone"
    if abs(u.x - c.ux) > MOVED or abs(u.y - c.uy) > MOVED:
        return "its user moved"
    if in_close_combat(state, ctx, u):
        return "its user is in close combat"
    return None


def end_walls(state: GameState, fid: int, events: list[Event]) -> None:
    """The user fires a ranged weapon: its Walls of Air and Fire end (L1321, L1327)."""
    if "+" not in state.setup_key:
        return
    gone = [c for c in parse(state.setup_key)[1] if c.kind in ("A", "F") and c.ref == fid]
    _drop(state, gone, events, "its user fires a ranged weapon")


def follow_up(state: GameState, events: list[Event]) -> None:
    """The Wall of Spewing Filth is removed in the Follow Up step (L1333)."""
    if "+" not in state.setup_key:
        return
    gone = [c for c in parse(state.setup_key)[1] if c.kind == "S"]
    _drop(state, gone, events, "the Follow Up step")
