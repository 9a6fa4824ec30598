"""Previews (issue 10, session 31): ``play.preview`` asks a ruleset where a legal action would
put the pieces it places, and WARSURGE answers with the engine's own plan (``game/preview.py``,
``engine.planned``): a Move or Dash toward a point, routed round terrain and units (Core Rules
001_d3f5e425c5e1196d.txt §4.1 L1833-1851, §4.7 L2147-2156), previewed exactly where ``apply``
puts the models. ``PromptPlayer(confirm=True)`` shows a typed action's preview and makes it
only once confirmed."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from warbench.play import (
    Budget,
    Decision,
    Placement,
    Preview,
    PromptPlayer,
    preview,
)
from warbench.play.toy import SAMPLE_SETUP, DiceDuel
from warbench.rulesets.warsurge.game.actions import Attack, Move
from warbench.rulesets.warsurge.game.io import load_game_roster, roster_to_data
from warbench.rulesets.warsurge.game.protocol import WarsurgeRuleset, WarsurgeState
from warbench.rulesets.warsurge.game.state import Phase

ROSTERS = Path(__file__).parents[2] / "examples" / "warsurge" / "rosters"
WS = WarsurgeRuleset()


def _states(seed: int = 1) -> Iterator[tuple[WarsurgeState, int]]:
    """The skirmish pair's game, every default taken: each state and its deciding player."""
    rosters = [roster_to_data(load_game_roster(ROSTERS / f"skirmish_{x}.yaml")) for x in "ab"]
    st = WS.setup(rosters, None, {}, seed)
    while not WS.is_over(st):
        d = WS.pending(st)[0]
        yield st, d.player
        st, _ = WS.apply(st, d.default, d.player)


def _at(phase: Phase) -> tuple[WarsurgeState, int]:
    return next((s, p) for s, p in _states() if s.game.flow.phase is phase)


def _rigid(pv: Preview) -> bool:
    """Whether every model moved by one and the same vector (a straight slide of the unit)."""
    vecs = [(p.end[0] - p.start[0], p.end[1] - p.start[1]) for p in pv.placements if p.start]
    return all(math.dist(v, vecs[0]) < 1e-9 for v in vecs)


@pytest.mark.parametrize(
    ("phase", "uid", "to"),
    [(Phase.MOVE, 4, (2.0, 24.0)), (Phase.DASH, 3, (24.0, 24.0))],
    ids=["move", "dash"],
)
def test_a_routed_move_or_dash_is_previewed_where_apply_puts_it_L1833(
    phase: Phase, uid: int, to: tuple[float, float]
) -> None:
    st, player = _at(phase)
    action = Move(uid, to=to, dash=phase is Phase.DASH)
    assert WS.check(st, action, player) is None
    pv = preview(WS, st, action, player)
    assert pv is not None
    u = st.game.units[uid]
    assert [p.model for p in pv.placements] == list(u.present())
    assert [p.start for p in pv.placements] == [u.pos[i] for i in u.present()]
    # the engine's placement goes round (model by model here): no straight slide of the unit
    # would have shown it
    assert not _rigid(pv)
    after, _ = WS.apply(st, action, player)
    moved = after.game.units[uid].pos
    assert [p.end for p in pv.placements] == [moved[p.model] for p in pv.placements]
    # nothing was applied by previewing: the state's digest is unchanged
    assert WS.digest(st) == WS.digest(_at(phase)[0])


def test_no_preview_for_a_refused_action_an_attack_or_a_ruleset_without_one() -> None:
    st, player = _at(Phase.MOVE)
    assert preview(WS, st, Move(4, to=(2.0, 24.0)), 1 - player) is None  # not their decision
    assert preview(WS, st, Move(0, to=(2.0, 24.0)), player) is None  # another side's unit
    assert WS.preview(st, Attack(4, (("x", 0),)), player) is None
    duel = DiceDuel()
    state = duel.setup(SAMPLE_SETUP["rosters"], None, {}, 1)
    first = duel.pending(state)[0]  # chance: who has the initiative
    state, _ = duel.apply(state, first.outcomes[0][0], first.player)
    d = duel.pending(state)[0]
    a = next(iter(duel.legal_actions(state, d.player)))
    assert duel.check(state, a, d.player) is None  # legal, but the toy previews nothing
    assert preview(duel, state, a, d.player) is None


class _Legal:
    """Legal actions of a line game that previews its moves (no words of its own)."""

    def __init__(self) -> None:
        self.previews = 0

    @property
    def player(self) -> int:
        return 0

    @property
    def finite(self) -> bool:
        return False

    def __contains__(self, action: object) -> bool:
        return isinstance(action, tuple) and abs(action[0]) <= 6

    def __iter__(self) -> Iterator[Any]:
        return iter([(1.0, 0.0)])

    def preview(self, action: tuple[float, float]) -> Preview:
        self.previews += 1
        return Preview((Placement(0, 0, (0.0, 0.0), action),))


class _PointCodec:
    """A point on the line as JSON ``[x, y]``."""

    def dump(self, value: Any) -> Any:
        return list(value)

    def load(self, data: Any) -> Any:
        return (float(data[0]), float(data[1]))

    def schema(self) -> dict[str, Any]:
        return {"type": "array"}


@pytest.mark.parametrize(
    ("confirm", "answers", "made", "asked"),
    [
        (True, ["[5, 0]", "n", "[3, 0]", ""], (3.0, 0.0), 2),
        (True, ["[5, 0]", "y"], (5.0, 0.0), 1),
        (False, ["[5, 0]"], (5.0, 0.0), 0),
    ],
)
def test_prompt_player_confirms_a_previewed_typed_action(
    confirm: bool, answers: list[str], made: tuple[float, float], asked: int
) -> None:
    lines: list[str] = []
    prompts: list[str] = []
    feed = iter(answers)

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return next(feed)

    person: PromptPlayer[Any] = PromptPlayer(
        _PointCodec(), read=read, write=lines.append, confirm=confirm
    )
    legal = _Legal()
    decision: Decision[Any] = Decision(0, "move", "line §1", "move along the line")
    assert person.choose(None, legal, decision, Budget()) == made  # type: ignore[arg-type]
    assert prompts.count("make it? [Y/n] ") == asked
    assert legal.previews == asked
    if asked:  # each piece's start and end, without the ruleset's own words
        assert "  piece 0.0: (0.00, 0.00) -> (5.00, 0.00)" in lines
    if asked == 2:
        assert "not made: your choice again" in lines


# -- what the plan does not hold: a roll after the Move or the Deploy (session 31 review) ------


def _charger(perks: list[str]) -> Any:
    """Raiders (``perks``) at (10, 10) in the Move Phase of Game Turn 2, the Foe 6" ahead."""
    from tests.warsurge.game.helpers import entry, scenario, unit

    me, them = entry(unit("Raiders", perks=perks)), entry(unit("Foe", hp=5))
    return scenario(
        [[me], [them]], {0: [(10.0, 10.0)], 1: [(10.0, 16.0)]}, phase=Phase.MOVE, turn=2
    )


@pytest.mark.parametrize("rank", ["Charge I", "Charge II"])
def test_a_charge_perk_s_roll_after_the_move_is_said_not_hidden_L2086(rank: str) -> None:
    """Charge I-II (Perks L2086-L2096) move the unit on after its Move by a roll the plan does
    not hold: the preview shows where the Move ends and says so in its note."""
    from warbench.kernel.dice import ScriptedDice
    from warbench.rulesets.warsurge.game import engine
    from warbench.rulesets.warsurge.game import preview as game_preview

    move = Move(0, to=(10.0, 11.0))
    pv = game_preview.preview(_charger([rank]), move)
    assert pv is not None and [p.end for p in pv.placements] == [(10.0, 11.0)]
    assert pv.note is not None and rank in pv.note and "roll" in pv.note
    assert pv.to_json()["note"] == pv.note
    assert any(
        line == f"  note: {pv.note}"
        for line in game_preview.preview_lines(_charger([rank]), pv, board=False)
    )
    # why: a high roll puts the unit elsewhere than the Move's end the preview drew
    faces = [6, 6] if rank == "Charge II" else [6]  # 2D6 for Charge II, a D6 for Charge I
    after, _ = engine.apply(_charger([rank]), move, dice=ScriptedDice(faces))
    assert after.units[0].pos[0] != (10.0, 11.0)
    # a charge into Base Contact ends in a Melee, where the rank rolls nothing: no note
    charge = game_preview.preview(_charger([rank]), Move(0, engage=1))
    assert charge is not None and charge.note is None
    # without the rank: no note, and the unit ends where the preview drew it
    plain = game_preview.preview(_charger([]), move)
    assert plain is not None and plain.note is None and "note" not in plain.to_json()
    after, _ = engine.apply(_charger([]), move, dice=ScriptedDice([]))
    assert after.units[0].pos[0] == plain.placements[0].end


def test_an_ambush_deploy_says_it_may_scatter_L1814() -> None:
    """Ambush I (Perks L1814): deployed outside its zone, a Mastery Test and a scatter follow;
    the preview of the Deploy says so (the same Deploy's places in its placements)."""
    from tests.warsurge.game.helpers import entry, scenario, unit
    from warbench.rulesets.warsurge.game import preview as game_preview
    from warbench.rulesets.warsurge.game.actions import Deploy

    def state(perks: list[str]) -> Any:
        scouts, foe = entry(unit("Scouts", models=2, perks=perks)), entry(unit("Foe"))
        return scenario([[scouts], [foe]], {1: [(24.0, 44.0)]}, phase=Phase.DEPLOY, turn=2)

    spots = ((24.0, 24.0), (25.5, 24.0))
    pv = game_preview.preview(state(["Ambush I"]), Deploy(0, positions=spots))
    assert pv is not None and [p.end for p in pv.placements] == list(spots)
    assert pv.note is not None and "Ambush I" in pv.note and "L1814" in pv.note
    home = ((24.0, 6.0), (25.5, 6.0))  # in its own Deployment Zone, without the perk
    plain = game_preview.preview(state([]), Deploy(0, positions=home))
    assert plain is not None and plain.note is None
