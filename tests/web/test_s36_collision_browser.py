"""The Collision page in the browser as session 35's review left it (issue 10, session 36,
s36-web), at desk and phone size (Playwright driving Debian's Chromium; build the JS first):

* the violations list said the field twice ("stats.end: card: stats.end = 12 ...");
* a stored card that no longer reads (a glossary entry renamed) could not be opened: it now
  opens as it was stored, its problem listed, and saves once fixed;
* an empty battle group showed the script's own sentence, not the server's;
* a weapon's empty reach was sent as "1" (the model's default, decided in the script).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web import test_s32_user_browser as s32
from tests.web.play.test_play_browser import expect
from tests.web.test_collision_browser import open_collision
from tests.web.test_s36_collision_page import rename_in_store

browser = s32.browser
server = s32.server
pytestmark = s32.pytestmark


@pytest.fixture(params=list(s32.VIEWPORTS))
def page(request: pytest.FixtureRequest, browser: Any, server: str) -> Iterator[Any]:
    """A fresh page at one viewport; a script error or a page wider than the screen fails."""
    yield from s32.viewport_page(request, browser, server, "s36-web-collision")


def test_a_broken_limit_names_its_field_once_l298_302(page: Any) -> None:
    open_collision(page)
    page.select_option("#co-example", label="Rhona (120 pts)")
    expect(page.locator("#co-verdict")).to_have_text("120 pts · a valid card")
    page.fill("input[name='stat-end']", "12")
    item = page.locator("#co-violations li")
    expect(item).to_have_count(1)
    expect(item).to_contain_text("stats.end = 12 is not allowed; allowed: a whole number <= 9")
    assert item.inner_text().count("stats.end") == 1, item.inner_text()
    expect(item).to_contain_text("[Collision L298-302]")


def test_a_stored_card_that_no_longer_reads_opens_to_be_fixed_l872_899(
    page: Any, tmp_path: Path
) -> None:
    open_collision(page)
    page.select_option("#co-example", label="Rhona (120 pts)")
    expect(page.locator("#co-verdict")).to_have_text("120 pts · a valid card")
    page.click("#co-card-save")
    expect(page.locator("#co-card-saved")).to_contain_text("“Rhona” (version 1)")
    rename_in_store(f"sqlite:///{tmp_path / 'play.db'}", "Rhona", "Block 2", "Block II")
    # another card on the page, then the stored one opened
    page.select_option("#co-example", label="Virgil (140 pts)")
    expect(page.locator("input[name='name']")).to_have_value("Virgil")
    page.select_option("#co-card-list", "Rhona")
    page.click("#co-card-open")
    expect(page.locator("input[name='name']")).to_have_value("Rhona")
    expect(page.locator("#co-abilities li", has_text="Block II")).to_have_count(1)
    expect(page.locator("#co-verdict")).to_have_text("1 limit broken")
    expect(page.locator("#co-violations li")).to_contain_text(
        "unknown Collision ability 'Block II'"
    )
    # fixed (the old entry removed, Block 2 added again) and saved over version 1
    page.locator("#co-abilities li", has_text="Block II").locator("button").click()
    page.fill("#co-ability-search", "Block 2")
    page.click("#co-ability-add")
    expect(page.locator("#co-verdict")).to_have_text("120 pts · a valid card")
    page.click("#co-card-save")
    expect(page.locator("#co-card-saved")).to_contain_text("“Rhona” (version 2)")


def test_an_empty_group_shows_the_servers_sentence_l580_617(page: Any) -> None:
    open_collision(page)
    page.click("#co-example-group")
    expect(page.locator("#co-members li")).to_have_count(3)
    for _ in range(3):
        page.locator("#co-members li").first.locator("button.danger").click()
    said = page.request.post(
        "/api/collision/groups/check",
        data={"name": page.input_value("#co-group-name"), "points_limit": 500, "characters": []},
    ).json()["detail"]
    expect(page.locator("#co-group-error")).to_have_text(said)
    expect(page.locator("#co-group-error")).to_contain_text("at least 1 item")


def test_an_empty_reach_is_sent_as_none_the_servers_default_applies_l326_329(page: Any) -> None:
    open_collision(page)
    page.select_option("#co-example", label="Rhona (120 pts)")
    expect(page.locator("#co-verdict")).to_have_text("120 pts · a valid card")
    reach = page.locator("input[name='w0-reach']")
    expect(reach).to_have_attribute("placeholder", "1 (the default)")
    checked = "**/api/collision/cards/check"
    with page.expect_request(checked) as req:
        reach.fill("2")
    assert json.loads(req.value.post_data or "null")["weapons"][0]["reach"] == "2"
    with page.expect_request(checked) as req:
        reach.fill("")
    sent = json.loads(req.value.post_data or "null")
    assert "reach" not in sent["weapons"][0], sent["weapons"][0]
    expect(page.locator("#co-verdict")).to_have_text("120 pts · a valid card")
