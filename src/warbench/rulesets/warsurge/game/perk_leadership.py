"""Leadership Unit Perks in a game (Perks 000_94ecc6a4c74d351b.txt §12.4 Leadership,
L1930-L2075), and the Roster Perks that act when their unit falls (Avenge L4258, Despair L4282).

* **Orders** (L2033): "At the start of the Game Turn, the User can direct any friendly Units
  within 18" (including itself) to choose one of" Move, Move, Move! (Move and Dash doubled, no
  Weapons), Take Cover! (+1 Defence, Immobile), Bring it Down! (+1 Power, -1 Defence), one
  Order a unit per Game Turn. The Order is the engine's (docs/rulings.md, "Orders"; the
  player may give another, :mod:`.perk_orders`):
  Bring it Down! for a unit with an enemy within its longest Range plus its Move (and Defence
  above 0), otherwise Move, Move, Move! for a unit with Weapons, otherwise Take Cover! (not for
  an Immobile unit).
* **Egotistical** (L1987): "Whenever the User is not within 6" of a friendly Unit … the User
  will suffer a -1 Dice Modifier to all of its Attacks" (a status, refreshed as units arrive and
  move); "If a friendly Unit within 6" of the User … causes an enemy Leader to become a
  casualty, the User will inflict a casualty (one model) on that friendly Unit … No Saves".
* **Avenge** / **Despair** (Roster Perks designated to a unit, L4258/L4282): when that unit
  becomes a casualty (0 HP; Avenge: by an enemy unit), every friendly unit of its Roster has
  +1 / -1 to all Attack Dice for the rest of the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game import bases
from warbench.rulesets.warsurge.game.casualties import remove_models, restore_coherency
from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.perk_effects import allowance, weapon_ranges
from warbench.rulesets.warsurge.game.perk_turn import _replace_statuses, index
from warbench.rulesets.warsurge.game.state import Status
from warbench.rulesets.warsurge.game.work import to_unit_state

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["ORDERS", "register_hooks"]

BOOK = "000_94ecc6a4c74d351b.txt"
MOVE_MOVE_MOVE = "Move, Move, Move!"
TAKE_COVER = "Take Cover!"
BRING_IT_DOWN = "Bring it Down!"
#: The three Orders (L2037-L2041).
ORDERS = (MOVE_MOVE_MOVE, TAKE_COVER, BRING_IT_DOWN)
ALONE = "Egotistical (alone)"
LEADERS = ("Leader", "War Master")  # War Master "is defined as a 'Leader'" (L2057)


def _rule(perk: str, line: int) -> str:
    return f"Perks §12.4 {perk} ({BOOK} L{line})"


def _within(w: Work, a: int, b: int, inches: float) -> bool:
    """Whether units ``a`` and ``b`` (on the table) have models within ``inches``."""
    d = bases.distances(w, a, w.xy(a), w.info(a).radius, b, w.xy(b), w.info(b).radius)
    return bool(d.size) and float(d.min()) <= inches + 1e-9


# -- Orders ------------------------------------------------------------------------------------


def _order_for(w: Work, uid: int) -> str | None:
    """The engine's Order for a unit (see the module docstring); None: no Order it may use."""
    info = w.info(uid)
    u = w.units[uid]
    move = allowance(u.statuses, False, info.unit.profile.move)
    armed = bool(info.unit.weapons)
    defence = to_unit_state(w, uid).profile.defence
    if armed:
        reach = max(weapon_ranges(info, u.statuses).values(), default=0) + move
        foes = [t for t in range(len(w.units)) if w.enemies(uid, t) and w.standing(t)]
        if defence > 0 and any(_within(w, uid, t, reach) for t in foes):
            return BRING_IT_DOWN
        return MOVE_MOVE_MOVE
    return TAKE_COVER if move > 0 else None


def orders_at_turn_start(work: Work, turn: int) -> None:
    """L2033: each Orders Leader on the Battlefield orders the friendly units within 18"."""
    idx = index(work.setup)
    given: set[int] = set()
    for leader, perks in enumerate(idx.units):
        if "Orders" not in perks.unit or not work.standing(leader):
            continue
        for uid in work.side_units(work.info(leader).side):
            if uid in given or not work.standing(uid):
                continue
            if uid != leader and not _within(work, leader, uid, 18.0):
                continue
            order = _order_for(work, uid)
            if order is None:
                continue
            given.add(uid)
            _replace_statuses(work, uid, ORDERS, (Status(order, 1, "Orders"),))
            work.emit(
                "perk",
                f"{work.label(leader)} orders {work.label(uid)}: {order}",
                _rule("Orders", 2033),
                unit=uid,
                leader=leader,
                order=order,
            )


# -- Egotistical -------------------------------------------------------------------------------


def _egotists(work: Work) -> list[int]:
    return [uid for uid, p in enumerate(index(work.setup).units) if "Egotistical" in p.unit]


def refresh_alone(work: Work) -> None:
    """L1987: the -1 Dice Modifier of an Egotistical User with no friendly unit within 6"."""
    for uid in _egotists(work):
        alone = work.standing(uid) and not any(
            f != uid and work.standing(f) and _within(work, uid, f, 6.0)
            for f in work.side_units(work.info(uid).side)
        )
        has = work.units[uid].has_status(ALONE)
        if alone != has:
            _replace_statuses(
                work, uid, (ALONE,), (Status(ALONE, None, "Egotistical"),) if alone else ()
            )
            if alone:
                work.emit(
                    "perk",
                    f'{work.label(uid)}: Egotistical, no friendly unit within 6" '
                    "(-1 to its Attack Dice)",
                    _rule("Egotistical", 1987),
                    unit=uid,
                )


def egotistical_at_phase(work: Work, phase: str) -> None:
    refresh_alone(work)


def egotistical_after_move(work: Work, unit: int, dash: bool, distance: float) -> None:
    refresh_alone(work)


def egotistical_after_deploy(work: Work, unit: int) -> None:
    refresh_alone(work)


def _fallen(work: Work, unit: int) -> bool:
    u = work.units[unit]
    return not u.living() and any(u.hp[i] <= 0 for i in range(len(u.hp)))


def egotistical_on_hp_lost(
    work: Work, unit: int, amount: int, source: str, attacker: int | None
) -> None:
    """L1987: a friendly unit within 6" of the User slays an enemy Leader: the User inflicts a
    casualty (the model with the fewest HP, then the last) on that unit, no Saves."""
    if attacker is None or not _fallen(work, unit):
        return
    if not index(work.setup).units[unit].unit & set(LEADERS):
        return
    for uid in _egotists(work):
        if uid == attacker or work.enemies(uid, attacker) or not work.enemies(uid, unit):
            continue
        if not (work.standing(uid) and work.standing(attacker)):
            continue
        if not _within(work, uid, attacker, 6.0):
            continue
        u = work.units[attacker]
        victim = min(u.living(), key=lambda i: (u.hp[i], -i))
        hp = list(u.hp)
        hp[victim] = 0
        work.set_unit(attacker, hp=tuple(hp))
        work.emit(
            "perk",
            f"{work.label(uid)} (Egotistical) slays a model of {work.label(attacker)}"
            f", which took the glory of slaying {work.label(unit)}",
            _rule("Egotistical", 1987),
            unit=attacker,
            model=victim,
        )
        remove_models(work, attacker, [victim], "Egotistical")
        if work.units[attacker].living():
            restore_coherency(work, attacker)


# -- Avenge and Despair (Roster Perks designated to a unit) -----------------------------------

_FALL = {"Avenge": 4258, "Despair": 4282}


def roster_on_hp_lost(
    work: Work, unit: int, amount: int, source: str, attacker: int | None
) -> None:
    """L4258 Avenge, L4282 Despair: the designated unit at 0 HP (once, Limited Use 1)."""
    perks = index(work.setup).units[unit].unit & set(_FALL)
    if not perks or not _fallen(work, unit):
        return
    player = work.info(unit).player
    for perk in sorted(perks):
        if work.units[unit].used(perk):
            continue
        if perk == "Avenge" and (attacker is None or not work.enemies(unit, attacker)):
            continue  # "Slaying the Avenge Unit with a friendly Unit will not trigger Avenge"
        work.units[unit] = work.units[unit].with_use(perk)
        work.dirty = True
        friends = [i for i, info in enumerate(work.setup.units) if info.player == player]
        for f in friends:
            _replace_statuses(work, f, (perk,), (Status(perk, None, perk),))
        sign = "+1" if perk == "Avenge" else "-1"
        work.emit(
            "perk",
            f"{work.label(unit)} has fallen: {perk}, {sign} to every Attack Die of "
            f"its Roster for the rest of the game",
            _rule(perk, _FALL[perk]).replace("§12.4", "§12.7 Roster Perks"),
            unit=unit,
            perk=perk,
        )


#: the perk the Egotistical hooks read (``_egotists``)
_EGO = ("Egotistical",)


def register_hooks(reg: HookRegistry) -> None:
    """Register this module's hooks (one call from :func:`.perk_hooks.register_perk_hooks`)."""
    reg.register(
        Hook.TURN_START,
        orders_at_turn_start,
        "Orders",  # it goes over the set-up's Orders Leaders alone (s37)
        when=lambda setup: any("Orders" in p.unit for p in index(setup).units),
    )
    reg.register(Hook.PHASE_START, egotistical_at_phase, "Egotistical", perks=_EGO)
    reg.register(Hook.AFTER_MOVE, egotistical_after_move, "Egotistical", perks=_EGO)
    reg.register(Hook.DEPLOY, egotistical_after_deploy, "Egotistical", perks=_EGO)
    reg.register(Hook.HP_LOST, egotistical_on_hp_lost, "Egotistical", perks=_EGO)
    # the set-up's Avenge and Despair units (``index``; issue 10, session 34)
    reg.register(Hook.HP_LOST, roster_on_hp_lost, "Avenge, Despair", perks=_FALL)
