"""WarEngine 2.1 forces stored in the database like rosters (issue 13): the storage module
(``storage/warengine_forces.py``, migration 0004a) and the API's CRUD with version checks."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from warbench.kernel.errors import ChangedElsewhereError, StorageError, UnknownNameError
from warbench.rulesets.warengine.costs import force_cost
from warbench.rulesets.warengine.io import parse_force, to_data
from warbench.storage.store import Store
from warbench.storage.warengine_forces import ForceStore


@pytest.fixture
def example(client: TestClient) -> dict[str, Any]:
    data: dict[str, Any] = client.get("/api/warengine/example").json()
    return data


@pytest.fixture
def forces(tmp_path: Path) -> ForceStore:
    return ForceStore(Store.open(f"sqlite:///{tmp_path / 'forces.db'}"))


# ---------------------------------------------------------------------------------- storage


def test_a_stored_force_round_trips_exactly_l965_997(
    forces: ForceStore, example: dict[str, Any]
) -> None:
    force = parse_force(example)
    assert forces.save_force(force, replace=False) == 1
    back = forces.force("stormreavers")  # any case
    assert to_data(back) == to_data(force)
    assert force_cost(back) == force_cost(force)
    [summary] = forces.forces()
    assert (summary.name, summary.figures, summary.version) == (force.name, len(force.figures), 1)
    assert (summary.renown, summary.force) == (force.renown, force.force)


def test_saving_over_a_version_changed_elsewhere_is_refused(
    forces: ForceStore, example: dict[str, Any]
) -> None:
    force = parse_force(example)
    forces.save_force(force)
    smaller = force.model_copy(update={"force": 400})
    assert forces.save_force(smaller, expected_version=1) == 2
    with pytest.raises(ChangedElsewhereError, match="version 1 but it is now at version 2"):
        forces.save_force(force, expected_version=1)
    assert forces.force(force.name).force == 400  # the refused save changed nothing


def test_a_name_is_taken_once_ignoring_case(forces: ForceStore, example: dict[str, Any]) -> None:
    force = parse_force(example)
    forces.save_force(force)
    shouting = force.model_copy(update={"name": force.name.upper()})
    with pytest.raises(StorageError, match="already exists"):
        forces.save_force(shouting, replace=False)
    other = force.model_copy(update={"name": "Second"})
    forces.save_force(other)
    with pytest.raises(StorageError, match="already exists"):  # renaming onto another force
        forces.save_force(other.model_copy(update={"name": force.name}), name="Second")
    assert [f.name for f in forces.forces()] == ["Second", force.name]


def test_rename_keeps_one_row_and_counts_the_save(
    forces: ForceStore, example: dict[str, Any]
) -> None:
    force = parse_force(example)
    forces.save_force(force)
    renamed = force.model_copy(update={"name": "Reavers II"})
    assert forces.save_force(renamed, name=force.name, expected_version=1) == 2
    assert [f.name for f in forces.forces()] == ["Reavers II"]
    with pytest.raises(UnknownNameError):
        forces.force(force.name)


def test_delete_checks_the_version(forces: ForceStore, example: dict[str, Any]) -> None:
    force = parse_force(example)
    forces.save_force(force)
    forces.save_force(force)
    with pytest.raises(ChangedElsewhereError):
        forces.delete_force(force.name, expected_version=1)
    forces.delete_force(force.name, expected_version=2)
    assert forces.forces() == []
    with pytest.raises(UnknownNameError):
        forces.delete_force(force.name)


# -------------------------------------------------------------------------------------- API


def test_api_crud_with_version_checks(client: TestClient, example: dict[str, Any]) -> None:
    assert client.get("/api/warengine/forces").json() == []
    r = client.post("/api/warengine/forces", json={"force": example})
    assert r.status_code == 201, r.text
    saved = r.json()
    assert saved["version"] == 1 and saved["name"] == example["name"]
    assert saved["cost"] == client.post("/api/warengine/forces/cost", json=example).json()["cost"]
    assert client.post("/api/warengine/forces", json={"force": example}).status_code == 409

    url = f"/api/warengine/forces/{example['name']}"
    got = client.get(url.lower()).json()
    assert got["force"] == saved["force"] and got["version"] == 1

    changed = copy.deepcopy(example)
    changed["force"] = 300
    r = client.put(url, params={"version": 1}, json={"force": changed})
    assert r.status_code == 200, r.text
    assert r.json()["version"] == 2
    stale = client.put(url, params={"version": 1}, json={"force": example})
    assert stale.status_code == 409 and "changed elsewhere" in stale.json()["detail"]
    assert client.get(url).json()["force"]["force"] == 300

    [row] = client.get("/api/warengine/forces").json()
    assert (row["name"], row["version"], row["figures"]) == (
        example["name"],
        2,
        len(example["figures"]),
    )
    assert client.delete(url, params={"version": 1}).status_code == 409
    assert client.delete(url, params={"version": 2}).status_code == 204
    assert client.get(url).status_code == 404


def test_api_stores_a_force_over_its_limits_with_its_violations(
    client: TestClient, example: dict[str, Any]
) -> None:
    over = copy.deepcopy(example)
    over["force"] = 10
    r = client.post("/api/warengine/forces", json={"force": over})
    assert r.status_code == 201
    assert r.json()["violations"], "a force over its Points of Force is stored, with violations"


def test_api_bad_forces_are_4xx_naming_the_field(
    client: TestClient, example: dict[str, Any]
) -> None:
    bad = copy.deepcopy(example)
    bad["renown"] = -1
    r = client.post("/api/warengine/forces", json={"force": bad})
    assert r.status_code == 422 and "renown" in (r.json()["field"] or r.json()["detail"])
    paths = copy.deepcopy(example)
    paths["figures"] = {k: "/etc/passwd" for k in paths["figures"]}
    r = client.post("/api/warengine/forces", json={"force": paths})
    assert r.status_code == 422 and "inline" in r.json()["detail"]
    r = client.put("/api/warengine/forces/Nope", json={"force": example})
    assert r.status_code == 422 and "Nope" in r.json()["detail"]
    assert client.delete("/api/warengine/forces/Nope").status_code == 404
    r = client.put("/api/warengine/forces/Nope", params={"version": 3}, json={"force": example})
    assert r.status_code == 409
