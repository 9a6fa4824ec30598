"""Concealed in a game (Perks 000_94ecc6a4c74d351b.txt §12.6 Traits, L4147-L4159).

    "Concealed — Specific. When the User is Deployed, it is represented as a marker, concealing
    what the Unit really is. Once the User performs any action, the marker is removed and the
    actual Unit is Deployed at the site of the marker. Concealed Units cannot claim Objectives.
    Enemies cannot Target the Concealed marker, but may reveal it by placing a Unit within 6" of
    the marker. A Mode Weapon that ends on the marker via the Scatter Arrow will reveal the
    Unit before rolling Attack Dice. Taking the Decoy Trait with Concealed will cause the Decoy
    to be Concealed too."

The game keeps no hidden information (docs/rulings.md "session 25, s25-lead" 14): the unit is
deployed with its models, and what the marker changes is played as the status ``Concealed``:

* **Deployed** (:func:`on_deploy`): a unit with the Trait, or the fake unit of a Decoy whose real
  unit has it, is under ``Concealed`` once deployed.
* **Hidden**: no enemy unit may Target it (:func:`target_refusal`, asked by
  ``perk_limits.target_refusal``); it neither holds nor contests an Objective
  (``perk_stealth.NO_OBJECTIVES``).
* **Revealed** (the status removed) when it makes any action of its own but a Deploy (a
  Standard ``UsePerks`` is not an action, §12.2; an Advanced one is: :func:`before_action`,
  from ``rules.apply_plan``), when an enemy unit is deployed or ends a Move or Dash with a model
  within 6" of it (:func:`on_deploy`, :func:`on_after_move`), or when a template strikes it
  (before its Attack Dice are rolled: :func:`reveal_struck`, from ``perk_mode._strike``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from warbench.rulesets.warsurge.game.actions import (
    BaseContact,
    Casualties,
    Deploy,
    Restore,
    Survivors,
)
from warbench.rulesets.warsurge.game.actions_advanced import UsePerks
from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.perk_turn import index
from warbench.rulesets.warsurge.game.state import Phase, Status

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.work import Work

__all__ = [
    "CONCEALED",
    "before_action",
    "on_after_move",
    "on_deploy",
    "register_hooks",
    "reveal",
    "reveal_struck",
    "target_refusal",
]

CONCEALED = "Concealed"
RULE = "Perks §12.6 Concealed (000_94ecc6a4c74d351b.txt L4147)"
#: L4153: "placing a Unit within 6" of the marker".
NEAR = 6.0


def _concealed(work: Work, uid: int) -> bool:
    u = work.units[uid]
    return bool(u.statuses) and any(s.name == CONCEALED for s in u.statuses)


def _has_trait(work: Work, uid: int) -> bool:
    units = index(work.setup).units
    if CONCEALED in units[uid].unit:
        return True
    # L4159: "Taking the Decoy Trait with Concealed will cause the Decoy to be Concealed too"
    return any(fake == uid and CONCEALED in units[real].unit for fake, real, _ in work.setup.decoys)


def reveal(work: Work, uid: int, why: str) -> None:
    """The marker is removed: ``uid`` is no longer Concealed."""
    if not _concealed(work, uid):
        return
    u = work.units[uid]
    work.set_unit(uid, statuses=tuple(s for s in u.statuses if s.name != CONCEALED))
    work.emit("perk", f"{work.label(uid)} is revealed: {why}", RULE, unit=uid, perk=CONCEALED)


def _reveal_near(work: Work, unit: int, verb: str) -> None:
    for t in range(len(work.units)):
        if (
            t != unit
            and work.enemies(unit, t)
            and _concealed(work, t)
            and work.standing(t)
            and work.gap(unit, t) <= NEAR + 1e-9
        ):
            reveal(work, t, f'{work.label(unit)} {verb} within 6" of it')


def on_deploy(work: Work, unit: int) -> None:
    """L4149: a unit with Concealed deploys as a marker; L4153: an enemy unit deployed within
    6" of one reveals it."""
    if not work.standing(unit):
        return
    if _has_trait(work, unit) and not _concealed(work, unit):
        u = work.units[unit]
        work.set_unit(unit, statuses=(*u.statuses, Status(CONCEALED, None, CONCEALED)))
        work.emit("perk", f"{work.label(unit)} is deployed Concealed: enemies may not Target "
                  "it until it is revealed", RULE, unit=unit, perk=CONCEALED)  # fmt: skip
        return
    _reveal_near(work, unit, "is deployed")


def on_after_move(work: Work, unit: int, dash: bool, distance: float) -> None:
    """L4153: an enemy unit whose Movement ends within 6" reveals a Concealed unit."""
    if work.standing(unit):
        _reveal_near(work, unit, "moves")


def before_action(work: Work, action: Any) -> None:
    """L4149 "Once the User performs any action": its own action (not its Deploy; in the
    Standard playstyle using Perks is not an action, Perks §12.2) reveals it first."""
    uid = getattr(action, "unit", None)
    if not isinstance(uid, int) or not 0 <= uid < len(work.units) or not _concealed(work, uid):
        return
    if isinstance(action, Deploy | Casualties | Restore | Survivors | BaseContact):
        return  # its Deploy, and the choices other rules ask of its player, are not its actions
    if isinstance(action, UsePerks) and work.flow.phase is not Phase.ACTIONS:
        return
    reveal(work, uid, f"it acts ({type(action).__name__})")


def reveal_struck(work: Work, target: int) -> None:
    """L4155: a template that strikes the Concealed unit reveals it before its Attack Dice."""
    if _concealed(work, target):
        reveal(work, target, "a template strikes it")


def target_refusal(work: Work, uid: int, weapon: str, target: int) -> str | None:
    """L4153 "Enemies cannot Target the Concealed marker"."""
    if work.enemies(uid, target) and _concealed(work, target):
        return f"{work.label(target)} is Concealed: enemies may not Target it ({RULE})"
    return None


def register_hooks(reg: HookRegistry) -> None:
    """Register this module's hooks (one call from ``perk_families.register_family_hooks``)."""
    reg.register(
        Hook.DEPLOY, on_deploy, "Concealed (deployed; revealed by a deployment)", perks=[CONCEALED]
    )
    reg.register(
        Hook.AFTER_MOVE,
        on_after_move,
        'Concealed (revealed by an enemy within 6")',
        perks=[CONCEALED],
    )
