"""Offering and Sacrifice in a game (Perks 000_94ecc6a4c74d351b.txt §12.4 Ability, L871, L1017).

    "Offering — After failing any Aether, Mastery or Skill Test, the User can choose to
    automatically pass the failed test by suffering -1 HP (to itself only, no Saves allowed). If
    the User becomes a casualty from using Offering, the Test succeeds … If used after an Aether
    Test fails, it will not prevent the HP Loss from a result of 12."
    "Sacrifice — After failing any Aether, Mastery or Skill Test, the User can choose to
    automatically pass the failed test if it removes a model in the Unit as a casualty (no Saves
    allowed). …"

:func:`rescue` is asked by every test the game rolls for a unit when it failed (the Mastery
Tests of ``perk_turn``, the Aether Tests of ``perk_hooks``, the Skill Tests of the Weapon
afflictions in ``effects.runtime`` and of Disarm and Delirium): a unit with Offering or
Sacrifice, on the battlefield, may pay and pass. The choice is the engine's under the ``perk
use`` automation (without it the perks are not used, as the other automatic uses): Offering
when the unit keeps at least 1 HP after it, else Sacrifice when the unit keeps at least one
other model (the model its HP Loss would take first is removed). A test that fails
automatically (Fugue) is not rolled, so there is nothing to rescue (docs/rulings.md "Offering
and Sacrifice"). ``lose`` is ``perk_turn.lose_hp`` (passed in: ``perk_turn`` asks this module).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["OFFERING", "SACRIFICE", "Lose", "rescue"]

OFFERING, SACRIFICE = "Offering", "Sacrifice"
_LINE = {OFFERING: 871, SACRIFICE: 1017}
#: ``perk_turn.lose_hp``: (work, unit, amount, why, rule) -> HP lost.
Lose = Callable[["Work", int, int, str, str], int]


def _rule(rank: str) -> str:
    return f"Perks §12.4 {rank} (000_94ecc6a4c74d351b.txt L{_LINE[rank]})"


def _held(work: Work, uid: int) -> frozenset[str]:
    from warbench.rulesets.warsurge.effects.table import load_table

    info = work.info(uid)
    names = (*info.unit.profile.perks, *info.traits)
    return frozenset(r.name for n in names if (r := load_table().find(n))) & {OFFERING, SACRIFICE}


def rescue(work: Work, uid: int, test: str, lose: Lose) -> bool:
    """``uid`` failed ``test``: whether it pays to pass it (Offering: 1 HP; Sacrifice: a
    model), the engine's choice under the ``perk use`` automation."""
    perks = _held(work, uid)
    if not perks:
        return False
    from warbench.rulesets.warsurge.game.state import Automation

    if Automation.PERK_USE not in work.setup.automation or not work.standing(uid):
        return False
    u = work.units[uid]
    living = u.living()
    hp = sum(max(0, u.hp[i]) for i in living)
    if OFFERING in perks and hp >= 2:
        lose(work, uid, 1, f"Offering to pass its {test}", _rule(OFFERING))
        work.emit("perk", f"{work.label(uid)} suffers 1 HP to pass its {test} (Offering)",
                  _rule(OFFERING), unit=uid, perk=OFFERING, test=test)  # fmt: skip
        return True
    if SACRIFICE in perks and len(living) >= 2:
        from warbench.rulesets.warsurge.attack import AttackContext
        from warbench.rulesets.warsurge.game.work import to_unit_state
        from warbench.rulesets.warsurge.odds import AttackPlan

        st = to_unit_state(work, uid)
        first = AttackPlan(st, st, AttackContext()).casualty_order()[0]  # as lose_hp takes HP
        lose(work, uid, st.models[first].hp, f"Sacrifice to pass its {test}", _rule(SACRIFICE))
        work.emit("perk", f"{work.label(uid)} sacrifices a model to pass its {test} (Sacrifice)",
                  _rule(SACRIFICE), unit=uid, perk=SACRIFICE, test=test)  # fmt: skip
        return True
    return False
