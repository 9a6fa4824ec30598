"""The battlefield as it stands in a game: the set-up's board with the terrain destroyed so far
destroyed (Core Rules 001_d3f5e425c5e1196d.txt §10.3, L4470-4473; ``Board.with_terrain_destroyed``).
Every state with destroyed terrain measures on this field (``Work.field``)."""

from __future__ import annotations

from typing import Any

from warbench.rulesets.warsurge.game.geom import Field, field_from_board
from warbench.rulesets.warsurge.game.terrain import destroyed_terrain

_FIELDS: dict[tuple[int, frozenset[str]], tuple[Field, Field]] = {}


def field_with_destroyed(field: Field, destroyed: frozenset[str]) -> Field:
    """The game's battlefield with the ``destroyed`` pieces destroyed (§10.3); ``field``
    itself when none is. Built once per set of pieces (the geometry is compiled again)."""
    if not destroyed:
        return field
    key = (id(field), destroyed)
    hit = _FIELDS.get(key)
    if hit is not None and hit[0] is field:
        return hit[1]
    board = field.board
    order = [t.name for t in board.terrain]
    for name in sorted(destroyed, key=order.index):
        board = board.with_terrain_destroyed(name)
    out = field_from_board(board)
    if len(_FIELDS) > 256:
        _FIELDS.clear()
    _FIELDS[key] = (field, out)
    return out


def field_of(state: Any) -> Field:
    """The battlefield as it stands in ``state`` (a GameState): the set-up's, with the pieces
    destroyed so far destroyed (§10.3)."""
    return field_with_destroyed(state.setup.field, destroyed_terrain(state.terrain_hp))
