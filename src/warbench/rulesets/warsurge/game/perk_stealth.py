"""Stealth in a game (Perks 000_94ecc6a4c74d351b.txt §12.4 Defensive, L1769-L1775).

    "Stealth — Activate, Specific. The User can only be Targeted by enemy Units that have a
    model within 12" of them, reduced to 6" if having a Cover Bonus. The User cannot contest or
    hold Objectives with Stealth active. Weapons with a Mode Perk or Template can only Target
    the Stealth Unit if it Scatters onto them or is a by-product of attacking another Target."

* **Used** like every activated perk (``UsePerks`` in either playstyle, once per Game Turn,
  §12.2 L227): the unit is under the status ``Stealth`` until the end of that Game Turn (the
  text gives no duration; docs/rulings.md "Stealth" 1). Under the ``perk use`` automation the
  engine uses it as each Attack Phase starts when an enemy unit could reach the unit with a
  Weapon or a Move (:func:`stealth_at_phase_start`).
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
    "STEALTH",
    "may_hold",
    "register_hooks",
    "stealth_at_phase_start",
    "target_refusal",
]

#: The status of a unit that used Stealth this Game Turn.
STEALTH = "Stealth"
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
    from warbench.rulesets.warsurge.game.perk_turn import index
    from warbench.rulesets.warsurge.game.targeting import view_target

    perks = index(work.setup).units[uid]
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


def _stealthy(work: Work, uid: int) -> bool:
    from warbench.rulesets.warsurge.game.perk_turn import index

    return STEALTH in index(work.setup).units[uid].unit


def stealth_at_phase_start(work: Work, phase: str) -> None:
    """The engine's use of Stealth under the ``perk use`` automation (a player uses it with
    ``UsePerks``): as each Attack Phase starts, a unit on the battlefield that has not used it
    this Game Turn, is not Paralysed, and is within an enemy unit's longest Range (18" at
    least) uses Stealth (docs/rulings.md "Stealth" 2)."""
    from warbench.rulesets.warsurge.game.state import Automation, Phase, Status

    if phase != Phase.ATTACK.value or Automation.PERK_USE not in work.setup.automation:
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
        u = u.with_counter(f"used {STEALTH}", turn).with_use(STEALTH)
        work.units[uid] = u
        work.dirty = True
        work.set_unit(uid, statuses=(*u.statuses, Status(STEALTH, 1, f"u{uid}/{STEALTH}")))
        work.emit("perk", f"{work.label(uid)} uses {STEALTH}", _RULE, unit=uid, perk=STEALTH)


def _threatened(work: Work, uid: int) -> bool:
    """Whether an enemy unit on the battlefield has ``uid`` within its longest Range (18" at
    least), as the game reads its Weapons now."""
    from warbench.rulesets.warsurge.game.perk_effects import weapon_ranges

    for other in work.units:
        if not work.standing(other.uid) or not work.enemies(uid, other.uid):
            continue
        reach = max(18.0, *weapon_ranges(work.info(other.uid), other.statuses).values())
        if work.gap(uid, other.uid) <= reach + 1e-9:
            return True
    return False


def register_hooks(reg: HookRegistry) -> None:
    """Register this module's hooks (one call from ``perk_families.register_family_hooks``)."""
    reg.register(Hook.PHASE_START, stealth_at_phase_start, "Stealth (automatic use)")
