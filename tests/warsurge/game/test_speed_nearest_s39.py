"""The nearest enemies in one compiled loop (issue 10, session 39, s39-speedg; docs/game.md
"A twenty-first pass: the game beyond the Move").

``engine.nearest_enemies`` (the scripted player's first question of every unit: whom to shoot,
whom to move toward; the distances are §2.1's edge to edge) measured each enemy base's least
gap to the unit's bases with NumPy (``_closest_gaps``: outer differences, squares, the
least square, its root less both radii) and then each enemy unit's least
(``np.minimum.reduceat``). ``sight_jit.closest_gaps`` does both in one loop; the NumPy form
is the oracle here, bit for bit (``sight_oracles.closest_gaps``).
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.warsurge.game.sight_oracles import closest_gaps
from warbench.rulesets.warsurge.battlefield import sight_jit
from warbench.rulesets.warsurge.game import engine


def _oracle(a: np.ndarray, ra: float, b: np.ndarray, rb: np.ndarray, starts: np.ndarray):  # type: ignore[no-untyped-def]
    return np.minimum.reduceat(closest_gaps(a, ra, b, rb), starts)


def _case(seed: int) -> tuple[np.ndarray, float, np.ndarray, np.ndarray, np.ndarray]:
    """A unit's bases against the enemy's, in groups of 1 to 6 rows: random, or on a grid
    (equal distances, bases that meet, one model)."""
    rng = np.random.default_rng(3990 + seed)
    na, nb = int(rng.integers(1, 9)), int(rng.integers(1, 60))
    if seed % 2:
        a = rng.integers(0, 6, size=(na, 2)) * 1.0
        b = rng.integers(0, 6, size=(nb, 2)) * 1.0
        rb = rng.integers(1, 4, size=nb) * 0.5
        ra = 0.5
    else:
        a = rng.uniform(0, 48, size=(na, 2))
        b = rng.uniform(0, 48, size=(nb, 2))
        rb = rng.uniform(0.4, 2.5, size=nb)
        ra = float(rng.uniform(0.4, 2.5))
    cuts = np.sort(rng.choice(np.arange(1, nb), size=min(nb - 1, nb // 3), replace=False))
    starts = np.concatenate([[0], cuts]).astype(np.intp)
    return a, ra, b, rb, starts


@pytest.mark.parametrize("seed", range(24))
def test_closest_gaps_are_the_numpy_forms(seed: int) -> None:
    args = _case(seed)
    got, want = sight_jit.closest_gaps(*args), _oracle(*args)
    assert got.dtype == want.dtype and np.array_equal(got.view(np.int64), want.view(np.int64))


def test_a_nan_wins_as_in_numpy() -> None:
    """np.minimum's NaN: a base without a position makes its group's gap NaN, wherever it
    stands in the group or among the unit's bases."""
    a = np.array([[0.0, 0.0], [np.nan, 1.0], [5.0, 5.0]])
    b = np.array([[3.0, 0.0], [np.nan, 0.0], [9.0, 9.0], [1.0, 1.0]])
    rb = np.array([0.5, 0.5, 0.5, 0.5])
    for starts in ([0], [0, 1], [0, 2], [0, 1, 2, 3]):
        s = np.array(starts, dtype=np.intp)
        for aa in (a, a[[0, 2]]):
            got, want = sight_jit.closest_gaps(aa, 0.5, b, rb, s), _oracle(aa, 0.5, b, rb, s)
            assert np.array_equal(np.isnan(got), np.isnan(want))
            assert np.array_equal(got[~np.isnan(got)], want[~np.isnan(want)])
    assert np.isnan(sight_jit.closest_gaps(a, 0.5, b, rb, np.array([0], np.intp))).all()


def test_the_nearest_enemies_of_a_game_are_the_numpy_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every unit's nearest enemies on the states of a seeded scripted game (the benchmark's
    1000-point set-up): the same distances, bit for bit, and the same order."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))
    from bench_game_scale import scaled_setup

    from warbench.rulesets.warsurge.game.players import ScriptedPlayer
    from warbench.rulesets.warsurge.game.work import Work

    state, _ = engine.new_game(scaled_setup(1000), 5)
    players = [ScriptedPlayer(), ScriptedPlayer()]
    asked = 0
    for _ in range(70):
        if state.over:
            break
        w = Work(state, None, engine.DEFAULT_HOOKS)
        t = w.table()
        for uid in range(len(state.units)):
            got = engine._nearest_enemies(w, uid, t)
            with monkeypatch.context() as mp:
                mp.setattr(sight_jit, "closest_gaps", _oracle)
                want = engine._nearest_enemies(w, uid, t)
            assert [(np.float64(d).view(np.int64), f) for d, f in got] == [
                (np.float64(d).view(np.int64), f) for d, f in want
            ]
            asked += bool(got)
        state, _ = engine.apply(state, players[engine.acting_side(state) or 0].choose(state))
    assert asked > 100
