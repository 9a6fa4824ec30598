"""Opening a database fast (issue 13, cold start): at the head without Alembic; a fresh one
by ``create_all`` + stamp, which must give exactly the schema the migrations give."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, inspect

from warbench.storage import Store
from warbench.storage.store import HEAD_REVISION, MIGRATIONS


def _migrated_by_alembic(url: str) -> Engine:
    """Every migration run in order on an empty database (the path before this change)."""
    from alembic import command
    from alembic.config import Config

    engine = create_engine(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
    return engine


def _schema(engine: Engine) -> dict[str, Any]:
    """Tables, columns (type, nullability, default), keys, indexes and unique constraints.

    Columns are compared by name: a migration that adds a column puts it last, ``create_all``
    where the model declares it; nothing in warbench reads columns by position."""
    insp = inspect(engine)
    out: dict[str, Any] = {}
    for table in sorted(insp.get_table_names()):
        out[table] = {
            "columns": sorted(
                (c["name"], str(c["type"]), c["nullable"], c.get("default"))
                for c in insp.get_columns(table)
            ),
            "pk": insp.get_pk_constraint(table)["constrained_columns"],
            "fks": sorted(
                (
                    tuple(fk["constrained_columns"]),
                    fk["referred_table"],
                    tuple(fk["referred_columns"]),
                    str(fk.get("options", {})),
                )
                for fk in insp.get_foreign_keys(table)
            ),
            "indexes": sorted(
                (i["name"], tuple(i["column_names"]), bool(i["unique"]))
                for i in insp.get_indexes(table)
            ),
            "unique": sorted(tuple(u["column_names"]) for u in insp.get_unique_constraints(table)),
        }
    return out


def test_head_revision_is_the_migrations_head() -> None:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    assert ScriptDirectory.from_config(cfg).get_current_head() == HEAD_REVISION


def test_a_fresh_database_gets_the_schema_the_migrations_give(tmp_path: Path) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    import warbench.storage.games  # noqa: F401  (its tables are on the same metadata)
    from warbench.storage.models import Base

    migrated = _migrated_by_alembic(f"sqlite:///{tmp_path / 'migrated.db'}")
    created = Store.open(f"sqlite:///{tmp_path / 'created.db'}").engine
    assert _schema(created) == _schema(migrated)
    with migrated.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
    for engine in (created, migrated):
        with engine.connect() as conn:
            assert MigrationContext.configure(conn).get_current_revision() == HEAD_REVISION


def test_an_older_database_is_still_upgraded_by_alembic(tmp_path: Path) -> None:
    from alembic import command
    from alembic.config import Config
    from alembic.runtime.migration import MigrationContext

    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = create_engine(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0002")
    assert "play_games" not in inspect(engine).get_table_names()
    store = Store.open(url)
    assert "play_games" in inspect(store.engine).get_table_names()
    with store.engine.connect() as conn:
        assert MigrationContext.configure(conn).get_current_revision() == HEAD_REVISION


_PROBE = """
import sys
from warbench.storage import Store
Store.open(sys.argv[1]).rosters()
print(",".join(sorted(m for m in sys.modules if m.split(".")[0] == "alembic")))
"""


def test_a_database_at_the_head_opens_without_importing_alembic(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'wb.db'}"
    Store.open(url).close()
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE, url], capture_output=True, text=True, check=True
    )
    assert proc.stdout.strip() == ""


def test_sqlite_files_use_wal_with_synchronous_normal(tmp_path: Path) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 'wb.db'}")
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL
