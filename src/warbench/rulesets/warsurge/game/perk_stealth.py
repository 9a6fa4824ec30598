"""Stealth in a game (Perks 000_94ecc6a4c74d351b.txt §12.4 Defensive, L1769-L1787).

    "Stealth — Activate, Specific. The User can only be Targeted by enemy Units that have a
    model within 12" of them, reduced to 6" if having a Cover Bonus. The User cannot contest or
    hold Objectives with Stealth active. Weapons with a Mode Perk or Template can only Target
    the Stealth Unit if it Scatters onto them or is a by-product of attacking another Target.
    The User may not use Weapons with Stealth active, and loses Stealth immediately if it loses
    HP. The User can only deactivate Stealth after Movement, or during the Move or Dash Phases.
    In an Advanced Game, the 'Attack' Action can also be used to deactivate Stealth. The User
    may Activate Stealth if there is no Line of Sight to all enemy Units, or while in Reserve.
    The User can choose to Deploy onto the Battlefield with Stealth already active."

* **Activated** with ``UsePerks(unit, ("Stealth",))`` (once per Game Turn in the Standard
  playstyle, §12.2 L227) when no enemy unit on the battlefield has a model in line of sight of
  the unit, or while it is in Reserve (it then deploys with Stealth active); it lasts until it
  is deactivated or lost (:func:`use_refusal`; docs/rulings.md "Stealth" 1, as revised in
  session 25). **Deactivated** with ``UsePerks(unit, ("Stealth: off",))`` during the Move or
  Dash Phases (Standard), or in an Action Step after the unit's Move or Dash this Game Turn
  (Advanced), where its Attack Action also ends it (:func:`lift_on_attack`). **Lost** when the
  unit loses HP (:func:`lose_on_hp`). While it is active the unit may not use Weapons
  (``perk_limits.weapon_refusal``, Standard). Under the ``perk use`` automation the engine
  activates it as each Attack Phase starts for a threatened unit no enemy sees, and
  deactivates it as the Move Phase starts for a unit with an enemy in its reach
  (:func:`stealth_at_phase_start`).
* **Targeting** (:func:`target_refusal`, asked by ``perk_limits.target_refusal`` for every
  Attack the game checks and every target the players list): an enemy unit whose closest model
  is farther than 12" from the Stealth unit (6" when the Stealth unit has a Cover Bonus against
  that attacker, §5.4) may not Target it; a Weapon with a Mode Perk (Blast, Cone, Beam …) may
  not Target it at any distance. An attacker with Keen Eye (L1324, "unaffected by the Stealth
  Perk") may Target it as if it had none. Templates that scatter onto it, or cover it while
  aimed at another unit, still hit it (``perk_mode`` places templates over every unit under
  them).
* **Objectives** (:func:`may_hold`, used by ``terrain_control.control``): a unit under Stealth
  neither holds nor contests an Objective; nor does a Paralysed unit (L2800, "unable to hold or
  contest Objectives").
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.state import DEFECTED

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.state import GameState
    from warbench.rulesets.warsurge.game.work import Work

__all__ = [
    "OFF",
    "STEALTH",
    "may_hold",
    "options",
    "register_hooks",
    "stealth_at_phase_start",
    "target_refusal",
    "use_refusal",
    "weapons_refusal",
]

#: The status of a unit with Stealth active; the option that deactivates it.
STEALTH = "Stealth"
OFF = "off"
_RULE = "Perks §12.4 Stealth (000_94ecc6a4c74d351b.txt L1769)"
#: L1770: "within 12" of them, reduced to 6" if having a Cover Bonus".
REACH, REACH_IN_COVER = 12.0, 6.0
#: Statuses under which a unit neither holds nor contests an Objective (L1775, L2800).
NO_OBJECTIVES = frozenset(
    {STEALTH, "Paralysis", "Concealed", DEFECTED, "Incorporeal"}
)  # Concealed L4151; Traitorous, Enslaved; Incorporeal L2469


def _hidden(work: Work, uid: int) -> bool:
    u = work.units[uid]
    return bool(u.statuses) and any(s.name == STEALTH for s in u.statuses)


@cache
def _mode_perks() -> frozenset[str]:
    from warbench.rulesets.warsurge.effects.table import load_table

    return frozenset(r.name for r in load_table() if r.family == "Mode")


def target_refusal(work: Work, uid: int, weapon: str, target: int) -> str | None:
    """Why ``uid``'s ``weapon`` may not Target ``target`` because ``target`` is under Stealth
    (L1769-L1775), or ``None``."""
    if not _hidden(work, target) or not work.enemies(uid, target):
        return None
    from warbench.rulesets.warsurge.game.perk_index import perks_now
    from warbench.rulesets.warsurge.game.targeting import view_target

    perks = perks_now(work, uid)
    if "Keen Eye" in perks.unit:  # L1324: "unaffected by the Stealth Perk"
        return None
    modes = perks.weapon_perks(weapon) & _mode_perks()
    if modes:
        return (
            f"{work.label(target)} is under Stealth: {weapon} ({min(modes)}, a Mode Perk) may "
            f"only hit it by Scattering onto it or over another Target ({_RULE})"
        )
    view = view_target(work, uid, target)
    reach = REACH_IN_COVER if view.cover > 0 else REACH
    if view.distance <= reach + 1e-9:
        return None
    cover = " (it has a Cover Bonus)" if view.cover > 0 else ""
    return (
        f"{work.label(target)} is under Stealth: only enemy units with a model within "
        f'{reach:g}"{cover} may Target it; {work.label(uid)} is {view.distance:.1f}" away '
        f"({_RULE})"
    )


def may_hold(state: GameState, uid: int) -> bool:
    """Whether unit ``uid`` may hold or contest an Objective (not under Stealth, L1775, nor
    Paralysis, L2800)."""
    u = state.units[uid]
    return not u.statuses or not any(s.name in NO_OBJECTIVES for s in u.statuses)


def has_stealth(work: Work, uid: int) -> bool:
    """Whether the unit has the Stealth perk."""
    return _stealthy(work, uid)


def _stealthy(work: Work, uid: int) -> bool:
    from warbench.rulesets.warsurge.game.perk_turn import index

    return STEALTH in index(work.setup).units[uid].unit


def stealth_at_phase_start(work: Work, phase: str) -> None:
    """The engine's use of Stealth under the ``perk use`` automation (a player uses it with
    ``UsePerks``): as each Attack Phase starts, a unit on the battlefield that has not used it
    this Game Turn, is not Paralysed, is within an enemy unit's longest Range (18" at least)
    and is seen by no enemy unit activates Stealth; as each Move Phase starts, a unit under
    Stealth with an enemy unit within its own reach deactivates it, to attack this Game Turn
    (docs/rulings.md "Stealth" 2)."""
    from warbench.rulesets.warsurge.game.state import Automation, Phase

    if Automation.PERK_USE not in work.setup.automation:
        return
    if phase == Phase.MOVE.value:
        for uid in range(len(work.units)):
            if _hidden(work, uid) and work.standing(uid) and _in_reach(work, uid):
                deactivate(work, uid, "to attack (the engine's choice)")
        return
    if phase != Phase.ATTACK.value:
        return
    turn = work.flow.turn
    for uid in range(len(work.units)):
        if not _stealthy(work, uid) or not work.standing(uid) or _hidden(work, uid):
            continue
        u = work.units[uid]
        if u.counter(f"used {STEALTH}") == turn:
            continue  # once per Game Turn (§12.2 L227)
        if any(s.name == "Paralysis" for s in u.statuses) or not _threatened(work, uid):
            continue
        if _seen(work, uid):
            continue  # L1785: "if there is no Line of Sight to all enemy Units"
        work.units[uid] = u.with_counter(f"used {STEALTH}", turn).with_use(STEALTH)
        work.dirty = True
        activate(work, uid)


def activate(work: Work, uid: int) -> None:
    """Put the unit under Stealth until it is deactivated or lost."""
    from warbench.rulesets.warsurge.game.state import Status

    u = work.units[uid]
    work.set_unit(uid, statuses=(*u.statuses, Status(STEALTH, None, f"u{uid}/{STEALTH}")))
    work.emit("perk", f"{work.label(uid)} uses {STEALTH}", _RULE, unit=uid, perk=STEALTH)


def deactivate(work: Work, uid: int, why: str) -> None:
    """End the unit's Stealth (L1779-L1781)."""
    u = work.units[uid]
    if not _hidden(work, uid):
        return
    work.set_unit(uid, statuses=tuple(s for s in u.statuses if s.name != STEALTH))
    work.emit("perk", f"{work.label(uid)}: {STEALTH} ends ({why})", _RULE, unit=uid, perk=STEALTH)


def _seen(work: Work, uid: int) -> bool:
    """Whether an enemy unit on the battlefield has a model in line of sight of a model of
    ``uid`` (any range)."""
    from warbench.rulesets.warsurge.game.targeting import view_target

    return any(
        work.standing(o.uid) and work.enemies(uid, o.uid) and view_target(work, o.uid, uid).visible
        for o in work.units
    )


def _in_reach(work: Work, uid: int) -> bool:
    """Whether an enemy unit stands within the unit's longest Range plus its Move."""
    from warbench.rulesets.warsurge.game.perk_effects import weapon_ranges

    reach = max(weapon_ranges(work.info(uid), work.units[uid].statuses).values(), default=0.0)
    reach += work.info(uid).unit.profile.move
    return any(
        work.standing(o.uid) and work.enemies(uid, o.uid) and work.gap(uid, o.uid) <= reach
        for o in work.units
    )


def use_refusal(work: Work, uid: int, option: str) -> str | None:
    """Why the unit may not activate (``option`` empty) or deactivate (``"off"``) Stealth
    now, or ``None`` (the other limits, once per Game Turn and Paralysis, are the caller's)."""
    from warbench.rulesets.warsurge.game.advstate import Playstyle
    from warbench.rulesets.warsurge.game.state import Location, Phase

    u = work.units[uid]
    if option == OFF:
        if not _hidden(work, uid):
            return f"{work.label(uid)} has no Stealth active to deactivate ({_RULE})"
        if work.setup.playstyle is Playstyle.ADVANCED:
            if not (u.unit_moved or u.unit_dashed):
                who = work.label(uid)
                return f"{who} has not moved: Stealth is deactivated after Movement (L1781)"
            return None
        if work.flow.phase not in (Phase.MOVE, Phase.DASH):
            return "Stealth is deactivated after Movement, in the Move or Dash Phases (L1781)"
        return None
    if option:
        return f"Stealth gives no choice {option!r}; allowed: none, or {OFF!r} ({_RULE})"
    if _hidden(work, uid):
        return f"{work.label(uid)} has Stealth active already ({_RULE})"
    if u.location is Location.RESERVE:
        return None  # L1785: "or while in Reserve" (it deploys with Stealth active, L1787)
    if u.location is not Location.TABLE or not u.living():
        return f"{work.label(uid)} is not on the battlefield nor in Reserve ({_RULE})"
    if _seen(work, uid):
        return (
            f"{work.label(uid)} is in an enemy unit's line of sight: Stealth is activated "
            f"only out of every enemy unit's sight, or in Reserve (L1785)"
        )
    return None


def options(work: Work, uid: int) -> list[str]:
    """The Stealth uses the unit may make now: activate it, or deactivate it."""
    if _hidden(work, uid):
        off = f"{STEALTH}: {OFF}"
        return [off] if use_refusal(work, uid, OFF) is None else []
    return [STEALTH] if use_refusal(work, uid, "") is None else []


def weapons_refusal(work: Work, uid: int) -> str:
    """L1779: "The User may not use Weapons with Stealth active"."""
    return (
        f"{work.label(uid)} has Stealth active: it may not use Weapons (deactivate it after "
        f"Movement, in the Move or Dash Phases; {_RULE})"
    )


def lose_on_hp(work: Work, unit: int, amount: int, source: str, attacker: int | None) -> None:
    """L1779: Stealth is lost "immediately if it loses HP"."""
    if amount > 0 and _hidden(work, unit):
        deactivate(work, unit, "it lost HP")


def lift_on_attack(work: Work, unit: int, weapon: str, target: int) -> None:
    """L1783: in the Advanced playstyle the Attack Action deactivates Stealth."""
    from warbench.rulesets.warsurge.game.advstate import Playstyle

    if work.setup.playstyle is Playstyle.ADVANCED and _hidden(work, unit):
        deactivate(work, unit, "its Attack Action")


def _threatened(work: Work, uid: int) -> bool:
    """Whether an enemy unit on the battlefield has ``uid`` within its longest Range (18" at
    least), as the game reads its Weapons now."""
    from warbench.rulesets.warsurge.game.perk_effects import weapon_ranges

    for other in work.units:
        if not work.standing(other.uid) or not work.enemies(uid, other.uid):
            continue
        reach = max([18.0, *weapon_ranges(work.info(other.uid), other.statuses).values()])
        if work.gap(uid, other.uid) <= reach + 1e-9:
            return True
    return False


def register_hooks(reg: HookRegistry) -> None:
    """Register this module's hooks (one call from ``perk_families.register_family_hooks``)."""
    reg.register(
        Hook.PHASE_START, stealth_at_phase_start, "Stealth (automatic use)", perks=[STEALTH]
    )
    reg.register(Hook.HP_LOST, lose_on_hp, "Stealth lost with HP (L1779)", perks=[STEALTH])
    reg.register(
        Hook.WEAPON_USED,
        lift_on_attack,
        "Stealth ended by an Attack Action (L1783)",
        perks=[STEALTH],
    )
