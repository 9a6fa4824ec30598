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
    # the set-up asked last and its answer, one tuple (replaced whole, so a thread never sees
    # one set-up with another's answer): a game asks of its own set-up again and again
    last: list[tuple[S, T] | None] = [None]

    @functools.wraps(fn)
    def memoised(setup: S) -> T:
        hit = last[0]
        if hit is not None and hit[0] is setup:
            return hit[1]
        hit = cache.get(id(setup))
        if hit is None or hit[0] is not setup:
            hit = (setup, fn(setup))
            if len(cache) > LIMIT:
                cache.clear()
            cache[id(setup)] = hit
        last[0] = hit
        return hit[1]

    return memoised
