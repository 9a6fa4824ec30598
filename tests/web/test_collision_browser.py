"""The Collision page in the browser (issue 10, session 35, s35-collision), at desk and phone
size (Playwright driving Debian's Chromium; build the JS first, docs/web.md): design a card
from an example, see a broken limit listed with its rule lines and the printable card, put it
in a battle group, save both in the database and see a stale save refused."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web import test_s32_user_browser as s32
from tests.web.play.test_play_browser import expect

browser = s32.browser
server = s32.server
pytestmark = s32.pytestmark
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "collision"


def open_collision(page: Any) -> None:
    """Open the Collision page and wait until its first checks are shown and its printable
    card has grown to its card (``body[data-ready]``): the card frame sits above the battle
    group, so a click aimed before it grew could land on another button (session 37's CI)."""
    page.goto("/collision")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)


@pytest.fixture(params=list(s32.VIEWPORTS))
def page(request: pytest.FixtureRequest, browser: Any, server: str) -> Iterator[Any]:
    """A fresh page at one viewport; a script error or a page wider than the screen fails."""
    yield from s32.viewport_page(request, browser, server, "s35-collision")


def test_design_a_card_from_an_example_l227_373(page: Any) -> None:
    open_collision(page)
    expect(page.locator("nav a[aria-current='page']")).to_have_text("Collision")
    page.select_option("#co-example", label="Rhona (120 pts)")
    expect(page.locator("#co-verdict")).to_have_text("120 pts · a valid card")
    frame = page.frame_locator("#co-print")
    expect(frame.locator("text=Broadax")).to_have_count(1)
    expect(frame.locator("text=Block 2")).to_have_count(1)

    # End above 9 (L301-302): listed with its rule lines, the field outlined, no card printed
    page.fill("input[name='stat-end']", "12")
    expect(page.locator("#co-violations li")).to_have_count(1)
    expect(page.locator("#co-violations li")).to_contain_text("stats.end")
    expect(page.locator("#co-violations li")).to_contain_text("L298-302")
    expect(page.locator("label.invalid input[name='stat-end']")).to_have_count(1)
    expect(page.locator("#co-print")).to_be_hidden()
    page.fill("input[name='stat-end']", "5")
    expect(page.locator("#co-verdict")).to_have_text("120 pts · a valid card")

    # an ability from the glossary, with its listed cost and text
    page.fill("#co-ability-search", "dodge")
    expect(page.locator("#co-ability-text")).to_contain_text("Dodge")
    page.click("#co-ability-add")
    expect(page.locator("#co-abilities li", has_text="Dodge")).to_have_count(1)
    expect(frame.locator("text=Dodge")).to_have_count(1)

    # a third weapon breaks L373
    page.click("#co-add-weapon")
    page.click("#co-add-weapon")
    expect(page.locator("#co-violations li", has_text="L373")).to_have_count(1)
    page.locator("#co-weapons .weapon-box").nth(2).locator("button.danger").click()
    page.locator("#co-weapons .weapon-box").nth(1).locator("button.danger").click()
    expect(page.locator("#co-verdict")).to_have_text("120 pts · a valid card")

    # the card file to copy, and a pasted file (YAML) read by the server
    page.click("#co-card-file summary")
    expect(page.locator("#co-card-text")).to_have_value(re.compile(r"^name: Rhona\n"))
    page.fill("#co-card-text", (EXAMPLES / "skeleton_archer.yaml").read_text())
    page.click("#co-card-load")
    expect(page.locator("#co-verdict")).to_have_text("45 pts · a valid card")
    expect(page.locator("input[name='name']")).to_have_value("Skeleton Archer")
    page.select_option("#co-example", label="Rhona (120 pts)")
    page.click("#co-ability-add")
    expect(page.locator("#co-abilities li", has_text="Dodge")).to_have_count(1)

    # the draft survives a reload
    page.reload()
    expect(page.locator("#co-abilities li", has_text="Dodge")).to_have_count(1)
    expect(page.locator("#co-verdict")).to_have_text("120 pts · a valid card")


def test_battle_group_saved_and_a_stale_save_refused_l580_617(page: Any, request: Any) -> None:
    size = request.node.callspec.params["page"]
    open_collision(page)
    page.click("#co-example-group")
    expect(page.locator("#co-group-total")).to_have_text("430 / 500 pts")
    expect(page.locator("#co-members li")).to_have_count(3)

    # Rhona added: 550 points over a 500 point limit (L601-603)
    page.select_option("#co-example", label="Rhona (120 pts)")
    expect(page.locator("#co-verdict")).to_have_text("120 pts · a valid card")
    page.click("#co-to-group")
    expect(page.locator("#co-group-total")).to_have_text("550 / 500 pts")
    expect(page.locator("#co-group-violations li", has_text="L601-603")).to_have_count(1)

    name = f"Scouts {size}"
    page.fill("#co-group-name", name)
    page.click("#co-group-save")
    expect(page.locator("#co-group-saved")).to_contain_text(f"“{name}” (version 1)")
    expect(page.locator("#co-group-list option", has_text=name)).to_have_count(1)

    # saved elsewhere meanwhile: this page's save is refused with the server's sentence
    stored = page.request.get(f"/api/collision/groups/{name}").json()
    r = page.request.put(
        f"/api/collision/groups/{name}?version=1",
        data={"group": {**stored["group"], "points_limit": 600}},
    )
    assert r.status == 200
    page.fill("#co-group-limit", "750")
    page.click("#co-group-save")
    expect(page.locator("#co-group-saved")).to_contain_text("changed elsewhere")
    page.select_option("#co-group-list", name)
    page.click("#co-group-open")
    expect(page.locator("#co-group-limit")).to_have_value("600")
    expect(page.locator("#co-group-saved")).to_contain_text("(version 2)")

    # the card is saved too, and listed
    page.click("#co-card-save")
    expect(page.locator("#co-card-saved")).to_contain_text("“Rhona” (version 1)")
    expect(page.locator("#co-card-list option", has_text="Rhona · 120 pts · v1")).to_have_count(1)


def test_a_count_of_no_copies_is_refused_by_the_server_not_made_one_l580_617(page: Any) -> None:
    """A card's count in a group is sent as typed: 0 copies is refused by the server naming the
    field (count 1 to 100), not turned into 1 copy by the script while the page shows 0
    (s35-review)."""
    open_collision(page)
    page.click("#co-example-group")
    expect(page.locator("#co-group-total")).to_have_text("430 / 500 pts")
    page.get_by_label("Copies of Skeleton Archer").fill("0")
    expect(page.locator("#co-group-error")).to_contain_text("count")
    expect(page.locator("#co-group-total")).to_have_text("–")
    page.get_by_label("Copies of Skeleton Archer").fill("2")
    expect(page.locator("#co-group-total")).to_have_text("340 / 500 pts")
