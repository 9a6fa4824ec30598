"""The game's words at the terminal, from session 34's walk (issue 10, s34-ui): the status under
the board says where a unit is in words ("on the table", not "table") and its points without a
stray ".0" ("120 pts", "Red 300"); a listed Move toward a point is "move toward", since the unit
goes at most its Move toward it (Core Rules 001_d3f5e425c5e1196d.txt §4.1 L1841), and a listed
point may lie farther than that."""

from __future__ import annotations

from warbench.rulesets.warsurge.game.protocol import WarsurgeRuleset
from warbench.rulesets.warsurge.game.render import render_state_text
from warbench.rulesets.warsurge.game.words import describe
from warbench.web.play.scenes import presenter

WS = WarsurgeRuleset()


def test_the_status_says_on_the_table_and_whole_points_without_a_decimal() -> None:
    setup = presenter("warsurge").presets()[0]["setup"]
    st = WS.setup(setup["rosters"], setup["board"], setup["options"], 1)
    for _ in range(12):  # the deployments made
        d = WS.pending(st)[0]
        st, _ = WS.apply(st, d.default, d.player)
    text = render_state_text(st.game)
    assert "[0] Red: Troopers: on the table, 10/10 models, 10/10 HP, 120 pts" in text
    assert "Value on the battlefield: Red 300, Blue 300" in text
    assert ".0 pts" not in text


def test_a_listed_move_to_a_point_says_toward_S4_1() -> None:
    view = {"units": [{"uid": 0, "label": "Red: Troopers"}]}
    move = {"kind": "move", "unit": 0, "to": [24.6, 13.6]}
    assert describe(view, move) == 'Red: Troopers: move toward (24.6", 13.6")'
    assert describe(view, {**move, "dash": True}) == 'Red: Troopers: Dash toward (24.6", 13.6")'
