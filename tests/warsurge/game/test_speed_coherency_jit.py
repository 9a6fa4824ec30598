"""The candidate tests of ``coherency`` compiled (issue 10, session 38, s38-speedc; docs/game.md
"A twentieth pass: the candidate tests compiled"): a placement's and a Move's candidates are
refused when a model ends on another unit's base or passes through it (001_d3f5e425c5e1196d.txt
§1.3 "no model overlaps another", §4.7: other units are Impassable Ground), asked of many
candidates at once by numba kernels (``game/coherency_jit.py``) instead of NumPy's calls on
small arrays. Every answer stays the same: each kernel is held here to the NumPy form it
replaced (``coherency_oracles.py``) bit for bit, on random cases, on an integer grid (ties in
x, touching bases, models that stay put, paths of no length) and one float either side of the
overlap tolerance; and on the candidates of mid-game states of the benchmark's game through
``coherency``'s own functions. The compiled code has no fused multiply-add (which would round
once where NumPy rounds twice).
"""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.warsurge.game import coherency_oracles as oracle
from warbench.rulesets.warsurge.battlefield import sight_jit
from warbench.rulesets.warsurge.game import coherency, coherency_jit, geom, place_memo
from warbench.rulesets.warsurge.game.geom import OVERLAP_TOL
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.state import Location
from warbench.rulesets.warsurge.game.work import Work

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))

TOL = OVERLAP_TOL + oracle.MARGIN


def _table(rng: np.random.Generator, grid: bool) -> tuple[Any, Any, Any]:
    """Bases: centres, radii and units (random, or on a small integer grid: ties in x)."""
    n = int(rng.integers(0, 40))
    if grid:
        xy = rng.integers(0, 8, size=(n, 2)).astype(np.float64)
        r = rng.choice([0.5, 1.0, 1.5], size=n)
    else:
        xy = rng.uniform(0, 24, size=(n, 2))
        r = rng.choice([0.5, 0.63, 1.0, 1.26, 2.5], size=n) * rng.choice([1.0, 0.97], size=n)
    uid = rng.integers(0, 6, size=n).astype(np.int64)
    return xy, r, uid


def _candidates(
    rng: np.random.Generator, grid: bool, txy: Any, trad: Any, r: float
) -> tuple[Any, Any]:
    """``(C, m, 2)`` candidates and ``(m, 2)`` starts: formations shifted about the table,
    some models put one float either side of the overlap tolerance with a base."""
    c, m = int(rng.integers(0, 30)), int(rng.integers(1, 8))
    if grid:
        starts = rng.integers(0, 8, size=(m, 2)).astype(np.float64)
        new = starts[None] + rng.integers(-2, 3, size=(c, 1, 2))
        new = new + rng.integers(-1, 2, size=(c, m, 2)) * (rng.random((c, m, 1)) < 0.2)
    else:
        starts = rng.uniform(0, 24, size=(m, 2))
        new = starts[None] + rng.uniform(-6, 6, size=(c, 1, 2))
        new = new + rng.normal(0, 0.3, size=(c, m, 2)) * (rng.random((c, m, 1)) < 0.3)
    new = np.where(rng.random((c, m, 1)) < 0.2, starts[None], new)  # models that stay put
    if len(txy) and c:
        for _ in range(int(rng.integers(0, 6))):  # a model at the tolerance's edge of a base
            ci, k, b = int(rng.integers(c)), int(rng.integers(m)), int(rng.integers(len(txy)))
            x = txy[b, 0] + ((trad[b] + r) - TOL)
            for _ in range(int(rng.integers(-2, 3)) % 5):
                x = np.nextafter(x, np.inf if rng.random() < 0.5 else -np.inf)
            new[ci, k] = (x, txy[b, 1])
    return np.ascontiguousarray(new, dtype=np.float64), starts


@pytest.mark.parametrize("seed", range(40))
def test_candidate_overlaps_is_the_numpy_form(seed: int) -> None:
    """``candidate_overlaps``: the moving models overlapping another unit's base by more than
    the tolerance, and the witness base of each, as ``_clearly_illegal`` and ``_overlapping``
    measured them, for placements and Moves."""
    rng = np.random.default_rng(3800 + seed)
    grid = seed % 2 == 1
    met = 0
    for _ in range(12):
        txy, trad, tuid = _table(rng, grid)
        r = float(rng.choice([0.5, 0.63, 1.0]))
        new, starts = _candidates(rng, grid, txy, trad, r)
        off = rng.random(len(new)) < 0.15
        uid = int(rng.integers(0, 6))
        for s in (None, starts):
            bad, which = coherency_jit.candidate_overlaps(new, off, s, r, txy, trad, tuid, uid, TOL)
            want_bad, want_wit, _ = oracle.candidate_overlaps(new, off, s, r, txy, trad, tuid, uid)
            assert bad.tolist() == want_bad.tolist()
            assert which.tolist() == want_wit.tolist()
            met += int(bad.sum())
    assert met > 10  # overlaps were found (and so compared)


@pytest.mark.parametrize("seed", range(30))
def test_gaps_are_the_numpy_gaps(seed: int) -> None:
    """``gaps``: each model's smallest gap along its path and at its end, float for float
    (``geom.centre_distances`` and ``geom.segments_distances`` less the radii, their minimum)."""
    rng = np.random.default_rng(3830 + seed)
    grid = seed % 2 == 1
    for _ in range(12):
        txy, trad, _ = _table(rng, grid)
        r = float(rng.choice([0.5, 0.63, 1.0]))
        new, starts = _candidates(rng, grid, txy, trad, r)
        if not len(new):
            continue
        ends = new[0]
        if seed % 5 == 0 and len(txy):  # a NaN among the terms: the minimum is NaN
            txy = txy.copy()
            txy[0] = (np.nan, txy[0, 1])
        for s in (None, starts):
            got = coherency_jit.gaps(ends, s, r, txy, trad)
            want = oracle.gaps(ends, s, r, txy, trad)
            assert repr(got) == repr(want)


@pytest.mark.parametrize("seed", range(30))
def test_first_entry_is_the_numpy_form(seed: int) -> None:
    """``first_entry``: where the first moving model's path along a heading enters a base,
    float for float (the along-track distance less the half chord, NumPy's minimum)."""
    rng = np.random.default_rng(3860 + seed)
    grid = seed % 2 == 1
    for _ in range(12):
        txy, trad, tuid = _table(rng, grid)
        r = float(rng.choice([0.5, 0.63, 1.0]))
        _, starts = _candidates(rng, grid, txy, trad, r)
        a = rng.uniform(0, 2 * math.pi) if not grid else rng.integers(0, 8) * math.pi / 4
        way = (math.cos(a), math.sin(a))
        centre = (float(rng.uniform(0, 24)), float(rng.uniform(0, 24)))
        half = (float(rng.uniform(0, 14)), float(rng.uniform(0, 14)))
        uid = int(rng.integers(0, 6))
        inner = r - OVERLAP_TOL - oracle.MARGIN
        got = coherency_jit.first_entry(starts, txy, trad, tuid, uid, centre, half, way, inner)
        want = oracle.first_entry(starts, txy, trad, tuid, uid, centre, half, way, r)
        assert repr(got) == repr(want)


@pytest.mark.parametrize("seed", range(20))
def test_place_memo_witnesses_are_the_numpy_forms(seed: int) -> None:
    """``remember`` writes the witnesses as the NumPy form wrote them, and ``still_refused``
    finds a witness standing exactly where the NumPy form found one: tables where some bases
    moved by one float, changed radius, or left (their identities gone or reused)."""
    rng = np.random.default_rng(3890 + seed)
    found = 0
    for _ in range(10):
        n, c, m = int(rng.integers(0, 30)), int(rng.integers(1, 25)), int(rng.integers(1, 7))
        uid, model = rng.integers(0, 8, size=n), rng.integers(0, 12, size=n)
        ident = np.unique(uid * place_memo._MODELS + model)[: n or None]
        n = len(ident)
        xy, r = rng.uniform(0, 24, size=(n, 2)), rng.choice([0.5, 1.0], size=n)
        who = np.full((c, m), -1, dtype=np.int64)
        where = np.zeros((c, m, 3))
        want_who, want_where = who.copy(), where.copy()
        rows = np.flatnonzero(rng.random(c) < 0.7)
        base = np.where(
            rng.random((len(rows), m)) < 0.3, rng.integers(0, max(n, 1), (len(rows), m)), -1
        )
        if not n:
            base[:] = -1
        coherency_jit.remember(who, where, rows, base, ident, xy, r)
        oracle.remember(want_who, want_where, rows, base, ident, xy, r)
        assert who.tolist() == want_who.tolist() and where.tolist() == want_where.tolist()
        # the next table: some bases moved by a float, grown, gone, or another model
        keep = rng.random(n) < 0.8
        xy2, r2 = xy.copy(), r.copy()
        nudge = rng.random(n) < 0.2
        xy2[nudge, 0] = np.nextafter(xy2[nudge, 0], np.inf)
        r2[rng.random(n) < 0.1] = 0.75
        ident2 = np.where(rng.random(n) < 0.1, ident + 1, ident)[keep]
        xy2, r2 = xy2[keep], r2[keep]
        order = np.argsort(ident2, kind="stable")
        keys = ident2[order]
        ask = np.arange(c, dtype=np.intp)[rng.random(c) < 0.8]
        got = coherency_jit.still_refused(who, where, ask, keys, order, xy2, r2)
        assert got.tolist() == oracle.still_refused(who, where, ask, keys, order, xy2, r2).tolist()
        found += int(got.sum())
    assert found > 3  # witnesses were found standing (and so compared)


def test_no_fused_multiply_add_in_the_compiled_code() -> None:
    """The kernels, compiled with the options of ``sight_jit.compiler`` (here without the disk
    cache, whose code numba does not show), multiply and take square roots unfused."""
    numba = pytest.importorskip("numba")
    options = {**sight_jit.JIT_OPTIONS, "cache": False}
    one, box = np.ones((3, 2)), np.ones((2, 3, 2))
    radii, uids = np.ones(3), np.zeros(3, dtype=np.int64)
    kernels = [
        (
            coherency_jit._candidate_overlaps,
            (box, np.zeros(2, bool), one, 1.0, one, radii, uids, 1, 0.1),
        ),
        (coherency_jit._gaps, (one, one, 1.0, one, radii)),
        (coherency_jit._first_entry, (one, one, radii, uids, 1, 0.0, 0.0, 1.0, 1.0, 1.0, 0.0, 0.9)),
    ]
    for py, args in kernels:
        kernel = numba.njit(**options)(py)
        kernel(*args)
        asm = "\n".join(kernel.inspect_asm().values()).lower()
        assert "mulsd" in asm or "mulpd" in asm  # the products are there, unfused
        assert "sqrtsd" in asm or "sqrtpd" in asm
        assert not any(op in asm for op in ("vfmadd", "vfmsub", "vfnmadd", "vfnmsub"))


# ----------------------------------------------------------------- through coherency, in games


def _numpy_clearly_illegal(
    w: Work, uid: int, starts: Any, new: Any
) -> tuple[list[bool], list[list[int]]]:
    """``coherency._clearly_illegal`` as it was (main ``c40096b``): the board, the overlaps
    and the paths through other bases, with its NumPy forms."""
    r = w.info(uid).radius
    out = coherency._off_table(w, uid, new)
    t = w.table()
    bad, wit, paths = oracle.candidate_overlaps(new, out, starts, r, t.xy, t.r, t.uid, uid)
    if paths is not None:
        cand, k = np.nonzero(paths)
        other = w.others_mask([uid])
        flat = np.vstack([new.reshape(-1, 2), starts])
        lo_xy = flat.min(axis=0) - r - 1.0
        hi_xy = flat.max(axis=0) + r + 1.0
        other &= (
            (t.xy[:, 0] > lo_xy[0] - t.r)
            & (t.xy[:, 0] < hi_xy[0] + t.r)
            & (t.xy[:, 1] > lo_xy[1] - t.r)
            & (t.xy[:, 1] < hi_xy[1] + t.r)
        )
        oxy, orad = t.xy[other], t.r[other]
        if len(cand) and len(oxy):
            dd = geom.segments_distances(starts[k], new[cand, k], oxy) - orad - r
            through = (dd < -OVERLAP_TOL - oracle.MARGIN).any(axis=1)
            bad[cand[through], k[through]] = True
    if starts is not None:
        wit[:] = -1  # a witness is kept for placements only
    return (out | bad.any(axis=1)).tolist(), wit.tolist()


def test_clearly_illegal_gaps_and_translations_in_mid_game_states() -> None:
    """``coherency``'s prefilters on the units of mid-game states of the benchmark's scripted
    game (candidates along a heading, some shifted, as Moves and as placements): the same
    refusals, witnesses, gaps and refused translations as their NumPy forms."""
    from bench_game_scale import _mid_game, scaled_setup

    setup = scaled_setup(1000)
    states = [s for s, _ in _mid_game(setup, 1)][::4]
    rng = random.Random(38)
    refused = moved = cases = 0
    while cases < 400:
        state = rng.choice(states)
        uid = rng.randrange(len(state.units))
        u = state.units[uid]
        if u.location is not Location.TABLE or not u.present():
            continue
        cases += 1
        w = Work(state, None, DEFAULT_HOOKS)
        models = u.present()
        r = w.info(uid).radius
        starts = np.array([u.pos[i] for i in models], dtype=np.float64)
        heading = rng.uniform(0, 2 * math.pi)
        way = (math.cos(heading), math.sin(heading))
        lengths = [rng.uniform(0, 14) for _ in range(6)] + [0.0]
        cands = np.array([starts + np.array(way) * length for length in lengths])
        if rng.random() < 0.5:
            cands[:, ::2] += np.array([rng.uniform(-1, 1), rng.uniform(-1, 1)])
        for s in (starts, None):
            got, wit = coherency._clearly_illegal(w, uid, s, cands, witness=True)
            assert wit is not None
            want = _numpy_clearly_illegal(w, uid, s, cands)
            assert (got.tolist(), wit.tolist()) == want
            refused += sum(want[0])
        moving = [k for k in range(len(models)) if rng.random() < 0.8] or [0]
        got_t = coherency.clearly_blocked_translations(w, uid, starts, moving, way, lengths)
        assert got_t == oracle.clearly_blocked_translations(w, uid, starts, moving, way, lengths)
        moved += sum(got_t)
        t = w.table()
        other = w.others_mask([uid])
        for s in (starts, None):
            got_gaps = coherency._gaps(cands[1], s, r, t.xy[other], t.r[other])
            assert repr(got_gaps) == repr(oracle.gaps(cands[1], s, r, t.xy[other], t.r[other]))
    assert refused > 50 and moved > 20


_PROBE = """
import sys
import numpy as np
from warbench.rulesets.warsurge.game import coherency, engine
before = "numba" in sys.modules
xy = np.array([[0.0, 0.0], [3.0, 0.0]])
seg, end = coherency._gaps(xy, xy + 1.0, 1.0, np.array([[1.5, 0.5]]), np.array([0.5]))
print(before, "numba" in sys.modules, seg, end)
"""


def _probe(**env: str) -> str:
    import os
    import subprocess

    out = subprocess.run(
        [sys.executable, "-c", _PROBE],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **env},
    )
    return out.stdout.strip()


def test_numba_is_imported_by_the_first_candidate_test_only() -> None:
    """Importing the rules does not import numba; the first candidate test does, and gives
    the NumPy form's gaps, with numba's disk cache and where no cache directory is found (only
    IPython's locator, outside IPython: the kernels compiled in the process)."""
    xy = np.array([[0.0, 0.0], [3.0, 0.0]])
    seg, end = oracle.gaps(xy, xy + 1.0, 1.0, np.array([[1.5, 0.5]]), np.array([0.5]))
    want = f"False True {seg} {end}"
    assert _probe() == want
    assert _probe(NUMBA_CACHE_LOCATOR_CLASSES="IPythonCacheLocator") == want
