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
from warbench.rulesets.warsurge.game.actions import Action, Attack
from warbench.rulesets.warsurge.game.actions_advanced import UsePerks
from warbench.rulesets.warsurge.game.advstate import AdvancedFlow
from warbench.rulesets.warsurge.game.events import Event
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.movement import unit_allowance
from warbench.rulesets.warsurge.game.state import GameState, Phase
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
