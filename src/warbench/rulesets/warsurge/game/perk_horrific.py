"""Horrific in a game (Perks 000_94ecc6a4c74d351b.txt §12.4 Ability, L767-L777).

    "Horrific — Specific, Mastery Test, Radius (12"). The User rolls a Mastery Test for each
    enemy Unit that is about to pass through, over or be within 12" of the User through any
    Movement. If successful, the Target has all Movement halved as long as it performs Movement
    through, over or within 12" of the User."

* **The test** (:func:`horrific_at_phase_start`): as each Move Phase and Dash Phase starts
  (Standard), or as each Game Turn starts (Advanced, whose Movement is Actions), a Horrific unit
  on the battlefield rolls a Mastery Test for each enemy unit on the battlefield that its
  Movement could bring within 12" (its closest model within 12" plus the Move or Dash it is
  about to make; both for the Advanced Game Turn). A pass puts the status
  ``Horrific@<unit>`` on that enemy unit until the end of the Game Turn. A unit immune to
  Horrific (Fearless) or under Courage is not tested.
* **Halved Movement** (``horrific_limit.horrified_limit``, read by ``coherency`` with each
  model's path):
  while under the status, a model whose straight path of a Move or Dash passes within 12" of a
  model of that Horrific unit may travel at most half its Move or Dash (rounded down, as
  Difficult Ground halves it, §4.5; the two do not compound). docs/rulings.md "Horrific".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.horrific_limit import HORRIFIC, RADIUS
from warbench.rulesets.warsurge.game.perk_turn import index

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["horrific_at_phase_start", "horrific_at_turn_start", "register_hooks"]

RULE = "Perks §12.4 Horrific (000_94ecc6a4c74d351b.txt L767)"


def _reach(work: Work, uid: int, dash: bool | None) -> float:
    from warbench.rulesets.warsurge.game.movement import unit_allowance

    if dash is None:
        return float(unit_allowance(work, uid, False) + unit_allowance(work, uid, True))
    return float(unit_allowance(work, uid, dash))


def horrific_at_phase_start(work: Work, phase: str) -> None:
    """L767: each Horrific unit tests each enemy unit about to move within 12" of it."""
    from warbench.rulesets.warsurge.game.advstate import Playstyle
    from warbench.rulesets.warsurge.game.state import Phase

    advanced = work.setup.playstyle is Playstyle.ADVANCED
    if advanced:
        return
    if phase not in (Phase.MOVE.value, Phase.DASH.value):
        return
    _test_all(work, phase == Phase.DASH.value)


def horrific_at_turn_start(work: Work, turn: int) -> None:
    """The Advanced playstyle: the tests as each Game Turn starts (its Movement is Actions)."""
    from warbench.rulesets.warsurge.game.advstate import Playstyle

    if work.setup.playstyle is Playstyle.ADVANCED:
        _test_all(work, None)


def _test_all(work: Work, dash: bool | None) -> None:
    from warbench.rulesets.warsurge.game.perk_affliction import _immune
    from warbench.rulesets.warsurge.game.perk_effects import ignores_ground
    from warbench.rulesets.warsurge.game.perk_turn import mastery_test
    from warbench.rulesets.warsurge.game.state import Status

    perks = index(work.setup).units
    for h, p in enumerate(perks):
        if HORRIFIC not in p.unit or not work.standing(h):
            continue
        for other in work.units:
            t = other.uid
            if not work.enemies(h, t) or not work.standing(t):
                continue
            if any(s.name == f"{HORRIFIC}@{h}" for s in other.statuses):
                continue  # horrified already this Game Turn
            if HORRIFIC in _immune(work, t) or ignores_ground(other.statuses):
                continue  # Fearless (L1525); Courage (L707) ignores Horrific
            if work.gap(h, t) > RADIUS + _reach(work, t, dash) + 1e-9:
                continue
            if not mastery_test(work, h, HORRIFIC):
                continue
            v = work.units[t]
            work.set_unit(
                t, statuses=(*v.statuses, Status(f"{HORRIFIC}@{h}", 1, f"u{h}/{HORRIFIC}"))
            )
            work.emit("perk", f"{work.label(t)} is horrified by {work.label(h)}: its Movement "
                      f'within {RADIUS:g}" of it is halved this Game Turn', RULE, unit=t,
                      source=h, perk=HORRIFIC)  # fmt: skip


def register_hooks(reg: HookRegistry) -> None:
    """Register this module's hooks (one call from ``perk_families.register_family_hooks``)."""
    reg.register(
        Hook.PHASE_START, horrific_at_phase_start, "Horrific (Mastery Tests)", perks=[HORRIFIC]
    )
    reg.register(Hook.TURN_START, horrific_at_turn_start, "Horrific (Advanced)", perks=[HORRIFIC])
