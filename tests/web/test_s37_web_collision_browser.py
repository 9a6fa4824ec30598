"""A stored battle group holding a card that no longer reads, in the browser (issue 10, session
37, s37-web), at desk and phone size (Playwright driving Debian's Chromium; build the JS first).

It could not be opened (GET was a 404: the reader's unknown ability as if the group were
unknown; the page showed that sentence and opened nothing); it now opens as it was stored,
the card's row says it does not read and how to fix it, the list under it gives the server's
sentence naming the card, and once the card is fixed in the designer and put back the group is
counted and saves over its version.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web import test_s32_user_browser as s32
from tests.web.play.test_play_browser import expect
from tests.web.test_collision_browser import open_collision
from tests.web.test_s37_web_collision_group import rename_in_stored_group

browser = s32.browser
server = s32.server
pytestmark = s32.pytestmark


@pytest.fixture(params=list(s32.VIEWPORTS))
def page(request: pytest.FixtureRequest, browser: Any, server: str) -> Iterator[Any]:
    """A fresh page at one viewport; a script error or a page wider than the screen fails."""
    yield from s32.viewport_page(request, browser, server, "s37-web-collision")


def test_a_stored_group_whose_card_no_longer_reads_opens_to_be_fixed_l872_899(
    page: Any, tmp_path: Path
) -> None:
    open_collision(page)
    page.click("#co-example-group")
    expect(page.locator("#co-group-total")).to_have_text("430 / 500 pts")
    page.click("#co-group-save")
    expect(page.locator("#co-group-saved")).to_contain_text("(version 1)")
    rename_in_stored_group(
        f"sqlite:///{tmp_path / 'play.db'}", "Deadholm scouts", "Snipe", "Snipe II"
    )
    page.click("#co-clear-group")
    expect(page.locator("#co-members li")).to_have_count(0)
    page.select_option("#co-group-list", "Deadholm scouts")
    page.click("#co-group-open")
    expect(page.locator("#co-members li")).to_have_count(3)
    broken = page.locator("#co-members li.broken")
    expect(broken).to_have_count(1)
    expect(broken).to_contain_text("Skeleton Archer")
    expect(broken).to_contain_text("does not read (1 problem below)")
    expect(page.locator("#co-group-total")).to_have_text("–")
    problems = page.locator("#co-group-violations li")
    expect(problems).to_have_count(2)
    expect(problems.first).to_contain_text("1 problem in the group's cards")
    expect(problems.nth(1)).to_contain_text(
        "battle group: Skeleton Archer (characters[1]): abilities: "
        "unknown Collision ability 'Snipe II'; did you mean 'Snipe'?"
    )
    expect(problems.nth(1)).to_contain_text("[Collision L872-899")
    expect(page.locator("#co-group-error")).to_be_hidden()
    s32.ARTEFACTS.mkdir(exist_ok=True)
    width = page.viewport_size["width"]
    page.locator("#co-group").screenshot(
        path=str(s32.ARTEFACTS / f"s37-web-group-broken-{width}.png")
    )
    # the card edited in the designer (its problem listed there too), fixed and put back
    broken.locator("button", has_text="Edit").click()
    expect(page.locator("input[name='name']")).to_have_value("Skeleton Archer")
    expect(page.locator("#co-verdict")).to_have_text("1 limit broken")
    page.locator("#co-abilities li", has_text="Snipe II").locator("button").click()
    page.fill("#co-ability-search", "Snipe")
    page.select_option("#co-ability-pick", "Snipe")
    page.click("#co-ability-add")
    expect(page.locator("#co-verdict")).to_contain_text("a valid card")
    page.click("#co-to-group")
    expect(page.locator("#co-members li.broken")).to_have_count(0)
    expect(page.locator("#co-group-total")).to_have_text("430 / 500 pts")
    expect(page.locator("#co-group-violations li")).to_have_count(0)
    page.click("#co-group-save")
    expect(page.locator("#co-group-saved")).to_contain_text("(version 2)")
