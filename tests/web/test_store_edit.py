"""``Store.edit_roster`` (issue 13, the web's live roster editing): one transaction that writes
only the rows a change touched, and leaves the same roster a full save would."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from warbench.kernel.errors import ChangedElsewhereError, StorageError, UnknownNameError
from warbench.rulesets.warsurge.roster import Roster
from warbench.storage.store import Store

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from bench_roster import roster_30


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store.open(f"sqlite:///{tmp_path / 'edit.db'}")
    s.save_roster(roster_30())
    yield s
    s.close()


class Statements:
    """The SQL statements a store sends while counting."""

    def __init__(self, store: Store) -> None:
        self.seen: list[str] = []
        event.listen(store.engine, "before_cursor_execute", self._on)

    def _on(self, _conn: Any, _cur: Any, statement: str, *_args: Any) -> None:
        self.seen.append(statement.split()[0].upper())

    def count(self, verb: str) -> int:
        return sum(1 for s in self.seen if s == verb)


def _range_changed(r: Roster, index: int, value: int) -> Roster:
    e = r.units[index]
    rifle = e.unit.weapons[0].model_copy(update={"range": value})
    unit = e.unit.model_copy(update={"weapons": [rifle, *e.unit.weapons[1:]]})
    return r.with_entry(e.model_copy(update={"unit": unit}))


def test_one_changed_entry_is_one_entry_update(store: Store) -> None:
    sql = Statements(store)
    saved = store.edit_roster("Thirty", lambda r: _range_changed(r, 7, 33))
    # the roster row (version) and the one entry row: two UPDATEs, no DELETE, no INSERT
    assert sql.count("UPDATE") == 2
    assert sql.count("DELETE") == 0 and sql.count("INSERT") == 0
    assert saved.version == 2
    assert store.roster("Thirty") == saved.value
    assert store.roster("Thirty").units[7].unit.weapons[0].range == 33


def test_a_full_save_rewrites_every_entry_for_comparison(store: Store) -> None:
    sql = Statements(store)
    store.save_roster(_range_changed(store.roster("Thirty"), 7, 33), create=False)
    assert sql.count("INSERT") >= 1 and sql.count("DELETE") >= 1


def test_the_result_is_what_a_full_save_leaves(store: Store, tmp_path: Path) -> None:
    def change(r: Roster) -> Roster:
        r = _range_changed(r, 3, 40).without_entry("Unit 5").copy_entry("Unit 1")
        return r.model_copy(update={"point_limit": 12345, "notes": "edited"})

    edited = store.edit_roster("Thirty", change).value
    other = Store.open(f"sqlite:///{tmp_path / 'full.db'}")
    other.save_roster(change(roster_30()))
    assert store.roster("Thirty") == other.roster("Thirty") == edited
    other.close()


def test_entries_removed_from_the_end_and_added(store: Store) -> None:
    short = store.edit_roster("Thirty", lambda r: r.model_copy(update={"units": r.units[:3]}))
    assert [e.name for e in store.roster("Thirty").units] == [e.name for e in short.value.units]
    longer = store.edit_roster("Thirty", lambda r: r.copy_entry("Unit 0"))
    assert len(store.roster("Thirty").units) == 4 == len(longer.value.units)


def test_expected_version_refuses_an_edit_on_a_changed_roster(store: Store) -> None:
    store.edit_roster("Thirty", lambda r: r.model_copy(update={"notes": "a"}))
    with pytest.raises(ChangedElsewhereError):
        store.edit_roster("Thirty", lambda r: r, expected_version=1)
    assert store.edit_roster("Thirty", lambda r: r, expected_version=2).version == 3


def test_an_edit_cannot_rename_and_a_failure_changes_nothing(store: Store) -> None:
    before = store.versioned_roster("Thirty")
    with pytest.raises(StorageError, match="cannot rename"):
        store.edit_roster("Thirty", lambda r: r.model_copy(update={"name": "Other"}))

    def half_then_fail(r: Roster) -> Roster:
        raise UnknownNameError("roster entry", "Nope", [e.name for e in r.units])

    with pytest.raises(UnknownNameError):
        store.edit_roster("Thirty", half_then_fail)
    assert store.versioned_roster("Thirty") == before


def test_unknown_roster(store: Store) -> None:
    with pytest.raises(UnknownNameError):
        store.edit_roster("Nope", lambda r: r)
