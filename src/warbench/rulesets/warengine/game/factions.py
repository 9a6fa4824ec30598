"""The Special Powers that name Shock Force factions (004_f4ea5693af0644ce.txt L1003):
Expunge Nanites (L1085), Sudden Conversion (L1265) and System Reset (L1289).

The Troop and Force Builders give no faction, so a force, a unit or a figure may name its
faction keywords (``faction`` in the force file, e.g. ``DeadTech`` on the force and ``White
Hat`` on a unit); a figure's faction is the three together (``Profile.faction``, lower case).
A power's target restriction reads the keywords; nothing else does (Summon Rain Storm's
"non-Vengequan", L1273, also reads them).
"""

from __future__ import annotations

import re

from warbench.kernel.dice import Dice
from warbench.play.core import Event
from warbench.rulesets.warengine.dice import XkY
from warbench.rulesets.warengine.game.measure import gap, on_table
from warbench.rulesets.warengine.game.setup import Context
from warbench.rulesets.warengine.game.setup import fig_name as _n
from warbench.rulesets.warengine.game.state import Fig, GameState, rule

#: Expunge Nanites' blast (L1087): inches, and the attack by the target's faction.
NANITE_RADIUS = 3.0
NANITE_BLAST = {"mutant": XkY(3, 2), "deadtech": XkY(3, 3)}


def of_faction(ctx: Context, fid: int, *names: str) -> bool:
    """Whether the figure's faction keywords include any of ``names`` (whole words, any
    case: ``"white hat"`` matches ``DeadTech White Hat``)."""
    text = ctx.profiles[fid].faction
    return bool(text) and any(re.search(rf"\b{re.escape(n.lower())}\b", text) for n in names)


def nanite_blast(ctx: Context, t: Fig) -> XkY | None:
    """The blast of an expunged figure: 3k3 for DeadTech (shrapnel), 3k2 for a Mutant."""
    if of_faction(ctx, t.id, "DeadTech"):
        return NANITE_BLAST["deadtech"]
    if of_faction(ctx, t.id, "Mutant"):
        return NANITE_BLAST["mutant"]
    return None


def expunge(
    state: GameState, ctx: Context, f: Fig, t: Fig, dice: Dice, events: list[Event]
) -> None:
    """Expunge Nanites (L1087): the target explodes (destroyed); every figure within 3" of it
    defends from a 3k2 attack (Mutant) or 3k3 (DeadTech), each queued with Hero Points."""
    from warbench.rulesets.warengine.game.resolution import destroy

    pool = nanite_blast(ctx, t)
    victims = [
        g for g in state.figs if g.id != t.id and on_table(g) and gap(ctx, t, g) <= NANITE_RADIUS
    ]
    destroy(state, ctx, t, f, events, "expunged")
    if pool is None:
        return
    from warbench.rulesets.warengine.game.powers import strike

    for g in victims:
        strike(state, ctx, f, g, pool, dice, events, ("nanites", "Expunge Nanites", "blast", 1087))


def convert(state: GameState, ctx: Context, f: Fig, t: Fig, events: list[Event]) -> None:
    """Sudden Conversion (L1267): the target joins the user's force for good, as a member of
    the closest of its units (the book's "closest Laity cell"; a unit of its own when the
    force has no unit of several figures; docs/rulings.md)."""
    from warbench.rulesets.warengine.game.allegiance import closest_unit_of, join_unit, own_unit

    to = closest_unit_of(state, ctx, t, f.side)
    t.reserved = None
    t.reserve_more = []
    if to is None:
        u = own_unit(state, ctx, t, f.side, f"{ctx.profiles[t.id].name} (converted)")
        u.activated = True  # it has no further activation this turn (docs/rulings.md)
    else:
        join_unit(state, ctx, t, to)
    events.append(
        Event(
            "conversion",
            f"{_n(ctx, t)} sees the Beneficent Light and joins {state.units[t.unit].name}",
            rule(1267),
            {"fig": t.id},
        )
    )


def reset_ok(state: GameState, ctx: Context, t: Fig) -> bool:
    """System Reset's targets (L1291): a DeadTech White Hat or Black Hat unit of Troopers
    and/or Elites."""
    figs = [i for i in state.units[t.unit].figs if on_table(state.figs[i])]
    return all(
        ctx.profiles[i].type in ("T", "E")
        and of_faction(ctx, i, "DeadTech")
        and of_faction(ctx, i, "White Hat", "Black Hat")
        for i in figs
    )


def system_reset(state: GameState, ctx: Context, f: Fig, t: Fig, events: list[Event]) -> None:
    """System Reset (L1291): the unit loses its reserve markers and passes any rout test this
    turn (the tag ``rally``, kept through the Rout step, as Rally's); if its basic leader has
    been destroyed, a basic trooper is field-upgraded to the leader (:func:`field_upgrade`)."""
    for i in state.units[t.unit].figs:
        g = state.figs[i]
        g.reserved = None
        g.reserve_more = []
        g.bonus["rally"] = 1
    events.append(
        Event(
            "reset",
            f"{state.units[t.unit].name} is reset: no reserves, and it passes any rout test",
            rule(1291),
            {"unit": t.unit},
        )
    )
    field_upgrade(state, ctx, t.unit, events)


def basic_leader(state: GameState, ctx: Context, unit: int) -> int | None:
    """The unit's basic leader when it has been destroyed (L1291, "the Gunslinger in a gang of
    Outlaws"): a destroyed figure of a kind of which none is left standing, while figures of
    another kind stand; of several, the one with the longest Control Radius, then the most
    points, then the lowest id (docs/rulings.md)."""
    u = state.units[unit]
    standing = {state.figs[i].name for i in u.figs if on_table(state.figs[i])}
    fallen = [
        i
        for i in u.figs
        if not state.figs[i].alive
        and not state.figs[i].routed
        and state.figs[i].name not in standing
    ]
    if not standing or not fallen:
        return None
    return min(fallen, key=lambda i: (-ctx.profiles[i].cr, -ctx.profiles[i].points, i))


def field_upgrade(state: GameState, ctx: Context, unit: int, events: list[Event]) -> None:
    """L1291: one of the other basic troopers (the engine's: the one closest to where the
    leader fell, then the lowest id) is field-upgraded to the capabilities of the fallen
    leader for the rest of the game. Played as the leader's figure standing up where the
    trooper stands, with the trooper's turn so far, and the trooper leaving the table (not a
    casualty: no Victory Points)."""
    lead = basic_leader(state, ctx, unit)
    if lead is None:
        return
    L = state.figs[lead]
    troops = [i for i in state.units[unit].figs if on_table(state.figs[i])]
    tid = min(troops, key=lambda i: (gap(ctx, state.figs[i], L), i))
    T = state.figs[tid]
    for attr in ("x", "y", "moved", "used", "mode", "attacked", "charged", "done", "controlled"):
        setattr(L, attr, getattr(T, attr))
    L.fired = []
    L.reserved = None
    L.reserve_more = []
    L.bonus = dict(T.bonus)
    L.hero = ctx.profiles[lead].hero
    L.alive = True
    T.alive = False
    T.placed = False  # off the table, not destroyed (docs/rulings.md)
    state.units[unit].leader = lead
    state.units[unit].lost_leader = False
    events.append(
        Event(
            "reset",
            f"{ctx.profiles[tid].name} #{tid} is field-upgraded to {ctx.profiles[lead].name} "
            f"(now #{lead})",
            rule(1291),
            {"fig": lead, "was": tid},
        )
    )
