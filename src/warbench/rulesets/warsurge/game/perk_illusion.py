"""Illusion I-III in a game (Perks 000_94ecc6a4c74d351b.txt §12.4 Ability, L779-L817;
docs/rulings.md "WARSURGE perks in play: session 25, w2-illusion").

    "The User creates copies of itself that must remain in Coherency with the User or its
    copies. This does not create new Weapons, but existing Weapons on the User can be measured
    and used from the Illusions. Illusions are models with the same Stats as the User, except
    HP … The User can create any number of Illusions as long as it divides their current HP
    equally (rounding down if needed). The User does not lose any HP to create Illusions … For
    example, a User with 7 HP can create seven 1 HP models, three 2 HP models, two 3 HP models
    or one 7 HP model. When resolving casualties, any Illusions are removed before the User. If
    there is insufficient space to place Illusion models, excess Illusions are destroyed."
    (L779-L797; Illusion II L803 "can be used twice … will create additional Illusions,
    referring to the User's current HP"; Illusion III L811 three times.)

* **The models** are slots the set-up gives the unit (``perk_illusion_slots``), off the table
  until an Illusion is made in one.
* **The use** is the player's, ``UsePerks(unit, ("Illusion I: <n>",))``: each of the unit's own
  models on the Battlefield makes ``n`` Illusions of ``current HP // n`` HP each (a model with
  fewer than ``n`` HP makes one of 1 HP per HP). No ``n`` named: the engine's, 1 (one
  Illusion of the model's whole current HP: the most HP made, the fewest models to place).
  Limited Use 1/2/3 (L779, L803, L811), once per Game Turn in the Standard playstyle.
* **Placed** by the engine in Coherency with the model it copies (a free spot within 2" of its
  base, its own Illusions and the unit's models avoided); no room: that Illusion and the rest
  of the model's are destroyed (L795).
* **Casualties**: Illusions first (``attack.casualty_order``, ``ModelState.illusion``); the
  unit's value and maximum HP are its own models' (``state.unit_value``).
* **Dispelled** (all Illusion models removed, not slain): by Precision HP Loss (L4007,
  :func:`dispel_for_precision`, before the attacker singles out models), when the unit's own
  models are all casualties, and when the unit leaves the Battlefield (``Work.set_unit``,
  ``perk_illusion_slots.off_the_table``; a unit deployed again comes without them).
* **Weapons** (L782 "existing Weapons on the User can be measured and used from the
  Illusions"): ``targeting`` measures the unit's own models' Weapons from its Illusions too
  (``perk_illusion_slots.lent_weapons``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game import geom
from warbench.rulesets.warsurge.game.perk_illusion_slots import ILLUSION
from warbench.rulesets.warsurge.game.state import Location, Phase

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.attack import UnitState
    from warbench.rulesets.warsurge.game.hooks import HookRegistry
    from warbench.rulesets.warsurge.game.work import Work

__all__ = [
    "ILLUSION",
    "choices",
    "dispel",
    "dispel_for_precision",
    "illusions",
    "register_hooks",
]


def _rule(rank: str) -> str:
    return f"Perks §12.4 {rank} (000_94ecc6a4c74d351b.txt L{ILLUSION[rank][1]})"


def illusions(work: Work, uid: int) -> list[int]:
    """The unit's Illusion models on the Battlefield (slot indices)."""
    info = work.info(uid)
    if not info.illusions:
        return []
    u = work.units[uid]
    return [i for i in range(info.real_models, info.models) if not u.removed[i]]


def _own_living(work: Work, uid: int) -> list[int]:
    n = work.info(uid).real_models
    return [i for i in work.units[uid].living() if i < n]


def _limit(work: Work, uid: int, rank: str) -> str | None:
    from warbench.rulesets.warsurge.effects.runtime import use_refusal
    from warbench.rulesets.warsurge.effects.table import load_table
    from warbench.rulesets.warsurge.game.advstate import Playstyle

    u = work.units[uid]
    return use_refusal(
        load_table().get(rank),
        used_in_game=u.used(rank),
        used_this_turn=1 if u.counter(f"used {rank}") == work.flow.turn else 0,
        advanced=work.setup.playstyle is Playstyle.ADVANCED,
    )


def refused(work: Work, uid: int, rank: str, option: str) -> str | None:
    """Why ``uid`` may not use ``rank`` making ``option`` Illusions a model now, or ``None``."""
    from warbench.rulesets.warsurge.game.advstate import Playstyle

    if work.setup.playstyle is Playstyle.ADVANCED and work.flow.phase is not Phase.ACTIONS:
        return (f"in the Advanced playstyle perks are used by the Use Perks Action of the "
                f"Action Steps (000_94ecc6a4c74d351b.txt L234-L236) ({_rule(rank)})")  # fmt: skip
    u = work.units[uid]
    own = _own_living(work, uid)
    if u.location is not Location.TABLE or not own:
        return f"{work.label(uid)} is not on the battlefield ({_rule(rank)})"
    if not work.info(uid).illusions:
        return f"{work.label(uid)} has no {rank} in its profile ({_rule(rank)})"
    why = _limit(work, uid, rank)
    if why is not None:
        return why
    most = max(u.hp[i] for i in own)
    if option and (not option.strip().isdigit() or not 1 <= int(option) <= most):
        return (f"name how many Illusions each model makes, 1 to {most} (its current HP "
                f"divided equally, L787) ({_rule(rank)})")  # fmt: skip
    if len(illusions(work, uid)) >= work.info(uid).illusions:
        return f"{work.label(uid)} has no room for more Illusions ({_rule(rank)})"
    return None


def options(work: Work, uid: int, rank: str) -> list[str]:
    """The choices a player is shown: Illusions per model, the engine's (1) first."""
    if refused(work, uid, rank, "") is not None:
        return []
    u = work.units[uid]
    return [str(n) for n in range(1, max(u.hp[i] for i in _own_living(work, uid)) + 1)]


def _spot(
    work: Work, uid: int, anchor: tuple[float, float], taken: list[tuple[float, float]]
) -> tuple[float, float] | None:
    """A free spot for a base of the unit's within 2" (Coherency) of ``anchor``."""
    from warbench.rulesets.warsurge.game.coherency import spot_clear

    r = work.info(uid).radius
    t = work.table()
    mask = t.uid != uid
    oxy, orad = t.xy[mask], t.r[mask]
    for rad in (2 * r + 0.2, 2 * r + 1.0, 2 * r + 1.8):
        for s in geom.ring_points(anchor, rad, 16):
            if spot_clear(work, s, r, oxy, orad, taken):
                return s
    return None


def use(work: Work, uid: int, rank: str, option: str) -> None:
    """The User makes its Illusions (the module docstring)."""
    n = int(option) if option.strip() else 1
    work.units[uid] = work.units[uid].with_use(rank)  # Limited Use (L779)
    work.dirty = True
    u = work.units[uid]
    hp, removed, pos = list(u.hp), list(u.removed), list(u.pos)
    free = [i for i in range(work.info(uid).real_models, len(hp)) if removed[i]]
    taken = [pos[i] for i in u.present()]
    made: list[str] = []
    lost = 0
    for m in _own_living(work, uid):
        k = min(n, hp[m])
        each = hp[m] // k  # L787 "divides their current HP equally (rounding down)"
        anchor = pos[m]
        for j in range(k):
            spot = _spot(work, uid, anchor, taken) if free else None
            if spot is None:  # L795 "excess Illusions are destroyed"
                lost += k - j
                break
            slot = free.pop(0)
            hp[slot], removed[slot], pos[slot] = each, False, spot
            taken.append(spot)
            anchor = spot  # "in Coherency with the User or its copies"
            made.append(f"{each} HP")
    work.set_unit(uid, hp=tuple(hp), removed=tuple(removed), pos=tuple(pos))
    text = f"{work.label(uid)} creates {len(made)} Illusion(s) ({', '.join(made) or 'none'})"
    if lost:
        text += f"; {lost} find no room and are destroyed"
    work.emit("perk", text + f" ({rank})", _rule(rank), unit=uid, perk=rank, illusions=len(made),
              destroyed=lost)  # fmt: skip


def dispel(work: Work, uid: int, why: str, rule: str) -> None:
    """Every Illusion model of ``uid`` removed (not slain)."""
    gone = illusions(work, uid)
    if not gone:
        return
    u = work.units[uid]
    hp = tuple(0 if i in gone else h for i, h in enumerate(u.hp))
    removed = tuple(True if i in gone else r for i, r in enumerate(u.removed))
    work.set_unit(uid, hp=hp, removed=removed)
    work.emit("perk", f"{work.label(uid)}'s {len(gone)} Illusion(s) are dispelled: {why}", rule,
              unit=uid, perk="Illusion", dispelled=len(gone))  # fmt: skip


PRECISION_RULE = "Perks §12.5 Precision (000_94ecc6a4c74d351b.txt L4007)"


def dispel_for_precision(work: Work, target: int, st: UnitState) -> None:
    """L4007 "HP Loss caused by Precision dispels Illusion, removing all Illusion models from
    the Target Unit": before the Precision HP Loss is singled out (on the unit's own models);
    ``st`` is the target's state in memory during the Attack."""
    from dataclasses import replace

    if not work.info(target).illusions:
        return
    gone = [i for i, m in enumerate(st.models) if m.illusion and not m.removed and m.hp > 0]
    if not gone:
        return
    for i in gone:
        st.models[i] = replace(st.models[i], hp=0, removed=True)
    dispel(work, target, "HP Loss caused by Precision", PRECISION_RULE)


def _after_casualty(work: Work, unit: int, model: int, source: str) -> None:
    """The User's own models all casualties: its Illusions go with it."""
    if work.info(unit).illusions and not _own_living(work, unit) and illusions(work, unit):
        dispel(work, unit, "the User is a casualty", _rule("Illusion I"))


def _on_deploy(work: Work, unit: int) -> None:
    """A unit deployed again (it left the Battlefield) comes without its Illusions."""
    if work.info(unit).illusions and illusions(work, unit):
        dispel(work, unit, "the User left the Battlefield", _rule("Illusion I"))


#: (refused, options, use) of one rank, as ``perk_choice.Choice``
Choice = tuple[Callable[..., "str | None"], Callable[..., list[str]], Callable[..., None]]


def choices() -> dict[str, Choice]:
    """``perk_choice.CHOICES`` entries of the three ranks."""

    def entry(rank: str) -> Choice:
        return (
            lambda w, uid, option, start: refused(w, uid, rank, option),
            lambda w, uid, start: options(w, uid, rank),
            lambda w, uid, option: use(w, uid, rank, option),
        )

    return {rank: entry(rank) for rank in ILLUSION}


def register_hooks(reg: HookRegistry) -> None:
    """Register this module's hooks (one call from ``perk_families.register_family_hooks``)."""
    from warbench.rulesets.warsurge.game.hooks import Hook

    reg.register(Hook.CASUALTY, _after_casualty, "Illusion: the User slain")
    reg.register(Hook.DEPLOY, _on_deploy, "Illusion: redeployed without Illusions")
