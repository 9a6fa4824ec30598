"""Deployment Zones (Core Rules 001_d3f5e425c5e1196d.txt §3.6): the NumPy answer for
rectangular zones (issue 10, speed) is the battlefield's answer, point for point."""

from __future__ import annotations

import numpy as np
import pytest

from warbench.rulesets.warsurge.battlefield import sample_board, sample_boards
from warbench.rulesets.warsurge.game.geom import Field


@pytest.mark.parametrize("name", sample_boards())
def test_s3_6_zone_holds_equals_the_battlefields_in_zone(name: str) -> None:
    field = Field(sample_board(name))
    rng = np.random.default_rng(7)
    for zone in range(len(field.zones)):
        x0, y0, x1, y1 = field.zone_bounds(zone)
        scattered = np.column_stack(
            [rng.uniform(x0 - 2, x1 + 2, 20_000), rng.uniform(y0 - 2, y1 + 2, 20_000)]
        )
        # bases whose edge touches the zone's edge exactly, and centres on it
        grid = np.asarray(
            [
                (x0 + a * 0.125, y0 + b * 0.125)
                for a in range(-16, int((x1 - x0) * 8) + 17, 5)
                for b in range(-16, int((y1 - y0) * 8) + 17, 5)
            ]
        )
        for r in (0.25, 0.5, 0.625, 1.0):
            for pts in (scattered, grid):
                fast = field.zone_holds(zone, pts, r)
                exact = field.g.in_zone(zone, pts, r)
                assert (fast == exact).all()
                assert fast.any() and not fast.all()


def test_s3_6_only_rectangles_take_the_numpy_path() -> None:
    assert Field(sample_board("ruins_48x48"))._zone_box == [True, True]
    assert Field(sample_board("city_72x48"))._zone_box == [False, False]
