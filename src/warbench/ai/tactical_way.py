"""A habit of the ``tactical`` player added in session 37 (issue 15: the Assault Squad's way
to the Car; switch ``TacticalBot.make_way``).

**The shooters make way for the side's melee unit.** A model may not move through another
model's base (the engine's placement check, Core Rules 001_d3f5e425c5e1196d.txt §4.1), and the
player plans a melee unit's path round the terrain only (``ai.navigate``), so a melee unit
whose every path move toward its foe runs into its own side's models makes no move at all. In
main's Red games lost to random-legal the Assault Squad was boxed in by its side's Troopers in
5 of 14 (games 28, 30, 73, 87 and 88 at seed 0): the Troopers held where they stood to shoot,
and in game 28 the squad stood behind them from Game Turn 2 to the end (docs/ai.md, session
37). With the switch, in the Move Phase a unit with a gun, before it moves, looks at each
melee unit of its side that has not moved in this phase (:func:`melee_friends`): when that
unit has no path move where the shooter stands but has one with the shooter off the table
(:func:`blocks`), the shooter steps aside (:func:`way_moves`): of its straight moves of its
full Move to either side of the melee unit's way, ahead or aslant, the one after which the
melee unit gains most along its path comes first, each only where it costs the shooter no
shot: a unit that sees a target keeps one in Range and in sight (a Battle or Assault weapon
may be used after a Move, §5.1 L2240; a unit with a Heavy weapon that sees a target does not
move, L2234-2236).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import replace

from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Move
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.movement import unit_allowance
from warbench.rulesets.warsurge.game.players import sees_a_target
from warbench.rulesets.warsurge.game.state import GameState, Location, Phase
from warbench.rulesets.warsurge.game.work import Work

#: The best path progress a melee unit makes in a state (the path's cost to its foe after its
#: best path move; ``None`` when it has no path move): the player's own planner.
Progress = Callable[[Work, int], float | None]

#: Turns (degrees) from the melee unit's way (the line from it to the shooter) that the
#: shooter tries its full Move along: to either side first, then aslant ahead, then ahead.
TURNS = (90.0, -90.0, 45.0, -45.0, 0.0, 135.0, -135.0)
#: A shooter more than this (inches, edge to edge) from a melee unit does not block it.
NEAR = 3.0


def melee_friends(w: Work, uid: int) -> Iterator[int]:
    """The melee units (no weapon with a Range over 1") of ``uid``'s side on the table, not in
    a Melee and not yet moved in this Move Phase, that stand within ``NEAR`` of ``uid``."""
    side = w.info(uid).side
    mine = w.xy(uid)
    if not len(mine):
        return
    for f in w.side_units(side):
        v = w.units[f]
        if f == uid or v.location is not Location.TABLE or v.acted or w.engaged_with(f):
            continue
        if max((wp.range for wp in w.info(f).unit.weapons), default=0) > 1:
            continue
        theirs = w.xy(f)
        if not len(theirs):
            continue
        gap = math.inf
        for x, y in theirs:
            d = float(((mine[:, 0] - x) ** 2 + (mine[:, 1] - y) ** 2).min() ** 0.5)
            gap = min(gap, d)
        if gap - w.info(uid).radius - w.info(f).radius <= NEAR:
            yield f


def without(state: GameState, uid: int) -> Work:
    """The state with ``uid`` off the table (a planning state only: is it in the way?)."""
    units = list(state.units)
    units[uid] = replace(units[uid], location=Location.RESERVE)
    return Work(replace(state, units=tuple(units)), None, DEFAULT_HOOKS)


def blocks(state: GameState, w: Work, uid: int, friend: int, progress: Progress) -> bool:
    """Whether ``uid`` boxes in melee unit ``friend``: ``friend`` has no path move where
    ``uid`` stands and has one with ``uid`` off the table."""
    if progress(w, friend) is not None:
        return False
    return progress(without(state, uid), friend) is not None


def way_moves(state: GameState, w: Work, uid: int, progress: Progress) -> list[Move]:
    """The Moves by which ``uid`` makes way for a melee unit of its side that it boxes in
    (:func:`blocks`), the one after which that unit's path gains most first; empty when it
    blocks none, or no such Move keeps its shot (a unit that sees a target keeps one in Range
    and in sight; one with a Heavy weapon that sees a target does not move, §5.1)."""
    if w.flow.phase is not Phase.MOVE or w.units[uid].acted:
        return []
    for friend in melee_friends(w, uid):
        if not blocks(state, w, uid, friend, progress):
            continue
        sees = sees_a_target(w, uid)
        if sees and any(wp.type.value == "Heavy" for wp in w.info(uid).unit.weapons):
            return []
        here = w.xy(uid).mean(axis=0)
        there = w.xy(friend).mean(axis=0)
        way = math.atan2(float(here[1] - there[1]), float(here[0] - there[0]))
        step = float(unit_allowance(w, uid, False))
        ranked: list[tuple[float, int, Move]] = []
        for k, turn in enumerate(TURNS):
            a = way + math.radians(turn)
            to = (float(here[0]) + step * math.cos(a), float(here[1]) + step * math.sin(a))
            move = Move(uid, to=to)
            if not engine.can(state, move):
                continue
            after, _ = engine.apply(state, move)
            wa = Work(after, None, DEFAULT_HOOKS)
            if sees and not sees_a_target(wa, uid):
                continue  # it would lose its shot
            gained = progress(wa, friend)
            if gained is not None:
                ranked.append((gained, k, move))
        if ranked:
            return [m for _, _, m in sorted(ranked, key=lambda r: (r[0], r[1]))]
    return []
