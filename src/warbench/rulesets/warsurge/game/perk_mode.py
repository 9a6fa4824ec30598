"""Mode templates in a game (Perks 000_94ecc6a4c74d351b.txt §12.5 Mode, L3295-L3563; §12.3
Templates and the Scatter Arrow, L564-L651).

A Weapon with a Mode rank that lays a template (:mod:`~warbench.rulesets.warsurge.effects.mode`)
still names one Target in its Attack (its range and line of sight are checked as for any
Attack, §5.3); when it is used, each model firing it lays its template towards that Target:

* towards the point the Attack names for the Weapon (``Attack.aim``, the player's choice,
  :mod:`.perk_placement`) if any, in place of the Target's closest model below;
* the engine places it (docs/rulings.md, "Mode templates"): a circle or a Wall over the
  Target's model closest to the Wielder, drawn back towards the Wielder until it is fully
  inside Weapon Range (0" Range: over the Wielder); a Cone's narrow end on the line to that
  model, the droplet reaching it; a Nova over the Wielder; a Beam and a Diffuse V from the
  Wielder towards that model;
* a Blast scatters (Scatter Arrow and 2D6, ``Dice.scatter``);
* every unit with models under it (friend and foe; Nova: enemies only; never the Wielder's own
  unit) receives Attack Dice: its models under the template multiplied by the Weapon's
  Attacks, one Attack Sequence per unit with the Weapon's full profile and perks; Beam I rolls
  the profile's Attack Dice at each unit struck and goes on to the next unit only while it
  causes HP Loss, stopping at a Terrain Piece that blocks line of sight;
* through a Fire Point (the Target embarked) the Target receives the rank's D6, 2D6 or 3D6
  Attack Dice (multiplied by Attacks) instead.

Casualties of a template's HP Loss are chosen by the engine (the rules' order), not asked.
"""

from __future__ import annotations

import math
from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
import shapely

from warbench.rulesets.warsurge.attack import AttackContext
from warbench.rulesets.warsurge.effects.mode import Placement, Shape, Template, TemplateAt, under
from warbench.rulesets.warsurge.effects.table import load_table
from warbench.rulesets.warsurge.game import bases, perk_incorporeal
from warbench.rulesets.warsurge.game.hooks import Hook
from warbench.rulesets.warsurge.game.perk_aim import aim_of
from warbench.rulesets.warsurge.game.perk_combat_damage import after_share as combat_damage_share
from warbench.rulesets.warsurge.game.perk_concealed import reveal_struck
from warbench.rulesets.warsurge.game.perk_effects import status_dice, weapon_ranges
from warbench.rulesets.warsurge.game.perk_espionage import dice_modifier as espionage_dice
from warbench.rulesets.warsurge.game.perk_residue import leave as leave_residue
from warbench.rulesets.warsurge.game.perk_transport import targeted_state
from warbench.rulesets.warsurge.game.state import Location
from warbench.rulesets.warsurge.game.terrain_split import split_side
from warbench.rulesets.warsurge.game.work import (
    current_value,
    perks_of,
    store_unit_state,
    to_unit_state,
)
from warbench.rulesets.warsurge.odds import AttackPlan, allocate_loss, apply_rolled, roll_attack
from warbench.rulesets.warsurge.profiles import WeaponType

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.plans import WeaponPlan
    from warbench.rulesets.warsurge.game.state import UnitInfo
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["chain_of", "lay_template", "resolve_chain", "resolve_template", "template_of"]

RULE = "Perks §12.5 Mode"


@cache
def _templates() -> dict[str, tuple[str, Template]]:
    """Canonical rank name → (rank, template), in book order."""
    from warbench.rulesets.warsurge.attack import canonical_perk

    out: dict[str, tuple[str, Template]] = {}
    for row in load_table():
        for e in row.effects:
            if e.template is not None:
                out.setdefault(canonical_perk(row.name), (row.name, e.template))
    return out


#: Chain (L3353, L3365): canonical name → (rank, whether units it damages chain on).
_CHAINS = {"chain i": ("Chain I", False), "chain ii": ("Chain II", True)}


def chain_of(info: UnitInfo, weapon: str) -> tuple[str, bool] | None:
    """The Chain rank of one of the unit's Weapons (the highest), if any."""
    names = perks_of(info.unit.weapon(weapon).perks).names
    for key in ("chain ii", "chain i"):
        if key in names:
            return _CHAINS[key]
    return None


def template_of(info: UnitInfo, weapon: str) -> tuple[str, Template] | None:
    """The Mode rank (and its template) of one of the unit's Weapons, if it lays one (the
    first in book order)."""
    names = perks_of(info.unit.weapon(weapon).perks).names
    if not names:
        return None
    for key, found in _templates().items():
        if key in names:
            return found
    return None


def _unit(v: npt.NDArray[np.float64]) -> tuple[float, float]:
    x, y = float(v[0]), float(v[1])
    n = math.hypot(x, y)
    return (0.0, 1.0) if n == 0 else (x / n, y / n)


def lay_template(
    w: Work, uid: int, model: int, target: int, weapon: str, tpl: Template
) -> TemplateAt:
    """Where the engine lays ``model``'s template of ``weapon`` aimed at ``target`` (before any
    Scatter): see the module docstring; towards the Attack's point for ``weapon`` when it names
    one (``Attack.aim``, :mod:`.perk_placement`), else towards the Target's closest model."""
    info = w.info(uid)
    pw = np.asarray(w.units[uid].pos[model], dtype=np.float64)
    rng = float(weapon_ranges(info, w.units[uid].statuses)[weapon])
    reach = rng + info.radius  # Range is measured from the Wielder's base (§5.4)
    txy = w.xy(w.outermost(target))
    if (aim := aim_of(weapon)) is not None:  # the player's placement (s26b-choices, L3321)
        q = np.asarray(aim, dtype=np.float64)
    elif len(txy):
        d = np.hypot(*(txy - pw).T)
        q = txy[int(np.argmin(d))]
    else:
        q = pw
    heading = _unit(q - pw)
    dist = float(np.hypot(*(q - pw)))
    if tpl.placement is Placement.WIELDER or (rng == 0 and tpl.placement is Placement.IN_RANGE):
        return TemplateAt(tpl, (float(pw[0]), float(pw[1])), heading)
    if tpl.placement is Placement.FROM_WIELDER:
        length = reach if tpl.shape is Shape.BEAM else min(rng, 12.0)
        return TemplateAt(tpl, (float(pw[0]), float(pw[1])), heading, length)
    if tpl.placement is Placement.EDGE_IN_RANGE:  # Cone: the narrow end within Range
        start = min(max(info.radius, dist - tpl.size / 2), reach)
        tip = (float(pw[0] + heading[0] * start), float(pw[1] + heading[1] * start))
        return TemplateAt(tpl, tip, heading)
    # fully inside Weapon Range: a circle's far edge, a Wall's two ends
    if tpl.shape is Shape.LINE:
        most = math.sqrt(max(0.0, reach**2 - (tpl.size / 2) ** 2))
    else:
        most = max(0.0, reach - tpl.size / 2)
    along = min(dist, most)
    centre = (float(pw[0] + heading[0] * along), float(pw[1] + heading[1] * along))
    return TemplateAt(tpl, centre, heading)


def _scatter(w: Work, at: TemplateAt, label: str) -> TemplateAt:
    res = w.dice.scatter(at.template.scatter, label)
    if res.hit or res.direction is None:
        w.emit("perk", f"{label}: a Hit, the template stays", RULE, scatter="hit")
        return at
    rad = math.radians(res.direction.degrees)  # N is +y, clockwise
    moved = at.moved(math.sin(rad) * res.distance, math.cos(rad) * res.distance)
    w.emit(
        "perk",
        f'{label} scatters {res.distance}" {res.direction.value}',
        RULE,
        scatter=res.direction.value,
        distance=res.distance,
    )
    return moved


def _blocked_at(w: Work, at: TemplateAt) -> float:
    """How far a Beam reaches before a Terrain Piece that blocks line of sight."""
    ends = at.polygon()
    line = shapely.LineString([tuple(ends[0]), tuple(ends[1])])
    start = shapely.Point(tuple(ends[0]))
    best = at.length
    for t in w.setup.field.board.terrain:
        if not t.blocks_los:
            continue
        poly = shapely.Polygon(t.polygon)
        if poly.contains(start):
            continue  # a Wielder standing in the piece shoots out of it (ruling 2)
        hit = line.intersection(poly)
        if not hit.is_empty:
            best = min(best, start.distance(hit))
    return best


def _counts(w: Work, uid: int, at: TemplateAt) -> list[tuple[float, int, int]]:
    """(distance from the template's origin, unit, models under it) for each unit under it."""
    side = w.info(uid).side
    origin = np.asarray(at.origin, dtype=np.float64)
    out = []
    for u in w.units:
        if u.uid == uid or u.location is not Location.TABLE or not u.present():
            continue
        if at.template.enemies_only and w.info(u.uid).side == side:
            continue
        xy = u.present_xy()
        info = w.info(u.uid)
        if info.base is None:
            mask = under(at, xy, info.radius)
        else:  # an oval or rectangular base or hull (§1.3): its true shape
            mask = bases.under_template(at, info.base, info.radius, xy, bases.facings(w, u.uid))
        n = int(mask.sum())
        if n:
            near = float(np.hypot(*(xy[mask] - origin).T).min())
            out.append((near, u.uid, n))
    return sorted(out)


def _context(w: Work, uid: int, target: int, wp: WeaponPlan) -> AttackContext:
    """The Attack Context against one unit under the template: the named Target's own; for
    another unit, its distance and Cover from the Wielder (a unit out of sight has Cover)."""
    if target == wp.target:
        return replace(wp.context, los_models=None)
    from warbench.rulesets.warsurge.game.targeting import view_target

    view = view_target(w, uid, target)
    cover = view.cover if view.visible else max(1, view.cover)
    tperks = perks_of(w.info(target).unit.profile.perks)
    rng = weapon_ranges(w.info(uid), w.units[uid].statuses)[wp.weapon]
    return replace(
        wp.context,
        melee=False,
        target_engaged_elsewhere=False,
        cover=cover > 0,
        cover_bonus=max(1, cover),
        distance=view.distance,
        within_half_range=view.distance <= rng / 2,
        target_point_cost=current_value(w, target),
        los_models=None,
        target_airborne=tperks.has("Airborne") or tperks.has("Jumper"),
        target_is_leader=tperks.has("Leader") or tperks.has("War Master"),
        outflank=False,
    )


def _strike(
    w: Work, uid: int, target: int, dice_users: int, wp: WeaponPlan, rank: str, own: bool = False
) -> int:
    """One Attack Sequence of the Weapon against ``target`` with ``dice_users`` x Attacks
    Attack Dice; casualties in the rules' order; the hooks an Attack fires. The HP lost."""
    if w.units[target].statuses and perk_incorporeal.immune(w, target, uid):
        w.emit("perk", f"{w.label(target)} is Incorporeal: {w.info(uid).label}'s {wp.weapon} "
               f"({rank}) does nothing to it", perk_incorporeal.RULE, unit=target)  # fmt: skip
        return 0
    reveal_struck(w, target)  # Concealed (Perks L4155): revealed before the Attack Dice
    info = w.info(uid)
    attacker = to_unit_state(w, uid)
    tstate = targeted_state(w, target, to_unit_state, uid)  # Enclosed (Perks L1248)
    tstate = split_side(w, target, uid, tstate)  # a unit split by a terrain piece (L4466)
    before = [m.hp for m in tstate.models]
    ctx = wp.context if own else _context(w, uid, target, wp)
    ctx = espionage_dice(w, uid, ctx)  # Espionage (Perks L1840): -1 within 6" of a spy
    ap = AttackPlan(
        attacker,
        tstate,
        status_dice(ctx, w.units[uid].statuses, w.units[target].statuses, wp.weapon),
        weapons=(wp.weapon,),
        users=((wp.weapon, dice_users),),
    )
    rolled = roll_attack(ap, w.dice)
    apply_rolled(ap, rolled)
    store_unit_state(w, target, tstate)
    combat_damage_share(w, target, uid, rolled.combat_damage)  # Combat Damage (L1154)
    if rolled.attacker_hp_lost:
        mine = to_unit_state(w, uid)
        allocate_loss(
            AttackPlan(attacker, mine, AttackContext(melee=True)), rolled.attacker_hp_lost
        )
        store_unit_state(w, uid, mine)
    new_cas = [i for i, m in enumerate(tstate.models) if m.hp <= 0 < before[i] and not m.removed]
    r0 = rolled.weapons[0] if rolled.weapons else None
    w.emit(
        "attack",
        f"{info.label}'s {wp.weapon} ({rank}) strikes {w.label(target)}: "
        f"{r0.attack_dice if r0 else 0} Attack Dice, {r0.successes if r0 else 0} successes, "
        f"{rolled.loss} HP lost, {len(new_cas)} casualties",
        RULE,
        unit=uid,
        target=target,
        weapon=wp.weapon,
        hp_lost=rolled.loss,
        casualties=len(new_cas),
        attack_dice=r0.attack_dice if r0 else 0,
        template=rank,
        perks=[rank],
    )
    if r0 is not None and r0.successes and w.hooks.active(Hook.ATTACK_DICE):
        w.hooks.fire(Hook.ATTACK_DICE, w, unit=target, successes=r0.successes,
                     source=wp.weapon, attacker=uid)  # fmt: skip
    if rolled.loss and w.hooks.active(Hook.HP_LOST):
        w.hooks.fire(Hook.HP_LOST, w, unit=target, amount=rolled.loss, source=wp.weapon,
                     attacker=uid)  # fmt: skip
    if w.hooks.active(Hook.CASUALTY):
        for i in new_cas:
            w.hooks.fire(Hook.CASUALTY, w, unit=target, model=i, source=wp.weapon)
    return rolled.loss


def resolve_template(
    w: Work, uid: int, wp: WeaponPlan, rank: str, tpl: Template, heavy: list[bool],
    battle: list[bool],
) -> None:  # fmt: skip
    """One share of an Attack made with a template Weapon (see the module docstring)."""
    info = w.info(uid)
    models = list(wp.models) or [m for m in w.units[uid].present()][: wp.users]
    if w.units[wp.target].location is Location.EMBARKED:
        # through a Fire Point: the rank's D6/2D6/3D6 Attack Dice (x Attacks) per Wielder
        n = sum(w.dice.roll(tpl.fire_point, f"{rank} Fire Point") for _ in models)
        _strike(w, uid, wp.target, n, wp, rank)
    elif tpl.onward:
        for m in models:
            at = lay_template(w, uid, m, wp.target, wp.weapon, tpl)
            at = replace(at, length=_blocked_at(w, at))
            leave_residue(w, uid, wp.weapon, rank, at)  # Residue (Perks L3481)
            for _, t, n in _counts(w, uid, at):
                if w.units[t].location is not Location.TABLE or not w.units[t].living():
                    continue
                if not _strike(w, uid, t, n if tpl.per_model else 1, wp, rank):
                    break  # the Beam goes on only while it causes HP Loss (L3297)
    else:
        total: dict[int, int] = {}
        order: dict[int, float] = {}
        for m in models:
            at = lay_template(w, uid, m, wp.target, wp.weapon, tpl)
            if tpl.scatter:
                at = _scatter(w, at, f"{info.label}'s {wp.weapon} ({rank})")
            leave_residue(w, uid, wp.weapon, rank, at)  # Residue, Vortex (Perks L3481, L3509)
            for near, t, n in _counts(w, uid, at):
                total[t] = total.get(t, 0) + n
                order[t] = min(order.get(t, math.inf), near)
        if not total:
            w.emit("perk", f"{info.label}'s {wp.weapon} ({rank}) strikes no model", RULE,
                   unit=uid, weapon=wp.weapon)  # fmt: skip
        for t in sorted(total, key=lambda x: (order[x], x)):
            _strike(w, uid, t, total[t], wp, rank)
    _after_share(w, uid, wp, heavy, battle)


def _after_share(w: Work, uid: int, wp: WeaponPlan, heavy: list[bool], battle: list[bool]) -> None:
    """What a share leaves: Heavy and Battle use by its models, the weapon-used hook."""
    wtype = w.info(uid).weapon_types[wp.weapon]
    for i in wp.models:
        if wtype == WeaponType.HEAVY.value:
            heavy[i] = True
        elif wtype == WeaponType.BATTLE.value:
            battle[i] = True
    if w.hooks.active(Hook.WEAPON_USED):
        w.hooks.fire(Hook.WEAPON_USED, w, unit=uid, weapon=wp.weapon, target=wp.target)


def _near_and_seen(w: Work, src: int, other: int, radius: float) -> bool:
    """Whether ``other`` has a model within ``radius`` of ``src``'s models and in sight of one
    of them."""
    from warbench.rulesets.warsurge.game.targeting import view_target

    d = bases.distances(
        w, src, w.xy(src), w.info(src).radius, other, w.xy(other), w.info(other).radius
    )
    if not d.size or float(d.min()) > radius + 1e-9:
        return False
    return bool(view_target(w, src, other).visible)


def resolve_chain(
    w: Work, uid: int, wp: WeaponPlan, rank: str, onward: bool, heavy: list[bool],
    battle: list[bool],
) -> None:  # fmt: skip
    """A Chain Weapon's share (L3353-L3375): the named Target is attacked as usual (its
    casualties in the rules' order); after HP Loss, a D6 of 4+ for each enemy unit within 6"
    and in sight of it: a success attacks that unit with the Weapon's full profile (the same
    models' Attacks), without Chain. Chain II: a unit that loses HP chains on in turn, never to
    a unit this chain already damaged."""
    damaged = [wp.target] if _strike(w, uid, wp.target, wp.users, wp, rank, own=True) else []
    struck = {wp.target}
    frontier = list(damaged)
    while frontier:
        src = frontier.pop(0)
        for u in w.units:
            t = u.uid
            if t in struck or not w.enemies(uid, t) or u.location is not Location.TABLE:
                continue
            if not u.living() or not _near_and_seen(w, src, t, 6.0):
                continue
            face = w.dice.d6(f"{rank} on {w.label(t)}")
            ok = face >= 4
            w.emit("perk", f"{rank}: D6 {face} for {w.label(t)}" + (": chained" if ok else ""),
                   RULE, unit=uid, target=t, roll=face)  # fmt: skip
            if not ok:
                continue
            struck.add(t)
            if _strike(w, uid, t, wp.users, wp, f"{rank}, chained") and onward:
                frontier.append(t)
        if not onward:
            break
    _after_share(w, uid, wp, heavy, battle)
