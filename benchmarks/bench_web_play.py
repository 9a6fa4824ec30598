"""Web play under load (issue 14): concurrent network games with simulated clients.

Runs ``scripts/play_load.py`` (``warbench serve`` in a subprocess over a fresh SQLite file, N
games at once, two simulated players each that listen to the live stream and answer their
decisions like the page; the server killed and restarted half-way) and checks: no error, every
game resumed at exactly its last action, actions were played. ``make test`` runs it once with
timings off, count-based (4 games, 80 actions, the restart after 40 of them: the same work
however loaded the machine is; a time-based smoke run once checked nothing under load);
``make bench`` runs 20 games for 60 s with players that think about a second before each
answer, and stores the p95 action latency in ``extra_info`` (target ≤ 100 ms). For the issue's
10-minute run: ``scripts/play_load.py --games 20 --seconds 600 --restart --think 1``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

SCRIPT = Path(__file__).parents[1] / "scripts" / "play_load.py"


def _load_module() -> Any:
    spec = importlib.util.spec_from_file_location("play_load", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["play_load"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_bench_web_play_concurrent_games_with_a_restart(benchmark: Any) -> None:
    load = _load_module()
    if benchmark.disabled:  # the smoke run: a count of actions, never a time
        games = 4
        run = lambda: load.run_load(games, 600.0, restart=True, actions=80)  # noqa: E731
    else:
        games = 20
        run = lambda: load.run_load(games, 60.0, restart=True, think=1.0)  # noqa: E731
    out = benchmark.pedantic(run, rounds=1, iterations=1)
    assert out["errors"] == 0, out["first_errors"]
    assert not out["timed_out"], out
    assert out["resumed_behind"] == [], out["resumed_behind"]
    assert out["games_checked"] >= games and out["actions"] > 0
    benchmark.extra_info.update(
        {
            k: out[k]
            for k in (
                "actions", "p50_ms", "p95_ms", "p99_ms", "server_p95_ms",
                "server_cpu_ms_per_action", "think_s", "load_average_before",
                "load_average_after",
            )
        }
    )  # fmt: skip
