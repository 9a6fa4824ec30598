"""Leaders and Check Control (004_f4ea5693af0644ce.txt L325-L334, L391-L395, L589-L591).

* The leader is the figure with a Control Radius and the highest Mental, then the highest
  Control Radius, then the one closest to the previous leader when it was destroyed, then the
  player's pick (a ``leader`` decision) (L329-L334).
* Check Control: every figure of the unit within the leader's Control Radius is controlled;
  the others are uncontrolled until the next check and read sixes as fives (L393). Characters
  acting alone, monsters and vehicles are always controlled (L395). Easily Controlled (L1513),
  Chain of Command (L1483) and Frother Command (L1549) act here.
"""

from __future__ import annotations

import math

from warbench.rulesets.warengine.dice import XkY
from warbench.rulesets.warengine.game.measure import gap, on_table
from warbench.rulesets.warengine.game.setup import Context
from warbench.rulesets.warengine.game.state import GameState
from warbench.rulesets.warengine.tables import catalogue

_MENTAL = catalogue().mental


def mental_rank(ctx: Context, fid: int) -> int:
    """Rank of a figure's Mental on the Mental Table (Automatic is the highest)."""
    mn = ctx.profiles[fid].mn
    return _MENTAL.index("A" if mn is None else str(mn))


def cr_of(state: GameState, ctx: Context, fid: int) -> float:
    """A figure's Control Radius: its profile's, or 6" once You Da Man granted one (L1347)."""
    cr = ctx.profiles[fid].cr
    return 6.0 if cr <= 0 and "You Da Man" in state.figs[fid].marks else cr


def mental_of(state: GameState, ctx: Context, fid: int) -> XkY | None:
    """The Mental a figure tests and resists with (None: Automatic): its own, or the
    character's that Telepathic Command lent its unit this turn (L1297)."""
    lent = state.figs[fid].bonus.get("telepathy", 0)
    return ctx.profiles[lent - 1].mn if lent else ctx.profiles[fid].mn


def force_leader_for(state: GameState, ctx: Context, unit: int) -> int | None:
    """The friendly Force Leader whose Mental the unit may use for rout tests and against
    Special Powers that target units (L1537): its leader is within the Force Leader's
    Control Radius, or, leaderless or independent, one of its figures is; the best one."""
    u = state.units[unit]
    figs = group_figs(state, [unit])
    best: int | None = None
    for fl in state.figs:
        if fl.side != u.side or fl.unit == unit or not on_table(fl):
            continue
        if not ctx.profiles[fl.id].has("force_leader"):
            continue
        cr = cr_of(state, ctx, fl.id)
        near = [u.leader] if u.leader in figs and not u.solo else figs
        close = any(gap(ctx, fl, state.figs[i]) <= cr + 1e-9 for i in near if i is not None)
        if close and (best is None or mental_rank(ctx, fl.id) > mental_rank(ctx, best)):
            best = fl.id
    return best


def group_figs(state: GameState, unit_ids: list[int]) -> list[int]:
    """The figures on the table of the given units."""
    return [i for u in unit_ids for i in state.units[u].figs if on_table(state.figs[i])]


def leader_candidates(
    state: GameState, ctx: Context, figs: list[int], previous: tuple[float, float] | None
) -> list[int]:
    """The figures tied for leadership after rules 1-3 (L329-L334); empty: no leader."""
    able = [i for i in figs if cr_of(state, ctx, i) > 0]
    if not able:
        return []
    best = max((mental_rank(ctx, i), cr_of(state, ctx, i)) for i in able)
    tied = [i for i in able if (mental_rank(ctx, i), cr_of(state, ctx, i)) == best]
    if len(tied) > 1 and previous is not None:
        d = {
            i: math.hypot(state.figs[i].x - previous[0], state.figs[i].y - previous[1])
            for i in tied
        }
        near = min(d.values())
        tied = [i for i in tied if d[i] - near < 1e-9]
    return tied


def choose_leader(
    state: GameState, ctx: Context, unit: int, previous: tuple[float, float] | None = None
) -> None:
    """Set the unit's leader; a tie after rules 1-3 opens the owner's ``leader`` decision."""
    u = state.units[unit]
    ids = [unit] + ([u.joined] if u.joined is not None else [])
    cands = leader_candidates(state, ctx, group_figs(state, ids), previous)
    if len(cands) > 1:
        u.leader = cands[0]
        state.leader_choice = [unit, *cands]
    else:
        u.leader = cands[0] if cands else None


def check_control(state: GameState, ctx: Context, unit_ids: list[int]) -> None:
    """L391-L395: mark each figure of the activating group controlled or not."""
    figs = group_figs(state, unit_ids)
    main = state.units[unit_ids[0]]
    solo = len(unit_ids) == 1 and main.solo
    leader = main.leader
    if len(unit_ids) > 1 and state.units[unit_ids[1]].leader is not None:
        # a character leading troopers: the better of the two by rules 1-2 leads the group
        other = state.units[unit_ids[1]].leader
        if leader is None or (
            other is not None
            and (mental_rank(ctx, other), cr_of(state, ctx, other))
            > (mental_rank(ctx, leader), cr_of(state, ctx, leader))
        ):
            leader = other
    for i in figs:
        f = state.figs[i]
        prof = ctx.profiles[i]
        f.controlled = solo or prof.big or i == leader or "telepathy" in f.bonus  # L1297
    if solo or leader is None or not on_table(state.figs[leader]):
        return
    lf = state.figs[leader]
    cr = cr_of(state, ctx, leader)
    extra_used = False
    chains: list[int] = []
    for i in figs:
        f = state.figs[i]
        if f.controlled:
            continue
        d = gap(ctx, lf, f)
        if d <= cr + 1e-9:
            f.controlled = True
            if ctx.profiles[i].has("chain_of_command") and cr_of(state, ctx, i) > 0:
                chains.append(i)
        elif not extra_used and ctx.profiles[i].has("easily_controlled") and d <= 2 * cr + 1e-9:
            f.controlled = True
            extra_used = True
    for c in chains:  # L1483: a Chain of Command figure passes control on
        cf = state.figs[c]
        for i in figs:
            f = state.figs[i]
            if not f.controlled and gap(ctx, cf, f) <= cr_of(state, ctx, c) + 1e-9:
                f.controlled = True


def led_by_frother(state: GameState, ctx: Context, fid: int) -> bool:
    """Frother Command (L1549): troopers led by such a figure are Frenzied with +3" Mv."""
    f = state.figs[fid]
    if ctx.profiles[fid].type != "T":
        return False
    u = state.units[f.unit]
    leaders = [u.leader]
    for v in state.units:
        if v.joined == f.unit:
            leaders.append(v.leader)
    return any(
        ld is not None and on_table(state.figs[ld]) and ctx.profiles[ld].has("frother")
        for ld in leaders
    )
