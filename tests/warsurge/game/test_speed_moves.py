"""Automated Moves made cheaper without changing a game (issue 10, session 31, s31-move).

* ``movement.verify_move`` does not ask ``move_problems`` again of positions its planner found
  legal: whenever a planner says so, the positions are legal (Core Rules
  001_d3f5e425c5e1196d.txt §4.1-4.7, §4.2).
* ``move_prefilter.clearly_blocked_headings`` (a route's rigid ends, ``route_move``) refuses
  exactly what ``coherency.clearly_illegal`` refuses, at every route of seeded games.
* ``movement.plan_engage`` (the automated charge, §4.3) skips the moves that
  ``move_prefilter.clearly_blocked_each`` finds certainly refused: each of them is refused by
  the true check (§2.1 off the battlefield, §4.7 through another unit's base), and every
  charge of seeded games ends where it ended without the prefilter.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.battlefield import sample_board
from warbench.rulesets.warsurge.game import (
    coherency,
    engine,
    move_prefilter,
    movement,
    route,
    route_formation,
    route_move,
)
from warbench.rulesets.warsurge.game.actions import Move
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


def _sample(board: str = "ruins_48x48") -> GameSetup:
    rosters = [load_game_roster(ROSTERS / n) for n in ("sci_fi_humans.yaml", "scavengers.yaml")]
    return build_setup(rosters, Field(sample_board(board)))


def _play(kind: str, seed: int, board: str = "ruins_48x48") -> None:
    """A seeded game of the sample pair, scripted or random-legal, to its end."""
    players: list[Player] = (
        [ScriptedPlayer(), ScriptedPlayer()]
        if kind == "scripted"
        else [RandomLegalPlayer(seed * 7 + 1), RandomLegalPlayer(seed * 7 + 2)]
    )
    state, events = engine.new_game(_sample(board), seed)
    assert play(state, players, events=events).state.over


@pytest.mark.parametrize(("kind", "seed"), [("scripted", 0), ("random", 3)])
def test_planned_positions_said_legal_are_legal(
    kind: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every Move toward a point or charge the planners call legal passes ``move_problems``
    (the check ``verify_move`` no longer repeats), and some are."""
    said = 0

    def checking(plan: Any) -> Any:
        def run(w: Work, uid: int, *args: Any, **kw: Any) -> Any:
            nonlocal said
            new, checked = plan(w, uid, *args, **kw)
            if checked:
                said += 1
                u = w.units[uid]
                models = tuple(u.present())
                starts = tuple(u.pos[i] for i in models)
                allowance, dash = args[1], args[2]
                assert movement.move_problems(w, uid, new, models, starts, allowance, dash) is None
            return new, checked

        return run

    monkeypatch.setattr(movement, "_plan_towards", checking(movement._plan_towards))
    monkeypatch.setattr(movement, "_plan_engage", checking(movement._plan_engage))
    _play(kind, seed)
    assert said >= 20


def _candidates(starts: np.ndarray, moving: list[int], vecs: np.ndarray) -> np.ndarray:
    shift = np.zeros(len(starts), dtype=bool)
    shift[moving] = True
    out: np.ndarray = np.where(shift[None, :, None], starts[None] + vecs[:, None, :], starts[None])
    return out


def _ends(
    starts: np.ndarray, moving: list[int], ux: np.ndarray, uy: np.ndarray, lengths: np.ndarray
) -> np.ndarray:
    """A route's rigid ends as ``clearly_illegal`` takes them: (heading, length) by row."""
    vx = (lengths[None, :] * ux[:, None]).ravel()
    vy = (lengths[None, :] * uy[:, None]).ravel()
    return _candidates(starts, moving, np.stack([vx, vy], axis=1))


@pytest.mark.parametrize(("kind", "seed", "board"), [("scripted", 1, "city_72x48")])
def test_route_ends_refused_as_clearly_illegal_refuses(
    kind: str, seed: int, board: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At every route of a seeded game: the same ends refused by both tests."""
    fast = move_prefilter.clearly_blocked_headings
    asked = refused = 0

    def both(
        w: Work,
        uid: int,
        starts: np.ndarray,
        moving: list[int],
        ux: np.ndarray,
        uy: np.ndarray,
        lengths: np.ndarray,
    ) -> np.ndarray:
        nonlocal asked, refused
        got = fast(w, uid, starts, moving, ux, uy, lengths)
        want = coherency.clearly_illegal(w, uid, starts, _ends(starts, moving, ux, uy, lengths))
        assert got.ravel().tolist() == want.tolist()
        asked += 1
        refused += int(got.sum())
        return got

    monkeypatch.setattr(route_move, "clearly_blocked_headings", both)
    _play(kind, seed, board)
    assert asked >= 5 and refused >= 50  # routes were asked, with ends refused


def test_route_end_refused_through_a_base_and_off_the_board() -> None:
    """Made-up headings: straight at another unit's model (refused from the length that
    reaches its base on) and off the battlefield, as ``clearly_illegal`` decides."""
    state, events = engine.new_game(_sample(), 0)
    run = play(state, [ScriptedPlayer(), ScriptedPlayer()], events=events, max_actions=60)
    w = Work(run.state, None, DEFAULT_HOOKS)
    on = [u.uid for u in w.units if u.present() and u.location is Location.TABLE]
    uid = on[0]
    other = next(o for o in on if o != uid)
    starts = w.xy(uid)
    moving = list(range(len(starts)))
    d = w.xy(other)[0] - starts[0]
    gap = float(np.hypot(d[0], d[1]))
    ux, uy = np.asarray([d[0] / gap, -1.0]), np.asarray([d[1] / gap, 0.0])
    lengths = np.asarray([gap, gap / 2.0, 0.01, 100.0])
    got = move_prefilter.clearly_blocked_headings(w, uid, starts, moving, ux, uy, lengths)
    want = coherency.clearly_illegal(w, uid, starts, _ends(starts, moving, ux, uy, lengths))
    assert got.ravel().tolist() == want.tolist()
    assert got[0, 0] and got[0, 3] and got[1, 3]  # onto its centre; beyond; off the edge


def test_charge_moves_refused_at_once_are_refused_by_the_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every follower's move the prefilter refuses in seeded charges fails the true check of
    that model alone (the question ``plan_engage`` would have asked)."""
    each = move_prefilter.clearly_blocked_each
    refused = 0

    def sound(
        w: Work, uid: int, starts: np.ndarray, moving: Any, vecs: np.ndarray
    ) -> list[list[bool]]:
        nonlocal refused
        got = each(w, uid, starts, moving, vecs)
        u = w.units[uid]
        # the free models in ``starts``' rows (a Dash leaves Battle and Heavy users out, §5.1)
        free = [next(i for i in u.present() if u.pos[i] == (x, y)) for x, y in starts.tolist()]
        allowance = 99.0  # the allowance plays no part in what the prefilter refuses
        for c, row in enumerate(got):
            for j, no in enumerate(row):
                if not no:
                    continue
                refused += 1
                s = (float(starts[j, 0]), float(starts[j, 1]))
                p = (s[0] + float(vecs[c, 0]), s[1] + float(vecs[c, 1]))
                m = free[j]
                why = movement.move_problems(w, uid, (p,), (m,), (s,), allowance, False, ignore=())
                assert why is not None
        return got

    monkeypatch.setattr(movement, "clearly_blocked_each", sound)
    for seed in (0, 1, 2):
        _play("scripted", seed)
    assert refused >= 20


def test_charges_end_where_they_did_without_the_prefilter(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every charge of seeded games: the same positions, or the same refusal, with the
    prefilter and with every move checked one by one (``plain_mover`` False)."""
    plan = movement._plan_engage
    asked = 0

    def compare(w: Work, uid: int, target: int, allowance: float, dash: bool) -> Any:
        nonlocal asked
        asked += 1
        outcome: list[Any] = []
        for plain in (True, False):
            with monkeypatch.context() as m:
                if not plain:
                    m.setattr(movement, "plain_mover", lambda w, uid: False)
                try:
                    outcome.append(plan(w, uid, target, allowance, dash))
                except RulesError as exc:
                    outcome.append((exc.reason, exc.rule))
        assert outcome[0] == outcome[1]
        if isinstance(outcome[0][1], bool):
            return outcome[0]
        raise RulesError(*outcome[0])

    monkeypatch.setattr(movement, "_plan_engage", compare)
    for seed in (0, 1, 2):
        _play("scripted", seed)
    _play("random", 4)
    assert asked >= 10


@pytest.mark.parametrize("board", ["open_field_42x32", "ruins_48x48", "city_72x48"])
def test_grid_blocked_cells_as_off_board_or_on_impassable(board: str) -> None:
    """``NavGrid``'s blocked cells (one terrain question for Impassable, Difficult and
    Dangerous Ground) are those off the board or on Impassable Ground (§4.7), as the
    battlefield answers them cell by cell; and the board has some of each."""
    b = sample_board(board)
    g = b.geometry()
    for radius in (0.5, 1.26, 2.0):
        grid = route.NavGrid(b, radius)
        xs = (np.arange(grid.nx) + 0.5) * route.CELL
        ys = (np.arange(grid.ny) + 0.5) * route.CELL
        gx, gy = np.meshgrid(xs, ys)
        pts = np.column_stack([gx.ravel(), gy.ravel()])
        want = ~np.asarray(g.on_board(pts, radius)) | np.asarray(g.on_impassable(pts, radius))
        assert (grid.blocked.ravel() == want).all()
        assert want.any() and not want.all()
        # the costs: Difficult (§4.5) and Dangerous (§4.6) Ground under every cell's base
        inside = np.asarray(g.standing_in(g.movement, pts, np.full(len(pts), radius)))
        cost = np.where((inside & g.difficult[None, :]).any(axis=1), route.DIFFICULT_COST, 1.0)
        cost = np.where((inside & g.dangerous[None, :]).any(axis=1), route.DANGEROUS_COST, cost)
        assert (grid.cost.ravel() == cost).all()


@pytest.mark.parametrize("board", ["ruins_48x48", "city_72x48", "hive_city_72x48"])
def test_lattice_spots_on_impassable_as_the_battlefield_answers(board: str) -> None:
    """``route_formation._on_impassable`` (only the bases near an Impassable piece's box
    asked) answers as ``on_impassable`` does for every base (§4.7), some of them on it."""
    g = sample_board(board).geometry()
    rng = np.random.default_rng(7)
    hits = 0
    for radius in (0.55, 1.03, 2.05):
        pts = rng.uniform(-2.0, 74.0, (3000, 2))
        want = np.asarray(g.on_impassable(pts, radius))
        assert (route_formation._on_impassable(g, pts, radius) == want).all()
        hits += int(want.sum())
    assert hits > 0


@pytest.mark.parametrize(
    "rank",
    [
        pytest.param("Airborne", id="L2076-Airborne"),
        pytest.param("Jumper", id="L2126-Jumper"),
        pytest.param("Juggernaut I", id="L2112-Juggernaut I"),
    ],
)
def test_L2076_a_flyer_moving_toward_a_point_passes_over_a_unit(rank: str) -> None:
    """A unit that may move over other units (Perks L2076, L2126) asked to move toward
    a point beyond one ends there, as ``Move(positions=...)`` may (no prefilter refuses its
    path over the unit); without the perk the unit stops short of the other unit's base."""
    from tests.rulesets.warsurge.effects.test_movement_perks import USER, _flyer

    beyond = (17.0, 20.0)  # across the Wall of Shields' model at (13.5, 20)
    flyer = _flyer([rank], (10.0, 20.0))
    assert engine.can(flyer, Move(USER, positions=(beyond,)))
    after, _ = engine.apply(flyer, Move(USER, to=beyond))
    assert after.units[USER].pos[0] == beyond
    walker = _flyer([], (10.0, 20.0))
    after, _ = engine.apply(walker, Move(USER, to=beyond))
    assert after.units[USER].pos[0][0] < 13.5 - 1.0  # in front of the other model's base


@pytest.mark.parametrize("ghost", ["mover", "blocker"], ids=["L2474-mover", "L2476-blocker"])
def test_L2474_an_incorporeal_move_toward_a_point_passes_through_a_unit(ghost: str) -> None:
    """Incorporeal (Perks L2474-L2476) moves through units, and an Incorporeal unit's base is
    passed through: with Incorporeal on, a Move toward a point beyond the other unit ends
    there, as ``Move(positions=...)`` may (the prefilter refuses none of its candidates;
    session 31 review); with it off, the unit stops short of the other unit's base."""
    from tests.warsurge.game.helpers import entry, scenario, unit
    from warbench.rulesets.warsurge.game.actions import UsePerks
    from warbench.rulesets.warsurge.game.state import Phase

    mover, block = (0, 1)
    perks = ["Incorporeal"]
    off = scenario(
        [
            [
                entry(unit("Walker", move=9, perks=perks if ghost == "mover" else [])),
                entry(unit("Wall of Shields", perks=perks if ghost == "blocker" else [])),
            ],
            [entry(unit("Foe"))],
        ],
        {mover: [(10.0, 20.0)], block: [(13.5, 20.0)], 2: [(44.0, 4.0)]},
        phase=Phase.MOVE,
        turn=2,
    )
    beyond = (17.0, 20.0)  # across the Wall of Shields' model at (13.5, 20)
    on, _ = engine.apply(off, UsePerks(mover if ghost == "mover" else block, ("Incorporeal: on",)))
    assert engine.can(on, Move(mover, positions=(beyond,)))
    after, _ = engine.apply(on, Move(mover, to=beyond))
    assert after.units[mover].pos[0] == beyond
    after, _ = engine.apply(off, Move(mover, to=beyond))
    assert after.units[mover].pos[0][0] < 13.5 - 1.0  # in front of the other model's base


def test_L1410_a_move_toward_a_point_passes_over_a_terrain_unit() -> None:
    """A Terrain unit (Perks L1410) is moved over: a Move toward a point beyond one ends
    there, as ``Move(positions=...)`` may (the prefilter refuses none of the candidates;
    session 31 review); the same unit without Terrain stops the Move short of its base."""
    from tests.warsurge.game.helpers import entry, scenario, unit
    from warbench.rulesets.warsurge.game.state import Phase

    def state(perks: list[str]) -> Any:
        return scenario(
            [
                [entry(unit("Walker", move=9))],
                [entry(unit("Barricade", perks=perks)), entry(unit("Foe"))],
            ],
            {0: [(10.0, 20.0)], 1: [(13.5, 20.0)], 2: [(44.0, 4.0)]},
            phase=Phase.MOVE,
            turn=2,
        )

    beyond = (17.0, 20.0)  # across the Barricade's model at (13.5, 20)
    over = state(["Terrain"])
    assert engine.can(over, Move(0, positions=(beyond,)))
    after, _ = engine.apply(over, Move(0, to=beyond))
    assert after.units[0].pos[0] == beyond
    after, _ = engine.apply(state([]), Move(0, to=beyond))
    assert after.units[0].pos[0][0] < 13.5 - 1.0  # in front of the other model's base
