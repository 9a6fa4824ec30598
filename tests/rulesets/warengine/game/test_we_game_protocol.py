"""The WarEngine game on the protocol: conformance, replay, the registry, automatic play.

``WARBENCH_CONFORMANCE_GAMES=N`` plays N seeded random-legal games through the conformance
suite (2 by default); the long run (1,000 games) is reported in docs/warengine-game.md.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from warbench.kernel.errors import ProfileError
from warbench.play import AutomaticPlayer, RandomLegalPlayer, SetupArgs, get_ruleset, run_game
from warbench.play.conformance import check_conformance
from warbench.play.record import GameRecord, replay
from warbench.rulesets.warengine.game import kit
from warbench.rulesets.warengine.game import setup as stp
from warbench.rulesets.warengine.game.measure import gap, on_table
from warbench.rulesets.warengine.game.state import GameState

from .helpers import sample_forces

GAMES = int(os.environ.get("WARBENCH_CONFORMANCE_GAMES", "2"))


def invariants(s: GameState) -> None:
    """What every state keeps: bases never overlap, figures stay on the board, Hero Points
    within 0 and the bought number, one decision source, scores consistent."""
    ctx = kit.context_of(s)  # the profiles as the state has them (a Shapechanger's form ...)
    live = [f for f in s.figs if on_table(f)]
    for i, f in enumerate(live):
        r = ctx.profiles[f.id].radius
        assert f.x - r >= -1e-6 and f.x + r <= ctx.field.width + 1e-6, f"#{f.id} off the board"
        assert f.y - r >= -1e-6 and f.y + r <= ctx.field.height + 1e-6, f"#{f.id} off the board"
        top = ctx.profiles[f.id].hero + (6 if "hero_cap" in f.bonus else 0)  # Invigorate
        assert 0 <= f.hero <= top, f"#{f.id} hero points {f.hero}"
        for g in live[i + 1 :]:
            assert gap(ctx, f, g) > -1e-3, f"bases of #{f.id} and #{g.id} overlap"
    for u in s.units:
        if u.gone:
            assert not any(on_table(s.figs[i]) for i in u.figs), f"{u.name} gone but on table"
    assert s.vp[0] >= 0 and s.vp[1] >= 0
    if s.phase == "conflict" and s.active_unit is not None:
        assert s.active_unit in s.active_units


def _setup() -> SetupArgs:
    a, b = sample_forces()
    return SetupArgs((a, b), "ruins_48x48", {"turns": 4})


def test_registered_as_warengine() -> None:
    ws = get_ruleset("warengine")
    assert ws.id == "warengine"


def test_conformance_random_legal_play() -> None:
    report = check_conformance(
        get_ruleset("warengine"), _setup(), seeds=range(GAMES), invariants=invariants
    )
    assert report.finished == GAMES
    assert {"roll", "place", "first", "activation", "action"} <= set(report.decisions)


def test_automatic_game_replays_identically(tmp_path: Any) -> None:
    ws = get_ruleset("warengine")
    auto = AutomaticPlayer(RandomLegalPlayer(0))
    run = run_game(ws, _setup(), [auto, auto], seed=11, automate={"*"})
    assert run.finished and run.result is not None
    path = tmp_path / "game.jsonl"
    run.record.save(path)
    rep = replay(GameRecord.load(path))
    assert rep.digests == [s.digest for s in run.record.steps]
    again = run_game(ws, _setup(), [auto, auto], seed=11, automate={"*"})
    assert again.record.dumps() == run.record.dumps()


def test_state_json_round_trip_rebuilds_its_setup() -> None:
    ws = get_ruleset("warengine")
    s = ws.setup(*_setup().to_json().values(), 3)  # type: ignore[call-arg]
    data = ws.states.dump(s)
    stp._CONTEXTS.clear()  # a fresh process: the set-up comes from the state itself
    back = ws.states.load(data)
    assert ws.digest(back) == ws.digest(s)


def test_bad_options_are_named() -> None:
    ws = get_ruleset("warengine")
    a, b = sample_forces()
    with pytest.raises(ProfileError, match="turns"):
        ws.setup((a, b), None, {"turns": 0}, 1)
    with pytest.raises(ProfileError, match="options"):
        ws.setup((a, b), None, {"colour": "red"}, 1)
    with pytest.raises(ProfileError, match="rosters"):
        ws.setup((a,), None, {}, 1)
