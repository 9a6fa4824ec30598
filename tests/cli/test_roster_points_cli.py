"""What a roster pays, line by line, and what each perk adds to a unit's price (issue 18,
"Rosters and points"): every line that costs points is shown and the lines add up to the
total; ``points --why`` shows every priced perk and its method, odds-measured ones included."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from warbench.cli.app import main
from warbench.rulesets.warsurge.game.io import load_game_roster
from warbench.rulesets.warsurge.roster import Roster, RosterEntry, validate_roster
from warbench.rulesets.warsurge.roster_io import dump_roster, load_roster

ROOT = Path(__file__).parents[2]
EX = ROOT / "examples" / "warsurge"
ROSTER_FILES = sorted((EX / "roster_files").glob("*.yaml"))
GAME_ROSTERS = sorted((EX / "rosters").glob("*.yaml"))


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def _from_game_roster(path: Path) -> Roster:
    """A game roster's units as a WARSURGE roster (each entry named uniquely)."""
    player = load_game_roster(path)
    entries = [
        RosterEntry.of(e.unit, name=f"{e.name or e.unit.name} #{i + 1}")
        for i, e in enumerate(player.roster)
    ]
    return Roster(name=player.name, point_limit=100_000, units=entries)


def _sample_rosters(tmp_path: Path) -> list[Path]:
    out = list(ROSTER_FILES)
    for p in GAME_ROSTERS:
        target = tmp_path / f"{p.stem}.roster.yaml"
        dump_roster(_from_game_roster(p), target)
        out.append(target)
    return out


def _shown_points(text: str) -> tuple[int, list[int], int]:
    """The title's total, the Pts column of every row, and the footer's total."""
    title = re.search(r": (\d+) / \d+ pts", text)
    assert title is not None, text
    rows: list[int] = []
    footer = -1
    for line in text.splitlines():
        cells = [c.strip() for c in line.split("│")]
        if len(cells) != 5:
            continue
        if cells[0] == "Total":
            footer = int(cells[3])
        elif re.fullmatch(r"[+-]?\d+", cells[3]):
            rows.append(int(cells[3]))
    return int(title[1]), rows, footer


def test_sample_roster_files_exist_and_are_legal() -> None:
    assert ROSTER_FILES, "examples/warsurge/roster_files/ holds sample roster files"
    for path in ROSTER_FILES:
        report = validate_roster(load_roster(path))
        assert report.ok, [str(v) for v in report.violations]
        assert report.perk_lines, "a sample roster with a priced Roster Perk"


def test_s3_1_every_priced_line_of_the_sample_rosters_adds_up_to_the_total(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Core Rules 001_d3f5e425c5e1196d.txt §3.1 (the Point Limit is checked against the total)
    # and Perks 000_94ecc6a4c74d351b.txt §12.6 (Traits and Roster Perks are paid for).
    for path in _sample_rosters(tmp_path):
        roster = load_roster(path)
        report = validate_roster(roster)
        assert sum(line.points for line in report.lines) == report.total, path
        for e in report.entries:
            assert sum(line.points for line in e.lines) == e.points, (path, e.entry)
        for command in ("show", "validate"):
            code, out, err = run(capsys, "roster", command, str(path))
            assert code == (0 if report.ok else 1) or command == "show", err
            total, rows, footer = _shown_points(out)
            assert total == footer == report.total == sum(rows), (path, command, out)
        code, out, _ = run(capsys, "roster", "validate", str(path), "--json")
        doc = json.loads(out)
        assert sum(line["points"] for line in doc["lines"]) == doc["total"] == report.total


def test_s12_6_roster_perks_traits_and_table_priced_perks_each_have_a_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = EX / "roster_files" / "strike_force.yaml"
    report = validate_roster(load_roster(path))
    kinds = {(line.kind, line.label) for line in report.lines}
    assert ("roster perk", "Inspiring") in kinds
    assert ("trait", "Respawn") in kinds
    assert ("perk", "Leader") in kinds and ("perk", "Burn") in kinds
    code, out, _ = run(capsys, "roster", "show", str(path))
    assert code == 0
    for text in ("Inspiring (designated: Herald)", "Respawn (Trait)", "Leader (on Herald)"):
        assert text in out
    assert "Tough, Rapid measured by odds" in out
    methods = {line.label: line.method for line in report.lines}
    assert methods["Respawn"] == "table multiplier ×1.8"  # data/perk_prices.yaml
    assert methods["Inspiring"] == "table, per roster +120"
    assert methods["Leader"] == "table multiplier ×1.15"


def test_points_why_lists_perks_priced_by_odds_and_by_the_table(
    capsys: pytest.CaptureFixture[str],
) -> None:
    herald = EX / "herald.yaml"
    code, out, err = run(capsys, "points", str(herald), "--why")
    assert code == 0, err
    rows = {
        cells[0]: cells
        for line in out.splitlines()
        if len(cells := [c.strip() for c in line.split("│")]) == 5
    }
    assert rows["Tough"][1] == "Herald" and rows["Tough"][2] == "measured by odds"
    assert rows["Rapid"][1] == "Storm Bolter" and rows["Rapid"][2] == "measured by odds"
    assert rows["Leader"][2] == "table multiplier ×1.15"
    assert rows["Burn"][1] == "Power Sword"
    code, out, _ = run(capsys, "points", str(herald), "--json")
    perks = {p["perk"]: p for p in json.loads(out)["units"][0]["perks"]}
    assert perks["Tough"]["method"] == perks["Rapid"]["method"] == "odds"
    assert perks["Leader"]["method"] == "multiplier" and perks["Leader"]["value"] == 1.15
    assert perks["Tough"]["points"] > 0 and perks["Rapid"]["points"] > 0
    assert set(perks) == {"Leader", "Presence", "Tough", "Rapid", "Burn"}
