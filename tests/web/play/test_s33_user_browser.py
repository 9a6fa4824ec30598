"""A new player's whole games in the browser (session 33, lane s33-user), at phone size
(Playwright driving Debian's Chromium, the fixtures of ``test_play_browser.py``).

* A rule shown to a player is cited by its book ("Collision L620-627", "Core Rules §2.2 step
  8"), never by its source file's hash name (``003_fc239e71486306e1.txt``): in the game's event
  log, the result line, the replay viewer's log and the Play Manager's winner line. The
  decision's own rule was already named by book (session 32); the rest showed the file name
  on every line of a WarEngine or Collision log and at the end of every WARSURGE game.
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


# the rulebooks' source files (/work/shared/seeds/README.md)
SOURCE_FILE = re.compile(r"\d{3}_[0-9a-f]{16}\.txt")


def _finished(page: Any, ruleset: str, seed: int) -> tuple[str, str, str]:
    """A game of ``ruleset``'s first preset against the scripted AI, played to its end over the
    API with every suggested choice; its id, token and page link."""
    from warbench.web.play.scenes import presenter

    setup = presenter(ruleset).presets()[0]["setup"]
    made = page.request.post(
        "/api/play/games",
        data={"ruleset": ruleset, "setup": setup, "mode": "ai", "seed": seed},
    ).json()
    game, tok = made["id"], made["tokens"]["players"]
    for _ in range(400):
        snap = _api(page, game, tok)
        if snap["result"] is not None:
            return game, tok, made["links"]["players"]
        _api(page, game, tok, "/actions", {"action": snap["decision"]["default"]})
    raise AssertionError(f"the {ruleset} game did not end")


def _no_file_names(page: Any, selector: str) -> None:
    text = page.locator(selector).inner_text()
    assert not SOURCE_FILE.search(text), text[:400]


def test_collision_log_result_and_replay_cite_the_book(pages: Pages) -> None:
    page = pages.new(PHONE, "s33-collision-books")
    game, tok, link = _finished(page, "collision", 4)
    raw = _api(page, game, tok)["events"]
    assert any(SOURCE_FILE.search(e.get("rule") or "") for e in raw)  # what the server sends
    page.goto(link)
    expect(page.locator("#decision-card")).to_have_attribute("data-state", "over")
    expect(page.locator("#log")).to_contain_text("Collision L620-627")  # the Attacker (first)
    _no_file_names(page, "#log")
    _no_file_names(page, "#result")
    page.goto(f"/play/replay?game={game}#t={tok}")
    expect(page.locator("#replay-result")).to_contain_text("verified")
    page.click("#last")
    expect(page.locator("#log")).to_contain_text("Collision L")
    _no_file_names(page, "#log")


def test_warsurge_result_line_cites_core_rules_S2_2(pages: Pages) -> None:
    page = pages.new(PHONE, "s33-warsurge-result")
    game, tok, link = _finished(page, "warsurge", 11)
    assert SOURCE_FILE.search(_api(page, game, tok)["result"]["reason"])
    page.goto(link)
    expect(page.locator("#decision-card")).to_have_attribute("data-state", "over")
    expect(page.locator("#result")).to_contain_text("(Core Rules §2.2 step 8)")
    _no_file_names(page, "#result")
    # session 34: one pair of brackets, "Red wins, 150 – 138: values on the battlefield ..."
    said = page.locator("#result").inner_text()
    assert re.match(r"^(Red wins|Blue wins|Draw), [\d.]+ – [\d.]+: ", said), said
    assert "))" not in said, said
    _no_file_names(page, "#log")


def test_play_manager_winner_cites_core_rules_S2_2(pages: Pages) -> None:
    page = pages.new(PHONE, "s33-manager-books")
    page.goto("/play/manager")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    page.click("#start-table")
    expect(page.locator("#table")).to_be_visible()
    page.locator(".pm-unit").first.locator("select").select_option("table")
    page.click("#pm-end")
    expect(page.locator("#pm-winner")).to_contain_text("Red wins · Core Rules §2.2 step 8")
    _no_file_names(page, "#pm-winner")


def test_a_force_against_a_copy_of_itself_is_told_apart(pages: Pages) -> None:
    """The WarEngine preset "StormReavers against StormReavers": the page said "you play
    StormReavers" and, at the end, "StormReavers wins" -- which one? Each seat's name now
    carries its seat number when two seats share it."""
    page = pages.new(PHONE, "s33-warengine-names")
    game, tok, link = _finished(page, "warengine", 3)
    assert _api(page, game, tok)["names"] == ["StormReavers (1)", "StormReavers (2)"]
    page.goto(link)
    expect(page.locator("#decision-card")).to_have_attribute("data-state", "over")
    expect(page.locator("#who")).to_contain_text("you play StormReavers (1)")
    expect(page.locator("#result")).to_contain_text(re.compile(r"StormReavers \([12]\) wins|Draw"))
    expect(page.locator("#decision-title")).to_have_text(
        re.compile(r"The game is over: (StormReavers \([12]\) wins|a draw)")
    )


def test_lobby_offers_each_ai_player_once(pages: Pages) -> None:
    """The seat's list offered "AI: scripted" twice (``ai:automatic`` and ``ai:scripted``, one
    player: docs/ai.md), and "AI: tactical" beside "AI: tactical 1", "AI: search" beside
    "AI: search 2" (the same players); each player is now listed once."""
    page = pages.new(PHONE, "s33-lobby-kinds")
    page.goto("/play")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    seat = page.locator("[data-seat='1']")
    expect(seat).to_have_value("ai:scripted")
    labels = seat.locator("option").all_inner_texts()
    values = [o.get_attribute("value") for o in seat.locator("option").all()]
    assert len(labels) == len(set(labels)), labels
    for alias, same in (("ai:automatic", "ai:scripted"), ("ai:search", "ai:search:2")):
        assert same in values and alias not in values, values
    assert "ai:tactical:1" in values and "ai:tactical" not in values, values
    assert "ai:tactical:2" in values and "ai:search:4" in values and "ai:random" in values


def test_deployment_zone_choice_names_the_zone_S3_6(pages: Pages) -> None:
    """Core Rules §3.6: a player chooses a Deployment Zone. The page listed it as "zone: zone 1"
    while the log then said "Red takes Deployment Zone north edge" (and ``warbench play`` asks
    "1. Deployment Zone north edge"); the choice now names the zone as the board does."""
    page = pages.new(PHONE, "s33-zone-names")
    made, game, tok, d = _game_at(page, "warsurge", "hotseat", 11, lambda d: d["kind"] == "zone")
    zones = [a for a in _api(page, game, tok)["scene"]["areas"] if a["kind"] == "zone"]
    page.goto(made["links"]["players"])
    expect(page.locator("#decision-card")).to_have_attribute("data-state", "deciding")
    listed = page.locator("#actions button")
    expect(listed.first).to_have_text(re.compile(r"Deployment Zone (north|south) edge"))
    name = listed.first.inner_text().removeprefix("Deployment Zone ")
    zone = d["actions"][0]["action"]["zone"]
    assert zones[zone]["name"] == name  # the board's zone of that number
    seat = d["player"]
    listed.first.click()
    expect(page.locator("#log")).to_contain_text(
        f"{_api(page, game, tok)['names'][seat]} takes Deployment Zone {name}"
    )


def test_replay_lists_each_action_in_the_game_pages_words(pages: Pages) -> None:
    """The replay viewer listed a WARSURGE step as "Red: attack: targets [['Sniper Rifle', 5]],
    unit 2" and "Blue: zone: zone 0"; it now says it as the game page lists it ("Red: Sniper
    Troopers: attack with Sniper Rifle at Blue: …", "Deployment Zone south edge"), the side
    named once."""
    page = pages.new(PHONE, "s33-replay-words")
    game, tok, _ = _finished(page, "warsurge", 11)
    page.goto(f"/play/replay?game={game}#t={tok}")
    expect(page.locator("#replay-result")).to_contain_text("verified")
    page.click("#last")
    log = page.locator("#log")
    expect(log).to_contain_text("Deployment Zone south edge")
    expect(log).to_contain_text(re.compile(r"\d+\. (Red|Blue): [^:]+: attack with [^:]+ at "))
    text = log.inner_text()
    assert "targets [[" not in text and "zone: zone" not in text, text[:600]
    assert "Red: Red:" not in text and "Blue: Blue:" not in text


def test_network_links_say_whose_seat_they_are(pages: Pages) -> None:
    """Two browsers: the lobby's links read "seat 0" and "seat 1" (numbered from 0 under a form
    that says "Seat 1", and no side named): which is Red's? Each now says "Red (seat 1)",
    "Blue (seat 2)", in the new game's links and in "Your games"."""
    page = pages.new(PHONE, "s33-network-links")
    page.goto("/play")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    page.select_option("#mode", "network")
    page.fill("#seed", "21")
    page.click("#new-game button[type='submit']")
    expect(page.locator("#created")).to_be_visible()
    links = page.locator("#links")
    expect(links.locator("a.open-link[data-link='seat 0']")).to_have_text("Open as Red (seat 1)")
    expect(links.locator("a.open-link[data-link='seat 1']")).to_have_text("Open as Blue (seat 2)")
    expect(links).to_contain_text("spectator")
    mine = page.locator("#my-games")
    expect(mine.locator("a[data-link='seat 0']")).to_have_text("Red (seat 1)")
    # the link opens the seat it names
    page.goto(links.locator("input[data-link='seat 0']").input_value())
    expect(page.locator("#who")).to_contain_text("you play Red")


def test_collision_piles_are_listed_by_the_characters_in_them_L682_686(pages: Pages) -> None:
    """Collision L682-686: a player sorts the hand into three phase piles. The page listed the
    one choice as "piles: piles [[0, 1], [2, 3], [4, 5]]" (the characters' indexes); it now
    names them, as the event does once sorted."""
    page = pages.new(PHONE, "s33-collision-piles")
    made, _game, _tok, _d = _game_at(page, "collision", "ai", 4, lambda d: d["kind"] == "piles")
    page.goto(made["links"]["players"])
    expect(page.locator("#decision-card")).to_have_attribute("data-state", "deciding")
    expect(page.locator("#actions button").first).to_have_text(
        "phase 1: Virgil, Skeleton Archer (1); phase 2: Skeleton Archer (2), Skeleton Archer (3);"
        " phase 3: Skeleton Archer (4), Halai"
    )


def test_play_manager_history_is_in_words(pages: Pages) -> None:
    """The Play Manager's history said "op end_game, on True", "op cp, side 0, count 1" and
    "Troopers: model 0 at 0 HP" while the chip's tooltip says "model 1"; it now says each in
    words, models numbered from 1."""
    page = pages.new(PHONE, "s33-manager-history")
    page.goto("/play/manager")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    page.click("#start-table")
    expect(page.locator("#table")).to_be_visible()
    first = page.locator(".pm-unit").first
    first.locator("select").select_option("table")
    expect(first.locator(".hp button").first).to_have_attribute("title", re.compile("^model 1:"))
    first.locator(".hp button").first.click()
    expect(first.locator(".hp button").first).to_have_text("✕")
    page.locator("#pm-standings button", has_text="+").first.click()
    page.click("#pm-end")
    history = page.locator("#pm-history")
    expect(history).to_contain_text("the game ends (§2.2 step 8)")
    expect(history).to_contain_text("Troopers: model 1 removed")
    expect(history).to_contain_text("Red: 1 CP")
    text = history.inner_text()
    assert "op " not in text and "model 0" not in text, text
    # the button takes the ending back, and says so
    expect(page.locator("#pm-end")).to_have_text("Resume the game")
    page.click("#pm-end")
    expect(page.locator("#pm-end")).to_have_text("End the game")
    expect(history).to_contain_text("the game goes on")


def test_the_game_over_card_says_how_it_went_and_what_comes_next(pages: Pages) -> None:
    """At a game's end the card read "The game is over: Blue wins" to either player, with only
    an Undo: the player is now told whether they won, and the card links the game's replay and
    a new game of the same ruleset."""
    page = pages.new(PHONE, "s33-game-over")
    game, tok, link = _finished(page, "warsurge", 11)
    winner = _api(page, game, tok)["result"]["winner"]
    page.goto(link)
    expect(page.locator("#decision-card")).to_have_attribute("data-state", "over")
    said = "(you won)" if winner == 0 else "(you lost)" if winner == 1 else ""
    expect(page.locator("#decision-title")).to_have_text(
        re.compile(r"The game is over: (Red|Blue) wins " + re.escape(said))
        if said
        else "The game is over: a draw"
    )
    expect(page.locator("#over-new")).to_have_attribute("href", "/play?ruleset=warsurge")
    page.click("#over-replay")
    expect(page.locator("#replay-result")).to_contain_text("warsurge, seed 11, verified")


def test_lobby_seats_say_whose_they_are(pages: Pages) -> None:
    """The lobby's seats read "Seat 1" and "Seat 2": which side is the person? Each names its
    roster as the game page will ("Seat 1: Red"), for every ruleset's set-up."""
    page = pages.new(PHONE, "s33-lobby-seats")
    page.goto("/play")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    seats = page.locator("#seats label")
    expect(seats.nth(0)).to_contain_text("Seat 1: Red")
    expect(seats.nth(1)).to_contain_text("Seat 2: Blue")
    page.select_option("#ruleset", "collision")
    expect(seats.nth(0)).to_contain_text("Seat 1: Deadholm scouts")
    expect(seats.nth(1)).to_contain_text("Seat 2: Guelivere band")


def test_the_selected_unit_is_marked_not_listed_among_others(pages: Pages) -> None:
    """Tapping a unit read "Selected: Red: Troopers · others: Red: Troopers, Red: Assault
    Squad, …" (the selected unit among the "others"); its chip is now marked as chosen."""
    page = pages.new(PHONE, "s33-selected-chip")
    made, _game, _tok, _d = _game_at(
        page,
        "warsurge",
        "hotseat",
        11,
        lambda d: any(a["action"]["kind"] == "deploy" for a in d["actions"]),
    )
    page.goto(made["links"]["players"])
    expect(page.locator("#decision-card")).to_have_attribute("data-state", "deciding")
    chip = page.locator(".unit-chip").first
    name = chip.inner_text()
    chip.click()
    expect(page.locator("#selected")).to_contain_text(f"Selected: {name} · units that can act:")
    expect(page.locator("#selected")).not_to_contain_text("others")
    expect(page.locator(".unit-chip.chosen")).to_have_count(1)
    expect(page.locator(".unit-chip.chosen")).to_have_text(name)
    expect(page.locator(".unit-chip.chosen")).to_have_attribute("aria-pressed", "true")
