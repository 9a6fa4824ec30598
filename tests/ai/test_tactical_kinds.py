"""The tactical player's habit for armies of one or two units (issue 15, session 30,
``ai.tactical_kinds``, switch ``TacticalBot.few_units_reach``) on constructed states: each test
fails with the switch off. Core Rules 001_d3f5e425c5e1196d.txt: casualties are removed at the
end of the Attack Phase (L2872), so both sides fire in it; only the models within Range attack
(L851-860 step II)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from tests.ai.test_tactical_reach import _front_gap, _line_and_column, stops_at_the_edge
from tests.warsurge.game.helpers import entry, scenario, unit, weapon
from warbench.ai.tactical import TacticalBot
from warbench.ai.tactical_kinds import SMALL_ARMY, small_army
from warbench.ai.tactical_reach import incoming, outgoing, still_to_move
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Move, Pass
from warbench.rulesets.warsurge.game.state import GameState, Phase
from warbench.rulesets.warsurge.game.work import Work


def _work(state: GameState) -> Work:
    return engine.legal_actions(state)._work


def _exchange(state: GameState, bot: TacticalBot, before: Work) -> float:
    """What unit 0 is expected to take off the enemy less what the enemy is expected to take
    off it, where it stands in ``state`` (the enemy's Move as in ``before``)."""
    w = Work(state, None, before.hooks)
    return outgoing(w, 0, bot._dist, bot._covered) - incoming(
        w, 0, bot._dist, still_to_move(before, 0)
    )


def _with_spares(state: GameState, spares: int) -> GameState:
    """``state`` (one unit a side) with ``spares`` more units for side 0, far in the west,
    that have already acted this phase (so unit 0 is the one to move)."""
    rifle = weapon("Rifle", range=24, attacks=2, power=4)
    ours = unit("Line", models=4, weapons=[rifle])
    theirs = unit("Column", models=8, weapons=[rifle])
    spare = unit("Spare", models=1, weapons=[rifle])
    w = _work(state)
    where: dict[int, Sequence[tuple[float, float]]] = {
        0: [(float(x), float(y)) for x, y in w.xy(0)]
    }
    rows = [entry(ours)] + [entry(spare) for _ in range(spares)]
    for k in range(spares):
        where[1 + k] = [(1.0, 40.0 + 2.0 * k)]
    where[1 + spares] = [(float(x), float(y)) for x, y in w.xy(1)]
    out = scenario([rows, [entry(theirs)]], where, phase=Phase.MOVE)
    units = [replace(u, acted=u.uid != 0) for u in out.units]
    return replace(out, units=tuple(units))


def test_a_one_unit_army_backs_off_to_the_better_spot_at_the_default_level_L2872() -> None:
    """One unit a side, the line 16" from the column's front (all four of its models reach,
    five of the column's eight reach back): the default level used to stand and shoot; an
    army of one unit now steps where the expected exchange is better (toward the edge of its
    Range, where fewer of the column reach it). Switched off, it stands (Pass)."""
    state = _line_and_column(16.0)
    w = _work(state)
    bot = TacticalBot()
    move = bot.choose(state)
    assert isinstance(move, Move) and move.unit == 0
    after, _ = engine.apply(state, move)
    assert _exchange(after, bot, w) > _exchange(state, bot, w) + 0.5
    assert 19.0 < _front_gap(after) <= 24.0 + 1e-6
    assert isinstance(TacticalBot(few_units_reach=False).choose(state), Pass)


def test_a_one_unit_army_coming_into_range_stops_at_its_edge_L851() -> None:
    """The line 28" from the column, out of Range: a full 6" move along its path ends 22"
    away, where five of the column reach it; the one-unit army stops with its nearest
    models just inside 24" (its four reach, the column's front one does). Switched off, it
    walks the full move."""
    stops_at_the_edge(_line_and_column(28.0), TacticalBot(), TacticalBot(few_units_reach=False))


def test_two_units_are_a_small_army_three_are_not() -> None:
    """The habit is for rosters of at most ``SMALL_ARMY`` (2) units: with one spare unit the
    line still backs off; with two spares (three units, as the skirmish rosters of the
    ladder) it stands and shoots as the default level always did."""
    assert SMALL_ARMY == 2
    two = _with_spares(_line_and_column(16.0), 1)
    three = _with_spares(_line_and_column(16.0), 2)
    assert small_army(_work(two), 0) and not small_army(_work(three), 0)
    assert small_army(_work(three), 1)  # the enemy's one unit
    moved = TacticalBot().choose(two)
    assert isinstance(moved, Move) and moved.unit == 0
    assert isinstance(TacticalBot().choose(three), Pass)


def test_the_count_is_the_rosters_not_the_units_left() -> None:
    """A three-unit army that has lost two units is still not a small army (its units are
    counted as set up), so its play does not change in the middle of a game."""
    three = _with_spares(_line_and_column(16.0), 2)
    units = list(three.units)
    for k in (1, 2):
        units[k] = replace(units[k], removed=tuple(True for _ in units[k].removed))
    lost = replace(three, units=tuple(units))
    assert not small_army(_work(lost), 0)


def _behind_a_wall(ours: int, theirs: int) -> GameState:
    """Move Phase, side 0 to act: its Riflemen (uid 0: four models of 1 HP, Move 6", Range
    24", worth ``ours`` points) stand in the open at x 20-23, y 12, south-east of a tall wall
    (x 8-18, y 17-19: blocks sight, impassable); an enemy unit of eight models of 2 HP with
    heavier, longer rifles (Range 36", uid 1, worth ``theirs``) stands 16" north at x 9.5-16.5,
    having moved this phase. It sees the Riflemen where they stand; 6" west, behind the
    wall, it does not."""
    from tests.warsurge.game.helpers import board
    from warbench.rulesets.warsurge.battlefield import Terrain

    wall = Terrain(
        name="Wall",
        polygon=[(8, 17), (18, 17), (18, 19), (8, 19)],
        blocks_los=True,
        impassable=True,
    )
    rifle = weapon("Rifle", range=24, attacks=2, power=4)
    heavy = weapon("Long Rifle", range=36, attacks=3, power=5)
    state = scenario(
        [
            [entry(unit("Line", models=4, weapons=[rifle]), points=ours)],
            [entry(unit("Mob", models=8, hp=2, weapons=[heavy]), points=theirs)],
        ],
        {
            0: [(20.0 + 1.0 * k, 12.0) for k in range(4)],
            1: [(9.5 + 1.0 * k, 28.0) for k in range(8)],
        },
        phase=Phase.MOVE,
        b=board(terrain=[wall]),
    )
    units = list(state.units)
    units[1] = replace(units[1], acted=True)
    return replace(state, units=tuple(units))


def test_level_a_small_army_hides_from_an_exchange_that_goes_against_it() -> None:
    """Level on points (400 each), the eight heavier rifles out-shoot the four: the
    exchange where the Riflemen stand is expected to go against them, so the fire position
    is the spot behind the wall (out of sight: nothing taken either way, §5.5). Switched
    off, the default level stands and shoots (Pass)."""
    state = _behind_a_wall(400, 400)
    w = _work(state)
    bot = TacticalBot()
    assert outgoing(w, 0, bot._dist, bot._covered) > 0.0
    move = bot.choose(state)
    assert isinstance(move, Move) and move.unit == 0
    after, _ = engine.apply(state, move)
    wa = Work(after, None, w.hooks)
    assert outgoing(wa, 0, bot._dist, bot._covered) == 0.0  # out of the exchange
    assert isinstance(TacticalBot(few_units_reach=False).choose(state), Pass)
