"""The odds a page shows for a WARSURGE attack are the game's (issue 14): the engine's own
situation of the attack (001_d3f5e425c5e1196d.txt §5.6 cover, §5.1 half range for Rapid and
Impact, §5.9 Melee), read by the same odds kernel as ``warbench odds --situation``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.play.conftest import act, new_game, snap


def _preset(client: TestClient) -> dict[str, Any]:
    rs = {r["id"]: r for r in client.get("/api/play/rulesets").json()}
    setup: dict[str, Any] = rs["warsurge"]["presets"][0]["setup"]
    return setup


def _attack_in_cover(
    client: TestClient,
    counts: Callable[[dict[str, Any], dict[str, Any]], bool] = lambda _a, _row: True,
) -> tuple[str, dict[str, str], dict[str, Any], dict[str, Any]]:
    """Play the skirmish (seed 1, the suggested choices) until an attack whose target has a
    Cover Bonus is offered (and ``counts(attack, target row)``); the game, its tokens, the
    attack and the page's odds of it."""
    made = new_game(client, ruleset="warsurge", setup=_preset(client), mode="hotseat", seed=1)
    game, token = made["id"], made["tokens"]["players"]
    for _ in range(200):
        s = snap(client, game, token)
        assert s["result"] is None
        for listed in s["decision"]["actions"]:
            a = listed["action"]
            if a.get("kind") != "attack":
                continue
            r = client.post(
                f"/api/play/games/{game}/odds", json={"action": a}, headers={"X-Play-Token": token}
            )
            assert r.status_code == 200, r.text
            out = r.json()
            if any(t["situation"]["cover"] and counts(a, t) for t in out["targets"]):
                return game, made["tokens"], a, out
        assert act(client, game, token, s["decision"]["default"]).status_code == 200
    pytest.fail("no attack against a unit in cover in 200 steps")


def _kernel_odds(
    setup: dict[str, Any],
    attacker: int,
    target: int,
    weapon: str,
    models: int,
    in_sight: list[int] | None,
    **flags: Any,
) -> Any:
    """The odds kernel on the two units' files (full strength, ``models`` of the attacker's
    using the weapon) with the situation flags the CLI's ``--situation`` sets."""
    from warbench.cli.warsurge_cmds import situation_context
    from warbench.rulesets.warsurge.attack import AttackContext, UnitState
    from warbench.rulesets.warsurge.io import unit_from_data
    from warbench.rulesets.warsurge.odds import AttackPlan, attack_odds

    entries = [u for r in setup["rosters"] for u in r["units"]]

    def unit(uid: int) -> Any:
        data = {k: entries[uid][k] for k in ("unit", "weapons", "models") if k in entries[uid]}
        return UnitState.of(unit_from_data(data, source="setup", prefix=f"unit {uid}"))

    names = [n for n, on in flags.items() if on]
    sight = None if in_sight is None else frozenset(in_sight)
    ctx = AttackContext(**situation_context(names), los_models=sight)  # type: ignore[arg-type]
    plan = AttackPlan(
        unit(attacker), unit(target), ctx, weapons=(weapon,), users=((weapon, models),)
    )
    return attack_odds(plan, seed=0)


def test_s5_6_attack_odds_in_the_page_count_the_targets_cover(client: TestClient) -> None:
    setup = _preset(client)

    def odds(attack: dict[str, Any], row: dict[str, Any], cover: bool) -> Any:
        # the game's half range either way: the two differ by the Cover Bonus alone
        sit = row["situation"]
        half = {"half-range": sit["within_half_range"]}
        return _kernel_odds(
            setup,
            attack["unit"],
            row["target"],
            row["weapons"][0],
            row["models"],
            sit["models_in_sight"],
            cover=cover,
            **half,
        )

    def cover_counts(attack: dict[str, Any], row: dict[str, Any]) -> bool:
        # an attack whose odds the Cover Bonus changes (a gun whose every hit gets through
        # anyway would show nothing)
        return bool(
            odds(attack, row, True).expected_hp_lost
            != pytest.approx(odds(attack, row, False).expected_hp_lost, abs=1e-6)
        )

    _game, _tokens, attack, out = _attack_in_cover(client, cover_counts)
    row = next(t for t in out["targets"] if t["situation"]["cover"] and cover_counts(attack, t))
    sit = row["situation"]
    assert not sit["melee"] and sit["distance"] > 0
    with_situation, without = odds(attack, row, True), odds(attack, row, False)
    # the page's odds are the kernel's with the game's cover (and half range), not without
    # the cover (a page that dropped only the Cover Bonus fails here)
    assert row["expected_hp_lost"] == pytest.approx(with_situation.expected_hp_lost, abs=1e-9)
    assert row["expected_hp_lost"] != pytest.approx(without.expected_hp_lost, abs=1e-6)
    assert row["wipe_chance"] == pytest.approx(with_situation.wipe_chance, abs=1e-9)


def test_odds_are_asked_by_the_deciding_seat_only(client: TestClient) -> None:
    game, tokens, attack, _out = _attack_in_cover(client)
    for headers in ({}, {"X-Play-Token": tokens["spectator"]}, {"X-Play-Token": "made-up"}):
        r = client.post(f"/api/play/games/{game}/odds", json={"action": attack}, headers=headers)
        assert r.status_code == 403, r.text


def test_a_refused_attack_answers_the_engines_reason(client: TestClient) -> None:
    game, tokens, attack, _out = _attack_in_cover(client)
    token = tokens["players"]
    bad = {**attack, "targets": [[attack["targets"][0][0], attack["unit"]]]}  # its own unit
    r = client.post(
        f"/api/play/games/{game}/odds", json={"action": bad}, headers={"X-Play-Token": token}
    )
    assert r.status_code == 200
    assert "not an enemy unit" in r.json()["refused"]


def test_l1073_collision_attack_odds_are_the_games_profile_read_exactly() -> None:
    """A Sword (W-Att 3) against Def 5 on open ground: D10 + 3 >= 5 hits on 2-10 (L1073-1082,
    no automatic miss, docs/rulings.md Collision 6): 9 in 10; in the target's back (L1058-1065)
    the Def bonus it loses shows in the odds the game would roll."""
    from tests.rulesets.collision.game.helpers import card, duel_setup, placed
    from warbench.web.play.scenes import presenter

    pres = presenter("collision")
    sword = {"kind": "attack", "target": 1, "weapon": "Sword"}
    front = placed(duel_setup(card("A"), card("B")), {0: ((2, 2), "E"), 1: ((3, 2), "W")})
    out = pres.odds({}, None, sword, front, 0)
    assert out is not None
    (row,) = out["targets"]
    assert row["hit"] == pytest.approx(0.9) and row["situation"]["cover"] is False
    back = placed(duel_setup(card("A"), card("B")), {0: ((2, 2), "E"), 1: ((3, 2), "E")})
    (from_behind,) = pres.odds({}, None, sword, back, 0)["targets"]  # type: ignore[index]
    assert from_behind["hit"] > row["hit"]
    refused = pres.odds({}, None, {**sword, "target": 0}, front, 0)
    assert refused is not None and refused["refused"]


def test_s10_3_odds_of_an_attack_at_a_terrain_piece_are_the_games_plan() -> None:
    """An attack at a destructible terrain piece (001 §10.2 B, §10.3 L4470) shows the odds of
    the game's own plan for it (``terrain_attacks.terrain_attack_plan``: the piece as one model
    with its HP left), named by the piece; it failed before with the target read as a unit."""
    from types import SimpleNamespace

    from tests.warsurge.game.test_terrain_destructible import DECK, _state
    from warbench.rulesets.warsurge.game.actions import Attack
    from warbench.rulesets.warsurge.game.codecs import ActionCodec
    from warbench.rulesets.warsurge.game.terrain import terrain_target
    from warbench.web.play.scenes import _engine_odds

    state = _state(DECK)
    deck = terrain_target(state, "Deck")
    action = ActionCodec().dump(Attack(0, (("Gun", deck),)))
    assert isinstance(action, dict)
    out = _engine_odds({}, SimpleNamespace(game=state), 0, action)
    assert "refused" not in out
    (row,) = out["targets"]
    assert isinstance(row, dict)
    assert row["target"] == deck and row["label"] == "Deck"
    assert "error" not in row and row["exact"] is True
