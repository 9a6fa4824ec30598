"""Round 13's durability mean (docs/points.md §9, "Round 13", issue 15).

A body's reference attacks to remove were ``HP / the pool's mean loss per die``: the weighted
harmonic mean of the attacks each pool weapon needs, which the weapons that hurt the body
most decide. ``durability_power`` makes it the weighted power mean with that exponent: -1 (the
default, every version before the round) is the harmonic mean and keeps every price; nearer 0
it counts more of the weapons that barely scratch the body, which lifts a Behemoth (Defence 8,
18 HP, Armour 3+: 194 to 778 attacks for the Knife, Rifle and Sword, 32 for the Lascannon) far
more than a Trooper, whom every weapon of the pool hurts alike.
"""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from warbench.rulesets.warsurge.points import Constants, PointsModel
from warbench.rulesets.warsurge.points_models import model_data
from warbench.rulesets.warsurge.profiles import UnitProfile
from warbench.sim.points_study import ARCHETYPES, _unit_of, model_price

#: ws-points-6's archetype prices before round 13 (session 38): the default mean keeps them.
WS_POINTS_6 = {
    "Rabble": 7.446101,
    "Troopers": 14.960883,
    "Paladins": 182.289096,
    "Berserkers": 12.49451,
    "Longshots": 31.011044,
    "Outriders": 41.814071,
    "Behemoth": 704.001729,
    "Rhino APC": 254.687065,
    "Breachers": 11.51924,
}


def _model(**constants: Any) -> PointsModel:
    data = model_data("ws-points-6")
    return PointsModel(
        data.model_copy(update={"constants": data.constants.model_copy(update=constants)})
    )


def _price(model: PointsModel, army: str, part: int = 0) -> float:
    template = ARCHETYPES[army][part][0]
    return float(sum(model.cost_unit(_unit_of(template, 10)).model_points)) / 10


def _body(army: str) -> UnitProfile:
    return _unit_of(ARCHETYPES[army][0][0], 1).profile  # type: ignore[no-any-return]


def test_the_default_is_the_harmonic_mean_and_keeps_every_price() -> None:
    assert model_data("ws-points-6").constants.durability_power == -1.0
    now = {
        t["unit"]["name"]: round(model_price(t, "ws-points-6"), 6)
        for parts in ARCHETYPES.values()
        for t, _, _ in parts
    }
    assert now == WS_POINTS_6
    near = _model(durability_power=-1.0 + 1e-9)  # the power-mean path, at -1 within 1e-9
    for army in ("line", "big", "elite"):
        old = model_data("ws-points-6")
        assert near.durability(_body(army)).attacks == pytest.approx(
            PointsModel(old).durability(_body(army)).attacks, rel=1e-6
        )


def test_a_body_every_weapon_hurts_alike_keeps_its_durability() -> None:
    """The Rabble (Defence 2, no save): the pool's weapons need 1.0-1.5 attacks each, so the
    mean barely matters; the Behemoth's spread from 32 to 778, so it matters most."""
    harmonic, half = _model(), _model(durability_power=-0.5)
    ratio = {
        army: half.durability(_body(army)).attacks / harmonic.durability(_body(army)).attacks
        for army in ("horde", "line", "elite", "big")
    }
    assert ratio["horde"] == pytest.approx(1.0, abs=0.01)
    assert 1.0 < ratio["line"] < ratio["elite"] < ratio["big"]
    assert ratio["big"] == pytest.approx(278.46 / 187.12, rel=1e-3)  # round 13's table


def test_nearer_zero_the_behemoth_gains_most_against_the_trooper() -> None:
    """Round 13's probe (-0.5, body points rescaled so the Trooper keeps its price): the
    Behemoth +30.5%, the Rhino +22.8%, the Paladins +7.8%, the Rabble -4.9%."""
    probe = _model(durability_power=-0.5, body_points=2.989)
    for army, part, moved in [
        ("line", 0, 1.0),
        ("big", 0, 1.305),
        ("transport", 0, 1.228),
        ("elite", 0, 1.078),
        ("horde", 0, 0.951),
    ]:
        name = ARCHETYPES[army][part][0]["unit"]["name"]
        assert _price(probe, army, part) / WS_POINTS_6[name] == pytest.approx(moved, abs=2e-3)
    steps = [_price(_model(durability_power=p), "big") for p in (-2.0, -1.0, -0.5, -0.25)]
    assert steps == sorted(steps)


@pytest.mark.parametrize("bad", [0.0, 0.5, -5.0])
def test_a_power_outside_its_range_is_refused_naming_it(bad: float) -> None:
    data = model_data("ws-points-6").constants.model_dump()
    with pytest.raises(ValidationError, match="durability_power"):
        Constants.model_validate({**data, "durability_power": bad})
