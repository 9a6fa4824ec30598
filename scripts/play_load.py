"""Load on the web play layer (issue 14): concurrent games with simulated clients on localhost.

Starts ``warbench serve`` in a subprocess over a fresh SQLite file (or ``--db``), then plays
``--games`` network games at once for ``--seconds``: each game has two simulated players, each
a thread with its own secret token that reads its view and answers its decisions (the
suggested choice, else the first listed action), exactly as the page does. A finished game is
replaced by a new one. Every action's latency (``POST .../actions``, the answer includes the
server's check, apply, the transaction and the automatic steps after it) is recorded; any
answer other than 200 is an error.

With ``--restart`` the server is killed (SIGKILL) half-way and started again on the same
database; every game must then resume at its last action (its step count unchanged), and the
clients play on.

``--think S``: each simulated player waits about S seconds (0.5 S to 1.5 S, fixed by the game
and step, no clock or random source) before answering, as a person at the page does; without
it the clients act the moment they can, which saturates the server (a throughput test: the
latency is then mostly the queue). ``--actions N`` makes the run count-based: it stops after N
actions (and restarts half-way through them) whatever the machine's speed, so a short smoke run
cannot check nothing on a loaded machine; ``--seconds`` is then only a safety limit, and a run
that reaches it is an error (``timed_out``).

    .venv/bin/python scripts/play_load.py --games 20 --seconds 600 --restart --think 1
    .venv/bin/python scripts/play_load.py --games 20 --seconds 600 --restart
    .venv/bin/python scripts/play_load.py --games 4 --actions 80 --restart

prints one JSON object: games, actions, errors, p50/p95/p99/max action latency in ms,
restart figures.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

TOY_SETUP = {
    "rosters": [{"name": "Red", "hp": 3, "shields": 1}, {"name": "Blue", "hp": 3, "shields": 2}],
    "board": {"length": 8.0, "speed": 3.0, "reach": 2.0},
    "options": {"rounds": 6, "hide_hp": True},
}


@dataclass
class Stats:
    """What the clients measured (shared between threads)."""

    latencies: list[float] = field(default_factory=list)
    server_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    games_started: int = 0
    games_finished: int = 0
    actions: int = 0
    last_steps: dict[str, int] = field(default_factory=dict)
    tokens: dict[str, str] = field(default_factory=dict)
    seen: dict[tuple[str, str], int] = field(default_factory=dict)  # steps each client has read
    lock: threading.Lock = field(default_factory=threading.Lock)


#: With ``--sqlite-sync normal``: every SQLite connection of the server uses ``PRAGMA
#: synchronous=NORMAL`` (WAL: a commit is not fsynced; a killed process loses nothing, a power
#: cut may lose the last commits). An experiment to measure what the fsync per commit costs.
_SYNC_NORMAL = """
import sqlalchemy
from sqlalchemy import event
_create = sqlalchemy.create_engine
def _engine(*a, **k):
    e = _create(*a, **k)
    event.listen(e, "connect", lambda c, r: c.execute("PRAGMA synchronous=NORMAL"))
    return e
sqlalchemy.create_engine = _engine
"""


class Server:
    """``warbench serve`` in a subprocess (killable, restartable on the same database)."""

    def __init__(self, db: str, sync_normal: bool = False) -> None:
        self.db = db
        self.sync_normal = sync_normal
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""

    def start(self, port: int = 0) -> None:
        cmd = [
            sys.executable,
            "-c",
            (_SYNC_NORMAL if self.sync_normal else "") + "from warbench.cli import main; main()",
            "serve",
            "--port",
            str(port),
            "--db",
            self.db,
        ]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        m = re.search(r"http://\S+?(?=/?\s|/?$)", line)
        if not m:
            raise RuntimeError(f"warbench serve printed no address: {line!r}")
        self.url = m[0].rstrip("/")

    def cpu_seconds(self) -> float | None:
        """The server process's CPU time so far (user + system, from /proc; None elsewhere)."""
        if self.proc is None:
            return None
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def _client(
    server: Server,
    game: str,
    token: str,
    stats: Stats,
    stop: threading.Event,
    paused: threading.Event,
    think: float = 0.0,
) -> None:
    """One simulated player, as the page behaves: it listens to the game's live stream and,
    on each change, reads its view and answers its decision (until the game ends)."""
    with httpx.Client(timeout=30) as http:
        while not stop.is_set():
            if paused.is_set():
                time.sleep(0.05)
                continue
            try:
                url = f"{server.url}/api/play/games/{game}/stream"
                with http.stream("GET", url, params={"token": token}) as events:
                    for line in events.iter_lines():
                        if stop.is_set():
                            return
                        if paused.is_set():
                            break  # the server is about to be killed: act no more
                        if not line.startswith("data:"):
                            continue
                        if _turn(http, server, game, token, stats, think, paused):
                            return
            except httpx.TransportError:
                time.sleep(0.05)  # the server is restarting: the stream reconnects


def think_time(think: float, game: str, step: int) -> float:
    """A player's pause before answering: 0.5 to 1.5 times ``think``, fixed by the game and the
    step (the same run waits the same; no random source)."""
    spread = (sum(map(ord, game)) * 7 + step * 37) % 101 / 100.0
    return think * (0.5 + spread)


def _turn(
    http: httpx.Client,
    server: Server,
    game: str,
    token: str,
    stats: Stats,
    think: float = 0.0,
    paused: threading.Event | None = None,
) -> bool:
    """Read the view; answer the decision if one is pending. True once the game is over.
    Like the page, it asks only for the events after the steps it has seen (``since``)."""
    with stats.lock:
        seen = stats.seen.get((game, token), 0)
    r = http.get(
        f"{server.url}/api/play/games/{game}",
        params={"since": seen},
        headers={"X-Play-Token": token},
    )
    if r.status_code != 200:
        stats.errors.append(f"GET {r.status_code}: {r.text[:120]}")
        return True
    snap = r.json()
    with stats.lock:
        stats.last_steps[game] = snap["steps"]
        stats.seen[(game, token)] = int(snap["steps"])
    if snap["result"] is not None:
        return True
    d = snap["decision"]
    if d is None:
        return False  # the other player decides; the stream says when
    action = d["default"] or d["actions"][0]["action"]
    if think > 0:
        time.sleep(think_time(think, game, int(snap["steps"])))
        if paused is not None and paused.is_set():
            return False  # the server is about to be killed: the stream brings the turn back
    t0 = time.perf_counter()
    r = http.post(
        f"{server.url}/api/play/games/{game}/actions",
        json={"action": action},
        headers={"X-Play-Token": token},
    )
    dt = time.perf_counter() - t0
    with stats.lock:
        if r.status_code == 200:
            stats.latencies.append(dt)
            stats.actions += 1
            timing = r.headers.get("server-timing", "")
            if "dur=" in timing:
                stats.server_ms.append(float(timing.split("dur=")[1]))
        else:
            stats.errors.append(f"POST {r.status_code}: {r.text[:120]}")
    return False


def _game_loop(
    server: Server,
    ruleset: str,
    setup: Any,
    stats: Stats,
    stop: threading.Event,
    paused: threading.Event,
    think: float = 0.0,
) -> None:
    """Play games one after the other in this slot until ``stop``."""
    while not stop.is_set():
        try:
            with httpx.Client(timeout=30) as http:
                r = http.post(
                    f"{server.url}/api/play/games",
                    json={"ruleset": ruleset, "setup": setup, "mode": "network"},
                )
        except httpx.TransportError:
            time.sleep(0.1)
            continue
        if r.status_code != 201:
            stats.errors.append(f"create {r.status_code}: {r.text[:120]}")
            return
        made = r.json()
        with stats.lock:
            stats.games_started += 1
            stats.tokens[made["id"]] = made["tokens"]["spectator"]
        players = [
            threading.Thread(
                target=_client, args=(server, made["id"], tok, stats, stop, paused, think)
            )
            for label, tok in made["tokens"].items()
            if label != "spectator"
        ]
        for t in players:
            t.start()
        for t in players:
            t.join()
        if not stop.is_set():
            with stats.lock:
                stats.games_finished += 1


def _steps(server: Server, stats: Stats) -> dict[str, int]:
    """Every game's step count, read with its spectator token."""
    with stats.lock:
        tokens = dict(stats.tokens)
    out = {}
    with httpx.Client(timeout=30) as http:
        for game, tok in tokens.items():
            r = http.get(f"{server.url}/api/play/games/{game}", headers={"X-Play-Token": tok})
            out[game] = r.json()["steps"] if r.status_code == 200 else -1
    return out


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of ``values``."""
    if not values:
        return float("nan")
    data = sorted(values)
    return data[min(len(data) - 1, int(q * (len(data) - 1) + 0.5))]


def run_load(
    games: int = 20,
    seconds: float = 10.0,
    *,
    restart: bool = False,
    db: str | None = None,
    ruleset: str = "toy-duel",
    setup: Any = None,
    sync_normal: bool = False,
    actions: int | None = None,
    think: float = 0.0,
) -> dict[str, Any]:
    """Run the load and return its figures (see the module docstring). With ``actions`` the
    run is count-based: it ends after that many actions (restarting after half of them) and
    ``seconds`` is only a safety limit (``timed_out`` when reached)."""
    tmp = None
    if db is None:
        tmp = tempfile.mkdtemp(prefix="warbench-load-")
        db = f"sqlite:///{Path(tmp) / 'load.db'}"
    server = Server(db, sync_normal)
    server.start()
    # the server's first game imports the play layer and the ruleset (about 4 s on the busy
    # shared machine): made before the clock starts, so a short run measures play, not start-up
    with httpx.Client(timeout=60) as http:
        http.post(
            f"{server.url}/api/play/games",
            json={"ruleset": ruleset, "setup": setup or TOY_SETUP, "mode": "network"},
        ).raise_for_status()
    stats = Stats()
    stop, paused = threading.Event(), threading.Event()
    slots = [
        threading.Thread(
            target=_game_loop,
            args=(server, ruleset, setup or TOY_SETUP, stats, stop, paused, think),
        )
        for _ in range(games)
    ]
    started = time.monotonic()
    load_before = os.getloadavg()
    cpu_client0 = time.process_time()
    cpu_server = 0.0
    # the server's CPU from here on (its start-up and first game before the clock are not
    # play; after a restart, from the moment every game has been read back)
    cpu_base = server.cpu_seconds() or 0.0
    for t in slots:
        t.start()
    restart_info: dict[str, Any] = {}
    timed_out = False

    def elapsed() -> float:
        return time.monotonic() - started

    def half_way() -> bool:
        """Time to restart: half the actions (or seconds) played, and every game made and
        moved (else the restart would check nothing)."""
        if elapsed() >= (seconds if actions is not None else 300.0):
            return True  # the safety limit
        ready = stats.games_started >= games and stats.actions >= games
        if actions is not None:
            return ready and stats.actions >= actions // 2
        return ready and elapsed() >= seconds / 2

    def done() -> bool:
        if actions is not None:
            return stats.actions >= actions or elapsed() >= seconds
        return elapsed() >= seconds

    try:
        if restart:
            while not half_way():
                time.sleep(0.05)
            paused.set()
            time.sleep(0.3)  # requests in flight finish
            before = _steps(server, stats)
            cpu_server += (server.cpu_seconds() or 0.0) - cpu_base
            server.kill()
            t0 = time.monotonic()
            port = int(server.url.rsplit(":", 1)[1])
            server.start(port)
            restart_info["restart_seconds"] = round(time.monotonic() - t0, 2)
            after = _steps(server, stats)
            cpu_base = server.cpu_seconds() or 0.0
            restart_info["restart_cpu_s"] = round(cpu_base, 2)
            restart_info["games_checked"] = len(before)
            restart_info["resumed_behind"] = [
                (g, n, after.get(g)) for g, n in before.items() if after.get(g) != n
            ]
            paused.clear()
        while not done():
            time.sleep(0.05)
        timed_out = actions is not None and stats.actions < actions
    finally:
        stop.set()
        for t in slots:
            t.join(60)
        cpu_server += (server.cpu_seconds() or 0.0) - cpu_base
        server.stop()
    wall = time.monotonic() - started
    lat = stats.latencies
    return {
        "games": games,
        "seconds": round(time.monotonic() - started, 1),
        "think_s": think,
        "actions_asked": actions,
        "timed_out": timed_out,
        "games_started": stats.games_started,
        "games_finished": stats.games_finished,
        "actions": stats.actions,
        "errors": len(stats.errors),
        "first_errors": stats.errors[:5],
        "p50_ms": round(1000 * percentile(lat, 0.50), 1),
        "p95_ms": round(1000 * percentile(lat, 0.95), 1),
        "p99_ms": round(1000 * percentile(lat, 0.99), 1),
        "max_ms": round(1000 * max(lat), 1) if lat else None,
        "server_p50_ms": round(percentile(stats.server_ms, 0.50), 1),
        "server_p95_ms": round(percentile(stats.server_ms, 0.95), 1),
        # CPU: what the server process and the simulated clients (this process) used, per
        # action, beside the wall clock; the load average says how busy the machine was
        "server_cpu_s": round(cpu_server, 2),
        "server_cpu_ms_per_action": round(1000 * cpu_server / max(1, stats.actions), 2),
        "clients_cpu_s": round(time.process_time() - cpu_client0, 2),
        "wall_s": round(wall, 1),
        "cpu_cores": os.cpu_count(),
        "load_average_before": [round(x, 1) for x in load_before],
        "load_average_after": [round(x, 1) for x in os.getloadavg()],
        **restart_info,
    }


def main(argv: list[str] | None = None) -> int:
    """Command line: print the figures as JSON; exit 1 on any error or a game behind."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--restart", action="store_true", help="kill and restart the server half-way")
    ap.add_argument(
        "--actions",
        type=int,
        default=None,
        help="count-based: stop after this many actions (--seconds is then a safety limit)",
    )
    ap.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="seconds a simulated player waits before answering (0.5x-1.5x; default 0: at once)",
    )
    ap.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    ap.add_argument(
        "--sqlite-sync",
        choices=("full", "normal"),
        default="full",
        help="experiment: the server's SQLite synchronous setting (default: as warbench has it)",
    )
    args = ap.parse_args(argv)
    out = run_load(
        args.games,
        args.seconds,
        restart=args.restart,
        db=args.db,
        sync_normal=args.sqlite_sync == "normal",
        actions=args.actions,
        think=args.think,
    )
    print(json.dumps(out, indent=1))
    return 1 if out["errors"] or out.get("resumed_behind") or out["timed_out"] else 0


if __name__ == "__main__":
    os.environ.setdefault("WARBENCH_DB_TIMEOUT", "30")
    sys.exit(main())
