"""The Special Powers that change the battlefield, played in games (issue 16, session 25):
Battering Waves (L1033), Remove Earthen Barrier (L1189), Wall of Air (L1321), Wall of Fire
(L1327), Wall of Spewing Filth (L1333) of 004_f4ea5693af0644ce.txt (game/terrain.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from warbench.rulesets.warengine.game import setup as stp
from warbench.rulesets.warengine.game import terrain
from warbench.rulesets.warengine.game.attacks import can_reach
from warbench.rulesets.warengine.game.board import HEAVY, LIGHT, NO_COVER
from warbench.rulesets.warengine.game.measure import sees
from warbench.rulesets.warengine.game.state import (
    Activate,
    Attack,
    Deactivate,
    GameState,
    Hero,
    Move,
)

from .helpers import WS, act, activate, ctx_of, force, table, texts, trooper


def mage(power: str, rng: str = '12"') -> dict[str, Any]:
    return trooper(
        "Mage",
        weapons=[
            {"name": power, "range": rng, "av": "2k2", "power": power},
            {"name": "Rifle", "range": '24"', "av": "2k2"},
        ],
    )


def foe() -> dict[str, Any]:
    return trooper(
        "Foe",
        weapons=[
            {"name": "Rifle", "range": '24"', "av": "2k2"},
            {"name": "Terror", "range": '24"', "av": "2k2", "power": "Terror"},
        ],
    )


def game(
    power: str,
    *,
    friends: int = 0,
    at: list[tuple[float, float]] | None = None,
    terrain_: tuple[dict[str, Any], ...] = (),
    rng: str = '12"',
) -> GameState:
    """The Mage (figure 0, unit 0, with ``friends`` troopers) and a Foe at (10, 20) with a
    second Foe at (30, 5) (unit 1); the Mage's unit is active."""
    mine: list[tuple[dict[str, Any], int]] = [(mage(power, rng), 1)]
    if friends:
        mine.append((trooper(), friends))
    pos = [(10.0, 5.0), *(at or [])]
    s = table(
        force(("A", mine)),
        force(("B", [(foe(), 2)])),
        [*pos, (10.0, 20.0), (30.0, 5.0)],
        terrain=terrain_,
    )
    return activate(s, 0)


def cast(s: GameState, at: tuple[float, float] | None = None) -> tuple[GameState, str]:
    """The Mage uses its power (weapon 0) on itself, at ``at``: 6 + 6 succeeds (L830)."""
    s2, ev = act(s, Attack(0, 0, 0, at=at), 0, [6, 6])
    return s2, texts(ev)


def foes_turn(s: GameState) -> GameState:
    """The Mage's unit deactivates; the Foes' unit activates."""
    s, _ = act(s, Deactivate(), 0)
    s, _ = act(s, Activate(s.figs[-1].unit), 1)
    return s


# ------------------------------------------------------------------------- Wall of Air L1321


def test_wall_of_air_L1319_deflects_fire_and_stops_moves_not_sight_or_powers() -> None:
    s = game("Wall of Air")
    assert terrain.default_point(s, ctx_of(s), s.figs[0], ctx_of(s).profiles[0].weapons[0]) == (
        10.0,
        12.5,
    )  # the engine's wall: halfway to the nearest enemy
    assert "Wall of Air stands at (10, 12.5)" in cast(s)[1]
    walled, _ = cast(s, (10.0, 15.0))
    assert walled.setup_key == s.setup_key + "+A0@10,15/10,5"
    for state, wall in ((walled, True), (s, False)):
        t = foes_turn(state)
        ctx = ctx_of(t)
        shot = WS.check(t, Attack(1, 0, 0), 1)
        assert (shot is not None and "L1321" in shot.rule) == wall
        assert sees(t, ctx, t.figs[1], t.figs[0])  # sight is not blocked
        assert can_reach(t, ctx, t.figs[1], ctx.profiles[1].weapons[1], t.figs[0]) is None
        walk = WS.check(t, Move(1, 10.0, 14.0), 1)  # through the wall
        assert (walk is not None and "Wall of Air" in walk.reason) == wall
    # the Wall is 12" long: fire around its end still passes
    t = foes_turn(walled)
    assert WS.check(t, Attack(2, 0, 0), 1) is None


def test_wall_of_air_L1319_ends_when_its_user_moves_and_may_not_overlap_a_figure() -> None:
    s = game("Wall of Air", friends=1, at=[(10.0, 9.0)])
    why = WS.check(s, Attack(0, 0, 0, at=(10.0, 9.5)), 0)
    assert why is not None and "overlap Trooper #1" in why.reason and "L1321" in why.rule
    walled, _ = cast(s, (10.0, 12.0))
    assert "+A0@" in walled.setup_key
    moved, ev = act(walled, Move(0, 12.0, 5.0), 0)
    assert moved.setup_key == s.setup_key and "its user moved" in texts(ev)
    still, _ = act(walled, Move(1, 12.0, 9.0), 0)  # a friend's move does not end it
    assert still.setup_key == walled.setup_key


# ------------------------------------------------------------------------ Wall of Fire L1327


def test_wall_of_fire_L1325_blocks_sight_and_burns_a_figure_moving_through() -> None:
    s = game("Wall of Fire", friends=1, at=[(14.0, 10.0)])
    walled, _ = cast(s, (10.0, 12.5))
    ctx = ctx_of(walled)
    assert not sees(walled, ctx, walled.figs[2], walled.figs[0])  # L1327
    assert sees(s, ctx_of(s), s.figs[2], s.figs[0])
    # the friend walks through: 5k4 (6, 6, 6, 6, 1 keeps 24) against its 2k2 (1, 1)
    burnt, ev = act(walled, Move(1, 14.0, 15.5), 0, [6, 6, 6, 6, 1, 1, 1])
    while WS.pending(burnt)[0].kind == "hero":
        burnt, more = act(burnt, Hero(0), WS.pending(burnt)[0].player)
        ev += more
    assert "Wall of Fire #0 burns Trooper #1 moving through it: 24 against 2" in texts(ev)
    assert not burnt.figs[1].alive
    clear, ev = act(s, Move(1, 14.0, 15.5), 0, [6, 6, 6, 6, 1, 1, 1])
    assert clear.figs[1].alive and "burns" not in texts(ev)
    # a move that stays on one side is not attacked
    near, ev = act(walled, Move(1, 14.0, 11.0), 0, [])
    assert "burns" not in texts(ev) and near.figs[1].alive


def test_wall_of_fire_L1325_ends_when_its_user_fires_or_is_in_close_combat() -> None:
    s = game("Wall of Fire")
    walled, _ = cast(s, (10.0, 12.5))
    fired, ev = act(
        walled, Attack(0, 1, 2), 0, [1, 1, 1, 1, 6, 6, 6, 6]
    )  # the Rifle at the second Foe
    assert fired.setup_key == s.setup_key
    assert "ends (its user fires a ranged weapon)" in texts(ev)
    t = foes_turn(walled)
    assert "+F0@" in t.setup_key  # lasts into the enemy's activation
    t = t.clone()
    t.figs[2].x = 14.0  # 4" from the Mage
    charged, ev = act(t, Move(2, 11.0, 5.0, "charge"), 1)  # base contact with the Mage
    assert charged.setup_key == s.setup_key and "in close combat" in texts(ev)


# -------------------------------------------------------------- Wall of Spewing Filth L1333


def test_wall_of_spewing_filth_L1331_blocks_sight_until_the_follow_up_step() -> None:
    s = game("Wall of Spewing Filth")
    walled, _ = cast(s, (10.0, 12.5))
    p = terrain.walls(ctx_of(walled))[0][1]
    assert p.blocks and not p.impassable  # a 6"x2" marker that blocks sight
    assert not sees(walled, ctx_of(walled), walled.figs[1], walled.figs[0])
    moved, _ = act(walled, Move(0, 12.0, 5.0), 0)  # only the Follow Up step removes it
    assert moved.setup_key == walled.setup_key
    t = foes_turn(moved)
    assert not sees(t, ctx_of(t), t.figs[1], t.figs[0])
    t, ev = act(t, Deactivate(), 1)  # the last unit: the Follow Up step, turn 2
    assert t.turn == 2 and t.setup_key == s.setup_key
    assert "the Wall of Spewing Filth of #0 ends (the Follow Up step)" in texts(ev)


# ------------------------------------------------------------------ Battering Waves L1033

WALL = {"name": "Stone wall", "rect": [2, 12, 18, 13], "cover": 2}
HEDGE = {"name": "Hedge", "rect": [20, 12, 24, 13], "cover": 1}
FOXHOLE = {"name": "Foxhole", "rect": [28, 4, 32, 6], "cover": 3}


def test_battering_waves_L1031_reduces_cover_of_a_six_by_two_area() -> None:
    s = game("Battering Waves", rng='24"', terrain_=(WALL, HEDGE, FOXHOLE))
    ctx0 = ctx_of(s)
    assert ctx0.field.cover((10, 20), (10, 5))[0] == HEAVY
    waved, text = cast(s, (10.0, 12.5))
    assert "Battering Waves reduces Stone wall" in text
    ctx = ctx_of(waved)
    assert ctx.field.cover((10, 20), (10, 5)) == (LIGHT, "Stone wall (battered)")
    assert ctx.field.cover((4, 20), (4, 5)) == (HEAVY, "Stone wall")  # outside the 6" section
    # light cover is destroyed; entrenching becomes heavy (the whole piece: no bigger than 6x2)
    s2 = game("Battering Waves", rng='24"', terrain_=(WALL, HEDGE, FOXHOLE))
    hedged, _ = cast(s2, (22.0, 12.5))
    assert ctx_of(hedged).field.cover((22, 20), (22, 5))[0] == NO_COVER
    assert ctx_of(s2).field.cover((22, 20), (22, 5))[0] == LIGHT
    dug, _ = cast(s2, (30.0, 5.0))
    assert ctx_of(dug).field.cover((30, 20), (30, 5))[0] == HEAVY
    assert ctx_of(s2).field.cover((30, 20), (30, 5))[0] == 3
    # no cover-producing scenery at the point: refused
    why = WS.check(s, Attack(0, 0, 0, at=(40.0, 40.0)), 0)
    assert why is not None and "L1033" in why.rule


# ------------------------------------------------------------ Remove Earthen Barrier L1189

ROCKWALL = {
    "name": "Stone wall",
    "rect": [2, 17, 18, 18],
    "cover": 2,
    "blocks_los": True,
    "impassable": True,
}
FENCE = {"name": "Hedge", "rect": [20, 12, 24, 13], "cover": 1, "impassable": True}


def test_remove_earthen_barrier_L1187_opens_a_six_inch_gap_in_earthen_terrain_only() -> None:
    s = game("Remove Earthen Barrier", rng='24"', terrain_=(ROCKWALL, FENCE))
    gap, text = cast(s, (14.0, 17.5))  # a gap from x 11 to 17
    assert "Remove Earthen Barrier removes Stone wall" in text
    for state, opened in ((gap, True), (s, False)):
        t = foes_turn(state)
        ctx = ctx_of(t)
        assert ctx.field.sight((14, 25), (14, 5)) == opened
        assert not ctx.field.sight((8, 25), (8, 5))  # the rest of the wall stands
        walk = WS.check(t, Move(1, 13.0, 16.0), 1)
        assert (walk is None) == opened
        side = WS.check(t, Move(1, 7.0, 16.0), 1)
        assert side is not None and "Stone wall" in side.reason
    names = [p.name for p in ctx_of(gap).field.pieces]
    assert names == ["Stone wall", "Stone wall (2)", "Hedge"]
    why = WS.check(s, Attack(0, 0, 0, at=(22.0, 12.5)), 0)  # a hedge is not earthen
    assert why is not None and "earthen" in why.reason and "L1189" in why.rule


def test_remove_earthen_barrier_L1187_a_small_piece_goes_whole_leaving_its_footprint() -> None:
    rock = {"name": "Rock", "rect": [9, 12, 11, 13], "blocks_los": True, "impassable": True}
    s = game("Remove Earthen Barrier", rng='24"', terrain_=(rock,))
    gone, _ = cast(s, (10.0, 12.5))
    (p,) = ctx_of(gone).field.pieces  # the footprint keeps its name (objectives), no effect
    assert p.name == "Rock" and not p.blocks and not p.impassable and p.level == NO_COVER


# ----------------------------------------------------------- records, choices, defaults


def test_changed_boards_replay_and_load_without_the_derived_context() -> None:
    s = game("Wall of Fire")
    walled, _ = cast(s, (10.0, 12.5))
    data = WS.states.dump(walled)
    assert data["setup"] == WS.states.dump(s)["setup"]  # the set-up's own arguments
    terrain._DERIVED.pop(walled.setup_key)  # as in a fresh process
    stp._CONTEXTS.pop(s.setup_key)
    back = WS.states.load(data)
    assert WS.digest(back) == WS.digest(walled)
    assert not sees(back, ctx_of(back), back.figs[1], back.figs[0])
    again, _ = cast(s, (10.0, 12.5))
    assert WS.digest(again) == WS.digest(walled)


def test_the_wall_and_the_piece_are_choices_of_the_attack_with_the_engines_default() -> None:
    s = game("Wall of Air")
    listed = [a for a in WS.legal_actions(s, 0) if isinstance(a, Attack) and a.weapon == 0]
    assert Attack(0, 0, 0) in listed and len(listed) > 1  # the default, and named points
    assert all(a.at is None or WS.check(s, a, 0) is None for a in listed)
    far = WS.check(s, Attack(0, 0, 0, at=(10.0, 30.0)), 0)
    assert far is not None and "Range" in far.reason
    other = WS.check(s, Attack(0, 1, 2, at=(10.0, 12.0)), 0)  # a Rifle names no point
    assert other is not None
    s = game("Remove Earthen Barrier", rng='24"', terrain_=(ROCKWALL, FENCE))
    pts = [a.at for a in WS.legal_actions(s, 0) if isinstance(a, Attack) and a.weapon == 0]
    assert pts[0] is None and len(pts) == 2  # the stone wall only, not the hedge


#: Each power's game test, for test_we_game_effects.EFFECT_TESTS (which covers every power in
#: play).
TERRAIN_EFFECT_TESTS: dict[tuple[str, str], Callable[[], None]] = {
    ("power", "Battering Waves"): test_battering_waves_L1031_reduces_cover_of_a_six_by_two_area,
    (
        "power",
        "Remove Earthen Barrier",
    ): test_remove_earthen_barrier_L1187_opens_a_six_inch_gap_in_earthen_terrain_only,
    (
        "power",
        "Wall of Air",
    ): test_wall_of_air_L1319_deflects_fire_and_stops_moves_not_sight_or_powers,
    (
        "power",
        "Wall of Fire",
    ): test_wall_of_fire_L1325_blocks_sight_and_burns_a_figure_moving_through,
    (
        "power",
        "Wall of Spewing Filth",
    ): test_wall_of_spewing_filth_L1331_blocks_sight_until_the_follow_up_step,
}


def test_the_view_and_the_page_draw_the_changed_board() -> None:
    from warbench.web.play.warengine_scene import WarEnginePresenter

    s = game("Wall of Fire")
    walled, _ = cast(s, (10.0, 12.5))
    assert "board" not in WS.view(s, 0)  # an unchanged board: the view as before
    view = WS.views.dump(WS.view(walled, 1))
    assert [t["name"] for t in view["board"]["terrain"]] == ["Wall of Fire #0"]
    setup = ctx_of(s).args
    names = [
        a["name"]
        for a in (WarEnginePresenter().scene(setup, view) or {}).get("areas", [])
        if isinstance(a, dict) and a.get("kind") == "terrain"
    ]
    plain = WarEnginePresenter().scene(setup, WS.views.dump(WS.view(s, 1))) or {}
    assert names == ["Wall of Fire #0"] and not [
        a for a in plain.get("areas", []) if isinstance(a, dict) and a.get("kind") == "terrain"
    ]


def test_shove_L1217_the_engines_landing_is_never_on_a_friend() -> None:
    """Found by the long run with the Coven's Geomancer: Shove's default landing (6" straight
    away) fell on a friendly figure; now the figure stays where it was (docs/rulings.md)."""
    s = table(
        force(("A", [(mage("Shove"), 1), (trooper(), 2)])),
        force(("B", [(foe(), 1)])),
        [(10, 5), (10, 7.5), (10, 13.5), (30, 40)],
    )
    s = activate(s, 0)
    shoved, ev = act(s, Attack(0, 0, 1), 0, [6, 6] + [1] * 10)
    assert (shoved.figs[1].x, shoved.figs[1].y) == (10, 7.5), texts(ev)
    s.figs[2].x = 20.0  # room: flung 6" straight away
    shoved, _ = act(s, Attack(0, 0, 1), 0, [6, 6] + [1] * 10)
    assert (shoved.figs[1].x, shoved.figs[1].y) == (10, 13.5)


def test_wall_of_air_L1319_a_user_off_the_thousandths_grid_keeps_its_wall() -> None:
    s = game("Wall of Air")
    s.figs[0].x = 10.1234567  # the key keeps thousandths: this is not a move
    walled, _ = cast(s, (10.1234567, 12.5))
    assert "+A0@10.123,12.5/10.123,5" in walled.setup_key
    t, _ = act(walled, Deactivate(), 0)
    assert t.setup_key == walled.setup_key


def test_wall_of_fire_L1325_burns_once_on_the_way_in_not_again_on_the_way_out() -> None:
    s = game("Wall of Fire", friends=1, at=[(14.0, 10.0)])
    walled, _ = cast(s, (10.0, 12.5))
    into, ev = act(walled, Move(1, 14.0, 12.5), 0, [1, 1, 1, 1, 1, 6, 6])  # into the flames
    assert "burns Trooper #1" in texts(ev) and into.figs[1].alive
    _, ev = act(into, Move(1, 14.0, 14.0), 0, [])  # on out of it: no second attack
    assert "burns" not in texts(ev)
