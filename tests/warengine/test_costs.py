"""Troop Builder and Force Builder costs (004_f4ea5693af0644ce.txt), the book's examples exactly."""

from __future__ import annotations

import pytest
from we_helpers import EXAMPLES, figure, force, trooper, unit, weapon

from warbench.rulesets.warengine.costs import (
    basic_cost,
    figure_cost,
    force_budget,
    force_cost,
    unit_cost,
    weapon_cost,
)
from warbench.rulesets.warengine.io import load_figure


def test_004_figure_builder_example_warpeyes_244_points() -> None:
    # 004_f4ea5693af0644ce.txt Figure Builder Example (lines 935-953): WarpEyes
    c = figure_cost(load_figure(EXAMPLES / "warpeyes.yaml"))
    items = {i.label: i.points for i in c.items}
    # Personal (line 937): Character 8, Mv 15" 12, Df 5k4 28, Mn 5k4 12, CR 10" 14 = 74
    assert items["Type C (Character)"] == 8
    assert items['Mv 15"'] == 12
    assert items["Df 5k4"] == 28
    assert items["Mn 5k4"] == 12
    assert items['CR 10"'] == 14
    assert c.basic == 74
    # Tweaks (line 939): +1 +2 +2 +8 -2 = 11 points, 15 tweak points, 85 without weapons
    tweaks = ["Eagle Eye", "Dodge", "Frenzied", "Lightning Reflexes", "Vindictive"]
    assert [items[t] for t in tweaks] == [1, 2, 2, 8, -2]
    assert c.personal_tweak_points == 15
    assert c.basic + sum(items[t] for t in tweaks) == 85
    # Weapons (lines 943-949): DemonBlade 33 (x2), Heavy Laser Rifle 32, Terror 29; HP 8 = 32
    assert [w.points for w in c.weapons] == [33, 33, 32, 29]
    assert items["Hero Points 8 x 4"] == 32
    # Summary (line 953): 85+33+33+32+29+32 = 244; 15 + 12 + 5 = 32 tweak points
    assert c.points == 244
    assert c.weapon_tweak_points == 17
    assert c.tweak_points == 32


def test_004_figure_builder_example_demonblade_breakdown() -> None:
    # 004_f4ea5693af0644ce.txt Figure Builder Example (lines 943-945): 18 x 1.5 = 27, +6 Long
    w = weapon_cost(weapon(av="5k4", ae="2x", aet="CC", tweaks=["Long"]))
    assert [i.points for i in w.items] == [0, 18, 9, 6]
    assert (w.points, w.tweak_points, w.weapon_class) == (33, 6, "heavy")


def test_004_figure_builder_example_terror_29_points() -> None:
    # 004_f4ea5693af0644ce.txt Figure Builder Example (line 949): 10 + 14 + 5 = 29, 5 tweak pts
    w = weapon_cost(weapon(range='12"', av="4k3", power="Terror"))
    assert (w.points, w.tweak_points) == (29, 5)


def test_004_troop_builder_area_effect_plasma_gun_52_points() -> None:
    # 004_f4ea5693af0644ce.txt Troop Builder: Area Effect Table example (line 809): Dogboy's
    # plasma gun (14 + 12) x 2 = 52
    assert weapon_cost(weapon(range='18"', av="3k3", ae="3x", aet="Ex")).points == 52


@pytest.mark.parametrize(("ae", "points"), [(None, 12), ("2x", 18), ("3x", 24), ("4x", 36)])
def test_004_troop_builder_area_effect_multiplier_before_tweaks(
    ae: str | None, points: int
) -> None:
    # 004_f4ea5693af0644ce.txt Troop Builder: Area Effect Table (lines 807-809): multiplier on
    # Range + AV, applied before tweaks (Extra Bite +2 is not multiplied)
    aet = "Ex" if ae else None
    w = weapon(range='6"', av="2k1", ae=ae, aet=aet, tweaks=["Extra Bite"])
    assert weapon_cost(w).points == points + 2


def test_004_weapon_tweaks_multiprofile_rifle_and_grenade_launcher() -> None:
    # 004_f4ea5693af0644ce.txt Weapon Tweaks: Multiprofile (lines 1811-1813): rifle 25 points
    # with 5 tweak points, grenade launcher 28 with 3: 33 points and 10 tweak points
    rifle = weapon(name="Rifle", range='12"', av="3k2", tweaks=["Sniper Scope", "Piercing Attack"])
    gl = weapon(
        name="GL", range='6"', av="3k3", ae="2x", aet="Ex", tweaks=["Extra Bite", "Heavy Recoil"]
    )
    assert (weapon_cost(rifle).points, weapon_cost(rifle).tweak_points) == (25, 5)
    assert (weapon_cost(gl).points, weapon_cost(gl).tweak_points) == (28, 3)
    multi = weapon(
        tweaks=["Multiprofile"],
        profiles=[rifle.model_dump(), gl.model_dump()],
    )
    c = weapon_cost(multi)
    assert (c.points, c.tweak_points) == (33, 10)


def test_004_weapon_tweaks_multiprofile_example_file() -> None:
    # 004_f4ea5693af0644ce.txt Weapon Tweaks: Multiprofile (line 1813), in examples/
    c = figure_cost(load_figure(EXAMPLES / "reaver_sergeant.yaml"))
    assert [w.points for w in c.weapons] == [10, 33]
    assert c.tweak_points == 12
    # Elite 4 + Mv 9" 6 + Df 3k3 16 + Mn 4k3 6 + CR 6" 6 + 10 + 33 + 1 HP 4
    assert c.points == 85


@pytest.mark.parametrize(
    ("type_", "points"), [("T", 2), ("E", 4), ("C", 8), ("L", 10), ("M", 20), ("H", 40)]
)
def test_004_troop_builder_figure_type_cost(type_: str, points: int) -> None:
    # 004_f4ea5693af0644ce.txt Troop Builder: Figure Type Table (lines 651-658)
    assert figure_cost(figure(type=type_)).points == points


def test_004_troop_builder_hero_points_cost_4_each() -> None:
    # 004_f4ea5693af0644ce.txt Troop Builder: Hero Points (line 743): 8 Hero Points = 32 points
    assert figure_cost(figure(type="C", hero_points=8)).points == 8 + 32


def test_004_personal_tweaks_flaw_and_edge_tweak_points() -> None:
    # 004_f4ea5693af0644ce.txt Personal Tweaks (line 735): -5 flaw and +3 edge: 2 points less,
    # 8 tweak points used
    c = figure_cost(figure(tweaks=["Blood Rage", "Charmed"]))
    assert c.points == 2 - 2
    assert c.tweak_points == 8


def test_004_personal_tweaks_summoned_does_not_count() -> None:
    # 004_f4ea5693af0644ce.txt Personal Tweaks: Summoned (line 1433)
    c = figure_cost(figure(tweaks=["Summoned", "Tough"]))
    assert c.points == 2 - 10 + 4
    assert c.tweak_points == 4


def test_004_personal_tweaks_shapechanger_costs_dearest_form() -> None:
    # 004_f4ea5693af0644ce.txt Personal Tweaks: Shapechanger (line 1615)
    wolf = {"name": "Wolf form", "type": "L", "mv": '24"', "tweaks": ["Monster"]}
    man = figure(type="C", tweaks=["Shapechanger"], hero_points=2, forms=[wolf])
    c = figure_cost(man)
    assert [f.points for f in c.forms] == [8 + 8 + 8, 10 + 24 + 8]
    assert c.points == 42


def test_004_force_builder_unit_tweaks_once_per_unit() -> None:
    # 004_f4ea5693af0644ce.txt Force Builder: Unit Tweaks (lines 994-995): added once per unit
    f = force(
        [unit("u", ("t", 5), tweaks=["Well Trained", "Fighters to the End"])],
        {"t": trooper()},
    )
    u = unit_cost(f.units[0], f.figures)
    each = figure_cost(f.figures["t"]).points
    assert u.points == 5 * each + 15 + 20


def test_004_force_builder_unit_tweaks_never_below_basic_cost() -> None:
    # 004_f4ea5693af0644ce.txt Force Builder: Unit Tweaks (line 994): the unit may not fall
    # below the basic cost of its figures (Type + Mv + Df + Mn + CR, line 937)
    f = force([unit("u", ("t", 3), tweaks=["Conscript", "Raw"])], {"t": trooper()})
    u = unit_cost(f.units[0], f.figures)
    basic = basic_cost(f.figures["t"])
    assert basic == 2 + 4 + 8
    assert 3 * figure_cost(f.figures["t"]).points - 50 < 3 * basic
    assert u.points == u.floor == 3 * basic


def test_004_force_builder_example_1000_renown_2500_force() -> None:
    # 004_f4ea5693af0644ce.txt Force Builder (line 990): 900 renown spent, 100 becomes force:
    # 2600 Points of Force, 1300 of which on monsters and vehicles
    b = force_budget(1000, 2500, 900)
    assert b["renown_unused"] == 100
    assert b["force_available"] == 2600
    assert b["vehicles_monsters_cap"] == 1300
    assert b["force_available"] - 950 == 1650


def test_004_force_builder_hero_point_budget_example() -> None:
    # 004_f4ea5693af0644ce.txt Force Builder (line 987): 1000 renown + 2000 force: 20 HP
    assert force_budget(1000, 2000, 0)["hero_point_budget"] == 20
    assert force_budget(1000, 2149, 0)["hero_point_budget"] == 20  # full 150s only


def test_004_force_builder_example_force_file() -> None:
    # 004_f4ea5693af0644ce.txt Force Builder V2.1 (lines 971-990): examples/stormreavers.yaml
    from warbench.rulesets.warengine.io import load_force

    c = force_cost(load_force(EXAMPLES / "stormreavers.yaml"))
    assert c.renown_spent == 244
    assert c.renown_unused == 256
    assert c.force_available == 1256
    assert c.vehicles_monsters_cap == 628
    assert [u.points for u in c.units] == [244, 6 * 46 + 2 * 72 + 85 - 10, 180]
    assert c.hero_points == 9
    assert c.hero_point_budget == 10
