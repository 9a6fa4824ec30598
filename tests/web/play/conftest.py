"""Fixtures of the play tests: an app over a fresh SQLite file, and games made through it."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from warbench.play.toy import SAMPLE_SETUP
from warbench.web.app import create_app


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    """A fresh database for one test."""
    return f"sqlite:///{tmp_path / 'play.db'}"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    """A TestClient over the app."""
    with TestClient(create_app(db_url)) as c:
        yield c


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    """POST a game (Dice Duel's sample set-up unless given) and return the answer."""
    payload: dict[str, Any] = {"ruleset": "toy-duel", "setup": SAMPLE_SETUP, "seed": 7, **body}
    r = client.post("/api/play/games", json=payload)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def snap(client: TestClient, game: str, token: str | None) -> dict[str, Any]:
    """The game as this token sees it."""
    headers = {"X-Play-Token": token} if token else {}
    r = client.get(f"/api/play/games/{game}", headers=headers)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def act(client: TestClient, game: str, token: str | None, action: Any) -> Any:
    """POST an action with a token (or none); the response."""
    headers = {"X-Play-Token": token} if token else {}
    return client.post(f"/api/play/games/{game}/actions", json={"action": action}, headers=headers)
