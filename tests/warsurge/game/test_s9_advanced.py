"""The Advanced playstyle (001_d3f5e425c5e1196d.txt §8, §9.1-9.4; issue 12).

Command Points (§9.1 step 2 and its example L3692-3696), Action Steps of one or two Actions,
the eight Actions and their doubling cost (§9.2, examples L3722-3727), Counter Actions
(§9.3), casualties removed at once (§9.1 IV) and the sample Advanced Game Turn (§9.4).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from warbench.kernel.dice import ScriptedDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.battlefield import sample_board
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import (
    Action,
    Attack,
    ChooseTurnMaster,
    Move,
    Pass,
    action_from_dict,
    action_to_dict,
)
from warbench.rulesets.warsurge.game.actions_advanced import (
    Counter,
    EndStep,
    Guard,
    Prepare,
    Support,
    UsePerks,
)
from warbench.rulesets.warsurge.game.advstate import AdvancedFlow
from warbench.rulesets.warsurge.game.geom import Field
from warbench.rulesets.warsurge.game.io import load_game_roster
from warbench.rulesets.warsurge.game.players import RandomLegalPlayer, ScriptedPlayer, play
from warbench.rulesets.warsurge.game.record import GameRecord, replay
from warbench.rulesets.warsurge.game.state import GameState, Location, Phase, build_setup
from warbench.rulesets.warsurge.game.work import Work, to_unit_state

from .helpers import ROSTERS, check_invariants, entry, line, scenario, unit, weapon

ADV = {"playstyle": "advanced"}


def _at_turn_master(state: GameState, cp: tuple[int, ...] | None) -> GameState:
    flow = replace(
        state.flow,
        phase=Phase.TURN_MASTER,
        rolloff_winner=0,
        active=None,
        adv=None if cp is None else AdvancedFlow(cp=cp),
    )
    return replace(state, flow=flow)


def _actions(state: GameState, cp: tuple[int, int] = (20, 20)) -> GameState:
    """``state`` (from :func:`scenario`) in the Action Steps with these CP."""
    return replace(state, flow=replace(state.flow, phase=Phase.ACTIONS, adv=AdvancedFlow(cp=cp)))


def _do(state: GameState, *actions: Action) -> GameState:
    for a in actions:
        state, _ = engine.apply(state, a)
        check_invariants(state)
    return state


def _cp(state: GameState) -> tuple[int, ...]:
    assert state.flow.adv is not None
    return state.flow.adv.cp


def _duel(**kw: object) -> GameState:
    """Two single-model units 10" apart, side 0 acting."""
    a = unit("A", weapons=[weapon("Gun", range=24, power=4)], **kw)  # type: ignore[arg-type]
    b = unit("B", weapons=[weapon("Axe", range=1, power=4)])
    return _actions(scenario([[entry(a)], [entry(b)]], {0: [(24, 10)], 1: [(24, 20)]}, **ADV))


def test_s9_1_example_leftover_cp_plus_two_per_unit_plus_the_turn_master_s_2d6() -> None:
    # L3692-3696: 4 CP left + 3 units (6 CP) + 2D6 of 7 at 1000 points = 17 CP
    us = [entry(unit(f"U{k}")) for k in range(3)]
    st = scenario(
        [us, [entry(unit("E"))]],
        {0: [(5, 5)], 1: [(10, 5)], 2: [(15, 5)], 3: [(24, 40)]},
        point_limit=1000,
        **ADV,
    )
    st = _at_turn_master(st, cp=(4, 0))
    after, events = engine.apply(st, ChooseTurnMaster(0), dice=ScriptedDice([3, 4]))
    assert after.flow.phase is Phase.ACTIONS
    assert _cp(after) == (17, 2 + 7)
    assert after.flow.active == 0  # the Turn Master's Action Step first (§9.1 step 3)
    assert [e.kind for e in events].count("command_points") == 2


@pytest.mark.parametrize(("limit", "dice"), [(500, 1), (501, 2), (1000, 2), (1500, 3)])
def test_s9_1_a_d6_per_500_points_of_the_point_limit(limit: int, dice: int) -> None:
    st = scenario(
        [[entry(unit())], [entry(unit())]], {0: [(5, 5)], 1: [(5, 40)]}, point_limit=limit, **ADV
    )
    faces = ScriptedDice([1] * dice)
    after, _ = engine.apply(_at_turn_master(st, None), ChooseTurnMaster(0), dice=faces)
    assert faces.remaining == 0
    assert _cp(after) == (2 + dice, 2 + dice)


def test_s9_2_example_1_the_third_attack_costs_4_cp() -> None:
    st = _duel()
    costs = []
    for _ in range(3):
        before = _cp(st)[0]
        st = _do(st, Attack(0, (("Gun", 1),)))
        if st.flow.adv and st.flow.adv.counter is not None:
            st = _do(st, Counter(1, "none"))
        if st.flow.adv and st.flow.adv.step_done:
            st = _do(st, EndStep())
        costs.append(before - _cp(st)[0])
        if st.units[1].location is Location.DESTROYED:
            break
        if st.flow.active == 1:
            st = _do(st, Pass())  # side 1 finished: side 0 goes on alone
    assert costs == [1, 2, 4][: len(costs)]
    assert len(costs) >= 2


def test_s9_2_example_2_move_reused_plus_a_first_dash_costs_3_cp() -> None:
    st = _duel()
    st = _do(st, Move(0, to=(20, 10)), EndStep(), Pass())
    assert _cp(st)[0] == 19
    st = _do(st, Move(0, to=(16, 10)), Move(0, to=(12, 10), dash=True))
    assert _cp(st)[0] == 19 - 3


def test_s9_1_an_action_step_directs_one_unit_and_ends_after_two_actions() -> None:
    a, b = unit("A"), unit("A2")
    st = _actions(
        scenario(
            [[entry(a), entry(b)], [entry(unit("E"))]],
            {0: [(5, 5)], 1: [(10, 5)], 2: [(24, 40)]},
            **ADV,
        )
    )
    st = _do(st, Move(0, to=(5, 8)))
    with pytest.raises(RulesError, match="one Unit per Action Step"):
        engine.check(st, Move(1, to=(10, 8)))
    st = _do(st, Guard(0))
    assert st.flow.active == 1  # two Actions: the next player's Action Step


def test_s9_2_cp_runs_out() -> None:
    st = replace(_duel(), flow=replace(_duel().flow, adv=AdvancedFlow(cp=(2, 5))))
    st = _do(st, Guard(0))
    with pytest.raises(RulesError, match="Guard costs P0: A 2 CP"):
        engine.check(st, Guard(0))


def test_s9_2_guard_adds_1_defence_a_use_until_a_different_action() -> None:
    st = _duel()
    base = st.setup.units[0].unit.profile.defence
    st = _do(st, Guard(0), Guard(0))
    assert st.flow.adv is not None and st.flow.adv.guard_of(0) == 2
    assert to_unit_state(Work(st, None, engine.DEFAULT_HOOKS), 0).profile.defence == base + 2
    st = _do(st, Pass(), Move(0, to=(24, 12)))
    assert st.flow.adv is not None and st.flow.adv.guard_of(0) == 0
    # the Guard cost doubled: 1 + 2, then the Move 1
    assert _cp(st)[0] == 20 - 4


def test_s9_2_support_generates_1_cp_ends_the_step_and_only_for_units_that_have_not_acted() -> None:
    a, b = unit("A"), unit("A2")
    st = _actions(
        scenario(
            [[entry(a), entry(b)], [entry(unit("E"))]],
            {0: [(5, 5)], 1: [(10, 5)], 2: [(24, 40)]},
            **ADV,
        ),
        cp=(3, 3),
    )
    st = _do(st, Support(0))
    assert _cp(st) == (4, 3) and st.flow.active == 1
    st = _do(st, Pass())
    with pytest.raises(RulesError, match="used Support"):
        engine.check(st, Move(0, to=(5, 8)))
    st = _do(st, Move(1, to=(10, 8)))
    with pytest.raises(RulesError, match="only a Unit that has not may Support"):
        engine.check(st, Support(1))


def test_s9_2_heavy_weapons_need_prepare_after_a_move_and_before_a_move() -> None:
    gun = weapon("Cannon", range=30, power=6, type="Heavy")
    a = unit("A", weapons=[gun], defence=9, hp=5)
    b = unit("B", defence=9, hp=30)
    st = _actions(scenario([[entry(a)], [entry(b)]], {0: [(24, 10)], 1: [(24, 30)]}, **ADV))
    st = _do(st, Move(0, to=(24, 12)))
    with pytest.raises(RulesError, match="Heavy"):
        engine.check(st, Attack(0, (("Cannon", 1),)))
    st = _do(st, Prepare(0), Pass())  # L3757-3760: Prepare, then Attack with the Heavy Weapon
    st = _do(st, Attack(0, (("Cannon", 1),)))
    if st.flow.adv and st.flow.adv.counter is not None:
        st = _do(st, Counter(1, "none"))
    with pytest.raises(RulesError, match="Prepare before a Move"):
        engine.check(st, Move(0, to=(24, 8)))
    st = _do(st, Prepare(0))
    assert engine.can(st, Pass()) and st.flow.adv is not None and not st.flow.adv.step_done


def test_s9_2_use_perks_costs_cp_and_calls_the_perk_hook() -> None:
    st = _do(_duel(), UsePerks(0))
    assert _cp(st)[0] == 19
    assert st.flow.adv is not None and st.flow.adv.used(0, "Use Perks") == 1


def test_s9_3_counter_guard_pays_the_guard_cost_and_raises_defence_before_the_saves() -> None:
    st = _duel()
    st = _do(st, Attack(0, (("Gun", 1),)))
    assert st.flow.adv is not None and st.flow.adv.counter is not None
    assert engine.acting_side(st) == 1
    with pytest.raises(RulesError, match="Counter Action"):
        engine.check(st, Pass())
    st = _do(st, Counter(1, "guard"))
    assert st.flow.adv is not None
    assert st.flow.adv.counter is None and st.flow.adv.guard_of(1) == 1
    assert _cp(st) == (19, 19)


def test_s9_3_a_unit_out_of_range_cannot_counter_attack() -> None:
    st = _do(_duel(), Attack(0, (("Gun", 1),)))
    with pytest.raises(RulesError, match="no weapon of it can attack the attacker"):
        engine.check(st, Counter(1, "attack"))


def test_s9_3_counter_attack_is_simultaneous_and_casualties_go_after_both() -> None:
    # two units in a Melee; each attack kills the other's only model: both still fight
    axe = weapon("Axe", range=1, power=10, attacks=6)
    a = unit("A", weapons=[axe], defence=1)
    b = unit("B", weapons=[axe], defence=1)
    st = _actions(
        scenario([[entry(a)], [entry(b)]], {0: [(24, 24)], 1: [(25, 24)]}, engaged=[(0, 1)], **ADV)
    )
    st = _do(st, Attack(0, (("Axe", 1),)))
    st, events = engine.apply(st, Counter(1, "attack"))
    attacks = [e for e in events if e.kind == "attack"]
    assert [e.data["unit"] for e in attacks] == [0, 1]
    assert st.units[0].location is Location.DESTROYED
    assert st.units[1].location is Location.DESTROYED
    assert _cp(st) == (19, 19)


def test_s9_1_iv_casualties_are_removed_at_the_end_of_the_attack_action() -> None:
    gun = weapon("Gun", range=24, power=10, attacks=10)
    a = unit("A", weapons=[gun])
    b = unit("B", models=3, defence=1)
    st = _actions(scenario([[entry(a)], [entry(b)]], {0: [(24, 10)], 1: line(22, 20, 3)}, **ADV))
    st = _do(st, Attack(0, (("Gun", 1),)), Counter(1, "none"))
    u = st.units[1]
    assert all(u.hp[i] > 0 for i in u.present())  # nothing at 0 HP is left on the table
    assert u.location is Location.DESTROYED or len(u.present()) < 3


def test_advanced_actions_round_trip_as_json() -> None:
    for a in (
        UsePerks(1, ("Heal",)),
        Prepare(2),
        Guard(3),
        Support(4),
        EndStep(),
        Counter(5, "attack"),
    ):
        assert action_from_dict(action_to_dict(a)) == a


def _book_units() -> GameState:
    """§9.4's armies: two Pirate Units (side 0) and four Dwarf Units (side 1), 500 points."""
    pistol = weapon("Pistol", range=12, power=4)
    cutlass = weapon("Cutlass", range=1, power=4)
    axe = weapon("Axe", range=1, power=5)
    blunderbuss = weapon("Blunderbuss", range=18, power=5, type="Battle")
    p1 = unit("Pirates", models=6, weapons=[pistol, cutlass], defence=5, hp=1)
    p2 = unit("Pirates 2", models=4, weapons=[pistol, cutlass], defence=5, hp=1)
    d = unit("Dwarves", models=3, weapons=[axe], defence=4, hp=2, move=5, dash=5)
    eng = unit("Engineer", weapons=[blunderbuss, axe], defence=4, hp=2)
    st = scenario(
        [[entry(p1), entry(p2)], [entry(d), entry(eng), entry(d), entry(d)]],
        {
            0: line(20, 34, 6),
            1: line(36, 40, 4),
            2: line(22, 24, 3),
            3: [(10, 14)],
            4: line(36, 12, 3),
            5: line(4, 26, 3),
        },
        point_limit=500,
        turn=1,
        **ADV,
    )
    return _at_turn_master(st, None)


def test_s9_4_sample_advanced_game_turn_cp_step_by_step() -> None:
    """§9.4 L3873-4360, with the CP of every Action as the book counts them; the Attack
    results follow the seeded dice (the book gives no profiles)."""
    st, _ = engine.apply(_book_units(), ChooseTurnMaster(0), dice=ScriptedDice([3]))
    # 2) Pirates: 2 Units + 3 = 7 CP; Dwarves: 4 Units + 3 = 11 CP (L3950-3970)
    assert st.flow.phase is Phase.ACTIONS and _cp(st) == (7, 11)
    # first step: Pirates Move then Attack (1 + 1 CP); the Dwarves make no Counter Action
    st = _do(st, Move(0, to=(22, 30)), Attack(0, (("Pistol", 2),)))
    if st.flow.adv and st.flow.adv.counter is not None:
        st = _do(st, Counter(2, "none"))
    assert _cp(st) == (5, 11) and st.flow.active == 1
    assert all(st.units[2].hp[i] > 0 for i in st.units[2].present())  # removed at once
    # second step: Dwarves Move and Dash into the Pirates (1 + 1 CP)
    st = _do(st, Move(2, to=(22, 27)), Move(2, engage=0, dash=True))
    assert (0, 2) in st.engaged and _cp(st) == (5, 9)
    # third step: the Pirates Attack again (2 CP); the Dwarves Counter Attack (1 CP)
    st = _do(st, Attack(0, (("Cutlass", 2),)), Counter(2, "attack"))
    if st.flow.adv and st.flow.adv.step_done:
        st = _do(st, EndStep())
    assert _cp(st) == (3, 8)
    # fourth: the Engineer Moves (1 CP) and the step ends
    st = _do(st, Move(3, to=(12, 16)), EndStep())
    # fifth: the other Pirate Unit Moves (1 CP)
    st = _do(st, Move(1, to=(38, 40)), EndStep())
    # sixth: a Dwarf Unit that has not acted Supports (+1 CP) and the step ends
    st = _do(st, Support(4))
    assert _cp(st) == (2, 8) and st.flow.active == 0
    # seventh: a Dash for 1 CP, then the Pirates are finished for the Game Turn
    st = _do(st, Move(1, to=(40, 42), dash=True), Pass())
    assert _cp(st) == (1, 8)  # the book says none left: see docs/rulings.md
    # eighth onward: the Dwarves go on alone
    st = _do(st, Move(5, to=(8, 28)), Move(5, to=(12, 30), dash=True))
    assert st.flow.active == 1 and _cp(st) == (1, 6)
    st = _do(st, Attack(3, (("Blunderbuss", 0),)))  # tenth step's Engineer Attack (1 CP)
    assert st.flow.adv is not None and st.flow.adv.counter is None  # Pirates are finished
    st = _do(st, EndStep())
    assert _cp(st) == (1, 5)
    # twelfth: Prepare (1 CP) lets the Engineer Dash after its Battle Weapon (1 CP)
    with pytest.raises(RulesError, match="Prepare before a Dash"):
        engine.check(st, Move(3, to=(10, 10), dash=True))
    st = _do(st, Prepare(3), Move(3, to=(10, 10), dash=True))
    assert _cp(st) == (1, 3)
    st = _do(st, Pass())
    # the Game Turn ends; the leftover CP carry over to the next (L4345-4360)
    assert st.flow.turn == 2 or st.over


@pytest.mark.parametrize(
    "names", [("skirmish_a.yaml", "skirmish_b.yaml"), ("sci_fi_humans.yaml", "scavengers.yaml")]
)
@pytest.mark.parametrize("kind", ["scripted", "random"])
def test_advanced_games_play_to_the_end_and_replay(names: tuple[str, str], kind: str) -> None:
    setup = build_setup(
        [load_game_roster(ROSTERS / n) for n in names],
        Field(sample_board("ruins_48x48")),
        playstyle="advanced",
        max_turns=6,
    )
    state, _ = engine.new_game(setup, 5)
    rec = GameRecord(setup, 5)
    players = (
        [ScriptedPlayer(), ScriptedPlayer()]
        if kind == "scripted"
        else [RandomLegalPlayer(1), RandomLegalPlayer(2)]
    )
    steps = 0
    while not state.over:
        side = engine.acting_side(state)
        assert side is not None
        action = players[side].choose(state)
        state, _ = engine.apply(state, action)
        rec.add(action, state)
        check_invariants(state)
        steps += 1
        assert steps < 5000
    assert replay(rec).state.digest() == state.digest()
    run = play(engine.new_game(setup, 5)[0], [ScriptedPlayer(), ScriptedPlayer()])
    assert any(e.kind == "command_points" for e in run.events)
