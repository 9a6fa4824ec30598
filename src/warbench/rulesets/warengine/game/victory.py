"""Victory (004_f4ea5693af0644ce.txt L619-L633).

* Last force standing: a player with no figures left loses at once (L619).
* Victory points: the point value of enemy casualties (killed or routed) plus 100 for each
  enemy unit destroyed or routed (kept in ``state.vp`` as they happen), 250 for each objective
  achieved (terrain held by your figures only; table quarters with at least 250 more points
  of figures than the opponent), and 250 for playing at all (L623-L631).
* With ``vp_target``, a player past the target at the end of a turn wins (both: a tie).
  After the last turn a player more than 250 points ahead wins; otherwise a draw (L631).
"""

from __future__ import annotations

from warbench.play.core import Event
from warbench.rulesets.warengine.game.allegiance import owner
from warbench.rulesets.warengine.game.measure import on_table
from warbench.rulesets.warengine.game.setup import Context
from warbench.rulesets.warengine.game.state import GameState, rule

MARGIN = 250
PLAYING = 250
OBJECTIVE = 250


def objective_points(state: GameState, ctx: Context) -> list[int]:
    """250 per objective each player holds now (terrain pieces and table quarters)."""
    pts = [0, 0]
    for name in ctx.objectives:
        piece = next(p for p in ctx.field.pieces if p.name == name)
        sides = {f.side for f in state.figs if on_table(f) and ctx.field.inside(piece, f.x, f.y)}
        if len(sides) == 1:
            pts[sides.pop()] += OBJECTIVE
    if ctx.quarters:
        w, h = ctx.field.width / 2, ctx.field.height / 2
        for qx in (0, 1):
            for qy in (0, 1):
                value = [0, 0]
                for f in state.figs:
                    if on_table(f) and (f.x >= w) == bool(qx) and (f.y >= h) == bool(qy):
                        value[f.side] += ctx.profiles[f.id].points
                for s in (0, 1):
                    if value[s] - value[1 - s] >= MARGIN:
                        pts[s] += OBJECTIVE
    return pts


def scores(state: GameState, ctx: Context) -> list[int]:
    """Each player's victory points now."""
    obj = objective_points(state, ctx)
    return [state.vp[s] + obj[s] + PLAYING for s in (0, 1)]


def last_standing(state: GameState, events: list[Event]) -> bool:
    """End the game when a player has no figures left (L619)."""
    if state.phase in ("placement", "over"):
        return False
    # figures in play: Summoned figures not yet deployed do not count (L1279, docs/rulings.md)
    # a projection (L1021) is not a figure of the force
    left = [
        any(
            f.alive and f.placed and "projection" not in f.marks
            for f in state.figs
            if owner(f) == s
        )
        for s in (0, 1)
    ]
    if all(left):
        return False
    state.phase = "over"
    state.queue = []
    state.window = None
    state.then = None
    state.leader_choice = []
    state.resume = []
    if not any(left):
        state.winner, state.reason = None, "both forces destroyed"
    else:
        state.winner = 0 if left[0] else 1
        state.reason = "last force standing"
    events.append(Event("end", f"game over: {state.reason}", rule(619)))
    return True


def end_of_turn(state: GameState, ctx: Context, events: list[Event]) -> bool:
    """Check the victory points at the end of a turn; True when the game is over."""
    sc = scores(state, ctx)
    if ctx.vp_target is not None:
        past = [sc[s] >= ctx.vp_target for s in (0, 1)]
        if any(past):
            state.phase = "over"
            state.winner = None if all(past) else (0 if past[0] else 1)
            state.reason = f"victory points target {ctx.vp_target} passed ({sc[0]} to {sc[1]})"
            events.append(Event("end", state.reason, rule(621)))
            return True
    if state.turn >= ctx.turns:
        state.phase = "over"
        diff = sc[0] - sc[1]
        state.winner = None if abs(diff) <= MARGIN else (0 if diff > 0 else 1)
        verdict = (
            "a draw (within 250 points)" if state.winner is None else f"player {state.winner} wins"
        )
        state.reason = f"after {ctx.turns} turns {sc[0]} to {sc[1]} victory points: {verdict}"
        events.append(Event("end", state.reason, rule(631)))
        return True
    return False
