"""What a person reads on the play board (issues 12, 15): every unit's name and figure number
drawn is readable (over the discs, on a halo, clear of the units where there is room) and no
two of them touch, at phone and desk size, in a real browser (Playwright driving Debian's
Chromium, as in ``test_play_browser``)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.play import test_play_browser as tpb
from tests.web.play.test_play_browser import (
    ARTEFACTS,
    CHROMIUM,
    DESK,
    PHONE,
    Pages,
    _answered,
    _start,
    _take_defaults_until,
)

# the browser, the app and the pages of the play browser tests, shared
browser = tpb.browser
server = tpb.server
pages = tpb.pages

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (make setup)"),
]

#: every text on the board (figure numbers, unit names) with its box on the screen, and every
#: disc with its centre and radius on the screen
_MEASURE = """() => {
  const texts = Array.from(
      document.querySelectorAll('#board text.piece-letter, #board text.unit-label'))
    .map((t) => { const b = t.getBoundingClientRect();
                  return [b.left, b.top, b.right, b.bottom, t.textContent,
                          t.classList.contains('unit-label')]; });
  const discs = Array.from(document.querySelectorAll('#board circle.piece'))
    .map((c) => { const b = c.getBoundingClientRect();
                  return [(b.left + b.right) / 2, (b.top + b.bottom) / 2, b.width / 2]; });
  const last = Array.from(document.querySelectorAll('#board circle.piece')).pop();
  const above = Array.from(document.querySelectorAll('#board text.unit-label')).every(
    (t) => last === undefined
      || (last.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0);
  return {texts, discs, above};
}"""


def _texts_apart(page: Any, gap: float = 2.0) -> dict[str, Any]:
    """No two texts on the board touch: side by side at least ``gap`` px apart (the phone's
    "10" and "8" once read "108"), one over the other not overlapping. Returns the measure."""
    m = page.evaluate(_MEASURE)
    texts = m["texts"]
    for i, (x0, y0, x1, y1, text, _) in enumerate(texts):
        for a0, b0, a1, b1, other, _ in texts[:i]:
            apart_x = max(a0 - x1, x0 - a1)
            apart_y = max(b0 - y1, y0 - b1)
            assert apart_x >= gap or apart_y >= 0, (text, other, apart_x, apart_y)
    return m


def _deploy(page: Any, units: int) -> None:
    """Take the suggested choices until ``units`` units stand on the table."""
    for _ in range(80):
        expect(page.locator("#decision-card")).to_have_attribute(
            "data-state", re.compile("deciding|over")
        )
        if page.locator("#board text.unit-label").count() >= units:
            return
        rev = page.locator("body").get_attribute("data-revision")
        page.click("#take-default")
        _answered(page, rev)
    pytest.fail("the units were not deployed")


@pytest.mark.parametrize("size", ["phone", "desk"])
def test_warsurge_unit_names_drawn_over_the_discs_clear_of_the_units(
    pages: Pages, size: str
) -> None:
    """A unit's name is drawn after every disc (never under a model: "roopers" for
    "Troopers"), on a halo, and at desk size clear of every disc."""
    page = pages.new(PHONE if size == "phone" else DESK, f"ws-labels-{size}")
    _start(page, "warsurge", "ai", seed=1)
    page.click("#start")
    _deploy(page, 6)
    m = _texts_apart(page)
    assert m["above"], "a unit's name is drawn under a disc"
    names = [t for t in m["texts"] if t[5]]
    assert len(names) >= (3 if size == "phone" else 6), names
    if size == "desk":
        for x0, y0, x1, y1, text, _ in names:
            for cx, cy, r in m["discs"]:
                nx, ny = min(max(cx, x0), x1), min(max(cy, y0), y1)
                assert (cx - nx) ** 2 + (cy - ny) ** 2 >= (r - 0.5) ** 2, (text, cx, cy)
    halo = page.eval_on_selector("#board text.unit-label", "(t) => getComputedStyle(t).paintOrder")
    assert halo.startswith("stroke"), halo
    page.click("#zoom-in")  # re-placed on zoom: still apart
    _texts_apart(page)
    page.screenshot(path=str(ARTEFACTS / f"play-ws-labels-{size}.png"), full_page=True)


def test_warengine_figure_numbers_apart_on_a_phone(pages: Pages) -> None:
    """The WarEngine placing strip on a phone (1" bases side by side, about 8 px each): the
    numbers drawn beside the figures keep a gap ("10" and "8" never read "108")."""
    page = pages.new(PHONE, "we-numbers-phone")
    _start(page, "warengine", "ai", seed=4)
    page.click("#start")
    _take_defaults_until(
        page,
        lambda: "act with a figure" in page.locator("#decision-title").inner_text(),
        "no figure acted",
    )
    m = _texts_apart(page)
    assert len(m["texts"]) >= 8, m["texts"]
    page.screenshot(path=str(ARTEFACTS / "play-we-numbers-phone.png"), full_page=True)


#: the placing figure's ring, the figure nearest to it (not the figure placed) and the board's
#: inches -> screen pixels
_NEAREST = """() => {
  const ghost = document.querySelector('#board circle.ghost');
  const fig = document.querySelector('#place').dataset.fig;
  const g = [Number(ghost.getAttribute('cx')), Number(ghost.getAttribute('cy')),
             Number(ghost.getAttribute('r'))];
  const others = Array.from(document.querySelectorAll('#board circle.piece'))
    .filter((c) => c.dataset.unit !== fig)
    .map((c) => [Number(c.getAttribute('cx')), Number(c.getAttribute('cy')),
                 Number(c.getAttribute('r')), c.dataset.unit]);
  const far = (q) => Math.hypot(q[0] - g[0], q[1] - g[1]);
  others.sort((a, b) => far(a) - far(b));
  const m = ghost.getScreenCTM();
  return {g, p: others[0], all: others, m: [m.a, m.b, m.c, m.d, m.e, m.f]};
}"""


def test_warengine_figure_dropped_near_a_base_snaps_into_contact_L463_L1401(pages: Pages) -> None:
    """A figure dropped a tenth of an inch from another base stands in base contact with it
    (within 0.01", L463: what a push of a Monstrously Huge vehicle needs, L1401), which no
    finger could place; the page says so, and the rules check the snapped point."""
    page = pages.new(DESK, "we-snap")
    _start(page, "warengine", "ai", seed=4)
    page.click("#start")
    _take_defaults_until(
        page,
        lambda: page.locator("#board circle.spot[class*='move']").count() > 0,
        "no figure could move",
    )
    page.locator("#board circle.spot[class*='move']").first.click()
    page.wait_for_function(
        "() => !document.querySelector('#place').hidden"
        " || document.querySelector('#actions li.spot-head') !== null"
    )
    if page.locator("#place").is_hidden():  # the point's choices listed: its move
        page.locator("#actions li.spot-head ~ li button", has_text="to (").first.click()
    expect(page.locator("#place")).to_be_visible()
    m = page.evaluate(_NEAREST)
    (gx, gy, r), (px, py, pr, _) = m["g"], m["p"]
    d = ((gx - px) ** 2 + (gy - py) ** 2) ** 0.5
    ux, uy = (gx - px) / d, (gy - py) / d
    tap = (px + ux * (pr + r + 0.1), py + uy * (pr + r + 0.1))
    a, b, c, dd, e, f = m["m"]
    page.mouse.click(a * tap[0] + c * tap[1] + e, b * tap[0] + dd * tap[1] + f)
    expect(page.locator("#place-help")).to_contain_text("Snapped into base contact")
    ghost = page.locator("#board circle.ghost")
    sx, sy = float(ghost.get_attribute("cx") or 0), float(ghost.get_attribute("cy") or 0)
    gap = ((sx - px) ** 2 + (sy - py) ** 2) ** 0.5 - pr - r
    assert 0 < gap <= 0.01, gap
    expect(page.locator("#refusal")).to_contain_text(re.compile("✓|✗"))

    # dropped more than an inch from every other base: it stays where it is dropped
    def clear(q: tuple[float, float]) -> float:
        return min(((q[0] - o[0]) ** 2 + (q[1] - o[1]) ** 2) ** 0.5 - o[2] - r for o in m["all"])

    far = next(
        q
        for k in (1.0, 1.5, 2.0, 3.0, 4.0, 6.0)
        for q in [(px + ux * (pr + r + k), py + uy * (pr + r + k))]
        if clear(q) > 1.2
    )
    page.mouse.click(a * far[0] + c * far[1] + e, b * far[0] + dd * far[1] + f)
    expect(page.locator("#place-help")).not_to_contain_text("Snapped")
    sx, sy = float(ghost.get_attribute("cx") or 0), float(ghost.get_attribute("cy") or 0)
    assert abs(sx - far[0]) < 0.05 and abs(sy - far[1]) < 0.05, (sx, sy, far)
    page.screenshot(path=str(ARTEFACTS / "play-we-snap.png"), full_page=True)


def test_warsurge_move_to_any_point_form_names_units_and_takes_x_and_y(pages: Pages) -> None:
    """The free "move to" form (any point of the box the rules allow) names each unit (not
    "1") and asks the point's x and y in inches (a single number field could not hold the
    point: it showed empty and sent 0); folded under "More choices" beside the listed ones;
    the rules check what is typed."""
    page = pages.new(PHONE, "ws-move-form")
    _start(page, "warsurge", "ai", seed=1)
    page.click("#start")
    _deploy(page, 6)
    card = page.locator("#decision-card")
    for _ in range(40):
        expect(card).to_have_attribute("data-state", re.compile("deciding|over"))
        if page.locator("form.family[data-family='move to']").count():
            break
        rev = page.locator("body").get_attribute("data-revision")
        page.click("#take-default")
        _answered(page, rev)
    else:
        pytest.fail("no free move was offered")
    form = page.locator("form.family[data-family='move to']")
    expect(form).to_be_hidden()  # folded away
    page.locator("details.families-fold summary").click()
    expect(form).to_be_visible()
    units = form.locator("select[name='unit'] option").all_inner_texts()
    assert units and all(": " in u for u in units), units  # "Red: Troopers", not "0"
    x, y = form.locator("input[name='to-x']"), form.locator("input[name='to-y']")
    assert float(x.input_value()) > 0 and float(y.input_value()) > 0
    # an empty x is no point (the page sends null, not 0): the server refuses it and the page
    # says why (every finite point is a legal Move toward it, below)
    x.fill("")
    expect(page.locator("#refusal")).to_contain_text("a point")
    expect(page.locator("#refusal")).to_have_class(re.compile("bad"))
    # the far edge, beyond a move: the rules check it, and a move toward a point goes as far
    # as the rules allow, round terrain and other units (issue 10: "move toward" finds a way)
    x.fill("0.5")
    expect(page.locator("#refusal")).to_contain_text("✓ legal")
    expect(page.locator("#refusal")).to_have_class(re.compile("ok"))
    page.screenshot(path=str(ARTEFACTS / "play-ws-move-form.png"), full_page=True)
