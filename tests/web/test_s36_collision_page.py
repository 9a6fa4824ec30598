"""The Collision page's server side, as session 35's review left it (issue 10, session 36,
s36-web):

* a stored card that no longer reads as a card (a glossary entry renamed since it was saved)
  was a 422 on GET, so it could not be opened to be fixed: it now comes back as its stored
  data (``draft``) with every problem listed, and saves once fixed;
* an empty battle group's sentence said "at least 1 items";
* the page wrote a weapon's reach "1" when its field was empty (the model's default, decided
  again in the script): the tables now give the default, the page sends no reach.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from warbench.rulesets.collision.models import Weapon
from warbench.storage.collision_documents import CollisionDocumentRow
from warbench.storage.store import Store

BOOK = "003_fc239e71486306e1.txt"


@pytest.fixture
def rhona(client: TestClient) -> dict[str, Any]:
    cards = client.get("/api/collision/examples").json()["cards"]
    return copy.deepcopy(next(c for c in cards if c["name"] == "Rhona"))


def rename_in_store(db_url: str, card: str, old: str, new: str) -> None:
    """The stored card ``card`` as if saved before the glossary entry ``new`` was renamed:
    its ability ``old`` written as ``new`` straight into the database."""
    store = Store.open(db_url)

    def work(s: Any) -> None:
        q = select(CollisionDocumentRow).where(CollisionDocumentRow.name == card)
        row = s.scalars(q).one()
        doc = copy.deepcopy(row.document)
        doc["abilities"] = [new if a == old else a for a in doc["abilities"]]
        row.document = doc

    store._run("a card stored before a rename", work, write=True)


def test_a_stored_card_that_no_longer_reads_opens_as_a_draft_with_its_problems_l872_899(
    client: TestClient, db_url: str, rhona: dict[str, Any]
) -> None:
    assert client.post("/api/collision/cards", json={"card": rhona}).status_code == 201
    rename_in_store(db_url, "Rhona", "Block 2", "Block II")
    r = client.get("/api/collision/cards/rhona")
    assert r.status_code == 200, r.text  # it was a 422: the card could not be opened
    got = r.json()
    assert got["valid"] is False and got["card"] is None and got["version"] == 1
    assert got["name"] == "Rhona"
    assert got["draft"]["abilities"] == ["Block II", "Power Attack", "Counter Attack"]
    [problem] = got["violations"]
    assert problem["field"] == "abilities"
    assert "unknown Collision ability 'Block II'" in problem["message"]
    assert problem["message"].count("abilities") == 1
    assert problem["rule"].startswith(f"{BOOK} L872-899")
    assert "Block II" in got["yaml"] and got["html"] is None
    # fixed in the page and saved over it, with the version it was opened at
    fixed = copy.deepcopy(got["draft"])
    fixed["abilities"][0] = "Block 2"
    r = client.put("/api/collision/cards/Rhona", params={"version": 1}, json={"card": fixed})
    assert r.status_code == 200, r.text
    again = client.get("/api/collision/cards/Rhona").json()
    assert again["valid"] is True and again["draft"] is None and again["version"] == 2
    # an unknown name is still a 404
    assert client.get("/api/collision/cards/Nobody").status_code == 404


def test_an_empty_battle_group_says_at_least_1_item_l580_617(client: TestClient) -> None:
    r = client.post(
        "/api/collision/groups/check", json={"name": "G", "points_limit": 500, "characters": []}
    )
    assert r.status_code == 422 and r.json()["field"] == "characters"
    assert r.json()["detail"].endswith("allowed: at least 1 item"), r.json()


def test_the_tables_give_the_models_default_reach_l326_329(client: TestClient) -> None:
    tables = client.get("/api/collision/tables").json()
    assert tables["weapon_reach_default"] == str(Weapon.model_fields["reach"].default)
