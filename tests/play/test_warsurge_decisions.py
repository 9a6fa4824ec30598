"""WARSURGE decisions the rules give to players (issue 10): model positions when deploying,
moving and disembarking (001 §3.6, §4.1, §6.3) are the players' when model placement is not
automated, with the engine's placement as the default; continuous choices are listed as
parameterised families. Every default taken plays the automated game, digest for digest.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from warbench.kernel.dice import SeededChoices
from warbench.play import SetupArgs, run_game
from warbench.rulesets.warsurge.game.actions import Deploy, Move
from warbench.rulesets.warsurge.game.io import load_game_roster, roster_to_data
from warbench.rulesets.warsurge.game.protocol import WarsurgeRuleset, WarsurgeState
from warbench.rulesets.warsurge.game.state import ALL_AUTOMATIONS, Automation, Phase

ROSTERS = Path(__file__).parents[2] / "examples" / "warsurge" / "rosters"


def _setup(without: set[Automation]) -> SetupArgs:
    rosters = tuple(
        roster_to_data(load_game_roster(ROSTERS / f))
        for f in ("skirmish_a.yaml", "skirmish_b.yaml")
    )
    names = sorted(a.value for a in ALL_AUTOMATIONS - without)
    return SetupArgs(rosters, None, {"automation": names})


@pytest.mark.parametrize(
    "without",
    [
        {Automation.MODEL_PLACEMENT},
        {Automation.MODEL_PLACEMENT, Automation.CASUALTY_SELECTION},
    ],
    ids=["positions", "positions+casualties"],
)
def test_every_default_taken_is_the_automated_game(without: set[Automation]) -> None:
    ws = WarsurgeRuleset()
    auto = run_game(ws, _setup(set()), [], 2, automate={"*"})
    chosen = run_game(ws, _setup(without), [], 2, automate={"*"})
    assert ws.digest(chosen.state) == ws.digest(auto.state)
    placed = [s.action for s in chosen.record.steps if s.action["kind"] in ("deploy", "move")]
    assert placed and all("positions" in a and "to" not in a and "at" not in a for a in placed)


def test_s3_6_without_model_placement_a_deploy_at_a_point_is_refused_and_the_default_places() -> (
    None
):
    ws = WarsurgeRuleset()
    state = ws.setup(*_args(_setup({Automation.MODEL_PLACEMENT})), 5)
    while ws.pending(state)[0].kind != "activation":
        (d,) = ws.pending(state)
        state, _ = ws.apply(state, d.default, d.player)  # type: ignore[arg-type]
    (d,) = ws.pending(state)
    assert isinstance(d.default, Deploy) and d.default.positions is not None
    assert ws.check(state, d.default, d.player) is None
    refusal = ws.check(state, Deploy(d.default.unit, at=(20.0, 5.0)), d.player)
    assert refusal is not None and "give a position for every model" in refusal.reason
    assert ws.legal_actions(state, d.player).families == ()


def _args(setup: SetupArgs) -> tuple[object, object, object]:
    return setup.rosters, setup.board, setup.options


def test_continuous_choices_are_families_whose_draws_check() -> None:
    ws = WarsurgeRuleset()
    seen: list[WarsurgeState] = []
    run_game(
        ws, _setup(set()), [], 4, automate={"*"}, max_steps=60, on_step=lambda s, _e: seen.append(s)
    )
    kinds = set()
    rng = SeededChoices(1)
    for s in seen:
        if ws.is_over(s):
            continue
        (d,) = ws.pending(s)
        legal = ws.legal_actions(s, d.player)
        for fam in legal.families:
            kinds.add(fam.name)
            for _ in range(20):
                action = fam.draw(rng)
                if legal.check(action) is None:
                    assert action in legal
                    if s.game.flow.phase in (Phase.MOVE, Phase.DASH):
                        assert isinstance(action, Move)
                    break
    assert {"deploy at", "move to"} <= kinds


def test_a_familys_parameters_are_the_fields_of_the_action_it_builds() -> None:
    """A client fills a family's parameters into a listed action by name (the play page's free
    forms take a listed action with the same fields as the family's template): so the "deploy
    at" family's point is ``at``, the field of a Deploy, and a "move to" family's is ``to``.
    (Session 32: the deploy family named its point ``to``, so the page never offered it.)"""
    from warbench.rulesets.warsurge.game.actions import action_to_dict

    ws = WarsurgeRuleset()
    seen: list[WarsurgeState] = []
    run_game(
        ws, _setup(set()), [], 4, automate={"*"}, max_steps=60, on_step=lambda s, _e: seen.append(s)
    )
    rng = SeededChoices(2)
    checked = set()
    for s in seen:
        if ws.is_over(s):
            continue
        (d,) = ws.pending(s)
        for fam in ws.legal_actions(s, d.player).families:
            fields = action_to_dict(fam.draw(rng)).keys()
            names = {p.name for p in fam.params}
            assert names <= fields, (fam.name, names, sorted(fields))
            checked.add(fam.name)
    assert {"deploy at", "move to"} <= checked
