"""Reactions (``003_fc239e71486306e1.txt`` L891-899) and the windows they are used in.

A window opens when a condition is met (an attack declared, a hit, an injury, a defeat, an
attack that deals no injury, an enemy entering melee reach, an activation, a special
ability). Each player with a character able to react is asked once, in order (the acting
player's side first), and may use one reaction per condition (L893-895) or pass; hexed
characters can't react (L898-899, L1834-1837). The default answer of each "may" is the
engine's automatic choice (:func:`default_reaction`).
"""

from __future__ import annotations

from warbench.kernel.errors import RulesError
from warbench.rulesets.collision.game.abilities import EFFECTS
from warbench.rulesets.collision.game.attacks import (
    cost_of,
    free_attack,
    is_elemental,
    is_ranged,
    run_attack,
)
from warbench.rulesets.collision.game.board import FACINGS, face_towards, spaces
from warbench.rulesets.collision.game.core import Game, rule
from warbench.rulesets.collision.game.state import React, Unit, Window

#: A "may" that is not an (RE) entry but is asked in the same windows (Vicious, L2269). Luck
#: and Plan Ahead are asked at the D10 itself (``core.Game.roll``, L1977-1980, L2062-2065).
EXTRA = ("Vicious",)


def _can_react(g: Game, u: Unit, name: str) -> bool:
    from warbench.rulesets.collision.game.objectives import on_cursed

    if u.where != "board" or u.statue:
        return False
    if name == "Vicious":  # an effect's "may", not a reaction: hex does not stop it
        return g.has(u, "Vicious") and u.mana < g.card(u).stats.mana
    if g.hexed(u) or on_cursed(g, u):
        return False  # L898-899
    if name not in g.card(u).abilities:
        return False
    e, m = cost_of(name)
    return u.endurance >= e and u.mana >= m


def options(g: Game, w: Window, player: int) -> list[React]:
    """The reactions ``player`` may use in the window (plus passing, listed first)."""
    s = g.s
    out: list[React] = [React()]
    ctx = s.attack
    unit = g.unit(w.unit) if w.unit is not None else None
    source = g.unit(w.source) if w.source is not None else None
    mine = [u for u in g.on_board(player) if not u.statue]

    def add(u: Unit, name: str, **kw: object) -> None:
        if _can_react(g, u, name):
            out.append(React(u.uid, name, **kw))  # type: ignore[arg-type]

    if w.trigger == "attack" and ctx is not None and unit is not None and source is not None:
        assert unit.pos is not None and source.pos is not None
        if player == source.owner:
            for u in mine:
                if (
                    u.uid != source.uid
                    and u.pos is not None
                    and (spaces(u.pos, source.pos) <= g.card(u).stats.command)
                    and "Tactical Strike" not in ctx.reacted
                ):
                    add(u, "Tactical Strike")  # L2213-2219
        else:
            for name in ("Dodge", "Decoy", "Parry", "Castle", "Sidestep", "Deflect"):
                if name == "Parry" and is_ranged(g, ctx):
                    continue  # L2053: a melee attack
                if name == "Deflect" and not is_ranged(g, ctx):
                    continue  # L1715-1716: a ranged attack
                if name == "Castle":
                    for v in mine:
                        if (
                            v.uid != unit.uid
                            and v.pos is not None
                            and (spaces(v.pos, unit.pos) <= g.card(unit).stats.command)
                        ):
                            add(unit, name, target=v.uid)
                    continue
                if name == "Sidestep":
                    for dx in (-1, 0, 1):
                        for dy in (-1, 0, 1):
                            sq = (unit.pos[0] + dx, unit.pos[1] + dy)
                            if (
                                (dx or dy)
                                and g.board.inside(sq)
                                and g.board.kind(sq).stands
                                and (g.at(sq) is None)
                            ):
                                add(unit, name, at=sq)
                    continue
                add(unit, name)
            for u in mine:
                if u.uid == unit.uid or u.pos is None:
                    continue
                near = spaces(u.pos, unit.pos)
                if near <= g.card(u).stats.command and "Look Out" not in ctx.reacted:
                    add(u, "Look Out")  # L1970-1975
                if near == 1:
                    add(u, "Got your Back")  # L1802-1807
                if is_ranged(g, ctx) and near <= g.card(u).stats.command:
                    add(u, "Deflect")  # L1715-1718: or an ally within command
            if ctx.ability is not None and not ctx.free and "Trip" not in ctx.reacted:
                # L2248-2251: a special attack is "an action other than movement and normal
                # weapon attacks"; the tripper is within 2 of the attacker
                for u in mine:
                    if u.pos is not None and spaces(u.pos, source.pos) <= 2:
                        add(u, "Trip", target=source.uid)
    elif w.trigger == "hit" and ctx is not None and unit is not None and player == unit.owner:
        for name in (
            "Contort",
            "Block 4",
            "Block 2",
            "Mage Armor",
            "Power Channel",
            "Adamant Form",
            "Majesty",
            "Shadow Hop",
        ):
            if name == "Power Channel" and not is_elemental(g, ctx):
                continue  # L2087-2088
            if name == "Majesty" and (
                "Majesty" in ctx.reacted or (source is not None and g.brave(source))
            ):
                continue  # L1991-1992; fear (L1700-1701)
            add(unit, name)
    elif w.trigger == "vicious" and unit is not None and player == unit.owner:
        add(unit, "Vicious")  # L2269: "you may recover 1 Mana"
    elif w.trigger == "injury" and ctx is not None and unit is not None:
        if player == unit.owner and ctx.injury == 1:
            add(unit, "Shrug")  # L2160-2161: dealt exactly 1 injury
    elif w.trigger == "defeat" and unit is not None and player == unit.owner:
        if not unit.clinging:
            add(unit, "Cling to Life")  # L1673-1678
    elif w.trigger == "miss" and unit is not None and source is not None:
        from warbench.rulesets.collision.game.movement import melee_reach

        if (
            player == unit.owner
            and unit.pos is not None
            and source.pos is not None
            and (source.where == "board" and spaces(unit.pos, source.pos) <= melee_reach(g, unit))
            and melee_reach(g, unit)
        ):
            add(unit, "Retaliate")  # L2113-2118
    elif w.trigger == "enter" and unit is not None and unit.pos is not None:
        from warbench.rulesets.collision.game.movement import melee_reach

        before = s.path_from
        for u in mine:
            reach = melee_reach(g, u)
            if (
                u.pos is not None
                and player != unit.owner
                and reach
                and spaces(u.pos, unit.pos) <= reach
                and (before is None or spaces(u.pos, before) > reach)
            ):
                add(u, "Counter Attack")  # L1692-1698: entering melee reach
    elif w.trigger == "activation" and unit is not None and unit.pos is not None:
        for u in mine:
            if u.pos is None or u.uid == unit.uid:
                continue
            if spaces(u.pos, unit.pos) > g.card(u).stats.command:
                continue
            if player != unit.owner and s.phase in (1, 2):
                add(u, "Out-Maneuver")  # L2037-2043
            if player == unit.owner and not g.has(unit, "Immune to Slay"):
                add(u, "Kiss of Death")  # L1929-1935
    elif w.trigger == "ability" and unit is not None and unit.pos is not None:
        for u in mine:
            if u.pos is not None and player != unit.owner and spaces(u.pos, unit.pos) <= 2:
                if (
                    w.ability is not None
                    and EFFECTS.get(w.ability) is not None
                    and (EFFECTS[w.ability].how == "action")
                ):
                    add(u, "Distract")  # L1720-1725
                add(u, "Trip")  # L2248-2251
    return out


def open_window(
    g: Game, trigger: str, unit: Unit, source: Unit | None, ability: str | None = None
) -> bool:
    """Open a reaction window when someone may react; False (nothing to ask) otherwise."""
    s = g.s
    acting = (
        source.owner
        if source is not None
        else (g.unit(s.active).owner if s.active is not None else unit.owner)
    )
    order = [acting, 1 - acting]
    w = Window(trigger, [], unit.uid, source.uid if source is not None else None, ability)
    w.players = [p for p in order if len(options(g, w, p)) > 1]
    if not w.players:
        return False
    s.window = w
    s.stage, s.player = "react", w.players[0]
    return True


def check_react(g: Game, player: int, a: React) -> None:
    """Refuse a reaction that is not one of the options."""
    assert g.s.window is not None
    if a not in options(g, g.s.window, player):
        names = sorted({o.ability or "pass" for o in options(g, g.s.window, player)})
        raise RulesError(
            f"not a reaction you may use now; allowed: {', '.join(names)}", rule("L891-899")
        )


def default_reaction(g: Game, player: int) -> React:
    """The automatic choice: a defensive reaction when one is affordable, in a fixed order of
    preference; swaps, Sidestep, Shadow Hop and Kiss of Death are left to the player."""
    assert g.s.window is not None
    opts = options(g, g.s.window, player)
    prefer = (
        "Cling to Life",
        "Shrug",
        "Contort",
        "Block 4",
        "Block 2",
        "Power Channel",
        "Mage Armor",
        "Dodge",
        "Look Out",
        "Tactical Strike",
        "Decoy",
        "Parry",
        "Deflect",
        "Majesty",
        "Retaliate",
        "Counter Attack",
        "Out-Maneuver",
        "Distract",
        "Trip",
        "Vicious",
    )
    for name in prefer:
        for o in opts:
            if o.ability == name:
                return o
    return React()


def apply_react(g: Game, player: int, a: React) -> None:
    """Use the reaction (or pass), then ask the next player or resume."""
    s = g.s
    w = s.window
    assert w is not None
    if a.unit is not None and a.ability is not None:
        _use(g, w, g.unit(a.unit), a)
    else:
        g.event("pass", f"{g.t.groups[player]} does not react", "L891-899")
    w.players = [p for p in w.players if p != player]
    while w.players and len(options(g, w, w.players[0])) <= 1:
        w.players.pop(0)
    if w.players:
        s.player = w.players[0]
        return
    close_window(g)


def close_window(g: Game) -> None:
    """Resume what the window interrupted."""
    s = g.s
    w = s.window
    assert w is not None
    s.window = None
    active = g.unit(s.active) if s.active is not None else None
    s.stage = "act"
    if active is not None:
        s.player = active.owner
    if w.trigger in ("attack", "hit", "injury", "defeat", "miss", "vicious") and (
        s.attack is not None
    ):
        run_attack(g)
    elif w.trigger == "enter":
        from warbench.rulesets.collision.game.movement import walk

        if s.path_unit is not None:
            walk(g)
    elif w.trigger == "activation":
        from warbench.rulesets.collision.game.turns import after_activation_window

        after_activation_window(g)
    elif w.trigger == "ability":
        from warbench.rulesets.collision.game.actions import resume_ability

        resume_ability(g)
    if s.stage == "act" and s.active is not None:
        from warbench.rulesets.collision.game.turns import maybe_end_activation

        maybe_end_activation(g)


def _use(g: Game, w: Window, u: Unit, a: React) -> None:
    """Pay and apply one reaction (the glossary's text, L1583-2289)."""
    from warbench.rulesets.collision.game.objectives import acting
    from warbench.rulesets.collision.game.setup import contest

    s = g.s
    name = a.ability
    assert name is not None
    ctx = s.attack
    if name not in EXTRA:
        e, m = cost_of(name)
        g.pay(u, e, m, name)
        acting(g, u)  # a reaction drops the chest, flag or relic (L1192, L1254)
    lines = "L891-899"
    src = EFFECTS.get(name)
    if src is not None:
        from warbench.rulesets.collision.glossary import Glossary

        entry = Glossary.load().get(name)
        lines = f"L{entry.lines[0]}-{entry.lines[1]}"
    g.event("react", f"{u.name} reacts: {name}", lines, unit=u.uid, ability=name)
    if ctx is not None:
        ctx.reacted.append(name)
    target = g.unit(w.unit) if w.unit is not None else None
    source = g.unit(w.source) if w.source is not None else None
    if name == "Dodge":
        assert ctx is not None
        ctx.mods.append(("Def", 2, "Dodge"))
    elif name == "Decoy":
        assert ctx is not None
        ctx.total_cover = True
    elif name == "Look Out":
        assert ctx is not None
        ctx.mods += [("Def", 2, "Look Out"), ("Armor", 1, "Look Out")]
    elif name == "Tactical Strike":
        assert ctx is not None
        ctx.mods += [("W-Att", 2, "Tactical Strike"), ("W-Pow", 1, "Tactical Strike")]
    elif name in ("Block 2", "Block 4"):
        assert ctx is not None
        ctx.mods.append(("Armor", int(name[-1]), name))
    elif name == "Mage Armor":
        assert ctx is not None
        ctx.armor_set = 8
    elif name == "Power Channel":
        assert ctx is not None
        ctx.mods.append(("Armor", 4, name))
        g.gain_mana(u, 1)
    elif name == "Adamant Form":
        assert ctx is not None
        ctx.adamant = True
    elif name == "Contort":
        assert ctx is not None
        ctx.negated = True
    elif name == "Majesty":
        assert ctx is not None
        ctx.reroll = True
    elif name == "Shadow Hop":
        assert ctx is not None
        from warbench.rulesets.collision.game.objectives import drop_all

        ctx.negated = True
        drop_all(g, u)
        u.where, u.pos = "reserve", None  # L2136-2138
        u.hopped = True  # placed anywhere not within 3 of an enemy when it deploys
    elif name == "Shrug":
        assert ctx is not None and target is not None
        ctx.injury, ctx.after = 0, target.injuries
    elif name == "Vicious":
        g.gain_mana(u, 1)
    elif name == "Cling to Life":
        u.clinging = True
    elif name == "Parry" and ctx is not None and source is not None:
        w_ = contest(
            g,
            "Parry: Att contest",
            _pair(u, source, lambda c: c.stats.att, g),
            "L2053-2054",
            _units(u, source),
        )
        if w_ == u.owner:
            ctx.negated = True
    elif name == "Deflect" and ctx is not None and source is not None:
        w_ = contest(
            g,
            "Deflect: S-Pow contest",
            _pair(u, source, lambda c: c.stats.s_pow, g),
            "L1715-1718",
            _units(u, source),
        )
        if w_ == u.owner:
            ctx.negated = True
    elif name == "Castle" and ctx is not None and a.target is not None:
        _swap(g, u, g.unit(a.target))
        ctx.target = a.target
    elif name == "Got your Back" and ctx is not None and target is not None:
        _swap(g, u, target)
        ctx.target = u.uid
    elif name == "Sidestep" and ctx is not None and a.at is not None:
        u.pos = a.at
        g.event("sidestep", f"{u.name} steps to {a.at}", "L2163-2169")
        att = g.unit(ctx.attacker)
        from warbench.rulesets.collision.game.attacks import reach_of, spec_of, weapon_of

        reach, ranged = reach_of(g, att, spec_of(ctx.ability), weapon_of(g, att, ctx.weapon))
        if att.pos is not None and not ranged and spaces(att.pos, a.at) > reach:
            ctx.negated = True  # out of the attack's reach: ignore it
    elif name == "Retaliate" and source is not None and u.pos is not None:
        if source.pos is not None:
            u.facing = face_towards(u.pos, source.pos)  # "you may turn and attack"
            free_attack(g, u, source, "Retaliate", "L2113-2118")
    elif name == "Counter Attack" and target is not None:
        w_ = contest(
            g,
            "Counter Attack: Command contest",
            _pair(u, target, lambda c: c.stats.command, g),
            "L1692-1698",
            _units(u, target),
        )
        if w_ == u.owner:
            s.path = []  # their movement stops
            g.event("stopped", f"{target.name}'s movement stops", "L1696-1697")
            if u.pos is not None and target.pos is not None:
                u.facing = face_towards(u.pos, target.pos)
            free_attack(g, u, target, "Counter Attack", "L1692-1698")
    elif name == "Out-Maneuver" and target is not None:
        target.pile = 3  # L2042-2043
        target.activated = False
        s.active = None
        g.event("outmaneuver", f"{target.name} moves to phase 3", "L2037-2043")
    elif name == "Kiss of Death" and target is not None:
        card = g.card(target)
        target.endurance = min(9, max(target.endurance, card.stats.endure))
        target.mana = max(target.mana, card.stats.mana)
        target.injuries = 0
        target.statuses = {}
        target.kissed = True  # slain in recovery (L1934-1935)
    elif name == "Distract":
        s.ability_call = None  # negated (L1724-1725)
        g.event("negated", "the ability is negated", "L1720-1725")
    elif name == "Trip":
        tripped = g.unit(a.target) if a.target is not None else target
        if tripped is not None and u.pos is not None and tripped.pos is not None:
            _trip(g, u, tripped)


def _pair(u: Unit, v: Unit, stat: object, g: Game) -> tuple[int, int]:
    f = stat  # a function of a card
    a, b = f(g.card(u)), f(g.card(v))  # type: ignore[operator]
    return (a, b) if u.owner == 0 else (b, a)


def _units(u: Unit, v: Unit) -> tuple[Unit, Unit]:
    """Two characters of a contest, player 0's first."""
    return (u, v) if u.owner == 0 else (v, u)


def _swap(g: Game, a: Unit, b: Unit) -> None:
    a.pos, b.pos = b.pos, a.pos
    g.event("swap", f"{a.name} and {b.name} swap places", "L1637-1639, L1802-1807")


def _trip(g: Game, u: Unit, target: Unit) -> None:
    """Trip (L2248-2251): a special melee attack (Att, reach 2 by the text's "within 2"); a hit
    cancels the ability; no injuries."""
    from warbench.rulesets.collision.attack import to_hit

    assert u.pos is not None and target.pos is not None
    card, tcard = g.card(u), g.card(target)
    face = g.roll(f"{u.name}: Trip", by=u, against=target)
    att = card.stats.att - g.injuries_for_penalty(u)
    from warbench.rulesets.collision.attack import AttackProfile, Cover

    p = AttackProfile(
        att,
        tcard.stats.defense - g.injuries_for_penalty(target),
        0,
        0,
        10,
        0,
        False,
        False,
        False,
        False,
        False,
        Cover.NONE,
        tcard.stats.toughness,
        target.injuries,
    )
    hit, _ = to_hit(p, face)
    g.event(
        "trip",
        f"{u.name} trips at {target.name}: {face}+{att} against Def "
        f"{p.defense}: {'hit' if hit else 'miss'}",
        "L2248-2251",
    )
    if hit:
        ctx = g.s.attack
        if ctx is not None and ctx.attacker == target.uid and ctx.ability is not None:
            ctx.negated = True  # a special attack: every target of it (line, blast, burst)
            g.s.attack_stack = [c for c in g.s.attack_stack if c.attacker != target.uid]
        else:
            g.s.ability_call = None
        g.event("negated", f"{target.name}'s ability is cancelled", "L2250-2251")


__all__ = ["FACINGS", "apply_react", "check_react", "default_reaction", "open_window", "options"]
