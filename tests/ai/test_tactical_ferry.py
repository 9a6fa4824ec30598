"""The tactical player's passengers on constructed states. Session 38, s38-ferry (switch
``TacticalBot.embark_by_nearest``, off by default): a unit gets into a Transport only when
the enemy that would make it get out again (the nearest) is farther than
``EMBARK_DISTANCE``. Session 39, s39-ferry (switch ``TacticalBot.ride_to_attack``,
``ai.tactical_ferry``): a unit that has just got out gets back in only for a ride into an
attack it could not make on foot. Core Rules 001_d3f5e425c5e1196d.txt §6.2-6.3 (Embark,
Disembark), §2.2 (the phases), §4.3 (a charge)."""

from __future__ import annotations

from tests.warsurge.game.helpers import entry, line, scenario, unit, weapon
from warbench.ai.tactical import DISEMBARK_DISTANCE, EMBARK_DISTANCE, TacticalBot
from warbench.ai.tactical_ferry import foot_reach, gap, ride_pays, ride_reach
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Embark
from warbench.rulesets.warsurge.game.state import GameState, Phase


def _state(ogre_at: tuple[float, float]) -> GameState:
    """Move Phase, side 0 to act: an APC (uid 0, Transport 150) at (10, 10) beside two
    Breachers (uid 1: melee only, Power Axes) at y 10; the enemy: an Ogre (uid 2: Defence 6,
    12 HP, a Power 8 Maul, the Melee the Breachers lose) at ``ogre_at`` and one Grot
    (uid 3: Defence 2, 1 HP, the Melee they win) at (16, 40), 30" away."""
    apc = unit("APC", move=10, dash=10, hp=8, transport=150, weapons=[weapon("Stubber")])
    axe = weapon("Power Axe", range=0, attacks=2, power=5, type="Battle")
    breachers = unit("Breachers", models=2, weapons=[axe], hp=2)
    maul = weapon("Maul", range=0, attacks=4, power=8, type="Battle")
    ogre = unit("Ogre", weapons=[maul], defence=6, hp=12)
    grot = unit("Grot", weapons=[weapon("Slugga", range=12)], defence=2)
    return scenario(
        [[entry(apc, 180, base_mm=76.2), entry(breachers, 120)], [entry(ogre), entry(grot)]],
        {0: [(10.0, 10.0)], 1: line(14, 10, 2), 2: [ogre_at], 3: [(16.0, 40.0)]},
    )


def _embarks(bot: TacticalBot, state: GameState) -> bool:
    w = engine.legal_actions(state)._work
    return any(isinstance(a, Embark) for a in bot._move(w, 1, False, state))


def test_a_unit_with_an_enemy_within_18_inches_does_not_get_in_s6_2() -> None:
    """§6.2-6.3: the Ogre 16" away (within ``EMBARK_DISTANCE``, not within
    ``DISEMBARK_DISTANCE``) is not the foe the Breachers head for (the Grot 30" away, the
    Melee they win); by default the Grot's distance lets them get in, and the Ogre's makes
    them get out the next Game Turn, every Game Turn. With the switch on they stay out."""
    state = _state((16.0, 26.0))
    w = engine.legal_actions(state)._work
    near = engine.nearest_enemies(w, 1)[0][0]
    assert DISEMBARK_DISTANCE < near < EMBARK_DISTANCE
    assert not _embarks(TacticalBot(embark_by_nearest=True), state)
    assert _embarks(TacticalBot(embark_by_nearest=False), state)


def test_a_unit_with_every_enemy_beyond_18_inches_still_gets_in_s6_2() -> None:
    """§6.2: with the Ogre too over 30" away every enemy is over ``EMBARK_DISTANCE`` away: the
    Breachers may ride the APC, with the switch on or off."""
    state = _state((30.0, 40.0))
    assert _embarks(TacticalBot(embark_by_nearest=True), state)
    assert _embarks(TacticalBot(), state)


# -- session 39, s39-ferry: ``TacticalBot.ride_to_attack`` (``ai.tactical_ferry``) ----------


def _grot_only(grot_at: tuple[float, float], phase: Phase = Phase.MOVE) -> GameState:
    """Game Turn 2, side 0 to act: the APC (uid 0: Move 10") at (10, 10), the two Breachers
    (uid 1: Move 6", Dash 6") at (14, 10) and (15.5, 10); the enemy: one Grot (uid 2) at
    ``grot_at``, the foe the Breachers head for."""
    apc = unit("APC", move=10, dash=10, hp=8, transport=150, weapons=[weapon("Stubber")])
    axe = weapon("Power Axe", range=0, attacks=2, power=5, type="Battle")
    breachers = unit("Breachers", models=2, weapons=[axe], hp=2)
    grot = unit("Grot", weapons=[weapon("Slugga", range=12)], defence=2)
    return scenario(
        [[entry(apc, 180, base_mm=76.2), entry(breachers, 120)], [entry(grot)]],
        {0: [(10.0, 10.0)], 1: line(14, 10, 2), 2: [grot_at]},
        phase=phase,
    )


def _back_in(state: GameState, on: bool) -> bool:
    """Whether the Breachers, who got out of the APC last Game Turn, are offered the Embark."""
    bot = TacticalBot(ride_to_attack=on)
    bot._got_out[1] = state.flow.turn - 1
    w = engine.legal_actions(state)._work
    dash = state.flow.phase is Phase.DASH
    return any(isinstance(a, Embark) for a in bot._move(w, 1, dash, state))


def test_no_ride_back_in_that_reaches_no_attack_s6_2() -> None:
    """§6.2-6.3, §2.2: the Grot 24" from the Breachers' edge (beyond their 2 Move + Dash =
    18" on foot by the next Attack Phase) and 28" from the APC's (beyond its Move 10" plus the
    Breachers' Dash out and their charge, 22"): the ride reaches no attack the Breachers could
    not make on foot, so having just got out they stay out with the switch; without it (over
    ``EMBARK_DISTANCE`` from the foe) they get back in."""
    state = _grot_only((40.0, 10.0))
    w = engine.legal_actions(state)._work
    assert gap(w, 1, 2) > foot_reach(w, 1, False)
    assert gap(w, 0, 2) > (ride_reach(w, 1, 0, False) or 0.0)
    assert not _back_in(state, on=True)
    assert _back_in(state, on=False)


def test_a_ride_back_in_into_an_attack_s6_2() -> None:
    """§6.2-6.3: the Grot 22" up the table from the APC: its Move (10"), the Breachers'
    Dash out of it (6") and their charge next Game Turn (6") reach the Grot, their 18" on
    foot do not (about 21" away): they get back in, with the switch on or off."""
    state = _grot_only((10.0, 33.5))
    w = engine.legal_actions(state)._work
    assert gap(w, 1, 2) > foot_reach(w, 1, False)
    assert gap(w, 0, 2) <= (ride_reach(w, 1, 0, False) or 0.0)
    assert ride_pays(w, 1, 0, 2, False)
    assert _back_in(state, on=True)
    assert _back_in(state, on=False)


def test_no_ride_back_in_from_the_dash_phase_s4_3() -> None:
    """§6.3, §4.3: embarked in the Dash Phase, the Breachers could only get out in the next
    Move Phase, and a disembark is no charge: no attack by the next Attack Phase, so with the
    switch they do not get back in (without it they do)."""
    state = _grot_only((10.0, 33.5), phase=Phase.DASH)
    assert not _back_in(state, on=True)
    assert _back_in(state, on=False)


def test_a_unit_that_has_not_got_out_lately_gets_in_as_before_s6_2() -> None:
    """§6.2: the switch only holds back a unit that got out this Game Turn or the last; one
    that got out two Game Turns ago (or never) rides by the distance as before."""
    state = _grot_only((40.0, 10.0))
    w = engine.legal_actions(state)._work
    bot = TacticalBot(ride_to_attack=True)
    assert any(isinstance(a, Embark) for a in bot._move(w, 1, False, state))
    bot._got_out[1] = state.flow.turn - 2
    assert any(isinstance(a, Embark) for a in bot._move(w, 1, False, state))
