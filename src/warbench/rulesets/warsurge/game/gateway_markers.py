"""Gateway's markers and its terrain piece (Perks 000_94ecc6a4c74d351b.txt L4314; issue 11,
session 25 w3-gateway): who holds the Roster Perk, the markers placed (statuses on the holder)
and the piece they make once both stand. Read by the battlefield as it stands
(``terrain_field.field_of``, ``work.Work``); placed by ``perk_gateway``. This module imports
nothing of the game package (``work`` reads it)."""

from __future__ import annotations

from typing import Any

from warbench.rulesets.warsurge.battlefield.model import Gate, Terrain
from warbench.rulesets.warsurge.effects.table import load_table
from warbench.rulesets.warsurge.game.memo import per_setup

__all__ = ["GATEWAY", "RULE", "gateway_name", "gateway_pieces", "holders", "markers"]

GATEWAY = "Gateway"
RULE = "Perks §12.6 Gateway (000_94ecc6a4c74d351b.txt L4314)"
#: the side of a marker's square piece, in inches (the book gives no size; ruling 2)
SIZE = 1.0


@per_setup
def holders(setup: Any) -> tuple[int, ...]:
    """The holder of each side whose roster carries Gateway: its first unit with the perk
    (memoised per set-up; empty in every game without it)."""
    table = load_table()
    seen: dict[int, int] = {}
    for uid, info in enumerate(setup.units):
        for n in (*info.unit.profile.perks, *info.traits):
            row = table.find(n)
            if row is not None and row.name == GATEWAY:
                seen.setdefault(info.side, uid)
    out = tuple(sorted(seen.values()))
    return out


def markers(state: Any, uid: int) -> list[tuple[float, float]]:
    """The markers the holder ``uid`` has placed, in order (a GameState or a Work)."""
    out = []
    for s in state.units[uid].statuses:
        if s.name.startswith(f"{GATEWAY}@"):
            xy = s.name.split("@")[1]
            x, y = (float(v) for v in xy.split(","))
            out.append((x, y))
    return out


def gateway_name(side: int) -> str:
    """The terrain piece of the Gateway of ``side``."""
    return f"Gateway (side {side})"


def _square(board: Any, x: float, y: float) -> list[tuple[float, float]]:
    h = SIZE / 2
    x0, x1 = max(0.0, x - h), min(board.width, x + h)
    y0, y1 = max(0.0, y - h), min(board.height, y + h)
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def gateway_pieces(state: Any) -> tuple[Terrain, ...]:
    """The terrain of every active Gateway (both markers placed, L4316): one piece with
    unlimited Transport Capacity ("any number of Units") whose two gates are the markers, so
    a unit embarks at either and disembarks at either, and units of different players inside
    it are in one Melee (L4321, §10.2 L4437-4447); its footprint a 1" square at the first
    marker, and a second footprint without effects (as destroyed terrain's, §10.3) at the
    second, for the render. The Gateways of different players are different pieces (L4322)."""
    out: list[Terrain] = []
    board = state.setup.field.board
    for uid in holders(state.setup):
        pts = markers(state, uid)
        if len(pts) < 2:
            continue
        name = gateway_name(state.setup.units[uid].side)
        (x1, y1), (x2, y2) = pts[:2]
        gates = [
            Gate(name="marker 1", at=(x1, y1)),
            Gate(name="marker 2", at=(x2, y2)),
        ]
        out.append(
            Terrain(
                name=name,
                polygon=_square(board, x1, y1),
                transport_unlimited=True,
                gates=gates,
            )
        )
        out.append(Terrain(name=f"{name} marker 2", polygon=_square(board, x2, y2)))
    return tuple(out)
