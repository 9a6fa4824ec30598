"""The concurrency probe of issue 19: processes x threads writing and reading one database.

Every worker process opens a fresh database at the same moment (racing the migration), then
runs six threads against a shared, prepared database for ``seconds``:

* a **blind writer** saves whole versions of roster ``Race`` and of a saved game, each part of a
  version carrying the version's tag and size;
* a **reader** reads them back and counts a **torn read** when one read mixes two versions;
* a **counter** appends one entry to roster ``Counter`` and one line to a counter game per step
  (read-modify-write, through ``update_roster`` / ``update_game`` where the store has them);
* a **creator** creates roster ``New<i>`` and faction ``F<i>`` (``replace=False``): every
  process tries the same names, one must win and the others be told "already exists".

Meanwhile a **lock hog** (``hold`` > 0) takes the database's write lock for ``hold`` seconds now
and then, as a backup or a stuck process would (longer than pysqlite's 5 s default busy timeout,
shorter than the store's ``DEFAULT_TIMEOUT``).

Afterwards a **lost update** is an acknowledged counter step missing from the final state, a
final blind state that no writer acknowledged, or two acknowledged saves given the same version.
A **traceback** is any exception that is not a ``WarbenchError``; typed errors are counted apart.

Run it by hand (``--seconds 60``, ``--url postgresql+psycopg://...``) to print one table row::

    .venv/bin/python -m tests.storage.stress --seconds 60
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sqlite3
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from tests.warsurge.roster.fakes import entry, roster
from warbench.kernel.errors import WarbenchError
from warbench.rulesets.warsurge.roster import Roster
from warbench.storage import Store

BUSY = "the database stayed busy"  # the timeout's StorageError: allowed, counted


@dataclass
class Tally:
    """What one worker (or the whole probe) saw."""

    writes: int = 0
    reads: int = 0
    torn: int = 0
    typed_errors: int = 0
    busy_errors: int = 0
    tracebacks: int = 0
    blind_acks: list[tuple[str, int | None]] = field(default_factory=list)
    game_acks: list[tuple[str, int | None]] = field(default_factory=list)
    counter_acks: list[str] = field(default_factory=list)
    created: list[str] = field(default_factory=list)
    samples: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        for name in ("writes", "reads", "torn", "typed_errors", "busy_errors", "tracebacks"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.blind_acks += other.blind_acks
        self.game_acks += other.game_acks
        self.counter_acks += other.counter_acks
        self.created += other.created
        self.samples += other.samples[: max(0, 5 - len(self.samples))]


def blind_roster(prefix: str, tag: str, n: int) -> Roster:
    return roster(*(entry(f"{tag}-{i}") for i in range(n)), notes=f"{tag}/{n}").model_copy(
        update={"name": f"{prefix}Race"}
    )


def roster_torn(r: Roster) -> bool:
    tag, n = r.notes.split("/")
    return len(r.units) != int(n) or any(e.name.rsplit("-", 1)[0] != tag for e in r.units)


def blind_game(tag: str, n: int) -> str:
    return "".join(json.dumps({"tag": tag, "i": i, "n": n}) + "\n" for i in range(n))


def game_torn(record: str) -> bool:
    lines = [json.loads(line) for line in record.splitlines()]
    return not lines or len(lines) != lines[0]["n"] or len({d["tag"] for d in lines}) != 1


def _describe(exc: BaseException) -> str:
    """The exception's class and first line (a traceback in the making)."""
    return f"{exc.__class__.__name__}: {(str(exc).splitlines() or [''])[0]}"


def _open(url: str) -> Store:
    return Store.open(url)


def _loop(tally: Tally, lock: threading.Lock, until: float, step: Callable[[int], None]) -> None:
    i = 0
    while time.monotonic() < until:
        i += 1
        try:
            step(i)
        except WarbenchError as exc:
            with lock:
                tally.typed_errors += 1
                tally.busy_errors += int(BUSY in str(exc))
                tally.samples.append(f"{exc.__class__.__name__}: {exc}")
        except Exception as exc:
            with lock:
                tally.tracebacks += 1
                tally.samples.append(_describe(exc))


def worker(
    url: str,
    fresh_url: str,
    prefix: str,
    ids: dict[str, int],
    p: int,
    seconds: float,
    hold: float = 0.0,
) -> Tally:
    """One process: race the migration of ``fresh_url``, then six threads on ``url`` (and the
    lock hog when ``hold`` > 0)."""
    tally = Tally()
    lock = threading.Lock()
    try:
        _open(fresh_url).close()
    except WarbenchError as exc:
        tally.typed_errors += 1
        tally.samples.append(f"opening a fresh database: {exc}")
    except Exception as exc:
        tally.tracebacks += 1
        tally.samples.append(f"opening a fresh database: {_describe(exc)}")
    store = _open(url)
    race, counter = f"{prefix}Race", f"{prefix}Counter"
    until = time.monotonic() + seconds

    def write_roster(i: int) -> None:
        tag, n = f"p{p}w{i}", 1 + (i * 7 + p) % 6
        v = store.save_roster(blind_roster(prefix, tag, n))
        with lock:
            tally.writes += 1
            tally.blind_acks.append((tag, v if isinstance(v, int) else None))

    def read_roster(_i: int) -> None:
        torn = roster_torn(store.roster(race))
        game = store.game(ids["race"])
        with lock:
            tally.reads += 2
            tally.torn += int(torn) + int(game_torn(game))

    def count_roster(i: int) -> None:
        e = entry(f"p{p}c{i}")
        update = getattr(store, "update_roster", None)
        if update is not None:
            update(counter, lambda r: r.with_entry(e))
        else:  # a store without update_roster: read, change, save
            store.save_roster(store.roster(counter).with_entry(e))
        with lock:
            tally.writes += 1
            tally.counter_acks.append(e.name)

    def write_game(i: int) -> None:
        tag, n = f"p{p}g{i}", 1 + (i * 5 + p) % 7
        store.save_game(blind_game(tag, n), game_id=ids["race"])
        with lock:
            tally.writes += 1
            tally.game_acks.append((tag, None))

    def count_game(i: int) -> None:
        line = json.dumps({"tag": f"p{p}k{i}"}) + "\n"
        update = getattr(store, "update_game", None)
        if update is not None:
            update(ids["counter"], lambda rec: rec + line)
        else:
            store.save_game(store.game(ids["counter"]) + line, game_id=ids["counter"])
        with lock:
            tally.writes += 1
            tally.counter_acks.append(f"p{p}k{i}")

    def create(i: int) -> None:
        for kind, make in (
            (
                "roster",
                lambda: store.save_roster(
                    roster().model_copy(update={"name": f"{prefix}New{i}"}), replace=False
                ),
            ),
            ("faction", lambda: store.create_faction(f"{prefix}F{i}")),
        ):
            try:
                make()
            except WarbenchError as exc:
                if "already exists" not in str(exc):
                    raise
            else:
                with lock:
                    tally.writes += 1
                    tally.created.append(f"{kind} {i}")

    steps = [write_roster, read_roster, count_roster, write_game, create, count_game]
    threads = [threading.Thread(target=_loop, args=(tally, lock, until, s)) for s in steps]
    if hold > 0:
        threads.append(threading.Thread(target=hog, args=(url, hold, until)))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    store.close()
    return tally


@dataclass
class Report:
    """The probe's figures (one row of the before/after table)."""

    seconds: float
    processes: int
    writes: int
    reads: int
    torn_reads: int
    lost_updates: int
    tracebacks: int
    typed_errors: int
    busy_errors: int
    samples: list[str]

    def row(self) -> str:
        return (
            f"| {self.processes} processes x 6 threads, {self.seconds:g} s | {self.writes} | "
            f"{self.reads} | {self.torn_reads} | {self.lost_updates} | {self.tracebacks} | "
            f"{self.typed_errors} ({self.busy_errors} busy) |"
        )


def hog(url: str, hold: float, until: float) -> None:
    """Take the write lock for ``hold`` seconds, then leave it for ``hold`` seconds, until then.

    It waits up to 60 s for the lock itself, as a patient backup would."""
    from sqlalchemy import create_engine

    engine = create_engine(url, connect_args={} if "sqlite" in url else {"connect_timeout": 60})
    time.sleep(hold / 2)
    while time.monotonic() + hold < until:
        if engine.url.get_backend_name() == "sqlite":
            conn = sqlite3.connect(engine.url.database or "", isolation_level=None, timeout=60)
            conn.execute("BEGIN IMMEDIATE")
            time.sleep(hold)
            conn.rollback()
            conn.close()
        else:
            with engine.begin() as c:
                c.exec_driver_sql("SET LOCAL lock_timeout = '60s'")
                c.exec_driver_sql("LOCK TABLE rosters, saved_games, factions IN EXCLUSIVE MODE")
                time.sleep(hold)
        time.sleep(hold)
    engine.dispose()


def probe(
    url: str, fresh_url: str, seconds: float, processes: int = 2, hold: float = 0.0
) -> Report:
    """Run the probe; ``url`` may hold other data (names carry a unique prefix)."""
    prefix = f"stress-{uuid.uuid4().hex[:8]}-"
    setup = _open(url)
    setup.save_roster(roster(notes="none/0").model_copy(update={"name": f"{prefix}Race"}))
    setup.save_roster(roster().model_copy(update={"name": f"{prefix}Counter"}))
    ids = {
        "race": setup.save_game(blind_game("none", 1), name=f"{prefix}race"),
        "counter": setup.save_game("", name=f"{prefix}counter"),
    }
    total = Tally()
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(processes, mp_context=context) as pool:
        futures = [
            pool.submit(worker, url, fresh_url, prefix, ids, p, seconds, hold if p == 0 else 0.0)
            for p in range(processes)
        ]
        for f in futures:
            total.add(f.result())
    final = setup.roster(f"{prefix}Race")
    final_game = setup.game(ids["race"])
    counted = {e.name for e in setup.roster(f"{prefix}Counter").units}
    counted |= {json.loads(line)["tag"] for line in setup.game(ids["counter"]).splitlines()}
    torn = total.torn + int(roster_torn(final)) + int(game_torn(final_game))
    lost = sum(1 for name in total.counter_acks if name not in counted)
    final_tag = final.notes.split("/")[0]
    if final_tag not in {t for t, _ in total.blind_acks} | {"none"}:
        lost += 1
    versions = [v for _, v in total.blind_acks if v is not None]
    lost += len(versions) - len(set(versions))  # two acknowledged saves given one version
    if versions and dict(total.blind_acks).get(final_tag) != max(versions):
        lost += 1  # the final roster is not the last acknowledged save
    if json.loads(final_game.splitlines()[0])["tag"] not in {t for t, _ in total.game_acks}:
        lost += 1
    lost += len(total.created) - len(set(total.created))  # a name created twice
    for summary in setup.rosters():
        if summary.name.startswith(prefix):
            setup.delete_roster(summary.name)
    setup.close()
    return Report(
        seconds,
        processes,
        total.writes,
        total.reads,
        torn,
        lost,
        total.tracebacks,
        total.typed_errors,
        total.busy_errors,
        total.samples,
    )


def main() -> None:
    """``python -m tests.storage.stress [--seconds S] [--url URL] [--processes N]``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--hold", type=float, default=0.0, help="lock hog: seconds held")
    parser.add_argument("--url", help="database URL (default: a temporary SQLite file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.url or f"sqlite:///{Path(tmp) / 'stress.db'}"
        fresh = f"sqlite:///{Path(tmp) / 'fresh.db'}"
        report = probe(url, fresh, args.seconds, args.processes, args.hold)
    print("| probe | writes | reads | torn reads | lost updates | tracebacks | one-line errors |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    print(report.row())
    for s in report.samples:
        print("  e.g.", s)


if __name__ == "__main__":
    main()
