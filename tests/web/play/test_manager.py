"""The Play Manager (issue 14): a WARSURGE game on a physical table, tracked in the browser."""

from __future__ import annotations

from typing import Any

import pytest

from warbench.kernel.errors import ProfileError
from warbench.web.play.manager import apply_op, new_table, standings, unit_value


def _unit(points: float, hp_per_model: int, hp: list[int], loc: str = "table") -> dict[str, Any]:
    return {
        "points": points,
        "hp_per_model": hp_per_model,
        "hp": hp,
        "removed": [False] * len(hp),
        "loc": loc,
    }


def test_s2_2_step8_current_point_value_worked_example() -> None:
    """001_d3f5e425c5e1196d.txt §2.2 step 8 (L1140-1146): a Unit valued at 100pts with 4 HP
    reduced to 1 HP is worth 25pts."""
    assert unit_value(_unit(100, 4, [1])) == 25.0
    assert unit_value(_unit(100, 1, [1, 0, 0, 0])) == 25.0
    # not on the Battlefield: in Reserve or destroyed, it counts nothing
    assert unit_value(_unit(100, 4, [4], loc="reserve")) == 0.0
    assert unit_value(_unit(100, 4, [4], loc="destroyed")) == 0.0


def _table() -> dict[str, Any]:
    a = {
        "player": "Red",
        "units": [_roster_unit("Troopers", 3, 1, 90), _roster_unit("Tank", 1, 6, 60)],
    }
    b = {"player": "Blue", "units": [_roster_unit("Raiders", 4, 2, 120)]}
    return new_table([a, b])


def _roster_unit(name: str, models: int, hp: int, points: int) -> dict[str, Any]:
    return {
        "unit": {"name": name, "move": 6, "dash": 6, "defence": 3, "hp": hp},
        "weapons": [],
        "models": [{"count": models, "weapons": []}],
        "points": points,
    }


def test_s2_2_step8_winner_is_the_most_value_on_the_battlefield() -> None:
    t = _table()
    assert standings(t)["winner"] is None  # everything in Reserve: 0 against 0, a draw
    for uid in (0, 1, 2):
        t = apply_op(t, {"op": "move_to", "unit": uid, "loc": "table"})
    assert standings(t)["values"] == [150.0, 120.0] and standings(t)["winner"] == "Red"
    t = apply_op(t, {"op": "hp", "unit": 1, "model": 0, "hp": 2})  # Tank 60 pts at 2 of 6 HP
    assert standings(t)["values"] == [110.0, 120.0] and standings(t)["winner"] == "Blue"
    t = apply_op(t, {"op": "remove", "unit": 2, "model": 0})  # a Raider removed: 90 left
    t = apply_op(t, {"op": "hp", "unit": 2, "model": 1, "hp": 1})  # 120 * 5/8 = 75
    assert standings(t)["values"] == [110.0, 75.0]


def test_markers_count_down_at_the_end_of_each_game_turn() -> None:
    t = _table()
    t = apply_op(t, {"op": "status", "unit": 0, "name": "Stunned", "turns": 1})
    t = apply_op(t, {"op": "status", "unit": 0, "name": "Shield I", "turns": None})
    t = apply_op(t, {"op": "status", "unit": 1, "name": "Slowed", "turns": 2})
    for _ in range(4):  # Deploy, Move, Attack, Dash -> Game Turn 2
        t = apply_op(t, {"op": "next_phase"})
    assert t["turn"] == 2 and t["phase"] == "Deploy"  # units still in Reserve
    assert [s["name"] for s in t["units"][0]["statuses"]] == ["Shield I"]
    assert t["units"][1]["statuses"] == [{"name": "Slowed", "turns": 1}]


def test_bad_operations_name_the_field_and_the_allowed_values() -> None:
    t = _table()
    with pytest.raises(ProfileError, match=r"op\.unit"):
        apply_op(t, {"op": "hp", "unit": 9, "model": 0, "hp": 1})
    with pytest.raises(ProfileError, match=r"op\.hp"):
        apply_op(t, {"op": "hp", "unit": 1, "model": 0, "hp": 7})
    with pytest.raises(ProfileError, match=r"op\.op"):
        apply_op(t, {"op": "explode"})
    with pytest.raises(ProfileError, match="two or more rosters"):
        new_table([{"player": "Solo", "units": [_roster_unit("A", 1, 1, 10)]}])


def test_a_table_through_the_api_with_undo_history_hidden_value_and_resume(
    db_url: str,
) -> None:
    from fastapi.testclient import TestClient

    from warbench.web.app import create_app

    with TestClient(create_app(db_url)) as c:
        assert "skirmish_a" in c.get("/api/play/tables/rosters").json()["example"]
        made = c.post(
            "/api/play/tables",
            json={
                "rosters": [
                    {"source": "example", "name": "skirmish_a"},
                    {"source": "example", "name": "skirmish_b"},
                ],
                "hide_value": True,
            },
        ).json()
        h = {"X-Play-Token": made["token"]}
        s = c.get(f"/api/play/tables/{made['id']}", headers=h).json()
        assert s["standings"]["hidden"] and s["table"]["units"][0]["points"] is None
        assert c.get(f"/api/play/tables/{made['id']}").status_code == 403
        s = c.post(
            f"/api/play/tables/{made['id']}/ops",
            json={"op": {"op": "move_to", "unit": 0, "loc": "table"}},
            headers=h,
        ).json()
        c.post(
            f"/api/play/tables/{made['id']}/ops",
            json={"op": {"op": "hide_value", "on": False}},
            headers=h,
        )
        c.post(
            f"/api/play/tables/{made['id']}/ops",
            json={"op": {"op": "hp", "unit": 0, "model": 0, "hp": 0}},
            headers=h,
        )
        s = c.post(f"/api/play/tables/{made['id']}/undo", headers=h).json()
        assert s["steps"] == 2 and s["standings"]["values"][0] == 120.0
        assert [x["undone"] for x in s["history"]] == [False, False, True]
        bad = c.post(
            f"/api/play/tables/{made['id']}/ops", json={"op": {"op": "hp", "unit": 0}}, headers=h
        )
        assert bad.status_code == 422 and bad.json()["field"] == "op.model"
        # a table is not a protocol game: its record is refused, not invented
        assert c.get(f"/api/play/games/{made['id']}/record", headers=h).status_code == 422
    with TestClient(create_app(db_url)) as c2:  # a restart: the table resumes
        s2 = c2.get(f"/api/play/tables/{made['id']}", headers=h).json()
        assert s2["steps"] == 2 and s2["standings"]["values"][0] == 120.0


def test_s3_3_teams_count_as_one_player_their_values_added(db_url: str) -> None:
    """001_d3f5e425c5e1196d.txt §3.3 (L1437-1460): "Each team counts as one player": three
    rosters, two of them one team; the team's value is its players' together (§2.2 step 8),
    and the winner is a team. A roster's team is set when the table is made (``team``)."""
    from fastapi.testclient import TestClient

    from warbench.web.app import create_app

    a = {"player": "Red", "units": [_roster_unit("Troopers", 3, 1, 90)]}
    b = {"player": "Blue", "units": [_roster_unit("Raiders", 4, 2, 120)]}
    c_ = {"player": "Green", "units": [_roster_unit("Tank", 1, 6, 60)]}
    with TestClient(create_app(db_url)) as c:
        made = c.post(
            "/api/play/tables",
            json={
                "rosters": [
                    {"source": "inline", "data": a, "team": "Allies"},
                    {"source": "inline", "data": b, "team": " Horde "},
                    {"source": "inline", "data": c_, "team": "Allies"},
                ]
            },
        )
        assert made.status_code == 201, made.text
        h = {"X-Play-Token": made.json()["token"]}
        ops = f"/api/play/tables/{made.json()['id']}/ops"
        for uid in (0, 1, 2):
            s = c.post(ops, json={"op": {"op": "move_to", "unit": uid, "loc": "table"}}, headers=h)
        st = s.json()["standings"]
        # Red 90 + Green 60 = 150 against Blue's 120: alone, Blue would lead each of them
        assert st["values"] == [90.0, 120.0, 60.0]
        assert st["teams"] == {"Allies": 150.0, "Horde": 120.0} and st["winner"] == "Allies"
        assert [x["team"] for x in s.json()["table"]["sides"]] == ["Allies", "Horde", "Allies"]
        too_long = c.post(
            "/api/play/tables",
            json={"rosters": [{"source": "inline", "data": a, "team": "x" * 41}] * 2},
        )
        assert too_long.status_code == 422 and "team" in too_long.json()["field"]


def test_a_model_removed_is_at_0_hp_in_one_operation_s5_11() -> None:
    """The page's tap on a model's last HP is one ``remove`` (one line of history, one undo;
    session 38: it was ``hp`` 0 then ``remove``, two lines): a model removed has no HP left,
    and restoring it gives its HP back (§5.11)."""
    from warbench.web.play.manager import describe

    t = apply_op(_table(), {"op": "move_to", "unit": 2, "loc": "table"})
    op = {"op": "remove", "unit": 2, "model": 1}
    t = apply_op(t, op)
    assert t["units"][2]["hp"][1] == 0 and t["units"][2]["removed"][1]
    assert describe(op, t) == "Raiders: model 2 removed"
    assert standings(t)["values"] == [0.0, 90.0]  # 120 x 6 of 8 HP
    t = apply_op(t, {"op": "restore", "unit": 2, "model": 1})
    assert t["units"][2]["hp"][1] == 2 and not t["units"][2]["removed"][1]
