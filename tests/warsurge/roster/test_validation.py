"""Roster validation: every rule of Core Rules §3.1, §3.2, §6 and Perks §12.2, §12.6.

Costs come from the transparent :class:`FakeCoster` (model = hp x (defence + 1) / 2, weapon =
attacks x power), so each expected number can be checked by hand.
"""

from __future__ import annotations

import pytest

from tests.warsurge.roster.fakes import FakeCoster, entry, gun, roster
from warbench.rulesets.warsurge.perks import PerkCatalog
from warbench.rulesets.warsurge.roster import (
    GAME_TIME_REQUIREMENTS,
    REQUIREMENTS,
    RosterPerk,
    ViolationCode,
    validate_roster,
)

C = ViolationCode


def codes(r, coster=None):  # type: ignore[no-untyped-def]
    return [v.code for v in validate_roster(r, coster or FakeCoster()).violations]


def test_a_legal_roster_has_no_violations() -> None:
    report = validate_roster(roster(entry("A", models=5), entry("B", models=6)), FakeCoster())
    assert report.ok
    assert [e.points for e in report.entries] == [62, 75]
    assert report.total == 137


def test_s3_1_over_the_point_limit_by_how_much() -> None:
    report = validate_roster(
        roster(entry("A", models=5), entry("B", models=6), limit=100), FakeCoster()
    )
    (v,) = report.violations
    assert v.code is C.OVER_LIMIT
    assert "137 pts, 37 pts over" in v.explanation
    assert "at least 37 pts" in v.fix
    assert "§3.1" in v.rule


def test_s3_2_unit_under_50_points() -> None:
    report = validate_roster(roster(entry("Small", models=3)), FakeCoster())
    (v,) = report.violations
    assert v.code is C.UNIT_UNDER_50 and v.entry == "Small"
    assert "worth 38 pts" in v.explanation and "at least 12 pts" in v.fix
    assert "line 1429" in v.rule


def test_s3_2_model_under_1_point() -> None:
    # Defence 0, 1 HP, no weapon: 0.5 pts a model; the armed group is fine.
    r = roster(entry("Mob", defence=0, weapons=[gun()], groups=[(10, ["Gun"]), (4, [])], models=14))
    (v,) = validate_roster(r, FakeCoster()).violations
    assert v.code is C.MODEL_UNDER_1 and v.field == "unit.models[1]"
    assert "4 model(s) of group 2" in v.explanation and "0.5 pts" in v.explanation


def test_every_violation_at_once() -> None:
    r = roster(entry("X", models=1), entry("X", models=1), limit=10)
    assert codes(r) == [C.DUPLICATE_NAME, C.UNIT_UNDER_50, C.UNIT_UNDER_50, C.OVER_LIMIT]


def test_duplicate_names_are_case_insensitive() -> None:
    assert C.DUPLICATE_NAME in codes(roster(entry("Alpha", models=5), entry("alpha", models=5)))


# ---------------------------------------------------------------------- traits (§12.6)


def test_s12_6_traits_need_50_points_before_traits() -> None:
    r = roster(entry("Cheap", models=3, traits=["Respawn"]))
    assert codes(r) == [C.UNIT_UNDER_50, C.TRAIT_UNDER_50]


def test_s12_2_respawn_halves_summon_quarters_fusion_multiplies_the_value() -> None:
    # Perks §12.2 lines 333-335 adjust the Current Point Cost (the unit's value); the roster
    # pays the unit plus its Traits' prices (rulings "WARSURGE points" 2).
    r = roster(
        entry("R", models=8, traits=["respawn"]),
        entry("S", models=8, traits=["Summon"]),
        entry("F", models=8, perks=["Fusion"]),
    )
    report = validate_roster(r, FakeCoster())
    assert [(e.full, e.points, e.value, e.adjusting_perks) for e in report.entries] == [
        (100, 200, 100.0, ("Respawn",)),
        (100, 300, 75.0, ("Summon",)),
        (100, 100, 1000.0, ("Fusion",)),
    ]


def test_unknown_trait_suggests_the_closest_name() -> None:
    (v,) = validate_roster(
        roster(entry("A", models=5, traits=["Respwan"])), FakeCoster()
    ).violations
    assert v.code is C.UNKNOWN_PERK and "'Respawn'" in v.fix and v.field == "traits[0]"


def test_a_unit_perk_is_not_a_trait() -> None:
    (v,) = validate_roster(roster(entry("A", models=5, traits=["Leader"])), FakeCoster()).violations
    assert v.code is C.WRONG_PERK_KIND and "Unit Perk" in v.explanation


# ---------------------------------------------------------------------- unit perk requirements


@pytest.mark.parametrize(
    ("perks", "kw", "code"),
    [
        (["Enclosed"], {}, C.NEEDS_TRANSPORT),
        (["Crew I"], {"transport": 100}, C.NEEDS_FIRE_POINTS),
        (["Wreckage"], {"models": 2}, C.NEEDS_SINGLE_MODEL),
        (["War Master"], {"models": 2}, C.NEEDS_SINGLE_MODEL),
        (["Orders"], {}, C.NEEDS_LEADER),
        (["Combat Damage"], {"models": 2}, C.NEEDS_HP),
        (["Deteriorate"], {"models": 3}, C.NEEDS_HP),
        (["Reservoir"], {"hp": 3, "models": 1}, C.NEEDS_HP),
        (["Berserk"], {"weapons": []}, C.NEEDS_WEAPONS),
    ],
)
def test_s12_4_unit_perk_requirements(perks, kw, code) -> None:  # type: ignore[no-untyped-def]
    kw = {"models": 5, **kw}
    if kw.get("weapons") == []:
        kw["defence"] = 10  # 5.5 pts a model so the unit is otherwise fine
        kw["hp"] = 2
    e = entry("U", perks=perks, **kw)
    got = [c for c in codes(roster(e)) if c not in (C.UNIT_UNDER_50,)]
    assert got == [code]


def test_s12_4_requirements_met() -> None:
    ok = [
        entry("T", models=5, perks=["Crew I", "Enclosed"], transport=100, fire_points=2),
        entry("L", models=5, perks=["Leader", "Orders"]),
        entry("W", models=1, perks=["War Master", "Challenger"], hp=10, defence=9),
        entry("H", models=4, perks=["Deteriorate", "Reservoir"]),
    ]
    assert codes(roster(*ok, limit=5000)) == []


def test_s12_5_weapon_perk_requirements() -> None:
    weapons = [
        gun("Jammer", attacks=2, perks=["Malfunction I"]),
        gun("Short", range=12, perks=["Rapid"]),
        gun("Long Cone", range=18, perks=["Diffuse"]),
        gun("Goo", perks=["Residue I"]),
        gun("Sick", perks=["Spread"]),
        gun("Fine", attacks=3, range=18, perks=["Malfunction I", "Rapid"]),
    ]
    e = entry("U", models=5, weapons=weapons)
    report = validate_roster(roster(e, limit=10_000), FakeCoster())
    assert [(v.code, v.field) for v in report.violations] == [
        (C.WEAPON_REQUIREMENT, "unit.weapons[Jammer].attacks"),
        (C.WEAPON_REQUIREMENT, "unit.weapons[Short].range"),
        (C.WEAPON_REQUIREMENT, "unit.weapons[Long Cone].range"),
        (C.WEAPON_REQUIREMENT, "unit.weapons[Goo].perks"),
        (C.WEAPON_REQUIREMENT, "unit.weapons[Sick].perks"),
    ]


def test_wane_needs_4_hp_on_the_wielders_unit() -> None:
    e = entry("U", models=3, weapons=[gun("Fading", perks=["Wane"], attacks=10)])
    assert codes(roster(e)) == [C.NEEDS_HP]


def test_seed_needs_an_implant_weapon_somewhere_in_the_roster() -> None:
    seed = entry("Spawn", models=5, perks=["Seed I"])
    assert codes(roster(seed)) == [C.NEEDS_IMPLANT]
    host = entry("Host", models=5, weapons=[gun("Injector", perks=["Implant"])])
    assert codes(roster(seed, host)) == []
    own = entry("Spawn", models=5, perks=["Seed II"], weapons=[gun("Injector", perks=["Implant"])])
    assert codes(roster(own)) == [C.NEEDS_IMPLANT]  # it is in Reserve until a host is implanted


# ---------------------------------------------------------------------- roster perks


def test_presence_roster_perk_needs_a_designated_presence_unit() -> None:
    plain = entry("Plain", models=5)
    herald = entry("Herald", models=5, perks=["Presence"])
    assert codes(roster(plain, roster_perks=[RosterPerk(perk="Inspiring")])) == [C.NEEDS_PRESENCE]
    assert codes(roster(plain, roster_perks=[RosterPerk(perk="Inspiring", unit="Plain")])) == [
        C.NEEDS_PRESENCE
    ]
    assert codes(roster(plain, roster_perks=[RosterPerk(perk="Inspiring", unit="Herrald")])) == [
        C.UNKNOWN_ENTRY
    ]
    assert codes(roster(herald, roster_perks=[RosterPerk(perk="inspiring", unit="herald")])) == []


def test_a_presence_unit_takes_one_presence_perk_unless_there_are_too_few() -> None:
    a = entry("A", models=5, perks=["Presence"])
    b = entry("B", models=5, perks=["Presence"])
    two_on_a = [RosterPerk(perk="Inspiring", unit="A"), RosterPerk(perk="Swift", unit="A")]
    assert codes(roster(a, b, roster_perks=two_on_a)) == [C.PRESENCE_DESIGNATION]
    assert codes(roster(a, roster_perks=two_on_a)) == []  # not enough Presence units


def test_roster_perks_designations_and_kinds() -> None:
    a = entry("A", models=5)
    perks = [
        RosterPerk(perk="Avenge"),
        RosterPerk(perk="Nexus", unit="A"),
        RosterPerk(perk="Deny", unit="A"),
        RosterPerk(perk="Deny"),
        RosterPerk(perk="Respawn"),
        RosterPerk(perk="Gatewey"),
    ]
    report = validate_roster(roster(a, roster_perks=perks), FakeCoster())
    assert [(v.code, v.field) for v in report.violations] == [
        (C.NEEDS_DESIGNATION, "roster_perks[0].unit"),
        (C.NEEDS_DESIGNATION, "roster_perks[2].unit"),
        (C.DUPLICATE_PERK, "roster_perks[3]"),
        (C.WRONG_PERK_KIND, "roster_perks[4]"),
        (C.UNKNOWN_PERK, "roster_perks[5]"),
    ]
    assert "'Gateway'" in report.violations[-1].fix


def test_despair_cannot_be_designated_to_a_controller() -> None:
    boss = entry("Boss", models=5)
    thrall = entry("Thrall", models=5, perks=["Controlled"], designations={"Controlled": "Boss"})
    r = roster(boss, thrall, roster_perks=[RosterPerk(perk="Despair", unit="Boss")])
    assert codes(r) == [C.NEEDS_DESIGNATION]


def test_controlled_and_enslaved_need_a_designation() -> None:
    r = roster(
        entry("C", models=5, perks=["Controlled"]),
        entry("E", models=5, perks=["Enslaved"], designations={"Enslaved": "Nobody"}),
        entry("S", models=5, perks=["Enslaved"], designations={"Enslaved": "S"}),
    )
    assert codes(r) == [C.NEEDS_DESIGNATION, C.UNKNOWN_ENTRY, C.NEEDS_DESIGNATION]


def test_transport_link_pairs_only() -> None:
    a = entry(
        "A", models=1, transport=500, perks=["Transport Link"], designations={"Transport Link": "B"}
    )
    b = entry(
        "B", models=1, transport=500, perks=["Transport Link"], designations={"Transport Link": "A"}
    )
    c = entry(
        "C", models=1, transport=500, perks=["Transport Link"], designations={"Transport Link": "A"}
    )
    assert codes(roster(a, b)) == []
    assert codes(roster(a, b, c)) == [C.NEEDS_DESIGNATION]


# ---------------------------------------------------------------------- linked profiles (§12.2)


def test_s12_2_linked_units_form_i() -> None:
    a = entry("A", models=4, perks=["Form I"], link="beast")  # 50 pts, 4 HP
    b = entry("B", models=4, perks=["Form I"], link="beast")
    assert codes(roster(a, b)) == []
    dear = entry("B", models=2, hp=2, perks=["Form I"], link="beast", weapons=[gun(attacks=3)])
    # 2 x (2 x 5 / 2 + 15) = 40: not within 10% of 50; same 4 HP
    (v,) = validate_roster(roster(a, dear, limit=1000), FakeCoster()).violations[1:]
    assert v.code is C.LINKED_PROFILE and "within 10%" in v.explanation
    lonely = entry("L", models=4, perks=["Form I"])
    assert codes(roster(lonely)) == [C.LINKED_PROFILE]
    hp = entry("B", models=5, perks=["Form I"], link="beast")  # 5 HP, 62 pts
    got = validate_roster(roster(a, hp), FakeCoster()).violations
    assert [v.code for v in got] == [C.LINKED_PROFILE, C.LINKED_PROFILE]
    assert "maximum HP" in got[0].explanation


def test_s12_2_linked_profile_uses_the_middle_profile() -> None:
    from warbench.rulesets.warsurge.roster import _within_10_percent

    assert _within_10_percent([90, 100, 110])  # Triune example, P 3196
    assert not _within_10_percent([89, 100, 110])
    assert _within_10_percent([50, 55]) and _within_10_percent([45, 50])  # Twin example, P 3210
    assert not _within_10_percent([44, 50])


def test_s12_5_twin_weapons_on_the_same_wielder() -> None:
    ws = [gun("Left", perks=["Twin"]), gun("Right", perks=["Twin"], attacks=3)]  # 10 vs 15 pts
    e = entry("U", models=5, weapons=ws)
    (v,) = validate_roster(roster(e), FakeCoster()).violations
    assert v.code is C.LINKED_PROFILE and "Left 10, Right 15" in v.explanation
    single = entry("U", models=5, weapons=[ws[0], gun("Other")])
    assert codes(roster(single)) == [C.LINKED_PROFILE]
    pair = entry("U", models=5, weapons=[ws[0], gun("Right", perks=["Twin"], power=5, attacks=2)])
    assert codes(roster(pair)) == []


# ---------------------------------------------------------------------- transports (§6)


def test_s6_4_passengers_within_capacity() -> None:
    apc = entry("APC", models=1, transport=120, hp=10, defence=9)  # 50 + 12 + 10 = 72
    a = entry("A", models=5, embarked_in="APC")  # 62
    b = entry("B", models=6, embarked_in="apc")  # 75
    assert codes(roster(apc, a)) == []
    report = validate_roster(roster(apc, a, b), FakeCoster())
    (v,) = report.violations
    assert v.code is C.OVER_CAPACITY and v.entry == "APC"
    assert "worth 137 pts (A 62, B 75)" in v.explanation and "(120 pts)" in v.explanation


def test_s6_4_each_unit_fits_one_transport_model() -> None:
    # Two Transport models of 100 pts each: a unit must fit in one of them.
    convoy = entry("Convoy", models=2, transport=100, hp=10, defence=9)
    big = entry("Big", models=8, embarked_in="Convoy")  # 100 pts: fits one model
    assert codes(roster(convoy, big)) == []
    bigger = entry("Bigger", models=9, embarked_in="Convoy")  # 112: fits no model
    assert codes(roster(convoy, bigger)) == [C.OVER_CAPACITY]


def test_s6_4_traits_count_at_their_roster_cost() -> None:
    apc = entry("APC", models=1, transport=50, hp=10, defence=9)
    a = entry("A", models=8, embarked_in="APC", traits=["Respawn"])  # 100 x 2 = 200 > 50
    assert codes(roster(apc, a)) == [C.OVER_CAPACITY]
    b = entry("B", models=4, embarked_in="APC")  # 50 pts fits
    assert codes(roster(apc, b)) == []


def test_s6_not_a_transport_and_unknown_transport() -> None:
    tank = entry("Tank", models=5)
    r = roster(
        tank, entry("A", models=5, embarked_in="Tank"), entry("B", models=5, embarked_in="Tnak")
    )
    assert codes(r) == [C.NOT_A_TRANSPORT, C.UNKNOWN_ENTRY]


def test_s6_5_transports_within_transports() -> None:
    hangar = entry("Hangar", models=1, transport=1000, hp=20, defence=9)
    car = entry("Car", models=1, transport=300, hp=10, defence=9, embarked_in="Hangar")
    crew = entry("Crew", models=5, transport=100, embarked_in="Car")
    # the outer transport counts only the Car (§6.5), not the Crew inside it
    assert codes(roster(hangar, car, crew, limit=5000)) == []
    stowaway = entry("Stowaway", models=5, embarked_in="Crew")
    assert codes(roster(hangar, car, crew, stowaway, limit=5000)) == [C.TRANSPORT_NESTING]
    a = entry("A", models=1, transport=500, hp=20, defence=9, embarked_in="B")
    b = entry("B", models=1, transport=500, hp=20, defence=9, embarked_in="A")
    assert codes(roster(a, b)) == [C.TRANSPORT_NESTING]


# ---------------------------------------------------------------------- requirement data


def test_every_catalog_requirement_is_checked_or_listed_as_game_time() -> None:
    reqs = {r for p in PerkCatalog.load() for r in p.requires}
    assert reqs == set(REQUIREMENTS) | set(GAME_TIME_REQUIREMENTS)


def test_the_coster_is_injected_and_cached_by_content() -> None:
    from warbench.rulesets.warsurge.costing import CachingCoster

    fake = FakeCoster()
    coster = CachingCoster(fake)
    from tests.warsurge.roster.fakes import unit
    from warbench.rulesets.warsurge.roster import RosterEntry

    r = roster(*(RosterEntry.of(unit("Troop", models=5), name=f"U{i}") for i in range(10)))
    validate_roster(r, coster)
    assert fake.calls == 1  # ten equal units (the unit name is the profile's), one costing


def test_the_default_coster_is_the_points_model() -> None:
    from warbench.rulesets.warsurge import points
    from warbench.rulesets.warsurge.costing import default_coster

    r = roster(entry("A", models=5), entry("B", models=8, traits=["Respawn"]), limit=100_000)
    report = validate_roster(r)
    assert report.points_model == points.POINTS_MODEL_VERSION == default_coster().version
    full = [points.cost_unit(e.unit).total for e in r.units]
    assert [e.full for e in report.entries] == full
    assert report.entries[1].points == round(points.trait_cost(full[1], ["Respawn"]) + 1e-9)
    assert report.entries[1].value == points.trait_adjusted(report.entries[1].points, ["Respawn"])
    assert report.total == sum(e.points for e in report.entries)
