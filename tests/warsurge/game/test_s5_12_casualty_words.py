"""A casualty choice says which models it removes (001 §5.11 L2866-2868, §5.12 L2881-2930;
issue 10, session 38, s38-web): the engine is asked (``words.casualty_outcome``), the words
number models from 1, as the board's previews and the Play Manager do."""

from __future__ import annotations

from dataclasses import replace

from warbench.kernel.dice import ScriptedDice
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack
from warbench.rulesets.warsurge.game.protocol import WarsurgeRuleset, WarsurgeState
from warbench.rulesets.warsurge.game.state import ALL_AUTOMATIONS, Automation, GameState, Phase
from warbench.rulesets.warsurge.game.words import casualty_outcome, describe

from .helpers import entry, line, scenario, unit, weapon

CHOOSING = ALL_AUTOMATIONS - {Automation.CASUALTY_SELECTION}


def _view(state: GameState, side: int) -> dict[str, object]:
    ws = WarsurgeRuleset()
    view: dict[str, object] = ws.views.dump(ws.view(WarsurgeState('{"options": {}}', state), side))
    return view


def _hunter_cars(hp: tuple[int, int, int] = (4, 4, 4)) -> GameState:
    """The book's example (§5.12 L2912-2930): a Plague Angel's attack costs a unit of three
    Hunter Cars, 4 HP each, 5 HP."""
    claws = weapon("Claws", range=24, attacks=5, power=10)
    state = scenario(
        [
            [entry(unit("Plague Angel", weapons=[claws]))],
            [entry(unit("Hunter Cars", models=3, hp=4))],
        ],
        {0: [(10.0, 10.0)], 1: line(10.0, 20.0, 3, gap=3.0)},
        phase=Phase.ATTACK,
        automation=CHOOSING,
    )
    if hp != (4, 4, 4):
        cars = state.units[1].evolve(hp=hp)
        state = replace(state, units=(state.units[0], cars, *state.units[2:]))
    waiting, _ = engine.apply(state, Attack(0, (("Claws", 1),)), dice=ScriptedDice([6] * 5))
    assert waiting.pause is not None and waiting.pause.loss == 5
    return waiting


def test_s5_12_the_hunter_cars_lose_one_car_and_one_hp_on_the_car_chosen() -> None:
    waiting = _hunter_cars()
    view = _view(waiting, 1)
    first = {"kind": "casualties", "unit": 1, "models": [0, 1, 2]}
    # the engine's own order: car 1 removed, car 2 loses the fifth HP
    assert casualty_outcome(waiting, [0, 1, 2]) == [(0, 4), (1, 1)]
    assert describe(view, first, casualty_outcome(waiting, [0, 1, 2])) == (
        "P1: Hunter Cars: model 1, the nearest P0: Plague Angel, becomes a casualty; model 2 "
        "loses 1 HP, 3 left (§5.11, §5.12)"
    )
    # "They decide to put the -1 HP onto the car on the right" (L2925-2927)
    right = {"kind": "casualties", "unit": 1, "models": [1, 2, 0]}
    assert describe(view, right, casualty_outcome(waiting, [1, 2, 0])) == (
        "P1: Hunter Cars: model 2 becomes a casualty; model 3 loses 1 HP, 3 left (§5.11, §5.12)"
    )
    # the words are the engine's: the choice made leaves the unit as they said
    made, _ = engine.apply(waiting, engine.default_casualties(waiting))
    assert made.units[1].hp == (0, 3, 4)


def test_s5_12_a_wounded_model_goes_first_whatever_the_order_and_the_words_say_so() -> None:
    waiting = _hunter_cars((4, 4, 2))  # car 3 is wounded already
    lost = casualty_outcome(waiting, [0, 1, 2])
    assert lost == [(0, 3), (2, 2)]  # car 3 first (§5.12), then the player's order
    said = describe(_view(waiting, 1), {"kind": "casualties", "unit": 1, "models": [0]}, lost)
    assert said == (
        "P1: Hunter Cars: model 3, the farthest from P0: Plague Angel, becomes a casualty; "
        "model 1 loses 3 HP, 1 left; model 3 was wounded "
        "already, so first whatever the order (§5.11, §5.12)"
    )


def test_s5_11_only_the_weapon_waiting_is_counted_not_the_attack_s_later_weapons() -> None:
    rifle = weapon("Rifle", range=24, attacks=1, power=10)
    pistol = weapon("Pistol", range=24, attacks=1, power=10)
    state = scenario(
        [[entry(unit("Snipers", weapons=[rifle, pistol]))], [entry(unit("Troopers", models=3))]],
        {0: [(10.0, 10.0)], 1: line(10.0, 20.0, 3)},
        phase=Phase.ATTACK,
        automation=CHOOSING,
    )
    waiting, _ = engine.apply(
        state, Attack(0, (("Rifle", 1), ("Pistol", 1))), dice=ScriptedDice([6, 6])
    )
    assert casualty_outcome(waiting, [2]) == [(2, 1)]  # the Rifle's; the Pistol's waits after
    view = _view(waiting, 1)
    said = describe(view, {"kind": "casualties", "unit": 1, "models": [2]}, [(2, 1)])
    assert said == (
        "P1: Troopers: model 3, the farthest from P0: Snipers, becomes a casualty (§5.11)"
    )
    # a choice the engine refuses has no outcome (model 7 does not exist)
    assert casualty_outcome(waiting, [7]) is None
    # without a game to ask, the choice is said as the order it names
    assert describe(view, {"kind": "casualties", "unit": 1, "models": [2, 0]}) == (
        "P1: Troopers: casualties from models 3 and 1 first, in that order, wounded models "
        "first (§5.11, §5.12)"
    )


def test_s5_13_a_choice_that_leaves_out_models_out_of_sight_cites_s5_13() -> None:
    """§5.13 (L2953): models not in the attacker's line of sight cannot be chosen; a
    choice among fewer models than the unit has standing says so by its rule (session 38's
    review: the words cited §5.11 only)."""
    rifle = weapon("Rifle", range=24, attacks=1, power=10)
    state = scenario(
        [[entry(unit("Snipers", weapons=[rifle]))], [entry(unit("Troopers", models=3))]],
        {0: [(10.0, 10.0)], 1: line(10.0, 20.0, 3)},
        phase=Phase.ATTACK,
        automation=CHOOSING,
    )
    waiting, _ = engine.apply(state, Attack(0, (("Rifle", 1),)), dice=ScriptedDice([6]))
    view = _view(waiting, 1)
    action = {"kind": "casualties", "unit": 1, "models": [2]}
    pause = view["casualties"]
    assert isinstance(pause, dict) and pause["candidates"] == [0, 1, 2]  # all three in sight
    assert describe(view, action, [(2, 1)]).endswith("becomes a casualty (§5.11)")
    pause["candidates"] = [1, 2]  # model 1 out of the Snipers' sight
    assert describe(view, action, [(2, 1)]).endswith("becomes a casualty (§5.11, §5.13)")
