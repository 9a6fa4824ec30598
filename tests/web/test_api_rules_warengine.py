"""Rule-section search and the WarEngine figure designer / force builder API (issue 13)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from warbench.rulesets.warengine.costs import figure_cost, force_cost
from warbench.rulesets.warengine.io import load_figure, load_force, to_data

ROOT = Path(__file__).resolve().parents[2]
SEEDS = Path("/work/shared/seeds")

# ------------------------------------------------------------------------------ rule sections


def test_sections_cover_every_numbered_core_rules_section(client: TestClient) -> None:
    rows = client.get("/api/rules/sections", params={"limit": 100}).json()
    numbers = [r["number"] for r in rows if r["book_name"] == "Core Rules"]
    for n in ("1.5", "1.6", "3.1", "3.5", "5.10", "5.16", "6.9", "9.4", "10.5", "11.3"):
        assert n in numbers
    assert "4" in numbers and "8" in numbers  # chapters with their own text (§8 Playstyles)
    assert "5" in numbers and "Guide" not in [r["title"] for r in rows]  # 3.4's list: no chapter


def test_section_lines_point_at_the_book_s3_1(client: TestClient) -> None:
    s = client.get("/api/rules/sections/3.1").json()
    assert s["title"] == "Point Limit" and s["book"] == "001_d3f5e425c5e1196d.txt"
    if SEEDS.exists():
        lines = (SEEDS / s["book"]).read_text("utf-8").splitlines()
        assert lines[s["lines"][0] - 1].strip() == "3.1 POINT LIMIT"  # L1392
    assert "maximum amount of points" in s["text"]


def test_search_by_words_ranks_title_matches_first_s5_6(client: TestClient) -> None:
    hits = client.get("/api/rules/sections", params={"q": "cover bonus"}).json()
    assert hits[0]["number"] == "5.6"
    assert all("cover" in h["snippet"].lower() or h["matches"] for h in hits)


def test_search_by_number_and_book_s12_2(client: TestClient) -> None:
    assert [h["number"] for h in client.get("/api/rules/sections?q=5.10").json()] == ["5.10"]
    perks = client.get("/api/rules/sections", params={"q": "mastery", "book": "Perks"}).json()
    assert perks and {h["book_name"] for h in perks} == {"Perks"}
    assert client.get("/api/rules/sections/12.2?book=Perks").json()["title"] == "Using Perks"


def test_section_errors_are_4xx(client: TestClient) -> None:
    r = client.get("/api/rules/sections/99")
    assert r.status_code == 404 and "99" in r.json()["detail"]
    r = client.get("/api/rules/sections", params={"book": "Book 7"})
    assert r.status_code == 404 and r.json()["field"] == "book"
    assert client.get("/api/rules/sections", params={"q": "x" * 81}).status_code == 422


# ------------------------------------------------------------------------------ WarEngine


def test_warpeyes_costs_244_points_and_32_tweak_points_l925_963(client: TestClient) -> None:
    data = to_data(load_figure(ROOT / "examples/warengine/warpeyes.yaml"))
    r = client.post("/api/warengine/figures/cost", json=data)
    assert r.status_code == 200
    body = r.json()
    assert body["cost"]["points"] == 244 and body["cost"]["tweak_points"] == 32
    assert body["violations"] == []
    assert body["itemised"].startswith("WarpEyes: 244 points, 32 tweak points")
    assert "WarpEyes" in body["card"]


def test_example_force_is_the_shipped_stormreavers_l965_997(client: TestClient) -> None:
    example: dict[str, Any] = client.get("/api/warengine/example").json()
    force = load_force(ROOT / "examples/warengine/stormreavers.yaml")
    assert example == to_data(force)
    r = client.post("/api/warengine/forces/cost", json=example)
    assert r.status_code == 200
    body = r.json()
    assert body["cost"]["points"] == force_cost(force).points
    assert body["figures"]["warpeyes"] == 244
    assert body["figures"] == {k: figure_cost(f).points for k, f in force.figures.items()}
    assert body["violations"] == []


def test_figure_over_a_type_limit_is_a_violation_not_an_error(client: TestClient) -> None:
    trooper = {"name": "Grunt", "type": "T", "mv": '6"', "df": "5k5", "mn": "2k2"}
    r = client.post("/api/warengine/figures/cost", json=trooper)
    assert r.status_code == 200
    assert r.json()["violations"] and r.json()["violations"][0]["field"] == "df"


def test_bad_figure_fields_are_422_naming_the_field(client: TestClient) -> None:
    r = client.post("/api/warengine/figures/cost", json={"name": "X", "type": "Q"})
    assert r.status_code == 422 and r.json()["field"] == "type"
    r = client.post("/api/warengine/figures/cost", json={"name": "X", "type": "T", "df": "9k9"})
    assert r.status_code == 422 and "df" in r.json()["detail"]
    r = client.post(
        "/api/warengine/figures/cost", json={"name": "X", "type": "T", "tweaks": ["Nope"]}
    )
    assert r.status_code == 422 and "Nope" in r.json()["detail"]


def test_force_with_file_paths_or_unknown_members_is_422(client: TestClient) -> None:
    example = client.get("/api/warengine/example").json()
    paths = {**example, "figures": {**example["figures"], "warpeyes": "warpeyes.yaml"}}
    assert client.post("/api/warengine/forces/cost", json=paths).status_code == 422
    units = [*example["units"], {"name": "Ghosts", "members": [{"figure": "ghost"}]}]
    r = client.post("/api/warengine/forces/cost", json={**example, "units": units})
    assert r.status_code == 422 and "ghost" in r.json()["detail"]


def test_tables_offer_the_book_values_with_points(client: TestClient) -> None:
    t = client.get("/api/warengine/tables").json()
    assert [x["code"] for x in t["types"]] == ["T", "E", "C", "L", "M", "H"]
    assert {"value": '15"', "points": 12, "class": None} in t["movement"]["rows"]
    assert any(p["name"] == "Terror" for p in t["special_powers"])
    assert t["hero_point_cost"] == 4


# ------------------------------------------------------------------- Godslayer abilities (17)


def test_godslayer_abilities_all_listed_with_source_l1_119(client: TestClient) -> None:
    rows = client.get("/api/rules/godslayer").json()
    assert len(rows) == 97  # 002_bb37dae35014233a.txt L1-119: five tables, 97 entries
    assert {r["category"] for r in rows} == {"general", "magic", "melee", "ranged", "movement"}
    band = rows[0]
    assert band["name"] == "Band" and band["source"] == "002_bb37dae35014233a.txt L6"
    assert band["parameters"] == {"models": [3, 6]}
    if SEEDS.exists():
        lines = (SEEDS / "002_bb37dae35014233a.txt").read_text("utf-8").splitlines()
        assert "Troop of 3" in lines[band["lines"][0] - 1]


def test_godslayer_search_by_name_and_category_links_shown_l7(client: TestClient) -> None:
    hits = client.get("/api/rules/godslayer", params={"q": "blink"}).json()
    assert hits[0]["name"] == "Blink"  # name matches first
    assert {"kind": "warsurge-perk", "target": "Blink"}.items() <= hits[0]["links"][0].items()
    poison = client.get("/api/rules/godslayer", params={"q": "poison", "category": "melee"})
    assert poison.status_code == 200
    assert all(r["category"] == "melee" for r in poison.json()) and poison.json()
    bad = client.get("/api/rules/godslayer", params={"category": "psychic"})
    assert bad.status_code == 422 and "movement" in bad.text
