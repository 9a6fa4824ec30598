"""Database URLs for the storage tests: a SQLite file always, PostgreSQL when
``WARBENCH_TEST_POSTGRES_URL`` names a server (each test gets a fresh database there)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

POSTGRES = os.environ.get("WARBENCH_TEST_POSTGRES_URL") or os.environ.get("WARBENCH_TEST_PG")


@pytest.fixture(params=["sqlite", "postgresql"])
def any_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A URL of an empty database: SQLite, then PostgreSQL (skipped without a server)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'wb.db'}"
        return
    if not POSTGRES:
        pytest.skip("set WARBENCH_TEST_POSTGRES_URL to a PostgreSQL URL (needs CREATEDB)")
    from sqlalchemy import create_engine
    from sqlalchemy.engine import make_url

    name = f"warbench_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    try:
        yield make_url(POSTGRES).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()
