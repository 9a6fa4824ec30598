"""Bounded reader speed (issue 19): a YAML unit file of 1,000 units (0.26 MB), and a refusal.

The bounded reader (libyaml's events under warbench's composer, with depth, alias and
duplicate-key checks) against PyYAML's pure-Python ``SafeLoader`` (what warbench used before)
and PyYAML's ``CSafeLoader`` (C composer, no checks; it overflows the C stack on a 200 KB file
nested 100,000 deep). Measured on the 2-core shared machine (minimum of 3 rounds):

| reader | 1,000 units, 0.26 MB | 4,000 units, 1.05 MB |
| --- | --- | --- |
| ``yaml.SafeLoader`` (before) | 1.14 s | 6.2 s |
| bounded reader | 0.42 s | 2.1 s |
| ``yaml.CSafeLoader`` | 0.29 s | 2.3 s |

(The shared machine makes single figures vary by about 30%; the bounded reader is 2.5-3 times
as fast as the loader it replaces, within 1.0-1.5 times of ``CSafeLoader``.) The 9^9 alias
bomb is refused in about 0.1 ms. Run with ``make bench``.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import yaml

from warbench.kernel import readers

ROOT = Path(__file__).resolve().parents[1]
ROOMY = readers.Limits("benchmark file", 16 * readers.MIB)


def _units_text(n: int = 1000) -> str:
    unit = yaml.safe_load((ROOT / "examples" / "warsurge" / "troopers_10.yaml").read_text())
    return yaml.safe_dump({"units": [copy.deepcopy(unit) for _ in range(n)]})


TEXT = _units_text()


def test_bounded_reader_1000_units(benchmark: Any) -> None:
    data = benchmark.pedantic(
        lambda: readers.parse_yaml(TEXT, "units.yaml", ROOMY), rounds=3, iterations=1
    )
    assert len(data["units"]) == 1000


def test_pyyaml_c_safe_loader_1000_units(benchmark: Any) -> None:
    data = benchmark.pedantic(
        lambda: yaml.load(TEXT, Loader=yaml.CSafeLoader), rounds=3, iterations=1
    )
    assert len(data["units"]) == 1000


def test_pyyaml_pure_python_safe_loader_1000_units(benchmark: Any) -> None:
    data = benchmark.pedantic(
        lambda: yaml.load(TEXT, Loader=yaml.SafeLoader), rounds=3, iterations=1
    )
    assert len(data["units"]) == 1000


def test_alias_bomb_refusal(benchmark: Any) -> None:
    parts = ['&a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    parts += [f"&a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 9)]
    bomb = "unit: [" + ", ".join(parts) + "]\n"

    def run() -> str:
        try:
            readers.parse_yaml(bomb, "bomb.yaml", readers.PROFILE_FILE)
        except readers.InputLimitError as exc:
            return str(exc)
        return ""

    assert "aliases expand" in benchmark.pedantic(run, rounds=10, iterations=1)
