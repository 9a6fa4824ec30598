"""Astral Projection (004_f4ea5693af0644ce.txt L1017-L1021).

"The user sends forth a shadowy version of itself that acts as a remotely controlled other
self": every figure with the power has one projection figure in the set-up, appended after
all the forces' figures (so no other figure's id changes) and listed in the user's unit; it
is off the table until the power succeeds.

* The projection appears within the user's Control Radius, or in base contact without one
  (``Attack.at``; the engine's spot as Summoning's), and activates with the user's unit.
* Its weapons are the user's Special Powers (other attacks come from the user); a power used
  by either counts as the user's use of it this activation. It moves at the user's Move.
* It defends with the user's Mental against every attack ("destroyed by any successful attack
  versus the user's Mental"); Special Powers may not affect it; it never leads, and is worth
  no points.
* It is removed at once when it is farther from the user than the power's Range, or the user
  is destroyed or routed (:func:`leash`, after every action). One projection at a time; once
  removed or destroyed, the user may project again.
"""

from __future__ import annotations

from dataclasses import replace

from warbench.play.core import Event
from warbench.rulesets.warengine.game.effects import Effect
from warbench.rulesets.warengine.game.measure import gap, on_table
from warbench.rulesets.warengine.game.setup import Context, Profile
from warbench.rulesets.warengine.game.state import Fig, GameState, rule

POWER = "Astral Projection"


def projects(prof: Profile) -> bool:
    """Whether the figure has the Astral Projection power."""
    return any(w.power == POWER for w in prof.weapons)


def projection_profile(user: int, prof: Profile) -> Profile:
    """The projection of figure ``user``: its Move, Mental and base; its Special Powers (but
    this one); no Control Radius, Hero Points, tweaks or points; never a vehicle or monster."""
    return replace(
        prof,
        name=f"{prof.name}'s projection",
        type=prof.type if prof.type in ("T", "E", "C") else "C",
        cr=0.0,
        hero=0,
        points=0,
        character=False,
        big=False,
        tweaks=(),
        effects=(Effect("projection", user),),
        weapons=tuple(w for w in prof.weapons if w.power is not None and w.power != POWER),
    )


def user_of(ctx: Context, fid: int) -> int | None:
    """The user a projection figure belongs to, or ``None`` for any other figure."""
    for e in ctx.profiles[fid].effects:
        if e.kind == "projection":
            return int(str(e.param))
    return None


def projection_of(state: GameState, ctx: Context, user: int) -> int | None:
    """The projection figure of ``user`` (on the table or not), or ``None``."""
    for i in state.units[state.figs[user].unit].figs:
        if user_of(ctx, i) == user:
            return i
    return None


def _range(ctx: Context, user: int) -> float:
    w = next(w for w in ctx.profiles[user].weapons if w.power == POWER)
    return w.range if w.range is not None else 0.01


def projector_refusal(state: GameState, ctx: Context, user: Fig, t: Fig) -> str | None:
    """Astral Projection is used on its user, which may have one projection at a time."""
    if t.id != user.id:
        return "its user"
    p = projection_of(state, ctx, user.id)
    if p is None or on_table(state.figs[p]):
        return "its user, with no projection active"
    return None


def project(
    state: GameState,
    ctx: Context,
    user: Fig,
    at: tuple[float, float] | None,
    events: list[Event],
) -> None:
    """A successful Astral Projection: the projection appears beside the user."""
    from warbench.rulesets.warengine.game.summoning import default_spot, spot_refusal

    pid = projection_of(state, ctx, user.id)
    if pid is None:
        return
    spot = at if at is not None and spot_refusal(state, ctx, user, pid, *at) is None else None
    spot = spot or default_spot(state, ctx, user, pid)
    if spot is None:
        events.append(Event("projection", "no room for the projection", rule(1021)))
        return
    p = state.figs[pid]
    p.x, p.y = spot
    p.placed = p.alive = True
    p.routed = False
    p.moved = p.attacked = p.charged = p.done = False
    p.used, p.mode = 0, ""
    p.fired = []
    p.reserved = None
    p.reserve_more = []
    p.bonus = {}
    p.controlled = True
    p.side = user.side
    events.append(
        Event(
            "projection",
            f"{ctx.profiles[user.id].name} #{user.id} sends forth its projection "
            f"(#{pid}) at ({spot[0]:g}, {spot[1]:g})",
            rule(1021),
            {"fig": pid},
        )
    )


def mirror_use(state: GameState, ctx: Context, f: Fig, wi: int) -> None:
    """A power used by the user or its projection is used by both this activation."""
    name = ctx.profiles[f.id].weapons[wi].name
    user = user_of(ctx, f.id)
    other = user if user is not None else projection_of(state, ctx, f.id)
    if other is None:
        return
    for k, w in enumerate(ctx.profiles[other].weapons):
        if w.name == name and k not in state.figs[other].fired:
            state.figs[other].fired.append(k)


def leash(state: GameState, ctx: Context, events: list[Event]) -> None:
    """Remove every projection farther from its user than the power's Range, or whose user
    is destroyed or routed (L1021: "immediately")."""
    for p in state.figs:
        if not on_table(p):
            continue
        user = user_of(ctx, p.id)
        if user is None:
            continue
        u = state.figs[user]
        if on_table(u) and gap(ctx, u, p) <= _range(ctx, user) + 1e-9:
            continue
        p.placed = False
        p.reserved = None
        p.reserve_more = []
        why = "its user is gone" if not on_table(u) else "too far from its user"
        events.append(Event("projection", f"the projection #{p.id} is removed: {why}", rule(1021)))
