"""The controlling player chooses casualties (001 §5.11 L2866-2867, §5.13 L2952-2956), a
decision of its own when ``Automation.CASUALTY_SELECTION`` is off (issue 10).

The Attack waits between its dice and its HP loss; the engine's own choice is the default, and
a game whose every choice is the default is the automated game, digest for digest.
"""

from __future__ import annotations

import json
import os

import pytest

from warbench.kernel.dice import ScriptedDice
from warbench.kernel.errors import RulesError
from warbench.play import SetupArgs, run_game
from warbench.play.conformance import check_conformance
from warbench.rulesets.warsurge.battlefield import sample_board
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack, Casualties, Pass
from warbench.rulesets.warsurge.game.geom import Field
from warbench.rulesets.warsurge.game.io import load_game_roster, roster_to_data
from warbench.rulesets.warsurge.game.players import ScriptedPlayer, play
from warbench.rulesets.warsurge.game.protocol import WarsurgeRuleset, WarsurgeState
from warbench.rulesets.warsurge.game.state import (
    ALL_AUTOMATIONS,
    Automation,
    GameState,
    Phase,
    build_setup,
)

from .helpers import ROSTERS, entry, line, scenario, unit, weapon

CHOOSING = ALL_AUTOMATIONS - {Automation.CASUALTY_SELECTION}


def _shoot(automation: frozenset[Automation] = CHOOSING) -> GameState:
    rifle = weapon("Rifle", range=24, attacks=1, power=10)
    pistol = weapon("Pistol", range=24, attacks=1, power=10)
    return scenario(
        [
            [entry(unit("Snipers", weapons=[rifle, pistol]))],
            [entry(unit("Troopers", models=3))],
        ],
        {0: [(10.0, 10.0)], 1: line(10.0, 20.0, 3)},
        phase=Phase.ATTACK,
        automation=automation,
    )


def test_s5_11_the_target_s_controller_chooses_which_model_is_the_casualty() -> None:
    state = _shoot()
    waiting, events = engine.apply(state, Attack(0, (("Rifle", 1),)), dice=ScriptedDice([6]))
    assert waiting.pause is not None and waiting.pause.loss == 1
    assert waiting.pause.candidates == (0, 1, 2)
    assert engine.acting_side(waiting) == 1  # the Troopers' player decides (§5.11)
    assert [e.kind for e in events] == ["choose casualties"]
    assert engine.default_casualties(waiting) == Casualties(1, (0, 1, 2))
    chosen, events = engine.apply(waiting, Casualties(1, (2,)))
    assert chosen.pause is None and chosen.units[1].hp == (1, 1, 0)
    assert [e.kind for e in events] == ["attack"]
    assert chosen.units[0].acted and chosen.step == waiting.step  # one step: the Attack's
    # the engine's own choice: the first model in roster order, as the automated game
    automated, _ = engine.apply(
        _shoot(ALL_AUTOMATIONS), Attack(0, (("Rifle", 1),)), dice=ScriptedDice([6])
    )
    assert automated.units[1].hp == (0, 1, 1)


def test_s5_11_nothing_else_may_happen_while_the_casualties_wait() -> None:
    state = _shoot()
    waiting, _ = engine.apply(state, Attack(0, (("Rifle", 1),)), dice=ScriptedDice([6]))
    with pytest.raises(RulesError, match="must first choose the casualties") as info:
        engine.check(waiting, Pass())
    assert info.value.rule == "§5.11"
    with pytest.raises(RulesError, match="has no model 7"):
        engine.check(waiting, Casualties(1, (7,)))
    with pytest.raises(RulesError, match="named twice"):
        engine.check(waiting, Casualties(1, (1, 1)))
    with pytest.raises(RulesError, match="not of unit 0"):
        engine.check(waiting, Casualties(0, ()))
    with pytest.raises(RulesError, match="no Attack waits"):
        engine.check(state, Casualties(1, (0,)))


def test_s5_11_a_second_weapon_rolls_after_the_choice_with_the_attack_s_own_dice() -> None:
    action = Attack(0, (("Rifle", 1), ("Pistol", 1)))
    inline, _ = engine.apply(_shoot(ALL_AUTOMATIONS), action, dice=ScriptedDice([6, 6]))
    waiting, _ = engine.apply(_shoot(), action, dice=ScriptedDice([6, 6]))
    again, _ = engine.apply(waiting, engine.default_casualties(waiting))
    assert again.pause is not None and again.pause.weapon == 1  # the Pistol's loss waits
    done, _ = engine.apply(again, engine.default_casualties(again))
    assert done.units == inline.units and done.digest() == inline.digest()
    # a waiting state resumes the same way twice (a search may branch from it)
    other, _ = engine.apply(waiting, Casualties(1, (2,)))
    other2, _ = engine.apply(waiting, Casualties(1, (2,)))
    assert other.digest() == other2.digest()


@pytest.mark.parametrize("seed", [0, 1])
def test_games_whose_casualties_are_the_engine_s_choice_are_the_automated_games(
    seed: int,
) -> None:
    finals = []
    for automation in (ALL_AUTOMATIONS, CHOOSING):
        setup = build_setup(
            [load_game_roster(ROSTERS / n) for n in ("sci_fi_humans.yaml", "scavengers.yaml")],
            Field(sample_board("ruins_48x48")),
            automation=automation,
        )
        state, events = engine.new_game(setup, seed)
        run = play(state, [ScriptedPlayer(), ScriptedPlayer()], events=events)
        chosen = sum(isinstance(a, Casualties) for a in run.actions)
        finals.append((run.state.digest(), len(run.actions) - chosen, chosen))
    assert finals[1][2] > 0  # casualties were chosen ...
    assert finals[0][:2] == finals[1][:2]  # ... and the game is the automated game


def _skirmish(automation: list[str]) -> SetupArgs:
    rosters = tuple(
        roster_to_data(load_game_roster(ROSTERS / f))
        for f in ("skirmish_a.yaml", "skirmish_b.yaml")
    )
    return SetupArgs(rosters, None, {"automation": automation})


AUTOMATION_NAMES = sorted(a.value for a in CHOOSING)


def test_protocol_casualty_decisions_default_to_the_engine_s_choice() -> None:
    ws = WarsurgeRuleset()
    seen: list[WarsurgeState] = []
    run = run_game(
        ws,
        _skirmish(AUTOMATION_NAMES),
        [],
        3,
        automate={"*"},
        on_step=lambda s, _e: seen.append(s),
    )
    auto = run_game(ws, _skirmish(sorted(a.value for a in ALL_AUTOMATIONS)), [], 3, automate={"*"})
    kinds = [ws.pending(s)[0].kind for s in seen if not ws.is_over(s)]
    assert "casualties" in kinds
    assert ws.digest(run.state) == ws.digest(auto.state)
    # a waiting state is JSON and back (made again from the Attack and the units before it)
    waiting = next(s for s in seen if s.game.pause is not None)
    back = ws.states.load(json.loads(json.dumps(ws.states.dump(waiting))))
    assert ws.digest(back) == ws.digest(waiting)
    assert ws.pending(back) == ws.pending(waiting)
    assert ws.view(waiting, 0)["casualties"]["loss"] == waiting.game.pause.loss  # type: ignore[union-attr]


#: more conformance games on demand (CI keeps two)
GAMES = int(os.environ.get("WARBENCH_CONFORMANCE_GAMES", "2"))


def test_conformance_passes_with_casualty_and_position_decisions() -> None:
    names = sorted(a.value for a in CHOOSING - {Automation.MODEL_PLACEMENT})
    for automation in (AUTOMATION_NAMES, names):
        report = check_conformance(
            WarsurgeRuleset(), _skirmish(automation), seeds=range(GAMES), samples=2
        )
        assert report.finished == GAMES and "casualties" in report.decisions
