"""End-to-end journeys in a real browser (issue 13): Playwright driving Debian's Chromium.

Each journey starts a server on a free localhost port over an empty temporary database, runs at
a desk size (1280x800) and a phone size (390x844), checks what the player sees against the API,
fails on any script error or on a page wider than the phone, and saves a screenshot to
``tests/web/artefacts/`` (gitignored) for a human to look at.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = Path("/usr/bin/chromium")
ARTEFACTS = Path(__file__).with_name("artefacts")
VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (make setup)"),
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=str(CHROMIUM),
            args=[
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--no-first-run",
            ],
        )
        yield b
        b.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """``warbench serve`` in a thread, over an empty database; yields its address."""
    import uvicorn

    from warbench.web.app import create_app

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    app = create_app(f"sqlite:///{tmp_path / 'browser.db'}")
    srv = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not srv.started and time.monotonic() < deadline:
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(5)
    sock.close()


@pytest.fixture(params=list(VIEWPORTS))
def page(request: pytest.FixtureRequest, browser: Any, server: str) -> Iterator[Any]:
    """A fresh page (empty storage) at one viewport; script errors fail the test."""
    name = request.param
    context = browser.new_context(viewport=VIEWPORTS[name], base_url=server)
    pg = context.new_page()
    pg.set_default_timeout(10_000)
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.viewport_name = name
    yield pg
    ARTEFACTS.mkdir(exist_ok=True)
    test = request.node.originalname.removeprefix("test_")
    pg.screenshot(path=str(ARTEFACTS / f"{test}-{name}.png"), full_page=True)
    width = pg.evaluate("document.documentElement.scrollWidth")
    context.close()
    assert not errors, errors
    assert width <= VIEWPORTS[name]["width"], f"page is {width}px wide at {name} size"


def _api(page: Any, method: str, path: str, body: Any = None) -> Any:
    r = page.request.fetch(path, method=method, data=body)
    return r.json()


def test_design_unit_with_live_validation_perks_and_cost_s1_5(page: Any) -> None:
    page.goto("/design")
    total = page.locator("#cost-total")
    playwright_api.expect(total).to_have_text(
        __import__("re").compile(r"^\d+ pts$")
    )  # costed on load
    first = total.inner_text()
    # §1.5: Defence 0-10; the server names the field and the input is marked while typing.
    page.fill('input[name="defence"]', "11")
    playwright_api.expect(page.locator("#unit-error")).to_contain_text("defence = 11")
    playwright_api.expect(page.locator('[data-field="unit.unit.defence"]')).to_have_class("invalid")
    page.fill('input[name="defence"]', "5")
    playwright_api.expect(page.locator("#unit-error")).to_be_hidden()
    playwright_api.expect(total).not_to_have_text(first)
    # The perk picker: search, read the perk's text, tags and price, add it.
    page.click('.pick[data-target="unit"]')
    page.fill("#perk-search", "tough")
    item = page.locator("#perk-results li", has_text="Tough").first
    playwright_api.expect(item.locator(".price")).to_contain_text("Points:")
    item.get_by_role("button").click()
    playwright_api.expect(page.locator("#unit-perks li")).to_contain_text(["Tough"])
    # The itemised cost is the API's own answer for the same unit.
    page.wait_for_timeout(400)
    shown = total.inner_text()
    data = page.evaluate("localStorage.getItem('warbench.design.draft')")
    assert "Tough" in data
    # A refresh loses nothing (the draft is kept).
    page.reload()
    playwright_api.expect(page.locator("#unit-perks li")).to_contain_text(["Tough"])
    assert page.input_value('input[name="defence"]') == "5"
    playwright_api.expect(total).to_have_text(shown)
    page.click("#save-unit")
    playwright_api.expect(page.locator("#save-result")).to_contain_text("Saved New Unit")
    units = _api(page, "GET", "/api/units")
    assert any(u["source"] == "saved" and u["name"] == "New Unit" for u in units)


def test_odds_of_the_s2_3_ranged_example_with_monte_carlo_check(page: Any) -> None:
    page.goto("/odds")
    attacker = page.locator("#attacker")
    playwright_api.expect(attacker.locator("option")).not_to_have_count(0)
    attacker.select_option(label="Troopers (6 models, example)")
    page.locator("#target").select_option(label="Kataton Battle Servitors (2 models, example)")
    page.click("#compute")
    expected = _api(
        page,
        "POST",
        "/api/odds",
        {"attacker": {"name": "Troopers"}, "target": {"name": "Kataton Battle Servitors"}},
    )
    playwright_api.expect(page.locator("#expected-hp b")).to_have_text(
        f"{expected['expected_hp_lost']:.3f}"
    )
    assert page.locator("#odds-result svg.chart rect").count() == len(expected["hp_lost"]) + len(
        expected["models_slain"]
    )
    # §5.6: cover lowers the expected loss.
    page.check('input[name="cover"]')
    page.click("#compute")
    playwright_api.expect(page.locator("#expected-hp b")).not_to_have_text(
        f"{expected['expected_hp_lost']:.3f}"
    )
    page.fill("#mc-trials", "5000")
    page.fill("#mc-seed", "11")
    page.click("#mc-run")
    playwright_api.expect(page.locator("#mc-summary")).to_contain_text("5000 trials, seed 11")


def test_dice_generator_successes_rerolls_and_scatter_s1_4(page: Any) -> None:
    page.goto("/dice")
    page.fill('input[name="count"]', "12")
    page.select_option('select[name="need"]', "4")
    page.fill('input[name="reroll"]', "failed")
    page.fill('input[name="seed"]', "5")
    page.click("#roll")
    expected = _api(
        page, "POST", "/api/dice/roll", {"expr": "12D6", "need": 4, "reroll": "failed", "seed": 5}
    )
    playwright_api.expect(page.locator("#faces li")).to_have_count(12)
    playwright_api.expect(page.locator("#dice-summary")).to_have_text(
        f"{expected['successes']} of 12 succeed on 4+ · total {expected['total']}"
    )
    assert page.locator("#faces li.success").count() == expected["successes"]
    page.click("#scatter")
    playwright_api.expect(page.locator("#scatter-summary")).to_be_visible()
    playwright_api.expect(page.locator("#dice-history li")).to_have_count(2)
    page.fill('input[name="reroll"]', "1,6")
    page.click("#roll")
    playwright_api.expect(page.locator("#dice-result .error")).to_contain_text("reroll")


def test_rules_search_perks_by_name_and_text_s12(page: Any) -> None:
    page.goto("/rules")
    playwright_api.expect(page.locator("#rules-count")).to_contain_text("perks")
    page.fill("#rules-q", "destroy")
    first = page.locator("#rules-results li").first
    playwright_api.expect(first.locator("strong")).to_have_text("Destroy I")
    playwright_api.expect(first).to_contain_text("HP Loss")
    page.select_option("#rules-kind", "Roster Perk")
    page.fill("#rules-q", "")
    playwright_api.expect(page.locator("#rules-results li").first).to_contain_text("Roster Perk")


def test_rosters_build_validate_share_and_import_s3_1(page: Any) -> None:
    page.goto("/rosters")
    playwright_api.expect(page.locator("#roster-list")).to_contain_text("No roster yet")
    page.fill('#new-roster input[name="name"]', "Patrol")
    page.fill('#new-roster input[name="point_limit"]', "100")
    page.click("#new-roster button")
    playwright_api.expect(page.locator("#roster-total")).to_have_text("0 / 100 pts")
    select = page.get_by_label("Unit to add")
    playwright_api.expect(select.locator("option")).not_to_have_count(0)
    select.select_option(label="Troopers x10 (10 models, example)")
    page.click("#add-entry button")
    playwright_api.expect(page.locator("#roster-view table")).to_contain_text("Troopers x10")
    report = _api(page, "GET", "/api/rosters/Patrol")
    playwright_api.expect(page.locator("#roster-total")).to_have_text(
        f"{report['total']} / 100 pts"
    )
    # Core Rules §3.1: over the Point Limit is a violation, shown with its fix and rule.
    assert report["total"] > 100
    playwright_api.expect(page.locator("#violations li")).to_have_count(len(report["violations"]))
    # A Roster Perk with its Presence unit (Perks §12.6), priced into the total.
    page.fill("#add-perk input", "Inspiring")
    page.select_option("#add-perk select", "Troopers x10")
    page.click("#add-perk button")
    playwright_api.expect(page.locator("#roster-perks li")).to_contain_text(["Inspiring"])
    with_perk = _api(page, "GET", "/api/rosters/Patrol")
    playwright_api.expect(page.locator("#roster-total")).to_have_text(
        f"{with_perk['total']} / 100 pts"
    )
    # Issue 18: every line that costs points is shown, the Roster Perk's too, adding up.
    lines = with_perk["lines"]
    assert sum(line["points"] for line in lines) == with_perk["total"]
    playwright_api.expect(page.locator("#priced-lines li")).to_have_count(len(lines))
    playwright_api.expect(page.locator("#priced-lines")).to_contain_text("Inspiring")
    page.click("#share")
    playwright_api.expect(page.locator("#share-code")).to_contain_text("WBR1:")
    code = page.locator("#share-code").inner_text()
    sheet = page.request.get(page.locator("#print-sheet").get_attribute("href"))
    assert sheet.ok and "Troopers x10" in sheet.text()
    page.wait_for_function("document.querySelector('img.qr')?.naturalWidth > 0")
    page.fill('#import-roster textarea[name="code"]', code.replace("Patrol", ""))
    # The same code again: a roster of that name exists (409), said in one line.
    page.click("#import-roster button")
    playwright_api.expect(page.locator("#status")).to_contain_text("already exists")


def test_factions_import_open_in_designer_and_armoury_s1_6(page: Any) -> None:
    text = (Path(__file__).parents[2] / "examples/warsurge/s2_3_attack_examples.yaml").read_text()
    page.goto("/factions")
    page.fill('#new-faction input[name="name"]', "Book")
    page.click("#new-faction button")
    playwright_api.expect(page.locator("#import-faction option")).to_have_count(1)
    # Two units called Troopers: the import refuses them all, naming the clash.
    page.fill('#import-units textarea[name="text"]', text)
    page.click("#import-units button")
    playwright_api.expect(page.locator("#import-result")).to_contain_text("Troopers")
    assert _api(page, "GET", "/api/factions")[0]["units"] == []
    page.check('#import-units input[name="replace"]')
    page.click("#import-units button")
    playwright_api.expect(page.locator("#import-result")).to_contain_text("now has 3 unit(s)")
    row = page.locator("#faction-list li", has_text="Sisters Repentium")
    row.get_by_role("button", name="Open in the designer").click()
    page.wait_for_url("**/design")
    assert page.input_value('input[name="name"]') == "Sisters Repentium"
    playwright_api.expect(page.locator("#cost-total")).to_have_text(
        f"{_api(page, 'POST', '/api/units/cost', _unit(page))['cost']['points']} pts"
    )
    # Reuse a weapon: save it to the Armoury, add it back from there.
    page.locator("fieldset.weapon .to-armoury").first.click()
    playwright_api.expect(page.locator("#armoury-pick option")).to_have_count(2)
    page.select_option("#armoury-pick", label="Ripper Sword")
    page.click("#add-armoury")
    playwright_api.expect(page.locator("#unit-error")).to_contain_text("duplicate weapon names")


def _unit(page: Any) -> Any:
    return _api(page, "GET", "/api/factions/Book/units/Sisters Repentium")


# ------------------------------------------------------------------ issue 13, part 2


def _roster_with_troopers(page: Any) -> None:
    assert page.request.post("/api/rosters", data={"name": "Patrol", "point_limit": 400}).ok
    body = {"unit": {"source": "example", "name": "Troopers x10"}, "name": "Squad"}
    assert page.request.post("/api/rosters/Patrol/entries", data=body).ok


def test_roster_entry_edited_in_place_and_point_limit_s3_1(page: Any) -> None:
    _roster_with_troopers(page)
    page.goto("/rosters")
    page.get_by_role("button", name="Patrol · 1 unit · limit 400 pts").click()
    row = page.locator('tr[data-entry="Squad"]')
    playwright_api.expect(row).to_contain_text("10× Laser Rifle")
    # Change the entry in place: two model groups, one without a weapon, a Linked Profile set.
    row.get_by_role("button", name="Edit").click()
    editor = page.get_by_role("form", name="Edit Squad")
    editor.get_by_label("Models in group 1").fill("6")
    editor.get_by_role("button", name="Add a model group").click()
    editor.get_by_label("Models in group 2").fill("2")
    editor.get_by_label("Linked Profile set").fill("Pair")
    # A refresh keeps the unsaved change (the editor's draft is in localStorage).
    page.wait_for_timeout(100)
    page.reload()
    editor = page.get_by_role("form", name="Edit Squad")
    playwright_api.expect(editor.get_by_label("Models in group 2")).to_have_value("2")
    editor.get_by_role("button", name="Save changes").click()
    row = page.locator('tr[data-entry="Squad"]')
    playwright_api.expect(row).to_contain_text("6× Laser Rifle; 2× no weapon")
    playwright_api.expect(row).to_contain_text("linked set Pair")
    report = _api(page, "GET", "/api/rosters/Patrol")
    assert report["document"]["roster"]["units"][0]["unit"]["models"] == [
        {"count": 6, "weapons": ["Laser Rifle"]},
        {"count": 2, "weapons": []},
    ]
    playwright_api.expect(page.locator("#roster-total")).to_have_text(
        f"{report['total']} / 400 pts"
    )
    # The Point Limit changes after creation (§3.1); below the total it is a violation.
    page.get_by_label("Point Limit of this roster").fill("50")
    page.get_by_role("button", name="Set limit").click()
    playwright_api.expect(page.locator("#roster-total")).to_have_text(f"{report['total']} / 50 pts")
    playwright_api.expect(page.locator("#violations")).to_contain_text("Point Limit")
    # A bad change is refused with the server's message, nothing lost.
    page.locator('tr[data-entry="Squad"]').get_by_role("button", name="Edit").click()
    editor = page.get_by_role("form", name="Edit Squad")
    editor.get_by_label("Traits").fill("Tough")
    editor.get_by_role("button", name="Save changes").click()
    playwright_api.expect(editor.get_by_role("alert")).to_contain_text("Trait")
    page.locator('tr[data-entry="Squad"]').get_by_role("button", name="Copy").click()
    playwright_api.expect(page.locator('tr[data-entry="Squad 2"]')).to_be_visible()


def test_roster_pdf_sheet_and_qr_picture_import(page: Any, tmp_path: Path) -> None:
    _roster_with_troopers(page)
    page.goto("/rosters")
    page.get_by_role("button", name="Patrol · 1 unit · limit 400 pts").click()
    page.click("#show-pdf")
    playwright_api.expect(page.locator("object#sheet-pdf")).to_have_attribute(
        "data", "/api/rosters/Patrol/sheet.pdf"
    )
    pdf = page.request.get(page.locator("#download-pdf").get_attribute("href"))
    assert pdf.ok and pdf.headers["content-type"] == "application/pdf"
    assert pdf.body().startswith(b"%PDF")
    page.click("#share")
    png = page.request.get(page.locator("#qr-png").get_attribute("href"))
    picture = tmp_path / "qr.png"
    picture.write_bytes(png.body())
    page.set_input_files("#qr-file", str(picture))
    page.fill("#qr-name", "Scanned")
    page.get_by_role("button", name="Read the QR and import").click()
    playwright_api.expect(page.locator("#import-qr-result")).to_have_text("Imported Scanned.")
    playwright_api.expect(page.locator("#roster-view h2")).to_have_text("Scanned")
    # A picture without a QR is refused with a message.
    blank = tmp_path / "blank.png"
    blank.write_bytes(page.request.get("/static/style.css").body())
    page.set_input_files("#qr-file", str(blank))
    page.get_by_role("button", name="Read the QR and import").click()
    playwright_api.expect(page.locator("#import-qr-result")).to_contain_text("picture")


def test_rules_core_sections_search_and_read_s5_6(page: Any) -> None:
    page.goto("/rules")
    playwright_api.expect(page.locator("#sections-count")).to_contain_text("sections")
    page.fill("#rules-q", "cover bonus")
    first = page.locator("#section-results li").first
    playwright_api.expect(first.locator(".section-open")).to_have_text(
        "§5.6 Obscured View And Cover Bonus"
    )
    playwright_api.expect(first).to_contain_text("lines 2486-2555")
    first.locator(".section-open").click()
    playwright_api.expect(first.locator(".full")).to_contain_text("Cover Bonus")
    page.fill("#rules-q", "3.1")
    playwright_api.expect(page.locator("#section-results li")).to_have_count(1)
    playwright_api.expect(page.locator("#section-results li")).to_contain_text("Point Limit")


def test_rules_page_lists_godslayer_abilities_issue17_l1_119(page: Any) -> None:
    page.goto("/rules")
    playwright_api.expect(page.locator("#godslayer-count")).to_have_text("97 abilities")
    page.fill("#rules-q", "blink")
    first = page.locator("#godslayer-results li").first
    playwright_api.expect(first).to_have_attribute("data-ability", "Blink")
    playwright_api.expect(first).to_contain_text("002_bb37dae35014233a.txt L7")
    link = first.locator(".ability-link").first
    playwright_api.expect(link).to_contain_text("WARSURGE perk Blink")
    page.fill("#rules-q", "charge action")
    general = page.locator("#godslayer-results li[data-category=general]")
    playwright_api.expect(general.first).to_be_attached()
    page.select_option("#godslayer-category", "movement")
    playwright_api.expect(general).to_have_count(0)
    movement = page.locator("#godslayer-results li[data-category=movement]")
    playwright_api.expect(movement.first).to_be_attached()


def test_warengine_figure_designer_and_force_builder_l925_997(page: Any) -> None:
    page.goto("/warengine")
    playwright_api.expect(page.locator("#we-total")).to_have_text(
        __import__("re").compile(r"^\d+ pts$")
    )
    page.select_option("#we-example", label="WarpEyes")
    # 004 lines 925-963: WarpEyes costs 244 points with 32 tweak points.
    playwright_api.expect(page.locator("#we-total")).to_have_text("244 pts")
    playwright_api.expect(page.locator("#we-tweak-points")).to_have_text("32 tweak points")
    playwright_api.expect(page.locator("#we-itemised")).to_contain_text("Hero Points 8 x 4")
    # A change re-costs: Df 5k4 -> 4k4 is cheaper.
    page.select_option('select[name="df"]', "4k4")
    playwright_api.expect(page.locator("#we-total")).not_to_have_text("244 pts")
    expected = _api(
        page,
        "POST",
        "/api/warengine/figures/cost",
        {**_api(page, "GET", "/api/warengine/example")["figures"]["warpeyes"], "df": "4k4"},
    )
    playwright_api.expect(page.locator("#we-total")).to_have_text(
        f"{expected['cost']['points']} pts"
    )
    # The force builder: the example force, then the designed figure added as a unit.
    page.click("#we-example-force")
    force = _api(
        page, "POST", "/api/warengine/forces/cost", _api(page, "GET", "/api/warengine/example")
    )
    playwright_api.expect(page.locator("#we-force-total")).to_have_text(
        f"{force['cost']['points']} pts"
    )
    playwright_api.expect(
        page.locator('#we-force-figures li[data-key="warpeyes"]')
    ).to_contain_text("244 pts")
    page.click("#we-to-force")
    playwright_api.expect(page.locator("#we-force-total")).not_to_have_text(
        f"{force['cost']['points']} pts"
    )
    # A refresh keeps both drafts.
    page.reload()
    playwright_api.expect(page.locator("#we-total")).to_have_text(
        f"{expected['cost']['points']} pts"
    )
    playwright_api.expect(page.locator("#we-units fieldset.unit")).to_have_count(
        len(_api(page, "GET", "/api/warengine/example")["units"]) + 0
    )


def test_warengine_drafts_survive_a_reload_straight_after_a_change(page: Any) -> None:
    """Both WarEngine drafts are kept at each change, not after the 200 ms re-cost: a reload
    at once after a change keeps it (s35-review; the Collision page had the same bug)."""
    page.goto("/warengine")
    playwright_api.expect(page.locator("#we-total")).to_have_text(
        __import__("re").compile(r"^\d+ pts$")
    )
    page.select_option("#we-example", label="WarpEyes")
    playwright_api.expect(page.locator("#we-total")).to_have_text("244 pts")
    page.select_option('select[name="df"]', "4k4")
    page.reload()
    playwright_api.expect(page.locator('select[name="df"]')).to_have_value("4k4")
    playwright_api.expect(page.locator("input[name='name']").first).to_have_value("WarpEyes")
    page.fill("#we-force-name", "Reloaded at once")
    page.reload()
    playwright_api.expect(page.locator("#we-force-name")).to_have_value("Reloaded at once")
    page.click("#we-example-force")
    playwright_api.expect(page.locator("#we-units fieldset.unit").first).to_be_visible()
    units = page.locator("#we-units fieldset.unit").count()
    page.locator("#we-units fieldset.unit").first.get_by_role("button", name="Remove unit").click()
    page.reload()
    playwright_api.expect(page.locator("#we-units fieldset.unit")).to_have_count(units - 1)


def test_design_model_groups_with_their_own_weapons_s1_2(page: Any) -> None:
    page.goto("/design")
    total = page.locator("#cost-total")
    playwright_api.expect(total).to_have_text(__import__("re").compile(r"^\d+ pts$"))
    page.fill('fieldset.weapon input[name="w-name"]', "Rifle")
    page.fill('fieldset.weapon input[name="w-range"]', "18")
    page.click("#add-weapon")
    second = page.locator("fieldset.weapon").nth(1)
    second.locator('input[name="w-name"]').fill("Blade")
    second.locator('input[name="w-range"]').fill("0")
    # Group 1: 5 models with the Rifle only; group 2: 2 models with both.
    page.get_by_label("Blade (group 1)").uncheck()
    page.click("#add-group")
    page.get_by_label("Models in group 2").fill("2")
    page.get_by_label("Rifle (group 2)").check()
    page.get_by_label("Blade (group 2)").check()
    page.wait_for_timeout(500)
    draft = page.evaluate("JSON.parse(localStorage.getItem('warbench.design.draft'))")
    assert draft["groups"] == [{"count": "5", "weapons": [0]}, {"count": "2", "weapons": [0, 1]}]
    unit = {
        "unit": {"name": "New Unit", "move": 6, "dash": 6, "defence": 3, "hp": 1},
        "weapons": [
            {"name": "Rifle", "range": 18, "attacks": 1, "power": 3},
            {"name": "Blade", "range": 0, "attacks": 1, "power": 3},
        ],
        "models": [{"count": 5, "weapons": ["Rifle"]}, {"count": 2, "weapons": ["Rifle", "Blade"]}],
    }
    expected = _api(page, "POST", "/api/units/cost", unit)["cost"]
    playwright_api.expect(total).to_have_text(f"{expected['points']} pts")
    playwright_api.expect(page.locator("#cost-items")).to_contain_text("2 models with Rifle, Blade")
    # A bad count names its group; a refresh keeps the groups.
    page.get_by_label("Models in group 2").fill("0")
    playwright_api.expect(page.locator('[data-field="unit.models[1].count"]')).to_have_class(
        "invalid"
    )
    page.get_by_label("Models in group 2").fill("2")
    page.wait_for_timeout(400)
    page.reload()
    playwright_api.expect(page.get_by_label("Models in group 2")).to_have_value("2")
    playwright_api.expect(page.get_by_label("Blade (group 1)")).not_to_be_checked()
    playwright_api.expect(total).to_have_text(f"{expected['points']} pts")


def test_warengine_force_saved_opened_and_refused_when_changed_elsewhere_l965_997(
    page: Any,
) -> None:
    expect = playwright_api.expect
    page.goto("/warengine")
    expect(page.locator("#we-force-saved")).to_contain_text("Not saved in the database yet")
    page.click("#we-example-force")
    example = _api(page, "GET", "/api/warengine/example")
    cost = _api(page, "POST", "/api/warengine/forces/cost", example)["cost"]["points"]
    expect(page.locator("#we-force-total")).to_have_text(f"{cost} pts")
    page.click("#we-force-save")
    note = page.locator("#we-force-saved")
    expect(note).to_contain_text("Saved in the database as “StormReavers” (version 1)")
    [row] = _api(page, "GET", "/api/warengine/forces")
    assert (row["name"], row["version"]) == ("StormReavers", 1)
    # A second save of the same draft is version 2, with the new Points of Force.
    page.fill("#we-force-points", "900")
    page.click("#we-force-save")
    expect(note).to_contain_text("(version 2)")
    assert _api(page, "GET", "/api/warengine/forces/StormReavers")["force"]["force"] == 900
    # Someone saves it elsewhere: this page's next save is refused, nothing overwritten.
    other = {**example, "force": 700}
    r = page.request.put("/api/warengine/forces/StormReavers?version=2", data={"force": other})
    assert r.status == 200
    page.fill("#we-force-points", "800")
    page.click("#we-force-save")
    expect(note).to_contain_text("changed elsewhere")
    assert _api(page, "GET", "/api/warengine/forces/StormReavers")["force"]["force"] == 700
    # Open the stored force: the draft becomes the stored one (version 3), units and all.
    page.click("#we-clear-force")
    expect(page.locator("#we-units fieldset.unit")).to_have_count(0)
    page.select_option("#we-force-list", "StormReavers")
    page.click("#we-force-open")
    expect(note).to_contain_text("(version 3)")
    expect(page.locator("#we-force-points")).to_have_value("700")
    expect(page.locator("#we-units fieldset.unit")).to_have_count(len(example["units"]))
    # Saved as a new force under another name; then the first one deleted.
    page.fill("#we-force-name", "Reavers B")
    page.click("#we-force-save-new")
    expect(note).to_contain_text("Saved in the database as “Reavers B” (version 1)")
    expect(page.locator("#we-force-list option")).to_have_count(3)  # the list is refreshed
    page.on("dialog", lambda d: d.accept())
    page.select_option("#we-force-list", "StormReavers")
    page.click("#we-force-delete")
    expect(page.locator("#we-force-list option")).to_have_count(2)  # the prompt and Reavers B
    assert [f["name"] for f in _api(page, "GET", "/api/warengine/forces")] == ["Reavers B"]


def _thrall(controlled: bool) -> dict[str, Any]:
    perks = ["Controlled"] if controlled else []
    return {
        "unit": {"name": "Thralls", "move": 5, "dash": 5, "defence": 3, "hp": 1, "perks": perks},
        "weapons": [{"name": "Claws", "range": 0, "attacks": 1, "power": 3}],
        "models": [{"count": 5, "weapons": ["Claws"]}],
    }


def test_roster_designations_form_controlled_p12_4_line_1178(page: Any) -> None:
    """Perks §12.4 Controlled (line 1178): the unit needs a designated friendly controller; the
    roster form offers the other entries, the server checks the choice."""
    expect = playwright_api.expect
    _roster_with_troopers(page)
    body = {"unit": {"source": "inline", "data": _thrall(True)}, "name": "Thralls"}
    assert page.request.post("/api/rosters/Patrol/entries", data=body).ok
    page.goto("/rosters")
    page.get_by_role("button", name="Patrol · 2 units · limit 400 pts").click()
    expect(page.locator("#violations")).to_contain_text("Controlled needs a designated")
    # A unit without such a perk says so in its form.
    page.locator('tr[data-entry="Squad"]').get_by_role("button", name="Edit").click()
    squad = page.get_by_role("form", name="Edit Squad")
    expect(squad.locator("fieldset.designations")).to_contain_text("None of this unit's perks")
    squad.get_by_role("button", name="Cancel").click()
    page.locator('tr[data-entry="Thralls"]').get_by_role("button", name="Edit").click()
    editor = page.get_by_role("form", name="Edit Thralls")
    pick = editor.get_by_label("Controlled: its controller")
    expect(pick.locator("option")).to_have_text(["not designated yet", "Squad"])
    pick.select_option("Squad")
    # The choice survives a refresh before it is saved (the editor's draft).
    page.wait_for_timeout(100)
    page.reload()
    editor = page.get_by_role("form", name="Edit Thralls")
    expect(editor.get_by_label("Controlled: its controller")).to_have_value("Squad")
    editor.get_by_role("button", name="Save changes").click()
    row = page.locator('tr[data-entry="Thralls"]')
    expect(row).to_contain_text("Controlled: Squad")
    expect(page.locator("#violations")).not_to_contain_text("Controlled")
    entry = _api(page, "GET", "/api/rosters/Patrol")["document"]["roster"]["units"][1]
    assert entry["designations"] == {"Controlled": "Squad"}
    # Taken back: the designation is cleared and the violation is back.
    row.get_by_role("button", name="Edit").click()
    editor = page.get_by_role("form", name="Edit Thralls")
    editor.get_by_label("Controlled: its controller").select_option("")
    editor.get_by_role("button", name="Save changes").click()
    expect(page.locator("#violations")).to_contain_text("Controlled needs a designated")
    entry = _api(page, "GET", "/api/rosters/Patrol")["document"]["roster"]["units"][1]
    assert entry["designations"] == {}


def test_design_shows_the_s3_5_profile_guidelines_as_hints(page: Any) -> None:
    """Core Rules §3.5 (lines 1534-1769): the recommended band of each stat is shown under its
    input and follows the value as it changes; it is a hint, not a limit."""
    expect = playwright_api.expect
    page.goto("/design")
    expect(page.locator("#cost-total")).to_have_text(__import__("re").compile(r"^\d+ pts$"))
    defence = page.locator('[data-field="unit.unit.defence"] .guide')
    expect(defence).to_have_text("§3.5: 3 The recommended value for humans and beasts.")
    page.fill('input[name="defence"]', "7")
    expect(defence).to_have_text("§3.5: 6-8 Monsters, militant vehicles, giants.")
    page.select_option('select[name="armour"]', "4+")
    expect(page.locator('[data-field="unit.unit.armour"] .guide')).to_contain_text(
        "4+ Chain mail or thick body armour"
    )
    weapon_power = page.locator('fieldset.weapon [data-field="power"] .guide').first
    expect(weapon_power).to_have_text("§3.5: 3-4 Attacks of human strength or standard firearms.")
    expect(page.locator("#unit-error")).to_be_hidden()  # 7 is allowed (§1.5: 0-10)


def _we_figure(page: Any) -> dict[str, Any]:
    """The WarEngine figure draft the page keeps (what it last sent to be costed)."""
    out: dict[str, Any] = page.evaluate(
        "JSON.parse(localStorage.getItem('warbench.warengine.figure') || 'null')"
    )
    return out


def _we_costed(page: Any, check: str) -> dict[str, Any]:
    """Wait until the page's draft satisfies ``check`` (a JS expression over ``f``), then until
    the page shows the server's cost of that draft; returns the server's answer."""
    page.wait_for_function(
        "() => { const f = JSON.parse(localStorage.getItem('warbench.warengine.figure') || 'null');"
        f" return f !== null && ({check}); }}"
    )
    answer: dict[str, Any] = _api(page, "POST", "/api/warengine/figures/cost", _we_figure(page))
    playwright_api.expect(page.locator("#we-total")).to_have_text(f"{answer['cost']['points']} pts")
    return answer


def test_warengine_multiprofile_and_shapechanger_as_forms_l1613_l1807(page: Any) -> None:
    """004 L1807-1813 (Multiprofile: the weapon's characteristics and tweaks go in two or more
    profiles) and L1613-1615 (Shapechanger: two or more forms, Hero Points on the combined
    figure) edited with form fields, not as the figure's JSON; each change is re-costed."""
    expect = playwright_api.expect
    page.goto("/warengine")
    expect(page.locator("#we-total")).to_have_text(__import__("re").compile(r"^\d+ pts$"))
    page.click("#we-new")
    page.click("#we-add-weapon")
    expect(page.locator("#we-weapons fieldset.weapon")).to_have_count(1)
    expect(page.locator("#we-forms")).to_be_hidden()
    # Multiprofile: the weapon's Range and AV move into profile 1, profile 2 is a copy to change
    page.select_option('[aria-label="Weapon 1 tweak"]', "Multiprofile")
    page.click('[aria-label="Weapon 1: add weapon tweak"]')
    expect(page.locator("#we-weapons fieldset.profile")).to_have_count(2)
    tables = _api(page, "GET", "/api/warengine/tables")
    ranged = tables["range"]["rows"][2]["value"]
    page.select_option('[aria-label="Weapon 1 profile 2 Range"]', ranged)
    page.fill('[aria-label="Weapon 1 profile 2 name"]', "Shot")
    costed = _we_costed(
        page,
        f"f.weapons?.[0]?.profiles?.length === 2 && f.weapons[0].profiles[1].range === {ranged!r}"
        " && f.weapons[0].profiles[1].name === 'Shot'",
    )
    weapon = _we_figure(page)["weapons"][0]
    assert weapon["tweaks"] == ["Multiprofile"] and "av" not in weapon, weapon
    assert not [v for v in costed["violations"] if "Multiprofile" in v["rule"]], costed
    expect(page.locator("#we-itemised")).to_contain_text("Multiprofile")
    page.click('[aria-label="Weapon 1: add a profile"]')
    expect(page.locator("#we-weapons fieldset.profile")).to_have_count(3)
    page.click('[aria-label="Remove Weapon 1 profile 3"]')
    expect(page.locator("#we-weapons fieldset.profile")).to_have_count(2)
    # Shapechanger: a second form appears, edited with the same fields; Hero Points stay on
    # the first form
    page.select_option("#we-tweak-pick", "Shapechanger")
    page.click("#we-tweak-add")
    expect(page.locator("#we-form-tabs button")).to_have_count(2)
    expect(page.locator('#we-form-tabs button[aria-selected="true"]')).to_contain_text("Form 2")
    expect(page.locator('input[name="hero_points"]')).to_be_disabled()
    page.fill('input[name="name"]', "Wolf")
    movement = tables["movement"]["rows"][-1]["value"]
    page.select_option('select[name="mv"]', movement)
    costed = _we_costed(
        page,
        f"f.forms?.length === 1 && f.forms[0].name === 'Wolf' && f.forms[0].mv === {movement!r}",
    )
    figure = _we_figure(page)
    assert figure["tweaks"] == ["Shapechanger"] and figure["mv"] != movement, figure
    assert not [v for v in costed["violations"] if "Shapechanger" in v["rule"]], costed
    expect(page.locator("#we-itemised")).to_contain_text("Shapechanger")
    # the first form's fields are its own again; a refresh keeps both forms and the profiles
    page.click('#we-form-tabs button[data-form="0"]')
    expect(page.locator('input[name="name"]')).to_have_value("New Figure")
    page.reload()
    expect(page.locator("#we-form-tabs button")).to_have_count(2)
    expect(page.locator("#we-weapons fieldset.profile")).to_have_count(2)
    # Multiprofile removed: profile 1 becomes the weapon again
    page.click('#we-weapons [aria-label="Remove Multiprofile"]')
    expect(page.locator("#we-weapons fieldset.profile")).to_have_count(0)
    _we_costed(page, "f.weapons?.[0] && !f.weapons[0].profiles && f.weapons[0].av !== undefined")
