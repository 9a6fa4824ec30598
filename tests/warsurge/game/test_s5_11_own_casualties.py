"""The attacker's own HP loss is its controller's choice of casualties too (001 §5.11 L2866-2867:
"the controlling player" chooses whenever a unit loses HP): a Volatile weapon's Attack Dice of
1 attack the Wielder's own unit (Perks, Volatile), and without ``Automation.CASUALTY_SELECTION``
the Attack waits for the attacker's side to choose (issue 10).

The engine's own order is the default, and taking it gives the automated game's state, digest
for digest.
"""

from __future__ import annotations

import json
from dataclasses import replace

from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack, Casualties
from warbench.rulesets.warsurge.game.codecs import _pause_to_json, _paused_again
from warbench.rulesets.warsurge.game.state import (
    ALL_AUTOMATIONS,
    Automation,
    GameState,
    Phase,
)

from .helpers import entry, line, scenario, unit, weapon

CHOOSING = ALL_AUTOMATIONS - {Automation.CASUALTY_SELECTION}
ATTACK = Attack(0, (("Unstable Cannon", 1),))


def _volatile(automation: frozenset[Automation], seed: int) -> GameState:
    cannon = weapon("Unstable Cannon", range=24, attacks=4, power=10, perks=["Volatile"])
    return scenario(
        [
            [entry(unit("Zealots", models=4, weapons=[cannon]))],
            [entry(unit("Wall", models=1, hp=20, defence=10))],
        ],
        {0: line(10.0, 10.0, 4), 1: [(12.0, 20.0)]},
        phase=Phase.ATTACK,
        automation=automation,
        seed=seed,
    )


def _own_pause_seed() -> int:
    """A seed whose Attack makes the attacker lose some (not all) of its HP."""
    for seed in range(300):
        waiting, _ = engine.apply(_volatile(CHOOSING, seed), ATTACK)
        if waiting.pause is not None and waiting.pause.own:
            return seed
    raise AssertionError("no seed in 0-299 gives the attacker a choice of casualties")


def test_s5_11_the_attacker_s_controller_chooses_its_own_casualties() -> None:
    seed = _own_pause_seed()
    waiting, events = engine.apply(_volatile(CHOOSING, seed), ATTACK)
    p = waiting.pause
    assert p is not None and p.own and p.target == p.attacker == 0
    assert 0 < p.loss < 4 and p.candidates == (0, 1, 2, 3)
    assert engine.acting_side(waiting) == 0  # the Zealots' own player decides
    assert events[-1].kind == "choose casualties" and "its own" in events[-1].text
    assert p.to_json()["own"] is True
    # the engine's own choice (roster order) is the automated game, digest for digest
    automated, _ = engine.apply(_volatile(ALL_AUTOMATIONS, seed), ATTACK)
    taken, taken_events = engine.apply(waiting, engine.default_casualties(waiting))
    assert taken.pause is None and taken.units == automated.units
    assert taken.step == automated.step and taken.units[0].acted
    assert [e.kind for e in taken_events][:1] == ["attack"]
    # another choice: the last models lose the HP instead of the first
    last = tuple(reversed(p.candidates))
    chosen, _ = engine.apply(waiting, Casualties(0, last))
    lost = [i for i, hp in enumerate(chosen.units[0].hp) if hp == 0]
    assert lost == sorted(last[: p.loss])
    assert chosen.units[1] == taken.units[1]  # the target's loss is the same either way


def test_s5_11_an_own_casualty_pause_is_json_and_back() -> None:
    """A waiting state is written as its terms plus how to make it again (the units before
    the Attack, the Attack, the choices before): the own pause is made again exactly."""
    seed = _own_pause_seed()
    waiting, _ = engine.apply(_volatile(CHOOSING, seed), ATTACK)
    assert waiting.pause is not None
    data = json.loads(json.dumps(_pause_to_json(waiting.pause)))
    assert data["own"] is True
    back = _paused_again(replace(waiting, pause=None), data)
    assert back.pause == waiting.pause and back.digest() == waiting.digest()


def test_s5_11_no_own_choice_when_every_model_is_lost_or_the_automation_chooses() -> None:
    seed = _own_pause_seed()
    auto, _ = engine.apply(_volatile(ALL_AUTOMATIONS, seed), ATTACK)
    assert auto.pause is None
    one_model = replace(
        _volatile(CHOOSING, seed),
        units=tuple(
            replace(u, removed=(False, True, True, True), hp=(1, 0, 0, 0)) if u.uid == 0 else u
            for u in _volatile(CHOOSING, seed).units
        ),
    )
    after, _ = engine.apply(one_model, ATTACK)
    assert after.pause is None or not after.pause.own  # one model: nothing to choose
