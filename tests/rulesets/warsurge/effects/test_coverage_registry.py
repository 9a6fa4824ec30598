"""The coverage registry (``effects/data/coverage.json``) is exactly what pytest collects from
the game-level test files: a rank is reported in play only by tests that exist and carry its
source line in their names (issue 11, "Done means")."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from warbench.rulesets.warsurge.effects.coverage import (
    GAME_TEST_FILES,
    coverage_report,
    load_coverage,
    ranks_in,
)
from warbench.rulesets.warsurge.effects.table import load_table

ROOT = Path(__file__).resolve().parents[4]


def _builder():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(
        "build_perk_coverage", ROOT / "scripts" / "build_perk_coverage.py"
    )
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_registry_is_what_the_game_level_tests_collect() -> None:
    builder = _builder()
    collected = builder.collected()
    assert json.loads(builder.render())["ranks"] == {k: list(v) for k, v in load_coverage().items()}
    listed = {n for nodes in load_coverage().values() for n in nodes}
    assert listed <= set(collected)


def test_every_listed_test_names_the_line_of_its_rank() -> None:
    t = load_table()
    for name, nodes in load_coverage().items():
        line = t.get(name).line
        for node in nodes:
            assert f"p{line}" in node, (name, node)
            assert node.split("::")[0] in GAME_TEST_FILES


def test_ranks_in_reads_test_names_and_parametrize_ids() -> None:
    got = ranks_in(
        [
            "tests/x.py::test_p2616_burn_costs_1_hp",
            "tests/x.py::test_attack[p3771-Anti-Air I]",
            "tests/x.py::test_l2616_effects_level_is_not_a_game",
            "tests/x.py::test_p99999_no_such_line",
        ]
    )
    assert got == {
        "Anti-Air I": ["tests/x.py::test_attack[p3771-Anti-Air I]"],
        "Burn": ["tests/x.py::test_p2616_burn_costs_1_hp"],
    }
    assert list(got) == ["Burn", "Anti-Air I"]  # book order


def test_the_report_counts_ranks_in_play_from_the_registry() -> None:
    rows = coverage_report()
    assert len(rows) == 386
    assert {r.name for r in rows if r.in_play} == set(load_coverage())


def test_every_rank_the_game_says_acts_has_a_game_level_test() -> None:
    # inert_perks (warbench battle) reports a rank as acting when a game machinery registered
    # it; each such rank must be played by a game-level test
    from warbench.rulesets.warsurge.game.perk_effects import GAME_MACHINERY
    from warbench.rulesets.warsurge.perks import PerkCatalog

    catalog = PerkCatalog.load()
    acting = {n for n in catalog.implemented if catalog.implementation_of(n) in GAME_MACHINERY}
    assert acting - set(load_coverage()) == set()
