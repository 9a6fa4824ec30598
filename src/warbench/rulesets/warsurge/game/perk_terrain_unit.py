"""Terrain (Aeonian Unit Perk, Perks 000_94ecc6a4c74d351b.txt L1410), session 25 (issue 11, lane
s25-aeon): the ``terrain unit`` machinery of the effects table; rulings "WARSURGE perks in play:
session 25, s25-aeon".

"The User is Immobile and cannot embark a Transport, but can be moved onto or over by other
Units just like regular terrain, assuming Movement is sufficient to traverse it. The User must
be a model that allows other models to be placed upon it. The User can only be Deployed on the
first Game Turn and cannot go into Reserve or embark a Transport. The User is immune to Terrify,
Dread and Juggernaut."

* Immobile: the set-up's ``immobile`` (``state.build_setup``), so it never makes Movement and
  embarks nothing (§4.1 Immobile Units, §6.2).
* Other units' models move over it and stand on it (:func:`passable`, read by
  ``coherency.problem_positions``): its bases are not Impassable Ground to them, and the ground
  it makes is open (the model gives no height).
* It deploys only in the first Game Turn, never inside a Transport (:func:`deploy_refusal`), and
  never goes into Reserve (:func:`reserve_refusal`, read by ``perk_reserve.to_reserve``).
* Immune to Terrify and Dread (the effects table's immunity); Juggernaut destroys terrain pieces
  of the board only, so it never harms it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game.memo import per_setup
from warbench.rulesets.warsurge.game.perk_wreckage import holders, wrecks

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.state import GameSetup
    from warbench.rulesets.warsurge.game.work import Work

BOOK = "000_94ecc6a4c74d351b.txt"
TERRAIN = "Terrain"
RULE = f"Terrain ({BOOK} L1410)"


@per_setup
def terrain_units(setup: GameSetup) -> frozenset[int]:
    """The units of ``setup`` with the Terrain perk (computed once per set-up)."""
    out = frozenset(
        uid
        for uid, info in enumerate(setup.units)
        if TERRAIN in info.unit.profile.perks or TERRAIN in info.traits
    )
    return out


def passable(w: Work, uid: int) -> frozenset[int]:
    """The Terrain units whose models ``uid``'s models may move over and stand on."""
    out = terrain_units(w.setup)
    if holders(w.setup):  # Wreckage (L1448): "traversed as Difficult Ground"
        out = out | frozenset(wrecks(w))
    return out - {uid} if uid in out else out


def deploy_refusal(w: Work, uid: int, inside: bool) -> str | None:
    """Why the Terrain unit ``uid`` may not Deploy now (``inside``: into a Transport)."""
    if uid not in terrain_units(w.setup):
        return None
    if inside:
        return f"{w.label(uid)} cannot embark a Transport ({RULE})"
    if w.flow.turn > 1:
        return f"{w.label(uid)} can only be Deployed on the first Game Turn ({RULE})"
    return None


def reserve_refusal(w: Work, uid: int) -> str | None:
    """Why ``uid`` does not go into Reserve: it has Terrain."""
    if uid in terrain_units(w.setup):
        return f"{w.label(uid)} cannot go into Reserve ({RULE})"
    return None
