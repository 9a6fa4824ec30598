"""The printable roster sheet (issue 18): HTML and PDF, HP boxes per model, perk texts, every
priced line, the share QR, and no source-file names."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from tests.cli.test_roster_points_cli import run
from warbench.rulesets.warsurge.perks import PerkCatalog
from warbench.rulesets.warsurge.roster import validate_roster
from warbench.rulesets.warsurge.roster_io import dump_roster, load_roster
from warbench.rulesets.warsurge.share import encode, qr_code
from warbench.rulesets.warsurge.sheet import render_sheet_pdf, sheet_context

ROSTER = Path(__file__).parents[2] / "examples" / "warsurge" / "roster_files" / "strike_force.yaml"
SOURCE_FILE = re.compile(r"\d{3}_[0-9a-f]{16}\.txt")


def pdf_text(data: bytes) -> str:
    reader = PdfReader(io.BytesIO(data))
    return " ".join(" ".join((page.extract_text() or "").split()) for page in reader.pages)


def test_print_writes_a_pdf_with_every_unit_and_its_points(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pdf, html = tmp_path / "sheet.pdf", tmp_path / "sheet.html"
    code, _, err = run(capsys, "roster", "print", str(ROSTER), "--pdf", str(pdf), "-o", str(html))
    assert code == 0, err
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    text = pdf_text(data)
    roster = load_roster(ROSTER)
    report = validate_roster(roster)
    assert f"Total: {report.total} / {roster.point_limit} pts" in text
    for e, cost in zip(roster.units, report.entries, strict=True):
        assert f"{e.name}" in text and f"{cost.points} pts" in text
    for line in report.lines:
        assert line.label in text
    assert "Inspiring (designated: Herald)" in text and "+120" in text
    catalog = PerkCatalog.load()
    summary = " ".join(catalog.get("Inspiring").summary.split())
    assert summary in text  # the perk's short text from the catalog
    assert "tick when lost" in text
    for sheet in (text, html.read_text()):
        assert not SOURCE_FILE.search(sheet), SOURCE_FILE.search(sheet)
        assert "Perks §12.6" in sheet


def test_sheet_has_one_hp_box_per_model_and_hp(tmp_path: Path) -> None:
    roster = load_roster(ROSTER)
    report = validate_roster(roster)
    from warbench.rulesets.warsurge.sheet import render_sheet

    html = render_sheet(roster, report)
    boxes = sum(e.unit.model_count * e.unit.profile.hp for e in roster.units)
    assert boxes == 1 * 3 + 8 * 1 + 1 * 10
    assert html.count('<span class="hp"></span>') == boxes


def test_sheet_qr_is_the_roster_share_code() -> None:
    roster = load_roster(ROSTER)
    ctx = sheet_context(roster, validate_roster(roster))
    buf = io.BytesIO()
    qr_code(encode(roster)).save(buf, kind="svg", scale=4, border=2, xmldecl=False)
    assert ctx["qr_svg"] == buf.getvalue().decode()
    from warbench.rulesets.warsurge.sheet import render_sheet

    assert 'src="data:image/svg+xml;base64,' in render_sheet(roster, validate_roster(roster))


def test_roster_text_is_never_read_as_typst_markup(tmp_path: Path) -> None:
    roster = load_roster(ROSTER)
    odd = '#set text(size: 40pt) *bold* ] [ $x$ "quote" \\ back'
    roster = roster.rename_entry("Herald", odd).model_copy(update={"name": "A #b [c]"})
    data = render_sheet_pdf(roster, validate_roster(roster))
    text = pdf_text(data)
    assert "A #b [c]" in text and "#set text(size: 40pt) *bold*" in text


def test_print_needs_an_output(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "roster", "print", str(ROSTER))
    assert code == 2 and "--pdf" in err and len(err.strip().splitlines()) == 1
    path = tmp_path / "r.yaml"
    dump_roster(load_roster(ROSTER), path)
    code, _, err = run(capsys, "roster", "print", str(path), "--pdf", str(tmp_path / "x.pdf"))
    assert code == 0 and (tmp_path / "x.pdf").stat().st_size > 1000
