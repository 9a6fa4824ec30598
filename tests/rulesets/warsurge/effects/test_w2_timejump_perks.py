"""Ability ranks of session 25 wave 2, lane w2-timejump, played in a game (Perks
000_94ecc6a4c74d351b.txt): Time Jump I (L1067), Time Jump II (L1079). Test names carry the
rank's source line (``p1067`` …), which ``warbench perks --coverage`` reads."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from tests.warsurge.game.helpers import ROSTERS, check_invariants, entry, scenario, unit, weapon
from warbench.kernel.dice import ScriptedDice
from warbench.kernel.errors import RulesError
from warbench.play import SetupArgs, run_game
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack, Move, Pass
from warbench.rulesets.warsurge.game.actions_advanced import UsePerks
from warbench.rulesets.warsurge.game.io import load_game_roster, roster_to_data
from warbench.rulesets.warsurge.game.protocol import WarsurgeRuleset, WarsurgeState
from warbench.rulesets.warsurge.game.state import (
    ALL_AUTOMATIONS,
    Automation,
    GameState,
    Phase,
    canonical_json,
)

MANUAL = ALL_AUTOMATIONS - {Automation.PERK_USE}


def _game(perks: list[str], phase: Phase = Phase.ATTACK, *, automated: bool = False) -> GameState:
    """Side 0's Jumper (unit 0, ``perks``, a Gun) 9" from side 1's Target (unit 1, 3 HP) and a
    second enemy, Other (unit 2, 3 HP), in side 0's ``phase``."""
    jumper = entry(unit("Jumper", hp=3, perks=perks, weapons=[weapon("Gun", range=30)]))
    target, other = entry(unit("Target", hp=3)), entry(unit("Other", hp=3))
    auto = {} if automated else {"automation": MANUAL}
    return scenario(
        [[jumper], [target, other]],
        {0: [(20.0, 10.0)], 1: [(20.0, 20.0)], 2: [(30.0, 20.0)]},
        phase=phase,
        **auto,  # type: ignore[arg-type]
    )


def _shoot(state: GameState, faces: list[int], target: int = 1) -> GameState:
    after, _ = engine.apply(state, Attack(0, (("Gun", target),)), dice=ScriptedDice(faces))
    check_invariants(after)
    return after


def _hp(state: GameState, uid: int) -> int:
    return sum(state.units[uid].hp)


# -- Time Jump I (L1067): the player's decision ---------------------------------------------------


def test_p1067_time_jump_I_undoes_hp_changes_to_targets_and_attacks_again() -> None:
    hit = _shoot(_game(["Time Jump I"]), [6])
    assert _hp(hit, 1) == 2
    # the game waits for the Jumper's player: undo (UsePerks) or keep (Pass), nothing else
    assert engine.acting_side(hit) == 0
    assert list(engine.LegalActions(hit)) == [UsePerks(0, ("Time Jump I",)), Pass()]
    with pytest.raises(RulesError, match="Time Jump I"):
        engine.check(hit, Attack(0, (("Gun", 2),)))
    back, events = engine.apply(hit, UsePerks(0, ("Time Jump I",)))
    check_invariants(back)
    assert _hp(back, 1) == 3 and not back.units[0].acted and back.rewind is None
    assert back.units[0].used("Time Jump I") == 1 and back.step == hit.step + 1
    assert any("Attack Sequence is undone" in e.text for e in events)
    # "then attempt it again or decide differently": it shoots the Other this time
    again = _shoot(back, [6], target=2)
    assert _hp(again, 1) == 3 and _hp(again, 2) == 2
    assert again.rewind is None  # Limited Use (1): no second rewind point


def test_p1067_time_jump_I_pass_keeps_the_outcome() -> None:
    hit = _shoot(_game(["Time Jump I"]), [6])
    kept, events = engine.apply(hit, Pass())
    assert _hp(kept, 1) == 2 and kept.rewind is None and kept.units[0].acted
    assert kept.units[0].used("Time Jump I") == 0  # not used: still there for later
    assert any("keeps its Attack Sequence" in e.text for e in events)
    assert engine.acting_side(kept) == 1  # the flow goes on as after the Attack


def test_p1067_time_jump_I_undoes_a_move_and_the_unit_moves_elsewhere() -> None:
    state = _game(["Time Jump I"], Phase.MOVE)
    moved, _ = engine.apply(state, Move(0, to=(20.0, 4.0)))
    assert moved.units[0].pos != state.units[0].pos and moved.rewind.kind == "Move"
    back, _ = engine.apply(moved, UsePerks(0, ("Time Jump I",)))
    assert back.units[0].pos == state.units[0].pos and not back.units[0].unit_moved
    other, _ = engine.apply(back, Move(0, to=(26.0, 10.0)))
    assert other.units[0].pos[0][0] > 20.0 and other.rewind is None


def test_p1067_time_jump_I_a_dash_is_undone_too() -> None:
    state = _game(["Time Jump I"], Phase.DASH)
    dashed, _ = engine.apply(state, Move(0, to=(20.0, 4.0), dash=True))
    assert dashed.rewind is not None and dashed.rewind.kind == "Dash"
    back, _ = engine.apply(dashed, UsePerks(0, ("Time Jump I",)))
    assert back.units[0].pos == state.units[0].pos


def test_p1067_time_jump_I_once_per_game() -> None:
    state = _game(["Time Jump I"])
    spent = replace(state.units[0], uses=(("Time Jump I", 1),))
    hit = _shoot(replace(state, units=(spent, *state.units[1:])), [6])
    assert hit.rewind is None and engine.acting_side(hit) == 1


def test_p1067_time_jump_I_without_the_perk_no_rewind_point() -> None:
    hit = _shoot(_game([]), [6])
    assert hit.rewind is None and '"rewind"' not in canonical_json(hit)
    assert engine.acting_side(hit) == 1
    with pytest.raises(RulesError):
        engine.check(hit, UsePerks(0, ("Time Jump I",)))


def test_p1067_time_jump_I_not_used_outside_its_decision() -> None:
    with pytest.raises(RulesError):  # before any action: nothing to undo
        engine.check(_game(["Time Jump I"]), UsePerks(0, ("Time Jump I",)))


def _skirmish_with(perk: str) -> SetupArgs:
    """The skirmish rosters, every unit with ``perk``, without the perk use automation."""
    rosters = []
    for f in ("skirmish_a.yaml", "skirmish_b.yaml"):
        data = roster_to_data(load_game_roster(ROSTERS / f))
        for u in data["units"]:
            u["unit"]["perks"] = [*u["unit"].get("perks", []), perk]
        rosters.append(data)
    return SetupArgs(tuple(rosters), None, {"automation": sorted(a.value for a in MANUAL)})


def test_p1067_time_jump_I_a_protocol_decision_that_survives_a_saved_state() -> None:
    ws = WarsurgeRuleset()
    seen: list[WarsurgeState] = []
    run_game(ws, _skirmish_with("Time Jump I"), [], 3, automate={"*"},
             on_step=lambda s, _e: seen.append(s))  # fmt: skip
    waiting = [s for s in seen if s.game.rewind is not None and not ws.is_over(s)]
    offer = next(s for s in waiting if ws.pending(s)[0].kind == "time jump")
    (decision,) = ws.pending(offer)
    assert decision.default == Pass() and "Time Jump I" in decision.prompt
    back = ws.states.load(json.loads(json.dumps(ws.states.dump(offer))))
    assert ws.digest(back) == ws.digest(offer) and ws.pending(back) == ws.pending(offer)
    undo = UsePerks(offer.game.rewind.unit, ("Time Jump I",))
    a, _ = engine.apply(offer.game, undo)
    b, _ = engine.apply(back.game, undo)
    assert (
        canonical_json(a)
        == canonical_json(b)
        == canonical_json(replace(offer.game.rewind.before, step=a.step, units=a.units))
    )


# -- the engine's choice under the perk use automation (ruling 3) ----------------------------------


def test_p1067_time_jump_I_engine_retries_an_attack_that_took_no_hp() -> None:
    dice = ScriptedDice([1, 6])  # a miss, undone, then a hit on the new attempt
    state = _game(["Time Jump I"], automated=True)
    after, events = engine.apply(state, Attack(0, (("Gun", 1),)), dice=dice)
    check_invariants(after)
    assert _hp(after, 1) == 2 and dice.remaining == 0 and after.rewind is None
    assert after.units[0].used("Time Jump I") == 1 and after.units[0].acted
    assert [e.kind for e in events] == ["attack", "perk", "attack"]
    # without the perk the miss stands
    plain, _ = engine.apply(
        _game([], automated=True), Attack(0, (("Gun", 1),)), dice=ScriptedDice([1, 6])
    )
    assert _hp(plain, 1) == 3


def test_p1067_time_jump_I_engine_keeps_a_hit_and_a_move() -> None:
    hit, _ = engine.apply(
        _game(["Time Jump I"], automated=True), Attack(0, (("Gun", 1),)), dice=ScriptedDice([6])
    )
    assert _hp(hit, 1) == 2 and hit.rewind is None and hit.units[0].used("Time Jump I") == 0
    moved, _ = engine.apply(
        _game(["Time Jump I"], Phase.MOVE, automated=True), Move(0, to=(20.0, 4.0))
    )
    assert moved.rewind is None and moved.units[0].used("Time Jump I") == 0


# -- Time Jump II (L1079): once each Game Turn -------------------------------------------------


def test_p1079_time_jump_II_once_each_game_turn() -> None:
    state = _game(["Time Jump II"])
    hit = _shoot(state, [6])
    back, _ = engine.apply(hit, UsePerks(0, ("Time Jump II",)))
    assert _hp(back, 1) == 3 and back.units[0].counter("used Time Jump II") == back.flow.turn
    assert back.units[0].used("Time Jump II") == 0  # no Limited Use
    assert _shoot(back, [6]).rewind is None  # this Game Turn's use is gone
    # the next Game Turn it is there again
    last = replace(state.units[0], counters=(("used Time Jump II", state.flow.turn - 1),))
    assert _shoot(replace(state, units=(last, *state.units[1:])), [6]).rewind is not None


# -- the Advanced playstyle: "after the Unit has been used, but before that Unit makes another
# action again" (L1075), the use paid in CP (L234) -------------------------------------------------


def _advanced(state: GameState) -> GameState:
    from warbench.rulesets.warsurge.game.advstate import AdvancedFlow, Playstyle

    setup = replace(state.setup, playstyle=Playstyle.ADVANCED)
    flow = replace(state.flow, phase=Phase.ACTIONS, adv=AdvancedFlow(cp=(20, 20)))
    return replace(state, setup=setup, flow=flow)


def test_p1067_time_jump_I_undoes_an_advanced_move_action_for_cp() -> None:
    state = _advanced(_game(["Time Jump I"]))
    moved, _ = engine.apply(state, Move(0, to=(20.0, 4.0)))
    assert moved.rewind is not None and engine.acting_side(moved) == 0
    back, events = engine.apply(moved, UsePerks(0, ("Time Jump I",)))
    check_invariants(back)
    assert back.units[0].pos == state.units[0].pos
    cost = state.flow.adv.cost(0, "Use Perks")  # type: ignore[union-attr]
    assert back.flow.adv.cp[0] == state.flow.adv.cp[0] - cost  # type: ignore[union-attr]
    assert any(e.kind == "action" and "Time Jump I" in e.text for e in events)
