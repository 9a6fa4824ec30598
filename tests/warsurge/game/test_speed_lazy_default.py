"""``Decision.default`` worked out on demand (issue 10, speed): the WARSURGE ``pending`` runs no
scripted choice until a caller reads the activation's default, and the default read is the
one the eager computation gave (``scripted_choice``), step by step through a game."""

from __future__ import annotations

import dataclasses
import pickle
from pathlib import Path

import pytest

from warbench.play.core import Decision
from warbench.rulesets.warsurge.game import players
from warbench.rulesets.warsurge.game.codecs import WarsurgeState
from warbench.rulesets.warsurge.game.io import load_game_roster, roster_to_data
from warbench.rulesets.warsurge.game.protocol import WarsurgeRuleset, scripted_choice

ROSTERS = Path(__file__).parents[3] / "examples" / "warsurge" / "rosters"


def _start(ws: WarsurgeRuleset, seed: int) -> WarsurgeState:
    rosters = [
        roster_to_data(load_game_roster(ROSTERS / f))
        for f in ("skirmish_a.yaml", "skirmish_b.yaml")
    ]
    return ws.setup(rosters, None, {}, seed)


def test_a_later_default_is_worked_out_once_on_first_read() -> None:
    calls: list[int] = []

    def later() -> str:
        calls.append(1)
        return "a"

    d: Decision[str] = Decision.on_demand(0, "turn", "r", "p", later)
    assert calls == []
    assert d.default == "a" and d.default == "a"
    assert calls == [1]
    assert d == Decision(0, "turn", "r", "p", "a")
    assert hash(d) == hash(Decision(0, "turn", "r", "p", "a"))


def test_replace_with_a_default_never_works_it_out_and_pickle_keeps_the_value() -> None:
    def later() -> str:
        raise AssertionError("replace with a default never works it out")

    lazy: Decision[str] = Decision.on_demand(1, "turn", "", "", later)
    assert dataclasses.replace(lazy, default="y").default == "y"
    other: Decision[str] = Decision.on_demand(1, "turn", "", "", lambda: "x")
    assert dataclasses.replace(other, kind="other").default == "x"
    back = pickle.loads(pickle.dumps(Decision.on_demand(1, "turn", "", "", lambda: "x")))
    assert back.default == "x" and "_later" not in back.__dict__
    assert Decision(0, "turn").default is None
    assert dataclasses.fields(Decision)[4].name == "default"  # still a field (JSON Schema)


@pytest.mark.parametrize("seed", [0, 2])
def test_pending_runs_no_scripted_choice_and_the_read_default_is_the_eager_one(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = WarsurgeRuleset()
    state = _start(ws, seed)
    calls = 0
    choose = players.ScriptedPlayer.choose

    def counting(self: players.ScriptedPlayer, s: object) -> object:
        nonlocal calls
        calls += 1
        return choose(self, s)  # type: ignore[arg-type]

    monkeypatch.setattr(players.ScriptedPlayer, "choose", counting)
    activations = steps = 0
    while not ws.is_over(state) and steps < 400:
        before = calls
        d = ws.pending(state)[0]
        assert calls == before  # asking what is pending chooses nothing
        if d.kind == "activation":
            activations += 1
            assert d.default == scripted_choice(state)[0]
        assert d.default is not None
        state, _ = ws.apply(state, d.default, d.player)
        steps += 1
    assert ws.is_over(state) and activations > 10
