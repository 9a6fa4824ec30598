"""A sight question's bookkeeping made cheaper (issue 10, session 34, s34-speedp; docs/game.md
"A sixteenth pass: the player's questions"): the target views the scripted player asks are
mostly sight questions, and each paid for its culling, its cache key and its board twice.
Every answer stays the same (001_d3f5e425c5e1196d.txt §5.4 "if your Unit can see any of the
enemy model or base", §5.5, §5.6):

* the blockers and the pieces near a question's corridor are culled in one pass
  (``sight._corridor_gaps``): culling keeps 0.01" to spare, so the answers with it are the
  answers with nothing culled;
* a query's lines are tested with the edges and the blockers as rows
  (``sight._edges_cross_lines``, ``sight._discs_lines``): NumPy's broadcasts then loop over
  the few edges along the many lines, the very floats; a zero-length edge meets nothing, so
  ``sight._flat_edges`` leaves such edges out;
* ``geom._bits`` gives the very bytes of ``np.asarray`` for a float or an array;
* ``Board.geometry`` reads its private attribute's dict, the same object.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from tests.warsurge.game.sight_oracles import corridor_gaps, discs_lines, lines_discs
from tests.warsurge.game.test_speed_sight_lines import _crowded
from warbench.rulesets.warsurge.battlefield import sight, sight_jit
from warbench.rulesets.warsurge.battlefield.geometry import segments_cross_each
from warbench.rulesets.warsurge.battlefield.model import Board, Terrain
from warbench.rulesets.warsurge.battlefield.sight import (
    _corridor,
    _flat_edges,
    _point_segment_distances,
    _Scene,
    cover_report,
    sight_matrix,
    visible_models,
)
from warbench.rulesets.warsurge.game import geom


def _edges_cross_lines(
    p0: np.ndarray, p1: np.ndarray, e0: np.ndarray, e1: np.ndarray
) -> np.ndarray:
    """The edges-as-rows test of sight's lines (session 34's NumPy form; compiled since session
    37, ``sight_jit.edges_cross_lines``)."""
    cross, count = sight_jit.edges_cross_lines(
        np.ascontiguousarray(p0), np.ascontiguousarray(p1), e0, e1
    )
    assert count == int(cross.sum())
    return cross


def _answers(board: Board, *bases: sight.Bases) -> tuple[object, ...]:
    board.geometry().cache.clear()
    out = (
        sight_matrix(board, *bases).tolist(),
        visible_models(board, *bases),
        cover_report(board, *bases),
    )
    board.geometry().cache.clear()
    return out


@pytest.mark.parametrize("seed", range(40))
def test_culling_in_one_pass_gives_the_answers_of_nothing_culled(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sight, visibility and cover on random crowded boards are the same whether the scene
    culls blockers and pieces (one pass over both) or keeps every one of them."""
    board, attackers, targets, blockers = _crowded(random.Random(5100 + seed))
    got = _answers(board, attackers, targets, blockers)
    with monkeypatch.context() as mp:  # every blocker and piece kept
        mp.setattr(sight_jit, "near_corridor", lambda s, e, d, p, r: np.ones(len(p), bool))
        want = _answers(board, attackers, targets, blockers)
    assert got == want


def test_culling_too_much_would_be_seen() -> None:
    """The comparison above can fail: culling every blocker and piece changes some answers."""
    changed = 0
    for seed in range(40):
        board, attackers, targets, blockers = _crowded(random.Random(5100 + seed))
        got = _answers(board, attackers, targets, blockers)
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(sight_jit, "near_corridor", lambda s, e, d, p, r: np.zeros(len(p), bool))
            changed += got != _answers(board, attackers, targets, blockers)
    assert changed


@pytest.mark.parametrize("seed", range(8))
def test_one_pass_keeps_what_the_two_distances_kept(seed: int) -> None:
    """The scene's kept blockers and near pieces are those the two separate distances (the
    matmul formula) keep, and the distances agree to rounding."""
    rng = random.Random(5200 + seed)
    culled = 0
    for _ in range(10):
        board, attackers, targets, blockers = _crowded(rng)
        scene = _Scene(board, attackers, targets, blockers)
        if not len(blockers) or not len(scene.pieces):
            continue
        g = board.geometry()
        ca, ct, reach = _corridor(scene.axy, scene.ar, scene.txy, scene.tr)
        bxy, br = blockers.xy, blockers.r
        keep = _point_segment_distances(ca, ct, bxy) <= reach + br + 0.01
        assert np.array_equal(scene.bxy, bxy[keep]) and np.array_equal(scene.br, br[keep])
        pd = _point_segment_distances(ca, ct, g.centre[scene.pieces])
        near = np.flatnonzero(pd <= reach + g.reach[scene.pieces] + 0.01)
        assert np.array_equal(scene.near_pieces(), near)
        both = np.concatenate((bxy, g.centre[scene.pieces]))
        assert np.allclose(
            corridor_gaps(ca, ct, both),
            np.concatenate((_point_segment_distances(ca, ct, bxy), pd)),
            rtol=1e-12,
            atol=1e-12,
        )
        culled += int((~keep).sum()) + len(scene.pieces) - len(near)
    assert culled  # the random boards do leave things out


def test_corridor_gaps_of_a_point_corridor_are_the_distances_to_it() -> None:
    start = np.array([3.0, 4.0])
    pts = np.array([[3.0, 4.0], [6.0, 8.0], [0.0, 0.0]])
    assert corridor_gaps(start, start.copy(), pts).tolist() == [0.0, 5.0, 5.0]
    # along a segment: behind its start, beside it, beyond its end
    end = np.array([13.0, 4.0])
    got = corridor_gaps(start, end, np.array([[0.0, 8.0], [8.0, 1.0], [16.0, 0.0]]))
    assert got.tolist() == [5.0, 3.0, 5.0]


def test_zero_length_edges_are_left_out_and_met_nothing_anyway() -> None:
    """A polygon with a vertex repeated: its flat edges leave the zero-length edge out, and
    the edges-as-rows test of them answers as ``segments_cross_each`` on the padded edges."""
    wall = Terrain(
        name="W", polygon=[[10, 0], [12, 0], [12, 0], [12, 30], [10, 30]], blocks_los=True
    )
    hut = Terrain(name="H", rect=[20, 20, 24, 24], blocks_los=True)
    board = Board(width=30, height=30, terrain=[wall, hut])
    g = board.geometry()
    pieces = g.los_index
    e0, e1, owner = _flat_edges(g, pieces, np.arange(len(pieces)))
    assert not (e0 == e1).all(axis=1).any()
    lengths = (g.edge0[pieces] != g.edge1[pieces]).any(axis=2).sum(axis=1)
    assert len(e0) == int(lengths.sum()) and np.bincount(owner).tolist() == lengths.tolist()
    rng = np.random.default_rng(11)
    p0 = rng.uniform(0, 30, size=(40, 26, 2))
    p1 = rng.uniform(0, 30, size=(40, 26, 2))
    p0[0, 0], p1[0, 0] = [12.0, -5.0], [12.0, 5.0]  # along the wall's side, over the repeat
    got = _edges_cross_lines(p0.reshape(-1, 2), p1.reshape(-1, 2), e0, e1).any(axis=0)
    want = np.zeros((40, 26), dtype=bool)
    for i in range(len(pieces)):
        pe0, pe1 = g.edge0[pieces[i]], g.edge1[pieces[i]]
        want |= segments_cross_each(p0, p1, pe0, pe1).any(axis=2)
    assert np.array_equal(got.reshape(40, 26), want) and got.any() and not got.all()
    # the test left out is a real one: a zero-length edge on a line would meet it
    dot = np.array([[12.0, 0.0]])
    assert not segments_cross_each(p0[:1, :1], p1[:1, :1], dot, dot).any()
    assert _edges_cross_lines(p0[0, :1], p1[0, :1], dot, dot).any()


@pytest.mark.parametrize("seed", range(12))
def test_edges_as_rows_are_segments_cross_each_float_for_float(seed: int) -> None:
    """``_edges_cross_lines`` gives ``segments_cross_each``'s answers, transposed, on random
    lines and edges, and on a small integer grid where many are collinear or touch."""
    rng = np.random.default_rng(400 + seed)
    if seed % 2:
        grid = rng.integers(0, 5, size=(4, 60, 2)).astype(np.float64)
        p0, p1, e0, e1 = grid
        long = (e0 != e1).any(axis=1)
        e0, e1 = e0[long], e1[long]
    else:
        p0, p1 = rng.uniform(0, 30, size=(2, 300, 2))
        e0, e1 = rng.uniform(0, 30, size=(2, 17, 2))
    want = segments_cross_each(p0[None], p1[None], e0, e1)[0].T
    got = _edges_cross_lines(p0, p1, e0, e1)
    assert got.shape == want.shape and np.array_equal(got, want)
    assert got.any() and not got.all()


@pytest.mark.parametrize("seed", range(6))
def test_points_as_rows_are_lines_discs_float_for_float(seed: int) -> None:
    """``_discs_lines`` gives ``_lines_discs``'s distances bit for bit (lines of no length,
    points behind a line's start and beyond its end)."""
    rng = np.random.default_rng(500 + seed)
    p0 = rng.uniform(0, 48, size=(200, 2))
    p1 = p0 + rng.normal(size=(200, 2)) * rng.uniform(0.01, 30, size=(200, 1))
    p1[0] = p0[0]
    c = rng.uniform(0, 48, size=(13, 2))
    c[0] = p0[1]  # on a line's start
    want = lines_discs(p0[None], p1[None], c)[0].T
    got = discs_lines(p0, p1, c)
    assert got.shape == want.shape
    assert np.array_equal(got.view(np.int64), want.view(np.int64))  # to the bit


def _old_bits(a: object) -> bytes:
    arr = np.asarray(a)
    return f"{arr.dtype.str}{arr.shape}".encode() + arr.tobytes()


def test_cache_key_bytes_are_those_of_asarray() -> None:
    rng = np.random.default_rng(3)
    xy = rng.uniform(0, 48, size=(7, 2))
    cases: list[object] = [
        0.5,
        -0.0,
        0.0,
        float("nan"),
        1e300,
        xy,
        xy[::2],
        xy[:, 0],
        xy.T,
        xy.astype(np.float32),
        np.float64(2.0),
        np.zeros((0, 2)),
        3,
        np.array(1.5),
    ]
    for a in cases:
        assert geom._bits(a) == _old_bits(a), a
    # the float's and a one-float array's keys differ (their shapes do)
    assert geom._bits(0.5) != geom._bits(np.array([0.5]))
    assert geom._bits(xy) != geom._bits(xy.astype(np.float32))


def test_a_boards_geometry_is_built_once_and_again_for_destroyed_terrain() -> None:
    hut = Terrain(name="H", rect=[20, 20, 24, 24], blocks_los=True, hp=3)
    board = Board(width=30, height=30, terrain=[hut])
    g = board.geometry()
    assert board.geometry() is g and board._geometry is g
    other = board.with_terrain_destroyed("H")
    assert other.geometry() is not g and board.geometry() is g
