"""Sight's lines tested against everything near at once give the pair-by-pair answers (issue 10,
session 31, s31-sight; docs/game.md "thirteenth pass (sight)").

``_Scene.lines_hit`` tests every line of every pair against every edge of the pieces near the
query's corridor and every blocker kept, where ``_Scene.hits`` tests each pair's lines only
against its own candidates (``_Scene.candidates``). The candidates leave out only what no line
of the pair can meet, so both must give the very same answers, line by line, and so must
``sight_matrix``, ``visible_models`` and ``cover_report`` (001_d3f5e425c5e1196d.txt §5.4 "if
your Unit can see any of the enemy model or base", §5.5, §5.6) on random boards, models
standing inside pieces included (ruling 2 of "WARSURGE battlefield").
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from tests.warsurge.game.sight_oracles import across_both, lines_discs
from tests.warsurge.game.test_speed_sight import _bases
from warbench.rulesets.warsurge.battlefield.geometry import segments_cross, segments_cross_each
from warbench.rulesets.warsurge.battlefield.model import Board, Terrain
from warbench.rulesets.warsurge.battlefield.sight import (
    _LOS_ACROSS,
    _SHRINK,
    COVER_RAYS,
    Bases,
    _across,
    _Scene,
    _segment_distances,
    cover_report,
    sight_matrix,
    visible_models,
)
from warbench.rulesets.warsurge.game.geom import Field


def _crowded(rng: random.Random) -> tuple[Board, Bases, Bases, Bases]:
    """A random board, and attackers, targets and blockers spread over all of it (so some
    stand inside pieces, and some pieces lie far from the lines)."""
    pieces = []
    for k in range(rng.randint(1, 8)):
        x, y = rng.uniform(1, 24), rng.uniform(1, 24)
        w, h = rng.uniform(0.5, 5), rng.uniform(0.5, 5)
        kind: dict[str, Any] = rng.choice(
            [{"blocks_los": True}, {"cover": rng.randint(1, 3)}, {"cover_area": True}]
        )
        shape = rng.choice(["rect", "circle", "poly"])
        if shape == "rect":
            pieces.append(Terrain(name=f"R{k}", rect=[x, y, x + w, y + h], **kind))
        elif shape == "circle":
            centre = [x + w / 2, y + w / 2]
            pieces.append(Terrain(name=f"C{k}", circle={"center": centre, "radius": w / 2}, **kind))
        else:
            corners = [[x, y], [x + w, y], [x + w, y + h / 2], [x + w / 2, y + h]]
            pieces.append(Terrain(name=f"P{k}", polygon=corners, **kind))
    board = Board(width=30, height=30, terrain=pieces)
    attackers = _bases(rng, rng.randint(1, 6), 1, 29)
    targets = _bases(rng, rng.randint(1, 6), 1, 29)
    blockers = _bases(rng, rng.randint(0, 30), 1, 29)
    return board, attackers, targets, blockers


def _lines(scene: _Scene, ia: np.ndarray, it: np.ndarray) -> list[tuple[np.ndarray, ...]]:
    """The centre lines, the :data:`LOS_SAMPLES` squared lines and the cover rays of the
    pairs, as ``sight`` and ``_cover`` draw them."""
    a, b = scene.axy[ia], scene.txy[it]
    pa = _across(a, b, scene.ar[ia], _LOS_ACROSS)
    pt = _across(b, a, scene.tr[it], _LOS_ACROSS)
    k = len(_LOS_ACROSS)
    p0 = np.broadcast_to(pa[:, :, None, :], (len(ia), k, k, 2)).reshape(-1, k * k, 2)
    p1 = np.broadcast_to(pt[:, None, :, :], (len(ia), k, k, 2)).reshape(-1, k * k, 2)
    s = ((np.arange(COVER_RAYS) + 0.5) / COVER_RAYS * 2 - 1) * _SHRINK
    rays = scene.across(True, it, a, s)
    return [
        (a[:, None, :], b[:, None, :]),
        (p0, p1),
        (np.broadcast_to(a[:, None, :], rays.shape), rays),
    ]


@pytest.mark.parametrize("seed", range(16))
def test_lines_hit_equals_hits_on_each_pairs_candidates(seed: int) -> None:
    rng = random.Random(3100 + seed)
    board, attackers, targets, blockers = _crowded(rng)
    met = 0
    for pieces in ("los", "obscuring"):
        scene = _Scene(board, attackers, targets, blockers, pieces)
        n, m = len(scene.axy), len(scene.txy)
        ia, it = np.divmod(np.arange(n * m), m)
        for exclude_target in (True, False):
            cands = scene.candidates(ia, it, exclude_target)
            for p0, p1 in _lines(scene, ia, it):
                for values in (None, scene.geom.cover_value):
                    want = scene.hits(p0, p1, cands, values)
                    got = scene.lines_hit(p0, p1, ia, it, values, exclude_target)
                    assert got.shape == want.shape
                    assert (got == want).all()
                    met += int(want.any())
    # the boards are not empty of obstacles: some lines meet something
    assert seed % 4 or met


@pytest.mark.parametrize("seed", range(24))
def test_sight_visible_and_cover_equal_the_pair_by_pair_path(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(3200 + seed)
    board, attackers, targets, blockers = _crowded(rng)
    cache = board.geometry().cache

    def answers() -> tuple[list[list[bool]], list[bool], object]:
        cache._data.clear()
        return (
            sight_matrix(board, attackers, targets, blockers).tolist(),
            visible_models(board, attackers, targets, blockers),
            cover_report(board, attackers, targets, blockers),
        )

    got = answers()
    with monkeypatch.context() as mp:
        mp.setattr(_Scene, "round_blockers", lambda self: False)  # every pair on its own
        want = answers()
    cache._data.clear()
    assert got == want


def test_a_model_inside_a_wall_sees_out_and_the_wall_still_hides_others() -> None:
    """Ruling 2: a model in a ruin sees out and is seen; the same wall blocks the lines of a
    pair that does not stand in it (§5.4), with lines tested against everything near."""
    wall = Terrain(name="W", rect=[10, 0, 12, 30], blocks_los=True)
    board = Board(width=30, height=30, terrain=[wall])
    inside = Bases(np.array([[11.0, 15.0]]), np.array([0.5]))
    left = Bases(np.array([[3.0, 15.0]]), np.array([0.5]))
    right = Bases(np.array([[25.0, 15.0]]), np.array([0.5]))
    cache = board.geometry().cache
    cache._data.clear()
    assert sight_matrix(board, inside, right).tolist() == [[True]]
    assert sight_matrix(board, left, inside).tolist() == [[True]]
    assert sight_matrix(board, left, right).tolist() == [[False]]
    assert cover_report(board, left, right).bonus == 1
    assert cover_report(board, inside, right).bonus == 0
    cache._data.clear()


@pytest.mark.parametrize("seed", range(4))
def test_lines_discs_are_the_segment_distances_float_for_float(seed: int) -> None:
    rng = np.random.default_rng(seed)
    q, k, b = 30, 25, 9
    scale = rng.uniform(0.01, 50, size=(q, k, 1))
    p0 = rng.uniform(0, 48, size=(q, k, 2))
    p1 = p0 + rng.normal(size=(q, k, 2)) * scale
    p1[0, 0] = p0[0, 0]  # a line of no length
    c = rng.uniform(0, 48, size=(b, 2))
    got = lines_discs(p0, p1, c)
    for j in range(b):
        want = _segment_distances(p0, p1, np.repeat(c[j : j + 1], q, axis=0))
        assert np.array_equal(got[:, :, j], want)


def test_segments_cross_is_any_of_each_edge() -> None:
    rng = np.random.default_rng(7)
    grid = rng.integers(0, 5, size=(4, 20, 8, 2)).astype(np.float64)
    p0, p1 = grid[0], grid[1]
    e0, e1 = grid[2, :, :5], grid[3, :, :5]
    each = segments_cross_each(p0, p1, e0, e1)
    assert each.shape == (20, 8, 5)
    assert each.any() and not each.all()
    assert (each.any(axis=2) == segments_cross(p0, p1, e0, e1)).all()


@pytest.mark.parametrize("seed", range(4))
def test_both_ends_across_are_the_two_across_calls_float_for_float(seed: int) -> None:
    rng = np.random.default_rng(40 + seed)
    a = rng.uniform(0, 48, size=(50, 2))
    b = rng.uniform(0, 48, size=(50, 2))
    b[:3] = a[:3]  # centres that meet take the fallback direction at both ends
    b[3, 0] = a[3, 0]  # and lines along an axis
    ra, rb = rng.uniform(0.5, 2, size=50), rng.uniform(0.5, 2, size=50)
    pa, pb = across_both(a, b, ra, rb, _LOS_ACROSS)
    assert np.array_equal(pa, _across(a, b, ra, _LOS_ACROSS))
    assert np.array_equal(pb, _across(b, a, rb, _LOS_ACROSS))


@pytest.mark.parametrize("seed", range(6))
def test_the_fields_kept_answers_are_the_modules_answers(seed: int) -> None:
    """``geom.Field`` keeps sight and cover answers by the very arrays asked (issue 10,
    session 31): asked again, they are the battlefield module's answers, and a matrix handed
    out is a copy (changing it changes no later answer)."""
    rng = random.Random(3300 + seed)
    board, attackers, targets, blockers = _crowded(rng)
    field = Field(board)
    axy, txy, bxy = attackers.xy, targets.xy, blockers.xy
    ar, tr, br = float(attackers.r[0]), float(targets.r[0]), blockers.r
    one_a, one_t = Bases(axy, np.full(len(axy), ar)), Bases(txy, np.full(len(txy), tr))
    want = (
        sight_matrix(board, one_a, one_t, blockers),
        visible_models(board, one_a, one_t, blockers),
        cover_report(board, one_a, one_t, blockers),
    )
    for _ in range(2):
        seen = field.sight(axy, ar, txy, tr, bxy, br)
        assert (seen == want[0]).all()
        seen[:] = ~seen  # a copy: the next answer is unchanged
        assert field.visible(axy, ar, txy, tr, bxy, br) == want[1]
        assert field.cover_report(axy, ar, txy, tr, bxy, br) == want[2]
        assert field.cover(axy, ar, txy, tr, bxy, br) == want[2].bonus
    # the bonus is its own question since session 39 (``sight.cover_bonus``: an Attack reads
    # the bonus alone, not the report's sources and words), kept as the others
    assert (field._asked.misses, field._asked.hits) == (4, 4)
    # other blockers are another question
    field.sight(
        axy, ar, txy, tr, np.vstack([bxy.reshape(-1, 2), [[15.0, 15.0]]]), np.append(br, 0.5)
    )
    assert field._asked.misses == 5


@pytest.mark.parametrize("seed", range(6))
def test_every_input_of_a_kept_answer_is_in_its_key(seed: int) -> None:
    """Each input of a sight or cover question changed alone (a radius, a blocker's place or
    radius, an attacker or target moved, another board) is answered as the battlefield module
    answers it afresh, never with the answer kept for the question before (issue 10)."""
    rng = random.Random(3400 + seed)
    board, attackers, targets, blockers = _crowded(rng)
    other, _, _, _ = _crowded(rng)
    axy, txy, bxy = attackers.xy, targets.xy, blockers.xy
    ar, tr, br = float(attackers.r[0]), float(targets.r[0]), blockers.r
    moved = txy.copy()
    moved[0] += 3.0
    shifted = bxy.reshape(-1, 2).copy()
    if len(shifted):
        shifted[0] = (axy[0] + txy[0]) / 2  # a blocker onto the first pair's line
    questions = [
        (axy, ar, txy, tr, bxy, br),
        (axy, ar * 2.0, txy, tr, bxy, br),
        (axy, ar, txy, tr + 1.0, bxy, br),
        (axy, ar, txy, tr, shifted, br),
        (axy, ar, txy, tr, bxy, br * 3.0),
        (axy, ar, moved, tr, bxy, br),
        (axy[::-1].copy(), ar, txy, tr, bxy, br),
    ]
    for brd in (board, other):
        field = Field(brd)
        for a, r1, t, r2, b, rb in questions:
            one_a, one_t = Bases(a, np.full(len(a), r1)), Bases(t, np.full(len(t), r2))
            fresh = Board.model_validate(brd.model_dump())  # its own geometry and cache
            blk = Bases(b, rb)
            assert (
                field.sight(a, r1, t, r2, b, rb) == sight_matrix(fresh, one_a, one_t, blk)
            ).all()
            assert field.visible(a, r1, t, r2, b, rb) == visible_models(fresh, one_a, one_t, blk)
            assert field.cover_report(a, r1, t, r2, b, rb) == cover_report(fresh, one_a, one_t, blk)


def test_a_kept_answer_is_never_given_for_arrays_of_another_dtype() -> None:
    """Two float32 attackers have the bytes of one float64 attacker: the key holds each
    array's dtype and shape, so the second question is not answered with the first's
    one-row matrix (issue 10)."""
    board = Board(
        width=30, height=30, terrain=[Terrain(name="W", rect=[14, 0, 16, 15], blocks_los=True)]
    )
    field = Field(board)
    a32 = np.array([[5.0, 10.0], [5.0, 25.0]], dtype=np.float32)
    a64 = a32.view(np.float64).reshape(1, 2)  # the same 16 bytes: one model far off the board
    txy, bxy, br = np.array([[25.0, 10.0]]), np.zeros((0, 2)), np.zeros(0)
    assert field.sight(a64, 0.5, txy, 0.5, bxy, br).shape == (1, 1)
    seen = field.sight(a32, 0.5, txy, 0.5, bxy, br)
    assert seen.shape == (2, 1)
    assert seen[:, 0].tolist() == [False, True]  # the wall hides the first, not the second


@pytest.mark.parametrize("seed", range(4))
def test_edges_shared_by_every_row_cross_as_the_same_edges_per_row(seed: int) -> None:
    """``segments_cross_each`` with ``(E, 2)`` edges (``lines_hit``'s) answers as with those
    edges repeated on every row, collinear and touching cases included (a coarse grid)."""
    rng = np.random.default_rng(60 + seed)
    grid = rng.integers(0, 5, size=(2, 30, 6, 2)).astype(np.float64)
    e = rng.integers(0, 5, size=(2, 7, 2)).astype(np.float64)
    shared = segments_cross_each(grid[0], grid[1], e[0], e[1])
    rows = segments_cross_each(
        grid[0], grid[1], np.repeat(e[0][None], 30, axis=0), np.repeat(e[1][None], 30, axis=0)
    )
    assert shared.any() and not shared.all()
    assert np.array_equal(shared, rows)


def test_a_finished_games_fields_are_not_kept_by_the_destroyed_terrain_cache() -> None:
    """The Field with a piece destroyed (§10.3, ``terrain_field``) is built once per game
    Field and kept only while that Field lives: each Field keeps up to 4096 answers, and a
    process playing game after game kept up to 256 finished games' pairs (session 31
    review). Fails if the cache holds the game's Field or its derived Field."""
    import gc
    import weakref

    from warbench.rulesets.warsurge.game.terrain_field import field_with_destroyed

    board = Board(
        width=30, height=30, terrain=[Terrain(name="W", rect=[14, 0, 16, 15], blocks_los=True)]
    )
    field = Field(board)
    gone = field_with_destroyed(field, frozenset({"W"}))
    assert gone is not field
    assert field_with_destroyed(field, frozenset({"W"})) is gone  # built once
    assert field_with_destroyed(Field(board), frozenset({"W"})) is not gone  # per Field
    alive = weakref.ref(field), weakref.ref(gone)
    del field, gone
    gc.collect()
    assert alive[0]() is None and alive[1]() is None
