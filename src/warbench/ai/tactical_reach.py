"""Habits of the ``tactical`` player added in session 28 (issue 15: every kind of army).

**Fire position** (:func:`fire_positions`): a shooter that already has a target in Range and
in sight in the Move Phase used to stand still (Core Rules 001_d3f5e425c5e1196d.txt §2.2
step 4: it fires in the Attack Phase that follows). Casualties of an Attack Phase are removed
only at its end (§5.12, L2872: "Casualties are removed at the end of the Attack Phase, once
all players have finished their Attacks"), so the enemy units in Range and in sight fire
back in the same phase whatever the order: in a duel of equal armies nothing is won by
shooting first, only by **where** the exchange is fought. The player now weighs its spot
against a ring of spots within its Move: the point value its weapons are expected to take
there (each weapon at its best target in Range and in sight, §5.2-5.5, with the target's
Cover Bonus, §5.6, counting only its models within Range of the target, L851-860 step II)
less the value the enemy units are expected to take off it there (each enemy that sees it,
from where it stands, with its Move added if it has not moved yet, the unit's own Cover
Bonus counted, and only the enemy models within Range). It moves to the best spot when that
beats standing still: into cover, out of the sight of a second enemy unit, or to the edge of
Range where more of its models reach than of the enemy's.

The functions take the player's own expected-damage helpers as callables (``dist``: the
exact odds engine's distribution of HP lost, ``covered``: the Cover Bonus test), so this
module does not import :mod:`warbench.ai.tactical` (no import cycle).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from warbench.kernel.errors import WarbenchError
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Move
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.state import GameState, Location, Phase
from warbench.rulesets.warsurge.game.targeting import view_target
from warbench.rulesets.warsurge.game.work import Work

#: ``dist(w, a, b, weapon, melee, cover)``: HP lost → probability (``TacticalBot._dist``).
Dist = Callable[[Work, int, int, "str | None", bool, bool], Mapping[int, float]]
#: ``covered(w, a, b)``: ``b`` has a Cover Bonus against ``a`` (``TacticalBot._covered``).
Covered = Callable[[Work, int, int], bool]

#: The directions of the ring of spots tried (evenly spaced).
DIRECTIONS = 8
#: The fractions of the Move allowance at which spots are tried.
RINGS = (0.5, 1.0)
#: How much better (point value) a spot must be than standing still to move there.
MARGIN = 0.5
#: How far inside its Range an edge spot puts the unit's nearest model (inches).
EDGE_SLACK = 0.3


def _in_range(w: Work, a: int, b: int, reach: float) -> float:
    """The share of ``a``'s models on the table within ``reach`` of a model of ``b`` (edge to
    edge, bases as circles): the models that may attack (L851-860 step II)."""
    axy, bxy = w.xy(a), w.xy(b)
    if not len(axy) or not len(bxy):
        return 0.0
    gap = np.hypot(axy[:, None, 0] - bxy[None, :, 0], axy[:, None, 1] - bxy[None, :, 1])
    edge = gap.min(axis=1) - w.info(a).radius - w.info(b).radius
    return float((edge <= reach + 1e-9).sum()) / len(axy)


def _take(w: Work, dist: Mapping[int, float], share: float, b: int) -> float:
    """Expected point value off ``b`` of an attack whose whole-unit distribution is ``dist``
    made by ``share`` of the attacker's models (capped at ``b``'s HP left)."""
    ib = w.info(b)
    per_hp = ib.value / ib.max_hp if ib.max_hp else 0.0
    expected = sum(k * p for k, p in dist.items()) * share
    return min(expected, float(w.units[b].current_hp)) * per_hp


def outgoing(w: Work, uid: int, dist: Dist, covered: Covered) -> float:
    """The point value ``uid``'s weapons are expected to take where it stands in ``w``: each
    ranged weapon at its best target among those the engine lets it attack (in Range and in
    sight, §5.2-5.5), with the target's Cover Bonus (§5.6), scaled by the share of its models
    within that weapon's Range of the target."""
    info = w.info(uid)
    alive = sum(1 for gone in w.units[uid].removed if not gone) / max(1, info.models)
    ranges = {wp.name: float(wp.range) for wp in info.unit.weapons}
    total = 0.0
    for wn, targets in engine.weapon_targets(w, uid, limit=4).items():
        reach = ranges.get(wn, 0.0)
        if reach <= 1:
            continue
        best = 0.0
        for t in targets:
            share = _in_range(w, uid, t, reach) * alive
            if share > 0:
                best = max(best, _take(w, dist(w, uid, t, wn, False, covered(w, uid, t)), share, t))
        total += best
    return total


def still_to_move(w: Work, uid: int) -> frozenset[int]:
    """The enemy units of ``uid`` that may still move before the coming Attack Phase (all of
    them outside the Move Phase, where the next Game Turn's Move comes first)."""
    return frozenset(
        v.uid
        for v in w.units
        if w.enemies(uid, v.uid) and (w.flow.phase is not Phase.MOVE or not v.acted)
    )


def enemy_units(w: Work, uid: int) -> Iterator[tuple[Any, Any, float | None]]:
    """Each enemy unit of ``uid`` on the table and not in a Melee (a unit in one attacks only
    there, §5.8): its unit state, its info and its longest shooting Range (``None`` for a
    unit with melee weapons only)."""
    for v in w.units:
        if v.location is not Location.TABLE or not w.enemies(uid, v.uid) or w.engaged_with(v.uid):
            continue
        fi = w.info(v.uid)
        longest = max((wp.range for wp in fi.unit.weapons if wp.range > 1), default=None)
        yield v, fi, (None if longest is None else float(longest))


def incoming(w: Work, uid: int, dist: Dist, moving: frozenset[int]) -> float:
    """The point value the enemy units are expected to take off ``uid`` where it stands in
    ``w`` in the coming Attack Phase: each enemy unit on the table, not in a Melee, that sees
    it from where it stands (§5.5), with the Cover Bonus of ``uid`` against it (§5.6), its
    Move added to its Range when it is in ``moving`` (:func:`still_to_move`), scaled by the share
    of its models within that reach; a unit with a melee weapon within its Move (a charge,
    §4.3) counts its melee instead when that is more."""
    total = 0.0
    for v, fi, longest in enemy_units(w, uid):
        f = v.uid
        step = float(fi.unit.profile.move) if f in moving else 0.0
        alive = sum(1 for gone in v.removed if not gone) / max(1, fi.models)
        try:
            view = view_target(w, f, uid)
        except WarbenchError:
            continue
        best = 0.0
        if longest is not None and view.visible:
            share = _in_range(w, f, uid, float(longest) + step) * alive
            if share > 0:
                best = _take(w, dist(w, f, uid, None, False, view.cover > 0), share, uid)
        if any(wp.range <= 1 for wp in fi.unit.weapons) and view.distance <= step:
            best = max(best, _take(w, dist(w, f, uid, None, True, False), alive, uid))
        total += best
    return total


def _edge_spots(w: Work, uid: int, allowance: float) -> list[tuple[float, float]]:
    """Spots for the centre of ``uid`` along the line to each of the two nearest enemy
    units where its nearest model ends just inside its longest Range of that unit (forward
    or back, within ``allowance``): the edge of Range, where more of its models may reach
    than of a unit deeper than its front."""
    info = w.info(uid)
    longest = max((wp.range for wp in info.unit.weapons if wp.range > 1), default=None)
    if longest is None:
        return []
    axy = w.xy(uid)
    centre = axy.mean(axis=0)
    out: list[tuple[float, float]] = []
    for _, f in engine.nearest_enemies(w, uid)[:2]:
        bxy = w.xy(f)
        if not len(bxy) or not len(axy):
            continue
        gap = np.hypot(axy[:, None, 0] - bxy[None, :, 0], axy[:, None, 1] - bxy[None, :, 1])
        i, j = np.unravel_index(int(gap.argmin()), gap.shape)
        edge = float(gap[i, j]) - info.radius - w.info(f).radius
        shift = edge - (float(longest) - EDGE_SLACK)
        if abs(shift) < 0.5 or abs(shift) > allowance:
            continue
        dx, dy = bxy[j, 0] - axy[i, 0], bxy[j, 1] - axy[i, 1]
        norm = math.hypot(dx, dy) or 1.0
        out.append((float(centre[0] + shift * dx / norm), float(centre[1] + shift * dy / norm)))
    return out


def fire_positions(
    state: GameState,
    w: Work,
    uid: int,
    allowance: float,
    dist: Dist,
    covered: Covered,
    extra: Sequence[Move] = (),
    floor: float | None = None,
) -> list[Move]:
    """The moves (best first) to spots within ``allowance`` where :func:`outgoing` less
    :func:`incoming` beats standing still by :data:`MARGIN` (module docstring) and, with
    ``floor``, is above ``floor``; the spots: a ring round the unit, the edge of Range of
    the nearest enemy units (:func:`_edge_spots`) and the ends of ``extra`` moves (a path
    toward the enemy). Empty when standing still is as good (the unit then holds)."""
    if w.flow.phase is not Phase.MOVE or allowance <= 0:
        return []
    moving = still_to_move(w, uid)
    here = outgoing(w, uid, dist, covered) - incoming(w, uid, dist, moving)
    bar = here + MARGIN if floor is None else max(here + MARGIN, floor)
    centre = w.xy(uid).mean(axis=0)
    cx, cy = float(centre[0]), float(centre[1])
    moves = [Move(uid, to=spot) for spot in _edge_spots(w, uid, allowance)]
    for ring in RINGS:
        for j in range(DIRECTIONS):
            angle = 2 * math.pi * (j + 0.5 * (ring != RINGS[0])) / DIRECTIONS
            to = (cx + ring * allowance * math.cos(angle), cy + ring * allowance * math.sin(angle))
            moves.append(Move(uid, to=to))
    moves.extend(m for m in extra if not m.dash)
    scored: list[tuple[float, int, Move]] = []
    for k, move in enumerate(moves):
        if not engine.can(state, move):
            continue
        after, _ = engine.apply(state, move)
        wa = Work(after, None, DEFAULT_HOOKS)
        score = outgoing(wa, uid, dist, covered) - incoming(wa, uid, dist, moving)
        if score > bar:
            scored.append((-score, k, move))
    scored.sort()
    return [m for _, _, m in scored]
