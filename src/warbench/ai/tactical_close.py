"""Habits of the ``tactical`` player added in session 36 (issue 15: every kind of army again,
the big mirror of ``warbench.sim.army_kinds``).

**A melee unit closes when it threatens as much as it risks** (:func:`threat_from`, switch
``TacticalBot.even_dash``). Since the sixth session a melee unit Dashes only where the enemy's
expected damage on it next Game Turn (by sight and Cover, Core Rules 001_d3f5e425c5e1196d.txt
§5.5-5.6) is no more than where it stands, or to within its Move of an enemy (a charge next
Game Turn, §4.3): it does not run alone into a long-ranged gun's sight ahead of its friends.
That rule counts only what the unit risks. A Behemoth (Claws and an 18" Bile Spit) facing
another never Dashes once within the other's Bile Spit plus Move, although its own Bile
Spit reaches the other as far: in the big mirror (one model a side) it closed at its Move
alone (8" a Game Turn instead of 14"), and the Behemoths did not meet before a game of four
Game Turns ended (§2.2 step 7), a 400-400 draw (session 36, docs/ai.md). With the switch, a
Dash that the old rule refuses is made when what the unit risks there grows by no more than
what it threatens from there grows, as the shooters' Dashes since the sixth session
(``TacticalBot._dashes_worth_it``): what it threatens is its own best attack on each enemy
unit next Game Turn (its shooting within its Range plus its Move, its melee within its Move;
§2.2: the next Move Phase comes before the Attack Phase). A unit with melee weapons only
threatens nothing until it reaches charge distance, so it Dashes as before.

**Goes round Dangerous Ground** (:func:`crosses_danger`, :func:`danger_last`, switch
``TacticalBot.shun_danger``). Each model whose Move or Dash passes through, into or out of
Dangerous Ground rolls for it (§4.6 L2100-2106), and the sample boards' Fuel depot, Pit and
Burning promethium are small: the path round terrain (``ai.navigate``) is planned for the
unit's centre (then, if stalled, for its whole width), so a wide formation whose centre
passes beside the piece sweeps its outer models through it. In main's games at seed 0 a
unit of seven Troopers on the city board lost three models to the Fuel depot in its first
two moves, and the game by about their value (docs/ai.md, session 36). With the switch the
path moves after which no model has crossed Dangerous Ground (the engine's own placement and
crossing test, ``movement.dangerous_crossings``) come before those after which one has,
each group in its order; a unit whose every path move crosses still moves. Off by default:
the way round can be much shorter than the way through (an Assault Squad of the skirmish
pair Dashed 2.7" round the ruins' Pit instead of 6" across it, and did not reach the Car it
charged in main's game), and on the ladder's Red half against random-legal it lost 2 of
main's wins in 58 games and won none of its losses.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from warbench.kernel.errors import WarbenchError
from warbench.rulesets.warsurge.game.actions import Move
from warbench.rulesets.warsurge.game.movement import dangerous_crossings, plan_towards
from warbench.rulesets.warsurge.game.state import Location
from warbench.rulesets.warsurge.game.work import Work

#: ``worth(w, a, b, weapon, melee)``: the point value ``a`` is expected to take off ``b``
#: (``TacticalBot._worth``).
Worth = Callable[[Work, int, int, "str | None", bool], float]


def threat_from(w: Work, uid: int, at: tuple[float, float], spread: float, worth: Worth) -> float:
    """The point value ``uid`` threatens next Game Turn with its centre at ``at`` (its models
    ``spread`` inches round it, bases included): for each enemy unit on the table and not in a
    Melee, its best attack on it, shooting when the enemy's nearest model is within its
    longest Range plus its Move, its melee when within its Move (a charge, §4.3); summed over
    the enemy units, as the enemy's exposure of it is."""
    info = w.info(uid)
    move = float(info.unit.profile.move)
    longest = max((wp.range for wp in info.unit.weapons if wp.range > 1), default=None)
    has_melee = any(wp.range <= 1 for wp in info.unit.weapons)
    total = 0.0
    for v in w.units:
        f = v.uid
        if v.location is not Location.TABLE or not w.enemies(uid, f) or w.engaged_with(f):
            continue
        fxy = w.xy(f)
        if not len(fxy):
            continue
        gap = float(np.hypot(fxy[:, 0] - at[0], fxy[:, 1] - at[1]).min())
        gap -= w.info(f).radius + spread
        best = 0.0
        if longest is not None and gap <= float(longest) + move:
            best = worth(w, uid, f, None, False)
        if has_melee and gap <= move:
            best = max(best, worth(w, uid, f, None, True))
        total += best
    return total


def crosses_danger(w: Work, uid: int, move: Move, allowance: float) -> bool:
    """Whether some model of ``uid`` passes through, into or out of Dangerous Ground (§4.6)
    in ``move`` (a Move toward a point, placed as the engine places it, ``plan_towards``);
    ``False`` for other moves and for moves the engine cannot place."""
    if move.to is None or move.positions is not None or not w.field.dangerous_names:
        return False
    u = w.units[uid]
    models = u.present()
    try:
        ends = plan_towards(w, uid, move.to, allowance, move.dash)
    except WarbenchError:
        return False
    starts = tuple(u.pos[i] for i in models)
    return bool(dangerous_crossings(w, uid, models, starts, ends, None))


def danger_last(w: Work, uid: int, moves: Sequence[Move], allowance: float) -> list[Move]:
    """``moves`` with those in which no model crosses Dangerous Ground first (each group in
    its order): the unit goes round the piece when a way round makes progress."""
    if not w.field.dangerous_names:
        return list(moves)
    crossing = [crosses_danger(w, uid, m, allowance) for m in moves]
    return [m for m, c in zip(moves, crossing, strict=True) if not c] + [
        m for m, c in zip(moves, crossing, strict=True) if c
    ]
