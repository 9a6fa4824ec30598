"""A WARSURGE point typed into the free "move to" form (issue 10, session 30 review): since
Moves toward a point find a way (docs/game.md "Moving toward a point finds a way") every finite
point is a legal Move for a unit free to move, so what the server still refuses is a point that
is no point: a missing or non-finite coordinate (the page sends ``null`` for a number too large
for a double). Refused as a 4xx naming what is wrong, never a server error."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from tests.web.play.conftest import act, new_game, snap


def _move_phase(client: TestClient) -> tuple[str, str, dict[str, Any]]:
    """The skirmish (seed 1, defaults taken) at its first "move to" choice: game, token and
    that decision's listed Move toward a point."""
    rs = {r["id"]: r for r in client.get("/api/play/rulesets").json()}
    setup = rs["warsurge"]["presets"][0]["setup"]
    made = new_game(client, ruleset="warsurge", setup=setup, mode="hotseat", seed=1)
    game, token = made["id"], made["tokens"]["players"]
    for _ in range(200):
        s = snap(client, game, token)
        for listed in s["decision"]["actions"]:
            a = listed["action"]
            if a.get("kind") == "move" and "to" in a:
                return game, token, a
        assert act(client, game, token, s["decision"]["default"]).status_code == 200
    raise AssertionError("no Move toward a point in 200 steps")


def _check(client: TestClient, game: str, token: str, action: Any) -> Any:
    return client.post(
        f"/api/play/games/{game}/check", json={"action": action}, headers={"X-Play-Token": token}
    )


def test_a_move_to_any_finite_point_is_checked_and_a_non_point_is_refused(
    client: TestClient,
) -> None:
    game, token, move = _move_phase(client)
    before = snap(client, game, token)["revision"]
    # the far edge and beyond the board: legal, the unit goes as far as the rules allow
    for to in ([0.5, move["to"][1]], [-30.0, move["to"][1]]):
        r = _check(client, game, token, {**move, "to": to})
        assert r.status_code == 200 and r.json()["ok"] is True, r.text
    # no x, or x too large for a double (JSON null from the page; Python's JSON reads
    # Infinity and NaN): refused, naming the point, for a check and for an action alike
    unit = move["unit"]
    bodies = [
        json.dumps({"action": {**move, "to": to}}) for to in ([None, 10.0], ["east", 10.0], [10.0])
    ] + [
        f'{{"action": {{"kind": "move", "unit": {unit}, "to": [{x}, 10.0]}}}}'
        for x in ("Infinity", "NaN")
    ]
    headers = {"X-Play-Token": token, "Content-Type": "application/json"}
    for body in bodies:
        for path in ("check", "actions"):
            r = client.post(f"/api/play/games/{game}/{path}", content=body, headers=headers)
            assert 400 <= r.status_code < 500, (body, path, r.status_code, r.text)
            assert "a point" in r.json()["detail"], r.text
    assert snap(client, game, token)["revision"] == before
