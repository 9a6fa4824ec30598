"""Every Troop Builder and Force Builder limit (004_f4ea5693af0644ce.txt), all listed at once."""

from __future__ import annotations

from typing import Any

import pytest
from we_helpers import EXAMPLES, figure, force, trooper, unit

from warbench.kernel.errors import ProfileError
from warbench.rulesets.warengine.io import load_figure, load_force
from warbench.rulesets.warengine.tables import catalogue
from warbench.rulesets.warengine.validation import check_figure, check_force, require_legal


def fields(found: list[Any]) -> list[str]:
    return [f"{v.field}:{v.value}" for v in found]


def test_004_figure_builder_example_warpeyes_is_legal() -> None:
    # 004_f4ea5693af0644ce.txt Figure Builder Example (line 953): "well under his maximum"
    assert check_figure(load_figure(EXAMPLES / "warpeyes.yaml")) == []
    assert check_figure(load_figure(EXAMPLES / "reaver_sergeant.yaml")) == []
    assert check_force(load_force(EXAMPLES / "stormreavers.yaml")) == []


@pytest.mark.parametrize(
    ("field", "type_", "legal", "over"),
    [
        ("mv", "T", '12"', '15"'),
        ("mv", "E", '18"', '21"'),
        ("mv", "C", '18"', '21"'),
        ("mv", "H", '18"', '21"'),
        ("mv", "M", '21"', '24"'),
        ("mv", "L", '24"', None),
        ("df", "T", "3k2", "3k3"),
        ("df", "E", "4k3", "4k4"),
        ("df", "C", "5k4", "5k5"),
        ("df", "L", "5k4", "5k5"),
        ("df", "M", "5k5", "6k5"),
        ("df", "H", "6k5", None),
        ("mn", "T", "4k3", "4k4"),
        ("mn", "E", "5k4", "5k5"),
        ("mn", "C", "A", None),
        ("mn", "M", "A", None),
        ("cr", "T", '6"', '7"'),
        ("cr", "E", '8"', '9"'),
        ("cr", "C", '10"', None),
        ("cr", "H", '10"', None),
    ],
)
def test_004_troop_builder_per_type_maxima(
    field: str, type_: str, legal: str, over: str | None
) -> None:
    # 004_f4ea5693af0644ce.txt Troop Builder: Movement, Defense, Mental, Control Radius tables
    # "Max for Type" notes (lines 662-727)
    assert check_figure(figure(type=type_, **{field: legal})) == []
    if over is not None:
        found = check_figure(figure(type=type_, **{field: over}))
        assert [v.field for v in found] == [field]
        assert "maximum" in found[0].explanation and legal in found[0].fix


@pytest.mark.parametrize(
    ("type_", "max_hp"), [("T", 4), ("E", 6), ("C", 12), ("L", 4), ("M", 8), ("H", 12)]
)
def test_004_troop_builder_max_hero_points_per_type(type_: str, max_hp: int) -> None:
    # 004_f4ea5693af0644ce.txt Troop Builder: Figure Type Table, Max Hero Points (lines 651-658)
    assert check_figure(figure(type=type_, hero_points=max_hp)) == []
    assert fields(check_figure(figure(type=type_, hero_points=max_hp + 1))) == [
        f"hero_points:{max_hp + 1}"
    ]


@pytest.mark.parametrize(
    ("type_", "max_tp"), [("T", 15), ("E", 25), ("C", 60), ("L", 15), ("M", 25), ("H", 50)]
)
def test_004_troop_builder_max_tweak_points_per_type(type_: str, max_tp: int) -> None:
    # 004_f4ea5693af0644ce.txt Troop Builder: Figure Type Table, Max Tweak Points (lines 651-658);
    # weapon tweaks count too (line 733): a Poisoned weapon uses 12 of them
    cat = catalogue()
    weapons = [{"name": "w", "av": "1k1", "tweaks": ["Poisoned"]}]
    open_edges = [n for n, t in cat.personal_tweaks.items() if t.types is None and t.cost > 0]
    open_edges = [n for n in open_edges if not cat.personal_tweaks[n].requires]
    tweaks: list[str] = [] if type_ in "TEC" else ["Vehicle"]
    used = 12
    for name in sorted(open_edges, key=lambda n: -cat.personal_tweaks[n].cost):
        if used + cat.personal_tweaks[name].cost <= max_tp:
            tweaks.append(name)
            used += cat.personal_tweaks[name].cost
    assert used == max_tp
    assert check_figure(figure(type=type_, tweaks=tweaks, weapons=weapons)) == []
    found = check_figure(figure(type=type_, tweaks=[*tweaks, "Vindictive"], weapons=weapons))
    assert fields(found) == [f"tweaks:{max_tp + 2}"]
    assert "tweak points" in found[0].explanation


def test_004_troop_builder_summoned_not_counted_in_tweak_limit() -> None:
    # 004_f4ea5693af0644ce.txt Personal Tweaks: Summoned (line 1433)
    assert check_figure(figure(tweaks=["Summoned", "Lucky Bastard"])) == []
    assert fields(check_figure(figure(tweaks=["Kamikaze", "Lucky Bastard"]))) == ["tweaks:24"]


@pytest.mark.parametrize(
    ("type_", "slots"), [("T", 2), ("E", 3), ("C", 4), ("L", 3), ("M", 4), ("H", 5)]
)
def test_004_weapon_slot_allowance_counts(type_: str, slots: int) -> None:
    # 004_f4ea5693af0644ce.txt Weapon Slot Allowance (lines 751-762)
    cc = {"name": "club", "av": "1k1"}
    assert check_figure(figure(type=type_, weapons=[cc] * slots)) == []
    found = check_figure(figure(type=type_, weapons=[cc] * (slots + 1)))
    assert fields(found) == [f"weapons:{slots + 1}"]


def test_004_weapon_master_adds_a_slot() -> None:
    # 004_f4ea5693af0644ce.txt Personal Tweaks: Weapon Master (line 1669)
    cc = {"name": "club", "av": "1k1"}
    assert check_figure(figure(type="T", tweaks=["Weapon Master"], weapons=[cc] * 3)) == []
    assert check_figure(figure(type="L", tweaks=["Vehicle", "Weapon Master"]))  # T, E, C only


def test_004_weapon_slots_first_slot_close_combat_only() -> None:
    # 004_f4ea5693af0644ce.txt Weapon Slots (line 749): the first slot is close combat only
    gun = {"name": "gun", "range": '12"', "av": "1k1"}
    assert check_figure(figure(type="T", weapons=[gun])) == []
    found = check_figure(figure(type="T", weapons=[gun, gun]))
    assert fields(found) == ["weapons:2"]
    assert "first weapon slot" in found[0].explanation


@pytest.mark.parametrize(
    ("type_", "avs", "ok"),
    [
        ("T", ["4k3", "4k3"], True),
        ("T", ["1k1", "4k4"], True),  # one heavy; the unit limits how many troopers (line 753)
        ("T", ["4k4", "4k4"], False),
        ("T", ["1k1", "5k5"], False),
        ("E", ["1k1", "5k4", "4k3"], True),
        ("E", ["4k4", "5k4"], False),
        ("E", ["1k1", "5k5"], False),
        ("C", ["4k4", "5k5", "4k3", "4k3"], True),
        ("C", ["4k4", "5k4", "4k3"], True),
        ("C", ["4k4", "5k4", "5k4"], False),
        ("C", ["5k5", "6k5"], False),
        ("L", ["5k4", "5k4", "5k4"], True),
        ("L", ["5k5"], False),
        ("M", ["5k5", "5k4", "5k4", "5k4"], True),
        ("M", ["5k5", "6k5"], False),
        ("H", ["6k5", "6k5", "6k5", "6k5", "6k5"], True),
    ],
)
def test_004_weapon_slot_allowance_heavy_and_support(type_: str, avs: list[str], ok: bool) -> None:
    # 004_f4ea5693af0644ce.txt Weapon Slot Allowance (lines 751-762) with the AV Table classes
    # (Basic up to 4k3, Heavy 4k4-5k4, Support 5k5-6k5; lines 783-794)
    weapons = [{"name": f"w{i}", "av": av} for i, av in enumerate(avs)]
    found = check_figure(figure(type=type_, weapons=weapons))
    assert (found == []) is ok, found


@pytest.mark.parametrize(
    ("tweak", "type_", "ok"),
    [
        ("Butthole Sergeant", "T", False),
        ("Easily Controlled", "C", False),
        ("Easily Controlled", "E", True),
        ("Fickle Finger of Fate", "E", False),
        ("Fickle Finger of Fate", "C", True),
        ("Force Leader", "E", False),
        ("Monster", "C", False),
        ("Vehicle", "T", False),
        ("Vehicular Commander", "C", False),
        ("Sole Survivor", "C", False),
        ("Sole Survivor", "T", True),
        ("Terrifying", "E", False),
        ("Terrifying", "C", True),
        ("Weapon Master", "H", False),
        ("Monstrously Huge", "E", False),
    ],
)
def test_004_personal_tweaks_type_restrictions(tweak: str, type_: str, ok: bool) -> None:
    # 004_f4ea5693af0644ce.txt Personal Tweaks: "Character only", "Trooper or Elite only",
    # "Light, Medium, Heavy only" ... (lines 1353-1681)
    tweaks = [tweak] if type_ in "TEC" else [tweak, "Vehicle"]
    found = [v for v in check_figure(figure(type=type_, tweaks=tweaks)) if v.value == tweak]
    assert (found == []) is ok, found


def test_004_personal_tweaks_conditions() -> None:
    # 004_f4ea5693af0644ce.txt Personal Tweaks: Butthole Sergeant needs a Control Radius
    # (1475), Regeneration Hero Points (1601), Trigger Happy a ranged attack (1437), Stupid
    # no Auto Mental (1425), Blood Rage no ranged weapons (1367), Monstrously Huge a vehicle
    # with no Movement (1401-1403)
    gun = {"name": "gun", "range": '12"', "av": "1k1"}
    assert check_figure(figure(type="E", tweaks=["Butthole Sergeant"]))
    assert not check_figure(figure(type="E", cr='4"', tweaks=["Butthole Sergeant"]))
    assert check_figure(figure(tweaks=["Regeneration"]))
    assert not check_figure(figure(tweaks=["Regeneration"], hero_points=1))
    assert check_figure(figure(tweaks=["Trigger Happy"]))
    assert not check_figure(figure(tweaks=["Trigger Happy"], weapons=[gun]))
    assert check_figure(figure(type="C", mn="A", tweaks=["Stupid"]))
    assert not check_figure(figure(type="C", mn="5k5", tweaks=["Stupid"]))
    assert check_figure(figure(tweaks=["Blood Rage"], weapons=[gun]))
    assert check_figure(figure(type="L", tweaks=["Monster", "Monstrously Huge"]))
    assert check_figure(figure(type="L", mv='3"', tweaks=["Vehicle", "Monstrously Huge"]))
    assert not check_figure(figure(type="L", tweaks=["Vehicle", "Monstrously Huge"]))


def test_004_personal_tweaks_monster_or_vehicle_required() -> None:
    # 004_f4ea5693af0644ce.txt Personal Tweaks: Monster / Vehicle (lines 1597, 1675)
    for t in ("L", "M", "H"):
        assert fields(check_figure(figure(type=t, tweaks=[]))) == ["tweaks:(none)"]
        assert check_figure(figure(type=t, tweaks=["Monster"])) == []
        assert check_figure(figure(type=t, tweaks=["Monster", "Vehicle"]))


def test_004_personal_tweaks_once_per_figure() -> None:
    # 004_f4ea5693af0644ce.txt Personal Tweaks overview (line 1359)
    assert fields(check_figure(figure(tweaks=["Tough", "Tough"]))) == ["tweaks:Tough"]


def test_004_weapon_tweaks_once_per_weapon() -> None:
    # 004_f4ea5693af0644ce.txt Weapon Tweaks overview (line 1689)
    w = {"name": "w", "av": "1k1", "tweaks": ["Extra Bite", "Extra Bite"]}
    assert fields(check_figure(figure(weapons=[w]))) == ["tweaks:Extra Bite"]


@pytest.mark.parametrize(
    ("w", "ok"),
    [
        ({"range": '12"', "tweaks": ["Long"]}, False),
        ({"tweaks": ["Long"]}, True),
        ({"range": '12"', "tweaks": ["Very Long"]}, False),
        ({"range": '12"', "tweaks": ["Charging Weapon"]}, False),
        ({"range": '12"', "tweaks": ["Entangling"]}, False),
        ({"range": '12"', "tweaks": ["Parry Weapon"]}, False),
        ({"tweaks": ["Sniper Scope"]}, False),
        ({"range": '12"', "tweaks": ["Sniper Scope"]}, True),
        ({"range": '12"', "ae": "2x", "aet": "Bu", "tweaks": ["Sniper Scope"]}, False),
        ({"range": '12"', "ae": "2x", "aet": "Bu", "tweaks": ["High Explosive"]}, False),
        ({"range": '12"', "ae": "2x", "aet": "Ex", "tweaks": ["High Explosive"]}, True),
        ({"tweaks": ["One Shot", "Fragile"]}, False),
        ({"tweaks": ["One Shot", "Slow Reload"]}, False),
        ({"tweaks": ["One Shot", "Volatile"]}, False),
        ({"tweaks": ["Fragile", "Slow Reload", "Volatile"]}, True),
        ({"range": '12"', "ae": "2x", "aet": "CC"}, False),
        ({"ae": "2x", "aet": "Li"}, False),
        ({"ae": "2x", "aet": "Bu"}, False),
        ({"ae": "2x", "aet": "Ex"}, True),
        ({"ae": "2x"}, False),
        ({"aet": "Ex"}, False),
    ],
)
def test_004_weapon_tweaks_and_area_effect_restrictions(w: dict[str, Any], ok: bool) -> None:
    # 004_f4ea5693af0644ce.txt Weapon Tweaks "close combat weapons only", "ranged weapons
    # only, no area effect", "explosive area affect only", "May not be combined with One Shot"
    # (lines 1683-1853); Area Effect Types (lines 813-818)
    gun = {"name": "w", "av": "1k1", **w}
    weapons = [gun] if gun.get("range") is None else [{"name": "cc", "av": "1k1"}, gun]
    found = check_figure(figure(type="C", weapons=weapons))
    assert (found == []) is ok, found


def test_004_weapon_tweaks_one_shot_on_kamikaze_close_combat_weapon() -> None:
    # 004_f4ea5693af0644ce.txt Weapon Tweaks: One Shot (line 1723)
    w = {"name": "bomb", "av": "3k3", "tweaks": ["One Shot"]}
    assert check_figure(figure(tweaks=["Kamikaze"], weapons=[w]))
    assert not check_figure(figure(weapons=[w]))


def test_004_special_powers_slot_rules() -> None:
    # 004_f4ea5693af0644ce.txt Special Powers (lines 842-843): one power per slot, no other
    # weapon tweaks except Multiprofile, no Area Effect
    cc = {"name": "cc", "av": "1k1"}
    sp = {"name": "sp", "range": '12"', "av": "2k2", "power": "Rally"}
    assert check_figure(figure(type="C", weapons=[cc, sp])) == []
    assert check_figure(figure(type="C", weapons=[cc, {**sp, "tweaks": ["Long"]}]))
    assert check_figure(figure(type="C", weapons=[cc, {**sp, "ae": "2x", "aet": "Ex"}]))
    multi = {"name": "m", "tweaks": ["Multiprofile"], "profiles": [sp, {**sp, "power": "Terror"}]}
    assert check_figure(figure(type="C", weapons=[cc, multi])) == []


def test_004_special_powers_restrictions() -> None:
    # 004_f4ea5693af0644ce.txt Special Powers: Actuate Casualty close combat only (1007), Devour
    # close combat and monsters only (1061), Restore Vehicle Spirit never with a Range (1201)
    cc = {"name": "cc", "av": "1k1"}
    ranged = {"name": "p", "range": '6"', "av": "2k2"}
    assert check_figure(figure(type="C", weapons=[cc, {**ranged, "power": "Actuate Casualty"}]))
    assert check_figure(
        figure(type="C", weapons=[cc, {**ranged, "power": "Restore Vehicle Spirit"}])
    )
    devour = {"name": "jaws", "av": "2k2", "power": "Devour"}
    assert check_figure(figure(type="C", weapons=[devour]))
    assert check_figure(figure(type="L", tweaks=["Monster"], weapons=[devour])) == []


def test_004_weapon_tweaks_multiprofile_structure() -> None:
    # 004_f4ea5693af0644ce.txt Weapon Tweaks: Multiprofile (line 1811)
    p = {"name": "p", "av": "1k1"}
    assert check_figure(
        figure(weapons=[{"name": "m", "tweaks": ["Multiprofile"], "profiles": [p]}])
    )
    assert check_figure(figure(weapons=[{"name": "m", "profiles": [p, p]}]))
    assert check_figure(figure(weapons=[{"name": "m", "av": "1k1", "tweaks": ["Multiprofile"]}]))
    ok = {"name": "m", "tweaks": ["Multiprofile"], "profiles": [p, {**p, "av": "2k2"}]}
    assert check_figure(figure(weapons=[ok])) == []


def test_004_personal_tweaks_shapechanger_hero_points_of_each_type() -> None:
    # 004_f4ea5693af0644ce.txt Personal Tweaks: Shapechanger (line 1615): a character that
    # shapechanges into a light monster may not have more than four Hero Points
    wolf = {"name": "Wolf", "type": "L", "tweaks": ["Monster"]}
    assert (
        check_figure(figure(type="C", tweaks=["Shapechanger"], hero_points=4, forms=[wolf])) == []
    )
    found = check_figure(figure(type="C", tweaks=["Shapechanger"], hero_points=5, forms=[wolf]))
    assert fields(found) == ["hero_points:5"]
    assert check_figure(figure(type="C", tweaks=["Shapechanger"]))
    assert check_figure(figure(type="C", forms=[wolf]))


def test_004_all_violations_listed_at_once_with_fix() -> None:
    # 004_f4ea5693af0644ce.txt Troop Builder V2.1: every limit reported, not just the first
    gun = {"name": "gun", "range": '12"', "av": "5k5", "tweaks": ["Long", "Long"]}
    bad = figure(
        type="T", mv='24"', df="6k5", hero_points=9, tweaks=["Force Leader"], weapons=[gun] * 3
    )
    found = check_figure(bad)
    assert len(found) >= 8
    assert all(v.fix and v.explanation and v.rule.startswith("004_") for v in found)
    with pytest.raises(ProfileError) as exc:
        require_legal(bad, "bad.yaml")
    assert "bad.yaml" in str(exc.value) and "mv" in str(exc.value) and '24"' in str(exc.value)


# -- Force Builder -----------------------------------------------------------------------------


def test_004_force_builder_three_troopers_per_elite() -> None:
    # 004_f4ea5693af0644ce.txt Force Builder (line 980)
    e = {"name": "e", "type": "E"}
    f = force([unit("t", ("t", 3), ("e", 2)), unit("e", ("e", 2))], {"t": trooper(), "e": e})
    assert [v.field for v in check_force(f)] == ["units"]
    f = force([unit("t", ("t", 12), ("e", 2)), unit("e", ("e", 2))], {"t": trooper(), "e": e})
    assert check_force(f) == []


def test_004_force_builder_unit_sizes() -> None:
    # 004_f4ea5693af0644ce.txt Force Builder (lines 981-986): troopers 3+, elites 2+, up to two
    # elite leaders, light 1-3, medium 1-2, heavy alone
    e = {"name": "e", "type": "E"}
    figs = {
        "t": trooper(),
        "e": e,
        "l": {"name": "l", "type": "L", "tweaks": ["Vehicle"]},
        "m": {"name": "m", "type": "M", "tweaks": ["Monster"]},
        "h": {"name": "h", "type": "H", "tweaks": ["Monster"]},
    }
    cases = [
        (("t", 2), False), (("t", 3), True), (("e", 1), False), (("e", 2), True),
        (("l", 3), True), (("l", 4), False), (("m", 2), True), (("m", 3), False),
        (("h", 1), True), (("h", 2), False),
    ]  # fmt: skip
    for member, ok in cases:
        f = force([unit("u", member), unit("pad", ("t", 30))], figs, force=100000)
        found = [v for v in check_force(f) if v.where.startswith("units[0]")]
        assert (found == []) is ok, (member, found)
    f = force([unit("u", ("t", 9), ("e", 3))], figs, force=100000)
    assert [v.value for v in check_force(f)] == [3]
    f = force([unit("u", ("l", 1), ("m", 1))], figs, force=100000)
    assert [v.field for v in check_force(f)] == ["members"]


def test_004_troop_builder_one_heavy_weapon_per_three_troopers() -> None:
    # 004_f4ea5693af0644ce.txt Weapon Slot Allowance (line 753): one of every three troopers in
    # a unit (rounded down) may carry one heavy weapon
    figs = {"t": trooper(), "g": trooper(n_heavy=1)}
    assert check_force(force([unit("u", ("t", 4), ("g", 2))], figs)) == []
    found = check_force(force([unit("u", ("t", 3), ("g", 2))], figs))
    assert [v.value for v in found] == [2]
    assert check_force(force([unit("u", ("t", 1), ("g", 2))], figs))


def test_004_force_builder_points_of_renown_and_force() -> None:
    # 004_f4ea5693af0644ce.txt Points of Renown (971-973) and Points of Force (975-979)
    c = {"name": "c", "type": "C", "df": "5k4"}  # 36 points
    figs = {"c": c, "t": trooper()}
    assert check_force(force([unit("c", ("c", 1))], figs, renown=36, force=0)) == []
    assert [v.field for v in check_force(force([unit("c", ("c", 1))], figs, renown=35))] == [
        "renown"
    ]
    each = 2 + 4 + 8 + 4  # trooper() costs 18
    ok = force([unit("c", ("c", 1)), unit("t", ("t", 5))], figs, renown=40, force=5 * each - 4)
    assert check_force(ok) == []  # 4 unused renown become Points of Force
    bad = force([unit("t", ("t", 5))], figs, renown=0, force=5 * each - 1)
    assert [v.field for v in check_force(bad)] == ["force"]


def test_004_force_builder_half_on_monsters_and_vehicles() -> None:
    # 004_f4ea5693af0644ce.txt Points of Force (line 979): up to half on monsters and vehicles
    light = {"name": "l", "type": "L", "mv": '24"', "tweaks": ["Vehicle"]}  # 34 points
    figs = {"l": light, "t": trooper()}  # trooper: 18 points
    ok = force([unit("l", ("l", 1)), unit("t", ("t", 3))], figs, renown=0, force=88)
    assert check_force(ok) == []
    bad = force([unit("l", ("l", 3)), unit("t", ("t", 3))], figs, renown=0, force=156)
    assert [v.field for v in check_force(bad)] == ["force"]
    assert "half" in check_force(bad)[0].explanation


def test_004_personal_tweaks_vehicular_commander_renown_and_cap() -> None:
    # 004_f4ea5693af0644ce.txt Personal Tweaks: Vehicular Commander (line 1681)
    vc = {"name": "vc", "type": "L", "tweaks": ["Vehicle", "Vehicular Commander"]}  # 18
    figs = {"vc": vc, "t": trooper()}
    f = force([unit("vc", ("vc", 1)), unit("t", ("t", 3))], figs, renown=18, force=54)
    assert check_force(f) == []  # renown 18 spent; 18 <= 54 / 2
    f = force([unit("vc", ("vc", 1))], figs, renown=18, force=30)
    assert [v.field for v in check_force(f)] == ["force"]


def test_004_force_builder_hero_point_budget() -> None:
    # 004_f4ea5693af0644ce.txt Force Builder (line 987): one Hero Point per full 150 points
    figs = {"c": {"name": "c", "type": "C", "hero_points": 4}}
    units = [unit(f"c{i}", ("c", 1)) for i in range(5)]
    assert check_force(force(units, figs, renown=200, force=2800)) == []
    found = check_force(force(units, figs, renown=200, force=2799))
    assert [(v.field, v.value) for v in found] == [("hero_points", 20)]


def test_004_force_builder_characters_alone_and_one_force_leader() -> None:
    # 004_f4ea5693af0644ce.txt Characters (315, 623) and Force Leader "one per force" (1535)
    c = {"name": "c", "type": "C", "tweaks": ["Force Leader"]}
    f = force([unit("c", ("c", 2))], {"c": c})
    assert sorted(v.field for v in check_force(f)) == ["figures", "members"]


def test_004_special_powers_summoned_needs_summoning() -> None:
    # 004_f4ea5693af0644ce.txt Summoning (1279) / Summoned (1433)
    s = {**trooper(), "tweaks": ["Summoned"]}
    figs = {"s": s, "t": trooper()}
    assert [v.field for v in check_force(force([unit("s", ("s", 3))], figs))] == ["figures"]
    mage = {
        "name": "m",
        "type": "C",
        "weapons": [{"name": "call", "av": "2k2", "power": "Summoning"}],
    }
    f = force([unit("s", ("s", 3)), unit("m", ("m", 1))], {**figs, "m": mage})
    assert check_force(f) == []


def test_004_unit_tweaks_once_per_unit() -> None:
    # 004_f4ea5693af0644ce.txt Unit Tweaks overview (line 1859)
    f = force([unit("t", ("t", 3), tweaks=["Green", "Green"])], {"t": trooper()})
    assert [v.value for v in check_force(f)] == ["Green"]
