"""Start-up (issue 18): light commands import no heavy module.

``warbench roll`` and ``warbench --help`` run in a fresh interpreter; the test lists the modules
loaded by the end (``sys.modules``) and fails if any heavy library or rules module is among them.
No wall-clock limit: the figures are in benchmarks/bench_startup.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from warbench.cli.roll_history import HISTORY_ENV

# Libraries that only some commands need, and the rules modules (numpy-heavy). pydantic is not
# listed: typer itself (0.29) converts every option value through a pydantic TypeAdapter.
HEAVY = (
    "sqlalchemy",
    "alembic",
    "shapely",
    "matplotlib",
    "numpy",
    "icepool",
    "yaml",
    "jinja2",
    "segno",
    "scipy",
    "numba",  # sight's compiled kernels import it on their first call (session 37)
    "warbench.storage",
    "warbench.rulesets",
    "rich.console",  # typer's plain help and roll's plain lines need no rich console
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


def loaded_modules(*args: str, history: Path | None = None) -> set[str]:
    """The modules a fresh ``warbench ARGS`` process has imported when it ends."""
    env = dict(os.environ)
    if history is not None:
        env[HISTORY_ENV] = str(history)
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, check=True, env=env
    )
    return set(json.loads(proc.stderr.strip().splitlines()[-1]))


def heavy_in(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


@pytest.mark.parametrize(
    "args",
    [
        ("roll", "2D6"),
        ("--help",),
        ("roll", "--help"),
        ("roll", "10D6", "--need", "4+", "--reroll", "1", "-n", "3"),
        ("roll", "scatter"),
        ("roll", "aether", "--modifier", "-1"),
        ("roll", "--history"),
        ("perks", "--help"),
    ],
    ids=["roll", "help", "roll-help", "roll-need", "scatter", "aether", "history", "perks-help"],
)
def test_light_commands_import_no_heavy_module(args: tuple[str, ...], tmp_path: Path) -> None:
    assert heavy_in(loaded_modules(*args, history=tmp_path / "h.jsonl")) == []


def test_probe_sees_heavy_modules_of_a_heavy_command() -> None:
    # The probe itself works: a command that needs the rules does load them.
    assert "warbench.rulesets.warsurge.chart" in loaded_modules("chart", "--power", "3")


def test_command_modules_name_every_command_and_its_modules() -> None:
    # main() loads only the modules COMMAND_MODULES names for the first word; a command missing
    # there (or a module missing for it) would make that command load everything, or fail.
    from warbench.cli.app import COMMAND_MODULES, _register, app

    _register()
    found: dict[str, set[str]] = {}
    for c in app.registered_commands:
        assert c.callback is not None
        found[c.name or c.callback.__name__] = {c.callback.__module__}
    for g in app.registered_groups:
        assert g.name is not None and g.typer_instance is not None
        found[g.name] = {
            c.callback.__module__ for c in g.typer_instance.registered_commands if c.callback
        }
    assert set(found) == set(COMMAND_MODULES)
    for name, modules in found.items():
        assert modules <= {f"warbench.cli.{m}" for m in COMMAND_MODULES[name]}, name


def test_a_command_loads_only_its_own_module(tmp_path: Path) -> None:
    loaded = loaded_modules("roll", "D6", history=tmp_path / "h.jsonl")
    assert "warbench.cli.dice_cmds" in loaded
    assert not {"warbench.cli.roster_cmds", "warbench.cli.game_cmds"} & loaded
