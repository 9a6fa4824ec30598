"""A WARSURGE casualty choice in the page (issue 10, session 39, s39-web; 001_d3f5e425c5e1196d.txt
§5.11 L2872: "The player who controls the Unit will choose which models are the casualties").

* Each distinct outcome is listed once: the engine offers its order and the reverse, which may
  remove the same models (a wounded model goes first whatever the order, §5.12), and the page
  showed "model 1 becomes a casualty ..." twice.
* What a choice removes is asked of the engine once per game state (``words.casualty_outcome``
  kept in the game's cache): the listing, its distinct choices and a repeated listing applied
  the engine again each time.
* A casualty order of the player's own (models tapped in the page) is checked by the engine
  and said in words before it is made (``POST .../check`` answers ``said``).
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.play.conftest import act, new_game, snap
from warbench.play.registry import get_ruleset
from warbench.web.play.scenes import presenter

#: the casualty question where both of the engine's orders remove the same wounded model
ALIKE = "Blue: Gut-Hackers loses 1 HP to Red: Troopers: choose the casualties among models 1 to 6"


def _setup() -> dict[str, Any]:
    setup = presenter("warsurge").presets()[0]["setup"]
    # casualties left to the players (§5.11)
    automation = ["model placement", "coherency"]
    return {**setup, "options": {**setup["options"], "automation": automation}}


def _until(client: TestClient, made: dict[str, Any], prompt: str) -> dict[str, Any]:
    """Take the suggested choices until the decision asks ``prompt``; its snapshot."""
    token = made["tokens"]["players"]
    for _ in range(200):
        s = snap(client, made["id"], token)
        d = s["decision"]
        assert d is not None, "the game ended first"
        if d["prompt"] == prompt:
            return s
        r = act(client, made["id"], token, d["default"])
        assert r.status_code == 200, r.text
    raise AssertionError(f"never asked {prompt!r}")


def test_a_casualty_outcome_is_listed_once_s5_12(client: TestClient) -> None:
    made = new_game(client, ruleset="warsurge", setup=_setup(), mode="hotseat", seed=3)
    d = _until(client, made, ALIKE)["decision"]
    labels = [a["label"] for a in d["actions"]]
    assert labels == [
        "Blue: Gut-Hackers: model 1 becomes a casualty; model 1 was wounded already, so first "
        "whatever the order (§5.11, §5.12)"
    ], labels
    # the suggested choice is still the engine's own order (the one listed)
    assert d["actions"][0]["action"] == d["default"]


def test_an_order_of_your_own_is_checked_and_said_s5_11(client: TestClient) -> None:
    made = new_game(client, ruleset="warsurge", setup=_setup(), mode="hotseat", seed=3)
    s = _until(
        client,
        made,
        "Blue: Dead Dogs loses 3 HP to Red: Sniper Troopers: choose the casualties among "
        "models 1 to 10",
    )
    token = {"X-Play-Token": made["tokens"]["players"]}
    unit = s["view"]["casualties"]["target"]
    mine = {"kind": "casualties", "unit": unit, "models": [9, 8, 0]}
    r = client.post(f"/api/play/games/{made['id']}/check", json={"action": mine}, headers=token)
    assert r.json() == {
        "ok": True,
        "said": "Blue: Dead Dogs: models 1, 9 and 10 become casualties (§5.11)",
    }
    # a model out of the choice is refused by the engine, with its reason and rule
    bad = {**mine, "models": [10]}
    r = client.post(f"/api/play/games/{made['id']}/check", json={"action": bad}, headers=token)
    assert r.json()["ok"] is False and "§5.11" in r.json()["rule"]
    assert act(client, made["id"], made["tokens"]["players"], mine).status_code == 200
    hp = next(u for u in snap(client, made["id"], made["tokens"]["players"])["view"]["units"]
              if u["uid"] == unit)["hp"]  # fmt: skip
    assert [k for k, h in enumerate(hp) if h <= 0] == [0, 8, 9]


def test_what_a_choice_removes_is_asked_of_the_engine_once_a_state(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from warbench.rulesets.warsurge.game import engine

    setup = _setup()
    rs = get_ruleset("warsurge")
    state = rs.setup(setup["rosters"], setup["board"], setup["options"], 3)
    while rs.pending(state)[0].kind != "casualties":
        d = rs.pending(state)[0]
        state, _ = rs.apply(state, d.default, d.player)
    d = rs.pending(state)[0]
    view = rs.views.dump(rs.view(state, d.player))
    listed = [rs.actions.dump(a) for a in rs.legal_actions(state, d.player)]
    assert len(listed) == 2
    calls: list[object] = []
    real = engine.apply

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[1])
        return real(*args, **kwargs)

    monkeypatch.setattr(engine, "apply", counted)
    pres = presenter("warsurge")
    first = pres.decision_labels(setup, view, listed, state)
    assert len(calls) == 2  # each order applied once on a copy
    assert pres.decision_labels(setup, view, listed, state) == first
    pres.decision_labels(setup, view, listed, state)
    assert len(calls) == 2, "the same state's outcomes were computed again"


def test_the_question_names_the_models_in_their_order_s5_12() -> None:
    """The engine lists the candidates wounded first (§5.12); the question read "among models
    2, 5, 1, 3 and 4" (session 39's walk at the terminal)."""
    from warbench.rulesets.warsurge.game.words import casualty_prompt, typed_casualties_hint

    said = casualty_prompt("Blue: Gut-Hackers", 6, "Red: Assault Squad", [1, 4, 0, 2, 3])
    assert said.endswith("choose the casualties among models 1 to 5"), said
    assert "(among models 1 to 5;" in typed_casualties_hint([1, 4, 0, 2, 3])


def test_an_order_typed_in_a_players_numbers_s5_11() -> None:
    from warbench.kernel.errors import RulesError
    from warbench.rulesets.warsurge.game.words import typed_casualties

    assert typed_casualties("models 10 9 1", range(10)) == [9, 8, 0]
    assert typed_casualties("m 3, 5", range(10)) == [2, 4]
    assert typed_casualties("Model 2", range(10)) == [1]
    assert typed_casualties("2", range(10)) is None  # a listed choice's number
    assert typed_casualties('{"kind": "pass"}', range(10)) is None
    with pytest.raises(RulesError, match=r"model 4 may not be chosen; .* models 1 to 3 and 5"):
        typed_casualties("models 4", [0, 1, 2, 4])
    with pytest.raises(RulesError, match="named twice"):
        typed_casualties("models 2 2", range(10))
