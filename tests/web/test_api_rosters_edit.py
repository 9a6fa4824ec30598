"""Roster editing in the API (issue 13, part 2): entries changed in place, the Point Limit after
creation, Linked Profile sets, model groups with their own weapons, version checks, the PDF
sheet and the share QR read back from a picture."""

from __future__ import annotations

import base64
import io
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pypdf import PdfReader

from warbench.rulesets.warsurge.io import unit_from_data
from warbench.rulesets.warsurge.points import cost_unit

SQUAD: dict[str, Any] = {
    "unit": {"name": "Squad", "move": 6, "dash": 6, "defence": 3, "hp": 1, "armour": "4+"},
    "weapons": [
        {"name": "Rifle", "range": 18, "type": "Battle", "attacks": 2, "power": 3},
        {"name": "Blade", "range": 0, "type": "Assault", "attacks": 3, "power": 4},
    ],
    "models": [{"count": 5, "weapons": ["Rifle"]}],
}
TRUCK: dict[str, Any] = {
    "unit": {"name": "Truck", "move": 10, "dash": 6, "defence": 6, "hp": 8, "transport": 12},
    "models": [{"count": 1}],
}


def _form(name: str) -> dict[str, Any]:
    """A unit with the Form I perk (Perks §12.2 Linked Profile: two units linked)."""
    unit = {**SQUAD["unit"], "name": name, "perks": ["Form I"]}
    return {**SQUAD, "unit": unit}


def _points(data: dict[str, Any]) -> int:
    return round(cost_unit(unit_from_data(data)).total)


@pytest.fixture
def roster(client: TestClient) -> TestClient:
    assert client.post("/api/rosters", json={"name": "R", "point_limit": 400}).status_code == 201
    for data in (SQUAD, TRUCK):
        body = {"unit": {"source": "inline", "data": data}}
        assert client.post("/api/rosters/R/entries", json=body).status_code == 200
    return client


def _entry(report: dict[str, Any], name: str) -> dict[str, Any]:
    found = [u for u in report["document"]["roster"]["units"] if u["name"] == name]
    assert found, name
    entry: dict[str, Any] = found[0]
    return entry


def test_point_limit_changed_after_creation_s3_1(roster: TestClient) -> None:
    before = roster.get("/api/rosters/R").json()
    assert before["point_limit"] == 400
    r = roster.patch("/api/rosters/R", json={"point_limit": 50})
    assert r.status_code == 200
    body = r.json()
    assert body["point_limit"] == 50 and body["version"] == before["version"] + 1
    assert any(v["code"] == "over-limit" for v in body["violations"])  # §3.1 L1420
    assert roster.get("/api/rosters").json()[0]["point_limit"] == 50
    bad = roster.patch("/api/rosters/R", json={"point_limit": 0})
    assert bad.status_code == 422 and bad.json()["field"] == "body.point_limit"


def test_entry_model_count_changed_in_place(roster: TestClient) -> None:
    r = roster.patch("/api/rosters/R/entries/Squad", json={"models": 8})
    assert r.status_code == 200
    body = r.json()
    assert [u["entry"] for u in body["units"]] == ["Squad", "Truck"]  # same place
    squad = {**SQUAD, "models": [{"count": 8, "weapons": ["Rifle"]}]}
    assert body["units"][0]["full"] == _points(squad)


def test_entry_groups_with_their_own_weapons_s1_2(roster: TestClient) -> None:
    groups = [{"count": 3, "weapons": ["Rifle"]}, {"count": 2, "weapons": ["Rifle", "Blade"]}]
    r = roster.patch("/api/rosters/R/entries/Squad", json={"groups": groups})
    assert r.status_code == 200
    unit = _entry(r.json(), "Squad")["unit"]
    assert unit["models"] == groups
    assert [w["name"] for w in unit["weapons"]] == ["Rifle", "Blade"]
    assert r.json()["units"][0]["full"] == _points({**SQUAD, "models": groups})
    # a weapon nobody carries any more leaves the snapshot
    only_rifles = roster.patch(
        "/api/rosters/R/entries/Squad", json={"groups": [{"count": 4, "weapons": ["Rifle"]}]}
    )
    assert [w["name"] for w in _entry(only_rifles.json(), "Squad")["unit"]["weapons"]] == ["Rifle"]


def test_entry_weapon_from_the_armoury(roster: TestClient) -> None:
    lance = {"name": "Lance", "range": 0, "type": "Assault", "attacks": 2, "power": 6}
    assert roster.post("/api/armoury", json={"weapon": lance}).status_code == 201
    options = roster.get("/api/rosters/R/entries/Squad/weapons").json()
    assert options[:1] == ["Rifle"] and "Lance" in options
    r = roster.patch(
        "/api/rosters/R/entries/Squad", json={"groups": [{"count": 5, "weapons": ["lance"]}]}
    )
    assert r.status_code == 200
    assert _entry(r.json(), "Squad")["unit"]["models"] == [{"count": 5, "weapons": ["Lance"]}]


def test_entry_unknown_weapon_is_422_naming_the_group(roster: TestClient) -> None:
    r = roster.patch(
        "/api/rosters/R/entries/Squad", json={"groups": [{"count": 5, "weapons": ["Bazooka"]}]}
    )
    assert r.status_code == 422
    assert r.json()["field"] == "groups[0].weapons" and "Bazooka" in r.json()["detail"]


def test_models_on_a_unit_of_several_groups_asks_for_groups(roster: TestClient) -> None:
    groups = [{"count": 3, "weapons": ["Rifle"]}, {"count": 2, "weapons": ["Blade"]}]
    roster.patch("/api/rosters/R/entries/Squad", json={"groups": groups})
    r = roster.patch("/api/rosters/R/entries/Squad", json={"models": 4})
    assert r.status_code == 422 and r.json()["field"] == "models"


def test_entry_traits_transport_and_rename_references_follow_s6_1(roster: TestClient) -> None:
    r = roster.patch(
        "/api/rosters/R/entries/Squad", json={"traits": ["concealed"], "embarked_in": "Truck"}
    )
    assert r.status_code == 200
    squad = _entry(r.json(), "Squad")
    assert squad["traits"] == ["Concealed"] and squad["embarked_in"] == "Truck"
    renamed = roster.patch("/api/rosters/R/entries/Truck", json={"name": "Hauler"}).json()
    assert _entry(renamed, "Squad")["embarked_in"] == "Hauler"  # the reference followed
    out = roster.patch("/api/rosters/R/entries/Squad", json={"embarked_in": None}).json()
    assert _entry(out, "Squad")["embarked_in"] is None


def test_entry_embarked_in_a_non_transport_is_refused_s6(roster: TestClient) -> None:
    r = roster.patch("/api/rosters/R/entries/Truck", json={"embarked_in": "Squad"})
    assert r.status_code == 422
    assert r.json()["field"] == "embarked_in" and "Truck" in r.json()["detail"]  # the Transports
    itself = roster.patch("/api/rosters/R/entries/Truck", json={"embarked_in": "Truck"})
    assert itself.status_code == 422 and "itself" in itself.json()["detail"]


def test_linked_profile_set_of_two_form_i_units_s12_2(client: TestClient) -> None:
    client.post("/api/rosters", json={"name": "L", "point_limit": 2000})
    for name in ("Alpha", "Beta"):
        body = {"unit": {"source": "inline", "data": _form(name)}}
        client.post("/api/rosters/L/entries", json=body)
    report = client.get("/api/rosters/L").json()
    assert [v["code"] for v in report["violations"]].count("linked-profile") == 2  # unlinked
    client.patch("/api/rosters/L/entries/Alpha", json={"link": "Pair"})
    r = client.patch("/api/rosters/L/entries/Beta", json={"link": "Pair"}).json()
    assert "linked-profile" not in [v["code"] for v in r["violations"]]
    assert {u["link"] for u in r["document"]["roster"]["units"]} == {"Pair"}
    cleared = client.patch("/api/rosters/L/entries/Beta", json={"link": None}).json()
    assert "linked-profile" in [v["code"] for v in cleared["violations"]]


def test_add_entry_with_groups_and_link(client: TestClient) -> None:
    client.post("/api/rosters", json={"name": "A", "point_limit": 2000})
    body = {
        "unit": {"source": "inline", "data": SQUAD},
        "name": "Mixed",
        "groups": [{"count": 4, "weapons": ["Rifle"]}, {"count": 1, "weapons": ["Blade"]}],
        "link": "Set",
    }
    r = client.post("/api/rosters/A/entries", json=body)
    assert r.status_code == 200
    mixed = _entry(r.json(), "Mixed")
    assert mixed["link"] == "Set" and len(mixed["unit"]["models"]) == 2


def test_copy_entry(roster: TestClient) -> None:
    r = roster.post("/api/rosters/R/entries/Squad/copy")
    assert [u["entry"] for u in r.json()["units"]] == ["Squad", "Squad 2", "Truck"]


def test_stale_version_is_409_and_nothing_changes(roster: TestClient) -> None:
    loaded = roster.get("/api/rosters/R").json()
    roster.patch("/api/rosters/R/entries/Squad", json={"models": 6})  # someone else
    stale = roster.patch(
        f"/api/rosters/R/entries/Squad?version={loaded['version']}", json={"models": 9}
    )
    assert stale.status_code == 409 and "changed elsewhere" in stale.json()["detail"]
    assert _entry(roster.get("/api/rosters/R").json(), "Squad")["unit"]["models"][0]["count"] == 6


def test_unknown_entry_and_bad_bodies_are_4xx(roster: TestClient) -> None:
    assert roster.patch("/api/rosters/R/entries/Nope", json={"models": 2}).status_code in (
        404,
        422,
    )
    r = roster.patch("/api/rosters/R/entries/Squad", json={"models": 0})
    assert r.status_code == 422 and r.json()["field"] == "body.models"
    r = roster.patch("/api/rosters/R/entries/Squad", json={"colour": "red"})
    assert r.status_code == 422 and r.json()["field"] == "body.colour"
    r = roster.patch("/api/rosters/R/entries/Squad", json={"traits": ["Tough"]})
    assert r.status_code == 422  # a Unit Perk is no Trait (§12.6)


def test_pdf_sheet_is_typeset_on_the_server(roster: TestClient) -> None:
    r = roster.get("/api/rosters/R/sheet.pdf")
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
    assert r.headers["content-disposition"].startswith("inline")
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(r.content)).pages)
    assert "Squad" in text and "Truck" in text
    saved = roster.get("/api/rosters/R/sheet.pdf?download=true")
    assert saved.headers["content-disposition"].startswith("attachment")
    assert roster.get("/api/rosters/Nope/sheet.pdf").status_code == 404


def test_share_qr_read_back_from_a_picture(roster: TestClient) -> None:
    code = roster.get("/api/rosters/R/share").json()["code"]
    png = roster.get("/api/rosters/R/qr.png")
    assert png.headers["content-type"] == "image/png"
    image = "data:image/png;base64," + base64.b64encode(png.content).decode()
    r = roster.post("/api/rosters/import-image", json={"image": image, "name": "From QR"})
    assert r.status_code == 201
    assert r.json()["roster"] == "From QR"
    assert roster.get("/api/rosters/From QR/share").json()["code"] != code  # renamed
    original = roster.get("/api/rosters/R").json()
    assert r.json()["total"] == original["total"]
    assert r.json()["document"]["roster"]["units"] == original["document"]["roster"]["units"]


def test_share_qr_from_a_photo_like_picture(roster: TestClient) -> None:
    """A QR on a larger, grey, slightly rotated background (a phone photo of a screen)."""
    from PIL import Image

    png = Image.open(io.BytesIO(roster.get("/api/rosters/R/qr.png").content)).convert("L")
    photo = Image.new("L", (png.width * 3, png.height * 2), 180)
    photo.paste(png.rotate(7, expand=True, fillcolor=255), (png.width // 2, png.height // 3))
    buf = io.BytesIO()
    photo.convert("RGB").save(buf, format="JPEG", quality=85)
    r = roster.post(
        "/api/rosters/import-image",
        json={"image": base64.b64encode(buf.getvalue()).decode(), "name": "Photo"},
    )
    assert r.status_code == 201, r.json()


def test_pictures_without_a_qr_are_422_on_image(client: TestClient) -> None:
    from PIL import Image

    blank = io.BytesIO()
    Image.new("RGB", (64, 64), "white").save(blank, format="PNG")
    cases = [
        base64.b64encode(blank.getvalue()).decode(),  # a picture, no QR
        base64.b64encode(b"not a picture").decode(),
        "%%% not base64",
    ]
    for image in cases:
        r = client.post("/api/rosters/import-image", json={"image": image})
        assert r.status_code == 422, image
        assert r.json()["field"] == "image" and r.json()["detail"]
    assert client.get("/api/rosters").json() == []
