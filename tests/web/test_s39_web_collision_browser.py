"""The Collision page does not jump while it fills (issue 10, session 39, s39-web): on a phone
the battle group moved 1,884 px down after the first paint (the card's stats 0 -> 449 px, its
weapons 0 -> 470 px and the printable card's frame 192 -> 715 px, filled by the script after
its first requests), so a tap aimed at it landed elsewhere (session 37's flaky CI test;
``settled()`` made the tests wait, not the page stop jumping). The parts the script fills now
keep their room until the page has settled (``body[data-ready]``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web import test_s32_user_browser as s32
from tests.web.play.test_play_browser import expect

browser = s32.browser
server = s32.server
pytestmark = s32.pytestmark

TOP = "() => Math.round(document.getElementById('co-group').getBoundingClientRect().top + scrollY)"


@pytest.fixture(params=list(s32.VIEWPORTS))
def page(request: pytest.FixtureRequest, browser: Any, server: str) -> Iterator[Any]:
    """A fresh page at one viewport; a script error or a page wider than the screen fails."""
    yield from s32.viewport_page(request, browser, server, "s39-web-collision")


def test_the_battle_group_stays_where_it_was_first_drawn(page: Any) -> None:
    # the tables the script fills the card from are held until the first paint is measured
    held: list[Any] = []
    page.route("**/api/collision/tables", lambda route: held.append(route))
    page.goto("/collision", wait_until="domcontentloaded")
    page.wait_for_function("() => performance.getEntriesByName('first-paint').length > 0")
    page.wait_for_function("() => document.getElementById('co-stats').children.length === 0")
    first = page.evaluate(TOP)
    for _ in range(10_000):  # the request is on its way (its handler runs while Playwright waits)
        if held:
            break
        page.wait_for_function("() => true")
    held[0].continue_()
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    expect(page.locator("#co-stats input").first).to_be_visible()
    settled = page.evaluate(TOP)
    # before: 1,884 px at 390 px (the example card's form and its printable card)
    assert abs(settled - first) < 200, (first, settled)
