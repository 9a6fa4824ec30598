"""The JSON API (issue 13): each route answers from the rules code, and every bad request is a
4xx whose message names the field (never a 5xx)."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from fastapi.testclient import TestClient

from warbench.rulesets.warsurge.io import unit_from_data
from warbench.rulesets.warsurge.points import cost_unit

TROOPERS: dict[str, Any] = {
    "unit": {"name": "Troopers", "move": 6, "dash": 6, "defence": 3, "hp": 1, "armour": "4+"},
    "weapons": [{"name": "Laser Rifle", "range": 18, "type": "Battle", "attacks": 2, "power": 3}],
    "models": [{"count": 6, "weapons": ["Laser Rifle"]}],
}


def _with(unit: dict[str, Any], **stats: Any) -> dict[str, Any]:
    return {**TROOPERS, "unit": {**TROOPERS["unit"], **stats}}


# ------------------------------------------------------------------------------ units


def test_unit_cost_is_the_points_models_itemised_cost(client: TestClient) -> None:
    r = client.post("/api/units/cost", json=TROOPERS)
    assert r.status_code == 200
    body = r.json()
    expected = cost_unit(unit_from_data(TROOPERS)).to_dict()
    assert body["cost"] == expected
    assert body["cost"]["points_model"] == expected["points_model"]
    assert body["unit"]["unit"]["armour"] == "4+"


@pytest.mark.parametrize(
    ("stats", "field"),
    [
        ({"defence": 11}, "unit.unit.defence"),  # Core Rules §1.5: Defence 0-10
        ({"hp": 0}, "unit.unit.hp"),
        ({"armour": "7+"}, "unit.unit.armour"),
        ({"perks": ["Not A Perk"]}, "unit.unit.perks"),
    ],
)
def test_unit_cost_bad_stat_is_422_naming_the_field_s1_5(
    client: TestClient, stats: dict[str, Any], field: str
) -> None:
    r = client.post("/api/units/cost", json=_with(TROOPERS, **stats))
    assert r.status_code == 422
    assert r.json()["field"].startswith(field)
    assert field.split(".")[-1] in r.json()["detail"]


def test_unit_cost_bad_weapon_names_the_weapon_field_s1_6(client: TestClient) -> None:
    bad = {**TROOPERS, "weapons": [{**TROOPERS["weapons"][0], "power": 99}]}
    r = client.post("/api/units/cost", json=bad)
    assert r.status_code == 422
    assert r.json()["field"] == "unit.weapons[0].power"


def test_unit_cost_not_a_mapping_is_422(client: TestClient) -> None:
    r = client.post("/api/units/cost", json=[1, 2])
    assert r.status_code == 422
    assert r.json()["field"] == "body"


def test_save_unit_then_list_and_conflict(client: TestClient) -> None:
    r = client.post("/api/units", json={"faction": "Humans", "unit": TROOPERS})
    assert r.status_code == 201
    listed = client.get("/api/units").json()
    assert {"source": "saved", "name": "Troopers", "faction": "Humans"}.items() <= next(
        u for u in listed if u["source"] == "saved"
    ).items()
    again = client.post("/api/units", json={"faction": "Humans", "unit": TROOPERS})
    assert again.status_code == 409
    assert "Troopers" in again.json()["detail"]


def test_units_lists_the_s2_3_examples_from_an_empty_database(client: TestClient) -> None:
    names = [u["name"] for u in client.get("/api/units").json()]
    assert "Kataton Battle Servitors" in names and "Sisters Repentium" in names


# ------------------------------------------------------------------------------ perks


def test_perk_search_by_name_and_text(client: TestClient) -> None:
    found = client.get("/api/perks", params={"q": "destroy", "kind": "Weapon Perk"}).json()
    assert found[0]["name"].startswith("Destroy")
    assert all(p["kind"] == "Weapon Perk" for p in found)
    assert found[0]["activation"] and found[0]["price"] and found[0]["rule"]
    by_text = client.get("/api/perks", params={"q": "HP Loss"}).json()
    assert by_text and all(
        "hp loss" in f"{p['name']} {p['summary']} {' '.join(p['activation'])}".lower()
        for p in by_text
    )


def test_perk_by_players_spelling_and_unknown_is_404(client: TestClient) -> None:
    assert client.get("/api/perks/destroy 1").json()["name"] == "Destroy I"
    r = client.get("/api/perks/Destroyy")
    assert r.status_code == 404
    assert r.json()["field"] == "perk" and "Destroy" in r.json()["detail"]


def test_perk_search_bad_kind_is_422(client: TestClient) -> None:
    r = client.get("/api/perks", params={"kind": "Spell"})
    assert r.status_code == 422
    assert r.json()["field"] == "query.kind"


# ------------------------------------------------------------------------------ odds


def test_odds_s2_3_ranged_example_matches_the_odds_engine(client: TestClient) -> None:
    from warbench.rulesets.warsurge.attack import UnitState
    from warbench.rulesets.warsurge.odds import AttackPlan, exact_attack
    from warbench.web.api import example_units

    units = {u.name: u for u in example_units()}
    expected = exact_attack(
        AttackPlan(UnitState.of(units["Troopers"]), UnitState.of(units["Kataton Battle Servitors"]))
    )
    r = client.post(
        "/api/odds",
        json={
            "attacker": {"name": "Troopers"},
            "target": {"name": "Kataton Battle Servitors"},
        },
    )
    assert r.status_code == 200
    body = r.json()
    assert body["exact"] is True
    assert body["expected_hp_lost"] == pytest.approx(expected.expected_hp_lost)
    assert body["wipe_chance"] == pytest.approx(expected.wipe_chance)
    assert sum(body["hp_lost"].values()) == pytest.approx(1.0)


def test_odds_monte_carlo_check_is_seeded_and_agrees(client: TestClient) -> None:
    req = {
        "attacker": {"source": "inline", "data": TROOPERS},
        "target": {"name": "Kataton Battle Servitors"},
        "monte_carlo": 20_000,
        "seed": 7,
    }
    a = client.post("/api/odds", json=req).json()
    b = client.post("/api/odds", json=req).json()
    assert a["monte_carlo"] == b["monte_carlo"] and a["seed"] == 7
    mc = a["monte_carlo"]
    assert abs(mc["expected_hp_lost"] - a["expected_hp_lost"]) < 4 * mc["confidence_95"]


def test_odds_situation_changes_the_answer_s5_6_cover(client: TestClient) -> None:
    req: dict[str, Any] = {"attacker": {"name": "Troopers"}, "target": {"name": "Troopers x10"}}
    open_ground = client.post("/api/odds", json=req).json()["expected_hp_lost"]
    cover = client.post("/api/odds", json={**req, "cover": True}).json()["expected_hp_lost"]
    assert cover < open_ground


@pytest.mark.parametrize(
    ("change", "status", "field"),
    [
        ({"attacker": {"name": "Nobody"}}, 422, "example unit"),
        ({"attacker": {"source": "saved", "name": "Nobody"}}, 422, "unit"),
        ({"attacker": {"source": "inline"}}, 422, "attacker.data"),
        ({"attacker": {"source": "inline", "data": {"unit": {}}}}, 422, "attacker.data.unit"),
        ({"cover_bonus": 9}, 422, "body.cover_bonus"),
        ({"monte_carlo": -1}, 422, "body.monte_carlo"),
        ({"weapons": ["Plasma Cannon"]}, 422, "weapon"),
        ({"surprise": True}, 422, "body.surprise"),
    ],
)
def test_odds_bad_request_is_4xx_naming_the_field(
    client: TestClient, change: dict[str, Any], status: int, field: str
) -> None:
    req = {"attacker": {"name": "Troopers"}, "target": {"name": "Troopers x10"}, **change}
    r = client.post("/api/odds", json=req)
    assert r.status_code == status, r.json()
    assert (r.json()["field"] or "").startswith(field)


# ------------------------------------------------------------------------------ dice


def test_dice_roll_is_seeded_with_successes_and_rerolls_s1_4(client: TestClient) -> None:
    req = {"expr": "10D6", "need": 4, "reroll": "failed", "seed": 1}
    a = client.post("/api/dice/roll", json=req).json()
    assert a == client.post("/api/dice/roll", json=req).json()
    assert a["seed"] == 1 and len(a["faces"]) == 10
    assert a["successes"] == sum(1 for f in a["faces"] if f >= 4)
    # §1.4 (001 L327-329): only the failed dice were picked up; successes stay.
    for before, after in zip(a["before_reroll"], a["faces"], strict=True):
        if before >= 4:
            assert after == before


@pytest.mark.parametrize("expr", ["D3", "D2", "2D6"])
def test_dice_d3_d2_2d6_faces_in_range_s1_4(client: TestClient, expr: str) -> None:
    r = client.post("/api/dice/roll", json={"expr": expr, "seed": 3}).json()
    top = {"D3": 3, "D2": 2, "2D6": 6}[expr]
    assert all(1 <= f <= top for f in r["faces"])
    assert r["total"] == sum(r["faces"])


@pytest.mark.parametrize(
    ("req", "field"),
    [
        ({"expr": "banana"}, "expr"),
        ({"expr": "5"}, "expr"),
        ({"expr": "2000D6"}, "expr"),
        ({"expr": "D3", "need": 5}, "need"),
        ({"expr": "5D6", "need": 4, "reroll": "1,6"}, "reroll"),
        ({"expr": "5D6", "reroll": "failed"}, "reroll"),
        ({"expr": "5D6", "seed": -1}, "body.seed"),
    ],
)
def test_dice_bad_request_is_422_naming_the_field(
    client: TestClient, req: dict[str, Any], field: str
) -> None:
    r = client.post("/api/dice/roll", json=req)
    assert r.status_code == 422
    assert r.json()["field"] == field


def test_scatter_is_a_hit_or_a_direction_and_distance_s12_3(client: TestClient) -> None:
    seen = {client.post("/api/dice/scatter", json={"seed": s}).json()["hit"] for s in range(12)}
    assert seen == {True, False}
    r = client.post("/api/dice/scatter", json={"seed": 3}).json()
    if not r["hit"]:
        assert r["direction"] in {"N", "NE", "E", "SE", "S", "SW", "W", "NW"}
        assert 2 <= r["distance"] <= 12
    assert client.post("/api/dice/scatter", json={"distance_dice": 3}).status_code == 422


# ------------------------------------------------------------------------------ rosters


def test_roster_journey_create_add_validate_share_import_s3_1(client: TestClient) -> None:
    r = client.post("/api/rosters", json={"name": "Patrol", "point_limit": 50})
    assert r.status_code == 201 and r.json()["total"] == 0
    again = client.post("/api/rosters", json={"name": "Patrol", "point_limit": 50})
    assert again.status_code == 409
    added = client.post(
        "/api/rosters/Patrol/entries", json={"unit": {"source": "inline", "data": TROOPERS}}
    ).json()
    full = cost_unit(unit_from_data(TROOPERS)).total
    assert added["total"] == full
    # Core Rules §3.1: the total must not exceed the Point Limit (six Troopers cost more than 50).
    assert full > 50
    assert [v["code"] for v in added["violations"]] == ["over-limit"]
    assert added["valid"] is False
    code = client.get("/api/rosters/Patrol/share").json()["code"]
    assert code.startswith("WBR1:")
    qr = client.get("/api/rosters/Patrol/qr.svg")
    assert qr.status_code == 200 and qr.headers["content-type"].startswith("image/svg")
    sheet = client.get("/api/rosters/Patrol/sheet.html")
    assert sheet.headers["content-type"].startswith("text/html") and "Laser Rifle" in sheet.text
    imported = client.post("/api/rosters/import", json={"code": code, "name": "Copy"})
    assert imported.status_code == 201 and imported.json()["total"] == added["total"]
    removed = client.delete("/api/rosters/Patrol/entries/Troopers").json()
    assert removed["units"] == [] and removed["total"] == 0
    assert [x["name"] for x in client.get("/api/rosters").json()] == ["Copy", "Patrol"]
    assert client.delete("/api/rosters/Copy").status_code == 204


def test_roster_unknown_is_404_and_bad_code_is_422(client: TestClient) -> None:
    r = client.get("/api/rosters/Nope")
    assert r.status_code == 404 and r.json()["field"] == "roster"
    bad = client.post("/api/rosters/import", json={"code": "WBR1:AAAA"})
    assert bad.status_code == 422
    assert client.post("/api/rosters", json={"name": "", "point_limit": 5}).json()["field"] == (
        "body.name"
    )


# ------------------------------------------------------------------------------ pages


@pytest.mark.parametrize("page", ["design", "odds", "dice", "rules", "rosters", "factions"])
def test_pages_render_with_their_script(client: TestClient, page: str) -> None:
    r = client.get(f"/{page}")
    assert r.status_code == 200
    assert f"/static/js/{page}.js" in r.text


@pytest.mark.parametrize(
    "path", ["/design", "/rosters", "/warengine", "/play", "/play/manager", "/play/replay"]
)
def test_every_page_s_nav_reaches_every_tab_play_included(client: TestClient, path: str) -> None:
    """The workbench and the play pages share one nav: a player reaches Play from the
    designer (its tab was once only on the play pages)."""
    text = client.get(path).text
    nav = text[text.index("<nav>") : text.index("</nav>")]
    for slug in ("design", "odds", "dice", "rules", "rosters", "factions", "warengine", "play"):
        assert f'href="/{slug}"' in nav, (path, slug)


def test_design_page_hints_come_from_the_profile_model_s1_5(client: TestClient) -> None:
    text = client.get("/design").text
    assert 'name="defence" inputmode="numeric" min="0" max="10"' in text
    assert "Defence (0-10)." in text


def test_openapi_lists_the_api(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/units/cost", "/api/odds", "/api/dice/roll", "/api/perks", "/api/rosters"} <= set(
        paths
    )


def test_cli_help_does_not_import_fastapi() -> None:
    """Start-up (issue 18): ``warbench --help`` lists ``serve`` without loading the web stack."""
    probe = (
        "import sys\nfrom warbench.cli import main\ntry:\n    main(['--help'])\n"
        "except SystemExit:\n    pass\nprint(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('fastapi', 'uvicorn', 'starlette')), file=sys.stderr)"
    )
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert "serve" in proc.stdout
    assert proc.stderr.strip().splitlines()[-1] == "[]"


# ------------------------------------------------------------------------------ factions


def test_faction_import_export_round_trip_and_designer_load(client: TestClient) -> None:
    import yaml

    assert client.post("/api/factions", json={"name": "Humans"}).status_code == 201
    assert client.post("/api/factions", json={"name": "Humans"}).status_code == 409
    text = yaml.safe_dump({"units": [TROOPERS]})
    r = client.post("/api/factions/Humans/import", json={"text": text})
    assert r.status_code == 200 and [u["name"] for u in r.json()["units"]] == ["Troopers"]
    exported = client.get("/api/factions/Humans/export").text
    again = client.post(
        "/api/factions/Humans/import", json={"text": exported, "replace": True}
    ).json()
    assert again["units"] == r.json()["units"]
    as_json = client.get("/api/factions/Humans/export", params={"format": "json"}).json()
    loaded = client.get("/api/factions/Humans/units/Troopers").json()
    assert as_json["units"] == [loaded]
    assert unit_from_data(loaded) == unit_from_data(TROOPERS)
    assert client.delete("/api/factions/Humans/units/Troopers").status_code == 204
    assert client.get("/api/factions").json() == [{"name": "Humans", "units": []}]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"text": "units: [", "filename": "army.yaml"}, None),
        ({"text": "{", "format": "json"}, None),
        ({"text": "units:\n  - unit: {name: A, move: 1, dash: 1, defence: 99, hp: 1}\n"
                  "    models: [{count: 1}]\n"}, "units[0].unit.defence"),
        ({"text": "x", "format": "toml"}, "body.format"),
    ],
)  # fmt: skip
def test_faction_import_bad_file_is_422_naming_the_line_or_field(
    client: TestClient, body: dict[str, Any], field: str | None
) -> None:
    client.post("/api/factions", json={"name": "F"})
    r = client.post("/api/factions/F/import", json=body)
    assert r.status_code == 422
    assert r.json()["field"] == field
    if field is None:
        assert "line 1" in r.json()["detail"] or "malformed JSON" in r.json()["detail"]


def test_armoury_keeps_weapons_s1_6(client: TestClient) -> None:
    rifle = TROOPERS["weapons"][0]
    assert client.post("/api/armoury", json={"weapon": rifle}).status_code == 201
    assert client.post("/api/armoury", json={"weapon": rifle}).status_code == 409
    assert [w["name"] for w in client.get("/api/armoury").json()] == ["Laser Rifle"]
    bad = client.post("/api/armoury", json={"weapon": {**rifle, "attacks": 0}})
    assert bad.status_code == 422 and bad.json()["field"] == "weapon.attacks"
    assert client.delete("/api/armoury/Laser Rifle").status_code == 204
    assert client.delete("/api/armoury/Laser Rifle").status_code == 404


@pytest.mark.parametrize(
    "page", ["design", "odds", "dice", "rules", "rosters", "factions", "common", "draft"]
)
def test_compiled_scripts_are_served(client: TestClient, page: str) -> None:
    r = client.get(f"/static/js/{page}.js")
    assert r.status_code == 200, "run make setup (npm run build)"


def test_roster_perks_added_validated_and_removed_s12_6(client: TestClient) -> None:
    client.post("/api/rosters", json={"name": "P", "point_limit": 5000})
    client.post("/api/rosters/P/entries", json={"unit": {"source": "inline", "data": TROOPERS}})
    r = client.post("/api/rosters/P/perks", json={"perk": "inspiring", "unit": "Troopers"})
    assert r.status_code == 200
    assert r.json()["document"]["roster"]["roster_perks"] == [
        {"perk": "Inspiring", "unit": "Troopers"}
    ]
    assert r.json()["total"] > client.get("/api/rosters/P").json()["units"][0]["points"]
    unknown = client.post("/api/rosters/P/perks", json={"perk": "Inspirin"})
    assert unknown.status_code == 422 and "Inspiring" in unknown.json()["detail"]
    # A Unit Perk is no Roster Perk (§12.6): a violation, like `warbench roster validate`.
    wrong = client.post("/api/rosters/P/perks", json={"perk": "Tough"}).json()
    assert any(v["code"] == "wrong-perk-kind" for v in wrong["violations"])
    assert client.delete("/api/rosters/P/perks/5").json()["field"] == "index"
    left = client.delete("/api/rosters/P/perks/1").json()["document"]["roster"]["roster_perks"]
    assert [p["perk"] for p in left] == ["Inspiring"]


def test_odds_of_a_roster_entry_as_fielded_s2_3(client: TestClient) -> None:
    """The Odds page picks attackers and targets from rosters too: the entry as the roster
    fields it (here 10 Troopers, not the example's 6)."""
    client.post("/api/rosters", json={"name": "Patrol", "point_limit": 400})
    body = {"unit": {"source": "example", "name": "Troopers x10"}, "name": "Squad"}
    assert client.post("/api/rosters/Patrol/entries", json=body).status_code == 200
    listed = [u for u in client.get("/api/units").json() if u["source"] == "roster"]
    assert listed == [
        {"source": "roster", "name": "Squad", "faction": None, "roster": "Patrol", "models": 10,
         "weapons": ["Laser Rifle"]}
    ]  # fmt: skip
    target = {"source": "example", "name": "Kataton Battle Servitors"}
    as_entry = client.post(
        "/api/odds",
        json={"attacker": {"source": "roster", "roster": "Patrol", "name": "Squad"},
              "target": target},
    )  # fmt: skip
    as_example = client.post(
        "/api/odds",
        json={"attacker": {"source": "example", "name": "Troopers x10"}, "target": target},
    )
    assert as_entry.status_code == 200, as_entry.text
    assert as_entry.json()["hp_lost"] == as_example.json()["hp_lost"]
    bad = client.post(
        "/api/odds",
        json={
            "attacker": {"source": "roster", "roster": "Patrol", "name": "Nope"},
            "target": target,
        },
    )
    assert bad.status_code == 422 and "Nope" in bad.json()["detail"]
    no_roster = client.post(
        "/api/odds", json={"attacker": {"source": "roster", "name": "Squad"}, "target": target}
    )
    assert no_roster.status_code == 422 and no_roster.json()["field"] == "attacker.roster"
