"""Sentinel in a game (Perks 000_94ecc6a4c74d351b.txt §12.4 Defensive, L1749-L1752).

    "Sentinel — Passive. Enemy Units may not use Deployment Perks within 12" of the User, except
    for Seed and Phoenix Perks. Units that enter this area with a Deployment Perk will need to
    choose a different location, or if this is impossible, go back into Reserve."

The Deployment Perks the game plays that place a unit somewhere it could not otherwise be are
Ambush I-III (anywhere, from Game Turn 2), Invade I-III (outside the Deployment Zone) and
Recon I-II (a relocation after deploying); Seed and Phoenix are excepted by the text, and the
Roster Perk Nexus is not a Deployment Perk (docs/rulings.md "Sentinel").

* A Deploy that places a model outside its Deployment Zone by Ambush or Invade within 12" of an
  enemy Sentinel unit (closest base edges) is refused, naming the Sentinel (:func:`refusal`,
  asked by ``perk_deploy.outside_zone`` and ``perk_deployment.deploy_outside_zone``).
* An Ambush that scatters into the area deploys normally in its Deployment Zone instead (the
  engine's placement, as a failed Ambush), or goes back into Reserve when there is no room
  (``perk_deploy.ambush_after_deploy``).
* Recon does not relocate a unit that stands within 12" of an enemy Sentinel, nor into that
  area (``perk_deployment.recon_at_phase_end`` tries its shorter relocations, then none).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game import bases, geom
from warbench.rulesets.warsurge.game.perk_turn import index

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.actions import Point
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["RADIUS", "RULE", "refusal", "watcher"]

#: L1749: "within 12\" of the User".
RADIUS = 12.0
RULE = "Perks §12.4 Sentinel (000_94ecc6a4c74d351b.txt L1749)"


def watcher(work: Work, uid: int, points: Sequence[Point]) -> int | None:
    """The first enemy Sentinel unit on the battlefield with a model within 12" of a base of
    ``uid`` standing at one of ``points`` (closest edges), or ``None``."""
    perks = index(work.setup).units
    if not points:
        return None
    xy = geom.as_array(points)
    r = work.info(uid).radius
    for t, p in enumerate(perks):
        if "Sentinel" not in p.unit or not work.standing(t):
            continue
        if work.info(t).side == work.info(uid).side or not work.enemies(uid, t):
            continue
        d = bases.distances(work, uid, xy, r, t, work.xy(t), work.info(t).radius)
        if d.size and float(d.min()) <= RADIUS + 1e-9:
            return t
    return None


def refusal(work: Work, uid: int, model: int, p: Point, perk: str) -> str | None:
    """Why model ``model`` of ``uid`` may not be placed at ``p`` by the Deployment Perk
    ``perk`` (an enemy Sentinel within 12"), or ``None``."""
    t = watcher(work, uid, [p])
    if t is None:
        return None
    return (
        f'model {model + 1} of {work.label(uid)} would be within {RADIUS:g}" of '
        f"{work.label(t)}, a Sentinel: enemy units may not use {perk} there ({RULE})"
    )
