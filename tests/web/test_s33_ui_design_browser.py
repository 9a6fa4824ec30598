"""The design page's live cost stays in sight while a profile is edited (issue 10, s33-ui):
on a phone (390x844) the breakdown sits under the whole form, so a compact bar at the top of
the form keeps the unit's points on screen as a field far down the form changes (Core Rules
§1.5-1.6, §3); the field being edited is not under the bar. At desk size the cost panel beside
the form stays in sight instead. Playwright and Debian's Chromium, as ``test_browser.py`` (its
fixtures)."""

from __future__ import annotations

import re
from typing import Any

from tests.web import test_browser as tb

expect = tb.playwright_api.expect
browser = tb.browser
server = tb.server
page = tb.page

pytestmark = tb.pytestmark

SHOTS = tb.ARTEFACTS


def _on_screen(box: dict[str, float], height: int) -> bool:
    return box["y"] >= -0.5 and box["y"] + box["height"] <= height + 0.5


def test_the_unit_cost_is_in_sight_while_a_weapon_far_down_the_form_is_edited(
    page: Any,
) -> None:
    height = tb.VIEWPORTS[page.viewport_name]["height"]
    page.goto("/design")
    total = page.locator("#cost-total")
    expect(total).to_have_text(re.compile(r"^\d+ pts$"))
    before = total.inner_text()
    # a field far down the form: the last weapon's Attacks (a weapon added if none yet)
    if page.locator("#weapons input[name='w-attacks']").count() == 0:
        page.click("#add-weapon")
    field = page.locator("#weapons input[name='w-attacks']").last
    field.scroll_into_view_if_needed()
    field.fill("6")
    expect(total).not_to_have_text(before)
    after = total.inner_text()
    if page.viewport_name == "phone":
        bar = page.locator("#cost-bar")
        expect(bar).to_be_visible()
        # the bar shows the same new cost, on the screen, while the breakdown is not
        expect(page.locator("#cost-bar-total")).to_have_text(after)
        box = bar.bounding_box()
        assert box is not None and _on_screen(box, height), box
        panel = page.locator("#cost-panel").bounding_box()
        assert panel is not None and panel["y"] > height, "the breakdown is off the screen"
        # the field edited is in sight, not under the bar
        f = field.bounding_box()
        assert f is not None and f["y"] >= box["y"] + box["height"] - 0.5, (f, box)
        # focusing a field near the top scrolls it clear of the bar (scroll-padding)
        page.locator("input[name='name']").focus()
        page.keyboard.press("End")
        name = page.locator("input[name='name']").bounding_box()
        box = bar.bounding_box()
        assert name is not None and box is not None
        assert _on_screen(name, height)
        # an invalid value: the bar says the cost is not the unit's
        page.fill('input[name="defence"]', "11")
        expect(page.locator("#cost-bar-state")).to_contain_text("not costed")
        page.fill('input[name="defence"]', "3")
        expect(page.locator("#cost-bar-state")).not_to_contain_text("not costed")
        field.scroll_into_view_if_needed()
    else:
        expect(page.locator("#cost-bar")).to_be_hidden()
        box = page.locator("#cost-total").bounding_box()
        assert box is not None and _on_screen(box, height), box
    page.screenshot(path=str(SHOTS / f"design-cost-in-sight-{page.viewport_name}.png"))
