"""The constant of a scripted game (issue 10, session 29, s29-speed): the shortcuts give the
very answers of the paths they stand in for.

* ``sight._near_keep`` keeps the very blockers of the NumPy formulas it replaced (the
  centroids and spreads of a few models worked out in floats), on random models.
* ``engine.nearest_enemies`` keeps each side's enemy rows with the table index: its answers
  are those measured anew at every question of seeded games.
* ``BoardGeometry.terrain_at`` names each base's pieces as the row-by-row reading did.
* ``coherency.clearly_blocked_translations`` (an automated Move's candidates refused in one
  NumPy pass along the Move's line) refuses exactly the candidates that
  ``coherency.clearly_illegal`` refuses, at every ``plan_towards`` of seeded scripted and
  random-legal games, and on a Move made up to cross a base.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from warbench.rulesets.warsurge.battlefield import sample_board, sight
from warbench.rulesets.warsurge.game import coherency, engine, geom, movement, work
from warbench.rulesets.warsurge.game.geom import Field
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.io import load_game_roster
from warbench.rulesets.warsurge.game.players import (
    Player,
    RandomLegalPlayer,
    ScriptedPlayer,
    play,
)
from warbench.rulesets.warsurge.game.state import GameSetup, Location, build_setup
from warbench.rulesets.warsurge.game.work import Work

ROSTERS = Path(__file__).parents[3] / "examples" / "warsurge" / "rosters"


def _sample() -> GameSetup:
    rosters = [load_game_roster(ROSTERS / n) for n in ("sci_fi_humans.yaml", "scavengers.yaml")]
    return build_setup(rosters, Field(sample_board("ruins_48x48")))


def _as_candidates(
    starts: np.ndarray, moving: list[int], way: tuple[float, float], lengths: list[float]
) -> np.ndarray:
    cands = np.repeat(starts[None], len(lengths), axis=0)
    for c, length in enumerate(lengths):
        cands[c, moving] = starts[moving] + np.asarray(way) * length
    return cands


def _play_to_the_end(kind: str, seed: int) -> None:
    """A seeded game of the sample pair, by scripted or random-legal players, to its end."""
    players: list[Player] = (
        [ScriptedPlayer(), ScriptedPlayer()]
        if kind == "scripted"
        else [RandomLegalPlayer(seed * 7 + 1), RandomLegalPlayer(seed * 7 + 2)]
    )
    state, events = engine.new_game(_sample(), seed)
    assert play(state, players, events=events).state.over


@pytest.mark.parametrize(("kind", "seed"), [("scripted", 0), ("scripted", 1), ("random", 2)])
def test_blocked_translations_refuse_what_clearly_illegal_refuses(
    kind: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every automated Move of the game: the same candidates refused by both tests."""
    fast = coherency.clearly_blocked_translations
    asked = refused = 0

    def both(
        w: Work,
        uid: int,
        starts: np.ndarray,
        moving: list[int],
        way: tuple[float, float],
        lengths: list[float],
    ) -> list[bool]:
        nonlocal asked, refused
        got = fast(w, uid, starts, moving, way, lengths)
        cands = _as_candidates(starts, moving, way, lengths)
        assert got == coherency.clearly_illegal(w, uid, starts, cands).tolist()
        asked += 1
        refused += sum(got)
        return got

    monkeypatch.setattr(movement, "clearly_blocked_translations", both)
    _play_to_the_end(kind, seed)
    assert asked >= 20 and refused >= 10  # the test saw Moves, and refusals among them


def _two_alone() -> tuple[Work, int, int]:
    """A seeded scripted game 40 actions in, with only a unit and an enemy unit on the table:
    the working copy and the two units."""
    state, events = engine.new_game(_sample(), 0)
    run = play(state, [ScriptedPlayer(), ScriptedPlayer()], events=events, max_actions=40)
    w = Work(run.state, None, DEFAULT_HOOKS)
    on = [u.uid for u in w.units if u.location is Location.TABLE and u.living()]
    uid, other = on[0], next(o for o in on if w.enemies(on[0], o))
    for u in on:  # the two units alone on the table
        if u not in (uid, other):
            w.set_unit(u, location=Location.RESERVE)
    return w, uid, other


def test_blocked_translations_refuse_the_lengths_that_cross_a_base() -> None:
    """A unit moved straight at another unit's model: the lengths that reach its base are
    refused, the shorter ones are not, and without the base nothing is."""
    w, uid, other = _two_alone()
    starts = w.xy(uid)
    moving = list(range(len(starts)))
    d = w.xy(other)[0] - starts[0]
    gap = float(np.hypot(d[0], d[1]))
    way = (float(d[0] / gap), float(d[1] / gap))
    lengths = [gap, gap / 2.0, 0.01]
    cands = _as_candidates(starts, moving, way, lengths)
    got = coherency.clearly_blocked_translations(w, uid, starts, moving, way, lengths)
    assert got == coherency.clearly_illegal(w, uid, starts, cands).tolist()
    assert got[0] and not got[2]  # onto the other model's centre; a hundredth of an inch
    # without the other unit nothing stands in the way
    w.set_unit(other, location=Location.RESERVE)
    alone = coherency.clearly_blocked_translations(w, uid, starts, moving, way, lengths)
    assert alone == coherency.clearly_illegal(w, uid, starts, cands).tolist() == [False] * 3


def _old_near_keep(
    axy: np.ndarray,
    ar: np.ndarray,
    txy: np.ndarray,
    tr: np.ndarray,
    bxy: np.ndarray,
    br: np.ndarray,
) -> np.ndarray:
    ca = axy.sum(axis=0) / len(axy)
    ct = txy.sum(axis=0) / len(txy)
    spread = max(
        float(np.sqrt(((axy - ca) ** 2).sum(axis=1)).max()),
        float(np.sqrt(((txy - ct) ** 2).sum(axis=1)).max()),
    )
    d = sight._point_segment_distances(ca, ct, bxy)
    out: np.ndarray = d <= spread + max(float(ar.max()), float(tr.max())) + br + 0.01
    return out


@pytest.mark.parametrize("seed", range(40))
def test_near_blockers_keep_the_very_blockers_of_the_numpy_sums(seed: int) -> None:
    """``sight._near_keep`` works out the centroids and spreads of a few models in floats
    (s29-speed): the very blockers the NumPy formulas kept, for models in a line, on a grid, on
    one point, and for arrays in Fortran order (left to NumPy)."""
    rng = np.random.default_rng(seed)
    n, m, k = (int(x) for x in rng.integers(1, 14, size=3))
    axy = rng.random((n, 2)) * 48.0
    txy = np.round(rng.random((m, 2)) * 24.0) if seed % 3 == 0 else rng.random((m, 2)) * 48.0
    if seed % 5 == 0:
        txy[:] = txy[0]  # every model on one point
    if seed % 4 == 1:
        axy = np.asfortranarray(axy)
    bxy = rng.random((k * 6, 2)) * 48.0
    ar, tr, br = (rng.random(len(x)) + 0.5 for x in (axy, txy, bxy))
    # blockers right at the band's edge: either side of it by a few ulps
    ca, ct = axy.sum(axis=0) / n, txy.sum(axis=0) / m
    want = _old_near_keep(axy, ar, txy, tr, bxy, br)
    got = sight._near_keep(axy, ar, txy, tr, bxy, br)
    assert got.dtype == want.dtype and np.array_equal(got, want)
    # blockers at the band's very edge (a blocker's radius making up the distance)
    d = sight._point_segment_distances(ca, ct, bxy)
    spread = max(
        float(np.sqrt(((axy - ca) ** 2).sum(axis=1)).max()),
        float(np.sqrt(((txy - ct) ** 2).sum(axis=1)).max()),
    )
    edge_br = d - (spread + max(float(ar.max()), float(tr.max())) + 0.01)
    want = _old_near_keep(axy, ar, txy, tr, bxy, edge_br)
    assert want.any()
    assert np.array_equal(sight._near_keep(axy, ar, txy, tr, bxy, edge_br), want)


def _fresh_nearest(w: Work, uid: int) -> list[tuple[float, int]]:
    """The enemy units by edge distance, measured anew from the table index (no memo)."""
    holder = w.outermost(uid)
    if w.units[holder].location is not Location.TABLE or not len(a := w.xy(holder)):
        return []
    t = w.table()
    mask = t.side != w.units[uid].table_side(w.info(uid).side)
    d = geom.edge_distances(a, w.info(holder).radius, t.xy[mask], t.r[mask]).min(axis=0)
    best: dict[int, float] = {}
    for gap, foe in zip(d.tolist(), t.uid[mask].tolist(), strict=True):
        best[foe] = min(gap, best.get(foe, math.inf))
    return sorted((gap, foe) for foe, gap in best.items())


@pytest.mark.parametrize(("kind", "seed"), [("scripted", 0), ("random", 1)])
def test_nearest_enemies_rows_kept_with_the_table_index(
    kind: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``engine.nearest_enemies`` keeps each side's enemy rows with the table index (s29-speed):
    at every question of a seeded game its answer is the one measured anew, and the rows are
    found again for a second unit of a side on the same table."""
    nearest = engine._nearest_enemies
    asked = kept = 0

    def checked(w: Work, uid: int, t: work.TableIndex) -> list[tuple[float, int]]:
        nonlocal asked, kept
        side = w.units[uid].table_side(w.info(uid).side)
        kept += ("enemy rows", side) in t.memo
        got = nearest(w, uid, t)
        assert got == _fresh_nearest(w, uid)
        asked += 1
        return got

    monkeypatch.setattr(engine, "_nearest_enemies", checked)
    _play_to_the_end(kind, seed)
    assert asked >= 30 and 0 < kept < asked


@pytest.mark.parametrize(
    ("board", "size"), [("ruins_48x48", (48.0, 48.0)), ("city_72x48", (72.0, 48.0))]
)
def test_terrain_at_names_each_bases_pieces_in_order(board: str, size: tuple[float, float]) -> None:
    """``BoardGeometry.terrain_at`` reads every base's pieces from one ``nonzero`` of the
    overlap matrix (s29-speed): per base, the names of the pieces it overlaps, in the board's
    order, as read row by row."""
    g = sample_board(board).geometry()
    rng = np.random.default_rng(3)
    xy = rng.random((400, 2)) * np.array(size)
    r = rng.random(400) * 8.0 + 0.25
    got = g.terrain_at(xy, r)
    m = g.standing_in(g.all, xy, r)
    want = [[g.names[j] for j in np.flatnonzero(row)] for row in m]
    assert got == want
    assert sum(len(x) >= 1 for x in got) >= 20 and any(len(x) >= 2 for x in got)
    assert g.terrain_at(xy[:0], 1.0) == []


def test_blocked_translations_pass_a_base_grazed_within_the_tolerance() -> None:
    """A model's path that grazes another unit's base: overlapping it by half the tolerance
    (``geom.OVERLAP_TOL``) is not refused, by one and a half times it is, by both tests (the
    tolerance measured as ``clearly_illegal`` measures it, not from the bases' edges)."""
    w, uid, other = _two_alone()
    starts = w.xy(uid)
    t = w.table()
    r = w.info(uid).radius
    seen = []
    for row in np.flatnonzero(t.uid == other).tolist():  # each base, passed on either side
        for sign in (1.0, -1.0):
            c, reach = t.xy[row], float(t.r[row]) + r
            d = c - starts[0]
            gap = float(np.hypot(d[0], d[1]))
            answers = []
            for depth in (0.5, 1.5):
                miss = reach - depth * geom.OVERLAP_TOL  # the path's nearest approach
                turn = sign * math.asin(miss / gap)
                ang = math.atan2(float(d[1]), float(d[0])) + turn
                way = (math.cos(ang), math.sin(ang))
                lengths = [gap * math.cos(turn)]  # it ends at its nearest approach
                cands = _as_candidates(starts, [0], way, lengths)
                want = coherency.clearly_illegal(w, uid, starts, cands).tolist()
                got = coherency.clearly_blocked_translations(w, uid, starts, [0], way, lengths)
                assert got == want
                answers.append(got[0])
            seen.append(tuple(answers))
    # some base is grazed alone: half the tolerance passes, one and a half is refused
    assert (False, True) in seen
