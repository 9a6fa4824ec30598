"""Factions, Armoury and Rosters through the CLI: a roster made here survives
export -> share code -> QR -> import unchanged (issue 3, Done when)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.warsurge.roster.fakes import FakeCoster
from warbench.cli.app import main
from warbench.rulesets.warsurge import costing
from warbench.rulesets.warsurge.roster_io import load_roster
from warbench.rulesets.warsurge.share import decode
from warbench.storage import Store

ROOT = Path(__file__).parents[2]
EX = ROOT / "examples" / "warsurge"

APC = """\
unit: {name: Ursus APC, move: 10, dash: 10, defence: 9, hp: 12, armour: 3+, transport: 150,
       fire_points: 2}
models: [{count: 1}]
"""
HERALD = """\
unit: {name: Herald, move: 6, dash: 6, defence: 6, hp: 8, armour: 4+, perks: [Presence, Leader]}
weapons: [{name: Staff, range: 0, attacks: 3, power: 8}]
models: [{count: 1, weapons: [Staff]}]
"""


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def fake_points(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(costing, "_DEFAULT", [costing.CachingCoster(FakeCoster())])


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'wb.db'}"


def _build(capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path) -> None:
    (tmp_path / "apc.yaml").write_text(APC)
    (tmp_path / "herald.yaml").write_text(HERALD)
    steps = [
        ("faction", "new", "Imperium"),
        ("faction", "add-unit", "Imperium", str(EX / "troopers_10.yaml"), str(tmp_path / "apc.yaml")),  # noqa: E501
        ("faction", "add-unit", "Imperium", str(tmp_path / "herald.yaml")),
        ("armoury", "add", str(EX / "plasma_beam.yaml")),
        ("roster", "new", "Strike Force", "--limit", "1000"),
        ("roster", "add", "Strike Force", "Ursus APC"),
        ("roster", "add", "Strike Force", "Herald"),
        ("roster", "add", "Strike Force", "troopers", "--models", "8", "--weapons", "Laser Rifle"),
        (
            "roster", "add", "Strike Force", "Troopers", "--name", "Plasma Squad",
            "--group", "7:Laser Rifle", "--group", "1:Plasma Beam",
            "--trait", "respawn", "--embark-in", "Ursus APC",
        ),
        ("roster", "perk", "Strike Force", "Inspiring", "--presence", "Herald"),
        ("roster", "add", "Strike Force", str(EX / "legionaries_mixed.yaml")),
    ]  # fmt: skip
    for step in steps:
        code, out, err = run(capsys, *step, "--db", db)
        assert code == 0, (step, out, err)


def test_roster_made_in_the_cli_survives_export_share_qr_import(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path, fake_points: None
) -> None:
    _build(capsys, db, tmp_path)
    original = Store.open(db).roster("Strike Force")
    assert [e.name for e in original.units] == [
        "Ursus APC", "Herald", "Troopers", "Plasma Squad", "Legionaries",
    ]  # fmt: skip
    squad = original.entry("Plasma Squad")
    assert [w.name for w in squad.unit.weapons] == ["Laser Rifle", "Plasma Beam"]
    assert squad.traits == ["Respawn"] and squad.embarked_in == "Ursus APC"
    assert original.points_model == "fake-1"

    for name in ("r.yaml", "r.json"):
        code, _, _ = run(
            capsys, "roster", "export", "Strike Force", "-o", str(tmp_path / name), "--db", db
        )
        assert code == 0 and load_roster(tmp_path / name) == original

    png, svg = tmp_path / "r.png", tmp_path / "r.svg"
    code, out, _ = run(
        capsys, "roster", "share", "Strike Force", "--png", str(png), "--svg", str(svg), "--db", db
    )
    share = out.strip()
    assert code == 0 and share.startswith("WBR1:") and decode(share) == original
    assert png.read_bytes().startswith(b"\x89PNG") and "<svg" in svg.read_text()

    code, out, err = run(capsys, "roster", "import", "--code", share, "--db", db)
    assert code == 2 and "already exists" in err  # no silent overwrite
    code, _, _ = run(capsys, "roster", "import", "--code", share, "--name", "Copy", "--db", db)
    assert code == 0
    assert Store.open(db).roster("Copy") == original.model_copy(update={"name": "Copy"})
    code, _, _ = run(
        capsys, "roster", "import", str(tmp_path / "r.yaml"), "--name", "From File", "--db", db
    )
    assert code == 0
    assert Store.open(db).roster("From File").units == original.units


def test_validate_lists_every_violation_and_exits_1(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path, fake_points: None
) -> None:
    _build(capsys, db, tmp_path)
    code, out, _ = run(capsys, "roster", "validate", "Strike Force", "--db", db)
    assert code == 0, out
    assert "legal" in out
    run(capsys, "roster", "new", "Tiny", "--limit", "50", "--db", db)
    run(
        capsys,
        "roster",
        "add",
        "Tiny",
        "Troopers",
        "--models",
        "3",
        "--trait",
        "Summon",
        "--db",
        db,
    )
    run(capsys, "roster", "perk", "Tiny", "Swift", "--db", db)
    code, out, _ = run(capsys, "roster", "validate", "Tiny", "--json", "--db", db)
    assert code == 1
    report = json.loads(out)
    # Summon triples the fake unit's roster cost and Swift costs 25 pts: over the 50-pt limit.
    assert [v["code"] for v in report["violations"]] == [
        "unit-under-50", "trait-under-50", "needs-presence", "over-limit",
    ]  # fmt: skip
    code, out, _ = run(capsys, "roster", "validate", "Tiny", "--db", db)
    assert code == 1 and "Fix:" in out and "§3.2" in out


def test_print_sheet(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path, fake_points: None
) -> None:
    _build(capsys, db, tmp_path)
    sheet = tmp_path / "sheet.html"
    code, _, _ = run(capsys, "roster", "print", "Strike Force", "-o", str(sheet), "--db", db)
    assert code == 0
    html = sheet.read_text()
    for text in (
        "Strike Force",
        "Plasma Squad",
        "Beam I",
        "Respawn",
        "Inspiring",
        "fake-1",
        "@media print",
    ):
        assert text in html


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("roster", "add", "Nope", "Troopers"), "unknown roster 'Nope'"),
        (("roster", "add", "Strike Force", "Trooper"), "did you mean 'Troopers'"),
        (
            ("roster", "add", "Strike Force", "Troopers", "--weapons", "Lazer"),
            "unknown weapon 'Lazer'",
        ),
        (("roster", "add", "Strike Force", "Troopers"), "already has an entry 'Troopers'"),
        (
            ("roster", "add", "Strike Force", "Herald", "--name", "H2", "--group", "x"),
            "COUNT:WEAPON",
        ),
        (("roster", "import", "--code", "WBR1:AAAA"), "truncated"),
        (("roster", "import", "--code", "hello"), "not a warbench roster share code"),
        (("roster", "import"), "give a roster FILE or --code"),
        (("faction", "new", "Imperium"), "already exists"),
        (("armoury", "remove", "Plasma Bean"), "did you mean 'Plasma Beam'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str],
    db: str,
    tmp_path: Path,
    fake_points: None,
    args,
    message,  # type: ignore[no-untyped-def]
) -> None:
    _build(capsys, db, tmp_path)
    code, out, err = run(capsys, *args, "--db", db)
    assert code == 2, out
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_validate_with_the_points_model(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    from warbench.rulesets.warsurge.points import POINTS_MODEL_VERSION, cost_unit

    _build(capsys, db, tmp_path)
    code, out, _ = run(capsys, "roster", "validate", "Strike Force", "--json", "--db", db)
    report = json.loads(out)
    assert report["points_model"] == POINTS_MODEL_VERSION
    r = Store.open(db).roster("Strike Force")
    assert r.points_model == POINTS_MODEL_VERSION  # stamped when saved
    assert [u["full"] for u in report["units"]] == [cost_unit(e.unit).total for e in r.units]
    assert code == (0 if report["valid"] else 1)
