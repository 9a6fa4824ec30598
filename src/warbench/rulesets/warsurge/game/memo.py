"""Memoising a function of a game's set-up (:class:`.state.GameSetup`): a perk module reads
which units carry its perk once per set-up, not once per call. This module imports nothing of
the game package, so any module of it may use :func:`per_setup`."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

__all__ = ["LIMIT", "per_setup"]

S = TypeVar("S")
T = TypeVar("T")

#: Set-ups a memoised function remembers before it forgets them all (a long run of games).
LIMIT = 64


def per_setup(fn: Callable[[S], T]) -> Callable[[S], T]:
    """``fn(setup)``, computed once per set-up object (kept by identity, the set-up itself
    held so its id is not reused; at most :data:`LIMIT` set-ups at once)."""
    cache: dict[int, tuple[S, T]] = {}

    @functools.wraps(fn)
    def memoised(setup: S) -> T:
        hit = cache.get(id(setup))
        if hit is not None and hit[0] is setup:
            return hit[1]
        out = fn(setup)
        if len(cache) > LIMIT:
            cache.clear()
        cache[id(setup)] = (setup, out)
        return out

    return memoised
