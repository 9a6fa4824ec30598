"""The split of the rules by the book's sections changed nothing, and the game package has no
import cycle (issue 10).

Fingerprints (actions, events, final digest) of 12 scripted and 8 random-legal seeded games
were recorded on main before the split (``data/fingerprints.json``, see ``fingerprints.py``);
two scripted games were re-recorded for a documented change of the scripted player's search
(session 29, docs/game.md "an eleventh pass").
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from warbench.rulesets.warsurge import game as game_pkg

from .fingerprints import GAMES, RECORDED, fingerprint, game_id

_RECORDED = json.loads(RECORDED.read_text())


@pytest.mark.parametrize("game", GAMES, ids=[game_id(g) for g in GAMES])
def test_seeded_game_fingerprint_matches_the_one_recorded_before_the_split(
    game: tuple[str, int, str, int],
) -> None:
    assert fingerprint(game) == _RECORDED[game_id(game)]


def _imports(path: Path) -> set[str]:
    """Modules of the game package that ``path`` imports (TYPE_CHECKING imports included)."""
    out: set[str] = set()
    prefix = "warbench.rulesets.warsurge.game"
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == prefix:
                out.update(a.name for a in node.names)
            elif node.module.startswith(prefix + "."):
                out.add(node.module.removeprefix(prefix + ".").split(".")[0])
    return out


def test_the_game_package_has_no_import_cycle_not_even_for_types() -> None:
    root = Path(game_pkg.__file__).parent
    graph = {p.stem: _imports(p) for p in root.glob("*.py") if p.stem != "__init__"}
    graph = {m: {d for d in deps if d in graph and d != m} for m, deps in graph.items()}
    done: set[str] = set()

    def visit(m: str, path: tuple[str, ...]) -> None:
        assert m not in path, f"import cycle: {' -> '.join((*path, m))}"
        if m in done:
            return
        for d in sorted(graph[m]):
            visit(d, (*path, m))
        done.add(m)

    for m in sorted(graph):
        visit(m, ())


def test_each_rules_file_stays_short_enough_to_read_beside_the_book() -> None:
    root = Path(game_pkg.__file__).parent
    for path in root.glob("*.py"):
        assert len(path.read_text().splitlines()) <= 800, path.name
