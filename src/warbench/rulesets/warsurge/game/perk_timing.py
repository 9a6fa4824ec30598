"""When a Preliminary or Postliminary Weapon may attack (Perks 000_94ecc6a4c74d351b.txt L4049,
L3987): only in its own window, opened by :mod:`.perk_windows`; every other use is refused
(``perk_limits.weapon_refusal`` asks :func:`timing_refusal`; docs/rulings.md "WARSURGE perks in
play: session 25, s25-tactical" 5). Kept apart from :mod:`.perk_windows`, which resolves the
window's Attacks with ``attacks``, so ``attacks`` may import this module without a cycle.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game.perk_index import weapon_perks

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["POSTLIMINARY", "PRELIMINARY", "TIMED", "opened", "timing_refusal"]

PRELIMINARY = "Preliminary"
POSTLIMINARY = "Postliminary"
TIMED = frozenset({PRELIMINARY, POSTLIMINARY})
_WHEN = {
    PRELIMINARY: "before everything else in the Game Turn (after the Deploy Phase; Advanced: "
    "before the Action Steps), by itself (Preliminary, 000_94ecc6a4c74d351b.txt L4049)",
    POSTLIMINARY: "after everything else in the Game Turn (after the Dash Phase; Advanced: "
    "after the Action Steps), by itself (Postliminary, 000_94ecc6a4c74d351b.txt L3987)",
}
#: The window open now (Preliminary or Postliminary), or ``None``.
_OPEN: ContextVar[str | None] = ContextVar("warsurge_timed_window", default=None)


@contextmanager
def opened(perk: str) -> Iterator[None]:
    """While the ``perk`` window is open, its Weapons may attack (and no other timed ones)."""
    token = _OPEN.set(perk)
    try:
        yield
    finally:
        _OPEN.reset(token)


def timing_refusal(work: Work, uid: int, weapon: str) -> str | None:
    """Why ``weapon`` may not attack now: a Preliminary or Postliminary Weapon outside its
    window (or a plain one inside a window), or ``None``."""
    timed = weapon_perks(work, uid, weapon) & TIMED
    now = _OPEN.get()
    if now is None and not timed:
        return None
    if now is not None and now in timed:
        return None
    if now is not None:
        return f"{weapon} does not attack in the {now} window ({_WHEN[now]})"
    name = sorted(timed)[0]
    return f"{weapon} attacks only {_WHEN[name]}"
