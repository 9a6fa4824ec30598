"""The tactical player's *a full volley or none* (issue 15, session 39, s39-fire,
``ai.tactical_volley``) on constructed states: each fails with the switch off. Core Rules
001_d3f5e425c5e1196d.txt L851-860 step II: only the models within Range attack; L2872:
casualties are removed at the end of the Attack Phase, so both sides' volleys are made."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tests.warsurge.game.helpers import entry, scenario, unit, weapon
from warbench.ai.tactical import TacticalBot
from warbench.ai.tactical_volley import FULL_SHARE, is_sliver, volley_share
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack, Move
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.state import GameState, Phase
from warbench.rulesets.warsurge.game.work import Work


def _column_and_line(gap: float, dash: bool = False) -> GameState:
    """Side 0 to act: its ten Troopers (uid 0: a column two abreast and five deep, 1.5"
    apart, Move and Dash 6", an 18" Assault gun) face ten of the same in a line abreast (uid
    1), its front ``gap`` inches (edge to edge) from the column's front; the line has moved
    (the Move Phase) or it is the Dash Phase."""
    gun = weapon("Laser Rifle", range=18, attacks=2, power=3)
    ours = unit("Column", models=10, weapons=[gun])
    theirs = unit("Line", models=10, weapons=[gun])
    front = 5.0 + 1.0 + gap  # 25.4 mm bases: 0.5" radius
    state = scenario(
        [[entry(ours)], [entry(theirs)]],
        {
            0: [(23.25 + 1.5 * (k % 2), 5.0 - 1.5 * (k // 2)) for k in range(10)],
            1: [(17.25 + 1.5 * k, front) for k in range(10)],
        },
        phase=Phase.DASH if dash else Phase.MOVE,
    )
    units = list(state.units)
    units[1] = replace(units[1], acted=True)
    return replace(state, units=tuple(units))


def _after(state: GameState, move: Move) -> Work:
    after, _ = engine.apply(state, move)
    return Work(after, None, DEFAULT_HOOKS)


def _front_gap(w: Work) -> float:
    a, b = w.xy(0), w.xy(1)
    d = np.hypot(a[:, None, 0] - b[None, :, 0], a[:, None, 1] - b[None, :, 1])
    return float(d.min()) - 2 * w.info(0).radius


@pytest.mark.parametrize("gap", [21.0, 23.0])
def test_L851_stops_short_of_a_sliver_in_range(gap: float) -> None:
    """21" or 23" from the line, a full 6" Move ends the column's front 15" or 17" away:
    six or two of its ten models within 18" (a sliver), while the line abreast reaches it
    with every model. With the switch it stops short, out of Range (it steps in whole next
    time); without it walks the full Move."""
    state = _column_and_line(gap)
    off = TacticalBot(few_units_reach=False).choose(state)
    assert isinstance(off, Move)
    w_off = _after(state, off)
    assert _front_gap(w_off) == pytest.approx(gap - 6.0, abs=0.1)
    assert is_sliver(volley_share(w_off, 0))
    on = TacticalBot(full_volley=True, few_units_reach=False).choose(state)
    assert isinstance(on, Move) and on.unit == 0
    w_on = _after(state, on)
    assert volley_share(w_on, 0) is None
    assert 18.0 < _front_gap(w_on) < gap


def test_L851_a_move_that_brings_the_whole_unit_in_is_played_as_before() -> None:
    """15" from the line, a 6" Move brings the column's front to 9" and every model within
    18": no sliver, so the switch changes nothing."""
    state = _column_and_line(15.0)
    off = TacticalBot(few_units_reach=False).choose(state)
    on = TacticalBot(full_volley=True, few_units_reach=False).choose(state)
    assert on == off
    share = volley_share(_after(state, on), 0)
    assert share is not None and share >= FULL_SHARE


def test_L851_the_dash_stops_short_too() -> None:
    """In the Dash Phase (after the Attack Phase: the line fires first next Game Turn if it
    moves first) a 6" Dash from 21" would end in a sliver; with the switch the Dash stops
    out of Range."""
    state = _column_and_line(21.0, dash=True)
    off = TacticalBot(few_units_reach=False).choose(state)
    assert isinstance(off, Move) and off.dash
    assert is_sliver(volley_share(_after(state, off), 0))
    on = TacticalBot(full_volley=True, few_units_reach=False).choose(state)
    assert isinstance(on, Move) and on.dash
    assert volley_share(_after(state, on), 0) is None


def _line_and_two_targets() -> GameState:
    """Attack Phase, side 0 to act: ten Troopers abreast (uid 0, 1.5" apart at y 5, an 18"
    gun); a 200-point Ogre (uid 1) that only the right-hand Trooper reaches (17.5", the next
    one 19") and a 50-point Grot of the same profile (uid 2) that all ten reach (12-14")."""
    gun = weapon("Laser Rifle", range=18, attacks=2, power=3)
    ours = unit("Troopers", models=10, weapons=[gun])
    big = unit("Ogre", hp=5)
    small = unit("Grot", hp=5)
    return scenario(
        [[entry(ours)], [entry(big, points=200), entry(small, points=50)]],
        {0: [(5.0 + 1.5 * k, 5.0) for k in range(10)], 1: [(37.0, 5.0)], 2: [(11.75, 18.0)]},
        phase=Phase.ATTACK,
    )


def test_L851_focus_fire_counts_the_models_that_reach() -> None:
    """The Ogre is worth four times the Grot a HP, so the focus fire priced as a whole unit's
    volley shoots it, though one Trooper of ten reaches it; counting the models within Range
    (``range_share``) it shoots the Grot, which all ten reach."""
    state = _line_and_two_targets()
    off = TacticalBot(few_units_reach=False).choose(state)
    on = TacticalBot(range_share=True, few_units_reach=False).choose(state)
    assert isinstance(off, Attack) and isinstance(on, Attack)
    assert off.targets == (("Laser Rifle", 1),)
    assert on.targets == (("Laser Rifle", 2),)


def test_L851_it_waits_in_one_game_turn_only() -> None:
    """A unit that stopped short once goes in as before in a later Game Turn (a column in a
    street that no move brings in whole would otherwise wait all game): the same bot, 21"
    from the line in Game Turn 1 and again in Game Turn 2."""
    state = _column_and_line(21.0)
    bot = TacticalBot(full_volley=True, few_units_reach=False)
    first = bot.choose(state)
    assert isinstance(first, Move) and volley_share(_after(state, first), 0) is None
    later = replace(state, flow=replace(state.flow, turn=state.flow.turn + 1))
    walk = bot.choose(later)
    assert isinstance(walk, Move)
    assert is_sliver(volley_share(_after(later, walk), 0))
