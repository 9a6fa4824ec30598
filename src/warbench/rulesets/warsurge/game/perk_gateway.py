"""Gateway, a Roster Perk (Perks 000_94ecc6a4c74d351b.txt L4314; issue 11, session 25 w3-gateway).

L4314-4322: "At the start of Game Turn 1, the player places a single Gateway marker anywhere on
the Battlefield. At the start of Game Turn 2, the player places a second Gateway marker ... When
both markers are placed, the Gateway is active. A Unit embarks a Gateway marker like a Transport
(Section 6 in the Core Rules) and may disembark the other Gateway marker like a Transport. All
Units (friend and foe) have access to the Gateway. Any number of Units can use a Gateway each
Game Turn. In engaging in a Melee inside the Gateway, refer to Section 10.2 in the Core Rules.
If more than one player has Gateway, the different Gateways are not connected to each other."

The Gateway is played as a terrain piece used as a Transport (Core Rules
001_d3f5e425c5e1196d.txt §10.2 B/C, §10.5 gates; ``game/terrain_transport.py``) whose two gates
are the markers: every unit of every side may embark a terrain piece, units of several players
inside one are engaged in a Melee (L4437-4447, the very section the perk names), and a piece
with gates is entered and left only at them, so a unit embarks at one marker and disembarks at
the other. Unlimited Transport Capacity ("any number of Units"), no blocking, cover or height
(docs/rulings.md "WARSURGE perks in play: session 25, w3-gateway").

* **State**: a marker is a status ``Gateway@x,y@turn`` on the holder (the first unit of the
  side whose roster carries the perk), like Trap markers (``perk_trap``).
* **Field**: ``gateway_markers.gateway_pieces`` gives the active pieces;
  ``terrain_field.field_of`` adds them to the battlefield of the state (so moves, embarking,
  disembarking and the renders see them); only once both markers of a side stand.
* **When**: ``Hook.TURN_START`` of Game Turns 1 and 2 (:func:`gateway_at_turn_start`), the
  engine's placement (the player's choice of point is not offered yet; ruling 3).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game.gateway_markers import GATEWAY, RULE, holders, markers
from warbench.rulesets.warsurge.game.hooks import Hook
from warbench.rulesets.warsurge.game.state import Location, Status

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.hooks import HookRegistry
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["gateway_at_turn_start", "register_hooks"]


def _centroid(work: Work, uids: list[int]) -> tuple[float, float] | None:
    pts = [
        p
        for v in uids
        if work.units[v].location is Location.TABLE and work.standing(v)
        for p in work.xy(v).tolist()
    ]
    if not pts:
        return None
    return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))


def gateway_at_turn_start(work: Work, turn: int) -> None:
    """L4314-4316: at the start of Game Turn 1 a holder places its first marker, at the start
    of Game Turn 2 its second (Limited Use (2): these two placements). The engine's point:
    the first at the middle of its own units on the battlefield, the second at the middle of
    the enemy units (ruling 3); the board's centre when there are none."""
    if turn > 2:
        return
    hs = holders(work.setup)
    if not hs:
        return
    placed = False
    for uid in hs:
        u = work.units[uid]
        if len(markers(work, uid)) != turn - 1:
            continue
        side = work.info(uid).side
        mine = work.side_units(side)
        foes = [v for v in range(len(work.units)) if work.info(v).side != side]
        at = _centroid(work, mine if turn == 1 else foes)
        if at is None:
            at = (work.field.board.width / 2, work.field.board.height / 2)
        x, y = at
        name = f"{GATEWAY}@{x:.2f},{y:.2f}@{turn}"
        work.set_unit(uid, statuses=(*u.statuses, Status(name, None, GATEWAY)))
        which = "first" if turn == 1 else "second"
        active = "; the Gateway is active" if turn == 2 else ""
        work.emit("perk", f"{work.side_name(side)} places its {which} Gateway marker at "
                  f"({x:.1f}, {y:.1f}){active}", RULE, unit=uid, perk=GATEWAY,
                  at=[x, y])  # fmt: skip
        placed = True
    if placed:
        from warbench.rulesets.warsurge.game.terrain_field import field_of

        work.field = field_of(work)


def register_hooks(reg: HookRegistry) -> None:
    reg.register(Hook.TURN_START, gateway_at_turn_start, "Gateway (markers)", when=holders)
