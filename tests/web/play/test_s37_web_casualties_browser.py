"""A casualty choice shows its choices at once (issue 10, session 37, s37-web), at phone size.

Session 37's walk left the casualties (§5.11) to the players of a two-browser WARSURGE game: the
card said "Units that can act: Blue: Dead Dogs" and "Take the suggested choice", which did not
say which models it removes; the choices were behind the unit's chip. When one unit can act,
its choices are now listed at once, the suggested one marked.
"""

from __future__ import annotations

import re

from tests.web.play.test_play_browser import ARTEFACTS, PHONE, Pages, _answered, expect
from tests.web.play.test_play_browser import browser as browser
from tests.web.play.test_play_browser import pages as pages
from tests.web.play.test_play_browser import pytestmark as pytestmark
from tests.web.play.test_play_browser import server as server
from warbench.web.play.scenes import presenter


def test_the_casualty_choices_are_listed_without_tapping_the_unit_s5_11(pages: Pages) -> None:
    page = pages.new(PHONE, "casualties")
    setup = presenter("warsurge").presets()[0]["setup"]
    options = {**setup["options"], "automation": ["model placement", "coherency"]}
    made = page.request.post(
        f"{pages.server}/api/play/games",
        data={"ruleset": "warsurge", "setup": {**setup, "options": options}, "mode": "hotseat",
              "seed": 3},
    ).json()  # fmt: skip
    page.goto(made["links"]["players"])
    card = page.locator("#decision-card")
    for _ in range(80):
        expect(card).to_have_attribute("data-state", re.compile("deciding|over"))
        if card.get_attribute("data-kind") == "casualties":
            break
        rev = page.locator("body").get_attribute("data-revision")
        page.click("#take-default")
        _answered(page, rev)
    assert card.get_attribute("data-kind") == "casualties"
    chip = page.locator(".unit-chip")
    expect(chip).to_have_count(1)
    expect(chip).to_have_attribute("aria-pressed", "true")  # not tapped: the only unit
    listed = page.locator("#actions > li > button")
    expect(listed.first).to_be_visible()
    expect(page.locator("#actions > li > button.default")).to_have_count(1)
    ARTEFACTS.mkdir(exist_ok=True)
    card.screenshot(path=str(ARTEFACTS / "s37-web-casualties-390.png"))
    # another choice than the suggested one is made from the list
    rev = page.locator("body").get_attribute("data-revision")
    other = page.locator("#actions > li > button:not(.default)")
    (other if other.count() else listed).first.click()
    _answered(page, rev)
    expect(page.locator("#log li").first).to_contain_text("casualt")
