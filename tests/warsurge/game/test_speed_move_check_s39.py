"""A Move's check, what was left after the kernels (issue 10, session 39, s39-speedm;
docs/game.md "A twenty-first pass: the Move's check"): the formation's own tests of
``coherency.problem_positions`` (no two of the unit's bases overlap, 001_d3f5e425c5e1196d.txt
§1.3; every model within 2" of another, in one group, §4.2 I) and ``Work.contacts``' Base
Contact (§2.1) are compiled loops (``coherency_jit.formation``, ``coherency_jit.contacts``).
Each is held here to the NumPy form it replaced (``geom.edge_distances``, ``geom.coherent``)
bit for bit: random formations, an integer grid (touching bases, ties), bases one float either
side of the overlap tolerance, of Coherency's 2" and of Base Contact's distance, and NaN
centres; and through ``problem_positions`` and ``contacts`` on the states of the benchmark's
game. The compiled code has no fused multiply-add.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.warsurge.game import route_oracles
from warbench.rulesets.warsurge.battlefield import sight_jit
from warbench.rulesets.warsurge.game import coherency_jit, geom, route_jit
from warbench.rulesets.warsurge.game.geom import CONTACT, LINKED, OVERLAP_TOL
from warbench.rulesets.warsurge.game.route_formation import SLACK

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))


def _numpy_formation(xy: Any, r: float, linked: bool) -> int:
    """``problem_positions``' formation tests as they were (main ``8d524eb``)."""
    d = geom.edge_distances(xy, r, xy, r)
    np.fill_diagonal(d, np.inf)
    if (d < -OVERLAP_TOL).any():
        return 1
    if linked and not geom.coherent(xy, r):
        return 2
    return 0


def _numpy_contacts(
    pts: Any, r: float, txy: Any, tr: Any, tuid: Any, tside: Any, uid: int, side: int
) -> set[int]:
    """``Work.contacts``' round-base test as it was (main ``8d524eb``)."""
    mask = (tuid != uid) & (tside != side)
    if not mask.any():
        return set()
    d = geom.edge_distances(pts, r, txy[mask], tr[mask])
    hit = (d <= CONTACT).any(axis=0)
    return {int(x) for x in tuid[mask][hit]}


def _nudge(rng: np.random.Generator, x: float) -> float:
    """``x`` moved zero to two floats up or down."""
    for _ in range(int(rng.integers(0, 3))):
        x = float(np.nextafter(x, np.inf if rng.random() < 0.5 else -np.inf))
    return x


def _formation(rng: np.random.Generator, kind: int) -> tuple[Any, float]:
    """A unit's bases: random, on an integer grid, or a chain whose links are one float
    either side of an overlap or of Coherency's reach."""
    n = int(rng.integers(2, 12))
    r = float(rng.choice([0.5, 0.63, 1.0, 1.26, 2.5]))
    if kind == 0:
        xy = rng.uniform(0, 3 * n, size=(n, 2))
    elif kind == 1:
        xy = rng.integers(0, 2 * n, size=(n, 2)).astype(np.float64)
    else:
        xy = np.zeros((n, 2))
        for k in range(1, n):  # a chain along x: each link at the edge of a test
            edge = float(rng.choice([2 * r - OVERLAP_TOL, 2 * r + LINKED, 2 * r]))
            xy[k] = (_nudge(rng, xy[k - 1, 0] + edge), xy[k - 1, 1])
    if rng.random() < 0.05:
        xy[int(rng.integers(n))] = (np.nan, 1.0)
    return np.ascontiguousarray(xy, dtype=np.float64), r


@pytest.mark.parametrize("seed", range(30))
def test_formation_is_the_numpy_form(seed: int) -> None:
    """``coherency_jit.formation``: the same overlap and Coherency answers as the NumPy
    forms, on 60 formations a seed (the unit outside a piece, and inside one: no Coherency)."""
    rng = np.random.default_rng(seed)
    seen = set()
    for k in range(60):
        xy, r = _formation(rng, k % 3)
        for linked in (True, False):
            want = _numpy_formation(xy, r, linked)
            assert coherency_jit.formation(xy, r, OVERLAP_TOL, LINKED, linked) == want
            seen.add(want)
    assert seen == {0, 1, 2} or seed % 3  # every answer is met (most seeds)


def test_formation_edges_one_float_apart() -> None:
    """Two bases exactly at the overlap tolerance and at Coherency's reach, and one float
    beyond: each answer turns where the NumPy form's does (so ``<`` for ``<=`` fails here)."""
    r = 1.0

    def answer(x: float) -> int:
        return _numpy_formation(np.array([[0.0, 0.0], [x, 0.0]]), r, True)

    # (the centres' distance near the edge, the answer within, the answer beyond, the way out)
    for edge, want_in, want_out, out in (
        (2 * r - OVERLAP_TOL, 0, 1, -np.inf),
        (2 * r + LINKED, 0, 2, np.inf),
    ):
        x = edge
        while answer(x) != want_in:
            x = float(np.nextafter(x, -out))
        while answer(float(np.nextafter(x, out))) == want_in:
            x = float(np.nextafter(x, out))
        beyond = float(np.nextafter(x, out))
        for pos, want in ((x, want_in), (beyond, want_out)):
            xy = np.array([[0.0, 0.0], [pos, 0.0]])
            assert answer(pos) == want
            assert coherency_jit.formation(xy, r, OVERLAP_TOL, LINKED, True) == want


@pytest.mark.parametrize("seed", range(30))
def test_contacts_are_the_numpy_contacts(seed: int) -> None:
    """``coherency_jit.contacts``: the units of the other sides in Base Contact, as the NumPy
    form found them, with bases one float either side of the contact distance."""
    rng = np.random.default_rng(100 + seed)
    for _ in range(40):
        n = int(rng.integers(0, 40))
        grid = rng.random() < 0.3
        if grid:
            txy = rng.integers(0, 10, size=(n, 2)).astype(np.float64)
        else:
            txy = rng.uniform(0, 24, size=(n, 2))
        tr = rng.choice([0.5, 0.63, 1.0, 1.26], size=n)
        tuid = rng.integers(0, 6, size=n).astype(np.int64)
        tside = (tuid % 2).astype(np.int64)
        uid = int(rng.integers(0, 6))
        side = uid % 2
        r = float(rng.choice([0.5, 1.0, 1.26]))
        m = int(rng.integers(1, 8))
        pts = rng.uniform(0, 24, size=(m, 2)) if not grid else txy[:m] + 0.0
        pts = np.ascontiguousarray(pts.reshape(-1, 2), dtype=np.float64)
        if n and len(pts):
            for _ in range(int(rng.integers(0, 6))):  # a model at the contact distance's edge
                b, k = int(rng.integers(n)), int(rng.integers(len(pts)))
                pts[k] = (_nudge(rng, txy[b, 0] + (r + tr[b] + CONTACT)), txy[b, 1])
        if not len(pts) or not n:
            continue
        want = _numpy_contacts(pts, r, txy, tr, tuid, tside, uid, side)
        hit = coherency_jit.contacts(pts, r, txy, tr, tuid, tside, uid, side, CONTACT)
        assert set(tuid[hit].tolist()) == want


def _reach_case(seed: int) -> tuple[Any, Any, float, Any, Any]:
    """Starts, spots and other bases: random, or on a small integer grid (moves of no length,
    bases on a move's line, touching), some bases one float either side of the slack."""
    rng = np.random.default_rng(300 + seed)
    m, n, c = int(rng.integers(1, 9)), int(rng.integers(0, 80)), int(rng.integers(0, 12))
    if seed % 3 == 0:
        starts = rng.integers(0, 8, size=(m, 2)).astype(np.float64)
        spots = rng.integers(0, 10, size=(n, 2)).astype(np.float64)
        oxy = rng.integers(0, 10, size=(c, 2)).astype(np.float64)
    else:
        starts = rng.uniform(0, 12, size=(m, 2))
        spots = rng.uniform(-2, 16, size=(n, 2))
        oxy = rng.uniform(0, 14, size=(c, 2))
    oreach = rng.choice([1.0, 1.5, 2.13], size=c)
    if c and n:
        for _ in range(int(rng.integers(0, 4))):  # a base at the slack's edge of a move's end
            j, s = int(rng.integers(c)), int(rng.integers(n))
            oxy[j] = (_nudge(rng, spots[s, 0] + oreach[j] + SLACK), spots[s, 1])
    if n and rng.random() < 0.1:
        spots[int(rng.integers(n))] = (np.nan, 2.0)
    limit = float(rng.choice([4.95, 5.95, 0.0, -1.0]))
    return starts, spots, limit, oxy, oreach


@pytest.mark.parametrize("seed", range(150))
def test_reach_is_the_numpy_form(seed: int) -> None:
    """``route_jit.reach``: the distances and the moves within the limit clear of other
    units' bases, bit for bit as ``geom.centre_distances`` and session 35's ``_clear_of``."""
    starts, spots, limit, oxy, oreach = _reach_case(seed)
    d, out = route_jit.reach(starts, spots, limit, oxy, oreach, SLACK)
    want_d, want = route_oracles.reach(starts, spots, limit, oxy, oreach)
    assert d.tobytes() == np.asarray(want_d, dtype=np.float64).tobytes()
    assert out.tolist() == want.tolist()


def test_reach_cases_reach_and_refuse() -> None:
    """The cases above meet both answers, and bases that refuse a move within the limit."""
    within = reached = 0
    for seed in range(150):
        starts, spots, limit, oxy, oreach = _reach_case(seed)
        d, out = route_oracles.reach(starts, spots, limit, oxy, oreach)
        within += int((d <= limit).sum())
        reached += int(out.sum())
    assert reached > 500 and within - reached > 500


def _paths_case(seed: int) -> tuple[Any, ...]:
    """A charge's followers: starts, moves (some of no length), bases near, the rows already
    refused; random or on an integer grid (bases on a path's line, touching), some bases one
    float either side of the reach from a path's end."""
    rng = np.random.default_rng(500 + seed)
    m, k, c = int(rng.integers(1, 9)), int(rng.integers(1, 5)), int(rng.integers(0, 14))
    grid = seed % 3 == 0
    if grid:
        pts = rng.integers(0, 8, size=(m, 2)).astype(np.float64)
        vec = rng.integers(-4, 5, size=2).astype(np.float64)
        oxy = rng.integers(0, 10, size=(c, 2)).astype(np.float64)
    else:
        pts = rng.uniform(0, 12, size=(m, 2))
        vec = rng.uniform(-6, 6, size=2)
        oxy = rng.uniform(0, 14, size=(c, 2))
    vecs = np.asarray([1.0, 0.75, 0.5, 0.25][:k])[:, None] * vec
    orad = rng.choice([0.5, 1.0, 1.26], size=c)
    inner = float(rng.choice([1.0 - OVERLAP_TOL - 1e-9, 0.5, -2.0]))
    if c:
        for _ in range(int(rng.integers(0, 4))):  # a base at the reach's edge of an end
            j, p, q = int(rng.integers(c)), int(rng.integers(m)), int(rng.integers(k))
            x = pts[p, 0] + vecs[q, 0] + (orad[j] + inner)
            oxy[j] = (_nudge(rng, x), pts[p, 1] + vecs[q, 1])
    lengths = np.hypot(vecs[:, 0], vecs[:, 1])
    out = rng.random((k, m)) < 0.2
    live = np.flatnonzero(~out.all(axis=1) & (lengths > 0.0))
    return pts, vecs, lengths, live, oxy, orad, inner, out


@pytest.mark.parametrize("seed", range(150))
def test_paths_blocked_is_the_numpy_form(seed: int) -> None:
    """``route_jit.paths_blocked``: the followers' moves through another unit's base, as
    ``move_prefilter._blocked``'s NumPy form refused them."""
    pts, vecs, lengths, live, oxy, orad, inner, out = _paths_case(seed)
    want = out.copy()
    route_oracles.paths_blocked(pts, vecs, lengths, live, oxy, orad, inner, want)
    route_jit.paths_blocked(pts, vecs, lengths, live, oxy, orad, inner, out)
    assert out.tolist() == want.tolist()


def test_paths_blocked_cases_refuse_and_pass() -> None:
    """The cases above refuse moves the rows had not refused, and leave others."""
    refused = passed = 0
    for seed in range(150):
        pts, vecs, lengths, live, oxy, orad, inner, out = _paths_case(seed)
        before = out.copy()
        route_oracles.paths_blocked(pts, vecs, lengths, live, oxy, orad, inner, out)
        refused += int((out & ~before).sum())
        passed += int((~out[live]).sum())
    assert refused > 100 and passed > 100


def test_exact_edges_are_the_numpy_answers() -> None:
    """Distances that equal a limit exactly (bases of no radius, a move of no length): a base
    ``SLACK`` from a move is not clear of it (``>``), one ``CONTACT`` from a base is in Base
    Contact (``<=``), bases ``LINKED`` apart are linked (``<=``); so a kernel that compared
    with ``>=`` or ``<`` fails here."""
    zero, one = np.zeros((1, 2)), np.zeros(1)
    base = np.array([[SLACK, 0.0]])
    d, out = route_jit.reach(zero, zero, 1.0, base, one, SLACK)
    want_d, want = route_oracles.reach(zero, zero, 1.0, base, one)
    assert (d.tolist(), out.tolist()) == (want_d.tolist(), want.tolist()) == ([[0.0]], [[False]])
    near = np.array([[CONTACT, 0.0]])
    uids, sides = np.array([1], dtype=np.int64), np.array([1], dtype=np.int64)
    hit = coherency_jit.contacts(zero, 0.0, near, one, uids, sides, 0, 0, CONTACT)
    assert hit.tolist() == [True]
    assert _numpy_contacts(zero, 0.0, near, one, uids, sides, 0, 0) == {1}
    pair = np.array([[0.0, 0.0], [LINKED, 0.0]])
    assert coherency_jit.formation(pair, 0.0, OVERLAP_TOL, LINKED, True) == 0
    assert _numpy_formation(pair, 0.0, True) == 0
    apart = np.array([[0.0, 0.0], [float(np.nextafter(LINKED, 3.0)), 0.0]])
    assert coherency_jit.formation(apart, 0.0, OVERLAP_TOL, LINKED, True) == 2
    assert _numpy_formation(apart, 0.0, True) == 2


def test_no_fused_multiply_add_in_the_compiled_code() -> None:
    """The four kernels, compiled with ``sight_jit.compiler``'s options (no disk cache here,
    whose code numba does not show), multiply and take square roots unfused."""
    numba = pytest.importorskip("numba")
    options = {**sight_jit.JIT_OPTIONS, "cache": False}
    one, radii, uids = np.ones((3, 2)), np.ones(3), np.zeros(3, dtype=np.int64)
    kernels = [
        (coherency_jit._formation, (one, 1.0, 0.001, 2.0, True), True),
        (coherency_jit._contacts, (one, 1.0, one, radii, uids, uids, 1, 1, 0.05), True),
        (route_jit._reach, (one, one, 1.0, one, radii, 0.05), True),
        (  # squared gaps against squared reaches: no root
            route_jit._paths_blocked,
            (one, one, radii, np.zeros(1, np.intp), one, radii, 0.9, np.zeros((3, 3), bool)),
            False,
        ),
    ]
    for py, args, root in kernels:
        kernel = numba.njit(**options)(py)
        kernel(*args)
        asm = "\n".join(kernel.inspect_asm().values()).lower()
        assert "mulsd" in asm or "mulpd" in asm
        assert not root or "sqrtsd" in asm or "sqrtpd" in asm
        assert not any(op in asm for op in ("vfmadd", "vfmsub", "vfnmadd", "vfnmsub"))


def test_formation_and_contacts_in_mid_game_states() -> None:
    """On the states of the benchmark's scripted game, every unit on the table: its contacts
    (``Work.contacts``, where it stands and shifted toward its nearest enemy) and its
    formation's tests (where it stands, and squeezed), as the NumPy forms found them."""
    from bench_game_scale import _mid_game, scaled_setup

    from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
    from warbench.rulesets.warsurge.game.state import Location
    from warbench.rulesets.warsurge.game.work import Work

    setup = scaled_setup(1000)
    states = [s for s, _ in _mid_game(setup, 1) + _mid_game(setup, 2)][::6]
    touching = answers = 0
    for state in states:
        w = Work(state, None, DEFAULT_HOOKS)
        t = w.table()
        for uid, u in enumerate(state.units):
            if u.location is not Location.TABLE or not u.present():
                continue
            r = w.info(uid).radius
            side = u.table_side(setup.units[uid].side)
            xy = w.xy(uid)
            foes = t.xy[t.side != side]
            shifts = [np.zeros(2)]
            if len(foes):  # toward the nearest enemy base, to and past Base Contact
                near = foes[int(np.argmin(geom.point_distances(foes, xy[0])))]
                step = near - xy[0]
                shifts += [step * f for f in (0.5, 0.8, 0.9, 1.0)]
            for shift in shifts:
                pts = np.ascontiguousarray(xy + shift)
                want = _numpy_contacts(pts, r, t.xy, t.r, t.uid, t.side, uid, side)
                assert w.contacts(uid, pts) == want
                touching += bool(want)
            for squeeze in (1.0, 0.6, 0.4, 1.8):
                pts = np.ascontiguousarray(xy[0] + (xy - xy[0]) * squeeze)
                if len(pts) > 1:
                    for linked in (True, False):
                        want_f = _numpy_formation(pts, r, linked)
                        got = coherency_jit.formation(pts, r, OVERLAP_TOL, LINKED, linked)
                        assert got == want_f
                        answers |= 1 << want_f
    assert touching > 20 and answers == 0b111
