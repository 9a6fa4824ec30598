"""Perks whose use names a unit at the start of the Game Turn (issue 11, session 25,
s25-ability): ``UsePerks(unit, ("<perk>: <n>",))``, the player's decision, with the engine's
choice under the ``perk use`` automation made by the perk's own module.

``perk_hooks`` asks :data:`CHOICES` in three places: why a use is refused (``use_refused``),
the options a player is shown (``usable_perks``) and the use itself (``use_perk``). Each entry
is (refused(work, uid, option, start), options(work, uid, start), use(work, uid, option)),
``start`` being whether it is the start of the Game Turn for the unit (Transform's window).

* Nightmare Anomaly (Perks L4354, :mod:`.perk_nightmare`): any unit on the Battlefield.
* Dominate (L745, :mod:`.perk_dominate`): the Target to seize, after its Mastery Test.
* Simulacrum (L4059, :mod:`.perk_simulacrum`): the Weapon copied (a Weapon Perk the unit uses).
* Illusion I-III (L779-L817, :mod:`.perk_illusion`): how many Illusions each model makes
  (the option names no unit; Limited Use is the module's).
* Orders (L2033, :mod:`.perk_orders`): another Order for a unit the Leader directs (no activated
  perk: ``perk_hooks.use_refused`` lets a choice of this table through; the engine's Order is
  given at the start of every Game Turn by :mod:`.perk_leadership`).
* Recon I-II (L1882-L1888, :mod:`.perk_recon`): the relocation made at the end of the first
  Deploy Phase (a direction and inches, or staying; the engine's: :mod:`.perk_deployment`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game import (
    perk_dominate,
    perk_illusion,
    perk_imprison_use,
    perk_nightmare,
    perk_orders,
    perk_recon,
    perk_simulacrum,
)

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["CHOICES", "Choice", "at_turn_start"]

#: (refused, options, use) of one perk
Choice = tuple[
    Callable[["Work", int, str, bool], "str | None"],
    Callable[["Work", int, bool], list[str]],
    Callable[["Work", int, str], None],
]

CHOICES: dict[str, Choice] = {
    perk_nightmare.NIGHTMARE: (perk_nightmare.refused, perk_nightmare.options, perk_nightmare.use),
    perk_dominate.DOMINATE: (perk_dominate.refused, perk_dominate.options, perk_dominate.use),
    # session 25 wave 2, w2-timejump: Imprison (L821), the enemy unit in its Melee to hold
    perk_imprison_use.IMPRISON: (
        perk_imprison_use.refused,
        perk_imprison_use.options,
        perk_imprison_use.use,
    ),
    # session 25, w2-state: the Weapon a Simulacrum Weapon copies (L4059)
    perk_simulacrum.SIMULACRUM: (
        perk_simulacrum.refused,
        perk_simulacrum.options,
        perk_simulacrum.use,
    ),
    # session 25 wave 2, w2-illusion: Illusions made per model (L779-L817, perk_illusion)
    **perk_illusion.choices(),
    # session 26, s26b-choices: Orders' Order (L2033), the engine's given first (perk_leadership)
    perk_orders.ORDERS_PERK: (perk_orders.refused, perk_orders.options, perk_orders.use),
    # session 26, s26b-choices: Recon's relocation (L1882-L1888), declared in the Deploy Phase
    **{rank: (perk_recon.refused, perk_recon.options, perk_recon.use) for rank in perk_recon.REACH},
}


def at_turn_start(names: list[str]) -> bool:
    """Whether the perk uses ``names`` are all Orders given at the start of the Game Turn
    (L2033): no use around an action, so the unit keeps its action (L229-L231 forfeits it for
    the others; docs/rulings.md, "session 26, s26b-choices" 2)."""
    prefix = f"{perk_orders.ORDERS_PERK}: "
    return bool(names) and all(n.startswith(prefix) for n in names)
