"""Write ``src/warbench/rulesets/warsurge/effects/data/coverage.json``: the game-level tests of
each perk rank, as pytest collects them (see ``warbench.rulesets.warsurge.effects.coverage``).

    .venv/bin/python scripts/build_perk_coverage.py          # rewrite
    .venv/bin/python scripts/build_perk_coverage.py --check  # exit 1 if stale
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src/warbench/rulesets/warsurge/effects/data/coverage.json"


def collected() -> list[str]:
    """Node ids of the game-level test files (``pytest --collect-only``)."""
    from warbench.rulesets.warsurge.effects.coverage import GAME_TEST_FILES

    files = [f for f in GAME_TEST_FILES if (ROOT / f).exists()]
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "-o",
            "addopts=",
            "-p",
            "no:cacheprovider",
            *files,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [line.strip() for line in out.splitlines() if "::" in line]


def render() -> str:
    from warbench.rulesets.warsurge.effects.coverage import GAME_TEST_FILES, ranks_in

    ranks = ranks_in(collected())
    doc = {"format": "warbench-perk-coverage/1", "files": list(GAME_TEST_FILES), "ranks": ranks}
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        if OUT.read_text("utf-8") != text:
            print(f"{OUT} is stale: run scripts/build_perk_coverage.py")
            return 1
        return 0
    OUT.write_text(text, "utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
