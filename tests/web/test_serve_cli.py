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
        with urllib.request.urlopen(f"{found[0]}api/rosters", timeout=10) as r:
            assert json.load(r) == []
        with urllib.request.urlopen(f"{found[0]}design", timeout=10) as r:
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
