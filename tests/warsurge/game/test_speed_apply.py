"""The per-``apply`` constant (issue 10, s27-apply): the shortcuts of the apply path give the
very answers of the paths they stand in for.

* ``Work.contact_map`` (every unit's Base Contacts from one distance matrix, for the sweep
  after the Attack Phase's casualties) equals ``Work.contacts`` asked unit by unit, at every
  sweep of seeded scripted, random-legal and perk-heavy games (Traitorous, Dominate and
  Enslaved change sides there).
* ``geom.edge_distances`` and ``geom.segments_distances`` (``sqrt(dx*dx + dy*dy)`` in place)
  give the very floats of the (n, m, 2) formulas they replaced, on random points.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from tests.rulesets.warsurge.effects.test_perk_heavy_games import setup_for
from warbench.rulesets.warsurge.battlefield import sample_board
from warbench.rulesets.warsurge.game import engine, geom, work
from warbench.rulesets.warsurge.game.geom import Field
from warbench.rulesets.warsurge.game.io import load_game_roster
from warbench.rulesets.warsurge.game.players import (
    Player,
    RandomLegalPlayer,
    ScriptedPlayer,
    play,
)
from warbench.rulesets.warsurge.game.state import GameSetup, Location, build_setup

ROSTERS = Path(__file__).parents[3] / "examples" / "warsurge" / "rosters"


def _sample(board: str) -> GameSetup:
    rosters = [load_game_roster(ROSTERS / n) for n in ("sci_fi_humans.yaml", "scavengers.yaml")]
    return build_setup(rosters, Field(sample_board(board)))


@pytest.mark.parametrize(
    ("kind", "k"), [("scripted", 0), ("random", 1), ("heavy", 0), ("heavy", 2), ("heavy", 4)]
)
def test_contact_map_equals_contacts_unit_by_unit(
    kind: str, k: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    contact_map = work.Work.contact_map
    sweeps = 0
    touching = 0

    def checked(self: work.Work) -> dict[int, set[int]] | None:
        nonlocal sweeps, touching
        got = contact_map(self)
        assert got is not None  # round bases in these games
        for u in self.units:
            if u.location is Location.TABLE:
                assert got.get(u.uid, set()) == self.contacts(u.uid), u.uid
                touching += bool(got.get(u.uid))
        assert set(got) <= {u.uid for u in self.units if u.location is Location.TABLE}
        sweeps += 1
        return got

    monkeypatch.setattr(work.Work, "contact_map", checked)
    if kind == "heavy":
        setup, seed = setup_for(k), random.Random(1000 + k).randrange(2**31)
    else:
        setup, seed = _sample("ruins_48x48"), k
    players: list[Player] = (
        [ScriptedPlayer(), ScriptedPlayer()]
        if kind == "scripted"
        else [RandomLegalPlayer(seed * 7 + 1), RandomLegalPlayer(seed * 7 + 2)]
    )
    state, events = engine.new_game(setup, seed)
    assert play(state, players, events=events).state.over
    assert sweeps >= 2
    if kind == "scripted":
        assert touching > 0  # the scripted players charge into Melees


def _old_edge_distances(a: np.ndarray, ra: object, b: np.ndarray, rb: object) -> np.ndarray:
    d = np.sqrt(((a[:, None, :] - b[None, :, :]) ** 2).sum(axis=2))
    rb_arr = np.asarray(rb, dtype=np.float64)
    ra_arr = np.asarray(ra, dtype=np.float64)
    if ra_arr.ndim:
        ra_arr = ra_arr[:, None]
    out: np.ndarray = d - ra_arr - (rb_arr[None, :] if rb_arr.ndim else rb_arr)
    return out


def _old_segments_distances(starts: np.ndarray, ends: np.ndarray, c: np.ndarray) -> np.ndarray:
    d = ends - starts
    length2 = (d * d).sum(axis=1)
    rel = c[None, :, :] - starts[:, None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(
            length2[:, None] > 1e-18, (rel * d[:, None, :]).sum(axis=2) / length2[:, None], 0.0
        )
    t = np.clip(t, 0.0, 1.0)
    proj = starts[:, None, :] + t[:, :, None] * d[:, None, :]
    out: np.ndarray = np.sqrt(((c[None, :, :] - proj) ** 2).sum(axis=2))
    return out


def _points(rng: np.random.Generator, n: int) -> np.ndarray:
    """Points on a board, some on a coarse grid (ties, zero gaps, the same point twice)."""
    xy = rng.random((n, 2)) * 48.0
    grid = rng.random(n) < 0.4
    xy[grid] = np.round(xy[grid] / 2.0) * 2.0
    xy[rng.random(n) < 0.1] = 0.0  # the board's corner: products of zeros
    return xy


@pytest.mark.parametrize("seed", range(30))
def test_edge_and_segment_distances_are_the_written_out_formulas_bit_for_bit(seed: int) -> None:
    """``geom.edge_distances`` and ``geom.segments_distances`` compute ``sqrt(dx*dx + dy*dy)``
    in place (issue 10, s27-apply): the very floats of the (n, m, 2) formulas they replaced."""
    rng = np.random.default_rng(seed)
    n, m, s = (int(x) for x in rng.integers(0, 40, size=3))
    a, b = _points(rng, n), _points(rng, m)
    for ra, rb in ((0.5, 0.75), (rng.random(n) + 0.5, rng.random(m) + 0.5), (1.0, rng.random(m))):
        got, want = geom.edge_distances(a, ra, b, rb), _old_edge_distances(a, ra, b, rb)
        assert got.shape == want.shape == (n, m) and got.dtype == want.dtype
        assert np.array_equal(got, want)
    starts, ends = _points(rng, s), _points(rng, s)
    ends[: s // 4] = starts[: s // 4]  # some segments of no length
    got = geom.segments_distances(starts, ends, b)
    want = _old_segments_distances(starts, ends, b)
    assert got.shape == want.shape == (s, m)
    assert np.array_equal(got, want)
    assert np.array_equal(geom.centre_distances(a, a).diagonal(), np.zeros(n))


def test_per_setup_answers_each_setup_its_own_while_alternating_and_past_the_limit() -> None:
    """``memo.per_setup`` keeps the set-up asked last in front of its cache (issue 10,
    s27-apply): alternating set-ups, equal but distinct ones and more than ``LIMIT`` of them
    still get their own answers, each worked out once while kept."""
    from warbench.rulesets.warsurge.game import memo

    calls: list[object] = []

    class Setup:
        def __init__(self, n: int) -> None:
            self.n = n

        def __eq__(self, other: object) -> bool:  # equal set-ups are still asked apart
            return isinstance(other, Setup)

        __hash__ = object.__hash__

    @memo.per_setup
    def value(s: Setup) -> int:
        calls.append(s)
        return s.n * 10

    a, b = Setup(1), Setup(2)
    assert [value(a), value(b), value(a), value(a), value(b)] == [10, 20, 10, 10, 20]
    assert calls == [a, b]
    many = [Setup(k) for k in range(memo.LIMIT + 5)]
    assert [value(s) for s in many] == [s.n * 10 for s in many]
    assert value(many[-1]) == (memo.LIMIT + 4) * 10 and value(a) == 10 and value(b) == 20
