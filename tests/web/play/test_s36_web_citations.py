"""The WarEngine table's citations in the play page (issue 10, session 36, s36-web): the scene
cited a figure's base radius "by its type" as L266 (the contents page) and the Movement and
Range rings as L402 (a blank line) and L467 (the targeting rule). The book gives no base
size, only 28mm figures (L281: docs/rulings.md, The WarEngine 2.1 game, ruling 1); the move
is measured at L403, a weapon's range at L465. Each line the scene's docstring cites is read
here in the book: it must hold words, after the contents pages (which end at L269, "# Core
Rules v2.1")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from warbench.rulesets.warengine.game import setup as we_setup
from warbench.web.play import warengine_scene

BOOK_PATH = Path("/work/shared/seeds/004_f4ea5693af0644ce.txt")

pytestmark = pytest.mark.skipif(not BOOK_PATH.exists(), reason="the rulebook is not here")


def _book() -> list[str]:
    return BOOK_PATH.read_text(encoding="utf-8").splitlines()


def test_the_scenes_citations_are_rules_not_blank_lines_or_the_contents() -> None:
    book = _book()
    rules_start = book.index("# Core Rules v2.1") + 1  # 1-based line of the heading
    doc = warengine_scene.__doc__ or ""
    cited = [int(n) for n in re.findall(r"\bL(\d+)", doc)]
    assert cited
    for n in cited:
        assert n > rules_start, f"L{n} is in the contents pages (before L{rules_start})"
        assert book[n - 1].strip(), f"L{n} is a blank line"


def test_the_base_radius_is_a_ruling_the_book_gives_only_28mm_figures_L281() -> None:
    book = _book()
    assert "28mm figures" in book[281 - 1]
    # the rings: a move measured from where you are (L403), a range to the target (L465)
    assert "measure the distance from where you are to where you are going" in book[403 - 1]
    assert "measure the distance from your figure to the target figure" in book[465 - 1]
    doc = " ".join((warengine_scene.__doc__ or "").split())
    assert "the book gives no base sizes" in doc and "L281" in doc and "ruling 1" in doc
    rulings = Path(__file__).resolve().parents[3] / "docs" / "rulings.md"
    we = rulings.read_text(encoding="utf-8").split("## The WarEngine 2.1 game", 1)[1]
    first = we.split("\n2. ", 1)[0]
    assert "The book gives no base sizes" in first and "(L281)" in first
    # the engine's radii are the ruling's: 0.5" for T, E and C, 1", 1.5", 2" for L, M and H
    assert we_setup.RADIUS == {"T": 0.5, "E": 0.5, "C": 0.5, "L": 1.0, "M": 1.5, "H": 2.0}
