"""Transports: capacity, embarking, disembarking and Fire Points.

Core Rules 001_d3f5e425c5e1196d.txt §6.1 (deployment inside a Transport), §6.2 (embarking), §6.3
(disembarking passengers), §6.4-6.5 (several units, Transports within Transports), §6.7-6.9 (Fire
Points: attacking from inside).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from warbench.rulesets.warsurge.game import bases, geom
from warbench.rulesets.warsurge.game.actions import (
    Disembark,
    Embark,
)
from warbench.rulesets.warsurge.game.coherency import place_unit, problem_positions
from warbench.rulesets.warsurge.game.movement import check_dash_flag, mover_models, unit_allowance
from warbench.rulesets.warsurge.game.perk_crew import open_to
from warbench.rulesets.warsurge.game.perk_imprison import imprisoned_by
from warbench.rulesets.warsurge.game.perk_seed import (
    breach_refusal,
    breaches,
    fights_inside,
    host_of,
    stays_inside,
)
from warbench.rulesets.warsurge.game.perk_transport import (
    fires_without_points,
    link_refusal,
    links_in_game,
    rift_exit_refusal,
)
from warbench.rulesets.warsurge.game.plans import MovePlan, TerrainPlan
from warbench.rulesets.warsurge.game.state import (
    Automation,
    Location,
)
from warbench.rulesets.warsurge.game.terrain_transport import (
    check_may_embark,
    verify_disembark_terrain,
)
from warbench.rulesets.warsurge.game.work import Work, err


def fires_from_transport(w: Work, uid: int) -> str | None:
    """Why an embarked unit cannot attack from its Transport, or None when it can: its
    Transport is on the battlefield and has Fire Points (§6.7). A passenger of a passenger
    cannot use Fire Points to attack from the outer Transport (§6.5, 001 L3394)."""
    u = w.units[uid]
    holder = u.embarked_in
    if u.location is not Location.EMBARKED or holder is None or host_of(w, uid) is not None:
        return None  # a Seed II or Breach unit fights its host as in a Melee (Perks L1904)
    if fights_inside(w, uid):
        return None  # and its host's passengers fight a Breach unit (Perks L1148)
    h = w.units[holder]
    label = w.info(uid).label
    if h.location is Location.EMBARKED:
        return (
            f"{label} is a passenger of a passenger ({w.label(holder)} is inside "
            f"{w.label(w.outermost(uid))}) and cannot use Fire Points to attack from the "
            "outer Transport (§6.5)"
        )
    if not w.info(holder).fire_points and not fires_without_points(w, holder):  # Perks L1280
        return f"{label} is embarked in a Transport without Fire Points (§6.7 Fire Points)"
    if h.location is not Location.TABLE:
        return f"{w.label(holder)} is not on the battlefield"
    return None


def fire_point_chain(w: Work, uid: int) -> bool:
    """Every Transport around the unit has Fire Points and the outermost is on the table
    (§6.7: "all the Transports must have Fire Points")."""
    u = w.units[uid]
    while u.location is Location.EMBARKED and u.embarked_in is not None:
        t = w.units[u.embarked_in]
        if not w.info(t.uid).fire_points:
            return False
        u = t
    return u.location is Location.TABLE


def check_capacity(w: Work, transport: int, load: float, newcomers: Sequence[int]) -> None:
    info = w.info(transport)
    if info.transport <= 0:
        raise err(f"{info.label} is not a Transport (Transport Stat 0)", "§6")
    if w.units[transport].location is Location.EMBARKED:
        # §6.5: one level of nesting, and passengers of passengers cannot carry anything
        raise err(f"{info.label} is itself embarked and cannot take passengers", "§6.5")
    for p in newcomers:
        if w.info(p).transport and w.passengers(p) and w.units[transport].embarked_in is not None:
            raise err("only one Transport may carry another Transport", "§6.5")
        for q in w.passengers(p):
            if w.info(q).transport and w.passengers(q):
                raise err("a Transport inside a Transport cannot hold a loaded Transport", "§6.5")
    u = w.units[transport]
    capacity = info.transport * max(1, len(u.living()) if u.hp else info.models)
    # an Imprisoned enemy unit is not carried by the Transport Stat (Perks L829)
    current = sum(w.info(p).points for p in w.passengers(transport) if imprisoned_by(w, p) is None)
    if current + load > capacity + 1e-9:
        raise err(
            f"{info.label} can carry {capacity} points; it holds {current:.0f} and "
            f"{load:.0f} more would not fit",
            "§6.4",
        )


def verify_transfer(w: Work, action: Embark) -> MovePlan:
    """Transport Link (Perks L1420): "Any embarked Units can transfer from one Transport to the
    other instead of disembarking", as the passenger's Move or Dash (it must be able to make
    one), into the linked Transport's free capacity (§6.4)."""
    uid, tr = action.unit, action.transport
    info = w.info(uid)
    if not 0 <= tr < len(w.units) or (why := link_refusal(w, uid, tr)) is not None:
        raise err(why or f"there is no unit {tr}", "Perks L1420")
    if info.immobile:
        raise err(f"{info.label} is Immobile and cannot make Movement", "§4.1 Immobile Units")
    if unit_allowance(w, uid, action.dash) <= 0:
        raise err(f"{info.label} cannot {'Dash' if action.dash else 'Move'}", "§4.1")
    check_capacity(w, tr, info.points, [uid])
    return MovePlan(uid, (), (), None, action.dash, embark=tr, disembark=True)


def verify_embark(w: Work, action: Embark) -> MovePlan:
    uid, tr = action.unit, action.transport
    info = w.info(uid)
    check_dash_flag(w, action.dash)
    if w.units[uid].location is Location.EMBARKED and links_in_game(w):
        return verify_transfer(w, action)  # Transport Link (Perks L1420)
    breach = breaches(w, uid, tr)  # Breach (Perks L1140): an enemy unit as a whole
    if not breach and (not 0 <= tr < len(w.units) or tr == uid):
        raise err(f"unit {tr} is not a friendly Transport", "§6.2")
    if not breach and not open_to(w, uid, tr):  # Crew III (Perks L1194): any unit, unoccupied
        if w.units[tr].seized_by is None and w.units[uid].seized_by is None:
            foe = w.info(tr).side != info.side
        else:  # a Transport or unit under another side's control (Hijack, Crew III, Dominate)
            foe = w.enemies(uid, tr)
        if foe:
            raise err(f"unit {tr} is not a friendly Transport", "§6.2")
    u = w.units[uid]
    check_may_embark(w, uid)
    t = w.units[tr]
    if t.location is not Location.TABLE:
        raise err(f"{w.label(tr)} is not on the battlefield", "§6.2")
    if breach:
        if (why := breach_refusal(w, uid, tr)) is not None:
            raise err(why, "Perks L1140")
    else:
        check_capacity(w, tr, info.points, [uid])
    allowance = unit_allowance(w, uid, action.dash)
    a = w.xy(uid)
    b = w.xy(tr)
    if bases.shaped(w.setup):  # oval and rectangular bases and hulls (§1.3)
        d = bases.unit_gaps(w, uid, tr)
    else:
        d = geom.edge_distances(a, info.radius, b, w.info(tr).radius)
    i, j = divmod(int(np.argmin(d)), d.shape[1])
    need = float(d[i, j])
    if need > allowance + 1e-6:
        raise err(
            f'{w.label(tr)} is {need:.1f}" away; {info.label} can '
            f'{"Dash" if action.dash else "Move"} {allowance}"',
            "§6.2",
        )
    free, _ = mover_models(w, uid, action.dash)
    m = u.present()[i]
    if m not in free:
        raise err(f"model {m + 1} of {info.label} may not Dash", "§5.1 Type")
    start = u.pos[m]
    pc = w.field.path(start, (float(b[j][0]), float(b[j][1])), info.radius)
    if pc.blocked_by:
        raise err(f"the way to {w.label(tr)} is blocked by {pc.blocked_by}", "§4.7")
    return MovePlan(uid, (), (), None, action.dash, embark=tr)


def verify_disembark(w: Work, action: Disembark) -> MovePlan | TerrainPlan:
    uid = action.unit
    info = w.info(uid)
    check_dash_flag(w, action.dash)
    u = w.units[uid]
    if u.location is Location.TERRAIN:  # leaving a terrain piece (§10.2, §10.5)
        return verify_disembark_terrain(w, action)
    if u.location is not Location.EMBARKED or u.embarked_in is None:
        raise err(f"{info.label} is not embarked", "§6.3")
    if (seed := stays_inside(w, uid)) is not None:
        raise err(seed, "Perks L1904")
    if action.reserve:  # Rift Gate (Perks L1384): into Reserve instead
        if (gate := rift_exit_refusal(w, uid)) is not None:
            raise err(gate, "Perks L1384")
        return MovePlan(uid, (), (), None, action.dash, disembark=True, reserve=True)
    if info.immobile:
        raise err(
            f"{info.label} is Immobile and leaves its Transport only when it is destroyed",
            "§6.3",
        )
    holder = u.embarked_in
    h = w.units[holder]
    allowance = unit_allowance(w, uid, action.dash)
    if allowance <= 0:
        raise err(f"{info.label} cannot {'Dash' if action.dash else 'Move'}", "§4.1")
    if h.location is Location.EMBARKED and h.embarked_in is not None:
        # §6.5: a passenger of a passenger disembarks into the outer Transport
        outer = h.embarked_in
        check_capacity(w, outer, info.points, [uid])
        return MovePlan(uid, (), (), None, action.dash, embark=outer, disembark=True)
    if h.location is not Location.TABLE:
        raise err(f"{w.label(holder)} is not on the battlefield", "§6.3")
    if "Escape Transport" in w.info(holder).unit.profile.perks:
        allowance += 12  # Perks L1268: "may begin their disembark up to 12\" away from the User"
    hxy = w.xy(holder)
    hr = w.info(holder).radius
    if action.positions is not None:
        pos = tuple(action.positions)
        if len(pos) != len(u.present()):
            raise err(f"{info.label} has {len(u.present())} models; {len(pos)} positions", "§6.3")
        if bases.shaped(w.setup):  # oval and rectangular bases and hulls (§1.3)
            mine = bases.unit_group(w, uid, geom.as_array(pos))
            d = bases.gaps(mine, bases.unit_group(w, holder)).min(axis=1)
        else:
            d = geom.edge_distances(geom.as_array(pos), info.radius, hxy, hr).min(axis=1)
        if (d > allowance + 1e-6).any():
            raise err(
                f'every model must be placed within {allowance}" of {w.label(holder)}', "§6.3"
            )
    elif Automation.MODEL_PLACEMENT not in w.setup.automation:
        raise err("give a position for every model (model placement is not automated)", "§6.3")
    else:
        centre = hxy.mean(axis=0)
        to = np.asarray(action.to if action.to is not None else centre, dtype=np.float64)
        v = to - centre
        dist = float(np.hypot(*v))
        reach = hr + info.radius + min(allowance, max(0.0, dist - hr - info.radius)) * 0.9
        aim = centre + (v / dist * reach if dist > 1e-9 else np.asarray([reach, 0.0]))
        placed = place_unit(
            w,
            uid,
            (float(aim[0]), float(aim[1])),
            within=allowance,
            from_xy=hxy,
            from_r=hr,
            models=u.present(),
            from_unit=holder,  # oval and rectangular bases: measured to the true shapes (§1.3)
        )
        if placed is None:
            raise err(
                f"there is not enough room to disembark {info.label} from {w.label(holder)}",
                "§6.3",
            )
        pos = placed
    models = tuple(u.present())
    prob = problem_positions(w, uid, pos, models, None, None, action.dash)
    if prob:
        raise err(*prob)
    return MovePlan(uid, models, pos, None, action.dash, disembark=True)
