"""ws-points-3: reach (docs/points.md §8, issue 15) and the fit that finds its constants.

Reach prices a weapon by the share of a reference game's Attack Phases it can attack in: a
ranged weapon once the gap left is within its Range (Heavy is stationary to attack, Core Rules
001_d3f5e425c5e1196d.txt L2234-2236; Battle cannot Dash, L2240), a Melee once Move and Dash
have closed the gap (§4.3, L1990).
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from warbench.rulesets.warsurge.points import PointsModel
from warbench.rulesets.warsurge.points_models import (
    DEFAULT_POINTS_MODEL,
    POINTS_MODELS,
    coster_for,
    model_data,
    points_model,
    price_roster,
)
from warbench.rulesets.warsurge.profiles import UnitProfile, WeaponProfile
from warbench.rulesets.warsurge.roster_io import load_roster
from warbench.sim.points_study import (
    Matchup,
    Round,
    compare,
    composition,
    constants_for,
    fit_targets,
    games_for,
    noise_floor,
)
from warbench.sim.stats import WinRate

EXAMPLES = Path(__file__).parents[2] / "examples" / "warsurge"

TROOPER = UnitProfile(name="Trooper", move=6, dash=6, defence=3, hp=1, armour=4)
LONGSHOT = UnitProfile(name="Longshot", move=5, dash=5, defence=3, hp=1, armour=5)
BERSERKER = UnitProfile(name="Berserker", move=8, dash=6, defence=4, hp=1, armour=4)
RIFLE = WeaponProfile(name="Laser Rifle", range=18, attacks=2, power=3, ap=6, type="Battle")
LONG = WeaponProfile(name="Long Rifle", range=36, attacks=1, power=6, ap=4, type="Heavy")
SWORD = WeaponProfile(name="Chainsword", range=0, attacks=3, power=5, ap=4, type="Assault")


def _model(**constants: float) -> PointsModel:
    data = model_data("ws-points-2")
    c = data.constants.model_copy(update=constants)
    return PointsModel(data.model_copy(update={"constants": c}))


def test_reach_off_is_ws_points_2() -> None:
    """``reach_gap`` 0 (the default, absent from ws-points-1/2's files) changes nothing."""
    off = _model(reach_gap=0.0)
    assert off.reach(TROOPER, RIFLE) == (1.0, 1.0, 0.9)
    assert off.reach(LONGSHOT, LONG) == (1.0, 1.0, 0.75)
    for profile, weapon in ((TROOPER, RIFLE), (LONGSHOT, LONG), (BERSERKER, SWORD)):
        assert off.cost_weapon(weapon, profile) == points_model("ws-points-2").cost_weapon(
            weapon, profile
        )


def test_reach_L2234_L2240_shares_by_hand() -> None:
    """Gap 24", the enemy closes 6" a turn, 4 Game Turns."""
    m = _model(reach_gap=24.0, reach_enemy_move=6.0, reach_turns=4.0)
    ranged, melee, tf = m.reach(TROOPER, RIFLE)
    # 18" Battle, Move 6: 6" to walk at 6 + 6 a turn = half a turn lost of four
    assert ranged == pytest.approx(1 - 0.5 / 4)
    # a Melee: 24" at Move 6 + Dash 6 + 6 = 4/3 turns
    assert melee == pytest.approx(1 - (24 / 18) / 4)
    # Battle's penalty on the quarter of the gap it walks
    assert tf == pytest.approx(0.9 + 0.1 * (1 - 6 / 24))
    # 36" Heavy covers the gap: it never moves, so it is never penalised
    assert m.reach(LONGSHOT, LONG)[0] == pytest.approx(1.0)
    assert m.reach(LONGSHOT, LONG)[2] == pytest.approx(1.0)
    assert m.reach(LONGSHOT, LONG)[1] == pytest.approx(1 - (24 / 16) / 4)
    # a melee weapon has no ranged share; Move 8 + Dash 6 closes faster than Move 6 + Dash 6
    r, fast, _ = m.reach(BERSERKER, SWORD)
    assert r == 0.0 and fast == pytest.approx(1 - (24 / 20) / 4) and fast > melee


def test_reach_has_a_floor() -> None:
    m = _model(reach_gap=24.0, reach_min=0.25)
    still = UnitProfile(name="Gun emplacement", move=0, dash=0, defence=5, hp=5, armour=3)
    assert m.reach(still, SWORD)[1] == pytest.approx(0.25)  # 24" at 6" a turn: 4 turns


def test_reach_prices_the_weapon_by_its_shares() -> None:
    """offence_factor × (ranged × range × Type × ranged reach + melee × melee reach −
    self-harm) × staying power, itemised in the reason."""
    m = _model(reach_gap=24.0)
    off = _model(reach_gap=0.0)
    for profile, weapon in ((TROOPER, RIFLE), (LONGSHOT, LONG), (BERSERKER, SWORD)):
        v = m.weapon_value(profile, weapon)
        base = off.weapon_value(profile, weapon)
        ranged, melee, tf = m.reach(profile, weapon)
        assert (v.ranged, v.melee, v.self_harm) == (base.ranged, base.melee, base.self_harm)
        assert v.points == pytest.approx(
            v.ranged * v.range_factor * tf * ranged + v.melee * melee - v.self_harm
        )
        stay = m.staying_power(m.durability(profile, (weapon,)).attacks)
        assert m.cost_weapon(weapon, profile) == pytest.approx(m.c.offence_factor * v.points * stay)
        if weapon.range > 0:
            assert "reach" in m._weapon_points(profile, weapon, stay)[1]


def test_reach_moves_gunline_up_and_melee_down_against_the_line() -> None:
    """What reach is for (docs/points.md §8): a 36" Heavy rifle gains against an 18" Battle
    rifle, a chainsword that must cross the gap loses."""
    m, off = _model(reach_gap=24.0), _model(reach_gap=0.0)

    def ratio(p: UnitProfile, w: WeaponProfile) -> float:
        return m.cost_weapon(w, p) / off.cost_weapon(w, p)

    line = ratio(TROOPER, RIFLE)
    assert ratio(LONGSHOT, LONG) > line > ratio(BERSERKER, SWORD)


def test_ws_points_3_is_registered_and_recorded() -> None:
    assert DEFAULT_POINTS_MODEL == "ws-points-1"
    assert "ws-points-3" in POINTS_MODELS
    data = model_data("ws-points-3")
    assert data.version == "ws-points-3" and data.constants.reach_gap > 0
    roster = load_roster(EXAMPLES / "roster_files" / "strike_force.yaml")
    stamped, report = price_roster(roster, "ws-points-3")
    assert stamped.points_model == "ws-points-3" == report.points_model
    assert coster_for(stamped).version == "ws-points-3"
    # the file's constants are what prices: the same model built from them agrees
    rebuilt = PointsModel(data)
    for entry in roster.units:
        assert (
            rebuilt.cost_unit(entry.unit).total
            == points_model("ws-points-3").cost_unit(entry.unit).total
        )


def test_the_fit_recovers_known_constants_from_synthetic_prices() -> None:
    """Price five archetypes with known constants (exponent, reach gap, body, ranged, range and
    melee multipliers); the fit, told only how far each price moved, finds them again."""
    names = ("line", "melee", "gunline", "big", "horde")
    true = {
        "body_exponent": 0.8,
        "reach_gap": 24.0,
        "reach_turns": 3.0,
        "body": 1.1,
        "ranged": 1.2,
        "range": 0.8,
        "melee": 1.5,
    }
    constants = constants_for(true, "ws-points-2")
    priced = {n: composition(n, "ws-points-2", **constants)["total"] for n in names}
    base = {n: composition(n, "ws-points-2")["total"] for n in names}
    target = {n: math.log(priced[n] / base[n]) for n in names}
    found = fit_targets(
        target, "ws-points-2", exponents=(0.75, 0.8), gaps=(0.0, 24.0), turns=(3.0, 4.0), prior=0
    )
    assert (found["body_exponent"], found["reach_gap"], found["reach_turns"]) == (0.8, 24.0, 3.0)
    # the line keeps its price, so the multipliers come back scaled by one common factor
    scale = found["body"] / true["body"]
    for part in ("ranged", "range", "melee"):
        assert found[part] / scale == pytest.approx(true[part], abs=0.06)
    assert found["error"] < 1e-3
    again = constants_for(found, "ws-points-2")
    for name in ("offence_factor", "melee_weight", "range_slope"):
        assert again[name] == pytest.approx(constants[name], rel=0.06)


def test_what_twelve_games_can_show() -> None:
    """A 95% interval of ± 5 points at 50% needs 385 games; a fair coin tossed 12 times lands
    on 6 of 12 (the only result within 50 ± 5%) 22.6% of the time."""
    assert games_for() == 385
    mean, hit = noise_floor(12)
    assert hit == pytest.approx(924 / 4096)
    assert mean == pytest.approx(
        sum(math.comb(12, x) * abs(x / 12 - 0.5) for x in range(13)) / 4096
    )


def test_compare_counts_residuals_and_intervals() -> None:
    rnd = Round("ws-points-3", "tactical", 12)
    rnd.matchups = [
        Matchup("a", "b", WinRate(6, 0, 6)),
        Matchup("a", "c", WinRate(12, 0, 0)),
        Matchup("b", "c", WinRate(7, 0, 5)),
    ]
    text = compare([("r", rnd)])
    # residuals 0, 50 and 8.3 points: mean 19.4%, one within ± 5, two intervals hold 50%
    assert "| r | 19.4% | 1 of 3 [" in text and "| 2 of 3 |" in text
    assert "385 games" in text


def test_a_transitive_round_leaves_nothing_at_equal_ratings() -> None:
    """Rock-paper-scissors cannot be priced away; a strict order can."""
    order = Round("ws-points-3", "tactical", 12)
    order.matchups = [
        Matchup("a", "b", WinRate(9, 0, 3)),
        Matchup("b", "c", WinRate(9, 0, 3)),
        Matchup("a", "c", WinRate(11, 0, 1)),
    ]
    cycle = Round("ws-points-3", "tactical", 12)
    cycle.matchups = [
        Matchup("a", "b", WinRate(10, 0, 2)),
        Matchup("b", "c", WinRate(10, 0, 2)),
        Matchup("c", "a", WinRate(10, 0, 2)),
    ]
    assert order.price_floor() < 0.05
    assert cycle.price_floor() > 0.25
