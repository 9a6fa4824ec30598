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
    # the family is taken from the coverage report (a family with a rank not in play yet), so
    # ranks entering play never break this test (the Mode family is complete since session 25)
    report = coverage_report()
    missing = [r for r in report if not r.tests]
    if not missing:
        code, out = run(capsys, "perks", "--missing")
        assert code == 0 and "Offensive" not in out
        return
    family = missing[0].family
    code, out = run(capsys, "perks", "--missing", "--family", family.lower())
    assert code == 0 and "Offensive" not in out
    assert all(r.name in out for r in missing if r.family == family)
    names = {r.name for r in missing}
    played = [r.name for r in report if r.family == family and r.tests]
    assert not any(p in out for p in played if not any(p in n for n in names))


def test_perks_unknown_family_is_one_line_naming_the_families(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out = run(capsys, "perks", "--family", "Nope")
    assert code == 2 and len(out.strip().splitlines()) == 1
    assert "Affliction" in out
