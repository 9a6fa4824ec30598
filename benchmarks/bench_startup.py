"""CLI start-up time (issue 18): ``warbench roll 2D6`` and ``warbench --help`` against a bare
Python process that only imports typer and rich.

Target: each command within 3x the bare process (median wall-clock time of whole
subprocesses, interleaved so that machine load hits every command alike). The figures are a
ratio measured in one run, so they hold on a slow or a busy machine. ``make bench`` checks the
target (the milliseconds are in the benchmark's ``extra_info``, ``-s`` prints them);
``python benchmarks/bench_startup.py [REPEATS]`` prints them without pytest. Inside ``make test``
(benchmarks disabled) each command runs once, to check that it still starts.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TARGET_RATIO = 3.0

# The ``warbench`` console script is ``from warbench.cli import main; sys.exit(main())``.
_WARBENCH = "import sys; from warbench.cli import main; sys.exit(main())"
COMMANDS: dict[str, list[str]] = {
    "typer+rich": [sys.executable, "-c", "import typer, rich"],
    "warbench roll 2D6": [sys.executable, "-c", _WARBENCH, "roll", "2D6"],
    "warbench --help": [sys.executable, "-c", _WARBENCH, "--help"],
}


def _env(history: Path) -> dict[str, str]:
    """The environment of every timed process.

    Bytecode may be written: an installed warbench has compiled ``.pyc`` files like typer and
    rich do, so a sandbox's ``PYTHONDONTWRITEBYTECODE`` would charge warbench alone for
    compiling its sources on every start. The roll history goes to a temporary file.
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["WARBENCH_ROLL_HISTORY"] = str(history)
    return env


def _run_once(argv: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    return time.perf_counter() - t0


def startup_medians(repeats: int = 9) -> dict[str, float]:
    """Median seconds per command over ``repeats`` interleaved runs, after one warm-up run of
    each (which also checks that every command starts); no figures when ``repeats`` is 0."""
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    with tempfile.TemporaryDirectory() as tmp:
        env = _env(Path(tmp) / "roll_history.jsonl")
        for argv in COMMANDS.values():
            _run_once(argv, env)  # warm the OS file cache and the .pyc files
        for _ in range(repeats):
            for name, argv in COMMANDS.items():
                times[name].append(_run_once(argv, env))
    return {name: statistics.median(ts) for name, ts in times.items() if ts}


def report(medians: dict[str, float]) -> list[str]:
    """One line per command: median milliseconds and the ratio to the bare process."""
    base = medians["typer+rich"]
    return [f"{name:20} {1000 * t:7.1f} ms  {t / base:5.2f}x" for name, t in medians.items()]


def test_bench_startup_ratio(benchmark: Any) -> None:
    # make test (benchmarks disabled): each command starts once, no figures.
    repeats = 0 if benchmark.disabled else 9
    medians = benchmark.pedantic(startup_medians, args=(repeats,), rounds=1, iterations=1)
    if not medians:
        return
    base = medians["typer+rich"]
    for name, t in medians.items():
        benchmark.extra_info[name] = round(1000 * t, 1)
    print("\n" + "\n".join(report(medians)))
    worst = max(t / base for name, t in medians.items() if name != "typer+rich")
    assert worst <= TARGET_RATIO, report(medians)


if __name__ == "__main__":
    print("\n".join(report(startup_medians(int(sys.argv[1]) if len(sys.argv) > 1 else 9))))
