"""A new player's walk in the browser (session 34, lane s34-user), at desk and phone size
(Playwright driving Debian's Chromium, as ``tests/web/test_s32_user_browser.py`` does).

* A share code of a roster that is already here (a friend's roster of the same name, or one's
  own code pasted back to check it) could only be refused ("a roster called 'X' already
  exists"): the share-code import now takes a new name, as the QR import does, and the refusal
  says to give one.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web import test_s32_user_browser as s32
from tests.web.play.test_play_browser import expect

browser = s32.browser
server = s32.server
pytestmark = s32.pytestmark


@pytest.fixture(params=list(s32.VIEWPORTS))
def page(request: pytest.FixtureRequest, browser: Any, server: str) -> Iterator[Any]:
    """A fresh page at one viewport; a script error or a page wider than the screen fails."""
    yield from s32.viewport_page(request, browser, server, "s34-user")


def test_a_share_code_of_a_roster_here_imports_under_a_new_name(page: Any, request: Any) -> None:
    size = request.node.callspec.params["page"]
    name = f"Bog {size}"
    page.request.post("/api/rosters", data={"name": name, "point_limit": 200})
    page.request.post(
        f"/api/rosters/{name}/entries",
        data={"unit": {"source": "example", "name": "Troopers"}, "name": "Troopers"},
    )
    code = page.request.get(f"/api/rosters/{name}/share").json()["code"]
    page.goto("/rosters")
    page.fill('#import-roster textarea[name="code"]', code)
    page.click("#import-roster button")
    expect(page.locator("#status")).to_contain_text(
        f"a roster called '{name}' already exists; give the import a new name to keep both"
    )
    page.fill('#import-roster input[name="name"]', f"{name} (shared)")
    page.click("#import-roster button")
    expect(page.locator("#roster-list")).to_contain_text(f"{name} (shared)")
    copy = page.request.get(f"/api/rosters/{name} (shared)").json()
    assert [u["entry"] for u in copy["units"]] == ["Troopers"]


def test_the_monte_carlo_check_lists_exact_and_sampled_side_by_side(page: Any) -> None:
    """The odds page drew the exact and the sampled distributions as two charts apart, their
    values only in hover titles (none on a phone): a table now gives both for every k."""
    page.goto("/odds")
    expect(page.locator("#expected-hp")).not_to_have_text("")
    page.fill("#mc-trials", "4000")
    page.fill("#mc-seed", "7")
    page.click("#mc-run")
    rows = page.locator("#mc-table tr")
    expect(rows.first).to_have_text("HP lostexactMonte Carlo")
    answer = page.request.post(
        "/api/odds",
        data={
            "attacker": {"source": "example", "name": "Troopers"},
            "target": {"source": "example", "name": "Kataton Battle Servitors"},
            "monte_carlo": 4000,
            "seed": 7,
        },
    ).json()
    keys = sorted({*answer["hp_lost"], *answer["monte_carlo"]["hp_lost"]}, key=int)
    expect(rows).to_have_count(1 + len(keys))
    k = keys[1]
    exact = answer["hp_lost"].get(k, 0.0) * 100
    sampled = answer["monte_carlo"]["hp_lost"].get(k, 0.0) * 100
    expect(rows.nth(2)).to_have_text(f"{k}{exact:.1f}%{sampled:.1f}%")


def test_the_odds_charts_label_each_bar_with_its_probability(page: Any) -> None:
    """A chart of a few bars gave each bar's probability only as a hover title (a phone has
    none): each bar of P(HP lost = k) is labelled with it."""
    page.goto("/odds")
    expect(page.locator("#expected-hp")).not_to_have_text("")
    answer = page.request.post(
        "/api/odds",
        data={
            "attacker": {"source": "example", "name": "Troopers"},
            "target": {"source": "example", "name": "Kataton Battle Servitors"},
        },
    ).json()
    shown = [
        f"{p * 100:.1f}%" for k, p in sorted(answer["hp_lost"].items(), key=lambda x: int(x[0]))
    ]
    chart = page.locator("#odds-result svg.chart").first
    expect(chart.locator("text.value")).to_have_text(shown)


def test_the_rules_page_jumps_to_each_of_its_three_lists(page: Any) -> None:
    """The Rules page lists every section, perk and Godslayer ability, about 113,000 px at
    phone width, with no way to the Godslayer abilities but scrolling: a line of links at the
    top jumps to each list."""
    page.goto("/rules")
    expect(page.locator("#godslayer-results li").first).to_be_visible()
    nav = page.get_by_role("navigation", name="On this page")
    for label, target in (("Godslayer abilities", "#godslayer"), ("Perks", "#perks")):
        page.evaluate("window.scrollTo(0, 0)")
        nav.get_by_role("link", name=label).click()
        # in sight at the top of the screen (the last list may end the page a little lower)
        page.wait_for_function(
            "t => { const r = document.querySelector(t).getBoundingClientRect();"
            " return window.scrollY > 0 && r.top >= -1 && r.top < window.innerHeight / 3; }",
            arg=target,
        )
    # a short page for the closing full-page screenshot (the whole lists are too tall for it)
    page.fill("#rules-q", "Tough")
    expect(page.locator("#rules-results li").first).to_contain_text("Tough")
