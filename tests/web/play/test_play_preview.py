"""The preview of a WARSURGE placement in the play API (issue 10, session 31): the check of a
legal Move toward a point (a Dash, a Deploy at a point) answers where every model would stand,
the engine's own plan (``game/preview.py``), so a person sees a Move routed round a building
before committing to it (Core Rules 001_d3f5e425c5e1196d.txt §4.1 L1833-1851, §4.7
L2147-2156; docs/rulings.md "WARSURGE movement: session 30, a Move toward a point")."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from fastapi.testclient import TestClient

from tests.web.play.conftest import act, new_game, snap

ROOT = Path(__file__).parents[3]


def _game(client: TestClient) -> tuple[str, str]:
    rs = {r["id"]: r for r in client.get("/api/play/rulesets").json()}
    setup = rs["warsurge"]["presets"][0]["setup"]
    made = new_game(client, ruleset="warsurge", setup=setup, mode="hotseat", seed=1)
    return made["id"], made["tokens"]["players"]


def _until(client: TestClient, game: str, token: str, kind: str, field: str) -> dict[str, Any]:
    """Defaults taken until the decision lists a ``kind`` action with ``field``: that action."""
    for _ in range(200):
        s = snap(client, game, token)
        for listed in s["decision"]["actions"]:
            a = listed["action"]
            if a.get("kind") == kind and field in a:
                return dict(a)
        assert act(client, game, token, s["decision"]["default"]).status_code == 200
    raise AssertionError(f"no {kind} with {field} in 200 steps")


def _check(client: TestClient, game: str, token: str, action: Any) -> dict[str, Any]:
    r = client.post(
        f"/api/play/games/{game}/check", json={"action": action}, headers={"X-Play-Token": token}
    )
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def _unit(view: dict[str, Any], uid: int) -> dict[str, Any]:
    return next(u for u in view["units"] if u["uid"] == uid)


def test_a_move_to_a_point_previews_the_positions_apply_gives_L1845(client: TestClient) -> None:
    game, token = _game(client)
    move = _until(client, game, token, "move", "to")
    uid = move["unit"]
    before = snap(client, game, token)
    start = [list(p) for p in _unit(before["view"], uid)["pos"]]
    # a point across the board, behind the middle ruins: the engine's placement routes it
    far = {**move, "to": [2.0, 24.0]}
    out = _check(client, game, token, far)
    assert out["ok"] is True and "preview" in out, out
    placed = out["preview"]["placements"]
    assert {p["unit"] for p in placed} == {uid}
    assert sorted(p["model"] for p in placed) == list(range(len(start)))
    for p in placed:  # each start is where the model stands now
        assert p["start"] == start[p["model"]]
    assert any(p["end"] != p["start"] for p in placed)
    # checking changed nothing; the preview is what the Move does once made
    assert snap(client, game, token)["revision"] == before["revision"]
    assert act(client, game, token, far).status_code == 200
    after = _unit(snap(client, game, token)["view"], uid)["pos"]
    for p in placed:
        assert math.dist(after[p["model"]], p["end"]) < 1e-9, (p, after)


def test_the_preview_follows_the_point_and_only_legal_placements_have_one(
    client: TestClient,
) -> None:
    game, token = _game(client)
    move = _until(client, game, token, "move", "to")
    ends = []
    for to in ([2.0, 24.0], [46.0, 24.0]):
        out = _check(client, game, token, {**move, "to": to})
        ends.append([p["end"] for p in out["preview"]["placements"]])
    assert ends[0] != ends[1]  # another point, other places: the page redraws its ghosts
    # a refused action (another side's unit, or an action that is no placement) has none
    s = snap(client, game, token)
    side = s["decision"]["player"]
    foe = next(u["uid"] for u in s["view"]["units"] if u["side"] != side)
    refused = _check(client, game, token, {**move, "unit": foe})
    assert refused["ok"] is False and "preview" not in refused
    passing = next(
        (a["action"] for a in s["decision"]["actions"] if a["action"]["kind"] == "pass"), None
    )
    if passing is not None:
        assert "preview" not in _check(client, game, token, passing)


def test_a_deploy_at_a_point_previews_every_model_from_off_the_table_s3_6(
    client: TestClient,
) -> None:
    game, token = _game(client)
    deploy = _until(client, game, token, "deploy", "at")
    out = _check(client, game, token, deploy)
    placed = out["preview"]["placements"]
    assert placed and all(p["start"] is None for p in placed)
    assert act(client, game, token, deploy).status_code == 200
    pos = _unit(snap(client, game, token)["view"], deploy["unit"])["pos"]
    assert [p["end"] for p in placed] == [list(q) for q in pos]


def test_the_preview_schema_is_committed_and_describes_the_answer(client: TestClient) -> None:
    schema = json.loads((ROOT / "docs/schemas/play/preview.schema.json").read_text())
    game, token = _game(client)
    move = _until(client, game, token, "move", "to")
    out = _check(client, game, token, move)["preview"]
    jsonschema.validate(out, schema)
    with pytest.raises(jsonschema.ValidationError):  # the schema can refuse
        jsonschema.validate({"placements": [{"unit": 0}]}, schema)


@pytest.mark.parametrize("rid", ["warengine", "collision"])
def test_a_ruleset_without_previews_checks_as_before_and_bad_input_is_a_4xx(
    client: TestClient, rid: str
) -> None:
    """The WarEngine and Collision offer no preview: a legal check answers
    ``{"ok": true}`` and nothing more (the page draws nothing); an action that is not one of
    the ruleset's, or not JSON at all, is refused with a 4xx, never a 500 (session 31 review)."""
    from warbench.web.play.scenes import presenter

    setup = presenter(rid).presets()[0]["setup"]
    made = new_game(client, ruleset=rid, mode="hotseat", setup=setup)
    game, token = made["id"], made["tokens"]["players"]
    default = snap(client, game, token)["decision"]["default"]
    assert _check(client, game, token, default) == {"ok": True}
    url, head = f"/api/play/games/{game}/check", {"X-Play-Token": token}
    for body in ({"action": {"kind": "no such kind"}}, {"action": 7}, {}):
        r = client.post(url, json=body, headers=head)
        assert 400 <= r.status_code < 500, (body, r.status_code, r.text)
    r = client.post(url, content=b"{not json", headers={**head, "content-type": "application/json"})
    assert 400 <= r.status_code < 500


def test_a_warsurge_check_of_bad_input_is_a_4xx(client: TestClient) -> None:
    """WARSURGE's check, which previews, refuses malformed actions with a 4xx (not a 500)."""
    game, token = _game(client)
    url, head = f"/api/play/games/{game}/check", {"X-Play-Token": token}
    for action in (
        {"kind": "move", "unit": 0, "to": "here"},
        {"kind": "move", "unit": "zero", "to": [1, 2]},
        {"kind": "deploy", "unit": 0, "positions": [[1]]},
        {"kind": "move", "unit": -1, "to": [1, 2]},  # the schema's minimum 0
        {"kind": "move", "unit": None, "to": [1, 2]},
        {"kind": "move", "unit": True, "to": [1, 2]},
    ):
        r = client.post(url, json={"action": action}, headers=head)
        assert 400 <= r.status_code < 500, (action, r.status_code, r.text)
    # a move of a unit that does not exist is refused by the rules, not an error
    out = _check(client, game, token, {"kind": "move", "unit": 999, "to": [1.0, 2.0]})
    assert out["ok"] is False and "preview" not in out
