"""The protocol's ``apply`` no longer runs the scripted AI for the memory it keeps (issue 10,
speed): the memory is worked out when a later default asks for it, and it is the very memory
the eager computation gave (each step's ``default`` is the same action)."""

from __future__ import annotations

from pathlib import Path

import pytest

from warbench.rulesets.warsurge.game import engine, players
from warbench.rulesets.warsurge.game.codecs import NO_MEMORY, LaterMemory, Memory, WarsurgeState
from warbench.rulesets.warsurge.game.io import load_game_roster, roster_to_data
from warbench.rulesets.warsurge.game.protocol import WarsurgeRuleset, scripted_choice
from warbench.rulesets.warsurge.game.state import Phase

ROSTERS = Path(__file__).parents[3] / "examples" / "warsurge" / "rosters"


def _start(ws: WarsurgeRuleset, seed: int) -> WarsurgeState:
    rosters = [
        roster_to_data(load_game_roster(ROSTERS / f))
        for f in ("skirmish_a.yaml", "skirmish_b.yaml")
    ]
    return ws.setup(rosters, None, {}, seed)


def _eager(state: WarsurgeState, before: Memory) -> Memory:
    """The memory after the acting side's default, computed at once (the former ``apply``)."""
    g = state.game
    if (
        g.pause is not None
        or g.restore is not None
        or g.flow.phase
        in (
            Phase.TURN_MASTER,
            Phase.ZONES,
        )
    ):
        return before
    side = engine.acting_side(g)
    assert side is not None
    sides = len(g.setup.sides)
    full = list(before) + [NO_MEMORY] * (sides - len(before))
    full[side] = scripted_choice(state)[1]
    return tuple(full)


@pytest.mark.parametrize("seed", [0, 3])
def test_lazy_memory_equals_the_eager_memory_step_by_step(seed: int) -> None:
    ws = WarsurgeRuleset()
    state = _start(ws, seed)
    expected: Memory = state.scripted
    steps = 0
    while not ws.is_over(state) and steps < 400:
        d = ws.pending(state)[0]
        assert d.default is not None
        expected = _eager(state, expected)
        state, _ = ws.apply(state, d.default, d.player)
        assert state.scripted == expected
        assert state.memory == expected and hash(state.memory) == hash(expected)
        steps += 1
    assert ws.is_over(state)


def test_apply_alone_runs_no_scripted_choice_and_a_later_default_is_unchanged(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ws = WarsurgeRuleset()
    state = _start(ws, 1)
    # a game's first steps (fewer than LaterMemory.DEPTH), defaults asked (the reference), then
    # the same actions again without asking: applying them must not call the scripted AI
    actions = []
    ref = state
    for _ in range(LaterMemory.DEPTH - 2):
        d = ws.pending(ref)[0]
        assert d.default is not None
        actions.append((d.default, d.player))
        ref, _ = ws.apply(ref, d.default, d.player)
    calls = 0
    choose = players.ScriptedPlayer.choose

    def counting(self: players.ScriptedPlayer, s: object) -> object:
        nonlocal calls
        calls += 1
        return choose(self, s)  # type: ignore[arg-type]

    monkeypatch.setattr(players.ScriptedPlayer, "choose", counting)
    lazy = _start(ws, 1)
    for a, p in actions:
        lazy, _ = ws.apply(lazy, a, p)
    assert calls == 0
    assert isinstance(lazy.memory, LaterMemory)
    assert ws.pending(lazy)[0].default == ws.pending(ref)[0].default
    assert lazy.scripted == ref.scripted
    assert 0 < calls <= LaterMemory.DEPTH


def test_memory_keeps_the_units_that_saw_no_target_and_its_json_round_trips() -> None:
    """``warbench battle``'s scripted player remembers the units that found no target in the
    last Attack Phase (it moves them, rather than holding their ground); the protocol's memory
    keeps them too, or the defaults would hold ground where the battle moves (seed 1's Game
    Turn 2, issue 10 session 30). A state written before it (three fields) reads as none."""
    ws = WarsurgeRuleset()
    state = _start(ws, 1)
    blind_seen = False
    for _ in range(60):
        d = ws.pending(state)[0]
        assert d.default is not None
        state, _ = ws.apply(state, d.default, d.player)
        mem = state.scripted
        if any(mine[3] for mine in mem):
            blind_seen = True
            back = ws.states.load(ws.states.dump(state))
            assert back.scripted == mem
            assert ws.pending(back)[0].default == ws.pending(state)[0].default
            data = ws.states.dump(state)
            assert isinstance(data, dict)
            old = {**data, "scripted": [m[:3] for m in data["scripted"]]}  # type: ignore[index, union-attr]
            assert all(m[3] == () for m in ws.states.load(old).scripted)
            # the state schema (docs/schemas/warsurge) describes both, and no other shape
            import jsonschema

            from warbench.play.schemas import ruleset_schemas

            schema = ruleset_schemas(ws)["warsurge-state.schema.json"]
            check = jsonschema.Draft202012Validator(schema)
            check.validate(data)
            check.validate(old)
            side = next(i for i, m in enumerate(data["scripted"]) if m[3])  # type: ignore[index, union-attr, arg-type]
            bent = [list(m) for m in data["scripted"]]  # type: ignore[index, union-attr]
            bent[side][3] = [[u] for u, _n in bent[side][3]]  # a unit without its Game Turn
            assert not check.is_valid({**data, "scripted": bent})
            break
    assert blind_seen
