"""Base Contact lost to casualties is restored by a player (001 §4.4 III L2016-2021, §5.11
L2875-2878), a decision of its own when ``Automation.COHERENCY`` is off (issue 10); and the
Advanced playstyle's Attack Actions (§9.1 IV L3693-3694: "apply casualties immediately") wait
for the Coherency, Base Contact and survivors' moves just as the Standard Attack Phase does.

§4.4 III: "Starting with the Unit that received the most casualties, place the minimum number of
models into base contact with the closest enemy model ... while maintaining Coherency."
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from warbench.kernel.dice import ScriptedDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack, BaseContact, Pass, Restore
from warbench.rulesets.warsurge.game.actions_advanced import Counter
from warbench.rulesets.warsurge.game.advstate import AdvancedFlow
from warbench.rulesets.warsurge.game.codecs import _restore_from_json, _restore_to_json
from warbench.rulesets.warsurge.game.io import load_game_roster
from warbench.rulesets.warsurge.game.state import (
    ALL_AUTOMATIONS,
    Automation,
    GameState,
    Phase,
)

from .helpers import (
    ROSTERS,
    check_invariants,
    entry,
    games_with_and_without,
    scenario,
    unit,
    weapon,
)

RESTORING = ALL_AUTOMATIONS - {Automation.COHERENCY}
#: the Troopers' model 0 touches the Warlord; models 1 and 2 stand behind it
TROOPERS = [(10.0, 11.0), (10.0, 12.5), (10.0, 14.0)]


def _melee(automation: frozenset[Automation]) -> GameState:
    """The Warlord's Axe kills Troopers model 0, the only one in Base Contact; both pass."""
    axe = weapon("Axe", range=0, attacks=1, power=10)
    state = scenario(
        [
            [entry(unit("Warlord", weapons=[axe], hp=5))],
            [entry(unit("Troopers", models=3, weapons=[weapon("Knife", range=0, power=1)]))],
        ],
        {0: [(10.0, 10.0)], 1: TROOPERS},
        phase=Phase.ATTACK,
        engaged=[(0, 1)],
        automation=automation,
    )
    state, _ = engine.apply(state, Attack(0, (("Axe", 1),)), dice=ScriptedDice([6]))
    assert state.units[1].hp[0] == 0
    while state.restore is None and state.flow.phase is Phase.ATTACK:
        state, _ = engine.apply(state, Pass())
    return state


def test_s4_4_iii_the_unit_with_most_casualties_moves_back_into_base_contact() -> None:
    waiting = _melee(RESTORING)
    p = waiting.restore
    assert p is not None and p.stage == "contact" and p.units == (1,) and p.pairs[0] == (0, 1)
    assert waiting.units[1].removed == (True, False, False)  # the casualty is gone (§5.11)
    assert engine.acting_side(waiting) == 1  # the Troopers received the casualty: they move
    default = engine.default_restore(waiting)
    assert isinstance(default, BaseContact) and default.foe == 0
    automated = _melee(ALL_AUTOMATIONS)
    done, events = engine.apply(waiting, default)
    assert done.restore is None and done.flow.phase is automated.flow.phase
    assert done.units == automated.units and done.digest() == automated.digest()
    assert (0, 1) in done.engaged and events[0].kind == "contact"
    check_invariants(done)
    # another placement: model 2 steps into contact at the Warlord's side, model 1 stays
    mine = ((10.0, 12.5), (10.7071, 10.7071))
    chosen, _ = engine.apply(waiting, BaseContact(1, 0, mine))
    assert chosen.restore is None and (0, 1) in chosen.engaged
    assert chosen.units[1].pos[1:] == mine
    check_invariants(chosen)


def test_s4_4_iii_refusals_name_the_unit_the_positions_and_the_rule() -> None:
    waiting = _melee(RESTORING)
    with pytest.raises(RulesError, match=r"must first .*move back into Base Contact") as info:
        engine.check(waiting, Pass())
    assert info.value.rule == "§4.4 III"
    with pytest.raises(RulesError, match="not unit 0 with unit 1"):
        engine.check(waiting, BaseContact(0, 1, ((10.0, 10.0),)))
    with pytest.raises(RulesError, match="2 models on the battlefield; 1 positions given"):
        engine.check(waiting, BaseContact(1, 0, ((10.0, 11.0),)))
    with pytest.raises(RulesError, match=r"no model of .* Base Contact with P0: Warlord"):
        engine.check(waiting, BaseContact(1, 0, ((10.0, 12.0), (10.0, 14.0))))
    with pytest.raises(RulesError, match="Coherency") as info:
        engine.check(waiting, BaseContact(1, 0, ((10.0, 11.0), (10.0, 16.0))))
    assert info.value.rule == "§4.2"
    with pytest.raises(RulesError, match="minimum number of models: 1 suffice, 2 would move"):
        engine.check(waiting, BaseContact(1, 0, ((10.0, 11.0), (10.0, 12.5))))
    with pytest.raises(RulesError, match="no unit waits to move back into Base Contact"):
        engine.check(_melee(ALL_AUTOMATIONS), BaseContact(1, 0, ()))


def test_s4_4_iii_a_waiting_base_contact_is_json_and_back() -> None:
    waiting = _melee(RESTORING)
    assert waiting.restore is not None
    data = json.loads(json.dumps(_restore_to_json(waiting.restore)))
    assert data["stage"] == "contact" and data["pairs"] == [[0, 1]]
    back = replace(waiting, restore=_restore_from_json(data))
    assert back.restore == waiting.restore and back.digest() == waiting.digest()
    a, _ = engine.apply(waiting, engine.default_restore(waiting))
    b, _ = engine.apply(back, engine.default_restore(back))
    assert a.digest() == b.digest()


def test_games_whose_base_contact_moves_are_the_engine_s_are_the_automated_games() -> None:
    """The sample armies on the ruins, seed 1: a Melee loses its Base Contact once (seed 4
    did until session 30's routed Moves tried only ends clear of other units' bases)."""
    auto, choosing, asked = games_with_and_without(
        RESTORING, (BaseContact,), board_name="ruins_48x48", seed=1
    )
    assert asked > 0  # Base Contact was restored by the player's default ...
    assert auto[0] == choosing[0]  # ... and the game is the automated game (Restore included)


# -- the Advanced playstyle (§9.1 IV) -----------------------------------------------------

ADV_TROOPERS = [(12.0, 20.0), (9.6, 20.0), (14.4, 20.0)]


def _advanced_attack(automation: frozenset[Automation]) -> GameState:
    """An Advanced Attack Action kills Troopers model 0, the middle one: the other two are
    4.8" apart, out of Coherency once the casualty is removed at once (§9.1 IV)."""
    rifle = weapon("Rifle", range=24, attacks=1, power=10)
    state = scenario(
        [
            [entry(unit("Snipers", weapons=[rifle]))],
            [entry(unit("Troopers", models=3, weapons=[weapon("Knife", range=1)]))],
        ],
        {0: [(12.0, 10.0)], 1: ADV_TROOPERS},
        playstyle="advanced",
        automation=automation,
    )
    state = replace(
        state, flow=replace(state.flow, phase=Phase.ACTIONS, adv=AdvancedFlow(cp=(20, 0)))
    )
    state, _ = engine.apply(state, Attack(0, (("Rifle", 1),)), dice=ScriptedDice([6]))
    assert state.flow.adv is not None and state.flow.adv.counter is None  # no CP to counter
    return state


def test_s9_1_iv_advanced_coherency_after_an_attack_action_is_the_controller_s() -> None:
    waiting = _advanced_attack(RESTORING)
    p = waiting.restore
    assert p is not None and p.stage == "coherency" and p.units == (1,)
    assert waiting.units[1].removed == (True, False, False)  # removed at once (§9.1 IV)
    assert engine.acting_side(waiting) == 1
    with pytest.raises(RulesError, match="must first restore the Coherency"):
        engine.check(waiting, Counter(1, "none"))
    automated = _advanced_attack(ALL_AUTOMATIONS)
    done, _ = engine.apply(waiting, engine.default_restore(waiting))
    assert done.restore is None and done.flow == automated.flow
    assert done.units == automated.units and done.digest() == automated.digest()
    # the Action Step goes on: the Snipers may make their second Action
    assert done.flow.adv is not None and done.flow.adv.step_unit == 0
    chosen, _ = engine.apply(waiting, Restore(1, ((9.6, 20.0), (7.4, 20.0))))
    assert chosen.units[1].pos[1:] == ((9.6, 20.0), (7.4, 20.0))
    check_invariants(chosen)


def test_advanced_games_whose_placements_are_the_engine_s_are_the_automated_games() -> None:
    """The sample armies on the open field, Advanced, seed 3: Coherency and Base Contact wait
    for the players after Attack Actions; every default taken plays the automated game."""
    auto, choosing, asked = games_with_and_without(
        RESTORING, (Restore, BaseContact), seed=3, playstyle="advanced"
    )
    assert asked > 0
    assert auto == choosing


def test_conformance_passes_with_base_contact_decisions() -> None:
    """Random-legal players and the defaults answer the ``"contact"`` decision too (the
    sample pair on the ruins, seed 9, where a Melee loses its Base Contact; seed 6 did until
    session 30's routed Moves tried only ends clear of other units' bases, the skirmish pair's
    seed 3 until session 29's Moves that go round what blocks them)."""
    from warbench.play import SetupArgs
    from warbench.play.conformance import check_conformance
    from warbench.rulesets.warsurge.game.io import roster_to_data
    from warbench.rulesets.warsurge.game.protocol import WarsurgeRuleset

    rosters = tuple(
        roster_to_data(load_game_roster(ROSTERS / f))
        for f in ("sci_fi_humans.yaml", "scavengers.yaml")
    )
    names = sorted(a.value for a in RESTORING - {Automation.CASUALTY_SELECTION})
    report = check_conformance(
        WarsurgeRuleset(),
        SetupArgs(rosters, "ruins_48x48", {"automation": names}),
        seeds=[9],
        samples=1,
    )
    assert report.finished == 1 and report.decisions.get("contact", 0) > 0
