"""Destructible terrain in the game: terrain with HP and a profile is attacked and destroyed,
the units on it are unharmed, and state, record, view and renders show it.

001_d3f5e425c5e1196d.txt §10.2 B/C (L4383-4407: "Give profiles to terrain"), §10.3 (L4470-4473:
"Units may be inside or on top of a terrain when it is destroyed. When this occurs, treat it
as per the Transport rules listed in Section 6.6. Units are unharmed"); docs/rulings.md
"WARSURGE terrain in play" 1-5.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.battlefield import Terrain, sample_board
from warbench.rulesets.warsurge.battlefield.io import board_to_data
from warbench.rulesets.warsurge.battlefield.terrain_targets import terrain_sight
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack
from warbench.rulesets.warsurge.game.codecs import WarsurgeState
from warbench.rulesets.warsurge.game.io import load_game_roster, roster_to_data
from warbench.rulesets.warsurge.game.protocol import WarsurgeRuleset
from warbench.rulesets.warsurge.game.render import (
    render_state_png,
    render_state_svg,
    render_state_text,
)
from warbench.rulesets.warsurge.game.state import GameState, Phase
from warbench.rulesets.warsurge.game.terrain import terrain_hp_left, terrain_target
from warbench.rulesets.warsurge.game.terrain_field import field_of

from .helpers import ROSTERS, board, entry, scenario, unit, weapon

_PROFILE = {
    "unit": {"name": "Deck", "move": 0, "dash": 0, "defence": 2, "hp": 2},
    "models": [{"count": 1}],
}
#: a raised deck 3" up that can be destroyed (2 HP, Defence 2)
DECK = Terrain(name="Deck", rect=[8, 8, 14, 14], level=3, height=3.5, hp=2, profile=_PROFILE)
#: a tall wall that blocks line of sight, destructible
WALL = Terrain(
    name="Wall", rect=[5, 15, 25, 16], blocks_los=True, height=10, hp=40, profile=_PROFILE
)
#: a wall nobody can destroy (§10.2 A)
STONE = Terrain(name="Stone", rect=[30, 15, 40, 16], blocks_los=True)

GUN = weapon(attacks=4, power=8)


def _state(*terrain: Terrain, foe_at: tuple[float, float] = (10.0, 10.0)) -> GameState:
    return scenario(
        [[entry(unit("Gunners", models=3, weapons=[GUN]))], [entry(unit("Foe"))]],
        {0: [(10.0, 20.0), (11.5, 20.0), (13.0, 20.0)], 1: [foe_at]},
        phase=Phase.ATTACK,
        b=board(terrain=list(terrain)),
    )


def test_s10_3_L4470_a_unit_on_destroyed_terrain_stands_on_the_board_unharmed() -> None:
    state = _state(DECK)
    assert state.setup.field.levels.z_at((10.0, 10.0)) == 3.0  # the foe stands on the deck
    deck = terrain_target(state, "Deck")
    assert deck == 2  # past the last unit: the piece's place on the board (ruling 2)
    after, events = engine.apply(state, Attack(0, (("Gun", deck),)))
    assert terrain_hp_left(after, "Deck") == 0
    assert after.terrain_hp == (("Deck", 0),)
    kinds = [e.kind for e in events]
    assert "terrain_destroyed" in kinds
    gone = next(e for e in events if e.kind == "terrain_destroyed")
    assert gone.rule == "§10.3" and gone.data["units"] == [1]
    # "Units are unharmed" (L4472): the foe keeps its HP and place, now on the board
    assert after.units[1].hp == state.units[1].hp
    assert after.units[1].pos == state.units[1].pos
    assert field_of(after).levels.z_at((10.0, 10.0)) == 0.0
    assert field_of(after).board.terrain_named("Deck").level == 0.0
    # the set-up's board is untouched; the digest records the destruction
    assert after.setup.field.board.terrain_named("Deck").hp == 2


def test_s10_3_hp_left_is_kept_until_the_piece_falls() -> None:
    state = _state(WALL, foe_at=(10.0, 40.0))
    wall = terrain_target(state, "Wall")
    after, events = engine.apply(state, Attack(0, (("Gun", wall),)))
    hit = next(e for e in events if e.kind == "attack")
    assert hit.data["terrain"] == "Wall" and hit.rule == "§5.2, §10.3"
    left = terrain_hp_left(after, "Wall")
    assert left is not None and 0 < left < 40 and left == 40 - hit.data["hp_lost"]
    assert after.terrain_hp == (("Wall", left),)
    assert "terrain_destroyed" not in [e.kind for e in events]
    assert after.digest() != replace(after, terrain_hp=()).digest()


def test_s10_2_A_indestructible_and_destroyed_terrain_cannot_be_attacked() -> None:
    state = _state(STONE, DECK)
    with pytest.raises(RulesError, match="indestructible") as exc:
        engine.check(state, Attack(0, (("Gun", terrain_target(state, "Stone")),)))
    assert "§10.2" in exc.value.rule
    gone = replace(state, terrain_hp=(("Deck", 0),))
    with pytest.raises(RulesError, match="already destroyed"):
        engine.check(gone, Attack(0, (("Gun", terrain_target(state, "Deck")),)))
    with pytest.raises(RulesError, match="no unit or terrain piece 99"):
        engine.check(state, Attack(0, (("Gun", 99),)))


def test_s5_3_terrain_out_of_range_or_out_of_sight_is_refused() -> None:
    far = Terrain(name="Far deck", rect=[40, 40, 44, 44], hp=5, profile=_PROFILE)
    state = _state(far)
    with pytest.raises(RulesError, match="range and line of sight"):
        engine.check(state, Attack(0, (("Gun", terrain_target(state, "Far deck")),)))
    # behind a wall that blocks line of sight (§5.4; ruling 1)
    hidden = Terrain(name="Hidden", rect=[10, 4, 13, 6], hp=5, profile=_PROFILE)
    wall = Terrain(name="Screen", rect=[0, 9, 30, 10], blocks_los=True)
    state = _state(hidden, wall, foe_at=(40.0, 40.0))
    with pytest.raises(RulesError, match="range and line of sight"):
        engine.check(state, Attack(0, (("Gun", terrain_target(state, "Hidden")),)))


def test_terrain_sight_measures_to_the_nearest_point_and_looks_past_corners() -> None:
    b = board(terrain=[DECK, STONE])
    seen = terrain_sight(b, "Deck", [((11.0, 20.0), 0.5), ((11.0, 13.0), 0.5)])
    assert seen.distances[0] == pytest.approx(5.5)
    assert seen.distances[1] == 0.0 and seen.seen == (True, True)
    # the stone wall (x 30-40, y 15-16) hides a piece right behind it from straight ahead
    behind = Terrain(name="Behind", rect=[34, 10, 36, 12], hp=3, profile=_PROFILE)
    b = board(terrain=[STONE, behind])
    assert terrain_sight(b, "Behind", [((35.0, 25.0), 0.5)]).seen == (False,)
    assert terrain_sight(b, "Behind", [((50.0, 14.0), 0.5)]).seen == (True,)  # from the side


def test_s10_3_a_destroyed_wall_no_longer_blocks_line_of_sight() -> None:
    state = _state(WALL, foe_at=(10.0, 5.0))
    shot = Attack(0, (("Gun", 1),))
    with pytest.raises(RulesError, match="line of sight"):
        engine.check(state, shot)
    engine.check(replace(state, terrain_hp=(("Wall", 0),)), shot)


def test_legal_actions_list_attacks_at_destructible_terrain_after_the_units() -> None:
    state = _state(DECK, STONE)
    attacks = [a for a in engine.legal_actions(state) if isinstance(a, Attack)]
    at_deck = Attack(0, (("Gun", terrain_target(state, "Deck")),))
    assert at_deck in attacks
    assert attacks[0].targets[0][1] == 1  # a unit first: the engine's first choice stays
    assert not any(a.targets[0][1] == terrain_target(state, "Stone") for a in attacks)


def test_state_codec_view_and_renders_show_terrain_hp(tmp_path: Path) -> None:
    ws = WarsurgeRuleset()
    rosters = [
        roster_to_data(load_game_roster(ROSTERS / f))
        for f in ("skirmish_a.yaml", "skirmish_b.yaml")
    ]
    hive = sample_board("hive_city_72x48")
    s = ws.setup(rosters, board_to_data(hive), {"max_turns": 6}, 3)
    game = replace(s.game, terrain_hp=(("Command bunker", 12), ("Comms relay", 0)))
    damaged = WarsurgeState(s.args, game)
    back = ws.states.load(json.loads(json.dumps(ws.states.dump(damaged))))
    assert back.game.terrain_hp == game.terrain_hp
    assert ws.digest(back) == ws.digest(damaged) != ws.digest(s)
    assert ws.view(damaged, 0)["terrain_hp"] == {"Command bunker": 12, "Comms relay": 0}
    assert "terrain_hp" not in ws.view(s, 0)
    text = render_state_text(game)
    assert "Command bunker:" in text and "HP left 12/30" in text
    assert "Comms relay: destroyed (§10.3)" in text
    svg = render_state_svg(game, tmp_path / "g.svg").read_text()
    assert "destroyed (§10.3)" in svg
    assert render_state_png(game, tmp_path / "g.png").stat().st_size > 0


def test_s10_2_control_is_shown_and_a_destroyed_piece_is_no_longer_held() -> None:
    # L4404-4407 control of terrain with a profile; Perks L95 Objectives; §10.3 a destroyed
    # piece has no profile left, but the Objective on its footprint is still held
    from warbench.rulesets.warsurge.game.terrain_control import control

    state = scenario(
        [[entry(unit("Troopers"))], [entry(unit("Raiders"))]],
        {0: [(61.5, 22.0)], 1: [(10.0, 44.0)]},
        b=sample_board("hive_city_72x48"),
    )
    held = {(h.kind, h.name): h for h in control(state)}
    assert held[("terrain", "Comms relay")].controller == 0
    assert held[("objective", "Relay")].controller == 0
    text = render_state_text(state)
    assert "Terrain Comms relay: held by P0" in text
    assert "Objective Relay: held by P0" in text
    gone = replace(state, terrain_hp=(("Comms relay", 0),))
    held = {(h.kind, h.name): h for h in control(gone)}
    assert ("terrain", "Comms relay") not in held
    assert held[("objective", "Relay")].controller == 0


def test_protocol_view_lists_control_on_a_board_with_something_to_hold() -> None:
    ws = WarsurgeRuleset()
    files = ("skirmish_a.yaml", "skirmish_b.yaml")
    rosters = [roster_to_data(load_game_roster(ROSTERS / f)) for f in files]
    s = ws.setup(rosters, board_to_data(sample_board("hive_city_72x48")), {}, 3)
    names = {c["name"] for c in ws.view(s, 0)["control"]}  # type: ignore[union-attr]
    assert {"Command bunker", "Comms relay", "Gantry", "Data cache", "Relay"} <= names
    plain = ws.setup(rosters, board_to_data(sample_board("open_field_42x32")), {}, 3)
    assert "control" not in ws.view(plain, 0)


def test_exact_odds_and_the_game_agree_on_an_attack_at_terrain() -> None:
    import math

    from warbench.rulesets.warsurge.game.attacks import verify_attack
    from warbench.rulesets.warsurge.game.terrain_attacks import terrain_attack_plan
    from warbench.rulesets.warsurge.game.work import Work
    from warbench.rulesets.warsurge.odds import exact_attack

    armoured = Terrain(
        name="Wall",
        rect=[5, 15, 25, 16],
        blocks_los=True,
        hp=40,
        profile={"unit": {"name": "Wall", "move": 0, "dash": 0, "defence": 8, "hp": 40,
                          "armour": "4+"}},
    )  # fmt: skip
    state = _state(armoured, foe_at=(10.0, 40.0))
    shot = Attack(0, (("Gun", terrain_target(state, "Wall")),))
    w = Work(state, None, engine.DEFAULT_HOOKS)
    wp = verify_attack(w, shot).weapons[0]
    odds = exact_attack(terrain_attack_plan(w, 0, wp))
    mean = odds.expected_hp_lost
    var = sum((k - mean) ** 2 * p for k, p in odds.hp_lost.items())
    assert 0 < mean < 12
    n = 300
    total = 0
    for seed in range(n):
        after, _ = engine.apply(replace(state, seed=seed), shot)
        total += 40 - (terrain_hp_left(after, "Wall") or 0)
    assert abs(total / n - mean) < 4 * math.sqrt(var / n) + 1e-9, (total / n, mean)
