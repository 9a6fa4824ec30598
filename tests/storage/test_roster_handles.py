"""Rosters addressed by ``#ID``; a roster with a blank name, saved by an older version (before
names were checked, issue 18), can still be listed, renamed and deleted (issue 18 follow-up)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from tests.cli.test_roster_cli import run
from tests.warsurge.roster.fakes import entry, roster
from warbench.kernel.errors import UnknownNameError
from warbench.rulesets.warsurge.roster import Roster
from warbench.storage import Store


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'wb.db'}"


@pytest.fixture
def store(url: str) -> Iterator[Store]:
    s = Store.open(url)
    yield s
    s.close()


def blank_roster(store: Store) -> int:
    """A roster row named '' as an older warbench wrote it; returns its id."""
    store.save_roster(roster(entry("Troopers", models=5)).model_copy(update={"name": "Old"}))
    with store.engine.begin() as conn:
        conn.execute(sa.text("UPDATE rosters SET name = '' WHERE name = 'Old'"))
        rid: int = conn.execute(sa.text("SELECT id FROM rosters WHERE name = ''")).scalar_one()
    return rid


def test_the_blank_roster_cannot_be_built_but_has_a_handle(store: Store) -> None:
    rid = blank_roster(store)
    with pytest.raises(Exception, match="at least 1 character"):
        store.roster("")  # this version refuses a blank Roster.name
    (summary,) = store.rosters()
    assert (summary.id, summary.handle, summary.units) == (rid, f"#{rid}", 1)
    assert store.roster_summary(f"#{rid}") == summary


def test_an_unknown_roster_lists_the_blank_one_by_its_handle(store: Store) -> None:
    rid = blank_roster(store)
    with pytest.raises(UnknownNameError, match=f"'#{rid}'"):
        store.roster_summary("Nope")


def test_a_roster_named_like_a_handle_wins_over_the_id(store: Store) -> None:
    rid = blank_roster(store)
    store.save_roster(roster().model_copy(update={"name": f"#{rid}"}))
    assert store.roster(f"#{rid}").name == f"#{rid}"


def test_cli_lists_and_deletes_the_blank_roster_by_id(
    capsys: pytest.CaptureFixture[str], store: Store, url: str
) -> None:
    rid = blank_roster(store)
    store.save_roster(roster().model_copy(update={"name": "Keep"}))
    code, out, err = run(capsys, "roster", "list", "--db", url)
    assert code == 0, err
    assert f"#{rid} (no name; rename or delete it by #{rid})  1 units" in out
    code, out, err = run(capsys, "roster", "delete", f"#{rid}", "--yes", "--db", url)
    assert code == 0, err
    assert f"deleted roster '#{rid}'" in out
    assert [r.name for r in store.rosters()] == ["Keep"]


def test_cli_deletes_the_blank_roster_by_its_blank_name(
    capsys: pytest.CaptureFixture[str], store: Store, url: str
) -> None:
    blank_roster(store)
    code, _, err = run(capsys, "roster", "delete", "", "--yes", "--db", url)
    assert code == 0, err
    assert store.rosters() == []


# -- rename: one store operation, one transaction ---------------------------------------------


def _named(name: str) -> Roster:
    return roster(
        entry("APC", models=1, transport=300, hp=10), entry("Troopers", models=10)
    ).model_copy(update={"name": name})


def test_rename_keeps_everything_but_the_name(store: Store) -> None:
    before = _named("Test")
    store.save_roster(before)
    version = store.rename_roster("test", "Strike Force", expected_version=1)
    assert version == 2
    assert [r.name for r in store.rosters()] == ["Strike Force"]
    assert store.roster("Strike Force") == before.model_copy(update={"name": "Strike Force"})


def test_rename_case_only_and_refusing_a_taken_name(store: Store) -> None:
    store.save_roster(_named("Test"))
    store.save_roster(_named("Test").model_copy(update={"name": "Other"}))
    store.rename_roster("Test", "TEST")
    assert sorted(r.name for r in store.rosters()) == ["Other", "TEST"]
    from warbench.storage import StorageError

    with pytest.raises(StorageError, match="a roster called 'Other' already exists"):
        store.rename_roster("TEST", "other")
    with pytest.raises(StorageError, match="allowed: 1 to 120 characters"):
        store.rename_roster("TEST", "  ")


def test_rename_over_a_change_made_elsewhere_is_refused(store: Store) -> None:
    from warbench.storage import ChangedElsewhereError

    store.save_roster(_named("Test"))
    store.save_roster(_named("Test"))  # version 2
    with pytest.raises(ChangedElsewhereError):
        store.rename_roster("Test", "New", expected_version=1)
    assert [r.name for r in store.rosters()] == ["Test"]


def test_a_failure_inside_the_rename_loses_nothing(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The failure comes after the new name is written, at the commit: the transaction rolls
    back and the roster is still there, whole, under its old name (the old two-step rename
    wrote the new roster in one transaction and deleted the old one in another)."""
    from sqlalchemy import event
    from sqlalchemy.orm import Session

    before = _named("Test")
    store.save_roster(before)

    def disk_on_fire(session: Session) -> None:
        raise RuntimeError("disk on fire")

    event.listen(Session, "before_commit", disk_on_fire)
    try:
        with pytest.raises(RuntimeError, match="disk on fire"):
            store.rename_roster("Test", "Strike Force")
    finally:
        event.remove(Session, "before_commit", disk_on_fire)
    assert [(r.name, r.units, r.version) for r in store.rosters()] == [("Test", 2, 1)]
    assert store.roster("Test") == before


def test_the_cli_rename_is_one_store_operation(
    capsys: pytest.CaptureFixture[str], store: Store, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.save_roster(_named("Test"))
    calls: list[str] = []
    for method in ("save_roster", "delete_roster", "rename_roster"):
        real = getattr(Store, method)

        def spy(self: Store, *a: object, _real=real, _m=method, **k: object) -> object:  # type: ignore[no-untyped-def]
            calls.append(_m)
            return _real(self, *a, **k)

        monkeypatch.setattr(Store, method, spy)
    code, out, err = run(capsys, "roster", "rename", "Test", "Strike Force", "--db", url)
    assert code == 0, err
    assert calls == ["rename_roster"]
    assert "renamed roster 'Test' to 'Strike Force'" in out


def test_the_blank_roster_can_be_renamed_by_id(
    capsys: pytest.CaptureFixture[str], store: Store, url: str
) -> None:
    rid = blank_roster(store)
    code, _, err = run(capsys, "roster", "rename", f"#{rid}", "Recovered", "--db", url)
    assert code == 0, err
    assert [e.name for e in store.roster("Recovered").units] == ["Troopers"]


def test_rename_and_delete_by_id_on_every_backend(any_url: str) -> None:
    """The same on PostgreSQL (both names locked in one order) when a server is given."""
    store = Store.open(any_url)
    try:
        store.save_roster(_named("Test"))
        store.save_roster(_named("Other"))
        store.rename_roster("test", "Renamed", expected_version=1)
        assert sorted(r.name for r in store.rosters()) == ["Other", "Renamed"]
        other = store.roster_summary("Other")
        store.delete_roster(f"#{other.id}", expected_version=other.version)
        assert [r.name for r in store.rosters()] == ["Renamed"]
    finally:
        store.close()
