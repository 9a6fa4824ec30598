"""WARSURGE battlefield: true bases and heights (issue 12; Core Rules 001_d3f5e425c5e1196d.txt
§1.3, §4.2 III, L2360).

Run with ``make bench``. These helpers measure one pair at a time with shapely; the figures say
whether the engine may call them per model pair inside a game (round bases on a flat board keep
the vectorised disc paths of ``bench_battlefield.py``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from warbench.rulesets.warsurge.battlefield import (
    Base,
    Footprint,
    footprint_coherency_groups,
    footprint_distance,
    footprints_overlap,
    sample_board,
    sight_from_above,
)
from warbench.rulesets.warsurge.battlefield.sight import (
    Bases,
    elevated_cover_report,
    elevated_sight_matrix,
)

HIVE = sample_board("hive_city_72x48")
BIKE = Base(shape="oval", length_mm=60, width_mm=35)
HULL = Base.hull_of(120, 80)
BIKES = [Footprint((10 + 2.6 * i, 6 + (i % 2) * 1.5), BIKE, facing=15 * i) for i in range(10)]
APC = Footprint((30, 8), HULL, facing=30)
SCREEN = [Footprint((36 + 0.6 * i, 30)) for i in range(10)]


def test_bench_s1_3_footprint_distance_oval_to_hull(benchmark: Any) -> None:
    d = benchmark(footprint_distance, BIKES[3], APC)
    assert d > 0


def test_bench_s1_3_footprints_overlap_oval_pair(benchmark: Any) -> None:
    assert not benchmark(footprints_overlap, BIKES[0], BIKES[1])


def test_bench_s4_2_iii_coherency_of_10_bikes(benchmark: Any) -> None:
    groups = benchmark(footprint_coherency_groups, BIKES)
    assert sum(len(g) for g in groups) == 10


def test_bench_l2360_sight_from_the_tower_roof_over_10_models(benchmark: Any) -> None:
    roof = Footprint((27, 24), z=8)
    target = Footprint((40, 44))
    seen = benchmark(sight_from_above, HIVE, roof, target, SCREEN, ["Hab tower", "Hab tower roof"])
    assert isinstance(seen, bool)


# -- the game's questions with heights (sight.py elevated_*): 10 models on the gantry (3" up)
# against 10 models past the statue, 10 models of a third unit between them; cold (the
# board's result cache is emptied before each round)

_GANTRY = Bases(np.array([[5.0 + 0.7 * i, 13.0 + (i % 2)] for i in range(10)]), np.full(10, 0.5))
_FAR = Bases(np.array([[40.0 + 1.2 * i, 16.0 + (i % 2)] for i in range(10)]), np.full(10, 0.5))
_MID = Bases(np.array([[25.0 + 1.1 * i, 15.0] for i in range(10)]), np.full(10, 0.5))
_Z = {"attacker_z": np.full(10, 3.0), "target_z": np.zeros(10), "blocker_z": np.zeros(10)}


def _cold() -> None:
    HIVE.geometry().cache.clear()


def test_bench_l2360_elevated_sight_matrix_10_by_10(benchmark: Any) -> None:
    m = benchmark.pedantic(
        elevated_sight_matrix, (HIVE, _GANTRY, _FAR, _MID), _Z, setup=_cold, rounds=20
    )
    assert m.shape == (10, 10)


def test_bench_s5_6_elevated_cover_report_10_by_10(benchmark: Any) -> None:
    rep = benchmark.pedantic(
        elevated_cover_report, (HIVE, _GANTRY, _FAR, _MID), _Z, setup=_cold, rounds=20
    )
    assert rep.models == 10
