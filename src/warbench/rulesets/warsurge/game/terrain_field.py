"""The battlefield as it stands in a game: the set-up's board with the terrain destroyed so far
destroyed (Core Rules 001_d3f5e425c5e1196d.txt §10.3, L4470-4473; ``Board.with_terrain_destroyed``).
Every state with destroyed terrain measures on this field (``Work.field``)."""

from __future__ import annotations

import weakref
from typing import Any

from warbench.rulesets.warsurge.game.geom import Field, field_from_board
from warbench.rulesets.warsurge.game.terrain import destroyed_terrain

#: the Fields built from a game's Field, kept only while that Field lives: a process that
#: plays game after game (a lab worker, the play service) keeps no finished game's Fields,
#: each with its board's and its own kept answers (``geom.Field``; session 31 review)
_FIELDS: weakref.WeakKeyDictionary[Field, dict[frozenset[str], Field]] = weakref.WeakKeyDictionary()


def field_with_destroyed(field: Field, destroyed: frozenset[str]) -> Field:
    """The game's battlefield with the ``destroyed`` pieces destroyed (§10.3); ``field``
    itself when none is. Built once per set of pieces (the geometry is compiled again)."""
    if not destroyed:
        return field
    built = _FIELDS.setdefault(field, {})
    hit = built.get(destroyed)
    if hit is not None:
        return hit
    board = field.board
    order = [t.name for t in board.terrain]
    for name in sorted(destroyed, key=order.index):
        board = board.with_terrain_destroyed(name)
    out = field_from_board(board)
    if len(built) > 256:
        built.clear()
    built[destroyed] = out
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


#: as :data:`_FIELDS`, by the Gateway markers placed
_GATES: weakref.WeakKeyDictionary[Field, dict[tuple[Any, ...], Field]] = weakref.WeakKeyDictionary()


def field_with_gateways(field: Field, pieces: tuple[Any, ...]) -> Field:
    """``field`` with the Gateway marker pieces ``pieces`` added (Perks L4314); ``field``
    itself when there are none. Built once per set of markers."""
    if not pieces:
        return field
    key = tuple((t.name, tuple(t.polygon[0])) for t in pieces)
    built = _GATES.setdefault(field, {})
    hit = built.get(key)
    if hit is not None:
        return hit
    board = field.board.model_copy(update={"terrain": [*field.board.terrain, *pieces]})
    board._geometry = None  # compiled again for the new terrain
    out = field_from_board(board)
    if len(built) > 256:
        built.clear()
    built[key] = out
    return out
