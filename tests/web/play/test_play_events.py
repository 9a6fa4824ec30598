"""Each viewer sees the events its view allows (issue 14: "a player's view hides what the
rules hide"): Collision's secret phase piles (003_fc239e71486306e1.txt L774-776) and Map
Carriers (L1344) reach only their player in full; the other player and spectators read the
public sentence; WARSURGE events about a unit another side holds hidden in Reserve
(``hide_reserves``) are not shown to that side."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.web.play.conftest import act, new_game, snap
from warbench.web.play.scenes import presenter, visible_event


def _collision(client: TestClient) -> dict[str, Any]:
    rs = {r["id"]: r for r in client.get("/api/play/rulesets").json()}
    setup: dict[str, Any] = rs["collision"]["presets"][0]["setup"]
    options = {**setup["options"], "major": "Headhunter", "minors": ["Map Carriers", "High Ground"]}
    return {**setup, "options": options}


def _play_network(client: TestClient, setup: dict[str, Any], until: Any) -> dict[str, Any]:
    """A two-browser Collision game, every seat taking its suggested choice, until
    ``until(snapshot)``; returns the game's answer (id, tokens)."""
    made = new_game(client, ruleset="collision", setup=setup, mode="network", seed=3)
    tokens = made["tokens"]
    for _ in range(400):
        seat_snaps = [snap(client, made["id"], tokens[f"seat {p}"]) for p in (0, 1)]
        if until(seat_snaps[0]):
            return made
        mover = next(s for s in seat_snaps if s["decision"] is not None)
        seat = mover["decision"]["player"]
        r = act(client, made["id"], tokens[f"seat {seat}"], mover["decision"]["default"])
        assert r.status_code == 200, r.text
    raise AssertionError("the game did not get there")


def _texts(client: TestClient, game: str, token: str) -> list[dict[str, Any]]:
    return list(snap(client, game, token)["events"])


def test_l774_secret_piles_reach_their_player_only(client: TestClient) -> None:
    made = _play_network(client, _collision(client), lambda s: s["view"]["turn"] >= 2)
    game, tokens = made["id"], made["tokens"]
    mine = [e for e in _texts(client, game, tokens["seat 0"]) if e["kind"] == "piles"]
    theirs = [e for e in _texts(client, game, tokens["seat 1"]) if e["kind"] == "piles"]
    watching = [e for e in _texts(client, game, tokens["spectator"]) if e["kind"] == "piles"]
    groups = snap(client, game, tokens["seat 0"])["view"]["groups"]
    # turn 1 onwards: seat 0 reads its own piles in full, the other's as the public sentence
    own = [e for e in mine if e["text"].startswith(f"{groups[0]} sorts the hand: phase 1:")]
    assert own and all(e["data"]["visible_to"] == [0] for e in own)
    assert not any(e["text"].startswith(f"{groups[1]} sorts the hand:") for e in mine)
    assert any(e["text"].startswith(f"{groups[1]} sorts the hand: phase 1:") for e in theirs)
    assert not any(e["text"].startswith(f"{groups[0]} sorts the hand:") for e in theirs)
    # a spectator: every sorting, and only as the public sentence (no data)
    assert len(watching) == len(mine) == len(theirs)
    assert all(e["text"].endswith("sorts the hand into three piles") for e in watching)
    assert all("data" not in e for e in watching if "phase 1" not in e["text"])
    # the view's log is everyone's: the public sentence there too
    for tok in tokens.values():
        log = snap(client, game, tok)["view"]["log"]
        assert not any("sorts the hand: phase" in line for line in log)


def test_l1344_a_map_carrier_is_named_to_its_player_only(client: TestClient) -> None:
    def nominated(s: dict[str, Any]) -> bool:
        return any(e["kind"] == "nominate" for e in s["events"]) and s["view"]["turn"] >= 1

    made = _play_network(client, _collision(client), nominated)
    game, tokens = made["id"], made["tokens"]
    for seat in (0, 1):
        events = [
            e for e in _texts(client, game, tokens[f"seat {seat}"]) if e["kind"] == "nominate"
        ]
        carriers = [e for e in events if "map carrier" in e["text"]]
        assert carriers
        for e in carriers:
            if e["text"].endswith("(in secret)"):
                assert e["data"]["visible_to"] == [seat]  # its own carrier, named
            else:
                assert e["text"].endswith("nominates a map carrier in secret")
                assert "data" not in e
    for e in _texts(client, game, tokens["spectator"]):
        assert not e["text"].endswith("as its map carrier (in secret)")


def test_replay_viewer_shows_the_public_events(client: TestClient) -> None:
    made = _play_network(client, _collision(client), lambda s: s["view"]["turn"] >= 2)
    rec = client.get(
        f"/api/play/games/{made['id']}/record",
        headers={"X-Play-Token": made["tokens"]["seat 0"]},
    )
    assert rec.status_code == 403  # the game runs: the record (its seed) is not given out
    # the same steps as a record file replayed in the viewer: only public sentences
    from warbench.web.play.routes import replay_steps
    from warbench.web.play.service import record_of

    data = client.app.state.play.load(made["id"])  # type: ignore[attr-defined]
    frames = replay_steps(record_of(data).dumps())["steps"]
    texts = [e["text"] for f in frames for e in f["events"]]
    assert any(t.endswith("sorts the hand into three piles") for t in texts)
    assert not any("sorts the hand: phase" in t for t in texts)


def test_the_convention_visible_to_and_public_text() -> None:
    secret = {
        "kind": "k",
        "text": "full",
        "rule": "r",
        "data": {"visible_to": [1], "public_text": "some"},
    }
    assert visible_event(secret, frozenset({1})) == secret
    assert visible_event(secret, frozenset({0})) == {"kind": "k", "text": "some", "rule": "r"}
    assert visible_event(secret, frozenset()) == {"kind": "k", "text": "some", "rule": "r"}
    quiet = {"kind": "k", "text": "full", "data": {"visible_to": [1]}}
    assert visible_event(quiet, frozenset({0})) is None
    public = {"kind": "k", "text": "all", "data": {"unit": 3}}
    assert visible_event(public, frozenset()) == public


def test_warsurge_events_about_a_hidden_reserve_unit_are_not_shown() -> None:
    """With ``hide_reserves`` (§3.6 Reserve) another side's Reserve units are only counted in
    a view; an event naming one is not shown to that viewer."""
    pres = presenter("warsurge")
    view = {"units": [{"uid": 0, "side": 0}, {"uid": 1, "side": 0}], "sides": []}
    about_hidden = {
        "kind": "deploy",
        "text": "Blue: Dead Dogs stays in Reserve",
        "data": {"unit": 3},
    }
    about_seen = {"kind": "move", "text": "Red: Troopers move", "data": {"unit": 1}}
    attack_on_hidden = {"kind": "attack", "text": "...", "data": {"unit": 0, "target": 4}}
    assert pres.event_view({}, view, about_hidden, frozenset({0})) is None
    assert pres.event_view({}, view, attack_on_hidden, frozenset({0})) is None
    assert pres.event_view({}, view, about_seen, frozenset({0})) == about_seen
