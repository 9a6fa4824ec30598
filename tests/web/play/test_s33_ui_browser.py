"""Session 33's play-page fixes (issue 10, s33-ui), in Debian's Chromium at phone size
(390x844) and desk size, as ``test_play_browser.py`` (its fixtures): the board's key (legend)
under the board, naming each kind of ground drawn (WARSURGE Core Rules 001_d3f5e425c5e1196d.txt
§4.5 Difficult Ground, §4.6 Dangerous Ground, §4.7 Impassable, §5.6 cover) and each side's
colour. Screenshots go to ``tests/web/artefacts/``."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.play import test_play_browser as tpb
from tests.web.play.test_play_browser import ARTEFACTS, DESK, PHONE, Pages, expect

# the browser tests' fixtures: Debian's Chromium, a served app, pages checked as they close
browser = tpb.browser
server = tpb.server
pages = tpb.pages

pytestmark = tpb.pytestmark


def _warsurge(page: Any, pages: Pages) -> dict[str, Any]:
    """A hot-seat WARSURGE game of the lobby's first preset (ruins_48x48), opened in ``page``."""
    from warbench.web.play.scenes import presenter

    setup = presenter("warsurge").presets()[0]["setup"]
    made: dict[str, Any] = page.request.post(
        f"{pages.server}/api/play/games",
        data={"ruleset": "warsurge", "setup": setup, "mode": "hotseat", "seed": 1},
    ).json()
    page.goto(made["links"]["players"])
    expect(page.locator("#decision-card")).to_have_attribute("data-state", "deciding")
    return made


@pytest.mark.parametrize("size", ["phone", "desk"])
def test_the_board_has_a_key_naming_its_ground_and_sides_under_it(pages: Pages, size: str) -> None:
    viewport = PHONE if size == "phone" else DESK
    page = pages.new(viewport, f"legend-{size}")
    made = _warsurge(page, pages)
    snapshot = page.request.get(
        f"/api/play/games/{made['id']}", headers={"X-Play-Token": made["tokens"]["players"]}
    ).json()
    names, scene = snapshot["names"], snapshot["scene"]
    key = page.locator("#board-legend")
    expect(key).to_be_visible()
    text = key.inner_text()
    # every kind of ground ruins_48x48 draws, by its rule's name (§4.5-4.7, §5.6)
    for words in (
        "Deployment Zone",
        "Difficult Ground",
        "Dangerous Ground",
        "Impassable",
        "blocks line of sight",
        "cover",
    ):
        assert words in text, (words, text)
    # each side by its name, its swatch in the colour its pieces are drawn in
    sides = {p["side"] for p in scene["pieces"] + scene.get("off_table", [])}
    assert sides == set(range(len(names)))
    for side, name in enumerate(names):
        item = key.locator("li", has_text=name)
        expect(item).to_have_count(1)
        drawn = item.locator("circle").get_attribute("fill")
        on_board = [
            page.locator(f"#board .piece[data-unit='{p['unit']}']").first.get_attribute("fill")
            for p in scene["pieces"]
            if p["side"] == side
        ]
        # Red and Blue are drawn in their colours (scene's side_colours), the swatch too
        assert drawn == scene["side_colours"][side], (name, drawn)
        assert all(f == drawn for f in on_board), (on_board, drawn)
    # a swatch looks as the ground it names: the same fill and outline as a piece of it drawn
    same = page.evaluate(
        "() => [...document.querySelectorAll('#board-legend li[data-key^=\"terrain\"]')]"
        ".map((li) => {"
        " const k = li.dataset.key; const sw = li.querySelector('rect');"
        " const on = [...document.querySelectorAll('#board polygon')].find((p) =>"
        " p.getAttribute('class').split(' ').filter((c) => !c.startsWith('army-') && c !== 'named')"
        ".join(' ') === k);"
        " const a = getComputedStyle(sw), b = getComputedStyle(on);"
        " return [k, a.fill === b.fill && a.stroke === b.stroke]; })"
    )
    assert same and all(ok for _, ok in same), same
    # under the board and its zoom buttons: it covers no part of the board
    pic = page.locator("#board").bounding_box()
    box = key.bounding_box()
    assert pic is not None and box is not None
    assert box["y"] >= pic["y"] + pic["height"] - 0.5
    assert box["x"] + box["width"] <= viewport["width"] + 0.5
    # readable on a phone: at least 12 px text, each line within the screen
    size_px = float(key.evaluate("(e) => parseFloat(getComputedStyle(e).fontSize)"))
    assert size_px >= 12, size_px
    ARTEFACTS.mkdir(exist_ok=True)
    page.locator("#board-wrap").scroll_into_view_if_needed()
    page.locator("#board-wrap").screenshot(path=str(ARTEFACTS / f"play-legend-{size}.png"))


def test_a_board_of_squares_keys_each_kind_of_square_once_by_its_words(pages: Pages) -> None:
    """Collision (003 L375-395): each raised level and each kind of terrain square (and a
    deployment zone, where the objective draws one) is one line of the key, without the
    squares' places ("(10,2) elevation 2" is "Elevated ground, level 2")."""
    page = pages.new(PHONE, "legend-collision")
    tpb._start(page, "collision", "ai", seed=3)
    page.click("#start")
    key = page.locator("#board-legend")
    expect(key.locator("li").first).to_be_visible()
    lines = key.locator("li").all_inner_texts()
    text = " | ".join(lines)
    assert not re.search(r"\(\d+,\d+\)", text), text  # no square's place, "(10,2)"
    assert len(lines) == len(set(lines)) <= 16, lines
    assert "Elevated ground, level 2" in lines, text  # seed 3's board has raised squares
    page.locator("#board-wrap").screenshot(path=str(ARTEFACTS / "play-legend-collision.png"))


def test_a_pass_is_made_with_no_check_first_and_a_move_is_marked_to_preview(
    pages: Pages,
) -> None:
    """The page checks an action before making it only where the server may preview it
    (``decision.actions[i].preview``: a Deploy, a Move, a Disembark, whose models it places);
    a Pass (§2.2) is sent at once: no ``/check`` request, one ``/actions`` request."""
    page = pages.new(PHONE, "pass-no-check")
    made = _warsurge(page, pages)
    game, tok = made["id"], made["tokens"]["players"]
    headers = {"X-Play-Token": tok}
    card = page.locator("#decision-card")
    listed: list[dict[str, Any]] = []
    for _ in range(80):
        expect(card).to_have_attribute("data-state", "deciding")
        listed = page.request.get(f"/api/play/games/{game}", headers=headers).json()["decision"][
            "actions"
        ]
        if any(a["action"]["kind"] == "pass" for a in listed):
            break
        rev = page.locator("body").get_attribute("data-revision")
        page.click("#take-default")
        tpb._answered(page, rev)
    else:
        pytest.fail("no Pass listed in 80 decisions")
    kinds = {a["action"]["kind"]: a.get("preview", False) for a in listed}
    assert kinds["pass"] is False
    assert all(a.get("preview") is True for a in listed if a["action"]["kind"] == "move"), kinds
    assert all(
        "preview" not in a for a in listed if a["action"]["kind"] not in ("move", "deploy")
    ), kinds
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if "/api/play/games/" in r.url else None)
    rev = page.locator("body").get_attribute("data-revision")
    page.evaluate(
        "() => [...document.querySelectorAll('button[data-action]')].find((b) =>"
        " JSON.parse(b.dataset.action).kind === 'pass').click()"
    )
    tpb._answered(page, rev)
    assert not [u for u in sent if u.endswith("/check")], sent
    assert len([u for u in sent if u.endswith("/actions")]) == 1, sent
