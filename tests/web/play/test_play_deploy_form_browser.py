"""The play page's free form for a Deploy at any point (session 32): the page fills a family's
parameters into a listed action with the same fields, so the "deploy at" family must name its
point ``at``, the field of a Deploy (Core Rules 001_d3f5e425c5e1196d.txt §3.6: a unit is
deployed wholly within its Deployment Zone). It named it ``to`` and the page never offered the
form. Playwright and Debian's Chromium at phone size, as ``test_play_browser.py``."""

from __future__ import annotations

from typing import Any

from tests.web.play import test_play_browser as tpb
from tests.web.play.test_play_browser import PHONE, Pages, expect
from tests.web.play.test_play_preview_browser import _api

browser = tpb.browser
server = tpb.server
pages = tpb.pages

pytestmark = tpb.pytestmark


def test_a_deploy_at_any_point_is_offered_and_made_from_its_form_S3_6(pages: Pages) -> None:
    from warbench.web.play.scenes import presenter

    page = pages.new(PHONE, "deploy-form")
    preset = presenter("warsurge").presets()[0]["setup"]
    made = page.request.post(
        f"{pages.server}/api/play/games",
        data={"ruleset": "warsurge", "setup": preset, "mode": "hotseat", "seed": 3},
    ).json()
    game, tok, link = made["id"], made["tokens"]["players"], made["links"]["players"]
    deploy: dict[str, Any] | None = None
    for _ in range(20):  # the Turn Master and the zones: the defaults
        d = _api(page, game, tok)["decision"]
        deploy = next((a["action"] for a in d["actions"] if a["action"]["kind"] == "deploy"), None)
        if deploy is not None:
            break
        _api(page, game, tok, "/actions", {"action": d["default"]})
    assert deploy is not None, "no Deploy listed"
    before = _api(page, game, tok)["view"]
    page.goto(link)
    expect(page.locator("#decision-card")).to_have_attribute("data-state", "deciding")
    form = page.locator("form[data-family='deploy at']")
    expect(form).to_have_count(1)
    page.locator("details.families-fold summary").click()
    unit = form.locator("select[name='unit']")
    unit.select_option(value=str(deploy["unit"]))
    form.locator("input[name='at-x']").fill(f"{deploy['at'][0]:.4f}")
    form.locator("input[name='at-y']").fill(f"{deploy['at'][1]:.4f}")
    form.locator("button[type='submit']").click()
    expect(page.locator("#decision-card")).to_have_attribute("data-state", "deciding")

    def placed(view: Any) -> bool:
        unit_view = next(u for u in view["units"] if u["uid"] == deploy["unit"])
        return bool(unit_view["pos"]) and unit_view["loc"] != "reserve"

    assert not placed(before)
    for _ in range(50):
        if placed(_api(page, game, tok)["view"]):
            break
        page.wait_for_timeout(100)
    assert placed(_api(page, game, tok)["view"]), "the unit was not deployed from the form"
