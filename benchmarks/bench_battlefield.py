"""WARSURGE battlefield speed: the hot paths of a game (Core Rules 001_d3f5e425c5e1196d.txt §4,
§5.4-5.6).

Run with ``make bench``. The game engine's target is 10 complete games per second per core, so
one line-of-sight question between two 10-model units should cost well under a millisecond.
Positions are on the ruins sample board (``data/boards/ruins_48x48.yaml``), across Ruin A and
Ruin B, with a third unit in between as blockers. Line-of-sight and cover answers are memoised
per board; the ``cold`` benchmarks empty that cache before every call.
"""

from __future__ import annotations

from typing import Any

from warbench.rulesets.warsurge.battlefield import (
    Blocker,
    check_move,
    cover_report,
    distance_matrix,
    edge_distance,
    line_of_sight,
    move_towards,
    place_near,
    restore_coherency,
    sample_board,
    sight_matrix,
    visible_models,
)

R = 25 / 25.4 / 2
BOARD = sample_board("ruins_48x48")
BOARD.geometry()  # compiled once per board, as in a game
ATTACKERS = [((6 + 1.2 * i, 10 + (i % 2) * 1.1), R) for i in range(10)]
TARGETS = [((8 + 1.2 * i, 36 + (i % 2) * 1.1), R) for i in range(10)]
BLOCKERS = [Blocker((14 + 1.2 * i, 18), R, "screen") for i in range(5)]
OPEN_A = [((30 + 1.2 * i, 5), R) for i in range(10)]
OPEN_T = [((30 + 1.2 * i, 44), R) for i in range(10)]
CACHE = BOARD.geometry().cache


def cold(fn: Any) -> Any:
    """``fn`` with the board's result cache emptied before every call (a new question)."""

    def run(*args: Any, **kw: Any) -> Any:
        CACHE.clear()
        return fn(*args, **kw)

    return run


def test_bench_s5_5_visible_models_10_vs_10_through_ruins(benchmark: Any) -> None:
    seen = benchmark(cold(visible_models), BOARD, ATTACKERS, TARGETS, BLOCKERS)
    assert any(seen) and not all(seen)


def test_bench_s5_5_visible_models_10_vs_10_open_ground(benchmark: Any) -> None:
    assert all(benchmark(cold(visible_models), BOARD, OPEN_A, OPEN_T, BLOCKERS))


def test_bench_s5_5_visible_models_10_vs_10_cached(benchmark: Any) -> None:
    visible_models(BOARD, ATTACKERS, TARGETS, BLOCKERS)  # the same question asked again
    assert any(benchmark(visible_models, BOARD, ATTACKERS, TARGETS, BLOCKERS))


def test_bench_s5_4_sight_matrix_10_vs_10_through_ruins(benchmark: Any) -> None:
    assert benchmark(cold(sight_matrix), BOARD, ATTACKERS, TARGETS, BLOCKERS).shape == (10, 10)


def test_bench_s5_4_line_of_sight_one_pair_blocked(benchmark: Any) -> None:
    assert not benchmark(cold(line_of_sight), BOARD, ATTACKERS[3], TARGETS[2], BLOCKERS)


def test_bench_s5_6_cover_report_10_vs_10(benchmark: Any) -> None:
    assert benchmark(cold(cover_report), BOARD, ATTACKERS, TARGETS, BLOCKERS).models == 10


def test_bench_s4_check_move_through_difficult(benchmark: Any) -> None:
    res = benchmark(check_move, BOARD, (11, 17.5), (11, 20.5), R, 6, BLOCKERS)
    assert res.ok and res.difficult_crossed == ["Ruin A"]


def test_bench_s4_check_move_open_ground(benchmark: Any) -> None:
    assert benchmark(check_move, BOARD, (30, 5), (30, 11), R, 6, BLOCKERS).ok


def test_bench_s4_move_towards(benchmark: Any) -> None:
    benchmark(move_towards, BOARD, (11, 10), (11, 30), R, 12, BLOCKERS)


def test_bench_s1_3_edge_distance(benchmark: Any) -> None:
    benchmark(edge_distance, (0.0, 0.0), R, (10.0, 3.0), R)


def test_bench_s5_3_distance_matrix_10_vs_10(benchmark: Any) -> None:
    assert benchmark(distance_matrix, ATTACKERS, TARGETS).shape == (10, 10)


def test_bench_s6_6_place_near_ten_models(benchmark: Any) -> None:
    assert len(benchmark(place_near, BOARD, (30, 10), R, 10, BLOCKERS, 6.0)) == 10


def test_bench_s4_2_restore_coherency(benchmark: Any) -> None:
    pos = [(10 + 1.2 * i, 4) for i in range(8)] + [(24, 4), (25.2, 4)]
    benchmark(restore_coherency, BOARD, pos, [R] * 10, [])
