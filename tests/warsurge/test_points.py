"""The warbench WARSURGE points model (issue 3): book numbers, itemisation, monotonicity.

Book numbers: Core Rules 001_d3f5e425c5e1196d.txt §2.1 (line 1144: 100 pts at 4 HP → 25 pts at
1 HP), §3.2 (minimum costs are checked by roster validation), Perks 000_94ecc6a4c74d351b.txt
§12.1 Current Point Cost (line 98: 120 pts, 6 HP, 3 HP left → 60 pts), §12.2 (line 333:
Fusion ×10, Respawn ÷2, Summon ÷4) and the Fusion example (line 2464: 20 pts → 200 pts).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from warbench.kernel.errors import UnknownNameError
from warbench.rulesets.warsurge.perks import PerkCatalog
from warbench.rulesets.warsurge.points import (
    ATTACK_TRADE_OFFS,
    ATTACK_VULNERABILITIES,
    POINTS_MODEL_VERSION,
    PointsModel,
    cost_unit,
    current_point_cost,
    default_model,
    load_price_table,
    trait_adjusted,
)
from warbench.rulesets.warsurge.profiles import ModelGroup, Unit, UnitProfile, WeaponProfile

MODEL = default_model()


def make_unit(
    models: int = 5,
    weapons: list[dict[str, Any]] | None = None,
    **stats: Any,
) -> Unit:
    data: dict[str, Any] = {"name": "Troopers", "move": 6, "dash": 6, "defence": 3, "hp": 1}
    data["armour"] = "5+"
    data.update(stats)
    ws = [
        WeaponProfile(**w)
        for w in (weapons or [{"name": "Rifle", "range": 24, "attacks": 1, "power": 4, "ap": "5+"}])
    ]
    return Unit(
        profile=UnitProfile(**data),
        weapons=ws,
        models=[ModelGroup(count=models, weapons=[w.name for w in ws])],
    )


# ---- the rulebook's numbers ---------------------------------------------------------------


def test_s2_1_current_point_value_100pts_4hp_to_1hp_is_25() -> None:
    # 001_d3f5e425c5e1196d.txt line 1144: a Unit valued at 100pts with 4 HP reduced to 1 HP.
    assert current_point_cost(100, 4, 1) == 25


def test_book2_s12_1_current_point_cost_example_120pts_6hp_3hp_left_is_60() -> None:
    # 000_94ecc6a4c74d351b.txt §12.1 line 104-110: 120 pts / 6 HP = 20 pts per HP; 3 HP → 60.
    assert current_point_cost(120, 6, 3) == 60


def test_current_point_cost_is_clamped_to_the_units_hp() -> None:
    assert current_point_cost(90, 3, 5) == 90
    assert current_point_cost(90, 3, -2) == 0
    with pytest.raises(ValueError):
        current_point_cost(90, 0, 0)


@pytest.mark.parametrize(
    ("trait", "factor"), [("Fusion", 10), ("Respawn", 0.5), ("Summon", 0.25), ("Decoy I", 1)]
)
def test_book2_s12_2_fusion_respawn_summon_adjust_current_point_cost(
    trait: str, factor: float
) -> None:
    # 000_94ecc6a4c74d351b.txt §12.2 line 333-335.
    assert trait_adjusted(100, [trait]) == pytest.approx(100 * factor)


def test_book2_fusion_example_20pts_user_needs_200pts() -> None:
    # 000_94ecc6a4c74d351b.txt line 2464: "A 20pts User ... must remove 200pts".
    assert trait_adjusted(20, ["Fusion"]) == 200


# ---- shape of a price ---------------------------------------------------------------------


def test_a_standard_trooper_is_about_ten_points() -> None:
    # Calibration anchor (docs/points.md): the §3.5 human trooper with a rifle.
    cost = cost_unit(make_unit(models=5))
    assert 8 <= cost.model_points[0] <= 13
    assert cost.total == round(cost.exact + 1e-9)
    assert cost.version == POINTS_MODEL_VERSION


def test_items_add_up_to_the_per_model_price() -> None:
    unit = make_unit(
        models=3,
        hp=2,
        perks=["Tough"],
        weapons=[
            {"name": "Rifle", "range": 24, "attacks": 2, "power": 4, "ap": "5+"},
            {"name": "Blade", "range": 0, "attacks": 2, "power": 5, "ap": "4+", "parry": 1},
        ],
    )
    cost = cost_unit(unit)
    for g in cost.groups:
        running = 0.0
        for item in g.items:
            running += item.points
        assert running == pytest.approx(g.per_model)
    assert cost.exact == pytest.approx(sum(g.points for g in cost.groups))
    labels = [i.label for i in cost.groups[0].items]
    assert labels[:3] == ["Body", "Weapon Rifle", "Weapon Blade"]
    assert "Mobility" in labels


def test_groups_with_the_same_loadout_are_priced_once_and_mixed_loadouts_apart() -> None:
    rifle = WeaponProfile(name="Rifle", range=24, attacks=1, power=4, ap=5)
    shield = WeaponProfile(name="Shield", range=0, attacks=1, power=2, deflect=2)
    unit = Unit(
        profile=UnitProfile(name="Mixed", move=6, dash=6, defence=3, hp=1, armour=5),
        weapons=[rifle, shield],
        models=[
            ModelGroup(count=2, weapons=["Rifle"]),
            ModelGroup(count=3, weapons=["Rifle", "Shield"]),
            ModelGroup(count=1, weapons=["Rifle"]),
        ],
    )
    cost = cost_unit(unit)
    assert [(g.count, g.weapons) for g in cost.groups] == [
        (3, ("Rifle",)),
        (3, ("Rifle", "Shield")),
    ]
    assert len(cost.model_points) == 6
    # The shield's Deflect makes its bearers harder to remove (§5.16).
    assert cost.groups[1].items[0].points > cost.groups[0].items[0].points


def test_costs_are_cached_and_deterministic() -> None:
    unit = make_unit(models=4)
    a = cost_unit(unit)
    assert cost_unit(unit.model_copy()) is a
    assert PointsModel().cost_unit(unit) == a


def test_unknown_perk_names_the_perk_and_suggests() -> None:
    with pytest.raises(UnknownNameError, match="Tuogh"):
        PointsModel().cost_unit(make_unit(perks=["Tuogh"]))


def test_json_form_carries_the_version_and_every_item() -> None:
    doc = cost_unit(make_unit()).to_dict()
    assert doc["points_model"] == POINTS_MODEL_VERSION
    assert doc["groups"][0]["items"][0]["label"] == "Body"


def test_transport_capacity_and_fire_points_are_priced() -> None:
    base = make_unit(models=1, hp=6, defence=6)
    carrier = make_unit(models=1, hp=6, defence=6, transport=100)
    firing = make_unit(models=1, hp=6, defence=6, transport=100, fire_points=2)
    assert cost_unit(base).exact < cost_unit(carrier).exact < cost_unit(firing).exact


# ---- the price table ----------------------------------------------------------------------


def test_every_non_attack_math_perk_has_a_documented_price() -> None:
    catalog = PerkCatalog.load()
    table = load_price_table()
    assert table.version == POINTS_MODEL_VERSION
    wanted = {p.name for p in catalog if p.impl_class != "A"}
    assert set(table.perks) == wanted
    for name, price in table.perks.items():
        kind = catalog.get(name).kind.value
        assert (price.price == "per_roster") == (kind == "Roster Perk"), name
        assert price.reason.strip(), name
        if price.vulnerability:
            assert price.value < (1 if price.price == "multiplier" else 0), name
        else:
            assert price.value >= (1 if price.price == "multiplier" else 0), name


def test_better_ranks_of_a_perk_never_get_cheaper() -> None:
    # Roman ranks improve upwards (Destroy I < II); "N+" ranks improve downwards (Precision
    # 2+ is the surest). Vulnerability ranks are not ordered (Use I is the most restrictive).
    catalog = PerkCatalog.load()
    table = load_price_table()
    by_base: dict[str, list[tuple[int, float]]] = {}
    roman = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5}
    for p in catalog:
        price = table.perks.get(p.name)
        if price is None or price.vulnerability or not p.rank:
            continue
        rank = p.rank.strip()
        if rank in roman:
            order = roman[rank]
        elif rank.rstrip("+").isdigit():
            order = -int(rank.rstrip("+"))
        else:
            continue
        by_base.setdefault(p.base_name, []).append((order, price.value))
    checked = 0
    for base, ranks in by_base.items():
        values = [v for _, v in sorted(ranks)]
        assert values == sorted(values), (base, ranks)
        checked += len(ranks) > 1
    assert checked >= 20


def _with_perk(unit: Unit, name: str) -> Unit:
    catalog = PerkCatalog.load()
    perk = catalog.get(name)
    if perk.kind.value == "Unit Perk":
        profile = unit.profile.model_copy(update={"perks": [*unit.profile.perks, perk.name]})
        return unit.model_copy(update={"profile": profile})
    weapons = [w.model_copy(update={"perks": [*w.perks, perk.name]}) for w in unit.weapons]
    return unit.model_copy(update={"weapons": weapons})


# A rifle-and-blade trooper squad: every attack-math perk has something to work on.
SQUAD = make_unit(
    models=5,
    weapons=[
        {"name": "Rifle", "range": 24, "attacks": 2, "power": 4, "ap": "5+"},
        {"name": "Blade", "range": 0, "attacks": 1, "power": 4, "ap": "5+"},
    ],
)


@pytest.mark.parametrize(
    "perk",
    sorted(p.name for p in PerkCatalog.load() if p.kind.value in ("Unit Perk", "Weapon Perk")),
)
def test_every_vulnerability_lowers_the_cost_and_nothing_else_does(perk: str) -> None:
    before = MODEL.cost_unit(SQUAD).exact
    after = MODEL.cost_unit(_with_perk(SQUAD, perk)).exact
    if MODEL.is_vulnerability(perk):
        assert after < before, f"{perk}: {before:.3f} → {after:.3f}"
    elif perk not in ATTACK_TRADE_OFFS:
        assert after >= before - 1e-9, f"{perk}: {before:.3f} → {after:.3f}"


def test_attack_vulnerabilities_are_catalog_names() -> None:
    catalog = PerkCatalog.load()
    for name in ATTACK_VULNERABILITIES | ATTACK_TRADE_OFFS:
        assert catalog.get(name).impl_class == "A"


def test_traits_and_roster_perks_are_priced() -> None:
    total, items = MODEL.trait_price(100.0, ["Respawn"])
    assert total > 100 and items[0].label == "Respawn"
    item = MODEL.roster_perk_price("Inspiring")
    assert item.points > 0 and item.reason


# ---- monotonicity over random profiles ----------------------------------------------------

SAVES = [None, 6, 5, 4, 3, 2]


@st.composite
def squads(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    unit = {
        "name": "U",
        "move": draw(st.integers(0, 12)),
        "dash": draw(st.integers(0, 12)),
        "defence": draw(st.integers(1, 8)),
        "hp": draw(st.integers(1, 6)),
        "armour": draw(st.sampled_from(SAVES)),
        "aegis": draw(st.sampled_from(SAVES)),
        "transport": draw(st.sampled_from([0, 0, 100])),
    }
    weapon = {
        "name": "W",
        "range": draw(st.sampled_from([0, 6, 18, 24, 36])),
        "attacks": draw(st.integers(1, 4)),
        "power": draw(st.integers(1, 9)),
        "ap": draw(st.sampled_from(SAVES)),
        "type": draw(st.sampled_from(["Heavy", "Battle", "Assault"])),
        "deflect": draw(st.integers(0, 2)),
        "ward": draw(st.integers(0, 2)),
        "parry": draw(st.integers(0, 2)),
    }
    return unit, weapon


def _better_save(v: int | None) -> int | None:
    return 6 if v is None else max(2, v - 1)


UNIT_STEPS = {
    "move": lambda u: {**u, "move": u["move"] + 1},
    "dash": lambda u: {**u, "dash": u["dash"] + 1},
    "defence": lambda u: {**u, "defence": u["defence"] + 1},
    "hp": lambda u: {**u, "hp": u["hp"] + 1},
    "armour": lambda u: {**u, "armour": _better_save(u["armour"])},
    "aegis": lambda u: {**u, "aegis": _better_save(u["aegis"])},
    "transport": lambda u: {**u, "transport": u["transport"] + 50},
}
WEAPON_STEPS = {
    "range": lambda w: {**w, "range": w["range"] + 6},
    "attacks": lambda w: {**w, "attacks": w["attacks"] + 1},
    "power": lambda w: {**w, "power": w["power"] + 1},
    "ap": lambda w: {**w, "ap": _better_save(w["ap"])},
    "type": lambda w: {**w, "type": {"Heavy": "Battle"}.get(w["type"], "Assault")},
    "deflect": lambda w: {**w, "deflect": w["deflect"] + 1},
    "ward": lambda w: {**w, "ward": w["ward"] + 1},
    "parry": lambda w: {**w, "parry": w["parry"] + 1},
}


def _price(unit: dict[str, Any], weapon: dict[str, Any]) -> float:
    return MODEL.cost_unit(make_unit(models=3, weapons=[weapon], **unit)).exact


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(squads(), st.sampled_from(sorted(UNIT_STEPS)))
def test_improving_a_unit_stat_never_lowers_the_cost(
    squad: tuple[dict[str, Any], dict[str, Any]], stat: str
) -> None:
    unit, weapon = squad
    better = UNIT_STEPS[stat](unit)
    assert _price(better, weapon) >= _price(unit, weapon) - 1e-9, stat


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(squads(), st.sampled_from(sorted(WEAPON_STEPS)))
def test_improving_a_weapon_stat_never_lowers_the_cost(
    squad: tuple[dict[str, Any], dict[str, Any]], stat: str
) -> None:
    unit, weapon = squad
    better = WEAPON_STEPS[stat](weapon)
    assert _price(unit, better) >= _price(unit, weapon) - 1e-9, stat


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(squads())
def test_more_models_cost_more_and_each_model_the_same(
    squad: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    unit, weapon = squad
    three = MODEL.cost_unit(make_unit(models=3, weapons=[weapon], **unit))
    four = MODEL.cost_unit(make_unit(models=4, weapons=[weapon], **unit))
    assert four.exact >= three.exact
    assert four.model_points[0] == pytest.approx(three.model_points[0])


@pytest.mark.parametrize("perk", ["Leader", "Cure I", "Burn", "Tough", "Destroy I"])
def test_a_single_perks_share_is_what_it_adds_to_the_price(perk: str) -> None:
    # Table-priced (Leader ×, Cure I per unit, Burn on a weapon ×) and odds-measured (Tough,
    # Destroy I): with one perk, its share is the price with it minus the price without it.
    # A weapon perk goes on both weapons of the squad: one share per weapon.
    with_it = _with_perk(SQUAD, perk)
    shares = MODEL.perk_shares(with_it)
    assert {s.perk for s in shares} == {perk}
    assert [s.on for s in shares] == (["Troopers"] if len(shares) == 1 else ["Rifle", "Blade"])
    added = MODEL.cost_unit(with_it).exact - MODEL.cost_unit(SQUAD).exact
    table = MODEL.prices.perks.get(perk)
    assert {s.method for s in shares} == {table.price if table else "odds"}
    if len(shares) == 1 or table is not None:  # odds shares of two weapons interact
        assert sum(s.points for s in shares) == pytest.approx(added)


def test_table_perk_shares_and_the_rest_add_up_to_the_exact_price() -> None:
    unit = _with_perk(_with_perk(_with_perk(SQUAD, "Leader"), "Cure I"), "Burn")
    cost = MODEL.cost_unit(unit)
    assert {s.perk for s in cost.perks} == {"Leader", "Cure I", "Burn"}
    bare = MODEL.cost_unit(SQUAD).exact
    assert bare + sum(s.points for s in cost.perks) == pytest.approx(cost.exact)
