"""What ``roster validate`` would reject at once is refused when it is given (issue 18
follow-up): a model group without weapons whose models are worth under 1 pt (Core Rules
001_d3f5e425c5e1196d.txt L1431), a perk that needs weapons when no model carries one (Perks
000_94ecc6a4c74d351b.txt L2187-2191, Berserk), a Presence Roster Perk designated to a unit without
Presence (Perks L1372-1380). One line with the rule and its lines; nothing is saved."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.test_roster_edit_cli import SF, db, ok, refused, roster

__all__ = ["db"]  # the fixture

# Under the fake coster a model is worth hp * (defence + 1) / 2 plus attacks * power per weapon:
# an unarmed Grot 0.5 pt, a Grot with a Stick 1.5 pts.
GROTS = """\
unit: {name: Grots, move: 5, dash: 5, defence: 0, hp: 1, armour: 6+}
weapons: [{name: Stick, range: 0, attacks: 1, power: 1}]
models: [{count: 3, weapons: [Stick]}]
"""
BERSERKERS = """\
unit: {name: Berserkers, move: 6, dash: 6, defence: 4, hp: 2, armour: 5+, perks: [Berserk]}
weapons: [{name: Axe, range: 0, attacks: 2, power: 4}]
models: [{count: 3, weapons: [Axe]}]
"""


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    out = {}
    for name, text in (("grots", GROTS), ("berserkers", BERSERKERS)):
        path = tmp_path / f"{name}.yaml"
        path.write_text(text)
        out[name] = str(path)
    return out


def entries(db: str) -> list[str]:
    return [e.name for e in roster(db).units]


def test_group_without_weapons_worth_under_1_pt_l1431(
    capsys: pytest.CaptureFixture[str], db: str, files: dict[str, str]
) -> None:
    before = entries(db)
    err = refused(capsys, db, "roster", "add", SF, files["grots"], "--group", "3")
    assert "refused, Grots:" in err and "at least 1 pt" in err
    assert "§3.2 Minimum Unit Cost, line 1431" in err
    assert entries(db) == before
    ok(capsys, db, "roster", "add", SF, files["grots"], "--group", "3:Stick")
    assert entries(db) == [*before, "Grots"]


def test_perk_that_needs_weapons_on_an_unarmed_group_l2187(
    capsys: pytest.CaptureFixture[str], db: str, files: dict[str, str]
) -> None:
    err = refused(capsys, db, "roster", "add", SF, files["berserkers"], "--group", "3")
    assert "Berserk needs the unit to have Weapons" in err
    assert "000_94ecc6a4c74d351b.txt line 2187" in err  # the Berserk entry (its text: L2191)


def test_edit_to_an_unarmed_group_is_refused_too(
    capsys: pytest.CaptureFixture[str], db: str, files: dict[str, str]
) -> None:
    ok(capsys, db, "roster", "add", SF, files["grots"], "--group", "3:Stick")
    err = refused(capsys, db, "roster", "edit", SF, "Grots", "--group", "3")
    assert "line 1431" in err
    assert roster(db).entry("Grots").unit.models[0].weapons == ["Stick"]


def test_presence_perk_designated_to_a_unit_without_presence_l1372(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    ok(capsys, db, "roster", "perk", SF, "Inspiring", "--remove")
    err = refused(capsys, db, "roster", "perk", SF, "Inspiring", "--presence", "Troopers")
    assert "Inspiring is designated to Troopers, which does not have the Presence perk" in err
    assert "§12.4 Presence, lines 1372-1380" in err
    assert "Inspiring" not in [p.perk for p in roster(db).roster_perks]
    ok(capsys, db, "roster", "perk", SF, "Inspiring", "--presence", "Herald")


def test_presence_perk_without_a_designation_yet_is_left_to_validate(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    ok(capsys, db, "roster", "perk", SF, "Inspiring", "--remove")
    ok(capsys, db, "roster", "perk", SF, "Inspiring")  # the Presence unit may come later
    assert [p.unit for p in roster(db).roster_perks if p.perk == "Inspiring"] == [None]
