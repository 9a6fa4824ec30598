"""Why a previewed Move ends short, and its Dangerous Ground (issue 10, session 32): the preview
says, from the engine's own refusals of the longer straight moves (``game/preview_why.py``),
why a Move toward a point ends short of its allowance (Difficult Ground halving, Core Rules
001_d3f5e425c5e1196d.txt §4.5 L2044-2059; another unit's bases, §4.7 L2146-2156; a way round,
§4.1 L1817-1857), and that a Move crossing Dangerous Ground (§4.6 L2085-2100) may lose models.

The seen case (session 31): in the Skirmish preset's game of seed 3, Game Turn 2, Red's Assault
Squad's 6" Move toward (40, 40) was previewed 2.7" with no word why."""

from __future__ import annotations

import math
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from warbench.play import preview
from warbench.rulesets.warsurge.game import preview_why
from warbench.rulesets.warsurge.game.actions import Move
from warbench.rulesets.warsurge.game.engine import planned
from warbench.rulesets.warsurge.game.io import load_game_roster, roster_to_data
from warbench.rulesets.warsurge.game.plans import MovePlan
from warbench.rulesets.warsurge.game.preview import preview_lines
from warbench.rulesets.warsurge.game.protocol import WarsurgeRuleset, WarsurgeState
from warbench.rulesets.warsurge.game.state import Phase
from warbench.web.play.scenes import presenter

WS = WarsurgeRuleset()
ROSTERS = Path(__file__).parents[2] / "examples" / "warsurge" / "rosters"
#: Red's Assault Squad in the Skirmish preset
ASSAULT = 1


@cache
def _seen() -> tuple[WarsurgeState, int]:
    """The Skirmish preset, seed 3, defaults taken up to Game Turn 2's Move Phase."""
    setup = presenter("warsurge").presets()[0]["setup"]
    st = WS.setup(setup["rosters"], setup["board"], setup["options"], 3)
    while not (st.game.flow.phase is Phase.MOVE and st.game.flow.turn == 2):
        d = WS.pending(st)[0]
        st, _ = WS.apply(st, d.default, d.player)
    return st, WS.pending(st)[0].player


def _centre_move(st: WarsurgeState, action: Move) -> float:
    pv = preview(WS, st, action, WS.pending(st)[0].player)
    assert pv is not None
    ends = [p.end for p in pv.placements]
    starts = [p.start for p in pv.placements if p.start is not None]
    c0 = [sum(p[k] for p in starts) / len(starts) for k in (0, 1)]
    c1 = [sum(p[k] for p in ends) / len(ends) for k in (0, 1)]
    return math.dist(c0, c1)


def test_the_seen_short_move_says_difficult_ground_halves_it_L2044() -> None:
    st, player = _seen()
    action = Move(ASSAULT, to=(40.0, 40.0))
    assert st.game.info(ASSAULT).label == "Red: Assault Squad"
    pv = preview(WS, st, action, player)
    assert pv is not None
    assert _centre_move(st, action) == pytest.approx(2.7)
    head, *why = pv.why_short
    assert head.startswith('moves 2.7", short of the 6.0" its allowance')
    assert "goes round" not in head  # a straight move, shorter
    assert why, pv.why_short
    assert why[0].startswith('a straight Move of 6.0" toward the point: model')
    assert "halved by Difficult Ground" in why[0] and "§4.5, Core Rules L2044-2059" in why[0]
    # the reasons are the engine's: the full straight move is refused with that very rule
    assert all("§4.5" in w for w in why)
    # in the JSON the play API answers, and in the terminal's words
    assert pv.to_json()["why_short"] == list(pv.why_short)
    lines = preview_lines(st.game, pv, board=False)
    assert f"  why short: {head}" in lines and f"    {why[0]}" in lines
    # the preview is still where apply puts the models
    after, _ = WS.apply(st, action, player)
    pos = after.game.units[ASSAULT].pos
    assert [p.end for p in pv.placements] == [pos[p.model] for p in pv.placements]


def test_a_short_straight_move_ends_at_one_of_the_planners_steps_L1857() -> None:
    """``preview_why.STEPS`` are the planner's shares: the seen Move ends at 45% of 6"."""
    st, _ = _seen()
    got = _centre_move(st, Move(ASSAULT, to=(40.0, 40.0)))
    assert any(math.isclose(got, 6.0 * s, abs_tol=1e-9) for s in preview_why.STEPS)
    assert preview_why.STEPS[0] == 1.0 and list(preview_why.STEPS) == sorted(
        preview_why.STEPS, reverse=True
    )


def test_another_units_bases_in_the_way_are_said_L2146() -> None:
    st, player = _seen()
    pv = preview(WS, st, Move(ASSAULT, to=(2.0, 2.0)), player)
    assert pv is not None and len(pv.why_short) >= 2, pv
    assert "cannot move through Red: Troopers" in pv.why_short[1]
    assert "§4.7, Core Rules L2146-2156" in pv.why_short[1]


@pytest.mark.parametrize("to", [(24.0, 24.0), (5.0, 40.0)])
def test_a_full_move_says_nothing_of_ending_short(to: tuple[float, float]) -> None:
    st, player = _seen()
    pv = preview(WS, st, Move(ASSAULT, to=to), player)
    assert pv is not None
    assert _centre_move(st, Move(ASSAULT, to=to)) == pytest.approx(6.0)
    assert pv.why_short == ()
    assert "why_short" not in pv.to_json()


def test_a_point_within_reach_is_no_shortfall() -> None:
    st, player = _seen()
    u = st.game.units[ASSAULT]
    xs = [u.pos[i] for i in u.present()]
    near = (sum(p[0] for p in xs) / len(xs) + 1.0, sum(p[1] for p in xs) / len(xs) + 1.0)
    pv = preview(WS, st, Move(ASSAULT, to=near), player)
    assert pv is not None and pv.why_short == ()
    assert _centre_move(st, Move(ASSAULT, to=near)) == pytest.approx(math.sqrt(2), abs=1e-6)


def _skirmish() -> Iterator[tuple[WarsurgeState, int]]:
    rosters = [roster_to_data(load_game_roster(ROSTERS / f"skirmish_{x}.yaml")) for x in "ab"]
    st = WS.setup(rosters, None, {}, 1)
    while not WS.is_over(st):
        d = WS.pending(st)[0]
        yield st, d.player
        st, _ = WS.apply(st, d.default, d.player)


def test_a_routed_move_says_it_goes_round_L2146() -> None:
    """tests/play/test_preview.py's routed Move (skirmish, seed 1): no straight move is legal."""
    st, player = next((s, p) for s, p in _skirmish() if s.game.flow.phase is Phase.MOVE)
    pv = preview(WS, st, Move(4, to=(2.0, 24.0)), player)
    assert pv is not None and pv.why_short, pv
    assert "goes round along the board's path" in pv.why_short[0]
    assert any("§4.7" in w for w in pv.why_short[1:])


def test_dangerous_ground_crossed_is_noted_and_the_move_rolls_there_L2085() -> None:
    st, player = _seen()
    action = Move(ASSAULT, to=(24.0, 24.0))
    pv = preview(WS, st, action, player)
    assert pv is not None and pv.note is not None
    assert "crosses Dangerous Ground: Pit" in pv.note and "§4.6, Core Rules L2085" in pv.note
    plan = planned(st.game, action)
    assert isinstance(plan, MovePlan)
    # the note is true: made, the Move rolls for the models that crossed the Pit
    _, events = WS.apply(st, action, player)
    assert any(e.kind == "danger" and "Pit" in e.text for e in events), events


def test_no_dangerous_note_when_the_move_stays_off_it() -> None:
    st, player = _seen()
    action = Move(2, to=(24.0, 24.0))  # Red's Sniper Troopers: no Pit on their way
    pv = preview(WS, st, action, player)
    assert pv is not None
    assert pv.note is None or "Dangerous" not in pv.note
    _, events = WS.apply(st, action, player)
    assert not any(e.kind == "danger" for e in events)
