"""The speed paths of line of sight give the exact path's answers (issue 10, speed).

* ``_Scene.hits`` for sight (clear or not) tests a line against the bases only when no piece
  blocks it; the exact path (with ``values``: every line against every obstacle) must agree
  on random boards, line by line, and so must ``sight_matrix``.
* ``segments_cross`` computes each product once, in place; it must equal the written-out
  formula (001_d3f5e425c5e1196d.txt §5.4 "if your Unit can see any of the enemy model"),
  collinear and touching cases included.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from warbench.rulesets.warsurge.battlefield.geometry import EPS, segments_cross
from warbench.rulesets.warsurge.battlefield.model import Board, Terrain
from warbench.rulesets.warsurge.battlefield.sight import (
    _SHRINK,
    LOS_SAMPLES,
    Bases,
    _across,
    _Scene,
    sight_matrix,
)


def _random_board(rng: random.Random) -> Board:
    pieces = []
    for k in range(rng.randint(1, 6)):
        x, y = rng.uniform(2, 26), rng.uniform(2, 26)
        w, h = rng.uniform(0.5, 5), rng.uniform(0.5, 5)
        shape = rng.choice(["rect", "circle", "poly"])
        if shape == "rect":
            pieces.append(Terrain(name=f"R{k}", rect=[x, y, x + w, y + h], blocks_los=True))  # type: ignore[call-arg]
        elif shape == "circle":
            pieces.append(
                Terrain(name=f"C{k}", circle={"center": [x, y], "radius": w / 2}, blocks_los=True)  # type: ignore[call-arg]
            )
        else:
            pieces.append(
                Terrain(
                    name=f"P{k}",
                    polygon=[[x, y], [x + w, y], [x + w, y + h / 2], [x + w / 2, y + h]],
                    blocks_los=True,
                )
            )
    return Board(width=30, height=30, terrain=pieces)


def _bases(rng: random.Random, n: int, lo: float, hi: float) -> Bases:
    xy = np.array([[rng.uniform(lo, hi), rng.uniform(1, 29)] for _ in range(n)])
    r = np.array([rng.choice([0.5, 0.5, 0.625, 1.0]) for _ in range(n)])
    return Bases(xy, r)


def _exact(scene: _Scene) -> np.ndarray:
    """Sight by the exact path: every line of every pair against every obstacle."""
    n, m = len(scene.axy), len(scene.txy)
    ia, it = np.divmod(np.arange(n * m), m)
    cands = scene.candidates(ia, it)
    ones = np.ones(len(scene.geom.names), dtype=np.intp)
    a, b = scene.axy[ia], scene.txy[it]
    centre = scene.hits(a[:, None, :], b[:, None, :], cands, ones)[:, 0] == 0
    s = np.linspace(-1.0, 1.0, LOS_SAMPLES) * _SHRINK
    k = LOS_SAMPLES
    pa = _across(scene.axy[ia], scene.txy[it], scene.ar[ia], s)
    pt = _across(scene.txy[it], scene.axy[ia], scene.tr[it], s)
    p0 = np.broadcast_to(pa[:, :, None, :], (len(ia), k, k, 2)).reshape(-1, k * k, 2)
    p1 = np.broadcast_to(pt[:, None, :, :], (len(ia), k, k, 2)).reshape(-1, k * k, 2)
    lines = (scene.hits(p0, p1, cands, ones) == 0).any(axis=1)
    return np.asarray(centre | lines).reshape(n, m)


@pytest.mark.parametrize("seed", range(12))
def test_fast_sight_equals_the_exact_path_on_random_boards(seed: int) -> None:
    rng = random.Random(seed)
    board = _random_board(rng)
    for _ in range(4):
        attackers = _bases(rng, rng.randint(1, 6), 1, 8)
        targets = _bases(rng, rng.randint(1, 6), 22, 29)
        blockers = _bases(rng, rng.randint(0, 25), 6, 24)
        scene = _Scene(board, attackers, targets, blockers)
        n, m = len(scene.axy), len(scene.txy)
        ia, it = np.divmod(np.arange(n * m), m)
        cands = scene.candidates(ia, it)
        ones = np.ones(len(scene.geom.names), dtype=np.intp)
        s = np.linspace(-1.0, 1.0, LOS_SAMPLES) * _SHRINK
        pa = _across(scene.axy[ia], scene.txy[it], scene.ar[ia], s)
        pt = _across(scene.txy[it], scene.axy[ia], scene.tr[it], s)
        # line by line: blocked or clear, the same with and without the shortcut
        fast = scene.hits(pa, pt, cands) > 0
        exact = scene.hits(pa, pt, cands, ones) > 0
        assert (fast == exact).all()
        board.geometry().cache._data.clear()
        assert (sight_matrix(board, attackers, targets, blockers) == _exact(scene)).all()


def _cross_written_out(
    p0: np.ndarray, p1: np.ndarray, e0: np.ndarray, e1: np.ndarray
) -> np.ndarray:
    ax, ay = p0[:, :, None, 0], p0[:, :, None, 1]
    sx, sy = p1[:, :, None, 0] - ax, p1[:, :, None, 1] - ay
    bx, by = e0[:, None, :, 0], e0[:, None, :, 1]
    rx, ry = e1[:, None, :, 0] - bx, e1[:, None, :, 1] - by
    wx, wy = ax - bx, ay - by
    d1 = rx * wy - ry * wx
    d2 = d1 + rx * sy - ry * sx
    d3 = ry * sx - rx * sy
    d4 = sx * wy - sy * wx
    d5 = d4 - d3
    hit = (d1 * d2 <= 0) & (d4 * d5 <= 0) & ((rx != 0) | (ry != 0))
    flat = (d1 == 0) & (d2 == 0)
    if flat.any():
        c, k, e = np.nonzero(flat & hit)
        px0, px1 = p0[c, k], p1[c, k]
        ex0, ex1 = e0[c, e], e1[c, e]
        overlap = np.all(
            (np.minimum(px0, px1) <= np.maximum(ex0, ex1) + EPS)
            & (np.minimum(ex0, ex1) <= np.maximum(px0, px1) + EPS),
            axis=1,
        )
        hit[c[~overlap], k[~overlap], e[~overlap]] = False
    return np.asarray(hit.any(axis=2))


@pytest.mark.parametrize("seed", range(6))
def test_segments_cross_equals_the_written_out_formula(seed: int) -> None:
    rng = random.Random(100 + seed)
    # a coarse grid makes touching, collinear and zero-length edges common
    grid = [float(v) for v in range(6)]
    c, k, e = 40, 7, 5
    p0 = np.array([[[rng.choice(grid), rng.choice(grid)] for _ in range(k)] for _ in range(c)])
    p1 = np.array([[[rng.choice(grid), rng.choice(grid)] for _ in range(k)] for _ in range(c)])
    e0 = np.array([[[rng.choice(grid), rng.choice(grid)] for _ in range(e)] for _ in range(c)])
    e1 = np.array([[[rng.choice(grid), rng.choice(grid)] for _ in range(e)] for _ in range(c)])
    got = segments_cross(p0, p1, e0, e1)
    assert got.any() and not got.all()
    assert (got == _cross_written_out(p0, p1, e0, e1)).all()
    # and on random reals
    q0, q1 = (
        np.array([rng.uniform(0, 5) for _ in range(c * k * 2)]).reshape(c, k, 2) for _ in "ab"
    )
    f0, f1 = (
        np.array([rng.uniform(0, 5) for _ in range(c * e * 2)]).reshape(c, e, 2) for _ in "ab"
    )
    assert (segments_cross(q0, q1, f0, f1) == _cross_written_out(q0, q1, f0, f1)).all()
