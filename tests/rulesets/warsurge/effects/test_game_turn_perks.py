"""Perks that act by the Game Turn, by the User's HP and by a weapon's limits, played in a game
(Perks 000_94ecc6a4c74d351b.txt: Psychological L2187-L2345, Defensive L1208-L1700, Tactical,
Enhancement and Limitation Weapon Perks; ``game/perk_turn.py``). Each test applies actions
through the game engine with scripted dice where dice matter, and checks the same situation
without the perk. Test names carry the rank's source line (``p2197``), which
``warbench perks --coverage`` reads."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tests.warsurge.game.helpers import check_invariants, entry, scenario, unit, weapon
from warbench.kernel.dice import ScriptedDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.game import engine, perk_turn
from warbench.rulesets.warsurge.game.actions import Attack, Deploy, Move, Pass
from warbench.rulesets.warsurge.game.events import Event
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.movement import unit_allowance
from warbench.rulesets.warsurge.game.state import GameState, Location, Phase
from warbench.rulesets.warsurge.game.work import Work, to_unit_state

USER, FOE = 0, 1


def _state(
    perks: list[str] | None = None,
    weapon_perks: list[str] | None = None,
    *,
    user: dict[str, Any] | None = None,
    foe: dict[str, Any] | None = None,
    foe_perks: list[str] | None = None,
    foe_weapon_perks: list[str] | None = None,
    hp: tuple[int, ...] | None = None,
    counters: dict[str, int] | None = None,
    phase: Phase = Phase.ATTACK,
    turn: int = 2,
    gap: float = 10.0,
) -> GameState:
    """The User (side 0, a Gun: Power 4, 1 Attack, 24") faces a Foe (side 1, Defence 4, 5 HP,
    a Gun with ``foe_weapon_perks``) ``gap`` inches away, in ``phase`` of ``turn``."""
    u_kw: dict[str, Any] = {"hp": 5, "defence": 4, **(user or {})}
    f_kw: dict[str, Any] = {"hp": 5, "defence": 4, **(foe or {})}
    gun = weapon("Gun", power=4, perks=weapon_perks or [])
    foe_gun = weapon("Gun", power=4, perks=foe_weapon_perks or [])
    me = entry(unit("User", perks=perks or [], weapons=[gun], **u_kw))
    them = entry(unit("Foe", perks=foe_perks or [], weapons=[foe_gun], **f_kw))
    st = scenario(
        [[me], [them]], {USER: [(10.0, 10.0)], FOE: [(10.0, 10.0 + gap)]}, phase=phase, turn=turn
    )
    u = st.units[USER]
    if hp is not None:
        u = replace(u, hp=hp)
    for name, value in (counters or {}).items():
        u = u.with_counter(name, value)
    return replace(st, units=(u, *st.units[1:]))


def _next_turn(state: GameState, faces: list[int]) -> tuple[GameState, list[Event]]:
    """Pass to the next Game Turn; the dice of its start are ``faces`` (then 6 and 1 for the
    Turn Master Roll-Off, side 0 first)."""
    turn = state.flow.turn
    while True:
        new, _ = engine.apply(state, Pass())
        if new.flow.turn != turn or new.over:
            return engine.apply(state, Pass(), dice=ScriptedDice([*faces, 6, 1, 6, 1]))
        state = new


def _until(state: GameState, phase: Phase, side: int = 0) -> GameState:
    while not (state.flow.phase is phase and state.flow.active == side):
        state, _ = engine.apply(state, Pass())
    return state


def _attack(
    state: GameState, faces: list[int], uid: int = USER, target: int = FOE
) -> tuple[GameState, list[Event]]:
    dice = ScriptedDice(faces)
    new, events = engine.apply(state, Attack(uid, (("Gun", target),)), dice=dice)
    assert dice.remaining == 0, "every scripted face is used"
    check_invariants(new)
    return new, events


def _lost(events: list[Event]) -> int:
    return next(int(e.data["hp_lost"]) for e in events if e.kind == "attack")


def _statuses(state: GameState, uid: int = USER) -> list[str]:
    return [s.name for s in state.units[uid].statuses]


def _allowance(state: GameState, uid: int = USER, dash: bool = False) -> int:
    return unit_allowance(Work(state, None, DEFAULT_HOOKS), uid, dash)


def _profile(state: GameState, uid: int = USER) -> Any:
    return to_unit_state(Work(state, None, DEFAULT_HOOKS), uid)


def _RANKS(*lines: int) -> list[tuple[str, int, int]]:
    """Rank numerals I-III, 1-3 and their source lines."""
    numerals = zip(("I", "II", "III"), lines, strict=True)
    return [(r, k + 1, line) for k, (r, line) in enumerate(numerals)]


def _texts(events: list[Event]) -> str:
    return "\n".join(e.text for e in events)


# -- Psychological: at the start of the Game Turn after HP Loss (L2187-L2345) ----------------


def test_p2197_conviction_rolls_at_the_start_of_the_turn_after_hp_loss() -> None:
    # the User lost HP last Game Turn: D3 (face 1 -> 1): +50% Move and Dash
    state = _state(["Conviction"], counters={perk_turn.HP_LOST_TURN: 2})
    state, events = _next_turn(state, [1])
    assert "Conviction (Move)" in _statuses(state)
    assert "Conviction rolls 1" in _texts(events)
    assert _allowance(state) == 9 and _allowance(state, dash=True) == 9
    # D3 face 3 -> 2: +2 Defence
    state, _ = _next_turn(_state(["Conviction"], hp=(1,)), [3])  # "only has 1 HP"
    assert _profile(state).profile.defence == 6
    # not shaken: nothing rolled; without the perk nothing either
    calm, _ = _next_turn(_state(["Conviction"]), [])
    assert _statuses(calm) == []
    plain, _ = _next_turn(_state([], counters={perk_turn.HP_LOST_TURN: 2}), [1])
    assert _statuses(plain) == [] and _allowance(plain) == 6


def test_p2197_conviction_lasts_the_game_turn() -> None:
    state, _ = _next_turn(_state(["Conviction"], hp=(1,)), [1])
    state, _ = _next_turn(state, [])  # 1 HP still: a new roll (face 6 -> 3: AEGIS)
    assert _statuses(state) == ["Conviction (AEGIS)"]


def test_p2239_frenzy_passed_raises_power_and_move() -> None:
    state, events = _next_turn(_state(["Frenzy"], hp=(1,)), [4])  # Mastery 4+: passed
    assert "Frenzy" in _statuses(state)
    assert _allowance(state) == 9
    state = _until(state, Phase.ATTACK)
    _, events = _attack(state, [3])  # Power 5 vs Defence 4: 3+
    assert _lost(events) == 1
    failed, _ = _next_turn(_state(["Frenzy"], hp=(1,)), [3])
    assert _statuses(failed) == []
    failed = _until(failed, Phase.ATTACK)
    _, events = _attack(failed, [3])
    assert _lost(events) == 0


def test_p2249_morale_i_failed_is_minus_1_to_attack_dice_after_hp_lost_last_turn() -> None:
    # the Foe hits the User in Game Turn 2 (a real HP Loss), Morale fails at Game Turn 3
    state = _state(["Morale I"], phase=Phase.ATTACK, gap=10)
    state = _until(state, Phase.ATTACK, 1)
    state, _ = _attack(state, [4], uid=FOE, target=USER)
    state, events = _next_turn(state, [3])  # Mastery 4+: failed
    assert "Morale I" in _statuses(state)
    state = _until(state, Phase.ATTACK)
    _, events = _attack(state, [4])  # 4+ becomes 5+
    assert _lost(events) == 0
    plain = _until(_state([], phase=Phase.ATTACK), Phase.ATTACK, 1)
    plain, _ = _attack(plain, [4], uid=FOE, target=USER)
    plain, _ = _next_turn(plain, [])
    _, events = _attack(_until(plain, Phase.ATTACK), [4])
    assert _lost(events) == 1


def test_p2249_morale_i_passed_does_nothing() -> None:
    state, _ = _next_turn(_state(["Morale I"], hp=(1,)), [4])
    assert _statuses(state) == []


def test_p2261_morale_ii_failed_is_minus_2() -> None:
    state, _ = _next_turn(_state(["Morale II"], hp=(1,)), [1])
    _, events = _attack(_until(state, Phase.ATTACK), [5])  # 4+ becomes 6+
    assert _lost(events) == 0
    state, _ = _next_turn(_state(["Morale I"], hp=(1,)), [1])
    _, events = _attack(_until(state, Phase.ATTACK), [5])  # Morale I: 5+ hits
    assert _lost(events) == 1


def test_p2267_panic_failed_is_immobile_and_uses_no_weapons() -> None:
    state, _ = _next_turn(_state(["Panic"], hp=(1,)), [2])
    assert "Panic" in _statuses(state)
    assert _allowance(state) == 0
    # the Move and Attack Phases of this Game Turn pass the User by; asked anyway:
    at = replace(state, flow=replace(state.flow, phase=Phase.MOVE, active=0))
    with pytest.raises(RulesError, match='Move of 0"'):
        engine.check(at, Move(USER, to=(10.0, 14.0)))
    at = replace(state, flow=replace(state.flow, phase=Phase.ATTACK, active=0))
    with pytest.raises(RulesError, match="may not use any Weapons"):
        engine.check(at, Attack(USER, (("Gun", FOE),)))
    assert not any(isinstance(a, Attack) for a in engine.legal_actions(at).for_unit(USER))
    calm, _ = _next_turn(_state(["Panic"], hp=(1,)), [5])
    engine.check(_until(calm, Phase.ATTACK), Attack(USER, (("Gun", FOE),)))


def test_p2209_execution_each_failure_removes_a_model_until_a_test_passes() -> None:
    st = _state(["Execution"], user={"hp": 1, "models": 4}, hp=(1, 1, 1, 1))
    st = replace(
        st,
        units=(
            replace(st.units[USER], pos=((10.0, 10.0), (11.2, 10.0), (12.4, 10.0), (13.6, 10.0))),
            *st.units[1:],
        ),
    )
    st = replace(st, units=(st.units[USER].with_counter(perk_turn.HP_LOST_TURN, 2), st.units[1]))
    state, events = _next_turn(st, [1, 2, 5])  # two failures, then a pass
    assert len(state.units[USER].living()) == 2
    assert sum("Execution" in e.text and "removed" in e.text for e in events) == 2
    check_invariants(state)


def test_p2299_pusillanimous_11_loses_4_hp_the_books_example() -> None:
    # L2303 "A 2D6 result of 11 will cause a Unit to lose 4 HP (11-7= 4)"
    state = _state(["Pusillanimous"], user={"hp": 6}, counters={perk_turn.HP_LOST_TURN: 2})
    state, events = _next_turn(state, [5, 6])
    assert state.units[USER].hp == (2,)
    assert "4 HP lost (no Saves)" in _texts(events)
    state, _ = _next_turn(
        _state(["Pusillanimous"], user={"hp": 6}, counters={perk_turn.HP_LOST_TURN: 2}), [3, 4]
    )
    assert state.units[USER].hp == (6,)  # 7 or less passes


def test_p1334_mastery_passes_a_mastery_test_on_3() -> None:
    state, _ = _next_turn(_state(["Morale I", "Mastery"], hp=(1,)), [3])
    assert _statuses(state) == []  # 3+ with Mastery: passed
    state, _ = _next_turn(_state(["Morale I"], hp=(1,)), [3])
    assert _statuses(state) == ["Morale I"]


@pytest.mark.parametrize(
    ("rank", "face"),
    [
        pytest.param("Resist I", 4, id="p1677-Resist I"),
        pytest.param("Resist II", 5, id="p1699-Resist II"),
    ],
)
def test_resist_worsens_enemy_mastery_tests_within_its_radius(rank: str, face: int) -> None:
    # the Foe with Resist is 10" away: the User's Morale test needs one or two more
    state, _ = _next_turn(_state(["Morale I"], hp=(1,), foe_perks=[rank]), [face])
    assert _statuses(state) == ["Morale I"]
    far, _ = _next_turn(_state(["Morale I"], hp=(1,), foe_perks=[rank], gap=30), [face])
    assert _statuses(far) == []  # out of its Radius


def test_p1677_resist_i_worsens_the_skill_tests_of_weapons_targeting_the_user() -> None:
    # Cripple I (Skill Test 4+) against a Resist I target: a 4 fails
    state, _events = _attack(_state(weapon_perks=["Cripple I"], foe_perks=["Resist I"]), [4, 4])
    assert not any(s.startswith("Cripple") for s in _statuses(state, FOE))
    state, _ = _attack(_state(weapon_perks=["Cripple I"]), [4, 4])
    assert any(s.startswith("Cripple") for s in _statuses(state, FOE))


def test_p2999_skill_passes_a_skill_test_on_3() -> None:
    state, _ = _attack(_state(weapon_perks=["Cripple I", "Skill"]), [4, 3])
    assert any(s.startswith("Cripple") for s in _statuses(state, FOE))
    state, _ = _attack(_state(weapon_perks=["Cripple I"]), [4, 3])
    assert not any(s.startswith("Cripple") for s in _statuses(state, FOE))


# -- Defensive: +Armour, Powered by Pain, Deteriorate, Diminish; Unstoppable ------------------


def test_p1465_armour_i_the_books_example_4_plus_and_a_1_is_3_plus() -> None:
    # L1467 "User has a 4+ Armour Save. They roll a D3 and get 1, which increases it to a 3+"
    state, events = _next_turn(_state(["+Armour I"], user={"armour": 4}), [1])
    assert _profile(state).profile.armour == 3
    assert "+Armour I rolls 1" in _texts(events)
    state = _until(state, Phase.ATTACK, 1)
    _, events = _attack(state, [4, 3], uid=FOE, target=USER)  # hit, a 3 saves
    assert _lost(events) == 0
    plain, _ = _next_turn(_state([], user={"armour": 4}), [])
    _, events = _attack(_until(plain, Phase.ATTACK, 1), [4, 3], uid=FOE, target=USER)
    assert _lost(events) == 1


def test_p1471_armour_ii_rolls_a_d6_and_stops_at_2_plus() -> None:
    state, _ = _next_turn(_state(["+Armour II"], user={"armour": 4}), [6])
    assert _profile(state).profile.armour == 2
    state, _ = _next_turn(state, [])  # a new roll each Game Turn; the last one is gone
    assert len([s for s in _statuses(state) if s.startswith("+Armour")]) == 1


def test_p1465_armour_i_gives_a_save_to_a_unit_without_one() -> None:
    state, _ = _next_turn(_state(["+Armour I"]), [6])  # D3 3: no Save becomes 4+
    assert _profile(state).profile.armour is not None


def test_p1595_powered_by_pain_grows_with_game_turns_on_the_battlefield() -> None:
    state = _state(["Powered by Pain"], counters={perk_turn.ARRIVED: 1}, turn=1)
    state, _ = _next_turn(state, [])  # Game Turn 2 on the Battlefield: +50% Move and Dash
    assert _allowance(state) == 9 and _profile(state).profile.defence == 4
    state, _ = _next_turn(state, [])  # 3rd: +1 Defence
    assert _allowance(state) == 9 and _profile(state).profile.defence == 5
    plain, _ = _next_turn(_state([], counters={perk_turn.ARRIVED: 1}, turn=1), [])
    assert _allowance(plain) == 6


def test_p1595_powered_by_pain_counts_from_deployment() -> None:
    me = entry(unit("User", perks=["Powered by Pain"], weapons=[weapon("Gun")]))
    them = entry(unit("Foe", weapons=[weapon("Gun")]))
    st = scenario([[me], [them]], {FOE: [(10.0, 40.0)]}, phase=Phase.DEPLOY, turn=1)
    st = replace(st, units=(replace(st.units[USER], location=Location.RESERVE), st.units[1]))
    st, _ = engine.apply(st, Deploy(USER, at=(10.0, 5.0)))
    assert st.units[USER].counter(perk_turn.ARRIVED) == 1
    st, _ = _next_turn(st, [])
    assert _allowance(st) == 9


def test_p1208_deteriorate_the_books_example_21_hp() -> None:
    # L1215 "A Unit with 21 HP triggers the -1 effect at 11 HP, and the -2 effect at 6 HP"
    assert perk_turn._level(12, 21) == "" and perk_turn._level(11, 21) == "50%"
    assert perk_turn._level(7, 21) == "50%" and perk_turn._level(6, 21) == "25%"

    def played(perks: list[str]) -> GameState:
        state = _state(foe={"hp": 1, "models": 21, "armour": 3}, foe_perks=perks, gap=20)
        foe = _spread(state.units[FOE], 21, 28.0)
        foe = replace(foe, hp=(1,) * 12 + (0,) * 9, removed=(False,) * 12 + (True,) * 9)
        state, _ = _attack(replace(state, units=(state.units[USER], foe)), [4, 1])
        return state  # 1 HP lost, 11 left

    state = played(["Deteriorate"])
    assert "Deteriorate (50%)" in _statuses(state, FOE)
    assert _profile(state, FOE).profile.armour == 4  # 3+ becomes 4+
    assert _profile(played([]), FOE).profile.armour == 3


def _spread(u: Any, n: int, y: float) -> Any:
    return replace(
        u,
        pos=tuple((4.0 + 1.2 * (k % 15), y + 1.2 * (k // 15)) for k in range(n)),
        hp=(1,) * n,
        removed=(False,) * n,
        moved=(False,) * n,
        heavy=(False,) * n,
        battle=(False,) * n,
    )


def test_p1226_diminish_halves_move_and_helps_attacks_against_it_at_half_hp() -> None:
    # L1233 "A Unit with 17 HP triggers the 50% effect at 9 HP, and the 25% effect at 5 HP"
    assert perk_turn._level(9, 17) == "50%" and perk_turn._level(10, 17) == ""
    assert perk_turn._level(5, 17) == "25%"

    def played(perks: list[str]) -> tuple[GameState, int]:
        state = _state(foe={"hp": 4}, foe_perks=perks)
        state = replace(state, units=(state.units[USER], replace(state.units[FOE], hp=(3,))))
        state, _ = _attack(state, [4])  # 2 HP of 4 left: 50%
        after = state
        state, _ = _next_turn(state, [])
        _, events = _attack(_until(state, Phase.ATTACK), [3])  # +1: Power 4 vs 4 hits on 3
        return after, _lost(events)

    state, lost = played(["Diminish"])
    assert _statuses(state, FOE) == ["Diminish (50%)"] and lost == 1
    assert _allowance(state, FOE) == 3
    plain, lost = played([])
    assert lost == 0 and _allowance(plain, FOE) == 6


def test_p2178_unstoppable_is_unaffected_by_cripple() -> None:
    state, events = _attack(_state(weapon_perks=["Cripple I"], foe_perks=["Unstoppable"]), [4])
    assert _statuses(state, FOE) == []
    assert "immune to Cripple I" in _texts(events)
    state, _ = _attack(_state(weapon_perks=["Cripple I"]), [4, 4])
    assert _statuses(state, FOE) != []


# -- Weapon perks by Game Turn and by HP: Escalate, Bloody, Wane ------------------------------


def test_p2963_escalate_adds_power_then_an_attack() -> None:
    state = _state(weapon_perks=["Escalate"], counters={perk_turn.ARRIVED: 1}, turn=1)
    state, _ = _next_turn(state, [])  # 2nd Game Turn on the Battlefield: +1 Power
    gun = _profile(state).weapons["Gun"]
    assert (gun.power, gun.attacks) == (5, 1)
    _, events = _attack(_until(state, Phase.ATTACK), [3])  # Power 5: 3+
    assert _lost(events) == 1
    state, _ = _next_turn(state, [])  # 3rd: +1 Attack
    gun = _profile(state).weapons["Gun"]
    assert (gun.power, gun.attacks) == (5, 2)
    plain, _ = _next_turn(_state(counters={perk_turn.ARRIVED: 1}, turn=1), [])
    assert _profile(plain).weapons["Gun"].power == 4


def test_p3777_bloody_at_half_hp_at_the_start_of_the_turn() -> None:
    state, _events = _next_turn(_state(weapon_perks=["Bloody"], hp=(2,)), [])  # 2 of 5
    gun = _profile(state).weapons["Gun"]
    assert (gun.power, gun.attacks) == (6, 3)
    state, _ = _next_turn(_state(weapon_perks=["Bloody"], hp=(3,)), [])  # 3 > 5 // 2
    assert _profile(state).weapons["Gun"].power == 4


def test_p3264_wane_minus_2_to_attack_dice_at_a_quarter_hp() -> None:
    def played(perks: list[str]) -> tuple[GameState, int]:
        state = _state(weapon_perks=perks, user={"hp": 4}, hp=(2,))
        state, _ = _attack(_until(state, Phase.ATTACK, 1), [4], uid=FOE, target=USER)
        state, _ = _next_turn(state, [])  # 1 HP of 4 (25%): 4+ becomes 6+
        _, events = _attack(_until(state, Phase.ATTACK), [5])
        return state, _lost(events)

    state, lost = played(["Wane"])
    assert "Wane (25%)@Gun" in _statuses(state) and lost == 0
    assert played([])[1] == 1


# -- Limitation: when a weapon may be used ----------------------------------------------------


@pytest.mark.parametrize(
    ("rank", "uses"),
    [pytest.param(f"Use {r}", n, id=f"p{line}-Use {r}") for r, n, line in _RANKS(3246, 3248, 3250)],
)
def test_use_limits_the_weapon_per_game(rank: str, uses: int) -> None:
    state = _state(weapon_perks=[rank])
    for _ in range(uses):
        state = _until(state, Phase.ATTACK)
        engine.check(state, Attack(USER, (("Gun", FOE),)))
        state, _ = _attack(state, [1])
        state, _ = _next_turn(state, [])
    state = _until(state, Phase.ATTACK)
    with pytest.raises(RulesError, match="per game"):
        engine.check(state, Attack(USER, (("Gun", FOE),)))
    assert not any(isinstance(a, Attack) for a in engine.legal_actions(state).for_unit(USER))


@pytest.mark.parametrize(
    ("rank", "wait"),
    [
        pytest.param(f"Countdown {r}", n, id=f"p{line}-Countdown {r}")
        for r, n, line in _RANKS(3046, 3058, 3060)
    ],
)
def test_countdown_waits_full_game_turns_on_the_battlefield(rank: str, wait: int) -> None:
    # L3052 "If the Wielder was Deployed at the start of Game Turn 1, the Countdown Weapon
    # will be available on Game Turn 2" (Countdown I)
    state = _state(weapon_perks=[rank], counters={perk_turn.ARRIVED: 1}, turn=1)
    for _ in range(wait):
        with pytest.raises(RulesError, match=rank):
            engine.check(_until(state, Phase.ATTACK), Attack(USER, (("Gun", FOE),)))
        state, _ = _next_turn(state, [])
    assert state.flow.turn == 1 + wait
    engine.check(_until(state, Phase.ATTACK), Attack(USER, (("Gun", FOE),)))


@pytest.mark.parametrize(
    ("rank", "wait"),
    [
        pytest.param(f"Recharge {r}", n, id=f"p{line}-Recharge {r}")
        for r, n, line in _RANKS(3142, 3152, 3154)
    ],
)
def test_recharge_waits_after_each_use(rank: str, wait: int) -> None:
    # L3146 "If the Wielder attacked with the Recharge Weapon on Game Turn 1, it will be
    # available to use again on Game Turn 3" (Recharge I)
    state = _state(weapon_perks=[rank], turn=1)
    state, _ = _attack(state, [1])
    for _ in range(wait):
        state, _ = _next_turn(state, [])
        with pytest.raises(RulesError, match="recharges"):
            engine.check(_until(state, Phase.ATTACK), Attack(USER, (("Gun", FOE),)))
    state, _ = _next_turn(state, [])
    assert state.flow.turn == 2 + wait
    engine.check(_until(state, Phase.ATTACK), Attack(USER, (("Gun", FOE),)))


def test_p3134_pain_locked_unlocks_the_game_turn_after_hp_loss_from_an_enemy() -> None:
    state = _state(weapon_perks=["Pain Locked"])
    with pytest.raises(RulesError, match="locked"):
        engine.check(state, Attack(USER, (("Gun", FOE),)))
    state = _until(state, Phase.ATTACK, 1)
    state, _ = _attack(state, [4], uid=FOE, target=USER)
    assert state.units[USER].counter(perk_turn.PAIN) == 2
    state, _ = _next_turn(state, [])
    engine.check(_until(state, Phase.ATTACK), Attack(USER, (("Gun", FOE),)))


# -- Range under statuses: Blind, Hearty (the game's range checks read statuses) -------------


def test_p2594_blind_i_halves_the_targets_range_and_its_attack_dice() -> None:
    # the User's Blind I Gun hits the Foe 20" away (Skill 4+ passed): the Foe's 24" Gun is
    # 12" for the rest of the Game Turn, so it cannot attack back
    state, events = _attack(_state(weapon_perks=["Blind I"], gap=20), [4, 4])
    assert "Blind" in _statuses(state, FOE)
    assert "suffers Blind" in _texts(events)
    with pytest.raises(RulesError, match="range"):
        engine.check(state, Attack(FOE, (("Gun", USER),)))
    plain, _ = _attack(_state(gap=20), [4])
    engine.check(plain, Attack(FOE, (("Gun", USER),)))
    # within its halved Range it attacks at -1: a 4 misses
    near, _ = _attack(_state(weapon_perks=["Blind I"], gap=10), [4, 4])
    _, events = _attack(near, [4], uid=FOE, target=USER)
    assert _lost(events) == 0


def test_p2594_blind_i_ends_with_the_game_turn() -> None:
    state, _ = _attack(_state(weapon_perks=["Blind I"], gap=20), [4, 4])
    state, _ = _next_turn(state, [])
    assert _statuses(state, FOE) == []


def test_p2606_blind_ii_needs_only_a_successful_attack_die() -> None:
    # a hit saved by the Foe's 2+ Armour: no HP Loss, Blind II still tests (a 4 passes)
    state, _ = _attack(_state(weapon_perks=["Blind II"], foe={"armour": 2}, gap=20), [4, 4, 6])
    assert state.units[FOE].hp == (5,)
    assert "Blind" in _statuses(state, FOE)
    with pytest.raises(RulesError, match="range"):
        engine.check(state, Attack(FOE, (("Gun", USER),)))
    state, _ = _attack(_state(weapon_perks=["Blind I"], foe={"armour": 2}, gap=20), [4, 6])
    assert _statuses(state, FOE) == []  # Blind I needs HP Loss


def _deployed(perks: list[str], foe_y: float) -> GameState:
    """The User (3 HP, a Gun with ``perks``) deployed by the engine at (10, 8) in Game Turn 1;
    the Foe at (10, ``foe_y``); the Attack Phase, side 0 acting."""
    me = entry(unit("User", hp=3, weapons=[weapon("Gun", power=4, perks=perks)]))
    them = entry(unit("Foe", hp=5, weapons=[weapon("Gun", power=4)]))
    st = scenario([[me], [them]], {FOE: [(10.0, foe_y)]}, phase=Phase.DEPLOY, turn=1)
    st = replace(st, units=(replace(st.units[USER], location=Location.RESERVE), st.units[1]))
    st, _ = engine.apply(st, Deploy(USER, at=(10.0, 8.0)))
    return replace(st, flow=replace(st.flow, phase=Phase.ATTACK, active=0))


def test_p3915_hearty_at_full_hp_adds_12_inches_and_1_power() -> None:
    at = _deployed(["Hearty"], 40.0)
    assert "Hearty@Gun" in _statuses(at)
    assert 24 < abs(40.0 - at.units[USER].pos[0][1]) - 1.0 <= 36
    _, events = _attack(at, [3])  # about 30" away, Power 5: 3+ hits
    assert _lost(events) == 1
    with pytest.raises(RulesError, match="range"):
        engine.check(_deployed([], 40.0), Attack(USER, (("Gun", FOE),)))


def test_p3915_hearty_ends_when_the_user_loses_hp() -> None:
    at = _deployed(["Hearty"], 28.0)
    at = replace(at, flow=replace(at.flow, active=1))
    hurt, _ = _attack(at, [4], uid=FOE, target=USER)
    assert "Hearty@Gun" not in _statuses(hurt)
    assert _profile(hurt).weapons["Gun"].power == 4


# -- instead of a casualty: Reservoir, Last Stand, Resurrection --------------------------------


def _squad(perks: list[str], hp_each: int = 2, models: int = 5) -> GameState:
    """The Foe: ``models`` models of ``hp_each`` HP in a line, 10" from the User's Gun
    (Power 4, ``attacks`` set per test)."""
    st = _state(foe={"hp": hp_each, "models": models}, foe_perks=perks)
    foe = replace(
        st.units[FOE],
        pos=tuple((6.0 + 1.2 * k, 20.0) for k in range(models)),
        hp=(hp_each,) * models,
        removed=(False,) * models,
        moved=(False,) * models,
        heavy=(False,) * models,
        battle=(False,) * models,
    )
    return replace(st, units=(st.units[USER], foe))


def _finish(state: GameState, n: int, faces: int = 4) -> tuple[GameState, list[Event]]:
    """Unit 0 attacks the Foe with ``n`` Attacks, every die a 4 (a hit, no Saves)."""
    gun = weapon("Gun", power=4, attacks=n)
    info = state.setup.units[USER]
    new_unit = info.unit.model_copy(update={"weapons": [gun]})
    units = (replace(info, unit=new_unit), *state.setup.units[1:])
    state = replace(state, setup=replace(state.setup, units=units))
    return _attack(state, [faces] * n)


def test_p1661_reservoir_the_books_example_five_models_of_2_hp() -> None:
    # L1665 "A Unit of 5 models each with 2 HP is reduced to 0 HP. The Unit will recover 3 HP.
    # 2 models are revived, one with 2 HP and one with 1 HP."
    state, events = _finish(_squad(["Reservoir"]), 10)
    living = [state.units[FOE].hp[i] for i in state.units[FOE].living()]
    assert sorted(living) == [1, 2]
    assert "Reservoir restores 3 HP" in _texts(events)
    assert state.units[FOE].used("Reservoir") == 1
    state, _ = _next_turn(state, [])
    assert state.units[FOE].location is Location.TABLE and not state.over
    plain, _ = _finish(_squad([]), 10)
    assert plain.units[FOE].living() == []
    plain, _ = _next_turn(plain, [])
    assert plain.over and plain.units[FOE].location is Location.DESTROYED


def test_p1567_last_stand_restores_everything_until_the_end_of_the_next_game_turn() -> None:
    st = _squad(["Last Stand"])
    st = replace(st, units=(st.units[USER], replace(st.units[FOE], statuses=(_burn(),))))
    state, events = _finish(st, 10)
    assert state.units[FOE].hp == (2,) * 5  # all HP and models
    assert _statuses(state, FOE) == ["Last Stand"]  # Burn is gone
    state, _ = _next_turn(state, [])
    assert state.units[FOE].location is Location.TABLE
    state, events = _next_turn(state, [])  # the end of the next Game Turn: removed
    assert state.units[FOE].location is Location.DESTROYED
    assert "Last Stand ends" in _texts(events)


def _burn() -> Any:
    from warbench.rulesets.warsurge.game.state import Status

    return Status("Burn", None, "u0/Gun")


@pytest.mark.parametrize(
    "rank",
    [pytest.param("Resurrection I", id="p1707-Resurrection I"),
     pytest.param("Resurrection II", id="p1725-Resurrection II")],
)  # fmt: skip
def test_resurrection_revives_fallen_models_on_4_plus_at_the_next_turn(rank: str) -> None:
    state, _ = _finish(_squad([rank], hp_each=1, models=3), 2)  # two models fall
    assert len(state.units[FOE].living()) == 1
    state, events = _next_turn(state, [5, 2])  # model 1 revives, model 2 does not
    assert len(state.units[FOE].living()) == 2
    assert "1 models revive at full HP" in _texts(events)
    check_invariants(state)
    state, events = _next_turn(state, [6])
    if rank == "Resurrection II":  # the failed model tests again
        assert len(state.units[FOE].living()) == 3
    else:  # Limited Use (1)
        assert len(state.units[FOE].living()) == 2
    plain, _ = _finish(_squad([], hp_each=1, models=3), 2)
    plain, _ = _next_turn(plain, [5, 5])
    assert len(plain.units[FOE].living()) == 1


# -- Roster Perks switched on by a Presence unit -----------------------------------------------


def _roster(
    perk: str | None, *, presence_at: tuple[float, float] | None = (30.0, 5.0)
) -> GameState:
    """Side 0: the User and a Herald with Presence carrying ``perk`` (designated to it in the
    roster) at ``presence_at`` (``None``: in Reserve); side 1: the Foe 10" from the User; the
    Attack Phase of Game Turn 2. The Presence units' Roster Perks are read at phase starts,
    deployment, moves and attacks; here the state is put on a Phase start by a pass."""
    me = entry(unit("User", hp=5, armour=4, aegis=6, weapons=[weapon("Gun", power=4)]))
    herald = entry(unit("Herald", perks=["Presence"], weapons=[weapon("Gun", power=4)]))
    if perk is not None:
        herald = replace(herald, traits=(perk,))
    them = entry(unit("Foe", hp=5, weapons=[weapon("Gun", power=4)]))
    pos = {USER: [(10.0, 10.0)], 2: [(10.0, 20.0)]}
    if presence_at is not None:
        pos[1] = [presence_at]
    st = scenario([[me, herald], [them]], pos, phase=Phase.MOVE, turn=2)
    # a pass ends side 0's Move Phase, side 1's too: the Attack Phase starts (a Phase start)
    st, _ = engine.apply(st, Pass())
    st, _ = engine.apply(st, Pass())
    assert st.flow.phase is Phase.ATTACK and st.flow.active == 0
    return st


def test_p4382_swift_every_unit_of_the_roster_moves_half_again() -> None:
    st = _roster("Swift")
    assert _statuses(st) == ["Swift"] and _statuses(st, 1) == ["Swift"]
    assert _statuses(st, 2) == []  # not the enemy's
    assert _allowance(st) == 9 and _allowance(st, dash=True) == 6
    assert _allowance(_roster(None)) == 6


def test_p1372_presence_only_while_the_presence_unit_is_on_the_battlefield() -> None:
    assert _allowance(_roster("Swift", presence_at=None)) == 6  # Presence unit in Reserve
    st = _roster("Swift")
    st = replace(
        st, units=(st.units[0], replace(st.units[1], location=Location.DESTROYED), st.units[2])
    )
    st = _until(st, Phase.DASH)  # the next Phase starts: Swift is off
    assert _statuses(st) == [] and _allowance(st) == 6


def test_p4310_fleeting_dash_half_again() -> None:
    st = _roster("Fleeting")
    assert _allowance(st, dash=True) == 9 and _allowance(st) == 6


def test_p4332_inspiring_plus_1_to_attack_dice() -> None:
    _, events = _attack(_roster("Inspiring"), [3], target=2)  # 4+ becomes 3+
    assert _lost(events) == 1
    _, events = _attack(_roster(None), [3], target=2)
    assert _lost(events) == 0


def _foe_hits(perk: str | None, faces: list[int]) -> int:
    """The Foe's Gun at the User (Armour 4+, AEGIS 6+) in a roster with ``perk``."""
    st = _roster(perk)
    st = replace(st, flow=replace(st.flow, active=1))
    return _lost(_attack(st, faces, uid=2, target=USER)[1])


def test_p4374_protective_plus_1_armour_save() -> None:
    assert _foe_hits("Protective", [4, 3]) == 0  # a 3 saves at 3+
    assert _foe_hits(None, [4, 3, 1]) == 1  # 4+: fails, the AEGIS 6+ fails


def test_p4378_shielding_plus_1_aegis_save() -> None:
    assert _foe_hits("Shielding", [4, 1, 5]) == 0  # Armour fails, AEGIS 5+ saves on a 5
    assert _foe_hits(None, [4, 1, 5]) == 1


def test_p4276_demoralising_minus_1_to_enemy_attack_dice() -> None:
    assert _foe_hits("Demoralising", [4]) == 0  # 4+ becomes 5+: a miss, no Save rolled
    assert _foe_hits(None, [4, 1, 1]) == 1


def test_presence_roster_perks_go_into_play_from_a_warsurge_roster() -> None:
    from pathlib import Path

    from warbench.rulesets.warsurge.game.io import load_game_roster

    path = Path(__file__).parents[4] / "examples/warsurge/roster_files/strike_force.yaml"
    player = load_game_roster(path)
    herald = next(e for e in player.roster if e.name == "Herald")
    assert "Inspiring" in herald.traits
