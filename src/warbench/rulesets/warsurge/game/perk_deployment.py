"""Deployment Unit Perks in a game (Perks 000_94ecc6a4c74d351b.txt §12.4 Deployment,
L1805-L1928).

* **Invade I-III** (L1864-L1874): "The User can be Deployed outside their Deployment Zone, but
  cannot Deploy inside an enemy Deployment Zone. The User cannot be Deployed within 12" of an
  enemy Deployment Zone" (II: 6", III: no minimum distance). A Deploy action that names every
  model's position may place an Invade unit anywhere on the battlefield that keeps that distance
  from every enemy Deployment Zone (measured from the edge of each base); the engine's own
  placement (a Deploy without positions) still deploys in the zone.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

import shapely

from warbench.rulesets.warsurge.game.perk_turn import index

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.actions import Point
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["INVADE", "deploy_outside_zone"]

#: Invade rank → how far from an enemy Deployment Zone the User must stay (L1864-L1874).
INVADE = {"Invade I": 12.0, "Invade II": 6.0, "Invade III": 0.0}
INVADE_LINES = {"Invade I": 1864, "Invade II": 1870, "Invade III": 1874}


def _invade(w: Work, uid: int) -> tuple[str, float] | None:
    perks = index(w.setup).units[uid].unit
    held = [(gap, n) for n, gap in INVADE.items() if n in perks]
    if not held:
        return None
    gap, name = min(held)  # the highest rank held: the smallest distance
    return name, gap


@cache
def _polygon(points: tuple[tuple[float, float], ...]) -> shapely.Polygon:
    return shapely.Polygon(points)


def deploy_outside_zone(w: Work, uid: int, model: int, p: Point) -> str | None:
    """Whether a model of ``uid`` outside its Deployment Zone may deploy at ``p``: ``None``
    when Invade allows it, else why not (the refusal names the rule)."""
    found = _invade(w, uid)
    info = w.info(uid)
    if found is None:
        return f"model {model + 1} of {info.label} is outside its Deployment Zone"
    rank, gap = found
    if not w.field.on_board(p, info.radius):
        return f"model {model + 1} of {info.label} is off the battlefield"
    for side, zone in enumerate(w.zones):
        if zone is None or side == info.side:
            continue
        poly = _polygon(tuple(tuple(q) for q in w.field.zones[zone].polygon))
        d = poly.distance(shapely.Point(p)) - info.radius
        if d < gap - 1e-6:
            where = "inside" if d < 0 else f'{max(d, 0):.1f}" from'
            return (
                f"model {model + 1} of {info.label} would be {where} an enemy Deployment Zone; "
                f'{rank} keeps it {gap:g}" away (Perks L{INVADE_LINES[rank]})'
            )
    return None
