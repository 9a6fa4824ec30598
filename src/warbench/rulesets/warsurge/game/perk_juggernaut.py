"""Juggernaut I-II in a game (Perks 000_94ecc6a4c74d351b.txt §12.4 Movement, L2112-L2124).

    "Juggernaut I — Passive, D6 (4+). Juggernaut allows the User's Movement to pass through
    other Units, and also ignore and potentially destroy Terrain Pieces. For each Terrain Piece
    the User passes through, roll a dice. On a 4+, the Terrain Piece that was passed through is
    destroyed and removed from the Battlefield. Any Units on top or inside of the Terrain Piece
    are placed below, where the Terrain Piece once occupied."
    "Juggernaut II — Functions as per Juggernaut I, except no D6 of 4+ is necessary; terrain is
    automatically destroyed."

* **Movement** (``effects.movement.flight`` → ``"juggernaut"``, read by ``coherency``): a Move
  or Dash crosses Units and every Terrain Piece (Difficult Ground does not halve it, Dangerous
  Ground does not strike it, Impassable Ground does not stop it), but it does not end on
  Impassable Ground or overlapping a unit (docs/rulings.md "Juggernaut").
* **Terrain passed through** (:func:`smash_terrain`, called by ``movement`` after the Move):
  every piece standing that the base of a moving model sweeps over, once per Movement whatever
  the number of models, in the board's order: Juggernaut I rolls a D6 (4+ destroys it),
  Juggernaut II destroys it. A destroyed piece is destroyed as by HP Loss (§10.3,
  ``terrain_attacks.destroy_terrain``): the models on top of it now stand on the board, and the
  units inside leave it as from a destroyed Transport when the casualties are next removed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import shapely

from warbench.rulesets.warsurge.effects.movement import juggernaut
from warbench.rulesets.warsurge.game.terrain import destroyed_terrain

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.battlefield.model import Point
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["crossed_pieces", "smash_terrain"]

_RULE = "Perks §12.4 Juggernaut {} (000_94ecc6a4c74d351b.txt L{})"
_LINE = {1: 2112, 2: 2124}


def crossed_pieces(work: Work, segments: Sequence[tuple[Point, Point]], r: float) -> list[str]:
    """The standing terrain pieces a base of radius ``r`` sweeps over moving along
    ``segments`` (straight, start to end), in the board's order."""
    if not segments:
        return []
    gone = destroyed_terrain(tuple(work.terrain_hp.items()))
    swept = shapely.union_all([shapely.LineString([s, e]).buffer(r) for s, e in segments if s != e])
    return [
        t.name
        for t in work.field.board.terrain
        if t.name not in gone and shapely.Polygon(t.polygon).intersection(swept).area > 1e-9
    ]


def smash_terrain(work: Work, uid: int, segments: Sequence[tuple[Point, Point]]) -> None:
    """L2112-L2124: after a Move or Dash of a Juggernaut unit (``segments``: each moved model's
    start and end), each piece passed through is destroyed: on a D6 of 4+ (I) or at once
    (II)."""
    rank = juggernaut(work.info(uid).unit.profile.perks)
    if not rank:
        return
    from warbench.rulesets.warsurge.game.terrain_attacks import destroy_terrain

    name = "I" * rank
    rule = _RULE.format(name, _LINE[min(rank, 2)])
    for piece in crossed_pieces(work, segments, work.info(uid).radius):
        if rank >= 2:
            work.emit("perk", f"{work.label(uid)} smashes through {piece} (Juggernaut II)",
                      rule, unit=uid, terrain=piece, destroyed=True)  # fmt: skip
            destroy_terrain(work, piece)
            continue
        roll = work.dice.roll("D6", f"Juggernaut I: {piece}")
        smashed = roll >= 4
        verdict = "destroyed" if smashed else "stands"
        work.emit("perk", f"{work.label(uid)} passes through {piece}: D6 {roll}, it {verdict} "
                  "(Juggernaut I, 4+)", rule, unit=uid, terrain=piece, roll=roll,
                  destroyed=smashed)  # fmt: skip
        if smashed:
            destroy_terrain(work, piece)
