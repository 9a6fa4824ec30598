"""The rest of a new player's walk in the browser (session 33, lane s33-play2), at phone size
(Playwright driving Debian's Chromium, the fixtures of ``test_play_browser.py``).

* Collision L682-686: the family "piles" (its ``order``, a list of rotations) rendered no form,
  so only the suggested piles could be chosen; the page now offers a select per character,
  by name, for its phase pile, checked by the server as it is chosen.
"""

from __future__ import annotations

from typing import Any

from tests.web.play import test_play_browser as tpb
from tests.web.play.test_play_browser import PHONE, Pages, expect
from tests.web.play.test_play_preview_browser import _api

browser = tpb.browser
server = tpb.server
pages = tpb.pages

pytestmark = tpb.pytestmark


def _collision_at_piles(page: Any) -> tuple[dict[str, Any], str, str, dict[str, Any]]:
    from warbench.web.play.scenes import presenter

    setup = presenter("collision").presets()[0]["setup"]
    made = page.request.post(
        "/api/play/games", data={"ruleset": "collision", "setup": setup, "mode": "ai", "seed": 4}
    ).json()
    game, tok = made["id"], made["tokens"]["players"]
    for _ in range(5):
        d = _api(page, game, tok)["decision"]
        if d["kind"] == "piles":
            break
        _api(page, game, tok, "/actions", {"action": d["default"]})
    assert d["kind"] == "piles", d["kind"]
    return made, game, tok, d


def test_collision_hand_sorted_by_name_into_any_piles_L682_686(pages: Pages) -> None:
    page = pages.new(PHONE, "s33-play2-piles")
    made, game, tok, d = _collision_at_piles(page)
    suggested = d["default"]["piles"]
    page.goto(made["links"]["players"])
    expect(page.locator("#decision-card")).to_have_attribute("data-state", "deciding")
    page.locator(".families-fold summary").click()
    form = page.locator("form.family[data-family='piles']")
    expect(form).to_be_visible()
    selects = form.locator("select")
    expect(selects).to_have_count(sum(len(p) for p in suggested))
    # each select is labelled by its character's name, not an index
    expect(form.locator("label").first).to_contain_text("Virgil")
    first, last = suggested[0][0], suggested[2][-1]
    # one character moved alone: piles of the wrong sizes, refused by the server's check
    form.locator(f"select[data-unit='{first}']").select_option("2")
    expect(page.locator("#refusal")).to_contain_text("sort into piles of")
    # swapped with a phase 3 character: legal, and sent as the piles
    form.locator(f"select[data-unit='{last}']").select_option("0")
    expect(page.locator("#refusal")).to_contain_text("legal")
    form.locator("button[type='submit']").click()
    want = [
        [last if u == first else u for u in suggested[0]],
        suggested[1],
        [first if u == last else u for u in suggested[2]],
    ]
    expect(page.locator("#decision-title")).not_to_contain_text("sort your hand")
    piles = {u["id"]: u["pile"] for u in _api(page, game, tok)["view"]["units"]}
    assert sorted(want[0]) != sorted(suggested[0])
    assert [piles[u] for u in want[0]] == [1] * len(want[0]), piles
    assert [piles[u] for u in want[2]] == [3] * len(want[2]), piles
