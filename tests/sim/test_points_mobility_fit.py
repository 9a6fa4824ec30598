"""Round 8's fit: mobility weighed by the fit (docs/points.md §9, "Round 8", issue 15).

A model's whole price is multiplied by its mobility, ``mobility_base + mobility_slope × eff /
9`` with eff = Move + Dash / 2 (docs/points.md §1; Core Rules 001_d3f5e425c5e1196d.txt §3.5
L1583-1595 gives the Move of a human on foot, 3-9", and of bikes and vehicles, 6-18"). The fit
(``fit_targets(..., slopes=...)``) tries mobility slopes with the 6"/6" model's mobility held,
so a fast army's price can move apart from the line's.
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import Any

import pytest

from warbench.rulesets.warsurge.points_models import model_data
from warbench.sim import points_study
from warbench.sim.points_study import (
    MOBILITY_SLOPES,
    Matchup,
    Round,
    composition,
    constants_for,
    fit_targets,
    with_elasticity,
)
from warbench.sim.stats import WinRate

NAMES = ("line", "fast", "transport", "melee", "gunline")
SHAPE: dict[str, Any] = {"exponents": (0.95,), "gaps": (24.0,), "turns": (4.0,)}


def _targets(**constants: Any) -> dict[str, float]:
    """How far each archetype's ws-points-4 price moves under ``constants`` (log)."""
    moved = {n: composition(n, "ws-points-4", **constants)["total"] for n in NAMES}
    base = {n: composition(n, "ws-points-4")["total"] for n in NAMES}
    return {n: math.log(moved[n] / base[n]) for n in NAMES}


def test_the_fit_recovers_a_known_mobility_slope() -> None:
    """Priced with a mobility slope of 0.1 (the 6"/6" line's mobility kept at 1.0), the
    Outriders (12"/8", eff 16) and the Rhino (10"/10", eff 15) get cheaper against the line;
    the fit, told only how far each price moved, finds the slope, and every part exactly
    (the parts at a slope are linear in the base and slope: no approximation)."""
    target = _targets(mobility_base=0.9, mobility_slope=0.1)
    assert target["fast"] < target["line"] - 0.1  # the idea: only mobility moved it
    found = fit_targets(target, "ws-points-4", slopes=(0.0, 0.1, 0.3), prior=0, **SHAPE)
    assert found["mobility_slope"] == 0.1
    assert found["error"] < 1e-12
    assert all(found[p] == pytest.approx(1.0) for p in ("body", "ranged", "range", "melee"))
    again = constants_for(found, "ws-points-4")
    assert (again["mobility_base"], again["mobility_slope"]) == (0.9, 0.1)


def test_without_the_slopes_the_fit_cannot_move_the_fast_army() -> None:
    """The fit of round 7 (no mobility term) cannot meet the same targets: the Outriders'
    price splits into body, weapons and melee much as the line's does."""
    target = _targets(mobility_base=0.9, mobility_slope=0.1)
    found = fit_targets(target, "ws-points-4", prior=0, **SHAPE)
    assert "mobility_slope" not in found
    assert found["error"] > 1e-3


def test_the_slope_prior_pulls_towards_the_versions_slope() -> None:
    """The prior on the slope is the squared log of what it does to a 12"/12" model (eff 18:
    mobility 1 + slope with the line at 1), so prices that did not move keep the slope."""
    found = fit_targets({n: 0.0 for n in NAMES}, "ws-points-4", slopes=(0.0, 0.3, 0.5), **SHAPE)
    assert found["mobility_slope"] == model_data("ws-points-4").constants.mobility_slope


def test_the_fit_finds_a_slope_from_a_version_without_one() -> None:
    """Round 9 (docs/points.md §9): ``ws-points-5``'s slope is 0, so the parts at a slope
    cannot come from the version's own; they are priced directly (base 1, slope 1) and the
    fit still finds a known slope exactly, the 6"/6" line's mobility kept at 1."""
    assert model_data("ws-points-5").constants.mobility_slope == 0
    moved = {
        n: composition(n, "ws-points-5", mobility_base=0.8, mobility_slope=0.2)["total"]
        for n in NAMES
    }
    base = {n: composition(n, "ws-points-5")["total"] for n in NAMES}
    target = {n: math.log(moved[n] / base[n]) for n in NAMES}
    assert target["fast"] > target["line"] + 0.05  # dearer: Move now multiplies the price
    shape: dict[str, Any] = {"exponents": (1.0,), "gaps": (30.0,), "turns": (4.0,)}
    found = fit_targets(target, "ws-points-5", slopes=(0.0, 0.2, 0.3), prior=0, **shape)
    assert found["mobility_slope"] == 0.2
    assert found["error"] < 1e-12
    assert all(found[p] == pytest.approx(1.0) for p in ("body", "ranged", "range", "melee"))
    again = constants_for(found, "ws-points-5")
    assert (again["mobility_base"], again["mobility_slope"]) == (0.8, 0.2)


def test_negative_slopes_are_refused() -> None:
    """A faster profile never costs less (docs/points.md §1): no negative slope."""
    with pytest.raises(ValueError, match="slopes of 0 or more"):
        fit_targets({n: 0.0 for n in NAMES}, "ws-points-4", slopes=(-0.1, 0.3), **SHAPE)


def _round(handicap: float, record: tuple[int, int, int] | None, points: int = 1100) -> Round:
    rnd = Round("ws-points-4", "tactical", 12, handicap=handicap, points=points)
    rnd.matchups = [Matchup("line", "fast", WinRate(10, 0, 2))]
    rnd.raw = {"line": 1100.0, "fast": 1123.0}
    rnd.handicap_rate = None if record is None else WinRate(*record)
    return rnd


def test_with_elasticity_takes_the_other_rounds_run() -> None:
    """``--elasticity FILE``: the round's elasticity run replaced by a smaller handicap's."""
    rnd = _round(0.25, (12, 0, 0))
    small = _round(0.1, (9, 0, 3))
    small.matchups = []
    both = with_elasticity(rnd, small)
    assert (both.handicap, both.handicap_rate) == (0.1, WinRate(9, 0, 3))
    assert both.matchups == rnd.matchups and rnd.handicap == 0.25  # a copy
    assert both.elasticity() == pytest.approx(math.log(3) / math.log(1.1))
    assert rnd.elasticity() == pytest.approx(math.log(0.97 / 0.03) / math.log(1.25))


def test_with_elasticity_refuses_other_armies_or_no_run() -> None:
    rnd = _round(0.25, (12, 0, 0))
    with pytest.raises(ValueError, match="other armies"):
        with_elasticity(rnd, _round(0.1, (9, 0, 3), points=400))
    with pytest.raises(ValueError, match="no elasticity run"):
        with_elasticity(rnd, _round(0.1, None))


def test_with_elasticity_takes_another_versions_run_of_the_same_armies() -> None:
    """Round 9 (docs/points.md §9): ``ws-points-5`` holds the line's price, so round 8's
    elasticity run under ``ws-points-4`` (the line at 1,210 points against the line at 1,100)
    is the run ``ws-points-5`` would play, game for game; a version whose line is another
    army at either size (``ws-points-1``: other Troopers at 1,100) is refused."""
    rnd = _round(0.25, None)
    rnd.version = "ws-points-5"
    small = _round(0.1, (17, 0, 7))
    small.matchups, small.raw = [], {"line": 1.0}  # another version's armies: its own raw
    both = with_elasticity(rnd, small)
    assert (both.version, both.handicap, both.handicap_rate) == (
        "ws-points-5",
        0.1,
        small.handicap_rate,
    )
    assert round(both.elasticity(), 2) == 9.31
    old = dataclasses.replace(small, version="ws-points-1")
    with pytest.raises(ValueError, match="line at 1100 points is another army"):
        with_elasticity(rnd, old)
    with pytest.raises(ValueError, match="other armies"):  # the same version: raw must agree
        with_elasticity(dataclasses.replace(rnd, version="ws-points-4"), small)


def test_mobility_and_elasticity_options_reach_the_fit(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``--from FILE --fit --mobility --elasticity OTHER``: the fit gets the slopes and the
    other round's elasticity run, and the constants it writes carry the fitted slope."""
    seen: dict[str, Any] = {}

    def fake_fit(rnd: Round, **kw: Any) -> dict[str, float]:
        seen.update(kw, k=rnd.elasticity())
        return {"body": 1.0, "ranged": 1.0, "range": 1.0, "melee": 1.0, "mobility_slope": 0.1}

    monkeypatch.setattr(points_study, "fit", fake_fit)
    saved, other, out = tmp_path / "round.json", tmp_path / "k.json", tmp_path / "fit.json"
    saved.write_text(json.dumps(_round(0.25, (12, 0, 0)).to_json()))
    small = _round(0.1, (9, 0, 3))
    small.matchups = []
    other.write_text(json.dumps(small.to_json()))
    args = ["--from", str(saved), "--fit", "--mobility", "--elasticity", str(other)]
    points_study.main([*args, "--out", str(out)])
    assert seen["slopes"] == MOBILITY_SLOPES
    assert seen["k"] == pytest.approx(math.log(3) / math.log(1.1))
    constants = json.loads(out.read_text())["fit"]["constants"]
    assert (constants["mobility_base"], constants["mobility_slope"]) == (0.9, 0.1)
