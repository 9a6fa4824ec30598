"""The squad's approach (issue 15, session 34, ``ai.tactical_approach``): a melee unit takes
the way out of an enemy gun's sight, and one already in a gun's sight is not held back from
its Dash, on constructed states. Core Rules 001_d3f5e425c5e1196d.txt; each test fails with
``TacticalBot(squad_approach=False)``."""

from __future__ import annotations

from tests.warsurge.game.helpers import board, entry, scenario, unit, weapon
from warbench.ai.tactical import TacticalBot
from warbench.ai.tactical_approach import hidden_first, runs_when_seen
from warbench.rulesets.warsurge.battlefield import Terrain
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Move, Pass
from warbench.rulesets.warsurge.game.state import GameState, Phase


def _approach_state(phase: Phase = Phase.MOVE) -> GameState:
    """Side 0 to act: its Blades (uid 0: Move and Dash 6", melee only) at (9.5, 6) west of a
    tall wall (x 13-15, y 3-24: blocks sight, impassable, §5.4); an enemy Gunner (uid 1: Move
    12", Range 30") at (40, 1), east of it. The cheapest way to the Gunner runs round the
    wall's south end, in the Gunner's sight; a step north-east along the wall makes about half
    that progress and stays behind it."""
    wall = Terrain(
        name="Wall",
        polygon=[(13, 3), (15, 3), (15, 24), (13, 24)],
        blocks_los=True,
        impassable=True,
    )
    blades = unit("Blades", models=2, weapons=[weapon("Blade", range=0, attacks=3, power=5)])
    gunner = unit("Gunner", move=12, weapons=[weapon("Cannon", range=30, attacks=3, power=6)])
    return scenario(
        [[entry(blades)], [entry(gunner)]],
        {0: [(9.0, 6.0), (10.0, 6.0)], 1: [(40.0, 1.0)]},
        phase=phase,
        b=board(terrain=[wall]),
    )


def test_hidden_first_orders_the_ways_with_half_the_progress_by_exposure() -> None:
    """Progress is the path's cost where the unit stands (``here``) less where a move ends;
    moves with less than half the best progress keep their place after the others."""
    cost = {"a": 4.0, "b": 6.0, "c": 8.5, "d": 7.0}
    seen = {"a": 50.0, "b": 0.0, "c": 0.0, "d": 50.0}
    out = hidden_first(["a", "d", "b", "c"], cost, 10.0, seen.__getitem__)
    assert out == ["b", "a", "d", "c"]  # c gains 1.5 of the best 6: below half
    assert hidden_first(["a", "b"], cost, 3.0, seen.__getitem__) == ["a", "b"]  # no progress
    assert runs_when_seen(0.1) and not runs_when_seen(0.0)


def test_a_melee_unit_takes_the_way_out_of_the_guns_sight() -> None:
    """§5.4-5.5, §4.3: the Blades step along the wall, out of the Gunner's sight, instead of
    rounding its end into the open (the planner's best progress, 2.3" more); switched off
    they take the open way. (Session 29's reserve, ``trade_up``, is off: a Melee with the
    Gunner would spend the Blades, and that habit keeps them back.)"""
    state = _approach_state()
    on = TacticalBot(trade_up=False, squad_approach=True).choose(state)
    off = TacticalBot(trade_up=False, squad_approach=False).choose(state)
    probe = TacticalBot()
    assert isinstance(on, Move) and on.unit == 0 and not on.dash
    assert isinstance(off, Move) and off.unit == 0 and not off.dash
    assert probe._exposure_after(state, 0, on) == 0.0
    assert probe._exposure_after(state, 0, off) > 0.0
    assert on.to is not None and on.to[1] > 4.0  # north of the wall's south end


def test_a_melee_unit_in_a_guns_sight_does_not_stand_to_be_shot() -> None:
    """§5.6, §2.2 (Dash Phase): the Blades stand in a wood (a Cover Area) 26" from the Gunner,
    which sees them there with a Cover Bonus; every Dash toward it ends in the open, more
    exposed and still beyond their Move of it (no charge next Game Turn). The sixth
    session's rule holds them in the wood, under the same gun; with the habit they run."""
    wood = Terrain(name="Wood", polygon=[(16, 16), (24, 16), (24, 23), (16, 23)], cover_area=True)
    blades = unit("Blades", models=2, weapons=[weapon("Blade", range=0, attacks=3, power=5)])
    gunner = unit("Gunner", move=12, weapons=[weapon("Cannon", range=30, attacks=3, power=6)])
    state = scenario(
        [[entry(blades)], [entry(gunner)]],
        {0: [(19.5, 20.0), (20.5, 20.0)], 1: [(20.0, 46.0)]},
        phase=Phase.DASH,
        b=board(terrain=[wood]),
    )
    probe = TacticalBot()
    here = probe._exposure(engine.legal_actions(state)._work, 0)
    assert here > 0.0
    on = TacticalBot(trade_up=False, squad_approach=True).choose(state)
    off = TacticalBot(trade_up=False, squad_approach=False).choose(state)
    assert isinstance(off, Pass)
    assert isinstance(on, Move) and on.unit == 0 and on.dash
    assert probe._exposure_after(state, 0, on) > here
