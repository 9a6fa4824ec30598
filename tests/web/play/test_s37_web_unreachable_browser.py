"""A player's action when the server does not answer (issue 10, session 37, s37-web).

Session 37's walk stopped the server mid-game and pressed "Take the suggested choice": the card
said "TypeError: Failed to fetch" (the browser's own words), and still said it after the server
was back and the page live again. It now says what happened in words, and the sentence goes
once the live stream is back. Phone size (Playwright driving Debian's Chromium; build the JS
first).
"""

from __future__ import annotations

from tests.web.play.test_play_browser import PHONE, Pages, _answered, expect
from tests.web.play.test_play_browser import browser as browser
from tests.web.play.test_play_browser import pages as pages
from tests.web.play.test_play_browser import pytestmark as pytestmark
from tests.web.play.test_play_browser import server as server
from warbench.web.play.scenes import presenter

ACTIONS = "**/api/play/games/*/actions"


def test_an_action_the_server_does_not_answer_says_so_in_words(pages: Pages) -> None:
    page = pages.new(PHONE, "unreachable")
    setup = presenter("toy-duel").presets()[0]["setup"]
    made = page.request.post(
        f"{pages.server}/api/play/games",
        data={"ruleset": "toy-duel", "setup": setup, "mode": "network", "seed": 3},
    ).json()
    link = made["links"]["seat 0"]
    page.goto(link)
    card = page.locator("#decision-card")
    expect(card).to_have_attribute("data-state", "deciding")
    expect(page.locator("#live")).to_have_text("● live")
    rev = page.locator("body").get_attribute("data-revision")

    page.route(ACTIONS, lambda route: route.abort())  # no answer at all, as a stopped server
    page.locator("#actions button").first.click()
    expect(page.locator("body")).to_have_attribute("data-busy", "0")
    refusal = page.locator("#refusal")
    expect(refusal).to_contain_text("The server did not answer (stopped or restarting?)")
    expect(refusal).not_to_contain_text("TypeError")
    expect(page.locator("body")).to_have_attribute("data-revision", rev or "")
    # the decision is still there to be made again
    expect(card).to_have_attribute("data-state", "deciding")

    # the server answers again; the game moves on (here: the same seat's choice made through
    # the API, as another tab of this player would): the stream brings it, the sentence goes
    page.unroute(ACTIONS)
    token = link.split("#t=")[1]
    snap = page.request.get(
        f"{pages.server}/api/play/games/{made['id']}", headers={"X-Play-Token": token}
    ).json()
    page.request.post(
        f"{pages.server}/api/play/games/{made['id']}/actions",
        data={"action": snap["decision"]["actions"][0]["action"]},
        headers={"X-Play-Token": token},
    )
    expect(page.locator("body")).not_to_have_attribute("data-revision", rev or "")
    expect(refusal).to_have_text("")
    expect(page.locator("#live")).to_have_text("● live")
    # and the page acts again
    if (
        card.get_attribute("data-state") == "deciding"
        and page.locator("#take-default").is_visible()
    ):
        rev = page.locator("body").get_attribute("data-revision")
        page.click("#take-default")
        _answered(page, rev)
        expect(refusal).to_have_text("")


def test_the_play_manager_says_so_too(pages: Pages) -> None:
    """The Play Manager's calls share the same words (and the replay viewer's)."""
    page = pages.new(PHONE, "unreachable-manager")
    page.goto("/play/manager")
    expect(page.locator("#roster-picks select").first).to_be_visible()
    page.route("**/api/play/tables", lambda route: route.abort())
    page.click("#start-table")
    error = page.locator("#table-error")
    expect(error).to_contain_text("The server did not answer (stopped or restarting?)")
    expect(error).not_to_contain_text("TypeError")
