"""The secret links of a two-browser game, as the host sends them (issue 10, session 37,
s37-web), at phone size.

Session 37's walk: a link was a long URL in a read-only field, to be selected by hand on a
phone; and on `warbench serve`'s default address the links name this computer
(``127.0.0.1``), so a player at another device was sent a link that cannot open, and nothing
said so. Each link now has a Copy button, and a note says how to serve the network.
"""

from __future__ import annotations

from tests.web.play.test_play_browser import PHONE, Pages, _start, expect
from tests.web.play.test_play_browser import browser as browser
from tests.web.play.test_play_browser import pages as pages
from tests.web.play.test_play_browser import pytestmark as pytestmark
from tests.web.play.test_play_browser import server as server


def test_a_network_games_links_copy_and_say_where_they_open(pages: Pages) -> None:
    page = pages.new(PHONE, "links")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    _start(page, "warsurge", "network", seed=3)
    page.click("#start")
    expect(page.locator("#created")).to_be_visible()
    link = page.locator("input[data-link='seat 1']").input_value()
    page.click("button.copy-link[data-link='seat 1']")
    expect(page.locator("#status")).to_have_text("Blue (seat 2)'s link copied")
    assert page.evaluate("navigator.clipboard.readText()") == link
    note = page.locator("#links-local")
    expect(note).to_be_visible()  # the test server listens on 127.0.0.1
    expect(note).to_contain_text("warbench serve --host 0.0.0.0")
    assert "127.0.0.1" in link
