"""Attacks (004_f4ea5693af0644ce.txt L461-L497, L551-L563): targeting, the adjustment charts,
the XkY rolls, Hero Points, Massed Attacks, firing into close combat, Special Powers (L826-L846).

The dice are the WarEngine kernel's (``warengine/dice.py``): :func:`roll_xky` with the face
rules of :func:`attack_faces` / :func:`defense_faces`, :func:`massed` for Massed Attacks, the
same functions ``warbench warengine odds`` computes exactly. Adjustments add up and are then
clamped once by :meth:`XkY.adjusted` (never more than five kept, L487).

An attack is rolled at once (attack and every defense, L493: "both attacker and defender roll
their dice before adding any Hero Points") and queued as a :class:`Resolution`; Hero Point
decisions follow (the attacker first), then it is resolved.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from warbench.kernel.dice import Dice
from warbench.play.core import Event
from warbench.rulesets.warengine.dice import (
    ROUT_TARGET,
    Adjustment,
    FaceRule,
    XkY,
    attack_faces,
    defense_faces,
    massed,
    roll_xky,
)
from warbench.rulesets.warengine.game import kit
from warbench.rulesets.warengine.game.area import secondary_targets
from warbench.rulesets.warengine.game.board import COVER_NAMES, ENTRENCHING, HEAVY, LIGHT, NO_COVER
from warbench.rulesets.warengine.game.control import force_leader_for, led_by_frother, mental_of
from warbench.rulesets.warengine.game.effects import Effect, effects_of
from warbench.rulesets.warengine.game.measure import (
    enemies_in_contact,
    free_spot,
    gap,
    in_close_combat,
    in_contact,
    on_table,
    sees,
    sees_many,
)
from warbench.rulesets.warengine.game.powers import (
    ENEMY_KINDS,
    apply_power,
    chanted,
    only_refusal,
    only_user,
)
from warbench.rulesets.warengine.game.setup import Context, WeaponProfile
from warbench.rulesets.warengine.game.setup import fig_name as _n
from warbench.rulesets.warengine.game.state import Attack, Fig, GameState, Resolution, rule
from warbench.rulesets.warengine.game.terrain import deflected, end_walls
from warbench.rulesets.warengine.tables import catalogue

ENEMY_POWERS = ENEMY_KINDS
MENTAL_TABLE = catalogue().mental
A0 = Adjustment(1, 0)
A1 = Adjustment(1, 1)
A2 = Adjustment(2, 2)


@dataclass(frozen=True)
class Refused:
    """Why an attack is not allowed: the sentence and the book line."""

    reason: str
    rule: str


# --------------------------------------------------------------------------------------------
# What a weapon may do
# --------------------------------------------------------------------------------------------


def weapon_of(ctx: Context, fid: int, wi: int) -> WeaponProfile | None:
    """Weapon ``wi`` of figure ``fid`` (None if it has no such weapon)."""
    ws = ctx.profiles[fid].weapons
    return ws[wi] if 0 <= wi < len(ws) else None


def is_enemy_power(w: WeaponProfile) -> bool:
    """A Special Power that affects enemies (rolled against Mental, L830)."""
    return w.power is not None and any(e.kind in ENEMY_POWERS for e in _power_effects(w))


def targets_corpse(w: WeaponProfile) -> bool:
    """A power used on a destroyed figure (Actuate Casualty, L1009)."""
    return any(e.kind == "power_corpse" for e in _power_effects(w))


def aimed(w: WeaponProfile) -> bool:
    """A power aimed at a figure only to give it a direction (Wave, L1345): any figure in
    sight and range may be named, and 10 or more succeeds (no one resists, docs/rulings.md)."""
    return any(e.kind == "power_aimed" for e in _power_effects(w))


def _power_effects(w: WeaponProfile) -> tuple[Effect, ...]:
    return effects_of("power", (w.power,)) if w.power else ()


def reach(w: WeaponProfile) -> float:
    """How far a close combat weapon reaches: base contact, or 2"/3" (Long, Very Long)."""
    return float(w.param("reach", 0.0))


def cover_of(state: GameState, ctx: Context, a: Fig, t: Fig) -> tuple[int, str]:
    """The target's cover level against the attacker, from the board (L437-L457)."""
    return ctx.field.cover((a.x, a.y), (t.x, t.y))


def can_reach(
    state: GameState, ctx: Context, a: Fig, w: WeaponProfile, t: Fig, *, power_cc: bool = True
) -> Refused | None:
    """Range, base contact and line of sight for ``a`` attacking ``t`` with ``w``."""
    d = gap(ctx, a, t)
    if w.cc and w.power is None:
        if d > reach(w) + 0.01:
            what = "base-to-base contact" if not reach(w) else f'{reach(w):g}"'
            return Refused(
                f"{w.name} is a close combat weapon: the target must be within {what} "
                f'(it is {d:.2f}" away)',
                rule(463),
            )
        return None
    if w.power is not None and power_cc and d <= 0.01:
        return None  # Special Powers may always be used in close combat (L838)
    if w.power is None and in_close_combat(state, ctx, a):
        return Refused(
            "a figure in base-to-base contact with an enemy may not make ranged attacks",
            rule(465),
        )
    if not sees(state, ctx, a, t):
        return Refused(f"{_n(ctx, a)} has no line of sight to {_n(ctx, t)}", rule(429))
    if w.power is None and (wall := deflected(ctx, a, t)) is not None:
        return Refused(f"the {wall} deflects fire through it", rule(1321))
    rng = w.range if w.range is not None else 0.0
    if w.has("range_vs_open") and cover_of(state, ctx, a, t)[0] == NO_COVER:
        rng += float(w.param("range_vs_open"))
    bonus = a.bonus.get("range", 0)
    if d > rng + bonus + 1e-9:
        return Refused(f'{_n(ctx, t)} is {d:.2f}" away, beyond {w.name}\'s {rng:g}"', rule(465))
    return None


def allowed_targets(
    state: GameState, ctx: Context, a: Fig, w: WeaponProfile, unit: int
) -> list[int]:
    """The figures of ``unit`` that ``a`` may target with ``w`` (L467-L469): the closest
    figure it can attack (ties: any of them), or the closest one in the open when the closest
    are in cover; a Sniper who has not moved may pick any (L1633)."""
    eagle = ctx.profiles[a.id].has("eagle_eye")
    figs = state.units[unit].figs
    if not (w.cc and w.power is None):
        # only figures within the longest range the weapon may have can be targeted; the
        # battlefield is asked about their sight lines at once
        most = (w.range or 0.0) + a.bonus.get("range", 0) + float(w.param("range_vs_open", 0.0))
        if w.power is not None:
            most = max(most, 0.01)  # Special Powers may always be used in close combat (L838)
        figs = [i for i in figs if on_table(g := state.figs[i]) and gap(ctx, a, g) <= most + 1e-9]
        sees_many(state, ctx, a, [state.figs[i] for i in figs if i != a.id])
    valid = [
        i
        for i in figs
        if on_table(state.figs[i])
        and i != a.id
        and (eagle or "invisible" not in state.figs[i].bonus or state.figs[i].side == a.side)
        and can_reach(state, ctx, a, w, state.figs[i]) is None
    ]
    if not valid or (w.cc and w.power is None):
        return valid
    if ctx.profiles[a.id].has("sniper") and not a.moved:
        return valid
    d = {i: gap(ctx, a, state.figs[i]) for i in valid}
    near = min(d.values())
    out = [i for i in valid if d[i] - near < 1e-6]
    open_ = [i for i in valid if cover_of(state, ctx, a, state.figs[i])[0] == NO_COVER]
    if open_ and not any(i in open_ for i in out):
        near_open = min(d[i] for i in open_)
        out += [i for i in open_ if d[i] - near_open < 1e-6]
    return out


def weapon_refusal(
    state: GameState, ctx: Context, f: Fig, wi: int, *, reserve_use: bool = False
) -> Refused | None:
    """Whether figure ``f`` may use its weapon ``wi`` now (before looking at a target)."""
    w = weapon_of(ctx, f.id, wi)
    if w is None:
        n = len(ctx.profiles[f.id].weapons)
        return Refused(f"{_n(ctx, f)} has weapons 0 to {n - 1}, not {wi}", rule(465))
    if reserve_use:
        if f.reserved != wi:
            return Refused(f"{_n(ctx, f)} has no reserved attack with {w.name}", rule(573))
        return None
    if f.done:
        kept = weapon_of(ctx, f.id, f.reserved) if f.reserved is not None else None
        still = f"; it may still use its reserved {kept.name} (L579)" if kept else ""
        return Refused(
            f"{_n(ctx, f)} has reserved an attack: its actions are over{still}", rule(573)
        )
    if "coup" in f.bonus:
        return Refused(f"{_n(ctx, f)} counts coup until the Follow Up step", rule(1373))
    if "halted" in f.bonus:
        return Refused(f"{_n(ctx, f)} may not act this turn (a Special Power)", rule(838))
    if f.mode == "fast":
        return Refused(f"{_n(ctx, f)} made a Fast Move and may not attack", rule(415))
    both = kit.set_refusal(state, ctx, f, wi)  # Restore Vehicle Spirit's combined figure
    if both is not None:
        return Refused(both, rule(1201))
    if any(ctx.profiles[f.id].weapons[k].slot == w.slot for k in f.fired):
        return Refused(f"{_n(ctx, f)} has already used {w.name} this activation", rule(399))
    if wi in f.one_shot:
        return Refused(f"{w.name} is One Shot or has failed for good", rule(1723))
    if w.has("slow_reload") and f.reloaded.get(wi, -9) == state.turn - 1:
        return Refused(f"{w.name} has Slow Reload: fired last turn", rule(1735))
    if w.has("move_or_fire") and f.moved:
        return Refused(f"{w.name} is Move or Fire and {_n(ctx, f)} has moved", rule(1717))
    return None


def own_reserve(state: GameState, f: Fig, wi: int) -> bool:
    """Whether an attack of figure ``f`` with weapon ``wi`` uses its reserved attack in its
    own unit's activation (L579): it reserved that weapon (its actions are over, L573) and its
    unit is the one activating."""
    return f.done and f.reserved == wi and f.unit in state.active_units


def attack_refusal(state: GameState, ctx: Context, a: Attack, player: int) -> Refused | None:
    """Every check of an Attack action by the active player (L461-L497, L551-L555)."""
    if not 0 <= a.fig < len(state.figs):
        return Refused(f"there is no figure {a.fig}", rule(465))
    f = state.figs[a.fig]
    if f.side != player or f.unit not in state.active_units or not on_table(f):
        return Refused(f"figure {a.fig} is not in the unit you are activating", rule(399))
    # L579: a figure that reserved may use that reserved attack later in its own unit's
    # activation ("then use the first figure's reserve fire"); its other weapons stay refused
    own = own_reserve(state, f, a.weapon)
    bad = weapon_refusal(state, ctx, f, a.weapon, reserve_use=own)
    if bad:
        return bad
    w = ctx.profiles[f.id].weapons[a.weapon]
    return target_refusal(state, ctx, f, w, a.target, a.helpers, a.secondary)


def target_refusal(
    state: GameState,
    ctx: Context,
    f: Fig,
    w: WeaponProfile,
    target: int,
    helpers: tuple[int, ...] = (),
    secondary: tuple[int, ...] = (),
) -> Refused | None:
    """The target, Massed Attack helpers and Close Combat area targets of an attack."""
    if targets_corpse(w):
        from warbench.rulesets.warengine.game.allegiance import corpse_refusal

        dead = corpse_refusal(state, ctx, f, target)  # Actuate Casualty (L1009)
        return Refused(f"{w.power}: {dead}", rule(1009)) if dead else None
    if not 0 <= target < len(state.figs) or not on_table(state.figs[target]):
        return Refused(f"figure {target} is not on the table", rule(467))
    t = state.figs[target]
    friendly_power = w.power is not None and not is_enemy_power(w)
    if w.power is not None:
        why_not = only_refusal(state, ctx, _power_effects(w), t, f)
        if why_not:
            return Refused(f"{w.power}: {why_not}", rule(838))
    if friendly_power:
        either = any(e.kind == "power_either_side" for e in _power_effects(w))
        if t.side != f.side and not aimed(w) and not either:
            return Refused(f"{w.power} affects friendly figures only", rule(830))
        if only_user(_power_effects(w)) and t.id != f.id:
            return Refused(f"{w.power} affects only its user", rule(838))
        if t.id != f.id:
            bad = can_reach(state, ctx, f, w, t)
            if bad:
                return bad
        if helpers or secondary:
            return Refused("Special Powers may not be used in Massed Attacks", rule(836))
        return None
    swarm = "swarm" in f.bonus and not w.cc
    if swarm and t.unit != closest_unit(state, ctx, f):
        return Refused(
            f"{_n(ctx, f)} sees an Illusionary Swarm: it must fire on the closest unit, "
            "friend or foe",
            rule(1111),
        )
    if t.side == f.side and not swarm and "rage_any" not in f.bonus:  # Blood Rage's 1 (L1367)
        return Refused(
            "attacks target enemy figures (friends are hit only by area effects)", rule(471)
        )
    if w.has("cybernetic_only") and not (
        ctx.profiles[t.id].has("cybernetic") or "Vehicle" in ctx.profiles[t.id].tweaks
    ):
        return Refused(f"{w.name} may only affect Cybernetic figures or vehicles", rule(1699))
    if target not in allowed_targets(state, ctx, f, w, t.unit):
        why = can_reach(state, ctx, f, w, t)
        if why:
            return why
        return Refused(
            f"{_n(ctx, t)} is not the closest figure of its unit you may target", rule(469)
        )
    if f.vendetta is not None and f.vendetta != target:
        foe = state.figs[f.vendetta]
        if on_table(foe) and can_reach(state, ctx, f, w, foe) is None:
            return Refused(
                f"{_n(ctx, f)} is Vindictive: it attacks {_n(ctx, foe)} until it is destroyed "
                "or out of sight or range",
                rule(1457),
            )
    if ctx.profiles[f.id].has("glory_hound"):
        best = _glory_targets(state, ctx, f, w)
        if target not in best:
            return Refused(
                "a Glory Hound must attack the available target with the highest base "
                f"Defense ({best})",
                rule(1379),
            )
    if helpers:
        if w.power is not None:
            return Refused("Special Powers may not be used in Massed Attacks", rule(836))
        groups = set(state.active_units) if f.unit in state.active_units else {f.unit}
        for h in helpers:
            if h == f.id or helpers.count(h) > 1 or not 0 <= h < len(state.figs):
                return Refused(f"helper {h} is not another figure of the unit", rule(553))
            hf = state.figs[h]
            if not on_table(hf) or hf.unit not in groups or hf.reserved is None:
                return Refused(
                    f"helper {h} must be in the same unit and have a reserved attack", rule(553)
                )
            hw = ctx.profiles[h].weapons[hf.reserved]
            if hw.cc != w.cc or hw.power is not None:
                return Refused(
                    "all attackers of a Massed Attack use the same kind of weapon "
                    "(all ranged or all close combat)",
                    rule(553),
                )
            if can_reach(state, ctx, hf, hw, t) is not None:
                return Refused(f"helper {h} cannot reach the target with {hw.name}", rule(553))
    if secondary:
        if w.aet != "CC":
            return Refused("only Close Combat area effect weapons choose their targets", rule(513))
        if len(secondary) > w.ae - 1 or len(set(secondary)) != len(secondary):
            return Refused(f"{w.name} affects at most {w.ae - 1} other figures", rule(513))
        for s in secondary:
            if s == target or not 0 <= s < len(state.figs) or not on_table(state.figs[s]):
                return Refused(
                    f"secondary target {s} is not another figure on the table", rule(513)
                )
            if not in_contact(ctx, f, state.figs[s]):
                return Refused(f"secondary target {s} is not in base contact", rule(513))
    return None


def closest_unit(state: GameState, ctx: Context, f: Fig) -> int | None:
    """The unit, friend or foe other than its own, with the figure closest to ``f``."""
    best: tuple[float, int] | None = None
    for g in state.figs:
        if g.unit != f.unit and on_table(g):
            d = (gap(ctx, f, g), g.unit)
            if best is None or d < best:
                best = d
    return None if best is None else best[1]


def _glory_targets(state: GameState, ctx: Context, f: Fig, w: WeaponProfile) -> list[int]:
    """Glory Hound (L1379): of every target ``f`` could attack with ``w``, those with the
    highest base Defense."""
    from warbench.rulesets.warengine.tables import catalogue

    table = catalogue().defense
    cands = [
        i
        for u in state.units
        if u.side != f.side and not u.gone
        for i in allowed_targets(state, ctx, f, w, u.id)
    ]
    if not cands:
        return []
    rank = {i: table.index(str(ctx.profiles[i].df)) for i in cands}
    top = max(rank.values())
    return [i for i in cands if rank[i] == top]


# --------------------------------------------------------------------------------------------
# The adjustment charts (L473-L485)
# --------------------------------------------------------------------------------------------


def _sum(adjs: list[Adjustment]) -> Adjustment:
    return Adjustment(sum(a.rolled for a in adjs), sum(a.kept for a in adjs))


def sixes_as_fives(faces: FaceRule, f: Fig) -> list[str]:
    """Why ``f``'s roll reads its sixes as fives, for the roll's event (session 33: the log
    said "rolls [6] = 5" and no reason): an uncontrolled figure (L393, L589), or one in a
    Summon Rain Storm, whose Attack rolls are made "as if they were uncontrolled" (L1273)."""
    if faces.cap >= 6:
        return []
    if f.controlled and "rained" in f.bonus:
        return ["Summon Rain Storm: sixes read as fives (L1273)"]
    return ["uncontrolled: sixes read as fives (L393)"]


def attack_pool(
    state: GameState, ctx: Context, f: Fig, w: WeaponProfile, t: Fig, helpers: int = 0
) -> tuple[XkY, FaceRule, list[str]]:
    """The attack roll's pool and face rule, and why (L473-L476, L555, L425)."""
    prof = ctx.profiles[f.id]
    why: list[str] = [f"{w.name} {w.av}"]
    adjs: list[Adjustment] = []
    cc = w.cc or (w.power is not None and in_contact(ctx, f, t))
    if w.has("mental_attack") or w.power is not None:
        rain = "rained" in f.bonus  # Summon Rain Storm: sixes as fives (L1273)
        faces = attack_faces(uncontrolled=not f.controlled or rain)
        return w.av, faces, why + ["no adjustments"]
    if not f.moved and not in_close_combat(state, ctx, f) and "swarm" not in f.bonus:
        adjs.append(A0)  # (not while firing at an Illusionary Swarm, L1111)
        why.append("Did Not Move +1k0")
    for e in w.effects:
        if e.kind == "attack" and isinstance(e.param, Adjustment):
            adjs.append(e.param)
            why.append(f"{e.source or 'weapon'} {e.param}")
    for e in prof.effects:
        if (
            e.kind == "attack"
            and isinstance(e.param, Adjustment)
            and (e.when == "always" or (e.when == "cc") == cc)
        ):
            adjs.append(e.param)
            why.append(f"{e.source or e.when} {e.param}")
    if cc and led_by_frother(state, ctx, f.id) and not prof.has("attack"):
        adjs.append(A0)
        why.append("Frother Command: Frenzied +1k0")
    if f.charged and cc:
        bonus = A0 if ctx.profiles[t.id].big else A1
        adjs.append(bonus)
        why.append(f"Charge {bonus}")
    if "next_attack" in f.bonus:
        adjs.append(A1)
        why.append("Guide Attack +1k1")
    if "attack" in f.bonus:
        adjs.append(A0)
        why.append("Pounding Rage +1k0")
    if "illuminated" in t.bonus:
        adjs.append(A0)
        why.append("Illuminate Enemy +1k0")
    if cc and "cc_attack" in f.bonus:
        adjs.append(A2)
        why.append("Brute Strength +2k2")
    pool = w.av.adjusted(_sum(adjs)) if adjs else w.av
    if helpers:
        mob = cc and "mob" in f.bonus  # Mob Mentality: +2k1 a helper, up to five kept (L1149)
        pool = massed(pool, helpers, mob_mentality=mob)
        why.append(f"Massed Attack x{helpers}" + (" (Mob Mentality)" if mob else ""))
    floor = int(w.param("attack_floor", 1))
    charging = bool(
        (w.has("charging_weapon") or (cc and "blessed" in f.bonus))
        and f.charged
        and f.charge_from >= 6.0 - 1e-9
    )
    faces = attack_faces(
        uncontrolled=not f.controlled or "rained" in f.bonus,  # Summon Rain Storm (L1273)
        extra_bite=floor >= 2,
        charging_weapon=charging,
        war_chant=chanted(state, ctx, f),
    )
    return pool, faces, why


def defense_pool(
    state: GameState,
    ctx: Context,
    a: Fig,
    w: WeaponProfile,
    t: Fig,
    *,
    cover: int | None = None,
    basic: bool = False,
) -> tuple[XkY, FaceRule, list[str]]:
    """The defense roll's pool and face rule, and why (L478-L485); Mental against Mental
    Attacks and Special Powers (L830, L1801)."""
    prof = ctx.profiles[t.id]
    ap = w.has("armor_piercing")
    faces = defense_faces(
        defender_type=prof.type,
        uncontrolled=not t.controlled,
        armor_piercing=ap,
        war_chant=chanted(state, ctx, t),
    )
    if w.has("mental_attack") or w.power is not None:
        mn = _resisting_mental(state, ctx, w, t) or XkY(5, 5)
        if (
            prof.has("cybernetic")
            and w.power is not None
            and not any(e.kind == "power_no_cybernetic_bonus" for e in _power_effects(w))
        ):
            return mn.adjusted(A0), faces, [f"Mental {mn}", "Cybernetic +1k0"]
        return mn, faces, [f"Mental {mn}"]
    if basic:
        return prof.df, faces, [f"Defense {prof.df}"]
    if ctx.projections and prof.has("projection"):  # the user's Mental, always (L1021)
        mn = prof.mn or XkY(5, 5)
        return mn, faces, [f"the user's Mental {mn} (a projection)"]
    if "fat" in t.bonus:  # an actuated corpse (Actuate Casualty, L1009)
        return XkY(1, 1), faces, ["Defense 1k1 (actuated corpse)"]
    why = [f"Defense {prof.df}"]
    adjs: list[Adjustment] = []
    level = cover_of(state, ctx, a, t)[0] if cover is None else cover
    # cover as the weapon and the figure allow (L480-L483, L1783, L1835, L1409, L1531, L1445)
    if prof.has("no_cover_bonus"):
        level_eff = NO_COVER
    else:
        level_eff = level
        if level_eff == ENTRENCHING and prof.has("avoid_cover"):
            level_eff = HEAVY
    ignore_all = w.has("ignore_cover")
    if level_eff == NO_COVER and "shield" in t.bonus:
        level_eff = LIGHT  # Shield of God: the Light Cover bonus when not in cover (L1209)
        why.append("Shield of God")
    bonus: Adjustment | None = None
    if level_eff == LIGHT:
        if not (ignore_all or w.has("ignore_light") or prof.has("obvious")):
            bonus = A1
    elif level_eff == HEAVY:
        if not ignore_all:
            bonus = A1 if prof.has("obvious") else A2
    elif level_eff == ENTRENCHING:
        bonus = A1 if ignore_all else A2
    if bonus is not None:
        adjs.append(bonus)
        why.append(f"{COVER_NAMES[level_eff]} {bonus}")
    heavy_blocks_dnm = level_eff >= HEAVY and not ignore_all
    cc = w.cc or (w.power is not None and in_contact(ctx, a, t))
    if (
        not t.moved
        and not in_close_combat(state, ctx, t)
        and not heavy_blocks_dnm
        and not prof.has("no_dnm_defense")
    ):
        adjs.append(A0)
        why.append("Did Not Move +1k0")
    for e in prof.effects:
        if e.kind == "defense" and isinstance(e.param, Adjustment):
            ok = (
                e.when == "always"
                or (e.when == "vs_cc" and cc)
                or (e.when == "in_cover" and level_eff > NO_COVER)
                or (e.when == "no_cover" and level_eff == NO_COVER)
            )
            if ok:
                adjs.append(e.param)
                why.append(f"{e.source or e.when} {e.param}")
    if cc:
        for pw in prof.weapons:
            if pw.has("parry"):
                adjs.append(A0)
                why.append("Parry Weapon +1k0")
                break
        if t.entangled_by is not None:
            adjs.append(Adjustment(-1, -1))
            why.append("entangled -1k1")
    if "defense" in t.bonus:
        adjs.append(A0)
        why.append("power +1k0")
    if "next_defense" in t.bonus:
        adjs.append(A1)
        why.append("Stone Skin +1k1")
    pool = prof.df.adjusted(_sum(adjs)) if adjs else prof.df
    return pool, faces, why


# --------------------------------------------------------------------------------------------
# Rolling and resolving
# --------------------------------------------------------------------------------------------


def declare(
    state: GameState,
    ctx: Context,
    f: Fig,
    wi: int,
    target: int,
    helpers: tuple[int, ...],
    secondary: tuple[int, ...],
    dice: Dice,
    events: list[Event],
    *,
    free: bool = False,
    reserve_use: bool = False,
    via: int | None = None,
    av: XkY | None = None,
    at: tuple[float, float] | None = None,
    lose: str | None = None,
) -> None:
    """Make an attack: bookkeeping, jams, rolls; queue it for Hero Points (L461-L497).
    ``via`` and ``av`` are a power's choices: Telepathic Command's character (L1297), Induce
    Drug Frenzy's lower Attack Value (L1123)."""
    w = ctx.profiles[f.id].weapons[wi]
    t = state.figs[target]
    if not free:
        kit.note_set(state, ctx, f, wi)  # L1201: its own attacks or the vehicle's this turn
        if reserve_use:  # Bushwhacker: the next of its reserved weapons (L1471)
            f.reserved = f.reserve_more.pop(0) if f.reserve_more else None
        else:
            f.fired.append(wi)
            f.attacked = True
            if ctx.projections and w.power is not None:  # one use for user and projection
                from warbench.rulesets.warengine.game.astral import mirror_use

                mirror_use(state, ctx, f, wi)
        for h in helpers:
            g = state.figs[h]
            g.reserved = g.reserve_more.pop(0) if g.reserve_more else None
        if w.has("one_shot"):
            f.one_shot.append(wi)
        if w.has("slow_reload"):
            f.reloaded[wi] = state.turn
        if w.has("jam"):
            face = dice.d6(f"{w.name}: jam check")
            if face >= 5:
                lost = face == 6
                if lost:
                    f.one_shot.append(wi)
                events.append(
                    Event(
                        "jam",
                        f"{_n(ctx, f)}'s {w.name} rolls {face}: "
                        + (
                            "fails for the rest of the game" if lost else "jams, the shot is wasted"
                        ),
                        rule(1705),
                    )
                )
                if lost and w.param("jam"):  # Volatile: the user is attacked by it (L1743)
                    _queue(state, ctx, f, w, wi, [f.id], dice, events, label="Volatile")
                return
    if ctx.profiles[f.id].has("guiltridden") and ctx.profiles[t.id].type in ("T", "E") and not free:
        ok = mental_test(ctx, f, dice, "Guiltridden", state=state)
        events.append(
            Event(
                "guilt",
                f"{_n(ctx, f)} Guiltridden test: {'passed' if ok else 'failed'}",
                rule(1385),
            )
        )
        if not ok:
            return
    if not free and not detected(state, ctx, f, t, dice, events):
        return
    if ctx.profiles[f.id].has("vindictive"):
        f.vendetta = t.id
    if w.power is not None:
        if av is not None:
            w = replace(w, av=av)
        _power(state, ctx, f, w, t, dice, events, via=via, at=at, lose=lose)
        f.bonus.pop("next_attack", None)
        f.bonus.pop("range", None)
        return
    if w.has("time_delay") and not free:
        t.burning.append([f.id, wi, 2, 0])
        events.append(Event("delay", f"{w.name} will go off in the Follow Up step", rule(1741)))
        return
    targets = [t.id]
    if w.ae > 1:
        targets = secondary_targets(state, ctx, f, w, t, secondary, dice)
    elif not w.cc and in_close_combat(state, ctx, t):
        targets = _into_combat(state, ctx, f, w, t, dice, events)
    _queue(state, ctx, f, w, wi, targets, dice, events, helpers=len(helpers))
    if helpers and w.cc and "mob" in f.bonus:  # Mob Mentality is spent on this attack
        for i in state.units[f.unit].figs:
            state.figs[i].bonus.pop("mob", None)
    f.bonus.pop("next_attack", None)
    f.bonus.pop("range", None)
    if not w.cc:
        f.bonus.pop("chanting", None)  # War Chant ends when the chanter fires (L1335)
        end_walls(state, f.id, events)  # so do its Walls of Air and Fire (L1321, L1327)
    if (
        ctx.profiles[f.id].has("terrifying")
        and gap(ctx, f, t) <= 18.0
        and f"terrified {t.unit}" not in f.marks  # once a game per unit (L1649)
    ):
        f.marks.append(f"terrified {t.unit}")
        state.units[t.unit].must_test = True
    state.units[t.unit].attacked_this_turn = True
    if w.has("recoil") and not free:
        _recoil(state, ctx, f, t, float(w.param("recoil")))


def detected(
    state: GameState, ctx: Context, f: Fig, t: Fig, dice: Dice, events: list[Event]
) -> bool:
    """Stealthy (L1645): a Stealthy figure in cover and not in base contact may be attacked
    only once detected: a Mental test, -1k1 if it did not move or is in heavy or entrenching
    cover. Eagle Eye (L1507) and a Tracker's unit within 18" of the Tracker (L1663) detect
    it at once. A figure that fails loses the attack."""
    prof = ctx.profiles[t.id]
    if "invisible" in t.bonus and t.side != f.side:  # Invisibility (L1141): Eagle Eye + Mental
        seen = mental_test(ctx, f, dice, "Invisibility: detection", state=state)
        events.append(
            Event(
                "detect",
                f"{_n(ctx, f)} {'sees' if seen else 'does not see'} the invisible {_n(ctx, t)}",
                rule(1141),
            )
        )
        if not seen:
            return False
    stealthy = prof.has("stealthy") or "stealthy" in t.bonus  # Skulk in Shadows (L1221)
    if not stealthy or "exposed" in t.bonus or t.side == f.side or in_contact(ctx, f, t):
        return True
    level = cover_of(state, ctx, f, t)[0]
    if level == NO_COVER or ctx.profiles[f.id].has("eagle_eye"):
        return True
    for i in state.units[f.unit].figs:
        g = state.figs[i]
        if on_table(g) and ctx.profiles[i].has("tracker") and gap(ctx, g, t) <= 18.0 + 1e-9:
            return True
    hard = not t.moved or level >= HEAVY
    ok = mental_test(
        ctx, f, dice, "Stealthy: detection", *([Adjustment(-1, -1)] if hard else []), state=state
    )
    events.append(
        Event(
            "detect",
            f"{_n(ctx, f)} {'detects' if ok else 'fails to detect'} {_n(ctx, t)} (Stealthy)",
            rule(1645),
        )
    )
    return ok


def _into_combat(
    state: GameState,
    ctx: Context,
    f: Fig,
    w: WeaponProfile,
    t: Fig,
    dice: Dice,
    events: list[Event],
) -> list[int]:
    """Firing into close combat (L563): as many of the figures in the combat as the
    attack keeps dice, chosen at random when fewer."""
    combat = [t.id] + [
        g.id
        for g in state.figs
        if g.id != t.id and on_table(g) and g.side != t.side and in_contact(ctx, t, g)
    ]
    kept = attack_pool(state, ctx, f, w, t)[0].kept
    if kept >= len(combat):
        return combat
    chosen: list[int] = []
    pool = list(combat)
    while len(chosen) < kept:
        k = (dice.d6("firing into close combat: which figure") - 1) % len(pool)
        chosen.append(pool.pop(k))
    events.append(
        Event(
            "combat fire",
            f"firing into close combat: {len(chosen)} of {len(combat)} figures affected",
            rule(563),
        )
    )
    return chosen


def _recoil(state: GameState, ctx: Context, f: Fig, t: Fig, inches: float) -> None:
    """Heavy Recoil (L1707): the firer moves 1" away from the target (where it can)."""
    dx, dy = f.x - t.x, f.y - t.y
    n = math.hypot(dx, dy) or 1.0
    x, y = f.x + dx / n * inches, f.y + dy / n * inches
    x, y = round(x, 6), round(y, 6)
    if ctx.field.passable((f.x, f.y), (x, y), ctx.profiles[f.id].radius) is None and free_spot(
        state, ctx, f, x, y
    ):
        f.x, f.y = round(x, 6), round(y, 6)
        f.moved = True


def _queue(
    state: GameState,
    ctx: Context,
    f: Fig,
    w: WeaponProfile,
    wi: int,
    targets: list[int],
    dice: Dice,
    events: list[Event],
    *,
    helpers: int = 0,
    label: str = "",
) -> None:
    primary = state.figs[targets[0]]
    pool, faces, why = attack_pool(state, ctx, f, w, primary, helpers)
    roll = roll_xky(dice, pool, faces, f"{_n(ctx, f)} attacks with {w.name}")
    flat = frenzy_flat(f, w)
    if flat:
        why.append(f"Induce Drug Frenzy {flat:+d}")
    why = why + sixes_as_fives(faces, f)
    events.append(
        Event(
            "attack roll",
            f"{_n(ctx, f)} attacks with {w.name} {pool} ({', '.join(why)}): rolls "
            f"{list(roll.faces)} = {roll.total + flat}",
            rule(471),
            {
                "fig": f.id,
                "weapon": wi,
                "pool": str(pool),
                "faces": list(roll.faces),
                "total": roll.total + flat,
            },
        )
    )
    rows: list[list[int]] = []
    pools: dict[int, tuple[XkY, FaceRule]] = {}
    for i, tid in enumerate(targets):
        t = state.figs[tid]
        if ctx.profiles[tid].has("kamikaze") and (w.cc or in_contact(ctx, f, t)):
            rows.append([tid, -1])  # L1397: destroyed automatically when attacked in CC
            continue
        cover = None
        if i > 0 and w.aet == "Ex" and not sees(state, ctx, f, t):
            cover = HEAVY  # L523: secondary targets out of sight are in Heavy Cover
        dpool, dfaces, dwhy = defense_pool(state, ctx, f, w, t, cover=cover)
        d = roll_xky(dice, dpool, dfaces, f"{_n(ctx, t)} defends")
        dwhy = dwhy + sixes_as_fives(dfaces, t)
        events.append(
            Event(
                "defense roll",
                f"{_n(ctx, t)} defends {dpool} ({', '.join(dwhy)}): "
                f"rolls {list(d.faces)} = {d.total}",
                rule(471),
                {"fig": tid, "pool": str(dpool), "faces": list(d.faces), "total": d.total},
            )
        )
        t.bonus.pop("next_defense", None)
        rows.append([tid, d.total])
        pools[tid] = (dpool, dfaces)
    res = Resolution(f.id, wi, label or w.name, roll.total + flat, rows, cc=w.cc, flat=flat)
    res.pools = [[f.id, pool.rolled, pool.kept, faces.floor, faces.cap]] + [
        [tid, p.rolled, p.kept, fr.floor, fr.cap] for tid, (p, fr) in pools.items()
    ]
    res.effects = [e.kind for e in w.effects if e.kind in ("entangling", "follow_up")]
    if w.has("follow_up"):
        res.effects.append("follow_up:" + str(w.param("follow_up")))
    state.queue.append(res)


def frenzy_flat(f: Fig, w: WeaponProfile) -> int:
    """Induce Drug Frenzy (L1123): +1 on close combat attack rolls and -1 on ranged ones
    for each rolled die of the power's Attack Value."""
    n = f.bonus.get("frenzy_r", 0)
    return (n if w.cc else -n) if n and w.power is None else 0


#: The rerolls of a roll made on behalf of a figure: the tweak and its line.
REROLL_LINES = {
    "Lucky Bastard": 1585,
    "Charmed": 1489,
    "Hard Luck": 1391,
    "Fickle Finger of Fate": 1519,
}


def reroll_available(ctx: Context, g: Fig, *, forced: bool) -> str | None:
    """The tweak that may reroll a roll made on behalf of ``g`` now, or None: its owner's
    (``forced`` False: Lucky Bastard L1585 once a turn, then Fickle Finger of Fate's Lucky
    Bastard, then Charmed L1489 once a game) or the opponent's (``forced``: Hard Luck L1391
    once a game, Fickle Finger of Fate's Hard Luck L1519 until the figure next activates)."""
    prof = ctx.profiles[g.id]
    fickle = g.bonus.get("fickle", 0)
    if forced:
        if any(e.kind == "reroll_forced" for e in prof.effects) and "Hard Luck" not in g.marks:
            return "Hard Luck"
        if fickle == 1 and "hard_luck_used" not in g.bonus:
            return "Fickle Finger of Fate"
        return None
    for e in prof.effects:
        if e.kind == "reroll_own" and e.param == "turn" and "lucky_used" not in g.bonus:
            return "Lucky Bastard"
    if fickle == 2 and "lucky_used" not in g.bonus:
        return "Fickle Finger of Fate"
    for e in prof.effects:
        if e.kind == "reroll_own" and e.param == "game" and "Charmed" not in g.marks:
            return "Charmed"
    return None


def spend_reroll(g: Fig, why: str, *, forced: bool) -> None:
    """Mark a reroll tweak's use as spent."""
    if why == "Hard Luck":
        g.marks.append("Hard Luck")
    elif why == "Charmed":
        g.marks.append("Charmed")
    elif why == "Lucky Bastard" or (why == "Fickle Finger of Fate" and not forced):
        g.bonus["lucky_used"] = 1
    else:
        g.bonus["hard_luck_used"] = 1


def reroll_use(state: GameState, ctx: Context, g: Fig, *, goes_its_way: bool) -> str | None:
    """The engine's choice (each ``reroll`` decision's default, docs/rulings.md): the
    figure's owner rerolls a roll that loses, the opponent has one that goes its way
    rerolled; the tweak used (its use then spent), or None."""
    forced = goes_its_way
    why = reroll_available(ctx, g, forced=forced)
    if why is not None:
        spend_reroll(g, why, forced=forced)
    return why


def _targets_unit(effects: tuple[Effect, ...]) -> bool:
    """Whether an enemy power targets a whole unit (Terror, Illuminate Enemy, Instill
    Overwhelming Greed, Chittering Hordes, Televangelism, Speaking in Tongues)."""
    return any(
        e.kind in ("power_rout_test", "power_unit_tag_enemy")
        or (e.kind == "power_halt" and e.param != "figure")
        for e in effects
    )


def _resisting_mental(state: GameState, ctx: Context, w: WeaponProfile, t: Fig) -> XkY | None:
    """The Mental ``t`` resists with: its own (or one Telepathic Command lent it, L1297); a
    Force Leader's better one against a power that targets its unit (L1537)."""
    mn = mental_of(state, ctx, t.id)
    if mn is None or w.power is None or not _targets_unit(_power_effects(w)):
        return mn
    fl = force_leader_for(state, ctx, t.unit)
    if fl is None:
        return mn
    theirs = ctx.profiles[fl].mn
    if theirs is None or MENTAL_TABLE.index(str(theirs)) > MENTAL_TABLE.index(str(mn)):
        return theirs
    return mn


#: Static Charge's zap (L1249): a 2k2 attack, as a close combat weapon without tweaks.
ZAP = WeaponProfile(-1, "Static Charge", None, XkY(2, 2), 1, None, None, (), ())


def vengequan(ctx: Context, fid: int) -> bool:
    """Whether a figure is of the Vengequan faction (unaffected by Summon Rain Storm, L1273)."""
    from warbench.rulesets.warengine.game.factions import of_faction

    return of_faction(ctx, fid, "Vengequan")


def rain_storms(state: GameState, ctx: Context) -> None:
    """Summon Rain Storm (L1273): every figure within a storm's 6" radius area now is soaked
    (``rained``) for the rest of the turn. Storms are kept on their summoner (``storm_x`` /
    ``storm_y`` in thousandths of an inch) until the Follow Up step."""
    import math

    for s in state.figs:
        if "storm_r" not in s.bonus:
            continue
        cx, cy, r = s.bonus["storm_x"] / 1000, s.bonus["storm_y"] / 1000, s.bonus["storm_r"]
        for g in state.figs:
            if vengequan(ctx, g.id):  # "any non-Vengequan figures" (L1273)
                continue
            if on_table(g) and math.hypot(g.x - cx, g.y - cy) - ctx.profiles[g.id].radius <= r:
                g.bonus["rained"] = 1


def static_charge(
    state: GameState, ctx: Context, mover: Fig, dice: Dice, events: list[Event]
) -> bool:
    """Static Charge (L1249): the first enemy figure to come into base contact with a charged
    figure (or that a charged figure comes into contact with) is zapped with a 2k2 attack
    before anything else happens; the charge is then spent. True when a zap is queued."""
    if not on_table(mover):
        return False
    pairs: list[tuple[Fig, Fig]] = []
    if "static" in mover.bonus:
        pairs += [(mover, g) for g in enemies_in_contact(state, ctx, mover)]
    pairs += [(g, mover) for g in enemies_in_contact(state, ctx, mover) if "static" in g.bonus]
    if not pairs:
        return False
    zapper, victim = pairs[0]
    zapper.bonus.pop("static")
    roll = roll_xky(dice, ZAP.av, attack_faces(uncontrolled=not zapper.controlled), "zap")
    dpool, dfaces, dwhy = defense_pool(state, ctx, zapper, ZAP, victim)
    d = roll_xky(dice, dpool, dfaces, f"{_n(ctx, victim)} defends")
    events.append(
        Event(
            "static charge",
            f"{_n(ctx, zapper)}'s Static Charge zaps {_n(ctx, victim)}: 2k2 rolls "
            f"{list(roll.faces)} = {roll.total} against {dpool} ({', '.join(dwhy)}) "
            f"{list(d.faces)} = {d.total}",
            rule(1249),
        )
    )
    state.queue.append(
        Resolution(zapper.id, -1, "Static Charge", roll.total, [[victim.id, d.total]])
    )
    return True


def mental_test(
    ctx: Context, f: Fig, dice: Dice, label: str, *adj: Adjustment, state: GameState | None = None
) -> bool:
    """A Mental test: roll Mental, 10 or more passes (L613); Automatic Mental passes."""
    mn = ctx.profiles[f.id].mn if state is None else mental_of(state, ctx, f.id)
    if mn is None:
        return True
    pool = mn.adjusted(*adj) if adj else mn
    r = roll_xky(dice, pool, FaceRule(1, 6 if f.controlled else 5), label)
    return r.total >= ROUT_TARGET


def _power(
    state: GameState,
    ctx: Context,
    f: Fig,
    w: WeaponProfile,
    t: Fig,
    dice: Dice,
    events: list[Event],
    *,
    via: int | None = None,
    at: tuple[float, float] | None = None,
    lose: str | None = None,
) -> None:
    """A Special Power (L828-L846): against an enemy the Attack Value is rolled against the
    target's Mental with no adjustments; on a friend, 10 or more succeeds."""
    assert w.power is not None
    pool, faces, _ = attack_pool(state, ctx, f, w, t)
    roll = roll_xky(dice, pool, faces, f"{w.power}")
    if t.side == f.side or aimed(w) or not t.alive:  # nobody resists (Wave; a corpse, L1009)
        ok = roll.total >= ROUT_TARGET
        detail = f"{roll.total} (needs 10)"
    else:
        mn = _resisting_mental(state, ctx, w, t)
        if mn is None:
            ok, detail = False, f"{roll.total} against Automatic Mental"
        else:
            dpool, dfaces, _ = defense_pool(state, ctx, f, w, t)
            d = roll_xky(dice, dpool, dfaces, f"{_n(ctx, t)} resists")
            ok = roll.total > d.total
            detail = f"{roll.total} against Mental {d.total}"
    events.append(kit.power_event(ctx, f, w.power, t, detail, ok, w.power))
    if not ok:
        if any(e.kind == "power_failing_cc_attack" for e in _power_effects(w)):
            # Devour (L1059): on a failure, a standard close combat attack against Defense,
            # which the target may answer with Hero Points
            plain = WeaponProfile(w.slot, w.name, None, w.av, 1, None, None, (), ())
            pool, faces, why = attack_pool(state, ctx, f, plain, t)
            again = roll_xky(dice, pool, faces, f"{_n(ctx, f)} attacks with {w.name}")
            dpool, dfaces, dwhy = defense_pool(state, ctx, f, plain, t)
            d = roll_xky(dice, dpool, dfaces, f"{_n(ctx, t)} defends")
            events.append(
                Event(
                    "attack roll",
                    f"{w.power} fails: {_n(ctx, f)} attacks {pool} ({', '.join(why)}) "
                    f"{list(again.faces)} = {again.total} against {dpool} ({', '.join(dwhy)}) "
                    f"{list(d.faces)} = {d.total}",
                    rule(1063),
                )
            )
            res = Resolution(f.id, -1, w.name, again.total, [[t.id, d.total]], cc=True)
            state.queue.append(res)
        return
    apply_power(state, ctx, f, w, t, _power_effects(w), dice, events, via=via, at=at, lose=lose)
