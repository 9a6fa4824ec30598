"""``warbench perks --coverage`` / ``--json`` / ``--missing`` (issue 11): ranks in play by
family, read from the coverage registry that test_coverage_registry.py checks."""

from __future__ import annotations

import json

import pytest

from warbench.cli.app import main
from warbench.rulesets.warsurge.effects.coverage import coverage_report


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out + out.err


def test_perks_coverage_prints_the_families_and_the_total(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out = run(capsys, "perks", "--coverage")
    rows = coverage_report()
    in_play = sum(r.in_play for r in rows)
    assert code == 0
    assert f"WARSURGE perks in play: {in_play}/386" in out
    for family in ("Affliction", "Mode", "Roster", "Trait"):
        assert family in out


def test_perks_json_lists_every_rank_with_its_tests(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "perks", "--coverage", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["ranks"] == 386 and len(doc["perks"]) == 386
    assert doc["in_play"] == sum(1 for p in doc["perks"] if p["tests"])
    assert sum(f["in_play"] for f in doc["families"].values()) == doc["in_play"]
    burn = next(p for p in doc["perks"] if p["name"] == "Burn")
    assert burn["source"] == "000_94ecc6a4c74d351b.txt L2616" and burn["family"] == "Affliction"


def test_perks_missing_lists_only_ranks_not_in_play(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "perks", "--missing", "--family", "mode")
    assert code == 0 and "Vortex I" in out and "Blast I" not in out and "Offensive" not in out


def test_perks_unknown_family_is_one_line_naming_the_families(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out = run(capsys, "perks", "--family", "Nope")
    assert code == 2 and len(out.strip().splitlines()) == 1
    assert "Affliction" in out
