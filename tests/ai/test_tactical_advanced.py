"""The tactical player spends Command Points where they go furthest in the Advanced playstyle
(issue 15, "It plays both playstyles"; Core Rules 001_d3f5e425c5e1196d.txt §9.1-9.2).

§9.2 (L3720-3722): an Action costs 1 CP, doubling each time the same unit reuses it on the
Game Turn. The tactical player used to direct its most valuable unit in every Action Step
while that unit could act, paying 4 CP and 8 CP for third and fourth uses while its other
units, whose first Action costs 1 CP, stood idle: as Blue in
``warbench battle skirmish_b.yaml skirmish_a.yaml --players tactical,scripted --seed 2
--turns 4 --playstyle advanced`` its car attacked three times (7 CP) on Game Turn 2 and its
ten riflemen never fired."""

from __future__ import annotations

from typing import Any

from warbench.ai.tactical import TacticalBot, bot_action
from warbench.play import SetupArgs, get_ruleset, run_game
from warbench.play.players import Lineup
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Move
from warbench.rulesets.warsurge.game.advanced import action_name
from warbench.rulesets.warsurge.game.io import load_game_roster, roster_to_data
from warbench.rulesets.warsurge.game.state import GameState, Location, Phase

from .test_tactical import ROSTERS


def _setup() -> SetupArgs:
    files = ("skirmish_b.yaml", "skirmish_a.yaml")
    rosters = tuple(roster_to_data(load_game_roster(ROSTERS / f)) for f in files)
    return SetupArgs(rosters, "ruins_48x48", {"game_length": 4, "playstyle": "advanced"})


def _step_starts(seed: int) -> list[GameState]:
    """Engine states of a scripted-against-scripted Advanced game where side 0 starts an
    Action Step (the scripted player reuses its best unit, so reuse costs abound)."""
    out = []
    for g in _states(seed):
        a = g.flow.adv
        if g.over or a is None or g.flow.phase is not Phase.ACTIONS or g.pause is not None:
            continue
        if a.counter is None and a.step_unit is None and engine.acting_side(g) == 0:
            out.append(g)
    return out


def _cost(g: GameState, action: Any) -> int:
    name = action_name(action)
    assert g.flow.adv is not None and name is not None
    return g.flow.adv.cost(action.unit, name)


def test_s9_2_L3720_a_step_goes_to_the_unit_whose_action_costs_least() -> None:
    """At the start of each Action Step the tactical player's choice costs no more CP than the
    first legal option (its own list) of any other of its units: no 4 CP reuse while a
    friend can act for 1 CP (§9.2 L3720-3722)."""
    checked = dearer = 0
    for g in _step_starts(2):
        action = bot_action(TacticalBot(), g)
        if action_name(action) is None:
            continue
        cost = _cost(g, action)
        w = engine.legal_actions(g)._work
        probe = TacticalBot()
        for uid in w.side_units(0):
            if uid == action.unit or w.units[uid].location is Location.DESTROYED:
                continue
            legal = [o for o in probe._options(w, uid, Phase.ACTIONS, g) if engine.can(g, o)]
            if legal:
                checked += 1
                dearer += _cost(g, legal[0]) < cost
    assert checked >= 10
    assert dearer == 0


def _states(seed: int) -> list[GameState]:
    """Every engine state of a scripted-against-scripted Advanced game on ``seed``."""
    ws = get_ruleset("warsurge")
    setup = _setup()
    lineup = Lineup(("scripted", "scripted"), "warsurge", setup)
    states: list[Any] = []
    run_game(
        ws, setup, [lineup(seed, 0), lineup(seed, 1)], seed, on_step=lambda s, e: states.append(s)
    )
    return [s.game for s in states]


def test_s9_2_L3732_a_second_move_is_a_dash_when_the_dash_costs_less() -> None:
    """Example 2 (L3732): a reused Move costs 2 CP, a first Dash 1 CP. The Gut-Hackers (only
    an Assault weapon, Dash 7" = Move 7") that moved once make their next move a Dash; the
    Urban Hunter Car (an Autocannon, a Battle weapon a Dash would bar, §5.1) keeps Moving."""
    dashed = kept = 0
    for g in _states(2):
        a = g.flow.adv
        if g.over or a is None or g.flow.phase is not Phase.ACTIONS or g.pause is not None:
            continue
        if a.counter is not None or a.step_unit is None or engine.acting_side(g) != 0:
            continue
        uid = a.step_unit
        action = bot_action(TacticalBot(), g)
        if not isinstance(action, Move) or a.used(uid, "Move") != 1 or a.used(uid, "Dash"):
            continue
        label = engine.legal_actions(g)._work.info(uid).label.split(": ")[-1]
        if label == "Gut-Hackers":
            assert action.dash
            dashed += 1
        elif label == "Urban Hunter Car":
            assert not action.dash
            kept += 1
    assert dashed >= 1


def test_s9_3_through_the_protocol_an_attacked_unit_counter_attacks() -> None:
    """§9.3: the tactical player answers the "counter" decision itself (a Counter Attack
    when the attacked unit can make one); it used to take the decision's default, no Counter
    Action, while the scripted player fought back. Each of its Counter Attacks is legal and
    was chosen on its view (the determinised state)."""
    ws = get_ruleset("warsurge")
    setup = _setup()
    counters: list[str] = []
    for seed in (2, 3):
        lineup = Lineup(("tactical", "scripted"), "warsurge", setup)
        run = run_game(ws, setup, [lineup(seed, 0), lineup(seed, 1)], seed)
        counters += [
            s.action["choice"]
            for s in run.record.steps
            if s.actor == 0 and s.action.get("kind") == "counter"
        ]
    assert counters
    assert "attack" in counters
