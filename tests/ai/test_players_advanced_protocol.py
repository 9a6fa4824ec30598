"""Every player plays the Advanced playstyle through the protocol (issue 12: "Every player
(random, scripted, later the search AI) can play Advanced"; Core Rules
001_d3f5e425c5e1196d.txt §8-§9). The tactical and search players see the game as a view
(``ai.warsurge.WarsurgeHooks.determinizer``); the view carries the Advanced flow (Command
Points, the Action Step, §9.1-9.2), public to both sides, so the state they rebuild is an
Advanced state."""

from __future__ import annotations

from typing import Any

import pytest

from warbench.ai.warsurge import WarsurgeHooks
from warbench.play import SetupArgs, get_ruleset, run_game
from warbench.play.players import Lineup

from .test_tactical import _big


def _advanced(kinds: tuple[str, str], seed: int) -> Any:
    ws = get_ruleset("warsurge")
    setup: SetupArgs = _big(playstyle="advanced")
    lineup = Lineup(kinds, "warsurge", setup)
    return run_game(ws, setup, [lineup(seed, 0), lineup(seed, 1)], seed)


def test_s9_1_the_view_carries_the_command_points_and_the_rebuilt_state_has_them() -> None:
    ws = get_ruleset("warsurge")
    setup = _big(playstyle="advanced")
    states: list[Any] = []
    run_game(
        ws,
        setup,
        list(Lineup(("random", "random"), "warsurge", setup)(3, k) for k in range(2)),
        3,
        on_step=lambda s, e: states.append(s),
    )
    mid = next(s for s in states if s.game.flow.adv is not None and s.game.flow.turn >= 2)
    view = ws.view(mid, 0)
    assert view["advanced"] == mid.game.flow.adv.to_json()
    rebuilt = WarsurgeHooks(ws).determinizer(view, 0, setup)(0)
    assert rebuilt.game.flow.adv == mid.game.flow.adv


@pytest.mark.parametrize("kinds", [("tactical", "scripted"), ("scripted", "tactical")])
def test_s9_the_tactical_player_plays_an_advanced_game_to_the_end(kinds: tuple[str, str]) -> None:
    run = _advanced(kinds, 5)
    assert run.state.game.over
    assert run.state.game.flow.adv is not None
    seat = kinds.index("tactical")
    assert any(s.actor == seat and s.action.get("kind") == "attack" for s in run.record.steps)
