"""The play API (issue 14): games over the protocol, stored, checked for the token's seat."""

from __future__ import annotations

from typing import Any

from warbench.play import GameRecord, replay
from warbench.play.toy import SAMPLE_SETUP

from .conftest import act, new_game, snap


def _play_out(client: Any, game: str, tokens: list[str]) -> dict[str, Any]:
    """Answer every decision with its default (else the first listed action) until the end,
    each with the token of the seat that decides."""
    for _ in range(500):
        for tok in tokens:
            s = snap(client, game, tok)
            if s["result"] is not None:
                return s
            d = s["decision"]
            if d is None:
                continue
            action = d["default"] or d["actions"][-1]["action"]
            r = act(client, game, tok, action)
            assert r.status_code == 200, r.text
    raise AssertionError("the game did not end")


def test_rulesets_lists_every_registered_ruleset_with_presets(client: Any) -> None:
    from warbench.play import ruleset_ids

    rows = client.get("/api/play/rulesets").json()
    assert [r["id"] for r in rows] == ruleset_ids()
    toy = next(r for r in rows if r["id"] == "toy-duel")
    assert toy["presets"][0]["setup"] == SAMPLE_SETUP
    assert "human" in toy["seat_kinds"] and "ai:automatic" in toy["seat_kinds"]


def test_a_game_against_the_ai_plays_to_the_end_and_replays_identically(client: Any) -> None:
    g = new_game(client, mode="ai")
    tok = g["tokens"]["players"]
    end = _play_out(client, g["id"], [tok])
    assert end["result"]["reason"] in ("fell", "rounds")
    text = client.get(f"/api/play/games/{g['id']}/record", headers={"X-Play-Token": tok}).text
    rec = GameRecord.loads(text)
    rep = replay(rec)  # every digest and the result line verified
    assert rep.finished and rep.result is not None
    assert rep.result.to_json()["winner"] == end["result"]["winner"]
    assert rec.header.ruleset == "toy-duel" and rec.header.seed == 7
    assert len(rec.steps) == end["steps"]
    # the AI's and chance's steps are in the record beside the person's
    assert {s.actor for s in rec.steps} >= {-1, 0, 1}


def test_every_action_with_another_players_token_or_none_is_403(client: Any) -> None:
    """Issue 14: one player can never act for another (network game, a token per seat)."""
    g = new_game(client, mode="network")
    t0, t1, spec = g["tokens"]["seat 0"], g["tokens"]["seat 1"], g["tokens"]["spectator"]
    tried = 0
    for _ in range(200):
        s0, s1 = snap(client, g["id"], t0), snap(client, g["id"], t1)
        if s0["result"] is not None:
            break
        for mine, other_token, s in ((t0, t1, s0), (t1, t0, s1)):
            d = s["decision"]
            if d is None:
                continue
            for listed in d["actions"]:
                a = listed["action"]
                other = snap(client, g["id"], other_token)
                if other["decision"] is None:  # the other seat has nothing pending now
                    r = act(client, g["id"], other_token, a)
                    assert r.status_code == 403, (a, r.text)
                for bad in (None, spec, "not-a-token"):
                    r = act(client, g["id"], bad, a)
                    assert r.status_code == 403, (bad, a, r.text)
                    assert r.json()["field"] == "X-Play-Token"
                tried += 1
            r = act(client, g["id"], mine, d["default"] or d["actions"][0]["action"])
            assert r.status_code == 200, r.text
            break
    assert tried > 20
    # check, reach, undo and history need a token too
    for path, body in (("check", {"action": {"kind": "stance", "stance": "attack"}}),):
        assert client.post(f"/api/play/games/{g['id']}/{path}", json=body).status_code == 403
    assert client.post(f"/api/play/games/{g['id']}/undo").status_code == 403
    assert client.get(f"/api/play/games/{g['id']}/history").status_code == 403
    assert client.get(f"/api/play/games/{g['id']}/record").status_code == 403
    # undo in a network game is refused even with a seat's token (it needs every human seat)
    assert (
        client.post(f"/api/play/games/{g['id']}/undo", headers={"X-Play-Token": t0}).status_code
        == 403
    )


def test_a_token_of_another_game_is_403_and_an_unknown_game_404(client: Any) -> None:
    a, b = new_game(client), new_game(client)
    r = act(client, a["id"], b["tokens"]["players"], {"kind": "stance", "stance": "guard"})
    assert r.status_code == 403
    r = client.get("/api/play/games/nope", headers={"X-Play-Token": "x"})
    assert r.status_code == 404 and r.json()["field"] == "game_id"


def test_views_hide_what_the_rules_hide_toy_s1_s3(client: Any) -> None:
    """toy §1: the foe's shields are hidden; §3: a stance is secret until both chose; hide_hp.
    The spectator sees only what every player sees."""
    g = new_game(client, mode="network")
    t0, t1, spec = g["tokens"]["seat 0"], g["tokens"]["seat 1"], g["tokens"]["spectator"]
    v0 = snap(client, g["id"], t0)["view"]
    assert v0["shields"] == [1, None] and v0["hp"] == [3, None]
    assert act(client, g["id"], t0, {"kind": "stance", "stance": "guard"}).status_code == 200
    v1 = snap(client, g["id"], t1)["view"]
    assert v1["stance"] == [None, None] and v1["shields"] == [None, 2]
    vs = snap(client, g["id"], spec)
    assert vs["view"]["shields"] == [None, None] and vs["view"]["hp"] == [None, None]
    assert vs["view"]["stance"] == [None, None] and vs["decision"] is None
    assert vs["you"]["role"] == "spectator"


def test_check_gives_the_refusal_and_its_rule_without_changing_anything(client: Any) -> None:
    g = new_game(client, mode="hotseat")
    tok = g["tokens"]["players"]
    for seat_action in ({"kind": "stance", "stance": "attack"},) * 2:
        assert act(client, g["id"], tok, seat_action).status_code == 200
    s = snap(client, g["id"], tok)
    assert s["decision"]["kind"] == "positions"
    before = s["revision"]
    r = client.post(
        f"/api/play/games/{g['id']}/check",
        json={"action": {"kind": "move", "to": 99.0}},
        headers={"X-Play-Token": tok},
    ).json()
    assert r["ok"] is False and r["rule"] == "toy §4" and "not at 99" in r["reason"]
    ok = client.post(
        f"/api/play/games/{g['id']}/check",
        json={"action": s["decision"]["default"]},
        headers={"X-Play-Token": tok},
    ).json()
    assert ok == {"ok": True}
    assert snap(client, g["id"], tok)["revision"] == before
    # an illegal action is a 422 naming the rule, and nothing is stored
    r = act(client, g["id"], tok, {"kind": "move", "to": 99.0})
    assert r.status_code == 422 and "toy §4" in r.json()["detail"]
    assert snap(client, g["id"], tok)["revision"] == before
    # the family's domain is offered for the form
    assert s["decision"]["families"][0]["params"][0]["type"] == "interval"


def test_undo_takes_back_the_persons_step_and_the_ai_steps_after_it(client: Any) -> None:
    g = new_game(client, mode="ai")
    tok = g["tokens"]["players"]
    assert act(client, g["id"], tok, {"kind": "stance", "stance": "attack"}).status_code == 200
    s0 = snap(client, g["id"], tok)
    assert s0["decision"]["kind"] == "positions"  # Red has initiative (seed 7): Red moves first
    assert act(client, g["id"], tok, s0["decision"]["default"]).status_code == 200
    s1 = snap(client, g["id"], tok)
    assert s1["steps"] > s0["steps"] + 1 and s1["can_undo"]  # Blue (the AI) moved too
    r = client.post(f"/api/play/games/{g['id']}/undo", headers={"X-Play-Token": tok})
    assert r.status_code == 200
    s2 = snap(client, g["id"], tok)
    assert s2["steps"] == s0["steps"] and s2["view"] == s0["view"]
    hist = client.get(f"/api/play/games/{g['id']}/history", headers={"X-Play-Token": tok}).json()
    assert [h["undone"] for h in hist].count(True) == s1["steps"] - s0["steps"]
    # playing again after an undo gives a record that still replays
    assert act(client, g["id"], tok, {"kind": "move", "to": 1.0}).status_code == 200
    # while the game runs its record (with the seed: every later die) is not given out
    r = client.get(f"/api/play/games/{g['id']}/record", headers={"X-Play-Token": tok})
    assert r.status_code == 403 and "seed" in r.json()["detail"]
    end = _play_out(client, g["id"], [tok])
    text = client.get(f"/api/play/games/{g['id']}/record", headers={"X-Play-Token": tok}).text
    rep = replay(GameRecord.loads(text))
    assert rep.steps == end["steps"] and rep.finished


def test_a_game_survives_a_server_restart_and_resumes_at_its_last_action(db_url: str) -> None:
    """Issue 14: a killed server restarts with every game resumable at its last action (a new
    app over the same database; the state is replayed from the stored steps)."""
    from fastapi.testclient import TestClient

    from warbench.web.app import create_app

    with TestClient(create_app(db_url)) as c1:
        g = new_game(c1, mode="ai")
        tok = g["tokens"]["players"]
        assert act(c1, g["id"], tok, {"kind": "stance", "stance": "attack"}).status_code == 200
        before = snap(c1, g["id"], tok)
    with TestClient(create_app(db_url)) as c2:
        after = snap(c2, g["id"], tok)
        assert after["steps"] == before["steps"] and after["view"] == before["view"]
        assert after["decision"] == before["decision"]
        end = _play_out(c2, g["id"], [tok])
        assert end["result"] is not None


def test_replay_upload_steps_through_a_cli_record(client: Any, tmp_path: Any) -> None:
    from warbench.play import AutomaticPlayer, RandomLegalPlayer, SetupArgs, get_ruleset, run_game

    duel = get_ruleset("toy-duel")
    setup = SetupArgs(
        tuple(SAMPLE_SETUP["rosters"]), SAMPLE_SETUP["board"], SAMPLE_SETUP["options"]
    )
    run = run_game(duel, setup, [RandomLegalPlayer(1), AutomaticPlayer(RandomLegalPlayer(2))], 7)
    out = client.post("/api/play/replay", json={"record": run.record.dumps()}).json()
    assert out["verified"] and len(out["steps"]) == len(run.record.steps) + 1
    assert out["result"]["winner"] == run.result.winner if run.result else True
    assert sum(len(f["events"]) for f in out["steps"]) == len(run.events)
    assert out["steps"][-1]["scene"]["width"] == 8.0
    # a changed digest is refused with the step that differs
    bad = run.record.dumps().replace(run.record.steps[3].digest, "0" * 16)
    r = client.post("/api/play/replay", json={"record": bad})
    assert r.status_code == 422 and "step 4" in r.json()["detail"]


def test_bad_set_ups_are_422_naming_the_field(client: Any) -> None:
    r = client.post("/api/play/games", json={"ruleset": "nope", "setup": SAMPLE_SETUP})
    assert r.status_code == 422 and "toy-duel" in r.json()["detail"]
    bad = {**SAMPLE_SETUP, "rosters": [{"name": "A", "hp": 99}, {"name": "B"}]}
    r = client.post("/api/play/games", json={"ruleset": "toy-duel", "setup": bad})
    assert r.status_code == 422 and r.json()["field"] == "rosters[0].hp"
    r = client.post(
        "/api/play/games",
        json={"ruleset": "toy-duel", "setup": SAMPLE_SETUP, "mode": "ai", "seats": ["x", "human"]},
    )
    assert r.status_code == 422 and r.json()["field"] == "seats[0]"


def test_live_stream_sends_the_revision_and_needs_a_token(client: Any) -> None:
    g = new_game(client, mode="network")
    url = f"/api/play/games/{g['id']}/stream"
    assert client.get(url).status_code == 403
    assert client.get(url, params={"token": "nope"}).status_code == 403
    with client.stream("GET", url, params={"token": g["tokens"]["spectator"], "limit": 1}) as r:
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/event-stream")
        lines = [line for line in r.iter_lines() if line]
    rev = snap(client, g["id"], g["tokens"]["spectator"])["revision"]
    assert lines == ["retry: 1000", "event: change", f'data: {{"revision": {rev}}}']


def test_a_web_game_replays_identically_with_warbench_replay(client: Any, tmp_path: Any) -> None:
    """Issue 14: a finished web game's record, downloaded, is verified by the CLI."""
    from typer.testing import CliRunner

    from warbench.cli.app import _register, app

    _register(["replay"])
    g = new_game(client, mode="ai", seed=11)
    tok = g["tokens"]["players"]
    end = _play_out(client, g["id"], [tok])
    path = tmp_path / "web.jsonl"
    path.write_text(
        client.get(f"/api/play/games/{g['id']}/record", headers={"X-Play-Token": tok}).text
    )
    out = CliRunner().invoke(app, ["replay", str(path)])
    assert out.exit_code == 0, out.output
    assert f"verified: {end['steps']} actions replay identically" in out.output


def test_every_listed_ai_seat_kind_plays_a_game_to_the_end(client: Any) -> None:
    """Every AI kind the lobby offers builds its player with the game's ruleset and set-up
    (search players need both; the web once built them without and failed)."""
    rows = client.get("/api/play/rulesets").json()
    toy = next(r for r in rows if r["id"] == "toy-duel")
    kinds = [k for k in toy["seat_kinds"] if k.startswith("ai:")]
    assert "ai:automatic" in kinds and any(k.startswith("ai:search") for k in kinds)
    for kind in kinds:
        g = new_game(client, mode="ai", seats=["human", kind])
        end = _play_out(client, g["id"], [g["tokens"]["players"]])
        assert end["result"] is not None, kind


def test_the_lobby_offers_each_ruleset_only_the_ai_kinds_that_can_play_it(client: Any) -> None:
    """Every AI level is offered where it plays (``search:1`` … for the rulesets with search
    hooks), and a kind that cannot play a ruleset is neither offered nor accepted: a WarEngine
    game with a search seat was once made and then stuck at the AI's first decision (422)."""
    from warbench.web.play.scenes import presenter

    rows = {r["id"]: r for r in client.get("/api/play/rulesets").json()}
    assert {"ai:search:1", "ai:search:4", "ai:tactical"} <= set(rows["warsurge"]["seat_kinds"])
    for rid in ("warengine", "collision"):  # their search hooks (issue 15, s15-ai)
        kinds = rows[rid]["seat_kinds"]
        assert "ai:scripted" in kinds and "ai:search:2" in kinds
        setup = presenter(rid).presets()[0]["setup"]
        r = client.post(
            "/api/play/games",
            json={"ruleset": rid, "setup": setup, "mode": "ai", "seats": ["human", "ai:search:2"]},
        )
        assert r.status_code == 201, r.text
    g = new_game(client, mode="ai", seats=["human", "ai:search:1"])
    end = _play_out(client, g["id"], [g["tokens"]["players"]])
    assert end["result"] is not None


def test_a_finished_game_offers_no_undo_and_refuses_one_naming_why(client: Any) -> None:
    """s34-play2: "Undo" stayed on the card once the game was over (s34-ui's walk); a finished
    game's result stands, so the state says ``can_undo`` false and the API refuses an undo with
    a 4xx that says the game is over (the step before the end is still the person's)."""
    g = new_game(client, mode="ai")
    tok = g["tokens"]["players"]
    end = _play_out(client, g["id"], [tok])
    assert end["result"] is not None and not end["can_undo"]
    r = client.post(f"/api/play/games/{g['id']}/undo", headers={"X-Play-Token": tok})
    assert 400 <= r.status_code < 500 and "over" in r.json()["detail"], r.text
    assert snap(client, g["id"], tok)["steps"] == end["steps"]  # nothing taken back
