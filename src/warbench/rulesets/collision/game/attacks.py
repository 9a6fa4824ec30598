"""Attacks in play (``003_fc239e71486306e1.txt`` L865-881, L914-1106): weapon attacks and
special attacks, facing, reach, line of sight and cover from the board, the combat bonuses and
penalties, and the roll itself through the one attack kernel
(:mod:`warbench.rulesets.collision.attack`: :func:`attack_profile`, :func:`cover_misses`,
:func:`to_hit`, :func:`slays`, :func:`injury_from`), with reaction windows between the stages.

An attack in progress is an :class:`AttackCtx` in the state; each stage may open a reaction
window (L891-899), after which :func:`run_attack` carries on.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from warbench.kernel.errors import RulesError
from warbench.rulesets.collision.attack import (
    AttackProfile,
    Cover,
    Elevation,
    Modifier,
    Situation,
    apply_injury,
    attack_profile,
    cover_misses,
    injury_from,
    slays,
    to_hit,
)
from warbench.rulesets.collision.game.abilities import EFFECTS, AttackSpec
from warbench.rulesets.collision.game.board import Square, cover_between, in_back, in_front, spaces
from warbench.rulesets.collision.game.core import Game, rule
from warbench.rulesets.collision.game.state import Attack, AttackCtx, Unit
from warbench.rulesets.collision.glossary import Glossary
from warbench.rulesets.collision.models import Weapon, WeaponType

#: A plain weapon attack (L865-870).
WEAPON_ATTACK = AttackSpec(True)
ELEMENTS = ("Fire", "Cold", "Electric", "Light", "Dark", "Acid", "Magic")


def spec_of(ability: str | None) -> AttackSpec:
    """The attack's spec: a plain weapon attack or the ability's row of the effects table."""
    if ability is None:
        return WEAPON_ATTACK
    e = EFFECTS.get(ability)
    if e is None or e.attack is None:
        raise RulesError(f"{ability} is not an attack", rule("L872-881"))
    return e.attack


def cost_of(name: str) -> tuple[int, int]:
    """An ability's listed cost (Endurance, Mana), without the weapon's EC."""
    c = Glossary.load().get(name).cost
    return (0, 0) if c is None else (c.endurance, c.mana)


def weapon_of(g: Game, u: Unit, name: str | None) -> Weapon | None:
    """The named weapon of the character (None if it has none of that name)."""
    for w in g.card(u).weapons:
        if name is None or w.name.lower() == name.lower():
            return w
    return None


@lru_cache(maxsize=512)
def _synth(
    name: str,
    kind: str,
    w_att: int,
    w_pow: int,
    reach: str,
    crit: str | None,
    special: tuple[str, ...],
) -> Weapon:
    return Weapon.model_construct(
        name=name,
        ec=0,
        type=WeaponType(kind),
        w_att=w_att,
        w_pow=w_pow,
        reach=reach,
        crit=crit,
        special=list(special),
    )


def reach_of(g: Game, u: Unit, spec: AttackSpec, w: Weapon | None) -> tuple[int, bool]:
    """(Reach in spaces, ranged) of the attack (L326-329, L915-917)."""
    if spec.reach == -1:  # Pain Warp: reach equal to your command (L2046)
        return g.card(u).stats.command, False
    if w is not None and spec.weapon:
        return w.reach_spaces + spec.reach_plus, bool(spec.ranged or w.ranged)
    return (spec.reach if spec.reach is not None else 1), bool(spec.ranged)


def attack_weapon(g: Game, u: Unit, ctx: AttackCtx) -> Weapon:
    """The weapon the attack uses, with the spec's numbers folded in (a special attack that is
    not a weapon attack rolls with Att and its own power, L1073-1074, L1085)."""
    spec = spec_of(ctx.ability)
    card = g.card(u)
    if spec.weapon:
        w = weapon_of(g, u, ctx.weapon)
        assert w is not None
        if spec.scissor:  # L2124-2129: highest EC and W-Att, W-Pow and crit combined
            melee = [x for x in card.weapons if not x.ranged][:2]
            w = w.model_copy(
                update={
                    "w_att": max(x.w_att for x in melee),
                    "w_pow": sum(x.w_pow for x in melee),
                    "crit": ", ".join(x.crit for x in melee if x.crit) or None,
                }
            )
        pow_ = w.w_pow + spec.pow + (card.stats.command if spec.add_command_pow else 0)
        reach, ranged = reach_of(g, u, spec, w)
        kind = spec.type or w.type.value
        return _synth(
            w.name,
            kind,
            w.w_att + spec.att,
            pow_,
            f"{reach}{'+' if ranged else ''}",
            w.crit,
            tuple(w.special),
        )
    power = (
        card.stats.s_pow
        if spec.power == "S-Pow"
        else int(spec.power if spec.power != "weapon" else 0)
    )
    reach, ranged = reach_of(g, u, spec, None)
    return _synth(
        ctx.ability or "attack",
        spec.type or "Mundane",
        card.stats.att + spec.att,
        power + spec.pow,
        f"{reach}{'+' if ranged else ''}",
        None,
        (),
    )


def _level(g: Game, u: Unit) -> int:
    assert u.pos is not None
    return g.board.level(u.pos) + (1 if g.has(u, "Levitating Move") else 0)  # L1957-1958


def cover_for(g: Game, origin: Square, att: Unit, tgt: Unit, centre: bool) -> Cover:
    """The target's cover from the attack's origin (L922-1008; blasts from the centre,
    L1610-1612); Camouflage at 4 spaces or more (L1632-1633)."""
    assert tgt.pos is not None
    if centre:
        return Cover.NONE  # the centre target of a blast ignores cover (L1610-1611)
    occupied = [
        v.pos for v in g.on_board() if v.pos is not None and v.uid not in (att.uid, tgt.uid)
    ]
    c = cover_between(
        g.board,
        origin,
        tgt.pos,
        occupied,
        attacker_level=g.board.level(origin) if origin != att.pos else _level(g, att),
        target_level=_level(g, tgt),
    )
    if g.has(tgt, "Camouflage") and spaces(origin, tgt.pos) >= 4:
        return Cover.TOTAL
    return c


def _aura(g: Game, u: Unit, name: str) -> bool:
    """An aura of another friendly character within its command (L1902-1927)."""
    if u.pos is None:
        return False
    for v in g.on_board(u.owner):
        if (
            v.uid != u.uid
            and v.pos is not None
            and g.has(v, name)
            and spaces(v.pos, u.pos) <= g.card(v).stats.command
        ):
            return True
    return False


def _bump(p: AttackProfile, quantity: str, amount: int, why: str, lines: str) -> AttackProfile:
    field = {"W-Att": "w_att", "Def": "defense", "W-Pow": "w_pow", "Armor": "armor"}[quantity]
    return replace(
        p,
        **{field: getattr(p, field) + amount},
        modifiers=p.modifiers + (Modifier(quantity, amount, why, rule(lines)),),
    )


def profile(g: Game, ctx: AttackCtx, tgt: Unit) -> AttackProfile:
    """Every number of the attack against one target, from the board and the states."""
    att = g.unit(ctx.attacker)
    spec = spec_of(ctx.ability)
    w = attack_weapon(g, att, ctx)
    assert att.pos is not None and tgt.pos is not None
    origin = ctx.centre if ctx.centre is not None else att.pos
    la, lt = _level(g, att), _level(g, tgt)
    reach, ranged = reach_of(g, att, spec, weapon_of(g, att, ctx.weapon))
    dist = spaces(origin, tgt.pos) if ctx.centre is None else 0
    cover = cover_for(g, origin, att, tgt, ctx.centre is not None and ctx.centre == tgt.pos)
    situation = Situation(
        cover=cover,
        elevation=Elevation.HIGHER if la > lt else Elevation.LOWER if la < lt else Elevation.SAME,
        back=(not tgt.statue) and in_back(tgt.pos, tgt.facing, att.pos),
        beyond_reach=max(0, dist - reach) if ranged else 0,
        attacker_injuries=g.injuries_for_penalty(att),
        defender_injuries=g.injuries_for_penalty(tgt),
        attacker_hexed=g.hexed(att) or _cursed(g, att),
        defender_hexed=g.hexed(tgt) or _cursed(g, tgt),
    )
    p = attack_profile(g.card(att), g.card(tgt), w, situation)
    p = replace(p, current_injury=tgt.injuries, crit_pow=p.crit_pow + spec.crit_pow)
    if _aura(g, att, "Inspire Hatred"):
        p = _bump(p, "W-Att", 1, "Inspire Hatred", "L1911-1918")
    if _aura(g, tgt, "Inspire Fortitude"):
        p = _bump(p, "Armor", 1, "Inspire Fortitude", "L1902-1909")
    for quantity, amount, why in ctx.mods:
        p = _bump(p, quantity, amount, why, "L891-899")
    if spec.slay_on_hit and not (ctx.ability == "Checkmate" and not _checkmate_ok(g, att, tgt)):
        p = replace(p, slay_on_hit=True)
    if spec.crit_on_back and situation.back:
        p = replace(p, crit_from=1)  # L1599-1600
    if spec.ignores_partial and p.cover is Cover.PARTIAL:
        p = replace(p, cover=Cover.NONE)  # L2183
    if ctx.total_cover:
        p = replace(p, cover=Cover.TOTAL)
    if ctx.armor_set is not None:
        p = replace(p, armor=ctx.armor_set - g.injuries_for_penalty(tgt))  # L1986-1987
    if ctx.adamant:
        p = replace(p, injury_step_at_most_1=True)
    if tgt.persevere:
        p = replace(p, toughness=10**6)  # L2057-2058: can't be defeated by injuries
    return p


def _cursed(g: Game, u: Unit) -> bool:
    from warbench.rulesets.collision.game.objectives import on_cursed

    return on_cursed(g, u)


def _checkmate_ok(g: Game, att: Unit, tgt: Unit) -> bool:
    """Checkmate (L1659-1663): two or more friendly units also within melee reach paying their
    weapon's EC (paid when the attack is made, :func:`start_attack`)."""
    return "checkmate" in g.s.nominated and g.s.nominated["checkmate"] == att.uid


# --------------------------------------------------------------------------------------------
# Legality
# --------------------------------------------------------------------------------------------


def line_squares(g: Game, u: Unit, line: tuple[Square, ...], n: int) -> str | None:
    """A Line Attack (L1964-1968): ``n`` squares from one adjacent to yours, each adjacent to
    the one before, none twice; the first in front of the attacker (docs/rulings.md, 22)."""
    assert u.pos is not None
    if len(line) != n:
        return f"a line of {n} squares, not {len(line)}"
    prev = u.pos
    for i, sq in enumerate(line):
        if not g.board.inside(sq):
            return f"{sq} is off the board"
        if spaces(prev, sq) != 1:
            return f"{sq} is not adjacent to {prev}"
        if i == 0 and not in_front(u.pos, u.facing, sq):
            return "the line starts in front of the attacker (L917-920)"
        prev = sq
    if len(set(line)) != len(line) or u.pos in line:
        return "no square is marked twice"
    return None


def targets_of(g: Game, u: Unit, a: Attack) -> list[Unit]:
    """The characters an attack affects (single, line, blast, burst; L1609-1627, L1964)."""
    spec = spec_of(a.ability)
    assert u.pos is not None
    if spec.shape == "single":
        return [g.unit(a.target)] if a.target is not None else []
    if spec.shape == "line":
        return [v for v in g.on_board() if v.pos in a.line and v.uid != u.uid]
    if spec.shape == "blast":
        assert a.at is not None
        return [
            v
            for v in g.on_board()
            if v.pos is not None
            and spaces(v.pos, a.at) <= spec.size
            and not (spec.not_self and v.uid == u.uid)
        ]
    return [
        v
        for v in g.on_board()
        if v.pos is not None and v.uid != u.uid and spaces(v.pos, u.pos) <= spec.size
    ]


def check_attack(g: Game, u: Unit, a: Attack) -> None:
    """Refuse an attack the rules forbid (L865-881, L914-920, L1067-1071)."""
    card = g.card(u)
    spec = spec_of(a.ability)
    if a.ability is not None:
        if a.ability not in card.abilities:
            raise RulesError(f"{u.name} does not have {a.ability}", rule("L872-876"))
        e = EFFECTS[a.ability]
        if a.ability in u.used and not e.repeatable:
            raise RulesError(f"{u.name} already used {a.ability} this turn", rule("L872-876"))
    w = None
    if spec.weapon:
        w = weapon_of(g, u, a.weapon)
        if w is None or a.weapon is None:
            names = ", ".join(x.name for x in card.weapons) or "none"
            raise RulesError(f"name one of {u.name}'s weapons ({names})", rule("L865-870"))
        if (
            w.name in u.weapons_used
            and "Multiattack" not in w.special
            and ("Multiattack" not in card.effects)
        ):
            raise RulesError(
                f"{w.name} already attacked this turn (only Multiattack attacks again)",
                rule("L866-869"),
            )
        if spec.melee_only and w.ranged:
            raise RulesError(
                f"{a.ability} is a melee weapon attack",
                EFFECTS[a.ability or ""].note or rule("L872-881"),
            )
        if spec.ranged_only and not w.ranged:
            raise RulesError(f"{a.ability} is a ranged weapon attack", rule("L872-881"))
        if spec.scissor and len([x for x in card.weapons if not x.ranged]) < 2:
            raise RulesError("Scissor Strike needs two melee weapons", rule("L2124-2129"))
    elif a.weapon is not None:
        raise RulesError(f"{a.ability} is not a weapon attack; name no weapon", rule("L872-881"))
    e_cost, m_cost = cost_of(a.ability) if a.ability else (0, 0)
    ec = w.ec if w is not None else 0
    if spec.scissor:
        ec = max(x.ec for x in card.weapons if not x.ranged)
    if u.endurance < e_cost + ec or u.mana < m_cost:
        raise RulesError(
            f"{u.name} has {u.endurance}E {u.mana}M; the attack costs {e_cost + ec}E {m_cost}M",
            rule("L1068-1071"),
        )
    assert u.pos is not None
    reach, ranged = reach_of(g, u, spec, w)
    if spec.shape == "single":
        if a.target is None or not 0 <= a.target < len(g.s.units):
            raise RulesError("name the target character", rule("L915-917"))
        t = g.unit(a.target)
        if t.where != "board" or t.owner == u.owner or t.pos is None:
            raise RulesError(f"{t.name} is not an enemy on the board", rule("L915-917"))
        if not in_front(u.pos, u.facing, t.pos):
            raise RulesError(
                f"{u.name} is not facing {t.name}: the line must cross its front facing",
                rule("L917-920"),
            )
        d = spaces(u.pos, t.pos)
        if d > reach and not ranged:
            raise RulesError(f"{t.name} is {d} spaces away, beyond Reach {reach}", rule("L915-917"))
        if spec.needs_away is not None:
            away = g.card(t).stats.toughness - t.injuries
            if away != spec.needs_away:
                raise RulesError(
                    f"{a.ability} is made against a character {spec.needs_away} injuries away "
                    f"from defeat; {t.name} is {away} away",
                    rule("L1750-1757"),
                )
    elif spec.shape == "line":
        why = line_squares(g, u, a.line, spec.size)
        if why:
            raise RulesError(why, rule("L1964-1968"))
        if not targets_of(g, u, a):
            raise RulesError("the line holds no character", rule("L1964-1968"))
    elif spec.shape == "blast":
        if a.at is None or not g.board.inside(a.at):
            raise RulesError("name the blast's centre square", rule("L1609-1613"))
        if spaces(u.pos, a.at) > reach and not ranged:
            raise RulesError("the centre is beyond the attack's reach", rule("L1609-1613"))
        if a.at != u.pos and not in_front(u.pos, u.facing, a.at):
            raise RulesError("the centre must be in front of the attacker", rule("L917-920"))
        if not any(v.owner != u.owner for v in targets_of(g, u, a)):
            raise RulesError("the blast would hit no enemy", rule("L1609-1613"))
    else:
        if not any(v.owner != u.owner for v in targets_of(g, u, a)):
            raise RulesError("no enemy within the burst's radius", rule("L1625-1627"))


# --------------------------------------------------------------------------------------------
# Resolution
# --------------------------------------------------------------------------------------------


def start_attack(g: Game, u: Unit, a: Attack) -> None:
    """Pay the costs (L1068-1071), then resolve against each target in turn."""
    from warbench.rulesets.collision.game.objectives import acting

    spec = spec_of(a.ability)
    card = g.card(u)
    e_cost, m_cost = cost_of(a.ability) if a.ability else (0, 0)
    w = weapon_of(g, u, a.weapon) if spec.weapon else None
    ec = w.ec if w is not None else 0
    if spec.scissor:
        ec = max(x.ec for x in card.weapons if not x.ranged)
    g.pay(u, e_cost + ec, m_cost, a.ability or (w.name if w else "attack"))
    if w is not None:
        u.weapons_used.append(w.name)
    if a.ability:
        u.used.append(a.ability)
    u.acted = True
    acting(g, u)
    if a.ability == "Checkmate":
        g.s.nominated.pop("checkmate", None)
        if len(checkmate_helpers(g, u, a.target)) >= 2:
            # the allies "may pay" (L1659-1663): the attacker's player decides first (the
            # ``checkmate`` decision; its default, the first two, is what the engine chose)
            g.s.checkmate = (u.uid, a)
            g.s.stage, g.s.player = "checkmate", u.owner
            return
    _launch(g, u, a, spec, w)


def _launch(g: Game, u: Unit, a: Attack, spec: AttackSpec, w: Weapon | None) -> None:
    """The paid attack goes out: a Meteor is called, or each target is attacked in turn."""
    what = a.ability or (w.name if w else "an attack")
    if spec.delayed:  # Meteor (L2016-2021): the blast comes next turn
        from warbench.rulesets.collision.game.state import Marker

        for m in g.s.markers:
            if m.kind == "meteor" and m.owner == u.owner:
                m.gone = True
        g.s.markers.append(Marker(len(g.s.markers), "meteor", a.at, holder=u.uid, owner=u.owner))
        g.event("meteor", f"{u.name} calls a meteor on {a.at}", "L2016-2021")
        g.s.stage = "act"
        return
    targets = targets_of(g, u, a)
    g.event(
        "attack",
        f"{u.name} attacks with {what}: " + ", ".join(t.name for t in targets),
        "L865-870",
        unit=u.uid,
        targets=[t.uid for t in targets],
    )
    ctxs = [AttackCtx(u.uid, t.uid, a.ability, w.name if w else None, centre=a.at) for t in targets]
    g.s.attack, g.s.attack_stack = ctxs[0], ctxs[1:]
    run_attack(g)


def checkmate_helpers(g: Game, u: Unit, target: int | None) -> list[int]:
    """The allies who may pay for Checkmate (L1659-1663): friendly characters other than the
    attacker with the target within their melee weapon's reach and the Endurance to pay its
    EC, in the order of the battle group."""
    out: list[int] = []
    if target is None:
        return out
    t = g.unit(target)
    for v in g.on_board(u.owner):
        if v.uid == u.uid or v.pos is None or t.pos is None:
            continue
        w = next((x for x in g.card(v).weapons if not x.ranged), None)
        if w is not None and spaces(v.pos, t.pos) <= w.reach_spaces and v.endurance >= w.ec:
            out.append(v.uid)
    return out


def check_checkmate(g: Game, helpers: tuple[int, ...]) -> None:
    """Refuse a Checkmate payment that is not two of the allies who may pay, or none."""
    assert g.s.checkmate is not None
    uid, a = g.s.checkmate
    able = checkmate_helpers(g, g.unit(uid), a.target)
    if helpers and (len(helpers) != 2 or len(set(helpers)) != 2 or not set(helpers) <= set(able)):
        raise RulesError(
            f"name two of the allies who may pay their weapon's EC ({able}), or none",
            rule("L1659-1663"),
        )


def pay_checkmate(g: Game, helpers: tuple[int, ...]) -> None:
    """The allies pay (or not), then the Checkmate attack goes on (L1659-1663)."""
    assert g.s.checkmate is not None
    uid, a = g.s.checkmate
    g.s.checkmate = None
    u = g.unit(uid)
    g.s.stage, g.s.player = "act", u.owner
    if helpers:
        for v in (g.unit(h) for h in helpers):
            w = next(x for x in g.card(v).weapons if not x.ranged)
            g.pay(v, w.ec, 0, "Checkmate")
        g.event("checkmate", "two allies pay their EC: Checkmate slays on a hit", "L1659-1663")
        g.s.nominated["checkmate"] = u.uid
    else:
        g.event("checkmate", "no ally pays: Checkmate does not slay", "L1659-1663")
    _launch(g, u, a, spec_of(a.ability), weapon_of(g, u, a.weapon))


def run_attack(g: Game) -> None:
    """Carry the attack in progress through its stages until a window opens or it ends."""
    from warbench.rulesets.collision.game.reactions import open_window

    s = g.s
    while s.attack is not None:
        ctx = s.attack
        att, tgt = g.unit(ctx.attacker), g.unit(ctx.target)
        spec = spec_of(ctx.ability)
        quiet = spec.no_reactions or ctx.free
        if att.where != "board" or tgt.where != "board":
            _next(g)
            continue
        if ctx.stage == "declared":
            ctx.stage = "roll"
            if not quiet and open_window(g, "attack", tgt, att):
                return
            continue
        if ctx.stage == "roll":
            if ctx.negated:
                g.event("negated", f"the attack on {tgt.name} is negated", "L891-899")
                ctx.stage = "done"
                continue
            _roll(g, ctx, att, tgt, spec)
            if ctx.stage == "hit" and not quiet and open_window(g, "hit", tgt, att):
                return
            continue
        if ctx.stage == "hit":
            if ctx.negated:
                g.event("negated", f"the hit on {tgt.name} is ignored", "L891-899")
                ctx.stage = "done"
                continue
            if ctx.reroll:
                ctx.reroll = False
                _roll(g, ctx, att, tgt, spec, again=True)
                continue
            _injure(g, ctx, att, tgt, spec)
            if ctx.stage == "injury" and not quiet and open_window(g, "injury", tgt, att):
                return
            continue
        if ctx.stage == "injury":
            if ctx.after >= g.card(tgt).stats.toughness and not tgt.persevere and not quiet:
                ctx.stage = "defeat"
                if open_window(g, "defeat", tgt, att):
                    return
                continue
            _apply(g, ctx, att, tgt, spec)
            continue
        if ctx.stage == "defeat":
            _apply(g, ctx, att, tgt, spec)
            continue
        if ctx.stage == "effects":
            if not _effects(g, ctx, att, tgt, spec):
                return
            continue
        if ctx.stage == "missed":
            ctx.stage = "done"
            if not quiet and open_window(g, "miss", tgt, att):
                return
            continue
        if ctx.stage == "vicious":
            ctx.stage = ctx.vicious or "done"
            if quiet:  # no one is asked during a free attack: the default, recover
                if g.gain_mana(att, 1):
                    g.event("vicious", f"{att.name} recovers 1 Mana (Vicious)", "L2269")
                continue
            if open_window(g, "vicious", att, tgt):
                return
            continue
        _next(g)


def _next(g: Game) -> None:
    """The next target, Barrage's next shot, or back to the activation."""
    s = g.s
    done = s.attack
    if s.attack_stack:
        s.attack = s.attack_stack.pop(0)
        return
    s.attack = None
    if done is not None and spec_of(done.ability).chain and done.chain > 0:
        _barrage(g, done)
        if s.attack is not None:
            return
    if s.window is None:
        s.stage = "act" if s.active is not None else s.stage


def _roll(
    g: Game, ctx: AttackCtx, att: Unit, tgt: Unit, spec: AttackSpec, again: bool = False
) -> None:
    p = profile(g, ctx, tgt)
    if p.immune:
        g.event("immune", f"{tgt.name} is immune to {p.modifiers and ''}the attack", "L1847-1886")
        ctx.stage = "done"
        return
    if spec.auto_hit:
        ctx.face, ctx.crit, ctx.stage = 0, False, "hit"
        g.event("hit", f"{att.name}'s {ctx.ability} hits {tgt.name} automatically", "L2146")
        return
    if p.cover is not Cover.NONE and not again:
        face = g.roll(f"{att.name} against {tgt.name}: cover", by=att, against=tgt)
        ctx.cover = p.cover.value
        if cover_misses(p, face):
            g.event(
                "cover",
                f"{tgt.name}'s {p.cover.value} cover: {face}, the attack misses",
                "L925-931",
                face=face,
            )
            ctx.stage = "missed"
            return
    face = g.roll(f"{att.name} against {tgt.name}: to hit", by=att, against=tgt)
    hit, crit = to_hit(p, face)
    ctx.face, ctx.crit = face, crit
    g.event(
        "to hit",
        f"{att.name} rolls {face} + W-Att {p.w_att} against Def {p.defense}: "
        + ("critical hit" if crit else "hit" if hit else "miss"),
        "L1073-1082",
        face=face,
        hit=hit,
        crit=crit,
    )
    if face == 1 and g.has(att, "Unstable"):  # L2253
        g.event("unstable", f"{att.name} rolls a 1 and hits itself", "L2253")
        g.suffer_hit(att, p.w_pow, "Mundane", None, "L2253")
        ctx.stage = "done"
        return
    ctx.stage = "hit" if hit else "missed"
    if not hit:
        ctx.chain = 0  # Barrage stops at a miss (L1603)


def _injure(g: Game, ctx: AttackCtx, att: Unit, tgt: Unit, spec: AttackSpec) -> None:
    p = profile(g, ctx, tgt)
    if slays(p, ctx.crit):
        ctx.injury, ctx.after = 0, g.card(tgt).stats.toughness
        ctx.stage = "injury"
        g.event("slay", f"{tgt.name} is slain", "L2173-2174")
        ctx.mods.append(("slay", 1, "slay"))
        return
    if spec.injury_direct:
        new = 1
        ctx.injury, ctx.after = new, apply_injury(tgt.injuries, new)
    elif spec.no_injury and not (spec.crit_only_injury and ctx.crit):
        ctx.injury, ctx.after = 0, tgt.injuries
    else:
        face = g.roll(f"{att.name} against {tgt.name}: injury", by=att, against=tgt)
        r = injury_from(p, ctx.crit, face)
        ctx.injury, ctx.after = r.injury, r.injury_after
        g.event(
            "injury roll",
            f"{face} + Pow {p.w_pow + (p.crit_pow if ctx.crit else 0)} against Armor {p.armor}: "
            + (f"injury {r.injury}" if r.injury else "no injury"),
            "L1084-1101",
            face=face,
            injury=r.injury,
        )
    if spec.cannot_defeat:
        ctx.after = min(ctx.after, g.card(tgt).stats.toughness - 1)  # L2179-2180
    ctx.stage = "injury"


def _apply(g: Game, ctx: AttackCtx, att: Unit, tgt: Unit, spec: AttackSpec) -> None:
    """Injuries, then On Hit / On Crit / On Injury effects (L2032-2035), then the effects of
    being hit (Voodoo, Skittish, Shrieking Armor, Vicious)."""
    slain = any(m[0] == "slay" for m in ctx.mods)
    injured = ctx.after > tgt.injuries
    if slain:
        g.defeat(tgt, att, "L2173-2174", slay=True)
    elif ctx.after != tgt.injuries:
        tgt.injuries = ctx.after
        g.event(
            "injured",
            f"{tgt.name} is at injury {tgt.injuries}",
            "L1092-1099",
            unit=tgt.uid,
            injuries=tgt.injuries,
        )
        if g.defeated_by_injuries(tgt):
            g.defeat(tgt, att, "L1098-1099")
    effects = list(spec.on_hit)
    if ctx.crit:
        crit_fx = list(spec.on_crit)
        if ctx.ability == "Venom":
            effects = [e for e in effects if e[0] != "poison"]  # "instead of" (L2266)
        effects += crit_fx
        w = weapon_of(g, att, ctx.weapon) if spec.weapon else None
        if w is not None and w.crit:
            effects += _crit_effects(w.crit)
    if injured:
        effects += list(spec.on_injury)
    ctx.fx, ctx.injured, ctx.stage = effects, injured, "effects"


def _effects(g: Game, ctx: AttackCtx, att: Unit, tgt: Unit, spec: AttackSpec) -> bool:
    """Apply the attack's On Hit / On Crit / On Injury effects in order, then the effects of
    being hit; ``False`` when a diagonal Knockback waits for the attacker's choice
    (L1943-1944; a free attack, which nobody is asked about, takes the default)."""
    from warbench.rulesets.collision.game.movement import push_choices

    while ctx.fx:
        name, n = ctx.fx[0]
        origin = ctx.centre or att.pos
        if (
            name == "knockback"
            and not ctx.push
            and tgt.where == "board"
            and tgt.pos is not None
            and origin is not None
            and not (spec.no_reactions or ctx.free)
            and g.s.active is not None
            and len(push_choices(tgt.pos, origin)) > 1
        ):
            g.s.stage, g.s.player = "knockback", att.owner
            return False
        ctx.fx.pop(0)
        _effect(g, name, n, att, tgt, ctx)
        ctx.push = ""
    _hit_effects(g, ctx, att, tgt, spec)
    return True


def _hit_effects(g: Game, ctx: AttackCtx, att: Unit, tgt: Unit, spec: AttackSpec) -> None:
    """The effects of being hit (Voodoo, Skittish, Shrieking Armor, Vicious), then the
    attack's next stage."""
    slain = any(m[0] == "slay" for m in ctx.mods)
    injured = ctx.injured
    if tgt.where == "board" and injured:
        voodoo = g.has(tgt, "Voodoo")
        if voodoo and g.roll(f"{tgt.name}: Voodoo", by=tgt, against=att) >= 7:  # L2275
            g.event("voodoo", f"{att.name} receives 1 injury (Voodoo)", "L2275")
            g.set_injuries(att, apply_injury(att.injuries, 1), tgt, "L2275")
        if g.has(tgt, "Skittish") and g.roll(f"{tgt.name}: Skittish", by=tgt, high_good=False) >= 4:
            g.add_status(tgt, "flee", 1, att.uid)  # L2171
    melee = not reach_of(g, att, spec, weapon_of(g, att, ctx.weapon))[1]
    shrieking = melee and g.has(tgt, "Shrieking Armor") and att.where == "board"
    if (
        shrieking
        and not g.brave(att)
        and g.roll(f"{att.name}: Shrieking Armor", by=att, against=tgt) < 5  # L2154-2158
    ):
        g.add_status(att, "flee", 1, tgt.uid)
    vicious = (injured or slain) and g.has(att, "Vicious") and att.where == "board"
    if att.where == "board" and reach_of(g, att, spec, weapon_of(g, att, ctx.weapon))[1]:
        att.last_hit = tgt.uid
    if spec.chain:
        ctx.chain += 1
    ctx.stage = "done" if (injured or slain) else "missed"
    if ctx.stage == "missed" and tgt.where != "board":
        ctx.stage = "done"
    if vicious:
        ctx.vicious = ctx.stage  # L2269 "you may recover 1 Mana": asked, then on to the stage
        ctx.stage = "vicious"


def _crit_effects(crit: str) -> list[tuple[str, int]]:
    """A weapon's Crit value as effects (Stun, Hex 1, Poison 2, Knockback 2; L281-286)."""
    out = []
    for part in crit.split(","):
        words = part.strip().split()
        if not words:
            continue
        name = words[0].lower()
        n = int(words[1]) if len(words) > 1 and words[1].isdigit() else 1
        if name in ("stun", "hex", "poison", "knockback", "flee"):
            out.append((name, n))
    return out


def _effect(g: Game, name: str, n: int, att: Unit, tgt: Unit, ctx: AttackCtx) -> None:
    """One On Hit / On Crit / On Injury effect as data (abilities.OnEffect)."""
    if tgt.where != "board" and name not in ("touch",):
        return
    card_a = g.card(att)
    if name in ("stun", "hex", "poison", "flee"):
        g.add_status(tgt, name, n, att.uid)
    elif name == "drain":  # L1731
        lost = min(tgt.endurance, n)
        tgt.endurance -= lost
        g.event("drain", f"{tgt.name} is drained of {lost} Endurance", "L1731")
    elif name == "drain_spow":  # Chilling Strike (L1670)
        lost = min(tgt.endurance, card_a.stats.s_pow)
        tgt.endurance -= lost
        g.event("drain", f"{tgt.name} is drained of {lost} Endurance", "L1665-1671")
    elif name == "drain_all":  # Flash Freeze (L1777)
        tgt.endurance = 0
        g.event("drain", f"{tgt.name} is drained of all Endurance", "L1774-1779")
    elif name == "steal_mana":  # Mana Theft, Steal X (L1999, L2192-2193)
        lost = min(tgt.mana, n)
        tgt.mana -= lost
        got = g.gain_mana(att, lost)
        g.event("steal", f"{att.name} steals {lost} Mana ({got} kept)", "L2192-2193")
    elif name == "knockback":
        from warbench.rulesets.collision.game.movement import knockback

        origin = ctx.centre or att.pos
        assert origin is not None
        knockback(g, tgt, n, origin, att, ctx.push)
    elif name == "slay":
        if not g.has(tgt, "Immune to Slay") and not tgt.statue:
            g.defeat(tgt, att, "L2173-2174", slay=True)
    elif name == "injury":  # Embloody (L1736-1738)
        g.set_injuries(tgt, apply_injury(tgt.injuries, n), att, "L1732-1738")
    elif name == "face":  # Rip Around (L2121)
        assert att.pos is not None and tgt.pos is not None
        from warbench.rulesets.collision.game.board import face_towards

        tgt.facing = face_towards(
            tgt.pos, (2 * tgt.pos[0] - att.pos[0], 2 * tgt.pos[1] - att.pos[1])
        )
        g.event("face", f"{tgt.name} is turned to face {tgt.facing}", "L2120-2122")
    elif name == "fire3":  # Dazzle's crit: a Pow 3 Fire hit (L1707)
        g.suffer_hit(tgt, 3, "Fire", att, "L1703-1709")
    elif name == "touch":  # Touch of Death (L2244-2245)
        from warbench.rulesets.collision.game.setup import contest

        if tgt.where != "board":
            return
        w = contest(
            g,
            "Touch of Death: S-Pow contest",
            (card_a.stats.s_pow, g.card(tgt).stats.s_pow)
            if att.owner == 0
            else (g.card(tgt).stats.s_pow, card_a.stats.s_pow),
            "L2244-2245",
            (att, tgt) if att.owner == 0 else (tgt, att),
        )
        if w == att.owner and not g.has(tgt, "Immune to Slay"):
            g.defeat(tgt, att, "L2239-2246", slay=True)
        else:
            g.set_injuries(att, apply_injury(att.injuries, 1), None, "L2244-2245")
    elif name == "pain_warp":  # L2045-2051
        tgt.pain_warp = att.uid
        g.event("pain warp", f"{tgt.name} suffers {att.name}'s injuries", "L2045-2051")
        if g.card(tgt).stats.toughness <= att.injuries and not g.has(tgt, "Immune to Slay"):
            g.defeat(tgt, att, "L2049-2050", slay=True)


def _barrage(g: Game, done: AttackCtx) -> None:
    """Barrage (L1602-1604): after each hit a free ranged attack at Att-1 per successive hit,
    at the same target if it stands, else the nearest enemy in reach, until a miss."""
    att = g.unit(done.attacker)
    if att.where != "board" or att.pos is None:
        return
    w = weapon_of(g, att, done.weapon)
    candidates = [done.target] + [v.uid for v in g.on_board(1 - att.owner)]
    for uid in candidates:
        t = g.unit(uid)
        if t.where == "board" and t.pos is not None and in_front(att.pos, att.facing, t.pos):
            ctx = AttackCtx(
                att.uid, uid, "Barrage", w.name if w else None, free=True, chain=done.chain
            )
            ctx.mods.append(("W-Att", -done.chain, f"Barrage shot {done.chain + 1}"))
            g.event(
                "barrage", f"{att.name} shoots again at {t.name} (Att-{done.chain})", "L1602-1604"
            )
            g.s.attack = ctx
            return


def free_attack(g: Game, att: Unit, tgt: Unit, why: str, lines: str) -> None:
    """A free weapon attack made by a reaction (Counter Attack, Retaliate): no EC, and no
    reactions to it (docs/rulings.md, Collision 23); resolved at once."""
    w = next((x for x in g.card(att).weapons if not x.ranged), None) or (
        g.card(att).weapons[0] if g.card(att).weapons else None
    )
    if w is None or att.pos is None or tgt.pos is None:
        return
    saved, stack = g.s.attack, g.s.attack_stack
    g.event("free attack", f"{att.name} attacks {tgt.name} ({why})", lines)
    g.s.attack, g.s.attack_stack = AttackCtx(att.uid, tgt.uid, None, w.name, free=True), []
    stage = g.s.stage
    run_attack(g)
    g.s.attack, g.s.attack_stack, g.s.stage = saved, stack, stage


def is_elemental(g: Game, ctx: AttackCtx) -> bool:
    """An elemental or magic attack (Power Channel, L2087-2089)."""
    w = attack_weapon(g, g.unit(ctx.attacker), ctx)
    return w.type is not WeaponType.MUNDANE


def is_ranged(g: Game, ctx: AttackCtx) -> bool:
    """Whether the attack is a ranged attack (Deflect L1715-1718, Parry L2053-2054)."""
    att = g.unit(ctx.attacker)
    return reach_of(g, att, spec_of(ctx.ability), weapon_of(g, att, ctx.weapon))[1]


def attack_options(g: Game, u: Unit) -> list[Attack]:
    """Listed attacks: every weapon and special attack at each enemy in front (line, blast and
    burst attacks at their best-placed square)."""
    out: list[Attack] = []
    if u.pos is None:
        return out
    card = g.card(u)
    enemies = [v for v in g.on_board(1 - u.owner) if v.pos is not None]
    names: list[str | None] = [None] + [
        a for a in card.abilities if EFFECTS.get(a) is not None and EFFECTS[a].how == "attack"
    ]
    for ability in names:
        spec = spec_of(ability)
        weapons: list[str | None] = [w.name for w in card.weapons] if spec.weapon else [None]
        for wn in weapons:
            if spec.shape == "single":
                for v in enemies:
                    out.append(Attack(v.uid, wn, ability))
            elif spec.shape == "blast":
                for v in enemies:
                    out.append(Attack(None, wn, ability, at=v.pos))
            elif spec.shape == "burst":
                out.append(Attack(None, wn, ability))
            else:
                for v in enemies:
                    line = _line_to(g, u, v.pos, spec.size)
                    if line:
                        out.append(Attack(None, wn, ability, line=line))
    legal = []
    for a in out:
        try:
            check_attack(g, u, a)
        except RulesError:
            continue
        legal.append(a)
    return legal


def _line_to(g: Game, u: Unit, target: Square | None, n: int) -> tuple[Square, ...]:
    """A straight-ish line of ``n`` squares from the attacker towards ``target``."""
    assert u.pos is not None
    if target is None:
        return ()
    out: list[Square] = []
    cur = u.pos
    for _ in range(n):
        dx = (target[0] > cur[0]) - (target[0] < cur[0])
        dy = (target[1] > cur[1]) - (target[1] < cur[1])
        if (dx, dy) == (0, 0):
            from warbench.rulesets.collision.game.board import FACINGS

            dx, dy = FACINGS[u.facing]
        nxt = (cur[0] + dx, cur[1] + dy)
        if not g.board.inside(nxt) or nxt in out or nxt == u.pos:
            return ()
        out.append(nxt)
        cur = nxt
    return tuple(out)
