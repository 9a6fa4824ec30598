"""The Move's route round as compiled loops (issue 10, session 38, s38-speedr; docs/game.md
"A twentieth pass: the Move's routes"): ``move_prefilter.clearly_blocked_headings`` (a route's
rigid ends certainly refused, Core Rules 001_d3f5e425c5e1196d.txt §2.1, §4.7) and
``route_formation._place`` (the models placed one by one, §4.1 L1833-1855, §4.2) ask numba
kernels (``game/route_jit.py``) what they asked of NumPy. Every answer stays the same: each
kernel is held here to the NumPy form it replaced (``route_oracles.py``), bit for bit, on
random and integer-grid cases (bases on a path's line, paths of no length, ties between spots'
values), and the games that route are played with both and compared.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.warsurge.game import route_oracles
from warbench.rulesets.warsurge.battlefield.measure import COHERENCY
from warbench.rulesets.warsurge.game import engine, route_formation, route_jit, route_move
from warbench.rulesets.warsurge.game.players import ScriptedPlayer, play
from warbench.rulesets.warsurge.game.route import INF
from warbench.rulesets.warsurge.game.route_formation import BASE_GAP, SLACK

# ----------------------------------------------------------------- the prefilter's headings


def _heading_case(seed: int) -> tuple[object, ...]:
    """Starts, headings, lengths and a table: random, or on a small integer grid (bases on a
    path's line, touching discs, lengths of 0, a reach of 0 or less)."""
    rng = np.random.default_rng(3800 + seed)
    m = int(rng.integers(0, 7))
    n_b = int(rng.integers(0, 40))
    if seed % 3 == 1:  # integer grid
        pts = rng.integers(0, 12, size=(m, 2)).astype(np.float64)
        txy = rng.integers(0, 12, size=(n_b, 2)).astype(np.float64)
        tr = rng.integers(0, 3, size=n_b).astype(np.float64) * 0.5
        ux = np.asarray([1.0, 0.0, -1.0, 0.0, math.sqrt(0.5)])
        uy = np.asarray([0.0, 1.0, 0.0, -1.0, math.sqrt(0.5)])
        lengths = np.asarray([0.0, 1.0, 2.0, 4.0, 8.0])
        r = float(rng.integers(0, 3)) * 0.5
    else:
        pts = rng.uniform(0.0, 48.0, size=(m, 2))
        txy = rng.uniform(0.0, 48.0, size=(n_b, 2))
        tr = rng.uniform(0.2, 2.5, size=n_b)
        ux, uy = route_move._COS.copy(), route_move._SIN.copy()
        lengths = float(rng.uniform(0.5, 14.0)) * route_move._SHARES
        r = float(rng.uniform(0.3, 2.0))
    if m and n_b and seed % 4 == 0:  # a base exactly on the first heading's line
        txy[0] = pts[0] + np.asarray([ux[0], uy[0]]) * lengths[-1]
    tuid = rng.integers(0, 4, size=n_b).astype(np.int64)
    slack = r - 1e-3 - 1e-9 if seed % 5 else -3.0  # (a reach of 0 or less: no cut)
    lo = r - 1e-6 - 1e-9
    hx, hy = 48.0 - r + 1e-6 + 1e-9, 40.0 - r + 1e-6 + 1e-9
    return pts, ux, uy, lengths, r, lo, hx, hy, txy, tr, tuid, 1, slack


@pytest.mark.parametrize("seed", range(120))
def test_headings_blocked_is_the_numpy_form(seed: int) -> None:
    case = _heading_case(seed)
    got = route_jit.headings_blocked(*case)  # type: ignore[arg-type]
    want = route_oracles.headings_blocked(*case)  # type: ignore[arg-type]
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tolist() == want.tolist()


def test_headings_blocked_can_refuse_and_pass() -> None:
    """The cases above refuse some ends and pass others (the comparison is not of two
    all-False or all-True answers), and a base one float nearer changes an answer."""
    answers = [route_jit.headings_blocked(*_heading_case(s)) for s in range(120)]  # type: ignore[arg-type]
    assert sum(int(a.sum()) for a in answers) > 200
    assert sum(int((~a).sum()) for a in answers) > 200
    # a model at the origin moving +x 4": a base of radius 1 centred at x = 5 + reach ...
    pts = np.zeros((1, 2)) + 10.0
    one = np.ones(1)
    args = (pts, one, np.zeros(1), np.asarray([4.0]), 1.0, 0.0, 48.0, 48.0)
    edge = 10.0 + 4.0 + 1.0  # the disc of radius 1 (slack 0) starts at exactly 4"
    at = route_jit.headings_blocked(
        *args, np.asarray([[edge, 10.0]]), one, np.zeros(1, np.int64), 1, 0.0
    )
    nearer = np.nextafter(edge, 0.0)
    ahead = route_jit.headings_blocked(
        *args, np.asarray([[nearer, 10.0]]), one, np.zeros(1, np.int64), 1, 0.0
    )
    assert not at[0, 0] and ahead[0, 0]


# ----------------------------------------------------------------- the placement's greedy loop


def _place_case(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, float, float]:
    rng = np.random.default_rng(3900 + seed)
    n = int(rng.integers(1, 9))
    r = float(rng.choice([0.5, 0.625, 1.0, 1.25]))
    step = 2 * r + BASE_GAP
    starts = rng.uniform(10.0, 14.0, size=(n, 2))
    if seed % 4 == 0:  # the bases in a row, touching: a fixed model may be unlinked
        starts = np.stack([10.0 + np.arange(n) * 2 * r, np.full(n, 10.0)], axis=1)
    k = int(rng.integers(0, 12))
    gx, gy = np.meshgrid(np.arange(k) * step + 8.0, np.arange(k) * step * math.sqrt(3) / 2 + 8.0)
    spots = np.stack([gx.ravel(), gy.ravel()], axis=1)
    if seed % 3 == 0:  # integer values: ties between spots (the first one wins)
        vals = rng.integers(0, 6, size=len(spots)).astype(np.float64)
    else:
        vals = rng.uniform(0.0, 20.0, size=len(spots))
    reach = rng.uniform(size=(n, len(spots))) < float(rng.choice([0.0, 0.2, 0.7, 1.0]))
    if seed % 5 == 0 and n > 1:
        reach[0] = False  # a model that reaches no spot stays where it stands
    cap = float(vals.min()) + float(rng.integers(0, 3)) if len(vals) else INF
    return starts, spots, vals, reach, r, cap


@pytest.mark.parametrize("seed", range(160))
def test_place_is_the_numpy_form(seed: int) -> None:
    starts, spots, vals, reach, r, cap = _place_case(seed)
    want = route_oracles.place(starts, spots, vals, reach, r, cap)
    ok, out = route_jit.place(
        starts, spots, vals, reach, r, cap, INF, BASE_GAP / 2, COHERENCY - SLACK
    )
    assert ok == (want is not None)
    if want is not None:
        assert tuple((x, y) for x, y in out.tolist()) == want
    # and through the engine's own function
    assert route_formation._place(starts, spots, vals, reach, r, cap) == want


def test_place_cases_place_and_refuse() -> None:
    """The random cases place some units and refuse others (both branches compared)."""
    got = [route_oracles.place(*_place_case(s)) for s in range(160)]
    assert sum(g is None for g in got) >= 10
    assert sum(g is not None and len(g) >= 3 for g in got) >= 20


# ----------------------------------------------------------------- games: the very same moves


@pytest.mark.parametrize("seed", [0, 1])
def test_routed_games_with_the_numpy_forms(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A scripted game on the city board (routes round buildings, units placed one by one)
    played with the kernels and with the NumPy forms: the same actions and digest, and both
    kernels were asked."""
    from tests.warsurge.game.test_speed_moves import _sample

    def game() -> tuple[list[object], str]:
        state, events = engine.new_game(_sample("city_72x48"), seed)
        run = play(state, [ScriptedPlayer(), ScriptedPlayer()], events=events, max_actions=160)
        return list(run.actions), run.state.digest()

    asked = {"headings": 0, "place": 0, "reach": 0}
    fast_h, fast_p, fast_r = route_jit.headings_blocked, route_jit.place, route_jit.reach

    def h(*a: object) -> object:
        asked["headings"] += 1
        return fast_h(*a)  # type: ignore[arg-type]

    def p(*a: object) -> object:
        asked["place"] += 1
        return fast_p(*a)  # type: ignore[arg-type]

    def rr(*a: object) -> object:
        asked["reach"] += 1
        return fast_r(*a)  # type: ignore[arg-type]

    monkeypatch.setattr(route_jit, "headings_blocked", h)
    monkeypatch.setattr(route_jit, "place", p)
    monkeypatch.setattr(route_jit, "reach", rr)  # session 39
    compiled = game()
    assert asked["headings"] >= 3 and asked["place"] >= 1 and asked["reach"] >= 1

    def slow_p(starts, spots, vals, reach, r, cap, *_rest):  # type: ignore[no-untyped-def]
        got = route_oracles.place(starts, spots, vals, reach, r, cap)
        if got is None:
            return False, np.full((len(starts), 2), np.nan)
        return True, np.asarray(got, dtype=np.float64)

    monkeypatch.setattr(route_jit, "headings_blocked", route_oracles.headings_blocked)
    monkeypatch.setattr(route_jit, "place", slow_p)

    def slow_r(a, b, lim, oxy, ore, _slack):  # type: ignore[no-untyped-def]
        return route_oracles.reach(a, b, lim, oxy, ore)

    monkeypatch.setattr(route_jit, "reach", slow_r)
    assert game() == compiled
