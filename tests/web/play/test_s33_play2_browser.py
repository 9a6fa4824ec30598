"""The rest of a new player's walk in the browser (session 33, lane s33-play2), at phone size
(Playwright driving Debian's Chromium, the fixtures of ``test_play_browser.py``).

* Collision L682-686: the family "piles" (its ``order``, a list of rotations) rendered no form,
  so only the suggested piles could be chosen; the page now offers a select per character,
  by name, for its phase pile, checked by the server as it is chosen.
"""

from __future__ import annotations

import re
from typing import Any

from tests.web.play import test_play_browser as tpb
from tests.web.play.test_play_browser import PHONE, Pages, expect
from tests.web.play.test_play_preview_browser import _api, _game_at

browser = tpb.browser
server = tpb.server
pages = tpb.pages

pytestmark = tpb.pytestmark


def _collision_at_piles(page: Any) -> tuple[dict[str, Any], str, str, dict[str, Any]]:
    """A Collision game against the AI at its hand's piles (L682-686)."""
    return _game_at(page, "collision", "ai", 4, lambda d: d["kind"] == "piles", steps=5)


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


def test_deployment_zones_are_tinted_by_the_side_that_took_each_S3_6(pages: Pages) -> None:
    """Core Rules §3.6: each player takes a Deployment Zone. The board drew both zones in one
    grey-blue while the log said "Red takes Deployment Zone north edge"; a taken zone is now
    tinted in its side's colour (the colour its pieces are drawn in), and the key says whose."""
    from warbench.web.play.scenes import presenter

    page = pages.new(PHONE, "s33-play2-zones")
    setup = presenter("warsurge").presets()[0]["setup"]
    made = page.request.post(
        "/api/play/games",
        data={"ruleset": "warsurge", "setup": setup, "mode": "hotseat", "seed": 11},
    ).json()
    game, tok = made["id"], made["tokens"]["players"]
    for _ in range(6):
        snap = _api(page, game, tok)
        if all(isinstance(s.get("zone"), int) for s in snap["view"]["sides"]):
            break
        _api(page, game, tok, "/actions", {"action": snap["decision"]["default"]})
    sides = snap["view"]["sides"]
    assert all(isinstance(s.get("zone"), int) for s in sides), sides
    zones = [a for a in snap["scene"]["areas"] if a["kind"] == "zone"]
    colours = snap["scene"]["side_colours"]
    page.goto(made["links"]["players"])
    expect(page.locator("#decision-card")).to_have_attribute("data-state", "deciding")
    key = page.locator("#board-legend")
    for side, s in enumerate(sides):
        assert f"side-{side}" in zones[s["zone"]]["tags"]
        poly = page.locator(f"#board polygon.zone.side-{side}")
        expect(poly).to_have_count(1)
        fill = poly.evaluate("e => getComputedStyle(e).fill")
        swatch = page.locator(f"#board-legend li[data-key='zone side-{side}'] rect")
        assert fill == swatch.evaluate("e => getComputedStyle(e).fill")
        # the side's colour, not the grey-blue every zone had
        r, g, b = (int(x) for x in re.findall(r"\d+", fill)[:3])
        want = colours[side].lstrip("#")
        assert (r, g, b) == tuple(int(want[i : i + 2], 16) for i in (0, 2, 4)), (fill, want)
        expect(key).to_contain_text(f"{s['name']}'s Deployment Zone ({zones[s['zone']]['name']})")


def test_play_manager_command_points_keep_their_plus_on_their_line(pages: Pages) -> None:
    """At 390 px Blue's Command Points "+" wrapped to a line of its own, away from "Blue: 0
    CP"; each side's count, "−" and "+" now stay on one line."""
    page = pages.new(PHONE, "s33-play2-cp")
    page.goto("/play/manager")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    page.click("#start-table")
    expect(page.locator("#table")).to_be_visible()
    box = page.locator("#pm-standings")
    for name in ("Red", "Blue"):
        count = box.locator("span", has_text=re.compile(rf"^{name}: \d+ CP$"))
        plus = box.locator(f"button[aria-label='+ Command Point for {name}']")
        minus = box.locator(f"button[aria-label='− Command Point for {name}']")
        at = count.bounding_box()
        assert at is not None
        for b in (plus, minus):
            got = b.bounding_box()
            assert got is not None
            # the button's middle within the count's line
            middle = got["y"] + got["height"] / 2
            assert at["y"] <= middle <= at["y"] + at["height"] + 8, (name, at, got)
            assert got["x"] > at["x"], (name, at, got)
    plus = box.locator("button[aria-label='+ Command Point for Blue']")
    plus.click()
    expect(box.locator("span", has_text=re.compile(r"^Blue: 1 CP$"))).to_have_count(1)


def test_warengine_log_and_result_name_the_force_not_player_0_L305_L633(pages: Pages) -> None:
    """The WarEngine log read "player 0 rolls higher: player 1 places first" (L305) and the
    result "...: player 0 wins" (L631), the seats numbered from 0 under "you play StormReavers
    (1)"; the page and the replay viewer now name the force. The server's record keeps the
    engine's text."""
    from warbench.web.play.scenes import presenter

    page = pages.new(PHONE, "s33-play2-we-names")
    setup = presenter("warengine").presets()[0]["setup"]
    made = page.request.post(
        "/api/play/games", data={"ruleset": "warengine", "setup": setup, "mode": "ai", "seed": 3}
    ).json()
    game, tok = made["id"], made["tokens"]["players"]
    for _ in range(400):
        snap = _api(page, game, tok)
        if snap["result"] is not None:
            break
        _api(page, game, tok, "/actions", {"action": snap["decision"]["default"]})
    assert snap["result"] is not None
    player = re.compile(r"\bplayer \d")
    texts = [e["text"] for e in snap["events"]]
    assert any("rolls higher: StormReavers (" in t for t in texts), texts[:5]
    assert not any(player.search(t) for t in texts), [t for t in texts if player.search(t)]
    assert not player.search(snap["result"]["reason"]), snap["result"]["reason"]
    page.goto(made["links"]["players"])
    expect(page.locator("#decision-card")).to_have_attribute("data-state", "over")
    expect(page.locator("#log")).to_contain_text("rolls higher: StormReavers (")
    assert not player.search(page.locator("#log").inner_text())
    assert not player.search(page.locator("#result").inner_text())
    page.goto(f"/play/replay?game={game}#t={tok}")
    expect(page.locator("#replay-result")).to_contain_text("verified")
    page.click("#last")
    assert not player.search(page.locator("#log").inner_text())
    assert not player.search(page.locator("#replay-result").inner_text())
