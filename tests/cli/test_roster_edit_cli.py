"""Editing rosters in the CLI (issue 18): change an entry's models, weapons, Traits, Transport,
link and designations, rename or copy an entry, rename, copy and delete a roster; names are
checked when added, with suggestions; errors are one line with exit status 2."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from tests.cli.test_roster_cli import _build, run
from tests.warsurge.roster.fakes import FakeCoster
from warbench.rulesets.warsurge import costing
from warbench.rulesets.warsurge.roster import Roster
from warbench.storage import Store

SF = "Strike Force"


@pytest.fixture
def db(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> str:
    """A database holding the roster of tests/cli/test_roster_cli.py, costed by a fake."""
    monkeypatch.setattr(costing, "_DEFAULT", [costing.CachingCoster(FakeCoster())])
    url = f"sqlite:///{tmp_path / 'wb.db'}"
    _build(capsys, url, tmp_path)
    return url


def ok(capsys: pytest.CaptureFixture[str], db: str, *args: str) -> str:
    code, out, err = run(capsys, *args, "--db", db)
    assert code == 0, (args, out, err)
    return out


def refused(capsys: pytest.CaptureFixture[str], db: str, *args: str) -> str:
    code, out, err = run(capsys, *args, "--db", db)
    assert code == 2, (args, out, err)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    return err


def roster(db: str, name: str = SF) -> Roster:
    return Store.open(db).roster(name)


def test_edit_the_model_count_keeps_the_weapons(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    ok(capsys, db, "roster", "edit", SF, "troopers", "--models", "5")
    unit = roster(db).entry("Troopers").unit
    assert unit.model_count == 5 and [g.weapons for g in unit.models] == [["Laser Rifle"]]


def test_edit_weapons_from_the_armoury_and_back_from_the_faction_profile(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    ok(capsys, db, "roster", "edit", SF, "Troopers", "--weapons", "Plasma Beam")
    unit = roster(db).entry("Troopers").unit
    assert [w.name for w in unit.weapons] == ["Plasma Beam"] and unit.model_count == 8
    # The Laser Rifle is no longer in the entry: it comes back from the faction's Troopers.
    ok(capsys, db, "roster", "edit", SF, "Troopers", "-g", "6:Laser Rifle", "-g", "2:Plasma Beam")
    unit = roster(db).entry("Troopers").unit
    assert [(g.count, g.weapons) for g in unit.models] == [
        (6, ["Laser Rifle"]),
        (2, ["Plasma Beam"]),
    ]
    err = refused(capsys, db, "roster", "edit", SF, "Troopers", "--models", "3")
    assert "2 model groups" in err
    err = refused(capsys, db, "roster", "edit", SF, "Troopers", "--weapons", "Plasma Bean")
    assert "unknown weapon 'Plasma Bean'; did you mean 'Plasma Beam'?" in err


def test_s12_6_edit_traits_checks_names_with_suggestions(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    # Perks 000_94ecc6a4c74d351b.txt §12.6: Traits are Concealed, Decoy I-III, Respawn, Summon.
    ok(capsys, db, "roster", "edit", SF, "Troopers", "--trait", "concealed")
    assert roster(db).entry("Troopers").traits == ["Concealed"]
    err = refused(capsys, db, "roster", "edit", SF, "Troopers", "--trait", "Respwan")
    assert "unknown Trait 'Respwan'; did you mean 'Respawn'?" in err
    err = refused(capsys, db, "roster", "edit", SF, "Troopers", "--trait", "Tough")
    assert "Tough is a Unit Perk" in err and "Respawn" in err
    ok(capsys, db, "roster", "edit", SF, "Plasma Squad", "--no-trait", "respawn")
    assert roster(db).entry("Plasma Squad").traits == []
    err = refused(capsys, db, "roster", "edit", SF, "Troopers", "--no-trait", "Respawn")
    assert "unknown Trait 'Respawn'" in err


def test_add_checks_trait_roster_perk_transport_and_designation_names(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    base = ("roster", "add", SF, "Troopers", "--name", "T2")
    assert "did you mean 'Respawn'" in refused(capsys, db, *base, "--trait", "Respwan")
    err = refused(capsys, db, *base, "--embark-in", "Ursus")
    assert "unknown roster entry 'Ursus'; did you mean 'Ursus APC'?" in err
    err = refused(capsys, db, *base, "--designate", "Controled=Herald")
    assert "unknown perk 'Controled'; did you mean 'Controlled'" in err
    err = refused(capsys, db, "roster", "perk", SF, "Inspirng")
    assert "unknown Roster Perk 'Inspirng'; did you mean 'Inspiring'" in err
    err = refused(capsys, db, "roster", "perk", SF, "Swift", "--presence", "Heral")
    assert "did you mean 'Herald'" in err
    assert [p.perk for p in roster(db).roster_perks] == ["Inspiring"]


def test_embark_disembark_and_link(capsys: pytest.CaptureFixture[str], db: str) -> None:
    ok(capsys, db, "roster", "edit", SF, "Troopers", "--embark-in", "ursus apc", "--link", "A")
    e = roster(db).entry("Troopers")
    assert e.embarked_in == "Ursus APC" and e.link == "A"
    ok(capsys, db, "roster", "edit", SF, "Troopers", "--disembark", "--unlink")
    e = roster(db).entry("Troopers")
    assert e.embarked_in is None and e.link is None
    refused(capsys, db, "roster", "edit", SF, "Troopers", "--embark-in", "Herald", "--disembark")


def test_rename_an_entry_and_every_reference_follows(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    ok(capsys, db, "roster", "edit", SF, "Ursus APC", "--name", "Rhino")
    ok(capsys, db, "roster", "edit", SF, "Herald", "--name", "Herald Prime")
    r = roster(db)
    assert [e.name for e in r.units][:2] == ["Rhino", "Herald Prime"]
    assert r.entry("Plasma Squad").embarked_in == "Rhino"
    assert r.roster_perks[0].unit == "Herald Prime"
    err = refused(capsys, db, "roster", "edit", SF, "Rhino", "--name", "troopers")
    assert "already has an entry 'Troopers'" in err
    err = refused(capsys, db, "roster", "edit", SF, "Rhin", "--models", "2")
    assert "did you mean 'Rhino'" in err


def test_copy_and_remove_entries(capsys: pytest.CaptureFixture[str], db: str) -> None:
    ok(capsys, db, "roster", "copy-entry", SF, "Plasma Squad")
    ok(capsys, db, "roster", "copy-entry", SF, "Plasma Squad", "--name", "Plasma Squad B")
    r = roster(db)
    names = [e.name for e in r.units]
    assert names[3:6] == ["Plasma Squad", "Plasma Squad B", "Plasma Squad 2"]
    assert r.entry("Plasma Squad 2").unit == r.entry("Plasma Squad").unit
    assert r.entry("Plasma Squad 2").traits == ["Respawn"]
    refused(capsys, db, "roster", "copy-entry", SF, "Herald", "--name", "plasma squad b")
    ok(capsys, db, "roster", "remove", SF, "plasma squad b")
    assert "Plasma Squad B" not in [e.name for e in roster(db).units]


def test_rename_copy_and_delete_a_roster(
    capsys: pytest.CaptureFixture[str], db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = roster(db)
    ok(capsys, db, "roster", "rename", SF, "Spearhead")
    assert roster(db, "Spearhead").units == before.units
    assert "unknown roster 'Strike Force'" in refused(capsys, db, "roster", "show", SF)
    ok(capsys, db, "roster", "rename", "spearhead", "SPEARHEAD")  # letter case only
    ok(capsys, db, "roster", "copy", "Spearhead", "Reserve")
    assert roster(db, "Reserve").units == before.units
    assert "already exists" in refused(capsys, db, "roster", "copy", "Reserve", "spearhead")
    assert "already exists" in refused(capsys, db, "roster", "rename", "Reserve", "Spearhead")

    monkeypatch.setattr("sys.stdin", io.StringIO("n\n"))
    code, _, err = run(capsys, "roster", "delete", "Reserve", "--db", db)
    assert code == 1 and "not deleted" in err
    assert roster(db, "Reserve").units == before.units
    monkeypatch.setattr("sys.stdin", io.StringIO("y\n"))
    ok(capsys, db, "roster", "delete", "Reserve")
    ok(capsys, db, "roster", "delete", "SPEARHEAD", "--yes")
    assert Store.open(db).rosters() == []
    assert "unknown roster 'Nope'" in refused(capsys, db, "roster", "delete", "Nope", "--yes")
