"""The tactical player's passengers (issue 15, session 38, s38-ferry, switch
``TacticalBot.embark_by_nearest``, off by default) on constructed states: a unit gets into
a Transport only when the enemy that would make it get out again (the nearest) is farther
than ``EMBARK_DISTANCE``. Core Rules 001_d3f5e425c5e1196d.txt §6.2-6.3 (Embark, Disembark)."""

from __future__ import annotations

from tests.warsurge.game.helpers import entry, line, scenario, unit, weapon
from warbench.ai.tactical import DISEMBARK_DISTANCE, EMBARK_DISTANCE, TacticalBot
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Embark
from warbench.rulesets.warsurge.game.state import GameState


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
