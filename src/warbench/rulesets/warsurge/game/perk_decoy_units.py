"""The units Traits add to a game, made with the set-up (``state.build_setup`` calls
:func:`trait_units`): the fake units of Decoy I-III (Perks 000_94ecc6a4c74d351b.txt §12.6
Traits, L4161-L4203; their play is ``perk_decoy``) and the copies of a Summon unit (L4219, one
for each Game Turn from 2 to the safety cap; their play is ``perk_summon``).

    "This Trait allows you to Deploy an additional 'fake Unit' with the following profile and
    no Perks: Move 0, Dash 0, Defence 5, 1 HP, no Saves. 1-30 models, but they all share the
    1 HP." (Decoy II: Move 6, Dash 6; Decoy III: Move 6, Dash 6, 1 model.)

The fake unit bears the real unit's name, base and number of models (1 to 30; Decoy III: 1),
one HP a model (any HP Loss removes all of them, ``perk_decoy``), no Weapons and no Saves, and
is worth no points (docs/rulings.md "session 25, s25-lead" 11). This module imports nothing
of the game but the profiles (the set-up's ``UnitInfo`` it is given), so that the set-up may
build them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from warbench.rulesets.warsurge.profiles import ModelGroup, Unit, UnitProfile

__all__ = ["DECOYS", "decoy_of", "decoy_rank", "trait_units"]

#: rank → (Move and Dash, source line)
DECOYS = {"Decoy I": (0, 4161), "Decoy II": (6, 4173), "Decoy III": (6, 4185)}


def decoy_rank(traits: Sequence[str]) -> str | None:
    """The Decoy rank among a unit's Traits (the highest), or ``None``."""
    lowered = {t.strip().lower() for t in traits}
    for rank in ("Decoy III", "Decoy II", "Decoy I"):
        if rank.lower() in lowered:
            return rank
    return None


def decoy_of(unit: Unit, rank: str) -> Unit:
    """The fake unit ``rank`` gives a unit (see the module docstring)."""
    move = DECOYS[rank][0]
    models = 1 if rank == "Decoy III" else max(1, min(30, sum(g.count for g in unit.models)))
    profile = UnitProfile(name=unit.profile.name, move=move, dash=move, defence=5, hp=1)
    return Unit(profile=profile, weapons=[], models=[ModelGroup(count=models, weapons=[])])


def trait_units(
    infos: list[Any], max_turns: int
) -> tuple[tuple[tuple[int, int, str], ...], tuple[tuple[int, int, int], ...]]:
    """Append to ``infos`` (the set-up's ``UnitInfo``, numbered) the units Traits add: each
    Decoy's fake unit, then each Summon unit's copies; returns ``GameSetup.decoys`` (fake, real,
    rank) and ``GameSetup.summons`` (copy, original, Game Turn). Doppelganger's forms come last
    (``perk_doppel_units``)."""
    from warbench.rulesets.warsurge.game.perk_doppel_units import add_copies

    originals = len(infos)
    decoys: list[tuple[int, int, str]] = []
    for real in list(infos):
        rank = decoy_rank(real.traits)
        if rank is None:
            continue
        fake = decoy_of(real.unit, rank)
        decoys.append((len(infos), real.uid, rank))
        infos.append(
            replace(
                real,
                uid=len(infos),
                label=f"{real.label} (Decoy)",
                unit=fake,
                points=0.0,
                model_weapons=tuple(fake.model_weapons()),
                hp_per_model=1,
                immobile=fake.profile.move == 0,
                transport=0,
                fire_points=False,
                weapon_types={},
                weapon_range={},
                value_factor=1.0,
                traits=(),
            )
        )
    summons: list[tuple[int, int, int]] = []
    for real in [i for i in infos if "summon" in {t.strip().lower() for t in i.traits}]:
        for turn in range(2, max_turns + 1):  # L4219: "once at the start of every Game Turn"
            summons.append((len(infos), real.uid, turn))
            infos.append(replace(real, uid=len(infos), label=f"{real.label} (Summon {turn})"))
    add_copies(infos, originals)  # Doppelganger I/II (Perks L2386; w2-transform)
    return tuple(decoys), tuple(summons)
