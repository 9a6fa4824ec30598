"""Attacks: checking an Attack action and resolving it through the attack sequence.

Core Rules 001_d3f5e425c5e1196d.txt §5.1 (weapon profiles: Battle and Heavy weapons), §5.2 (the
attack sequence, run by :func:`~warbench.rulesets.warsurge.odds.resolve_attack`), §5.3 (split fire
between targets), §5.7-5.10 (dice, Melee modifiers, saves) and §7 (the weapon and unit perks whose
use is a choice: Burst, Darkside, Outflank, Clash).
"""

from __future__ import annotations

import copy
import itertools
import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from warbench.rulesets.warsurge.attack import (
    AttackContext,
    Playstyle,
    UnitState,
    attack_context,
)
from warbench.rulesets.warsurge.effects.movement import implacable
from warbench.rulesets.warsurge.game.actions import (
    Attack,
)
from warbench.rulesets.warsurge.game.hooks import Hook
from warbench.rulesets.warsurge.game.perk_aim import aim_refusal, aimed, picks_refusal
from warbench.rulesets.warsurge.game.perk_bodyguard import bodyguard_share, follow_on, follows_on
from warbench.rulesets.warsurge.game.perk_combat_damage import after_share as combat_damage_share
from warbench.rulesets.warsurge.game.perk_combat_damage import attack_done as combat_damage_done
from warbench.rulesets.warsurge.game.perk_defensive import reflect_share
from warbench.rulesets.warsurge.game.perk_effects import status_dice, weapon_ranges
from warbench.rulesets.warsurge.game.perk_espionage import dice_modifier as espionage_dice
from warbench.rulesets.warsurge.game.perk_furious import after_share as furious_share
from warbench.rulesets.warsurge.game.perk_grapple import GRAPPLE_PULLS, GRAPPLE_RULE
from warbench.rulesets.warsurge.game.perk_heal import heal_refusal, heals, resolve_heal
from warbench.rulesets.warsurge.game.perk_leader import leader_share
from warbench.rulesets.warsurge.game.perk_limits import (
    linked_refusal,
    target_refusal,
    uncovered,
    weapon_refusal,
)
from warbench.rulesets.warsurge.game.perk_mode import (
    chain_of,
    resolve_chain,
    resolve_template,
    template_of,
)
from warbench.rulesets.warsurge.game.perk_multistrike import divided, multi_strike, one_attack
from warbench.rulesets.warsurge.game.perk_multistrike import split_refusal as multi_split_refusal
from warbench.rulesets.warsurge.game.perk_precision import obscured, precision_first
from warbench.rulesets.warsurge.game.perk_psychotic import may_target_friend
from warbench.rulesets.warsurge.game.perk_shared import split_refusal
from warbench.rulesets.warsurge.game.perk_sight import sight_context
from warbench.rulesets.warsurge.game.perk_transport import targeted_state
from warbench.rulesets.warsurge.game.perk_trap import is_trap, place_trap
from warbench.rulesets.warsurge.game.perk_warmaster import redirect_share
from warbench.rulesets.warsurge.game.plans import AttackPlanG, WeaponPlan
from warbench.rulesets.warsurge.game.state import (
    Automation,
    CasualtyPause,
    Location,
    Status,
    UnitGS,
)
from warbench.rulesets.warsurge.game.targeting import TargetView, view_target
from warbench.rulesets.warsurge.game.terrain_attacks import (
    resolve_terrain_share,
    verify_terrain_share,
)
from warbench.rulesets.warsurge.game.terrain_split import inside_models, split_side
from warbench.rulesets.warsurge.game.transports import fires_from_transport
from warbench.rulesets.warsurge.game.work import (
    Work,
    clash_status,
    current_value,
    err,
    melee_use_status,
    perks_of,
    store_unit_state,
    to_unit_state,
)
from warbench.rulesets.warsurge.odds import AttackPlan, allocate_loss, apply_rolled, roll_attack
from warbench.rulesets.warsurge.profiles import WeaponProfile, WeaponType


def target_state(w: Work, target: int, attacker: int) -> UnitState:
    """The Targeted unit's state; a passenger of an Enclosed Transport may use the Transport's
    Defence, Armour and AEGIS (Perks L1248, ``perk_transport.enclosed_state``)."""
    st = targeted_state(w, target, to_unit_state, attacker)
    return split_side(w, target, attacker, st)  # a unit split by a terrain piece (L4466)


def verify_attack(w: Work, action: Attack) -> AttackPlanG:
    uid = action.unit
    info = w.info(uid)
    u = w.units[uid]
    if u.location is Location.EMBARKED:
        why = fires_from_transport(w, uid)
        if why is not None:
            raise err(why, "§6.5" if "passenger of a passenger" in why else "§6.7 Fire Points")
    elif u.location not in (Location.TABLE, Location.TERRAIN):  # TERRAIN: the Melee inside
        raise err(f"{info.label} is not on the battlefield", "§5.3")
    if not action.targets:
        raise err("name at least one weapon and its target", "§5.3")
    plans: list[WeaponPlan] = []
    cache: dict[Any, TargetView] = {}
    profiles = {wp.name: wp for wp in info.unit.weapons}
    present = u.present() + inside_models(u) if u.inside else u.present()  # split (L4466)
    carried = {wn for i in present for wn in info.model_weapons[i]}
    stationary = not u.unit_moved and not u.unit_dashed
    holder = w.outermost(uid)
    if holder != uid:
        stationary = stationary and not w.units[holder].unit_moved
    shares = _check_shares(w, uid, action, profiles, carried)
    if (shared := split_refusal(info.unit, shares)) is not None:  # Shared (Perks L4055)
        raise err(shared, "Perks §12.5 Shared")
    if (twin := linked_refusal(w, uid, [s[0] for s in shares])) is not None:  # Twin, Triune
        raise err(twin, "Perks §12.5 Limitation")
    uperks = perks_of(info.unit.profile.perks)
    at_terrain: list[WeaponPlan] = []
    for wname, target, chosen in shares:
        if target >= len(w.units):  # a destructible terrain piece (§10.2 B, §10.3)
            if (limit := weapon_refusal(w, uid, wname)) is not None:
                raise err(limit, "Perks §12.5 Limitation")
            at_terrain.append(verify_terrain_share(w, uid, wname, target, chosen, stationary))
            continue
        if 0 <= target < len(w.units) and heals(w, uid, wname):  # Heal (Perks L3433)
            if (why := heal_refusal(w, uid, wname, target)) is not None:
                raise err(why, "Perks §12.5 Heal")
        elif not 0 <= target < len(w.units) or (
            not w.enemies(uid, target) and not may_target_friend(w, uid, wname, target)
        ):  # Psychotic (Perks L2277): the closest unit, friend or foe
            raise err(f"unit {target} is not an enemy unit", "§5.3")
        if (limit := weapon_refusal(w, uid, wname)) is not None:  # Use I, Countdown … (Perks)
            raise err(limit, "Perks §12.5 Limitation")
        tgt = w.units[target]
        if tgt.location not in (Location.TABLE, Location.EMBARKED, Location.TERRAIN):
            raise err(f"{w.label(target)} is not on the battlefield", "§5.3")
        view = view_target(w, uid, target, cache)
        if view.reason:
            raise err(view.reason, "§6.9")
        if (aim := target_refusal(w, uid, wname, target)) is not None:  # Taunt, Trajectory …
            raise err(aim, "Perks §12.5 Targeting")
        users = list(view.users_in_range.get(wname, []))
        wtype = info.weapon_types[wname]
        moved_models = [m for m in users if u.moved[m]]
        # Implacable (Perks L2102): Heavy Weapons after a Move, with a Dice Modifier
        slowed = implacable(info.unit.profile.perks) if wtype == WeaponType.HEAVY.value else None
        if wtype == WeaponType.HEAVY.value:
            # §5.1 Heavy: the user must remain stationary; §6.8: passengers also need a
            # stationary Transport
            if holder != uid and w.units[holder].unit_moved:
                users = []
            elif slowed is None:
                users = [m for m in users if not u.moved[m]]
        if slowed is not None and not (moved_models or not stationary):
            slowed = None
        heavy_why = wtype == WeaponType.HEAVY.value and (bool(moved_models) or holder != uid)
        if chosen is not None:
            # §5.3 split fire: every model named must be able to make its Attacks
            for m in chosen:
                if m not in users:
                    why = (
                        "it has moved this Game Turn (Heavy, §5.1)"
                        if heavy_why and u.moved[m]
                        else "the target is not in its range and line of sight"
                    )
                    raise err(
                        f"model {m + 1} of {info.label} cannot use {wname} against "
                        f"{w.label(target)}: {why}",
                        "§5.1 Type" if "Heavy" in why else "§5.3-5.4",
                    )
            users = list(chosen)
        if not users:
            why = (
                "every model with it has moved this Game Turn (Heavy, §5.1)"
                if heavy_why
                else "no model with it has the target in range and line of sight"
            )
            raise err(
                f"{info.label} cannot use {wname} against {w.label(target)}: {why}",
                "§5.1 Type" if "Heavy" in why else "§5.3-5.4",
            )
        rng = weapon_ranges(info, u.statuses)[wname]  # Blind, Limit Break (Perks §12)
        wperks = perks_of(profiles[wname].perks)
        tperks = perks_of(w.info(target).unit.profile.perks)
        bare = uncovered(w, target)  # Uncover (Perks L1430): no Cover Bonus
        ctx = attack_context(  # AttackContext(...) without its __init__ (issue 10)
            melee=view.melee,
            attacker_engaged=view.attacker_engaged,
            through_fire_points=view.attacker_engaged and u.location is Location.EMBARKED,
            target_engaged_elsewhere=view.target_engaged_elsewhere,
            cover=view.cover > 0 and not bare,
            cover_bonus=max(1, view.cover) + view.custom_cover.defence,  # §10.4
            cover_armour=0 if bare else view.custom_cover.armour,
            cover_aegis=0 if bare else view.custom_cover.aegis,
            cover_save=None if bare else view.custom_cover.save_needed,  # §10.4 Cover Save
            within_half_range=view.distance <= rng / 2,
            distance=view.distance,
            attacker_point_cost=current_value(w, uid),
            target_point_cost=current_value(w, target),
            stationary=stationary,
            emergency_save=True,
            playstyle=Playstyle.STANDARD,
            los_models=None if view.melee else view.visible,
            # Perk inputs (Perks 000_94ecc6a4c74d351b.txt; docs/rulings.md "WARSURGE game")
            target_airborne=tperks.has("Airborne") or tperks.has("Jumper"),  # L3771-3775
            target_is_leader=tperks.has("Leader") or tperks.has("War Master"),  # L1136
            outflank=uperks.has("Outflank") and _outflanks(w, uid, target, wname, view.melee),
            first_use_after_engaging=wperks.has("Clash")
            and u.has_status(clash_status(wname))
            and view.attacker_engaged,  # L3785-3792
        )
        ctx = sight_context(info, wname, view.visible, ctx)  # No Line of Sight (Perks L3961)
        if slowed is not None:
            ctx = replace(ctx, status_modifiers=(*ctx.status_modifiers, slowed))
        if view.melee and tperks.has("Airborne"):  # L2076: -2 to Melee Attacks at it
            ctx = replace(ctx, status_modifiers=(*ctx.status_modifiers, (-2, "Airborne")))
        plans.append(WeaponPlan(wname, target, len(users), ctx, tuple(users)))
    # Attack Step 6: weapons in profile order (the shares of a split weapon as given)
    order = {wp.name: k for k, wp in enumerate(info.unit.weapons)}
    plans.sort(key=lambda p: order[p.weapon])
    plans = _perk_use(w, uid, action, plans)
    if action.aim:  # Force's and Trap's points (Perks L3837, L4085)
        named = [(p.weapon, p.target, p.models) for p in plans]
        if (why := aim_refusal(w, uid, action.aim, named)) is not None:
            raise err(why, "Perks §12.5 Force, Trap, Mode")
    if action.single_out:  # Precision's picks (Perks L3993)
        aims = [(p.weapon, p.target) for p in plans]
        if (why := picks_refusal(w, uid, action.single_out, aims)) is not None:
            raise err(why, "Perks §12.5 Precision")
    # shares at destructible terrain go last, in profile order; Burst and Darkside are chosen
    # for shares at units only (docs/rulings.md "WARSURGE terrain in play" 2)
    plans += sorted(at_terrain, key=lambda p: order[p.weapon])
    return AttackPlanG(uid, tuple(plans))


def _check_shares(
    w: Work,
    uid: int,
    action: Attack,
    profiles: dict[str, WeaponProfile],
    carried: set[str],
) -> list[tuple[str, int, tuple[int, ...] | None]]:
    """The shares of an Attack, checked: a weapon at one target with every model that can
    use it, or split among targets with the models of each share named (§5.3, 001
    L2311-2319: "three Sniper Rifles attack Target A, and two Sniper Rifles attack Target
    B"); a model's Attacks with one weapon go at one unit."""
    info = w.info(uid)
    u = w.units[uid]
    present = set(u.present()) | set(inside_models(u))  # a split unit's inside too (L4466)
    count: dict[str, int] = {}
    pairs: set[tuple[str, int]] = set()
    for share in action.targets:
        count[share[0]] = count.get(share[0], 0) + 1
        if (share[0], share[1]) in pairs:
            t = share[1]
            raise err(
                f"{share[0]} is aimed at {w.label(t) if 0 <= t < len(w.units) else t} twice; "
                "a weapon Targets a unit once (name each share's models once)",
                "§5.3",
            )
        pairs.add((share[0], share[1]))
    out: list[tuple[str, int, tuple[int, ...] | None]] = []
    firing: dict[str, dict[int, int]] = {}
    for share in action.targets:
        wname, target = share[0], share[1]
        chosen = tuple(share[2]) if len(share) == 3 else None
        if wname not in profiles:
            raise err(f"{info.label} has no weapon {wname!r}; it has {sorted(profiles)}", "§5.1")
        if wname not in carried:
            raise err(f"no model of {info.label} on the table carries {wname}", "§5.3")
        if chosen is None and count[wname] > 1:
            raise err(
                f"{wname} is split among {count[wname]} targets: name the models firing at "
                "each (each model's Attacks with a weapon go at one unit)",
                "§5.3",
            )
        if chosen is not None:
            if not chosen:
                raise err(f"name at least one model firing {wname}", "§5.3")
            seen = firing.setdefault(wname, {})
            for m in chosen:
                if m not in present or wname not in info.model_weapons[m]:
                    raise err(
                        f"model {m + 1} of {info.label} does not carry {wname} on the table",
                        "§5.3",
                    )
                if multi_strike(info, wname):  # Multi-Strike (Perks L3943): checked below
                    seen[m] = target
                    continue
                if m in seen and seen[m] != target:
                    raise err(
                        f"model {m + 1} of {info.label} aims its {wname} at two units; all of "
                        "a model's Attacks with a weapon go at one unit",
                        "§5.3",
                    )
                if m in seen:
                    raise err(f"model {m + 1} of {info.label} is named twice for {wname}", "§5.3")
                seen[m] = target
        out.append((wname, target, chosen))
    for wname in {s[0] for s in out if multi_strike(info, s[0])}:
        namings = [c for wn, _, c in out if wn == wname and c is not None]
        if (why := multi_split_refusal(info, wname, namings)) is not None:
            raise err(why, "Perks §12.5 Multi-Strike")
    return out


def _outflanks(w: Work, uid: int, target: int, weapon: str, melee: bool) -> bool:
    """Outflank (P L1348-1349): the weapon's first use in a Melee, against a Target already
    engaged by another unit."""
    if not melee or w.units[uid].has_status(melee_use_status(weapon)):
        return False
    holder = w.outermost(uid)
    th = w.outermost(target)
    return any(f not in (uid, holder) for f in w.engaged_with(th))


def _perk_use(w: Work, uid: int, action: Attack, plans: list[WeaponPlan]) -> list[WeaponPlan]:
    """Burst and Darkside (Perks §12.5, "Activate"): the action's choices, else the
    engine's (:data:`~.state.Automation.PERK_USE`), checked against the perks' limits."""
    info = w.info(uid)
    u = w.units[uid]
    profiles = {wp.name: wp for wp in info.unit.weapons}
    used = {p.weapon for p in plans}
    auto = Automation.PERK_USE in w.setup.automation
    burst: dict[str, bool] = {}
    for wname, on in action.burst:
        if wname not in used:
            raise err(f"Burst on {wname}, which is not used in this Attack", "Perks §12.5 Burst")
        if on and not perks_of(profiles[wname].perks).has("Burst"):
            raise err(f"{wname} has no Burst perk", "Perks §12.5 Burst")
        if on and u.used(f"Burst:{wname}"):
            raise err(
                f"{info.label} has used Burst on {wname} already (Limited Use 1, once per game)",
                "Perks §12.5 Burst",
            )
        burst[wname] = on
    dark: dict[str, tuple[int, int]] = {}
    for wname, power, attacks in action.darkside:
        if wname not in used:
            raise err(
                f"Darkside on {wname}, which is not used in this Attack", "Perks §12.5 Darkside"
            )
        if (power or attacks) and not perks_of(profiles[wname].perks).has("Darkside"):
            raise err(f"{wname} has no Darkside perk", "Perks §12.5 Darkside")
        if not (0 <= power <= 3 and 0 <= attacks <= 3):
            raise err(
                f"Darkside buys +0 to +3 Power and +0 to +3 Attacks, not +{power} Power and "
                f"+{attacks} Attacks",
                "Perks §12.5 Darkside",
            )
        dark[wname] = (power, attacks)
    hp = u.current_hp
    risked = sum((p + a) * sum(1 for pl in plans if pl.weapon == wn) for wn, (p, a) in dark.items())
    if risked > hp:
        raise err(
            f"Darkside risks {risked} HP but {info.label} has {hp} HP left",
            "Perks §12.5 Darkside",
        )
    for wname in sorted(used, key=lambda n: [p.weapon for p in plans].index(n)):
        wperks = perks_of(profiles[wname].perks)
        mine = [k for k, p in enumerate(plans) if p.weapon == wname]
        if wperks.has("Burst") and wname not in burst:
            burst[wname] = (
                auto and not u.used(f"Burst:{wname}") and _burst_pays(w, uid, plans, mine)
            )
        if wperks.has("Darkside") and wname not in dark and auto:
            dark[wname] = _best_darkside(w, uid, plans, mine, hp - risked)
            risked += sum(dark[wname]) * len(mine)
    out = []
    for p in plans:
        on = burst.get(p.weapon, False)
        power, attacks = dark.get(p.weapon, (0, 0))
        if on or power or attacks:
            p = replace(
                p,
                context=replace(
                    p.context, burst=on, darkside_power=power, darkside_attacks=attacks
                ),
            )
        out.append(p)
    return out


def _expected(w: Work, uid: int, plan: WeaponPlan, ctx: AttackContext) -> tuple[float, float]:
    """Expected HP lost by the target and by the attacker for one share (exact odds)."""
    from warbench.kernel.errors import EnumerationTooLarge
    from warbench.rulesets.warsurge.odds import exact_attack

    ap = AttackPlan(
        to_unit_state(w, uid),
        target_state(w, plan.target, uid),
        ctx,
        weapons=(plan.weapon,),
        users=((plan.weapon, plan.users),),
    )
    try:
        odds = exact_attack(ap)
    except EnumerationTooLarge:
        return math.nan, math.nan
    return odds.expected_hp_lost, odds.expected_attacker_hp_lost


def _burst_pays(w: Work, uid: int, plans: Sequence[WeaponPlan], mine: Sequence[int]) -> bool:
    """Automated Burst: use it when doubling the Attacks raises the expected HP lost (it does
    not when the target falls either way); a use too large to enumerate uses it."""
    gain = 0.0
    for k in mine:
        p = plans[k]
        base, _ = _expected(w, uid, p, p.context)
        more, _ = _expected(w, uid, p, replace(p.context, burst=True))
        if math.isnan(base) or math.isnan(more):
            return True
        gain += more - base
    return gain > 1e-9


def _best_darkside(
    w: Work, uid: int, plans: Sequence[WeaponPlan], mine: Sequence[int], budget: int
) -> tuple[int, int]:
    """Automated Darkside: the +Power/+Attacks with the best expected points (the target's
    expected HP lost at its value per HP, minus the User's own at its value per HP), never
    risking more HP than the unit has; nothing bought unless it pays."""
    own = w.info(uid)
    own_per_hp = own.value / own.max_hp if own.max_hp else 0.0
    best, best_score = (0, 0), 0.0
    base_score: float | None = None
    for power in range(4):
        for attacks in range(4):
            if (power + attacks) * len(mine) > budget:
                continue
            score = 0.0
            for k in mine:
                p = plans[k]
                tinfo = w.info(p.target)
                per_hp = tinfo.value / tinfo.max_hp if tinfo.max_hp else 0.0
                ctx = replace(p.context, darkside_power=power, darkside_attacks=attacks)
                lost, own_lost = _expected(w, uid, p, ctx)
                if math.isnan(lost):
                    return (0, 0)
                score += lost * per_hp - own_lost * own_per_hp
            if base_score is None:
                base_score = best_score = score
            elif score > best_score + 1e-9:
                best, best_score = (power, attacks), score
    return best


def apply_attack(w: Work, plan: AttackPlanG, action: Attack) -> bool:
    """Resolve the Attack's weapons in order (§5.2). Without
    :attr:`~.state.Automation.CASUALTY_SELECTION`, a weapon whose HP loss leaves the target's
    controller a choice of casualties (§5.11) stops the Attack there: ``w.pause`` holds the
    rest, :func:`resume_attack` carries on. True when the Attack is finished."""
    u = w.units[plan.uid]
    return _attack_from(
        w, plan, 0, list(u.heavy), list(u.battle), None, (w.before.units, action, ())
    )


def resume_attack(w: Work, models: tuple[int, ...]) -> bool:
    """Carry on the waiting Attack with the casualties chosen (``models`` first, §5.11), on
    a copy of the dice as they stood after its roll. True when the Attack is finished."""
    p = w.pause
    assert p is not None
    w.use_dice(copy.deepcopy(p.dice))
    origin = (p.origin, p.action, (*p.choices, models))
    return _attack_from(w, p.plan, p.weapon, list(p.heavy), list(p.battle), models, origin)


def _attack_from(
    w: Work,
    plan: AttackPlanG,
    start: int,
    heavy: list[bool],
    battle: list[bool],
    chosen: tuple[int, ...] | None,
    origin: tuple[tuple[UnitGS, ...], Attack, tuple[tuple[int, ...], ...]],
) -> bool:
    with aimed(origin[1].aim, origin[1].single_out):  # Force, Trap, Precision (perk_aim)
        return _attack_steps(w, plan, start, heavy, battle, chosen, origin)


def _attack_steps(
    w: Work,
    plan: AttackPlanG,
    start: int,
    heavy: list[bool],
    battle: list[bool],
    chosen: tuple[int, ...] | None,
    origin: tuple[tuple[UnitGS, ...], Attack, tuple[tuple[int, ...], ...]],
) -> bool:
    uid = plan.uid
    info = w.info(uid)
    ask = Automation.CASUALTY_SELECTION not in w.setup.automation
    for k in itertools.count(start):  # the plan may lose shares on the way (Grapple: _remeasure)
        if k >= len(plan.weapons):
            break
        if k != start or chosen is None:  # Reflect (Perks L1617), War Master (L2057), Leader
            plan = redirect_share(w, reflect_share(w, plan, k), k, target_refusal)
            plan = leader_share(w, plan, k)  # Leader (L2017): its unit takes the damage first
            plan = bodyguard_share(w, plan, k)  # Bodyguard (L1935): it takes the damage first
        wp = plan.weapons[k]
        if wp.target >= len(w.units):  # at a destructible terrain piece (§10.3)
            resolve_terrain_share(w, uid, wp)
            _mark_type(info.weapon_types[wp.weapon], wp.models, heavy, battle)
            continue
        if not w.enemies(uid, wp.target) and heals(w, uid, wp.weapon):  # Heal (Perks L3433)
            _mark_type(info.weapon_types[wp.weapon], wp.models, heavy, battle)
            resolve_heal(w, uid, wp)
            continue
        if (k != start or chosen is None) and is_trap(w, uid, wp.weapon):  # Trap (Perks L4085)
            place_trap(w, uid, wp)
            _mark_type(info.weapon_types[wp.weapon], wp.models, heavy, battle)
            continue
        if (k != start or chosen is None) and (mode := template_of(info, wp.weapon)):
            resolve_template(w, uid, wp, *mode, heavy, battle)  # Mode templates (perk_mode.py)
            continue
        if (k != start or chosen is None) and (chain := chain_of(info, wp.weapon)):
            resolve_chain(w, uid, wp, *chain, heavy, battle)  # Chain (perk_mode.py)
            continue
        attacker = to_unit_state(w, uid)
        target = target_state(w, wp.target, uid)  # Enclosed (Perks L1248): the Transport's stats
        before = [m.hp for m in target.models]
        ctx = status_dice(wp.context, w.units[uid].statuses, w.units[wp.target].statuses, wp.weapon)
        if divided(info, plan, wp):  # Multi-Strike (Perks L3943): each naming one Attack
            ctx = one_attack(attacker.weapons, wp.weapon, ctx)
        ap = AttackPlan(
            attacker,
            target,
            espionage_dice(w, uid, ctx),  # Espionage (Perks L1840): -1 within 6" of a spy
            weapons=(wp.weapon,),
            users=((wp.weapon, wp.users),),
        )
        own_choice: tuple[int, ...] | None = None
        if k == start and chosen is not None:
            p = w.pause
            assert p is not None
            rolled = rest = p.rolled
            if p.own:  # the target's HP loss is applied; the attacker's own waited
                own_choice = chosen
                before = list(p.target_state[0])
                target = copy.deepcopy(p.target_state[1])
            else:  # Precision (Perks L3993): the attacker's models first, as before the pause
                rest = precision_first(w, wp.target, wp.weapon, ap, rolled)
                ap = replace(ap, casualty_preference=chosen)
            w.pause = None
        else:
            rolled = roll_attack(ap, w.dice, follows_on(w, wp.target))  # Bodyguard (L1935)
            rolled = obscured(w, wp.target, wp.weapon, rolled)  # Obscured L1587
            rest = precision_first(w, wp.target, wp.weapon, ap, rolled)  # Precision (L3993)
            if ask:
                order = ap.casualty_order()
                if len(order) > 1 and 0 < rest.loss < sum(target.models[i].hp for i in order):
                    w.pause = CasualtyPause(
                        uid,
                        wp.target,
                        k,
                        rest.loss,
                        tuple(order),
                        tuple(heavy),
                        tuple(battle),
                        plan,
                        rolled,
                        copy.deepcopy(w.dice),
                        *origin,
                    )
                    w.emit(
                        "choose casualties",
                        f"{w.label(wp.target)} loses {rest.loss} HP to {info.label}'s "
                        f"{wp.weapon}: {w.side_name(w.info(wp.target).side)} chooses the "
                        "casualties",
                        "§5.11",
                        unit=wp.target,
                        loss=rest.loss,
                        candidates=list(order),
                    )
                    return False
        if own_choice is None:
            apply_rolled(ap, rest)
            store_unit_state(w, wp.target, target)
            combat_damage_share(w, wp.target, uid, rest.combat_damage)  # Perks L1154
            follow_on(w, uid, wp.target, wp.weapon, rest.follow_on, wp.context)  # L1935
        if rolled.attacker_hp_lost:
            own = to_unit_state(w, uid)
            if wp.target == uid:
                own = target
            own_plan = AttackPlan(attacker, own, AttackContext(melee=True))
            if own_choice is not None:
                own_plan = replace(own_plan, casualty_preference=own_choice)
            elif ask and _own_choice_waits(own_plan, rolled.attacker_hp_lost):
                # the attacker's controller chooses its own casualties (§5.11)
                w.pause = CasualtyPause(
                    uid,
                    uid,
                    k,
                    rolled.attacker_hp_lost,
                    tuple(own_plan.casualty_order()),
                    tuple(heavy),
                    tuple(battle),
                    plan,
                    rolled,
                    copy.deepcopy(w.dice),
                    *origin,
                    own=True,
                    target_state=(tuple(before), copy.deepcopy(target)),
                )
                w.emit(
                    "choose casualties",
                    f"{info.label} loses {rolled.attacker_hp_lost} HP from its own "
                    f"{wp.weapon}: {w.side_name(info.side)} chooses the casualties",
                    "§5.11",
                    unit=uid,
                    loss=rolled.attacker_hp_lost,
                    candidates=list(w.pause.candidates),
                )
                return False
            allocate_loss(own_plan, rolled.attacker_hp_lost)
            store_unit_state(w, uid, own)
        _mark_type(info.weapon_types[wp.weapon], wp.models, heavy, battle)
        new_cas = [
            i for i, m in enumerate(target.models) if m.hp <= 0 < before[i] and not m.removed
        ]
        ctx = wp.context
        how = "in a Melee" if ctx.melee else f'at {ctx.distance:.1f}"'
        extra = f", Cover +{ctx.cover_bonus}" if ctx.cover else ""
        fired = _perks_fired(w, uid, wp)
        if fired:
            extra += ", " + ", ".join(fired)
        r0 = rolled.weapons[0] if rolled.weapons else None
        data: dict[str, Any] = {}
        if fired:
            data["perks"] = fired
        w.emit(
            "attack",
            f"{info.label} attacks {w.label(wp.target)} with {wp.weapon} ({wp.users} models, "
            f"{how}{extra}): {r0.attack_dice if r0 else 0} Attack Dice, "
            f"{r0.successes if r0 else 0} successes, {rolled.loss} HP lost, "
            f"{len(new_cas)} casualties"
            + (
                f"; {rolled.attacker_hp_lost} HP lost by the attacker"
                if rolled.attacker_hp_lost
                else ""
            ),
            "§5.2",
            unit=uid,
            target=wp.target,
            weapon=wp.weapon,
            hp_lost=rolled.loss,
            casualties=len(new_cas),
            **data,
        )
        pulls = w.units[uid].counter(GRAPPLE_PULLS)  # Grapple (Perks L3869), below
        if r0 is not None and r0.successes and w.hooks.active(Hook.ATTACK_DICE):
            w.hooks.fire(
                Hook.ATTACK_DICE, w, unit=wp.target, successes=r0.successes, source=wp.weapon,
                attacker=uid,
            )  # fmt: skip
        if rolled.loss and w.hooks.active(Hook.HP_LOST):
            w.hooks.fire(
                Hook.HP_LOST, w, unit=wp.target, amount=rolled.loss, source=wp.weapon, attacker=uid
            )
        if w.hooks.active(Hook.WEAPON_USED):
            w.hooks.fire(Hook.WEAPON_USED, w, unit=uid, weapon=wp.weapon, target=wp.target)
        if w.hooks.active(Hook.CASUALTY):
            for i in new_cas:
                w.hooks.fire(Hook.CASUALTY, w, unit=wp.target, model=i, source=wp.weapon)
        if r0 is not None and r0.attack_dice > r0.successes:  # Furious (Perks L2003)
            furious_share(w, uid, wp.weapon, r0.attack_dice, r0.successes)
        if k + 1 < len(plan.weapons) and w.units[uid].counter(GRAPPLE_PULLS) != pulls:
            plan = _remeasure(w, plan, k + 1)
    w.set_unit(uid, heavy=tuple(heavy), battle=tuple(battle))
    combat_damage_done(w, uid)  # Combat Damage's 2 is spent (Perks L1154)
    _after_perk_uses(w, plan)
    return True


def _remeasure(w: Work, plan: AttackPlanG, start: int) -> AttackPlanG:
    """Grapple (Perks L3869): "If the User is yet to attack with other Weapons in this Attack
    Sequence, measure the Range of these Weapons after applying Grapple, and apply Melee effects
    if now engaged in a Melee": the shares still to come at units are checked again where the
    units now stand (their models that still can, Burst and Darkside as chosen); a share none
    of whose models can is dropped."""
    from warbench.kernel.errors import RulesError

    kept = list(plan.weapons[:start])
    for wp in plan.weapons[start:]:
        if wp.target >= len(w.units):
            kept.append(wp)
            continue
        try:
            new = verify_attack(w, Attack(plan.uid, ((wp.weapon, wp.target),))).weapons[0]
            able = set(new.models)  # the namings kept, repeated ones too (Multi-Strike)
            models = tuple(m for m in wp.models if m in able) if wp.models else new.models
            if not models:
                raise err("its models no longer have the Target in Range and sight", "§5.3")
        except RulesError as exc:
            w.emit("perk", f"{w.label(plan.uid)}'s {wp.weapon} can no longer attack "
                   f"{w.label(wp.target)} after the Grapple: {exc.reason}", GRAPPLE_RULE,
                   unit=plan.uid, weapon=wp.weapon, target=wp.target)  # fmt: skip
            continue
        ctx = replace(new.context, burst=wp.context.burst, darkside_power=wp.context.darkside_power,
                      darkside_attacks=wp.context.darkside_attacks)  # fmt: skip
        kept.append(replace(new, users=len(models), context=ctx, models=models))
    return replace(plan, weapons=tuple(kept))


def _mark_type(wtype: str, models: Sequence[int], heavy: list[bool], battle: list[bool]) -> None:
    """The models that used a Heavy or Battle weapon (§5.1, for the rest of the Game Turn)."""
    for i in models:
        if wtype == WeaponType.HEAVY.value:
            heavy[i] = True
        elif wtype == WeaponType.BATTLE.value:
            battle[i] = True


def _own_choice_waits(own_plan: AttackPlan, loss: int) -> bool:
    """The attacker's controller has a choice of casualties for its own HP loss (§5.11):
    more than one model may lose it and the loss does not take them all."""
    order = own_plan.casualty_order()
    return len(order) > 1 and 0 < loss < sum(own_plan.target.models[i].hp for i in order)


def _perks_fired(w: Work, uid: int, wp: WeaponPlan) -> list[str]:
    """The situational perks this share used (for the event and the summary)."""
    ctx = wp.context
    info = w.info(uid)
    wperks = perks_of(info.unit.weapon(wp.weapon).perks)
    uperks = perks_of(info.unit.profile.perks)
    out = []
    if wperks.rank("Anti-Air") and ctx.target_airborne:
        out.append("Anti-Air +1")
    if uperks.has("Assassin") and ctx.target_is_leader:
        out.append("Assassin")
    if uperks.has("Outflank") and ctx.melee and ctx.outflank:
        out.append("Outflank +2 Power")
    if wperks.has("Clash") and ctx.first_use_after_engaging:
        out.append("Clash +1 Attack")
    if wperks.has("Burst") and ctx.burst:
        out.append("Burst")
    if wperks.has("Darkside") and (ctx.darkside_power or ctx.darkside_attacks):
        out.append(f"Darkside +{ctx.darkside_power} Power +{ctx.darkside_attacks} Attacks")
    return out


def _after_perk_uses(w: Work, plan: AttackPlanG) -> None:
    """What the Attack leaves on the unit: Burst spent (once per game), a Clash weapon's
    first use after engaging made, a weapon used in the current Melee (Outflank)."""
    uid = plan.uid
    info = w.info(uid)
    outflank = perks_of(info.unit.profile.perks).has("Outflank")
    for name in dict.fromkeys(p.weapon for p in plan.weapons):
        shares = [p for p in plan.weapons if p.weapon == name]
        u = w.units[uid]
        if any(p.context.burst for p in shares) and not u.used(f"Burst:{name}"):
            w.units[uid] = u = u.with_use(f"Burst:{name}")
            w.dirty = True
        statuses = list(u.statuses)
        if u.has_status(clash_status(name)):
            statuses = [s for s in statuses if s.name != clash_status(name)]
        melee = any(p.context.melee for p in shares)
        if outflank and melee and not u.has_status(melee_use_status(name)):
            statuses.append(Status(melee_use_status(name), None, "Outflank"))
        if tuple(statuses) != u.statuses:
            w.set_unit(uid, statuses=tuple(statuses))
