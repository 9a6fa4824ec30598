"""§2.2 the Standard Game Turn, §3.3 more players and teams, §3.6 deployment."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from warbench.kernel.dice import ScriptedDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import (
    Attack,
    ChooseTurnMaster,
    ChooseZone,
    Deploy,
    Move,
    Pass,
)
from warbench.rulesets.warsurge.game.geom import Field
from warbench.rulesets.warsurge.game.state import (
    ALL_AUTOMATIONS,
    Automation,
    Location,
    Phase,
    PlayerSetup,
    build_setup,
    current_point_cost,
)

from .helpers import board, entry, line, scenario, setup_of, unit, weapon


def _two_sides(**kw):  # type: ignore[no-untyped-def]
    return setup_of([[entry(unit("A"))], [entry(unit("B"))]], **kw)


def test_s2_2_step1_turn_master_roll_off_winner_chooses() -> None:
    # §2.2 step 1: Scavengers won the Roll-Off (a five) and chose themselves.
    manual = ALL_AUTOMATIONS - {Automation.TURN_MASTER, Automation.ZONE_CHOICE}
    setup = _two_sides(automation=manual)
    state, events = engine.new_game(setup, 1, dice=ScriptedDice([3, 5]))
    assert state.flow.phase is Phase.TURN_MASTER
    assert state.flow.rolloff_winner == 1
    assert "P0 3, P1 5" in events[-1].text
    with pytest.raises(RulesError, match="choosing a Deployment Zone"):
        engine.check(state, ChooseZone(0))
    state, _ = engine.apply(state, ChooseTurnMaster(1))
    # §3.6 step 2: the Turn Master chooses a zone first, then the next highest roll
    assert state.flow.phase is Phase.ZONES and state.flow.active == 1
    state, _ = engine.apply(state, ChooseZone(1))
    with pytest.raises(RulesError, match="already taken"):
        engine.check(state, ChooseZone(1))
    state, _ = engine.apply(state, ChooseZone(0))
    assert state.zones == (0, 1)
    assert state.flow.phase is Phase.DEPLOY and state.flow.active == 1


def test_s1_4_roll_off_ties_are_rerolled() -> None:
    setup = _two_sides()
    state, events = engine.new_game(setup, 1, dice=ScriptedDice([4, 4, 2, 6]))
    assert state.flow.turn_master == 1
    assert any("reroll" in e.text for e in events)


def test_s2_2_step2_deploy_alternates_and_passing_finishes() -> None:
    setup = setup_of(
        [[entry(unit("A1")), entry(unit("A2"))], [entry(unit("B1")), entry(unit("B2"))]]
    )
    state, _ = engine.new_game(setup, 1, dice=ScriptedDice([6, 1]))
    assert state.flow.phase is Phase.DEPLOY and state.flow.active == 0
    state, _ = engine.apply(state, Deploy(0, at=(10, 6)))
    assert state.flow.active == 1
    with pytest.raises(RulesError, match="belongs to P0"):
        engine.check(state, Deploy(1, at=(20, 6)))
    state, _ = engine.apply(state, Deploy(2, at=(10, 42)))
    state, _ = engine.apply(state, Deploy(1, at=(20, 6)))
    # P1 keeps B2 in Reserve (§2.2 step 2 C) and declares they are finished
    state, _ = engine.apply(state, Pass())
    assert state.flow.phase is Phase.MOVE
    assert state.units[3].location is Location.RESERVE


def test_s3_6_at_least_half_the_roster_on_the_first_game_turn() -> None:
    setup = setup_of(
        [
            [entry(unit("A1"), 100), entry(unit("A2"), 100), entry(unit("A3"), 100)],
            [entry(unit("B1"))],
        ]
    )
    state, _ = engine.new_game(setup, 1, dice=ScriptedDice([6, 1]))
    state, _ = engine.apply(state, Deploy(0, at=(10, 6)))
    state, _ = engine.apply(state, Deploy(3, at=(10, 42)))
    with pytest.raises(RulesError, match=r"at least 50% .*§3.6") as exc:
        engine.check(state, Pass())
    assert exc.value.rule == "§3.6"
    state, _ = engine.apply(state, Deploy(1, at=(20, 6)))
    engine.check(state, Pass())  # 200 of 300 points


def test_s3_6_deploy_only_in_own_zone() -> None:
    setup = _two_sides()
    state, _ = engine.new_game(setup, 1, dice=ScriptedDice([6, 1]))
    with pytest.raises(RulesError, match="outside its Deployment Zone"):
        engine.check(state, Deploy(0, positions=((10.0, 30.0),)))
    with pytest.raises(RulesError, match="not enough room"):
        engine.check(state, Deploy(0, at=(10, 30)))


def test_s2_2_step3_move_then_pass_lets_the_other_side_continue() -> None:
    sides = [[entry(unit("A1")), entry(unit("A2"))], [entry(unit("B1")), entry(unit("B2"))]]
    pos = {0: [(5, 5)], 1: [(10, 5)], 2: [(5, 40)], 3: [(10, 40)]}
    state = scenario(sides, pos)
    state, _ = engine.apply(state, Move(0, to=(5, 11)))
    assert state.flow.active == 1
    state, _ = engine.apply(state, Pass())  # P1 "declared they were finished"
    assert state.flow.active == 0
    state, _ = engine.apply(state, Move(1, to=(10, 11)))
    # P1 has passed, P0 has no unit left to move: the Attack Phase begins
    assert state.flow.phase is Phase.ATTACK


def test_s2_2_step4_dead_dogs_attack_shadow_hounds_casualties_still_attack() -> None:
    # §2.2 step 4: 26 Dead Dogs with Scavenger Rifles (Power 2) against five Shadow Hounds
    # (Defence 3, Armour 4+): 5+ needed, eight 6s and two 5s, five Armour Saves fail: -5 HP.
    rifle = weapon("Scavenger Rifle", range=24, attacks=1, power=2, ap=6, type="Battle")
    dogs = unit("Dead Dogs", models=26, weapons=[rifle], defence=3)
    hounds = unit(
        "Shadow Hounds",
        models=5,
        weapons=[weapon("Hound Rifle", range=24)],
        defence=3,
        armour=4,
    )
    dog_pos = [(2 + (k % 13) * 1.2, 4 + (k // 13) * 1.2) for k in range(26)]
    state = scenario(
        [[entry(dogs, 130)], [entry(hounds, 80)]],
        {0: dog_pos, 1: line(5, 20, 5)},
        phase=Phase.ATTACK,
    )
    faces = [6] * 8 + [5] * 2 + [4, 3, 2, 1] * 4  # 26 Attack Dice
    saves = [4, 5, 6, 4, 5, 1, 2, 3, 1, 2]
    state, events = engine.apply(
        state, Attack(0, (("Scavenger Rifle", 1),)), dice=ScriptedDice(faces + saves)
    )
    assert "26 Attack Dice, 10 successes, 5 HP lost, 5 casualties" in events[0].text
    hounds_state = state.units[1]
    assert hounds_state.hp == (0,) * 5 and not any(hounds_state.removed)
    # the casualties still attack before they are removed (§2.2 step 4 VII, §5.11)
    state, _ = engine.apply(state, Attack(1, (("Hound Rifle", 0),)), dice=ScriptedDice([1] * 10))
    # both sides done: the casualties are removed at the end of the Attack Phase; P1 has
    # nothing left, so the game ends at the end of this Game Turn (ruling)
    assert state.units[1].location is Location.DESTROYED
    assert state.over
    assert state.current_value(1) == 0


def test_s2_2_step7_random_end_from_game_turn_4() -> None:
    sides = [[entry(unit("A"))], [entry(unit("B"))]]
    pos = {0: [(5, 5)], 1: [(5, 40)]}
    for roll, over in ((3, True), (4, False)):
        state = scenario(sides, pos, phase=Phase.DASH, turn=4)
        state, _ = engine.apply(state, Pass())
        state, events = engine.apply(state, Pass(), dice=ScriptedDice([roll, 6, 1]))
        assert state.over is over
        if over:
            assert "Game Length roll is 3" in events[-1].text
        else:
            assert state.flow.turn == 5


def test_s2_2_step7_agreed_game_length() -> None:
    sides = [[entry(unit("A"))], [entry(unit("B"))]]
    state = scenario(sides, {0: [(5, 5)], 1: [(5, 40)]}, phase=Phase.DASH, turn=5, game_length=5)
    state, _ = engine.apply(state, Pass())
    state, _ = engine.apply(state, Pass())
    assert state.over and state.result is not None and state.result.turns == 5


def test_s2_2_step8_current_point_value_and_winner() -> None:
    # "a Unit valued at 100pts with 4 HP is reduced to 1 HP. This Unit is now worth 25pts."
    assert current_point_cost(100, 4, 1) == 25
    # Perks line 105: 120 points, 6 HP, 3 HP left: 60 points
    assert current_point_cost(120, 6, 3) == 60
    big = unit("Big", hp=4)
    state = scenario(
        [[entry(big, 100)], [entry(unit("Small"), 30)]],
        {0: [(5, 5)], 1: [(5, 40)]},
        phase=Phase.DASH,
        turn=4,
        game_length=4,
    )
    state = replace(state, units=(replace(state.units[0], hp=(1,)), state.units[1]))
    state, _ = engine.apply(state, Pass())
    state, events = engine.apply(state, Pass())
    assert state.result is not None
    assert state.result.values == (25.0, 30.0) and state.result.winner == 1
    assert "P1 wins" in events[-1].text


def test_s2_2_step8_equal_values_draw() -> None:
    state = scenario(
        [[entry(unit("A"), 50)], [entry(unit("B"), 50)]],
        {0: [(5, 5)], 1: [(5, 40)]},
        phase=Phase.DASH,
        turn=4,
        game_length=4,
    )
    state, _ = engine.apply(state, Pass())
    state, _ = engine.apply(state, Pass())
    assert state.result is not None and state.result.draw


def test_s3_3_three_players_alternate_clockwise_from_the_turn_master() -> None:
    from warbench.rulesets.warsurge.battlefield import Board, Zone

    b = Board(
        name="three",
        width=60,
        height=30,
        zones=[
            Zone(name="left", polygon=[(0, 0), (20, 0), (20, 30), (0, 30)]),
            Zone(name="middle", polygon=[(20, 0), (40, 0), (40, 30), (20, 30)]),
            Zone(name="right", polygon=[(40, 0), (60, 0), (60, 30), (40, 30)]),
        ],
    )
    setup = setup_of([[entry(unit("A"))], [entry(unit("B"))], [entry(unit("C"))]], b)
    # P1 wins the roll-off (Turn Master), then P2, then P0 choose zones
    state, _ = engine.new_game(setup, 1, dice=ScriptedDice([2, 6, 4]))
    assert state.zones == (2, 0, 1)
    # clockwise by zone from the Turn Master's zone: P1 (left), P2 (middle), P0 (right)
    assert state.flow.order == (1, 2, 0)


def test_s3_3_teams_act_as_one_player() -> None:
    players = [
        PlayerSetup("Ann", (entry(unit("A")),), team="Red"),
        PlayerSetup("Bob", (entry(unit("B")),), team="Red"),
        PlayerSetup("Cid", (entry(unit("C")),)),
    ]
    setup = build_setup(players, Field(board()))
    assert setup.sides == ("Red", "Cid")
    assert [u.side for u in setup.units] == [0, 0, 1]
    state, _ = engine.new_game(setup, 1, dice=ScriptedDice([6, 1]))
    # the Red team deploys Ann's and Bob's units as one player, alternating with Cid
    state, _ = engine.apply(state, Deploy(1, at=(10, 6)))
    state, _ = engine.apply(state, Deploy(2, at=(10, 42)))
    state, _ = engine.apply(state, Deploy(0, at=(20, 6)))
    assert state.flow.phase is Phase.MOVE


def test_s2_1_game_length_is_at_least_four_turns() -> None:
    with pytest.raises(RulesError, match="at least 4"):
        _two_sides(game_length=3)


def test_actions_from_the_wrong_step_are_refused_with_the_step() -> None:
    state = scenario([[entry(unit("A"))], [entry(unit("B"))]], {0: [(5, 5)], 1: [(5, 40)]})
    with pytest.raises(RulesError, match="attacking is not an action of the Move step"):
        engine.check(state, Attack(0, (("Gun", 1),)))


def test_s2_2_step_8_unlisted_points_come_from_the_points_model() -> None:
    # Current Point Value (Perks §12.1) needs each unit's Point Cost; an entry without a listed
    # price is priced by the warbench points model.
    from warbench.rulesets.warsurge.game.state import listed_points
    from warbench.rulesets.warsurge.io import load_unit
    from warbench.rulesets.warsurge.points import cost_unit

    unit = load_unit(Path(__file__).parents[3] / "examples" / "warsurge" / "troopers_10.yaml")
    assert listed_points(unit, 120) == 120
    assert listed_points(unit, None) == cost_unit(unit).total > 0
