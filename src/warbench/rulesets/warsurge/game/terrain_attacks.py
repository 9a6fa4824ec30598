"""Destructible terrain in play: terrain pieces as Targets of an Attack, their HP and their
destruction (Core Rules 001_d3f5e425c5e1196d.txt §10.2 B/C L4383-4407, §10.3 L4470-4473,
§5.2-5.4). The geometry is the battlefield's (``battlefield/terrain_targets.py``); the rules of
a piece's HP and profile are in :mod:`.terrain`; ``docs/rulings.md`` "WARSURGE terrain in
play" says how the book's open points are read.

A destructible piece (``hp`` and a ``profile``) is a Target of the Attack action: a share
``(weapon, target)`` whose ``target`` is past the last unit names the piece by its place on the
board (:func:`~.terrain.terrain_target`). Its HP left is kept in ``GameState.terrain_hp`` from
its first loss; at 0 it is destroyed: the game measures on the board with the piece destroyed
from then on (:mod:`.terrain_field`), and the models on or in it are unharmed (§10.3, as §6.6).
"""

from __future__ import annotations

import numpy as np
import shapely

from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.attack import AttackContext, ModelState, Playstyle, UnitState
from warbench.rulesets.warsurge.battlefield.terrain_targets import terrain_sight
from warbench.rulesets.warsurge.game.perk_effects import weapon_ranges
from warbench.rulesets.warsurge.game.plans import WeaponPlan
from warbench.rulesets.warsurge.game.state import Location
from warbench.rulesets.warsurge.game.terrain import (
    destroyed_terrain,
    terrain_of_target,
    terrain_refusal,
    terrain_unit,
)
from warbench.rulesets.warsurge.game.terrain_field import field_with_destroyed
from warbench.rulesets.warsurge.game.terrain_split import piece_of
from warbench.rulesets.warsurge.game.work import (
    Work,
    current_value,
    err,
    store_unit_state,
    to_unit_state,
)
from warbench.rulesets.warsurge.odds import AttackPlan, allocate_loss, apply_rolled, roll_attack
from warbench.rulesets.warsurge.profiles import WeaponType


def verify_terrain_share(
    w: Work, uid: int, wname: str, target: int, chosen: tuple[int, ...] | None, stationary: bool
) -> WeaponPlan:
    """One weapon's share aimed at a destructible terrain piece (§10.2 B, §10.3), checked:
    the piece can be attacked, and the models using the weapon (all that can, or those
    ``chosen``) have it within the weapon's range and in line of sight (§5.3-5.4, ruling 1);
    Heavy weapons need a user that has not moved (§5.1)."""
    why = terrain_refusal(w, target)
    if why is not None:
        raise err(why, "§10.2-10.3")
    piece = terrain_of_target(w, target)
    assert piece is not None
    info = w.info(uid)
    u = w.units[uid]
    side = u.controller(info.side)
    if piece.army is not None and piece.army == side:
        # a piece fielded in an army is that side's Unit (L4424-4430): an Attack's Target is
        # an enemy (§5, L875 "the enemy Target"); rulings "WARSURGE terrain in play: session
        # 27, s27-user" 1
        raise err(
            f"{piece.name} is a unit of {w.setup.sides[side]}'s own army: an Attack "
            "targets enemies",
            "§10.2 L4424-4430, §5 L875",
        )
    if u.location is not Location.TABLE:
        raise err(
            f"{info.label} is embarked: only models on the battlefield attack terrain "
            "(docs/rulings.md terrain in play 2)",
            "§10.2",
        )
    models = list(u.present())
    seen = terrain_sight(w.field.board, piece.name, [(u.pos[i], info.radius) for i in models])
    rng = weapon_ranges(info, u.statuses)[wname]
    heavy = info.weapon_types[wname] == WeaponType.HEAVY.value
    users = [
        m
        for k, m in enumerate(models)
        if wname in info.model_weapons[m]
        and seen.seen[k]
        and seen.distances[k] <= rng + 1e-6
        and not (heavy and u.moved[m])
    ]
    if chosen is not None:
        for m in chosen:
            if m not in users:
                raise err(
                    f"model {m + 1} of {info.label} cannot use {wname} against {piece.name}: "
                    "it is not in range and line of sight"
                    + (" or it has moved (Heavy)" if heavy else ""),
                    "§5.3-5.4, §10.2",
                )
        users = list(chosen)
    if not users:
        raise err(
            f"{info.label} cannot use {wname} against {piece.name}: no model with it has the "
            "piece in range and line of sight" + (" without having moved (Heavy)" if heavy else ""),
            "§5.3-5.4, §10.2",
        )
    dist = min(seen.distances[models.index(m)] for m in users)
    ctx = AttackContext(
        attacker_engaged=bool(w.engaged_with(uid)),
        within_half_range=dist <= rng / 2,
        distance=dist,
        attacker_point_cost=current_value(w, uid),
        stationary=stationary,
        emergency_save=False,
        playstyle=Playstyle.STANDARD,
    )
    return WeaponPlan(wname, target, len(users), ctx, tuple(users))


def terrain_attack_plan(w: Work, uid: int, wp: WeaponPlan) -> AttackPlan:
    """The attack sequence's plan for one share at a terrain piece (§5.2, §10.2 B): the
    attacker as it stands, the piece as one model with its HP left and its profile's Defence
    and Saves (ruling 3). Exact odds read it as the game rolls it (``odds.exact_attack``)."""
    piece = terrain_of_target(w, wp.target)
    assert piece is not None and piece.hp is not None
    unit = terrain_unit(piece)
    left = w.terrain_hp.get(piece.name, piece.hp)
    target = UnitState(profile=unit.profile, weapons={}, models=[ModelState(left, (), False)])
    return AttackPlan(
        to_unit_state(w, uid),
        target,
        wp.context,
        weapons=(wp.weapon,),
        users=((wp.weapon, wp.users),),
    )


def resolve_terrain_share(w: Work, uid: int, wp: WeaponPlan) -> None:
    """Resolve one share at a terrain piece through the attack sequence (§5.2) against the
    piece's profile and HP left; at 0 HP the piece is destroyed (§10.3): the battlefield
    loses it (no cover, blocking, levels or connections), and the models that stood on it
    stand on the board, unharmed (L4470-4473, as §6.6 places a destroyed Transport's
    passengers where it stood)."""
    piece = terrain_of_target(w, wp.target)
    assert piece is not None and piece.hp is not None
    ap = terrain_attack_plan(w, uid, wp)
    attacker, target = ap.attacker, ap.target
    left = target.models[0].hp
    rolled = roll_attack(ap, w.dice)
    apply_rolled(ap, rolled)
    now = max(0, target.models[0].hp)
    lost = left - now
    if lost:
        w.terrain_hp[piece.name] = now
    if rolled.attacker_hp_lost:  # Volatile and the like: the attacker's own loss (§5.11)
        own = to_unit_state(w, uid)
        allocate_loss(AttackPlan(attacker, own, AttackContext(melee=True)), rolled.attacker_hp_lost)
        store_unit_state(w, uid, own)
    r0 = rolled.weapons[0] if rolled.weapons else None
    w.emit(
        "attack",
        f"{w.label(uid)} attacks {piece.name} with {wp.weapon} ({wp.users} models, at "
        f'{wp.context.distance or 0:.1f}"): {r0.attack_dice if r0 else 0} Attack Dice, '
        f"{r0.successes if r0 else 0} successes, {lost} HP lost, {now} HP left"
        + (
            f"; {rolled.attacker_hp_lost} HP lost by the attacker"
            if rolled.attacker_hp_lost
            else ""
        ),
        "§5.2, §10.3",
        unit=uid,
        terrain=piece.name,
        weapon=wp.weapon,
        hp_lost=lost,
        hp_left=now,
    )
    if now <= 0:
        destroy_terrain(w, piece.name)


def destroy_terrain(w: Work, name: str) -> None:
    """Destroy the terrain piece ``name`` in the game (§10.3): from now on the battlefield is
    the board with the piece destroyed (``Board.with_terrain_destroyed``: its footprint stays,
    with no effects), so the models that stood on it stand on the board (L4470-4473: "Units
    are unharmed", as §6.6; ruling 5). The units inside it leave it as from a destroyed
    Transport when the casualties are removed (:func:`.wrecks.terrain_wrecks`, the decision
    ``survivors`` when model placement is not automated)."""

    w.terrain_hp[name] = 0
    before = w.field
    field = field_with_destroyed(w.setup.field, destroyed_terrain(tuple(w.terrain_hp.items())))
    on: list[int] = []
    if name in before.levels.names:
        k = before.levels.names.index(name)
        poly = before.levels.polys[k]
        for u in w.units:
            if u.location is Location.TABLE and any(
                shapely.intersects_xy(poly, *u.pos[i]) for i in u.present()
            ):
                on.append(u.uid)
    w.terrain_changed(field)
    inside = [u.uid for u in w.units if piece_of(u) == name]  # split units too (L4460)
    w.emit(
        "terrain_destroyed",
        f"{name} is destroyed"
        + ("; " + ", ".join(w.label(x) for x in on) + " now on the board, unharmed" if on else "")
        + (
            "; "
            + ", ".join(w.label(x) for x in inside)
            + " inside: placed where it stood with the casualties (§6.6)"
            if inside
            else ""
        ),
        "§10.3",
        terrain=name,
        units=on,
        inside=inside,
    )


def terrain_attack_targets(w: Work, uid: int) -> dict[str, list[int]]:
    """For each weapon of ``uid``, the destructible terrain pieces (by target number) it can
    attack now (§10.2 B, §10.3); empty on a board without them."""
    board = w.setup.field.board
    pieces = [k for k, t in enumerate(board.terrain) if t.hp is not None and t.profile is not None]
    u = w.units[uid]
    if not pieces or u.location is not Location.TABLE or not u.present():
        return {}
    info = w.info(uid)
    n = len(w.units)
    reach = max(info.weapon_range.values(), default=0) + info.radius
    xy = u.present_xy()
    out: dict[str, list[int]] = {}
    for k in pieces:
        piece = board.terrain[k]
        if (w.terrain_hp.get(piece.name, piece.hp) or 0) <= 0:
            continue
        x0, y0 = (min(c) for c in zip(*piece.polygon, strict=True))
        x1, y1 = (max(c) for c in zip(*piece.polygon, strict=True))
        dx = np.maximum(0.0, np.maximum(x0 - xy[:, 0], xy[:, 0] - x1))
        dy = np.maximum(0.0, np.maximum(y0 - xy[:, 1], xy[:, 1] - y1))
        if float(np.hypot(dx, dy).min()) > reach + 1e-6:
            continue
        for wp in info.unit.weapons:
            try:
                verify_terrain_share(w, uid, wp.name, n + k, None, False)
            except RulesError:
                continue
            out.setdefault(wp.name, []).append(n + k)
    return out
