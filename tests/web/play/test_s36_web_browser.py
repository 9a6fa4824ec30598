"""What a player still tripped on in the play page (session 36, lane s36-web, issue 10), at
phone and desk size (Playwright driving Debian's Chromium, ``test_play_browser.py``'s fixtures).

* "More choices" (a decision's families of actions) was named by the families' names: a
  WarEngine figure's free move read "More choices, any value: move #0", and its form never
  showed (the family's point is "to", the action's fields x and y: no listed action matched it).
  The server now words each family from an action of it the rules accept ("StormReavers (1):
  WarpEyes #0 moves to a point you choose", L403) and sends that action, the form's start.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.play import test_play_browser as tpb
from tests.web.play.test_play_browser import DESK, PHONE, Pages, expect
from tests.web.play.test_play_preview_browser import _api

browser = tpb.browser
server = tpb.server
pages = tpb.pages

pytestmark = tpb.pytestmark


def _warengine_at_a_move(page: Any) -> tuple[dict[str, Any], str, str, dict[str, Any]]:
    """A WarEngine game against the AI, the suggestions made until a figure of the person's
    may move to any point (a family ``move #N``)."""
    from warbench.web.play.scenes import presenter

    setup = presenter("warengine").presets()[0]["setup"]
    made = page.request.post(
        "/api/play/games", data={"ruleset": "warengine", "setup": setup, "mode": "ai", "seed": 3}
    ).json()
    game, tok = made["id"], made["tokens"]["players"]
    for _ in range(120):
        d = _api(page, game, tok)["decision"]
        if any(f["name"].startswith("move #") for f in d["families"]):
            return made, game, tok, d
        action = d["default"] if d["default"] is not None else d["actions"][0]["action"]
        _api(page, game, tok, "/actions", {"action": action})
    raise AssertionError("no free move in 120 steps")


@pytest.mark.parametrize("size", ["phone", "desk"])
def test_more_choices_says_whose_figure_moves_and_its_form_moves_it_L403(
    pages: Pages, size: str
) -> None:
    page = pages.new(PHONE if size == "phone" else DESK, f"s36-web-more-{size}")
    made, game, tok, d = _warengine_at_a_move(page)
    fam = next(f for f in d["families"] if f["name"].startswith("move #"))
    fid = int(fam["name"].removeprefix("move #"))
    figure = next(f for f in _api(page, game, tok)["view"]["figures"] if f["id"] == fid)
    page.goto(made["links"]["players"])
    expect(page.locator("#decision-card")).to_have_attribute("data-state", "deciding")
    summary = page.locator("details.families-fold > summary")
    # whose figure (the force, as the page names the sides) and what it does, not "move #N"
    expect(summary).to_contain_text(
        f"StormReavers (1): {figure['name']} #{fid} moves to a point you choose"
    )
    expect(summary).not_to_contain_text("move #")
    summary.click()
    form = page.locator(f"form.family[data-family='move #{fid}']")
    expect(form).to_be_visible()
    x, y = form.locator("input[name='to-x']"), form.locator("input[name='to-y']")
    # it starts at a point the rules accept: not where the figure stands ("a move must go
    # somewhere")
    start = (float(x.input_value()), float(y.input_value()))
    assert start != (round(figure["x"], 2), round(figure["y"], 2)), start
    x.fill(str(start[0]))  # the live check of the point as it is typed
    expect(page.locator("#refusal")).to_contain_text("legal")
    form.locator("button[type='submit']").click()
    expect(page.locator("#log")).to_contain_text(
        re.compile(rf"{figure['name']} #{fid} (moves|makes a Fast Move) to")
    )
    moved = next(f for f in _api(page, game, tok)["view"]["figures"] if f["id"] == fid)
    assert (moved["x"], moved["y"]) != (figure["x"], figure["y"])
