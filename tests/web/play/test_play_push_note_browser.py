"""An Attack whose Weapon may push its Target says so before it is confirmed, on the play page
at phone size (issue 10, session 34, s34-ui): beside the odds, the check's preview note in the
engine's words, one line per perk, naming the Target, the perk and its Perks line, how far and
which line (Knockback I, Perks 000_94ecc6a4c74d351b.txt L3917: "moved 6" directly away from
the User"); an Attack without such a perk shows none. Playwright and Debian's Chromium, as
``test_play_browser.py`` (its fixtures); the screenshot goes to ``tests/web/artefacts/``."""

from __future__ import annotations

import copy
from typing import Any

from tests.web.play import test_play_browser as tpb
from tests.web.play.test_play_browser import ARTEFACTS, PHONE, Pages, expect
from tests.web.play.test_play_charge_preview_browser import _click_listed
from tests.web.play.test_play_preview_browser import _api, _game_at

browser = tpb.browser
server = tpb.server
pages = tpb.pages

pytestmark = tpb.pytestmark


def _red_attack(d: dict[str, Any]) -> dict[str, Any] | None:
    """The first Attack ``d`` lists for Red (player 0), if any."""
    if d["player"] != 0:
        return None
    return next((a["action"] for a in d["actions"] if a["action"]["kind"] == "attack"), None)


def _to_attack(page: Any, server: str, perk: str | None) -> tuple[str, str, str, dict[str, Any]]:
    """The Skirmish preset with ``perk`` on every Red Weapon, seed 1, hotseat: defaults made
    over the API until Red may attack with a ranged Weapon; the game, token, link and attack."""
    from warbench.web.play.scenes import presenter

    setup = copy.deepcopy(presenter("warsurge").presets()[0]["setup"])
    if perk is not None:
        for u in setup["rosters"][0]["units"]:
            for w in u["weapons"]:
                w["perks"] = [perk]
    made, game, tok, d = _game_at(
        page, "warsurge", "hotseat", 1, lambda d: _red_attack(d) is not None, 120, setup
    )
    attack = _red_attack(d)
    assert attack is not None
    return game, tok, made["links"]["players"], attack


def test_an_attack_with_knockback_says_who_is_moved_how_far_before_it_is_confirmed_L3917(
    pages: Pages,
) -> None:
    page = pages.new(PHONE, "push-note")
    game, tok, link, attack = _to_attack(page, pages.server, "Knockback I")
    page.goto(link)
    expect(page.locator("#decision-card")).to_have_attribute("data-state", "deciding")
    before = _api(page, game, tok)["revision"]
    _click_listed(page, attack)
    expect(page.locator("#confirm-attack")).to_be_visible()
    note = page.locator("#push-note")
    expect(note).to_contain_text("After the dice, a unit may move:")
    expect(note).to_contain_text("Knockback I (Perks L3917): if ")
    expect(note).to_contain_text('is moved 6" directly away from')
    assert _api(page, game, tok)["revision"] == before  # nothing made
    ARTEFACTS.mkdir(exist_ok=True)
    note.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTEFACTS / "play-push-note-phone.png"))


def test_an_attack_without_a_pushing_perk_shows_no_note(pages: Pages) -> None:
    page = pages.new(PHONE, "push-note-none")
    _, _, link, attack = _to_attack(page, pages.server, None)
    page.goto(link)
    expect(page.locator("#decision-card")).to_have_attribute("data-state", "deciding")
    _click_listed(page, attack)
    expect(page.locator("#confirm-attack")).to_be_visible()
    expect(page.locator("#push-note")).to_have_count(0)
