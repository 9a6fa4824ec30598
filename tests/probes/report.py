"""Count what the hostile-input probes find, and measure the bombs (issue 19's table).

Run from a worktree (``PYTHONPATH=/path/to/other/src`` probes another version)::

    .venv/bin/python -m tests.probes.report --examples 100

Every case runs in-process through the CLI (``hostile.py``) under an alarm (a case still running
after ``--hang`` seconds is a hang) and an address-space limit (``--memory`` GB), and is counted
as a traceback, a hang, a wrong success or a bad message. The bombs run in a subprocess each,
under ``/usr/bin/time`` (seconds, max RSS), with a timeout.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import resource
import signal
import subprocess
import sys
import time
import zlib
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from . import hostile
from .hostile import Case, Outcome


class Hang(Exception):
    """A case ran past the alarm."""


def _alarm(signum: int, frame: Any) -> None:
    raise Hang


def probe(
    name: str,
    strategy: st.SearchStrategy[Case],
    run: Callable[[Case], Outcome],
    examples: int,
    hang: int,
    seed_value: int = 19,
) -> tuple[Counter[str], list[str]]:
    counts: Counter[str] = Counter()
    samples: list[str] = []

    @seed(seed_value)
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=strategy)
    def one(case: Case) -> None:
        signal.alarm(hang)
        try:
            out = run(case)
        except (Hang, MemoryError) as exc:  # outside the command: in the probe's own reading
            out = Outcome([], -1, "", "", exc)
        finally:
            signal.alarm(0)
        counts["cases"] += 1
        if isinstance(out.exception, Hang):
            kind = "hang"
        elif isinstance(out.exception, MemoryError):
            kind = "traceback"
        else:
            problems = out.problems(case.must_fail)
            kind = problems[0].split(":")[0] if problems else "ok"
        counts[kind] += 1
        if kind != "ok" and len(samples) < 6:
            detail = out.problems(case.must_fail) or [type(out.exception).__name__]
            samples.append(f"{name}: {case.what[:90]} -> {detail[0][:150]}")

    one()
    return counts, samples


def bomb(title: str, script: str, timeout: int, memory_gb: float, *argv: str) -> str:
    """Run ``script`` in a fresh interpreter; seconds, max RSS and the first output line."""
    limit = int(memory_gb * 1024**3)
    cmd = ["/usr/bin/time", "-f", "TIME %e %M", sys.executable, "-c", script, *argv]

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    t0 = time.perf_counter()
    try:
        p = subprocess.run(
            cmd,
            capture_output=True,
            text=True,
            timeout=timeout,
            preexec_fn=cap,
            check=False,
            cwd=hostile.ROOT,
        )
    except subprocess.TimeoutExpired:
        return f"| {title} | > {timeout} s (killed) | - | hang |"
    lines = p.stderr.strip().splitlines()
    stats = next((ln for ln in reversed(lines) if ln.startswith("TIME ")), "TIME ? 0").split()
    secs, rss = stats[1], int(stats[2]) / 1024
    out = [ln for ln in (p.stdout + p.stderr).splitlines() if ln and not ln.startswith("TIME ")]
    crashed = any("Traceback" in ln for ln in out) or "MemoryError" in p.stderr
    text = " / ".join(out)[-300:].replace("|", "/")
    return (
        f"| {title} | {secs} s ({time.perf_counter() - t0:.1f}) | {rss:,.0f} MB | "
        f"{'traceback: ' if crashed else ''}{text} |"
    )


_BOMB_YAML = """
import pathlib, tempfile
from typer.testing import CliRunner
from warbench.cli.app import app, _register
from tests.probes.hostile import _bomb
_register()
d = pathlib.Path(tempfile.mkdtemp())
p = d / "bomb.yaml"
p.write_text("unit: {name: " + _bomb(9, 9) + ", move: 6, dash: 6, defence: 3, hp: 1}\\n"
             "models: [{count: 1}]\\n")
print(len(p.read_bytes()), "bytes")
r = CliRunner().invoke(app, ["points", str(p)])
print(r.exit_code, len(r.stderr), r.stderr[:200].strip())
if r.exception and not isinstance(r.exception, SystemExit):
    print("Traceback:", type(r.exception).__name__)
"""

_BOMB_CODE = """
import pathlib, sys, time
from warbench.rulesets.warsurge.share import decode
code = pathlib.Path(sys.argv[1]).read_text()
t = time.perf_counter()
try:
    decode(code)
    print("decoded")
except Exception as e:
    print(type(e).__name__, len(str(e)), "chars:", str(e)[:90].replace(chr(10), " / "))
print(len(code), "characters,", f"decode {time.perf_counter() - t:.1f} s")
"""


def code_bomb(size: int = 1024**3) -> Path:
    """A share code whose roster JSON is ``size`` bytes (a 1 GiB name), written to a file."""
    path = hostile.WORK / "code_bomb.txt"
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    parts = [comp.compress(b'{"name": "')]
    chunk = b"A" * (1 << 20)
    for _ in range(size // len(chunk)):
        parts.append(comp.compress(chunk))
    parts.append(comp.compress(b'"}'))
    parts.append(comp.flush())
    stream = b"".join(parts)
    body = len(stream).to_bytes(3, "big") + stream
    check = hashlib.sha256(body).digest()[:4]
    path.write_text("WBR1:" + base64.b32encode(body + check).decode().rstrip("="))
    return path


_HUGE_YAML = """
import pathlib, tempfile, time
from typer.testing import CliRunner
from warbench.cli.app import app, _register
_register()
d = pathlib.Path(tempfile.mkdtemp())
p = d / "huge.yaml"
name = "x" * (50 * 1024 * 1024)
p.write_text("unit: {name: " + name + ", move: 6, dash: 6, defence: 3, hp: 1}\\n"
             "models: [{count: 1}]\\n")
t = time.perf_counter()
r = CliRunner().invoke(app, ["points", str(p)])
took = f"{time.perf_counter() - t:.1f} s"
print(r.exit_code, took, len(r.stderr), "chars:", r.stderr[:150].strip())
"""

_DEEP = """
import pathlib, tempfile
from typer.testing import CliRunner
from warbench.cli.app import app, _register
_register()
d = pathlib.Path(tempfile.mkdtemp())
runs = []
for name, text, args in [
    ("u.yaml", "unit: " + "[" * 1000 + "]" * 1000 + "\\n", ["points"]),
    ("u.json", '{"unit": ' + "[" * 1000 + "]" * 1000 + "}", ["points"]),
    ("r.json", '{"roster": ' + "[" * 1000 + "]" * 1000 + "}", ["roster", "validate"]),
    ("f.yaml", "name: " + "[" * 1000 + "]" * 1000 + "\\n", ["warengine", "validate"]),
]:
    p = d / name
    p.write_text(text)
    r = CliRunner().invoke(app, [*args, str(p)])
    bad = r.exception is not None and not isinstance(r.exception, SystemExit)
    runs.append(type(r.exception).__name__ if bad else "ok")
print("deep 1000:", ", ".join(runs))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--examples", type=int, default=50, help="cases per probe")
    ap.add_argument("--hang", type=int, default=20, help="seconds before a case is a hang")
    ap.add_argument("--memory", type=float, default=4.0, help="address-space limit, GB")
    ap.add_argument("--seed", type=int, default=19, help="hypothesis seed (same cases each run)")
    ap.add_argument("--no-bombs", action="store_true")
    args = ap.parse_args()
    limit = int(args.memory * 1024**3)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    signal.signal(signal.SIGALRM, _alarm)
    hostile.record_lines()
    total: Counter[str] = Counter()
    rows = []
    all_samples: list[str] = []
    probes: list[tuple[str, st.SearchStrategy[Case], Callable[[Case], Outcome]]] = [
        (
            kind,
            hostile.hostile_documents(hostile.FILE_KINDS[kind][0](), kind),
            lambda c, k=kind: hostile.run_file_case(k, c),  # type: ignore[misc]
        )
        for kind in hostile.FILE_KINDS
    ]
    probes += [
        ("share code", hostile.hostile_codes(), hostile.run_code_case),
        ("game record", hostile.hostile_records(), hostile.run_record_case),
    ]
    for name, strategy, run in probes:
        t0 = time.perf_counter()
        counts, samples = probe(name, strategy, run, args.examples, args.hang, args.seed)
        total.update(counts)
        all_samples += samples
        rows.append(
            f"| {name} | {counts['cases']} | {counts['traceback']} | {counts['hang']} | "
            f"{counts['wrong success']} | {counts['bad message']} | "
            f"{time.perf_counter() - t0:.0f} s |"
        )
    print(
        "| probe | cases | tracebacks | hangs | wrong successes | multi-line / long errors | time |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    print("\n".join(rows))
    print(
        f"| **all** | {total['cases']} | {total['traceback']} | {total['hang']} | "
        f"{total['wrong success']} | {total['bad message']} | |"
    )
    for s in all_samples:
        print("  -", s)
    if args.no_bombs:
        return
    print()
    print("| bomb | time (wall) | max RSS | result |")
    print("| --- | --- | --- | --- |")
    print(bomb("YAML alias bomb (9^9) in a unit file, `points`", _BOMB_YAML, 60, args.memory))
    code = str(code_bomb())
    print(bomb("share code inflating to 1 GiB, `decode`", _BOMB_CODE, 120, args.memory, code))
    print(bomb("50 MB unit YAML with an invalid name, `points`", _HUGE_YAML, 120, args.memory))
    print(bomb("nesting 1000 deep (unit YAML/JSON, roster, WarEngine)", _DEEP, 60, args.memory))


if __name__ == "__main__":
    main()
