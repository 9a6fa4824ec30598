"""Monstrously Huge (004_f4ea5693af0644ce.txt L1399-L1403): a vehicle moved only by the
figures that push it.

* Placing: along the edge of its player's deployment zone farthest from the enemy (its base
  on the table edge: the zones here are strips along opposite edges, L309).
* Its Movement is 0" (the Troop Builder forbids a Movement value), so it never moves itself.
* ``Push(fig, vehicle, x, y)``: a friendly figure of the active unit in base-to-base contact
  with the vehicle gives up the inches of movement it has left this activation (at least 1")
  and names the direction it pushes, toward ``(x, y)``.
* In the Follow Up step every 9" given up makes 1" of vehicle movement, at most 9" a turn; the
  vehicle and every figure in base contact with it move that far in one direction (the last
  push's), never less: when the whole distance is blocked (the table edge, impassable terrain,
  another figure), nothing moves (docs/rulings.md).

The inches given are kept on the vehicle as ``Fig.bonus["pushed"]`` and the direction as
``push_x`` / ``push_y`` (thousandths of an inch).
"""

from __future__ import annotations

import math

from warbench.play.core import Event
from warbench.rulesets.warengine.game.measure import gap, gap_at, on_table
from warbench.rulesets.warengine.game.setup import Context
from warbench.rulesets.warengine.game.state import Fig, GameState, Push, rule

#: Inches of pushing for each inch the vehicle moves, and its most in a turn (L1403).
PER_INCH = 9
MOST = 9


def huge(ctx: Context, fid: int) -> bool:
    """Whether the figure is Monstrously Huge."""
    return ctx.profiles[fid].has("monstrously_huge")


def place_refusal(ctx: Context, side: int, fid: int, x: float, y: float) -> str | None:
    """L1403: deployed along the edge of the deployment zone farthest from the enemy."""
    r = ctx.profiles[fid].radius
    edge_y = r if side == 0 else ctx.field.height - r
    if abs(y - edge_y) > 0.01:
        return (
            f"{ctx.profiles[fid].name} is Monstrously Huge: it is placed with its base on its "
            f"own table edge (y = {edge_y:g}), not at y = {y:g} (L1403)"
        )
    return None


def _left(state: GameState, ctx: Context, f: Fig) -> int:
    from warbench.rulesets.warengine.game import movement as mov

    return max(0, mov.allowance(state, ctx, f, f.mode or "move") - f.used)


def push_refusal(state: GameState, ctx: Context, p: Push, player: int) -> tuple[str, str] | None:
    """Why the push is not allowed (sentence, rule), or ``None``."""
    n = len(state.figs)
    if not (0 <= p.fig < n and 0 <= p.vehicle < n):
        return (f"there is no figure {p.fig if not 0 <= p.fig < n else p.vehicle}", rule(1403))
    f, v = state.figs[p.fig], state.figs[p.vehicle]
    if f.side != player or f.unit not in state.active_units or not on_table(f):
        return (f"figure {p.fig} is not in the unit you are activating", rule(399))
    if f.done or "halted" in f.bonus or f.mode == "fast":
        return (f"{ctx.profiles[f.id].name} #{f.id} may not push now", rule(1403))
    if not huge(ctx, v.id) or v.side != f.side or not on_table(v):
        return (f"figure {p.vehicle} is not a friendly Monstrously Huge vehicle", rule(1403))
    if gap(ctx, f, v) > 0.01:
        return (
            f"{ctx.profiles[f.id].name} #{f.id} must be in base-to-base contact with "
            f"{ctx.profiles[v.id].name} #{v.id} to push it",
            rule(1403),
        )
    if _left(state, ctx, f) < 1:
        return (f"{ctx.profiles[f.id].name} #{f.id} has no movement left to give", rule(1403))
    if not (math.isfinite(p.x) and math.isfinite(p.y)) or math.hypot(p.x - v.x, p.y - v.y) < 0.01:
        return ("name a point away from the vehicle to push toward", rule(1403))
    return None


def push(state: GameState, ctx: Context, p: Push, events: list[Event]) -> None:
    """Give up the figure's movement left to the vehicle's push (L1403)."""
    from warbench.rulesets.warengine.game import movement as mov

    f, v = state.figs[p.fig], state.figs[p.vehicle]
    inches = _left(state, ctx, f)
    f.used = mov.allowance(state, ctx, f, f.mode or "move")
    f.moved = True
    v.bonus["pushed"] = v.bonus.get("pushed", 0) + inches
    v.bonus["push_x"], v.bonus["push_y"] = round(p.x * 1000), round(p.y * 1000)
    events.append(
        Event(
            "push",
            f'{ctx.profiles[f.id].name} #{f.id} gives {inches}" to push '
            f'{ctx.profiles[v.id].name} #{v.id} ({v.bonus["pushed"]}" given this turn)',
            rule(1403),
        )
    )


def push_actions(state: GameState, ctx: Context, player: int) -> list[Push]:
    """The pushes the active figures of ``player`` may make: toward the nearest enemy (the
    engine's direction) and straight ahead."""
    from warbench.rulesets.warengine.game.control import group_figs
    from warbench.rulesets.warengine.game.measure import nearest_enemy

    out: list[Push] = []
    for fid in group_figs(state, state.active_units):
        for vid in ctx.huge:
            v = state.figs[vid]
            foe = nearest_enemy(state, ctx, v)
            ahead = v.y + (12.0 if v.side == 0 else -12.0)
            for x, y in ((foe.x, foe.y) if foe else (v.x, ahead), (v.x, ahead)):
                p = Push(fid, vid, round(x, 3), round(y, 3))
                if push_refusal(state, ctx, p, player) is None and p not in out:
                    out.append(p)
    return out


def move_pushed(state: GameState, ctx: Context, events: list[Event]) -> None:
    """The Follow Up step (L1403): each pushed vehicle and the figures in base contact with it
    move ``min(given // 9, 9)`` inches toward the named point, all or nothing."""
    for v in state.figs:
        given = v.bonus.get("pushed", 0)
        if not given or not on_table(v):
            continue
        inches = min(given // PER_INCH, MOST)
        if inches < 1:
            events.append(
                Event(
                    "push",
                    f'{ctx.profiles[v.id].name} #{v.id}: {given}" of pushing moves it no inch',
                    rule(1403),
                )
            )
            continue
        tx, ty = v.bonus["push_x"] / 1000, v.bonus["push_y"] / 1000
        d = math.hypot(tx - v.x, ty - v.y)
        dx, dy = (tx - v.x) / d * inches, (ty - v.y) / d * inches
        group = [v] + [
            g for g in state.figs if g.id != v.id and on_table(g) and gap(ctx, v, g) <= 0.01
        ]
        ids = {g.id for g in group}
        why = None
        for g in group:
            x, y = g.x + dx, g.y + dy
            why = ctx.field.passable((g.x, g.y), (x, y), ctx.profiles[g.id].radius)
            if why is None:
                for o in state.figs:
                    if o.id not in ids and on_table(o) and gap_at(ctx, g, x, y, o) < -1e-6:
                        why = f"{ctx.profiles[o.id].name} #{o.id} is in the way"
                        break
            if why is not None:
                break
        if why is not None:
            events.append(
                Event(
                    "push",
                    f'{ctx.profiles[v.id].name} #{v.id} cannot be moved {inches}": {why}',
                    rule(1403),
                )
            )
            continue
        for g in group:
            g.x, g.y = round(g.x + dx, 3), round(g.y + dy, 3)
        events.append(
            Event(
                "push",
                f"{ctx.profiles[v.id].name} #{v.id} and {len(group) - 1} figure(s) in contact "
                f'are pushed {inches}"',
                rule(1403),
                {"fig": v.id, "inches": inches},
            )
        )
