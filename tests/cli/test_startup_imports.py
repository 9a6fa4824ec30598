"""Start-up (issue 18): light commands import no heavy module.

``warbench roll`` and ``warbench --help`` run in a fresh interpreter; the test lists the modules
loaded by the end (``sys.modules``) and fails if any heavy library or rules module is among them.
No wall-clock limit: the figures are in benchmarks/bench_startup.py.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

# Libraries that only some commands need, and rules modules that pull in numpy-heavy code.
HEAVY = (
    "sqlalchemy",
    "alembic",
    "shapely",
    "matplotlib",
    "icepool",
    "pydantic",
    "yaml",
    "jinja2",
    "segno",
    "scipy",
    "warbench.storage",
    "warbench.rulesets",
)

_PROBE = """
import json, sys
from warbench.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def loaded_modules(*args: str) -> set[str]:
    """The modules a fresh ``warbench ARGS`` process has imported when it ends."""
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, check=True
    )
    return set(json.loads(proc.stderr.strip().splitlines()[-1]))


def heavy_in(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


@pytest.mark.parametrize(
    "args",
    [("roll", "2D6"), ("--help",), ("roll", "--help"), ("roll", "D6", "--need", "4+", "-n", "3")],
    ids=["roll", "help", "roll-help", "roll-need"],
)
def test_light_commands_import_no_heavy_module(args: tuple[str, ...]) -> None:
    assert heavy_in(loaded_modules(*args)) == []


def test_probe_sees_heavy_modules_of_a_heavy_command() -> None:
    # The probe itself works: a command that needs the rules does load them.
    assert "warbench.rulesets.warsurge.chart" in loaded_modules("chart", "--power", "3")
