"""Candidate actions and the engine's automatic play (the ``default`` of every decision).

:func:`figure_actions` lists the active figures' sensible actions (every attack on an allowed
target, with and without Massed Attack helpers; reserving; moving toward the nearest enemy;
charging into contact; a Fast Move that stops 6" short; Deactivate); the ruleset adds a
family of moves to any point. :func:`choose` is a simple scripted player: attack with the
strongest weapon, else charge, else advance, else reserve, else Deactivate.
"""

from __future__ import annotations

import math
from typing import Literal

from warbench.rulesets.warengine.game import attacks as atk
from warbench.rulesets.warengine.game import movement as mov
from warbench.rulesets.warengine.game import reserve as res
from warbench.rulesets.warengine.game.activation import activatable, join_ok
from warbench.rulesets.warengine.game.control import group_figs
from warbench.rulesets.warengine.game.measure import (
    gap,
    in_close_combat,
    in_contact,
    nearest_enemy,
    on_table,
)
from warbench.rulesets.warengine.game.setup import Context
from warbench.rulesets.warengine.game.state import (
    Activate,
    Attack,
    Deactivate,
    Fig,
    GameState,
    Move,
    Reserve,
    WarEngineAction,
)


def activations(state: GameState, ctx: Context, side: int) -> list[Activate]:
    """Every unit ``side`` may activate, and every character-with-troopers pairing (L375)."""
    units = activatable(state, ctx, side)
    out = [Activate(u) for u in units]
    for c in units:
        if state.units[c].character:
            out += [Activate(c, t) for t in units if t != c and join_ok(state, ctx, c, t) is None]
    return out


def _attacks(state: GameState, ctx: Context, f: Fig) -> list[Attack]:
    out: list[Attack] = []
    prof = ctx.profiles[f.id]
    group = set(state.active_units)
    for wi, w in enumerate(prof.weapons):
        if atk.weapon_refusal(state, ctx, f, wi) is not None:
            continue
        if w.power is not None and not atk.is_enemy_power(w):
            # on the user, on friends in range, and (aimed powers) on anyone in range
            most = (w.range or 0.0) + f.bonus.get("range", 0)
            for g in state.figs:
                if not on_table(g) or (g.side != f.side and not atk.aimed(w)):
                    continue
                if g.id != f.id and gap(ctx, f, g) > most + 1e-9:
                    continue
                if atk.target_refusal(state, ctx, f, w, g.id) is None:
                    out.append(Attack(f.id, wi, g.id))
            continue
        special = (
            prof.has("glory_hound")
            or w.has("cybernetic_only")
            or w.power is not None
            or f.vendetta is not None
            or "swarm" in f.bonus
        )
        for u in state.units:
            friend = u.side == f.side and not ("swarm" in f.bonus and u.id != f.unit)
            if friend or u.gone:  # an Illusionary Swarm may turn fire on friends (L1111)
                continue
            for t in atk.allowed_targets(state, ctx, f, w, u.id):
                secondary: tuple[int, ...] = ()
                if w.aet == "CC" and w.ae > 1:
                    secondary = tuple(
                        g.id
                        for g in state.figs
                        if g.id != t and g.side != f.side and on_table(g) and in_contact(ctx, f, g)
                    )[: w.ae - 1]
                a = Attack(f.id, wi, t, (), secondary)
                if (not secondary and not special) or atk.target_refusal(
                    state, ctx, f, w, t, (), secondary
                ) is None:
                    out.append(a)
                if w.power is None:
                    helpers = tuple(
                        h
                        for h in group_figs(state, list(group))
                        if h != f.id
                        and state.figs[h].reserved is not None
                        and ctx.profiles[h].weapons[state.figs[h].reserved or 0].cc == w.cc
                        and ctx.profiles[h].weapons[state.figs[h].reserved or 0].power is None
                        and atk.can_reach(
                            state,
                            ctx,
                            state.figs[h],
                            ctx.profiles[h].weapons[state.figs[h].reserved or 0],
                            state.figs[t],
                        )
                        is None
                    )
                    if (
                        helpers
                        and atk.target_refusal(state, ctx, f, w, t, helpers, secondary) is None
                    ):
                        out.append(Attack(f.id, wi, t, helpers, secondary))
    return out


def _moves(state: GameState, ctx: Context, f: Fig, player: int) -> list[Move]:
    out: list[Move] = []
    foe = nearest_enemy(state, ctx, f)
    if foe is None:
        return out
    modes: tuple[Literal["move", "charge", "fast"], ...] = ("move", "charge", "fast")
    for mode in modes:
        left = mov.allowance(state, ctx, f, mode) - f.used
        if left <= 0:
            continue
        if mode == "fast":
            d = math.hypot(foe.x - f.x, foe.y - f.y)
            r = ctx.profiles[f.id].radius + ctx.profiles[foe.id].radius
            step = min(left, d - r - mov.FAST_CLEAR - 0.05)
            if step < 1:
                continue
            x, y = mov.toward(state, ctx, f, foe, step)
        else:
            x, y = mov.toward(state, ctx, f, foe, left - 0.001)
        m = Move(f.id, x, y, mode)
        if mov.move_refusal(state, ctx, m, player) is None:
            out.append(m)
    return out


def figure_actions(state: GameState, ctx: Context, player: int) -> list[WarEngineAction]:
    """The listed actions of the active unit's figures, then Deactivate."""
    out: list[WarEngineAction] = []
    for fid in group_figs(state, state.active_units):
        f = state.figs[fid]
        if f.done or f.side != player:
            continue
        out += _attacks(state, ctx, f)
        for wi in range(len(ctx.profiles[fid].weapons)):
            r = Reserve(fid, wi)
            if f.mode != "fast" and res.reserve_refusal(state, ctx, r, player) is None:
                out.append(r)
        out += _moves(state, ctx, f, player)
    out.append(Deactivate())
    return out


def _strength(ctx: Context, a: Attack) -> tuple[int, int, int]:
    w = ctx.profiles[a.fig].weapons[a.weapon]
    return (len(a.helpers), w.av.kept, w.av.rolled)


def choose(state: GameState, ctx: Context, side: int) -> WarEngineAction:
    """The engine's automatic choice for the activation or action decision."""
    if state.active_unit is None:
        units = activatable(state, ctx, side)
        return Activate(units[0]) if units else Deactivate()
    if ctx.raging:  # Blood Rage: its compelled moves and attacks come first (L1367)
        from warbench.rulesets.warengine.game.bloodrage import obligation

        owed = obligation(state, ctx, side)
        if owed is not None:
            return owed
    for fid in group_figs(state, state.active_units):
        f = state.figs[fid]
        if f.done or f.side != side:
            continue
        if ctx.raging and ctx.profiles[fid].has("blood_rage"):
            continue  # nothing more it may do
        attacks = [
            a
            for a in _attacks(state, ctx, f)
            if a.target != f.id and (state.figs[a.target].side != f.side or "swarm" in f.bonus)
        ]
        if attacks:
            return max(attacks, key=lambda a: _strength(ctx, a))
        if f.used == 0 and not in_close_combat(state, ctx, f):
            moves = _moves(state, ctx, f, side)
            charge = [m for m in moves if m.mode == "charge"]
            plain = [m for m in moves if m.mode == "move"]
            if charge and any(w.cc for w in ctx.profiles[fid].weapons):
                return charge[0]
            if plain:
                return plain[0]
        if f.mode != "fast":
            for wi in sorted(
                range(len(ctx.profiles[fid].weapons)),
                key=lambda k: -ctx.profiles[fid].weapons[k].av.kept,
            ):
                r = Reserve(fid, wi)
                if res.reserve_refusal(state, ctx, r, side) is None:
                    return r
    return Deactivate()
