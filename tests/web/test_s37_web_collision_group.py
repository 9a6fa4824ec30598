"""A stored battle group holding a card that no longer reads (issue 10, session 37, s37-web).

Session 36 opened a single stored card that no longer reads (a glossary entry renamed since it
was saved) as a draft with its problems; a battle group holding such a card still failed on GET
(a 404, the reader's unknown ability taken for an unknown group), so it could not be opened
to be fixed. It now comes back as its stored data (``draft``)
with every limit its cards break, card by card (``card_problems``), and the group check lists
them all instead of the reader's first one.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from warbench.rulesets.collision.io import member_card_problems
from warbench.storage.collision_documents import CollisionDocumentRow
from warbench.storage.store import Store

BOOK = "003_fc239e71486306e1.txt"


@pytest.fixture
def scouts(client: TestClient) -> dict[str, Any]:
    """The example battle group (Virgil, 4 Skeleton Archers, Halai), cards inline."""
    return copy.deepcopy(client.get("/api/collision/examples").json()["groups"][0])


def rename_in_stored_group(db_url: str, group: str, old: str, new: str) -> None:
    """The stored group ``group`` as if saved before the glossary entry ``old`` was renamed:
    each card's ability ``old`` written as ``new`` straight into the database."""
    store = Store.open(db_url)

    def work(s: Any) -> None:
        q = select(CollisionDocumentRow).where(
            CollisionDocumentRow.kind == "group", CollisionDocumentRow.name == group
        )
        row = s.scalars(q).one()
        doc = copy.deepcopy(row.document)
        for m in doc["characters"]:
            abilities = m["card"].get("abilities", [])
            m["card"]["abilities"] = [new if a == old else a for a in abilities]
        row.document = doc

    store._run("a group stored before a rename", work, write=True)


def test_member_card_problems_lists_every_card_that_does_not_read_l872_899(
    scouts: dict[str, Any],
) -> None:
    assert member_card_problems(scouts) == []
    scouts["characters"][0]["card"]["abilities"][0] = "Static Jolt II"
    scouts["characters"][2]["card"]["stats"]["end"] = 12
    problems = member_card_problems(scouts)
    assert [(p.member, p.card, p.problem.field) for p in problems] == [
        (0, "Virgil", "characters[0].card.abilities"),
        (2, "Halai", "characters[2].card.stats.end"),
    ]
    virgil, halai = (p.problem for p in problems)
    assert "unknown Collision ability 'Static Jolt II'" in virgil.message
    assert "Virgil (characters[0])" in virgil.message
    assert virgil.rule.startswith(f"{BOOK} L872-899")
    assert "stats.end = 12" in halai.message and halai.rule == f"{BOOK} L298-302"


def test_a_stored_group_whose_card_no_longer_reads_opens_as_a_draft_l872_899(
    client: TestClient, db_url: str, scouts: dict[str, Any]
) -> None:
    assert client.post("/api/collision/groups", json={"group": scouts}).status_code == 201
    rename_in_stored_group(db_url, "Deadholm scouts", "Snipe", "Snipe II")
    r = client.get("/api/collision/groups/deadholm scouts")
    assert r.status_code == 200, (
        r.text
    )  # it was a 404 (the unknown ability as if the group were unknown)
    got = r.json()
    assert got["valid"] is False and got["report"] is None and got["html"] is None
    assert (got["name"], got["version"]) == ("Deadholm scouts", 1)
    assert got["draft"] == got["group"]
    assert got["draft"]["characters"][1]["card"]["abilities"] == ["Snipe II"]
    [problem] = got["card_problems"]
    assert (problem["member"], problem["card"]) == (1, "Skeleton Archer")
    assert problem["field"] == "characters[1].card.abilities"
    assert "unknown Collision ability 'Snipe II'" in problem["message"]
    assert problem["rule"].startswith(f"{BOOK} L872-899")
    assert "Snipe II" in got["yaml"]
    # the page checks the draft as it opens it: the same list, not a 422 of the first card
    check = client.post("/api/collision/groups/check", json=got["draft"])
    assert check.status_code == 200, check.text
    assert check.json()["card_problems"] == got["card_problems"]
    # a group whose cards do not read is not stored
    again = client.put("/api/collision/groups/Deadholm scouts", json={"group": got["draft"]})
    assert again.status_code == 422
    # fixed (the card edited in the designer and put back) and saved over its version
    fixed = copy.deepcopy(got["draft"])
    fixed["characters"][1]["card"]["abilities"] = ["Snipe"]
    r = client.put(
        "/api/collision/groups/Deadholm scouts", params={"version": 1}, json={"group": fixed}
    )
    assert r.status_code == 200, r.text
    opened = client.get("/api/collision/groups/Deadholm scouts").json()
    assert opened["valid"] is True and opened["draft"] is None and opened["version"] == 2
    assert opened["card_problems"] == [] and opened["report"]["points"] == 430
    assert client.get("/api/collision/groups/Nobody").status_code == 404


def test_the_group_check_still_refuses_a_group_that_is_not_one(
    client: TestClient, scouts: dict[str, Any]
) -> None:
    # the group's own fields stay a 422 naming the field (only its cards are listed)
    scouts["characters"][0]["count"] = 0
    r = client.post("/api/collision/groups/check", json=scouts)
    assert r.status_code == 422 and r.json()["field"].startswith("characters[0].count")
    paths = {"name": "G", "points_limit": 500, "characters": [{"card": "/etc/passwd"}]}
    r = client.post("/api/collision/groups/check", json=paths)
    assert r.status_code == 422 and "inline" in r.json()["detail"]
