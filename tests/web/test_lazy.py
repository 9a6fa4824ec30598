"""Route modules included on first use (web/lazy.py; issue 13, cold start): a request under a
part's paths gets the real routes at once, errors keep their handlers, the schema is whole."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from warbench.web.app import create_app


def _loaded(client: TestClient) -> dict[str, bool]:
    return {p.name: p.loaded for p in client.app.state.lazy_parts}  # type: ignore[attr-defined]


def test_the_design_page_s_routes_load_no_lazy_part(client: TestClient) -> None:
    assert client.get("/design").status_code == 200
    assert client.get("/api/armoury").json() == []
    assert not any(_loaded(client).values())


def test_the_first_request_of_a_part_is_answered_by_its_real_route(client: TestClient) -> None:
    r = client.post("/api/rosters", json={"name": "Patrol", "point_limit": 400})
    assert r.status_code == 201, r.text
    assert _loaded(client) == {
        "rosters": True,
        "rules": False,
        "warengine": False,
        "collision": False,
        "play": False,
    }
    assert client.get("/api/rosters").json()[0]["name"] == "Patrol"  # the real route, again
    assert client.get("/api/rules/sections/3.1").json()["title"] == "Point Limit"
    assert client.get("/api/nothing-here").status_code == 404


def test_a_part_s_own_error_handlers_answer_its_first_request(tmp_path: Path) -> None:
    """The play part adds its 404 handler; the very first play request is already answered
    by it (not a 500)."""
    with TestClient(create_app(f"sqlite:///{tmp_path / 'lazy.db'}")) as client:
        r = client.get("/api/play/games/nope")
        assert r.status_code == 404, r.text
        assert r.json()["error"] == "NotFound" and r.json()["field"] == "game_id"
        again = client.get("/api/play/games/nope")
        assert again.status_code == 404 and again.json()["error"] == "NotFound"


def test_the_openapi_schema_lists_every_part(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'lazy.db'}")) as client:
        paths = client.get("/openapi.json").json()["paths"]
        for path in ("/api/units/cost", "/api/rosters/{name}", "/api/rules/sections",
                     "/api/warengine/forces/{name}", "/api/collision/groups/{name}",
                     "/api/play/games"):  # fmt: skip
            assert path in paths, path
        assert all(_loaded(client).values())
        assert client.get("/play").status_code == 200


def test_the_database_opens_when_first_needed_not_for_the_first_cost(tmp_path: Path) -> None:
    """``warbench serve``'s app (``open_database=False``): the Design page's first cost does
    not open the database; the Armoury's list does, and the first cost lets the background
    opener go (``first_cost``)."""
    draft = {
        "unit": {"name": "New Unit", "move": 6, "dash": 6, "defence": 3, "hp": 1},
        "weapons": [{"name": "Weapon 1", "range": 0, "attacks": 1, "power": 3}],
        "models": [{"count": 5, "weapons": ["Weapon 1"]}],
    }
    app = create_app(f"sqlite:///{tmp_path / 'later.db'}", open_database=False)
    state = app.state
    with TestClient(app) as client:
        assert client.get("/design").status_code == 200
        assert client.post("/api/units/cost", json=draft).status_code == 200
        assert state.opened is None and state.first_cost.is_set()
        assert client.get("/api/armoury").json() == []
        assert state.opened is not None
    assert (tmp_path / "later.db").exists()
