"""The speed paths of line of sight give the exact path's answers (issue 10, speed).

* ``_Scene.hits`` tests a line against the bases only when no piece gives it a value; the
  exact path (every line against every obstacle, the largest value kept) must agree on random
  boards, line by line, and so must ``sight_matrix`` and ``cover_report`` (§5.4-5.6).
* ``segments_cross`` computes each product once, in place; it must equal the written-out
  formula (001_d3f5e425c5e1196d.txt §5.4 "if your Unit can see any of the enemy model"),
  collinear and touching cases included.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from warbench.rulesets.warsurge.battlefield.geometry import EPS, segments_cross
from warbench.rulesets.warsurge.battlefield.model import Board, Terrain
from warbench.rulesets.warsurge.battlefield.sight import (
    _LOS_ACROSS,
    Bases,
    _across,
    _Scene,
    _segment_distances,
    cover_report,
    sight_matrix,
)


def _random_board(rng: random.Random) -> Board:
    pieces = []
    for k in range(rng.randint(1, 6)):
        x, y = rng.uniform(2, 26), rng.uniform(2, 26)
        w, h = rng.uniform(0.5, 5), rng.uniform(0.5, 5)
        shape = rng.choice(["rect", "circle", "poly"])
        # a wall (blocks sight, +1) or a piece that only obscures, with an agreed bonus
        kind: dict[str, Any] = rng.choice(
            [{"blocks_los": True}, {"cover": rng.randint(1, 3)}, {"cover_area": True}]
        )
        if shape == "rect":
            pieces.append(Terrain(name=f"R{k}", rect=[x, y, x + w, y + h], **kind))
        elif shape == "circle":
            pieces.append(Terrain(name=f"C{k}", circle={"center": [x, y], "radius": w / 2}, **kind))
        else:
            pieces.append(
                Terrain(
                    name=f"P{k}",
                    polygon=[[x, y], [x + w, y], [x + w, y + h / 2], [x + w / 2, y + h]],
                    **kind,
                )
            )
    return Board(width=30, height=30, terrain=pieces)


def _bases(rng: random.Random, n: int, lo: float, hi: float) -> Bases:
    xy = np.array([[rng.uniform(lo, hi), rng.uniform(1, 29)] for _ in range(n)])
    r = np.array([rng.choice([0.5, 0.5, 0.625, 1.0]) for _ in range(n)])
    return Bases(xy, r)


def _hits_reference(
    scene: _Scene,
    p0: np.ndarray,
    p1: np.ndarray,
    cands: tuple[np.ndarray, ...],
    values: np.ndarray | None = None,
) -> np.ndarray:
    """The exact path: every segment against every candidate piece and base, the largest
    value kept (``_Scene.hits`` before the shortcut)."""
    out = np.zeros(p0.shape[:2], dtype=np.intp)
    cq, cp, dq, db = cands
    g = scene.geom
    if len(cq):
        pcs = scene.pieces[cp]
        ne = g.nedges[pcs]
        for e in np.unique(ne):
            sel = ne == e
            q, pc = cq[sel], pcs[sel]
            hit = _cross_written_out(p0[q], p1[q], g.edge0[pc, :e], g.edge1[pc, :e])
            val = hit.astype(np.intp)
            if values is not None:
                val *= values[pc][:, None]
            np.maximum.at(out, q, val)
    if len(dq):
        d = _segment_distances(p0[dq], p1[dq], scene.bxy[db])
        np.maximum.at(out, dq, (d < scene.br[db][:, None] - EPS).astype(np.intp))
    return out


@pytest.mark.parametrize("seed", range(12))
def test_fast_sight_and_cover_equal_the_exact_path_on_random_boards(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(seed)
    board = _random_board(rng)
    cache = board.geometry().cache
    for _ in range(4):
        attackers = _bases(rng, rng.randint(1, 6), 1, 8)
        targets = _bases(rng, rng.randint(1, 6), 22, 29)
        blockers = _bases(rng, rng.randint(0, 25), 6, 24)
        for pieces in ("los", "obscuring"):
            scene = _Scene(board, attackers, targets, blockers, pieces)
            n, m = len(scene.axy), len(scene.txy)
            ia, it = np.divmod(np.arange(n * m), m)
            cands = scene.candidates(ia, it)
            pa = _across(scene.axy[ia], scene.txy[it], scene.ar[ia], _LOS_ACROSS)
            pt = _across(scene.txy[it], scene.axy[ia], scene.tr[it], _LOS_ACROSS)
            # segment by segment, with and without values, the shortcut's answer is exact
            for values in (None, scene.geom.cover_value):
                fast = scene.hits(pa, pt, cands, values)
                assert (fast == _hits_reference(scene, pa, pt, cands, values)).all()
        cache._data.clear()
        got = (
            sight_matrix(board, attackers, targets, blockers),
            cover_report(board, attackers, targets, blockers),
        )
        with monkeypatch.context() as mp:
            mp.setattr(_Scene, "hits", _hits_reference)
            cache._data.clear()
            want = (
                sight_matrix(board, attackers, targets, blockers),
                cover_report(board, attackers, targets, blockers),
            )
        cache._data.clear()
        assert (got[0] == want[0]).all()
        assert got[1] == want[1]


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
