"""A sight question's culling in one compiled call (issue 10, session 39, s39-speedg;
docs/game.md "A twenty-first pass: the game beyond the Move").

``sight._Scene`` keeps, of a question's blockers and terrain pieces, those near the corridor
between the attacking and the targeted bases (001_d3f5e425c5e1196d.txt §5.4: a line between
two bases stays within the larger radius of the segment between their centres). It asked
``_corridor`` (Python sums of the models' centroids and spreads) and two kernels
(``sight_jit.near_corridor``, blockers then pieces); ``sight_jit.scene_near`` does all three in
one call. The Python and kernel forms stay in the module (``_corridor``, ``near_corridor``:
``near_blockers``, ``near_pieces`` and arrays not C-ordered still use them) and are the oracle
here, bit for bit: the blockers kept, the pieces near and the scene's answers.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.warsurge.game.sight_oracles import corridor_gaps
from warbench.rulesets.warsurge.battlefield import sight, sight_jit
from warbench.rulesets.warsurge.battlefield.model import Board, Terrain


def _oracle(
    axy: np.ndarray,
    ar: np.ndarray,
    txy: np.ndarray,
    tr: np.ndarray,
    bxy: np.ndarray,
    br: np.ndarray,
    pxy: np.ndarray,
    plim: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Session 37's culling: ``_corridor``, then ``near_corridor`` of the blockers and the
    pieces (the indices of the pieces near)."""
    ca, ct, reach = sight._corridor(axy, ar, txy, tr)
    keep = sight_jit.near_corridor(ca, ct, reach, bxy, br)
    near = sight_jit.near_corridor(ca, ct, reach, pxy, plim).nonzero()[0]
    return keep, near


def _case(seed: int) -> tuple[np.ndarray, ...]:
    """Attackers, targets, blockers and circles: random, or on an integer grid (ties of the
    largest spread and radius, a corridor of one point), with many blockers and circles
    exactly on the limit of the corridor, or a float either side of it."""
    rng = np.random.default_rng(3900 + seed)
    na, nt = int(rng.integers(1, 11)), int(rng.integers(1, 11))
    if seed % 2:
        axy = rng.integers(0, 6, size=(na, 2)) * 1.0
        txy = rng.integers(0, 6, size=(nt, 2)) * 1.0
        ar = rng.integers(1, 3, size=na) * 0.5
        tr = rng.integers(1, 3, size=nt) * 0.5
        bxy = rng.integers(0, 8, size=(60, 2)) * 1.0
        pxy = rng.integers(0, 8, size=(12, 2)) * 1.0
    else:
        axy, txy = rng.uniform(0, 48, size=(na, 2)), rng.uniform(0, 48, size=(nt, 2))
        ar, tr = rng.uniform(0.4, 2.5, size=na), rng.uniform(0.4, 2.5, size=nt)
        bxy, pxy = rng.uniform(0, 48, size=(60, 2)), rng.uniform(0, 48, size=(12, 2))
    if seed == 2:
        txy = axy.copy()  # the centroids meet: a corridor of one point
        tr = ar.copy()
    ca, ct, reach = sight._corridor(axy, ar, txy, tr)
    lims = []
    for xy in (bxy, pxy):
        lim = corridor_gaps(ca, ct, xy) - reach - 0.01  # on the limit, to rounding
        lim[::3] = np.nextafter(lim[::3], np.inf)
        lim[1::3] = np.nextafter(lim[1::3], -np.inf)
        if seed % 4 == 3:
            lim[2::3] = rng.uniform(0.4, 6, size=len(lim[2::3]))
        lims.append(lim)
    return axy, ar, txy, tr, bxy, lims[0], pxy, lims[1]


@pytest.mark.parametrize("seed", range(24))
def test_scene_near_is_the_corridor_and_both_cullings(seed: int) -> None:
    args = _case(seed)
    want_keep, want_near = _oracle(*args)
    keep, kept, near = sight_jit.scene_near(*args)
    assert np.array_equal(keep, want_keep) and kept == int(want_keep.sum())
    assert near.dtype == want_near.dtype and np.array_equal(near, want_near)
    assert 0 < kept < len(keep) and 0 < len(near) < len(args[6])  # both sides of the limit


def test_the_targets_largest_radius_widens_the_corridor() -> None:
    """The corridor is the kernel's own: a blocker on its limit drops out when the largest
    radius (a target's here) is smaller, or the targets' spread is."""
    axy = np.array([[1.0, 1.0], [3.0, 1.0]])
    txy = np.array([[20.0, 1.0], [20.0, 3.0]])
    ar, tr = np.array([0.5, 0.5]), np.array([0.5, 1.0])
    ca, ct, reach = sight._corridor(axy, ar, txy, tr)
    bxy = np.array([[10.0, 6.0]])
    lim = corridor_gaps(ca, ct, bxy) - reach - 0.01
    keep, kept, _ = sight_jit.scene_near(axy, ar, txy, tr, bxy, lim, bxy, lim)
    assert kept == 1 and keep.tolist() == [True]
    smaller = np.array([0.5, 0.99])  # the largest radius
    keep, kept, near = sight_jit.scene_near(axy, ar, txy, smaller, bxy, lim, bxy, lim)
    assert (kept, keep.tolist(), near.tolist()) == (0, [False], [])
    closer = np.array([[20.0, 1.0], [20.0, 2.98]])  # the targets' spread
    keep, kept, near = sight_jit.scene_near(axy, ar, closer, tr, bxy, lim, bxy, lim)
    assert (kept, keep.tolist(), near.tolist()) == (0, [False], [])


def _board() -> Board:
    walls = [
        Terrain(name=f"W{k}", rect=[6 + 8 * k, 4 + 3 * k, 8 + 8 * k, 14 + 3 * k], blocks_los=True)
        for k in range(4)
    ]
    ruin = Terrain(name="R", rect=[20, 24, 26, 30], cover=1)
    return Board(width=48, height=40, terrain=[*walls, ruin])


@pytest.mark.parametrize("seed", range(12))
def test_the_scene_keeps_and_answers_as_before(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Scenes of sight and cover questions on a board with walls and a ruin: the blockers and
    pieces the scene keeps, its sight matrix and its cover report are those of the scene
    built the old way (the kernel asked for nothing: its arrays made not C-ordered)."""
    rng = np.random.default_rng(3950 + seed)
    board = _board()
    a = rng.uniform(0, 40, size=(int(rng.integers(1, 8)), 2))
    t = rng.uniform(0, 40, size=(int(rng.integers(1, 8)), 2))
    b = rng.uniform(0, 40, size=(40, 2))
    att = [((float(x), float(y)), 0.5) for x, y in a]
    tgt = [((float(x), float(y)), 0.75) for x, y in t]
    blk = [((float(x), float(y)), float(rng.uniform(0.4, 1.5))) for x, y in b]
    for pieces in ("los", "obscuring"):
        new = sight._Scene(board, att, tgt, blk, pieces)
        with monkeypatch.context() as mp:
            mp.setattr(sight, "_arrays", _fortran)
            old = sight._Scene(board, att, tgt, blk, pieces)
        assert np.array_equal(new.bxy, old.bxy) and np.array_equal(new.br, old.br)
        assert np.array_equal(new.near_pieces(), old.near_pieces())
    board.geometry().cache.clear()
    seen = sight.sight_matrix(board, att, tgt, blk)
    report = sight.cover_report(board, att, tgt, blk)
    board.geometry().cache.clear()
    with monkeypatch.context() as mp:
        mp.setattr(sight_jit, "scene_near", _oracle_scene_near)
        assert np.array_equal(sight.sight_matrix(board, att, tgt, blk), seen)
        assert sight.cover_report(board, att, tgt, blk) == report
    board.geometry().cache.clear()


_ARRAYS = sight._arrays


def _fortran(discs: object) -> tuple[np.ndarray, np.ndarray]:
    """``sight._arrays`` with the centres Fortran-ordered: the scene culls the old way."""
    xy, r = _ARRAYS(discs)  # type: ignore[arg-type]
    return np.asfortranarray(xy), r


def _oracle_scene_near(*args: np.ndarray) -> tuple[np.ndarray, int, np.ndarray]:
    keep, near = _oracle(*args)
    return keep, int(keep.sum()), near


def test_no_fused_multiply_add_in_the_scene_kernels() -> None:
    """As sight's other kernels (``test_speed_sight_jit``): the products and sums of the
    centroids' spreads, the culling's distances and the bases' gaps to the pieces' edges are
    rounded one by one, as Python and NumPy round them."""
    numba = pytest.importorskip("numba")
    g = _pieces_board(0).geometry()
    pieces = np.arange(len(g.names))
    inside = (pieces, g.centre, np.ones(7), g.centre, g.reach, g.edge0, g.edge1, 1e-9)
    cases = [(sight_jit._scene_near, _case(0)), (sight_jit._discs_in, inside)]
    for py, args in cases:
        kernel = numba.njit(**{**sight_jit.JIT_OPTIONS, "cache": False})(py)
        kernel(*args)
        asm = "\n".join(kernel.inspect_asm().values()).lower()
        assert ("mulsd" in asm or "mulpd" in asm) and ("sqrtsd" in asm or "sqrtpd" in asm)
        assert not any(op in asm for op in ("vfmadd", "vfmsub", "vfnmadd", "vfnmsub"))


# ----------------------------------------------------------------- the pieces a base is in


def _pieces_board(seed: int) -> Board:
    """Rectangles, triangles and an L on a grid (edges shared, vertices on other edges) or
    anywhere: the pieces a base may stand in (ruling 2 of "WARSURGE battlefield")."""
    rng = np.random.default_rng(3970 + seed)
    pieces = []
    for k in range(7):
        if seed % 2:
            x, y = (int(v) for v in rng.integers(1, 14, size=2))
            w, h = (int(v) for v in rng.integers(1, 4, size=2))
        else:
            x, y = rng.uniform(2, 30, size=2)
            w, h = rng.uniform(0.5, 4, size=2)
        if k % 3 == 0:
            poly = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
        elif k % 3 == 1:
            poly = [(x, y), (x + w, y), (x, y + h)]
        else:
            poly = [(x, y), (x + 2 * w, y), (x + 2 * w, y + h), (x + w, y + h), (x + w, y + 2 * h),
                    (x, y + 2 * h)]  # fmt: skip
        pieces.append(
            Terrain(name=f"P{k}", polygon=[list(map(float, p)) for p in poly], blocks_los=True)
        )
    return Board(width=40, height=40, terrain=pieces)


@pytest.mark.parametrize("seed", range(16))
def test_discs_in_is_the_boards_numpy_answer(seed: int) -> None:
    """``sight_jit.discs_in`` against ``BoardGeometry.discs_in`` (NumPy, the oracle), bit
    for bit: bases on a grid (centres on edges and vertices, radii reaching an edge exactly)
    and anywhere, radii a float either side of the distance to the nearest edge."""
    g = _pieces_board(seed).geometry()
    rng = np.random.default_rng(3980 + seed)
    if seed % 2:
        xy = rng.integers(0, 20, size=(90, 2)) * 1.0
        r = rng.integers(1, 4, size=90) * 0.5
    else:
        xy = rng.uniform(0, 36, size=(90, 2))
        r = rng.uniform(0.2, 2.5, size=90)
    if seed % 4 >= 2:  # radii on the limit: the least distance to an edge, plus EPS
        from warbench.rulesets.warsurge.battlefield.geometry import EPS

        gaps = np.array([[_least_gap(g, p, x) for p in range(len(g.names))] for x in xy]).min(
            axis=1
        )
        r = gaps + EPS
        r[::3] = np.nextafter(r[::3], np.inf)
        r[1::3] = np.nextafter(r[1::3], -np.inf)
    answers = []
    for pieces in (np.arange(len(g.names)), np.array([4, 1, 6]), np.zeros(0, np.intp)):
        want = g.discs_in(pieces, xy, r)
        got = sight_jit.discs_in(pieces, xy, r, g.centre, g.reach, g.edge0, g.edge1)
        assert got.shape == want.shape and np.array_equal(got, want)
        answers.append(want)
    assert answers[0].any() and not answers[0].all()  # bases in pieces, and out


def test_discs_in_a_nan_edge_poisons_the_nearest_as_np_min_does() -> None:
    """A NaN in an edge (and a NaN position) gives the NumPy oracle's answer: ``np.min`` of a
    row with a NaN is NaN, so no edge is near, where a plain running least would skip the
    NaN and find the finite edges near. The review (s39) found that removing
    ``sight_jit._discs_in``'s ``nan`` flag passed every other test; this one fails then."""
    g = _pieces_board(0).geometry()
    g.edge0, g.edge1 = g.edge0.copy(), g.edge1.copy()
    g.edge1[0, 0] = g.edge0[0, 1] = np.nan  # piece 0's first edge ends in NaN
    x0, y0 = g.edge0[0, 2]  # a vertex of a finite edge: bases around it, some outside
    ring = np.linspace(0, 2 * np.pi, 16, endpoint=False)
    xy = np.column_stack([x0 + 0.3 * np.cos(ring), y0 + 0.3 * np.sin(ring)])
    xy = np.vstack([xy, [[np.nan, 1.0], [x0, np.nan]]])
    r = np.full(len(xy), 0.5)
    pieces = np.arange(len(g.names))
    want = g.discs_in(pieces, xy, r)
    got = sight_jit.discs_in(pieces, xy, r, g.centre, g.reach, g.edge0, g.edge1)
    assert np.array_equal(got, want)
    assert not want[:, 0].all()  # the NaN row hid some near edge: bases left out


def _least_gap(g: object, p: int, x: np.ndarray) -> float:
    """The distance from ``x`` to piece ``p``'s nearest edge (NumPy, as ``_discs_in``)."""
    e0, e1 = g.edge0[p], g.edge1[p]  # type: ignore[attr-defined]
    d = e1 - e0
    dd = np.einsum("ek,ek->e", d, d)
    w = x - e0
    t = np.clip((w[:, 0] * d[:, 0] + w[:, 1] * d[:, 1]) / np.where(dd > 0, dd, 1), 0, 1)
    e = w - t[:, None] * d
    return float(np.sqrt(e[:, 0] * e[:, 0] + e[:, 1] * e[:, 1]).min())
