"""The WarEngine's Hero Points and reserved-attack questions in the page (issue 10, session 39,
s39-we; 004_f4ea5693af0644ce.txt L471, L493, L575-L577).

Session 38's cards read "spend Hero Points (0 to 8) for WarpEyes #0" and "use a reserved
attack now?": the player had to dig the two rolls out of the event log and guess whether it
was the attack or the defense. The title is now the short question and the card's detail line
gives the rolls, the points that change the result and the rule; the reserve card names the
enemy figure that moved and where, and lists its answers as buttons in words (they were chips
of "Units that can act" leading to targets on the board)."""

from __future__ import annotations

import re
from typing import Any

from tests.web.play.test_play_browser import (
    ARTEFACTS,
    DESK,
    PHONE,
    Pages,
    _answered,
    expect,
)
from tests.web.play.test_play_browser import browser as browser
from tests.web.play.test_play_browser import pages as pages
from tests.web.play.test_play_browser import pytestmark as pytestmark
from tests.web.play.test_play_browser import server as server
from warbench.web.play.scenes import presenter


def _until(page: Any, kind: str, tries: int = 80) -> None:
    """Take the suggested choices (all placements at once) until a ``kind`` decision."""
    card = page.locator("#decision-card")
    for _ in range(tries):
        expect(card).to_have_attribute("data-state", re.compile("deciding|over"))
        if card.get_attribute("data-kind") == kind:
            return
        assert card.get_attribute("data-state") == "deciding", f"the game ended before {kind}"
        rev = page.locator("body").get_attribute("data-revision")
        rest = page.locator("#take-rest")
        (rest if rest.is_visible() else page.locator("#take-default")).click()
        _answered(page, rev)
    raise AssertionError(f"no {kind} decision in {tries} decisions")


def _game(pages: Pages, viewport: dict[str, int], label: str) -> Any:
    page = pages.new(viewport, label)
    setup = presenter("warengine").presets()[0]["setup"]
    made = page.request.post(
        f"{pages.server}/api/play/games",
        data={"ruleset": "warengine", "setup": setup, "mode": "ai", "seed": 3},
    ).json()
    page.goto(made["links"]["players"])
    return page


def test_the_hero_points_card_asks_whose_roll_and_shows_both_rolls_L493(pages: Pages) -> None:
    page = _game(pages, PHONE, "hero-words")
    _until(page, "hero")
    title, detail = page.locator("#decision-title"), page.locator("#decision-detail")
    expect(title).to_have_text(
        re.compile(r"^StormReavers \(1\): Spend Hero Points on your .+ #\d+'s (attack|defense) "
                   r"roll\? \(0 to \d+\)$")
    )  # fmt: skip
    expect(detail).to_be_visible()
    expect(detail).to_contain_text(re.compile(r"\d+ .*defense roll of \d+.*\(L493\)"))
    ARTEFACTS.mkdir(exist_ok=True)
    page.locator("#decision-card").screenshot(path=str(ARTEFACTS / "s39-we-hero-card-390.png"))
    expect(page.locator("#actions > li > button").first).to_have_text("Spend no Hero Points")
    # the suggestion in words beside "Take the suggested choice": the outlined button's words
    outlined = page.locator("#actions button.default").inner_text()
    expect(page.locator("#default-said")).to_have_text(f"Suggested: {outlined}")


def test_an_action_card_says_what_the_suggested_choice_is(pages: Pages) -> None:
    """The first activation's action card said "Take the suggested choice" while the
    suggestion (an attack) sat on the board among others: it now says it in words."""
    page = _game(pages, PHONE, "action-suggested")
    _until(page, "action")
    expect(page.locator("#default-said")).to_have_text(re.compile(r"^Suggested: \S.+"))
    expect(page.locator("#default-said")).to_be_visible()


def test_the_reserve_card_names_the_enemy_that_moved_L577(pages: Pages) -> None:
    page = _game(pages, DESK, "reserve-words")
    _until(page, "reserve")
    expect(page.locator("#decision-title")).to_have_text(
        re.compile(r"^StormReavers \(1\): "
                   r"(Use a reserved attack on the enemy's .+ #\d+ or its unit\?|"
                   r"Answer with your .+ #\d+'s reserved .+\?)$")
    )  # fmt: skip
    expect(page.locator("#decision-detail")).to_contain_text(re.compile(r"\(L57[57]\)\.$"))
    expect(page.locator("#decision-rule")).to_have_text(re.compile(r"The WarEngine 2\.1 L57[57]"))
    # each answer is a button in words (it was "Units that can act:" chips, then the board)
    buttons = page.locator("#actions > li > button")
    expect(
        buttons.filter(has_text=re.compile(r"^.+ #\d+ uses its reserved .+ on .+ #\d+"))
    ).not_to_have_count(0)
    expect(buttons.last).to_have_text("Use no reserved attack now")
    expect(page.locator("#selected")).not_to_contain_text("Units that can act")
    expect(page.locator("#actions button.default")).to_have_count(1)  # the suggestion marked
    ARTEFACTS.mkdir(exist_ok=True)
    page.locator("#decision-card").screenshot(path=str(ARTEFACTS / "s39-we-reserve-card-1280.png"))
    # an answered decision leaves no stale detail under the next title
    rev = page.locator("body").get_attribute("data-revision")
    page.click("#take-default")
    _answered(page, rev)
    card = page.locator("#decision-card")
    if card.get_attribute("data-kind") not in ("hero", "reserve"):
        expect(page.locator("#decision-detail")).to_be_hidden()
