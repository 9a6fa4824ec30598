"""Issue 16, speed: the engine's choice (``Decision.default``) is computed only when read.

``pending`` used to run the scripted play (:func:`.ai.choose`) for every activation and
action state, about half of a game's time, even for players who never read it. The lazy
decision must be the same decision as before in every way a caller can see.
"""

from __future__ import annotations

import copy
import pickle
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from warbench.play import RandomLegalPlayer, SetupArgs, run_game
from warbench.play.core import Decision
from warbench.rulesets.warengine.game import ai
from warbench.rulesets.warengine.game import setup as stp
from warbench.rulesets.warengine.game.protocol import LazyDecision, WarEngineRuleset
from warbench.rulesets.warengine.game.state import GameState

from .helpers import sample_forces

WS = WarEngineRuleset()


def _state_with(kind: str) -> GameState:
    s = WS.setup(sample_forces(), "ruins_48x48", {}, 3)
    for _ in range(500):
        d = WS.pending(s)[0]
        if d.kind == kind:
            return s
        a = d.outcomes[0][0] if d.is_chance else d.default
        assert a is not None
        s, _ = WS.apply(s, a, d.player)
    raise AssertionError(f"no {kind} decision in 500 steps")


@pytest.mark.parametrize("kind", ["place", "activation", "action"])
def test_pending_does_not_compute_the_default_until_read(
    kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = _state_with(kind)
    eager = WS.pending(s)[0]
    expected = eager.default
    calls: list[Any] = []
    real = {"choose": ai.choose, "auto_place": stp.auto_place}

    def counting(*args: Any) -> Any:
        calls.append(args)
        return real["auto_place" if kind == "place" else "choose"](*args)

    monkeypatch.setattr(ai, "choose", counting)
    monkeypatch.setattr(stp, "auto_place", counting)
    d = WS.pending(s)[0]
    assert isinstance(d, LazyDecision)
    assert calls == []  # who decides, the rule, the prompt: no scripted play
    assert (d.player, d.kind, d.rule) == (eager.player, eager.kind, eager.rule)
    assert d.default == expected
    n = len(calls)
    assert d.default == expected and len(calls) == n  # computed once, then kept


def test_a_lazy_decision_equals_hashes_pickles_and_replaces_as_the_eager_one() -> None:
    s = _state_with("action")
    d = WS.pending(s)[0]
    plain = Decision(d.player, d.kind, d.rule, d.prompt, d.default)
    assert d == plain and plain == d and hash(d) == hash(plain)
    assert d.to_json(WS.actions) == plain.to_json(WS.actions)
    assert pickle.loads(pickle.dumps(d)) == plain
    assert copy.deepcopy(d) == plain
    other = replace(d, default=None)  # what a search does to propose its own move
    assert other.default is None and other.kind == d.kind


def test_random_games_play_the_same_with_lazy_defaults() -> None:
    """A game between random players never reads a default; its final digest is the one the
    eager decisions gave (recorded before the change: 500-point forces, ruins, seed 1).

    Re-recorded in session 39 (s39-we, a documented rules fix): a figure's reserved attack in
    its own unit's activation (L579) is a listed choice, so the random players draw from more
    choices. With that listing turned off (``reserve.own_reserve_attacks`` returning none) the
    game still ends on the digest recorded before, 63c16a62ae933237."""
    from warbench.rulesets.warengine.io import load_force, to_data

    data = Path(__file__).resolve().parent / "data"
    forces = (
        to_data(load_force(data / "strike_team.yaml")),
        to_data(load_force(data / "thug_gang.yaml")),
    )
    run = run_game(
        WS, SetupArgs(forces, "ruins_48x48", {}), [RandomLegalPlayer(1), RandomLegalPlayer(2)], 1
    )
    assert run.finished and run.record.steps[-1].digest == "c2646bb64ec49983"
