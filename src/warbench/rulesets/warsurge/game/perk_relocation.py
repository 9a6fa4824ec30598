"""Perks that relocate their User (the ``relocation`` machinery of the effects table): Blink I-III
(Perks 000_94ecc6a4c74d351b.txt L673-L699, Activate, Limited Use (1)) and Teleport I-III
(L1025-L1045, a Mastery Test).

"The Unit can be relocated anywhere within 6" [12", no maximum], functioning as Movement, but
not a Move or Dash. Terrain and other Units affect Blink like regular Movement and requires a
path of travel … Blink cannot engage or leave a Melee." The relocation is planned as the game's
own straight Movement toward a point (``movement.plan_towards``: the same terrain, overlap and
Coherency checks), with the perk's distance as the allowance; the unit's models count as having
moved (Heavy weapons, §5.1) but the unit keeps its Move and Dash (docs/rulings.md). The point is
the player's choice (``UsePerks(unit, ("Blink I: 20,30",))``); the engine's default is the
nearest enemy unit's centre, stopping short of a Melee.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.game import geom
from warbench.rulesets.warsurge.game.coherency import full_positions
from warbench.rulesets.warsurge.game.hooks import Hook
from warbench.rulesets.warsurge.game.state import Location

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.work import Work

Point = tuple[float, float]

#: The ranks and their greatest distance (``None``: no maximum, "as long as the Unit could
#: reach the intended location 'on foot'").
RELOCATE: dict[str, float | None] = {
    "Blink I": 6.0,
    "Blink II": 12.0,
    "Blink III": None,
    "Teleport I": 6.0,
    "Teleport II": 12.0,
    "Teleport III": None,
}
#: The allowance of a relocation with no maximum (longer than any battlefield).
_NO_MAXIMUM = 10_000.0


def _rule(rank: str) -> str:
    from warbench.rulesets.warsurge.effects.table import load_table

    return load_table().get(rank).source


def parse_point(rank: str, option: str) -> Point:
    """``(20.0, 30.0)`` from ``"20,30"``; a :class:`RulesError` naming the form otherwise."""
    try:
        x, y = (float(v) for v in option.split(","))
    except ValueError:
        raise RulesError(
            f"{rank} names a point as 'x,y' in inches (got {option!r})", _rule(rank)
        ) from None
    return (x, y)


def default_point(work: Work, uid: int) -> Point | None:
    """The engine's choice: the centre of the nearest enemy unit on the battlefield."""
    mine = work.xy(uid).mean(axis=0)
    best: tuple[float, int] | None = None
    for other in work.units:
        if other.location is not Location.TABLE or not work.enemies(uid, other.uid):
            continue
        if not other.living():
            continue
        d = float(math.dist(mine, work.xy(other.uid).mean(axis=0)))
        if best is None or (d, other.uid) < best:
            best = (d, other.uid)
    if best is None:
        return None
    c = work.xy(best[1]).mean(axis=0)
    return (float(c[0]), float(c[1]))


def plan(work: Work, uid: int, rank: str, option: str = "") -> tuple[Point, ...]:
    """The models' new positions, or a :class:`RulesError` with the reason (in a Melee, beyond
    the distance, no path, it would engage a Melee)."""
    from warbench.rulesets.warsurge.game.movement import plan_towards

    rule = _rule(rank)
    label = work.label(uid)
    if work.engaged_with(work.outermost(uid)):
        raise RulesError(f"{label} is in a Melee: {rank} cannot leave a Melee", rule)
    if work.info(uid).immobile:
        raise RulesError(f"{label} is Immobile (Move 0 and Dash 0)", rule)
    limit = RELOCATE[rank]
    if option:
        to = parse_point(rank, option)
        centre = work.xy(uid).mean(axis=0)
        away = float(math.dist(centre, to))
        if limit is not None and away > limit + 1e-9:
            raise RulesError(f'{rank} relocates up to {limit:g}"; ({option}) is {away:.1f}"', rule)
    else:
        point = default_point(work, uid)
        if point is None:
            raise RulesError(f"{label} has no enemy unit to relocate toward", rule)
        to = point
    new = plan_towards(work, uid, to, limit or _NO_MAXIMUM, False)
    if work.contacts(uid, geom.as_array(new)):
        raise RulesError(f"{rank} cannot engage a Melee", rule)
    return new


def refused(work: Work, uid: int, rank: str, option: str = "") -> str | None:
    """Why ``uid`` may not relocate by ``rank`` now (see :func:`plan`), or ``None``."""
    try:
        plan(work, uid, rank, option)
    except RulesError as exc:
        return exc.reason
    return None


def relocate(work: Work, uid: int, rank: str, option: str = "") -> None:
    """Relocate ``uid`` (planned by :func:`plan`): Movement (Bleed, the models count as moved)
    but neither a Move nor a Dash."""
    u = work.units[uid]
    models = u.present()
    new = plan(work, uid, rank, option)
    starts = [u.pos[i] for i in models]
    longest = max((math.dist(s, p) for s, p in zip(starts, new, strict=True)), default=0.0)
    moved = list(u.moved)
    for i, s, p in zip(models, starts, new, strict=True):
        if s != p:
            moved[i] = True
    work.set_unit(uid, pos=full_positions(u, models, new), moved=tuple(moved))
    work.emit("perk", f'{work.label(uid)} relocates {longest:.1f}" by {rank}', _rule(rank),
              unit=uid, perk=rank, distance=round(longest, 3))  # fmt: skip
    if longest > 0 and work.hooks.active(Hook.AFTER_MOVE):
        work.hooks.fire(Hook.AFTER_MOVE, work, unit=uid, dash=False, distance=longest)
