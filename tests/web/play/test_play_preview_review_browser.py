"""Review of the play page's previews (issue 10, session 32, s32-review), as a player at phone
size (390x844) and on a desktop: a pending charge question (Core Rules
001_d3f5e425c5e1196d.txt §4.3 L1985-1991) is dropped when the game moves on under it (the
other seat acts: a new revision), Cancel leaves the page as it was before the charge was
chosen, and why a Move ends short (§4.5 L2044-2059) is read on a phone without scrolling
sideways. Playwright and Debian's Chromium, as ``test_play_browser.py`` (its fixtures)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from tests.web.play import test_play_browser as tpb
from tests.web.play.test_play_browser import ARTEFACTS, DESK, PHONE, Pages, expect
from tests.web.play.test_play_charge_preview_browser import _click_listed, _to_charge
from tests.web.play.test_play_preview_browser import _api

browser = tpb.browser
server = tpb.server
pages = tpb.pages

pytestmark = tpb.pytestmark

#: where the screenshots go (``WARBENCH_REVIEW_SHOTS`` to keep them elsewhere)
SHOTS = Path(os.environ.get("WARBENCH_REVIEW_SHOTS", str(ARTEFACTS)))


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"review-{name}.png"), full_page=True)


def _state(page: Any) -> dict[str, Any]:
    out: dict[str, Any] = page.evaluate(
        "() => ({ghosts: document.querySelectorAll('#board .preview-base').length,"
        " confirm: !document.getElementById('preview-confirm').hidden,"
        " note: document.getElementById('preview-note').hidden ? null :"
        " document.getElementById('preview-note').textContent,"
        " refusal: document.getElementById('refusal').textContent,"
        " actions: [...document.querySelectorAll('#actions button')].map((b) => b.textContent),"
        " wide: document.documentElement.scrollWidth})"
    )
    return out


def _charge_review(pages: Pages, size: dict[str, int], name: str) -> None:
    page = pages.new(size, name)
    game, tok, link, charge = _to_charge(page, pages.server)
    page.goto(link)
    expect(page.locator("#decision-card")).to_have_attribute("data-state", "deciding")
    page.click(f".unit-chip[data-unit='{charge['unit']}']")
    before = _state(page)
    _shot(page, f"{name}-1-before")
    _click_listed(page, charge)
    expect(page.locator("#preview-confirm")).to_be_visible()
    page.locator("#preview-confirm").scroll_into_view_if_needed()
    _shot(page, f"{name}-2-confirm")
    print("confirming", _state(page))
    page.click("#preview-cancel")
    expect(page.locator("#preview-confirm")).to_be_hidden()
    after = _state(page)
    _shot(page, f"{name}-3-cancelled")
    print("before", before)
    print("after", after)
    assert after == before
    # chosen again, then the game moves on under the question (the decision made elsewhere:
    # another tab of the seat, or the other player of an online game)
    _click_listed(page, charge)
    expect(page.locator("#preview-confirm")).to_be_visible()
    rev = page.locator("body").get_attribute("data-revision")
    d = _api(page, game, tok)["decision"]
    _api(page, game, tok, "/actions", {"action": d["default"]})
    expect(page.locator("body")).not_to_have_attribute("data-revision", rev or "")
    expect(page.locator("#preview-confirm")).to_be_hidden()
    dropped = _state(page)
    print("dropped", dropped)
    _shot(page, f"{name}-4-revision")
    assert dropped["ghosts"] == 0 and dropped["note"] is None
    assert "legal" not in dropped["refusal"], dropped  # the stale "✓ legal" was left
    want = "The game moved on before you made the charge: your choice was dropped."
    assert dropped["refusal"] == want


def test_charge_question_cancel_and_revision_on_a_phone_L1985(pages: Pages) -> None:
    _charge_review(pages, PHONE, "charge-phone")


def test_charge_question_cancel_and_revision_on_a_desktop_L1985(pages: Pages) -> None:
    _charge_review(pages, DESK, "charge-desktop")


def test_why_a_move_ends_short_is_read_on_a_phone_L2044(pages: Pages) -> None:
    """The seen case (Skirmish preset, seed 3, Game Turn 2: Red's Assault Squad sent toward
    (40, 40), halved by Difficult Ground): the reasons are on screen, one a line, within the
    phone's width (no sideways scrolling), and go with the preview when the point changes to
    one the Move reaches."""
    from warbench.web.play.scenes import presenter

    page = pages.new(PHONE, "why-short-phone")
    setup = presenter("warsurge").presets()[0]["setup"]
    made = page.request.post(
        f"{pages.server}/api/play/games",
        data={"ruleset": "warsurge", "setup": setup, "mode": "hotseat", "seed": 3},
    ).json()
    game, tok = made["id"], made["tokens"]["players"]
    for _ in range(120):
        d = _api(page, game, tok)["decision"]
        if "Game Turn 2, Move Phase" in d["prompt"]:
            break
        _api(page, game, tok, "/actions", {"action": d["default"]})
    page.goto(made["links"]["players"])
    expect(page.locator("#decision-card")).to_have_attribute("data-state", "deciding")
    page.locator("details.families-fold > summary").click()
    form = page.locator("form.family[data-family='move to']")
    form.locator("select[name='unit']").select_option("1")
    for axis, v in (("x", "40"), ("y", "40")):
        form.locator(f"input[name='to-{axis}']").fill(v)
    expect(page.locator("#refusal")).to_have_text("✓ legal")
    why = page.locator("#preview-note .preview-why")
    expect(why.first).to_contain_text('Why it ends short: moves 2.7", short of the 6.0"')
    expect(why.nth(1)).to_contain_text("halved by Difficult Ground")
    page.locator("#preview-note").scroll_into_view_if_needed()
    _shot(page, "why-short-phone")
    note = page.locator("#preview-note").bounding_box()
    assert note is not None and note["x"] >= 0 and note["x"] + note["width"] <= PHONE["width"]
    assert _state(page)["wide"] <= PHONE["width"]
    # a point the Move reaches: no reason is left on screen
    for axis, v in (("x", "5"), ("y", "40")):
        form.locator(f"input[name='to-{axis}']").fill(v)
    expect(page.locator("#preview-note")).to_contain_text("Where it ends")
    expect(why).to_have_count(0)
