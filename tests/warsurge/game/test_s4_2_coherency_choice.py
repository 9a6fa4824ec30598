"""Coherency after casualties is restored by the unit's controller (001 §4.2 IV, §5.11), a
decision of its own when ``Automation.COHERENCY`` is off (issue 10).

At the end of the Attack Phase, once the casualties are removed, the phase waits for each unit
left out of Coherency (in unit order); ``Restore(unit, positions)`` places its models, the
engine's own restoration (the fewest models moved the least distance) being the default; a game
whose every choice is the default is the automated game, digest for digest.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from warbench.kernel.dice import ScriptedDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack, BaseContact, Pass, Restore
from warbench.rulesets.warsurge.game.codecs import _restore_from_json, _restore_to_json
from warbench.rulesets.warsurge.game.io import load_game_roster
from warbench.rulesets.warsurge.game.state import (
    ALL_AUTOMATIONS,
    Automation,
    GameState,
    Phase,
)

from .helpers import ROSTERS, entry, games_with_and_without, scenario, unit, weapon

RESTORING = ALL_AUTOMATIONS - {Automation.COHERENCY}
#: the Troopers' model 0 stands between the other two: without it they are 4.8" apart
TROOPERS = [(12.0, 20.0), (9.6, 20.0), (14.4, 20.0)]


def _end_of_attack_phase(automation: frozenset[Automation]) -> GameState:
    """The Snipers kill Troopers model 0 (the middle one); both sides then pass."""
    rifle = weapon("Rifle", range=24, attacks=1, power=10)
    state = scenario(
        [
            [entry(unit("Snipers", weapons=[rifle]))],
            [entry(unit("Troopers", models=3, weapons=[weapon("Knife", range=1)]))],
        ],
        {0: [(12.0, 10.0)], 1: TROOPERS},
        phase=Phase.ATTACK,
        automation=automation,
    )
    state, _ = engine.apply(state, Attack(0, (("Rifle", 1),)), dice=ScriptedDice([6]))
    while state.restore is None and state.flow.phase is Phase.ATTACK:
        state, _ = engine.apply(state, Pass())
    return state


def test_s4_2_iv_the_controller_restores_coherency_after_the_casualties() -> None:
    waiting = _end_of_attack_phase(RESTORING)
    assert waiting.restore is not None and waiting.restore.units == (1,)
    assert waiting.units[1].removed == (True, False, False)  # the casualty is gone (§5.11)
    assert engine.acting_side(waiting) == 1  # the Troopers' player moves them (§4.2 IV)
    default = engine.default_restore(waiting)
    assert default.unit == 1 and len(default.positions) == 2
    # the engine's own restoration is the automated game, digest for digest
    automated = _end_of_attack_phase(ALL_AUTOMATIONS)
    done, events = engine.apply(waiting, default)
    assert done.restore is None and done.flow.phase is automated.flow.phase
    assert done.units == automated.units and done.step == automated.step
    assert done.digest() == automated.digest()
    assert events[0].kind == "coherency"
    # another coherent placement: model 2 comes to model 1's other side
    chosen, _ = engine.apply(waiting, Restore(1, ((9.6, 20.0), (7.4, 20.0))))
    assert chosen.restore is None
    assert chosen.units[1].pos[1:] == ((9.6, 20.0), (7.4, 20.0))


def test_s4_2_iv_refusals_name_the_unit_the_positions_and_the_rule() -> None:
    waiting = _end_of_attack_phase(RESTORING)
    with pytest.raises(RulesError, match="must first restore the Coherency") as info:
        engine.check(waiting, Pass())
    assert info.value.rule == "§4.2 IV"
    with pytest.raises(RulesError, match="not unit 0"):
        engine.check(waiting, Restore(0, ((1.0, 1.0),)))
    with pytest.raises(RulesError, match="2 models on the battlefield; 3 positions given"):
        engine.check(waiting, Restore(1, ((9.6, 20.0), (11.0, 20.0), (12.0, 22.0))))
    with pytest.raises(RulesError, match="Coherency") as info:
        engine.check(waiting, Restore(1, ((9.6, 20.0), (14.4, 20.0))))  # as they stand
    assert info.value.rule == "§4.2"
    with pytest.raises(RulesError, match="overlap"):
        engine.check(waiting, Restore(1, ((9.6, 20.0), (9.9, 20.0))))
    with pytest.raises(RulesError, match="least number of models: 1 suffice, 2 would move"):
        engine.check(waiting, Restore(1, ((9.0, 20.0), (10.6, 20.0))))  # both move (L1930)
    with pytest.raises(RulesError, match="no unit waits"):
        engine.check(_end_of_attack_phase(ALL_AUTOMATIONS), Restore(1, ()))


def test_s4_2_iv_a_waiting_end_of_phase_is_json_and_back() -> None:
    waiting = _end_of_attack_phase(RESTORING)
    assert waiting.restore is not None
    data = json.loads(json.dumps(_restore_to_json(waiting.restore)))
    back = replace(waiting, restore=_restore_from_json(data))
    assert back.restore == waiting.restore and back.digest() == waiting.digest()
    a, _ = engine.apply(waiting, engine.default_restore(waiting))
    b, _ = engine.apply(back, engine.default_restore(back))
    assert a.digest() == b.digest()


def test_games_whose_coherency_moves_are_the_engine_s_are_the_automated_games() -> None:
    """The sample armies on the open field, seed 1: a unit is left out of Coherency once (and,
    since Moves toward a point go round what blocks them, session 29, a Melee loses its Base
    Contact once: both decisions take no step)."""
    auto, choosing, asked = games_with_and_without(RESTORING, (Restore, BaseContact), seed=1)
    assert asked > 0  # coherency was restored by the player's default ...
    assert auto == choosing  # ... and the game is the automated game


def test_conformance_passes_with_coherency_and_casualty_decisions() -> None:
    """Random-legal players and the defaults answer the ``"coherency"`` decision too (skirmish
    seeds 3 and 9, since session 29's Moves that go round what blocks them: a unit is left out
    of Coherency in each)."""
    from warbench.play import SetupArgs
    from warbench.play.conformance import check_conformance
    from warbench.rulesets.warsurge.game.io import roster_to_data
    from warbench.rulesets.warsurge.game.protocol import WarsurgeRuleset

    names = sorted(a.value for a in RESTORING - {Automation.CASUALTY_SELECTION})
    rosters = tuple(
        roster_to_data(load_game_roster(ROSTERS / f))
        for f in ("skirmish_a.yaml", "skirmish_b.yaml")
    )
    report = check_conformance(
        WarsurgeRuleset(),
        SetupArgs(rosters, None, {"automation": names}),
        seeds=[3, 9],
        samples=2,
    )
    assert report.finished == 2 and report.decisions.get("coherency", 0) > 0
