"""The play service works out a preview only for a person's ``check`` (issue 10, session 32,
s32-review): AI seats' moves on the service never do (the preview is made to fail loudly);
``tests/play/test_preview_cost.py`` has the batch games and the reasons."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.play.test_preview_cost import Asked, no_preview
from tests.web.play.conftest import act, new_game, snap
from warbench.web.play.scenes import presenter

__all__ = ["no_preview"]


def test_ai_seats_on_the_play_service_work_out_no_preview_but_a_check_does(
    client: TestClient, no_preview: list[object]
) -> None:
    setup = presenter("warsurge").presets()[0]["setup"]
    made = new_game(client, ruleset="warsurge", setup=setup, mode="ai", seed=3)
    game, token = made["id"], made["tokens"]["players"]
    move = None
    for _ in range(60):
        d = snap(client, game, token)["decision"]
        assert d is not None, "the game ended before a Move of the person's"
        listed = [a["action"] for a in d["actions"] if a["action"]["kind"] == "move"]
        if listed and "Game Turn 2" in d["prompt"]:
            move = listed[0]
            break
        assert act(client, game, token, d["default"]).status_code == 200
    assert move is not None
    # the AI seat has made its moves of the game's first Game Turn: no preview worked out
    assert no_preview == []
    # the person's check does work it out (the place watched is the right one)
    with pytest.raises(Asked):
        client.post(
            f"/api/play/games/{game}/check", json={"action": move}, headers={"X-Play-Token": token}
        )
    assert no_preview
