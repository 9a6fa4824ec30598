"""The WARSURGE page shows what a person needs to see (session 26 review): the Gateway markers
(Perks 000_94ecc6a4c74d351b.txt L4314) on the board, each titled with its player and whether
the Gateway is active (L4316), and the Turn Master's choice (Core Rules §2.1) by the players'
names."""

from __future__ import annotations

from typing import Any

from warbench.web.play.scenes import WarsurgePresenter, presenter


def _view(markers: list[tuple[float, float]]) -> dict[str, Any]:
    st = [[f"Gateway@{x:g},{y:g}@{k + 1}", None, "Gateway"] for k, (x, y) in enumerate(markers)]
    return {
        "player": 0,
        "turn": 2,
        "sides": [{"name": "Red"}, {"name": "Blue"}],
        "units": [
            {"uid": 0, "side": 0, "label": "Troopers", "loc": "table", "pos": [[5, 5]],
             "hp": [1], "removed": [False], "models": 1, "radius": 0.6, "st": st},
            {"uid": 1, "side": 1, "label": "Dogs", "loc": "table", "pos": [[30, 30]],
             "hp": [1], "removed": [False], "models": 1, "radius": 0.6},
        ],
    }  # fmt: skip


def _setup() -> dict[str, Any]:
    return dict(presenter("warsurge").presets()[0]["setup"])


def test_p4314_gateway_markers_are_drawn_and_say_whether_the_gateway_is_active() -> None:
    one = WarsurgePresenter().scene(_setup(), _view([(24.0, 24.0)])) or {}
    (t,) = one["tokens"]
    assert (t["x"], t["y"], t["kind"], t["label"]) == (24.0, 24.0, "gateway", "G1")
    assert "Red's Gateway marker 1" in t["title"] and "inactive" in t["title"]
    two = WarsurgePresenter().scene(_setup(), _view([(24.0, 24.0), (22.5, 37.0)])) or {}
    assert [tk["label"] for tk in two["tokens"]] == ["G1", "G2"]
    assert all("active: enter at one marker" in tk["title"] for tk in two["tokens"])
    # a game without the perk: no tokens key at all
    assert "tokens" not in (WarsurgePresenter().scene(_setup(), _view([])) or {})


def test_s2_1_the_turn_master_choice_names_the_player() -> None:
    acts: list[Any] = [{"kind": "turn_master", "side": 0}, {"kind": "turn_master", "side": 1},
                       {"kind": "pass"}]  # fmt: skip
    words = WarsurgePresenter().labels(_setup(), _view([]), acts)
    assert words == ["Red is the Turn Master", "Blue is the Turn Master", "Pass (no action)"]


def test_sides_named_red_and_blue_are_drawn_red_and_blue() -> None:
    """The sample set-up names side 0 "Red" and side 1 "Blue"; the board drew side 0 in the
    page's first colour (blue) and side 1 in red, the other way round from their names."""
    scene = WarsurgePresenter().scene(_setup(), _view([])) or {}
    assert scene["side_colours"] == ["#c0392b", "#1f5fbf"]  # Red, Blue
    other = {**_view([]), "sides": [{"name": "Ann"}, {"name": "Bob"}]}
    assert "side_colours" not in (WarsurgePresenter().scene(_setup(), other) or {})
    same = {**_view([]), "sides": [{"name": "Red"}, {"name": "Red Team"}]}
    assert "side_colours" not in (WarsurgePresenter().scene(_setup(), same) or {})


def test_s9_3_actions_are_listed_in_words_units_by_name() -> None:
    """Units by their names, points in inches, the Counter Actions said in full (§9.3,
    001 L3825-L3850), a Deployment Zone by the board's name for it (§3.6, session 33); a zone
    the board does not have keeps the generic label."""
    view = {"units": [{"uid": 0, "label": "Red: Troopers"}, {"uid": 4, "label": "Blue: Dogs"}],
            "sides": [{"name": "Red"}, {"name": "Blue"}]}  # fmt: skip
    acts: list[Any] = [
        {"kind": "counter", "choice": "attack", "unit": 0},
        {"kind": "counter", "choice": "none", "unit": 0},
        {"kind": "attack", "targets": [["Rifle", 4]], "unit": 0},
        {"kind": "move", "to": [30.064961, 38.4], "unit": 0, "dash": True},
        {"kind": "guard", "unit": 4},
        {"kind": "zone", "zone": 1},
        {"kind": "zone", "zone": 7},
    ]
    words = WarsurgePresenter().labels(_setup(), view, acts)
    assert words == [
        "Red: Troopers: Counter Attack the attacking unit (costs as an Attack Action, §9.3)",
        "Red: Troopers: no Counter Action",
        "Red: Troopers: attack with Rifle at Blue: Dogs",
        'Red: Troopers: Dash toward (30.1", 38.4")',
        "Blue: Dogs: Guard",
        "Deployment Zone north edge",
        None,
    ]


def test_s4_3_units_locked_in_a_melee_are_marked_on_the_board() -> None:
    """Each model of a unit locked in a Melee (§4.3) is tagged ``melee`` (drawn ringed in red)
    and its title names the foe; a unit not in a Melee is not."""
    view = {**_view([]), "engaged": [[0, 1]]}
    pieces = (WarsurgePresenter().scene(_setup(), view) or {})["pieces"]
    assert [p.get("tags") for p in pieces] == [["melee"], ["melee"]]
    assert "in a Melee with Dogs" in pieces[0]["title"]
    assert "in a Melee with Troopers" in pieces[1]["title"]
    apart = (WarsurgePresenter().scene(_setup(), _view([])) or {})["pieces"]
    assert all("tags" not in p and "Melee" not in p["title"] for p in apart)
