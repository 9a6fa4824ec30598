"""Roster Perks switched on by a Presence unit (Perks 000_94ecc6a4c74d351b.txt: Presence L1372,
Roster Perks L4250-L4386; issue 11).

A Roster Perk designated to a Presence unit in the roster goes into play with that unit (one of
its traits, ``game/io.player_from_roster``); while the unit is on the Battlefield and not
embarked, every unit of its Roster has the perk's status (:data:`.perk_turn.PRESENCE_PERKS`),
checked at every Phase start, deployment, move and attack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game.perk_turn import (
    PRESENCE_PERKS,
    _replace_statuses,
    _rule,
    index,
)
from warbench.rulesets.warsurge.game.state import Location, Status

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.work import Work


#: Presence Roster Perks of lane c (issue 11) besides :data:`.perk_turn.PRESENCE_PERKS`:
#: Bloodthirsty (L4272, +1 Attack in a Melee after all other perks: the attack kernel's
#: ``melee_bonus_attacks``, ``perk_effects.attack_flags``).
MORE_PRESENCE = ("Bloodthirsty",)
ALL_PRESENCE = (*PRESENCE_PERKS, *MORE_PRESENCE)


def _auras(work: Work) -> tuple[tuple[int, int, str], ...]:
    """(Presence unit, its player, Roster Perk) for every Presence unit carrying one."""
    idx = index(work.setup)
    more = tuple(
        (uid, work.setup.units[uid].player, name)
        for uid, p in enumerate(idx.units)
        if "Presence" in p.unit
        for name in MORE_PRESENCE
        if name in p.unit
    )
    return (*idx.auras, *more) if more else idx.auras


def refresh_presence(work: Work) -> None:
    """L1372: "While the User is on the Battlefield (not in Reserve) and not embarked in a
    Transport, Roster Perks that require Presence are active": each such Roster Perk is a
    status on every unit of its Roster while one of its Presence units is on the table, and
    only one whatever their number ("several Presence units do not stack")."""
    auras = _auras(work)
    if not auras:
        return
    on: dict[int, set[str]] = {}
    for uid, player, perk in auras:
        u = work.units[uid]
        if u.location is Location.TABLE and u.living():
            on.setdefault(player, set()).add(perk)
    for uid, info in enumerate(work.setup.units):
        want = sorted(on.get(info.player, set()))
        have = sorted(s.name for s in work.units[uid].statuses if s.name in ALL_PRESENCE)
        if want != have:
            new = [Status(p, None, "Presence") for p in want]
            _replace_statuses(work, uid, ALL_PRESENCE, new)
            if work.units[uid].location is Location.TABLE and want:
                work.emit("perk", f"{work.label(uid)}: {', '.join(want)} (Presence)",
                          _rule("Presence"), unit=uid, perks=want)  # fmt: skip


def presence_at_turn_start(work: Work, turn: int) -> None:
    refresh_presence(work)


def presence_at_phase(work: Work, phase: str) -> None:
    refresh_presence(work)


def presence_after_deploy(work: Work, unit: int) -> None:
    refresh_presence(work)


def presence_after_move(work: Work, unit: int, dash: bool, distance: float) -> None:
    refresh_presence(work)


def presence_after_attack(work: Work, unit: int, weapon: str, target: int) -> None:
    refresh_presence(work)
