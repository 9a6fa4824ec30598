"""WARSURGE on the game protocol (docs/protocol.md "WARSURGE on the protocol"; issue 10 step 2).

The conformance suite passes on WARSURGE with the 300-point skirmish pair, a protocol record
replays, a batch is the same inline and on processes, and an automatic game through the
protocol is, step by step, the game ``warbench battle`` plays with the same seed.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from warbench.play import (
    AutomaticPlayer,
    GameRecord,
    RandomLegalPlayer,
    SetupArgs,
    get_ruleset,
    replay,
    run_batch,
    run_game,
)
from warbench.play.conformance import check_conformance
from warbench.play.record import Replay
from warbench.rulesets.warsurge.game.actions import Action, ChooseTurnMaster, Pass
from warbench.rulesets.warsurge.game.io import load_game_roster, roster_to_data
from warbench.rulesets.warsurge.game.protocol import WarsurgeRuleset, WarsurgeState
from warbench.rulesets.warsurge.game.state import Location

ROOT = Path(__file__).parents[2]
ROSTERS = ROOT / "examples" / "warsurge" / "rosters"
#: more conformance games on demand (CI keeps two)
GAMES = int(os.environ.get("WARBENCH_CONFORMANCE_GAMES", "2"))


def skirmish(**options: object) -> SetupArgs:
    rosters = tuple(
        roster_to_data(load_game_roster(ROSTERS / f))
        for f in ("skirmish_a.yaml", "skirmish_b.yaml")
    )
    return SetupArgs(rosters, None, dict(options))


def start(ws: WarsurgeRuleset, setup: SetupArgs, seed: int) -> WarsurgeState:
    return ws.setup(setup.rosters, setup.board, setup.options, seed)


@pytest.fixture(scope="module")
def ws() -> WarsurgeRuleset:
    return WarsurgeRuleset()


def invariants(state: WarsurgeState) -> None:
    """Models within the board (§3.5) and HP within each model's profile (§5.11)."""
    g = state.game
    width, height = g.setup.field.width, g.setup.field.height
    for u in g.units:
        info = g.info(u.uid)
        assert all(0 <= h <= info.hp_per_model for h in u.hp), f"{info.label} HP {u.hp}"
        if u.location is Location.TABLE:
            for i in u.present():
                x, y = u.pos[i]
                assert -1e-6 <= x <= width + 1e-6 and -1e-6 <= y <= height + 1e-6, (
                    f"{info.label} model {i} at {(x, y)} off the board"
                )


def perturb(state: WarsurgeState, player: int) -> WarsurgeState:
    """Change what ``player`` may not see: other sides' point costs (hide_roster_value) and
    the HP of other sides' units in Reserve (hide_reserves)."""
    g = state.game
    infos = tuple(
        i if i.side == player else replace(i, points=i.points + 17) for i in g.setup.units
    )
    units = tuple(
        replace(u, hp=tuple(max(0, h - 1) for h in u.hp))
        if g.info(u.uid).side != player and u.location is Location.RESERVE
        else u
        for u in g.units
    )
    game = replace(g, setup=replace(g.setup, units=infos), units=units)
    return WarsurgeState(state.args, game, state.scripted)


def test_warsurge_is_registered() -> None:
    ws = get_ruleset("warsurge")
    assert ws.id == "warsurge" and isinstance(ws, WarsurgeRuleset)


def test_conformance_suite_passes_on_skirmish_games(ws: WarsurgeRuleset) -> None:
    # without the turn master and zone automations those are players' decisions too
    setup = skirmish(
        hide_roster_value=True,
        hide_reserves=True,
        automation=["model placement", "casualty selection", "coherency"],
    )
    report = check_conformance(
        ws, setup, seeds=range(GAMES), perturb=perturb, invariants=invariants, samples=2
    )
    assert report.finished == GAMES
    assert {"turn master", "zone", "activation"} <= set(report.decisions)
    assert report.hidden_checks > 0 and report.defaults > 0


def test_decisions_carry_the_engines_choice_as_default(ws: WarsurgeRuleset) -> None:
    # §2.1: the roll-off winner names the Turn Master; the engine's choice is themselves
    state = start(ws, skirmish(automation=["model placement"]), 3)
    (d,) = ws.pending(state)
    assert d.kind == "turn master" and d.default == ChooseTurnMaster(d.player)
    assert ws.check(state, d.default, 1 - d.player) is not None  # only the winner decides
    state, _ = ws.apply(state, d.default, d.player)
    (z,) = ws.pending(state)
    assert z.kind == "zone" and z.default is not None
    state, _ = ws.apply(state, z.default, z.player)
    while ws.pending(state)[0].kind == "zone":
        (z,) = ws.pending(state)
        state, _ = ws.apply(state, z.default, z.player)  # type: ignore[arg-type]
    (act,) = ws.pending(state)
    assert act.kind == "activation" and act.default is not None
    assert ws.check(state, act.default, act.player) is None
    # §3.6: at least half the roster deploys on Game Turn 1, so passing is refused (the rule)
    refusal = ws.check(state, Pass(), act.player)
    assert refusal is not None and refusal.rule == "§3.6"


def test_views_hide_other_sides_values_only_when_asked(ws: WarsurgeRuleset) -> None:
    open_state = start(ws, skirmish(), 1)
    hidden_state = start(ws, skirmish(hide_roster_value=True), 1)
    seen = ws.view(open_state, 0)
    assert all("points" in u for u in seen["units"])
    hidden = ws.view(hidden_state, 0)
    sides = {u["uid"]: u["side"] for u in seen["units"]}
    assert all(("points" in u) == (sides[u["uid"]] == 0) for u in hidden["units"])
    assert "roster_points" in hidden["sides"][0] and "roster_points" not in hidden["sides"][1]


def test_a_protocol_record_replays_identically(ws: WarsurgeRuleset, tmp_path: Path) -> None:
    run = run_game(ws, skirmish(), [RandomLegalPlayer(4), RandomLegalPlayer(5)], 4)
    assert run.result is not None
    path = tmp_path / "game.jsonl"
    run.record.save(path)
    rep: Replay[WarsurgeState] = replay(GameRecord.load(path), ws)
    assert rep.digests == [s.digest for s in run.record.steps]
    assert ws.digest(rep.state) == ws.digest(run.state)


def test_batch_is_the_same_inline_and_on_processes() -> None:
    setup = skirmish()
    seeds = [1, 2, 3]
    inline = run_batch("warsurge", setup, seeds, players=("automatic", "random"), backend="inline")
    procs = run_batch(
        "warsurge", setup, seeds, players=("automatic", "random"), backend="processes", workers=2
    )
    assert inline == procs
    assert all(r.finished for r in inline) and len({r.digest for r in inline}) == len(seeds)


@pytest.mark.parametrize("seed", [1, 2])
def test_automatic_game_is_the_battle_commands_game(
    ws: WarsurgeRuleset, seed: int, tmp_path: Path
) -> None:
    """Every default taken: the same actions and digests as ``warbench battle --seed``."""
    from warbench.cli.app import main

    out = tmp_path / "battle.jsonl"
    a, b = (str(ROSTERS / f) for f in ("skirmish_a.yaml", "skirmish_b.yaml"))
    with pytest.raises(SystemExit) as exit_info:
        main(["battle", a, b, "--seed", str(seed), "--record", str(out), "--quiet"])
    assert not exit_info.value.code
    battle = GameRecord.load(out)  # the protocol's record (issue 10)
    assert battle.header.ruleset == ws.id and battle.header.digest == ws.digest(
        ws.setup(battle.header.rosters, battle.header.board, battle.header.options, seed)
    )
    auto: AutomaticPlayer[Action] = AutomaticPlayer(RandomLegalPlayer(0))
    run = run_game(ws, skirmish(), [auto, auto], seed, automate={"*"})
    assert [s.digest for s in run.record.steps] == [s.digest for s in battle.steps]
    assert [s.action for s in run.record.steps] == [s.action for s in battle.steps]
    assert [s.actor for s in run.record.steps] == [s.actor for s in battle.steps]
    assert run.result is not None and battle.result is not None
    assert battle.result.result == run.result
    rp = replay(battle)  # play.replay verifies every step's digest and the result
    assert rp.finished and rp.digests == [s.digest for s in battle.steps]


def test_engine_player_sees_only_the_view_001_s2_2(ws: WarsurgeRuleset) -> None:
    # issue 10: the scripted AI behind every default chooses from the acting side's view:
    # known_state blanks what the view hides (other sides' points, their Reserve units' HP)
    from warbench.rulesets.warsurge.game.protocol import known_state

    opts = {"hide_roster_value": True, "hide_reserves": True}
    state = start(ws, skirmish(**opts), 4)
    g = state.game
    known = known_state(g, 0, state.options)
    assert known is not g
    for info in known.setup.units:
        full = g.info(info.uid)
        assert info.points == (full.points if full.side == 0 else 0.0)
    moved = perturb(state, 0).game
    assert moved.setup.units != g.setup.units  # the hidden information did change ...
    again = known_state(moved, 0, state.options)
    assert again.setup.units == known.setup.units  # ... and the AI cannot tell
    assert again.units == known.units
    # nothing hidden: the engine state itself
    plain = start(ws, skirmish(), 4)
    assert known_state(plain.game, 0, plain.options) is plain.game


@pytest.mark.parametrize("seed", [2, 5])
def test_engine_player_plays_the_same_game_with_hidden_information(
    ws: WarsurgeRuleset, seed: int
) -> None:
    # the scripted AI uses nothing the views hide, so hiding it changes no choice: every
    # default taken, the games with and without the hiding options are action for action
    # and digest for digest the same
    auto: AutomaticPlayer[Action] = AutomaticPlayer(RandomLegalPlayer(0))
    runs = [
        run_game(ws, skirmish(**opts), [auto, auto], seed, automate={"*"})
        for opts in ({}, {"hide_roster_value": True, "hide_reserves": True})
    ]
    plain, hidden = (r.record.steps for r in runs)
    assert [s.action for s in hidden] == [s.action for s in plain]
    assert [s.digest for s in hidden] == [s.digest for s in plain]
    assert runs[0].result == runs[1].result


def test_conformance_refuses_a_default_that_reads_hidden_information(
    ws: WarsurgeRuleset, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the conformance check of the defaults can fail: an engine player that reads another
    # side's hidden point costs (not its view) offers a different default when they change
    from dataclasses import replace as dc_replace

    from warbench.play.conformance import ConformanceError

    honest = WarsurgeRuleset.pending

    def peeking(self: WarsurgeRuleset, state: WarsurgeState) -> tuple[Any, ...]:
        out = honest(self, state)
        g = state.game
        hidden = sum(i.points for i in g.setup.units if i.side != (out[0].player if out else 0))
        if out and out[0].default is not None and int(hidden) % 2:
            return (dc_replace(out[0], default=Pass()),)
        return out

    monkeypatch.setattr(WarsurgeRuleset, "pending", peeking)
    setup = skirmish(hide_roster_value=True, hide_reserves=True)
    with pytest.raises(ConformanceError, match=r"default .* changes with information hidden"):
        check_conformance(ws, setup, seeds=[0], perturb=perturb, max_steps=40)


def test_perturbed_hidden_information_shows_without_the_hiding_options(
    ws: WarsurgeRuleset,
) -> None:
    # the view check can fail: without the options, another side's points and reserves show
    from warbench.play.conformance import ConformanceError

    with pytest.raises(ConformanceError, match="view changes"):
        check_conformance(ws, skirmish(), seeds=[0], perturb=perturb, max_steps=3)


def test_committed_schemas_are_current_and_a_game_validates(ws: WarsurgeRuleset) -> None:
    import json

    import jsonschema

    from warbench.play.schemas import dumps_schema, ruleset_schemas

    schemas = ruleset_schemas(ws)
    for name, schema in schemas.items():
        committed = (ROOT / "docs" / "schemas" / "warsurge" / name).read_text(encoding="utf-8")
        assert committed == dumps_schema(schema), f"{name} is stale"
        jsonschema.Draft202012Validator.check_schema(json.loads(committed))
    action = jsonschema.Draft202012Validator(schemas["warsurge-action.schema.json"])
    state_v = jsonschema.Draft202012Validator(schemas["warsurge-state.schema.json"])
    view_v = jsonschema.Draft202012Validator(schemas["warsurge-view.schema.json"])
    seen: list[WarsurgeState] = []
    run = run_game(
        ws,
        skirmish(hide_roster_value=True),
        [RandomLegalPlayer(8), RandomLegalPlayer(9)],
        8,
        max_steps=40,
        on_step=lambda s, _e: seen.append(s),
    )
    for step in run.record.steps:
        action.validate(step.action)
    for s in seen[::5]:
        state_v.validate(ws.states.dump(s))
        view_v.validate(ws.views.dump(ws.view(s, 0)))
    # a misspelled action is not a WARSURGE action
    assert not action.is_valid({"kind": "move", "unit": 1, "too": [1, 2]})
