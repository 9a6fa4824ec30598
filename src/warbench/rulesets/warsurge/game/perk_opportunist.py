"""Opportunist in a game (Perks 000_94ecc6a4c74d351b.txt L1340-L1345, Aeonian):

    "The User can delay the use of Perks, Weapons with the Heal Perk and Movement to the end of
    the Game Turn instead of their usual timing, assuming it does not damage an enemy Unit. The
    User can choose to delay any or all actions. In Advanced, Actions made with Opportunist still
    cost CP."

* **Delaying** is the player's decision, the :class:`~.actions.Delay` action (default: not
  delayed, so the engine's own player and every game without the perk are unchanged). In the
  Standard playstyle ``Delay(unit)`` in the Move or Dash Phase delays the unit's Move or Dash,
  in the Attack Phase its Attack with its Heal Weapons (the unit has acted in that Phase);
  ``Delay(unit, perk_use=True)`` delays its perk use (the unit keeps its action). In the Advanced
  playstyle ``Delay(unit)``, between Action Steps, delays all the unit's remaining Actions: it
  makes no more Actions in the Action Steps. The delays are the unit's counter
  :data:`DELAYED` (a bit per delayed thing), cleared when the Game Turn's window closes.
* **The window** (:attr:`~.state.Phase.OPPORTUNIST`) follows the playstyle's last phase of a
  Game Turn in which something was delayed, before the end of the Game Turn (``turn``): the
  sides alternate clockwise from the Turn Master as in a Phase, each making one delayed action
  with one unit or passing. A Standard unit makes each thing it delayed once (a Move, a Dash,
  an Attack with Heal Weapons only, a perk use); an Advanced unit makes Move, Dash, Attack
  (Heal Weapons only) and Use Perks Actions, each costing its §9.2 CP (doubling on reuse).
* **No damage to an enemy Unit** (:func:`damaging_perk`): an Attack in the window uses only
  Weapons with the Heal Perk (which Target friendly units, ``perk_heal``); Self-Destruct and a
  Nightmare Anomaly on an enemy unit are refused with the rule.

docs/rulings.md "WARSURGE perks in play: session 26, s26-opportunist" gives the rulings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.game.actions import (
    Action,
    Attack,
    Delay,
    Disembark,
    Embark,
    EmbarkTerrain,
    Move,
)
from warbench.rulesets.warsurge.game.actions_advanced import UsePerks
from warbench.rulesets.warsurge.game.advstate import Playstyle, weapon_type_bar
from warbench.rulesets.warsurge.game.perk_heal import heal_targets, heals
from warbench.rulesets.warsurge.game.perk_turn import index
from warbench.rulesets.warsurge.game.state import Location, Phase

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.plans import Plan
    from warbench.rulesets.warsurge.game.work import Work

__all__ = [
    "DELAYED",
    "OPPORTUNIST",
    "RULE",
    "announce",
    "any_delayed",
    "apply_delay",
    "apply_window",
    "can_act",
    "close",
    "damaging_perk",
    "delayed",
    "has_opportunist",
    "may_use_perks",
    "verify_delay",
    "verify_window",
    "window_attacks",
    "window_perks",
    "window_phases",
]

OPPORTUNIST = "Opportunist"
RULE = "Perks §12.3 Opportunist (000_94ecc6a4c74d351b.txt L1340)"
_ADVANCED_RULE = "Perks §12.3 Opportunist (000_94ecc6a4c74d351b.txt L1345; Core §9.2)"

#: The unit's counter of what it delayed this Game Turn: a bit per thing (:data:`BITS`).
DELAYED = "opportunist delayed"
MOVE, DASH, ATTACK, PERKS, ACTIONS = 1, 2, 4, 8, 16
#: The bit of each Standard thing a unit may delay, by its §9.2 name.
BITS = {"Move": MOVE, "Dash": DASH, "Attack": ATTACK, "Use Perks": PERKS}
#: What a Standard Phase's ``Delay(unit)`` delays.
_PHASE_BIT = {Phase.MOVE: MOVE, Phase.DASH: DASH, Phase.ATTACK: ATTACK}

#: Activated perks whose use may damage an enemy Unit: never delayed (Self-Destruct, L3156:
#: "must Target the closest Unit (friend or foe)"); Nightmare Anomaly (L4354) only on a friendly
#: unit (its 5 is "D6 Attack Dice at Power 10").
_DAMAGING = frozenset({"Self-Destruct"})
_NIGHTMARE = "Nightmare Anomaly"

#: The callables the window borrows from ``rules`` and ``perk_hooks`` (no import cycle):
#: the unit action's own check, its application (False: an Attack waits for casualties), the
#: Standard check of a perk use, the use itself and the perks a unit may use now.
UnitPlan = Callable[["Work", Action], "Plan"]
UnitApply = Callable[["Work", Action, "Plan"], bool]
PerkCheck = Callable[["Work", UsePerks, int], None]
PerkUse = Callable[["Work", int, tuple[str, ...]], None]
Usable = Callable[["Work", int], list[str]]


def has_opportunist(work: Work, uid: int) -> bool:
    """Whether ``uid`` has Opportunist (a profile perk or a Trait)."""
    return OPPORTUNIST in index(work.setup).units[uid].unit


def delayed(work: Work, uid: int) -> int:
    """The bits of what ``uid`` has delayed this Game Turn (0: nothing)."""
    u = work.units[uid]
    return u.counter(DELAYED) if u.counters else 0


def any_delayed(work: Work) -> bool:
    """Whether some unit delayed something this Game Turn (the window opens)."""
    return any(u.counters and u.counter(DELAYED) for u in work.units)


def announce(work: Work) -> None:
    """The window opens: say so (the delays it follows are the units' counters)."""
    units = [u.uid for u in work.units if u.counters and u.counter(DELAYED)]
    work.emit(
        "opportunist",
        "the end of the Game Turn: the delayed actions of "
        + ", ".join(work.label(uid) for uid in units),
        RULE,
        units=units,
    )


def close(work: Work) -> None:
    """The window is over: every delay of this Game Turn is forgotten."""
    for u in list(work.units):
        if u.counters and any(name == DELAYED for name, _ in u.counters):
            work.set_unit(u.uid, counters=tuple(c for c in u.counters if c[0] != DELAYED))


def _refuse(work: Work, uid: int, side: int) -> None:
    if not 0 <= uid < len(work.units):
        raise RulesError(f"there is no unit {uid}", "§2.1 Unit")
    info = work.info(uid)
    if work.units[uid].controller(info.side) != side:
        raise RulesError(
            f"{info.label} belongs to {work.side_name(info.side)}; it is "
            f"{work.side_name(side)}'s turn to act",
            "§2.1 Alternating Actions",
        )
    if not has_opportunist(work, uid):
        raise RulesError(
            f"{info.label} has no Opportunist: only its User may delay an action to the end of "
            "the Game Turn",
            RULE,
        )
    if work.units[uid].location not in (Location.TABLE, Location.EMBARKED, Location.TERRAIN):
        raise RulesError(f"{info.label} is not on the battlefield", RULE)


def verify_delay(work: Work, action: Delay, side: int, movable: bool) -> None:
    """Raise why ``action`` may not be made now. ``movable``: whether the unit could still
    make the Phase's Move or Dash (``turn.eligible``)."""
    uid = action.unit
    _refuse(work, uid, side)
    label = work.label(uid)
    bits = delayed(work, uid)
    phase = work.flow.phase
    if phase is Phase.ACTIONS:  # Advanced: the unit's remaining Actions (L1345)
        a = work.flow.adv
        assert a is not None
        if action.perk_use:
            raise RulesError(
                "in the Advanced playstyle a Delay delays all the unit's remaining Actions "
                "(Use Perks among them); give no perk_use",
                _ADVANCED_RULE,
            )
        if a.counter is not None:
            raise RulesError("a Counter Action is asked first", "§9.3")
        if a.step_unit is not None:
            raise RulesError(
                f"an Action Step directing {work.label(a.step_unit)} is under way; delay "
                "between Action Steps",
                _ADVANCED_RULE,
            )
        if uid in a.supported:
            raise RulesError(f"{label} used Support and makes no more Actions", "§9.2 Support")
        if bits & ACTIONS:
            raise RulesError(f"{label} has delayed its Actions already", _ADVANCED_RULE)
        return
    if work.setup.playstyle is Playstyle.ADVANCED:
        raise RulesError(
            "in the Advanced playstyle a unit delays its remaining Actions between Action Steps",
            _ADVANCED_RULE,
        )
    if action.perk_use:
        if bits & PERKS:
            raise RulesError(f"{label} has delayed its perk use already", RULE)
        return
    if phase not in _PHASE_BIT:
        raise RulesError(
            f"Opportunist delays Movement, Weapons with the Heal Perk and Perks, not a "
            f"{phase.value}; use perk_use to delay the unit's perk use",
            RULE,
        )
    if work.units[uid].acted:
        raise RulesError(f"{label} has already acted in this {phase.value} Phase", "§2.2")
    if phase is Phase.ATTACK:
        if not any(heals(work, uid, wp.name) for wp in work.info(uid).unit.weapons):
            raise RulesError(
                f"{label} has no Weapon with the Heal Perk: Opportunist delays only those "
                "Weapons' use",
                RULE,
            )
    elif not movable:
        raise RulesError(f"{label} cannot make a {phase.value} now: nothing to delay", RULE)


def apply_delay(work: Work, action: Delay) -> bool:
    """Record the delay; True when the unit has acted in the Phase (a Standard Move, Dash or
    Attack delayed), so the next side acts."""
    uid = action.unit
    phase = work.flow.phase
    if phase is Phase.ACTIONS:
        bit, what = ACTIONS, "its remaining Actions"
    elif action.perk_use:
        bit, what = PERKS, "its perk use"
    else:
        bit = _PHASE_BIT[phase]
        what = {MOVE: "its Move", DASH: "its Dash", ATTACK: "its Heal Weapons' Attack"}[bit]
    work.units[uid] = work.units[uid].with_counter(DELAYED, delayed(work, uid) | bit)
    work.dirty = True
    work.emit(
        "opportunist",
        f"{work.label(uid)} delays {what} to the end of the Game Turn (Opportunist)",
        RULE,
        unit=uid,
        delayed=what,
    )
    if bit in (MOVE, DASH, ATTACK):
        work.set_unit(uid, acted=True)
        return True
    return False


def can_act(work: Work, uid: int) -> bool:
    """Cheap test: may ``uid`` still act in the window (before geometry)?"""
    bits = delayed(work, uid)
    u = work.units[uid]
    if not bits or u.location in (Location.DESTROYED, Location.RESERVE) or u.wrecked:
        return False
    a = work.flow.adv
    if a is None:
        return True
    side = u.controller(work.info(uid).side)
    return bool(bits & ACTIONS) and a.cp[side] >= 1


def _name(action: Action) -> str | None:
    if isinstance(action, Move | Embark | EmbarkTerrain | Disembark):
        return "Dash" if action.dash else "Move"
    if isinstance(action, Attack):
        return "Attack"
    if isinstance(action, UsePerks):
        return "Use Perks"
    return None


def damaging_perk(work: Work, uid: int, name: str) -> str | None:
    """Why the perk use ``name`` (``"<rank>: <option>"`` for a choice) may damage an enemy
    Unit, so Opportunist may not delay it; or ``None``."""
    rank, _, option = name.partition(":")
    rank, option = rank.strip(), option.strip()
    if rank in _DAMAGING:
        return f"{rank} may damage an enemy Unit: Opportunist may not delay it"
    if rank == _NIGHTMARE:
        if not option.isdigit():
            return f"{rank} names no unit, and on an enemy unit it may damage it"
        target = int(option)
        if 0 <= target < len(work.units) and work.enemies(uid, target):
            return (
                f"{rank} on {work.label(target)}, an enemy unit, may damage it (its 5: D6 "
                "Attack Dice at Power 10): Opportunist may not delay it"
            )
    return None


def window_perks(work: Work, uid: int, usable: Usable) -> list[str]:
    """The perk uses ``uid`` may make in the window: those it may use now that cannot damage
    an enemy Unit."""
    return [n for n in usable(work, uid) if damaging_perk(work, uid, n) is None]


def verify_window(
    work: Work,
    action: Action,
    side: int,
    plan_of: UnitPlan,
    check_perks: PerkCheck,
    usable: Usable,
) -> Plan:
    """Raise why ``action`` may not be made in the window; return its plan."""
    name = _name(action)
    if name is None:
        raise RulesError(
            f"{type(action).__name__} is not made in the Opportunist window at the end of the "
            "Game Turn; allowed: the delayed Move, Dash, Attack with Heal Weapons, perk use, pass",
            RULE,
        )
    uid = action.unit  # type: ignore[union-attr]
    _refuse(work, uid, side)
    label = work.label(uid)
    bits = delayed(work, uid)
    a = work.flow.adv
    if a is not None:
        if not bits & ACTIONS:
            raise RulesError(f"{label} delayed no Actions this Game Turn", _ADVANCED_RULE)
        unpaid = a.cp_refusal(uid, name, side, label, work.side_name(side))
        if unpaid is not None:
            raise RulesError(unpaid, _ADVANCED_RULE)
    elif not bits & BITS[name]:
        what = {"Attack": "Attack with Heal Weapons", "Use Perks": "perk use"}.get(name, name)
        raise RulesError(f"{label} did not delay its {what} this Game Turn (or made it)", RULE)
    u = work.units[uid]
    fired = weapon_type_bar(name, u.heavy, u.battle, u.present())
    if fired is not None:
        raise RulesError(
            f"{label} used {fired} this Game Turn: it may not {name} after it",
            "§5.1 Weapon Types (001 L2234-L2240)",
        )
    if isinstance(action, UsePerks):
        names = list(action.perks) or window_perks(work, uid, usable)
        if not names:
            raise RulesError(f"{label} has no perk it may use now without damaging", RULE)
        for n in names:
            why = damaging_perk(work, uid, n)
            if why is not None:
                raise RulesError(why, RULE)
        check_perks(work, UsePerks(uid, tuple(names)), side)
        return None
    if isinstance(action, Attack):
        for share in action.targets:
            if not heals(work, uid, share[0]):
                raise RulesError(
                    f"{share[0]} has no Heal Perk: at the end of the Game Turn Opportunist uses "
                    "only Weapons with the Heal Perk (it may not damage an enemy Unit)",
                    RULE,
                )
    return plan_of(work, action)


def apply_window(
    work: Work,
    action: Action,
    plan: Plan,
    apply_unit: UnitApply,
    use: PerkUse,
    usable: Usable,
) -> bool:
    """Make the delayed action (paying its CP in Advanced); False while an Attack waits for
    its casualties to be chosen."""
    name = _name(action)
    assert name is not None
    uid = action.unit  # type: ignore[union-attr]
    a = work.flow.adv
    side = work.units[uid].controller(work.info(uid).side)
    if a is not None:
        cost = a.cost(uid, name)
        a = a.with_cp(side, -cost).with_use(uid, name)
        if a.guard_of(uid):  # Guard lasts until a different Action (§9.2)
            a = a.with_guard(uid, 0)
        work.flow = replace(work.flow, adv=a)
        work.emit(
            "action",
            f"{work.label(uid)}: {name} (Opportunist, {cost} CP; {work.side_name(side)} has "
            f"{a.cp[side]} CP)",
            _ADVANCED_RULE,
            unit=uid,
            action=name,
            cost=cost,
            cp=a.cp[side],
        )
    else:
        left = delayed(work, uid) & ~BITS[name]
        work.units[uid] = work.units[uid].with_counter(DELAYED, left)
        work.dirty = True
        work.emit(
            "opportunist",
            f"{work.label(uid)} makes its delayed {name} at the end of the Game Turn",
            RULE,
            unit=uid,
            action=name,
        )
    if isinstance(action, UsePerks):
        use(work, uid, action.perks or tuple(window_perks(work, uid, usable)))
        return True
    return apply_unit(work, action, plan)


def window_attacks(work: Work, uid: int) -> Iterator[Attack]:
    """The window's Attack candidates of ``uid``: its Heal Weapons at each wounded friendly
    unit in reach (``perk_heal.heal_targets``)."""
    ht = heal_targets(work, uid)
    for t in list(dict.fromkeys(t for ts in ht.values() for t in ts)):
        yield Attack(uid, tuple((wn, t) for wn, ts in ht.items() if t in ts))


def window_phases(work: Work, uid: int) -> tuple[Phase, ...]:
    """The Phases whose candidates ``uid`` may make in the window (Move, Dash, Attack)."""
    bits = delayed(work, uid)
    if bits & ACTIONS:
        return (Phase.MOVE, Phase.DASH, Phase.ATTACK)
    pairs = ((MOVE, Phase.MOVE), (DASH, Phase.DASH), (ATTACK, Phase.ATTACK))
    return tuple(p for b, p in pairs if bits & b)


def may_use_perks(work: Work, uid: int) -> bool:
    """Whether ``uid`` may use perks in the window (it delayed its perk use, or in Advanced
    its Actions)."""
    return bool(delayed(work, uid) & (PERKS | ACTIONS))
