"""Ability and Roster ranks of session 25, lane s25-ability, played in a game (Perks
000_94ecc6a4c74d351b.txt): Jinx (L859), Lucky (L867), Architect of Destiny (L4250), Deny
(L4300) … Test names carry the rank's source line (``p859`` …), which
``warbench perks --coverage`` reads (``scripts/build_perk_coverage.py``)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from tests.rulesets.warsurge.effects.play_helpers import pass_while, to_phase_end, to_turn_end
from tests.warsurge.game.helpers import check_invariants, entry, scenario, unit, weapon
from warbench.kernel.dice import ScriptedDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack
from warbench.rulesets.warsurge.game.actions_advanced import UsePerks
from warbench.rulesets.warsurge.game.events import Event
from warbench.rulesets.warsurge.game.state import (
    ALL_AUTOMATIONS,
    Automation,
    GameState,
    Location,
    Phase,
    Status,
)

# -- rerolls of tests: Jinx (L859), Lucky (L867), Architect of Destiny (L4250), Deny (L4300) ------


def _provoker(
    mine: list[str] = (),  # type: ignore[assignment]
    theirs: list[str] = (),  # type: ignore[assignment]
    gap: float = 10.0,
    automated: bool = True,
) -> GameState:
    """Side 0's Bait (unit 0: Provoke I and ``mine``) and side 1's Watcher (unit 1:
    ``theirs``) ``gap``" apart edge to edge, in side 0's Attack Phase (Provoke is used by the
    player: a Mastery Test, then the enemy within 12" must Target the Bait)."""
    bait = entry(unit("Bait", hp=3, perks=["Provoke I", *mine]))
    watcher = entry(unit("Watcher", hp=3, perks=list(theirs), weapons=[weapon("Gun", range=30)]))
    auto = {} if automated else {"automation": ALL_AUTOMATIONS - {Automation.PERK_USE}}
    return scenario(
        [[bait], [watcher]],
        {0: [(20.0, 10.0)], 1: [(20.0, 11.0 + gap)]},
        phase=Phase.ATTACK,
        **auto,  # type: ignore[arg-type]
    )


def _provoke(state: GameState, faces: list[int]) -> tuple[GameState, list[Event], ScriptedDice]:
    dice = ScriptedDice(faces)
    after, events = engine.apply(state, UsePerks(0, ("Provoke I",)), dice=dice)
    check_invariants(after)
    return after, events, dice


def _provoked(state: GameState) -> bool:
    return any(s.name == "Provoke" for s in state.units[1].statuses)


def test_p867_lucky_rerolls_its_own_failed_mastery_test() -> None:
    after, events, dice = _provoke(_provoker(["Lucky"]), [1, 5])
    assert _provoked(after) and dice.remaining == 0
    assert any("Bait rerolls its Provoke I test (Lucky)" in e.text for e in events)
    assert after.units[0].counter("Lucky used") == after.flow.turn
    # without Lucky, or without the perk use automation, the 1 stands
    assert not _provoked(_provoke(_provoker([]), [1, 5])[0])
    assert not _provoked(_provoke(_provoker(["Lucky"], automated=False), [1, 5])[0])


def test_p867_lucky_once_per_game_turn_and_back_the_next() -> None:
    state = _provoker(["Lucky"])
    used = replace(state.units[0], counters=(("Lucky used", state.flow.turn),))
    spent = replace(state, units=(used, state.units[1]))
    after, _, dice = _provoke(spent, [1, 5])
    assert not _provoked(after) and dice.remaining == 1  # no reroll this Game Turn
    last_turn = replace(state.units[0], counters=(("Lucky used", state.flow.turn - 1),))
    after, _, _ = _provoke(replace(state, units=(last_turn, state.units[1])), [1, 5])
    assert _provoked(after)  # "You cannot stack" / once per Game Turn: a new one each turn


def test_p867_lucky_keeps_a_passed_test() -> None:
    after, _, dice = _provoke(_provoker(["Lucky"]), [5])
    assert _provoked(after) and after.units[0].counter("Lucky used") == 0 and not dice.remaining


def test_p859_jinx_rerolls_an_enemy_units_passed_test_within_24_inches() -> None:
    after, events, _ = _provoke(_provoker(theirs=["Jinx"], gap=10.0), [5, 2])
    assert not _provoked(after)
    assert any("Watcher rerolls P0: Bait's Provoke I test (Jinx)" in e.text for e in events)
    assert after.units[1].counter("Jinx used") == after.flow.turn
    # no Jinx: the 5 stands
    assert _provoked(_provoke(_provoker(gap=10.0), [5, 2])[0])


def test_p859_jinx_reaches_24_inches_and_no_further() -> None:
    # Provoke I needs an enemy within 12" to be used at all: the Jinx unit is a third one
    bait = entry(unit("Bait", hp=3, perks=["Provoke I"]))
    near = entry(unit("Near", hp=3, weapons=[weapon("Gun", range=30)]))
    jinx = entry(unit("Jinxer", hp=3, perks=["Jinx"]))

    def state(jinx_gap: float) -> GameState:
        return scenario([[bait], [near, jinx]],
                        {0: [(20.0, 10.0)], 1: [(20.0, 20.0)], 2: [(21.0 + jinx_gap, 10.0)]},
                        phase=Phase.ATTACK)  # fmt: skip

    def provoked(st: GameState) -> bool:
        after, _ = engine.apply(st, UsePerks(0, ("Provoke I",)), dice=ScriptedDice([5, 2]))
        return any(s.name == "Provoke" for s in after.units[1].statuses)

    assert not provoked(state(23.5))  # the Jinxer 23.5" from the Bait: rerolled
    assert provoked(state(24.5))  # beyond 24": the 5 stands


def test_p859_jinx_then_lucky_rerolls_the_rerolled_die() -> None:
    # "This can occur even if the dice has already been rerolled" (L859, L867): Jinx turns the
    # 5 into a 2, the Bait's Lucky rerolls the 2 into a 6
    after, events, dice = _provoke(_provoker(["Lucky"], ["Jinx"]), [5, 2, 6])
    assert _provoked(after) and dice.remaining == 0
    texts = [e.text for e in events]
    jinx = next(i for i, t in enumerate(texts) if "(Jinx)" in t)
    lucky = next(i for i, t in enumerate(texts) if "(Lucky)" in t)
    assert jinx < lucky


def test_p4250_architect_of_destiny_rerolls_its_players_failed_test() -> None:
    after, events, _ = _provoke(_provoker(["Architect of Destiny"]), [2, 6])
    assert _provoked(after)
    assert any("P0 rerolls its Provoke I test (Architect of Destiny)" in e.text for e in events)
    assert not _provoked(_provoke(_provoker([]), [2, 6])[0])


def test_p4250_architect_of_destiny_rerolls_an_opponents_dice_too() -> None:
    # "It doesn't matter whose dice it was or who rolled the dice"
    after, events, _ = _provoke(_provoker(theirs=["Architect of Destiny"]), [4, 3])
    assert not _provoked(after)
    assert any(
        "P1 rerolls P0: Bait's Provoke I test (Architect of Destiny)" in e.text for e in events
    )


def test_p4250_architect_of_destiny_once_per_game_turn_for_the_player() -> None:
    # one reroll a Game Turn whichever unit carries it: spent, the failed test stands
    state = _provoker(["Architect of Destiny"])
    used = replace(state.units[0], counters=(("Architect of Destiny used", state.flow.turn),))
    after, _, dice = _provoke(replace(state, units=(used, state.units[1])), [2, 6])
    assert not _provoked(after) and dice.remaining == 1


def test_p4300_deny_a_6_makes_the_opponents_perk_fail() -> None:
    after, events, dice = _provoke(_provoker(theirs=["Deny"]), [6])
    assert not _provoked(after) and dice.remaining == 0  # the Deny D6; no Mastery Test rolled
    assert any("P1 denies P0: Bait's Provoke I: rolled 6, it counts as failed" in e.text
               for e in events)  # fmt: skip
    assert after.units[1].counter("Deny used") == after.flow.turn
    # the perk's Game Turn is used all the same
    assert after.units[0].counter("used Provoke I") == after.flow.turn


def test_p4300_deny_below_6_the_perk_goes_on() -> None:
    after, events, dice = _provoke(_provoker(theirs=["Deny"]), [5, 4])
    assert _provoked(after) and dice.remaining == 0
    assert any("rolled 5, it stands (Deny)" in e.text for e in events)


def test_p4300_deny_does_not_consume_limited_use() -> None:
    # Blink I (Limited Use (1), Activate): denied, it is not spent and no model moves
    me = entry(unit("Jumper", hp=3, perks=["Blink I"]))
    foe = entry(unit("Foe", hp=3, perks=["Deny"]))
    state = scenario([[me], [foe]], {0: [(20.0, 5.0)], 1: [(20.0, 40.0)]}, phase=Phase.MOVE)
    action = UsePerks(0, ("Blink I: 20,10",))
    after, events = engine.apply(state, action, dice=ScriptedDice([6]))
    check_invariants(after)
    assert after.units[0].pos == state.units[0].pos
    assert after.units[0].uses == state.units[0].uses
    assert any("denies P0: Jumper's Blink I" in e.text for e in events)
    nxt = replace(after, flow=replace(after.flow, turn=after.flow.turn + 1))
    engine.check(nxt, action)  # still there to use next Game Turn
    # with a 3 the Deny fails: the Jumper blinks and the use is spent
    moved, _ = engine.apply(state, action, dice=ScriptedDice([3]))
    assert moved.units[0].pos != state.units[0].pos
    assert moved.units[0].uses != state.units[0].uses


def _freezer(target_perks: list[str], attacker_perks: list[str] = ()) -> GameState:  # type: ignore[assignment]
    """Side 0's Zealots (a Torch with Freeze: a Skill Test per HP lost) 4" from side 1's Foe
    (``target_perks``, no Saves), in side 0's Attack Phase."""
    torch = weapon("Torch", range=12, attacks=1, power=8, perks=["Freeze"])
    me = entry(unit("Zealots", hp=3, perks=list(attacker_perks), weapons=[torch]))
    foe = entry(unit("Foe", hp=5, perks=list(target_perks)))
    return scenario([[me], [foe]], {0: [(24.0, 10.0)], 1: [(24.0, 14.0)]}, phase=Phase.ATTACK)


def _torch(state: GameState, faces: list[int]) -> tuple[GameState, list[Event], ScriptedDice]:
    dice = ScriptedDice(faces)
    after, events = engine.apply(state, Attack(0, (("Torch", 1),)), dice=dice)
    check_invariants(after)
    return after, events, dice


def _frozen(state: GameState) -> bool:
    return any(s.name.startswith("Freeze") for s in state.units[1].statuses)


def test_p867_lucky_rerolls_an_enemy_test_directed_at_it() -> None:
    # "It can also reroll enemy dice directed at this Unit": the Torch's Attack Dice (6), the
    # Freeze Skill Test against the Lucky Foe (5) rerolled (2)
    after, events, dice = _torch(_freezer(["Lucky"]), [6, 5, 2])
    assert not _frozen(after) and dice.remaining == 0
    assert any("Foe rerolls P0: Zealots's Freeze test (Lucky)" in e.text for e in events)
    assert _frozen(_torch(_freezer([]), [6, 5, 2])[0])


def test_p4300_deny_a_passed_skill_test_of_an_opponent() -> None:
    # no reroll to turn it: Deny's D6, a 6, and the passed Freeze test counts as failed
    after, events, _ = _torch(_freezer(["Deny"]), [6, 5, 6])
    assert not _frozen(after)
    assert any("denies P0: Zealots's Freeze test: rolled 6, it counts as failed" in e.text
               for e in events)  # fmt: skip
    assert _frozen(_torch(_freezer(["Deny"]), [6, 5, 1])[0])


def test_p867_lucky_attacker_rerolls_its_failed_affliction_test() -> None:
    after, _, _ = _torch(_freezer([], ["Lucky"]), [6, 1, 4])
    assert _frozen(after)
    assert not _frozen(_torch(_freezer([]), [6, 1, 4])[0])


def _armoured(perks: list[str]) -> GameState:
    """Side 0's Mystic (Magic Armour I: an Aether Test, 2D6 9 or lower) and ``perks``; side 1's
    Foe, in side 0's Move Phase."""
    me = entry(unit("Mystic", hp=5, perks=["Magic Armour I", *perks]))
    foe = entry(unit("Foe", hp=3))
    return scenario([[me], [foe]], {0: [(20.0, 5.0)], 1: [(20.0, 40.0)]}, phase=Phase.MOVE)


def test_p4250_architect_of_destiny_rerolls_the_2d6_of_an_aether_test() -> None:
    # "One dice roll": the 2D6 of the Aether Test (5 + 5 = 10, failed) rolled again (2 + 3)
    dice = ScriptedDice([5, 5, 2, 3])
    after, events = engine.apply(_armoured(["Architect of Destiny"]),
                                 UsePerks(0, ("Magic Armour I",)), dice=dice)  # fmt: skip
    check_invariants(after)
    assert dice.remaining == 0 and any(s.name.startswith("Magic Armour") for s in
                                       after.units[0].statuses)  # fmt: skip
    assert any("(Architect of Destiny): Aether Test" in e.text for e in events)
    # Lucky rerolls "one dice", not a 2D6 roll: the 10 stands
    dice = ScriptedDice([5, 5, 2, 3])
    after, _ = engine.apply(_armoured(["Lucky"]), UsePerks(0, ("Magic Armour I",)), dice=dice)
    assert dice.remaining == 2
    assert not any(s.name.startswith("Magic Armour") for s in after.units[0].statuses)


def test_p4300_deny_is_not_a_perk_the_unit_uses_itself() -> None:
    # Deny answers an opponent's roll or perk: never offered as a Use Perks of its own unit
    state = _provoker(theirs=["Deny"])
    state = replace(state, flow=replace(state.flow, active=1))
    assert UsePerks(1, ("Deny",)) not in list(engine.legal_actions(state))
    with pytest.raises(RulesError, match="not an activated perk"):
        engine.check(state, UsePerks(1, ("Deny",)))


# -- Nightmare Anomaly (L4354) ---------------------------------------------------------------------


def _nightmare(
    foe_hp: int = 3,
    foe_at: tuple[float, float] = (24.0, 30.0),
    automated: bool = True,
    **foe: object,
) -> GameState:
    """Side 0's Dreamers (unit 0, carrying Nightmare Anomaly, a Gun) at (24, 24); side 1's Foe
    (unit 1, 3 HP a model, ``foe``) at ``foe_at``, with ``foe_hp`` HP left; side 1's Attack
    Phase of Game Turn 2."""
    dreamers = entry(unit("Dreamers", hp=3, perks=["Nightmare Anomaly"],
                          weapons=[weapon("Gun", range=30, power=10, attacks=1)]))  # fmt: skip
    target = entry(unit("Foe", hp=3, **foe))  # type: ignore[arg-type]
    auto = {} if automated else {"automation": ALL_AUTOMATIONS - {Automation.PERK_USE}}
    state = scenario([[dreamers], [target]], {0: [(24.0, 24.0)], 1: [foe_at]},
                     phase=Phase.ATTACK, **auto)  # type: ignore[arg-type]  # fmt: skip
    foe_u = replace(state.units[1], hp=(foe_hp,))
    return replace(state, units=(state.units[0], foe_u))


def _anomaly(state: GameState, faces: list[int]) -> tuple[GameState, list[Event], ScriptedDice]:
    """The Game Turn's start as the TURN_START hook plays it (Nightmare Anomaly on the Foe)."""
    from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
    from warbench.rulesets.warsurge.game.perk_nightmare import at_turn_start
    from warbench.rulesets.warsurge.game.work import Work

    dice = ScriptedDice(faces)
    w = Work(state, dice, DEFAULT_HOOKS)
    at_turn_start(w, state.flow.turn)
    after = w.state()
    check_invariants(after)
    return after, w.events, dice


def test_p4354_nightmare_anomaly_rolls_as_each_game_turn_starts() -> None:
    def next_turn(state: GameState) -> list[Event]:
        return to_turn_end(state, seed=7)[1]

    events = next_turn(_nightmare())
    rolled = [e for e in events if "P0's Nightmare Anomaly on P1: Foe: rolled" in e.text]
    assert len(rolled) == 1  # once, on the enemy unit
    assert not any("Nightmare Anomaly" in e.text for e in next_turn(_nightmare(automated=False)))


def test_p4354_nightmare_anomaly_the_engine_picks_an_enemy_at_full_hp() -> None:
    after, events, _ = _anomaly(_nightmare(foe_hp=1), [4, 2])  # the only enemy: wounded
    assert any("on P1: Foe: rolled 4" in e.text for e in events)
    assert after.units[1].hp == (3,)  # 4: D6 HP restored (2, up to its full 3)


def test_p4354_nightmare_anomaly_1_teleports_with_the_scatter_arrow() -> None:
    # 1, the Scatter Arrow 3 (no Hit), distance 2 + 2, direction N (faces 1, 1)
    after, events, dice = _anomaly(_nightmare(), [1, 3, 2, 2, 1, 1])
    assert dice.remaining == 0
    assert after.units[1].pos[0] == (24.0, 34.0)
    assert any('teleports 4" N' in e.text for e in events)
    # off the board edge: into Reserve
    after, events, _ = _anomaly(_nightmare(foe_at=(24.0, 46.0)), [1, 3, 2, 2, 1, 1])
    assert after.units[1].location.value == "reserve"
    assert any("goes into Reserve (Nightmare Anomaly)" in e.text for e in events)
    # a Hit: it stays
    after, _, _ = _anomaly(_nightmare(), [1, 6, 2, 2])
    assert after.units[1].pos[0] == (24.0, 30.0)


def _shot(state: GameState, faces: list[int]) -> tuple[GameState, ScriptedDice]:
    """The Foe (side 1) is shot by the Dreamers' Gun in side 0's Attack Phase."""
    state = replace(state, flow=replace(state.flow, active=0))
    dice = ScriptedDice(faces)
    after, _ = engine.apply(state, Attack(0, (("Gun", 1),)), dice=dice)
    check_invariants(after)
    return after, dice


def test_p4354_nightmare_anomaly_2_defence_up_and_failed_saves_rerolled() -> None:
    state, _, _ = _anomaly(_nightmare(armour=4), [2])
    assert any(s.name == "Nightmare Anomaly (2)" for s in state.units[1].statuses)
    from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
    from warbench.rulesets.warsurge.game.work import Work, to_unit_state

    assert to_unit_state(Work(state, None, DEFAULT_HOOKS), 1).profile.defence == 5
    # Power 10 against Defence 5 hits automatically; the Armour Save 2 (failed) rerolled: 5
    after, dice = _shot(state, [2, 5])
    assert after.units[1].hp == (3,) and dice.remaining == 0
    plain, dice = _shot(_nightmare(armour=4), [2, 5])
    assert plain.units[1].hp == (2,) and dice.remaining == 1


def test_p4354_nightmare_anomaly_3_defence_down_and_successful_saves_rerolled() -> None:
    state, _, _ = _anomaly(_nightmare(armour=4), [3])
    # the Armour Save 5 (saved) rerolled: 1, failed (the Attack Dice hit automatically)
    after, dice = _shot(state, [5, 1])
    assert after.units[1].hp == (2,) and dice.remaining == 0
    plain, dice = _shot(_nightmare(armour=4), [5, 1])
    assert plain.units[1].hp == (3,) and dice.remaining == 1


def test_p4354_nightmare_anomaly_4_restores_d6_hp_and_casualties_in_coherency() -> None:
    dreamers = entry(unit("Dreamers", hp=3, perks=["Nightmare Anomaly"]))
    foes = entry(unit("Foes", models=3, hp=2))
    state = scenario([[dreamers], [foes]], {0: [(24.0, 10.0)], 1: [(20.0, 30.0), (21.5, 30.0),
                     (23.0, 30.0)]}, phase=Phase.ATTACK)  # fmt: skip
    u = replace(state.units[1], hp=(1, 0, 0), removed=(False, True, True))
    state = replace(state, units=(state.units[0], u))
    from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
    from warbench.rulesets.warsurge.game.perk_nightmare import apply
    from warbench.rulesets.warsurge.game.work import Work

    w = Work(state, ScriptedDice([4, 4]), DEFAULT_HOOKS)
    apply(w, 0, 1)  # side 0's Nightmare Anomaly on the Foes (a 4, then 4 HP)
    after = w.state()
    check_invariants(after)
    assert sum(after.units[1].hp) == 5 and after.units[1].living() == [0, 1, 2]


def test_p4354_nightmare_anomaly_5_d6_attack_dice_at_power_10_without_saves() -> None:
    # 5, then D6 = 2 Attack Dice (Power 10 against Defence 4: automatic hits): 2 HP lost,
    # no Armour (2+) or AEGIS (2+) Save rolled
    after, events, dice = _anomaly(_nightmare(armour=2, aegis=2), [5, 2])
    assert after.units[1].hp == (1,) and dice.remaining == 0
    assert any("2 Attack Dice at Power 10, no Armour or AEGIS Save: 2 HP lost" in e.text
               for e in events)  # fmt: skip


def test_p4354_nightmare_anomaly_6_immune_to_hp_loss_this_game_turn() -> None:
    state, _, _ = _anomaly(_nightmare(), [6])
    after, _ = _shot(state, [])  # an automatic hit, no Save
    assert after.units[1].hp == (3,)
    plain, _ = _shot(_nightmare(), [])
    assert plain.units[1].hp == (2,)
    (s,) = [s for s in state.units[1].statuses if s.name == "Nightmare Anomaly (6)"]
    assert s.turns == 1


# -- Traitorous (L2313) and Enslaved (L1254): a unit turning against its own side ----------------

GUN10 = weapon("Gun", range=30, attacks=1, power=10)


def _turncoat(
    perk: str = "Traitorous", full: int = 16, left: int = 9, engaged: bool = False
) -> GameState:
    """Side 0's Shooter (unit 0, Power 10: it hits automatically) at (24, 10); side 1's Turncoat
    (unit 1, one model of ``full`` HP with ``left`` left, ``perk``) at (24, 20), or in Base
    Contact with the Shooter (``engaged``), and its Mate (unit 2, the most expensive other
    unit of side 1: the Enslaver) at (36, 30); side 0's Attack Phase."""
    shooter = entry(unit("Shooter", hp=5, weapons=[GUN10]))
    turncoat = entry(unit("Turncoat", hp=full, perks=[perk], weapons=[GUN10]))
    mate = entry(unit("Mate", hp=5, weapons=[GUN10]), points=200)
    at = (24.0, 11.0) if engaged else (24.0, 20.0)
    state = scenario([[shooter], [turncoat, mate]], {0: [(24.0, 10.0)], 1: [at], 2: [(36.0, 30.0)]},
                     phase=Phase.ATTACK, engaged=[(0, 1)] if engaged else ())  # fmt: skip
    u = replace(state.units[1], hp=(left,))
    return replace(state, units=(state.units[0], u, state.units[2]))


def _to_phase_end(state: GameState, first: object) -> tuple[GameState, list[Event]]:
    """Play ``first`` (side 0's action), then Pass until the Attack Phase has ended."""
    return to_phase_end(state, Phase.ATTACK, first=first, seed=3)


def _defected(state: GameState, uid: int = 1) -> bool:
    return any(s.name == "Defected" for s in state.units[uid].statuses)


@pytest.mark.parametrize(("full", "left", "turns"), [(16, 9, True), (16, 10, False),
                                                      (17, 9, True), (17, 10, False)])  # fmt: skip
def test_p2313_traitorous_example_16_or_17_hp_turns_at_8_hp(
    full: int, left: int, turns: bool
) -> None:
    # "A Unit starting with 16 HP or 17 HP will trigger Traitorous when it has 8 HP or less": the
    # Shooter's Gun takes 1 HP; the check comes as the Attack Phase's casualties are removed
    after, events = _to_phase_end(_turncoat(full=full, left=left), Attack(0, (("Gun", 1),)))
    assert after.units[1].hp == (left - 1,)
    assert _defected(after) is turns
    assert any("Turncoat turns against P1 (Traitorous" in e.text for e in events) is turns


def test_p2313_traitorous_only_when_casualties_are_removed() -> None:
    from warbench.kernel.dice import SeededDice

    after, _ = engine.apply(_turncoat(left=9), Attack(0, (("Gun", 1),)), dice=SeededDice(3))
    assert after.units[1].hp == (8,) and not _defected(after)  # still the Attack Phase
    # without the perk, no betrayal
    plain, _ = _to_phase_end(_turncoat(perk="Tough", left=9), Attack(0, (("Gun", 1),)))
    assert not _defected(plain)


def _betrayed(perk: str = "Traitorous", engaged: bool = False) -> GameState:
    state = _turncoat(perk, left=8, engaged=engaged)
    u = replace(state.units[1], statuses=(Status("Defected", None, perk),))
    return replace(state, units=(state.units[0], u, state.units[2]))


def test_p2313_a_traitor_is_an_enemy_of_its_own_side_and_attacks_the_closest_friend() -> None:
    state = _betrayed()
    assert state.enemies(1, 2) and state.enemies(2, 1) and state.enemies(0, 1)
    side1 = replace(state, flow=replace(state.flow, active=1))
    # its Weapons: only the closest unit of its former side (the Mate), not the Shooter
    with pytest.raises(RulesError, match="must Target the closest unit of P1: Turncoat's former"):
        engine.check(side1, Attack(1, (("Gun", 0),)))
    after, _ = engine.apply(side1, Attack(1, (("Gun", 2),)), dice=ScriptedDice([6] * 10))
    check_invariants(after)
    assert sum(after.units[2].hp) < 5
    # its former friends may attack it
    after, _ = engine.apply(side1, Attack(2, (("Gun", 1),)), dice=ScriptedDice([6] * 10))
    assert sum(after.units[1].hp) < 8
    # not betrayed: the Mate is no Target, and the Turncoat no Target of the Mate
    loyal = replace(_turncoat(left=8), flow=replace(side1.flow))
    with pytest.raises(RulesError, match="not an enemy unit"):
        engine.check(loyal, Attack(1, (("Gun", 2),)))


def test_p2313_a_traitor_moves_only_toward_the_closest_friend() -> None:
    from warbench.rulesets.warsurge.game.actions import Move

    state = replace(_betrayed(), flow=replace(_betrayed().flow, phase=Phase.MOVE, active=1))
    # the Mate stands 13.4" away: the Gun (30") reaches, so the Turncoat moves freely
    engine.check(state, Move(1, to=(24.0, 14.0)))
    far = replace(state.units[2], pos=((46.0, 47.0),))  # out of the Gun's Range now
    state = replace(state, units=(state.units[0], state.units[1], far))
    with pytest.raises(RulesError, match="must direct its Movement toward the closest unit"):
        engine.check(state, Move(1, to=(24.0, 14.0)))
    engine.check(state, Move(1, to=(28.0, 24.0)))


def test_p2313_a_traitor_leaves_its_melee_and_holds_no_objective() -> None:
    from warbench.rulesets.warsurge.game.perk_stealth import may_hold

    after, events = _to_phase_end(_turncoat(left=9, engaged=True), Attack(0, (("Gun", 1),)))
    assert _defected(after) and not any(1 in pair for pair in after.engaged)
    assert any("P1: Turncoat steps out of Base Contact (Traitorous)" in e.text for e in events)
    assert not may_hold(after, 1) and may_hold(after, 2)


def test_p2313_a_traitor_falls_when_no_friendly_unit_is_left() -> None:
    # the Mate destroyed by the Shooter: the Turncoat becomes a casualty
    state = _betrayed()
    mate = replace(state.units[2], hp=(1,))
    state = replace(state, units=(state.units[0], state.units[1], mate))
    after, events = _to_phase_end(state, Attack(0, (("Gun", 2),)))
    assert after.units[2].location.value == "destroyed"
    assert after.units[1].location.value == "destroyed"
    assert any("no friendly unit is left; it becomes a casualty" in e.text for e in events)


def test_p1254_enslaved_turns_when_its_enslaver_is_a_casualty() -> None:
    state = _turncoat("Enslaved", left=16)
    mate = replace(state.units[2], hp=(1,))
    third = state  # the Enslaver is the Mate (200 points, the most expensive)
    state = replace(third, units=(state.units[0], state.units[1], mate))
    after, events = _to_phase_end(state, Attack(0, (("Gun", 2),)))
    assert after.units[2].location.value == "destroyed"
    assert any("Turncoat turns against P1 (Enslaved: its Enslaver P1: Mate is a casualty)" in e.text
               for e in events)  # fmt: skip
    # its former side has no other unit left: it falls at once (L1262)
    assert after.units[1].location.value == "destroyed"


def test_p1254_enslaved_turns_when_its_enslaver_is_in_reserve_without_it() -> None:
    state = _turncoat("Enslaved", left=16)
    mate = replace(state.units[2], location=Location.RESERVE, pos=())
    after, events = _to_phase_end(replace(state, units=(state.units[0], state.units[1], mate)),
                                  Attack(0, (("Gun", 1),)))  # fmt: skip
    assert _defected(after)
    assert any("its Enslaver P1: Mate is in Reserve" in e.text for e in events)
    assert after.units[1].location.value == "table"  # the Mate, in Reserve, is no casualty
    # with its Enslaver on the battlefield, it stays loyal
    after, _ = _to_phase_end(_turncoat("Enslaved", left=16), Attack(0, (("Gun", 1),)))
    assert not _defected(after)


# -- Dominate (L745): a unit another side acts with for a Game Turn -----------------------------


def _dominion(
    brute_points: int = 100, gap: float = 9.0, automated: bool = True, **kw: object
) -> GameState:
    """Side 0's Mind (unit 0: Dominate, 100 points) at (24, 10); side 1's Brute (unit 1,
    ``brute_points``) ``gap``" away and its Other (unit 2) at (40, 40); the Deploy Phase of
    Game Turn 2 (every unit on the Battlefield)."""
    mind = entry(unit("Mind", hp=3, perks=["Dominate"], weapons=[GUN10]))
    brute = entry(unit("Brute", hp=3, weapons=[GUN10]), points=brute_points)
    other = entry(unit("Other", hp=3, weapons=[GUN10]))
    auto = {} if automated else {"automation": ALL_AUTOMATIONS - {Automation.PERK_USE}}
    return scenario([[mind], [brute, other]],
                    {0: [(24.0, 10.0)], 1: [(24.0, 11.0 + gap)], 2: [(40.0, 40.0)]},
                    phase=Phase.DEPLOY, **auto, **kw)  # type: ignore[arg-type]  # fmt: skip


def _end_deploy(state: GameState, faces: list[int]) -> tuple[GameState, list[Event]]:
    return to_phase_end(state, Phase.DEPLOY, dice=ScriptedDice(faces))


def _seized(state: GameState, uid: int = 1) -> bool:
    return state.units[uid].seized_by == 0


def test_p745_dominate_seizes_an_enemy_unit_at_the_end_of_the_deploy_phase() -> None:
    from warbench.rulesets.warsurge.game.actions import Move

    state, events = _end_deploy(_dominion(), [5])  # the Mastery Test: 5, passed
    assert state.flow.phase is Phase.MOVE and _seized(state)
    assert any("Mind seizes control of P1: Brute for the Game Turn (Dominate)" in e.text
               for e in events)  # fmt: skip
    # side 0 acts with the Brute, side 1 does not; the Mind makes no other Action
    mine = replace(state, flow=replace(state.flow, active=0))
    engine.check(mine, Move(1, to=(24.0, 24.0)))
    with pytest.raises(RulesError, match="is Dominating this Game Turn"):
        engine.check(mine, Move(0, to=(24.0, 6.0)))
    theirs = replace(state, flow=replace(state.flow, active=1))
    with pytest.raises(RulesError, match="P1: Brute belongs to P0; it is P1's turn"):
        engine.check(theirs, Move(1, to=(24.0, 24.0)))
    # a failed test seizes nothing; nor does a Target costing more than the Mind (Lesser)
    assert not _seized(_end_deploy(_dominion(), [2])[0])
    assert not _seized(_end_deploy(_dominion(brute_points=150), [])[0])
    assert not _seized(_end_deploy(_dominion(gap=19.0), [])[0])  # beyond 18"
    assert not _seized(_end_deploy(_dominion(automated=False), [])[0])


def test_p745_the_seized_unit_attacks_its_own_side_and_returns_as_the_game_turn_ends() -> None:
    from warbench.kernel.dice import SeededDice
    from warbench.rulesets.warsurge.game.actions import Pass

    state, _ = _end_deploy(_dominion(), [5])
    atk = replace(state, flow=replace(state.flow, phase=Phase.ATTACK, active=0))
    assert atk.enemies(1, 2) and not atk.enemies(0, 1)
    with pytest.raises(RulesError, match="not an enemy unit"):
        engine.check(atk, Attack(1, (("Gun", 0),)))
    after, _ = engine.apply(atk, Attack(1, (("Gun", 2),)), dice=ScriptedDice([6] * 10))
    check_invariants(after)
    assert sum(after.units[2].hp) < 3  # the Brute shot its own side's Other
    # the Game Turn ends: control returns
    turn = after.flow.turn
    events: list[Event] = []
    while after.flow.turn == turn:
        after, ev = engine.apply(after, Pass(), dice=SeededDice(2))
        check_invariants(after)
        events.extend(ev)
    assert not _seized(after) and not after.enemies(1, 2) and after.enemies(0, 1)
    assert not any(s.name == "Dominating" for s in after.units[0].statuses)
    assert any("P1: Brute returns to P1 (the Game Turn ends; Dominate)" in e.text for e in events)


def test_p745_dominate_before_the_first_action_step_advanced() -> None:
    from warbench.rulesets.warsurge.game.actions import Move

    state, _ = _end_deploy(_dominion(playstyle="advanced", turn=1), [5] * 8)  # CP dice, test
    assert state.flow.phase is Phase.ACTIONS and _seized(state)
    side0 = replace(state, flow=replace(state.flow, active=0))
    assert any(isinstance(a, Move) and a.unit == 1 for a in engine.legal_actions(side0))
    engine.check(side0, Move(1, to=(24.0, 24.0)))  # paid from side 0's Command Points
    with pytest.raises(RulesError, match="is Dominating this Game Turn"):
        engine.check(side0, Move(0, to=(24.0, 6.0)))


# -- Undead Legion (L4386): an enemy casualty raised under its player's control -----------------


def _legion(victim_perks: tuple[str, ...] = (), legion: bool = True) -> GameState:
    """Side 0's Necro (unit 0, carrying Undead Legion, a Power 10 Gun) at (24, 10); side 1's
    Victim (unit 1, two 2-HP models, 1 HP left on each) at (24, 20) and Other (unit 2) at
    (40, 40); side 0's Attack Phase."""
    necro = entry(unit("Necro", hp=3, perks=["Undead Legion"] if legion else [],
                       weapons=[weapon("Gun", range=30, attacks=2, power=10)]))  # fmt: skip
    victim = entry(unit("Victim", models=2, hp=2, perks=list(victim_perks), weapons=[GUN10]))
    other = entry(unit("Other", hp=3, weapons=[GUN10]))
    state = scenario([[necro], [victim, other]],
                     {0: [(24.0, 10.0)], 1: [(23.0, 20.0), (24.5, 20.0)], 2: [(40.0, 40.0)]},
                     phase=Phase.ATTACK)  # fmt: skip
    v = replace(state.units[1], hp=(1, 1))
    return replace(state, units=(state.units[0], v, state.units[2]))


def _next_turn(state: GameState, first: object) -> tuple[GameState, list[Event]]:
    """``first`` (side 0's Attack), then Pass into the next Game Turn's Move Phase."""
    turn = state.flow.turn

    def going(s: GameState) -> bool:
        return s.flow.turn == turn or s.flow.phase is Phase.DEPLOY

    return pass_while(state, going, first=first, seed=5)


def test_p4386_undead_legion_raises_a_fallen_enemy_unit_under_its_control() -> None:
    after, events = _next_turn(_legion(), Attack(0, (("Gun", 1),)))
    assert any("P1: Victim is destroyed" in e.text for e in events)
    assert any("P1: Victim rises under P0's control at full HP (Undead Legion)" in e.text
               for e in events)  # fmt: skip
    v = after.units[1]
    assert v.location is Location.TABLE and v.hp == (2, 2) and v.seized_by == 0
    assert all(math.dist(p, (23.0, 20.0)) < 4.0 for p in v.pos)  # where its last model fell
    assert after.enemies(1, 2) and not after.enemies(0, 1)
    assert after.side_values()[0] > after.side_values()[1]
    # side 0 acts with it
    mine = replace(after, flow=replace(after.flow, active=0))
    assert any(getattr(a, "unit", None) == 1 for a in engine.legal_actions(mine))


def test_p4386_undead_legion_spares_respawn_and_resurrection_and_needs_the_perk() -> None:
    after, _ = _next_turn(_legion(("Respawn",)), Attack(0, (("Gun", 1),)))
    v = after.units[1]  # not raised: it Respawns for its own side instead (Perks L4205-L4211)
    assert v.seized_by is None and v.counter("respawns") == 1
    after, _ = _next_turn(_legion(legion=False), Attack(0, (("Gun", 1),)))
    assert after.units[1].location is Location.DESTROYED


def test_p4354_nightmare_anomaly_the_player_picks_the_unit_with_use_perks() -> None:
    # without the perk use automation: the player's decision at the start of the Game Turn
    state = _nightmare(automated=False)
    state = replace(state, flow=replace(state.flow, phase=Phase.DEPLOY, active=0))
    listed = [a for a in engine.legal_actions(state) if isinstance(a, UsePerks)]
    assert UsePerks(0, ("Nightmare Anomaly: 1",)) in listed  # the engine's choice first
    assert UsePerks(0, ("Nightmare Anomaly: 0",)) in listed  # any unit on the Battlefield
    after, events = engine.apply(
        state, UsePerks(0, ("Nightmare Anomaly: 0",)), dice=ScriptedDice([2])
    )
    check_invariants(after)
    assert any(s.name == "Nightmare Anomaly (2)" for s in after.units[0].statuses)
    assert any("P0's Nightmare Anomaly on P0: Dreamers: rolled 2" in e.text for e in events)
    with pytest.raises(RulesError, match="at the start of the Game Turn, once"):
        engine.check(after, UsePerks(0, ("Nightmare Anomaly: 1",)))
    late = replace(state, flow=replace(state.flow, phase=Phase.ATTACK))
    with pytest.raises(RulesError, match="at the start of the Game Turn, once"):
        engine.check(late, UsePerks(0, ("Nightmare Anomaly: 1",)))
    with pytest.raises(RulesError, match="name a unit on the Battlefield"):
        engine.check(state, UsePerks(0, ("Nightmare Anomaly: 9",)))


def test_p745_dominate_the_player_names_the_target_with_use_perks() -> None:
    state = _dominion(automated=False)
    state = replace(state, flow=replace(state.flow, active=0))
    listed = [a for a in engine.legal_actions(state) if isinstance(a, UsePerks)]
    assert UsePerks(0, ("Dominate: 1",)) in listed
    with pytest.raises(RulesError, match=r"name the Target by its number, one of: 1 \(P1: Brute\)"):
        engine.check(state, UsePerks(0, ("Dominate: 2",)))  # the Other: beyond 18"
    after, events = engine.apply(state, UsePerks(0, ("Dominate: 1",)), dice=ScriptedDice([4]))
    check_invariants(after)
    assert _seized(after)
    assert any("P0: Mind passes its Dominate test" in e.text for e in events)
    with pytest.raises(RulesError, match="used once a Game Turn"):
        engine.check(after, UsePerks(0, ("Dominate: 1",)))
    failed, _ = engine.apply(state, UsePerks(0, ("Dominate: 1",)), dice=ScriptedDice([3]))
    assert not _seized(failed)
    # only in the Deploy Phase (Standard)
    moving = replace(state, flow=replace(state.flow, phase=Phase.MOVE))
    with pytest.raises(RulesError, match="in the Deploy Phase"):
        engine.check(moving, UsePerks(0, ("Dominate: 1",)))


def test_p745_control_returns_at_once_when_the_dominating_unit_is_destroyed() -> None:
    state, _ = _end_deploy(_dominion(), [5])
    atk = replace(state, flow=replace(state.flow, phase=Phase.ATTACK, active=1))
    mind = replace(atk.units[0], hp=(1,))
    other = replace(atk.units[2], pos=((30.0, 25.0),))  # within its Gun's 30" of the Mind
    atk = replace(atk, units=(mind, atk.units[1], other))
    # side 1's Other shoots the Mind dead (Power 10: automatic); its casualties go at the
    # Attack Phase's end, and with them the seizure
    after, events = _to_phase_end(atk, Attack(2, (("Gun", 0),)))
    assert after.units[0].location is Location.DESTROYED
    assert not _seized(after)
    assert any("returns to P1 (the Dominating unit is destroyed; Dominate)" in e.text
               for e in events)  # fmt: skip


def test_p2313_traitorous_turns_at_once_in_the_advanced_playstyle() -> None:
    # Advanced: casualties are removed at once (§9), so the check follows the Attack
    shooter = entry(unit("Shooter", hp=5, weapons=[GUN10]))
    turncoat = entry(unit("Turncoat", hp=4, perks=["Traitorous"], weapons=[GUN10]))
    mate = entry(unit("Mate", hp=5, weapons=[GUN10]))
    state = scenario([[shooter], [turncoat, mate]],
                     {0: [(24.0, 10.0)], 1: [(24.0, 20.0)], 2: [(36.0, 30.0)]},
                     phase=Phase.DEPLOY, turn=1, playstyle="advanced")  # fmt: skip
    u = replace(state.units[1], hp=(3,))
    state, _ = _end_deploy(replace(state, units=(state.units[0], u, state.units[2])), [3] * 8)
    assert state.flow.phase is Phase.ACTIONS
    state = replace(state, flow=replace(state.flow, active=0))
    dice = ScriptedDice([6] * 10)
    after, _ = engine.apply(state, Attack(0, (("Gun", 1),)), dice=dice)
    while after.flow.adv is not None and after.flow.adv.counter is not None:  # no Counter
        after, _ = engine.apply(after, engine.default_counter(after), dice=dice)
    check_invariants(after)
    assert after.units[1].hp == (2,) and _defected(after)
    assert after.flow.phase is Phase.ACTIONS  # at once, in the Action Steps


def test_p867_lucky_rerolls_a_failed_upheaval_skill_test() -> None:
    # the Quake (Upheaval, L3216) used; its Skill Test at the Phase's end fails (3): the Lucky
    # User rerolls it (5) and stays where it is
    from warbench.rulesets.warsurge.game.actions import Pass

    quake = weapon("Quake", attacks=2, power=4, perks=["Upheaval"])

    def turn(perks: list[str], faces: list[int]) -> tuple[GameState, list[Event]]:
        me = entry(unit("User", weapons=[quake], hp=3, perks=perks))
        them = entry(unit("Foe", hp=5))
        state = scenario([[me], [them]], {0: [(10.0, 10.0)], 1: [(10.0, 16.0)]},
                         phase=Phase.ATTACK)  # fmt: skip
        state, _ = engine.apply(state, Attack(0, (("Quake", 1),)), dice=ScriptedDice([6, 6]))
        state, events = engine.apply(state, Pass(), dice=ScriptedDice(faces))
        check_invariants(state)
        return state, events

    lucky, events = turn(["Lucky"], [3, 5])
    assert lucky.units[0].pos == ((10.0, 10.0),)
    assert any("rerolls its Upheaval Skill Test (Lucky)" in e.text for e in events)
    assert any("Upheaval Skill Test passed (5)" in e.text for e in events)
    plain, _ = turn([], [3, 2, 4, 4, 1, 1, 6, 6])  # no Lucky: it relocates
    assert plain.units[0].pos != ((10.0, 10.0),)
