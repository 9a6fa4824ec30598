"""The issue-19 probe in the suite: processes and threads on one database, nothing torn or lost.

The default run is short (2 s of racing); ``WARBENCH_STRESS_SECONDS=60`` runs it for a minute.
``WARBENCH_TEST_POSTGRES_URL`` adds the same probe on PostgreSQL (skipped when unset).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.storage.stress import probe

SECONDS = float(os.environ.get("WARBENCH_STRESS_SECONDS", "2"))
POSTGRES = os.environ.get("WARBENCH_TEST_POSTGRES_URL") or os.environ.get("WARBENCH_TEST_PG")


def check(report_url: str, fresh_url: str, hold: float) -> None:
    report = probe(report_url, fresh_url, SECONDS, processes=2, hold=hold)
    print(report.row())
    assert report.writes > 0 and report.reads > 0
    assert (report.torn_reads, report.lost_updates, report.tracebacks) == (0, 0, 0), report
    # the only one-line errors allowed are "stayed busy" timeouts, and none in the short run
    assert report.typed_errors == report.busy_errors, report.samples
    assert hold >= 6 or report.typed_errors == 0, report.samples


def test_processes_and_threads_never_tear_or_lose_a_roster_or_game(tmp_path: Path) -> None:
    # a short lock hold in the short run; 6 s (beyond pysqlite's default 5 s) in the long one
    hold = 6.0 if SECONDS >= 30 else 0.5
    check(f"sqlite:///{tmp_path / 'wb.db'}", f"sqlite:///{tmp_path / 'fresh.db'}", hold)


@pytest.mark.skipif(not POSTGRES, reason="set WARBENCH_TEST_POSTGRES_URL to a PostgreSQL URL")
def test_the_same_on_postgresql(tmp_path: Path) -> None:
    assert POSTGRES is not None
    check(POSTGRES, f"sqlite:///{tmp_path / 'fresh.db'}", 0.5 if SECONDS < 30 else 6.0)
