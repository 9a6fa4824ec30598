"""The play page's preview, session 32 (issue 10): the ghost bases of a Deploy of oval and
rectangular bases are drawn with their real shape and facing, as the board draws the models
(Core Rules 001_d3f5e425c5e1196d.txt §1.3 L248; the facing the Deploy gives them), not as
circles; and a Move toward a point that ends short says why under the preview (the seen case:
the Skirmish preset, seed 3, Game Turn 2, Red's Assault Squad toward (40, 40): Difficult Ground
halves its Move, §4.5 L2044-2059; it crosses Dangerous Ground, §4.6 L2085-2100). Playwright and
Debian's Chromium at phone size, as ``test_play_browser.py``; screenshots in tests/web/artefacts."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

from tests.web.play import test_play_browser as tpb
from tests.web.play.test_play_browser import ARTEFACTS, DESK, PHONE, Pages, expect
from tests.web.play.test_play_preview_browser import _api, _ghosts, _same

browser = tpb.browser
server = tpb.server
pages = tpb.pages

pytestmark = tpb.pytestmark

ROSTERS = Path(__file__).parents[3] / "examples" / "warsurge" / "rosters"


def _game(page: Any, server: str, setup: Any, seed: int) -> tuple[str, str, str]:
    made = page.request.post(
        f"{server}/api/play/games",
        data={"ruleset": "warsurge", "setup": setup, "mode": "hotseat", "seed": seed},
    ).json()
    return made["id"], made["tokens"]["players"], made["links"]["players"]


def test_deploy_ghosts_of_oval_and_rectangular_bases_have_their_shape_and_facing_L248(
    pages: Pages,
) -> None:
    from warbench.rulesets.warsurge.game.io import load_game_roster, roster_to_data
    from warbench.web.play.scenes import presenter

    preset = presenter("warsurge").presets()[0]["setup"]
    rosters = [
        roster_to_data(load_game_roster(ROSTERS / f))
        for f in ("armoured_column.yaml", "skirmish_b.yaml")
    ]
    setup = {**preset, "rosters": rosters}
    page = pages.new(PHONE, "deploy-shapes")
    game, tok, link = _game(page, pages.server, setup, 1)
    shaped: dict[str, Any] | None = None
    for _ in range(40):  # the Turn Master, the zones, other deployments: the defaults
        d = _api(page, game, tok)["decision"]
        view = _api(page, game, tok)["view"]
        bases = {u["uid"]: u.get("base") for u in view["units"]}
        shaped = next(
            (
                a["action"]
                for a in d["actions"]
                if a["action"]["kind"] == "deploy" and bases.get(a["action"]["unit"]) is not None
            ),
            None,
        )
        if shaped is not None:
            break
        _api(page, game, tok, "/actions", {"action": d["default"]})
    assert shaped is not None, "no Deploy of a shaped unit listed"
    base = bases[shaped["unit"]]
    page.goto(link)
    expect(page.locator("#decision-card")).to_have_attribute("data-state", "deciding")
    page.click(f".unit-chip[data-unit='{shaped['unit']}']")
    page.evaluate(
        "(m) => [...document.querySelectorAll('button[data-action]')].find((b) =>"
        " JSON.stringify(JSON.parse(b.dataset.action)) === JSON.stringify(m)).click()",
        shaped,
    )
    expect(page.locator("#place")).to_be_visible()
    ring = {**shaped, "at": [math.floor(v * 1e4 + 0.5) / 1e4 for v in shaped["at"]]}
    planned = _api(page, game, tok, "/check", {"action": ring})["preview"]["placements"]
    board = page.locator("#board")
    expect(board.locator(".preview-base")).to_have_count(len(planned))
    tag = "ellipse" if base["shape"] == "oval" else "rect"
    drawn = page.evaluate(
        "() => [...document.querySelectorAll('#board .preview-base')].map((e) =>"
        " [e.tagName, e.getAttribute('transform') ?? '', Number(e.getAttribute('rx') ??"
        " e.getAttribute('width')), Number(e.getAttribute('ry') ?? e.getAttribute('height'))])"
    )
    for (name, turn, a, b), p in zip(drawn, planned, strict=True):
        assert name == tag, drawn  # not a circle
        angle = float(re.match(r"rotate\(([-\d.e]+) ", turn).group(1))  # type: ignore[union-attr]
        assert math.isclose(angle, p["facing"], abs_tol=1e-9)
        scale = 2 if tag == "ellipse" else 1  # an ellipse's radii are half the base
        assert math.isclose(a * scale, base["length"], rel_tol=1e-9)
        assert math.isclose(b * scale, base["width"], rel_tol=1e-9)
    if tag == "rect":  # a rectangle's x, y is its corner: its centre is the placement
        cx = page.evaluate(
            "() => [...document.querySelectorAll('#board .preview-base')].map((e) =>"
            " [Number(e.getAttribute('x')) + Number(e.getAttribute('width')) / 2,"
            " Number(e.getAttribute('y')) + Number(e.getAttribute('height')) / 2])"
        )
        _same([tuple(c) for c in cx], [p["end"] for p in planned])
    else:
        _same(_ghosts(page), [p["end"] for p in planned])
    ARTEFACTS.mkdir(exist_ok=True)
    board.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTEFACTS / "play-deploy-shapes-preview-phone.png"))


def test_a_short_move_says_why_under_its_preview_L2044(pages: Pages) -> None:
    from warbench.web.play.scenes import presenter

    setup = presenter("warsurge").presets()[0]["setup"]
    for size, name in ((PHONE, "phone"), (DESK, "desktop")):
        page = pages.new(size, f"why-short-{name}")
        game, tok, link = _game(page, pages.server, setup, 3)
        for _ in range(120):  # the defaults up to Game Turn 2's Move Phase
            s = _api(page, game, tok)
            d = s["decision"]
            if "Game Turn 2, Move Phase" in d["prompt"]:
                break
            _api(page, game, tok, "/actions", {"action": d["default"]})
        assert "Game Turn 2, Move Phase" in d["prompt"], d["prompt"]
        move = {"kind": "move", "unit": 1, "to": [40.0, 40.0]}
        planned = _api(page, game, tok, "/check", {"action": move})["preview"]
        assert planned["why_short"][0].startswith('moves 2.7", short of')
        page.goto(link)
        expect(page.locator("#decision-card")).to_have_attribute("data-state", "deciding")
        page.locator("details.families-fold > summary").click()
        form = page.locator("form.family[data-family='move to']")
        form.locator("select[name='unit']").select_option("1")
        for axis, v in (("x", "40"), ("y", "40")):
            form.locator(f"input[name='to-{axis}']").fill(v)
        expect(page.locator("#refusal")).to_have_text("✓ legal")
        why = page.locator("#preview-note .preview-why")
        expect(why).to_have_count(len(planned["why_short"]))
        expect(why.first).to_have_text(f"Why it ends short: {planned['why_short'][0]}")
        expect(why.nth(1)).to_contain_text("halved by Difficult Ground")
        expect(why.nth(1)).to_contain_text("§4.5, Core Rules L2044-2059")
        expect(page.locator("#preview-note")).to_contain_text("crosses Dangerous Ground: Pit")
        _same(_ghosts(page), [p["end"] for p in planned["placements"]])
        page.locator("#preview-note").scroll_into_view_if_needed()
        page.screenshot(path=str(ARTEFACTS / f"play-why-short-{name}.png"))


def test_move_ghosts_of_oval_and_rectangular_bases_have_their_shape_and_facing_L248(
    pages: Pages,
) -> None:
    """A listed Move of the Armoured Column's oval or rectangular unit: its ghosts are drawn as
    the board draws its models, turned to the facing they keep (a Move without ``facing``)."""
    from warbench.rulesets.warsurge.game.io import load_game_roster, roster_to_data
    from warbench.web.play.scenes import presenter

    preset = presenter("warsurge").presets()[0]["setup"]
    rosters = [
        roster_to_data(load_game_roster(ROSTERS / f))
        for f in ("armoured_column.yaml", "skirmish_b.yaml")
    ]
    page = pages.new(PHONE, "move-shapes")
    game, tok, link = _game(page, pages.server, {**preset, "rosters": rosters}, 1)
    move: dict[str, Any] | None = None
    for _ in range(80):
        s = _api(page, game, tok)
        bases = {u["uid"]: u.get("base") for u in s["view"]["units"]}
        move = next(
            (
                a["action"]
                for a in s["decision"]["actions"]
                if a["action"]["kind"] == "move"
                and "to" in a["action"]
                and bases.get(a["action"]["unit"]) is not None
            ),
            None,
        )
        if move is not None:
            break
        _api(page, game, tok, "/actions", {"action": s["decision"]["default"]})
    assert move is not None, "no Move of a shaped unit listed"
    unit = next(u for u in s["view"]["units"] if u["uid"] == move["unit"])
    page.goto(link)
    expect(page.locator("#decision-card")).to_have_attribute("data-state", "deciding")
    page.click(f".unit-chip[data-unit='{move['unit']}']")
    page.evaluate(
        "(m) => [...document.querySelectorAll('button[data-action]')].find((b) =>"
        " JSON.stringify(JSON.parse(b.dataset.action)) === JSON.stringify(m)).click()",
        move,
    )
    expect(page.locator("#place")).to_be_visible()
    ring = {**move, "to": [math.floor(v * 1e4 + 0.5) / 1e4 for v in move["to"]]}
    planned = _api(page, game, tok, "/check", {"action": ring})["preview"]["placements"]
    board = page.locator("#board")
    expect(board.locator(".preview-base")).to_have_count(len(planned))
    tag = "ellipse" if unit["base"]["shape"] == "oval" else "rect"
    drawn = page.evaluate(
        "() => [...document.querySelectorAll('#board .preview-base')].map((e) =>"
        " [e.tagName, e.getAttribute('transform') ?? '', Number(e.dataset.model)])"
    )
    for name, turn, model in drawn:
        assert name == tag, drawn
        angle = float(re.match(r"rotate\(([-\d.e]+) ", turn).group(1))  # type: ignore[union-attr]
        assert math.isclose(angle, unit["facing"][model], abs_tol=1e-9)
    board.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTEFACTS / "play-move-shapes-preview-phone.png"))
