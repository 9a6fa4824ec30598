"""What a player still tripped on (issue 10, session 38, s38-web), in the browser.

* A casualty choice (§5.11) read "casualties: unit 3, models [0, 1, ...]" under "... among
  models 0, 1, 2": each choice now says which models it removes, numbered from 1 as the
  board now numbers the unit's models while the choice waits.
* The Play Manager: one tap on a 1-HP model wrote two lines of history ("model 1 at 0 HP",
  "model 1 removed") and took two undos: one operation now.
* The WarEngine: 24 placement taps before turn 1 (L303-309): "Place the rest of your figures
  as suggested" places them in the rules' order at the engine's places in one tap.
"""

from __future__ import annotations

import re

from tests.web.play.test_play_browser import ARTEFACTS, PHONE, Pages, _answered, expect
from tests.web.play.test_play_browser import browser as browser
from tests.web.play.test_play_browser import pages as pages
from tests.web.play.test_play_browser import pytestmark as pytestmark
from tests.web.play.test_play_browser import server as server
from warbench.web.play.scenes import presenter


def test_a_casualty_choice_names_the_models_it_removes_as_the_board_numbers_them_s5_11(
    pages: Pages,
) -> None:
    page = pages.new(PHONE, "casualty-words")
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
    expect(page.locator("#decision-title")).to_contain_text("among models 1 to 10")
    choices = page.locator("#actions > li > button")
    expect(choices).to_have_text(
        ["Blue: Dead Dogs: models 1 to 3 become casualties (§5.11)",
         "Blue: Dead Dogs: models 8 to 10 become casualties (§5.11)"]
    )  # fmt: skip
    # the board numbers the unit's ten models, as the choices name them
    numbers = page.locator("#board text.piece-letter")
    expect(numbers.filter(has_text=re.compile(r"^10$"))).to_have_count(1)
    expect(numbers.filter(has_text=re.compile(r"^1$"))).to_have_count(1)
    ARTEFACTS.mkdir(exist_ok=True)
    card.screenshot(path=str(ARTEFACTS / "s38-web-casualty-words-390.png"))
    page.locator("#board").screenshot(path=str(ARTEFACTS / "s38-web-casualty-board-390.png"))
    rev = page.locator("body").get_attribute("data-revision")
    choices.nth(1).click()
    _answered(page, rev)
    expect(page.locator("#log")).to_contain_text("Dead Dogs")


def test_play_manager_one_tap_on_a_1_hp_model_is_one_line_and_one_undo(pages: Pages) -> None:
    page = pages.new(PHONE, "manager-one-line")
    page.goto("/play/manager")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    page.click("#start-table")
    expect(page.locator("#table")).to_be_visible()
    first = page.locator(".pm-unit").first
    first.locator("select").select_option("table")
    history = page.locator("#pm-history li")
    expect(history).to_have_count(1)  # the unit put on the table
    expect(page.locator("#pm-standings")).to_contain_text("120 of 300 pts")
    first.locator(".hp button").first.click()  # its last HP: the model is removed
    expect(first.locator(".hp button").first).to_have_text("✕")
    expect(history).to_have_count(2)
    expect(history.first).to_contain_text("model 1 removed")
    expect(page.locator("#pm-standings")).to_contain_text("108 of 300 pts")
    page.click("#pm-undo")  # one undo takes the tap back
    expect(first.locator(".hp button").first).to_have_text("1")
    expect(page.locator("#pm-standings")).to_contain_text("120 of 300 pts")


def test_warengine_place_the_rest_of_your_figures_in_one_tap_L303(pages: Pages) -> None:
    page = pages.new(PHONE, "warengine-rest")
    setup = presenter("warengine").presets()[0]["setup"]
    made = page.request.post(
        f"{pages.server}/api/play/games",
        data={"ruleset": "warengine", "setup": setup, "mode": "ai", "seed": 3},
    ).json()
    page.goto(made["links"]["players"])
    card = page.locator("#decision-card")
    expect(card).to_have_attribute("data-kind", "place")
    rest = page.locator("#take-rest")
    expect(rest).to_have_text("Place the rest of your figures as suggested")
    rev = page.locator("body").get_attribute("data-revision")
    rest.click()
    _answered(page, rev)
    # every figure placed (the AI's too, in the rules' order): the first activation is asked
    expect(card).to_have_attribute("data-kind", "activation")
    expect(rest).to_be_hidden()
    snap = page.request.get(
        f"{pages.server}/api/play/games/{made['id']}",
        headers={"X-Play-Token": made["tokens"]["players"]},
    ).json()
    figures = snap["view"]["figures"]
    assert figures and all(f["placed"] for f in figures if f["alive"])
