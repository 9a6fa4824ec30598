"""Session 35's walk (s35-user) in the browser: what a new player of Collision and The WarEngine
2.1 saw on the game page, at phone size and at desk size (Playwright driving Debian's Chromium,
the fixtures of ``test_play_browser.py``; screenshots in ``tests/web/artefacts/``).

* Collision: the line over the board read "Game Turn 1 · step 20": no turn limit, no phase
  (a number, which the page dropped), and the battle's objectives, which score it (L1108-1114),
  were named nowhere until the score at the end. It now reads "Game Turn 1 of 5 · phase 1 ·
  step 20 · objectives: Rushed Study (major); Tactical Victory, High Ground (minor)".
* WarEngine: the key said "Player 1's placing strip" while the sides are called by their
  forces ("StormReavers (1)"); it now names the force. Its bracket "(12" from the edge, L309)"
  was cut with the force's own "(1)" by the key's greedy bracket rule: only the last bracket
  is cut now.
"""

from __future__ import annotations

from typing import Any

from tests.web.play import test_play_browser as tpb
from tests.web.play.test_play_browser import DESK, PHONE, Pages, expect
from tests.web.play.test_play_preview_browser import _api

browser = tpb.browser
server = tpb.server
pages = tpb.pages

pytestmark = tpb.pytestmark


def _game(page: Any, ruleset: str, seed: int, steps: int) -> tuple[str, str, str, Any]:
    """A game of ``ruleset``'s second preset against the AI, ``steps`` suggestions made."""
    from warbench.web.play.scenes import presenter

    setup = presenter(ruleset).presets()[1]["setup"]
    made = page.request.post(
        "/api/play/games",
        data={"ruleset": ruleset, "setup": setup, "mode": "ai", "seed": seed},
    ).json()
    game, tok = made["id"], made["tokens"]["players"]
    snap = _api(page, game, tok)
    for _ in range(steps):
        if snap["decision"] is None:
            break
        _api(page, game, tok, "/actions", {"action": snap["decision"]["default"]})
        snap = _api(page, game, tok)
    return game, tok, made["links"]["players"], snap


def test_collision_turn_line_says_the_limit_the_phase_and_the_objectives(pages: Pages) -> None:
    for size, label in ((PHONE, "phone"), (DESK, "desk")):
        page = pages.new(size, f"s35-collision-turn-{label}")
        _game_id, _tok, link, snap = _game(page, "collision", 3, 40)
        view = snap["view"]
        assert view["turn"] >= 1, "still deploying after 40 steps"
        page.goto(link)
        turn = page.locator("#turn")
        expect(turn).to_contain_text(f"Game Turn {view['turn']} of {view['turn_limit']}")
        expect(turn).to_contain_text(f"phase {view['phase']}")
        major, minors = view["objectives"]["major"], view["objectives"]["minors"]
        expect(turn).to_contain_text(f"objectives: {major} (major); {', '.join(minors)} (minor)")
        page.screenshot(path=str(tpb.ARTEFACTS / f"s35-collision-turn-{label}.png"))


def test_warengine_key_names_each_placing_strip_by_its_force(pages: Pages) -> None:
    for size, label in ((PHONE, "phone"), (DESK, "desk")):
        page = pages.new(size, f"s35-warengine-key-{label}")
        _game_id, _tok, link, _snap = _game(page, "warengine", 3, 2)
        page.goto(link)
        key = page.locator("#board-legend")
        expect(key).to_contain_text("StormReavers (1)'s placing strip")
        expect(key).to_contain_text("StormReavers (2)'s placing strip")
        expect(key).not_to_contain_text("Player 1")
        page.locator("#board").scroll_into_view_if_needed()
        page.screenshot(path=str(tpb.ARTEFACTS / f"s35-warengine-key-{label}.png"))
