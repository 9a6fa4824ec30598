"""Two writers, or a writer and a reader, of one roster or game: serialised, never torn (issue 19).

Each race is made deterministic: a hook pauses one side at the worst moment (just before its
first write statement, or between a reader's two queries) while the other side runs to the end.
Before issue 19 the paused writer deleted only the entries it had seen and the roster ended up
with entries of two versions; the paused reader mixed two versions; two creators of one name
got an ``IntegrityError`` traceback.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from tests.warsurge.roster.fakes import entry, gun, roster, unit
from warbench.kernel.errors import UnknownNameError
from warbench.rulesets.warsurge.roster import Roster
from warbench.storage import ChangedElsewhereError, StorageError, Store

WRITES = ("INSERT", "UPDATE", "DELETE")
WAIT = 1.0  # how long a paused side waits for the other one (the fixed store blocks the other)


@pytest.fixture
def url(any_url: str) -> str:
    return any_url


@pytest.fixture
def store(url: str) -> Iterator[Store]:
    s = Store.open(url)
    yield s
    s.close()


def version(tag: str, n: int) -> Roster:
    """A roster whose every part carries ``tag``: a torn read shows two tags."""
    return roster(*(entry(f"{tag}-{i}") for i in range(n)), notes=tag)


def tags(r: Roster) -> set[str]:
    return {r.notes} | {e.name.split("-")[0] for e in r.units}


class Pause:
    """Pause the thread ``who`` at the first statement ``when`` accepts until ``go`` is set."""

    def __init__(self, store: Store, when: Callable[[str], bool], *, after: bool = False) -> None:
        self.who: threading.Thread | None = None
        self.reached = threading.Event()
        self.go = threading.Event()
        self.when = when
        self.engine = store.engine
        self.name = "after_cursor_execute" if after else "before_cursor_execute"
        event.listen(self.engine, self.name, self._hook)

    def _hook(self, _conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        mine = threading.current_thread() is self.who and not self.reached.is_set()
        if mine and self.when(statement.lstrip().upper()):
            self.reached.set()
            self.go.wait(WAIT)

    def remove(self) -> None:
        event.remove(self.engine, self.name, self._hook)


def race(
    pause: Pause, first: Callable[[], object], second: Callable[[], object]
) -> list[BaseException | object]:
    """Run ``first`` until the pause, then ``second`` to the end, then let ``first`` finish."""
    results: list[BaseException | object] = [None, None]

    def run(i: int, fn: Callable[[], object]) -> None:
        try:
            results[i] = fn()
        except BaseException as exc:  # the test inspects it
            results[i] = exc

    a = threading.Thread(target=run, args=(0, first))
    pause.who = a
    a.start()
    assert pause.reached.wait(10), "the first side never reached the pause"
    b = threading.Thread(target=run, args=(1, second))
    b.start()
    b.join(WAIT)  # the fixed store makes b wait for a's lock: a then resumes after WAIT
    pause.go.set()
    a.join(30)
    b.join(30)
    pause.remove()
    return results


def test_two_saves_of_one_roster_never_mix_their_entries(store: Store) -> None:
    store.save_roster(version("old", 3))
    pause = Pause(store, lambda sql: sql.startswith(WRITES))
    results = race(
        pause,
        lambda: store.save_roster(version("a", 2)),
        lambda: store.save_roster(version("b", 4)),
    )
    assert not [r for r in results if isinstance(r, BaseException)], results
    final = store.roster("Test")
    assert len(tags(final)) == 1, f"torn roster: {[e.name for e in final.units]}"
    assert final in (version("a", 2), version("b", 4))


def test_a_reader_never_sees_half_a_save(store: Store) -> None:
    store.save_roster(version("old", 3))
    pause = Pause(store, lambda sql: sql.startswith("SELECT") and "ROSTERS" in sql, after=True)
    results = race(pause, lambda: store.roster("Test"), lambda: store.save_roster(version("b", 4)))
    read = results[0]
    assert isinstance(read, Roster), read
    assert len(tags(read)) == 1, f"torn read: notes {read.notes}, {[e.name for e in read.units]}"
    assert read in (version("old", 3), version("b", 4))
    assert store.roster("Test") == version("b", 4)


CREATES: dict[str, tuple[Callable[[Store], object], str]] = {
    "roster": (lambda s: s.save_roster(version("a", 1), replace=False), "a roster called 'Test'"),
    "faction": (lambda s: s.create_faction("Imperium"), "a faction called 'Imperium'"),
    "weapon": (lambda s: s.add_weapons([gun("Laser")]), "a weapon called 'Laser'"),
    "unit": (lambda s: s.add_units("Imperium", [unit("Tank")]), "a unit called 'Tank'"),
}


@pytest.mark.parametrize("kind", CREATES)
def test_two_creators_of_one_name_get_one_clear_error(store: Store, kind: str) -> None:
    if kind == "unit":
        store.create_faction("Imperium")
    create, message = CREATES[kind]
    pause = Pause(store, lambda sql: sql.startswith("INSERT"))
    results = race(pause, lambda: create(store), lambda: create(store))
    errors = [r for r in results if isinstance(r, BaseException)]
    assert len(errors) == 1, results  # one creates it, the other is told
    assert isinstance(errors[0], StorageError), repr(errors[0])
    assert message in str(errors[0]) and "\n" not in str(errors[0])


def hold_write_lock(url: str) -> Callable[[], None]:
    """Another process's view: hold the write lock until the returned function is called.

    SQLite: a plain sqlite3 connection inside ``BEGIN IMMEDIATE``; PostgreSQL: ``LOCK TABLE``
    of every table in ``EXCLUSIVE`` mode (readers pass, writers wait)."""
    if url.startswith("sqlite"):
        conn = sqlite3.connect(
            url.removeprefix("sqlite:///"), isolation_level=None, check_same_thread=False
        )
        conn.execute("BEGIN IMMEDIATE")

        def release() -> None:
            conn.rollback()
            conn.close()

        return release
    from sqlalchemy import create_engine

    engine = create_engine(url)
    pg = engine.connect()
    transaction = pg.begin()
    pg.exec_driver_sql(
        "LOCK TABLE rosters, roster_entries, saved_games, factions, armoury_weapons "
        "IN EXCLUSIVE MODE"
    )

    def release_pg() -> None:
        transaction.rollback()
        pg.close()
        engine.dispose()

    return release_pg


OPERATIONS: dict[str, tuple[Callable[[Store], object], str]] = {
    "save roster": (lambda s: s.save_roster(version("a", 1)), "roster 'Test'"),
    "update roster": (lambda s: s.update_roster("Test", lambda r: r), "roster 'Test'"),
    "save game": (lambda s: s.save_game("{}\n", game_id=1), "saved game 1"),
    "new faction": (lambda s: s.create_faction("Imperium"), "faction 'Imperium'"),
    "add weapon": (lambda s: s.add_weapons([gun("Laser")]), "the Armoury (adding 'Laser')"),
}


@pytest.mark.parametrize("op", OPERATIONS)
def test_a_held_write_lock_ends_in_one_line_naming_the_thing(url: str, op: str) -> None:
    setup = Store.open(url)
    setup.save_roster(version("old", 1))
    setup.save_game("{}\n")
    setup.close()
    store = Store.open(url, timeout=0.3)
    run, subject = OPERATIONS[op]
    release = hold_write_lock(url)
    try:
        with pytest.raises(StorageError) as caught:
            run(store)
    finally:
        release()
    message = str(caught.value)
    assert message.startswith(f"{subject}: the database stayed busy"), message
    assert "\n" not in message
    run(store)  # the lock is gone: the same operation now succeeds


def test_a_writer_waits_for_a_lock_released_in_time(url: str) -> None:
    store = Store.open(url, timeout=30)
    release = hold_write_lock(url)
    releaser = threading.Timer(0.3, release)
    releaser.start()
    try:
        assert store.save_roster(version("a", 2)) == 1  # waited, then wrote
    finally:
        releaser.join()
    assert store.roster("Test") == version("a", 2)


def test_an_editor_saving_over_a_newer_version_is_told_it_changed_elsewhere(store: Store) -> None:
    assert store.save_roster(version("a", 1)) == 1
    mine = store.versioned_roster("test")
    theirs = store.versioned_roster("Test")
    assert store.save_roster(theirs.value.with_entry(entry("x-0")), expected_version=2 - 1) == 2
    with pytest.raises(
        ChangedElsewhereError,
        match=r"roster 'Test' was changed elsewhere: .*"
        r"version 1 but it is now at version 2; load it again",
    ):
        store.save_roster(mine.value.with_entry(entry("y-0")), expected_version=mine.version)
    assert [e.name for e in store.roster("Test").units] == ["a-0", "x-0"]  # theirs kept
    store.delete_roster("Test")
    with pytest.raises(ChangedElsewhereError, match="it was deleted"):
        store.save_roster(mine.value, expected_version=mine.version)


def test_update_roster_applies_the_change_to_the_newest_version(store: Store) -> None:
    store.save_roster(version("a", 1))
    store.save_roster(version("b", 1))
    saved = store.update_roster("TEST", lambda r: r.with_entry(entry("c-0")))
    assert saved.version == 3
    assert [e.name for e in store.roster("Test").units] == ["b-0", "c-0"]
    with pytest.raises(StorageError, match="cannot rename"):
        store.update_roster("Test", lambda r: r.model_copy(update={"name": "Other"}))
    with pytest.raises(UnknownNameError):
        store.update_roster("Nope", lambda r: r)


def test_saved_games_are_versioned_too(store: Store) -> None:
    gid = store.save_game('{"seed": 1}\n', name="g")
    loaded = store.versioned_game(gid)
    assert loaded.version == 1
    assert store.update_game(gid, lambda rec: rec + '{"action": "a"}\n').version == 2
    with pytest.raises(ChangedElsewhereError, match=f"saved game {gid} was changed elsewhere"):
        store.save_game(loaded.value + '{"action": "b"}\n', game_id=gid, expected_version=1)
    assert store.game(gid) == '{"seed": 1}\n{"action": "a"}\n'


def test_a_database_error_is_one_line_naming_the_roster(store: Store) -> None:
    from sqlalchemy import text

    with store.engine.begin() as conn:  # break the schema under the store's feet
        conn.execute(text("DROP TABLE roster_entries"))
    with pytest.raises(StorageError) as caught:
        store.save_roster(version("a", 1))
    assert str(caught.value).startswith("roster 'Test': ")
    assert "roster_entries" in str(caught.value) and "\n" not in str(caught.value)


def test_two_stores_on_one_engine_share_it(store: Store) -> None:
    second = Store(store.engine)  # the transaction hooks are installed once
    second.save_roster(version("a", 1))
    assert store.roster("Test") == version("a", 1)


KILLED_WRITER = """
import sys, time
from pathlib import Path
from sqlalchemy import event
from tests.storage.test_concurrency import version
from warbench.storage import Store

store = Store.open(sys.argv[1])

def stop(_conn, _cursor, statement, *_args):
    if statement.lstrip().upper().startswith("INSERT INTO ROSTER_ENTRIES"):
        Path(sys.argv[2]).write_text("mid-write")
        time.sleep(600)

event.listen(store.engine, "before_cursor_execute", stop)
store.save_roster(version("new", 5))
"""


def test_a_writer_killed_mid_save_leaves_the_old_roster_whole(url: str, tmp_path: Path) -> None:
    store = Store.open(url)
    store.save_roster(version("old", 3))
    marker = tmp_path / "marker"
    child = subprocess.Popen([sys.executable, "-c", KILLED_WRITER, url, str(marker)])
    try:
        for _ in range(600):  # until the child has deleted the old entries and is inserting
            if marker.exists() or child.poll() is not None:
                break
            time.sleep(0.1)
        assert marker.exists(), "the writer never reached its entries"
        assert store.roster("Test") == version("old", 3)  # a reader meanwhile: the old one
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    assert store.roster("Test") == version("old", 3)  # nothing of the killed save
    assert store.save_roster(version("b", 2)) == 2  # and its lock died with it
    assert store.roster("Test") == version("b", 2)


def test_retry_jitter_draws_from_no_random_source() -> None:
    # Randomness lives only in the seeded dice service; storage retries spread out by a hash.
    import ast
    import inspect

    from warbench.storage import store

    tree = ast.parse(inspect.getsource(store))
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    } | {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert "random" not in imported and "secrets" not in imported
    factors = {store._jitter(a) for a in range(50)}
    assert all(0.5 <= f < 1.5 for f in factors) and len(factors) > 40
