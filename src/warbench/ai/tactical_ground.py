"""A habit of the ``tactical`` player added in session 38 (issue 15: the line, horde and
other mirrors of ``warbench.sim.army_kinds`` against random-legal).

**Prices Dangerous Ground** (:func:`danger_priced`, switch ``TacticalBot.price_danger``).
Each model whose Move or Dash passes through, into or out of Dangerous Ground suffers it
(Core Rules 001_d3f5e425c5e1196d.txt §4.6 L2100-2106: "Count each model that traversed the
terrain and multiply the total by the Attacks on the Weapon profile"), and a casualty is
removed at once (L2124-2130). The path round terrain (``ai.navigate``) is planned for the
unit's centre, so a wide formation whose centre passes beside a small piece sweeps its outer
models through it. In main's games at seed 0 the horde mirror (Rabble: Defence 2, no Save)
lost 3-9 models to the city board's Fuel depot (Burning fuel, 1 Attack at Power 3) in Game
Turns 1-2 of four of its eight lost games, before a shot was fired (docs/ai.md, session 38).

Session 36's ``shun_danger`` put every path move that crosses no Dangerous Ground first,
however much shorter it was: the skirmish pair's Assault Squad Dashed 2.7" round the ruins'
Pit instead of 6" into it and missed a charge. This habit weighs the two. When the first
path move is expected to cost the unit at least :data:`MIN_HP` (half an HP: a model of the
horde, or a few of the line's Troopers, in the Fuel depot), the move expected to lose least
comes first among the path moves near it: within a third of the allowance of the best on the
path grid's cost to the enemy (as the cover on the way, ``TacticalBot._sheltered_first``)
and in the distance its centre closes on the enemy. The expected loss is the engine's own:
the models its placement (``movement.plan_towards``) carries through each piece
(``movement.dangerous_crossings``) times the exact expected HP one model loses to the
piece's Weapon profile (``odds.exact_attack``) or, for a piece without one, to the D6 roll
of 1 and the failed Armour and AEGIS Saves (L2098-2100). A way round that gives up more
than a third of the allowance is not taken: the unit crosses as before.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from warbench.kernel.errors import WarbenchError
from warbench.rulesets.warsurge.game.actions import Move
from warbench.rulesets.warsurge.game.movement import dangerous_crossings, plan_towards
from warbench.rulesets.warsurge.game.work import Work

#: How many of the best path moves are weighed (the first ones, in the player's order).
PRICE_TRIES = 8
#: The least expected HP lost in the first move for which a way round is looked for: in the
#: skirmish pair's game 7 one model of the Assault Squad (a 4+ Armour Save) Dashes into the
#: ruins' Pit, 1/12 of an HP, and a Dash beside it instead cost a charge (session 36).
MIN_HP = 0.5
#: A move is "near" the best when its progress is within this share of the allowance.
NEAR_SHARE = 1.0 / 3.0


def hp_per_model(w: Work, uid: int, piece: str) -> float:
    """The HP one model of ``uid`` is expected to lose crossing Dangerous Ground ``piece``
    once (§4.6): one use of the piece's Weapon profile against the unit (exact odds), or the
    D6 roll of 1 followed by failed Armour and AEGIS Saves (L2098-2100)."""
    info = w.info(uid)
    weapon = w.field.danger_weapon(piece)
    if weapon is None:
        p = info.unit.profile
        chance = 1.0 / 6.0
        for save in (p.armour, p.aegis):
            if save is not None:
                chance *= min(1.0, max(0.0, (save - 1) / 6.0))
        return chance
    from warbench.rulesets.warsurge.attack import UnitState
    from warbench.rulesets.warsurge.odds import AttackPlan, exact_attack
    from warbench.rulesets.warsurge.profiles import ModelGroup, Unit, UnitProfile

    source = Unit(
        profile=UnitProfile(name=piece, move=0, dash=0, defence=0, hp=1),
        weapons=[weapon],
        models=[ModelGroup(count=1, weapons=[weapon.name])],
    )
    plan = AttackPlan(
        UnitState.of(source),
        UnitState.of(info.unit),
        weapons=(weapon.name,),
        users=((weapon.name, 1),),
    )
    try:
        return float(exact_attack(plan).expected_hp_lost)
    except WarbenchError:
        return 1.0 / 6.0


def danger_hp(
    w: Work, uid: int, move: Move, allowance: float, per_model: dict[tuple[int, str], float]
) -> float:
    """The HP ``uid`` is expected to lose to Dangerous Ground in ``move`` (a Move toward a
    point, placed as the engine places it), at most the HP it has left; 0 for other moves,
    moves the engine cannot place and boards without Dangerous Ground. ``per_model`` caches
    :func:`hp_per_model` by unit and piece."""
    if move.to is None or move.positions is not None or not w.field.dangerous_names:
        return 0.0
    u = w.units[uid]
    models = u.present()
    try:
        ends = plan_towards(w, uid, move.to, allowance, move.dash)
    except WarbenchError:
        return 0.0
    starts = tuple(u.pos[i] for i in models)
    crossed = dangerous_crossings(w, uid, models, starts, ends, None)
    hp = 0.0
    for piece, which in crossed.items():
        key = (uid, piece)
        if key not in per_model:
            per_model[key] = hp_per_model(w, uid, piece)
        hp += per_model[key] * len(which)
    return min(hp, float(u.current_hp))


def danger_priced(
    w: Work,
    uid: int,
    moves: Sequence[Move],
    allowance: float,
    progress: Mapping[Move, float],
    landing: Mapping[Move, tuple[float, float]],
    goal: tuple[float, float],
    per_model: dict[tuple[int, str], float],
) -> list[Move]:
    """``moves`` (best first) with, among the first :data:`PRICE_TRIES` that are near the
    best, the one expected to lose least to Dangerous Ground first (ties keep their order);
    unchanged when the first move is expected to lose less than :data:`MIN_HP`. Near: its
    progress (``progress``: the path grid's cost to the enemy where it ends, lower is
    nearer) within :data:`NEAR_SHARE` of the allowance of the best, and the distance its
    centre closes on ``goal`` (from where it stands to ``landing``, where the engine places
    it) within that share of what the first move closes (the grid prices Dangerous Ground at
    five times its length, so a move that ends in a piece looks little better on it than a
    short way round)."""
    if len(moves) < 2 or not w.field.dangerous_names:
        return list(moves)
    first = danger_hp(w, uid, moves[0], allowance, per_model)
    if first < MIN_HP:
        return list(moves)
    centre = w.xy(uid).mean(axis=0)
    start = math.hypot(float(centre[0]) - goal[0], float(centre[1]) - goal[1])

    def closed(m: Move) -> float:
        end = landing.get(m)
        if end is None:
            return 0.0
        return start - math.hypot(end[0] - goal[0], end[1] - goal[1])

    head = list(moves[:PRICE_TRIES])
    best = min(progress.get(m, 0.0) for m in head)
    slack = allowance * NEAR_SHARE
    floor = closed(moves[0]) - slack
    near = [
        m
        for m in head
        if m is moves[0] or (progress.get(m, 0.0) <= best + slack and closed(m) >= floor)
    ]
    if len(near) < 2:
        return list(moves)
    loss = {m: first if m is moves[0] else danger_hp(w, uid, m, allowance, per_model) for m in near}
    near.sort(key=lambda m: loss[m])
    return near + [m for m in moves if m not in loss]
