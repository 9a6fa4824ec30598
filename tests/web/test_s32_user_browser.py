"""A new player's first steps in the browser (session 32, lane s32-user): what a first visit
meets before reading any documentation, at desk and phone size (Playwright driving Debian's
Chromium, as ``tests/web/test_browser.py`` does).

* The play lobby opens on WARSURGE, the workbench's main game, and "against the AI" puts the
  scripted player in the other seat (the CLI's ``warbench play`` default), not the random-legal
  one that merely happens to be listed first.
* The odds page shows the odds of the two units it preselects as soon as it opens, instead of
  asking to pick an attacker and a target that are already picked.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.play import test_play_browser as tpb
from tests.web.play.test_play_browser import ARTEFACTS, DESK, PHONE, expect

VIEWPORTS = {"desktop": DESK, "phone": PHONE}

# the browser and the server of the play page's tests (Debian's chromium, `warbench serve` in a
# thread over an empty database)
browser = tpb.browser
server = tpb.server
pytestmark = tpb.pytestmark


def viewport_page(
    request: pytest.FixtureRequest, browser: Any, server: str, prefix: str
) -> Iterator[Any]:
    """A fresh page at the viewport ``request.param`` names; after the test, its screenshot as
    ``ARTEFACTS/PREFIX-TEST.png``, and a script error or a page wider than the screen fails
    (the ``page`` fixture of this module and of later user-walk modules)."""
    viewport = VIEWPORTS[request.param]
    context = browser.new_context(viewport=viewport, base_url=server)
    pg = context.new_page()
    pg.set_default_timeout(20_000)
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    yield pg
    ARTEFACTS.mkdir(exist_ok=True)
    name = request.node.name.removeprefix("test_").replace("[", "-").rstrip("]")
    pg.screenshot(path=str(ARTEFACTS / f"{prefix}-{name}.png"), full_page=True)
    width = pg.evaluate("document.documentElement.scrollWidth")
    context.close()
    assert not errors, errors
    assert width <= viewport["width"], f"page is {width}px wide at {viewport['width']}px"


@pytest.fixture(params=list(VIEWPORTS))
def page(request: pytest.FixtureRequest, browser: Any, server: str) -> Iterator[Any]:
    """A fresh page at one viewport; a script error or a page wider than the screen fails."""
    yield from viewport_page(request, browser, server, "s32-user")


def test_play_lobby_opens_on_warsurge_against_the_scripted_ai(page: Any) -> None:
    page.goto("/play")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    expect(page.locator("#ruleset")).to_have_value("warsurge")
    expect(page.locator("#preset option").first).to_have_text("Skirmish: 300 points each, ruins")
    expect(page.locator("#mode")).to_have_value("ai")
    expect(page.locator("[data-seat='0']")).to_have_value("human")
    expect(page.locator("[data-seat='1']")).to_have_value("ai:scripted")
    # the AI kinds say what they are, not only their registry ids ("AI (random)")
    seat = page.locator("[data-seat='1']")
    expect(seat.locator("option:checked")).to_have_text("AI: scripted")
    expect(seat.locator("option[value='ai:random']")).to_have_text("AI: random (weakest)")
    expect(seat.locator("option[value='ai:search:3']")).to_have_text("AI: search 3 (slower)")
    expect(page.locator("label.wide", has=page.locator("#automate"))).to_contain_text(
        # not "leave empty to decide everything yourself": the set-up's rules options hand
        # the engine some decisions, shown as boxes above it (session 37)
        "empty: you are asked every decision the engine does not make"
    )
    # another ruleset keeps the same default opponent
    page.select_option("#ruleset", "toy-duel")
    expect(page.locator("[data-seat='1']")).to_have_value("ai:scripted")


def test_play_lobby_still_opens_the_ruleset_the_address_names(page: Any) -> None:
    page.goto("/play?ruleset=collision")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    expect(page.locator("#ruleset")).to_have_value("collision")


def test_odds_page_shows_the_preselected_attack_at_once(page: Any) -> None:
    page.goto("/odds")
    result = page.locator("#odds-result")
    # Troopers (6 models, Laser Rifle) against the Kataton Battle Servitors, the page's first
    # pair: 0.666 HP expected (docs: `warbench odds` of the same two files), without a click
    expect(result.locator("h2")).to_have_text("Troopers → Kataton Battle Servitors")
    expect(page.locator("#expected-hp b")).to_have_text("0.666")
    # changing the situation asks again, no button needed: the Servitors in cover lose less
    page.check('input[name="cover"]')
    expect(page.locator("#expected-hp b")).not_to_have_text("0.666")
    assert float(page.locator("#expected-hp b").inner_text()) < 0.666


def test_new_roster_form_names_its_point_limit_and_counts_violations_in_words(
    page: Any,
) -> None:
    page.goto("/rosters")
    expect(page.locator("#roster-list")).to_contain_text("No roster yet")
    # the number beside the name is the Point Limit (Core Rules §3.1), and says so on screen
    limit = page.locator("#new-roster label", has_text="Point Limit").locator("input")
    expect(limit).to_be_visible()
    expect(limit).to_have_value("1000")
    page.fill('#new-roster input[name="name"]', "Patrol")
    limit.fill("100")
    page.click("#new-roster button")
    expect(page.locator("#roster-total")).to_have_text("0 / 100 pts")
    # the form is ready for another roster: the name just used is not left in it
    expect(page.locator('#new-roster input[name="name"]')).to_have_value("")
    page.get_by_label("Unit to add").select_option(label="Troopers x10 (10 models, example)")
    page.click("#add-entry button")
    # over the Point Limit: one violation, counted in words
    expect(page.locator("#roster-view h3", has_text="violation")).to_have_text("1 violation")


@pytest.fixture(scope="module")
def battle_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The README's battle (sci-fi humans against scavengers, seed 3) recorded by the CLI: its
    scores are per-model values such as 811.6667 points remaining."""
    from warbench.cli import main

    ex = Path(__file__).parents[2] / "examples" / "warsurge" / "rosters"
    path = tmp_path_factory.mktemp("record") / "g.jsonl"
    with pytest.raises(SystemExit) as done:
        main(
            [
                "battle",
                str(ex / "sci_fi_humans.yaml"),
                str(ex / "scavengers.yaml"),
                "--seed",
                "3",
                "-q",
                "--record",
                str(path),
            ]
        )
    assert not done.value.code
    return path


def test_replay_viewer_rounds_the_scores_and_draws_its_step_buttons(
    page: Any, battle_record: Path
) -> None:
    page.goto("/play/replay")
    page.set_input_files("#record-file", str(battle_record))
    page.click("#replay-load")
    result = page.locator("#replay-result")
    expect(result).to_contain_text("verified")
    text = result.inner_text()
    # the CLI says "Scavengers: 811.7 points remaining"; the viewer says the same, not 811.6667
    assert "811.7" in text and "811.6667" not in text, text
    assert re.search(r"\d\.\d{2,}", text) is None, text
    # first/last: glyphs of the fonts every browser has (⏮ ⏭ are empty boxes without an
    # emoji font, as in Debian's Chromium), each button named for screen readers
    for button, glyph in (("#first", "|◀"), ("#last", "▶|")):
        expect(page.locator(button)).to_have_text(glyph)
        assert page.locator(button).get_attribute("aria-label")
    page.click("#last")
    expect(page.locator("#step-label")).to_contain_text("step 132 of 132")


def _rgb(css: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", css)[:3])


def test_design_guideline_hints_are_not_drawn_in_the_error_red(page: Any) -> None:
    page.goto("/design")
    guide = page.locator('[data-field="unit.unit.defence"] .guide')
    # Core Rules §3.5 advice under an untouched field: not coloured as the page's errors are
    expect(guide).to_contain_text("§3.5: 3")
    red = _rgb(page.locator("#unit-error").evaluate("e => getComputedStyle(e).color"))
    hint = _rgb(guide.evaluate("g => getComputedStyle(g).color"))
    assert red[0] > max(red[1], red[2])  # the error colour is a red
    assert hint[0] <= max(hint[1], hint[2]), (hint, red)  # the advice is not


def test_a_decision_cites_its_rule_by_book_not_by_source_file(page: Any) -> None:
    page.goto("/play")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    page.fill("#seed", "5")
    page.click("#start")  # WARSURGE against the scripted AI: the lobby's defaults
    expect(page.locator("#decision-card")).to_have_attribute("data-state", "deciding")
    # was "001_d3f5e425c5e1196d.txt §2.1" under the question
    expect(page.locator("#decision-rule")).to_have_text(re.compile(r"^Core Rules §\d"))
    assert ".txt" not in page.locator("#decision-rule").inner_text()


def test_the_open_roster_is_marked_in_the_list(page: Any) -> None:
    page.goto("/rosters")
    for name in ("Alpha", "Bravo"):
        page.fill('#new-roster input[name="name"]', name)
        page.click("#new-roster button")
        expect(page.locator("#roster-view h2").first).to_contain_text(name)
    current = page.locator('#roster-list button[aria-current="true"]')
    expect(current).to_have_count(1)
    expect(current).to_have_attribute("data-roster", "Bravo")
    page.locator('#roster-list button[data-roster="Alpha"]').click()
    expect(page.locator("#roster-view h2").first).to_contain_text("Alpha")
    expect(current).to_have_attribute("data-roster", "Alpha")
    # it looks different from the others
    bg = current.evaluate("b => getComputedStyle(b).backgroundColor")
    other = page.locator('#roster-list button[data-roster="Bravo"]')
    assert bg != other.evaluate("b => getComputedStyle(b).backgroundColor")


def test_roster_total_is_not_green_while_the_roster_has_a_violation(page: Any) -> None:
    """s32-polish: "38 / 500 pts" was drawn green (fine) above "1 violation" (a unit under the
    Minimum Unit Cost, Core Rules §3.2 L1429); and the violation cited the rule by its source
    file's name ("Core Rules (001_d3f5e425c5e1196d.txt) §3.2")."""
    page.goto("/rosters")
    page.fill('#new-roster input[name="name"]', "Servitors")
    page.locator("#new-roster label", has_text="Point Limit").locator("input").fill("500")
    page.click("#new-roster button")
    expect(page.locator("#roster-total")).to_have_text("0 / 500 pts")
    expect(page.locator("#roster-total")).to_have_class(re.compile(r"\bok\b"))  # legal
    page.get_by_label("Unit to add").select_option(
        label="Kataton Battle Servitors (2 models, example)"
    )
    page.click("#add-entry button")
    expect(page.locator("#roster-view h3", has_text="violation")).to_have_text("1 violation")
    total = page.locator("#roster-total")
    expect(total).to_have_text(re.compile(r"^\d+ / 500 pts$"))  # under the Point Limit
    expect(total).to_have_class(re.compile(r"\bbad\b"))
    expect(total).not_to_have_class(re.compile(r"\bok\b"))
    violation = page.locator("#violations li").first
    expect(violation).to_contain_text("Core Rules §3.2")
    expect(violation).not_to_contain_text("001_d3f5e425c5e1196d.txt")
