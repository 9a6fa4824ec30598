"""Figures changing sides during a game (004_f4ea5693af0644ce.txt): Control (L1055) for the
rest of the turn, Sudden Conversion (L1265) and Actuate Casualty (L1007) for good.

Activations belong to units (L366), so a figure that changes sides leaves its unit: it joins a
unit of its new side (:func:`join_unit`) or becomes a unit of its own, appended to
``GameState.units`` (:func:`own_unit`; unit ids never change, so records stay readable).
Leaving is not a casualty (no Victory Points, L623; its old unit neither loses a figure this
turn nor tests for it); when the figure was its unit's leader, the unit chooses again (L329).
"""

from __future__ import annotations

from warbench.play.core import Event
from warbench.rulesets.warengine.game.measure import gap, on_table
from warbench.rulesets.warengine.game.setup import Context
from warbench.rulesets.warengine.game.state import Attack, Fig, GameState, UnitState


def _leave(state: GameState, ctx: Context, f: Fig) -> None:
    """Take ``f`` out of its unit (its start size shrinks: leaving is not a loss)."""
    from warbench.rulesets.warengine.game.control import choose_leader

    old = state.units[f.unit]
    old.figs = [i for i in old.figs if i != f.id]
    old.start_size = max(0, old.start_size - 1)
    if not any(on_table(state.figs[i]) for i in old.figs):
        old.gone = True  # nothing left to activate: not destroyed, no Victory Points
        old.leader = None
    elif old.leader == f.id:
        old.leader = None
        choose_leader(state, ctx, old.id, (f.x, f.y))


def own_unit(state: GameState, ctx: Context, f: Fig, side: int, name: str) -> UnitState:
    """``f`` leaves its unit and becomes a unit of its own on ``side`` (acting alone, like a
    character, L371: it never tests for casualties)."""
    _leave(state, ctx, f)
    prof = ctx.profiles[f.id]
    u = UnitState(
        len(state.units),
        side,
        name,
        [f.id],
        [],
        prof.character,
        True,
        prof.points,
        leader=f.id,
        start_size=1,
    )
    state.units.append(u)
    f.side, f.unit = side, u.id
    return u


def join_unit(state: GameState, ctx: Context, f: Fig, unit: int) -> None:
    """``f`` leaves its unit and joins ``unit`` (of another side) for good."""
    _leave(state, ctx, f)
    u = state.units[unit]
    u.figs.append(f.id)
    u.start_size += 1
    f.side, f.unit = u.side, unit


def closest_unit_of(state: GameState, ctx: Context, f: Fig, side: int) -> int | None:
    """The unit of ``side`` (not a figure acting alone) with a figure on the table closest to
    ``f`` (ties: lowest id)."""
    best: tuple[float, int] | None = None
    for u in state.units:
        if u.side != side or u.gone or u.solo:
            continue
        for i in u.figs:
            g = state.figs[i]
            if i != f.id and on_table(g):
                key = (gap(ctx, f, g), u.id)
                if best is None or key < best:
                    best = key
    return None if best is None else best[1]


def event(kind: str, text: str, line: int, fig: int) -> Event:
    """An allegiance event naming the figure."""
    from warbench.rulesets.warengine.game.state import rule

    return Event(kind, text, rule(line), {"fig": fig})


# ------------------------------------------------------------------------ Control (L1055)


def owner(f: Fig) -> int:
    """The player a figure belongs to: under Control it acts for the other player until the
    Follow Up step, but stays its owner's (its loss is its owner's casualty, L623)."""
    return 1 - f.side if "control" in f.bonus else f.side


def take_control(state: GameState, ctx: Context, user: Fig, t: Fig, events: list[Event]) -> None:
    """Control (L1055): the user's player controls ``t`` for the rest of the turn, as a unit
    of its own; it may not activate again if its unit has activated this turn."""
    if "control" in t.bonus or t.side == user.side:
        return
    old = state.units[t.unit]
    done = old.activated
    t.reserved = None  # its reserve was its owner's
    t.reserve_more = []
    u = own_unit(state, ctx, t, user.side, f"{ctx.profiles[t.id].name} (controlled)")
    u.activated = done
    t.bonus["control"] = old.id + 1
    events.append(
        event(
            "control",
            f"{ctx.profiles[user.id].name} #{user.id} controls {ctx.profiles[t.id].name} "
            f"#{t.id} for the rest of the turn" + (" (it has activated already)" if done else ""),
            1057,
            t.id,
        )
    )


def release_control(state: GameState, ctx: Context, events: list[Event]) -> None:
    """The Follow Up step: every controlled figure goes back to its owner's unit."""
    for t in state.figs:
        back = t.bonus.pop("control", 0) - 1
        if back < 0:
            continue
        tmp = state.units[t.unit]
        tmp.figs = []
        tmp.gone = True
        tmp.leader = None
        old = state.units[back]
        old.figs = sorted([*old.figs, t.id])
        old.start_size += 1
        t.side, t.unit = old.side, old.id
        if t.alive:
            old.gone = False
        elif old.gone and not any(on_table(state.figs[i]) for i in old.figs):
            state.vp[1 - old.side] += 100  # its last figure fell while controlled (L623)
        events.append(
            event(
                "control",
                f"{ctx.profiles[t.id].name} #{t.id} returns to {old.name}",
                1057,
                t.id,
            )
        )


# --------------------------------------------------------------- Actuate Casualty (L1007)


def corpse_refusal(state: GameState, ctx: Context, user: Fig, target: int) -> str | None:
    """Why Actuate Casualty (L1009) may not be used on figure ``target``: it must be the enemy
    figure the user has just destroyed (its latest kill, with an attack this activation;
    docs/rulings.md), lying in base-to-base contact (a close combat power), not yet actuated."""
    if not 0 <= target < len(state.figs):
        return f"there is no figure {target}"
    t = state.figs[target]
    kills = [v for k, v, *_ in state.log_kills if k == user.id]
    if t.alive or not t.placed or t.routed or not kills or kills[-1] != t.id:
        return "its target is the enemy figure the user has just destroyed"
    if not user.attacked:
        return "the user must have just destroyed the figure (an attack this activation)"
    if gap(ctx, user, t) > 0.01:
        return "the corpse must be in base-to-base contact with the user (close combat only)"
    return None


def actuate(state: GameState, ctx: Context, user: Fig, t: Fig, events: list[Event]) -> None:
    """A successful Actuate Casualty (L1009): the corpse lies in the user's force, defending
    at 1k1 and unable to act, until the Follow Up step (:func:`settle_actuated`)."""
    t.alive = True
    u = own_unit(state, ctx, t, user.side, f"{ctx.profiles[t.id].name} (F.A.T.)")
    u.activated = True
    t.bonus["fat"] = user.id + 1
    t.reserved = None
    t.reserve_more = []
    t.done = True
    events.append(
        event(
            "actuate",
            f"{ctx.profiles[user.id].name} #{user.id} actuates {ctx.profiles[t.id].name} "
            f"#{t.id}: it defends at 1k1 until the Follow Up step",
            1009,
            t.id,
        )
    )


def settle_actuated(state: GameState, ctx: Context, events: list[Event]) -> None:
    """The Follow Up step (L1009): a corpse whose user is still on the table and in base
    contact becomes a Field Actuated Trooper of the user's force and joins the user's unit
    (the engine's pick among the units L1009 allows; docs/rulings.md); otherwise it is
    removed."""
    for t in state.figs:
        src = t.bonus.pop("fat", 0) - 1
        if src < 0 or not t.alive:
            continue
        user = state.figs[src]
        if on_table(user) and gap(ctx, user, t) <= 0.01:
            to = _fat_unit(state, ctx, user, t)
            if to is not None:
                join_unit(state, ctx, t, to)
            t.done = False
            events.append(
                event(
                    "actuate",
                    f"{ctx.profiles[t.id].name} #{t.id} is a Field Actuated Trooper of "
                    f"{state.units[t.unit].name}",
                    1009,
                    t.id,
                )
            )
        else:
            t.alive = False
            tmp = state.units[t.unit]
            tmp.gone = True
            events.append(
                event(
                    "actuate",
                    f"{ctx.profiles[t.id].name} #{t.id} is removed: its user left it",
                    1009,
                    t.id,
                )
            )


def _fat_unit(state: GameState, ctx: Context, user: Fig, t: Fig) -> int | None:
    """The unit a Field Actuated Trooper joins (L1009): the unit that created it, unless that
    is a figure acting alone; then the closest friendly unit whose leader has it within its
    Control Radius; with none, it stays a unit of its own (``None``)."""
    from warbench.rulesets.warengine.game.control import cr_of

    if not state.units[user.unit].solo:
        return user.unit
    best: tuple[float, int] | None = None
    for u in state.units:
        if u.side != user.side or u.gone or u.solo or u.leader is None:
            continue
        lead = state.figs[u.leader]
        if on_table(lead) and gap(ctx, lead, t) <= cr_of(state, ctx, lead.id) + 1e-9:
            key = (gap(ctx, lead, t), u.id)
            best = key if best is None or key < best else best
    return None if best is None else best[1]


def corpse_attacks(state: GameState, ctx: Context, player: int) -> list[Attack]:
    """The Actuate Casualty attacks the active figures of ``player`` may make now (each on
    its latest kill), for the listed actions."""
    from warbench.rulesets.warengine.game.attacks import targets_corpse, weapon_refusal
    from warbench.rulesets.warengine.game.control import group_figs

    out: list[Attack] = []
    for fid in group_figs(state, state.active_units):
        f = state.figs[fid]
        kills = [v for k, v, *_ in state.log_kills if k == fid]
        if f.side != player or not kills:
            continue
        for wi, w in enumerate(ctx.profiles[fid].weapons):
            if (
                targets_corpse(w)
                and weapon_refusal(state, ctx, f, wi) is None
                and corpse_refusal(state, ctx, f, kills[-1]) is None
            ):
                out.append(Attack(fid, wi, kills[-1]))
    return out
