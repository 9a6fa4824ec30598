"""The fake units of Decoy I-III (Perks 000_94ecc6a4c74d351b.txt §12.6 Traits, L4161-L4203),
made with the set-up (``state.build_setup``); their play is ``perk_decoy``.

    "This Trait allows you to Deploy an additional 'fake Unit' with the following profile and
    no Perks: Move 0, Dash 0, Defence 5, 1 HP, no Saves. 1-30 models, but they all share the
    1 HP." (Decoy II: Move 6, Dash 6; Decoy III: Move 6, Dash 6, 1 model.)

The fake unit bears the real unit's name, base and number of models (1 to 30; Decoy III: 1),
one HP a model (any HP Loss removes all of them, ``perk_decoy``), no Weapons and no Saves, and
is worth no points (docs/rulings.md "session 25, s25-lead" 11). This module imports nothing
of the game but the profiles, so that the set-up may build them.
"""

from __future__ import annotations

from collections.abc import Sequence

from warbench.rulesets.warsurge.profiles import ModelGroup, Unit, UnitProfile

__all__ = ["DECOYS", "decoy_of", "decoy_rank"]

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
