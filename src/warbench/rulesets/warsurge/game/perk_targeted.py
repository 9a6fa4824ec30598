"""The use of a perk that a player aims at one Target named by its number, once a Game Turn,
after a Mastery Test: Dominate (:mod:`.perk_dominate`, Perks 000_94ecc6a4c74d351b.txt L745)
and Imprison (:mod:`.perk_imprison_use`, L821). Each perk says which units it may Target and
what it does to one; this module holds what they share:

* :func:`misnamed`: the refusal of an option that names no Target the perk may have now (an
  empty option names none: the engine chooses);
* :func:`listed`: the options a player is shown (every Target, the engine's choice first);
* :func:`use_once`: the use itself (the Game Turn recorded, the Target the player named or the
  engine's, the Mastery Test, then the effect).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["listed", "misnamed", "use_once"]


def misnamed(work: Work, option: str, found: Sequence[int], rule: str) -> str | None:
    """Why ``option`` names none of the Targets ``found`` by its number, or ``None`` (it names
    one, or it is empty)."""
    if option and (not option.strip().isdigit() or int(option) not in found):
        names = ", ".join(f"{t} ({work.label(t)})" for t in found)
        return f"name the Target by its number, one of: {names} ({rule})"
    return None


def listed(refusal: str | None, found: Callable[[], Sequence[int]]) -> list[str]:
    """The options a player is shown: none when the perk is ``refusal``-refused now, else the
    number of every Target ``found`` gives (the engine's choice first)."""
    if refusal is not None:
        return []
    return [str(t) for t in found()]


def use_once(
    work: Work,
    uid: int,
    option: str,
    *,
    perk: str,
    counter: str,
    choose: Callable[[], int | None],
    effect: Callable[[Work, int, int], None],
) -> None:
    """``uid`` uses ``perk`` on the Target ``option`` names (empty: ``choose``'s): the Game
    Turn is kept in ``counter`` (once a Game Turn, §12.2 L227), then the Mastery Test, and on a
    pass ``effect(work, uid, target)``."""
    from warbench.rulesets.warsurge.game.perk_turn import mastery_test

    work.units[uid] = work.units[uid].with_counter(counter, work.flow.turn)
    work.dirty = True
    target = int(option) if option.strip() else choose()
    if target is not None and mastery_test(work, uid, perk):
        effect(work, uid, target)
