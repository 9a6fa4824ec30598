"""The tactical player's *most dangerous first* (session 31, issue 15, ``ai.tactical_danger``)
on constructed states: focus fire counts the share of an enemy unit's threat removed with
the share of its HP taken, so the first hits on a many-HP vehicle count. Core Rules
001_d3f5e425c5e1196d.txt L859-863 (any enemy Unit within Range may be attacked)."""

from __future__ import annotations

import pytest

from tests.warsurge.game.helpers import entry, scenario, unit, weapon
from warbench.ai.tactical import TacticalBot
from warbench.ai.tactical_danger import danger_score, danger_threat
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack
from warbench.rulesets.warsurge.game.state import GameState, Phase
from warbench.rulesets.warsurge.game.work import Work


def _work(state: GameState) -> Work:
    return engine.legal_actions(state)._work


def _snipers_car_and_dogs(car_at: float = 30.0) -> GameState:
    """The skirmish rosters' shapes: side 0 Sniper Troopers (uid 0, 3 models, 36" Heavy rifle)
    and Troopers (uid 1); side 1 a Car (uid 2: one 4-HP model, Defence 6, Autocannon 30",
    Move 12") ``car_at``" up the table, and Dead Dogs (uid 3: ten 1-HP models, Defence 3,
    a 24" rifle) at 20"."""
    rifle = weapon("Sniper Rifle", range=36, type="Heavy", attacks=1, power=5, ap=4)
    snipers = unit("Sniper Troopers", models=3, defence=3, armour=5, weapons=[rifle])
    laser = weapon("Laser Rifle", range=18, type="Battle", attacks=2, power=3, ap=6)
    troopers = unit("Troopers", models=10, defence=3, armour=4, weapons=[laser])
    cannon = weapon("Autocannon", range=30, type="Battle", attacks=2, power=6, ap=4)
    car = unit("Car", models=1, move=12, dash=12, defence=6, hp=4, armour=4, weapons=[cannon])
    scav = weapon("Scavenger Rifle", range=24, type="Battle", attacks=1, power=2, ap=6)
    dogs = unit("Dead Dogs", models=10, defence=3, armour=6, weapons=[scav])
    return scenario(
        [
            [entry(snipers, 90), entry(troopers, 120)],
            [entry(car, 110), entry(dogs, 70)],
        ],
        {
            0: [(20.0, 4.0), (22.0, 4.0), (24.0, 4.0)],
            1: [(10.0 + 1.5 * k, 4.0) for k in range(10)],
            2: [(30.0, 4.0 + car_at)],
            3: [(12.0 + 1.5 * k, 24.0) for k in range(10)],
        },
        phase=Phase.ATTACK,
        b=None,
    )


def test_danger_score_counts_the_share_of_the_threat_taken() -> None:
    """A quarter of a 4-HP model's HP takes a quarter of its threat; never more than all."""
    assert danger_score(1.0, 4.0, 27.5, 50.0, 1.5) == pytest.approx(27.5 + 1.5 * 50.0 / 4)
    assert danger_score(6.0, 4.0, 1.0, 10.0, 1.0) == pytest.approx(6.0 + 10.0)
    assert danger_score(1.0, 0.0, 1.0, 10.0, 1.0) == 0.0


def test_threat_is_the_best_attack_on_a_unit_in_reach_next_game_turn() -> None:
    """The Car (Move 12" plus Range 30") reaches the snipers; out of it, it threatens nothing."""
    bot = TacticalBot(danger_fire=True)
    w = _work(_snipers_car_and_dogs())
    near = danger_threat(w, 2, bot._worth)
    assert near == pytest.approx(
        max(bot._worth(w, 2, 0, None, False), bot._worth(w, 2, 1, None, False))
    )
    assert near > 0.0
    far = _work(_snipers_car_and_dogs(car_at=44.0))  # 43.2" clear of the snipers
    assert danger_threat(far, 2, bot._worth) == 0.0


def test_L859_the_snipers_shoot_the_car_not_the_dogs_with_the_habit() -> None:
    """Both enemy units are in the snipers' Range (L859-863). The Dead Dogs are 1-HP models,
    so every expected hit slays one (output removed); the Car loses about one of its 4 HP, and
    without the habit its output counts only when it is expected to be slain: the snipers shoot
    the Dogs. With the habit the quarter of the Car's threat taken (its Autocannon on the
    snipers next Game Turn) outweighs the Dogs'."""
    state = _snipers_car_and_dogs()
    w = _work(state)
    on = TacticalBot(danger_fire=True)._attack(w, 0)[0]
    off = TacticalBot(danger_fire=False)._attack(w, 0)[0]
    assert isinstance(on, Attack) and isinstance(off, Attack)
    assert on.targets[0][1] == 2
    assert off.targets[0][1] == 3


def test_a_melee_units_threat_is_its_melee_on_a_unit_within_its_move() -> None:
    """A melee unit (the Brutes: Cleavers only, Move 7") threatens what its Melee is expected
    to take off a unit within its Move (a charge, §4.3), edge to edge; about 11" off, beyond
    its Move, nothing yet (fails if the melee branch of ``danger_threat`` is left out)."""
    from tests.ai.test_tactical_threat import _line

    bot = TacticalBot(danger_fire=True)
    near = _work(_line(engaged=False, brutes_at=6.0))
    assert danger_threat(near, 1, bot._worth) == pytest.approx(bot._worth(near, 1, 0, None, True))
    assert danger_threat(near, 1, bot._worth) > 0.0
    far = _work(_line(engaged=False, brutes_at=12.0))
    assert danger_threat(far, 1, bot._worth) == 0.0
