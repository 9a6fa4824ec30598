"""Deployment: placing units from reserve in the side's Deployment Zone.

Core Rules 001_d3f5e425c5e1196d.txt §3.6 (deployment: wholly within the zone, in coherency) and
§6.1 (a Transport deploys with its passengers embarked, within its capacity).
"""

from __future__ import annotations

from collections.abc import Sequence

from warbench.rulesets.warsurge.battlefield.measure import VERTICAL_COHERENCY, coherency_groups
from warbench.rulesets.warsurge.game import bases, bases_ground, geom
from warbench.rulesets.warsurge.game.actions import (
    Deploy,
    Point,
)
from warbench.rulesets.warsurge.game.coherency import place_unit, problem_positions
from warbench.rulesets.warsurge.game.hooks import Hook
from warbench.rulesets.warsurge.game.perk_deployment import deploy_outside_zone
from warbench.rulesets.warsurge.game.perk_fusion import deploy_refusal as fusion_refusal
from warbench.rulesets.warsurge.game.perk_terrain_unit import deploy_refusal as scenery_refusal
from warbench.rulesets.warsurge.game.perk_transport import deploy_inside, rift_gate_refusal
from warbench.rulesets.warsurge.game.plans import DeployPlan
from warbench.rulesets.warsurge.game.state import (
    Automation,
    Location,
)
from warbench.rulesets.warsurge.game.transports import check_capacity
from warbench.rulesets.warsurge.game.work import Work, err


def verify_deploy(w: Work, action: Deploy) -> DeployPlan:
    uid = action.unit
    info = w.info(uid)
    u = w.units[uid]
    if u.location is not Location.RESERVE:
        raise err(f"{info.label} is not in Reserve", "§2.1 Reserve")
    if (unformed := fusion_refusal(w, uid)) is not None:  # Fusion (Perks L2442)
        raise err(unformed, "Perks §12.4 Fusion")
    if u.statuses:  # Warp, Unstable: in Reserve for the Game Turn (Perks)
        from warbench.rulesets.warsurge.game.perk_reserve import deploy_refusal

        if (stay := deploy_refusal(w, uid)) is not None:
            raise err(stay, "Perks §12 Reserve")
    if (scenery := scenery_refusal(w, uid, action.into is not None)) is not None:
        raise err(scenery, "Perks L1410")  # Terrain
    if action.into is not None:  # Rift Gate (Perks L1384)
        if action.passengers or action.positions is not None or action.at is not None:
            raise err("a Deploy into a Transport names no place and no passengers", "Perks L1384")
        if (gate := rift_gate_refusal(w, uid, action.into)) is not None:
            raise err(gate, "Perks L1384")
        check_capacity(w, action.into, info.points, [uid])
        return DeployPlan(uid, (), (), into=action.into)
    zone = w.zones[info.side]
    assert zone is not None
    # §6.1 passengers
    load = 0.0
    for p in action.passengers:
        if not 0 <= p < len(w.units) or w.info(p).side != info.side:
            raise err(f"unit {p} is not one of your units", "§6.1")
        if p == uid or w.units[p].location is not Location.RESERVE:
            raise err(f"{w.label(p)} is not in Reserve to embark", "§6.1")
        if (scenery := scenery_refusal(w, p, True)) is not None:
            raise err(scenery, "Perks L1410")  # Terrain
        load += w.info(p).points
    if action.passengers:
        check_capacity(w, uid, load, action.passengers)
    if action.positions is not None:
        pos = tuple(action.positions)
        if len(pos) != info.real_models:  # (not its Illusion slots, Perks L779)
            raise err(
                f"{info.label} has {info.real_models} models; {len(pos)} positions given", "§3.6"
            )
        _check_deploy_positions(w, uid, pos, zone)
        return DeployPlan(uid, pos, action.passengers)
    if Automation.MODEL_PLACEMENT not in w.setup.automation:
        raise err("give a position for every model (model placement is not automated)", "§3.6")
    centre = action.at if action.at is not None else w.field.zone_centre(zone)
    placed = place_unit(w, uid, centre, zone=zone)
    if placed is None:
        raise err(
            f"there is not enough room to deploy {info.label} near "
            f"({centre[0]:.1f}, {centre[1]:.1f}) in its Deployment Zone; it must remain in "
            "Reserve",
            "§3.6",
        )
    why = vertical_coherency_at_deployment(w, uid, placed)
    if why is not None:
        raise err(*why)
    return DeployPlan(uid, placed, action.passengers)


def vertical_coherency_at_deployment(
    w: Work, uid: int, pos: Sequence[Point]
) -> tuple[str, str] | None:
    """§4.2 III (L1918-1919: "Vertical Coherency is 6"") when a unit is deployed: its models
    form one group linked within 2" across the board and 6" up or down, on the floors the board
    raises them to (ruling 18; ``docs/rulings.md`` "WARSURGE terrain in play" 7). Only a board
    with levels more than 6" apart can refuse anything here."""
    levels = w.field.levels
    if levels.flat or max(levels.levels) <= VERTICAL_COHERENCY or len(pos) < 2:
        return None
    shape = w.info(uid).base is not None  # oval or rectangular bases: their outlines (§1.3)
    idx = range(len(pos))
    z = bases_ground.heights(w, uid, pos, idx) if shape else levels.z_of(geom.as_array(pos))
    if float(z.max() - z.min()) <= VERTICAL_COHERENCY:
        return None
    r = w.info(uid).radius
    if shape:
        groups = bases_ground.vertical_groups(w, uid, pos, idx)
    else:
        groups = coherency_groups(list(pos), [r] * len(pos), elevations=z.tolist())
    if len(groups) > 1:
        return (
            f"{w.label(uid)} would be deployed out of Coherency: its models would stand more "
            f'than {VERTICAL_COHERENCY:g}" apart vertically',
            "§4.2 III",
        )
    return None


def _check_deploy_positions(w: Work, uid: int, pos: Sequence[Point], zone: int) -> None:
    info = w.info(uid)
    shape = info.base is not None  # an oval or rectangle: all its outline in the zone (§1.3)
    for i, p in enumerate(pos):
        if shape:
            fac = [bases.facing_of(w, uid, i)]
            inside = bool(bases_ground.zone_holds(w, uid, zone, geom.as_array([p]), fac)[0])
        else:
            inside = w.field.in_zone(zone, p, info.radius)
        if not inside:
            why = deploy_outside_zone(w, uid, i, p)  # Invade (Perks L1864): perk_deployment.py
            if why is not None:
                raise err(why, "§3.6 step 3")
    prob = problem_positions(w, uid, pos, range(len(pos)), None, None, False)
    prob = prob or vertical_coherency_at_deployment(w, uid, pos)
    if prob:
        raise err(*prob)
    if w.contacts(uid, geom.as_array(pos)):
        raise err(
            f"{info.label} cannot be deployed in Base Contact with an enemy; a Melee is "
            "engaged by a Move or a Dash",
            "§4.3",
        )


def apply_deploy(w: Work, plan: DeployPlan) -> None:
    uid = plan.uid
    if plan.into is not None:  # Rift Gate (Perks L1384): as a passenger deployed in it (§6.1)
        deploy_inside(w, uid, plan.into)
        return
    w.set_unit(uid, location=Location.TABLE, pos=plan.positions)
    if w.setup.units[uid].base is not None:  # oval/rect bases face the enemy (game/bases.py)
        w.set_unit(uid, facing=bases.deployed_facings(w, uid))
    text = f"{w.label(uid)} deploys ({len(plan.positions)} models)"
    for p in plan.passengers:
        w.set_unit(p, location=Location.EMBARKED, embarked_in=uid, acted=True)
        text += f", carrying {w.label(p)}"
    w.emit("deploy", text, "§3.6", unit=uid, positions=[list(p) for p in plan.positions])
    if w.hooks.active(Hook.DEPLOY):
        w.hooks.fire(Hook.DEPLOY, w, unit=uid)
