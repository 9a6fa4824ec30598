"""Aeonian, Enhancement and Limitation perks of lane b (issue 11, session 4) played in a game
(Perks 000_94ecc6a4c74d351b.txt): Keen Eye L1324, Crew I/II L1186-L1192, Formation L1284,
HP Steal L2977, Malfunction I/II L3110-L3122 (``game/perk_aeonian.py``,
``game/perk_limitation.py``). Each test applies actions through the game engine, with scripted
dice where dice matter, and checks the same situation without the perk. Test names carry the
rank's source line (``p3110``), which ``warbench perks --coverage`` reads."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tests.warsurge.game.helpers import check_invariants, entry, line, scenario, unit, weapon
from warbench.kernel.dice import ScriptedDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack, Embark, Move, Pass
from warbench.rulesets.warsurge.game.events import Event
from warbench.rulesets.warsurge.game.state import GameState, Location, Phase

USER, FOE = 0, 1


def _names(state: GameState, uid: int) -> list[str]:
    return [s.name for s in state.units[uid].statuses]


def _until(state: GameState, phase: Phase, side: int, turn: int | None = None) -> GameState:
    while not (
        state.flow.phase is phase
        and state.flow.active == side
        and (turn is None or state.flow.turn == turn)
    ):
        state, _ = engine.apply(state, Pass())
        check_invariants(state)
    return state


# -- Malfunction I/II (L3110, L3122) ---------------------------------------------------------


def _gunner(perks: list[str], attacks: int = 4) -> GameState:
    """The User's Gun (Power 4 vs Defence 4: 4+, ``attacks`` Attack Dice) with ``perks``; a Foe
    with 20 HP 10" away, in the Attack Phase of Game Turn 2."""
    gun = weapon("Gun", attacks=attacks, power=4, perks=perks)
    me = entry(unit("User", weapons=[gun], hp=3))
    them = entry(unit("Foe", hp=20))
    return scenario([[me], [them]], {USER: [(10.0, 10.0)], FOE: [(10.0, 20.0)]},
                    phase=Phase.ATTACK)  # fmt: skip


def _shoot(state: GameState, faces: list[int]) -> tuple[GameState, list[Event]]:
    dice = ScriptedDice(faces)
    new, events = engine.apply(state, Attack(USER, (("Gun", FOE),)), dice=dice)
    assert dice.remaining == 0
    check_invariants(new)
    return new, events


@pytest.mark.parametrize(
    "rank",
    [
        pytest.param("Malfunction I", id="p3110-Malfunction I"),
        pytest.param("Malfunction II", id="p3122-Malfunction II"),
    ],
)
def test_p3110_malfunction_half_the_attack_dice_ones_locks_the_weapon(rank: str) -> None:
    # 4 Attack Dice: two 1s are half of them
    state, events = _shoot(_gunner([rank]), [1, 1, 5, 5])
    assert any("Gun malfunctions (2 of 4 Attack Dice rolled 1" in e.text for e in events)
    nxt = _until(state, Phase.ATTACK, 0, turn=3)
    with pytest.raises(RulesError, match="Malfunction I"):
        engine.check(nxt, Attack(USER, (("Gun", FOE),)))
    assert not any(a == Attack(USER, (("Gun", FOE),)) for a in engine.legal_actions(nxt))
    later = _until(nxt, Phase.ATTACK, 0, turn=4)
    if rank == "Malfunction I":  # "cannot be used in the next Game Turn": usable again after
        engine.check(later, Attack(USER, (("Gun", FOE),)))
    else:  # "destroyed at the end of the Game Turn and can no longer be used for the entire game"
        with pytest.raises(RulesError, match="destroyed at the end of Game Turn 2"):
            engine.check(later, Attack(USER, (("Gun", FOE),)))


def test_p3110_malfunction_one_one_in_four_or_no_perk_leaves_the_weapon() -> None:
    state, events = _shoot(_gunner(["Malfunction I"]), [1, 5, 5, 5])  # 1 of 4: less than half
    assert not any("malfunctions" in e.text for e in events)
    engine.check(_until(state, Phase.ATTACK, 0, turn=3), Attack(USER, (("Gun", FOE),)))
    plain, _ = _shoot(_gunner([]), [1, 1, 5, 5])  # the same dice without the perk
    engine.check(_until(plain, Phase.ATTACK, 0, turn=3), Attack(USER, (("Gun", FOE),)))


def test_p3110_malfunction_five_ones_in_one_attack_sequence() -> None:
    # 12 Attack Dice: five 1s (less than half) still malfunction; four do not
    five, events = _shoot(_gunner(["Malfunction I"], attacks=12), [1] * 5 + [3] * 7)
    assert any("5 of 12 Attack Dice rolled 1" in e.text for e in events)
    with pytest.raises(RulesError, match="malfunctioned on Game Turn 2"):
        engine.check(_until(five, Phase.ATTACK, 0, turn=3), Attack(USER, (("Gun", FOE),)))
    _, events = _shoot(_gunner(["Malfunction I"], attacks=12), [1] * 4 + [3] * 8)
    assert not any("malfunctions" in e.text for e in events)


def test_p3110_malfunction_needs_a_weapon_of_3_attacks() -> None:
    # "Requires a minimum of 3 Attacks on the Weapon": 2 Attacks, both 1s, no malfunction
    state, events = _shoot(_gunner(["Malfunction I"], attacks=2), [1, 1])
    assert not any("malfunctions" in e.text for e in events)
    engine.check(_until(state, Phase.ATTACK, 0, turn=3), Attack(USER, (("Gun", FOE),)))


# -- HP Steal (L2977) ------------------------------------------------------------------------


def _thief(perks: list[str]) -> GameState:
    """The User: 3 models of 2 HP (6 HP, a third is 2), one model at 1 HP and one removed; its
    Gun (3 Attacks, Power 4 vs Defence 4) with ``perks``; a Foe of 10 HP."""
    gun = weapon("Gun", attacks=3, power=4, perks=perks)
    me = entry(unit("User", models=3, weapons=[gun], hp=2))
    them = entry(unit("Foe", hp=10))
    state = scenario([[me], [them]], {USER: line(10, 10, 3), FOE: [(10.0, 20.0)]},
                     phase=Phase.ATTACK)  # fmt: skip
    units = list(state.units)
    units[USER] = replace(units[USER], hp=(1, 2, 0), removed=(False, False, True))
    return replace(state, units=tuple(units))


def test_p2977_hp_steal_restores_the_hp_loss_up_to_a_third_of_max_hp() -> None:
    # two living models, 3 Attacks each: three 6s hit (3 HP Loss on the Foe)
    state, events = _shoot(_thief(["HP Steal"]), [6, 6, 6, 1, 1, 1])
    assert state.units[FOE].hp == (7,)
    assert sum(state.units[USER].hp) == 5  # 3 HP + 2 (a third of 6), not 3
    assert state.units[USER].living() == [0, 1, 2]  # the removed model returns
    assert any("steals 2 HP with Gun (HP Steal" in e.text for e in events)
    plain, _ = _shoot(_thief([]), [6, 6, 6, 1, 1, 1])
    assert sum(plain.units[USER].hp) == 3


def test_p2977_hp_steal_restores_only_the_hp_loss_caused() -> None:
    state, _ = _shoot(_thief(["HP Steal"]), [6, 1, 1, 1, 1, 1])  # 1 HP Loss: 1 HP back
    assert sum(state.units[USER].hp) == 4


# -- Keen Eye (L1324) ------------------------------------------------------------------------


def _blinder(target_perks: list[str]) -> GameState:
    gun = weapon("Gun", attacks=1, power=4, perks=["Blind I"])
    me = entry(unit("User", weapons=[gun], hp=3))
    them = entry(unit("Foe", hp=5, perks=target_perks))
    return scenario([[me], [them]], {USER: [(10.0, 10.0)], FOE: [(10.0, 20.0)]},
                    phase=Phase.ATTACK)  # fmt: skip


def test_p1324_keen_eye_is_immune_to_blind_in_a_game() -> None:
    # a 4 hits (1 HP Loss), then Blind I's Skill Test (a 6 passes)
    blinded, _ = engine.apply(
        _blinder([]), Attack(USER, (("Gun", FOE),)), dice=ScriptedDice([4, 6, 6, 6])
    )
    assert "Blind" in _names(blinded, FOE)
    keen, events = engine.apply(
        _blinder(["Keen Eye"]), Attack(USER, (("Gun", FOE),)), dice=ScriptedDice([4, 6, 6, 6])
    )
    assert "Blind" not in _names(keen, FOE)
    assert keen.units[FOE].hp == (4,)
    assert any("immune to Blind" in e.text for e in events)


# -- Crew I/II (L1186, L1192) ----------------------------------------------------------------


def _crewed(rank: str, *, carrying: bool, phase: Phase = Phase.ATTACK) -> GameState:
    """A Transport (unit 0, capacity 150, Fire Points) with ``rank`` and a Stubber; Troopers
    (unit 1) embarked in it or standing beside it; a Foe (unit 2) 15" away."""
    apc = unit("APC", move=10, dash=10, hp=8, transport=150, fire_points=1, perks=[rank],
               weapons=[weapon("Stubber")])  # fmt: skip
    troopers = unit("Troopers", models=3, weapons=[weapon("Rifle")])
    sides = [[entry(apc, 180, base_mm=76.2), entry(troopers, 120)], [entry(unit("Foe", hp=5))]]
    pos: dict[int, Any] = {0: [(10.0, 10.0)], 2: [(10.0, 25.0)]}
    if not carrying:
        pos[1] = line(14, 10, 3)
    state = scenario(sides, pos, phase=phase)
    if carrying:
        units = list(state.units)
        units[1] = replace(units[1], location=Location.EMBARKED, embarked_in=0)
        state = replace(state, units=tuple(units))
    return state


@pytest.mark.parametrize(
    "rank",
    [pytest.param("Crew I", id="p1186-Crew I"), pytest.param("Crew II", id="p1192-Crew II")],
)
def test_p1186_crew_transport_wields_weapons_only_with_a_unit_embarked(rank: str) -> None:
    shot = Attack(0, (("Stubber", 2),))
    with pytest.raises(RulesError, match=f"no Unit embarked: it cannot wield Stubber \\({rank}"):
        engine.check(_crewed(rank, carrying=False), shot)
    new, _ = engine.apply(_crewed(rank, carrying=True), shot, dice=ScriptedDice([6, 6, 6]))
    assert any(e.kind == "attack" for e in _) and new.units[2].hp[0] < 5


def test_p1186_crew_i_transport_still_moves_empty() -> None:
    state = _until(_crewed("Crew I", carrying=False), Phase.MOVE, 0, turn=3)
    new, _ = engine.apply(state, Move(0, to=(10.0, 18.0)))
    assert new.units[0].pos[0][1] > 10.0
    assert "Crew (empty)" not in _names(new, 0)


def test_p1192_crew_ii_transport_cannot_move_empty_until_a_unit_embarks() -> None:
    state = _until(_crewed("Crew II", carrying=False), Phase.MOVE, 0, turn=3)
    assert "Crew (empty)" in _names(state, 0)
    with pytest.raises(RulesError, match='has a Move of 0"'):
        engine.check(state, Move(0, to=(10.0, 18.0)))
    # the Troopers embark (§6.2): from the next Phase the Transport may make Movement (it is
    # judged as each Phase starts and after each Move and Deploy: docs/rulings.md)
    boarded, _ = engine.apply(state, Embark(1, 0))
    dash = _until(boarded, Phase.DASH, 0)
    assert "Crew (empty)" not in _names(dash, 0)
    moved, _ = engine.apply(dash, Move(0, to=(10.0, 18.0), dash=True))
    assert moved.units[0].pos[0][1] > 10.0
    # carrying from the start: it moves at once
    full = _until(_crewed("Crew II", carrying=True), Phase.MOVE, 0, turn=3)
    assert "Crew (empty)" not in _names(full, 0)
    engine.check(full, Move(0, to=(10.0, 18.0)))


# -- Formation (L1284) -----------------------------------------------------------------------


def _formed(perks: list[str], pos: list[tuple[float, float]]) -> GameState:
    """The User (2 models, 1" bases: in base contact 1" apart) and a Foe, Attack Phase 2."""
    me = entry(unit("User", models=2, perks=perks, hp=2))
    them = entry(unit("Foe", hp=5))
    return scenario([[me], [them]], {USER: pos, FOE: [(40.0, 44.0)]}, phase=Phase.ATTACK)


def test_p1284_formation_gives_plus_1_defence_while_every_model_is_in_base_contact() -> None:
    state = _until(_formed(["Formation"], [(10.0, 10.0), (11.0, 10.0)]), Phase.MOVE, 0, turn=3)
    assert _names(state, USER) == ["Formation (Defence)"]
    from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
    from warbench.rulesets.warsurge.game.work import Work, to_unit_state

    seen = to_unit_state(Work(state, None, DEFAULT_HOOKS), USER)
    assert seen.profile.defence == 5
    # a Move that breaks base contact loses the bonus ("If at any time a model … loses base
    # contact, the bonus is lost")
    apart, events = engine.apply(state, Move(USER, positions=((10.0, 14.0), (13.0, 14.0))))
    assert _names(apart, USER) == []
    assert any("lost base contact" in e.text for e in events)
    assert to_unit_state(Work(apart, None, DEFAULT_HOOKS), USER).profile.defence == 4
    # apart from the start, or without the perk: no bonus
    loose = _until(_formed(["Formation"], [(10.0, 10.0), (12.0, 10.0)]), Phase.MOVE, 0, turn=3)
    assert _names(loose, USER) == []
    plain = _until(_formed([], [(10.0, 10.0), (11.0, 10.0)]), Phase.MOVE, 0, turn=3)
    assert _names(plain, USER) == []


def test_p1284_formation_power_bonus_chosen_reaches_the_attack() -> None:
    from warbench.rulesets.warsurge.game import perk_aeonian
    from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
    from warbench.rulesets.warsurge.game.work import Work, to_unit_state

    state = _until(_formed(["Formation"], [(10.0, 10.0), (11.0, 10.0)]), Phase.MOVE, 0, turn=3)
    w = Work(state, None, DEFAULT_HOOKS)
    perk_aeonian.choose_bonus(w, USER, "Power")
    after = w.state()
    assert _names(after, USER) == ["Formation (Power)"]
    seen = to_unit_state(Work(after, None, DEFAULT_HOOKS), USER)
    assert seen.weapons["Gun"].power == 5 and seen.profile.defence == 4
    with pytest.raises(ValueError, match="Defence or \\+1 Power"):
        perk_aeonian.choose_bonus(w, USER, "Speed")


# -- Counter (L3062), Self-Destruct (L3156) ----------------------------------------------------


def _reactive(perk: str, *, wielder: dict[str, Any] | None = None) -> GameState:
    """The User (side 0) with a Gun and a Spite (``perk``; 2 Attacks, Power 4, Range 12); a
    Foe (side 1, 5 HP, a 1-Attack Gun) 5" away, whose Attack Phase it is."""
    spite = weapon("Spite", attacks=2, power=4, range=12, perks=[perk] if perk else [])
    me = entry(unit("User", weapons=[weapon("Gun"), spite], **{"hp": 3, **(wielder or {})}))
    them = entry(unit("Foe", hp=5))
    return scenario([[me], [them]], {USER: [(10.0, 10.0)], FOE: [(10.0, 16.0)]},
                    phase=Phase.ATTACK, active=1)  # fmt: skip


def test_p3062_counter_strikes_back_at_the_first_enemy_to_inflict_hp_loss() -> None:
    dice = ScriptedDice([4, 6, 6])  # the Foe's 4 hits (1 HP); the Spite's two 6s (2 HP)
    state, events = engine.apply(_reactive("Counter"), Attack(FOE, (("Gun", USER),)), dice=dice)
    assert dice.remaining == 0
    check_invariants(state)
    assert state.units[USER].hp == (2,)
    assert state.units[FOE].hp == (3,)
    assert any("strikes back at P1: Foe with Spite (Counter)" in e.text for e in events)
    # without the perk the Spite waits for its own Attack
    plain, _ = engine.apply(_reactive(""), Attack(FOE, (("Gun", USER),)), dice=ScriptedDice([4]))
    assert plain.units[FOE].hp == (5,)


def test_p3062_counter_weapon_is_not_used_in_the_users_own_attack_nor_on_a_miss() -> None:
    mine = replace(_reactive("Counter"), flow=replace(_reactive("Counter").flow, active=0))
    with pytest.raises(RulesError, match=r"Counter, 000_94ecc6a4c74d351b\.txt L3062"):
        engine.check(mine, Attack(USER, (("Spite", FOE),)))
    engine.check(mine, Attack(USER, (("Gun", FOE),)))
    # a miss inflicts no HP Loss: no Counter
    state, events = engine.apply(
        _reactive("Counter"), Attack(FOE, (("Gun", USER),)), dice=ScriptedDice([3])
    )
    assert state.units[FOE].hp == (5,) and not any("Counter" in e.text for e in events)


def test_p3062_counter_out_of_range_is_not_used() -> None:
    far = _reactive("Counter")
    units = list(far.units)
    units[FOE] = replace(units[FOE], pos=((10.0, 30.0),))  # 19" away: beyond the Spite's 12"
    far = replace(far, units=tuple(units))
    state, events = engine.apply(far, Attack(FOE, (("Gun", USER),)), dice=ScriptedDice([4]))
    assert state.units[FOE].hp == (5,) and not any("Counter" in e.text for e in events)
    assert state.units[USER].counter("counter Spite") == 0  # "can be used if attacked later"


def test_p3156_self_destruct_fires_at_the_closest_unit_when_the_wielder_falls() -> None:
    dice = ScriptedDice([4, 6, 6])  # the Foe's 4 slays the 1-HP User; the Spite's two 6s
    state, events = engine.apply(
        _reactive("Self-Destruct", wielder={"hp": 1}), Attack(FOE, (("Gun", USER),)), dice=dice
    )
    assert dice.remaining == 0
    check_invariants(state)
    assert state.units[FOE].hp == (3,)
    assert any("Spite self-destructs at the closest unit, P1: Foe" in e.text for e in events)
    plain, _ = engine.apply(
        _reactive("", wielder={"hp": 1}), Attack(FOE, (("Gun", USER),)), dice=ScriptedDice([4])
    )
    assert plain.units[FOE].hp == (5,)
    mine = replace(_reactive("Self-Destruct"), flow=replace(_reactive("").flow, active=0))
    with pytest.raises(RulesError, match="only when its Wielder is a casualty"):
        engine.check(mine, Attack(USER, (("Spite", FOE),)))


# -- Escape Transport (L1268) --------------------------------------------------------------------


def test_p1268_escape_transport_passengers_disembark_up_to_12_inches_further() -> None:
    from warbench.rulesets.warsurge.game.actions import Disembark

    far = Disembark(1, positions=((10.0, 28.0), (11.5, 28.0), (13.0, 28.0)))  # ~16" away
    near = Disembark(1, positions=((10.0, 17.0), (11.5, 17.0), (13.0, 17.0)))

    def state(perks: list[str]) -> GameState:
        apc = unit("APC", move=10, dash=10, hp=8, transport=150, fire_points=1, perks=perks)
        troopers = unit("Troopers", models=3, move=6)
        sides = [[entry(apc, 180, base_mm=76.2), entry(troopers, 120)], [entry(unit("Foe"))]]
        s = scenario(sides, {0: [(10.0, 10.0)], 2: [(40.0, 44.0)]}, phase=Phase.MOVE)
        units = list(s.units)
        units[1] = replace(units[1], location=Location.EMBARKED, embarked_in=0)
        return replace(s, units=tuple(units))

    with pytest.raises(RulesError, match='within 6" of'):
        engine.check(state([]), far)
    engine.check(state([]), near)
    new, _ = engine.apply(state(["Escape Transport"]), far)
    check_invariants(new)
    assert new.units[1].location is Location.TABLE and new.units[1].pos[0] == (10.0, 28.0)
    with pytest.raises(RulesError, match='within 18" of'):
        engine.check(
            state(["Escape Transport"]),
            Disembark(1, positions=((10.0, 34.0), (11.5, 34.0), (13.0, 34.0))),
        )


# -- Kamikaze (L1302) ----------------------------------------------------------------------------


def _crasher(perks: list[str], foe_at: tuple[float, float] = (10.0, 16.0)) -> GameState:
    """The User (side 0): one model, 3 HP, Defence 6, no Armour Save, with ``perks``; a Foe (5
    HP, a 3-Attack Power 10 Gun) whose Attack Phase it is; a friendly Bystander far away."""
    me = entry(unit("User", hp=3, defence=6, perks=perks))
    friend = entry(unit("Bystander", hp=5))
    them = entry(unit("Foe", hp=5, weapons=[weapon("Gun", attacks=3, power=10)]))
    return scenario([[me, friend], [them]],
                    {0: [(10.0, 10.0)], 1: [(40.0, 40.0)], 2: [foe_at]},
                    phase=Phase.ATTACK, active=1)  # fmt: skip


def test_p1302_kamikaze_the_last_model_crashes_into_the_units_on_its_path() -> None:
    # the Foe's three 6s slay the User (3 HP); the Scatter Arrow is a Hit (1) with 2D6 = 7:
    # the engine aims at the closest enemy, 6" away; the crash: 3 Attacks (the User's HP) at
    # Power 6 (its Defence) against Defence 4, three 6s
    dice = ScriptedDice([6, 6, 6, 1, 3, 4, 6, 6, 6])
    state, events = engine.apply(_crasher(["Kamikaze"]), Attack(2, (("Gun", 0),)), dice=dice)
    assert dice.remaining == 0
    check_invariants(state)
    assert state.units[2].hp == (2,)
    assert any('Kamikaze, a Hit, 7" toward the closest enemy' in e.text for e in events)
    crash = "struck by Kamikaze: 3 Attacks at Power 6, AP -: 3 HP lost"
    assert any(crash in e.text for e in events)
    assert state.units[1].hp == (5,)  # off the path
    plain, _ = engine.apply(_crasher([]), Attack(2, (("Gun", 0),)), dice=ScriptedDice([6, 6, 6]))
    assert plain.units[2].hp == (5,)


def test_p1302_kamikaze_that_falls_short_strikes_nobody() -> None:
    # a Hit with 2D6 = 2 toward a Foe 10" away: the crash ends short of it
    dice = ScriptedDice([6, 6, 6, 6, 1, 1])
    state, events = engine.apply(
        _crasher(["Kamikaze"], foe_at=(10.0, 20.0)), Attack(2, (("Gun", 0),)), dice=dice
    )
    assert dice.remaining == 0
    assert state.units[2].hp == (5,)
    assert not any("struck by Kamikaze" in e.text for e in events)


# -- Disengage (L735) ----------------------------------------------------------------------------


def _locked(perks: list[str]) -> GameState:
    """The User (``perks``) in Base Contact and a Melee with the Foe, in the Standard Move Phase,
    the use of perks left to the players."""
    from warbench.rulesets.warsurge.game.state import ALL_AUTOMATIONS, Automation

    me = entry(unit("User", perks=perks, hp=3))
    them = entry(unit("Foe", hp=3))
    return scenario([[me], [them]], {USER: [(10.0, 10.0)], FOE: [(11.0, 10.0)]},
                    phase=Phase.MOVE, engaged=[(USER, FOE)],
                    automation=ALL_AUTOMATIONS - {Automation.PERK_USE})  # fmt: skip


def test_p735_disengage_passed_mastery_test_lets_the_user_move_out_of_the_melee() -> None:
    from warbench.rulesets.warsurge.game.actions_advanced import UsePerks

    away = Move(USER, positions=((5.0, 10.0),))
    with pytest.raises(RulesError, match="locked in a Melee"):
        engine.check(_locked([]), away)
    state = _locked(["Disengage"])
    assert UsePerks(USER, ("Disengage",)) in list(engine.legal_actions(state))
    used, events = engine.apply(state, UsePerks(USER, ("Disengage",)), dice=ScriptedDice([4]))
    assert "Disengage" in _names(used, USER)
    moved, events = engine.apply(used, away)
    check_invariants(moved)
    assert moved.units[USER].pos[0][0] < 10.0
    assert not moved.engaged
    assert any("disengages from its Melee with P1: Foe" in e.text for e in events)


def test_p735_disengage_failed_mastery_test_stays_locked() -> None:
    from warbench.rulesets.warsurge.game.actions_advanced import UsePerks

    used, _ = engine.apply(
        _locked(["Disengage"]), UsePerks(USER, ("Disengage",)), dice=ScriptedDice([3])
    )
    assert "Disengage" not in _names(used, USER)
    with pytest.raises(RulesError, match="locked in a Melee"):
        engine.check(used, Move(USER, positions=((5.0, 10.0),)))


# -- Upheaval (L3216) ----------------------------------------------------------------------------


def _quake(perks: list[str]) -> GameState:
    """The User (3 HP, Defence 4) with a Quake (2 Attacks, Power 4) with ``perks``; a Foe (5 HP)
    6" north, in the User's Attack Phase."""
    quake = weapon("Quake", attacks=2, power=4, perks=perks)
    me = entry(unit("User", weapons=[quake], hp=3))
    them = entry(unit("Foe", hp=5))
    return scenario([[me], [them]], {USER: [(10.0, 10.0)], FOE: [(10.0, 16.0)]},
                    phase=Phase.ATTACK)  # fmt: skip


def _quake_turn(perks: list[str], end_faces: list[int]) -> tuple[GameState, list[Event]]:
    """The User's Quake hits twice (two 6s); the Foe passes; the Phase ends with ``end_faces``."""
    state, _ = engine.apply(_quake(perks), Attack(USER, (("Quake", FOE),)),
                            dice=ScriptedDice([6, 6]))  # fmt: skip
    assert state.units[FOE].hp == (3,)
    dice = ScriptedDice(end_faces)
    state, events = engine.apply(state, Pass(), dice=dice)
    assert dice.remaining == 0
    check_invariants(state)
    return state, events


def test_p3216_upheaval_failed_skill_test_relocates_the_user_into_a_unit_it_then_strikes() -> None:
    # Skill Test 3 (fails); Scatter: arrow 2, 2D6 = 8, direction N (1, 1); it runs into the Foe
    # 5" away; the Quake's two 6s strike the Foe
    state, events = _quake_turn(["Upheaval"], [3, 2, 4, 4, 1, 1, 6, 6])
    assert state.units[FOE].hp == (1,)
    assert abs(state.units[USER].pos[0][1] - 15.0) < 0.05  # stopped against the Foe
    assert (USER, FOE) in state.engaged
    assert any("Upheaval Skill Test failed (3): relocated" in e.text and "into P1: Foe" in e.text
               for e in events)  # fmt: skip


def test_p3216_upheaval_a_hit_strikes_the_user_and_a_passed_test_does_nothing() -> None:
    hit, _ = _quake_turn(["Upheaval"], [1, 1, 3, 3, 6, 6])  # fails; a Hit: the Quake on the User
    assert hit.units[USER].hp == (1,) and hit.units[USER].pos == ((10.0, 10.0),)
    calm, events = _quake_turn(["Upheaval"], [4])  # passed: it stays
    assert calm.units[USER].pos == ((10.0, 10.0),) and calm.units[USER].hp == (3,)
    assert any("Upheaval Skill Test passed" in e.text for e in events)
    plain, _ = _quake_turn([], [])
    assert plain.units[USER].hp == (3,)


# -- Controlled (L1178) --------------------------------------------------------------------------


def _controlled(*, boss_on_table: bool = True, active: int = 1) -> GameState:
    """Side 0: the User (Controlled, 100 points) and the Boss (1 HP, 200 points: its
    controller, the most expensive other friendly unit) and a Grunt (50 points); side 1: a Foe
    with a 3-Attack Power 10 Gun, in the Attack Phase."""
    me = entry(unit("User", hp=3, perks=["Controlled"]), 100)
    boss = entry(unit("Boss", hp=1), 200)
    grunt = entry(unit("Grunt", hp=1), 50)
    foe = entry(unit("Foe", hp=5, weapons=[weapon("Gun", attacks=3, power=10)]))
    pos: dict[int, Any] = {0: [(10.0, 10.0)], 2: [(30.0, 10.0)], 3: [(10.0, 20.0)]}
    if boss_on_table:
        pos[1] = [(20.0, 10.0)]
    return scenario([[me, boss, grunt], [foe]], pos, phase=Phase.ATTACK, active=active)


def test_p1178_controlled_user_falls_with_its_controller() -> None:
    dice = ScriptedDice([6, 1, 1])  # the Foe's first die slays the 1-HP Boss
    state, events = engine.apply(_controlled(), Attack(3, (("Gun", 1),)), dice=dice)
    assert any("P0: User falls with its controller P0: Boss" in e.text for e in events)
    state = _until(state, Phase.DASH, 0)  # the Attack Phase's casualties are removed
    assert state.units[0].location is Location.DESTROYED
    assert state.units[2].location is Location.TABLE  # the Grunt is nobody's controller
    # the Grunt slain instead: the User stays
    other, _ = engine.apply(_controlled(), Attack(3, (("Gun", 2),)), dice=ScriptedDice([6, 1, 1]))
    other = _until(other, Phase.DASH, 0)
    assert other.units[0].living() == [0]


def test_p1178_controlled_user_only_rolls_saves_while_its_controller_is_in_reserve() -> None:
    state = _controlled(boss_on_table=False, active=0)
    with pytest.raises(RulesError, match="controller P0: Boss is in Reserve: it can only roll"):
        engine.check(state, Attack(0, (("Gun", 3),)))
    nxt = _until(state, Phase.MOVE, 0, turn=3)
    assert "Controlled (controller in Reserve)" in _names(nxt, 0)
    with pytest.raises(RulesError, match='has a Move of 0"'):
        engine.check(nxt, Move(0, to=(10.0, 14.0)))
    # with the controller on the Battlefield it acts as usual
    free = _until(_controlled(active=0), Phase.MOVE, 0, turn=3)
    assert _names(free, 0) == []
    engine.check(free, Move(0, to=(10.0, 14.0)))


def test_p1178_controlled_user_falls_when_its_controller_fell_outside_an_attack() -> None:
    state = _controlled(active=0)
    units = list(state.units)
    units[1] = replace(units[1], location=Location.DESTROYED, hp=(0,), removed=(True,))
    state = replace(state, units=tuple(units))  # e.g. Burn at the end of a Game Turn
    nxt = _until(state, Phase.DASH, 0)
    check_invariants(nxt)
    assert nxt.units[0].location is Location.DESTROYED


def test_p735_disengage_is_used_once_per_game_turn() -> None:
    from warbench.rulesets.warsurge.game.actions_advanced import UsePerks

    used, _ = engine.apply(
        _locked(["Disengage"]), UsePerks(USER, ("Disengage",)), dice=ScriptedDice([3])
    )
    with pytest.raises(RulesError, match="once per Game Turn"):
        engine.check(used, UsePerks(USER, ("Disengage",)))


def test_p1178_controlled_user_in_reserve_falls_with_its_controller_too() -> None:
    state = _controlled(active=1)
    units = list(state.units)
    units[0] = replace(units[0], location=Location.RESERVE, pos=())
    state = replace(state, units=tuple(units))
    state, _ = engine.apply(state, Attack(3, (("Gun", 1),)), dice=ScriptedDice([6, 1, 1]))
    nxt = _until(state, Phase.DASH, 0)
    check_invariants(nxt)
    assert nxt.units[0].location is Location.DESTROYED
