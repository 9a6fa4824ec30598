"""The decisions a set-up hands to the engine, shown and changed in the lobby (issue 10,
session 37, s37-web).

Session 37's walk left the lobby's "kinds of decision the engine takes for you" empty ("leave
empty to decide everything yourself") to pick its casualties (§5.11) in a two-browser WARSURGE
game, and was never asked: the sample set-ups' rules options (``options.automation``, inside the
set-up JSON) hand the engine the model placement, the casualties and Coherency. The lobby now
shows a box per decision the set-up may hand to the engine, in words with its rule, ticked as
the set-up says; unticking one asks the players instead.
"""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from tests.web.play.test_play_browser import ARTEFACTS, PHONE, Pages, expect
from tests.web.play.test_play_browser import browser as browser
from tests.web.play.test_play_browser import pages as pages
from tests.web.play.test_play_browser import pytestmark as pytestmark
from tests.web.play.test_play_browser import server as server
from warbench.rulesets.warsurge.game.state import Automation


def test_the_rulesets_list_the_engines_choices(client: TestClient) -> None:
    listed = {r["id"]: r for r in client.get("/api/play/rulesets").json()}
    names = [c["name"] for c in listed["warsurge"]["engine_choices"]]
    assert names == [a.value for a in Automation]
    words = {c["name"]: c["text"] for c in listed["warsurge"]["engine_choices"]}
    assert "(§5.11)" in words["casualty selection"]
    assert listed["toy-duel"]["engine_choices"] == []


def test_the_lobby_shows_and_changes_what_the_engine_decides_s5_11(pages: Pages) -> None:
    page = pages.new(PHONE, "engine-choices")
    page.goto("/play?ruleset=warsurge")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    box = page.locator("#engine")
    expect(box).to_be_visible()
    casualties = page.locator("input[data-engine='casualty selection']")
    expect(casualties).to_be_checked()  # the sample set-up hands the engine the casualties
    expect(page.locator("input[data-engine='perk use']")).not_to_be_checked()
    expect(page.locator("label.engine-choice", has=casualties)).to_contain_text(
        "which models are removed as casualties (§5.11)"
    )
    casualties.uncheck()
    ARTEFACTS.mkdir(exist_ok=True)
    page.locator("#new-game").screenshot(path=str(ARTEFACTS / "s37-web-engine-choices-390.png"))
    setup = json.loads(page.input_value("#setup"))
    assert setup["options"]["automation"] == ["model placement", "coherency"]
    page.select_option("#mode", "network")
    with page.expect_request("**/api/play/games") as req:
        page.click("#start")
    sent = json.loads(req.value.post_data or "{}")
    assert "casualty selection" not in sent["setup"]["options"]["automation"]
    expect(page.locator("#created")).to_be_visible()
    # another set-up: its own options (the boxes follow the JSON)
    page.select_option("#preset", index=1)
    expect(page.locator("input[data-engine='casualty selection']")).to_be_checked()
    # a ruleset without such options shows none
    page.select_option("#ruleset", "toy-duel")
    expect(box).to_be_hidden()
