"""The activated Transformation perks of session 25 as ``perk_hooks`` uses them (one dispatch):
Form I-III (``perk_form``, Perks 000_94ecc6a4c74d351b.txt L2418-L2440) and Fusion
(``perk_fusion``, L2442), Incorporeal (``perk_incorporeal_use``, L2466) and Doppelganger I/II
(``perk_doppelganger``, L2386-L2406; both w2-transform). Each
names its choice after a colon (``"Form I: Beast"``, ``"Fusion: Troopers, Bikes"``,
``"Incorporeal: on"``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game import (
    perk_doppelganger,
    perk_form,
    perk_fusion,
    perk_incorporeal_use,
)
from warbench.rulesets.warsurge.game.perk_incorporeal import INCORPOREAL
from warbench.rulesets.warsurge.game.state import Location

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["RANKS", "options", "refused", "use"]

RANKS = frozenset({*perk_form.FORM, perk_fusion.FUSION, INCORPOREAL, *perk_doppelganger.RANKS})


def refused(work: Work, uid: int, rank: str, option: str) -> str | None:
    """Why ``uid`` may not use ``rank`` with ``option`` now, or ``None`` (Fusion is used in
    Reserve, Form on the battlefield)."""
    if rank == perk_fusion.FUSION:
        return perk_fusion.refused(work, uid, option)
    if rank == INCORPOREAL:  # on the Battlefield or embarked (L2498)
        return perk_incorporeal_use.refused(work, uid, option)
    if rank in perk_doppelganger.RANKS:  # L2386-L2416
        return perk_doppelganger.refused(work, uid, rank, option)
    u = work.units[uid]
    if u.location is not Location.TABLE or not u.living():
        return f"{work.label(uid)} is not on the battlefield (§12.2: the User uses its perks)"
    from warbench.rulesets.warsurge.game.perk_psych import perk_refusal

    return perk_form.refused(work, uid, rank, option) or perk_refusal(work, uid, rank)


def options(work: Work, uid: int, rank: str) -> list[str]:
    """The choices listed for ``rank`` now (Form: each held linked profile; Fusion: the
    engine's choice of units, when it may be formed)."""
    if rank == perk_fusion.FUSION:
        chosen = perk_fusion.default_material(work, uid)
        if not chosen:
            return []
        option = ", ".join(work.label(m) for m in chosen)
        return [option] if perk_fusion.refused(work, uid, option) is None else []
    if rank == INCORPOREAL:
        return perk_incorporeal_use.options(work, uid)
    if rank in perk_doppelganger.RANKS:
        return perk_doppelganger.options(work, uid, rank)
    if work.units[uid].location is not Location.TABLE:
        return []
    return perk_form.options(work, uid, rank)


def use(work: Work, uid: int, rank: str, option: str) -> None:
    """The use (``refused`` checked by the caller)."""
    if rank == perk_fusion.FUSION:
        chosen = perk_fusion.named(work, uid, option)
        assert isinstance(chosen, list)
        perk_fusion.form(work, uid, chosen, "the player's choice")
        return
    if rank == INCORPOREAL:
        perk_incorporeal_use.use(work, uid, option)
        return
    if rank in perk_doppelganger.RANKS:
        perk_doppelganger.become(work, uid, rank, option)
        return
    perk_form.exchange(work, uid, rank, option)
