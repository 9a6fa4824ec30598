"""No Line of Sight I-III in a game (Perks 000_94ecc6a4c74d351b.txt §12.5 Tactical, L3961-L3984).

"The Weapon does not need to have line of sight to the Target unit, but will suffer a -2 Dice
Modifier to Attack Dice if the Target is not in line of sight" (I; II and III without the -2).
``targeting`` and ``attacks`` call these (the rest of the Tactical family is
:mod:`.perk_tactical`); this module knows the game's data only, so the game package keeps no
import cycle. See :mod:`.perk_tactical` and docs/rulings.md "perks in play: Tactical, Trait,
Movement, Leadership, Defensive" 1-3.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from warbench.rulesets.warsurge.attack import AttackContext, PerkSet

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.state import UnitInfo

__all__ = ["no_line_of_sight", "sight_context", "unseen_users"]


@lru_cache(maxsize=1024)
def _nlos_rank(perks: tuple[str, ...]) -> int:
    return PerkSet(perks).rank("No Line of Sight")


def no_line_of_sight(info: UnitInfo, weapon: str) -> int:
    """The No Line of Sight rank of ``weapon`` of ``info``'s unit (0: none)."""
    for wp in info.unit.weapons:
        if wp.name == weapon:
            return _nlos_rank(tuple(wp.perks))
    return 0


def unseen_users(
    info: UnitInfo,
    models: Sequence[int],
    weapons_of: Sequence[Sequence[str]],
    ranges: Mapping[str, float],
    d: npt.NDArray[np.float64],
    embarked: bool,
    users: dict[str, list[int]],
) -> dict[str, list[int]]:
    """``users`` (weapon → attacker models that can use it at the Target) with every model
    whose No Line of Sight Weapon has the Target in Range, seen or not (Perks L3961).

    ``d`` is the edge-to-edge distance of each attacker eye (a model, or the Transport's models
    it fires from, ``embarked``) to each Target model, as ``targeting`` measures it."""
    nlos = [wp.name for wp in info.unit.weapons if _nlos_rank(tuple(wp.perks))]
    if not nlos or not d.size:
        return users
    near_all = float(d.min())
    for k, m in enumerate(models):
        for wname in weapons_of[k]:
            if wname not in nlos:
                continue
            near = near_all if embarked else float(d[k].min())
            if near <= ranges.get(wname, 0) + 1e-6:
                got = users.setdefault(wname, [])
                if m not in got:
                    got.append(m)
                    got.sort()
    return users


def sight_context(
    info: UnitInfo, weapon: str, visible: frozenset[int], ctx: AttackContext
) -> AttackContext:
    """The share's context under No Line of Sight: out of sight when no Target model is
    visible to the attacking unit, and any Target model may be a casualty (ruling 2)."""
    if ctx.melee or not no_line_of_sight(info, weapon):
        return ctx
    return replace(ctx, los_models=None, target_out_of_sight=not visible)
