"""Horrific's halved Movement (Perks 000_94ecc6a4c74d351b.txt L767), read by ``coherency``
for each model's path; the Mastery Tests that put the status on a unit are ``perk_horrific``'s.
A module of its own so that ``coherency`` depends on geometry only."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from warbench.rulesets.warsurge.game import geom

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.actions import Point
    from warbench.rulesets.warsurge.game.state import Status
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["HORRIFIC", "RADIUS", "horrified_limit", "sources"]

HORRIFIC = "Horrific"
#: L767 "Radius (12\")".
RADIUS = 12.0


def sources(statuses: Sequence[Status]) -> list[int]:
    """The Horrific units that horrified the unit with ``statuses`` (``Horrific@<unit>``)."""
    out = []
    for s in statuses:
        base, _, who = s.name.partition("@")
        if base == HORRIFIC and who.isdigit():
            out.append(int(who))
    return out


def horrified_limit(
    work: Work, uid: int, start: Point, end: Point, allowance: float, model: int | None = None
) -> float | None:
    """The Movement a model of ``uid`` may make along ``start`` → ``end`` when it passes
    within 12" of a Horrific unit that horrified it (half the allowance, rounded down), or
    ``None`` when Horrific does not halve it. In a game with oval or rectangular bases (§1.3)
    the area the ``model``'s base sweeps (``bases_ground.swept``) is measured to the
    Horrific unit's true bases."""
    from warbench.rulesets.warsurge.game import bases, bases_ground

    u = work.units[uid]
    if not u.statuses:
        return None
    who = sources(u.statuses)
    if not who:
        return None
    r = work.info(uid).radius
    exact = model is not None and bases.shaped(work.setup)
    sweep = (
        bases_ground.swept(work, uid, model, start, end) if exact and model is not None else None
    )
    for h in who:
        if not work.standing(h):
            continue
        hxy = work.xy(h)
        if sweep is not None:
            gap = bases_ground.swept_gaps(work, sweep, h, hxy, work.units[h].present())[0]
            if float(gap.min()) <= RADIUS + 1e-9:
                return float(min(math.floor(allowance / 2), allowance - 1))
            continue
        d = geom.segment_distances(np.asarray(start), np.asarray(end), hxy)
        if float(d.min()) - work.info(h).radius - r <= RADIUS + 1e-9:
            return float(min(math.floor(allowance / 2), allowance - 1))
    return None
