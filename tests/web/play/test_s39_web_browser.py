"""A WARSURGE casualty choice on a phone (issue 10, session 39, s39-web; 001_d3f5e425c5e1196d.txt
§5.11 L2872: "The player who controls the Unit will choose which models are the casualties").

* The board's model numbers that did not fit at 390 px were hidden until the player zoomed in
  (5, 7 and 9 of ten Dead Dogs, session 38's walk): the board now zooms in on the unit once,
  and every number shows.
* Only the engine's order and its reverse were offered: "Choose the models yourself" takes
  models tapped on the board or by number, says what the order does (the engine asked) and
  makes it.
* Two orders that remove the same models were listed twice: once now.
"""

from __future__ import annotations

import re
from typing import Any

from tests.web.play.test_play_browser import ARTEFACTS, PHONE, Pages, _answered, expect
from tests.web.play.test_play_browser import browser as browser
from tests.web.play.test_play_browser import pages as pages
from tests.web.play.test_play_browser import pytestmark as pytestmark
from tests.web.play.test_play_browser import server as server
from warbench.web.play.scenes import presenter


def _game(pages: Pages, name: str) -> tuple[Any, dict[str, Any]]:
    page = pages.new(PHONE, name)
    setup = presenter("warsurge").presets()[0]["setup"]
    options = {**setup["options"], "automation": ["model placement", "coherency"]}
    made = page.request.post(
        f"{pages.server}/api/play/games",
        data={"ruleset": "warsurge", "setup": {**setup, "options": options}, "mode": "hotseat",
              "seed": 3},
    ).json()  # fmt: skip
    page.goto(made["links"]["players"])
    return page, made


def _until(page: Any, title: str) -> None:
    """Take the suggested choices until the decision's title starts with ``title``."""
    card = page.locator("#decision-card")
    for _ in range(120):
        expect(card).to_have_attribute("data-state", re.compile("deciding|over"))
        if page.locator("#decision-title").inner_text().startswith(title):
            return
        rev = page.locator("body").get_attribute("data-revision")
        page.click("#take-default")
        _answered(page, rev)
    raise AssertionError(f"never asked {title!r}")


def test_a_casualty_choice_numbers_every_model_on_a_phone_and_takes_your_own_order_s5_11(
    pages: Pages,
) -> None:
    page, made = _game(pages, "casualty-own")
    board = page.locator("#board")
    expect(page.locator("#decision-card")).to_have_attribute("data-state", "deciding")
    whole = board.get_attribute("viewBox")  # the whole table
    _until(page, "Blue: Dead Dogs loses 3 HP to Red: Sniper Troopers")
    expect(board).not_to_have_attribute("viewBox", whole or "")
    # every one of the ten numbers shows at 390 px (the board zoomed in on the unit)
    expect(board).to_have_attribute("data-hidden-marks", "0")
    numbers = page.locator("#board text.piece-letter")
    for n in range(1, 11):
        expect(numbers.filter(has_text=re.compile(rf"^{n}$"))).to_have_count(1)
    expect(page.locator("#board-hint")).to_have_text(
        "Zoomed in on Blue: Dead Dogs: its models are numbered as the choices name them; ⤢ "
        "shows the whole table."
    )
    ARTEFACTS.mkdir(exist_ok=True)
    board.screenshot(path=str(ARTEFACTS / "s39-web-casualty-board-390.png"))
    # an order of one's own: model 10 tapped on the board, then 9 and 1 by number
    page.click("#casualty-own summary")
    model = page.locator("#board circle").filter(
        has=page.locator("title", has_text=re.compile(r"Dead Dogs .* · model 10$"))
    )
    model.click()
    own = page.locator("#casualty-own")
    expect(own.locator(".model-pick.chosen")).to_have_count(1)
    own.locator(".model-pick[data-model='8']").click()
    expect(own.locator(".model-pick.chosen")).to_have_count(2)
    own.locator(".model-pick[data-model='0']").click()
    said = page.locator("#casualty-own-said")
    expect(said).to_have_text(
        "Your order: Blue: Dead Dogs: models 1, 9 and 10 become casualties (§5.11)"
    )
    page.locator("#decision-card").screenshot(path=str(ARTEFACTS / "s39-web-casualty-own-390.png"))
    rev = page.locator("body").get_attribute("data-revision")
    page.click("#casualty-own-make")
    _answered(page, rev)
    # the choice made, the board shows the whole table again
    expect(board).to_have_attribute("viewBox", whole or "")
    snap = page.request.get(
        f"{pages.server}/api/play/games/{made['id']}",
        headers={"X-Play-Token": made["tokens"]["players"]},
    ).json()
    dogs = next(u for u in snap["view"]["units"] if u["label"] == "Blue: Dead Dogs")
    assert [k for k, hp in enumerate(dogs["hp"]) if hp <= 0] == [0, 8, 9]


def test_a_casualty_outcome_is_listed_once_s5_12(pages: Pages) -> None:
    page, _ = _game(pages, "casualty-once")
    _until(page, "Blue: Gut-Hackers loses 1 HP to Red: Troopers: choose the casualties among "
                 "models 1 to 6")  # fmt: skip
    expect(page.locator("#actions > li > button")).to_have_text(
        ["Blue: Gut-Hackers: model 1 becomes a casualty; model 1 was wounded already, so first "
         "whatever the order (§5.11, §5.12)"]
    )  # fmt: skip
