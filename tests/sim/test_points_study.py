"""ws-points-2 and the calibration study (issue 15, docs/points.md §"ws-points-2")."""

from __future__ import annotations

from pathlib import Path

import pytest

from warbench.kernel.errors import UnknownNameError
from warbench.rulesets.warsurge.points import cost_unit
from warbench.rulesets.warsurge.points_models import (
    DEFAULT_POINTS_MODEL,
    POINTS_MODELS,
    coster_for,
    model_data,
    points_model,
    price_roster,
)
from warbench.rulesets.warsurge.roster_io import load_roster
from warbench.sim.points_study import (
    ARCHETYPES,
    POINTS,
    Matchup,
    Round,
    build_roster,
    composition,
    raw_price,
)
from warbench.sim.stats import WinRate

EXAMPLES = Path(__file__).parents[2] / "examples" / "warsurge"


def test_both_versions_are_selectable_and_ws_points_1_stays_the_default() -> None:
    assert DEFAULT_POINTS_MODEL == "ws-points-1"
    assert set(POINTS_MODELS) >= {"ws-points-1", "ws-points-2"}
    for version in POINTS_MODELS:
        assert model_data(version).version == version
    with pytest.raises(UnknownNameError, match=r"'ws-points-9'; did you mean 'ws-points-\d'"):
        model_data("ws-points-9")


def test_ws_points_1_prices_are_unchanged() -> None:
    roster = load_roster(EXAMPLES / "roster_files" / "strike_force.yaml")
    for entry in roster.units:
        assert points_model("ws-points-1").cost_unit(entry.unit) == cost_unit(entry.unit)


def test_a_roster_records_the_version_it_was_priced_with() -> None:
    roster = load_roster(EXAMPLES / "roster_files" / "strike_force.yaml")
    for version in ("ws-points-1", "ws-points-2"):
        stamped, report = price_roster(roster, version)
        assert stamped.points_model == version == report.points_model
        assert coster_for(stamped).version == version


def test_ws_points_2_reprices_units() -> None:
    """The recalibrated constants change prices (docs/points.md lists them)."""
    roster = load_roster(EXAMPLES / "roster_files" / "strike_force.yaml")
    one = [points_model("ws-points-1").cost_unit(e.unit).total for e in roster.units]
    two = [points_model("ws-points-2").cost_unit(e.unit).total for e in roster.units]
    assert one != two


@pytest.mark.parametrize("name", list(ARCHETYPES))
def test_every_archetype_holds_exactly_the_points(name: str) -> None:
    roster = build_roster(name, "ws-points-1")
    units = roster["units"]  # type: ignore[index]
    assert sum(u["points"] for u in units) == POINTS
    assert 0.85 < raw_price(name, "ws-points-1") / POINTS < 1.15


def test_the_price_splits_into_body_weapons_and_transport() -> None:
    """The model is linear in each constant, so the four parts add up to the price; a
    melee-only army has no ranged part, a Transport army has a transport part."""
    melee = composition("melee", "ws-points-1")
    assert melee["ranged"] == pytest.approx(0.0, abs=1e-6) and melee["melee"] > 0
    ride = composition("transport", "ws-points-1")
    assert ride["transport"] > 0
    for c in (melee, ride):
        parts = c["body"] + c["ranged"] + c["range"] + c["melee"] + c["transport"]
        assert parts == pytest.approx(c["total"])


def test_ratings_and_elasticity_follow_the_results() -> None:
    rnd = Round("ws-points-1", "tactical", 10)
    rnd.matchups = [
        Matchup("a", "b", WinRate(9, 0, 1)),
        Matchup("a", "c", WinRate(8, 0, 2)),
        Matchup("b", "c", WinRate(5, 0, 5)),
    ]
    beta = rnd.ratings()
    assert beta["a"] > beta["b"] and beta["a"] > beta["c"]
    assert sum(beta.values()) == pytest.approx(0.0, abs=1e-9)
    rnd.handicap_rate = WinRate(7, 0, 3)
    assert rnd.elasticity() == pytest.approx(0.8473 / 0.2231, rel=1e-3)


def test_a_round_reads_back_what_it_wrote() -> None:
    rnd = Round("ws-points-1", "tactical", 4)
    rnd.matchups = [Matchup("a", "b", WinRate(3, 0, 1), 1)]
    rnd.handicap_rate = WinRate(3, 1, 0)
    rnd.raw = {"a": 410.0, "b": 395.5}
    again = Round.from_json(rnd.to_json())
    assert again.to_json() == rnd.to_json()
