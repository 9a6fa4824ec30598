"""Which perks act in a game, and which are inert (printed by ``warbench battle``).

A perk acts in a game when a machinery the game runs has registered it
(:func:`warbench.rulesets.warsurge.perks.register_implemented`): the registry is the one place
that knows. The game runs the attack sequence (every Attack resolves through it, with the
situational inputs the game sets: cover, range, Melee, Airborne/Jumper and Leader targets,
Outflank, Clash, Burst, Darkside …). Every other perk on a unit does nothing in play yet;
``inert_perks`` lists them so a player knows before the game starts (STYLE.md §5: "A perk
with no implementation is reported when the catalog loads, never in the middle of a
battle").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.profiles import Unit

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.state import GameSetup

#: The perk machineries a Standard game runs (names as they registered themselves).
GAME_MACHINERY: frozenset[str] = frozenset({"attack sequence"})


def inert_perks(unit: Unit, traits: Sequence[str] = ()) -> list[str]:
    """The perks of ``unit`` (profile, carried weapons and Traits) that do nothing in a game,
    in the order they appear, by their book names (unknown names as written)."""
    import warbench.rulesets.warsurge.attack  # noqa: F401  (registers its perks)
    from warbench.rulesets.warsurge.perks import PerkCatalog

    catalog = PerkCatalog.load()
    carried = {w for group in unit.models for w in group.weapons}
    names = [*unit.profile.perks, *traits]
    for weapon in unit.weapons:
        if weapon.name in carried:
            names.extend(weapon.perks)
    out: list[str] = []
    for name in names:
        perk = catalog.find(name)
        label = perk.name if perk is not None else name
        acts = perk is not None and catalog.implementation_of(perk.name) in GAME_MACHINERY
        if not acts and label not in out:
            out.append(label)
    return out


def inert_report(setup: GameSetup) -> dict[str, list[str]]:
    """Per unit label (``Player: Unit``), the inert perks of every unit of a game that has
    any (see :func:`inert_perks`)."""
    out: dict[str, list[str]] = {}
    for info in setup.units:
        inert = inert_perks(info.unit, info.traits)
        if inert:
            out[info.label] = inert
    return out
