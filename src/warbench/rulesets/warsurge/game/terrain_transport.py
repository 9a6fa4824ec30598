"""Terrain used as a Transport: embarking a terrain piece, several players inside, leaving it.

Core Rules 001_d3f5e425c5e1196d.txt §10.2 B/C (L4383-4391: "Some scenery could even have the
ability to move, be embarked and have Weapons equipped ... Units could treat these terrain
features as a Transport (refer to Section 6)"), "Multiple Players Embarking Terrain"
(L4437-4447: units of different players inside count as engaged in a Melee), "Insufficient
Transport Capacity" (L4449-4460), §10.5 (connected terrain, gates) and §6.2-6.3 (embarking with
a Move or Dash, disembarking within the Move or Dash of the Transport).

A unit inside a piece is :attr:`~.state.Location.TERRAIN` with ``UnitGS.terrain`` naming the
piece: off the table (it blocks nothing and is not seen, §6.9 "occupants cannot be attacked"),
still on the battlefield for its value and Command Points. The piece's Transport Stat
(``Terrain.transport``, ``transport_unlimited``) bounds the points of the units inside. The
board's own rules (``Board.can_embark_at``, ``disembark_from``, ``gates_of``) say where a unit
may get in and out. The scripted player's melee units embark a piece that holds enemies
(docs/rulings.md, "WARSURGE terrain in play" 10).
"""

from __future__ import annotations

import math

import numpy as np
import shapely

from warbench.kernel.errors import UnknownNameError
from warbench.rulesets.warsurge.battlefield import Terrain
from warbench.rulesets.warsurge.game import geom
from warbench.rulesets.warsurge.game.actions import Disembark, EmbarkTerrain, Point
from warbench.rulesets.warsurge.game.coherency import full_positions, place_unit, problem_positions
from warbench.rulesets.warsurge.game.melee import engage_new_contacts
from warbench.rulesets.warsurge.game.movement import check_dash_flag, mover_models, unit_allowance
from warbench.rulesets.warsurge.game.plans import TerrainPlan
from warbench.rulesets.warsurge.game.state import Automation, GameState, Location
from warbench.rulesets.warsurge.game.work import Work, err

#: the rule every refusal here names
RULE = "§10.2 (L4383-4460)"


def occupants(units: GameState | Work, name: str) -> list[int]:
    """The units inside the terrain piece ``name``, by unit id."""
    us = units.units
    return [u.uid for u in us if u.location is Location.TERRAIN and u.terrain == name]


def same_piece(w: Work, a: int, b: int) -> bool:
    """Both units are inside the same terrain piece (so in Base Contact, L4441-4447)."""
    ua, ub = w.units[a], w.units[b]
    return (
        ua.location is Location.TERRAIN
        and ub.location is Location.TERRAIN
        and ua.terrain is not None
        and ua.terrain == ub.terrain
    )


def _piece(w: Work, name: str) -> Terrain:
    try:
        return w.field.board.terrain_named(name)
    except UnknownNameError:
        names = [t.name for t in w.field.board.terrain if t.embarkable]
        raise err(
            f"there is no terrain piece {name!r}; pieces with a Transport Stat: "
            f"{', '.join(names) or 'none'}",
            RULE,
        ) from None


def space_left(w: Work, name: str) -> float:
    """The Transport Capacity of the piece not taken by the units inside (``inf``: unlimited,
    §10.5 Example 1)."""
    piece = _piece(w, name)
    return piece.capacity - sum(w.info(o).points for o in occupants(w, name))


def _ways(w: Work, name: str, way: str) -> tuple[shapely.Polygon, list[Point]]:
    """Where a unit gets in (``way`` "embark") or out ("disembark") of a piece: its area (a
    model touching its edge), or only its gates when it has any (§10.5)."""
    piece = _piece(w, name)
    gates = w.field.board.gates_of(name, way)  # type: ignore[arg-type]
    poly = shapely.Polygon(piece.polygon)
    return poly, [] if gates is None else [(float(g.at[0]), float(g.at[1])) for g in gates]


def check_may_embark(w: Work, uid: int) -> None:
    """The unit can embark at all: on the battlefield (§6.2), not Immobile (§4.1 Immobile
    Units), not locked in a Melee (§4.4)."""
    info = w.info(uid)
    if w.units[uid].location is not Location.TABLE:
        raise err(f"{info.label} is not on the battlefield", "§6.2")
    if info.immobile:
        raise err(f"{info.label} is Immobile and cannot embark", "§4.1 Immobile Units")
    if w.engaged_with(uid):
        raise err(f"{info.label} is locked in a Melee", "§4.4")


def verify_embark_terrain(w: Work, action: EmbarkTerrain) -> TerrainPlan:
    """A unit on the battlefield embarks a terrain piece with a Move or Dash (§6.2 with
    §10.2): the piece has a Transport Stat and lets units in (§10.5: not an exit only, through
    a gate when it has gates); a model of the unit reaches it within the allowance along a
    clear path; the unit's points fit the space left (§6.4: the whole unit; see
    docs/rulings.md); the unit is not Immobile, not locked in a Melee, and carries no
    passengers (§6.5: one level of nesting)."""
    uid = action.unit
    info = w.info(uid)
    check_dash_flag(w, action.dash)
    piece = _piece(w, action.terrain)
    board = w.field.board
    if not piece.embarkable:
        raise err(f"{piece.name} has no Transport Stat, so no unit can embark it", RULE)
    if not board.can_embark_at(piece.name):
        raise err(
            f"{piece.name} cannot be embarked from the battlefield (an exit only, or no gate "
            "lets units in)",
            "§10.5 (L4486-4530)",
        )
    u = w.units[uid]
    check_may_embark(w, uid)
    if w.passengers(uid):
        raise err(
            f"{info.label} carries passengers; a loaded Transport cannot embark terrain",
            "§6.5",
        )
    left = space_left(w, piece.name)
    if info.points > left + 1e-9:
        raise err(
            f"{piece.name} has {left:.0f} points of Transport Capacity left; {info.label} "
            f"({info.points:.0f} points) does not fit",
            "§10.2 (L4449-4454), §6.4",
        )
    allowance = unit_allowance(w, uid, action.dash)
    free, _ = mover_models(w, uid, action.dash)
    poly, gates = _ways(w, piece.name, "embark")
    r = info.radius
    best: tuple[float, int, Point] | None = None
    for m in free:
        c = u.pos[m]
        if gates:
            spots = gates
        else:
            near = shapely.shortest_line(poly.boundary, shapely.Point(c)).coords[0]
            spots = [(float(near[0]), float(near[1]))]
        inside = poly.contains(shapely.Point(c))
        for g in spots:
            d = 0.0 if inside and not gates else max(0.0, math.dist(c, g) - r)
            if best is None or d < best[0]:
                best = (d, m, g)
    if best is None:
        raise err(f"no model of {info.label} may {'Dash' if action.dash else 'Move'}", "§4.1")
    need, m, goal = best
    if need > allowance + 1e-6:
        raise err(
            f'{piece.name} is {need:.1f}" away; {info.label} can '
            f'{"Dash" if action.dash else "Move"} {allowance}"',
            "§6.2",
        )
    start = u.pos[m]
    length = math.dist(start, goal)
    if length > 1e-9:
        stop = geom.as_array([start])[0] + (np.asarray(goal) - np.asarray(start)) * max(
            0.0, (length - r - 0.01) / length
        )
        pc = w.field.path(start, (float(stop[0]), float(stop[1])), r)
        if pc.blocked_by is not None and pc.blocked_by != piece.name:
            raise err(f"the way to {piece.name} is blocked by {pc.blocked_by}", "§4.7")
    return TerrainPlan(uid, piece.name, action.dash)


def verify_disembark_terrain(w: Work, action: Disembark) -> TerrainPlan:
    """A unit inside a terrain piece leaves it with a Move or Dash (§6.3 with §10.2, §10.5):
    every model within the allowance of the piece (or of any piece it connects to with a way
    out, L4491-4492; of a gate when the piece has gates), on legal ground, coherent. A unit
    locked in the Melee inside cannot leave it (§4.4 I)."""
    uid = action.unit
    info = w.info(uid)
    u = w.units[uid]
    check_dash_flag(w, action.dash)
    name = u.terrain
    assert u.location is Location.TERRAIN and name is not None
    if info.immobile:
        raise err(f"{info.label} is Immobile and stays inside {name}", "§6.3")
    foes = w.engaged_with(uid)
    if foes:
        raise err(
            f"{info.label} is locked in a Melee inside {name} with "
            f"{', '.join(w.label(f) for f in foes)}",
            "§4.4 I, §10.2 (L4441-4447)",
        )
    allowance = unit_allowance(w, uid, action.dash)
    if allowance <= 0:
        raise err(f"{info.label} cannot {'Dash' if action.dash else 'Move'}", "§4.1")
    exits = w.field.board.disembark_from(name)
    if not exits:
        raise err(f"{name} has no way out", "§10.5 (L4486-4530)")
    ways = [_ways(w, e, "disembark") for e in exits]
    models = tuple(u.present())
    r = info.radius

    def reach(p: Point) -> float:
        best = math.inf
        for poly, gates in ways:
            if gates:
                best = min(best, *(max(0.0, math.dist(p, g) - r) for g in gates))
            else:
                best = min(best, max(0.0, float(poly.boundary.distance(shapely.Point(p))) - r))
        return best

    if action.positions is not None:
        pos = tuple(action.positions)
        if len(pos) != len(models):
            raise err(f"{info.label} has {len(models)} models; {len(pos)} positions", "§6.3")
    elif Automation.MODEL_PLACEMENT not in w.setup.automation:
        raise err("give a position for every model (model placement is not automated)", "§6.3")
    else:
        pos = _placement(w, uid, ways, action.to, allowance)
    far = [k for k, p in enumerate(pos) if reach(p) > allowance + 1e-6]
    if far:
        raise err(
            f"model {models[far[0]] + 1} of {info.label} would stand beyond its "
            f'{allowance}" {"Dash" if action.dash else "Move"} from {" or ".join(exits)}',
            "§6.3, §10.5",
        )
    prob = problem_positions(w, uid, pos, models, None, None, action.dash)
    if prob:
        raise err(*prob)
    return TerrainPlan(uid, name, action.dash, models, pos, leave=True)


def _placement(
    w: Work,
    uid: int,
    ways: list[tuple[shapely.Polygon, list[Point]]],
    to: Point | None,
    allowance: int,
) -> tuple[Point, ...]:
    """The engine's placement of a unit leaving terrain: a compact formation outside the way
    out nearest ``to`` (the piece's centre when None), within the allowance of it."""
    outs: list[Point] = []
    for poly, gates in ways:
        if gates:
            outs.extend(gates)
        else:
            ring = shapely.segmentize(poly.exterior, 0.5)
            outs.extend((float(x), float(y)) for x, y in list(ring.coords)[:-1])
    pts = geom.as_array(outs)
    aim = np.asarray(to if to is not None else pts.mean(axis=0), dtype=np.float64)
    exit_pt = pts[int(np.argmin(((pts - aim) ** 2).sum(axis=1)))]
    r = w.info(uid).radius
    centre = exit_pt + (aim - exit_pt) / max(1e-9, float(np.hypot(*(aim - exit_pt)))) * min(
        allowance * 0.9, float(np.hypot(*(aim - exit_pt)))
    )
    placed = place_unit(
        w,
        uid,
        (float(centre[0]), float(centre[1])),
        within=float(allowance),
        from_xy=pts,
        from_r=0.0,
        models=w.units[uid].present(),
    )
    if placed is None:
        raise err(f'there is not enough room to disembark {w.label(uid)} (radius {r:g}")', "§6.3")
    return placed


def apply_terrain(w: Work, plan: TerrainPlan) -> None:
    """Carry out an embark into or a disembark from a terrain piece; a unit embarking a piece
    that holds units of another player is engaged with each of them in a Melee (L4441-4447)."""
    uid = plan.uid
    u = w.units[uid]
    what = "Dash" if plan.dash else "Move"
    flag = {"unit_dashed": True} if plan.dash else {"unit_moved": True}
    moved = tuple(True if not r else m for m, r in zip(u.moved, u.removed, strict=True))
    if plan.leave:
        pos = full_positions(u, plan.models, plan.positions) if u.pos else plan.positions
        w.set_unit(uid, location=Location.TABLE, terrain=None, pos=pos, moved=moved, **flag)
        w.emit(
            "disembark",
            f"{w.label(uid)} disembarks from {plan.terrain} ({what})",
            "§6.3, §10.2",
            unit=uid,
            terrain=plan.terrain,
        )
        engage_new_contacts(w, uid)
        return
    w.set_unit(uid, location=Location.TERRAIN, terrain=plan.terrain, moved=moved, **flag)
    w.emit(
        "embark",
        f"{w.label(uid)} moves into {plan.terrain} ({what})",
        "§10.2, §6.2",
        unit=uid,
        terrain=plan.terrain,
    )
    for other in occupants(w, plan.terrain):
        if other == uid or not w.enemies(uid, other):
            continue
        pair = (min(uid, other), max(uid, other))
        if pair not in w.engaged:
            w.engaged.add(pair)
            w.emit(
                "melee",
                f"{w.label(uid)} and {w.label(other)} are inside {plan.terrain}: they are "
                "engaged in a Melee",
                "§10.2 (L4441-4447)",
                units=[uid, other],
            )


def melee_inside(
    w: Work, uid: int, target: int
) -> tuple[dict[str, list[int]], frozenset[int]] | str | None:
    """What ``uid`` may attack of ``target`` when either is inside a terrain piece: in the
    Melee inside the same piece, every weapon of every model (a Melee ignores Range, line of
    sight and cover, §5.9) at every model; None when ``uid`` fires out of a piece with Fire
    Points at a unit outside (§6.7, ``terrain_fire``: the ordinary Targeting from the piece);
    otherwise the reason it cannot (§6.9: occupants are not attacked from outside)."""
    from warbench.rulesets.warsurge.game.terrain_fire import has_fire_points

    pair = (min(uid, target), max(uid, target))
    if same_piece(w, uid, target) and pair in w.engaged:
        users = {wp.name: w.units[uid].present() for wp in w.info(uid).unit.weapons}
        return users, frozenset(w.units[target].present())
    t = w.units[target]
    if t.location is Location.TERRAIN:
        return (
            f"{w.label(target)} is inside {t.terrain}: only units engaged with it there attack it"
        )
    name = w.units[uid].terrain
    if has_fire_points(w, name):
        return None
    return (
        f"{w.label(uid)} is inside {name}: it attacks only in the Melee there ({name} has no "
        "Fire Points, §6.7)"
    )


def terrain_notes(state: GameState) -> list[str]:
    """A line per terrain piece with units inside (for the text render): the piece, its
    space left and its occupants (the battlefield as it stands: a Gateway's piece too, Perks
    L4314)."""
    from warbench.rulesets.warsurge.game.terrain_field import field_of

    out = []
    for t in field_of(state).board.terrain:
        inside = occupants(state, t.name)
        if not inside:
            continue
        used = sum(state.info(o).points for o in inside)
        cap = "unlimited" if math.isinf(t.capacity) else f"{used:.0f}/{t.capacity:.0f} pts"
        who = ", ".join(state.info(o).label for o in inside)
        out.append(f"{t.name} ({cap}): {who}")
    return out
