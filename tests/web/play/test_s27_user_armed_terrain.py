"""Terrain that attacks as a player meets it (session 27, s27-user): Core Rules
001_d3f5e425c5e1196d.txt §10.2 L4386-4392 (terrain with Weapons), L4404-4408 (who fires them),
L4424-4430 (a piece fielded in an army), §10.3 (terrain as a Target); rulings "WARSURGE terrain
in play: session 27, s27-armyterrain" and "... s27-user".

What a player tripped on, on ``hive_city_armed_72x48``: a destructible piece offered as a
Target read "attack ... at unit 10"; the page's unit chip for a turret read "unit 19", the
armed pieces looked like any other terrain, and the odds of a piece's Attack failed on the
server; a side could aim at the gun turret fielded in its own army; and on the armoured column
(a side not named by a colour) the side named "Blue" was drawn red.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.warsurge.game.helpers import ROSTERS
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack, Pass, action_to_dict
from warbench.rulesets.warsurge.game.io import load_game_roster, roster_to_data
from warbench.rulesets.warsurge.game.protocol import WarsurgeRuleset
from warbench.rulesets.warsurge.game.terrain import terrain_target
from warbench.rulesets.warsurge.game.words import describe
from warbench.web.play.scenes import WarsurgePresenter, side_colours

ARMED = "hive_city_armed_72x48"


def _setup() -> dict[str, Any]:
    rosters = [
        roster_to_data(load_game_roster(ROSTERS / f))
        for f in ("skirmish_a.yaml", "skirmish_b.yaml")
    ]
    return {"rosters": rosters, "board": ARMED, "options": {"max_turns": 5}}


def _to_piece_attack(seed: int = 4) -> tuple[WarsurgeRuleset, Any, int, list[Any]]:
    """Play the first listed actions until a side may fire a piece; (ruleset, state, player,
    its legal actions)."""
    ws = WarsurgeRuleset()
    s = _setup()
    state = ws.setup(tuple(s["rosters"]), s["board"], s["options"], seed)
    n = len(state.game.units)
    for _ in range(400):
        assert not ws.is_over(state)
        player = engine.acting_side(state.game)
        assert player is not None
        legal = list(ws.legal_actions(state, player))
        if any(isinstance(a, Attack) and a.unit >= n for a in legal):
            return ws, state, player, legal
        state = ws.apply(state, legal[0] if legal else Pass(), player)[0]
    raise AssertionError("no piece could attack")


def test_s10_3_a_destructible_piece_offered_as_a_target_is_named_not_numbered() -> None:
    ws, state, player, legal = _to_piece_attack()
    view = ws.view(state, player)
    board = state.game.setup.field.board
    plain = {
        terrain_target(state.game, t.name): t.name
        for t in board.terrain
        if t.hp is not None and t.profile is not None and not t.in_play_weapons
    }
    numbers = {c["name"]: c.get("number") for c in view["control"] if c["kind"] == "terrain"}
    assert all(numbers[name] == k for k, name in plain.items())
    at_piece = [(a, t) for a in legal if isinstance(a, Attack) for _, t in a.targets if t in plain]
    assert at_piece, "no Attack at a destructible piece was offered"
    action, target = at_piece[0]
    words = describe(view, action_to_dict(action))
    assert words is not None and f"at {plain[target]} (terrain)" in words
    assert "unit " not in words
    # without the numbers in the view the piece is only a number (what the player saw)
    bare = {
        **view,
        "control": [{k: v for k, v in c.items() if k != "number"} for c in view["control"]],
    }
    assert f"unit {target}" in (describe(bare, action_to_dict(action)) or "")


def test_s10_2_L4424_the_own_armys_piece_is_not_offered_as_a_target() -> None:
    _, state, player, legal = _to_piece_attack()
    board = state.game.setup.field.board
    own = [terrain_target(state.game, t.name) for t in board.terrain if t.army == player]
    enemy = [
        terrain_target(state.game, t.name)
        for t in board.terrain
        if t.army is not None and t.army != player
    ]
    assert own and enemy
    aimed = {t for a in legal if isinstance(a, Attack) for _, t in a.targets}
    assert not aimed & set(own)
    # refused with its rule when typed
    shooter = next(a for a in legal if isinstance(a, Attack) and a.unit < len(state.game.units))
    wname = shooter.targets[0][0]
    with pytest.raises(Exception) as exc:
        engine.check(state.game, Attack(shooter.unit, ((wname, own[0]),)))
    assert "own army" in str(exc.value) and "L4424" in str(exc.value)


def test_s10_2_the_page_marks_names_and_labels_the_armed_pieces_and_gives_their_odds() -> None:
    ws, state, player, legal = _to_piece_attack()
    view = ws.view(state, player)
    scene = WarsurgePresenter().scene(_setup(), view) or {}
    areas = {a["name"]: a for a in scene["areas"] if a["kind"] == "terrain"}
    side = [s["name"] for s in view["sides"]]
    west, east = areas[f"West gun turret ({side[0]})"], areas[f"East gun turret ({side[1]})"]
    for a in (west, east, areas["Command bunker"]):
        assert {"armed", "named"} <= set(a["tags"])
    assert "army-0" in west["tags"] and "army-1" in east["tags"]
    assert "armed" not in areas["Comms relay"]["tags"]  # a Target, not armed
    piece = next(a for a in legal if isinstance(a, Attack) and a.unit >= len(state.game.units))
    assert scene["labels"][str(piece.unit)].endswith("(terrain)")
    odds = WarsurgePresenter().odds(_setup(), view, action_to_dict(piece), state, player) or {}
    assert "refused" not in odds
    (row,) = odds["targets"]
    assert row["exact"] and row["expected_hp_lost"] > 0
    assert abs(sum(row["hp_lost"].values()) - 1) < 1e-9


def test_a_side_named_blue_is_drawn_blue_against_a_side_not_named_by_a_colour() -> None:
    mixed = {"sides": [{"name": "Armoured Column"}, {"name": "Blue"}]}
    assert side_colours(mixed) == ["#c0392b", "#1f5fbf"]
    assert side_colours({"sides": [{"name": "Red"}, {"name": "Dogs"}]}) == ["#c0392b", "#1f5fbf"]
    assert side_colours({"sides": [{"name": "Ann"}, {"name": "Bob"}]}) is None


def test_the_svg_render_draws_a_side_named_red_in_red(tmp_path: Any) -> None:
    """``warbench battle --svg`` drew side 0 ("Red": its units and the turret in its army,
    §10.2 L4424) in blue and "Blue" in red; the renders now colour a side by its name."""
    from dataclasses import replace

    from warbench.rulesets.warsurge.battlefield.render import side_colours as render_colours
    from warbench.rulesets.warsurge.game.render import render_state_svg

    red, blue = "#c0392b", "#1f5fbf"
    assert render_colours(["Red", "Blue"]) == [red, blue]
    assert render_colours(["Armoured Column", "Blue"]) == [red, blue]
    assert render_colours(["Ann", "Bob"]) == [blue, red]
    _, state, _, _ = _to_piece_attack()
    game = state.game
    assert game.setup.sides[0] == "Red"
    swapped = replace(game, setup=replace(game.setup, sides=("Blue", "Red")))
    one = render_state_svg(game, tmp_path / "a.svg").read_text()
    two = render_state_svg(swapped, tmp_path / "b.svg").read_text()
    # the same picture with the colours exchanged: side 0 in red, then in blue
    assert one.count(red) == two.count(blue) and one.count(blue) == two.count(red)
    assert one.count(red) != one.count(blue)
    # the bunker its controller fires is outlined amber, not in a side's red (or danger's)
    assert "#d4ac0d" in one


def test_s10_2_L4424_the_text_render_names_the_army_of_a_piece_by_its_side() -> None:
    """``warbench play`` printed "armed (army of side 0)": the side by number only; the game's
    text render now says whose army it is by name."""
    from warbench.rulesets.warsurge.game.render import render_state_text

    _, state, _, _ = _to_piece_attack()
    lines = render_state_text(state.game).splitlines()
    west = next(line for line in lines if line.startswith("West gun turret:"))
    east = next(line for line in lines if line.startswith("East gun turret:"))
    assert "in Red's army" in west and "in Blue's army" in east
    assert "in Red's army" not in next(x for x in lines if x.startswith("Command bunker:"))


def test_s3_6_a_taken_deployment_zone_is_drawn_in_its_sides_colour() -> None:
    """The pictures shaded the zones by their place on the board: Red's south edge blue."""
    from warbench.rulesets.warsurge.game.render import _zone_colours

    _, state, _, _ = _to_piece_attack()
    game = state.game
    colours = _zone_colours(game)
    red, blue = "#c0392b", "#1f5fbf"
    assert colours[game.zones[0]] == red and colours[game.zones[1]] == blue
