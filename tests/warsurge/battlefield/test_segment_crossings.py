"""The segment-crossing test of line of sight, written once (issue 10, session 34, s34-review).

Session 34's s34-speedp lane added ``sight._edges_cross_lines`` (the edges as rows, for
speed) as a copy of ``geometry.segments_cross_each``'s sign tests and collinear overlap. Both
now call :func:`geometry.segment_crossings` and :func:`geometry.collinear_overlap`, so a fix
of the rule (a line touching a wall, §5.4 "if your Unit can see any of the enemy model or
base", 001_d3f5e425c5e1196d.txt) cannot reach one layout of the arrays and miss the other.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from warbench.rulesets.warsurge.battlefield import geometry, sight, sight_jit
from warbench.rulesets.warsurge.battlefield.geometry import (
    EPS,
    collinear_overlap,
    segments_cross_each,
)
from warbench.rulesets.warsurge.battlefield.model import Board


def test_collinear_segments_meet_when_they_overlap_or_touch_within_eps() -> None:
    p0 = np.array([[0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [5.0, 5.0]])
    p1 = np.array([[2.0, 0.0], [2.0, 0.0], [2.0, 0.0], [3.0, 3.0]])
    e0 = np.array([[1.0, 0.0], [2.0 + EPS / 2, 0.0], [2.0 + 3 * EPS, 0.0], [4.0, 4.0]])
    e1 = np.array([[3.0, 0.0], [4.0, 0.0], [4.0, 0.0], [6.0, 6.0]])
    # overlapping; touching end to end within EPS; apart by 3 EPS; a reversed segment inside
    assert collinear_overlap(p0, p1, e0, e1).tolist() == [True, True, False, True]


@pytest.mark.parametrize("edges_as_rows", [False, True])
def test_both_layouts_answer_through_the_one_crossing_test(
    edges_as_rows: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each layout's answer is what :func:`geometry.segment_crossings` says: a crossing test
    changed there (here: nothing ever meets) changes the NumPy layout, and the compiled one
    (``sight_jit.edges_cross_lines``, session 37) is held to it, float for float, by
    ``tests/warsurge/game/test_speed_sight_jit.py`` on many random cases (a rule changed in
    one and not the other fails there)."""
    lines0 = np.array([[0.0, 0.0], [0.0, 1.0], [5.0, 0.0]])
    lines1 = np.array([[4.0, 4.0], [4.0, 1.0], [9.0, 0.0]])
    e0 = np.array([[0.0, 4.0], [2.0, 0.0], [9.0, 0.0]])
    e1 = np.array([[4.0, 0.0], [2.0, 2.0], [12.0, 0.0]])

    def answer() -> Any:
        if edges_as_rows:
            return sight_jit.edges_cross_lines(lines0, lines1, e0, e1)[0].T
        return segments_cross_each(lines0[None], lines1[None], e0, e1)[0]

    real = answer()
    # lines 0 and 1 cross edges 0 and 1; line 2 touches edge 2 end to end (collinear)
    assert real.tolist() == [[True, True, False], [True, True, False], [False, False, True]]

    original = geometry.segment_crossings

    def never(*args: Any, **kwargs: Any) -> Any:
        hit, flat = original(*args, **kwargs)
        return np.zeros_like(hit), np.zeros_like(flat)

    monkeypatch.setattr(geometry, "segment_crossings", never)
    assert not segments_cross_each(lines0[None], lines1[None], e0, e1)[0].any()
    # the compiled layout is held to the NumPy one, whose test changed
    assert (answer().tolist() == real.tolist()) is edges_as_rows


@pytest.mark.parametrize(("gap", "blocked"), [(0.0, False), (EPS / 2, False), (2 * EPS, True)])
def test_a_line_grazing_a_blocker_s_base_is_not_blocked(gap: float, blocked: bool) -> None:
    """``_Scene.lines_hit`` (the blockers as rows, ``sight_jit.lines_worth``): a line that only
    touches a model's base, within :data:`EPS`, passes it (bases that touch are in contact, not
    overlapping, §5.4); one that cuts into it by more is blocked. Session 34's mutation of the
    test to ``<= radius`` was caught by no test before this one (s34-review)."""
    board = Board(width=20, height=20)
    attackers, targets = [((0.0, 0.0), 0.5)], [((10.0, 0.0), 0.5)]
    blockers = [((5.0, 1.0 - gap), 1.0)]  # its base reaches ``gap`` past the line y = 0
    scene = sight._Scene(board, attackers, targets, blockers)
    p0, p1 = np.array([[[0.0, 0.0]]]), np.array([[[10.0, 0.0]]])
    idx = np.zeros(1, dtype=np.intp)
    assert scene.lines_hit(p0, p1, idx, idx).tolist() == [[int(blocked)]]
