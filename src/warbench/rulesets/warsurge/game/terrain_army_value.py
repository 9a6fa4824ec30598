"""What a terrain piece fielded in an army is worth (Core Rules 001_d3f5e425c5e1196d.txt §10.2
L4424-4430: a piece "could be given a profile and fielded in a player's army"; §2.2 step 8 and
Perks 000_94ecc6a4c74d351b.txt L98-100: the Current Point Cost).

A piece with ``army: N`` on the board is a unit of side ``N``: its profile is priced by the
warbench points model as a unit of one model whose HP is the piece's ``hp`` (the piece is one
Target, rulings "WARSURGE terrain in play" 3), and that price counts in the side's roster points
(the Point Limit, §9.1's Command Points dice, the §3.6 share) and, at its Current Point Cost
(HP left), in the side's value on the battlefield (§2.2 step 8: destroying it scores like a
unit). This module imports nothing of the game's state (``state`` asks it).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from warbench.rulesets.warsurge.battlefield import Board
from warbench.rulesets.warsurge.battlefield.model import Terrain
from warbench.rulesets.warsurge.game.terrain import terrain_unit
from warbench.rulesets.warsurge.profiles import Unit

__all__ = ["army_pieces", "army_points", "army_values", "piece_points", "piece_unit"]


def army_pieces(board: Board) -> list[tuple[int, Terrain]]:
    """The pieces of ``board`` fielded in an army, with their place on the board."""
    return [(k, t) for k, t in enumerate(board.terrain) if t.army is not None]


def piece_unit(piece: Terrain) -> Unit:
    """The piece's profile as the unit that attacks and is priced (§10.2 B): one model, its
    HP the piece's ``hp`` when it has one (ruling 3 of "WARSURGE terrain in play")."""
    unit = terrain_unit(piece)
    if piece.hp is None or unit.profile.hp == piece.hp:
        return unit
    return unit.model_copy(update={"profile": unit.profile.model_copy(update={"hp": piece.hp})})


_PRICES: dict[tuple[str, str, int | None], float] = {}


def piece_points(piece: Terrain) -> float:
    """The piece's price by the points model (``docs/points.md``), as a unit's."""
    key = (piece.name, json.dumps(piece.profile, sort_keys=True, default=str), piece.hp)
    hit = _PRICES.get(key)
    if hit is None:
        from warbench.rulesets.warsurge.points import cost_unit

        hit = _PRICES[key] = float(cost_unit(piece_unit(piece)).total)
    return hit


def army_points(board: Board, side: int) -> float:
    """The points of the pieces of ``board`` in ``side``'s army (0 on most boards)."""
    return sum(piece_points(t) for _, t in army_pieces(board) if t.army == side)


def army_values(board: Board, terrain_hp: Sequence[tuple[str, int]]) -> list[tuple[int, float]]:
    """``(side, value)`` of each army piece still standing: its price times its HP left over
    its HP (a piece without HP keeps its price: it cannot be destroyed, §10.2 A)."""
    left = dict(terrain_hp)
    out: list[tuple[int, float]] = []
    for _, t in army_pieces(board):
        assert t.army is not None
        full = t.hp
        now = left.get(t.name, full) if full is not None else None
        value = piece_points(t) if full is None else piece_points(t) * max(0, now or 0) / full
        out.append((t.army, value))
    return out
