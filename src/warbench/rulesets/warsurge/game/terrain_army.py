"""Terrain that attacks: terrain weapons and terrain fielded in an army (Core Rules
001_d3f5e425c5e1196d.txt §10.2 L4386-4392 "Some scenery could even ... have Weapons equipped",
L4400-4408 terrain with profiles, control and contested terrain, L4424-4430 "It could be given a
profile and fielded in a player's army"; §4.1 L1861-1881 Immobile Units, "fortifications, gun
turrets, sentry guns, buildings"; §5.2-5.6 the attack; §9.2 the Attack Action).

The book leaves the players to agree how (§10.1 L4372-4381); ``docs/rulings.md`` "WARSURGE
terrain in play: session 27, s27-armyterrain" gives warbench's reading:

* A piece with ``armed: true`` (a board file's agreement) has terrain weapons: its profile's
  weapons, used by the side that alone controls the piece (L4404: a Unit within Coherency or
  embarked inside it), unavailable while it is contested (L4406-4408) or held by nobody.
* A piece with ``army: N`` is an Immobile Unit of side N (Move 0, Dash 0): always its side's,
  priced by the points model (:mod:`.terrain_army_value`).
* Either attacks with the normal Attack action ``Attack(unit=<the piece's number>, ...)``: the
  number is the one that names it as a Target (:func:`.terrain.terrain_target`: the number of
  units plus its place on the board). Standard: once in its side's Attack Phase, as one of the
  side's alternating actions (§2.2 step 4). Advanced: an Action Step of one Attack Action, at
  the Attack's CP cost doubling on reuse (§9.1-9.2), answered by the attacked units' Counter
  Actions (§9.3, ``advanced.apply_piece_action``), its casualties removed at once (§9.1 IV).
* Range is measured from the piece's footprint, line of sight and cover traced from its edge
  (as terrain Fire Points, ``terrain_fire``); the piece is never in a Melee, never moves (its
  Heavy Weapons fire), and attacks enemy units on the battlefield (not terrain).
* The attack sequence is the one ``odds`` computes (:func:`piece_attack_plan` is the plan the
  game rolls): the piece is one model with its HP left, its profile's Skill and weapons.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.attack import AttackContext, ModelState, Playstyle, UnitState
from warbench.rulesets.warsurge.battlefield.measure import terrain_control
from warbench.rulesets.warsurge.battlefield.model import Terrain
from warbench.rulesets.warsurge.game.actions import Action, Attack
from warbench.rulesets.warsurge.game.geom import Heights
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.memo import per_setup
from warbench.rulesets.warsurge.game.plans import PieceAttackPlan, WeaponPlan
from warbench.rulesets.warsurge.game.state import Location, Phase
from warbench.rulesets.warsurge.game.terrain import NO_CUSTOM_COVER, CoverEffect, custom_cover
from warbench.rulesets.warsurge.game.terrain_army_value import piece_points, piece_unit
from warbench.rulesets.warsurge.game.terrain_attacks import destroy_terrain
from warbench.rulesets.warsurge.game.terrain_fire import EYE_RADIUS, eyes, piece_distances
from warbench.rulesets.warsurge.game.work import (
    Work,
    current_value,
    err,
    store_unit_state,
    to_unit_state,
)
from warbench.rulesets.warsurge.odds import AttackPlan, apply_rolled, roll_attack

__all__ = [
    "PieceAttackPlan",
    "actor_label",
    "apply_piece_attack",
    "armed_json",
    "armed_numbers",
    "check_setup",
    "in_play",
    "pay_piece_attack",
    "piece_attack_plan",
    "piece_candidates",
    "piece_controller",
    "piece_of_number",
    "piece_refusal",
    "pieces_can_act",
    "resolve_piece_attack",
    "verify_piece_attack",
]

RULE = "§10.2 L4404-4408, L4424-4430"


@per_setup
def in_play(setup: Any) -> bool:
    """Whether the set-up's board has a piece whose weapons are in play (memoised): on every
    other board nothing here is asked, and no game changes."""
    return any(t.in_play_weapons for t in setup.field.board.terrain)


def check_setup(setup: Any) -> None:
    """Refuse a game whose board fields a piece in the army of a side it does not have."""
    for t in setup.field.board.terrain:
        if t.army is not None and t.army >= len(setup.sides):
            raise RulesError(
                f"{t.name} is fielded in the army of side {t.army}, but the game has "
                f"{len(setup.sides)} sides (0 to {len(setup.sides) - 1})",
                "§10.2 L4424-4430",
            )


def piece_of_number(w: Work, number: int) -> tuple[int, Terrain] | None:
    """The piece a unit number past the last unit names (its place and the piece as agreed on
    the board), None for a unit or a number that names nothing."""
    k = number - len(w.units)
    terrain = w.setup.field.board.terrain
    return (k, terrain[k]) if 0 <= k < len(terrain) else None


def armed_numbers(w: Work) -> list[int]:
    """The numbers of the pieces whose weapons are in play (``armed`` or ``army``)."""
    n = len(w.units)
    return [n + k for k, t in enumerate(w.setup.field.board.terrain) if t.in_play_weapons]


def _hp_left(w: Work, piece: Terrain) -> int | None:
    if piece.hp is None:
        return None
    return w.terrain_hp.get(piece.name, piece.hp)


def piece_controller(w: Work, piece: Terrain) -> frozenset[int]:
    """The sides that hold ``piece`` (§10.2 L4404: a Unit "within Coherency or embarked inside
    it"; a team acts as one player, §3.3); a piece in an army is its side's (L4424-4430)."""
    if piece.army is not None:
        return frozenset({piece.army})
    on: list[tuple[int, list[tuple[tuple[float, float], float]]]] = []
    inside: set[int] = set()
    for u in w.units:
        if u.statuses and u.wrecked:  # Wreckage (Perks L1442) is terrain, holding nothing
            continue
        info = w.setup.units[u.uid]
        side = u.controller(info.side)  # Dominate: the seizing side
        if u.terrain == piece.name and u.location in (Location.TERRAIN, Location.TABLE):
            inside.add(side)  # embarked, or a split unit's models inside (L4459-4464)
        if u.location is Location.TABLE and u.present():
            on.append((side, [(u.pos[i], info.radius) for i in u.present()]))
    return terrain_control(w.field.board, piece.name, on, inside).players


def piece_refusal(w: Work, number: int, side: int, paid: bool = False) -> tuple[str, str] | None:
    """Why ``side`` cannot attack with the piece named by ``number`` now, as ``(reason,
    rule)``, or None (before its targets are looked at)."""
    found = piece_of_number(w, number)
    if found is None:
        return f"there is no unit or terrain piece {number}", "§2.1 Unit"
    _, piece = found
    if not piece.in_play_weapons:
        weapons = bool((piece.profile or {}).get("weapons"))
        why = "has no weapons in play" if weapons else "has no profile weapons"
        return (
            f"{piece.name} {why}: a board gives a piece weapons with a profile and "
            "armed: true, or fields it in an army (army: side)",
            "§10.2 L4388-4392, L4424-4430",
        )
    left = _hp_left(w, piece)
    if left is not None and left <= 0:
        return f"{piece.name} is destroyed", "§10.3"
    phase = w.flow.phase
    if phase not in (Phase.ATTACK, Phase.ACTIONS):
        return f"terrain attacks in the Attack Phase or an Action Step, not {phase.value}", "§2.2"
    held = piece_controller(w, piece)
    if piece.army is not None and piece.army != side:
        return f"{piece.name} is a unit of {w.side_name(piece.army)}'s army", RULE
    if len(held) > 1:
        return (
            f"{piece.name} is contested by {', '.join(w.side_name(s) for s in sorted(held))}: "
            "its Weapons are unavailable until one player asserts full control",
            "§10.2 L4406-4408",
        )
    if not held:
        return (
            f"nobody controls {piece.name}: a side needs a Unit within Coherency of it or "
            "embarked inside it to use its Weapons",
            "§10.2 L4404",
        )
    if side not in held:
        return f"{piece.name} is under {w.side_name(next(iter(held)))}'s control", "§10.2 L4404"
    adv = w.flow.adv
    if phase is Phase.ATTACK:
        if piece.name in w.pieces_acted:
            return f"{piece.name} has already attacked in this Attack Phase", "§2.2 step 4"
        return None
    assert adv is not None
    if paid:
        return None
    if adv.counter is not None:
        return "a Counter Action is asked first", "§9.3"
    if adv.step_unit is not None:
        return (
            f"this Action Step directs {w.label(adv.step_unit)}; one Unit per Action Step",
            "§9.1 I",
        )
    unpaid = adv.cp_refusal(number, "Attack", side, piece.name, w.side_name(side))
    if unpaid is not None:
        return unpaid, "§9.2"
    return None


def pieces_can_act(w: Work, side: int, phase: Phase) -> bool:
    """Cheap test (before geometry): has ``side`` a piece that may still attack now?"""
    if phase not in (Phase.ATTACK, Phase.ACTIONS):
        return False
    return any(piece_refusal(w, n, side) is None for n in armed_numbers(w))


@dataclass(frozen=True)
class _View:
    distance: float
    users: tuple[str, ...]  # the piece's weapons that reach a model of the target it sees
    visible: frozenset[int]
    cover: int
    custom: CoverEffect
    elsewhere: bool  # the target is in a Melee with a unit of the piece's side (§5.8)


def _view(w: Work, piece: Terrain, side: int, target: int) -> _View | str:
    """What the piece sees of ``target`` (range from its footprint, sight and cover from its
    edge, as terrain Fire Points: ``terrain_fire``), or why it cannot attack it."""
    if not 0 <= target < len(w.units):
        return "terrain weapons attack units (a piece is no Target of another piece here)"
    u = w.units[target]
    info = w.info(target)
    if u.table_side(info.side) == side:
        return f"{info.label} is not an enemy of {w.side_name(side)}"
    if u.location is not Location.TABLE or not u.present():
        return f"{info.label} is not on the battlefield"
    field = w.field
    axy = eyes(w, piece.name)
    txy = w.xy(target)
    tr = info.radius
    d = piece_distances(w, piece.name, txy, tr)
    t = w.table()
    blockers = w.others_mask([target])
    bxy, br = t.xy[blockers], t.r[blockers]
    z: Heights | None = None
    if not field.levels.flat:
        hz = Heights(field.levels.z_of(axy), field.levels.z_of(txy), field.levels.z_of(bxy))
        if (hz.attacker > 0).any() or (hz.target > 0).any():
            z = hz
    seen = field.sight(axy, EYE_RADIUS, txy, tr, bxy, br, z, None).any(axis=0)
    unit = piece_unit(piece)
    users = tuple(wp.name for wp in unit.weapons if bool((seen & (d <= wp.range + 1e-6)).any()))
    present = u.present()
    visible = frozenset(present[j] for j in np.flatnonzero(seen))
    cover, custom = 0, NO_CUSTOM_COVER
    if visible:
        rep = field.cover_report(axy, EYE_RADIUS, txy, tr, bxy, br, z, None)
        cover = rep.bonus
        custom = custom_cover(field.board, rep.sources) if rep.bonus else NO_CUSTOM_COVER
    elsewhere = any(
        w.units[f].table_side(w.setup.units[f].side) == side for f in w.engaged_with(target)
    )
    return _View(float(d.min()), users, visible, cover, custom, elsewhere)


def verify_piece_attack(w: Work, action: Attack, side: int, paid: bool = False) -> PieceAttackPlan:
    """Check an Attack by a terrain piece (``action.unit`` its number) for ``side``: the piece
    may attack now (:func:`piece_refusal`), each share names one of its weapons once and an
    enemy unit it sees within that weapon's range (§5.3-5.4 from the piece). ``paid``: the
    Advanced Attack Action is paid already (checked again after the Counter Actions, §9.3)."""
    why = piece_refusal(w, action.unit, side, paid)
    if why is not None:
        raise err(*why)
    found = piece_of_number(w, action.unit)
    assert found is not None
    k, piece = found
    if not action.targets:
        raise err(f"{piece.name}'s Attack names no weapon and target", "§5.3")
    if action.burst or action.darkside or action.aim or action.single_out:
        raise err(f"{piece.name}'s weapons take no perk choices (rulings s27-armyterrain 6)", RULE)
    unit = piece_unit(piece)
    names = [wp.name for wp in unit.weapons]
    plans: list[WeaponPlan] = []
    used: set[str] = set()
    for share in action.targets:
        wname, target = share[0], share[1]
        if len(share) == 3 and tuple(share[2]) != (0,):
            raise err(f"{piece.name} is one model (model 0)", "§10.2, rulings terrain 3")
        if wname not in names:
            raise err(f"{piece.name} has no weapon {wname!r}; it has {', '.join(names)}", RULE)
        if wname in used:
            raise err(f"{piece.name} uses {wname} once in an Attack (one model)", "§5.3")
        used.add(wname)
        view = _view(w, piece, side, target)
        if isinstance(view, str):
            raise err(f"{piece.name} cannot attack with {wname}: {view}", "§5.3")
        if wname not in view.users:
            raise err(
                f"{piece.name} cannot use {wname} against {w.label(target)}: it does not "
                "have a model of it in range and line of sight from the piece",
                "§5.3-5.4, §6.7 (measured from the piece)",
            )
        rng = unit.weapon(wname).range
        ctx = AttackContext(
            attacker_engaged=False,
            target_engaged_elsewhere=view.elsewhere,
            cover=view.cover > 0,
            cover_bonus=max(1, view.cover) + view.custom.defence,  # §10.4
            cover_armour=view.custom.armour,
            cover_aegis=view.custom.aegis,
            cover_save=view.custom.save_needed,
            within_half_range=view.distance <= rng / 2,
            distance=view.distance,
            attacker_point_cost=piece_points(piece),
            target_point_cost=current_value(w, target),
            stationary=True,
            emergency_save=True,
            playstyle=Playstyle.STANDARD,
            los_models=view.visible,
        )
        plans.append(WeaponPlan(wname, target, 1, ctx, (0,)))
    order = {n: i for i, n in enumerate(names)}
    plans.sort(key=lambda p: order[p.weapon])  # Attack Step 6: profile order
    return PieceAttackPlan(k, action.unit, side, tuple(plans))


def _piece_state(w: Work, piece: Terrain) -> UnitState:
    unit = piece_unit(piece)
    hp = _hp_left(w, piece)
    return UnitState(
        profile=unit.profile,
        weapons={wp.name: wp for wp in unit.weapons},
        models=[ModelState(unit.profile.hp if hp is None else hp, tuple(unit.model_weapons()[0]))],
    )


def piece_attack_plan(w: Work, plan: PieceAttackPlan, share: int) -> AttackPlan:
    """The attack sequence's plan of one share, as the game rolls it (``odds.exact_attack``
    reads the same): the piece as one model with its HP left, the target as it stands."""
    piece = w.setup.field.board.terrain[plan.piece]
    wp = plan.weapons[share]
    return AttackPlan(
        _piece_state(w, piece),
        to_unit_state(w, wp.target),
        wp.context,
        weapons=(wp.weapon,),
        users=((wp.weapon, 1),),
    )


def apply_piece_attack(w: Work, plan: PieceAttackPlan) -> bool:
    """Make the piece's Attack in the Standard Attack Phase (once: ``pieces_acted``); True:
    the side's action is over. (Advanced: ``advanced.apply_piece_action`` pays the CP, asks
    the Counter Actions, then :func:`resolve_piece_attack`.)"""
    resolve_piece_attack(w, plan)
    piece = w.setup.field.board.terrain[plan.piece]
    w.pieces_acted = (*w.pieces_acted, piece.name)
    return True


def pay_piece_attack(w: Work, plan: PieceAttackPlan) -> None:
    """Advanced: pay the piece's Attack Action, 1 CP doubling on reuse by the piece (§9.2)."""
    piece = w.setup.field.board.terrain[plan.piece]
    adv = w.flow.adv
    assert adv is not None
    cost = adv.cost(plan.number, "Attack")
    adv = adv.with_cp(plan.side, -cost).with_use(plan.number, "Attack")
    w.flow = replace(w.flow, adv=adv)
    w.emit(
        "action",
        f"{piece.name}: Attack ({cost} CP; {w.side_name(plan.side)} has {adv.cp[plan.side]} CP)",
        "§9.2, §10.2",
        terrain=piece.name,
        action="Attack",
        cost=cost,
        cp=adv.cp[plan.side],
    )


def resolve_piece_attack(w: Work, plan: PieceAttackPlan) -> None:
    """Roll the piece's shares in order (§5.2, Attack Step 6); a share at a unit no longer on
    the battlefield is lost; the piece destroyed by its own weapon (Volatile) stops."""
    piece = w.setup.field.board.terrain[plan.piece]
    for k, wp in enumerate(plan.weapons):
        _resolve(w, plan, k, piece, wp)
        left = _hp_left(w, piece)
        if left is not None and left <= 0:
            break  # Volatile and the like destroyed it (§5.11)


def actor_label(setup: Any, number: int) -> str:
    """The name of the unit or, past the last unit, of the terrain piece ``number`` names."""
    if number < len(setup.units):
        label: str = setup.units[number].label
        return label
    name: str = setup.field.board.terrain[number - len(setup.units)].name
    return name


def _resolve(w: Work, plan: PieceAttackPlan, k: int, piece: Terrain, wp: WeaponPlan) -> None:
    if w.units[wp.target].location is not Location.TABLE:
        return
    ap = piece_attack_plan(w, plan, k)
    rolled = roll_attack(ap, w.dice)
    result = apply_rolled(ap, rolled)
    store_unit_state(w, wp.target, ap.target)
    own = ""
    if rolled.attacker_hp_lost and piece.hp is not None:  # its own loss (§5.11)
        now = max(0, (_hp_left(w, piece) or 0) - rolled.attacker_hp_lost)
        w.terrain_hp[piece.name] = now
        own = f"; {rolled.attacker_hp_lost} HP lost by {piece.name} ({now} left)"
    r0 = rolled.weapons[0] if rolled.weapons else None
    w.emit(
        "attack",
        f"{piece.name} attacks {w.label(wp.target)} with {wp.weapon} (from the piece, at "
        f'{wp.context.distance or 0:.1f}"): {r0.attack_dice if r0 else 0} Attack Dice, '
        f"{r0.successes if r0 else 0} successes, {rolled.loss} HP lost, "
        f"{len(result.casualties)} casualties{own}",
        "§5.2, §10.2",
        terrain=piece.name,
        target=wp.target,
        weapon=wp.weapon,
        hp_lost=rolled.loss,
        casualties=list(result.casualties),
    )
    if own and (w.terrain_hp.get(piece.name) or 0) <= 0:
        destroy_terrain(w, piece.name)


def piece_candidates(w: Work, number: int, limit: int = 3) -> list[Action]:
    """Attacks of the piece for the sampler and the players: every weapon at each of the
    ``limit`` nearest enemy units, then each weapon alone at its nearest (unchecked)."""
    side = w.flow.active
    found = piece_of_number(w, number)
    if side is None or found is None:
        return []
    _, piece = found
    near: list[tuple[float, int]] = []
    for u in w.units:
        info = w.setup.units[u.uid]
        if u.location is not Location.TABLE or not u.present():
            continue
        if u.table_side(info.side) == side:
            continue
        d = piece_distances(w, piece.name, w.xy(u.uid), info.radius)
        near.append((float(d.min()), u.uid))
    near.sort()
    out: list[Action] = []
    unit = piece_unit(piece)
    for _, t in near[:limit]:
        shares = tuple((wp.name, t) for wp in unit.weapons)
        out.append(Attack(number, shares))
        if len(shares) > 1:
            out.extend(Attack(number, (s,)) for s in shares)
    return out


def armed_json(state: Any) -> list[dict[str, object]]:
    """For views: each piece whose weapons are in play, with the number its Attack names it
    by, its weapons, its army's side (None: the controller's), the sides holding it now and
    whether it has attacked in this Attack Phase (§10.2)."""
    w = Work(state, None, DEFAULT_HOOKS)
    out: list[dict[str, object]] = []
    for number in armed_numbers(w):
        found = piece_of_number(w, number)
        assert found is not None
        piece = found[1]
        out.append(
            {
                "number": number,
                "name": piece.name,
                "weapons": [wp.name for wp in piece_unit(piece).weapons],
                "army": piece.army,
                "held_by": sorted(piece_controller(w, piece)),
                "attacked": piece.name in state.pieces_acted,
            }
        )
    return out
