"""The :class:`Store`: factions, Armoury, rosters and saved games in one database.

``Store.open(url)`` connects (``url`` > ``$WARBENCH_DB`` > a SQLite file in the user data
directory), brings the schema to the newest Alembic revision, and returns a store in which every
operation is one transaction: it all happens or nothing does.

Concurrency (issue 19). Several threads and processes may use one database at once:

* **Writes are serialised.** On SQLite a write transaction starts with ``BEGIN IMMEDIATE``, so
  it holds the database's write lock from its first read (the rows it reads cannot change under
  it); file databases use the WAL journal so readers and the writer do not block each other
  (with ``synchronous=NORMAL``: no fsync per commit; durable against a killed process, not
  against a power cut, see docs/architecture.md "SQLite durability"). On
  PostgreSQL a write first takes a transaction-scoped advisory lock on what it changes (the
  roster, faction, Armoury or game, by name, so it covers rows that do not exist yet) and runs
  at ``READ COMMITTED`` behind it: writers of one roster queue, writers of different rosters
  run side by side; a serialization failure or deadlock would be re-run.
* **Reads see one snapshot.** A read is one transaction (``BEGIN`` on SQLite, ``REPEATABLE
  READ`` on PostgreSQL): a reader sees a roster either before or after a save, never half of it.
* **Busy waits are bounded.** A store waits up to ``timeout`` seconds for a lock (SQLite's busy
  timeout, PostgreSQL's ``lock_timeout``) and retries with exponential backoff and jitter until
  then; after that it raises one :class:`StorageError` naming the roster, game, faction or
  database. Every database error becomes a ``StorageError``; none escapes as a traceback.
* **Optimistic versioning.** Rosters and saved games carry a save counter. An editor that loads
  a version and saves with ``expected_version`` gets :class:`ChangedElsewhereError` if another
  save came in between; ``update_roster`` / ``update_game`` apply a change to the newest version
  inside one write transaction instead.
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
import time
import weakref
import zlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from sqlalchemy import Connection, Engine, create_engine, event, select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session, selectinload, sessionmaker

from warbench.kernel.errors import (
    ChangedElsewhereError,
    StorageError,
    UnknownNameError,
    WarbenchError,
)
from warbench.rulesets.warsurge.profiles import Unit, WeaponProfile
from warbench.rulesets.warsurge.roster import Roster, RosterEntry, RosterPerk
from warbench.storage.models import (
    FactionRow,
    RosterEntryRow,
    RosterRow,
    SavedGameRow,
    UnitProfileRow,
    WeaponRow,
)

__all__ = [
    "DB_ENV",
    "DEFAULT_TIMEOUT",
    "ChangedElsewhereError",
    "FactionSummary",
    "RosterSummary",
    "StorageError",
    "Store",
    "Versioned",
]

DB_ENV = "WARBENCH_DB"
DEFAULT_TIMEOUT = 10.0
"""Seconds a store waits for another writer before it gives up with a :class:`StorageError`."""
TIMEOUT_ENV = "WARBENCH_DB_TIMEOUT"
MIGRATIONS = Path(__file__).with_name("migrations")
HEAD_REVISION = "0005a"
"""The newest Alembic revision (``tests/storage`` checks it against the migrations directory):
a database already there opens without importing Alembic."""
_SQLITE_BUSY_SLICE = 0.1  # seconds SQLite's own busy handler waits before Store._run retries
_MAX_BACKOFF = 0.02  # seconds: the longest pause between two attempts
T = TypeVar("T")
_WRITE = "warbench_write"
_MIGRATION_LOCK = 0x57A2B_E1C  # PostgreSQL advisory lock taken while migrating


_HOOKED: weakref.WeakSet[Engine] = weakref.WeakSet()  # engines whose BEGIN a Store controls
_DEADLINE = threading.local()  # when this thread's current operation gives up (monotonic)


class _FairLock:
    """A first-come, first-served lock: a thread that releases it and asks again at once goes
    to the back of the queue (``threading.Lock`` lets it jump ahead)."""

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._queue: deque[object] = deque()
        self._held = False

    def acquire(self, timeout: float) -> bool:
        me = object()
        with self._cond:
            self._queue.append(me)
            if self._cond.wait_for(lambda: not self._held and self._queue[0] is me, timeout):
                self._queue.popleft()
                self._held = True
                return True
            self._queue.remove(me)
            self._cond.notify_all()
            return False

    def release(self) -> None:
        with self._cond:
            self._held = False
            self._cond.notify_all()


_LOCAL_WRITERS: dict[str, _FairLock] = {}
_LOCAL_WRITERS_LOCK = threading.Lock()


def _local_writer_lock(database: str) -> _FairLock:
    """One lock per SQLite file in this process: its threads queue here, in order, instead of
    polling the file lock against each other (SQLite's busy wait is not fair)."""
    with _LOCAL_WRITERS_LOCK:
        return _LOCAL_WRITERS.setdefault(database, _FairLock())


def default_url() -> str:
    """``sqlite:///<user data dir>/warbench.db`` (platformdirs)."""
    from platformdirs import user_data_dir

    return f"sqlite:///{Path(user_data_dir('warbench')) / 'warbench.db'}"


def database_url(url: str | None = None) -> str:
    """The URL to use: ``url``, else ``$WARBENCH_DB``, else :func:`default_url`."""
    return url or os.environ.get(DB_ENV) or default_url()


@dataclass(frozen=True)
class FactionSummary:
    name: str
    units: tuple[str, ...]


@dataclass(frozen=True)
class RosterSummary:
    """One line of the roster list. ``id`` addresses the roster as ``#ID`` wherever a roster
    name is taken (a roster whose name is blank, saved by an older version, has no other
    handle); ``version`` is its save counter."""

    name: str
    point_limit: int
    units: int
    points_model: str
    id: int = 0
    version: int = 0

    @property
    def handle(self) -> str:
        """The name, or ``#ID`` when the name is blank."""
        return self.name if self.name.strip() else f"#{self.id}"


@dataclass(frozen=True)
class Versioned(Generic[T]):
    """A stored value and its save counter (``version``), for optimistic editing."""

    value: T
    version: int


def _find(rows: list[Any], name: str, kind: str, where: str = "") -> Any:
    key = name.strip().lower()
    for r in rows:
        if r.name.lower() == key:
            return r
    raise UnknownNameError(kind, name, [r.name for r in rows], where=where)


def _jitter(attempt: int) -> float:
    """A factor in [0.5, 1.5) that spreads competing writers' retries apart.

    Taken from the writer's process and thread and the attempt number (a hash, no random
    generator): storage waits never draw from a random source, so the only randomness in
    warbench stays the seeded, recorded dice service (kernel/dice.py).
    """
    key = f"{os.getpid()}:{threading.get_ident()}:{attempt}".encode()
    return 0.5 + zlib.crc32(key) / 2**32


def _first_line(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None) or exc
    return (str(orig).strip().splitlines() or [orig.__class__.__name__])[0]


def _retry_kind(exc: DBAPIError) -> str | None:
    """``busy`` (a lock is held), ``conflict`` (serialization failure), ``integrity`` (a row
    written at the same time) or ``None`` (not worth retrying)."""
    orig = exc.orig
    code = getattr(orig, "sqlite_errorcode", None)
    if isinstance(code, int) and code & 0xFF in (5, 6):  # SQLITE_BUSY, SQLITE_LOCKED
        return "busy"
    state = getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)
    if state in ("40001", "40P01"):  # serialization_failure, deadlock_detected
        return "conflict"
    if state == "55P03":  # lock_not_available (lock_timeout)
        return "busy"
    if isinstance(exc, IntegrityError):
        return "integrity"
    text = str(orig).lower()
    if "database is locked" in text or "database is busy" in text:
        return "busy"
    return None


def _install_sqlite_hooks(engine: Engine, timeout: float) -> None:
    """pysqlite's own transaction handling begins only at the first write (and never for a
    read); take it over, as the SQLAlchemy pysqlite docs describe ("Serializable isolation /
    Savepoints / Transactional DDL"): ``BEGIN IMMEDIATE`` for writes, ``BEGIN`` for reads."""
    database = engine.url.database or ""
    in_memory = database in ("", ":memory:") or "mode=memory" in str(engine.url.query)

    def on_connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # no implicit BEGIN: on_begin emits it
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA busy_timeout = {max(1, int(timeout * 1000))}")
        cur.execute("PRAGMA foreign_keys = ON")
        if not in_memory:
            cur.execute("PRAGMA journal_mode = WAL")
            # WAL + NORMAL: a commit is appended to the WAL without an fsync (the WAL is synced
            # at checkpoints). A killed process loses nothing; a power cut or OS crash may lose
            # the last commits (never corrupts the file). See docs/architecture.md, "SQLite
            # durability". One fsync per commit was 8 ms of every play action (docs/web-play.md).
            cur.execute("PRAGMA synchronous = NORMAL")
        cur.close()

    def on_begin(conn: Connection) -> None:
        write = conn.get_execution_options().get(_WRITE, False)
        if write:
            # SQLite's busy handler polls ever more slowly (up to every 100 ms) and a process
            # whose threads write back to back can take the lock again in between; short busy
            # waits re-run by Store._run (which polls every few ms) keep the other processes in
            # the race. Never wait past the operation's deadline.
            left = getattr(_DEADLINE, "at", time.monotonic() + timeout) - time.monotonic()
            wait = min(left, _SQLITE_BUSY_SLICE)
            conn.exec_driver_sql(f"PRAGMA busy_timeout = {max(1, int(wait * 1000))}")
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    event.listen(engine, "connect", on_connect)
    event.listen(engine, "begin", on_begin)


def _install_postgresql_hooks(engine: Engine, timeout: float) -> None:
    """Writes wait for a lock only until the operation's deadline (then SQLSTATE 55P03)."""

    def on_begin(conn: Connection) -> None:
        if conn.get_execution_options().get(_WRITE, False):
            left = getattr(_DEADLINE, "at", time.monotonic() + timeout) - time.monotonic()
            conn.exec_driver_sql(f"SET LOCAL lock_timeout = {max(1, int(left * 1000))}")

    event.listen(engine, "begin", on_begin)


def _current_revision(s: Session) -> str | None:
    """The database's Alembic revision, read without Alembic (``None``: no version table, or
    not exactly one row)."""
    from sqlalchemy import inspect, text

    conn = s.connection()
    if not inspect(conn).has_table("alembic_version"):
        return None
    rows = conn.execute(text("SELECT version_num FROM alembic_version")).all()
    return str(rows[0][0]) if len(rows) == 1 else None


def _is_empty(s: Session) -> bool:
    """True when the database has no tables at all (a fresh file or schema)."""
    from sqlalchemy import inspect

    return not inspect(s.connection()).get_table_names()


def _create_at_head(s: Session) -> None:
    """The models' tables in an empty database, stamped at :data:`HEAD_REVISION`: what running
    every migration gives, in one ``create_all``. The version table is Alembic's own
    (``alembic_version``, its primary key named ``alembic_version_pkc``)."""
    from sqlalchemy import Column, MetaData, PrimaryKeyConstraint, String, Table, insert

    # the web games', the simulation lab's, the WarEngine forces' and the Collision documents'
    # tables are on the same metadata
    import warbench.storage.collision_documents
    import warbench.storage.games
    import warbench.storage.sim_models
    import warbench.storage.warengine_forces  # noqa: F401
    from warbench.storage.models import Base

    conn = s.connection()
    Base.metadata.create_all(conn)
    version = Table(
        "alembic_version",
        MetaData(),
        Column("version_num", String(32), nullable=False),
        PrimaryKeyConstraint("version_num", name="alembic_version_pkc"),
    )
    version.create(conn)
    conn.execute(insert(version).values(version_num=HEAD_REVISION))


class Store:
    """Factions, the Armoury, rosters and saved games in one SQLAlchemy database.

    Safe to share between threads; any number of processes may open the same database.
    """

    def __init__(self, engine: Engine, *, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.engine = engine
        self.timeout = timeout
        self.url = engine.url.render_as_string(hide_password=True)
        backend = engine.url.get_backend_name()
        write_options: dict[str, Any] = {_WRITE: True}
        read_options: dict[str, Any] = {}
        first = engine not in _HOOKED
        _HOOKED.add(engine)  # a second Store on the same engine must not BEGIN twice
        if backend == "sqlite" and first:
            _install_sqlite_hooks(engine, timeout)
        elif backend == "postgresql":
            if first:
                _install_postgresql_hooks(engine, timeout)
            write_options["isolation_level"] = "READ COMMITTED"
            read_options["isolation_level"] = "REPEATABLE READ"
        self._postgresql = backend == "postgresql"
        self._local_lock: _FairLock | None = None
        if backend == "sqlite":
            database = engine.url.database or ""
            if database not in ("", ":memory:"):
                database = str(Path(database).expanduser().resolve())
            self._local_lock = _local_writer_lock(database or f":memory:{id(self)}")
        self._writer = sessionmaker(
            engine.execution_options(**write_options), expire_on_commit=False
        )
        self._reader = sessionmaker(
            engine.execution_options(**read_options), expire_on_commit=False
        )

    # -- opening ----------------------------------------------------------------------------
    @classmethod
    def open(cls, url: str | None = None, *, timeout: float | None = None) -> Store:
        """Connect to ``url`` (see :func:`database_url`) and migrate the schema to the newest.

        ``timeout`` is how many seconds an operation waits for other writers before it raises
        :class:`StorageError` (default ``$WARBENCH_DB_TIMEOUT``, else :data:`DEFAULT_TIMEOUT`).
        """
        if timeout is None:
            raw_timeout = os.environ.get(TIMEOUT_ENV, "")
            try:
                timeout = float(raw_timeout) if raw_timeout else DEFAULT_TIMEOUT
            except ValueError:
                raise StorageError(
                    f"${TIMEOUT_ENV} = {raw_timeout[:40]!r} is not a number of seconds"
                ) from None
            if not 0 < timeout <= 3600:
                raise StorageError(f"${TIMEOUT_ENV} = {timeout:g} must be in (0, 3600] seconds")
        raw = database_url(url)
        try:
            parsed = make_url(raw)
        except ArgumentError as exc:
            raise StorageError(f"{raw}: not a database URL ({exc})") from None
        shown = parsed.render_as_string(hide_password=True)
        if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
            Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        try:
            store = cls(create_engine(parsed), timeout=timeout)
        except SQLAlchemyError as exc:
            raise StorageError(
                f"{shown}: cannot open the database ({exc.__class__.__name__}: {_first_line(exc)})"
            ) from None
        store.migrate()
        return store

    def migrate(self) -> None:
        """Bring the schema to the newest revision (a fresh database just works).

        A database at :data:`HEAD_REVISION` is found with one query, and an empty one gets the
        models' tables (``create_all``) stamped at the head in one transaction instead of
        every migration run in turn (``tests/storage`` checks that both give the same schema);
        neither imports Alembic (a third of a cold start's CPU). Any other database is upgraded
        by Alembic. Several processes opening a fresh database at once are serialised: the
        first creates it, the others find the schema at the newest revision.
        """
        subject = f"{self.url}: cannot open the database"
        if self._run(subject, _current_revision, write=False) == HEAD_REVISION:
            return

        def create(s: Session) -> bool:
            if self._postgresql:
                s.execute(select(_pg_advisory_lock(_MIGRATION_LOCK)))
            if not _is_empty(s):
                return False
            _create_at_head(s)
            return True

        if self._run(subject, create, write=True):
            return
        from alembic import command
        from alembic.config import Config
        from alembic.runtime.migration import MigrationContext

        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))

        def upgrade(s: Session) -> None:
            if self._postgresql:
                s.execute(select(_pg_advisory_lock(_MIGRATION_LOCK)))
            if MigrationContext.configure(s.connection()).get_current_revision() == HEAD_REVISION:
                return
            cfg.attributes["connection"] = s.connection()
            command.upgrade(cfg, "head")

        self._run(subject, upgrade, write=True)

    def close(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()

    # -- transactions -----------------------------------------------------------------------
    def _run(
        self, subject: str, work: Callable[[Session], T], *, write: bool, lock: str | None = None
    ) -> T:
        """``work`` in one transaction, re-run while the database is busy or a concurrent
        writer got in the way, for up to ``timeout`` seconds; then one ``StorageError`` that
        starts with ``subject``. ``work`` must have no effect outside the session.

        ``lock`` names what a write changes (``roster:<name>`` ...): on PostgreSQL the write
        first takes a transaction-scoped advisory lock on it, so writers of one roster queue
        instead of failing each other, and two creators of one name are one after the other.
        (SQLite has one write lock for the whole file.)"""
        start = time.monotonic()
        _DEADLINE.at = start + self.timeout
        delay = 0.005
        attempts = 0
        sessions = self._writer if write else self._reader
        local = self._local_lock if write else None
        while True:
            attempts += 1
            if local is not None and not local.acquire(
                timeout=max(0.0, self.timeout - (time.monotonic() - start))
            ):
                waited = time.monotonic() - start
                raise StorageError(
                    f"{subject}: the database stayed busy for {waited:.1f} s (other writers in "
                    "this process); try again"
                )
            try:
                with sessions() as s, s.begin():
                    if lock is not None and self._postgresql:
                        s.execute(select(_pg_advisory_lock(_lock_id(lock))))
                    return work(s)
            except WarbenchError:
                raise
            except DBAPIError as exc:
                kind = _retry_kind(exc)
                waited = time.monotonic() - start
                if kind is None:
                    raise StorageError(
                        f"{subject}: the database refused the operation "
                        f"({exc.__class__.__name__}: {_first_line(exc)})"
                    ) from None
                if waited + delay > self.timeout or (kind == "integrity" and attempts >= 3):
                    raise StorageError(_gave_up(subject, kind, waited, attempts, exc)) from None
            except SQLAlchemyError as exc:
                raise StorageError(
                    f"{subject}: {exc.__class__.__name__}: {_first_line(exc)}"
                ) from None
            finally:
                if local is not None:
                    local.release()
            time.sleep(delay * _jitter(attempts))
            delay = min(delay * 2, _MAX_BACKOFF)

    # -- factions ---------------------------------------------------------------------------
    def _faction(self, s: Session, name: str) -> FactionRow:
        rows = list(s.scalars(select(FactionRow).options(selectinload(FactionRow.units))))
        found: FactionRow = _find(rows, name, "faction")
        return found

    def create_faction(self, name: str, notes: str = "") -> None:
        """A new, empty faction; a faction of the same name (any case) is refused."""

        def work(s: Session) -> None:
            for other in s.scalars(select(FactionRow.name)):
                if other.lower() == name.strip().lower():
                    raise StorageError(f"a faction called {other!r} already exists")
            s.add(FactionRow(name=name, notes=notes))

        self._run(f"faction {name!r}", work, write=True, lock=_key("faction", name))

    def factions(self) -> list[FactionSummary]:
        """Every faction with the names of its units, by name."""

        def work(s: Session) -> list[FactionSummary]:
            rows = s.scalars(
                select(FactionRow).options(selectinload(FactionRow.units)).order_by(FactionRow.name)
            )
            return [FactionSummary(f.name, tuple(u.name for u in f.units)) for f in rows]

        return self._run("factions", work, write=False)

    def faction_units(self, faction: str) -> list[Unit]:
        """The units of ``faction``, by name."""

        def work(s: Session) -> list[dict[str, Any]]:
            return [u.data for u in self._faction(s, faction).units]

        return [
            Unit.model_validate(d) for d in self._run(f"faction {faction!r}", work, write=False)
        ]

    def add_units(self, faction: str, units: list[Unit], *, replace: bool = False) -> None:
        """Add units to a faction (all or none); ``replace`` overwrites units of the same name."""
        rows_data = [(unit.name, unit.model_dump(mode="json")) for unit in units]

        def work(s: Session) -> None:
            f = self._faction(s, faction)
            existing = {u.name.lower(): u for u in f.units}
            for name, data in rows_data:
                row = existing.get(name.lower())
                if row is not None and not replace:
                    raise StorageError(
                        f"faction {f.name!r} already has a unit called {name!r} "
                        "(use --replace to overwrite it)"
                    )
                if row is None:
                    row = UnitProfileRow(name=name, data=data)
                    f.units.append(row)
                    existing[name.lower()] = row
                else:
                    row.data = data

        self._run(f"faction {faction!r}", work, write=True, lock=_key("faction", faction))

    def remove_unit(self, faction: str, unit: str) -> None:
        """Remove ``unit`` from ``faction``."""

        def work(s: Session) -> None:
            f = self._faction(s, faction)
            f.units.remove(_find(f.units, unit, "unit", where=f"faction {f.name}"))

        self._run(f"faction {faction!r}", work, write=True, lock=_key("faction", faction))

    def find_unit(self, name: str, faction: str | None = None) -> Unit:
        """A faction's unit by name; without ``faction`` the name must be unique across them."""

        def work(s: Session) -> dict[str, Any]:
            if faction is not None:
                rows = list(self._faction(s, faction).units)
            else:
                rows = list(
                    s.scalars(select(UnitProfileRow).options(selectinload(UnitProfileRow.faction)))
                )
            key = name.strip().lower()
            hits = [r for r in rows if r.name.lower() == key]
            if len(hits) > 1:
                where = ", ".join(sorted(r.faction.name for r in hits))
                raise StorageError(
                    f"several factions have a unit called {name!r} ({where}); choose one with "
                    "--faction"
                )
            row = hits[0] if hits else _find(rows, name, "unit")
            data: dict[str, Any] = row.data
            return data

        return Unit.model_validate(self._run(f"unit {name!r}", work, write=False))

    # -- the Armoury ------------------------------------------------------------------------
    def add_weapons(self, weapons: list[WeaponProfile], *, replace: bool = False) -> None:
        """Add weapon profiles to the Armoury (all or none); ``replace`` overwrites."""
        rows_data = [(w.name, w.model_dump(mode="json")) for w in weapons]

        def work(s: Session) -> None:
            existing = {w.name.lower(): w for w in s.scalars(select(WeaponRow))}
            for name, data in rows_data:
                row = existing.get(name.lower())
                if row is not None and not replace:
                    raise StorageError(
                        f"the Armoury already has a weapon called {name!r} "
                        "(use --replace to overwrite it)"
                    )
                if row is None:
                    row = WeaponRow(name=name, data=data)
                    s.add(row)
                    existing[name.lower()] = row
                else:
                    row.data = data

        names = ", ".join(repr(n) for n, _ in rows_data)
        self._run(f"the Armoury (adding {names})", work, write=True, lock="armoury")

    def weapons(self) -> list[WeaponProfile]:
        """Every weapon of the Armoury, by name."""

        def work(s: Session) -> list[dict[str, Any]]:
            return [r.data for r in s.scalars(select(WeaponRow).order_by(WeaponRow.name))]

        return [
            WeaponProfile.model_validate(d) for d in self._run("the Armoury", work, write=False)
        ]

    def weapon(self, name: str) -> WeaponProfile:
        """The Armoury's weapon ``name`` (any case)."""

        def work(s: Session) -> dict[str, Any]:
            row = _find(list(s.scalars(select(WeaponRow))), name, "weapon", where="Armoury")
            data: dict[str, Any] = row.data
            return data

        return WeaponProfile.model_validate(self._run(f"weapon {name!r}", work, write=False))

    def remove_weapon(self, name: str) -> None:
        """Remove the weapon ``name`` from the Armoury."""

        def work(s: Session) -> None:
            s.delete(_find(list(s.scalars(select(WeaponRow))), name, "weapon", where="Armoury"))

        self._run(f"weapon {name!r}", work, write=True, lock="armoury")

    # -- rosters ----------------------------------------------------------------------------
    @staticmethod
    def _roster_row(s: Session, name: str) -> RosterRow | None:
        """The roster called ``name`` (any case); else, for ``#ID``, the roster with that id."""
        key = name.strip().lower()
        rows = list(s.execute(select(RosterRow.id, RosterRow.name)))
        ids = [i for i, n in rows if n.lower() == key]
        by_id = re.fullmatch(r"#(\d{1,18})", key)
        if not ids and by_id is not None:
            ids = [i for i, _ in rows if i == int(by_id[1])]
        if not ids:
            return None
        return s.scalars(
            select(RosterRow).where(RosterRow.id == ids[0]).options(selectinload(RosterRow.entries))
        ).one()

    @staticmethod
    def _unknown_roster(s: Session, name: str) -> UnknownNameError:
        rows = s.execute(select(RosterRow.id, RosterRow.name))
        return UnknownNameError("roster", name, [n if n.strip() else f"#{i}" for i, n in rows])

    def save_roster(
        self,
        roster: Roster,
        *,
        replace: bool = True,
        create: bool = True,
        expected_version: int | None = None,
    ) -> int:
        """Write the whole roster in one transaction and return its new version.

        A failure leaves the old roster intact. ``replace=False`` refuses an existing roster of
        that name, ``create=False`` a missing one. With ``expected_version`` (the version the
        edit was loaded from) a roster saved by someone else since then raises
        :class:`ChangedElsewhereError` instead of being overwritten.
        """
        subject = f"roster {roster.name!r}"
        perks = [p.model_dump(mode="json") for p in roster.roster_perks]
        entries = list(enumerate(roster.units))

        def work(s: Session) -> int:
            row = self._roster_row(s, roster.name)
            if row is None:
                if expected_version is not None:
                    raise ChangedElsewhereError(subject, expected_version, None)
                if not create:
                    raise self._unknown_roster(s, roster.name)
                row = RosterRow(name=roster.name, version=1)
                s.add(row)
            elif not replace:
                raise StorageError(f"a roster called {row.name!r} already exists")
            elif expected_version is not None and row.version != expected_version:
                raise ChangedElsewhereError(subject, expected_version, row.version)
            else:
                row.version += 1
            row.name = roster.name
            row.point_limit = roster.point_limit
            row.ruleset = roster.ruleset
            row.points_model = roster.points_model
            row.notes = roster.notes
            row.roster_perks = perks
            row.entries.clear()
            s.flush()
            for i, e in entries:
                row.entries.append(self._entry_row(i, e))
            s.flush()
            return row.version

        return self._run(subject, work, write=True, lock=_key("roster", roster.name))

    @staticmethod
    def _entry_row(position: int, e: RosterEntry) -> RosterEntryRow:
        return RosterEntryRow(
            position=position,
            name=e.name,
            unit=e.unit.model_dump(mode="json"),
            traits=list(e.traits),
            embarked_in=e.embarked_in,
            link=e.link,
            designations=dict(e.designations),
        )

    @staticmethod
    def _to_roster(row: RosterRow) -> Roster:
        return Roster(
            name=row.name,
            point_limit=row.point_limit,
            ruleset=row.ruleset,
            points_model=row.points_model,
            notes=row.notes,
            roster_perks=[RosterPerk.model_validate(p) for p in row.roster_perks],
            units=[
                RosterEntry(
                    name=e.name,
                    unit=Unit.model_validate(e.unit),
                    traits=e.traits,
                    embarked_in=e.embarked_in,
                    link=e.link,
                    designations=e.designations,
                )
                for e in row.entries
            ],
        )

    def versioned_roster(self, name: str) -> Versioned[Roster]:
        """The roster ``name`` (any case) and its version, read in one snapshot."""

        def work(s: Session) -> Versioned[Roster]:
            row = self._roster_row(s, name)
            if row is None:
                raise self._unknown_roster(s, name)
            return Versioned(self._to_roster(row), row.version)

        return self._run(f"roster {name!r}", work, write=False)

    def roster_summary(self, name: str) -> RosterSummary:
        """The list line of roster ``name`` (or ``#ID``), read without building the roster, so
        that a row an older version saved and this one refuses (a blank name) can still be
        named, renamed and deleted."""

        def work(s: Session) -> RosterSummary:
            row = self._roster_row(s, name)
            if row is None:
                raise self._unknown_roster(s, name)
            return RosterSummary(
                row.name, row.point_limit, len(row.entries), row.points_model, row.id, row.version
            )

        return self._run(f"roster {name!r}", work, write=False)

    def roster(self, name: str) -> Roster:
        """The roster ``name`` (any case), read in one snapshot: never half of a save."""
        return self.versioned_roster(name).value

    def update_roster(self, name: str, change: Callable[[Roster], Roster]) -> Versioned[Roster]:
        """Apply ``change`` to the newest version of roster ``name`` and save the result, in one
        write transaction (no other save can come in between); returns what was saved.

        ``change`` may run more than once (when the database asks for a retry), so it must be
        a pure function of the roster. It cannot rename the roster.
        """
        subject = f"roster {name!r}"

        def work(s: Session) -> Versioned[Roster]:
            row = self._roster_row(s, name)
            if row is None:
                raise self._unknown_roster(s, name)
            new = change(self._to_roster(row))
            if new.name.strip().lower() != row.name.lower():
                raise StorageError(f"{subject}: an update cannot rename the roster to {new.name!r}")
            row.version += 1
            row.name = new.name
            row.point_limit = new.point_limit
            row.ruleset = new.ruleset
            row.points_model = new.points_model
            row.notes = new.notes
            row.roster_perks = [p.model_dump(mode="json") for p in new.roster_perks]
            row.entries.clear()
            s.flush()
            for i, e in enumerate(new.units):
                row.entries.append(self._entry_row(i, e))
            s.flush()
            return Versioned(new, row.version)

        return self._run(subject, work, write=True, lock=_key("roster", name))

    def rename_roster(
        self,
        name: str,
        new: str,
        *,
        expected_version: int | None = None,
        roster_id: int | None = None,
    ) -> int:
        """Rename roster ``name`` (or ``#ID``; with ``roster_id``, exactly that row) to ``new``
        in one transaction and return its new version: either the renamed roster is saved or
        nothing changes. A roster called ``new`` (any case) that is another roster is refused;
        a change of case only is allowed. The entries are untouched; with
        ``expected_version``, a save that came in between raises
        :class:`ChangedElsewhereError`. The roster is not built, so a row this version would
        refuse (a blank name) can be renamed."""
        new = new.strip()
        subject = f"roster {name!r}"
        if not 1 <= len(new) <= 120:
            raise StorageError(
                f"{subject}: cannot be renamed to {new[:60]!r}; allowed: 1 to 120 characters"
            )

        def work(s: Session) -> int:
            if self._postgresql:  # both names, in one order (two renames never deadlock)
                for key in sorted({_key("roster", name), _key("roster", new)}):
                    s.execute(select(_pg_advisory_lock(_lock_id(key))))
            row = self._roster_row(s, name) if roster_id is None else s.get(RosterRow, roster_id)
            if row is None:
                if expected_version is not None:
                    raise ChangedElsewhereError(subject, expected_version, None)
                raise self._unknown_roster(s, name)
            if expected_version is not None and row.version != expected_version:
                raise ChangedElsewhereError(subject, expected_version, row.version)
            taken = self._roster_row(s, new)
            if taken is not None and taken.id != row.id and taken.name.lower() == new.lower():
                raise StorageError(f"a roster called {taken.name!r} already exists")
            row.name = new
            row.version += 1
            s.flush()
            return row.version

        return self._run(subject, work, write=True)

    def rosters(self) -> list[RosterSummary]:
        """A summary of every roster, by name."""

        def work(s: Session) -> list[RosterSummary]:
            rows = s.scalars(select(RosterRow).options(selectinload(RosterRow.entries)))
            return [
                RosterSummary(
                    r.name, r.point_limit, len(r.entries), r.points_model, r.id, r.version
                )
                for r in sorted(rows, key=lambda r: r.name.lower())
            ]

        return self._run("rosters", work, write=False)

    def delete_roster(
        self, name: str, *, expected_version: int | None = None, roster_id: int | None = None
    ) -> None:
        """Delete the roster ``name`` (or ``#ID``; with ``roster_id``, exactly that row) and its
        entries; with ``expected_version``, only if no other save came after that version
        (else :class:`ChangedElsewhereError`)."""

        def work(s: Session) -> None:
            row = self._roster_row(s, name) if roster_id is None else s.get(RosterRow, roster_id)
            if row is None:
                if expected_version is not None:
                    raise ChangedElsewhereError(f"roster {name!r}", expected_version, None)
                raise self._unknown_roster(s, name)
            if expected_version is not None and row.version != expected_version:
                raise ChangedElsewhereError(f"roster {name!r}", expected_version, row.version)
            s.delete(row)

        self._run(f"roster {name!r}", work, write=True, lock=_key("roster", name))

    # -- saved games ------------------------------------------------------------------------
    def save_game(
        self,
        record: str,
        name: str = "",
        game_id: int | None = None,
        *,
        expected_version: int | None = None,
    ) -> int:
        """Store a game record (JSON lines); returns its id. ``game_id`` updates that game;
        with ``expected_version`` a game saved by someone else since that version raises
        :class:`ChangedElsewhereError`."""
        subject = f"saved game {game_id}" if game_id is not None else f"saved game {name!r}"

        def work(s: Session) -> int:
            row = s.get(SavedGameRow, game_id) if game_id is not None else None
            if game_id is not None and row is None:
                if expected_version is not None:
                    raise ChangedElsewhereError(subject, expected_version, None)
                raise StorageError(f"no saved game with id {game_id}")
            if row is None:
                row = SavedGameRow(name=name, record=record, version=1)
                s.add(row)
            else:
                if expected_version is not None and row.version != expected_version:
                    raise ChangedElsewhereError(subject, expected_version, row.version)
                row.record = record
                row.name = name or row.name
                row.version += 1
            s.flush()
            return row.id

        lock = f"game:{game_id}" if game_id is not None else None
        return self._run(subject, work, write=True, lock=lock)

    def versioned_game(self, game_id: int) -> Versioned[str]:
        """The record of saved game ``game_id`` and its version."""

        def work(s: Session) -> Versioned[str]:
            row = s.get(SavedGameRow, game_id)
            if row is None:
                raise StorageError(f"no saved game with id {game_id}")
            return Versioned(row.record, row.version)

        return self._run(f"saved game {game_id}", work, write=False)

    def game(self, game_id: int) -> str:
        """The record (JSON lines) of saved game ``game_id``."""
        return self.versioned_game(game_id).value

    def update_game(self, game_id: int, change: Callable[[str], str]) -> Versioned[str]:
        """Apply ``change`` to the newest record of game ``game_id`` and save it, in one write
        transaction (e.g. append an action); ``change`` must be pure (it may be re-run)."""

        def work(s: Session) -> Versioned[str]:
            row = s.get(SavedGameRow, game_id)
            if row is None:
                raise StorageError(f"no saved game with id {game_id}")
            row.record = change(row.record)
            row.version += 1
            s.flush()
            return Versioned(row.record, row.version)

        return self._run(f"saved game {game_id}", work, write=True, lock=f"game:{game_id}")

    # -- incremental roster edits (issue 13: the web workbench's live editing) ---------------
    def edit_roster(
        self,
        name: str,
        change: Callable[[Roster], Roster],
        *,
        expected_version: int | None = None,
    ) -> Versioned[Roster]:
        """Apply ``change`` to the newest version of roster ``name`` and write only what it
        changed, in one write transaction; returns what was saved and its new version.

        Where :meth:`update_roster` and :meth:`save_roster` rewrite every entry, this compares
        the changed roster with the stored rows position by position: an entry row whose
        content differs is updated in place, new positions are inserted, dropped ones deleted,
        and the roster row's own columns are set only when they differ (the version always
        goes up). One changed entry of a 30-unit roster is one ``UPDATE`` (benchmarks/
        bench_web.py). The result is the same rows a full save would write.

        ``change`` may run more than once (when the database asks for a retry), so it must be a
        pure function of the roster; it cannot rename the roster. With ``expected_version`` a
        roster saved by someone else since that version raises :class:`ChangedElsewhereError`.
        """
        subject = f"roster {name!r}"

        def work(s: Session) -> Versioned[Roster]:
            row = self._roster_row(s, name)
            if row is None:
                if expected_version is not None:
                    raise ChangedElsewhereError(subject, expected_version, None)
                raise self._unknown_roster(s, name)
            if expected_version is not None and row.version != expected_version:
                raise ChangedElsewhereError(subject, expected_version, row.version)
            new = change(self._to_roster(row))
            if new.name.strip().lower() != row.name.lower():
                raise StorageError(f"{subject}: an edit cannot rename the roster to {new.name!r}")
            row.version += 1
            columns: dict[str, Any] = {
                "name": new.name,
                "point_limit": new.point_limit,
                "ruleset": new.ruleset,
                "points_model": new.points_model,
                "notes": new.notes,
                "roster_perks": [p.model_dump(mode="json") for p in new.roster_perks],
            }
            for key, value in columns.items():
                if getattr(row, key) != value:
                    setattr(row, key, value)
            old_rows = list(row.entries)
            for i, e in enumerate(new.units):
                fresh = self._entry_row(i, e)
                if i < len(old_rows):
                    _update_entry_row(old_rows[i], fresh)
                else:
                    row.entries.append(fresh)
            for gone in old_rows[len(new.units) :]:
                row.entries.remove(gone)
            s.flush()
            return Versioned(new, row.version)

        return self._run(subject, work, write=True, lock=_key("roster", name))


_ENTRY_COLUMNS = ("name", "unit", "traits", "embarked_in", "link", "designations")


def _update_entry_row(row: RosterEntryRow, fresh: RosterEntryRow) -> None:
    """Set the columns of ``row`` that differ from ``fresh`` (same position): an entry that
    did not change is not written (:meth:`Store.edit_roster`)."""
    for key in _ENTRY_COLUMNS:
        value = getattr(fresh, key)
        if getattr(row, key) != value:
            setattr(row, key, value)


def _key(kind: str, name: str) -> str:
    """The lock name of a roster or faction: names are compared case-insensitively."""
    return f"{kind}:{name.strip().lower()}"


def _lock_id(name: str) -> int:
    """A stable signed 64-bit id of a lock name (PostgreSQL advisory locks take a bigint)."""
    digest = hashlib.blake2b(name.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def _pg_advisory_lock(key: int) -> Any:
    from sqlalchemy import func

    return func.pg_advisory_xact_lock(key)


def _gave_up(subject: str, kind: str, waited: float, attempts: int, exc: DBAPIError) -> str:
    if kind == "busy":
        return (
            f"{subject}: the database stayed busy for {waited:.1f} s (another process holds "
            "its write lock); try again"
        )
    if kind == "conflict":
        return (
            f"{subject}: other writers kept changing the same rows ({attempts} attempts in "
            f"{waited:.1f} s); try again"
        )
    return f"{subject}: conflicts with a change made at the same time ({_first_line(exc)})"
