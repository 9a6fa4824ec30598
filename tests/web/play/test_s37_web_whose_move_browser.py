"""Whose move it is, at the top of a game page (issue 10, session 37, s37-web).

Session 37's walk played a two-browser WARSURGE game with one player on a 390-px phone: the
decision card is under the board and its key, about 870 px down, below the first screen, and
nothing above it said that it was this player's move (nor did the tab's title, for a player
whose tab is in the background). The bar at the top now says "Your move ↓" (a link to the
card) or "waiting for Red", and the title starts "● Your move".
"""

from __future__ import annotations

from tests.web.play.test_play_browser import DESK, PHONE, Pages, _answered, expect
from tests.web.play.test_play_browser import browser as browser
from tests.web.play.test_play_browser import pages as pages
from tests.web.play.test_play_browser import pytestmark as pytestmark
from tests.web.play.test_play_browser import server as server
from warbench.web.play.scenes import presenter


def test_the_bar_says_whose_move_it_is_on_a_phone_s2_1(pages: Pages) -> None:
    red, blue = pages.new(DESK, "whose-move-red"), pages.new(PHONE, "whose-move-blue")
    setup = presenter("warsurge").presets()[0]["setup"]
    made = red.request.post(
        f"{pages.server}/api/play/games",
        data={"ruleset": "warsurge", "setup": setup, "mode": "network", "seed": 3},
    ).json()
    red.goto(made["links"]["seat 0"])
    blue.goto(made["links"]["seat 1"])
    expect(red.locator("#decision-card")).to_have_attribute("data-state", "deciding")
    expect(blue.locator("#decision-card")).to_have_attribute("data-state", "waiting")
    # Red names the Turn Master (§2.1): Red's bar says so, Blue's says who it waits for
    mine, theirs = red.locator("#your-move"), blue.locator("#your-move")
    expect(mine).to_have_text("Your move ↓")
    expect(theirs).to_have_text("waiting for Red")
    assert red.title().startswith("● Your move · ")
    assert not blue.title().startswith("●")
    # on the phone the bar is on the first screen while the card is not
    assert blue.locator("#decision-card").bounding_box()["y"] > PHONE["height"]
    box = theirs.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"]
    # Red answers; the zone choice (§3.6) is Red's again, then Blue's: Blue's bar turns
    for _ in range(6):
        if blue.locator("#decision-card").get_attribute("data-state") == "deciding":
            break
        rev = red.locator("body").get_attribute("data-revision")
        red.click("#take-default")
        _answered(red, rev)
    expect(blue.locator("#decision-card")).to_have_attribute("data-state", "deciding")
    expect(theirs).to_have_text("Your move ↓")
    expect(blue).to_have_title(f"● Your move · warbench · Game {made['id']}")
    expect(mine).to_have_text("waiting for Blue")
    # the link goes to the card
    theirs.click()
    top = blue.locator("#decision-card").bounding_box()
    assert top is not None and 0 <= top["y"] < PHONE["height"], top
