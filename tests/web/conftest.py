"""Fixtures of the web workbench tests: an app over a fresh temporary SQLite database."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

with warnings.catch_warnings():
    # Starlette 1.x asks for httpx2 in its TestClient; httpx 0.28 works the same.
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from warbench.web.app import create_app


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    """A fresh, empty database for one test."""
    return f"sqlite:///{tmp_path / 'web.db'}"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    """A TestClient over the app, empty database."""
    with TestClient(create_app(db_url)) as c:
        yield c
