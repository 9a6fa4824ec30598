"""The spectator's public view: only what every player's view agrees on (issue 14)."""

from __future__ import annotations

from warbench.web.play.service import action_label, public_view


def test_public_view_keeps_what_all_views_agree_on() -> None:
    red = {"player": 0, "hp": [3, None], "shields": [1, None], "round": 2, "points": 120}
    blue = {"player": 1, "hp": [None, 3], "shields": [None, 2], "round": 2}
    assert public_view([red, blue]) == {
        "player": None,
        "hp": [None, None],
        "shields": [None, None],
        "round": 2,
    }


def test_public_view_matches_units_by_uid_when_a_view_hides_some() -> None:
    """WARSURGE's hide_reserves: another side's units in Reserve are left out of a view."""
    a = {"units": [{"uid": 0, "hp": [1]}, {"uid": 1, "hp": [2], "points": 50}]}
    b = {"units": [{"uid": 1, "hp": [2]}, {"uid": 2, "hp": [4]}, {"uid": 0, "hp": [1]}]}
    assert public_view([a, b]) == {"units": [{"uid": 0, "hp": [1]}, {"uid": 1, "hp": [2]}]}


def test_action_labels_are_short() -> None:
    assert action_label({"kind": "move", "unit": 3, "to": [1.23456, 2.0]}) == (
        "move: unit 3, to [1.23, 2.0]"
    )
    assert action_label({"kind": "pass"}) == "pass"
