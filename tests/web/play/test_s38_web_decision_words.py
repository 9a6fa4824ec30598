"""Every action a WARSURGE or WarEngine engine can ask a player for has words (issue 10,
session 38, s38-web): the page's buttons and the terminal's numbered choices read
``words.describe``; a kind it did not word kept its generic label ("casualties: unit 3, models
[0, 1, ...]", "restore: unit 3, positions [[...]]", "hero: points 1"). A kind added to an
engine without words (or without an example here) fails this test."""

from __future__ import annotations

import json
import re
import typing
from typing import Any

import pytest

from tests.web.play.conftest import act, new_game, snap
from warbench.play.registry import get_ruleset
from warbench.rulesets.warsurge.game.actions import _KINDS
from warbench.web.play.scenes import presenter

#: one action of each WARSURGE kind, in each of its forms (a point, every model's place, a
#: Transport, Rift Gate's Reserve ...); units 0-3 and models from 0, as the view has them
WARSURGE: list[dict[str, Any]] = [
    {"kind": "turn_master", "side": 1},
    {"kind": "zone", "zone": 0},
    {"kind": "deploy", "unit": 0, "at": [10.0, 4.0]},
    {"kind": "deploy", "unit": 0, "positions": [[10.0, 4.0], [11.0, 4.0]]},
    {"kind": "deploy", "unit": 0, "positions": [[10.0, 4.0]], "passengers": [1]},
    {"kind": "deploy", "unit": 0, "into": 1},
    {"kind": "move", "unit": 0, "to": [10.0, 12.0]},
    {"kind": "move", "unit": 0, "to": [10.0, 12.0], "dash": True},
    {"kind": "move", "unit": 0, "engage": 2},
    {"kind": "move", "unit": 0, "engage": 2, "positions": [[10.0, 12.0]]},
    {"kind": "move", "unit": 0, "positions": [[10.0, 12.0], [11.0, 12.0]]},
    {"kind": "embark", "unit": 0, "transport": 1},
    {"kind": "embark_terrain", "unit": 0, "terrain": "Bunker"},
    {"kind": "embark_terrain", "unit": 0, "terrain": "Bunker", "models": [0, 1]},
    {"kind": "disembark", "unit": 0},
    {"kind": "disembark", "unit": 0, "to": [10.0, 12.0]},
    {"kind": "disembark", "unit": 0, "positions": [[10.0, 12.0]]},
    {"kind": "disembark", "unit": 0, "reserve": True},
    {"kind": "attack", "unit": 0, "targets": [["Rifle", 2]]},
    {"kind": "casualties", "unit": 2, "models": [0, 1, 2]},
    {"kind": "casualties", "unit": 2, "models": []},
    {"kind": "restore", "unit": 0, "positions": [[10.0, 12.0], [11.0, 12.0]]},
    {"kind": "survivors", "unit": 0, "positions": [[10.0, 12.0]], "lost": [1]},
    {"kind": "contact", "unit": 0, "foe": 2, "positions": [[10.0, 12.0]]},
    {"kind": "pass"},
    {"kind": "delay", "unit": 0},
    {"kind": "delay", "unit": 0, "perk_use": True},
    {"kind": "use_perks", "unit": 0},
    {"kind": "use_perks", "unit": 0, "perks": ["Teleport"]},
    {"kind": "prepare", "unit": 0},
    {"kind": "guard", "unit": 0},
    {"kind": "support", "unit": 0},
    {"kind": "end_step"},
    {"kind": "counter", "unit": 2, "choice": "none"},
    {"kind": "counter", "unit": 2, "choice": "attack"},
]

#: what a generic label looks like: a field's raw value ("unit 3", "models [0", "[[10.0")
RAW = re.compile(r"\[\[|\bmodels \[|\bpositions\b|\b(?:unit|fig|figure) \d|\bTrue\b|\bFalse\b")


def _warsurge_view() -> tuple[dict[str, Any], dict[str, Any]]:
    setup = presenter("warsurge").presets()[0]["setup"]
    rs = get_ruleset("warsurge")
    state = rs.setup(setup["rosters"], setup["board"], setup["options"], 3)
    while rs.pending(state)[0].kind != "activation":  # the Turn Master and the zones
        d = rs.pending(state)[0]
        state, _ = rs.apply(state, d.default, d.player)
    return setup, rs.views.dump(rs.view(state, 0))


def test_every_warsurge_action_kind_has_words_not_its_fields() -> None:
    from warbench.rulesets.warsurge.game.words import describe

    assert {a["kind"] for a in WARSURGE} == set(_KINDS), "an action kind without an example"
    setup, view = _warsurge_view()
    labels = presenter("warsurge").labels(setup, view, WARSURGE)
    for action, label in zip(WARSURGE, labels, strict=True):
        said = describe(view, action)
        # a Deployment Zone is named from the board (the page's presenter, the terminal)
        assert said or action["kind"] == "zone", f"no words for {json.dumps(action)}"
        assert label, f"the page has no words for {json.dumps(action)}"
        assert not RAW.search(label), f"{json.dumps(action)} reads {label!r}"


def test_a_placement_after_casualties_names_the_models_it_moves_from_1_s4_2() -> None:
    from warbench.rulesets.warsurge.game.words import describe

    _, view = _warsurge_view()
    u = next(u for u in view["units"] if u["models"] >= 3 and u["loc"] == "reserve")
    pos = [[float(k), 1.0] for k in range(u["models"])]
    unit = {**u, "loc": "table", "pos": pos}
    shown = {**view, "units": [unit if x is u else x for x in view["units"]]}
    moved = [list(p) for p in pos]
    moved[1], moved[2] = [1.0, 2.0], [2.0, 2.0]  # the second and third models move
    said = describe(shown, {"kind": "restore", "unit": u["uid"], "positions": moved})
    assert said == f"{u['label']}: move models 2 and 3 back into Coherency (§4.2 IV)"


def _warengine_kinds() -> set[str]:
    from warbench.rulesets.warengine.game.state import WarEngineAction

    return {typing.get_type_hints(c)["kind"].__args__[0] for c in typing.get_args(WarEngineAction)}


#: one action of each WarEngine kind (figures 0 and 1 face each other in the preset)
WARENGINE: list[dict[str, Any]] = [
    {"kind": "roll", "winner": 1},
    {"kind": "place", "fig": 0, "x": 10.0, "y": 4.0, "form": 0},
    {"kind": "first", "player": 0},
    {"kind": "activate", "unit": 0, "join": None},
    {"kind": "move", "fig": 0, "x": 10.0, "y": 8.0, "mode": "move"},
    {"kind": "attack", "fig": 0, "weapon": 0, "target": 1},
    {"kind": "reserve", "fig": 0, "weapon": 0, "every": False},
    {"kind": "deactivate"},
    {"kind": "reserve fire", "fig": 0, "target": 1, "lunge": False},
    {"kind": "pass"},
    {"kind": "hero", "points": 1},
    {"kind": "hero", "points": 0},
    {"kind": "leader", "fig": 0},
    {"kind": "reroll", "use": True},
    {"kind": "reroll", "use": False},
    {"kind": "shape", "fig": 0, "form": 0},
    {"kind": "transfer", "fig": 0, "use": True},
    {"kind": "push", "fig": 0, "vehicle": 1, "x": 10.0, "y": 8.0},
    {"kind": "surge", "fig": 0, "points": 2},  # Invigorate's points on movement (session 39)
]


@pytest.mark.parametrize("ruleset", ["warengine"])
def test_every_warengine_action_kind_has_words_not_its_fields(ruleset: str) -> None:
    assert {a["kind"] for a in WARENGINE} == _warengine_kinds(), "a kind without an example"
    pres = presenter(ruleset)
    setup = pres.presets()[0]["setup"]
    rs = get_ruleset(ruleset)
    state = rs.setup(setup["rosters"], setup["board"], setup["options"], 3)
    view = rs.views.dump(rs.view(state, 0))
    names = pres.seat_names(setup, 2)
    labels = pres.labels(setup, view, WARENGINE)
    for action, label in zip(WARENGINE, labels, strict=True):
        assert label, f"no words for {json.dumps(action)}"
        assert not RAW.search(label), f"{json.dumps(action)} reads {label!r}"
    assert labels[0] == f"{names[1]} wins the roll-off"
    # raised by 1 (under Adrenal Overload it costs two points, L1015: session 39)
    assert labels[10] == "Spend Hero Points to raise this roll by 1"
    assert labels[11] == "Spend no Hero Points"


def test_a_casualty_decision_in_the_page_says_which_models_each_choice_removes_s5_11(
    client: Any,
) -> None:
    """The page's decision (the play API): the prompt numbers models from 1 and each listed
    choice names the models it removes (it was "casualties: unit 3, models [0, 1, ...]" under
    "... among models 0, 1, 2, ...")."""
    setup = presenter("warsurge").presets()[0]["setup"]
    options = {**setup["options"], "automation": ["model placement", "coherency"]}
    g = new_game(client, ruleset="warsurge", setup={**setup, "options": options}, seed=3)
    token = g["tokens"]["players"]
    d: dict[str, Any] | None = None
    for _ in range(200):
        d = snap(client, g["id"], token)["decision"]
        if d is None or d["kind"] == "casualties":
            break
        assert act(client, g["id"], token, d["default"]).status_code == 200
    assert d is not None and d["kind"] == "casualties"
    assert d["prompt"].endswith("choose the casualties among models 1 to 10")
    assert [a["label"] for a in d["actions"]] == [
        "Blue: Dead Dogs: models 1 to 3 become casualties (§5.11)",
        "Blue: Dead Dogs: models 8 to 10 become casualties (§5.11)",
    ]


def test_the_rest_as_suggested_is_refused_for_a_kind_the_ruleset_does_not_offer(
    client: Any,
) -> None:
    """``POST .../rest`` takes the suggested choice for a run of decisions only where the
    presenter offers it (The WarEngine's placement, L303-309); a WARSURGE activation is refused
    in words naming the field and what is allowed, and nothing is played."""
    setup = presenter("warsurge").presets()[0]["setup"]
    g = new_game(client, ruleset="warsurge", setup=setup, seed=3)
    headers = {"X-Play-Token": g["tokens"]["players"]}
    before = snap(client, g["id"], g["tokens"]["players"])["revision"]
    r = client.post(f"/api/play/games/{g['id']}/rest", json={"kind": "activation"}, headers=headers)
    assert r.status_code == 422, r.text
    assert "kind" in r.text and "none for this ruleset" in r.text
    assert snap(client, g["id"], g["tokens"]["players"])["revision"] == before
    # The WarEngine: the players' link places its figures, then the AI's are placed
    we = presenter("warengine").presets()[0]["setup"]
    w = new_game(client, ruleset="warengine", setup=we, seed=3, mode="ai")
    tok = w["tokens"]["players"]
    assert snap(client, w["id"], tok)["decision"]["rest"] == (
        "Place the rest of your figures as suggested"
    )
    out = client.post(f"/api/play/games/{w['id']}/rest", json={"kind": "place"},
                      headers={"X-Play-Token": tok}).json()  # fmt: skip
    assert out["made"] >= 8
    assert snap(client, w["id"], tok)["decision"]["kind"] == "activation"
