"""The Store: migrations on open, exact round trips, one transaction per write."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.warsurge.roster.fakes import entry, gun, roster, unit
from warbench.kernel.errors import UnknownNameError
from warbench.rulesets.warsurge.roster import RosterPerk
from warbench.storage import DB_ENV, StorageError, Store, database_url
from warbench.storage.models import Base


@pytest.fixture
def store(tmp_path: Path) -> Store:
    s = Store.open(f"sqlite:///{tmp_path / 'sub' / 'wb.db'}")
    yield s
    s.close()


def _roster():  # type: ignore[no-untyped-def]
    return roster(
        entry("APC", models=1, transport=300, hp=10),
        entry("Troopers", models=10, traits=["Respawn"], embarked_in="APC"),
        entry("Herald", models=1, perks=["Presence", "Form I"], link="h", hp=9),
        roster_perks=[RosterPerk(perk="Inspiring", unit="Herald")],
        points_model="fake-1",
    )


def test_a_fresh_database_is_migrated_to_head(store: Store) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    import warbench.storage.games  # noqa: F401  (issue 14's tables, in their own module)

    with store.engine.connect() as conn:
        ctx = MigrationContext.configure(conn)
        from alembic.config import Config
        from alembic.script import ScriptDirectory

        from warbench.storage import sim_models  # noqa: F401  (its tables are in Base)
        from warbench.storage.store import MIGRATIONS

        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        assert ctx.get_current_revision() == ScriptDirectory.from_config(cfg).get_current_head()
        assert compare_metadata(ctx, Base.metadata) == []  # models and migrations agree


def test_reopening_keeps_the_data(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'wb.db'}"
    Store.open(url).save_roster(_roster())
    assert Store.open(url).roster("test") == _roster()


def test_roster_round_trips_exactly(store: Store) -> None:
    store.save_roster(_roster())
    assert store.roster("Test") == _roster()
    smaller = _roster().without_entry("Herald")
    store.save_roster(smaller)
    assert store.roster("Test") == smaller
    assert [(r.name, r.units) for r in store.rosters()] == [("Test", 2)]


def test_a_failure_mid_write_leaves_nothing_half_written(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.save_roster(_roster())
    calls = {"n": 0}
    real = Store._entry_row

    def failing(position, e):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == 2:
            raise RuntimeError("disk on fire")
        return real(position, e)

    monkeypatch.setattr(Store, "_entry_row", staticmethod(failing))
    changed = _roster().model_copy(update={"point_limit": 5})
    with pytest.raises(RuntimeError):
        store.save_roster(changed)
    assert store.roster("Test") == _roster()  # the old roster, whole
    calls["n"] = 0
    other = _roster().model_copy(update={"name": "Other"})
    with pytest.raises(RuntimeError):
        store.save_roster(other)
    assert [r.name for r in store.rosters()] == ["Test"]  # no half-written new roster


def test_factions_and_armoury(store: Store) -> None:
    store.create_faction("Imperium")
    store.add_units("Imperium", [unit("Troopers", models=10), unit("Tank")])
    with pytest.raises(StorageError, match="already has a unit called 'tank'"):
        store.add_units("Imperium", [unit("Scout"), unit("tank")])
    assert [f.units for f in store.factions()] == [("Tank", "Troopers")]  # Scout not added
    assert store.find_unit("troopers") == unit("Troopers", models=10)
    store.remove_unit("Imperium", "Tank")
    with pytest.raises(UnknownNameError, match="did you mean 'Troopers'"):
        store.find_unit("Troopes")
    with pytest.raises(StorageError, match="already exists"):
        store.create_faction("Imperium")
    store.add_weapons([gun("Laser Rifle"), gun("Plasma", power=7)])
    assert [w.name for w in store.weapons()] == ["Laser Rifle", "Plasma"]
    assert store.weapon("plasma").power == 7
    store.remove_weapon("Plasma")
    with pytest.raises(UnknownNameError):
        store.weapon("Plasma")


def test_saved_games(store: Store) -> None:
    gid = store.save_game('{"seed": 1}\n', name="first")
    store.save_game('{"seed": 1}\n{"action": "move"}\n', game_id=gid)
    assert store.game(gid).count("\n") == 2


def test_database_url_precedence(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DB_ENV, "sqlite:///env.db")
    assert database_url("sqlite:///arg.db") == "sqlite:///arg.db"
    assert database_url() == "sqlite:///env.db"
    monkeypatch.delenv(DB_ENV)
    assert database_url().endswith(f"{os.sep}warbench.db") and database_url().startswith("sqlite")


def test_bad_url_is_one_clear_error() -> None:
    with pytest.raises(StorageError, match="nonsense://: cannot open the database"):
        Store.open("nonsense://")


def test_round_trip_on_every_backend(any_url: str) -> None:
    s = Store.open(any_url)
    s.save_roster(_roster())
    assert s.roster("Test") == _roster()
    assert s.versioned_roster("Test").version == 1
    s.delete_roster("Test")
    s.close()


def test_the_lock_timeout_comes_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path / 'wb.db'}"
    monkeypatch.setenv("WARBENCH_DB_TIMEOUT", "0.25")
    assert Store.open(url).timeout == 0.25
    assert Store.open(url, timeout=3).timeout == 3
    for bad in ("soon", "0", "-1"):
        monkeypatch.setenv("WARBENCH_DB_TIMEOUT", bad)
        with pytest.raises(StorageError, match=r"\$WARBENCH_DB_TIMEOUT = .* seconds"):
            Store.open(url)
