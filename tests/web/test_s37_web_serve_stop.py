"""``warbench serve`` stopped with a game open (issue 10, session 37, s37-web).

Session 37's walk stopped the server (Ctrl+C) with two game pages open: it took 52 s (The
WarEngine: 50 s), because the server waited for each page's live stream, which stays open for
55 s. The streams now end at Ctrl+C, each saying so (``event: stopping``) so the page can tell
its player; the browser reconnects once a server is back.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

from warbench.web.play.scenes import presenter

WARBENCH = [sys.executable, "-c", "from warbench.cli import main; main()"]


def _post(url: str, body: object) -> dict[str, object]:
    req = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(req, timeout=60) as r:
        out: dict[str, object] = json.load(r)
        return out


def test_ctrl_c_ends_the_live_streams_and_says_so(tmp_path: Path) -> None:
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
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", proc.stdout.readline())
        assert found
        port = int(found[1])
        setup = presenter("toy-duel").presets()[0]["setup"]
        made = _post(
            f"{found[0]}api/play/games",
            {"ruleset": "toy-duel", "setup": setup, "mode": "network", "seed": 1},
        )
        links = made["links"]
        assert isinstance(links, dict)
        token = str(links["seat 0"]).split("#t=")[1]
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        conn.request("GET", f"/api/play/games/{made['id']}/stream?token={token}")
        stream = conn.getresponse()
        assert stream.status == 200
        first = b""
        while b"event: change" not in first:  # the stream is open and has said the revision
            first += stream.read1(200)
        proc.send_signal(signal.SIGINT)  # Ctrl+C
        rest = stream.read()  # the whole rest: a stream cut short raises IncompleteRead
        # it ended because the server stops, and said so (it stayed open until its 55 s)
        assert rest.rstrip().endswith(b"event: stopping\ndata: {}"), rest
        proc.wait(120)  # uvicorn ends as Ctrl+C does: 130
        assert proc.stderr is not None
        said = proc.stderr.read()
        assert "Traceback" not in said and "ERROR" not in said, said
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
