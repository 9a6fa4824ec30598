"""Terrain used as a Transport: embarking a terrain piece, several players inside, leaving it.

Core Rules 001_d3f5e425c5e1196d.txt §10.2 B/C (L4383-4391: "Some scenery could even have the
ability to move, be embarked and have Weapons equipped ... Units could treat these terrain
features as a Transport (refer to Section 6)"), "Multiple Players Embarking Terrain"
(L4437-4447: units of different players inside count as engaged in a Melee), "Insufficient
Transport Capacity" (L4459-4468: a unit that only partly fits splits, :mod:`.terrain_split`),
§10.5 (connected terrain, gates) and §6.2-6.3 (embarking with a Move or Dash, disembarking
within the Move or Dash of the Transport).

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
from collections.abc import Sequence
from typing import Any

import numpy as np
import shapely
import shapely.ops

from warbench.kernel.errors import UnknownNameError
from warbench.rulesets.warsurge.battlefield import Terrain
from warbench.rulesets.warsurge.battlefield.measure import coherency_groups
from warbench.rulesets.warsurge.game import bases, bases_ground, geom
from warbench.rulesets.warsurge.game.actions import Disembark, EmbarkTerrain, Point
from warbench.rulesets.warsurge.game.coherency import full_positions, place_unit, problem_positions
from warbench.rulesets.warsurge.game.melee import engage_new_contacts
from warbench.rulesets.warsurge.game.movement import check_dash_flag, mover_models, unit_allowance
from warbench.rulesets.warsurge.game.plans import TerrainPlan
from warbench.rulesets.warsurge.game.state import Automation, GameState, Location
from warbench.rulesets.warsurge.game.terrain_split import (
    COHERENCY,
    embark_choices,
    gaps_to_piece,
    inside_models,
    linked_to_piece,
    model_share,
    piece_of,
    points_inside,
)
from warbench.rulesets.warsurge.game.work import Work, err

#: the rule every refusal here names
RULE = "§10.2 (L4383-4460)"


def occupants(units: GameState | Work, name: str) -> list[int]:
    """The units inside the terrain piece ``name`` (wholly or in part, L4460), by unit id."""
    return [u.uid for u in units.units if piece_of(u) == name]


def same_piece(w: Work | GameState, a: int, b: int) -> bool:
    """Both units are (some of their models) inside the same terrain piece (so in Base
    Contact, L4450-4457)."""
    pa = piece_of(w.units[a])
    return pa is not None and pa == piece_of(w.units[b])


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
    return piece.capacity - sum(points_inside(w, o) for o in occupants(w, name))


def _ways(w: Work, name: str, way: str) -> tuple[shapely.Polygon, list[Point]]:
    """Where a unit gets in (``way`` "embark") or out ("disembark") of a piece: its area (a
    model touching its edge), or only its gates when it has any (§10.5)."""
    piece = _piece(w, name)
    gates = w.field.board.gates_of(name, way)  # type: ignore[arg-type]
    poly = shapely.Polygon(piece.polygon)
    return poly, [] if gates is None else [(float(g.at[0]), float(g.at[1])) for g in gates]


def _nearest(poly: shapely.Polygon, shape: Any) -> Point:
    """The point of ``poly`` nearest to ``shape`` (a base's outline)."""
    x, y = shapely.shortest_line(poly, shape).coords[0]
    return (float(x), float(y))


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
    going, rest, rest_pos = partial_fit(w, action, piece.name)
    allowance = unit_allowance(w, uid, action.dash)
    free, _ = mover_models(w, uid, action.dash)
    if going:  # one of the models that go in reaches the piece (§6.2)
        free = [m for m in free if m in going]
    poly, gates = _ways(w, piece.name, "embark")
    r = info.radius
    best: tuple[float, int, Point] | None = None
    for m in free:
        c = u.pos[m]
        if info.base is not None:  # an oval or rectangle: from its outline (§1.3)
            shape = bases_ground.outline(info.base, c, bases.facing_of(w, uid, m))
            for g in gates or [_nearest(poly, shape)]:
                d = float(shapely.distance(shape, poly if not gates else shapely.Point(g)))
                if best is None or d < best[0]:
                    best = (d, m, g)
            continue
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
        short = need if info.base is not None else length - r  # the base's own gap (§1.3)
        stop = geom.as_array([start])[0] + (np.asarray(goal) - np.asarray(start)) * max(
            0.0, (short - 0.01) / length
        )
        end = (float(stop[0]), float(stop[1]))
        pc = (
            bases_ground.model_path(w, uid, m, start, end)
            if info.base
            else w.field.path(start, end, r)
        )
        if pc.blocked_by is not None and pc.blocked_by != piece.name:
            raise err(f"the way to {piece.name} is blocked by {pc.blocked_by}", "§4.7")
    return TerrainPlan(uid, piece.name, action.dash, going, rest_pos, rest=rest)


def partial_fit(
    w: Work, action: EmbarkTerrain, name: str
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[Point, ...]]:
    """The models that go into the piece when the unit does not fit whole (L4459-4464),
    ``action.models`` or the engine's choice, and the models left outside with where they end
    their Move (``action.positions`` or the engine's: each group of them steps toward the
    piece until within 2" of it); all empty when the whole unit (or all of a split unit's
    outside models) goes in. The models left outside keep Coherency with the piece; a split
    unit embarks only into its own piece (rulings 5-7)."""
    uid = action.unit
    info = w.info(uid)
    u = w.units[uid]
    if u.inside and u.terrain != name:
        raise err(f"{info.label} has models inside {u.terrain}; they embark only there", RULE)
    outside = u.present()
    share = model_share(w, uid)
    left = space_left(w, name)
    need = share * len([i for i in outside if i < info.real_models])  # ruling 4
    chosen = tuple(sorted(set(action.models)))
    if len(chosen) != len(action.models) or any(m not in outside for m in chosen):
        raise err(f"name models of {info.label} on the battlefield, each once", "§10.2 (L4460)")
    if need <= left + 1e-9:
        if (chosen and chosen != tuple(outside)) or action.positions:
            raise err(f"{info.label} fits {name} whole, so the whole unit goes in", "§6.2, §6.4")
        return (), (), ()
    if share > left + 1e-9:
        raise err(
            f"{name} has {left:.0f} points of Transport Capacity left; not one model of "
            f"{info.label} ({share:.1f} points a model) fits",
            "§10.2 (L4459-4460), §6.4",
        )
    manual = Automation.MODEL_PLACEMENT not in w.setup.automation
    if chosen:
        if share * len(chosen) > left + 1e-9:
            raise err(
                f"{name} has {left:.0f} points of Transport Capacity left; {len(chosen)} "
                f"models of {info.label} ({share * len(chosen):.0f} points) do not fit",
                "§10.2 (L4459-4460), §6.4",
            )
        choices = [chosen]
    elif manual:
        raise err(
            f"{info.label} does not fit {name} whole: name the models that go in",
            "§10.2 (L4459-4460)",
        )
    else:
        choices = embark_choices(w, uid, name, left, outside)
    allowance = unit_allowance(w, uid, action.dash)
    why = ""
    for going in choices:
        rest = tuple(i for i in outside if i not in going)
        if action.positions:
            if len(action.positions) != len(rest):
                raise err(
                    f"{len(rest)} models of {info.label} stay outside; "
                    f"{len(action.positions)} positions given",
                    "§10.2 (L4460-4462)",
                )
            pos = tuple(action.positions)
        elif manual and not linked_to_piece(
            w, name, [u.pos[i] for i in rest], info.radius, (uid, list(rest))
        ):
            raise err(
                f"give the positions of the models of {info.label} that stay outside (model "
                "placement is not automated)",
                "§10.2 (L4460-4462)",
            )
        else:
            pos = _follow(w, uid, name, rest, allowance)
        why = _rest_refusal(w, uid, name, rest, pos, allowance, action.dash)
        if not why:
            return going, rest, pos
    raise err(
        f"{name} has {left:.0f} points of Transport Capacity left; {info.label} ({need:.0f} "
        f"points) does not fit whole, and the models left outside {why}",
        "§10.2 (L4459-4462)",
    )


def _follow(w: Work, uid: int, name: str, rest: Sequence[int], allowance: int) -> tuple[Point, ...]:
    """The engine's Move for the models left outside: each group of them (§4.2 links) not yet
    within 2" of the piece steps straight toward it, the group as one, until its nearest model
    is 1" from the piece (no farther than the allowance)."""
    u = w.units[uid]
    r = w.info(uid).radius
    pts = [u.pos[i] for i in rest]
    xy = geom.as_array(pts)
    gaps = gaps_to_piece(w, name, xy, r)
    poly = shapely.Polygon(_piece(w, name).polygon)
    out = xy.copy()
    for group in coherency_groups(pts, [r] * len(pts)):
        k = min(group, key=lambda j: float(gaps[j]))
        if gaps[k] <= COHERENCY:
            continue
        near = shapely.ops.nearest_points(poly, shapely.Point(pts[k]))[0]
        d = np.asarray([near.x, near.y]) - xy[k]
        step = min(float(allowance), float(gaps[k]) - 1.0)
        out[group] += d / max(1e-9, float(np.hypot(*d))) * step
    return tuple((float(x), float(y)) for x, y in out)


def _rest_refusal(
    w: Work,
    uid: int,
    name: str,
    rest: Sequence[int],
    pos: Sequence[Point],
    allowance: int,
    dash: bool,
) -> str:
    """Why the models left outside cannot end their Move at ``pos``, or "": each model's
    path and spot (§4.1, §4.5-4.7), no two overlapping, every group within 2" of the piece."""
    u = w.units[uid]
    r = w.info(uid).radius
    for i, p in zip(rest, pos, strict=True):
        prob = problem_positions(w, uid, [p], [i], [u.pos[i]], allowance, dash)
        if prob:
            return f"cannot end there: {prob[0]} ({prob[1]})"
    xy = geom.as_array(pos)
    if w.info(uid).base is not None:  # oval or rectangular bases: their outlines (§1.3)
        if bases.own_problem(w, uid, pos, rest) == "overlap":
            return "would overlap each other"
    elif len(xy) > 1:
        d = geom.edge_distances(xy, r, xy, r)
        np.fill_diagonal(d, np.inf)
        if (d < -1e-6).any():
            return "would overlap each other"
    if not linked_to_piece(w, name, pos, r, (uid, list(rest))):
        return 'would not keep Coherency with it (a model of each group within 2")'
    return ""


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
    assert piece_of(u) is not None and name is not None
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
    models = tuple(inside_models(u))
    r = info.radius

    def reach(p: Point, k: int) -> float:
        best = math.inf
        if info.base is not None:  # an oval or rectangle: from its outline (§1.3)
            shape = bases_ground.outline(info.base, p, bases.facing_of(w, uid, models[k]))
            for poly, gates in ways:
                to = shapely.MultiPoint(gates) if gates else poly.boundary
                best = min(best, float(shapely.distance(shape, to)))
            return best
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
        aim = action.to
        if aim is None and u.location is Location.TABLE:  # a split unit: beside the rest
            aim = tuple(float(c) for c in u.present_xy().mean(axis=0))  # type: ignore[assignment]
        pos = _placement(w, uid, ways, aim, allowance)
    far = [k for k, p in enumerate(pos) if reach(p, k) > allowance + 1e-6]
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
        models=inside_models(w.units[uid]),
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
        w.set_unit(
            uid, location=Location.TABLE, terrain=None, inside=(), pos=pos, moved=moved, **flag
        )
        w.emit(
            "disembark",
            f"{w.label(uid)} disembarks from {plan.terrain} ({what})",
            "§6.3, §10.2",
            unit=uid,
            terrain=plan.terrain,
        )
        engage_new_contacts(w, uid)
        return
    going = set(plan.models)
    if going and set(u.present()) - going:  # a partial fit (L4459-4464)
        pos = full_positions(u, plan.rest, plan.positions)
        moved = tuple(
            True if i in going or pos[i] != u.pos[i] else m for i, m in enumerate(u.moved)
        )
        inside = tuple(sorted(going | set(u.inside)))
        w.set_unit(uid, terrain=plan.terrain, inside=inside, pos=pos, moved=moved, **flag)
        w.emit(
            "embark",
            f"{w.label(uid)}: {len(going)} models move into {plan.terrain} ({what}); "
            f"{len(w.units[uid].present())} stay outside in Coherency with it",
            "§10.2 (L4459-4464), §6.2",
            unit=uid,
            terrain=plan.terrain,
            models=sorted(going),
        )
        engage_new_contacts(w, uid)  # the models outside may have stepped into Base Contact
    else:
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
    """What ``uid`` may attack of ``target`` when either is (partly, L4460) inside a terrain
    piece: in the Melee inside the same piece, every weapon of every model inside (a Melee
    ignores Range, line of sight and cover, §5.9) at every model of the target inside, and the
    outside models of a split unit through the piece's Fire Points (L4466-4468); None when the
    ordinary Targeting applies (a split unit's models on the table; a unit firing out of a
    piece with Fire Points, §6.7, ``terrain_fire``); otherwise the reason it cannot (§6.9:
    occupants are not attacked from outside)."""
    from warbench.rulesets.warsurge.game.terrain_fire import has_fire_points

    pair = (min(uid, target), max(uid, target))
    me, t = w.units[uid], w.units[target]
    if same_piece(w, uid, target) and pair in w.engaged:
        mine = inside_models(me)
        users = {wp.name: list(mine) for wp in w.info(uid).unit.weapons}
        if me.location is Location.TABLE and has_fire_points(w, me.terrain):
            _through_fire_points(w, uid, users)
        users = {k: v for k, v in users.items() if v}
        return users, frozenset(inside_models(t))
    if t.location is Location.TERRAIN:
        return (
            f"{w.label(target)} is inside {t.terrain}: only units engaged with it there attack it"
        )
    name = me.terrain
    if me.location is Location.TABLE or has_fire_points(w, name):
        return None
    return (
        f"{w.label(uid)} is inside {name}: it attacks only in the Melee there ({name} has no "
        "Fire Points, §6.7)"
    )


def _through_fire_points(w: Work, uid: int, users: dict[str, list[int]]) -> None:
    """L4466-4468: the outside models of a split unit join the Melee inside its piece "from
    the outside through a Fire Point": each weapon of an outside model that has the piece in
    range and line of sight (as a Target, rulings "WARSURGE terrain in play" 1)."""
    from warbench.rulesets.warsurge.battlefield.terrain_targets import terrain_sight
    from warbench.rulesets.warsurge.game.perk_effects import weapon_ranges

    u = w.units[uid]
    info = w.info(uid)
    name = u.terrain
    assert name is not None
    out = u.present()
    seen = terrain_sight(w.field.board, name, [(u.pos[i], info.radius) for i in out])
    ranges = weapon_ranges(info, u.statuses)
    for k, m in enumerate(out):
        if not seen.seen[k]:
            continue
        for wname in info.model_weapons[m]:
            if seen.distances[k] <= ranges.get(wname, 0) + 1e-6:
                users.setdefault(wname, []).append(m)


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
        used = sum(points_inside(state, o) for o in inside)
        cap = "unlimited" if math.isinf(t.capacity) else f"{used:.0f}/{t.capacity:.0f} pts"
        who = ", ".join(state.info(o).label for o in inside)
        out.append(f"{t.name} ({cap}): {who}")
    return out
