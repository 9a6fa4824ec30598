"""ws-points-4: reach's reading of Battle weapons corrected, and the study's ``--points``
(docs/points.md §9, issue 15).

Core Rules 001_d3f5e425c5e1196d.txt L2240-2242: "Battle: The user can Move and use this Weapon
but cannot Dash in the same Game Turn"; L2248-2252: a model that does not use its weapons "can
still Move and Dash". So a Battle weapon's wielder Dashes on the turns it walks into Range and
gives the Dash up only in the turn it attacks (``reach_battle_dash``); ws-points-3 read it as
never Dashing, and its prices (like ws-points-1 and -2's) never change.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

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
from warbench.sim import points_study
from warbench.sim.points_study import (
    ARCHETYPES,
    POINTS,
    Matchup,
    Round,
    build_roster,
    composition,
    model_price,
    raw_price,
)
from warbench.sim.stats import WinRate

EXAMPLES = Path(__file__).parents[2] / "examples" / "warsurge"

TROOPER = UnitProfile(name="Trooper", move=6, dash=6, defence=3, hp=1, armour=4)
CARBINE = WeaponProfile(name="Carbine", range=12, attacks=1, power=4, ap=5, type="Battle")
HEAVY = CARBINE.model_copy(update={"name": "Mortar", "type": "Heavy"})
ASSAULT = CARBINE.model_copy(update={"name": "Pistol", "type": "Assault"})

#: Prices of ws-points-1..3 as main priced them before ws-points-4 existed (session 32):
#: the strike force's units (whole points) and every archetype's model (points per model).
BEFORE: dict[str, dict[str, float]] = {
    "ws-points-1": {
        "strike_force.yaml:Herald": 165,
        "strike_force.yaml:Ursus APC": 253,
        "strike_force.yaml:Troopers": 178,
        "archetype:Rabble": 9.126554,
        "archetype:Troopers": 14.963649,
        "archetype:Paladins": 104.6614,
        "archetype:Berserkers": 25.21591,
        "archetype:Longshots": 13.969772,
        "archetype:Outriders": 46.728491,
        "archetype:Behemoth": 364.775842,
        "archetype:Rhino APC": 164.322594,
        "archetype:Breachers": 19.285441,
    },
    "ws-points-2": {
        "strike_force.yaml:Herald": 166,
        "strike_force.yaml:Ursus APC": 319,
        "strike_force.yaml:Troopers": 186,
        "archetype:Rabble": 8.165826,
        "archetype:Troopers": 14.963496,
        "archetype:Paladins": 126.690867,
        "archetype:Berserkers": 19.0511,
        "archetype:Longshots": 16.981638,
        "archetype:Outriders": 47.74529,
        "archetype:Behemoth": 415.522437,
        "archetype:Rhino APC": 190.310434,
        "archetype:Breachers": 14.949502,
    },
    "ws-points-3": {
        "strike_force.yaml:Herald": 173,
        "strike_force.yaml:Ursus APC": 408,
        "strike_force.yaml:Troopers": 194,
        "archetype:Rabble": 7.821547,
        "archetype:Troopers": 14.967327,
        "archetype:Paladins": 143.566402,
        "archetype:Berserkers": 18.330941,
        "archetype:Longshots": 20.618594,
        "archetype:Outriders": 47.081932,
        "archetype:Behemoth": 547.063109,
        "archetype:Rhino APC": 220.835618,
        "archetype:Breachers": 14.276337,
    },
}


def _model(version: str, **constants: Any) -> PointsModel:
    data = model_data(version)
    c = data.constants.model_copy(update=constants)
    return PointsModel(data.model_copy(update={"constants": c}))


@pytest.mark.parametrize("version", ["ws-points-1", "ws-points-2", "ws-points-3"])
def test_versioned_prices_never_change(version: str) -> None:
    """A version's prices are stamped into rosters and records: ws-points-4 moves none."""
    roster = load_roster(EXAMPLES / "roster_files" / "strike_force.yaml")
    now: dict[str, float] = {
        f"strike_force.yaml:{e.unit.name}": points_model(version).cost_unit(e.unit).total
        for e in roster.units
    }
    for parts in ARCHETYPES.values():
        for template, _, _ in parts:
            now[f"archetype:{template['unit']['name']}"] = round(model_price(template, version), 6)
    assert now == BEFORE[version]
    assert model_data(version).constants.reach_battle_dash is False


def test_battle_reach_L2240_L2248_dashes_on_the_way_in() -> None:
    """Gap 18", the enemy closes 6" a turn, 4 Game Turns; a 12" Battle carbine on a Move 6,
    Dash 6 trooper walks 6". Corrected: at Move + Dash + enemy = 18" a turn it loses a third of
    a turn (share 1 - (1/3)/4 = 0.9167), as a Heavy or Assault weapon of the same Range does;
    ws-points-3's reading (no Dash: 12" a turn) lost half a turn (0.875)."""
    old = _model("ws-points-3", reach_gap=18.0, reach_turns=4.0, reach_enemy_move=6.0)
    new = _model(
        "ws-points-3", reach_gap=18.0, reach_turns=4.0, reach_enemy_move=6.0, reach_battle_dash=True
    )
    ranged, melee, tf = new.reach(TROOPER, CARBINE)
    assert ranged == pytest.approx(1 - (6 / 18) / 4) == pytest.approx(0.9167, abs=1e-4)
    assert old.reach(TROOPER, CARBINE)[0] == pytest.approx(1 - (6 / 12) / 4) == 0.875
    # the Dash moves no other share: the Melee (18" at 18" a turn), the Type factor on the
    # third of the gap walked, and Heavy and Assault weapons
    assert melee == old.reach(TROOPER, CARBINE)[1] == pytest.approx(1 - 1 / 4)
    assert tf == old.reach(TROOPER, CARBINE)[2] == pytest.approx(0.9 + 0.1 * (1 - 6 / 18))
    for weapon in (HEAVY, ASSAULT):
        assert new.reach(TROOPER, weapon) == old.reach(TROOPER, weapon)
        assert new.reach(TROOPER, weapon)[0] == pytest.approx(ranged)
    # so the carbine is worth more, and by exactly the ratio of its ranged shares' parts
    v_new, v_old = new.weapon_value(TROOPER, CARBINE), old.weapon_value(TROOPER, CARBINE)
    assert v_new.ranged_reach > v_old.ranged_reach
    assert v_new.points - v_old.points == pytest.approx(
        v_new.ranged * v_new.range_factor * tf * (0.9167 - 0.875), rel=1e-3
    )


def test_battle_weapons_in_range_from_the_start_do_not_change() -> None:
    """A Battle weapon whose Range covers the gap never walks: the reading cannot matter."""
    long = CARBINE.model_copy(update={"range": 24})
    old = _model("ws-points-3", reach_gap=18.0)
    new = _model("ws-points-3", reach_gap=18.0, reach_battle_dash=True)
    assert new.reach(TROOPER, long) == old.reach(TROOPER, long) == (1.0, 0.75, 1.0)


def test_ws_points_4_is_registered_with_the_corrected_reading() -> None:
    assert DEFAULT_POINTS_MODEL == "ws-points-1"
    assert "ws-points-4" in POINTS_MODELS
    data = model_data("ws-points-4")
    assert data.version == "ws-points-4"
    assert data.constants.reach_battle_dash is True and data.constants.reach_gap > 0
    roster = load_roster(EXAMPLES / "roster_files" / "strike_force.yaml")
    stamped, report = price_roster(roster, "ws-points-4")
    assert stamped.points_model == "ws-points-4" == report.points_model
    assert coster_for(stamped).version == "ws-points-4"
    # its own line troopers' shares, by hand from its constants (18" Battle rifle, Move 6,
    # Dash 6): the walk is gap - 18 at Move + Dash + enemy a turn
    c = data.constants
    rifle = WeaponProfile(name="Laser Rifle", range=18, attacks=2, power=3, ap=6, type="Battle")
    walk = max(0.0, c.reach_gap - 18)
    share = max(c.reach_min, 1 - walk / (12 + c.reach_enemy_move) / c.reach_turns)
    assert points_model("ws-points-4").reach(TROOPER, rifle)[0] == pytest.approx(share)


def test_the_fit_prices_the_corrected_structure_against_the_played_prices() -> None:
    """``composition`` with ``reach_battle_dash`` moves the line (18" Battle rifles) and not the
    melee rush (no ranged weapon); the prices it splits still add up."""
    gap = {"reach_gap": 30.0}
    line = composition("line", "ws-points-3", **gap)
    fixed = composition("line", "ws-points-3", **gap, reach_battle_dash=True)
    assert fixed["range"] + fixed["ranged"] > line["range"] + line["ranged"]
    assert fixed["body"] == pytest.approx(line["body"])
    melee = composition("melee", "ws-points-3", **gap)
    assert composition("melee", "ws-points-3", **gap, reach_battle_dash=True) == melee


@pytest.mark.parametrize("points", [POINTS, 1000])
def test_points_option_fills_every_army(points: int) -> None:
    for name in ARCHETYPES:
        units = build_roster(name, "ws-points-3", points)["units"]  # type: ignore[index]
        assert sum(u["points"] for u in units) == points


def test_more_points_hold_several_big_models_and_round_less() -> None:
    """At 400 points the big archetype is one Behemoth whatever it costs (ws-points-3: 547 of
    them listed as 400); at 1,100 points it holds two and the rounding shrinks."""

    def models(name: str, points: int) -> int:
        units = build_roster(name, "ws-points-3", points)["units"]  # type: ignore[index]
        return sum(int(u["models"][0]["count"]) for u in units)

    assert models("big", POINTS) == 1 and models("big", 1100) == 2
    assert models("elite", 1100) > models("elite", POINTS)

    def off(points: int) -> float:
        return abs(raw_price("big", "ws-points-3", points) / points - 1)

    assert off(1100) < off(POINTS) / 3


def test_a_bigger_transport_army_keeps_its_idea() -> None:
    """One Transport per 400 points (exactly one at 400, as before), so at 1,100 points three
    Rhinos (capacity 150 points each) still carry the Breachers instead of one carrying a
    seventh of them."""

    def rhinos(points: int) -> int:
        units = build_roster("transport", "ws-points-4", points)["units"]  # type: ignore[index]
        return sum(1 for u in units if u["unit"]["name"] == "Rhino APC")

    assert (rhinos(POINTS), rhinos(1100), rhinos(600)) == (1, 3, 2)


def test_points_option_reaches_the_round_and_its_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``--points`` is passed to the round, recorded in its JSON and read back; a round of the
    default 400 points writes what it always wrote."""
    seen: dict[str, Any] = {}

    def fake_round(version: str, games: int, **kw: Any) -> Round:
        seen.update(kw, version=version, games=games)
        rnd = Round(version, "tactical", games, points=kw["points"])
        rnd.raw = {"big": 1094.1, "line": 1003.1}
        rnd.matchups = [Matchup("big", "line", WinRate(5, 0, 1))]
        return rnd

    monkeypatch.setattr(points_study, "play_round", fake_round)
    out = tmp_path / "r.json"
    points_study.main(
        ["--version", "ws-points-4", "--games", "2", "--points", "1000", "--out", str(out)]
    )
    assert seen["points"] == 1000 and seen["version"] == "ws-points-4"
    data = json.loads(out.read_text())
    assert data["points"] == 1000 and Round.from_json(data).points == 1000
    assert "points" not in Round("ws-points-4", "tactical", 2).to_json()
    assert Round.from_json(Round("ws-points-4", "tactical", 2).to_json()).points == POINTS


def test_battle_dash_refit_from_a_saved_round(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``--from FILE --fit --battle-dash`` refits a saved round (no new games) with the
    corrected reading, and the constants it prints carry it."""
    seen: dict[str, Any] = {}

    def fake_fit(rnd: Round, **kw: Any) -> dict[str, float]:
        seen.update(kw, version=rnd.version)
        return {"body_exponent": 0.95, "body": 1.0, "ranged": 1.0, "range": 1.0, "melee": 1.0}

    monkeypatch.setattr(points_study, "fit", fake_fit)
    saved = tmp_path / "round.json"
    rnd = Round("ws-points-3", "tactical", 12)
    rnd.matchups = [Matchup("big", "line", WinRate(12, 0, 0))]
    saved.write_text(json.dumps(rnd.to_json()))
    out = tmp_path / "fit.json"
    points_study.main(["--from", str(saved), "--fit", "--battle-dash", "--out", str(out)])
    assert seen == {"structure": {"reach_battle_dash": True}, "version": "ws-points-3"}
    constants = json.loads(out.read_text())["fit"]["constants"]
    assert constants["reach_battle_dash"] is True
    assert constants["offence_factor"] == model_data("ws-points-3").constants.offence_factor


def test_rounds_on_other_seeds_merge_into_one(tmp_path: Path) -> None:
    """``--merge`` adds each matchup's record, the silent games and the elasticity run of
    rounds of the same armies played on other seeds; other armies are refused."""
    one = Round("ws-points-4", "tactical", 12)
    one.matchups = [Matchup("a", "b", WinRate(3, 0, 9), 1), Matchup("a", "c", WinRate(6, 0, 6))]
    one.handicap_rate = WinRate(11, 0, 1)
    one.raw = {"a": 401.0, "b": 399.0, "c": 400.0}
    two = Round("ws-points-4", "tactical", 12)
    two.matchups = [Matchup("a", "b", WinRate(5, 1, 6), 2), Matchup("a", "c", WinRate(12, 0, 0))]
    two.handicap_rate = WinRate(10, 1, 1)
    two.raw = dict(one.raw)
    both = points_study.merge([one, two])
    assert both.games == 24
    assert [(m.a, m.b, m.rate, m.silent) for m in both.matchups] == [
        ("a", "b", WinRate(8, 1, 15), 3),
        ("a", "c", WinRate(18, 0, 6), 0),
    ]
    assert both.handicap_rate == WinRate(21, 1, 2)
    paths = []
    for i, rnd in enumerate((one, two)):
        paths.append(tmp_path / f"{i}.json")
        paths[-1].write_text(json.dumps(rnd.to_json()))
    out = tmp_path / "both.json"
    points_study.main(["--merge", *map(str, paths), "--out", str(out)])
    assert Round.from_json(json.loads(out.read_text())).to_json() == both.to_json()
    bigger = Round("ws-points-4", "tactical", 12, points=1100)
    bigger.raw = dict(one.raw)
    with pytest.raises(ValueError, match="other armies"):
        points_study.merge([one, bigger])
