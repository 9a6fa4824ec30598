"""Roster Perks switched on by a Presence unit (Perks 000_94ecc6a4c74d351b.txt: Presence L1372,
Roster Perks L4250-L4386; issue 11).

A Roster Perk designated to a Presence unit in the roster goes into play with that unit (one of
its traits, ``game/io.player_from_roster``); while the unit is on the Battlefield and not
embarked, every unit of its Roster has the perk's status (:data:`.perk_turn.PRESENCE_PERKS`),
checked at every Phase start, deployment, move and attack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
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
_ALL_PRESENCE = frozenset(ALL_PRESENCE)


def _auras(work: Work) -> tuple[tuple[int, int, str], ...]:
    """(Presence unit, its player, Roster Perk) for every Presence unit carrying one."""
    idx = index(work.setup)
    hit = _AURAS.get(id(idx))
    if hit is not None and hit[0] is idx:  # worked out once per set-up (issue 11)
        return hit[1]
    more = tuple(
        (uid, work.setup.units[uid].player, name)
        for uid, p in enumerate(idx.units)
        if "Presence" in p.unit
        for name in MORE_PRESENCE
        if name in p.unit
    )
    out = (*idx.auras, *more) if more else idx.auras
    if len(_AURAS) > 64:
        _AURAS.clear()
    _AURAS[id(idx)] = (idx, out)
    return out


_AURAS: dict[int, tuple[object, tuple[tuple[int, int, str], ...]]] = {}


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
    wants = {player: sorted(perks) for player, perks in on.items()}
    for uid, info in enumerate(work.setup.units):
        want = list(wants.get(info.player, ()))
        statuses = work.units[uid].statuses
        have = sorted(s.name for s in statuses if s.name in _ALL_PRESENCE) if statuses else []
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


def register_hooks(reg: HookRegistry) -> None:
    """Presence's hooks (``perk_hooks.register_perk_hooks`` calls this where they stood), only
    for the games whose set-up names Presence (``_auras`` finds no unit otherwise)."""
    need = ["Presence"]
    reg.register(Hook.TURN_START, presence_at_turn_start, "Presence Roster Perks", perks=need)
    reg.register(Hook.PHASE_START, presence_at_phase, "Presence Roster Perks", perks=need)
    reg.register(Hook.DEPLOY, presence_after_deploy, "Presence Roster Perks", perks=need)
    reg.register(Hook.AFTER_MOVE, presence_after_move, "Presence Roster Perks", perks=need)
    reg.register(Hook.WEAPON_USED, presence_after_attack, "Presence Roster Perks", perks=need)


# -- Extension (L4308) -----------------------------------------------------------------------

EXTENSION = "Extension"
EXTENDED = "Extension (used)"
EXTENSION_RULE = "Perks §12.6 Extension (000_94ecc6a4c74d351b.txt L4308)"


def extends(work: Work, why: str) -> bool:
    """L4308: "When the game has ended, the player may intervene and extend the game by one
    Game Turn". The player's decision is taken beforehand: a unit carrying the Roster Perk
    *uses* it (``UsePerks(unit, ("Extension",))``, any Game Turn), a standing declaration; when
    the game would then end (not for want of enemies), it goes on one Game Turn, once a game.
    Not using it is the engine's old course: the game ends."""
    if why.startswith("only one side"):
        return False
    for u in work.units:
        if not u.statuses or not any(s.name == EXTENSION for s in u.statuses):
            continue
        side = work.info(u.uid).side
        if any(s.name == EXTENDED for t in work.side_units(side) for s in work.units[t].statuses):
            continue
        kept = tuple(s for s in u.statuses if s.name != EXTENSION)
        work.set_unit(u.uid, statuses=(*kept, Status(EXTENDED, None, "Extension")))
        work.emit("perk", f"{work.side_name(side)} extends the game by one Game Turn "
                  f"(Extension; {why})", EXTENSION_RULE, unit=u.uid, perk=EXTENSION)  # fmt: skip
        return True
    return False


# -- Master Strategist (L4336) ---------------------------------------------------------------

STRATEGIST = "Master Strategist"
STRATEGIST_RULE = "Perks §12.6 Master Strategist (000_94ecc6a4c74d351b.txt L4336)"


def strategist_first(work: Work, ranking: list[int]) -> list[int]:
    """L4336: "The player can choose who will be the Turn Master on any Game Turn … If more
    than one player has this Perk, the Master Strategist players Roll-Off at the start of each
    Game Turn": the side holding the Roster Perk (a unit of its roster carries it) makes the
    Turn Master choice (the ``ChooseTurnMaster`` decision, or the engine's choice of itself
    under the ``turn master`` automation); between several holders, the best of them in the
    Roll-Off. The rest of the Roll-Off order stands. (The alternative, rerolling the Advanced
    CP, is not offered: docs/rulings.md "perks in play: lane c".)"""
    idx = index(work.setup)
    holders = {
        work.setup.units[uid].side for uid, p in enumerate(idx.units) if STRATEGIST in p.unit
    }
    if not holders or ranking[0] in holders:
        return ranking
    first = next(s for s in ranking if s in holders)
    work.emit("perk", f"{work.side_name(first)} chooses the Turn Master (Master Strategist)",
              STRATEGIST_RULE, side=first, perk=STRATEGIST)  # fmt: skip
    return [first, *(s for s in ranking if s != first)]
