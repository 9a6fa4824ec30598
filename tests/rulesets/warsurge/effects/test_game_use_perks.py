"""Activated perks used by a player's action (Perks 000_94ecc6a4c74d351b.txt §12.2 L225-L231):
the Advanced playstyle's Use Perks action (001_d3f5e425c5e1196d.txt §9.2) calls the perk
effects engine (``Hook.USE_PERKS``, ``perk_hooks.use_perks_action``). Test names carry the
rank's source line (``p2160``), which ``warbench perks --coverage`` reads."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.warsurge.game.helpers import check_invariants, entry, scenario, unit, weapon
from warbench.kernel.dice import ScriptedDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Action, Attack, Move
from warbench.rulesets.warsurge.game.actions_advanced import UsePerks
from warbench.rulesets.warsurge.game.advstate import AdvancedFlow
from warbench.rulesets.warsurge.game.events import Event
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.movement import unit_allowance
from warbench.rulesets.warsurge.game.state import ALL_AUTOMATIONS, Automation, GameState, Phase
from warbench.rulesets.warsurge.game.work import Work, to_unit_state


def _duel(perks: list[str], hp: int = 3) -> GameState:
    """Advanced Action Steps: unit 0 (``perks``, a Gun) and unit 1, 10" apart, 20 CP each."""
    a = unit("A", perks=perks, hp=hp, weapons=[weapon("Gun", range=24, power=4)])
    b = unit("B", weapons=[weapon("Axe", range=1, power=4)])
    st = scenario([[entry(a)], [entry(b)]], {0: [(24, 10)], 1: [(24, 20)]}, playstyle="advanced")
    return replace(st, flow=replace(st.flow, phase=Phase.ACTIONS, adv=AdvancedFlow(cp=(20, 20))))


def _do(state: GameState, *actions: Action) -> tuple[GameState, list[Event]]:
    out: list[Event] = []
    for a in actions:
        state, events = engine.apply(state, a, dice=ScriptedDice([4] * 10))
        check_invariants(state)
        out.extend(events)
    return state, out


def _allowance(state: GameState, uid: int = 0) -> int:
    return unit_allowance(Work(state, None, DEFAULT_HOOKS), uid, False)


def test_p2160_rush_by_the_use_perks_action_moves_half_again_and_forbids_weapons() -> None:
    state, events = _do(_duel(["Rush"]), UsePerks(0, ("Rush",)))
    assert any("uses Rush" in e.text for e in events)
    assert _allowance(state) == 9
    with pytest.raises(RulesError, match="may not use any Weapons"):
        engine.check(state, Attack(0, (("Gun", 1),)))
    plain, _ = _do(_duel([]), UsePerks(0, ("Rush",)))
    assert _allowance(plain) == 6
    engine.check(plain, Attack(0, (("Gun", 1),)))


def test_p2160_rush_is_refused_after_the_unit_used_weapons_this_turn() -> None:
    state, _ = _do(_duel(["Rush"]), Attack(0, (("Gun", 1),)))
    state = _skip_counter(state)
    state, events = _do(state, UsePerks(0, ("Rush",)))
    assert any("cannot use Rush" in e.text and "used Weapons" in e.text for e in events)
    assert _allowance(state) == 6


def _skip_counter(state: GameState) -> GameState:
    """The attacked side answers with no Counter Action; side 0 acts again (a new Step)."""
    from warbench.rulesets.warsurge.game.actions_advanced import Counter

    while engine.acting_side(state) == 1 and state.flow.adv and state.flow.adv.counter:
        state, _ = engine.apply(state, Counter(1, "none"))
    flow = replace(state.flow, phase=Phase.ACTIONS, active=0, adv=AdvancedFlow(cp=(20, 20)))
    return replace(state, flow=flow)


def test_p1611_recover_by_the_use_perks_action_in_the_same_turn_twice() -> None:
    # Advanced (§12.2 L229): a perk may be used again in the same Game Turn, for more CP
    st = _duel(["Recover"], hp=6)
    st = replace(st, units=(replace(st.units[0], hp=(1,)), *st.units[1:]))
    st, events = _do(st, UsePerks(0, ("Recover",)))  # D3 from a 4: 2 HP
    assert st.units[0].hp == (3,)
    assert any("uses Recover: 2 HP restored" in e.text for e in events)


def test_use_perks_names_a_perk_the_unit_lacks() -> None:
    _state, events = _do(_duel([]), UsePerks(0, ("Recover",)))
    assert any("cannot use Recover: it has no perk" in e.text for e in events)
    _, events = _do(_duel([]), UsePerks(0))
    assert any("has no activated perk to use now" in e.text for e in events)


def test_use_perks_with_no_name_uses_every_perk_it_may() -> None:
    st = _duel(["Recover", "Rush"], hp=6)
    st = replace(st, units=(replace(st.units[0], hp=(1,)), *st.units[1:]))
    st, _events = _do(st, UsePerks(0))
    assert st.units[0].hp == (3,) and _allowance(st) == 9


@pytest.mark.parametrize(
    ("rank", "uses"),
    [
        pytest.param("Limit Break I", 1, id="p2510-Limit Break I"),
        pytest.param("Limit Break II", 2, id="p2518-Limit Break II"),
        pytest.param("Limit Break III", 3, id="p2524-Limit Break III"),
    ],
)
def test_limit_break_doubles_move_adds_range_power_and_ap_for_its_limited_uses(
    rank: str, uses: int
) -> None:
    # L2510 "Move and Dash x2, all Weapons +6\" Range, +3 Power, +1 AP"; the Foe is 28" away
    st = _duel([rank])
    st = replace(st, units=(st.units[0], replace(st.units[1], pos=((24.0, 39.0),))))
    with pytest.raises(RulesError, match="range"):
        engine.check(st, Attack(0, (("Gun", 1),)))
    for _ in range(uses):
        st, events = _do(st, UsePerks(0, (rank,)))
        assert any(f"uses {rank}" in e.text for e in events)
        st = _skip_counter(st)  # side 0's next Action Step
    assert _allowance(st) == 12
    gun = to_unit_state(Work(st, None, DEFAULT_HOOKS), 0).weapons["Gun"]
    assert gun.power == 7 and gun.ap is not None
    engine.check(st, Attack(0, (("Gun", 1),)))  # 30" Gun: in range
    st, events = _do(st, UsePerks(0, (rank,)))
    assert any(f"cannot use {rank}" in e.text and "per game" in e.text for e in events)


# -- the Standard playstyle: "use perk" is the player's decision without the automation ------

_CHOOSING = ALL_AUTOMATIONS - {Automation.PERK_USE}


def _standard(perks: list[str], *, automation: frozenset[Automation] = _CHOOSING) -> GameState:
    """Standard Move Phase: unit 0 (``perks``) and unit 1 (side 0, plain), the Foe 30" away."""
    a = unit("A", perks=perks, hp=3, weapons=[weapon("Gun", range=24, power=4)])
    b = unit("B", weapons=[weapon("Gun", range=24, power=4)])
    c = unit("C", weapons=[weapon("Gun", range=24, power=4)])
    return scenario(
        [[entry(a), entry(b)], [entry(c)]],
        {0: [(24, 5)], 1: [(30, 5)], 2: [(24, 40)]},
        phase=Phase.MOVE,
        automation=automation,
    )


def test_p2510_limit_break_i_is_the_players_choice_in_the_standard_move_phase() -> None:
    st = _standard(["Limit Break I"])
    listed = list(engine.legal_actions(st))
    assert UsePerks(0, ("Limit Break I",)) in listed
    st, events = _do(st, UsePerks(0, ("Limit Break I",)))
    assert any("uses Limit Break I" in e.text for e in events)
    assert engine.acting_side(st) == 0 and not st.units[0].acted  # not an action
    assert _allowance(st) == 12
    st, _ = _do(st, Move(0, to=(24, 17)))  # 12": Move x2
    assert abs(st.units[0].pos[0][1] - 17) < 1e-6
    with pytest.raises(RulesError, match="once per game"):
        engine.check(replace(st, flow=replace(st.flow, active=0)), UsePerks(0, ("Limit Break I",)))


def test_standard_use_perk_is_not_listed_under_the_automation_and_automated_play_is_unchanged() -> (
    None
):
    st = _standard(["Limit Break I"], automation=ALL_AUTOMATIONS)
    assert not any(isinstance(a, UsePerks) for a in engine.legal_actions(st))
    engine.check(st, UsePerks(0, ("Limit Break I",)))  # still legal when sent


def test_standard_a_perk_once_per_game_turn_and_only_its_own() -> None:
    st = _standard(["Recover"])
    st = replace(st, units=(replace(st.units[0], hp=(1,)), *st.units[1:]))
    st, _ = _do(st, UsePerks(0, ("Recover",)))
    with pytest.raises(RulesError, match="already used this Game Turn"):
        engine.check(st, UsePerks(0, ("Recover",)))
    with pytest.raises(RulesError, match="has no perk 'Rush'"):
        engine.check(st, UsePerks(0, ("Rush",)))
    with pytest.raises(RulesError, match="no activated perk it may use now"):
        engine.check(st, UsePerks(1))


def test_standard_a_unit_that_uses_a_perk_and_then_does_not_act_forfeits_its_action() -> None:
    # L229 "they may still use the Perk but it forfeits their opportunity to make an action
    # later in the Phase"
    st, _ = _do(_standard(["Rush"]), UsePerks(0, ("Rush",)), Move(1, to=(30, 9)))
    assert st.units[0].acted
    with pytest.raises(RulesError, match="already acted"):
        engine.check(replace(st, flow=replace(st.flow, active=0)), Move(0, to=(24, 9)))
    st, _ = _do(_standard(["Rush"]), UsePerks(0, ("Rush",)), Move(0, to=(24, 14)))
    assert st.units[0].acted and not st.units[1].acted  # it moved 9" (Rush)
    assert abs(st.units[0].pos[0][1] - 14) < 1e-6


# -- Cure and Purge: a Mastery Test, then statuses removed from a unit within the Radius -------


def _with(st: GameState, uid: int, *names: str) -> GameState:
    from warbench.rulesets.warsurge.game.state import Status

    u = replace(st.units[uid], statuses=tuple(Status(n, None, "u2/Gun") for n in names))
    return replace(st, units=tuple(u if k == uid else x for k, x in enumerate(st.units)))


@pytest.mark.parametrize(
    "rank", [pytest.param("Cure I", id="p717-Cure I"), pytest.param("Cure II", id="p729-Cure II")]
)
def test_cure_removes_afflictions_from_a_friendly_unit_on_a_passed_mastery_test(
    rank: str,
) -> None:
    st = _with(_standard([rank]), 1, "Burn", "Cripple (next Game Turn)", "Morale I")
    st, events = _do(st, UsePerks(0, (rank,)))  # Mastery 4+: a 4 passes
    assert st.units[1].statuses == ()
    assert any(f"uses {rank} on P0: B" in e.text for e in events)
    with pytest.raises(RulesError, match="no unit within"):  # nothing left to remove
        engine.check(st, UsePerks(0, (rank,)))
    failed = _with(_standard([rank]), 1, "Burn")
    failed, _ = engine.apply(failed, UsePerks(0, (rank,)), dice=ScriptedDice([3]))
    assert [s.name for s in failed.units[1].statuses] == ["Burn"]
    with pytest.raises(RulesError, match="already used this Game Turn"):
        engine.check(failed, UsePerks(0, (rank,)))
    assert failed.units[0].used(rank) == 0  # a failed test spends no Limited Use
    with pytest.raises(RulesError, match="has no perk"):  # without the perk
        engine.check(_with(_standard([]), 1, "Burn"), UsePerks(0, (rank,)))


@pytest.mark.parametrize(
    "rank",
    [pytest.param("Purge I", id="p899-Purge I"), pytest.param("Purge II", id="p909-Purge II")],
)
def test_purge_removes_an_enemys_activated_bonuses(rank: str) -> None:
    # the enemy (unit 2) moved 20" from the User, within Purge's 24"
    st = _standard([rank])
    st = replace(st, units=(*st.units[:2], replace(st.units[2], pos=((24.0, 25.0),))))
    st = _with(st, 2, "Adrenaline", "Limit Break")
    st, events = _do(st, UsePerks(0, (rank,)))
    assert [s.name for s in st.units[2].statuses] == ["Limit Break"]  # Transformation stays
    assert any("Adrenaline removed" in e.text for e in events)
    far = _with(_standard([rank]), 2, "Adrenaline")  # 35" away: out of its Radius
    with pytest.raises(RulesError, match="no unit within"):
        engine.check(far, UsePerks(0, (rank,)))
