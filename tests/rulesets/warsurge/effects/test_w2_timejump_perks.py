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
from warbench.rulesets.warsurge.game.actions import Attack, Disembark, Embark, Move, Pass
from warbench.rulesets.warsurge.game.actions_advanced import UsePerks
from warbench.rulesets.warsurge.game.io import load_game_roster, roster_to_data
from warbench.rulesets.warsurge.game.protocol import WarsurgeRuleset, WarsurgeState
from warbench.rulesets.warsurge.game.state import (
    ALL_AUTOMATIONS,
    Automation,
    GameState,
    Location,
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


def test_p1067_time_jump_I_waits_for_the_casualties_then_undoes_them() -> None:
    # ruling 1: the decision comes once the Attack Sequence is over (its casualties chosen)
    auto = MANUAL - {Automation.CASUALTY_SELECTION}
    jumper = entry(unit("Jumper", hp=3, perks=["Time Jump I"], weapons=[weapon("Gun", range=30)]))
    squad = entry(unit("Squad", hp=1, models=2))
    state = scenario([[jumper], [squad]], {0: [(20.0, 10.0)], 1: [(20.0, 20.0), (21.5, 20.0)]},
                     phase=Phase.ATTACK, automation=auto)  # fmt: skip
    paused = _shoot(state, [6])
    assert paused.pause is not None and engine.acting_side(paused) == 1  # the casualty first
    chosen, _ = engine.apply(paused, engine.default_casualties(paused))
    assert chosen.pause is None and engine.acting_side(chosen) == 0
    assert list(engine.LegalActions(chosen)) == [UsePerks(0, ("Time Jump I",)), Pass()]
    back, _ = engine.apply(chosen, UsePerks(0, ("Time Jump I",)))
    check_invariants(back)
    assert back.units[1].hp == (1, 1) and not back.units[0].acted


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


# -- Imprison (L821): a pseudo-transport holding an enemy unit ---------------------------------


def _jail(
    jailer_perks: tuple[str, ...] = ("Imprison",),
    prisoner_points: int = 80,
    *,
    phase: Phase = Phase.ATTACK,
    automated: bool = False,
    transport: int = 0,
    gunner_at: tuple[float, float] = (30.0, 20.0),
) -> GameState:
    """Side 0's Jailer (unit 0, 100 points, 3 HP) in a Melee with side 1's Prisoner (unit 2,
    ``prisoner_points``, 2 HP); side 0's Gunner (unit 1, a Gun) stands apart."""
    stats = {"transport": transport} if transport else {}
    blade = weapon("Blade", range=0)
    jailer = entry(unit("Jailer", hp=3, perks=list(jailer_perks), weapons=[blade], **stats))
    gunner = entry(unit("Gunner", hp=2, weapons=[weapon("Gun", range=30)]), points=80)
    prisoner = entry(
        unit("Prisoner", hp=2, weapons=[weapon("Knife", range=0)]), points=prisoner_points
    )
    auto = {} if automated else {"automation": MANUAL}
    return scenario(
        [[jailer, gunner], [prisoner]],
        {0: [(20.0, 10.0)], 1: [gunner_at], 2: [(20.0, 11.0)]},
        phase=phase,
        engaged=[(0, 2)],
        **auto,  # type: ignore[arg-type]
    )


def _imprisoned(faces: list[int], state: GameState | None = None) -> GameState:
    start = state or _jail()
    after, _ = engine.apply(start, UsePerks(0, ("Imprison: 2",)), dice=ScriptedDice(faces))
    check_invariants(after)
    return after


def _prisoners_turn(state: GameState) -> GameState:
    return replace(state, flow=replace(state.flow, active=1))


def test_p821_imprison_holds_the_target_inside_the_user_in_a_melee() -> None:
    after = _imprisoned([6])
    p = after.units[2]
    assert p.location is Location.EMBARKED and p.embarked_in == 0 and after.engaged == frozenset()
    # the Jailer attacks its prisoner as in a Melee; nobody else of its side reaches it
    assert engine.can(after, Attack(0, (("Blade", 2),)))
    with pytest.raises(RulesError, match="inside"):
        engine.check(after, Attack(1, (("Gun", 2),)))
    hit, _ = engine.apply(after, Attack(0, (("Blade", 2),)), dice=ScriptedDice([6]))
    assert sum(hit.units[2].hp) == 1
    # the Prisoner attacks the Jailer from inside
    assert engine.acting_side(hit) == 1 and engine.can(hit, Attack(2, (("Knife", 0),)))
    # without Imprison the Gunner may shoot the (un-imprisoned) Prisoner
    assert engine.can(_jail(jailer_perks=()), Attack(1, (("Gun", 2),)))


def test_p821_imprison_fails_its_mastery_test_and_needs_a_lesser_target() -> None:
    failed = _imprisoned([1])
    assert failed.units[2].location is Location.TABLE and failed.engaged
    assert failed.units[0].counter("used Imprison") == failed.flow.turn  # once a Game Turn
    with pytest.raises(RulesError, match="Point Cost"):  # the Prisoner costs more: refused
        engine.check(_jail(prisoner_points=120), UsePerks(0, ("Imprison: 2",)))
    with pytest.raises(RulesError):  # without the perk nothing to use
        engine.check(_jail(jailer_perks=()), UsePerks(0, ("Imprison: 2",)))


def test_p821_imprisoned_unit_cannot_disembark() -> None:
    state = _imprisoned([6])
    moving = replace(state, flow=replace(state.flow, phase=Phase.MOVE, active=1))
    with pytest.raises(RulesError, match="Imprisoned"):
        engine.check(moving, Disembark(2, to=(20.0, 14.0)))


def test_p821_destroying_the_user_sends_the_prisoner_into_its_reserve() -> None:
    state = _imprisoned([6])
    low = replace(state.units[0], hp=(1,))
    state = _prisoners_turn(replace(state, units=(low, *state.units[1:])))
    after, events = engine.apply(state, Attack(2, (("Knife", 0),)), dice=ScriptedDice([6] * 4))
    while after.flow.phase is Phase.ATTACK:  # casualties leave as the Attack Phase ends
        after, more = engine.apply(after, Pass())
        events += more
    check_invariants(after)
    assert after.units[0].location is Location.DESTROYED
    assert after.units[2].location is Location.RESERVE and not after.units[2].statuses
    assert any("goes into Reserve (Imprison)" in e.text for e in events)


def test_p821_a_prisoner_costing_more_than_the_user_disembarks_at_once() -> None:
    # the Prisoner (80 points) strikes the Jailer (100 points, 3 HP): at 2 HP it costs 66.7
    state = _prisoners_turn(_imprisoned([6]))
    after, events = engine.apply(state, Attack(2, (("Knife", 0),)), dice=ScriptedDice([6] * 4))
    check_invariants(after)
    assert sum(after.units[0].hp) == 2
    p = after.units[2]
    assert p.location is Location.TABLE and not p.statuses and (0, 2) in after.engaged
    assert any("disembarks at once (Imprison)" in e.text for e in events)
    # a Prisoner of 60 points still costs less than the hurt Jailer: it stays
    cheap = _prisoners_turn(_imprisoned([6], _jail(prisoner_points=60)))
    kept, _ = engine.apply(cheap, Attack(2, (("Knife", 0),)), dice=ScriptedDice([6] * 4))
    assert kept.units[2].location is Location.EMBARKED


def test_p821_the_engine_imprisons_as_the_attack_phase_starts() -> None:
    state = _jail(phase=Phase.MOVE, automated=True)
    after, events = engine.apply(state, Pass(), dice=ScriptedDice([6] * 10))
    after, more = engine.apply(after, Pass(), dice=ScriptedDice([6] * 10))
    assert after.flow.phase is Phase.ATTACK
    assert after.units[2].location is Location.EMBARKED and after.units[2].embarked_in == 0
    assert any("Imprisons" in e.text for e in [*events, *more])


def _with_prisoner_perks(perks: list[str]) -> GameState:
    state = _jail()
    prisoner = state.setup.units[2]
    profile = prisoner.unit.profile.model_copy(update={"perks": perks})
    info = replace(prisoner, unit=prisoner.unit.model_copy(update={"profile": profile}))
    setup = replace(state.setup, units=(*state.setup.units[:2], info))
    return replace(state, setup=setup)


def test_p821_vanish_escapes_imprison() -> None:
    state = _prisoners_turn(_imprisoned([6], _with_prisoner_perks(["Vanish"])))
    after, events = engine.apply(state, UsePerks(2, ("Vanish",)), dice=ScriptedDice([6]))
    while after.flow.phase is Phase.ATTACK:  # Vanish: into Reserve as the Phase ends
        after, more = engine.apply(after, Pass())
        events += more
    assert after.units[2].location is Location.RESERVE and after.units[0].location is Location.TABLE


def test_p1152_breach_breaks_free_from_imprison_with_disengage() -> None:
    from warbench.rulesets.warsurge.game.state import Status

    state = _imprisoned([6], _with_prisoner_perks(["Breach"]))
    moving = replace(state, flow=replace(state.flow, phase=Phase.MOVE, active=1))
    out = Disembark(2, to=(20.0, 14.0))
    with pytest.raises(RulesError, match="Disengage"):
        engine.check(moving, out)
    p = moving.units[2]
    free = replace(p, statuses=(*p.statuses, Status("Disengage", 1, "u2/Disengage")))
    free_state = replace(moving, units=(*moving.units[:2], free))
    after, _ = engine.apply(free_state, out)
    assert after.units[2].location is Location.TABLE


def test_p821_the_users_transport_stat_is_not_used_for_the_prisoner() -> None:
    # L829: "If the User also has a Transport Stat, it is not used for this Perk (it is only
    # used for friendly Units that embark it)": the 80-point Gunner still fits in 100 points
    jail = _jail(transport=100, gunner_at=(22.0, 10.0))
    state = _imprisoned([6], jail)
    moving = replace(state, flow=replace(state.flow, phase=Phase.MOVE, active=0))
    after, _ = engine.apply(moving, Embark(1, 0))
    check_invariants(after)
    assert after.units[1].embarked_in == 0 and after.units[2].embarked_in == 0


def test_p821_the_prisoner_goes_into_reserve_with_its_user() -> None:
    # L845: "If the User goes into Reserve, the Imprisoned Unit will go with them"
    state = _imprisoned([6], _jail(jailer_perks=("Imprison", "Vanish")))
    after, events = engine.apply(state, UsePerks(0, ("Vanish",)), dice=ScriptedDice([6]))
    while after.flow.phase is Phase.ATTACK:
        after, more = engine.apply(after, Pass())
        events += more
    check_invariants(after)
    assert after.units[0].location is Location.RESERVE
    assert after.units[2].location is Location.RESERVE and not after.units[2].statuses
