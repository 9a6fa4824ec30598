"""ws-points-5: round 8's constants, mobility weighed by the fit (docs/points.md §9, "Round
8", issue 15).

The fit of round 7's games with the mobility slope free (``fit_targets(..., slopes=...)``) and
the elasticity measured at 1.1x put the slope at 0: a model's speed is priced through reach
(when its weapons first attack and its Melee begins, docs/points.md §8) and no longer
multiplies the whole model as well. Core Rules 001_d3f5e425c5e1196d.txt §3.5 (L1585-1597)
gives Move and Dash only as ranges; L526: more powerful Units cost more, so a faster profile
still never costs less.
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

#: ws-points-4's archetype prices when ws-points-5 was added (session 35): it moves none.
WS_POINTS_4 = {
    "Rabble": 7.761331,
    "Troopers": 14.972317,
    "Paladins": 155.912619,
    "Berserkers": 18.231395,
    "Longshots": 23.482996,
    "Outriders": 48.95266,
    "Behemoth": 526.756907,
    "Rhino APC": 222.144016,
    "Breachers": 13.964838,
}


def _price(template: dict[str, Any], version: str, **unit: Any) -> float:
    changed = {**template, "unit": {**template["unit"], **unit}}
    return float(sum(points_model(version).cost_unit(_unit_of(changed, 5)).model_points))


def test_ws_points_5_is_registered_and_recorded_and_1_stays_the_default() -> None:
    assert DEFAULT_POINTS_MODEL == "ws-points-1"
    assert "ws-points-5" in POINTS_MODELS and model_data("ws-points-5").version == "ws-points-5"
    roster = load_roster(EXAMPLES / "roster_files" / "strike_force.yaml")
    stamped, report = price_roster(roster, "ws-points-5")
    assert stamped.points_model == "ws-points-5" == report.points_model
    assert coster_for(stamped).version == "ws-points-5"


def test_ws_points_4_prices_never_change() -> None:
    now = {
        t["unit"]["name"]: round(model_price(t, "ws-points-4"), 6)
        for parts in ARCHETYPES.values()
        for t, _, _ in parts
    }
    assert now == WS_POINTS_4


def test_the_line_keeps_its_price_and_the_outriders_fall() -> None:
    """The fit held the line troopers' price (a 6"/6" model's mobility stays 1.0) and moved
    the Outriders (12"/8") 18.5% down, as docs/points.md §9's round 8 table says."""
    c = model_data("ws-points-5").constants
    assert (c.mobility_base, c.mobility_slope) == (1.0, 0.0)
    troopers, outriders = ARCHETYPES["line"][0][0], ARCHETYPES["fast"][0][0]
    assert model_price(troopers, "ws-points-5") == pytest.approx(WS_POINTS_4["Troopers"], 1e-3)
    ratio = model_price(outriders, "ws-points-5") / WS_POINTS_4["Outriders"]
    assert round(ratio, 3) == 0.815


def test_speed_is_priced_by_reach_alone_and_never_lowers_a_price() -> None:
    """With slope 0, Move raises a price only through reach: Longshots with a 36" rifle (in
    Range from the start at a 30" gap, so only their rifles' Melee part arrives sooner) cost
    1-2% more at Move 12 than at Move 6; under ws-points-4 the mobility multiplier alone
    made them 1.2 times dearer (eff 14.5 against 8.5). A Melee weapon's wielder still pays
    for arriving sooner, and more Move never costs less."""
    longshot = ARCHETYPES["gunline"][0][0]
    slow, quick = (_price(longshot, "ws-points-5", move=m, dash=5) for m in (6, 12))
    assert 1.0 < quick / slow < 1.02
    old_slow, old_quick = (_price(longshot, "ws-points-4", move=m, dash=5) for m in (6, 12))
    assert old_quick / old_slow > (0.7 + 0.3 * 14.5 / 9) / (0.7 + 0.3 * 8.5 / 9) > 1.19
    berserker = ARCHETYPES["melee"][0][0]
    prices = [_price(berserker, "ws-points-5", move=m) for m in range(0, 25, 3)]
    assert prices == sorted(prices) and prices[-1] > prices[0]
