"""Figures brought into play during a game: Summoning and Summoned (004_f4ea5693af0644ce.txt
L1277, L1431).

* A figure with the Summoned flaw is bought with the force but not deployed (L1279): it is not
  placed in the placement step and is not "in play" until summoned (a force whose figures on
  the table are all gone has lost, L619, whatever waits to be summoned; docs/rulings.md).
* Summoning is a friendly power on its user (10 or more succeeds, L830). On a success the user
  picks one of the Summoned figures of its force not yet deployed (the Attack's ``via``; the
  engine's choice: the most expensive, then the lowest id) and may name where it will stand
  (``at``). During the next Follow Up step, if the user is still in play, the figure is
  deployed within the user's Control Radius, or in base-to-base contact with a user that has
  none (L1279): at the named point if it is still allowed then, else at the engine's spot
  (the free spot closest to the user). It activates normally on the following turn (L1279).

The pick is kept on the Summoned figure as ``Fig.bonus["summon"]`` (the user's id + 1) with
``summon_x`` / ``summon_y`` (thousandths of an inch) when a point was named.
"""

from __future__ import annotations

import math

from warbench.play.core import Event
from warbench.rulesets.warengine.game.measure import free_spot, gap_at, on_table
from warbench.rulesets.warengine.game.setup import Context
from warbench.rulesets.warengine.game.state import Fig, GameState, rule

#: Base contact, for a user without a Control Radius (edge to edge, inches).
CONTACT = 0.01


def is_summoned(ctx: Context, fid: int) -> bool:
    """Whether the figure carries the Summoned flaw (L1431)."""
    return ctx.profiles[fid].has("summoned")


def waiting(state: GameState, ctx: Context, side: int) -> list[int]:
    """The Summoned figures of ``side`` not yet deployed and not already picked by a
    Summoning this turn, the engine's pick first (the most expensive, then the lowest id)."""
    out = [
        f.id
        for f in state.figs
        if f.side == side
        and f.alive
        and not f.placed
        and "summon" not in f.bonus
        and is_summoned(ctx, f.id)
    ]
    return sorted(out, key=lambda i: (-ctx.profiles[i].points, i))


def _n(ctx: Context, fid: int) -> str:
    return f"{ctx.profiles[fid].name} #{fid}"


def spot_refusal(
    state: GameState, ctx: Context, user: Fig, fid: int, x: float, y: float
) -> str | None:
    """Why the Summoned figure ``fid`` may not be deployed at ``(x, y)`` beside ``user``
    (L1279: within its Control Radius, or in base contact without one; on the table, not in
    impassable terrain, not on another base), or ``None``."""
    from warbench.rulesets.warengine.game.control import cr_of

    if not (math.isfinite(x) and math.isfinite(y)):
        return "name a finite point"
    s = state.figs[fid]
    r = ctx.profiles[fid].radius
    why = ctx.field.passable((x, y), (x, y), r)
    if why is not None:
        return why
    d = gap_at(ctx, s, x, y, user)
    cr = cr_of(state, ctx, user.id)
    if cr > 0 and d > cr + 1e-9:
        return f"({x:g}, {y:g}) is beyond {_n(ctx, user.id)}'s {cr:g}\" Control Radius"
    if cr <= 0 and d > CONTACT:
        return f"({x:g}, {y:g}) is not in base-to-base contact with {_n(ctx, user.id)}"
    if not free_spot(state, ctx, s, x, y):
        return f"({x:g}, {y:g}) overlaps another figure's base"
    return None


def default_spot(state: GameState, ctx: Context, user: Fig, fid: int) -> tuple[float, float] | None:
    """The engine's spot: in base contact with the user if there is room (16 points around
    it, the side facing the enemy's edge first), else further out within the Control Radius
    (1" rings); ``None`` when there is no room at all."""
    from warbench.rulesets.warengine.game.control import cr_of

    touch = ctx.profiles[user.id].radius + ctx.profiles[fid].radius + CONTACT / 2
    cr = cr_of(state, ctx, user.id)
    rings = [touch] + [touch + k for k in range(1, int(cr) + 1)]
    toward = math.pi / 2 if user.side == 0 else -math.pi / 2  # the enemy's edge
    for dist in rings:
        for k in sorted(range(16), key=lambda k: (min(k, 16 - k), k)):
            ang = toward + k * math.pi / 8
            x = round(user.x + dist * math.cos(ang), 3)
            y = round(user.y + dist * math.sin(ang), 3)
            if spot_refusal(state, ctx, user, fid, x, y) is None:
                return (x, y)
    return None


def summon(
    state: GameState,
    ctx: Context,
    user: Fig,
    pick: int | None,
    at: tuple[float, float] | None,
    events: list[Event],
) -> None:
    """A successful Summoning: mark the picked figure to deploy in the Follow Up step."""
    ready = waiting(state, ctx, user.side)
    fid = pick if pick is not None else (ready[0] if ready else None)
    if fid is None or fid not in ready:
        events.append(Event("summon", "no Summoned figure is left to summon", rule(1279)))
        return
    s = state.figs[fid]
    s.bonus["summon"] = user.id + 1
    if at is not None:
        s.bonus["summon_x"], s.bonus["summon_y"] = round(at[0] * 1000), round(at[1] * 1000)
    events.append(
        Event(
            "summon",
            f"{_n(ctx, user.id)} summons {_n(ctx, fid)}: it arrives in the Follow Up step",
            rule(1279),
        )
    )


def deploy_summoned(state: GameState, ctx: Context, events: list[Event]) -> None:
    """The Follow Up step: deploy each figure summoned this turn whose user is still in play
    (L1279), at its named point when still allowed, else at the engine's spot."""
    for s in state.figs:
        src = s.bonus.get("summon", 0) - 1
        if src < 0 or s.placed or not s.alive:
            continue
        user = state.figs[src]
        if not on_table(user):
            why = f"{_n(ctx, s.id)} is not deployed: its summoner is gone"
            events.append(Event("summon", why, rule(1279)))
            continue
        spot: tuple[float, float] | None = None
        if "summon_x" in s.bonus:
            asked = (s.bonus["summon_x"] / 1000, s.bonus["summon_y"] / 1000)
            if spot_refusal(state, ctx, user, s.id, *asked) is None:
                spot = asked
        if spot is None:
            spot = default_spot(state, ctx, user, s.id)
        if spot is None:
            why = f"no room to deploy {_n(ctx, s.id)} beside its summoner"
            events.append(Event("summon", why, rule(1279)))
            continue
        s.x, s.y, s.placed = spot[0], spot[1], True
        s.moved = False
        # a unit whose figures had all fallen is back in play (its leader is chosen when it
        # next activates, L329)
        state.units[s.unit].gone = False
        events.append(
            Event(
                "summon",
                f"{_n(ctx, s.id)} is deployed at ({spot[0]:g}, {spot[1]:g})",
                rule(1279),
                {"fig": s.id, "x": spot[0], "y": spot[1]},
            )
        )
