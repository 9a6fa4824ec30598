"""Sight and cover with heights, as the game asks them (issue 12): ``elevated_sight_matrix``,
``elevated_visible_models`` and ``elevated_cover_report`` (001_d3f5e425c5e1196d.txt §5.4-5.6
with L2360-2366; rulings 16-17 and 24-25 "WARSURGE battlefield" in docs/rulings.md)."""

from __future__ import annotations

import random

import numpy as np
import pytest
import shapely

from warbench.rulesets.warsurge.battlefield import (
    Board,
    Footprint,
    Terrain,
    line_clears,
    sample_board,
    sight_from_above,
)
from warbench.rulesets.warsurge.battlefield.sight import (
    Bases,
    _obstacles,
    _rays_over,
    _Scene,
    cover_report,
    elevated_cover_report,
    elevated_sight_matrix,
    elevated_visible_models,
    sight_matrix,
)


def _b(*xy: tuple[float, float], r: float = 0.5) -> Bases:
    return Bases(np.asarray(xy, dtype=np.float64).reshape(-1, 2), np.full(len(xy), r))


def test_rays_in_height_agree_with_line_clears_on_random_lines() -> None:
    # the vectorised lines of the game against the battlefield's one-line reference
    rng = random.Random(7)
    pieces = [
        Terrain(name="Block", rect=[10, 10, 14, 13], blocks_los=True, height=3),
        Terrain(
            name="Statue", circle={"center": [20, 20], "radius": 1.5}, blocks_los=True, height=6
        ),
        Terrain(
            name="L",
            polygon=[[2, 20], [8, 20], [8, 22], [4, 22], [4, 28], [2, 28]],
            blocks_los=True,
            height=2.5,
        ),
    ]
    board = Board(width=30, height=30, terrain=pieces)
    scene = _Scene(board, _b((0.5, 0.5)), _b((29.5, 29.5)), _b())
    obs = _obstacles(board, scene, np.zeros((0, 2)), np.zeros(0), np.zeros(0), 1.25)
    n = 400
    p0 = np.array([[rng.uniform(0, 30), rng.uniform(0, 30)] for _ in range(n)])
    p1 = np.array([[rng.uniform(0, 30), rng.uniform(0, 30)] for _ in range(n)])
    z0 = np.array([rng.uniform(0, 8) for _ in range(n)])
    z1 = np.array([rng.uniform(0, 8) for _ in range(n)])
    val, _ = _rays_over(obs, p0, z0, p1, z1, np.zeros((n, len(pieces)), dtype=bool))
    areas = [(shapely.Polygon(t.polygon), t.height) for t in pieces]
    for k in range(n):
        ref = line_clears(tuple(p0[k]), z0[k], tuple(p1[k]), z1[k], areas)
        assert (val[k] == 0) == ref, (p0[k], z0[k], p1[k], z1[k])


def test_L2360_the_hive_city_tower_roof_sees_what_sight_from_above_sees() -> None:
    hive = sample_board("hive_city_72x48")
    roof, ground, target = (27.0, 24.0), (29.0, 24.0), (60.0, 24.0)
    assert sight_from_above(
        hive, Footprint(roof, z=8), Footprint(target), ignore=["Hab tower", "Hab tower roof"]
    )
    assert not sight_from_above(hive, Footprint(ground), Footprint(target))
    m = elevated_sight_matrix(hive, _b(roof, ground), _b(target), attacker_z=[8.0, 0.0])
    assert m.tolist() == [[True], [False]]


def test_flat_heights_give_the_flat_answers_exactly() -> None:
    board = sample_board("ruins_48x48")
    rng = random.Random(3)
    a = _b(*[(rng.uniform(2, 46), rng.uniform(2, 14)) for _ in range(6)])
    t = _b(*[(rng.uniform(2, 46), rng.uniform(34, 46)) for _ in range(6)])
    o = _b(*[(rng.uniform(2, 46), rng.uniform(20, 28)) for _ in range(6)])
    z = np.zeros(6)
    got = elevated_sight_matrix(board, a, t, o, attacker_z=z, target_z=z, blocker_z=z)
    assert (got == sight_matrix(board, a, t, o)).all()
    assert elevated_cover_report(board, a, t, o, attacker_z=z, target_z=z) == cover_report(
        board, a, t, o
    )


def test_s5_4_sight_in_height_is_symmetric() -> None:
    wall = Terrain(name="Wall", rect=[5, 15, 15, 16], blocks_los=True, height=2)
    board = Board(width=24, height=24, terrain=[wall])
    up = elevated_sight_matrix(board, _b((10, 10)), _b((10, 20)), attacker_z=[3.0])
    back = elevated_sight_matrix(board, _b((10, 20)), _b((10, 10)), target_z=[3.0])
    assert up.tolist() == back.tolist() == [[True]]
    assert elevated_visible_models(board, _b((10, 10)), _b((10, 20)), attacker_z=[3.0]) == [True]


@pytest.mark.parametrize(("firer_z", "bonus"), [(0.0, 1), (3.0, 0)])
def test_s5_6_cover_of_low_terrain_from_the_ground_and_from_above(
    firer_z: float, bonus: int
) -> None:
    bushes = Terrain(name="Bushes", rect=[5, 17, 20, 18], cover=1, height=1)
    board = Board(width=24, height=24, terrain=[bushes])
    kapers = _b((8.0, 20.0), (9.5, 20.0), (11.0, 20.0), (12.5, 20.0))
    rep = elevated_cover_report(
        board,
        _b((10.0, 10.0)),
        kapers,
        attacker_z=[firer_z],
        target_z=[0.0] * 4 if firer_z else [0.1] * 4,
    )
    assert rep.bonus == bonus
    assert ("Bushes" in rep.sources) == bool(bonus)
