"""Winning a battle (``003_fc239e71486306e1.txt`` L1108-1122, L439-446): at the end of the
turn limit the objectives are scored; the player with the most Victory Points wins, whether
or not they have characters left (L1112-1117); equal points are a draw (docs/rulings.md,
Collision 26)."""

from __future__ import annotations

from warbench.rulesets.collision.game.core import Game


def finish(g: Game) -> None:
    """Score the objectives and end the game."""
    from warbench.rulesets.collision.game.objectives import score

    s = g.s
    vp, why = score(g)
    for line in why:
        g.event("score", line, "L1108-1114")
    s.scores = [float(vp[0]), float(vp[1])]
    s.winner = None if vp[0] == vp[1] else (0 if vp[0] > vp[1] else 1)
    s.reason = (
        "a draw on Victory Points"
        if s.winner is None
        else (f"{g.t.groups[s.winner]} wins on Victory Points")
    )
    g.event("end", f"{s.reason}: {vp[0]} to {vp[1]}", "L1108-1114", vp=vp)
    s.stage = "over"
    s.active = None
