"""Statuses and afflictions with durations, and the end of a Game Turn (§12.1 L92-L96).

A :class:`Marker` is a perk's lingering effect on a unit (the book's Perk Markers, §12.3): the
status (``Burn``), who put it there (``source``: the inflicting unit and weapon, so identical
weapons of one unit do not stack while different sources do, Poison L2826), how many Game
Turns it still lasts (``None``: the rest of the game) and ``delay`` (1: it starts with the next
Game Turn, "next Game Turn" afflictions such as Cripple L2658).

:func:`end_of_turn` orders the end of a Game Turn as §12.1 L94-L96 says: "apply all ongoing
Perk effects before removing any of them, as some Perks may affect others": first every
marker's end-of-turn effect (Burn's HP Loss, Poison's D3), computed on the markers as they
stand, then every duration ticks and expired markers go.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

__all__ = ["Marker", "TurnEnd", "active", "add_marker", "end_of_turn"]


@dataclass(frozen=True, slots=True)
class Marker:
    """A status on a unit: name, source, Game Turns left (``None``: for good), delay."""

    name: str
    source: str = ""
    turns: int | None = 1
    delay: int = 0

    @property
    def is_active(self) -> bool:
        """Whether it acts now (a delayed marker waits for the next Game Turn)."""
        return self.delay == 0


def active(markers: Iterable[Marker]) -> list[Marker]:
    """The markers that act now."""
    return [m for m in markers if m.is_active]


def add_marker(
    markers: Sequence[Marker], new: Marker, *, stacks: bool = True
) -> tuple[Marker, ...]:
    """``markers`` with ``new`` added. The same (name, source) is refreshed, not doubled (the
    longer duration stays); ``stacks=False`` (Cripple "does not stack"): one marker of that name
    whatever the source.

    >>> ms = add_marker((), Marker("Poison", "A", None))
    >>> len(add_marker(ms, Marker("Poison", "A", None)))
    1
    >>> len(add_marker(ms, Marker("Poison", "B", None)))
    2
    """
    out = list(markers)
    for i, m in enumerate(out):
        if m.name == new.name and (m.source == new.source or not stacks):
            longer = None if m.turns is None or new.turns is None else max(m.turns, new.turns)
            out[i] = replace(m, turns=longer, delay=min(m.delay, new.delay))
            return tuple(out)
    out.append(new)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class TurnEnd:
    """The end of a Game Turn for one unit: the markers whose end-of-turn effect applies (in
    order), and the markers that remain afterwards."""

    applied: tuple[Marker, ...]
    kept: tuple[Marker, ...]
    expired: tuple[Marker, ...]


def end_of_turn(markers: Sequence[Marker], acts_at_end: Iterable[str]) -> TurnEnd:
    """Order the end of a Game Turn (§12.1 L94-L96).

    ``acts_at_end`` names the statuses with an end-of-turn effect. Every active marker of those
    applies (on the markers as they stand), then durations tick: a marker with 1 turn left
    expires, a delayed marker starts. A marker inflicted this turn that lasts "until the end of
    the Game Turn" (``turns=1``) therefore acts once and goes.

    >>> r = end_of_turn([Marker("Burn", "X", None), Marker("Pulverise", "X", 1),
    ...                  Marker("Cripple", "X", 1, delay=1)], {"Burn"})
    >>> [m.name for m in r.applied], [m.name for m in r.kept], [m.name for m in r.expired]
    (['Burn'], ['Burn', 'Cripple'], ['Pulverise'])
    """
    at_end = set(acts_at_end)
    applied = tuple(m for m in markers if m.is_active and m.name in at_end)
    kept: list[Marker] = []
    expired: list[Marker] = []
    for m in markers:
        if m.delay:
            kept.append(replace(m, delay=m.delay - 1))
        elif m.turns is None:
            kept.append(m)
        elif m.turns > 1:
            kept.append(replace(m, turns=m.turns - 1))
        else:
            expired.append(m)
    return TurnEnd(applied, tuple(kept), tuple(expired))
