"""Units inside a terrain piece when it is destroyed (001 §10.3 L4470-4472, with §6.6 L3412-3425).

"Units may be inside or on top of a terrain when it is destroyed. When this occurs, treat it as
per the Transport rules listed in Section 6.6. Units are unharmed". A unit inside the piece
(``Location.TERRAIN``) leaves it when the casualties are removed, as a destroyed Transport's
passengers do: the piece's footprint first, then rings around it; without
``Automation.MODEL_PLACEMENT`` its player places it (the decision ``survivors``).
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
import shapely

from warbench.kernel.dice import ScriptedDice, SeededDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.battlefield import Terrain
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack, Pass, Survivors
from warbench.rulesets.warsurge.game.codecs import _restore_from_json, _restore_to_json
from warbench.rulesets.warsurge.game.state import (
    ALL_AUTOMATIONS,
    Automation,
    GameState,
    Location,
    Phase,
)
from warbench.rulesets.warsurge.game.terrain import terrain_target
from warbench.rulesets.warsurge.game.wrecks import on_site, terrain_site

from .helpers import board, check_invariants, entry, scenario, unit, weapon

PLACING = ALL_AUTOMATIONS - {Automation.MODEL_PLACEMENT}
_PROFILE = {
    "unit": {"name": "Bunker", "move": 0, "dash": 0, "defence": 2, "hp": 2},
    "models": [{"count": 1}],
}
#: a 4" x 4" bunker with 2 HP and a Transport Capacity of 500 (the §10.2 example's)
BUNKER = Terrain(
    name="Bunker",
    rect=[20, 20, 24, 24],
    transport=500,
    blocks_los=True,
    hp=2,
    profile=_PROFILE,
)
GUN = weapon("Gun", range=24, attacks=4, power=10)


def _fallen(automation: frozenset[Automation], models: int = 3) -> GameState:
    """The Gunners (side 1) destroy the Bunker with the Legionaries (side 0) inside; both sides
    then pass to the end of the Attack Phase."""
    state = scenario(
        [
            [entry(unit("Legionaries", models=models), 100)],
            [entry(unit("Gunners", weapons=[GUN]), 100)],
        ],
        {0: [(22.0, 22.0)] * models, 1: [(22.0, 10.0)]},
        phase=Phase.ATTACK,
        active=1,
        b=board(terrain=[BUNKER]),
        automation=automation,
    )
    units = list(state.units)
    units[0] = replace(units[0], location=Location.TERRAIN, terrain="Bunker")
    state = replace(state, units=tuple(units))
    target = terrain_target(state, "Bunker")
    state, events = engine.apply(state, Attack(1, (("Gun", target),)), dice=ScriptedDice([6] * 8))
    gone = next(e for e in events if e.kind == "terrain_destroyed")
    assert gone.data["inside"] == [0] and "placed where it stood" in gone.text
    while state.restore is None and state.flow.phase is Phase.ATTACK:
        state, _ = engine.apply(state, Pass())
    return state


def _inside_piece(points: tuple[tuple[float, float], ...]) -> int:
    poly = shapely.Polygon(BUNKER.polygon)
    return sum(1 for p in points if shapely.contains_xy(poly, *p))


def test_s10_3_L4470_units_inside_destroyed_terrain_stand_where_it_stood_unharmed() -> None:
    done = _fallen(ALL_AUTOMATIONS)
    u = done.units[0]
    assert u.location is Location.TABLE and u.terrain is None
    assert u.hp == (1, 1, 1) and not any(u.removed)  # "Units are unharmed" (L4472)
    # §6.6 with L4471: the piece's footprint is filled first
    assert _inside_piece(u.pos) == 3
    check_invariants(done)


def test_s10_3_with_s6_6_a_unit_too_big_for_the_footprint_rings_around_it() -> None:
    done = _fallen(ALL_AUTOMATIONS, models=30)
    u = done.units[0]
    assert u.location is Location.TABLE
    inside = _inside_piece(u.pos)
    assert 10 <= inside < 30  # the 4" x 4" footprint filled, the surplus in rings around it
    check_invariants(done)


def test_s10_3_the_player_places_the_units_leaving_destroyed_terrain() -> None:
    waiting = _fallen(PLACING)
    p = waiting.restore
    assert p is not None and p.stage == "survivors" and p.units == (0,)
    assert p.wrecks[0].piece == "Bunker"
    assert engine.acting_side(waiting) == 0  # the Legionaries' player places them
    # the waiting placement survives the state codec (the piece is kept)
    seeded = replace(p, dice=SeededDice(1))
    back = _restore_from_json(json.loads(json.dumps(_restore_to_json(seeded))))
    assert back is not None and back.wrecks == p.wrecks
    default = engine.default_restore(waiting)
    assert isinstance(default, Survivors) and default.unit == 0 and default.lost == ()
    assert on_site(default.positions, p.wrecks[0]) == 3
    # the engine's own placement is the automated game, digest for digest
    done, events = engine.apply(waiting, default)
    assert done.digest() == _fallen(ALL_AUTOMATIONS).digest()
    assert events[0].kind == "survivors" and "ruins of Bunker" in events[0].text
    assert events[0].rule == "§10.3, §6.6"
    # another legal placement inside the footprint
    line = ((21.0, 21.0), (22.0, 21.0), (23.0, 21.0))
    chosen, _ = engine.apply(waiting, Survivors(0, line))
    assert chosen.units[0].pos == line and chosen.units[0].location is Location.TABLE
    check_invariants(chosen)
    # the footprint is filled first (L3415-3417): a placement all outside it is refused
    outside = ((21.0, 26.0), (22.0, 26.0), (23.0, 26.0))
    with pytest.raises(RulesError, match="fill the place where the Transport stood first"):
        engine.check(waiting, Survivors(0, outside))


def test_terrain_site_covers_the_footprint_middle_first() -> None:
    site, r = terrain_site(board(terrain=[BUNKER]), "Bunker")
    assert len(site) == 16 and site[0] in ((21.5, 21.5), (21.5, 22.5), (22.5, 21.5), (22.5, 22.5))
    assert r == pytest.approx(0.5**0.5)
