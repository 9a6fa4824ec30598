"""``--ruleset`` forms shared by the rulesets: points, roster validate, odds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from warbench.cli.app import main, ruleset_alias

ROOT = Path(__file__).parents[2]
WARPEYES = ROOT / "examples" / "warengine" / "warpeyes.yaml"
FORCE = ROOT / "examples" / "warengine" / "stormreavers.yaml"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out + out.err


def test_ruleset_alias_rewrites_odds_only() -> None:
    assert ruleset_alias(["odds", "--ruleset", "warengine", "--attack", "4k3"]) == [
        "warengine", "odds", "--attack", "4k3",
    ]  # fmt: skip
    assert ruleset_alias(["odds", "--ruleset=warengine"]) == ["warengine", "odds"]
    assert ruleset_alias(["odds", "a.yaml", "b.yaml", "-r", "warsurge"]) == [
        "odds", "a.yaml", "b.yaml", "-r", "warsurge",
    ]  # fmt: skip
    assert ruleset_alias(["points", "--ruleset", "warengine"]) == [
        "points",
        "--ruleset",
        "warengine",
    ]


def test_points_ruleset_warengine_is_the_warengine_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out = run(capsys, "points", "--ruleset", "warengine", str(WARPEYES), "--json")
    assert code == 0
    assert json.loads(out)["points"] == 244  # 004 Figure Builder Example


def test_roster_validate_ruleset_warengine(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "roster", "validate", "-r", "warengine", str(FORCE))
    assert code == 0
    assert "legal" in out


def test_odds_ruleset_warengine(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "odds", "--ruleset", "warengine", "--attack", "4k3", "--defense", "3k2")
    assert code == 0
    assert "4k3" in out


def test_points_warsurge_itemises_every_unit(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "points", str(ROOT / "examples" / "warsurge" / "troopers_10.yaml"))
    assert code == 0
    assert "Body" in out and "Mobility" in out and "points model ws-points-1" in out


def test_points_warsurge_json_totals_match_the_model(capsys: pytest.CaptureFixture[str]) -> None:
    from warbench.rulesets.warsurge.io import load_units
    from warbench.rulesets.warsurge.points import cost_unit

    path = ROOT / "examples" / "warsurge" / "legionaries_mixed.yaml"
    code, out = run(capsys, "points", str(path), "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["points_model"] == "ws-points-1"
    assert doc["total"] == sum(cost_unit(u).total for u in load_units(path))
    assert doc["units"][0]["groups"][0]["items"][0]["label"] == "Body"


def test_points_warsurge_bad_file_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: X\nmove: 99\n")
    code, out = run(capsys, "points", str(bad))
    assert code == 2
    assert "Traceback" not in out and len(out.strip().splitlines()) == 1
