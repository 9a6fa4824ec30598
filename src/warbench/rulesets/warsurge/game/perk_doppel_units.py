"""The forms a Doppelganger may take, made with the set-up (Perks 000_94ecc6a4c74d351b.txt §12.4
Transformation, L2386-L2416; ``perk_decoy_units.trait_units`` calls :func:`add_copies`; their
play is ``perk_doppelganger``).

    "The User can Target and become another Unit for the rest of the game, mimicking their
    Stats, Weapons, Perks (but retains Doppelganger), current number of models and HP in the
    Target's current state. The User remains as an enemy Unit to the player it copies."

Every part of the engine reads a unit's profile, weapons, perks and base from the set-up by its
id, so each form is a unit of the set-up, held out of the game until the Doppelganger becomes
it (as Form's linked profiles, ``perk_form``): for each unit of a roster with Doppelganger I or
II and each other unit of the rosters, a copy of that unit's profile, Weapons, Unit Perks (with
the User's Doppelganger rank added), models and base, on the User's player and side, worth the
copied unit's points (docs/rulings.md w2-transform 11). The copies come after every other unit
(Decoy's and Summon's included), in roster order of the User, then of the copied unit. A game
without Doppelganger has none.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from warbench.rulesets.warsurge.game.memo import per_setup

__all__ = ["RANKS", "add_copies", "copies", "rank_of"]

#: The ranks and their source lines.
RANKS = {"Doppelganger I": 2386, "Doppelganger II": 2406}


def rank_of(perks: Any) -> str | None:
    """The Doppelganger rank among these perk names (the highest), or ``None``."""
    from warbench.rulesets.warsurge.effects.table import load_table

    found = None
    for name in perks:
        row = load_table().find(name)
        if row is not None and row.name in RANKS and (found is None or row.name > found):
            found = row.name
    return found


def _copy(user: Any, target: Any, uid: int, rank: str) -> Any:
    unit = target.unit
    perks = [p for p in unit.profile.perks if rank_of((p,)) is None]
    profile = unit.profile.model_copy(update={"perks": [*perks, rank]})
    return replace(
        target,
        uid=uid,
        player=user.player,
        side=user.side,
        label=f"{user.label} (as {target.label.partition(': ')[2] or target.label})",
        unit=unit.model_copy(update={"profile": profile}),
        traits=(),
    )


def add_copies(infos: list[Any], originals: int) -> None:
    """Append to ``infos`` (the set-up's ``UnitInfo``, numbered; the first ``originals`` are the
    rosters' units) each Doppelganger's copy of every other roster unit."""
    for user in list(infos[:originals]):
        rank = rank_of((*user.unit.profile.perks, *user.traits))
        if rank is None:
            continue
        for target in list(infos[:originals]):
            if target.uid != user.uid:
                infos.append(_copy(user, target, len(infos), rank))


@per_setup
def copies(setup: Any) -> dict[int, dict[int, int]]:
    """Each Doppelganger's copies: user → (copied unit → its copy), for the users and for each
    copy (a copy takes the next form from its user's table). ``setup``: the ``GameSetup``
    (typed loosely: the set-up module imports this one)."""
    originals = sum(len(p.roster) for p in setup.players)
    k = originals + len(setup.decoys) + len(setup.summons)
    out: dict[int, dict[int, int]] = {}
    for user in setup.units[:originals]:
        if rank_of((*user.unit.profile.perks, *user.traits)) is None:
            continue
        table: dict[int, int] = {}
        for target in setup.units[:originals]:
            if target.uid != user.uid:
                table[target.uid] = k
                k += 1
        out[user.uid] = table
        for c in table.values():
            out[c] = table
    return out
