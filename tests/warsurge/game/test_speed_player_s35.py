"""The small NumPy calls of the player's questions and the Move's search (issue 10, session 35,
s35-speedp; docs/game.md "A seventeenth pass: the small NumPy calls"). Each fast path gives
the very floats of the form it replaced, tested here bit for bit against that form (kept in
this file) on many random inputs, degenerate ones among them (zero-length moves, points on an
integer grid where many distances tie):

* ``route_formation._clear_of`` keeps x and y apart (the placement of models one by one,
  §4.1 L1833-1848, §4.7): no (segments, centres, 2) arrays summed over rows of two;
* the lattice's, the reach's and the greedy placement's distances are
  ``geom.centre_distances`` (x and y apart) instead of ``sqrt(((a - b) ** 2).sum(axis=2))``;
* ``geom.centre_distances`` works up to ``geom._FEW_PAIRS`` pairs in Python floats;
* ``battlefield.geometry.segment_point_distance`` (sight's corridor and cover rays, §5.4,
  §5.6) keeps x and y apart instead of ``einsum`` over rows of two.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.warsurge.game.route_oracles import clear_of as _clear_of
from warbench.rulesets.warsurge.battlefield.geometry import segment_point_distance
from warbench.rulesets.warsurge.game import geom
from warbench.rulesets.warsurge.game.route_formation import SLACK


def _clear_of_pairs(
    a: np.ndarray, b: np.ndarray, centres: np.ndarray, reach: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Session 34's ``_clear_of`` (the (…, 2) form) and its gaps, the reference."""
    d = b - a
    length2 = (d * d).sum(axis=1)
    rel = centres[None, :, :] - a[:, None, :]
    safe = np.where(length2 > 1e-18, length2, 1.0)
    t = np.clip((rel * d[:, None, :]).sum(axis=2) / safe[:, None], 0.0, 1.0)
    t = np.where(length2[:, None] > 1e-18, t, 0.0)
    gap = np.sqrt(((rel - t[:, :, None] * d[:, None, :]) ** 2).sum(axis=2)) - reach[None, :]
    return (gap > SLACK).all(axis=1), gap


def _points(rng: np.random.Generator, n: int, grid: bool) -> np.ndarray:
    if grid:  # an integer grid: ties, collinear points, zero-length moves
        return rng.integers(0, 6, size=(n, 2)).astype(np.float64)
    return rng.uniform(-3.0, 50.0, size=(n, 2))


@pytest.mark.parametrize("seed", range(60))
def test_clear_of_with_x_and_y_apart_is_the_pairs_form(seed: int) -> None:
    """The same answer for every segment as the (…, 2) form, and the gap it compares with
    ``SLACK`` the very same float (the gaps are recomputed here with x and y apart)."""
    rng = np.random.default_rng(seed)
    grid = seed % 3 == 0
    p, c = int(rng.integers(1, 40)), int(rng.integers(1, 30))
    a = _points(rng, p, grid)
    b = _points(rng, p, grid)
    if seed % 4 == 1:
        b[::2] = a[::2]  # zero-length moves: a model that stays
    centres = _points(rng, c, grid)
    reach = rng.uniform(0.0, 3.0, size=c)
    if seed % 5 == 2:  # gaps right at SLACK: a centre reach + SLACK from a segment's end
        centres[0] = a[0] + np.array([reach[0] + SLACK, 0.0])
    want, gap = _clear_of_pairs(a, b, centres, reach)
    got = _clear_of(a, b, centres, reach)
    assert got.tolist() == want.tolist()
    dx, dy = (b - a)[:, 0], (b - a)[:, 1]
    length2 = dx * dx + dy * dy
    rx = centres[None, :, 0] - a[:, 0, None]
    ry = centres[None, :, 1] - a[:, 1, None]
    long = length2 > 1e-18
    t = np.clip((rx * dx[:, None] + ry * dy[:, None]) / np.where(long, length2, 1.0)[:, None], 0, 1)
    t = np.where(long[:, None], t, 0.0)
    gx, gy = rx - t * dx[:, None], ry - t * dy[:, None]
    assert (np.sqrt(gx * gx + gy * gy) - reach[None, :]).tobytes() == gap.tobytes()


def test_clear_of_refuses_a_centre_on_the_way() -> None:
    """A base on the straight way is not clear; one beside it beyond its reach is (§4.7)."""
    a = np.array([[0.0, 0.0], [0.0, 0.0]])
    b = np.array([[10.0, 0.0], [0.0, 10.0]])
    centres = np.array([[5.0, 0.5]])
    assert _clear_of(a, b, centres, np.array([1.0])).tolist() == [False, True]


@pytest.mark.parametrize("seed", range(60))
def test_centre_distances_are_the_pairs_form(seed: int) -> None:
    """``geom.centre_distances(a, b)`` is ``sqrt(((a[:, None] - b[None]) ** 2).sum(axis=2))``
    bit for bit (the lattice, the reach, and one column: the greedy placement's gaps)."""
    rng = np.random.default_rng(1000 + seed)
    grid = seed % 3 == 0
    a = _points(rng, int(rng.integers(0, 50)), grid)
    b = _points(rng, int(rng.integers(1, 12)), grid)
    want = np.sqrt(((a[:, None, :] - b[None, :, :]) ** 2).sum(axis=2))
    assert geom.centre_distances(a, b).tobytes() == want.tobytes()
    if len(a):
        p = a[len(a) // 2]
        one = np.sqrt(((a - p) ** 2).sum(axis=1))
        got = geom.centre_distances(a, a[len(a) // 2 : len(a) // 2 + 1])[:, 0]
        assert got.tobytes() == one.tobytes()


@pytest.mark.parametrize("seed", range(40))
def test_centre_distances_of_few_pairs_in_floats_are_numpys(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Up to ``geom._FEW_PAIRS`` pairs the distances are worked out in Python floats: bit for
    bit NumPy's (the same path with the threshold at 0), shape and dtype included, on random
    points, an integer grid, and far, huge and infinite coordinates."""
    rng = np.random.default_rng(2000 + seed)
    cases = []
    for n in range(1, 7):
        for m in range(1, 7):
            if n * m <= geom._FEW_PAIRS:
                cases.append((_points(rng, n, seed % 2 == 0), _points(rng, m, seed % 3 == 0)))
    a = np.array([[1e200, -3.0], [np.inf, 0.5]])
    cases.append((a, np.array([[-1e200, 2.0], [np.inf, 1.0], [0.0, -np.inf]])))
    got = [geom.centre_distances(x, y) for x, y in cases]
    monkeypatch.setattr(geom, "_FEW_PAIRS", 0)
    with np.errstate(all="ignore"):
        want = [geom.centre_distances(x, y) for x, y in cases]
    for g, w in zip(got, want, strict=True):
        assert g.shape == w.shape and g.dtype == w.dtype
        assert g.tobytes() == w.tobytes()


def _segment_point_distance_einsum(p0: np.ndarray, p1: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Session 34's ``geometry.segment_point_distance`` (the ``einsum`` form), the reference."""
    d = p1 - p0
    dd = np.einsum("ij,ij->i", d, d)
    w = c[None, :, :] - p0[:, None, :]
    safe = np.where(dd > 0, dd, 1.0)
    t = np.clip(np.einsum("sbk,sk->sb", w, d) / safe[:, None], 0.0, 1.0)
    t[dd == 0] = 0.0
    diff = w - t[..., None] * d[:, None, :]
    out: np.ndarray = np.sqrt(np.einsum("sbk,sbk->sb", diff, diff))
    return out


@pytest.mark.parametrize("seed", range(60))
def test_segment_point_distance_with_x_and_y_apart_is_the_einsum_form(seed: int) -> None:
    """``battlefield.geometry.segment_point_distance`` (sight's corridor and cover rays, §5.4,
    §5.6) gives the ``einsum`` form's distances bit for bit: random segments, an integer grid
    (collinear points, ties), zero-length segments, points on the segments' ends."""
    rng = np.random.default_rng(3000 + seed)
    grid = seed % 3 == 0
    s, b = int(rng.integers(1, 60)), int(rng.integers(1, 40))
    p0, p1, c = _points(rng, s, grid), _points(rng, s, grid), _points(rng, b, grid)
    if seed % 4 == 1:
        p1[::3] = p0[::3]  # zero-length segments
    if seed % 5 == 2:
        c[: min(b, s)] = p1[: min(b, s)]  # points on the segments' ends
    want = _segment_point_distance_einsum(p0, p1, c)
    got = segment_point_distance(p0, p1, c)
    assert got.shape == want.shape and got.tobytes() == want.tobytes()
