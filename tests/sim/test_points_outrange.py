"""Round 12's price of Range against armies that must cross the table (docs/points.md §9,
"Round 12", issue 15).

Reach (§8) counts the Attack Phases a weapon attacks in; out-ranging (``reach_outrange``)
adds the ones it attacks *unanswered*: the Range beyond the reference enemy's
(``reach_enemy_range``, 18": the line's and the horde's rifles), up to the armies' gap, is
ground the enemy walks under fire at ``reach_enemy_move`` a Game Turn (Core Rules
001_d3f5e425c5e1196d.txt L2227 and L2338: weapons out of Range cannot be used). Its weight is
0 in every version before round 12, so their prices never change. The fit can take its
targets from the handicap sweep's even points (``pair_targets``) as well as the records.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from warbench.rulesets.warsurge.points import PointsModel
from warbench.rulesets.warsurge.points_models import POINTS_MODELS, model_data
from warbench.rulesets.warsurge.profiles import WeaponProfile
from warbench.sim.points_study import (
    ARCHETYPES,
    OUTRANGES,
    Matchup,
    Round,
    _unit_of,
    composition,
    constants_for,
    crossing,
    fit_targets,
    main,
    model_price,
    pair_targets,
)
from warbench.sim.stats import WinRate

#: ws-points-6's archetype prices before round 12 (session 37): out-ranging moves none.
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


def _model(version: str = "ws-points-6", **constants: Any) -> PointsModel:
    data = model_data(version)
    return PointsModel(
        data.model_copy(update={"constants": data.constants.model_copy(update=constants)})
    )


def _price(model: PointsModel, army: str) -> float:
    template = ARCHETYPES[army][0][0]
    return float(sum(model.cost_unit(_unit_of(template, 10)).model_points)) / 10


def test_every_version_before_round_12_has_no_outranging_and_keeps_its_prices() -> None:
    for version in POINTS_MODELS:
        assert model_data(version).constants.reach_outrange == 0.0, version
    now = {
        t["unit"]["name"]: round(model_price(t, "ws-points-6"), 6)
        for parts in ARCHETYPES.values()
        for t, _, _ in parts
    }
    assert now == WS_POINTS_6


@pytest.mark.parametrize(
    ("weapon_range", "share"), [(0, 0.0), (12, 0.0), (18, 0.0), (24, 0.5), (30, 1.0), (48, 1.0)]
)
def test_outranging_is_the_range_beyond_the_enemys_walked_in_the_games_turns(
    weapon_range: int, share: float
) -> None:
    """ws-points-6's shape: the gap 30", the enemy's 18" Range and 6" a turn over 2 turns, so
    24" is 6" ahead (one turn of two) and 30" or more the whole 12" (capped at the gap)."""
    model = _model(reach_outrange=1.0)
    gun = WeaponProfile(name="Gun", range=weapon_range, attacks=1, power=5, type="Assault")
    assert model.outranging(gun) == share
    assert _model(reach_outrange=1.0, reach_gap=0.0).outranging(gun) == 0.0  # no reach


def test_outranging_raises_the_long_ranged_armies_and_leaves_the_short_ones() -> None:
    """The Longshots' Long Rifle (36") gains the whole share, the Paladins' Plasma Gun (24")
    half of it, the Troopers' Laser Rifle and the horde's Autogun (18") nothing, nor the
    Berserkers' Chainsword; the bigger the weight, the dearer."""
    plain, half, whole = (_model(reach_outrange=w) for w in (0.0, 0.5, 1.0))
    for army in ("line", "horde", "melee"):
        assert _price(half, army) == pytest.approx(_price(plain, army), abs=1e-9), army
    gun = [_price(m, "gunline") for m in (plain, half, whole)]
    elite = [_price(m, "elite") for m in (plain, half, whole)]
    assert gun[0] < gun[1] < gun[2] and elite[0] < elite[1] < elite[2]
    assert gun[1] / gun[0] > elite[1] / elite[0] > 1.0


def _round(version: str, records: dict[tuple[str, str], tuple[int, int, int]], **kw: Any) -> Round:
    rnd = Round(version, "tactical", 12, handicap=0.1, points=1000, **kw)
    rnd.matchups = [Matchup(a, b, WinRate(*rec)) for (a, b), rec in records.items()]
    rnd.handicap_rate = WinRate(19, 0, 5)  # k = logit(19/24) / log(1.1) ≈ 14.0
    rnd.raw = {"a": 1000.0, "b": 1000.0, "c": 1000.0}
    return rnd


def test_pair_targets_follow_the_records_and_put_a_sweeps_even_point_in_its_place() -> None:
    """Each matchup asks ``t_a − t_b = logit / k``; a swept one asks ``−log(even)``: here a
    loses 0-12 to b at equal points and is even with 1.5× b's points, so a's price should
    fall by 1.5 against b's, far more than its 0-12 alone says (logit(0.5 / 13) / 14)."""
    records = {("a", "b"): (0, 0, 12), ("a", "c"): (6, 0, 6), ("b", "c"): (6, 0, 6)}
    rnd = _round("v", records)
    k = rnd.elasticity()
    plain = pair_targets(rnd, [])
    assert sum(plain.values()) == pytest.approx(0.0, abs=1e-12)
    rows = [(1, -1, 0), (1, 0, -1), (0, 1, -1), (1, 1, 1)]  # the normal equations, by hand
    want = [math.log(0.5 / 12.5) / k, 0.0, 0.0, 0.0]
    ata = [[sum(r[i] * r[j] for r in rows) for j in range(3)] for i in range(3)]
    atb = [sum(r[i] * w for r, w in zip(rows, want, strict=True)) for i in range(3)]
    t = [plain[n] for n in ("a", "b", "c")]
    for i in range(3):
        assert sum(ata[i][j] * t[j] for j in range(3)) == pytest.approx(atb[i], abs=1e-12)
    scaled = _round("v", {("a", "b"): (6, 0, 6)}, scale={"a": 1.5})
    assert crossing([rnd, scaled], "a", "b").even == pytest.approx(1.5, rel=0.05)
    swept = pair_targets(rnd, [scaled])
    even = crossing([rnd, scaled], "a", "b").even
    assert even is not None
    # the other two matchups still ask 0, so a − b carries two thirds of −log(even)
    assert swept["a"] - swept["b"] == pytest.approx(-2 / 3 * math.log(even), abs=1e-9)
    assert swept["a"] - swept["b"] < plain["a"] - plain["b"] < 0


def test_pair_targets_charge_an_army_that_got_more_than_its_points() -> None:
    records = {("a", "b"): (6, 0, 6), ("a", "c"): (6, 0, 6), ("b", "c"): (6, 0, 6)}
    rnd = _round("v", records)
    rnd.raw = {"a": 1100.0, "b": 1000.0, "c": 1000.0}
    t = pair_targets(rnd, [])
    assert t["a"] - t["b"] == pytest.approx(-math.log(1.1), abs=1e-12)


def test_a_sweep_of_another_version_is_refused() -> None:
    rnd = _round("v", {("a", "b"): (0, 0, 12)})
    other = _round("w", {("a", "b"): (6, 0, 6)}, scale={"a": 1.5})
    with pytest.raises(ValueError, match="a sweep of v at 1000 points holds a round of w"):
        pair_targets(rnd, [other])


NAMES = ("line", "gunline", "elite", "melee")
SHAPE: dict[str, Any] = {"exponents": (1.0,), "gaps": (30.0,), "turns": (2.0,)}


def test_the_fit_recovers_a_known_outranging_weight() -> None:
    """Priced with out-ranging 0.5, the gunline and the elite get dearer against the line and
    the melee; the fit, told only how far each price moved, finds the weight (the line's
    price held) and leaves the multipliers at 1; without the weight it cannot."""
    base = {n: composition(n, "ws-points-6")["total"] for n in NAMES}
    moved = {n: composition(n, "ws-points-6", reach_outrange=0.5)["total"] for n in NAMES}
    target = {n: math.log(moved[n] / base[n]) for n in NAMES}
    assert target["gunline"] > target["elite"] > target["line"] + 0.02
    found = fit_targets(target, "ws-points-6", outranges=(0.0, 0.5, 1.0), prior=0, **SHAPE)
    assert found["reach_outrange"] == 0.5
    assert found["error"] < 1e-12
    assert all(found[p] == pytest.approx(1.0) for p in ("body", "ranged", "range", "melee"))
    assert constants_for(found, "ws-points-6")["reach_outrange"] == 0.5
    without = fit_targets(target, "ws-points-6", prior=0, **SHAPE)
    assert "reach_outrange" not in without and without["error"] > found["error"] + 1e-5


def test_outrange_and_fit_sweep_options_reach_the_fit(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--outrange`` passes :data:`OUTRANGES`, ``--fit-sweep`` the sweep's rounds."""
    seen: dict[str, Any] = {}

    def fake_fit(rnd: Round, **kw: Any) -> dict[str, float]:
        seen.update(kw)
        return {"body": 1.0, "ranged": 1.0, "range": 1.0, "melee": 1.0, "reach_outrange": 0.5}

    import warbench.sim.points_study as ps

    monkeypatch.setattr(ps, "fit", fake_fit)
    study = Path(__file__).parents[2] / "docs" / "points-study"
    sweep = study / "ws-points-6-1100-sweep" / "melee-1.3.json"
    main(["--from", str(study / "ws-points-6-1100.json"), "--fit", "--outrange"])
    assert seen["outranges"] == OUTRANGES and "sweep" not in seen
    main(["--from", str(study / "ws-points-6-1100.json"), "--fit", "--fit-sweep", str(sweep)])
    assert [r.scale for r in seen["sweep"]] == [{"melee": 1.3}]
