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
    """The battlefield as it stands in ``state`` (a GameState or a Work): the set-up's, with
    the pieces destroyed so far destroyed (§10.3) and the active Gateways' markers placed as
    connected terrain pieces (Perks L4314, ``perk_gateway``)."""
    hp = state.terrain_hp
    items = tuple(hp.items()) if isinstance(hp, dict) else hp
    field = field_with_destroyed(state.setup.field, destroyed_terrain(items))
    from warbench.rulesets.warsurge.game.gateway_markers import gateway_pieces, holders

    if not holders(state.setup):
        return field
    return field_with_gateways(field, gateway_pieces(state))


_GATES: dict[tuple[int, tuple[Any, ...]], tuple[Field, Field]] = {}


def field_with_gateways(field: Field, pieces: tuple[Any, ...]) -> Field:
    """``field`` with the Gateway marker pieces ``pieces`` added (Perks L4314); ``field``
    itself when there are none. Built once per set of markers."""
    if not pieces:
        return field
    key = (id(field), tuple((t.name, tuple(t.polygon[0])) for t in pieces))
    hit = _GATES.get(key)
    if hit is not None and hit[0] is field:
        return hit[1]
    board = field.board.model_copy(update={"terrain": [*field.board.terrain, *pieces]})
    board._geometry = None  # compiled again for the new terrain
    out = field_from_board(board)
    if len(_GATES) > 256:
        _GATES.clear()
    _GATES[key] = (field, out)
    return out
