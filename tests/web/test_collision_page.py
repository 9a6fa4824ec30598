"""The Collision page's API and storage (issue 10, session 35, s35-collision): the card
designer and battle-group builder call the ruleset's own readers and checks
(``warbench collision validate|card``), and cards and battle groups are stored like WarEngine
forces (``storage/collision_documents.py``, migration 0005a)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from warbench.kernel.errors import (
    ChangedElsewhereError,
    StorageError,
    UnknownNameError,
    WarbenchError,
)
from warbench.rulesets.collision.card import render_cards
from warbench.rulesets.collision.io import load, parse_card, parse_group, to_data
from warbench.rulesets.collision.validation import group_report
from warbench.storage.collision_documents import CardStore, GroupStore
from warbench.storage.store import Store
from warbench.web.app import create_app

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "collision"
BOOK = "003_fc239e71486306e1.txt"


@pytest.fixture
def examples(client: TestClient) -> dict[str, Any]:
    data: dict[str, Any] = client.get("/api/collision/examples").json()
    return data


def _rhona(examples: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(next(c for c in examples["cards"] if c["name"] == "Rhona"))


# ------------------------------------------------------------------ tables and examples


def test_the_examples_are_the_example_files(examples: dict[str, Any]) -> None:
    files = [load(EXAMPLES / f"{n}.yaml") for n in ("rhona", "virgil", "skeleton_archer")]
    assert examples["cards"] == [to_data(c) for c in files]
    assert examples["groups"] == [to_data(load(EXAMPLES / "deadholm_scouts.yaml"))]


def test_tables_offer_the_glossary_with_costs_and_the_stat_ranges_l298_302(
    client: TestClient,
) -> None:
    t = client.get("/api/collision/tables").json()
    end = next(s for s in t["stats"] if s["name"] == "end")
    assert (end["min"], end["max"]) == (0, 9) and "L298-302" in end["hint"]
    block = next(e for e in t["glossary"] if e["name"] == "Block 2")
    assert (block["kind"], block["cost"]) == ("reaction", "1E")
    assert block["source"].startswith(f"{BOOK} L")
    assert {e["kind"] for e in t["glossary"]} == {"action", "reaction", "effect", "status", "term"}
    assert t["weapon_types"][:2] == ["Mundane", "Magic"] and t["max_weapons"] == 2
    # L348: a Minor Arcana number 1 (Ace) to 14 (King), named as the printed card names it
    numbers = t["tarot_numbers"]
    assert [n["value"] for n in numbers] == list(range(1, 15))
    assert (numbers[0]["label"], numbers[10]["label"], numbers[-1]["label"]) == (
        "1 (Ace)",
        "11 (Page)",
        "14 (King)",
    )


# ------------------------------------------------------------------ checking a card


def test_a_valid_card_comes_back_canonical_with_the_clis_printable_card(
    client: TestClient, examples: dict[str, Any]
) -> None:
    rhona = _rhona(examples)
    r = client.post("/api/collision/cards/check", json=rhona)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["valid"] and body["violations"] == []
    assert body["card"] == to_data(parse_card(rhona))
    assert body["html"] == render_cards([parse_card(rhona)])  # `warbench collision card`
    assert yaml.safe_load(body["yaml"]) == body["card"]


def test_every_limit_a_card_breaks_is_listed_at_once_with_its_lines(
    client: TestClient, examples: dict[str, Any]
) -> None:
    bad = _rhona(examples)
    bad["stats"]["end"] = 12  # L301-302: at most 9
    bad["attributes"] = ["Brave", "Strong", "Undead", "Flying"]  # L272-274: 0-3
    bad["weapons"] = bad["weapons"] * 3  # L373: at most 2
    bad["tarot"] = {"arcana": "minor"}  # L347-350: a suit and a number
    bad["abilities"].append("Fly Like A Bird")  # not in the glossary
    body = client.post("/api/collision/cards/check", json=bad).json()
    assert not body["valid"] and body["card"] is None and body["html"] is None
    found = {v["field"]: v for v in body["violations"]}
    assert set(found) == {"stats.end", "attributes", "weapons", "tarot", "abilities"}
    assert found["stats.end"]["rule"] == f"{BOOK} L298-302"
    assert found["attributes"]["rule"] == f"{BOOK} L272-274"
    assert found["weapons"]["rule"] == f"{BOOK} L373"
    assert found["tarot"]["rule"] == f"{BOOK} L342-350"
    assert "unknown Collision ability 'Fly Like A Bird'" in found["abilities"]["message"]
    # the CLI's reader stops at one of the same sentences
    with pytest.raises(WarbenchError) as exc:
        parse_card(bad, "card")
    assert str(exc.value) in {v["message"] for v in body["violations"]}


def test_sharp_weapons_cannot_slay_l2140_2141(client: TestClient, examples: dict[str, Any]) -> None:
    bad = _rhona(examples)
    bad["weapons"][0] |= {"special": ["Sharp"], "crit": "Slay"}
    [v] = client.post("/api/collision/cards/check", json=bad).json()["violations"]
    assert v["rule"] == f"{BOOK} L2140-2141"


# ------------------------------------------------------------------ battle groups


def test_a_group_reports_what_the_cli_reports_l580_617(
    client: TestClient, examples: dict[str, Any]
) -> None:
    group = copy.deepcopy(examples["groups"][0])
    body = client.post("/api/collision/groups/check", json=group).json()
    assert body["report"] == group_report(parse_group(group))
    assert (body["report"]["points"], body["report"]["violations"]) == (430, [])
    group["characters"].append({"card": _rhona(examples)})  # 550 > 500, 4 attributes
    report = client.post("/api/collision/groups/check", json=group).json()["report"]
    rules = {v["rule"] for v in report["violations"]}
    assert rules == {f"{BOOK} L601-603", f"{BOOK} L272-273, L594-595"}


def test_a_group_refuses_file_paths_and_lists_a_bad_cards_field(
    client: TestClient, examples: dict[str, Any]
) -> None:
    paths = {"name": "G", "points_limit": 500, "characters": [{"card": "/etc/passwd"}]}
    r = client.post("/api/collision/groups/check", json=paths)
    assert r.status_code == 422 and "inline" in r.json()["detail"]
    group = copy.deepcopy(examples["groups"][0])
    group["characters"][0]["card"]["stats"]["end"] = 10
    r = client.post("/api/collision/groups/check", json=group)
    # every card's problems, card by card, not a 422 of the first (session 37)
    assert r.status_code == 200 and r.json()["valid"] is False
    assert [p["field"] for p in r.json()["card_problems"]] == ["characters[0].card.stats.end"]
    # a save still refuses it, naming the field
    r = client.post("/api/collision/groups", json={"group": group})
    assert r.status_code == 422 and r.json()["field"] == "stats.end"


def test_read_tells_a_pasted_card_from_a_group(client: TestClient) -> None:
    card = (EXAMPLES / "rhona.yaml").read_text()
    assert client.post("/api/collision/read", json={"text": card}).json()["kind"] == "card"
    group = (EXAMPLES / "deadholm_scouts.yaml").read_text()
    assert client.post("/api/collision/read", json={"text": group}).json()["kind"] == "group"
    r = client.post("/api/collision/read", json={"text": "- a list"})
    assert r.status_code == 422 and r.json()["detail"]
    r = client.post("/api/collision/read", json={"text": "a: [unclosed"})
    assert r.status_code == 422 and "malformed" in r.json()["detail"]


# ------------------------------------------------------------------ stored


def test_api_crud_with_version_checks(client: TestClient, examples: dict[str, Any]) -> None:
    rhona = _rhona(examples)
    assert client.get("/api/collision/cards").json() == []
    r = client.post("/api/collision/cards", json={"card": rhona})
    assert r.status_code == 201 and r.json()["version"] == 1
    assert client.post("/api/collision/cards", json={"card": rhona}).status_code == 409
    url = "/api/collision/cards/RHONA"  # any case
    assert client.get(url).json()["card"] == to_data(parse_card(rhona))
    rhona["points"] = 130
    assert client.put(url, params={"version": 1}, json={"card": rhona}).json()["version"] == 2
    stale = client.put(url, params={"version": 1}, json={"card": rhona})
    assert stale.status_code == 409 and "changed elsewhere" in stale.json()["detail"]
    [row] = client.get("/api/collision/cards").json()
    assert (row["name"], row["points"], row["version"]) == ("Rhona", 130, 2)
    assert client.delete(url, params={"version": 1}).status_code == 409
    assert client.delete(url, params={"version": 2}).status_code == 204
    assert client.get(url).status_code == 404

    group = copy.deepcopy(examples["groups"][0])
    group["points_limit"] = 100  # over its limit: stored, with its violations
    r = client.post("/api/collision/groups", json={"group": group})
    assert r.status_code == 201 and r.json()["report"]["violations"]
    [row] = client.get("/api/collision/groups").json()
    assert (row["points"], row["points_limit"], row["cards"]) == (430, 100, 6)
    assert client.delete(f"/api/collision/groups/{group['name']}").status_code == 204


def test_a_card_that_is_not_one_is_not_stored(client: TestClient, examples: dict[str, Any]) -> None:
    bad = _rhona(examples)
    bad["stats"]["end"] = 12
    r = client.post("/api/collision/cards", json={"card": bad})
    assert r.status_code == 422 and r.json()["field"] == "stats.end"
    assert client.get("/api/collision/cards").json() == []


def test_a_restart_keeps_cards_and_groups(db_url: str, examples: dict[str, Any]) -> None:
    with TestClient(create_app(db_url)) as first:
        first.post("/api/collision/cards", json={"card": _rhona(examples)})
        first.post("/api/collision/groups", json={"group": examples["groups"][0]})
    with TestClient(create_app(db_url)) as second:
        assert [c["name"] for c in second.get("/api/collision/cards").json()] == ["Rhona"]
        got = second.get("/api/collision/groups/deadholm scouts").json()
        assert got["group"] == to_data(parse_group(examples["groups"][0]))


def test_cards_and_groups_are_apart_and_names_unique_ignoring_case(
    tmp_path: Path, examples: dict[str, Any]
) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 'c.db'}")
    cards, groups = CardStore(store), GroupStore(store)
    rhona = parse_card(_rhona(examples))
    assert cards.save(rhona, replace=False) == 1
    same_name = parse_group({**examples["groups"][0], "name": "Rhona"})
    assert groups.save(same_name, replace=False) == 1  # a group may share a card's name
    with pytest.raises(StorageError, match="already exists"):
        cards.save(rhona.model_copy(update={"name": "RHONA"}), replace=False)
    with pytest.raises(ChangedElsewhereError):
        cards.save(rhona, expected_version=5)
    with pytest.raises(UnknownNameError):
        groups.versioned("Deadholm scouts")
    assert [s.name for s in cards.summaries()] == ["Rhona"]
    assert [s.points_limit for s in groups.summaries()] == [500]


def test_a_name_too_long_to_store_is_bad_input_naming_the_field(
    client: TestClient, examples: dict[str, Any]
) -> None:
    """A name the table cannot hold (1 to 120 characters) is bad input, 422 naming ``name``
    and the allowed length, not a 409 conflict (s35-review); nothing is stored."""
    for name in ("x" * 121, "   "):
        r = client.post("/api/collision/cards", json={"card": {**_rhona(examples), "name": name}})
        body = r.json()
        assert (r.status_code, body["field"], body["error"]) == (422, "name", "ProfileError")
        assert "1 to 120 characters" in body["detail"] and len(body["detail"]) < 200
    group = {**examples["groups"][0], "name": "g" * 121}
    r = client.post("/api/collision/groups", json={"group": group})
    assert (r.status_code, r.json()["field"]) == (422, "name")
    assert client.get("/api/collision/cards").json() == []
    assert client.get("/api/collision/groups").json() == []


def test_a_rename_and_a_new_card_under_that_name_queue_on_one_lock(
    tmp_path: Path, examples: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """PostgreSQL writers queue on advisory locks: renaming Rhona to Halai and storing a new
    "HALAI" must take the same lock, else both pass the "already exists" check and two cards
    share a name ignoring case (the table's unique constraint is case-sensitive; s35-review)."""
    store = Store.open(f"sqlite:///{tmp_path / 'c.db'}")
    cards = CardStore(store)
    locks: list[str | None] = []
    run = store._run

    def recording(subject: str, work: Any, *, write: bool, lock: str | None = None) -> Any:
        locks.append(lock)
        return run(subject, work, write=write, lock=lock)

    monkeypatch.setattr(store, "_run", recording)
    rhona = parse_card(_rhona(examples))
    cards.save(rhona)
    locks.clear()
    cards.save(rhona.model_copy(update={"name": "Halai"}), name="Rhona")
    with pytest.raises(StorageError, match="already exists"):
        cards.save(rhona.model_copy(update={"name": "HALAI"}), replace=False)
    assert len(locks) == 2 and locks[0] is not None and locks[0] == locks[1]
