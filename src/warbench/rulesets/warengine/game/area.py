"""Area Effect weapons (004_f4ea5693af0644ce.txt L499-L549): who the secondary targets are.

One attack roll, then every affected figure defends separately against it (L503). Secondary
targets may be friends: only a Close Combat area effect weapon may choose fewer (L514, L520, L531).

* CC (L511-L514): the primary target plus figures in base contact the attacker names.
* Ex (L518-L525): within 3" (5" High Explosive, L1773) of the primary, the next closest that
  the primary can see; a close combat Ex weapon's primary target is the attacker itself;
  secondaries the attacker cannot see are in Heavy Cover (the attack module applies it).
* Bu (L529-L534): within 3" of the primary, the next closest that the attacker can see.
* Li (L540-L545): figures behind the primary along the line, up to the weapon's range,
  stopped by terrain that blocks sight and by vehicles and monsters.
Ties for the closest are broken by a die roll (L522).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from warbench.kernel.dice import Dice
from warbench.rulesets.warengine.game.board import seg_point_distance
from warbench.rulesets.warengine.game.measure import gap, on_table, sees

if TYPE_CHECKING:
    from warbench.rulesets.warengine.game.setup import Context, WeaponProfile
    from warbench.rulesets.warengine.game.state import Fig, GameState


def _closest(
    state: GameState, ctx: Context, centre: Fig, cands: list[Fig], n: int, dice: Dice
) -> list[int]:
    order = sorted(cands, key=lambda g: (round(gap(ctx, centre, g), 6), g.id))
    out: list[int] = []
    while order and len(out) < n:
        d0 = round(gap(ctx, centre, order[0]), 6)
        tied = [g for g in order if round(gap(ctx, centre, g), 6) == d0]
        if len(tied) > 1 and len(out) + len(tied) > n:
            k = (dice.d6("area effect: tied secondary target") - 1) % len(tied)
            pick = tied[k]
        else:
            pick = tied[0]
        out.append(pick.id)
        order.remove(pick)
    return out


def secondary_targets(
    state: GameState,
    ctx: Context,
    a: Fig,
    w: WeaponProfile,
    t: Fig,
    chosen: tuple[int, ...],
    dice: Dice,
) -> list[int]:
    """The figures an area effect attack affects, primary first."""
    n = w.ae - 1
    if w.aet == "CC":
        return [t.id, *chosen]
    if w.aet == "Ex":
        primary = a if w.cc else t
        radius = float(w.param("blast", 3.0))
        cands = [
            g
            for g in state.figs
            if on_table(g)
            and g.id != primary.id
            and gap(ctx, primary, g) <= radius + 1e-9
            and sees(state, ctx, primary, g)
        ]
        return [primary.id, *_closest(state, ctx, primary, cands, n, dice)]
    if w.aet == "Bu":
        cands = [
            g
            for g in state.figs
            if on_table(g)
            and g.id not in (t.id, a.id)
            and gap(ctx, t, g) <= 3.0 + 1e-9
            and sees(state, ctx, a, g)
        ]
        return [t.id, *_closest(state, ctx, t, cands, n, dice)]
    if w.aet == "Li":
        return [t.id, *_linear(state, ctx, a, w, t, n)]
    return [t.id]


def _linear(state: GameState, ctx: Context, a: Fig, w: WeaponProfile, t: Fig, n: int) -> list[int]:
    if ctx.profiles[t.id].big:
        return []  # L545: a vehicle or monster stops the shot
    dx, dy = t.x - a.x, t.y - a.y
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    reach = (w.range or 0.0) + ctx.profiles[a.id].radius
    end = (a.x + ux * reach, a.y + uy * reach)
    behind: list[tuple[float, Fig]] = []
    for g in state.figs:
        if not on_table(g) or g.id in (a.id, t.id):
            continue
        along = (g.x - a.x) * ux + (g.y - a.y) * uy
        if along <= length or along > reach + ctx.profiles[g.id].radius:
            continue
        if seg_point_distance((a.x, a.y), end, (g.x, g.y)) <= ctx.profiles[g.id].radius:
            behind.append((along, g))
    behind.sort(key=lambda p: (p[0], p[1].id))
    out: list[int] = []
    for _, g in behind:
        if len(out) >= n or not ctx.field.terrain_sight((t.x, t.y), (g.x, g.y)):
            break
        out.append(g.id)
        if ctx.profiles[g.id].big:
            break
    return out
