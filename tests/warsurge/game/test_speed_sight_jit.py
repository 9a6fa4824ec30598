"""Sight's lines as compiled loops (issue 10, session 37, s37-jit; docs/game.md "A nineteenth
pass: sight compiled"): ``sight._Scene.lines_hit`` asks two numba kernels
(``battlefield/sight_jit.py``) what it asked of NumPy in about twenty calls on small arrays.
Every answer stays the same (001_d3f5e425c5e1196d.txt §5.4 "if your Unit can see any of the
enemy model or base", §5.6): each kernel is held here to the NumPy form it replaced, bit for
bit, on random and integer-grid cases (lines of no length, collinear and touching edges, points
on a line's ends), and the compiled code has no fused multiply-add (which would round once
where NumPy rounds twice).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from tests.warsurge.game.sight_oracles import (
    across_both,
    corridor_gaps,
    discs_lines,
    edges_cross_lines,
)
from tests.warsurge.game.test_speed_sight_lines import _crowded, _lines
from warbench.rulesets.warsurge.battlefield import sight_jit
from warbench.rulesets.warsurge.battlefield.geometry import (
    EPS,
    segments_cross_each,
)
from warbench.rulesets.warsurge.battlefield.sight import (
    _COVER_ACROSS,
    _LOS_ACROSS,
    _across,
    _flat_edges,
    _Scene,
)

# ----------------------------------------------------------------- the NumPy forms (oracles)


def _numpy_lines_worth(
    cross: np.ndarray,
    worth: np.ndarray,
    p0: np.ndarray,
    p1: np.ndarray,
    c: np.ndarray,
    lim: np.ndarray,
) -> np.ndarray:
    """Session 36's reduction in ``lines_hit`` (the oracle only): the largest worth of the
    edges crossed, then ``np.maximum`` with whether some base is nearer than its limit."""
    out = np.zeros(cross.shape[1], dtype=np.intp)
    if len(cross):
        out = np.where(cross, worth[:, None], 0).max(axis=0)
    if len(c):
        near = discs_lines(p0, p1, c) < lim[:, None]
        out = np.maximum(out, near.any(axis=0))
    return out


def _cases(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Lines and edges: random, or on a small integer grid (collinear, touching, repeated)."""
    rng = np.random.default_rng(3700 + seed)
    if seed % 2:
        p0, p1, e0, e1 = rng.integers(0, 5, size=(4, 80, 2)).astype(np.float64)
        p1[:5] = p0[:5]  # lines of no length
        long = (e0 != e1).any(axis=1)
        return p0, p1, e0[long][:20], e1[long][:20]
    p0, p1 = rng.uniform(0, 48, size=(2, 260, 2))
    e0, e1 = rng.uniform(0, 48, size=(2, 11, 2))
    e1[0] = e0[0] + (p1[0] - p0[0]) * 0.5  # an edge along a line
    e0[0] = p0[0]
    return p0, p1, e0, e1


# ----------------------------------------------------------------- the kernels, bit for bit


@pytest.mark.parametrize("seed", range(16))
def test_edges_cross_lines_is_the_numpy_form(seed: int) -> None:
    p0, p1, e0, e1 = _cases(seed)
    want = edges_cross_lines(p0, p1, e0, e1)
    got, count = sight_jit.edges_cross_lines(p0, p1, e0, e1)
    assert got.shape == want.shape == (len(e0), len(p0))
    assert np.array_equal(got, want) and count == int(want.sum())
    assert want.any() and not want.all()
    # and segments_cross_each's (the pair-by-pair path), transposed
    assert np.array_equal(got, segments_cross_each(p0[None], p1[None], e0, e1)[0].T)


@pytest.mark.parametrize("seed", range(16))
def test_lines_worth_is_the_numpy_form(seed: int) -> None:
    p0, p1, e0, e1 = _cases(seed)
    rng = np.random.default_rng(3800 + seed)
    cross = edges_cross_lines(p0, p1, e0, e1)
    c = rng.uniform(0, 48, size=(23, 2)) if seed % 2 == 0 else p0[5:25].copy()
    c[0] = p0[7]  # on a line's start
    lim = rng.uniform(0.2, 3.0, size=len(c)) - EPS
    for worth in (np.ones(len(e0), np.intp), rng.integers(-2, 4, size=len(e0)).astype(np.intp)):
        for cr, wo in ((cross, worth), (cross[:0], worth[:0])):  # with and without edges
            for cc, li in ((c, lim), (c[:0], lim[:0])):  # with and without bases
                want = _numpy_lines_worth(cr, wo, p0, p1, cc, li)
                got = sight_jit.lines_worth(cr, wo, p0, p1, cc, li)
                assert got.dtype == np.intp and np.array_equal(got, want)


@pytest.mark.parametrize("seed", range(4))
def test_a_base_distance_is_discs_lines_to_the_bit(seed: int) -> None:
    """The kernel's distance from a line to a base is ``_discs_lines``'s float: with the limit
    at that very float it is not nearer, with the next float up it is."""
    rng = np.random.default_rng(3900 + seed)
    p0 = rng.uniform(0, 48, size=(60, 2))
    p1 = p0 + rng.normal(size=(60, 2)) * rng.uniform(0.01, 30, size=(60, 1))
    p1[0] = p0[0]
    c = rng.uniform(0, 48, size=(9, 2))
    c[0] = p0[1]
    d = discs_lines(p0, p1, c)  # (B, L)
    none = np.zeros((0, 1), dtype=bool)
    for b in range(len(c)):
        for li in range(len(p0)):
            at = np.array([d[b, li]])
            up = np.nextafter(at, np.inf)
            args = (none, np.zeros(0, np.intp), p0[li : li + 1], p1[li : li + 1], c[b : b + 1])
            assert sight_jit.lines_worth(*args, at).tolist() == [0]
            assert sight_jit.lines_worth(*args, up).tolist() == [1]


def test_no_fused_multiply_add_in_the_compiled_code() -> None:
    """A fused multiply-add rounds ``a * b + c`` once where NumPy rounds twice: the kernels,
    compiled with sight_jit's options (here without the disk cache, whose code numba does not
    show), have none (numba leaves LLVM's contraction off without ``fastmath``)."""
    numba = pytest.importorskip("numba")
    options = {**sight_jit.JIT_OPTIONS, "cache": False}
    p0, p1, e0, e1 = _cases(0)
    cross = np.zeros((0, len(p0)), dtype=bool)
    kernels = [
        (sight_jit._edges_cross_lines, (p0, p1, e0, e1, EPS), False),
        (sight_jit._lines_worth, (cross, np.zeros(0, np.intp), p0, p1, e0, np.ones(11)), True),
    ]
    for py, args, sqrt in kernels:
        kernel = numba.njit(**options)(py)
        kernel(*args)
        asm = "\n".join(kernel.inspect_asm().values()).lower()
        assert "mulsd" in asm or "mulpd" in asm  # the products are there, unfused
        assert not sqrt or "sqrtsd" in asm or "sqrtpd" in asm
        assert not any(op in asm for op in ("vfmadd", "vfmsub", "vfnmadd", "vfnmsub"))


# ----------------------------------------------------------------- the scene's answers


def _numpy_lines_hit(
    scene: _Scene,
    p0: np.ndarray,
    p1: np.ndarray,
    ia: np.ndarray,
    it: np.ndarray,
    values: np.ndarray | None,
    exclude_target: bool,
) -> np.ndarray:
    """Session 36's ``_Scene.lines_hit`` with its NumPy forms (the oracle only)."""
    q, k = p0.shape[:2]
    out = np.zeros((q, k), dtype=np.intp)
    near = scene.near_pieces()
    ends = np.ascontiguousarray(p0.reshape(q * k, 2)), np.ascontiguousarray(p1.reshape(q * k, 2))
    if len(near):
        e0, e1, owner = _flat_edges(scene.geom, scene.pieces, near)
        if len(e0):
            cross = edges_cross_lines(*ends, e0, e1)
            if cross.any():
                in_a, in_t = scene.inside()
                skip = in_a[ia] | in_t[it] if exclude_target else in_a[ia]
                if skip.any():
                    cross.reshape(len(e0), q, k)[skip[:, owner].T] = False
            if values is None:
                out[cross.any(axis=0).reshape(q, k)] = 1
            else:
                worth = values[scene.pieces[owner]]
                out = np.where(cross, worth[:, None], 0).max(axis=0).reshape(q, k)
    if len(scene.bxy):
        near_base = discs_lines(*ends, scene.bxy) < (scene.br - EPS)[:, None]
        np.maximum(out, near_base.any(axis=0).reshape(q, k), out=out)
    return out


@pytest.mark.parametrize("seed", range(24))
def test_lines_hit_is_the_numpy_lines_hit(seed: int) -> None:
    board, attackers, targets, blockers = _crowded(random.Random(3700 + seed))
    met = 0
    for pieces in ("los", "obscuring"):
        board.geometry().cache.clear()
        scene = _Scene(board, attackers, targets, blockers, pieces)
        n, m = len(scene.axy), len(scene.txy)
        ia, it = np.divmod(np.arange(n * m), m)
        for exclude_target in (True, False):
            for p0, p1 in _lines(scene, ia, it):
                for values in (None, scene.geom.cover_value):
                    want = _numpy_lines_hit(scene, p0, p1, ia, it, values, exclude_target)
                    got = scene.lines_hit(p0, p1, ia, it, values, exclude_target)
                    assert got.shape == want.shape and np.array_equal(got, want)
                    met += int(want.any())
    board.geometry().cache.clear()
    assert seed % 4 or met


@pytest.mark.parametrize("seed", range(8))
def test_pair_lines_are_the_broadcast_of_across_both(seed: int) -> None:
    """The lines of sight between round bases (``_Scene._samples``): the centre line, then from
    each point across the attacker's base to each across the target's, as the broadcast of
    ``across_both``'s points gave them, bit for bit; centres that meet take the fallback
    direction, a centre that is not a number too."""
    rng = np.random.default_rng(4000 + seed)
    axy = rng.uniform(0, 48, size=(6, 2)) if seed % 2 else rng.integers(0, 4, (6, 2)) * 1.0
    txy = rng.uniform(0, 48, size=(7, 2)) if seed % 2 else rng.integers(0, 4, (7, 2)) * 1.0
    txy[0] = axy[0]  # centres that meet
    txy[1, 0] = axy[1, 0]  # along an axis
    if seed == 3:
        axy[2, 1] = np.nan
    ar, tr = rng.uniform(0.5, 2, size=6), rng.uniform(0.5, 2, size=7)
    ia, it = np.divmod(np.arange(6 * 7), 7)
    k = len(_LOS_ACROSS)
    pa, pt = across_both(axy[ia], txy[it], ar[ia], tr[it], _LOS_ACROSS)
    p0 = np.broadcast_to(pa[:, :, None, :], (len(ia), k, k, 2)).reshape(-1, k * k, 2)
    p1 = np.broadcast_to(pt[:, None, :, :], (len(ia), k, k, 2)).reshape(-1, k * k, 2)
    got = sight_jit.pair_lines(axy, ar, txy, tr, ia, it, _LOS_ACROSS, False)
    for g, w in zip(got, (p0, p1), strict=True):
        assert g.shape == w.shape and np.array_equal(g.view(np.int64), w.view(np.int64))
    c0, c1 = sight_jit.pair_lines(axy, ar, txy, tr, ia, it, _LOS_ACROSS, True)
    w0 = np.concatenate([axy[ia][:, None, :], p0], axis=1)
    w1 = np.concatenate([txy[it][:, None, :], p1], axis=1)
    assert np.array_equal(c0.view(np.int64), w0.view(np.int64))
    assert np.array_equal(c1.view(np.int64), w1.view(np.int64))
    assert not np.array_equal(c0[:, 1:], c1[:, 1:])  # the test can fail: the ends differ


@pytest.mark.parametrize("seed", range(8))
def test_rays_are_across_to_the_attacker(seed: int) -> None:
    """The cover rays of round targets (§5.6): from the attacker's centre to the points across
    the target's base, as ``_across`` and a broadcast gave them, bit for bit."""
    rng = np.random.default_rng(4100 + seed)
    axy = rng.uniform(0, 48, size=(5, 2)) if seed % 2 else rng.integers(0, 4, (5, 2)) * 1.0
    txy = rng.uniform(0, 48, size=(6, 2)) if seed % 2 else rng.integers(0, 4, (6, 2)) * 1.0
    txy[0] = axy[0]  # centres that meet: the fallback direction
    if seed == 3:
        txy[2, 0] = np.nan
    tr = rng.uniform(0.5, 2, size=6)
    ia, it = np.divmod(np.arange(5 * 6), 6)
    want1 = _across(txy[it], axy[ia], tr[it], _COVER_ACROSS)
    want0 = np.broadcast_to(axy[ia][:, None, :], want1.shape)
    got0, got1 = sight_jit.rays(axy, txy, tr, ia, it, _COVER_ACROSS)
    assert np.array_equal(got0.view(np.int64), want0.view(np.int64))
    assert np.array_equal(got1.view(np.int64), want1.view(np.int64))


@pytest.mark.parametrize("seed", range(8))
def test_near_corridor_keeps_what_the_numpy_gaps_kept(seed: int) -> None:
    """A sight question's culling (``_Scene``): the centres within ``(r + reach) + 0.01`` of
    the corridor, by ``corridor_gaps``'s distances; radii set so that many distances fall
    exactly on the limit, or a float either side of it."""
    rng = np.random.default_rng(4200 + seed)
    if seed % 2:
        xy = rng.integers(0, 8, size=(200, 2)) * 1.0
        start, end = rng.integers(0, 8, size=(2, 2)) * 1.0
    else:
        xy = rng.uniform(0, 48, size=(200, 2))
        start, end = rng.uniform(0, 48, size=(2, 2))
    if seed == 2:
        end = start.copy()  # a corridor of one point
    reach = float(rng.uniform(0.5, 3))
    gaps = corridor_gaps(start, end, xy)
    r = gaps - reach - 0.01  # on the limit, to rounding
    r[::3] = np.nextafter(r[::3], np.inf)
    r[1::3] = np.nextafter(r[1::3], -np.inf)
    want = gaps <= (r + reach) + 0.01
    got = sight_jit.near_corridor(start, end, reach, xy, r)
    assert np.array_equal(got, want) and want.any() and not want.all()


# ----------------------------------------------------------------- numba's import and cache

_PROBE = """
import sys
from warbench.rulesets.warsurge.battlefield import sight
from warbench.rulesets.warsurge.battlefield.model import Board, Terrain
wall = Terrain(name="W", rect=[9, 0, 11, 20], blocks_los=True)
board = Board(width=20, height=20, terrain=[wall])
before = "numba" in sys.modules
seen = sight.sight_matrix(board, [((2.0, 5.0), 0.5)], [((18.0, 5.0), 0.5)]).tolist()
print(before, "numba" in sys.modules, seen)
"""


def _probe(**env: str) -> str:
    import os
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", _PROBE],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **env},
    )
    return out.stdout.strip()


def test_numba_is_imported_by_the_first_question_of_sight_only() -> None:
    """Importing sight (and the rules) does not import numba; the first question does."""
    assert _probe() == "False True [[False]]"


def test_sight_answers_where_no_cache_directory_is_writable() -> None:
    """numba finds no cache locator (here: only IPython's, outside IPython): the kernels are
    compiled without the disk cache and give the same answer."""
    assert _probe(NUMBA_CACHE_LOCATOR_CLASSES="IPythonCacheLocator") == "False True [[False]]"
