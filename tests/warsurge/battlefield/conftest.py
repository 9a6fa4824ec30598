"""Builders for battlefield tests: boards with a few terrain pieces and rows of models."""

from __future__ import annotations

from typing import Any

from warbench.rulesets.warsurge.battlefield import Board, Disc, Terrain

#: A 25 mm base (the default Base) in inches.
R25 = 25 / 25.4 / 2


def board(*terrain: dict[str, Any], width: float = 48, height: float = 48) -> Board:
    """A ``width`` x ``height`` board with the given terrain pieces (rect/circle shorthand)."""
    return Board(
        name="test",
        width=width,
        height=height,
        terrain=[Terrain.model_validate(t) for t in terrain],
    )


def row(x0: float, y: float, n: int, step: float = 1.2, r: float = R25) -> list[Disc]:
    """``n`` models in a row along x, ``step`` inches apart (centre to centre)."""
    return [((x0 + i * step, y), r) for i in range(n)]
