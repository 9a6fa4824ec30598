"""The colours a side is drawn in, on pictures (SVG/PNG renders) and on the play page alike.

A side named by a colour word ("Red", "Blue Team") is drawn in that colour, so a side called
"Red" is not drawn blue because it sits first; the others take, in seat order, the first
colours of the palette no named side has.
"""

from __future__ import annotations

from collections.abc import Sequence

#: the colours by seat (the play page's ``frontend/src/play_board.ts`` COLOURS)
PALETTE = ("#1f5fbf", "#c0392b", "#2e8b57", "#8e44ad", "#d68910", "#17a2b8")

#: a side whose name starts with a colour word is drawn in it
NAMED_COLOURS = {
    "blue": "#1f5fbf",
    "red": "#c0392b",
    "green": "#2e8b57",
    "purple": "#8e44ad",
    "orange": "#d68910",
}


def named_side_colours(names: Sequence[str], spare: str = "#555555") -> list[str] | None:
    """Each side's colour when some side is named by a colour word and no two by the same
    one: such a side in its colour, any other in the first of :data:`PALETTE` no side has
    (``spare`` when none is left); ``None`` otherwise (the colours go by seat)."""
    words = [n.split()[0].lower() if n.split() else "" for n in names]
    named = [w for w in words if w in NAMED_COLOURS]
    if not named or len(set(named)) < len(named):
        return None
    taken = {NAMED_COLOURS[w] for w in named}
    free = [c for c in PALETTE if c not in taken]
    return [
        NAMED_COLOURS[w] if w in NAMED_COLOURS else free.pop(0) if free else spare for w in words
    ]
