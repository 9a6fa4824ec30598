"""A Move of a unit locked in a Melee that only leaves the Melee is refused with §4.4's reason,
not §4.7's "finds no clear path" (Core Rules 001_d3f5e425c5e1196d.txt §4.4 L2004-2012: a unit
in a Melee keeps Base Contact with the units it is locked with). Found in the session 32 review
of the Move preview: a person asking why the Move was refused was told the wrong rule."""

from __future__ import annotations

from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.battlefield import sample_board
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Move
from warbench.rulesets.warsurge.game.geom import Field
from warbench.rulesets.warsurge.game.io import load_game_roster
from warbench.rulesets.warsurge.game.players import ScriptedPlayer, play
from warbench.rulesets.warsurge.game.state import GameState, Phase, build_setup

from .helpers import ROSTERS


def _melee_moves(seed: int) -> list[tuple[GameState, int]]:
    """States of a scripted game in a Move Phase with the unit of a Melee whose turn it is."""
    players = [load_game_roster(ROSTERS / n) for n in ("sci_fi_humans.yaml", "scavengers.yaml")]
    setup = build_setup(players, Field(sample_board("ruins_48x48")))
    state, events = engine.new_game(setup, seed)
    run = play(state, [ScriptedPlayer(), ScriptedPlayer()], events=events)
    out, st = [], state
    for action in run.actions:
        if st.flow.phase is Phase.MOVE:
            out += [(st, uid) for pair in st.engaged for uid in pair]
        st = engine.apply(st, action)[0]
    return out


def _refusal(state: GameState, uid: int) -> RulesError | None:
    x, y = state.units[uid].pos[0]
    away = (1.0 if x > 24 else 47.0, 1.0 if y > 24 else 47.0)  # a corner away from the fight
    try:
        engine.check(state, Move(uid, to=away))
    except RulesError as refused:
        return refused
    return None


def test_L2004_a_move_out_of_a_melee_is_refused_for_the_lock() -> None:
    refusals = [r for s, uid in _melee_moves(0) if (r := _refusal(s, uid)) is not None]
    locked = [r for r in refusals if r.rule == "§4.4"]
    assert locked, [str(r) for r in refusals]
    assert all("locked in a Melee and must keep Base Contact" in str(r) for r in locked)
    # the Warlord's Move away from the Ursus APC (seed 0): its straight way is clear, it only
    # leaves the Melee
    assert any("Scavenger Warlord is locked in a Melee" in str(r) for r in locked)
