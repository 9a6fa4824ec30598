"""Automated placement (001 §3.6) resumed from the table index a state grew from is the very
search made from scratch (issue 10 speed).

While units only arrive on the battlefield (deployment, disembarking) every base of the earlier
index stays where it was, so a placement candidate refused there is refused again, and
``coherency.place_unit`` resumes at the candidate the earlier search stopped at. A fresh copy
of the state has no index to grow from: it searches every candidate.
"""

from __future__ import annotations

from dataclasses import replace

from warbench.rulesets.warsurge.battlefield import sample_board
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Deploy
from warbench.rulesets.warsurge.game.geom import Field
from warbench.rulesets.warsurge.game.io import load_game_roster
from warbench.rulesets.warsurge.game.players import ScriptedPlayer
from warbench.rulesets.warsurge.game.state import Phase, PlayerSetup, build_setup
from warbench.rulesets.warsurge.game.work import TableIndex, Work

from .helpers import ROSTERS


def _doubled(p: PlayerSetup) -> PlayerSetup:
    return replace(p, roster=p.roster * 2)  # a 2000-point army: the zones fill up


def test_s3_6_placement_resumed_from_a_grown_index_is_the_search_from_scratch() -> None:
    players = [
        _doubled(load_game_roster(ROSTERS / n)) for n in ("sci_fi_humans.yaml", "scavengers.yaml")
    ]
    setup = build_setup(players, Field(sample_board("ruins_48x48")))
    state, _ = engine.new_game(setup, 0)
    chooser = [ScriptedPlayer(), ScriptedPlayer()]
    grown = compared = 0
    while state.flow.turn == 1 and state.flow.phase is not Phase.MOVE:
        side = engine.acting_side(state)
        assert side is not None
        if state.flow.phase is Phase.DEPLOY:
            w = Work(state, None, engine.DEFAULT_HOOKS)
            index: TableIndex = w.table()
            grown += index.parent is not None
            for uid in engine.legal_actions(state).units()[:3]:
                for spot in engine.zone_points(w, w.zones[side] or 0)[:6]:
                    action = Deploy(uid, at=spot)
                    fresh = replace(state)  # no index, no index to grow from
                    assert "index" not in fresh.cache and "index_parent" not in fresh.cache
                    here = engine.can(state, action)
                    assert here == engine.can(fresh, action)
                    if here:
                        assert engine.with_positions(state, action) == engine.with_positions(
                            fresh, action
                        )
                    compared += 1
        state, _ = engine.apply(state, chooser[side].choose(state))
    assert grown > 10 and compared > 100
