"""Measuring on the table: distances between bases, base contact, line of sight between
figures (004_f4ea5693af0644ce.txt L403-L433, L463-L465).

Every distance is measured between the edges of the bases (docs/rulings.md); a move is
measured centre to centre.
"""

from __future__ import annotations

import math

from warbench.rulesets.warengine.game.board import Blocker
from warbench.rulesets.warengine.game.setup import Context
from warbench.rulesets.warengine.game.state import Fig, GameState

CONTACT = 0.01  # base-to-base contact tolerance in inches


def gap(ctx: Context, a: Fig, b: Fig) -> float:
    """Edge-to-edge distance between two figures' bases."""
    return math.hypot(a.x - b.x, a.y - b.y) - ctx.profiles[a.id].radius - ctx.profiles[b.id].radius


def gap_at(ctx: Context, a: Fig, x: float, y: float, b: Fig) -> float:
    """Edge-to-edge distance from figure ``a`` standing at ``(x, y)`` to ``b``."""
    return math.hypot(x - b.x, y - b.y) - ctx.profiles[a.id].radius - ctx.profiles[b.id].radius


def on_table(f: Fig) -> bool:
    """A placed figure still in play."""
    return f.alive and f.placed


def in_contact(ctx: Context, a: Fig, b: Fig) -> bool:
    """Base-to-base contact (L463)."""
    return gap(ctx, a, b) <= CONTACT


def enemies_in_contact(state: GameState, ctx: Context, f: Fig) -> list[Fig]:
    """The enemy figures in base contact with ``f``: it is in close combat (L463)."""
    return [g for g in state.figs if g.side != f.side and on_table(g) and in_contact(ctx, f, g)]


def in_close_combat(state: GameState, ctx: Context, f: Fig) -> bool:
    """Whether ``f`` is in base contact with an enemy."""
    return any(g.side != f.side and on_table(g) and in_contact(ctx, f, g) for g in state.figs)


def sees(state: GameState, ctx: Context, a: Fig, b: Fig) -> bool:
    """Line of sight from ``a`` to ``b`` (L427-L433): terrain that blocks sight, and
    vehicles and monsters between them, block; other figures never do. The battlefield's
    sight query decides (:meth:`.board.Field.sight`)."""
    blockers = blockers_for(state, ctx, a.id, b.id)
    return ctx.field.sight((a.x, a.y), (b.x, b.y), blockers)


def blockers_for(state: GameState, ctx: Context, *skip: int) -> tuple[Blocker, ...]:
    """The bases that block sight (vehicles and monsters on the table, L431-L433) other
    than the figures ``skip`` (the two at the ends of the line)."""
    return tuple(
        ((g.x, g.y), ctx.profiles[i].radius)
        for i in ctx.big
        if i not in skip and (g := state.figs[i]).alive and g.placed
    )


def sees_many(state: GameState, ctx: Context, a: Fig, bs: list[Fig]) -> list[bool]:
    """:func:`sees` from ``a`` to each of ``bs``, the figures that are not vehicles or
    monsters asked of the battlefield together (their blockers are the same)."""
    big = set(ctx.big)
    small = [b for b in bs if b.id not in big]
    if len(small) > 1:
        ctx.field.sight_many(
            (a.x, a.y), [(b.x, b.y) for b in small], blockers_for(state, ctx, a.id)
        )
    return [sees(state, ctx, a, b) for b in bs]


def nearest_enemy(state: GameState, ctx: Context, f: Fig) -> Fig | None:
    """The closest enemy figure on the table."""
    best: Fig | None = None
    dist = math.inf
    for g in state.figs:
        if g.side != f.side and on_table(g):
            d = gap(ctx, f, g)
            if d < dist:
                best, dist = g, d
    return best


def free_spot(state: GameState, ctx: Context, f: Fig, x: float, y: float) -> bool:
    """Whether figure ``f`` standing at ``(x, y)`` overlaps no other base."""
    return all(
        g.id == f.id or not on_table(g) or gap_at(ctx, f, x, y, g) >= -1e-6 for g in state.figs
    )
