"""Orders' Order as a player's decision (Perks 000_94ecc6a4c74d351b.txt §12.4 Orders, L2033-L2041;
issue 11, session 26, s26b-choices).

    "At the start of the Game Turn, the User can direct any friendly Units within 18" (including
    itself) to choose one of the following: Move, Move, Move! … Take Cover! … Bring it Down!"

* **The default**: as every Game Turn starts, :mod:`.perk_leadership` gives each unit the
  engine's Order (docs/rulings.md, "Orders"), in every game, so a game whose players keep it is
  the game it was.
* **The choice**: the Leader's player may give a unit another Order (or confirm the one it has)
  with ``UsePerks(leader, ("Orders: <n> <Order>",))``, ``<n>`` the unit's number: at the start
  of the Game Turn for the Leader (the Deploy Phase, or the Move Phase before it moves), for a
  friendly unit within 18" of it (or itself) that has not moved, dashed or used a Weapon this
  Game Turn; a unit's Order is chosen once a Game Turn (``Orders chosen``, its counter). The
  options listed (:func:`options`) are every other Order of every such unit; a bad choice is
  refused naming the rule and the allowed options (:func:`refused`).
* **Standard only**: in the Advanced playstyle a perk is used by a Use Perks Action for CP
  (L234-L236); Orders is no activated perk, and the engine's Order stands there
  (docs/rulings.md, "session 26, s26b-choices" 1).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game.advstate import Playstyle
from warbench.rulesets.warsurge.game.perk_leadership import ORDERS, _rule, _within
from warbench.rulesets.warsurge.game.perk_turn import WEAPONS_TURN, _replace_statuses
from warbench.rulesets.warsurge.game.state import Status

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["CHOSEN", "ORDERS_PERK", "options", "prompt", "refused", "use"]

ORDERS_PERK = "Orders"
#: a unit's counter: the Game Turn its Order was chosen by its player
CHOSEN = "Orders chosen"
RULE = _rule(ORDERS_PERK, 2033)


def _fresh(work: Work, uid: int) -> bool:
    """Whether ``uid`` has not moved, dashed or used a Weapon this Game Turn, nor had its
    Order chosen (so the Order it takes still governs its whole Game Turn)."""
    u = work.units[uid]
    turn = work.flow.turn
    weapons = u.counter(WEAPONS_TURN) == turn
    return not (u.unit_moved or u.unit_dashed or weapons or u.counter(CHOSEN) == turn)


def directable(work: Work, leader: int) -> list[int]:
    """The units ``leader`` may direct now: itself and the friendly units within 18", standing
    and fresh (:func:`_fresh`), in roster order."""
    return [
        uid
        for uid in work.side_units(work.info(leader).side)
        if work.standing(uid)
        and (uid == leader or _within(work, leader, uid, 18.0))
        and _fresh(work, uid)
    ]


def current(work: Work, uid: int) -> str | None:
    """The Order ``uid`` holds this Game Turn, or ``None``."""
    st = work.units[uid].statuses
    return next((s.name for s in st if s.name in ORDERS), None) if st else None


def _all_options(work: Work, leader: int) -> list[str]:
    return [f"{uid} {order}" for uid in directable(work, leader) for order in ORDERS]


def _base(work: Work, leader: int, start: bool) -> str | None:
    if work.setup.playstyle is Playstyle.ADVANCED:
        return (
            "in the Advanced playstyle the engine gives the Orders (Orders is no activated "
            f"perk to use for CP, L234-L236; docs/rulings.md s26b-choices 1) ({RULE})"
        )
    if not start:
        return (f"Orders are given at the start of the Game Turn: in the Deploy Phase, or in the "
                f"Move Phase before {work.label(leader)} moves ({RULE})")  # fmt: skip
    if not directable(work, leader):
        return (
            f'no friendly unit within 18" of {work.label(leader)} (or itself) that has not '
            f"moved, dashed or used a Weapon this Game Turn, or had its Order chosen ({RULE})"
        )
    return None


def refused(work: Work, leader: int, option: str, start: bool) -> str | None:
    """Why ``leader`` may not give the Order ``option`` names (``"<n> <Order>"``) now
    (``start``: the start of the Game Turn for it), or ``None``."""
    why = _base(work, leader, start)
    if why is not None:
        return why
    allowed = _all_options(work, leader)
    if option.strip() not in allowed:
        return (f"name a unit and its Order, one of: {'; '.join(allowed)} (the Orders are "
                f"{', '.join(ORDERS)}) ({RULE})")  # fmt: skip
    return None


def options(work: Work, leader: int, start: bool) -> list[str]:
    """The Orders a player is shown: every Order but the one it holds, of every unit the
    Leader may direct now (the one it holds is the default, kept by not choosing)."""
    if _base(work, leader, start) is not None:
        return []
    return [
        f"{uid} {order}"
        for uid in directable(work, leader)
        for order in ORDERS
        if order != current(work, uid)
    ]


def use(work: Work, leader: int, option: str) -> None:
    """The player's Order: ``option``'s unit takes it for the Game Turn, in place of any Order
    it had (one Order a unit, L2033)."""
    number, _, order = option.strip().partition(" ")
    uid = int(number)
    work.units[uid] = work.units[uid].with_counter(CHOSEN, work.flow.turn)
    work.dirty = True
    _replace_statuses(work, uid, ORDERS, (Status(order, 1, ORDERS_PERK),))
    work.emit(
        "perk",
        f"{work.label(leader)} orders {work.label(uid)}: {order} (its player's choice)",
        RULE,
        unit=uid,
        leader=leader,
        order=order,
    )


def prompt(work: Work, side: int, start: Callable[[Work, int], bool]) -> str:
    """The activation prompt's words for the Orders ``side``'s Leaders may give now (``start``:
    whether it is the start of the Game Turn for a unit), or ``""``."""
    from warbench.rulesets.warsurge.game.perk_turn import index

    perks = index(work.setup).units
    able = [
        u
        for u in work.acting_units(side)
        if ORDERS_PERK in perks[u].unit and work.standing(u) and options(work, u, start(work, u))
    ]
    if not able:
        return ""
    return (
        f"; or give a unit another Order (Orders, Perks L2033): use_perks, unit "
        f"{', '.join(map(str, able))}, perks ['Orders: <unit> <Order>'], the Order one of "
        f"{', '.join(ORDERS)}"
    )
