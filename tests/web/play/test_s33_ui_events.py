"""The event log in a person's words (issue 10, s33-ui): "1 model", not "1 models", and a
roll-off tied twice "(reroll 2)", not "(reroll) (reroll)" (Core Rules 001_d3f5e425c5e1196d.txt
§1.4 roll-offs, §2.2 step 1). The engine's event text is unchanged (the seeded games'
fingerprints hash it; a roll-off's label is the key of its dice draw): the words are made where
the event is shown, on the play page (its events API, the replay viewer) and in the terminal's
turn-by-turn summary."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from warbench.rulesets.warsurge.battlefield import sample_board
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.geom import Field
from warbench.rulesets.warsurge.game.io import load_game_roster
from warbench.rulesets.warsurge.game.render import summary
from warbench.rulesets.warsurge.game.state import build_setup
from warbench.rulesets.warsurge.game.words import said

ROSTERS = Path(__file__).parents[3] / "examples" / "warsurge" / "rosters"


def test_said_inflects_one_model_and_counts_the_rerolls_L1_4() -> None:
    assert said("Blue: Urban Hunter Car deploys (1 models)") == (
        "Blue: Urban Hunter Car deploys (1 model)"
    )
    assert said("Red attacks Blue with Gun (1 models, in a Melee)") == (
        "Red attacks Blue with Gun (1 model, in a Melee)"
    )
    # other counts keep their plural: 11, 21, 0.1 are not "1"
    for text in ("11 models removed", "21 models placed", "0.1 models", "2 models moved"):
        assert said(text) == text
    assert said("Turn Master Roll-Off: Red 3, Blue 5") == "Turn Master Roll-Off: Red 3, Blue 5"
    assert said("Turn Master Roll-Off (reroll): Red 3, Blue 2") == (
        "Turn Master Roll-Off (reroll): Red 3, Blue 2"
    )
    assert said("Turn Master Roll-Off (reroll) (reroll): Red 3, Blue 2") == (
        "Turn Master Roll-Off (reroll 2): Red 3, Blue 2"
    )
    assert said("X (reroll) (reroll) (reroll): Red 1, Blue 6") == "X (reroll 3): Red 1, Blue 6"


def test_the_summary_says_reroll_2_where_the_engine_keeps_its_label_L1_4() -> None:
    """Seed 30 of the skirmish pair on ruins_48x48: the first Turn Master Roll-Off ties twice
    (§2.2 step 1); its dice draw keeps the engine's label."""
    setup = build_setup(
        [load_game_roster(ROSTERS / n) for n in ("skirmish_a.yaml", "skirmish_b.yaml")],
        Field(sample_board("ruins_48x48")),
    )
    _, events = engine.new_game(setup, 30)
    texts = [e.text for e in events]
    assert any("Turn Master Roll-Off (reroll) (reroll):" in t for t in texts), texts
    lines = summary(events, verbose=True)
    assert any("Turn Master Roll-Off (reroll 2):" in line for line in lines), lines
    assert not any("(reroll) (reroll)" in line for line in lines), lines


def test_the_play_pages_events_say_1_model(client: TestClient) -> None:
    """A hot-seat game of the page's first preset (seed 30): within a few suggested choices a
    one-model unit deploys, and the events the page shows say "(1 model)"."""
    from warbench.web.play.scenes import presenter

    setup = presenter("warsurge").presets()[0]["setup"]
    made = client.post(
        "/api/play/games",
        json={"ruleset": "warsurge", "setup": setup, "mode": "hotseat", "seed": 30},
    ).json()
    game, headers = made["id"], {"X-Play-Token": made["tokens"]["players"]}
    texts: list[str] = []
    for _ in range(40):
        snap = client.get(f"/api/play/games/{game}", headers=headers).json()
        texts = [e["text"] for e in snap["events"]]
        if any(re.search(r"(?<![\d.])1 model\b", t) for t in texts):
            break
        d = snap["decision"]
        action = d["default"] or d["actions"][0]["action"]
        r = client.post(f"/api/play/games/{game}/actions", json={"action": action}, headers=headers)
        assert r.status_code == 200, r.text
    assert any("(1 model)" in t for t in texts), texts
    assert not any(re.search(r"(?<![\d.])1 models\b", t) for t in texts), texts


def test_said_inflects_one_success_and_one_casualty_and_flattens_nested_brackets_s34() -> None:
    # session 34's walk: "1 Attack Dice, 1 successes, 1 HP lost, 1 casualties"
    line = 'A attacks B with Gun (1 models, at 20.4"): 1 Attack Dice, 1 successes, 1 HP lost, '
    assert said(line + "1 casualties") == (
        'A attacks B with Gun (1 model, at 20.4"): 1 Attack Dice, 1 success, 1 HP lost, 1 casualty'
    )
    assert said("11 successes, 21 casualties") == "11 successes, 21 casualties"
    assert said("B: 1 model removed (Dangerous Ground (removed at once, §4.6))") == (
        "B: 1 model removed (Dangerous Ground, removed at once, §4.6)"
    )
