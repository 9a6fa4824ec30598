"""The WARSURGE play page draws an oval or rectangular base or hull with its shape and facing
(Core Rules 001_d3f5e425c5e1196d.txt §1.3 L249-255; docs/rulings.md "WARSURGE bases in play:
session 26" 1-2): the view gives the unit's ``base`` and each model's ``facing``, the scene a
``shape`` and a ``facing`` vector per piece; a round base stays a disc."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import pytest

from warbench.rulesets.warsurge.battlefield import sample_board
from warbench.rulesets.warsurge.battlefield.io import board_to_data
from warbench.rulesets.warsurge.game.codecs import WarsurgeState
from warbench.rulesets.warsurge.game.io import load_game_roster, roster_to_data
from warbench.rulesets.warsurge.game.protocol import WarsurgeRuleset
from warbench.rulesets.warsurge.game.state import Location
from warbench.web.play.scenes import WarsurgePresenter

from ...warsurge.game.helpers import ROSTERS


def _state() -> tuple[WarsurgeRuleset, WarsurgeState, int, dict[str, Any]]:
    ws = WarsurgeRuleset()
    rosters = [
        roster_to_data(load_game_roster(ROSTERS / f))
        for f in ("armoured_column.yaml", "skirmish_b.yaml")
    ]
    board = board_to_data(sample_board("ruins_48x48"))
    s = ws.setup(rosters, board, {"max_turns": 6}, 3)
    g = s.game
    uid = next(u for u in range(len(g.units)) if g.setup.units[u].base is not None)
    n = len(g.units[uid].hp)
    units = list(g.units)
    units[uid] = replace(
        units[uid],
        location=Location.TABLE,
        pos=tuple((10.0 + 4.0 * k, 20.0) for k in range(n)),
        facing=tuple(30.0 for _ in range(n)),
    )
    units[-1] = replace(units[-1], location=Location.TABLE, pos=((40.0, 40.0),) * len(units[-1].hp))
    return (
        ws,
        WarsurgeState(s.args, replace(g, units=tuple(units))),
        uid,
        {"rosters": rosters, "board": board},
    )


def test_s1_3_the_view_gives_the_base_and_every_models_facing() -> None:
    ws, state, uid, _ = _state()
    view = ws.view(state, 0)
    (mine,) = [u for u in view["units"] if u["uid"] == uid]  # type: ignore[index,union-attr]
    base = state.game.setup.units[uid].base
    assert base is not None
    assert mine["base"]["shape"] == base.shape
    assert mine["base"]["length"] == pytest.approx(2 * base.half_extents[0])
    assert mine["facing"] == [30.0] * len(state.game.units[uid].hp)
    others = [u for u in view["units"] if state.game.setup.units[u["uid"]].base is None]  # type: ignore[index,union-attr]
    assert others and all("base" not in u for u in others)


def test_s1_3_the_scene_draws_the_shape_turned_to_its_facing() -> None:
    ws, state, uid, setup = _state()
    scene = WarsurgePresenter().scene(setup, ws.view(state, 0)) or {}
    shaped = [p for p in scene["pieces"] if p["unit"] == uid]
    assert len(shaped) == len(state.game.units[uid].hp)
    base = state.game.setup.units[uid].base
    assert base is not None
    for p in shaped:
        assert p["shape"]["kind"] == base.shape and p["shape"]["angle"] == 30.0
        assert p["shape"]["width"] == pytest.approx(2 * base.half_extents[1])
        assert p["facing"] == pytest.approx(
            [math.cos(math.radians(30)), math.sin(math.radians(30))]
        )
    round_ = [p for p in scene["pieces"] if p["unit"] != uid]
    assert round_ and all("shape" not in p and "facing" not in p for p in round_)
