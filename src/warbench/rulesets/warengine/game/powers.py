"""What a Special Power does once it succeeds (004_f4ea5693af0644ce.txt L999-L1351).

The effects table (:data:`.effects.POWERS`) names each power's effect kinds; this module is
the one place that applies a kind. Timed effects live in ``Fig.bonus`` (a tag and a number)
and end in the Follow Up step (:mod:`.followup`), unless the power says otherwise.

Tags read elsewhere: ``halted`` (may not move, attack or reserve: Incontrovertible Truth,
Jinx Mechanism, Electronic Feedback, Televangelism, Suspend), ``suspended`` (invulnerable,
L1285), ``null`` (no further powers: Null Field L1155, Protection L1167), ``attack``
(Pounding Rage L1161), ``illuminated`` (L1101), ``shield`` (Shield of God L1209),
``blessed`` (Bless Weapon L1035), ``stealthy`` (Skulk in Shadows L1221), ``exposed``
(Earth Sense L1071), ``def_hero`` (Psychic Shield L1173), ``hero_cap`` (Invigorate L1131),
``floor`` / ``chanting`` (War Chant L1335), ``invisible`` (Invisibility L1141), ``first``
(Speaking in Tongues L1233: the unit activates before any other of its force), ``mob`` (Mob
Mentality L1149: the unit's next close combat massed attack), ``adrenal`` / ``doomed``
(Adrenal Overload L1015: a killing hit removes the figure only in the Follow Up step),
``future`` (See the Future L1207: kept through the Follow Up step to the next Initiative step),
``telepathy`` (Telepathic Command L1297: the lending character's id + 1). You Da Man (L1347)
lasts the game: a mark (``Fig.marks``) that :func:`.control.cr_of` reads. ``frenzy_k`` /
``frenzy_r`` (Induce Drug Frenzy L1123: its kept and rolled dice), ``storm_x`` /
``storm_y`` / ``storm_r`` and ``rained`` (Summon Rain Storm L1273), ``speedster``
(Speedster L1239: 6" more to move this activation, no reserve fire or enemy power on it),
``static`` (Static Charge L1249: the next enemy in base contact is zapped, 2k2), the mark
``swarm`` (Illusionary Swarm L1111: the unit's next activation fires on the closest unit,
friend or foe, without Did Not Move; the tag ``swarm`` while it lasts).
"""

from __future__ import annotations

from warbench.kernel.dice import Dice
from warbench.play.core import Event
from warbench.rulesets.warengine.dice import XkY
from warbench.rulesets.warengine.game import kit
from warbench.rulesets.warengine.game.astral import project, projector_refusal, user_of
from warbench.rulesets.warengine.game.effects import Effect
from warbench.rulesets.warengine.game.factions import (
    convert,
    expunge,
    of_faction,
    reset_ok,
    system_reset,
)
from warbench.rulesets.warengine.game.measure import (
    free_spot,
    gap,
    gap_at,
    in_close_combat,
    on_table,
    sees,
)
from warbench.rulesets.warengine.game.resolution import destroy
from warbench.rulesets.warengine.game.setup import Context, WeaponProfile
from warbench.rulesets.warengine.game.setup import fig_name as _n
from warbench.rulesets.warengine.game.state import Fig, GameState, rule
from warbench.rulesets.warengine.game.summoning import summon, waiting

#: Power kinds resisted by the target's Mental (used on enemies, L830); the rest affect
#: friendly figures (10 or more succeeds).
ENEMY_KINDS = (
    "power_rout_test",
    "power_destroy",
    "power_drain_hero",
    "power_halt",
    "power_suspend",
    "power_unit_tag_enemy",
    "power_unit_mark_enemy",
    "power_drain",
    "power_control",
    "power_expunge",
    "power_convert",
)

#: Target restrictions (``power_only``): a sentence and the figures allowed.
ONLY = {
    "machine": "vehicles and figures with the Cybernetic edge",
    "group": "units of at least two figures",
    "not_activated": "units that have not activated this turn",
    "not_vehicle": "figures that are not vehicles",
    "user": "the user itself",
    "other_unit": "another unit (one extra activation at a time)",
    "monster_cc": "figures in base contact with a monster user no bigger than it",
    "near_character": "units of a user within a friendly character's Control Radius",
    "you_da_man": "Troopers or Elites without a Control Radius in a unit that has none left",
    "teleport": "a figure within the user's Control Radius (without one, the user itself)",
    "shove": 'Troopers, Elites and Characters within 3" of the user',
    "wreck": "disabled vehicles in base contact with the user (game/kit.py, L1201)",
    "summoner": "its user, while a Summoned figure of its force waits to be deployed",
    "projector": "its user, with no projection active",
    "nanites": "Mutant or DeadTech figures",
    "convert": "MegaCom or Brethren figures",
    "reset": "DeadTech White Hat or Black Hat units of Troopers and/or Elites",
}


def lending_character(state: GameState, ctx: Context, f: Fig) -> int | None:
    """Telepathic Command (L1297): the friendly character whose Control Radius holds the user
    and whose Mental is lent (the engine's choice, the best Mental; docs/rulings.md)."""
    from warbench.rulesets.warengine.game.control import mental_rank

    chars = lenders(state, ctx, f)
    return max(chars, key=lambda i: (mental_rank(ctx, i), -i)) if chars else None


def lenders(state: GameState, ctx: Context, f: Fig) -> list[int]:
    """The characters a Telepathic Command user may select (L1297 "The user must be within
    the Control Radius of a selected character"): friendly characters on the table whose
    Control Radius holds the user (the user itself if it is one)."""
    from warbench.rulesets.warengine.game.control import cr_of

    return [
        c.id
        for c in state.figs
        if c.side == f.side
        and on_table(c)
        and ctx.profiles[c.id].character
        and cr_of(state, ctx, c.id) > 0
        and (c.id == f.id or gap(ctx, c, f) <= cr_of(state, ctx, c.id) + 1e-9)
    ]


def only_refusal(
    state: GameState,
    ctx: Context,
    effects: tuple[Effect, ...],
    t: Fig,
    user: Fig | None = None,
) -> str | None:
    """Why the power may not target ``t`` (its ``power_only`` restriction, null tags)."""
    if "null" in t.bonus or "suspended" in t.bonus:
        return f"{_n(ctx, t)} may not be affected by Special Powers this turn"
    if ctx.projections and user_of(ctx, t.id) is not None:
        return f"Special Powers may not affect a projection ({_n(ctx, t)}, L1021)"
    if "speedster" in t.bonus and user is not None and user.side != t.side:
        return f"{_n(ctx, t)} moves too fast to be targeted (Speedster, L1239)"
    for e in effects:
        if e.kind != "power_only":
            continue
        prof = ctx.profiles[t.id]
        if e.param == "machine" and not (prof.has("cybernetic") or "Vehicle" in prof.tweaks):
            return f"it affects only {ONLY['machine']}"
        if e.param == "wreck":  # used on wrecks through kit.revive, never on a figure
            return f"it affects only {ONLY['wreck']}"
        if e.param == "group" and len(state.units[t.unit].figs) < 2:
            return f"it affects only {ONLY['group']}"
        if e.param == "not_activated" and state.units[t.unit].activated:
            return f"it affects only {ONLY['not_activated']}"
        if e.param == "not_vehicle" and "Vehicle" in prof.tweaks:
            return f"it affects only {ONLY['not_vehicle']}"
        if e.param == "other_unit" and (t.unit in state.active_units or state.resume):
            return f"it affects only {ONLY['other_unit']}"
        if e.param == "monster_cc" and not _devour_ok(ctx, user, t):
            return f"it affects only {ONLY['monster_cc']}"
        if e.param == "near_character" and (
            user is None or lending_character(state, ctx, user) is None
        ):
            return f"it affects only {ONLY['near_character']}"
        if e.param == "you_da_man" and not _you_da_man_ok(state, ctx, t):
            return f"it affects only {ONLY['you_da_man']}"
        if e.param == "teleport" and user is not None:
            from warbench.rulesets.warengine.game.control import cr_of

            cr = cr_of(state, ctx, user.id)
            if t.id != user.id and (cr <= 0 or gap(ctx, user, t) > cr + 1e-9):
                return f"it affects only {ONLY['teleport']}"
        if e.param == "nanites" and not of_faction(ctx, t.id, "Mutant", "DeadTech"):
            return f"it affects only {ONLY['nanites']}"
        if e.param == "convert" and not of_faction(ctx, t.id, "MegaCom", "Brethren"):
            return f"it affects only {ONLY['convert']}"
        if e.param == "reset" and not reset_ok(state, ctx, t):
            return f"it affects only {ONLY['reset']}"
        if e.param == "projector" and (user is None or projector_refusal(state, ctx, user, t)):
            return f"it affects only {ONLY['projector']}"
        if e.param == "summoner" and (
            user is None or t.id != user.id or not waiting(state, ctx, user.side)
        ):
            return f"it affects only {ONLY['summoner']}"
        if e.param == "shove" and (
            user is None
            or t.id == user.id
            or prof.type not in ("T", "E", "C")
            or gap(ctx, user, t) > 3.0 + 1e-9
        ):
            return f"it affects only {ONLY['shove']}"
    return None


#: Figure types by size, for Devour's "targets bigger than the monster's head" (L1063).
SIZE = {"T": 0, "E": 0, "C": 0, "L": 1, "M": 2, "H": 3}


def _devour_ok(ctx: Context, user: Fig | None, t: Fig) -> bool:
    """Devour (L1059): a monster's power, in close combat only, on a target no bigger than
    the monster (its head: docs/rulings.md reads it as a type no larger than the monster's)."""
    if user is None or "Monster" not in ctx.profiles[user.id].tweaks:
        return False
    if gap(ctx, user, t) > 0.01:
        return False
    return SIZE[ctx.profiles[t.id].type] <= SIZE[ctx.profiles[user.id].type]


def _you_da_man_ok(state: GameState, ctx: Context, t: Fig) -> bool:
    from warbench.rulesets.warengine.game.control import cr_of

    def leads(i: int) -> bool:
        return ctx.profiles[i].type in ("T", "E") and cr_of(state, ctx, i) > 0

    if ctx.profiles[t.id].type not in ("T", "E") or cr_of(state, ctx, t.id) > 0:
        return False
    return not any(on_table(state.figs[i]) and leads(i) for i in state.units[t.unit].figs)


def only_user(effects: tuple[Effect, ...]) -> bool:
    """Whether the power works on its user only (See the Future L1207)."""
    return any(e.kind == "power_only" and e.param == "user" for e in effects)


def _halt(f: Fig) -> None:
    """The figure may not act this turn and loses its reserve marker."""
    f.bonus["halted"] = 1
    f.reserved = None
    f.reserve_more = []


def chanted(state: GameState, ctx: Context, f: Fig) -> bool:
    """War Chant (L1335): ones read as twos while the chanter still chants and ``f`` is in
    range of it (the chant ends when the chanter moves, attacks at range, is in close combat,
    destroyed or routed)."""
    src = f.bonus.get("floor", 0) - 1
    if src < 0:
        return False
    s = state.figs[src]
    chant = s.bonus.get("chanting", 0)
    if not chant or not on_table(s) or in_close_combat(state, ctx, s):
        return False
    return gap(ctx, s, f) <= chant / 100 + 1e-9


def apply_power(
    state: GameState,
    ctx: Context,
    f: Fig,
    w: WeaponProfile,
    t: Fig,
    effects: tuple[Effect, ...],
    dice: Dice,
    events: list[Event],
    *,
    via: int | None = None,
    at: tuple[float, float] | None = None,
    lose: str | None = None,
) -> None:
    """Apply a successful power's effects (its kinds from the effects table); ``via`` is
    Telepathic Command's chosen character (else the engine's, :func:`lending_character`),
    ``at`` Teleport's destination (else the target stays) or Shove's landing point (else
    :func:`shove_default`)."""
    unit = state.units[t.unit]
    for e in effects:
        k = e.kind
        if k == "power_rout_test":
            unit.must_test = True
        elif k == "power_destroy":
            destroy(state, ctx, t, f, events, "banished")
        elif k == "power_rally":
            for i in unit.figs:
                state.figs[i].bonus["rally"] = 1
        elif k == "power_bonus" and isinstance(e.param, tuple):
            t.bonus[str(e.param[0])] = int(e.param[1]) if len(e.param) == 2 else 1
        elif k == "power_unit_mark_enemy":  # until the unit's next activation (L1111)
            for i in unit.figs:
                if str(e.param) not in state.figs[i].marks:
                    state.figs[i].marks.append(str(e.param))
        elif k in ("power_unit_tag", "power_unit_tag_enemy"):
            for i in unit.figs:
                state.figs[i].bonus[str(e.param)] = 1
        elif k == "power_heal":
            gain = dice.roll(str(e.param), w.name)
            t.hero = min(ctx.profiles[t.id].hero, t.hero + gain)
        elif k == "power_drain":  # Drain Power (L1069), game/kit.py
            kit.drain(state, ctx, f, t, lose, events)
        elif k == "power_restore":  # Restore gives back what Drain Power took (L1195)
            kit.restore(state, ctx, t, events)
        elif k == "power_drain_hero":
            loss = dice.roll(str(e.param), w.name)
            if t.hero < loss:
                events.append(Event("drained", f"{_n(ctx, t)} has too few Hero Points", rule(1231)))
                destroy(state, ctx, t, f, events, "drained")
            else:
                t.hero -= loss
        elif k == "power_halt":
            _halt_scope(state, ctx, f, w, t, str(e.param))
        elif k == "power_suspend":
            _halt(t)
            t.bonus["suspended"] = 1
        elif k == "power_hero":
            tag, amount = e.param if isinstance(e.param, tuple) else ("def_hero", e.param)
            gain = dice.roll(str(amount), w.name) if isinstance(amount, str) else int(amount)
            if tag == "def_hero":
                t.bonus["def_hero"] = t.bonus.get("def_hero", 0) + gain
            else:
                # Invigorate never stacks with itself (a second use in a turn, after an
                # extra activation, tops the six up again): at most six over the points
                # the figure had before the first (docs/rulings.md)
                cap = t.bonus.setdefault("hero_cap", t.hero)
                t.hero = max(t.hero, min(t.hero + gain, cap + gain))
        elif k == "power_expose":
            rng = w.range or 0.0
            for g in state.figs:
                if g.side != f.side and on_table(g) and gap(ctx, f, g) <= rng + 1e-9:
                    g.bonus["exposed"] = 1
        elif k == "power_adrenal":  # Adrenal Overload (L1015)
            t.bonus["adrenal"] = 1
            t.reserved = None
            t.reserve_more = []
        elif k == "power_frenzy":  # Induce Drug Frenzy (L1123), until the Follow Up step
            t.bonus["frenzy_k"] = w.av.kept  # +1" of movement a kept die
            t.bonus["frenzy_r"] = w.av.rolled  # +1 close combat, -1 ranged a rolled die
            t.bonus["def_hero"] = t.bonus.get("def_hero", 0) + w.av.kept
            t.reserved = None
            t.reserve_more = []
            wi = next(i for i, x in enumerate(ctx.profiles[f.id].weapons) if x.name == w.name)
            # the Follow Up defense is against "the same Attack Value as used" (L1123)
            t.burning.append([f.id, wi, 3, 0, w.av.rolled, w.av.kept])
        elif k == "power_wave":
            _wave(state, ctx, f, w, t, float(str(e.param)), events)
        elif k == "power_rain_storm":  # the area's centre is the named figure (L1273)
            f.bonus["storm_x"], f.bonus["storm_y"] = round(t.x * 1000), round(t.y * 1000)
            f.bonus["storm_r"] = round(float(str(e.param)))
            from warbench.rulesets.warengine.game.attacks import rain_storms

            rain_storms(state, ctx)
        elif k == "power_fervor":  # Fervor of the Righteous (L1089): activates now
            from warbench.rulesets.warengine.game.activation import activate
            from warbench.rulesets.warengine.game.state import Activate

            state.resume = list(state.active_units)
            activate(state, ctx, Activate(t.unit), dice, events)
        elif k == "power_future":  # See the Future (L1207): the next Initiative step
            t.bonus["future"] = 1
        elif k == "power_telepathy":  # Telepathic Command (L1297)
            lender = via if via is not None else lending_character(state, ctx, f)
            if lender is not None:
                for i in unit.figs:
                    state.figs[i].bonus["telepathy"] = lender + 1
                    state.figs[i].controlled = True
        elif k == "power_teleport":  # Teleport (L1303)
            _teleport(state, ctx, f, t, at, events)
        elif k == "power_shove":  # Shove (L1219)
            _shove(
                state,
                ctx,
                f,
                t,
                at if at is not None else shove_default(state, ctx, f, t),
                dice,
                events,
            )
        elif k == "power_terrain":  # the board changes (L1033, L1189, L1321, L1327, L1333)
            from warbench.rulesets.warengine.game.terrain import use

            use(state, ctx, f, w, at, events)
        elif k == "power_control":  # Control (L1055): for the rest of the turn
            from warbench.rulesets.warengine.game.allegiance import take_control

            take_control(state, ctx, f, t, events)
        elif k == "power_actuate":  # Actuate Casualty (L1009)
            from warbench.rulesets.warengine.game.allegiance import actuate

            actuate(state, ctx, f, t, events)
        elif k == "power_expunge":  # Expunge Nanites (L1087)
            expunge(state, ctx, f, t, dice, events)
        elif k == "power_convert":  # Sudden Conversion (L1267)
            convert(state, ctx, f, t, events)
        elif k == "power_reset":  # System Reset (L1291)
            system_reset(state, ctx, f, t, events)
        elif k == "power_project":  # Astral Projection (L1021)
            project(state, ctx, f, at, events)
        elif k == "power_summon":  # Summoning (L1277): deployed in the Follow Up step
            summon(state, ctx, f, via, at, events)
        elif k == "power_you_da_man":  # You Da Man (L1347): for the rest of the game
            if "You Da Man" not in t.marks:
                t.marks.append("You Da Man")
        elif k == "power_war_chant":
            rng = w.range or 0.0
            f.bonus["chanting"] = round(rng * 100)
            for g in state.figs:
                if g.side == f.side and on_table(g) and gap(ctx, f, g) <= rng + 1e-9:
                    g.bonus["floor"] = f.id + 1


def point_refusal(
    state: GameState, ctx: Context, f: Fig, w: WeaponProfile, t: Fig, at: tuple[float, float]
) -> str | None:
    """Why ``at`` is not a place Teleport may put ``t`` (L1303: within the power's Range of
    the user, on the table, not inside impassable terrain or another base; close combat is
    allowed) or Shove may fling it to (L1219: anywhere on the table, not inside impassable
    terrain; onto an enemy figure it lands in base contact, not onto a friend's)."""
    import math

    x, y = at
    if not (math.isfinite(x) and math.isfinite(y)):
        return "name a finite point"
    r = ctx.profiles[t.id].radius
    why = ctx.field.passable((x, y), (x, y), r)
    if why is not None:
        return why
    if w.power == "Teleport":
        rng = w.range if w.range is not None else 0.0
        if math.hypot(x - f.x, y - f.y) > rng + 1e-9:
            return f"({x:g}, {y:g}) is beyond the power's {rng:g}\" Range of the user"
        if not free_spot(state, ctx, t, x, y):
            return f"({x:g}, {y:g}) overlaps another figure's base"
        return None
    for g in state.figs:
        if g.id != t.id and on_table(g) and gap_at(ctx, t, x, y, g) < -1e-6 and g.side == t.side:
            return f"({x:g}, {y:g}) is on a friendly figure ({_n(ctx, g)})"
    return None


def shove_default(state: GameState, ctx: Context, f: Fig, t: Fig) -> tuple[float, float]:
    """Shove without a named point: 6" directly away from the user, within the table
    (docs/rulings.md)."""
    import math

    d = math.hypot(t.x - f.x, t.y - f.y) or 1.0
    r = ctx.profiles[t.id].radius
    x = t.x + (t.x - f.x) / d * 6.0
    y = t.y + (t.y - f.y) / d * 6.0
    x = min(max(x, r), ctx.field.width - r)
    y = min(max(y, r), ctx.field.height - r)
    pt = (round(x, 3), round(y, 3))
    if point_refusal(state, ctx, f, _SHOVE, t, pt) is not None:
        return (t.x, t.y)  # onto a friend or into impassable terrain: it stays (docs/rulings.md)
    return pt


#: Shove as :func:`point_refusal` reads it (only the power's name matters there).
_SHOVE = WeaponProfile(-1, "Shove", None, XkY(1, 1), 1, None, "Shove", (), ())


def _teleport(
    state: GameState,
    ctx: Context,
    f: Fig,
    t: Fig,
    at: tuple[float, float] | None,
    events: list[Event],
) -> None:
    if at is None:
        events.append(Event("teleport", f"{_n(ctx, t)} is not moved", rule(1303)))
        return
    t.x, t.y = at
    t.moved = True
    events.append(
        Event("teleport", f"{_n(ctx, t)} is teleported to ({at[0]:g}, {at[1]:g})", rule(1303))
    )


def _shove(
    state: GameState,
    ctx: Context,
    f: Fig,
    t: Fig,
    at: tuple[float, float],
    dice: Dice,
    events: list[Event],
) -> None:
    """Shove (L1219): ``t`` lands at ``at``; a willing (friendly) target takes a 1k1 attack,
    an unwilling one 2k2; hurled onto an enemy figure, it lands in base contact with it and
    both take 2k2 attacks (each a queued attack with Hero Points, L493)."""
    import math

    from warbench.rulesets.warengine.dice import XkY

    x, y = at
    hit: Fig | None = None
    for g in state.figs:
        if g.id != t.id and on_table(g) and g.side != t.side and gap_at(ctx, t, x, y, g) < -1e-6:
            hit = g
            break
    if hit is not None:  # base contact on the side it came from
        d = math.hypot(t.x - hit.x, t.y - hit.y) or 1.0
        reach_ = ctx.profiles[t.id].radius + ctx.profiles[hit.id].radius + 0.001
        x = round(hit.x + (t.x - hit.x) / d * reach_, 3)
        y = round(hit.y + (t.y - hit.y) / d * reach_, 3)
        if ctx.field.passable((x, y), (x, y), ctx.profiles[t.id].radius) is not None or not (
            free_spot(state, ctx, t, x, y)
        ):
            x, y = t.x, t.y  # no room beside it: it falls where it was (docs/rulings.md)
    t.x, t.y, t.moved = x, y, True
    events.append(Event("shove", f"{_n(ctx, t)} is flung to ({x:g}, {y:g})", rule(1219)))
    blows = [(t, XkY(2, 2) if (hit is not None or t.side != f.side) else XkY(1, 1))]
    if hit is not None:
        blows.append((hit, XkY(2, 2)))
    for victim, pool in blows:
        strike(state, ctx, f, victim, pool, dice, events, ("shove", "Shove", "attack", 1219))


def strike(
    state: GameState,
    ctx: Context,
    f: Fig,
    victim: Fig,
    pool: XkY,
    dice: Dice,
    events: list[Event],
    what: tuple[str, str, str, int],
) -> None:
    """A power's plain attack of ``pool`` on ``victim`` (Shove's landing L1219, Expunge
    Nanites' blast L1087): rolled against its Defense and queued as the user's attack, with
    Hero Points (L493). ``what`` is the event kind, the attack's name, its noun and line."""
    from warbench.rulesets.warengine.dice import attack_faces, roll_xky
    from warbench.rulesets.warengine.game.attacks import defense_pool
    from warbench.rulesets.warengine.game.state import Resolution

    kind, name, noun, line = what
    plain = WeaponProfile(-1, name, None, pool, 1, None, None, (), ())
    roll = roll_xky(dice, pool, attack_faces(), f"{name}: {'landing' if kind == 'shove' else noun}")
    dpool, dfaces, _ = defense_pool(state, ctx, f, plain, victim)
    dr = roll_xky(dice, dpool, dfaces, f"{_n(ctx, victim)} defends")
    events.append(
        Event(
            kind,
            f"{_n(ctx, victim)} takes a {pool} {noun}: {roll.total} against {dr.total}",
            rule(line),
            {"fig": victim.id},
        )
    )
    state.queue.append(Resolution(f.id, -1, name, roll.total, [[victim.id, dr.total]]))


def _wave(
    state: GameState,
    ctx: Context,
    f: Fig,
    w: WeaponProfile,
    t: Fig,
    push: float,
    events: list[Event],
) -> None:
    """Wave (L1345): a line from the user toward ``t`` to the power's range; every figure it
    hits, except vehicles and monsters, is moved ``push`` inches directly away from the user
    (where the board and the other bases let it; otherwise it stays, docs/rulings.md)."""
    import math

    from warbench.rulesets.warengine.game.board import seg_point_distance
    from warbench.rulesets.warengine.game.measure import free_spot

    d = math.hypot(t.x - f.x, t.y - f.y)
    if d <= 1e-9:
        return
    reach = (w.range if w.range is not None and math.isfinite(w.range) else d) + (
        ctx.profiles[f.id].radius
    )
    end = (f.x + (t.x - f.x) / d * reach, f.y + (t.y - f.y) / d * reach)
    for g in state.figs:
        prof = ctx.profiles[g.id]
        if g.id == f.id or not on_table(g) or prof.big:
            continue
        if seg_point_distance((f.x, f.y), end, (g.x, g.y)) > prof.radius + 1e-9:
            continue
        away = math.hypot(g.x - f.x, g.y - f.y) or 1.0
        x = round(g.x + (g.x - f.x) / away * push, 6)
        y = round(g.y + (g.y - f.y) / away * push, 6)
        if ctx.field.passable((g.x, g.y), (x, y), prof.radius) is None and free_spot(
            state, ctx, g, x, y
        ):
            g.x, g.y = x, y
            events.append(Event("wave", f'the Wave throws {_n(ctx, g)} back 3"', rule(1345)))


def _halt_scope(
    state: GameState, ctx: Context, f: Fig, w: WeaponProfile, t: Fig, scope: str
) -> None:
    unit = state.units[t.unit]
    if scope == "figure":  # Incontrovertible Truth L1113, Jinx L1143, Electronic Feedback L1077
        _halt(t)
    elif scope == "unit":  # Instill Overwhelming Greed L1125: may not activate this turn
        unit.activated = True
        for i in unit.figs:
            state.figs[i].reserved = None
            state.figs[i].reserve_more = []
    elif scope == "next":  # Chittering Hordes L1047: loses its next activation
        if unit.activated:
            unit.skip_next = True
        unit.activated = True
        for i in unit.figs:
            state.figs[i].reserved = None
            state.figs[i].reserve_more = []
    elif scope == "seen":  # Televangelism L1305: members in sight and range
        rng = w.range or 0.0
        for i in unit.figs:
            g = state.figs[i]
            if on_table(g) and (g is t or (sees(state, ctx, f, g) and gap(ctx, f, g) <= rng)):
                _halt(g)
