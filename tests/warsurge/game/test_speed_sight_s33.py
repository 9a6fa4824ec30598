"""Sight's lines with fewer NumPy calls (issue 10, session 33, s33-sight; docs/game.md
"fifteenth pass (sight)"): the points across the bases and the lines drawn between them are
the very floats of the broadcasts they replace, so every answer is the same
(001_d3f5e425c5e1196d.txt §5.4 "if your Unit can see any of the enemy model or base")."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tests.warsurge.game.sight_oracles import across_both
from tests.warsurge.game.test_speed_sight_lines import _crowded, _lines
from warbench.rulesets.warsurge.battlefield.sight import (
    _LOS_ACROSS,
    LOS_SAMPLES,
    _across,
    _Scene,
)


@pytest.mark.parametrize("seed", range(4))
def test_both_ends_across_without_meeting_centres_are_the_two_across_calls(seed: int) -> None:
    """No two centres meet: the shorter path (no fallback direction) gives the floats of
    ``_across`` at both ends, lines along an axis and far apart included."""
    rng = np.random.default_rng(70 + seed)
    a = rng.uniform(0, 48, size=(40, 2))
    b = rng.uniform(0, 48, size=(40, 2))
    b[0, 0] = a[0, 0]  # along an axis
    b[1, 1] = a[1, 1]
    b[2] = a[2] + 1e-9  # very close, not meeting
    ra, rb = rng.uniform(0.5, 2, size=40), rng.uniform(0.5, 2, size=40)
    pa, pb = across_both(a, b, ra, rb, _LOS_ACROSS)
    assert np.array_equal(pa, _across(a, b, ra, _LOS_ACROSS))
    assert np.array_equal(pb, _across(b, a, rb, _LOS_ACROSS))
    # and the test can fail: the other end's direction is not this end's
    assert not np.array_equal(pb, _across(b, a, ra, _LOS_ACROSS))


@pytest.mark.parametrize("seed", range(8))
def test_the_lines_taken_by_index_are_the_broadcast_lines(seed: int) -> None:
    """``_Scene._samples`` takes each line's ends from the points across by one index: the
    :data:`LOS_SAMPLES` squared lines of each pair (and, with ``centre``, the centre line
    first) are the broadcast ones, float for float, in the same order."""
    rng = random.Random(90 + seed)
    board, attackers, targets, blockers = _crowded(rng)
    scene = _Scene(board, attackers, targets, blockers)
    n, m = len(scene.axy), len(scene.txy)
    ia, it = np.divmod(np.arange(n * m), m)
    (c0, c1), (p0, p1), _ = _lines(scene, ia, it)
    q0, q1 = scene._samples(ia, it)
    assert q0.shape == (n * m, LOS_SAMPLES**2, 2)
    assert np.array_equal(q0, p0) and np.array_equal(q1, p1)
    r0, r1 = scene._samples(ia, it, centre=True)
    assert np.array_equal(r0, np.concatenate([c0, p0], axis=1))
    assert np.array_equal(r1, np.concatenate([c1, p1], axis=1))
    assert not np.array_equal(r0[:, 1:], np.concatenate([c0, p0], axis=1)[:, :-1])
