"""The model slots Illusion I-III give a unit, made with the set-up (Perks
000_94ecc6a4c74d351b.txt §12.4 Ability, L779-L817; ``state.build_setup`` calls
:func:`with_illusion_slots`; the play is ``perk_illusion``).

    "The User creates copies of itself … The User can create any number of Illusions as long
    as it divides their current HP equally (rounding down if needed)." (L779-L792)

Every model of the unit uses the perk (§12.2 L245: "Unit Perks are used simultaneously by all
models in a Unit"), so one use makes at most a model's HP of Illusions for each model: the unit
is given ``uses x models x HP`` slots after its own models (carrying no Weapons, L782: "This
does not create new Weapons"), held off the table (removed, 0 HP) until an Illusion is made
in one. ``UnitInfo.illusions`` counts them; ``UnitInfo.real_models`` are the unit's own. This
module imports nothing of the game but the profiles, so that the set-up may build them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

__all__ = [
    "ILLUSION",
    "full_strength",
    "illusion_uses",
    "lent_weapons",
    "off_the_table",
    "pad_positions",
    "with_illusion_slots",
]

#: rank → (Limited Use, source line)
ILLUSION = {"Illusion I": (1, 779), "Illusion II": (2, 803), "Illusion III": (3, 811)}


def illusion_uses(perks: Sequence[str]) -> int:
    """The Limited Use of the highest Illusion rank among ``perks`` (0: none)."""
    lowered = {p.strip().lower() for p in perks}
    return max((n for rank, (n, _) in ILLUSION.items() if rank.lower() in lowered), default=0)


def with_illusion_slots(info: Any) -> Any:
    """``info`` (a set-up ``UnitInfo``) with its Illusion slots, or unchanged."""
    uses = illusion_uses(info.unit.profile.perks)
    if not uses:
        return info
    slots = uses * len(info.model_weapons) * max(1, info.hp_per_model)
    return replace(info, model_weapons=info.model_weapons + ((),) * slots, illusions=slots)


def pad_positions(pos: Sequence[Any], n: int) -> tuple[Any, ...]:
    """Positions given for a unit's own models, its Illusion slots (off the table) set to the
    last of them, ``n`` in all (``Work.set_unit``: a Deploy, a Move, a placement gives the
    unit's own models only)."""
    pos = tuple(pos)
    return pos + (pos[-1] if pos else (0.0, 0.0),) * (n - len(pos))


def lent_weapons(
    info: Any, models: Sequence[int], weapons_of: Sequence[tuple[str, ...]]
) -> list[tuple[int, tuple[str, ...]]]:
    """L782 "existing Weapons on the User can be measured and used from the Illusions": the
    unit's own models among ``models`` and their Weapons (``targeting``: every Illusion on the
    Battlefield measures them; the model that carries a Weapon uses it), or none without an
    Illusion among ``models``."""
    real = info.real_models
    if not any(m >= real for m in models):
        return []
    return [(m, ws) for m, ws in zip(models, weapons_of, strict=True) if m < real and ws]


def off_the_table(
    slots: int, hp: Sequence[int], removed: Sequence[bool], changes: dict[str, Any]
) -> dict[str, Any]:
    """``Work.set_unit``'s ``changes`` for a unit leaving the Battlefield (Reserve, a Transport,
    destroyed): its Illusions are dispelled with it (they "must remain in Coherency with the
    User", L780), their slots removed at 0 HP."""
    if not slots:
        return changes
    n = len(hp) - slots
    hp_now = list(changes.get("hp", hp))
    gone = list(changes.get("removed", removed))
    if all(gone[n:]):
        return changes
    hp_now[n:] = [0] * slots
    gone[n:] = [True] * slots
    return {**changes, "hp": tuple(hp_now), "removed": tuple(gone)}


def full_strength(info: Any) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    """The HP and removals of a unit at full HP (set-up, Respawn, Undead Legion): its own
    models at the profile's HP, its Illusion slots off the table."""
    own, slots = info.real_models, info.illusions
    return (info.hp_per_model,) * own + (0,) * slots, (False,) * own + (True,) * slots
