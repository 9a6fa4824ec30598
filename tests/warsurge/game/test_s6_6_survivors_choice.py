"""A destroyed Transport's survivors are placed by their controller (001 §6.6, L3412-3425), a
decision of its own when ``Automation.MODEL_PLACEMENT`` is off (issue 10).

"After applying damage to passengers and removing the Transport as a casualty, place surviving
models where the Transport model once was. After the Transport's original area is filled,
models are placed in a circular fashion around the other models" (L3413-3417). The removal of
casualties waits (``restore.stage == "survivors"``); ``Survivors(unit, positions, lost)`` places
the models, the engine's placement (then its Coherency moves) being the default; a game whose
every choice is the default is the automated game, digest for digest.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from warbench.kernel.dice import ScriptedDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack, Pass, Survivors
from warbench.rulesets.warsurge.game.codecs import _restore_from_json, _restore_to_json
from warbench.rulesets.warsurge.game.state import (
    ALL_AUTOMATIONS,
    Automation,
    GameState,
    Location,
    Phase,
)
from warbench.rulesets.warsurge.game.wrecks import on_site

from .helpers import check_invariants, entry, scenario, unit, weapon

PLACING = ALL_AUTOMATIONS - {Automation.MODEL_PLACEMENT}
#: the Ursus APC of the §6.6 example stands here; its base is 3" across (radius 1.5")
SITE = (10.0, 10.0)


def _wreck(automation: frozenset[Automation], models: int = 3) -> GameState:
    """The Hunter's Lascannon destroys the Ursus APC (8 HP) carrying ``models`` Troopers;
    both sides then pass to the end of the Attack Phase."""
    apc = unit("Ursus APC", move=10, dash=10, hp=8, transport=400, fire_points=1)
    troopers = unit("Shadow Hounds", models=models, weapons=[weapon("Claws", range=0)])
    gun = weapon("Lascannon", range=24, attacks=8, power=10)
    state = scenario(
        [
            [entry(apc, 180, base_mm=76.2), entry(troopers, 120)],
            [entry(unit("Hunter", weapons=[gun]))],
        ],
        {0: [SITE], 2: [(10.0, 25.0)]},
        phase=Phase.ATTACK,
        active=1,
        automation=automation,
    )
    units = list(state.units)
    units[1] = replace(units[1], location=Location.EMBARKED, embarked_in=0)
    state = replace(state, units=tuple(units))
    state, _ = engine.apply(state, Attack(2, (("Lascannon", 0),)), dice=ScriptedDice([6] * 8))
    assert state.units[0].hp == (0,)
    while state.restore is None and state.flow.phase is Phase.ATTACK:
        state, _ = engine.apply(state, Pass())
    return state


def test_s6_6_the_passengers_controller_places_the_survivors_where_the_transport_stood() -> None:
    waiting = _wreck(PLACING)
    p = waiting.restore
    assert p is not None and p.stage == "survivors" and p.units == (1,)
    assert waiting.units[0].location is Location.DESTROYED  # the Transport is removed first
    assert waiting.units[1].location is Location.EMBARKED  # its passengers wait to be placed
    assert engine.acting_side(waiting) == 0  # the Troopers' player places them (§6.6)
    default = engine.default_restore(waiting)
    assert isinstance(default, Survivors) and default.unit == 1 and default.lost == ()
    assert len(default.positions) == 3
    assert on_site(default.positions, p.wrecks[0]) >= 1
    # the engine's own placement is the automated game, digest for digest
    automated = _wreck(ALL_AUTOMATIONS)
    done, events = engine.apply(waiting, default)
    assert done.restore is None and done.flow.phase is automated.flow.phase
    assert done.units == automated.units and done.step == automated.step
    assert done.digest() == automated.digest()
    assert events[0].kind == "survivors"
    check_invariants(done)
    # another legal placement: a line across the APC's base
    line = ((9.0, 10.0), (10.0, 10.0), (11.0, 10.0))
    chosen, _ = engine.apply(waiting, Survivors(1, line))
    assert chosen.restore is None and chosen.units[1].pos == line
    assert chosen.units[1].location is Location.TABLE
    check_invariants(chosen)


def test_s6_6_example_ten_shadow_hounds_occupy_where_the_ursus_apc_stood() -> None:
    """L3423-3425: "The Unit of ten Shadow Hounds must occupy where it once stood. If there
    were surplus models, they would form a circle around the models already inside"."""
    waiting = _wreck(PLACING, models=10)
    assert waiting.restore is not None
    default = engine.default_restore(waiting)
    assert isinstance(default, Survivors) and len(default.positions) == 10
    inside = on_site(default.positions, waiting.restore.wrecks[0])
    assert 1 <= inside < 10  # the APC's base is filled first, the surplus around it
    done, _ = engine.apply(waiting, default)
    assert done.digest() == _wreck(ALL_AUTOMATIONS, models=10).digest()
    check_invariants(done)


def test_s6_6_refusals_name_the_unit_the_models_and_the_rule() -> None:
    waiting = _wreck(PLACING)
    with pytest.raises(RulesError, match="must first place the survivors of") as info:
        engine.check(waiting, Pass())
    assert info.value.rule == "§6.6"
    with pytest.raises(RulesError, match="not unit 2"):
        engine.check(waiting, Survivors(2, ((10.0, 10.0),)))
    with pytest.raises(RulesError, match=r"3 living models to place .* 2 positions given"):
        engine.check(waiting, Survivors(1, ((9.0, 10.0), (10.0, 10.0))))
    with pytest.raises(RulesError, match="only models that cannot be placed are removed"):
        engine.check(waiting, Survivors(1, ((9.0, 10.0), (10.0, 10.0)), lost=(2,)))
    with pytest.raises(RulesError, match="no living model 7"):
        engine.check(waiting, Survivors(1, ((9.0, 10.0), (10.0, 10.0)), lost=(7,)))
    with pytest.raises(RulesError, match="overlap"):
        engine.check(waiting, Survivors(1, ((9.0, 10.0), (9.2, 10.0), (11.0, 10.0))))
    with pytest.raises(RulesError, match="Coherency") as info:
        engine.check(waiting, Survivors(1, ((10.0, 10.0), (10.0, 14.0), (10.0, 18.0))))
    assert info.value.rule == "§4.2"
    with pytest.raises(RulesError, match="where the Transport stood first") as info:
        engine.check(waiting, Survivors(1, ((20.0, 10.0), (21.0, 10.0), (22.0, 10.0))))
    assert info.value.rule == "§6.6"
    with pytest.raises(RulesError, match="no unit waits to place the survivors"):
        engine.check(_wreck(ALL_AUTOMATIONS), Survivors(1, ()))


def test_s6_6_a_waiting_wreck_is_json_and_back() -> None:
    waiting = _wreck(PLACING)
    assert waiting.restore is not None
    data = json.loads(json.dumps(_restore_to_json(waiting.restore)))
    assert data["stage"] == "survivors" and data["wrecks"][0][0] == 1
    back = replace(waiting, restore=_restore_from_json(data))
    assert back.restore == waiting.restore and back.digest() == waiting.digest()
    a, _ = engine.apply(waiting, engine.default_restore(waiting))
    b, _ = engine.apply(back, engine.default_restore(back))
    assert a.digest() == b.digest()
