"""``warbench serve`` (issue 13): starts on localhost, prints the address, answers the API over
the database it was given; a bad database URL is one error line, no traceback."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

WARBENCH = [sys.executable, "-c", "from warbench.cli import main; main()"]


def test_serve_prints_the_address_and_answers(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'serve.db'}"
    proc = subprocess.Popen(
        [*WARBENCH, "serve", "--port", "0", "--db", db],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "COLUMNS": "200"},
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert found, line
        assert str(tmp_path) in line  # the database it serves
        with urllib.request.urlopen(f"{found[0]}api/rosters", timeout=60) as r:
            assert json.load(r) == []
        with urllib.request.urlopen(f"{found[0]}design", timeout=60) as r:
            assert b"Design a unit" in r.read()
    finally:
        proc.terminate()
        proc.wait(10)


def test_serve_bad_database_url_is_one_line(tmp_path: Path) -> None:
    proc = subprocess.run(
        [*WARBENCH, "serve", "--db", "nonsense://"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert "nonsense" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("port", ["-1", "70000"])
def test_serve_bad_port_is_refused(port: str) -> None:
    proc = subprocess.run(
        [*WARBENCH, "serve", "--port", port],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2 and "--port" in proc.stderr


def test_serve_prints_the_default_database_as_the_store_opens_it() -> None:
    """The address line is printed before the storage layer loads (issue 13 cold start), so
    the CLI computes the default database itself; it must be the store's."""
    from warbench.cli.web_cmds import _shown_url, default_database
    from warbench.storage.store import default_url

    assert default_database() == default_url()
    assert _shown_url("postgresql+psycopg://me:secret@db/wb") == "postgresql+psycopg://me:***@db/wb"


@pytest.mark.parametrize("url", ["foo", "nonsense://", "://x"])
def test_serve_bad_database_url_is_refused_before_listening(url: str) -> None:
    proc = subprocess.run(
        [*WARBENCH, "serve", "--port", "0", "--db", url],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2 and "not a database URL" in proc.stderr
    assert "workbench on" not in proc.stdout


def test_serve_database_that_cannot_be_opened_stops_with_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    proc = subprocess.run(
        [*WARBENCH, "serve", "--port", "0", "--db", f"sqlite:///{blocker}/sub/x.db"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().count("\n") == 0, proc.stderr
