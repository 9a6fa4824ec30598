"""The preview of a charge on the play page, at phone size (issue 10, session 32): a charge (a
Move naming the enemy unit it engages, no point to drag) is no longer sent at once; the page
draws where its models end in Base Contact (Core Rules 001_d3f5e425c5e1196d.txt §4.3
L1985-1991), the server's plan, as ghost bases with a line from each model's start, and waits:
Cancel leaves the game as it was, "Make the charge" makes it and the models stand where the
ghosts were. Playwright and Debian's Chromium, as ``test_play_browser.py`` (its fixtures); the
screenshots (phone and desktop) go to ``tests/web/artefacts/``."""

from __future__ import annotations

import math
from typing import Any

from tests.web.play import test_play_browser as tpb
from tests.web.play.test_play_browser import ARTEFACTS, DESK, PHONE, Pages, _answered, expect
from tests.web.play.test_play_preview_browser import _api, _game_at, _ghosts, _same

browser = tpb.browser
server = tpb.server
pages = tpb.pages

pytestmark = tpb.pytestmark


def _charge(d: dict[str, Any]) -> dict[str, Any] | None:
    """The first charge (a Move naming the enemy unit it engages) ``d`` lists, if any."""
    return next(
        (
            a["action"]
            for a in d["actions"]
            if a["action"]["kind"] == "move" and a["action"].get("engage") is not None
        ),
        None,
    )


def _to_charge(page: Any, server: str) -> tuple[str, str, str, dict[str, Any]]:
    """The Skirmish preset, seed 1, hotseat: defaults made over the API until a charge is
    listed (Game Turn 3); the game, its token, its page link and the charge."""
    made, game, tok, d = _game_at(
        page, "warsurge", "hotseat", 1, lambda d: _charge(d) is not None, steps=120
    )
    charge = _charge(d)
    assert charge is not None
    return game, tok, made["links"]["players"], charge


def _click_listed(page: Any, action: dict[str, Any]) -> None:
    page.click(f".unit-chip[data-unit='{action['unit']}']")
    page.evaluate(
        "(m) => [...document.querySelectorAll('button[data-action]')].find((b) =>"
        " JSON.stringify(JSON.parse(b.dataset.action)) === JSON.stringify(m)).click()",
        action,
    )


def _charge_flow(pages: Pages, size: dict[str, int], name: str) -> None:
    page = pages.new(size, name)
    game, tok, link, charge = _to_charge(page, pages.server)
    page.goto(link)
    card = page.locator("#decision-card")
    expect(card).to_have_attribute("data-state", "deciding")
    board = page.locator("#board")
    before = _api(page, game, tok)
    planned = _api(page, game, tok, "/check", {"action": charge})["preview"]["placements"]
    ends = [tuple(p["end"]) for p in planned]
    # listed and chosen: drawn, not sent
    _click_listed(page, charge)
    expect(page.locator("#preview-confirm")).to_be_visible()
    expect(page.locator("#preview-make")).to_have_text("Make the charge")
    expect(page.locator("#preview-confirm-text")).to_contain_text("Base Contact")
    expect(board.locator(".preview-base")).to_have_count(len(ends))
    moved = sum(1 for p in planned if p["end"] != p["start"])
    expect(board.locator(".preview-path")).to_have_count(moved)
    _same(_ghosts(page), ends)
    expect(page.locator("#preview-note")).to_contain_text("Where it ends")
    _legible(page, board, before, charge, moved)
    assert _api(page, game, tok)["revision"] == before["revision"]  # nothing made
    # cancelled: the ghosts and the question go, the game is as it was
    page.click("#preview-cancel")
    expect(board.locator(".preview-base")).to_have_count(0)
    expect(page.locator("#preview-confirm")).to_be_hidden()
    assert _api(page, game, tok)["revision"] == before["revision"]
    # chosen again and made: the models stand where the ghosts were, in a Melee
    _click_listed(page, charge)
    expect(board.locator(".preview-base")).to_have_count(len(ends))
    ARTEFACTS.mkdir(exist_ok=True)
    board.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTEFACTS / f"play-charge-preview-{name}.png"))
    page.locator("#preview-confirm").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTEFACTS / f"play-charge-preview-{name}-confirm.png"))
    rev = page.locator("body").get_attribute("data-revision")
    page.click("#preview-make")
    _answered(page, rev)
    expect(board.locator(".preview-base")).to_have_count(0)
    expect(page.locator("#preview-confirm")).to_be_hidden()
    after = _api(page, game, tok)
    pos = next(u for u in after["view"]["units"] if u["uid"] == charge["unit"])["pos"]
    for p in planned:
        assert math.dist(pos[p["model"]], p["end"]) < 1e-9


def _legible(
    page: Any, board: Any, snap: dict[str, Any], charge: dict[str, Any], moved: int
) -> None:
    """Session 34: the ghosts read on a phone. A path ends in an arrowhead; the target's
    models are ringed and a label names it by the ghosts, at least 10 screen pixels high; the
    ghost outlines are 2.5 screen pixels wide and every ghost spans at least 14 pixels (its
    base, or a ring round a base smaller than that on screen)."""
    arrows = board.locator(".preview-arrow")
    assert arrows.count() <= moved  # none on a path shorter on screen than two arrowheads
    pieces = [p for p in snap["scene"]["pieces"] if p["unit"] == charge["engage"]]
    target = f".preview-target[data-unit='{charge['engage']}']"
    expect(board.locator(target)).to_have_count(len(pieces))
    name = next(u for u in snap["view"]["units"] if u["uid"] == charge["engage"])["label"]
    expect(board.locator(".preview-label")).to_have_text(f"Charge → {name.split(': ')[-1]}")
    # the tag covers no piece (a place clear of every base is found here: session 34's walk
    # had it over the charging unit's own models)
    covered = page.evaluate(
        "() => { const t = document.querySelector('#board .preview-tag');"
        " const x0 = +t.getAttribute('x'), y0 = +t.getAttribute('y');"
        " const x1 = x0 + +t.getAttribute('width'), y1 = y0 + +t.getAttribute('height');"
        " return [...document.querySelectorAll('#board circle.piece')].filter((c) => {"
        " const cx = +c.getAttribute('cx'), cy = +c.getAttribute('cy'), r = +c.getAttribute('r');"
        " const nx = Math.min(Math.max(cx, x0), x1), ny = Math.min(Math.max(cy, y0), y1);"
        " return Math.hypot(cx - nx, cy - ny) < r; }).length; }"
    )
    assert covered == 0, covered
    label = board.locator(".preview-label").bounding_box()
    assert label is not None and label["height"] >= 10, label
    widths = page.evaluate(
        "() => [...document.querySelectorAll('#board .preview-base')].map((e) =>"
        " getComputedStyle(e).strokeWidth)"
    )
    assert set(widths) == {"2.5px"}, widths
    spans = page.evaluate(
        "() => [...document.querySelectorAll('#board .preview-base')].map((e) => {"
        " const b = e.getBoundingClientRect();"
        " const halo = [...document.querySelectorAll('#board .preview-halo')].find((h) =>"
        " h.getAttribute('cx') === e.getAttribute('cx')"
        " && h.getAttribute('cy') === e.getAttribute('cy'));"
        " const h = halo ? halo.getBoundingClientRect() : b;"
        " return Math.max(b.width, h.width); })"
    )
    assert min(spans) >= 13.9, spans
    # zoomed in, every path is long enough for its arrowhead, which keeps its screen size
    for _ in range(8):
        page.click("#zoom-in")
    expect(arrows).to_have_count(moved)
    sizes = [arrows.nth(i).bounding_box() for i in range(moved)]
    assert all(b is not None and max(b["width"], b["height"]) < 16 for b in sizes), sizes
    page.click("#zoom-fit")


def test_a_charge_is_previewed_and_made_only_once_confirmed_on_a_phone_L1985(
    pages: Pages,
) -> None:
    _charge_flow(pages, PHONE, "phone")


def test_a_charge_is_previewed_and_made_only_once_confirmed_on_a_desktop_L1985(
    pages: Pages,
) -> None:
    _charge_flow(pages, DESK, "desktop")
