"""The preview of a Move on the play page, at phone size (issue 10, session 31): typing a
point into the "move to" form draws where every model of the unit would end, the server's
plan (the engine's routed placement, Core Rules 001_d3f5e425c5e1196d.txt §4.1 L1833-1851,
§4.7 L2147-2156), as outlined ghost bases with a thin line from each model's start; a new
point draws new places, and sending the Move clears them. Playwright and Debian's Chromium,
as ``test_play_browser.py`` (its fixtures); the screenshot goes to ``tests/web/artefacts/``."""

from __future__ import annotations

import math
from typing import Any

from tests.web.play import test_play_browser as tpb
from tests.web.play.test_play_browser import ARTEFACTS, PHONE, Pages, _answered, expect

# the browser tests' fixtures: Debian's Chromium, a served app, pages checked as they close
browser = tpb.browser
server = tpb.server
pages = tpb.pages

pytestmark = tpb.pytestmark


def _api(page: Any, game: str, token: str, path: str = "", body: Any = None) -> Any:
    url = f"/api/play/games/{game}{path}"
    headers = {"X-Play-Token": token}
    if body is None:
        return page.request.get(url, headers=headers).json()
    return page.request.post(url, data=body, headers=headers).json()


def _game_at(
    page: Any,
    ruleset: str,
    mode: str,
    seed: int,
    found: Any,
    steps: int = 6,
    setup: dict[str, Any] | None = None,
) -> tuple[dict[str, Any], str, str, dict[str, Any]]:
    """A game of ``setup`` (default: ``ruleset``'s first preset) made through the API, its
    defaults made until the decision ``found`` accepts: the new game's answer, its id, the
    players' token and that decision."""
    from warbench.web.play.scenes import presenter

    if setup is None:
        setup = presenter(ruleset).presets()[0]["setup"]
    made = page.request.post(
        "/api/play/games", data={"ruleset": ruleset, "setup": setup, "mode": mode, "seed": seed}
    ).json()
    game, tok = made["id"], made["tokens"]["players"]
    for _ in range(steps):
        d = _api(page, game, tok)["decision"]
        if found(d):
            return made, game, tok, d
        _api(page, game, tok, "/actions", {"action": d["default"]})
    raise AssertionError(f"no such decision in {steps} steps: the last was {d['kind']}")


def _ghosts(page: Any) -> list[tuple[float, float]]:
    out = page.evaluate(
        "() => [...document.querySelectorAll('#board .preview-base')].map("
        "(e) => [Number(e.getAttribute('cx') ?? Number(e.getAttribute('x'))),"
        " Number(e.getAttribute('cy') ?? Number(e.getAttribute('y')))])"
    )
    return [(float(x), float(y)) for x, y in out]


def _same(drawn: list[tuple[float, float]], planned: list[Any]) -> None:
    """The ghost bases drawn stand where the server planned (each within 1e-6 inch)."""
    assert len(drawn) == len(planned)
    for a, b in zip(sorted(drawn), sorted(tuple(p) for p in planned), strict=True):
        assert math.dist(a, b) < 1e-6, (a, b)


def test_a_typed_move_point_shows_its_ghost_bases_and_paths_on_a_phone_L1845(
    pages: Pages,
) -> None:
    from warbench.web.play.scenes import presenter

    page = pages.new(PHONE, "move-preview")
    setup = presenter("warsurge").presets()[0]["setup"]
    made = page.request.post(
        f"{pages.server}/api/play/games",
        data={"ruleset": "warsurge", "setup": setup, "mode": "hotseat", "seed": 1},
    ).json()
    game, tok = made["id"], made["tokens"]["players"]
    page.goto(made["links"]["players"])
    card = page.locator("#decision-card")
    move: dict[str, Any] | None = None
    for _ in range(80):
        expect(card).to_have_attribute("data-state", "deciding")
        listed = _api(page, game, tok)["decision"]["actions"]
        move = next(
            (a["action"] for a in listed if a["action"]["kind"] == "move" and "to" in a["action"]),
            None,
        )
        if move is not None:
            break
        rev = page.locator("body").get_attribute("data-revision")
        page.click("#take-default")
        _answered(page, rev)
    assert move is not None, "no Move toward a point in 80 decisions"
    uid = move["unit"]
    board = page.locator("#board")
    expect(board.locator(".preview-base")).to_have_count(0)
    # the listed Move (a point on the board): its ring is placed and its places drawn at once;
    # cancelled, they go
    page.click(f".unit-chip[data-unit='{uid}']")  # its actions listed
    page.evaluate(
        "(m) => [...document.querySelectorAll('button[data-action]')].find((b) => {"
        " const a = JSON.parse(b.dataset.action); return a.kind === 'move' && a.unit === m.unit"
        " && JSON.stringify(a.to) === JSON.stringify(m.to); }).click()",
        move,
    )
    expect(page.locator("#place")).to_be_visible()
    # the ring stands on the listed point as the page rounds it (1e-4 inch, Math.round)
    ring = {**move, "to": [math.floor(v * 1e4 + 0.5) / 1e4 for v in move["to"]]}
    listed = _api(page, game, tok, "/check", {"action": ring})["preview"]["placements"]
    expect(board.locator(".preview-base")).to_have_count(len(listed))
    _same(_ghosts(page), [p["end"] for p in listed])
    page.click("#place-cancel")
    expect(board.locator(".preview-base")).to_have_count(0)
    page.locator("details.families-fold > summary").click()
    form = page.locator("form.family[data-family='move to']")
    form.locator("select[name='unit']").select_option(str(uid))
    # a point across the table behind the middle ruins: the engine routes the unit
    for axis, v in (("x", "2"), ("y", "24")):
        form.locator(f"input[name='to-{axis}']").fill(v)
    expect(page.locator("#refusal")).to_have_text("✓ legal")
    planned = _api(page, game, tok, "/check", {"action": {**move, "to": [2.0, 24.0]}})
    ends = [tuple(p["end"]) for p in planned["preview"]["placements"]]
    expect(board.locator(".preview-base")).to_have_count(len(ends))
    moved = sum(1 for p in planned["preview"]["placements"] if p["end"] != p["start"])
    expect(board.locator(".preview-path")).to_have_count(moved)
    _same(_ghosts(page), ends)
    expect(page.locator("#preview-note")).to_contain_text("centre")
    # the ghosts are drawn inside the board's picture, on the phone's screen
    pic = board.bounding_box()
    first = board.locator(".preview-base").first.bounding_box()
    assert pic is not None and first is not None
    assert pic["x"] <= first["x"] and first["x"] + first["width"] <= pic["x"] + pic["width"] + 1
    assert pic["width"] <= PHONE["width"]
    ARTEFACTS.mkdir(exist_ok=True)
    board.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTEFACTS / "play-move-preview-phone.png"))
    # another point: other places (the old ones are cleared as it is typed)
    form.locator("input[name='to-x']").fill("46")
    expect(page.locator("#refusal")).to_have_text("✓ legal")
    other = _api(page, game, tok, "/check", {"action": {**move, "to": [46.0, 24.0]}})
    other_ends = [tuple(p["end"]) for p in other["preview"]["placements"]]
    assert other_ends != ends
    expect(board).to_have_attribute("data-preview", str(len(other_ends)))
    page.wait_for_function(
        "(x) => [...document.querySelectorAll('#board .preview-base')].some("
        "(e) => Math.abs(Number(e.getAttribute('cx')) - x) < 1e-6)",
        arg=other_ends[0][0],
    )
    _same(_ghosts(page), other_ends)
    # sent: the preview goes, and the models stand where it showed
    rev = page.locator("body").get_attribute("data-revision")
    form.locator("button[type='submit']").click()
    _answered(page, rev)
    expect(board.locator(".preview-base")).to_have_count(0)
    expect(page.locator("#preview-note")).to_be_hidden()
    units = _api(page, game, tok)["view"]["units"]
    pos = next(u for u in units if u["uid"] == uid)["pos"]
    for p in other["preview"]["placements"]:
        assert math.dist(pos[p["model"]], p["end"]) < 1e-9
