"""Review of ``Preview.why_short`` (issue 10, session 32, s32-review): the preview says a Move
ends short exactly when the planner's Move ends short of the point, measured toward it (Core
Rules 001_d3f5e425c5e1196d.txt §4.1 L1817-1857: a Move toward a point, each model straight; a
way round when the straight move is refused, §4.7 L2146-2156).

Found in review: a Move routed round (``route_move``) was said to be "not short" whenever the
unit's centre moved as far as the full straight move, though it went sideways: a point 4" away
behind other bases, the unit moving 4.5" round and not reaching it, or a point 15" away, the
unit moving its full 6" mostly across, got no word why. And the planner's shares were a copy."""

from __future__ import annotations

import math
from functools import cache

from tests.play.test_preview_why import WS, _seen, _skirmish
from warbench.play import Preview, preview
from warbench.rulesets.warsurge.game import movement, preview_why
from warbench.rulesets.warsurge.game.actions import Move
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.protocol import WarsurgeState
from warbench.rulesets.warsurge.game.state import Location, Phase
from warbench.rulesets.warsurge.game.work import Work

#: Blue's unit boxed in by other bases in the skirmish game of seed 1's first Move Phase
BOXED = 3


@cache
def _first_move() -> tuple[WarsurgeState, int]:
    """The skirmish game of seed 1 at its first Move Phase (tests/play/test_preview.py's)."""
    return next((s, p) for s, p in _skirmish() if s.game.flow.phase is Phase.MOVE)


def _centre(st: WarsurgeState, uid: int) -> tuple[float, float]:
    u = st.game.units[uid]
    pts = [u.pos[i] for i in u.present()]
    return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))


def _toward(st: WarsurgeState, uid: int, d: float, degrees: float) -> tuple[float, float]:
    c = _centre(st, uid)
    a = math.radians(degrees)
    return (c[0] + d * math.cos(a), c[1] + d * math.sin(a))


def _moved_and_nearer(
    st: WarsurgeState, uid: int, shown: Preview, to: tuple[float, float]
) -> tuple[float, float]:
    """How far the unit's centre moves in the preview, and how much nearer ``to`` it ends."""
    c0 = _centre(st, uid)
    ends = [p.end for p in shown.placements]
    c1 = (sum(p[0] for p in ends) / len(ends), sum(p[1] for p in ends) / len(ends))
    return math.dist(c0, c1), math.dist(c0, to) - math.dist(c1, to)


def test_steps_are_the_planners_own_shares_L1857() -> None:
    assert preview_why.STEPS is movement.STRAIGHT_SHARES


def test_a_routed_move_past_a_near_point_says_it_ends_short_L1817() -> None:
    """The point is 4" away (within the 6" Move); the unit goes round 4.5" and ends short of
    it: the preview says so and that it went round."""
    st, player = _first_move()
    to = _toward(st, BOXED, 4.0, 30.0)
    shown = preview(WS, st, Move(BOXED, to=to), player)
    assert shown is not None
    moved, nearer = _moved_and_nearer(st, BOXED, shown, to)
    assert moved > 4.0 + 1e-6 and nearer < 4.0 - 1e-6  # went farther than the point, round it
    assert shown.why_short, shown
    head = shown.why_short[0]
    assert head.startswith(f'moves {moved:.1f}" but ends only {nearer:.1f}" nearer the point')
    assert "goes round along the board's path" in head and "L2146-2156" in head
    assert any("§4.7" in w or "§1.3" in w or "§4.2" in w for w in shown.why_short[1:])


def test_a_routed_move_of_its_whole_allowance_that_ends_short_says_why_L1817() -> None:
    """The point is 15" away; the unit moves its whole 6" but round, mostly across."""
    st, player = _first_move()
    to = _toward(st, BOXED, 15.0, 30.0)
    shown = preview(WS, st, Move(BOXED, to=to), player)
    assert shown is not None
    moved, nearer = _moved_and_nearer(st, BOXED, shown, to)
    assert math.isclose(moved, 6.0, abs_tol=1e-6) and nearer < 6.0 - 1e-6
    assert shown.why_short and "goes round" in shown.why_short[0], shown


def test_why_short_is_said_exactly_when_the_move_ends_short_L1817() -> None:
    """Every unit on the table, twelve headings, points near and far, in two games: a reason
    is given exactly when the planned Move ends short of the point (measured toward it), and a
    short Move always names at least one refusal of the engine."""
    checked = short = 0
    for st, player in (_seen(), _first_move()):
        w = Work(st.game, None, DEFAULT_HOOKS)
        for uid, u in enumerate(st.game.units):
            if u.location is not Location.TABLE or st.game.info(uid).immobile:
                continue
            allowance = movement.unit_allowance(w, uid, False)
            for degrees in range(0, 360, 30):
                for d in (2.5, 9.0):
                    to = _toward(st, uid, d, degrees + 7.0)
                    shown = preview(WS, st, Move(uid, to=to), player)
                    if shown is None:
                        continue
                    _moved, nearer = _moved_and_nearer(st, uid, shown, to)
                    ends_short = nearer < min(d, allowance) - 1e-6
                    checked += 1
                    short += ends_short
                    assert bool(shown.why_short) == ends_short, (uid, to, shown.why_short)
                    assert not ends_short or len(shown.why_short) >= 2, shown.why_short
    assert checked > 100 and 10 < short < checked


def test_flight_why_short_and_the_dangerous_note_match_what_the_move_does_L2076_L2126() -> None:
    """A single model with Airborne (Perks L2076), Jumper (L2126), Traverse II (L2166) or
    none, by the Rock (Impassable), the Wall of Shields (another unit), the Mire (Difficult)
    and the Mines (Dangerous) of ``test_movement_perks``: a reason is given exactly when the
    Move ends short of the point, and the Dangerous Ground note exactly when the Move made
    (dice that spare every model) rolls for the Mines (§4.6 L2085-2100)."""
    from tests.rulesets.warsurge.effects.test_movement_perks import USER, _flyer
    from warbench.kernel.dice import ScriptedDice
    from warbench.rulesets.warsurge.game import engine
    from warbench.rulesets.warsurge.game import preview as game_preview

    shorts = notes = 0
    for perks in ([], ["Airborne"], ["Jumper"], ["Traverse II"]):
        for at in ((10.0, 20.0), (10.0, 37.0)):
            g = _flyer(perks, at)
            for degrees in range(0, 360, 40):
                for d in (3.0, 14.0):
                    a = math.radians(degrees + 5.0)
                    to = (at[0] + d * math.cos(a), at[1] + d * math.sin(a))
                    shown = game_preview.preview(g, Move(USER, to=to))
                    if shown is None:
                        continue
                    nearer = d - math.dist(shown.placements[0].end, to)
                    short = nearer < min(d, 9.0) - 1e-6
                    assert bool(shown.why_short) == short, (perks, at, to, shown.why_short)
                    _, events = engine.apply(g, Move(USER, to=to), dice=ScriptedDice([6] * 40))
                    rolled = any(e.kind == "danger" for e in events)
                    noted = shown.note is not None and "Dangerous Ground" in shown.note
                    assert rolled == noted, (perks, at, to, shown.note)
                    shorts += short
                    notes += noted
    assert shorts > 5 and notes > 2
