"""Routed Moves made cheaper without changing a game (issue 10, session 30, s30-field).

Each shortcut is compared with the computation it replaces on the sample boards: the same
numbers, so the same Moves (Core Rules 001_d3f5e425c5e1196d.txt §4.7 L2147-2156: a unit goes
round Impassable Ground, never through it; §4.1 L1833-1848: models placed one by one).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from tests.warsurge.game.helpers import entry, scenario, unit, weapon
from warbench.rulesets.warsurge.battlefield import board_from_data, sample_board
from warbench.rulesets.warsurge.game import engine, geom, route, route_formation
from warbench.rulesets.warsurge.game.movement import mover_models
from warbench.rulesets.warsurge.game.state import Phase
from warbench.rulesets.warsurge.game.work import Work

BOARDS = ("open_field_42x32", "ruins_48x48", "city_72x48", "hive_city_72x48")


def relaxed(grid: route.NavGrid, goals: list[tuple[float, float]]) -> np.ndarray[Any, Any]:
    """The oracle: ``NavGrid.cost_to`` as session 29 computed it (``936ef8c``), passes of
    eight shifted views of an ``INF``-framed copy until nothing changes."""
    cells = sorted({c for p in goals for c in grid.open_near(p)})
    dist = np.full((grid.ny, grid.nx), route.INF)
    for r, c in cells:
        dist[r, c] = 0.0
    open_ = ~grid.blocked
    ny, nx = grid.ny, grid.nx
    framed = np.full((ny + 2, nx + 2), route.INF)
    trial = np.empty((ny, nx))
    for _ in range(nx * ny):
        before = dist
        framed[1:-1, 1:-1] = before
        dist = dist.copy()
        for dy, dx, step in grid._steps:
            np.add(framed[1 + dy : 1 + dy + ny, 1 + dx : 1 + dx + nx], step, out=trial)
            np.minimum(dist, trial, out=dist)
        dist = np.where(open_, dist, route.INF)
        if np.array_equal(dist, before):
            break
    return dist


def _random_board(seed: int) -> Any:
    """A 40 x 30 board with a dozen random pieces: Impassable, Difficult, Dangerous."""
    rng = np.random.default_rng(seed)
    terrain: list[dict[str, Any]] = []
    for k in range(12):
        x, y = float(rng.uniform(0, 36)), float(rng.uniform(0, 26))
        w, h = float(rng.uniform(1, 8)), float(rng.uniform(1, 8))
        piece: dict[str, Any] = {
            "name": f"T{k}",
            "rect": [x, y, min(40.0, x + w), min(30.0, y + h)],
        }
        piece[("impassable", "difficult", "dangerous")[k % 3]] = {} if k % 3 == 2 else True
        terrain.append(piece)
    data = {"name": f"Random {seed}", "width": 40, "height": 30, "terrain": terrain}
    return board_from_data({**data, "deployment": {"layout": "thirds"}})


@pytest.mark.parametrize("name", BOARDS)
def test_L2147_the_field_is_the_relaxation_of_session_29(name: str) -> None:
    """``NavGrid.cost_to`` (one strided view, nine planes) gives the very array of the old
    relaxation: on the sample boards, three radii, goals in corners, the middle, inside
    terrain and several at once (Impassable Ground cut off, §4.7 L2147)."""
    board = sample_board(name)
    for radius in (0.5, 1.0, 2.5):
        grid = route.NavGrid(board, radius)
        w, h = grid.width, grid.height
        for goals in (
            [(1.0, 1.0)],
            [(w / 2, h / 2)],
            [(w - 3, h - 5)],
            [(3.0, h - 2), (w - 9, 4.0)],
        ):
            assert np.array_equal(grid.cost_to(goals), relaxed(grid, goals))


@pytest.mark.parametrize("seed", range(6))
def test_the_field_is_the_relaxation_on_random_boards(seed: int) -> None:
    """The same on random boards of Impassable, Difficult and Dangerous Ground (§4.5-4.7):
    cells cut off stay ``INF``, Difficult and Dangerous cells dearer."""
    board = _random_board(seed)
    rng = np.random.default_rng(seed)
    for radius in (0.5, 1.2):
        grid = route.NavGrid(board, radius)
        assert (grid.cost > 1).any() and grid.blocked.any()
        for _ in range(4):
            goals = [(float(rng.uniform(0, 40)), float(rng.uniform(0, 30)))]
            assert np.array_equal(grid.cost_to(goals), relaxed(grid, goals))


@pytest.mark.parametrize("name", BOARDS)
def test_at_many_is_at_point_by_point(name: str) -> None:
    """``NavGrid.at_many`` gives the very floats of ``NavGrid.at`` (on and off open cells,
    on the board's edges)."""
    board = sample_board(name)
    rng = np.random.default_rng(7)
    for radius in (0.5, 1.0, 2.5):
        grid = route.NavGrid(board, radius)
        dist = grid.cost_to([(grid.width * 0.8, grid.height * 0.3)])
        xs = np.concatenate([rng.uniform(0, grid.width, 300), [0.0, grid.width, 3.5]])
        ys = np.concatenate([rng.uniform(0, grid.height, 300), [grid.height, 0.0, 7.0]])
        many = grid.at_many(dist, xs, ys)
        one = [grid.at(dist, (float(x), float(y))) for x, y in zip(xs, ys, strict=True)]
        assert many == one
        assert any(v >= route.INF / 2 for v in one) == bool(grid.blocked.any())


@pytest.mark.parametrize("name", BOARDS)
def test_may_cross_false_means_the_path_is_clear(name: str) -> None:
    """Where ``Field.may_cross`` says no terrain's box is met, ``Field.path`` finds the move
    clear (§4.5-4.7); and every move that ``path`` finds blocked or slowed is flagged."""
    field = geom.Field(sample_board(name))
    rng = np.random.default_rng(3)
    a = np.column_stack([rng.uniform(0, field.width, 400), rng.uniform(0, field.height, 400)])
    b = a + rng.uniform(-6, 6, (400, 2))
    for r in (0.5, 1.3):
        flags = field.may_cross(a, b, r)
        for p in range(len(a)):
            pc = field.path((float(a[p, 0]), float(a[p, 1])), (float(b[p, 0]), float(b[p, 1])), r)
            touched = pc.blocked_by is not None or pc.difficult or bool(pc.dangerous)
            if not flags[p]:
                assert not touched
        if name != "open_field_42x32":
            assert flags.any() and not flags.all()


def _crowded(name: str) -> Work:
    """The Move Phase on a sample board: our ten models (uid 0) in a block with enemy single
    models scattered over the open ground, some next to us, most far off."""
    board = sample_board(name)
    grid = route.NavGrid(board, 1.0)
    rng = np.random.default_rng(11)
    open_cells = np.argwhere(~grid.blocked)
    ours = unit("Troopers", models=10, weapons=[weapon("Rifle", range=12)])
    theirs = [unit(f"Sentry {k}", models=1) for k in range(24)]
    centre = open_cells[len(open_cells) // 2]
    x0, y0 = float(centre[1]) + 0.5, float(centre[0]) + 0.5
    ours_at = [(x0 + 1.1 * (k % 5), y0 + 1.1 * (k // 5)) for k in range(10)]
    taken = list(ours_at)
    spots: list[tuple[float, float]] = []
    for cell in rng.permutation(open_cells):
        p = (float(cell[1]) + 0.5, float(cell[0]) + 0.5)
        if all(math.dist(p, q) > 1.2 for q in taken):
            spots.append(p)
            taken.append(p)
        if len(spots) == len(theirs):
            break
    state = scenario(
        [[entry(ours)], [entry(t) for t in theirs]],
        {0: ours_at, **{k + 1: [p] for k, p in enumerate(spots)}},
        phase=Phase.MOVE,
        b=board,
    )
    return engine.legal_actions(state)._work


@pytest.mark.parametrize("name", BOARDS)
def test_L1833_placed_one_by_one_is_unchanged_by_the_prefilters(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The formation placed one by one (§4.1 L1833-1848) and its reach matrix are the same
    with the prefilters (``route_formation._near``: far bases; ``Field.may_cross``: far
    terrain) as with every base and every path checked."""
    w = _crowded(name)
    free, _ = mover_models(w, 0, False)
    starts = w.xy(0, w.units[0].present())
    grid = route.nav_grid(w.field.board, float(w.info(0).radius))
    got: dict[str, Any] = {}
    for mode in ("fast", "full"):
        if mode == "full":
            monkeypatch.setattr(
                route_formation, "_near", lambda p, a, c, r: np.ones(len(c), dtype=bool)
            )
            monkeypatch.setattr(
                geom.Field, "may_cross", lambda self, s, e, r: np.ones(len(s), dtype=bool)
            )
        other = w.others_mask([0])
        spots = route_formation._lattice(w, starts, 0.5, 6.0)
        if mode == "fast":  # the prefilter leaves bases out: the test compares something
            t = w.table()
            near = route_formation._near(starts, 6.0, t.xy[other], t.r[other] + 0.5)
            assert near.any() and not near.all()
        got[mode] = [route_formation._reach(w, 0, starts, spots, 6.0, other)]
        for goal in ((2.0, 2.0), (grid.width - 2, grid.height / 2)):
            dist = grid.cost_to([goal])
            got[mode].append(route_formation.placed_one_by_one(w, 0, grid, dist, 6.0, free))
    assert np.array_equal(got["fast"][0], got["full"][0])
    assert got["fast"][0].any() and not got["fast"][0].all()
    assert got["fast"][1:] == got["full"][1:]
    assert any(p is not None for p in got["fast"][1:])


@pytest.mark.parametrize("name", BOARDS)
def test_values_at_is_value_at_point_by_point(name: str) -> None:
    """``route_formation.values_at`` gives the very floats of ``value_at``, also for bases in
    cells the grid's clearance closes (the nearest open cell's value plus the way there)."""
    board = sample_board(name)
    grid = route.NavGrid(board, 1.0)
    dist = grid.cost_to([(3.0, 3.0)])
    rng = np.random.default_rng(5)
    pts = np.column_stack([rng.uniform(0, grid.width, 400), rng.uniform(0, grid.height, 400)])
    many = route_formation.values_at(grid, dist, pts).tolist()
    one = [route_formation.value_at(grid, dist, (float(x), float(y))) for x, y in pts]
    assert many == one
    assert any(grid.at(dist, (float(x), float(y))) >= route.INF / 2 for x, y in pts)


def test_nav_grid_finds_a_board_by_identity_and_by_terrain() -> None:
    """``route.nav_grid``: the same object for the same board (by identity, then by its
    terrain: an equal board read again), another for another radius."""
    a = sample_board("ruins_48x48")
    b = sample_board("ruins_48x48")
    assert a is not b
    ga = route.nav_grid(a, 0.5)
    assert route.nav_grid(a, 0.5) is ga
    assert route.nav_grid(b, 0.5) is ga
    assert route.nav_grid(a, 1.5) is not ga
    assert not np.array_equal(route.nav_grid(a, 1.5).blocked, ga.blocked)
