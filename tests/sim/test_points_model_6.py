"""ws-points-6: round 9's refit, checked by round 10 (docs/points.md §9, "Round 9" and
"Round 10", issue 15).

The refit of round 9's whole round under ws-points-5 (28 matchups at 1,100 points) with round
8's elasticity proposed a dearer body and Range-growing weapons, a dearer Melee, a cheaper flat
offence and reach over 2 turns in place of 4; round 10 played it on the gunline's and the
melee's 13 matchups (the ones it moves most) on round 9's seeds and found them nearer 50%.
Core Rules 001_d3f5e425c5e1196d.txt §3.5 (L1585-1597) gives the profiles only as ranges; L526:
more powerful Units cost more, so a faster profile still never costs less.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from warbench.rulesets.warsurge.points_models import (
    DEFAULT_POINTS_MODEL,
    POINTS_MODELS,
    coster_for,
    model_data,
    points_model,
    price_roster,
)
from warbench.rulesets.warsurge.roster_io import load_roster
from warbench.sim.points_study import ARCHETYPES, _unit_of, model_price

EXAMPLES = Path(__file__).parents[2] / "examples" / "warsurge"

#: ws-points-5's archetype prices when ws-points-6 was added (session 36): it moves none.
WS_POINTS_5 = {
    "Rabble": 7.594709,
    "Troopers": 14.972589,
    "Paladins": 169.953994,
    "Berserkers": 14.937779,
    "Longshots": 25.95043,
    "Outriders": 39.893354,
    "Behemoth": 682.411377,
    "Rhino APC": 234.717685,
    "Breachers": 12.874673,
}

#: The constants round 9's refit proposed (docs/points.md §9, "Round 9", rounded).
PROPOSED = {
    "body_points": 3.323,
    "body_exponent": 1.0,
    "offence_factor": 0.407,
    "melee_weight": 3.086,
    "range_slope": 10.266,
    "reach_gap": 30.0,
    "reach_turns": 2.0,
    "mobility_base": 1.0,
    "mobility_slope": 0.0,
}


def _price(template: dict[str, Any], version: str, **unit: Any) -> float:
    changed = {**template, "unit": {**template["unit"], **unit}}
    return float(sum(points_model(version).cost_unit(_unit_of(changed, 5)).model_points))


def test_ws_points_6_is_registered_and_recorded_and_1_stays_the_default() -> None:
    assert DEFAULT_POINTS_MODEL == "ws-points-1"
    assert "ws-points-6" in POINTS_MODELS and model_data("ws-points-6").version == "ws-points-6"
    roster = load_roster(EXAMPLES / "roster_files" / "strike_force.yaml")
    stamped, report = price_roster(roster, "ws-points-6")
    assert stamped.points_model == "ws-points-6" == report.points_model
    assert coster_for(stamped).version == "ws-points-6"


def test_ws_points_5_prices_never_change() -> None:
    now = {
        t["unit"]["name"]: round(model_price(t, "ws-points-5"), 6)
        for parts in ARCHETYPES.values()
        for t, _, _ in parts
    }
    assert now == WS_POINTS_5


def test_the_constants_are_the_refits_and_move_the_armies_as_it_fitted() -> None:
    """Only the proposed constants differ from ws-points-5 (pools and the rest unchanged), and
    the archetypes' prices move by the fit's ratios (its table in docs/points.md §9): the
    line held, the gunline +19.6%, the Berserkers -16.3%, the Outriders +4.9%, the Behemoth
    +3.2%."""
    five, six = model_data("ws-points-5"), model_data("ws-points-6")
    c5, c6 = five.constants.model_dump(), six.constants.model_dump()
    assert {k: v for k, v in c6.items() if c5[k] != v} == {
        k: v for k, v in PROPOSED.items() if c5[k] != v
    }
    assert all(c6[k] == v for k, v in PROPOSED.items())
    assert (six.target_pool, six.weapon_pool) == (five.target_pool, five.weapon_pool)
    for army, ratio in [
        ("line", 1.0),
        ("gunline", 1.196),
        ("melee", 0.837),
        ("fast", 1.049),
        ("big", 1.032),
    ]:
        template = ARCHETYPES[army][0][0]
        moved = model_price(template, "ws-points-6") / WS_POINTS_5[template["unit"]["name"]]
        assert moved == pytest.approx(ratio, abs=2e-3), army


def test_more_move_never_costs_less() -> None:
    """Reach over 2 turns prices speed more steeply than over 4, and still never downwards."""
    berserker = ARCHETYPES["melee"][0][0]
    prices = [_price(berserker, "ws-points-6", move=m) for m in range(0, 25, 3)]
    assert prices == sorted(prices) and prices[-1] > prices[0]
    five = [_price(berserker, "ws-points-5", move=m) for m in range(0, 25, 3)]
    assert prices[-1] / prices[0] > five[-1] / five[0]
