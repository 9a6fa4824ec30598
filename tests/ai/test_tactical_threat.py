"""The tactical player's focus fire against a melee unit's threat (issue 15, session 31,
``ai.tactical_threat``) on constructed states: each habit fails with its switch off.

Core Rules 001_d3f5e425c5e1196d.txt §5.8 (L2668-2682): while engaged in a Melee a Battle
Weapon's Attack Dice lose 1, and a unit in a Melee that Targets an enemy not engaged with it
loses 1 more ("Out of a Melee"); a unit that Moves or Dashes into contact engages (§4.3
L1990-1994)."""

from __future__ import annotations

from tests.warsurge.game.helpers import entry, scenario, unit, weapon
from warbench.ai.tactical import TacticalBot
from warbench.ai.tactical_threat import PLAIN, situated_dist, situation, threat, threat_bonus
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack
from warbench.rulesets.warsurge.game.state import GameState, Phase
from warbench.rulesets.warsurge.game.work import Work

RIFLE = weapon("Rifle", range=24, attacks=2, power=3, type="Battle")
CLEAVER = weapon("Cleaver", range=0, attacks=2, power=5, ap="5+")
SCAVENGER = weapon("Scavenger", range=24, attacks=1, power=2, type="Battle")


def _line(engaged: bool, brutes_at: float = 12.0) -> GameState:
    """Attack Phase, side 0 to act: its ten Riflemen (uid 0, Battle Rifles 24", the Troopers
    of the skirmish roster) face six Brutes (uid 1, Cleavers only, Move 7" and Dash 7", the
    Gut-Hackers) — in a Melee with them when ``engaged``, else ``brutes_at`` inches off —
    and ten Mob (uid 2, Scavenger Rifles, the Dead Dogs) 14" off."""
    ours = unit("Riflemen", models=10, weapons=[RIFLE], defence=3, armour="4+")
    brutes = unit(
        "Brutes", models=6, weapons=[CLEAVER], defence=5, hp=2, armour="5+", move=7, dash=7
    )
    mob = unit("Mob", models=10, weapons=[SCAVENGER], defence=3, armour="6+")
    y = 10.0
    return scenario(
        [[entry(ours, 120)], [entry(brutes, 120, 40), entry(mob, 70)]],
        {
            0: [(16.0 + 1.5 * k, y) for k in range(10)],
            1: [(17.0 + 2.0 * k, y + (1.0 if engaged else brutes_at)) for k in range(6)],
            2: [(16.0 + 1.5 * k, y + 14.0) for k in range(10)],
        },
        phase=Phase.ATTACK,
        engaged=[(0, 1)] if engaged else [],
    )


def _work(state: GameState) -> Work:
    return engine.legal_actions(state)._work


def _target(bot: TacticalBot, state: GameState) -> int:
    action = bot.choose(state)
    assert isinstance(action, Attack) and action.unit == 0
    ((_, target),) = action.targets
    return target


def test_melee_modifiers_L2682_a_unit_in_a_melee_strikes_the_foe_in_it() -> None:
    """The Riflemen are in a Melee with the Brutes: a shot at the Mob out of it loses 2 (Battle
    Weapon in a Melee, Out of a Melee), a shot at the Brutes 1. At the plain odds the Mob
    (Defence 3) is worth more; at the odds the engine rolls, the Brutes."""
    state = _line(engaged=True)
    w = _work(state)
    assert situation(w, 0, 2, False) == (True, False)
    assert situation(w, 0, 1, True) == PLAIN
    bot = TacticalBot(threat_fire=False)
    plain = bot._dist(w, 0, 2, None, False, False)
    out = situated_dist(w, 0, 2, None, False, (True, False))
    mean = lambda d: sum(k * p for k, p in d.items())  # noqa: E731
    assert mean(out) < 0.6 * mean(plain)
    assert _target(bot, state) == 1
    assert _target(TacticalBot(threat_fire=False, melee_modifiers=False), state) == 2


def test_threat_fire_L1990_shoots_the_melee_unit_that_will_reach_it() -> None:
    """The Brutes stand 12" off (their Move and Dash reach the line this Game Turn) and the Mob
    14": by the point value taken the Mob is the better target, but the Brutes' threat (what
    their Cleavers are expected to take off the Riflemen in a Melee, for each Attack Phase
    left, shared over their HP) makes them the target."""
    state = _line(engaged=False)
    w = _work(state)
    bot = TacticalBot()
    assert threat(w, 1, bot._worth) > 0.0
    assert threat_bonus(w, 2, 2.0, bot._worth, 3.0) == 0.0  # a shooter: no threat counted
    assert _target(bot, state) == 1
    assert _target(TacticalBot(threat_fire=False), state) == 2


def test_threat_fire_not_beyond_two_game_turns_of_reach() -> None:
    """Brutes 30" off (beyond twice their Move and Dash, 28") carry no threat yet."""
    state = _line(engaged=False, brutes_at=31.0)
    w = _work(state)
    assert threat(w, 1, TacticalBot()._worth) == 0.0


def test_threat_fire_within_two_game_turns_counts_the_phases_left_once_it_arrives() -> None:
    """Brutes 20" off need two Game Turns of Move and Dash (14" each) to reach the line: their
    threat counts, for the Attack Phases left once they arrive (4 left: 2; 3 left: 1, one at
    least). Fails if the reach stops at one Game Turn or the phases are not counted."""
    state = _line(engaged=False, brutes_at=20.0)
    w = _work(state)
    worth = TacticalBot()._worth
    once = worth(w, 1, 0, None, True)
    assert once > 0.0
    assert threat(w, 1, worth, 4.0) == once * 2.0
    assert threat(w, 1, worth, 3.0) == once
    assert threat(w, 1, worth, 1.0) == once
