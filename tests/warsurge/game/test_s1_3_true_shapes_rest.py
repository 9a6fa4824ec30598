"""The rest of the game measured with the true outline of oval and rectangular bases and hulls
(Core Rules 001_d3f5e425c5e1196d.txt §1.3 L249-255; rulings "WARSURGE bases in play: session
26" 4, session 27): the engine's own placement, heights and climbing, embarking terrain and
Cover Areas, the Wreckage and Horrific checks of a Move, and the slides of Upheaval and
Displace. Each test builds a state where the circle that covers the hull (the measure before
session 27) and the hull itself give different answers, and asserts the hull's."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.battlefield.model import Terrain
from warbench.rulesets.warsurge.game import bases_ground, engine
from warbench.rulesets.warsurge.game.actions import Deploy, EmbarkTerrain, Move
from warbench.rulesets.warsurge.game.deployment import (
    verify_deploy,
    vertical_coherency_at_deployment,
)
from warbench.rulesets.warsurge.game.horrific_limit import HORRIFIC
from warbench.rulesets.warsurge.game.perk_counter import _run
from warbench.rulesets.warsurge.game.perk_displace import slide
from warbench.rulesets.warsurge.game.perk_wreckage import WRECKAGE
from warbench.rulesets.warsurge.game.players import ScriptedPlayer
from warbench.rulesets.warsurge.game.state import (
    WRECKED,
    GameState,
    Location,
    Phase,
    RosterEntry,
    Status,
)
from warbench.rulesets.warsurge.game.targeting import TargetView, view_target
from warbench.rulesets.warsurge.game.terrain_split import split_problem
from warbench.rulesets.warsurge.game.work import Work

from .helpers import board, entry, scenario, unit, weapon
from .test_s1_3_bases_in_game import HALF_L, HALF_W, HULL, TANK_AT, game, tank, troop, work

#: a round base as wide as the circle that covers the hull (the measure before)
COVERING_MM = 2 * HULL.radius * 25.4

# ---------------------------------------------------------------- the engine's own placement


def test_s3_6_L693_the_engine_deploys_the_hull_where_only_its_outline_fits() -> None:
    # zones 4.2" deep; the tank faces north, its 3.94" length across the zone's depth: the
    # hull fits, the circle that covers it (4.61" across) does not
    state = scenario([[tank()], [troop()]], {1: [(24.0, 46.0)]}, b=board(depth=4.2))
    assert 2 * HULL.radius > 4.2 > 2 * HALF_L
    w = work(state)
    plan = verify_deploy(w, Deploy(0))
    (p,) = plan.positions
    assert bases_ground.zone_holds(w, 0, 0, [p], [90.0]).all()
    assert HALF_L - 1e-6 <= p[1] <= 4.2 - HALF_L + 1e-6
    # a round base as wide as the covering circle has no room: it stays in Reserve
    disc = scenario([[tank(None, COVERING_MM)], [troop()]], {1: [(24.0, 46.0)]}, b=board(depth=4.2))
    with pytest.raises(RulesError, match="not enough room"):
        verify_deploy(work(disc), Deploy(0))


# ------------------------------------------------------ heights and climbing (§4.1, §4.2 III)


def _gantry(level: float, x0: float = 21.0) -> Terrain:
    """A raised deck east of the tank's way north (its west edge ``x0``)."""
    return Terrain(name="Gantry", polygon=[(x0, 24), (30, 24), (30, 30), (x0, 30)], level=level)


def test_s4_1_L1918_a_hull_whose_outline_is_on_the_gantry_climbs_to_it() -> None:
    # the hull (1.18" each way along x) moved 6" north to x 20 overlaps the deck from x 21 by
    # 0.18": it stands on it, 3" up, and the 6" across and 3" up are more than its Move of 8"
    b = board(terrain=[_gantry(3.0)])
    state = game(tank(), [(40.0, 44.0)], b=b)
    w = work(state)
    with pytest.raises(RulesError, match="climb"):
        engine.apply(state, Move(0, positions=((20.0, 26.0),)))
    assert bases_ground.heights(w, 0, [(20.0, 26.0)], [0]).tolist() == [3.0]
    # 0.3" farther west the hull is clear of the deck (its covering circle is not): no climb
    after, _ = engine.apply(state, Move(0, positions=((19.7, 26.0),)))
    assert after.units[0].pos == ((19.7, 26.0),)
    assert bases_ground.heights(w, 0, [(19.7, 26.0)], [0]).tolist() == [0.0]


def test_s4_2_III_L1918_vertical_coherency_with_the_hulls_on_their_floors() -> None:
    # two hulls deployed side by side 0.5" apart; a deck 7" up holds 0.18" of the eastern
    # one's long side (its centre off the deck): 7" above its neighbour, out of Coherency
    pair = RosterEntry(unit("Tanks", models=2, move=8, dash=8), 200, 25.4, base=HULL)
    west, east = (20.0, 20.0), (20.0 + 2 * HALF_W + 0.5, 20.0)
    edge = east[0] + HALF_W - 0.18
    deck = Terrain(name="Deck", polygon=[(edge, 15), (30, 15), (30, 25), (edge, 25)], level=7.0)
    state = scenario([[pair], [troop()]], {1: [(40.0, 44.0)]}, b=board(terrain=[deck]))
    w = work(state)
    why = vertical_coherency_at_deployment(w, 0, [west, east])
    assert why is not None and why[1] == "§4.2 III"
    assert bases_ground.heights(w, 0, [west, east], [0, 1]).tolist() == [0.0, 7.0]
    # 0.3" farther west both stand on the board: in Coherency
    assert vertical_coherency_at_deployment(w, 0, [(19.7, 20.0), (east[0] - 0.3, 20.0)]) is None


# ------------------------------------------------------ embarking terrain, Cover Areas (§10)


def test_s10_2_L4383_the_hull_embarks_terrain_within_its_move_of_its_outline() -> None:
    # the bunker's west edge 8.5" from the hull's long side, 7.38" from its covering circle:
    # the tank's Move of 8" does not reach it
    edge = TANK_AT[0] + HALF_W + 8.5
    bunker = Terrain(
        name="Bunker", polygon=[(edge, 16), (edge + 6, 16), (edge + 6, 24), (edge, 24)],
        transport=1000,
    )  # fmt: skip
    state = game(tank(), [(40.0, 44.0)], b=board(terrain=[bunker]))
    with pytest.raises(RulesError, match=r'8\.5" away'):
        engine.apply(state, EmbarkTerrain(0, "Bunker"))
    # the round base as wide as the covering circle reaches it
    disc = game(tank(None, COVERING_MM), [(40.0, 44.0)], b=board(terrain=[bunker]))
    after, _ = engine.apply(disc, EmbarkTerrain(0, "Bunker"))
    assert after.units[0].terrain == "Bunker"
    # 0.6" nearer, the hull is 7.9" from it and goes in
    near = replace(state, units=(replace(state.units[0], pos=((20.6, 20.0),)), *state.units[1:]))
    after, _ = engine.apply(near, EmbarkTerrain(0, "Bunker"))
    assert after.units[0].terrain == "Bunker"


def test_s5_6_L2521_a_hull_is_in_a_cover_area_with_half_its_outline_in_it() -> None:
    # the wood's corner 0.1" south-west of the tank's centre: its centre is in the wood (the
    # rule of round bases), 29% of its hull is
    wood = Terrain(
        name="Wood", polygon=[(19.9, 19.9), (30, 19.9), (30, 30), (19.9, 30)], cover_area=True
    )
    foe = [(34.0, 10.0)]
    hull = view_target(
        work(game(tank(), foe, phase=Phase.ATTACK, b=board(terrain=[wood]), active=1)), 1, 0
    )
    disc = view_target(
        work(
            game(
                tank(None, COVERING_MM), foe, phase=Phase.ATTACK, b=board(terrain=[wood]), active=1
            )
        ),
        1,
        0,
    )
    assert hull.visible and disc.visible
    assert hull.cover == 0 and disc.cover == 1
    # wholly in the wood, the hull is in the Cover Area
    deep = Terrain(name="Wood", polygon=[(18, 17), (30, 17), (30, 30), (18, 30)], cover_area=True)
    inside = view_target(
        work(game(tank(), foe, phase=Phase.ATTACK, b=board(terrain=[deep]), active=1)), 1, 0
    )
    assert inside.cover == 1


# --------------------------------------------------- Wreckage and Horrific on a Move (Perks)


def _with_status(state: GameState, uid: int, status: Status) -> GameState:
    units = list(state.units)
    units[uid] = replace(units[uid], statuses=(status,))
    return replace(state, units=tuple(units))


def _wreck_at(x: float, tank_entry: RosterEntry | None = None) -> GameState:
    wreck = entry(unit("Wreck", perks=["Wreckage"]))
    state = scenario(
        [[tank_entry or tank()], [wreck, troop()]],
        {0: [TANK_AT], 1: [(x, 24.0)], 2: [(40.0, 44.0)]},
    )
    return _with_status(state, 1, Status(WRECKED, None, WRECKAGE))


def test_wreckage_L1448_difficult_only_where_the_hull_passes_over_the_wreck() -> None:
    # the wreck (1" across) 0.3" east of the hull's way north, inside its covering circle's
    to = Move(0, positions=((20.0, 27.0),))  # 7" of its 8"
    beside = TANK_AT[0] + HALF_W + 0.3 + 0.5
    after, _ = engine.apply(_wreck_at(beside), to)
    assert after.units[0].pos == ((20.0, 27.0),)
    with pytest.raises(RulesError, match="halved by Difficult Ground"):
        engine.apply(_wreck_at(beside, tank(None, COVERING_MM)), to)
    # 0.5" nearer, the hull passes over it: Difficult Ground halves the Move
    with pytest.raises(RulesError, match="halved by Difficult Ground"):
        engine.apply(_wreck_at(beside - 0.5), to)


def _horrified(x: float, tank_entry: RosterEntry | None = None) -> GameState:
    state = scenario([[tank_entry or tank()], [troop()]], {0: [TANK_AT], 1: [(x, 24.0)]})
    return _with_status(state, 0, Status(f"{HORRIFIC}@1", 1, f"u1/{HORRIFIC}"))


def test_horrific_L767_halves_the_move_within_12_of_the_hull_not_its_covering_circle() -> None:
    # the Horror 12.3" east of the hull's way north, 11.18" from its covering circle's
    to = Move(0, positions=((20.0, 27.0),))  # 7" of its 8"
    far = TANK_AT[0] + HALF_W + 12.3 + 0.5
    after, _ = engine.apply(_horrified(far), to)
    assert after.units[0].pos == ((20.0, 27.0),)
    with pytest.raises(RulesError, match="halved by Horrific"):
        engine.apply(_horrified(far, tank(None, COVERING_MM)), to)
    with pytest.raises(RulesError, match="halved by Horrific"):
        engine.apply(_horrified(far - 0.4), to)  # 11.9" from the hull


# ------------------------------------------ the slides of Upheaval and Displace (Perks §12.5)

EAST = np.asarray([1.0, 0.0])


def _slid(
    x: float, tank_entry: RosterEntry | None = None, terrain: list[Terrain] | None = None
) -> Work:
    return work(
        scenario(
            [[tank_entry or tank()], [troop()]],
            {0: [(x, 20.0)], 1: [(10.0, 44.0)]},
            b=board(terrain=terrain or []),
        )
    )


def test_knockback_L3917_stops_1_from_impassable_ground_by_the_hull() -> None:
    # a wall from x 44.5: the hull's long side (1.18" east of its centre at x 40) stops 1"
    # short of it after 2.32", the covering circle after 1.20"
    wall = Terrain(
        name="Wall", polygon=[(44.5, 10), (45.5, 10), (45.5, 30), (44.5, 30)], impassable=True
    )
    hull = slide(_slid(40.0, terrain=[wall]), 0, EAST, 6.0, 1.0)
    assert hull.terrain and hull.distance == pytest.approx(44.5 - 1.0 - 40.0 - HALF_W, abs=0.01)
    disc = slide(_slid(40.0, tank(None, COVERING_MM), [wall]), 0, EAST, 6.0, 1.0)
    assert disc.distance == pytest.approx(44.5 - 1.0 - 40.0 - HULL.radius, abs=0.01)


def test_knockback_L3917_stops_at_the_board_edge_by_the_hull() -> None:
    # the east edge at x 48: the hull reaches it after 2.82", its covering circle after 1.70"
    hull = slide(_slid(44.0), 0, EAST, 6.0, 1.0)
    assert hull.edge and hull.distance == pytest.approx(48.0 - 44.0 - HALF_W, abs=0.01)
    disc = slide(_slid(44.0, tank(None, COVERING_MM)), 0, EAST, 6.0, 1.0)
    assert disc.distance == pytest.approx(48.0 - 44.0 - HULL.radius, abs=0.01)


def test_upheaval_L3216_the_relocation_runs_into_the_board_edge_by_the_hull() -> None:
    gone, into = _run(_slid(44.0), 0, EAST, 6.0)
    assert into == -1 and 48.0 - 44.0 - HALF_W - 0.04 <= gone <= 48.0 - 44.0 - HALF_W
    gone, into = _run(_slid(44.0, tank(None, COVERING_MM)), 0, EAST, 6.0)
    assert into == -1 and gone <= 48.0 - 44.0 - HULL.radius


def test_s10_2_L4460_a_split_unit_on_hulls_keeps_its_outlines_apart_and_near_its_piece() -> None:
    # a Transport piece holds model 0; models 1 and 2 stay outside, side by side 0.4" apart
    # (their covering circles overlap) and 1.83" from the piece (their circles 1.5" nearer)
    post = Terrain(name="Post", polygon=[(18, 24), (30, 24), (30, 30), (18, 30)], transport=1000)
    trio = RosterEntry(unit("Tanks", models=3, move=8, dash=8), 300, 25.4, base=HULL)
    one, two = (20.0, 20.2), (20.0 + 2 * HALF_W + 0.4, 20.2)
    state = scenario(
        [[trio], [troop()]], {0: [(24.0, 27.0), one, (26.0, 20.2)], 1: [(10.0, 44.0)]},
        b=board(terrain=[post]),
    )  # fmt: skip
    units = list(state.units)
    units[0] = replace(units[0], terrain="Post", inside=(0,))
    w = work(replace(state, units=tuple(units)))
    assert split_problem(w, 0, [two], [2]) is None
    # 0.5" nearer each other the hulls overlap
    near = (two[0] - 0.5, two[1])
    assert split_problem(w, 0, [near], [2]) == (
        f"models of {w.label(0)} would overlap each other",
        "§1.3",
    )
    # both 0.3" farther south, the hulls are 2.13" from the piece: out of Coherency with it
    assert split_problem(w, 0, [(two[0], 19.9)], [2]) is None
    far = [(one[0], 19.9), (two[0], 19.9)]
    assert split_problem(w, 0, far, [1, 2]) is not None


# ------------------------------------------------------------ the scripted player turns hulls


def test_s1_3_the_scripted_player_turns_a_hull_to_face_its_advance() -> None:
    # the tank faces north; the enemy is 20" due east, out of its Cannon's reach: it advances
    # east and turns to face that way (its narrow end toward the enemy)
    state = game(tank(), [(40.0, 20.0)])
    move = ScriptedPlayer().choose(state)
    assert isinstance(move, Move) and move.facing == 0.0
    after, _ = engine.apply(state, move)
    assert after.units[0].facing == (0.0,) and after.units[0].pos[0][0] > TANK_AT[0]
    assert after.units[0].pos[0][0] - TANK_AT[0] < 8.0  # the turn cost some of its 8"
    # facing its way already, it does not turn; a round base never does
    east = replace(state.units[0], facing=(0.0,))
    again = ScriptedPlayer().choose(replace(state, units=(east, *state.units[1:])))
    assert isinstance(again, Move) and again.facing is None
    disc = ScriptedPlayer().choose(game(tank(None, COVERING_MM), [(40.0, 20.0)]))
    assert isinstance(disc, Move) and disc.facing is None


def test_s6_7_L3458_fire_points_range_from_the_piece_to_the_hull() -> None:
    # Troopers inside a Bunker with a Fire Point, 10" Guns; the hull's long side 10.3" from
    # the Bunker's edge (its covering circle 9.18"): out of range
    edge = TANK_AT[0] + HALF_W + 10.3
    bunker = Terrain(
        name="Bunker", polygon=[(edge, 16), (edge + 6, 16), (edge + 6, 24), (edge, 24)],
        transport=1000, fire_points=1,
    )  # fmt: skip
    gunners = entry(unit("Gunners", weapons=[weapon("Gun", range=10)]))

    def view(tank_entry: RosterEntry, x: float = TANK_AT[0]) -> TargetView:
        state = scenario(
            [[tank_entry], [gunners]], {0: [(x, 20.0)], 1: [(edge + 3, 20.0)]},
            phase=Phase.ATTACK, active=1, b=board(terrain=[bunker]),
        )  # fmt: skip
        units = list(state.units)
        units[1] = replace(units[1], location=Location.TERRAIN, terrain="Bunker")
        return view_target(work(replace(state, units=tuple(units))), 1, 0)

    assert not view(tank()).users_in_range
    assert view(tank(None, COVERING_MM)).users_in_range
    assert view(tank(), TANK_AT[0] + 0.4).users_in_range  # 9.9" from the hull


def test_s2_1_the_perks_placements_keep_the_hull_on_the_board_by_its_outline() -> None:
    # Invade, Ambush, Nexus and Nightmare ask it: a hull 1.3" from the west edge is on the
    # board (its covering circle is not)
    w = work(game(tank(), [(40.0, 40.0)]))
    assert bases_ground.model_on_board(w, 0, 0, (1.3, 20.0))
    assert not w.field.on_board((1.3, 20.0), HULL.radius)
    assert not bases_ground.model_on_board(w, 0, 0, (1.1, 20.0))


def test_s10_2_L4466_a_split_hull_unit_fires_from_its_piece_on_a_board_with_levels() -> None:
    """Regression (the long run of session 27): the models of a split unit on hulls inside a
    piece with Fire Points fire from the piece's points (L4466-4468), not from their hulls;
    the heights of sight (L2360) took the hulls' outlines for the piece's points."""
    post = Terrain(
        name="Post", polygon=[(18, 24), (30, 24), (30, 30), (18, 30)], transport=1000,
        fire_points=1,
    )  # fmt: skip
    gantry = Terrain(name="Gantry", polygon=[(2, 2), (6, 2), (6, 6), (2, 6)], level=3.0)
    trio = RosterEntry(
        unit("Tanks", models=3, move=8, dash=8, weapons=[weapon("Gun", range=12)]), 300, 25.4,
        base=HULL,
    )  # fmt: skip
    state = scenario(
        [[trio], [troop()]], {0: [(24.0, 27.0), (20.0, 20.2), (23.0, 20.2)], 1: [(24.0, 38.0)]},
        phase=Phase.ATTACK, b=board(terrain=[post, gantry]),
    )  # fmt: skip
    units = list(state.units)
    units[0] = replace(units[0], terrain="Post", inside=(0,))
    view = view_target(work(replace(state, units=tuple(units))), 0, 1)
    assert view.visible and view.users_in_range


def test_s1_3_the_tactical_bot_turns_a_hull_to_face_its_advance() -> None:
    from warbench.ai.tactical import TacticalBot

    state = game(tank(), [(40.0, 20.0)])
    move = TacticalBot().choose(state)
    assert isinstance(move, Move) and move.facing == 0.0
    disc = TacticalBot().choose(game(tank(None, COVERING_MM), [(40.0, 20.0)]))
    assert isinstance(disc, Move) and disc.facing is None
