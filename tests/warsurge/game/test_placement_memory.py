"""Automated placement (001 §3.6) with the battlefield's memory of placement questions is the
very search made without it (issue 10 speed, ``game/place_memo.py``).

A candidate formation refused on other units' bases is refused again on any later table where
one of those bases (the same model, at the same place) still stands, without being measured;
a 4000-point army leaves units in Reserve that try every Deployment spot at every Deployment
Phase, on tables that changed only in part.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import numpy.typing as npt

from warbench.rulesets.warsurge.battlefield import sample_board
from warbench.rulesets.warsurge.game import engine, place_memo
from warbench.rulesets.warsurge.game.actions import Deploy
from warbench.rulesets.warsurge.game.geom import Field
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.io import load_game_roster
from warbench.rulesets.warsurge.game.players import ScriptedPlayer
from warbench.rulesets.warsurge.game.state import Phase, PlayerSetup, build_setup
from warbench.rulesets.warsurge.game.work import Work

from .helpers import ROSTERS

IntArray = npt.NDArray[np.int64]


def _fourfold(p: PlayerSetup) -> PlayerSetup:
    return replace(p, roster=p.roster * 4)  # a 4000-point army: units wait in Reserve


def test_s3_6_placement_with_remembered_refusals_is_the_search_without_them() -> None:
    players = [
        _fourfold(load_game_roster(ROSTERS / n)) for n in ("sci_fi_humans.yaml", "scavengers.yaml")
    ]
    field = Field(sample_board("ruins_48x48"))
    setup = build_setup(players, field)
    state, _ = engine.new_game(setup, 0)
    chooser = [ScriptedPlayer(), ScriptedPlayer()]
    reused = [0]
    still = place_memo.still_refused

    def counted(
        q: place_memo.PlaceQuestion, rows: IntArray, table: place_memo.Standing
    ) -> npt.NDArray[np.bool_]:
        out = still(q, rows, table)
        reused[0] += int(out.sum())
        return out

    place_memo.still_refused = counted
    compared = refused = 0
    try:
        while state.flow.turn <= 3:
            side = engine.acting_side(state)
            assert side is not None
            if state.flow.phase is Phase.DEPLOY and state.flow.turn >= 2:
                w = Work(state, None, DEFAULT_HOOKS)
                for uid in engine.legal_actions(state).units()[:3]:
                    for spot in engine.zone_points(w, w.zones[side] or 0)[:8]:
                        action = Deploy(uid, at=spot)
                        here = engine.can(state, action)
                        kept = field._place_questions  # type: ignore[attr-defined]
                        field._place_questions = {}  # type: ignore[attr-defined]
                        fresh = replace(state)  # no index: the search from scratch
                        assert here == engine.can(fresh, action)
                        if here:
                            assert engine.with_positions(state, action) == engine.with_positions(
                                fresh, action
                            )
                        field._place_questions = kept  # type: ignore[attr-defined]
                        compared += 1
                        refused += not here
            state, _ = engine.apply(state, chooser[side].choose(state))
    finally:
        place_memo.still_refused = still
    assert compared > 50 and refused > 20
    assert reused[0] > 100  # candidates refused by a base still standing, not measured
