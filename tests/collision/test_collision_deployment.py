"""Deployment zones (003_fc239e71486306e1.txt L619-674)."""

from __future__ import annotations

import pytest

from warbench.kernel.errors import RulesError
from warbench.rulesets.collision.deployment import (
    center_zones,
    deploys_first,
    diagonal_zones,
    side_zones,
    zones,
)
from warbench.rulesets.collision.objectives import Deployment


def test_003_L632_L643_short_side_leaves_the_centre_2_rows_empty() -> None:
    z = side_zones(12, 10, short=True)
    assert {x for x, _ in z["left"]} == set(range(5))
    assert {x for x, _ in z["right"]} == set(range(7, 12))
    assert len(z["left"]) == len(z["right"]) == 50


def test_003_L645_L651_long_side_uses_the_long_edges() -> None:
    z = side_zones(12, 10, short=False)
    assert {y for _, y in z["bottom"]} == set(range(4))
    assert {y for _, y in z["top"]} == set(range(6, 10))
    # a 6 x 8 board (L379) has its short edges at the bottom and top
    small = side_zones(6, 8, short=True)
    assert set(small) == {"bottom", "top"}
    assert {y for _, y in small["top"]} == {5, 6, 7}


def test_003_L653_L662_center_deployment_and_the_defender_deploys_first() -> None:
    z = center_zones(12, 10)
    assert len(z["defender"]) == 8 * 6
    assert len(z["attacker"]) == 12 * 10 - 48
    assert (0, 0) in z["attacker"] and (1, 5) in z["attacker"] and (2, 2) in z["defender"]
    assert deploys_first(Deployment.CENTER) == "defender"
    assert deploys_first(Deployment.DIAGONAL) == "attacker"


def test_003_L664_L674_diagonal_excludes_crossed_tiles_and_is_symmetric() -> None:
    for cols, rows in ((6, 8), (12, 10), (18, 10), (24, 12)):
        z = diagonal_zones(cols, rows)
        assert not z["above"] & z["below"]
        assert len(z["above"]) == len(z["below"])
        crossed = cols * rows - len(z["above"]) - len(z["below"])
        assert crossed >= max(cols, rows)
    square = diagonal_zones(8, 8)
    assert (0, 0) not in square["above"] | square["below"]  # on the diagonal
    assert (0, 7) in square["above"] and (7, 0) in square["below"]
    falling = diagonal_zones(8, 8, rising=False)
    assert (0, 0) in falling["below"] and (7, 7) in falling["above"]


def test_zones_dispatch_and_refuse_tiny_boards() -> None:
    assert zones(Deployment.LONG_SIDE, 12, 10) == side_zones(12, 10, short=False)
    with pytest.raises(RulesError, match="too small"):
        zones(Deployment.CENTER, 3, 8)
