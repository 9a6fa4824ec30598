"""The play API's check answers why a Move ends short, a charge's places and its note (issue 10,
session 32): ``preview.why_short`` (docs/schemas/play/preview.schema.json) for the seen case
(the Skirmish preset, seed 3, Game Turn 2, Red's Assault Squad toward (40, 40): Difficult
Ground halves its Move, Core Rules 001_d3f5e425c5e1196d.txt §4.5 L2044-2059), its Dangerous
Ground note (§4.6 L2085-2100), and the previewed ends are where the Move puts the models."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import jsonschema
from fastapi.testclient import TestClient

from tests.web.play.conftest import act, new_game, snap

ROOT = Path(__file__).parents[3]


def _check(client: TestClient, game: str, token: str, action: Any) -> dict[str, Any]:
    r = client.post(
        f"/api/play/games/{game}/check", json={"action": action}, headers={"X-Play-Token": token}
    )
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def test_a_short_move_is_checked_with_why_and_made_where_it_showed_L2044(
    client: TestClient,
) -> None:
    rs = {r["id"]: r for r in client.get("/api/play/rulesets").json()}
    setup = rs["warsurge"]["presets"][0]["setup"]
    made = new_game(client, ruleset="warsurge", setup=setup, mode="hotseat", seed=3)
    game, token = made["id"], made["tokens"]["players"]
    for _ in range(120):
        d = snap(client, game, token)["decision"]
        if "Game Turn 2, Move Phase" in d["prompt"]:
            break
        assert act(client, game, token, d["default"]).status_code == 200
    move = {"kind": "move", "unit": 1, "to": [40.0, 40.0]}
    out = _check(client, game, token, move)
    shown = out["preview"]
    schema = json.loads((ROOT / "docs/schemas/play/preview.schema.json").read_text())
    jsonschema.validate(shown, schema)
    assert "why_short" in schema["properties"]
    head, *why = shown["why_short"]
    assert head.startswith('moves 2.7", short of the 6.0"')
    assert "halved by Difficult Ground" in why[0] and "L2044-2059" in why[0]
    assert "crosses Dangerous Ground: Pit" in shown["note"]
    # a Move that goes its full 6" says nothing of ending short
    full = _check(client, game, token, {**move, "to": [5.0, 40.0]})["preview"]
    assert "why_short" not in full
    assert act(client, game, token, move).status_code == 200
    pos = next(u for u in snap(client, game, token)["view"]["units"] if u["uid"] == 1)["pos"]
    for p in shown["placements"]:
        assert math.dist(pos[p["model"]], p["end"]) < 1e-9
