"""The effects engine at the effects level: the stacking algebra (Perks 000_94ecc6a4c74d351b.txt
§12.1 L111-L219), the tests (§12.2 L245-L320), statuses and the end of a Game Turn (§12.1
L92-L96), and the worked examples of §12.2 (the Dwarf Seekers L363-L430, the Oracle
L432-L480)."""

from __future__ import annotations

import doctest
from fractions import Fraction

import pytest

from warbench.kernel.dice import ScriptedDice
from warbench.rulesets.warsurge.effects import algebra, rolls, runtime, statuses, table
from warbench.rulesets.warsurge.effects.algebra import armour_save, combine
from warbench.rulesets.warsurge.effects.model import (
    EffectKind,
    Modifier,
    Op,
    PerkTest,
    Quantity,
    TestSpec,
)
from warbench.rulesets.warsurge.effects.statuses import Marker, add_marker, end_of_turn
from warbench.rulesets.warsurge.effects.table import load_table


def M(q: Quantity, op: Op, v: int | str, perk: str, source: str = "", **kw: object) -> Modifier:
    return Modifier(q, op, Fraction(v), perk, source, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize("module", [algebra, rolls, statuses, runtime, table])
def test_docstring_examples_hold(module: object) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert result.failed == 0


# -- §12.1 Stacking Perk Effects (L111-L125) ----------------------------------------------------


def test_l113_example_1_defence_4_reduced_by_four_sources_is_0() -> None:
    mods = [M(Quantity.DEFENCE, Op.ADD, -1, "Pulverise", f"unit {k}") for k in range(4)]
    r = combine(Quantity.DEFENCE, 4, mods)
    assert r.value == 0 and len(r.steps) == 4


def test_l113_the_same_source_counts_once_and_a_fifth_source_stays_at_0() -> None:
    same = [M(Quantity.DEFENCE, Op.ADD, -1, "Pulverise", "unit 1")] * 3
    assert combine(Quantity.DEFENCE, 4, same).value == 3
    five = [M(Quantity.DEFENCE, Op.ADD, -1, "Pulverise", f"u{k}") for k in range(5)]
    assert combine(Quantity.DEFENCE, 4, five).value == 0  # a Stat floors at 0


def test_l2658_a_perk_that_does_not_stack_counts_once_whatever_its_sources() -> None:
    mods = [
        M(Quantity.MOVE, Op.MUL, "1/2", "Cripple I", "a", stacks=False),
        M(Quantity.MOVE, Op.MUL, "1/2", "Cripple I", "b", stacks=False),
    ]
    assert combine(Quantity.MOVE, 8, mods).value == 4


def test_l117_example_2_a_5_plus_armour_reduced_by_2_is_no_save() -> None:
    assert armour_save(5, stat_changes=-2).stat is None
    assert armour_save(5, stat_changes=-1).stat == 6


# -- §12.1 Perks and Stat Changes (L195-L203) ---------------------------------------------------


def test_l199_power_5_plus_3_then_doubled_is_16_whatever_the_listing_order() -> None:
    mods = [
        M(Quantity.POWER, Op.MUL, 2, "Doubler"),
        M(Quantity.POWER, Op.ADD, 2, "A"),
        M(Quantity.POWER, Op.ADD, 1, "B"),
    ]
    r = combine(Quantity.POWER, 5, mods)
    assert r.value == 16
    assert [s.after for s in r.steps] == [7, 8, 16]
    assert r.explain() == "Power 5: A +2 (5->7), B +1 (7->8), Doubler x2 (8->16) = 16"


def test_a_set_comes_before_additions_and_caps_come_last() -> None:
    mods = [
        M(Quantity.ARMOUR, Op.MAX, 3, "Cap"),
        M(Quantity.ARMOUR, Op.ADD, 2, "Plus"),
        M(Quantity.ARMOUR, Op.SET, 4, "Wild Armour"),
    ]
    assert combine(Quantity.ARMOUR, 0, mods).value == 3  # 4, +2 = 6, capped at 3


# -- §12.1 Armour: Stat Changes and Dice Modifiers (L205-L209) ----------------------------------


def test_l205_corrode_is_a_stat_change_so_ap_4_ignores_a_corroded_3_plus() -> None:
    corroded = armour_save(3, stat_changes=-1, ap=4)
    assert corroded.stat == 4 and corroded.ignored and not corroded.rollable


def test_l207_penetrate_is_a_dice_modifier_so_ap_4_does_not_ignore_the_3_plus() -> None:
    pen = armour_save(3, dice_modifier=-1, ap=4)
    assert pen.stat == 3 and not pen.ignored and pen.needed == 4 and pen.rollable


def test_l1465_a_unit_without_armour_can_gain_one_and_saves_stop_at_2_plus() -> None:
    assert armour_save(None, stat_changes=2).stat == 5
    assert armour_save(3, stat_changes=3).stat == 2


# -- §12.1 Damage Increasers (L211-L219) ---------------------------------------------------------


def test_l217_damage_order_names_catalogued_ranks_that_the_attack_sequence_implements() -> None:
    t = load_table()
    for _stage, perks in algebra.DAMAGE_ORDER:
        for name in perks:
            assert "attack sequence" in t.get(name).machineries


# -- §12.2 tests ---------------------------------------------------------------------------------


def test_l249_aether_9_or_lower_passes_10_fails_2_doubles_12_backlashes() -> None:
    spec = TestSpec(PerkTest.AETHER)
    assert rolls.run_test(ScriptedDice([4, 5]), spec).passed
    assert not rolls.run_test(ScriptedDice([5, 5]), spec).passed
    assert rolls.run_test(ScriptedDice([1, 1]), spec).doubled
    r = rolls.run_test(ScriptedDice([6, 6]), spec)
    assert r.backlash and not r.passed


def test_l1677_resist_makes_a_9_count_as_10_and_an_11_count_as_12() -> None:
    spec = TestSpec(PerkTest.AETHER)
    assert not rolls.run_test(ScriptedDice([4, 5]), spec, -1).passed
    assert rolls.run_test(ScriptedDice([5, 6]), spec, -1).backlash


def test_l2716_fugue_fails_mastery_and_skill_tests_without_a_roll() -> None:
    dice = ScriptedDice([6])
    r = rolls.run_test(dice, TestSpec(PerkTest.SKILL), auto_fail=True)
    assert not r.passed and dice.remaining == 1


def test_l263_a_d6_x_plus_test() -> None:
    assert rolls.run_test(ScriptedDice([4]), TestSpec(PerkTest.D6, 4)).passed
    assert not rolls.run_test(ScriptedDice([5]), TestSpec(PerkTest.D6, 6)).passed


# -- §12.2 worked example, Standard: the Dwarf Seekers (L363-L430) -------------------------------


def test_l375_seekers_move_6_with_augment_armour_and_adrenaline_move_16() -> None:
    """I: "+6" for Augment Armour, then +33% for Adrenaline": 6 + 6 = 12, x4/3 = 16."""
    adrenaline = [m for e in load_table().get("Adrenaline").effects for m in e.modifiers]
    augment = M(Quantity.MOVE, Op.ADD, 6, "Augment Armour")  # the example's Move option
    r = combine(Quantity.MOVE, 6, [*adrenaline, augment])
    assert r.value == 16
    assert r.contributors == ("Augment Armour", "Adrenaline")


def test_l666_adrenaline_rounds_up_and_a_0_stays_0() -> None:
    adrenaline = [m for e in load_table().get("Adrenaline").effects for m in e.modifiers]
    assert combine(Quantity.MOVE, 5, adrenaline).value == 7  # 6.67 rounded up
    assert combine(Quantity.DASH, 0, adrenaline).value == 0
    assert combine(Quantity.DEFENCE, 4, adrenaline).value == 5


def test_l383_seekers_terrify_mastery_test_needs_5_plus_against_resist_and_a_6_passes() -> None:
    """II: "Resist … lowers the chance of enemy Mastery Tests by -1, making the Mastery Test
    require a 5+ to succeed. The Dwarves pass by rolling a 6"."""
    terrify = load_table().get("Terrify")
    (spec,) = terrify.tests
    r = rolls.run_test(ScriptedDice([6]), spec, modifier=-1)
    assert r.needed == 5 and r.passed
    assert not rolls.run_test(ScriptedDice([4]), spec, modifier=-1).passed


def test_l395_seekers_recover_is_an_activated_perk_used_once_per_game_turn() -> None:
    """III/B: Recover is used in the Dash Phase after the unit lost HP: Activate, once per
    Game Turn in the Standard playstyle (§12.2 L227), D3 HP (L1611)."""
    row = load_table().get("Recover")
    assert row.uses.per_turn == 1 and row.uses.per_game is None
    (effect,) = row.effects
    assert effect.kind is EffectKind.RESTORE and effect.amount == "D3"


# -- §12.2 worked example, Advanced: the Oracle (L432-L480) --------------------------------------


def test_l437_oracle_cure_i_after_a_mastery_test_strips_burn_from_the_hoplites() -> None:
    t = load_table()
    cure = t.get("Cure I")
    assert cure.target.radius == 18 and cure.tests[0].kind is PerkTest.MASTERY
    hoplites = (Marker("Burn", "Lord of Wrath", None), Marker("Adrenaline", "self", 1))
    assert rolls.run_test(ScriptedDice([4]), cure.tests[0]).passed
    (effect,) = cure.effects
    kept = runtime.clear_markers(hoplites, effect)
    assert [m.name for m in kept] == ["Adrenaline"]  # only negative effects go


def test_l441_oracle_illusion_ii_twice_and_blink_i_once_per_game() -> None:
    t = load_table()
    assert t.get("Illusion II").uses.per_game == 2
    assert t.get("Blink I").uses.per_game == 1
    blink = t.get("Blink I")
    assert runtime.use_refusal(blink, used_in_game=0, used_this_turn=0) is None
    assert "once per game" in (runtime.use_refusal(blink, used_in_game=1, used_this_turn=0) or "")
    illusion = t.get("Illusion II")
    assert runtime.use_refusal(illusion, used_in_game=1, used_this_turn=0, advanced=True) is None
    assert runtime.use_refusal(illusion, used_in_game=2, used_this_turn=0, advanced=True)


def test_l227_standard_a_perk_is_used_once_per_game_turn_advanced_again_for_cp() -> None:
    recover = load_table().get("Recover")
    assert runtime.use_refusal(recover, used_in_game=3, used_this_turn=1)
    assert runtime.use_refusal(recover, used_in_game=3, used_this_turn=1, advanced=True) is None


# -- statuses: durations and the end of a Game Turn (§12.1 L92-L96) -----------------------------


def test_l94_every_ongoing_effect_applies_before_any_is_removed() -> None:
    ms = [Marker("Burn", "A", None), Marker("Poison", "B", 1), Marker("Pulverise", "A", 1)]
    r = end_of_turn(ms, runtime.acts_at_turn_end())
    assert [m.name for m in r.applied] == ["Burn", "Poison"]  # Poison acts on its last turn
    assert [m.name for m in r.expired] == ["Poison", "Pulverise"]


def test_l2658_a_next_turn_affliction_waits_a_turn_then_lasts_one() -> None:
    ms = add_marker((), Marker("Cripple", "A", 1, delay=1), stacks=False)
    assert statuses.active(ms) == []
    ms = end_of_turn(ms, ()).kept
    assert [m.name for m in statuses.active(ms)] == ["Cripple"]
    assert end_of_turn(ms, ()).kept == ()


def test_l2826_poison_same_source_refreshes_different_sources_stack() -> None:
    ms = add_marker((), Marker("Poison", "Unit A/Blade", None))
    ms = add_marker(ms, Marker("Poison", "Unit A/Blade", None))
    assert len(ms) == 1
    ms = add_marker(ms, Marker("Poison", "Unit B/Dart", None))
    dice = ScriptedDice([2, 5])
    loss = [runtime.turn_end_loss(m, dice) for m in ms]
    assert loss == [1, 3]  # D3 each: a 2 is 1, a 5 is 3


def test_l2616_burn_costs_1_hp_each_turn_end() -> None:
    assert runtime.turn_end_loss(Marker("Burn", "X", None), ScriptedDice([])) == 1


def test_l2836_pulverise_markers_from_two_sources_lower_defence_by_2() -> None:
    ms = [Marker("Pulverise", "A", 1), Marker("Pulverise", "B", 1), Marker("Pulverise", "A", 1)]
    assert runtime.stat(Quantity.DEFENCE, 4, ms).value == 2


# -- afflictions inflicted on HP Loss ------------------------------------------------------------


def test_l119_example_3_three_hp_loss_and_a_skill_test_tests_three_times() -> None:
    dice = ScriptedDice([1, 2, 4])
    ms, log = runtime.inflict_on_hp_loss(["Cripple I"], 3, (), frozenset(), "A/Gun", dice)
    assert dice.remaining == 0 and [m.name for m in ms] == ["Cripple"]
    assert log[0].landed and ms[0].delay == 1


def test_l2658_cripple_fails_when_every_skill_test_fails() -> None:
    ms, log = runtime.inflict_on_hp_loss(
        ["Cripple I"], 2, (), frozenset(), "A/Gun", ScriptedDice([3, 3])
    )
    assert ms == () and not log[0].landed


def test_l1527_fire_resist_i_is_immune_to_burn_and_rolls_nothing() -> None:
    immune = runtime.immunities(["Fire Resist I"])
    ms, log = runtime.inflict_on_hp_loss(["Burn"], 1, (), immune, "A/Torch", ScriptedDice([]))
    assert ms == () and log[0].blocked


# -- the table ------------------------------------------------------------------------------------


def test_the_table_has_one_row_per_rank_citing_its_catalog_line() -> None:
    from warbench.rulesets.warsurge.perks import PerkCatalog

    t = load_table()
    assert len(t) == 386
    for row, perk in zip(t, PerkCatalog.load(), strict=True):
        assert row.name == perk.name
        assert perk.rule.endswith(f"line {row.line}")


def test_the_table_refuses_an_undeclared_machinery_when_it_loads() -> None:
    import json

    from warbench.kernel.errors import DataFileError
    from warbench.rulesets.warsurge.effects.table import from_json

    doc = json.loads(
        __import__("importlib.resources", fromlist=["files"])
        .files("warbench.rulesets.warsurge.effects")
        .joinpath("data/effects.json")
        .read_text("utf-8")
    )
    doc["rows"][0]["effects"] = [{"kind": "machinery", "machinery": "teleporter"}]
    with pytest.raises(DataFileError, match="machinery 'teleporter' is not declared"):
        from_json(json.dumps(doc))
    doc["rows"][0]["effects"] = [{"kind": "modify", "modifiers": [
        {"quantity": "Luck", "op": "add", "value": "1"}]}]  # fmt: skip
    with pytest.raises(DataFileError, match="quantity 'Luck' is not one of"):
        from_json(json.dumps(doc))
    doc["rows"][0]["effects"] = []
    doc["rows"][0], doc["rows"][1] = doc["rows"][1], doc["rows"][0]
    with pytest.raises(DataFileError, match="in book order"):
        from_json(json.dumps(doc))


def test_the_committed_table_is_what_the_builder_writes() -> None:
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[4] / "scripts" / "build_effects_table.py"
    spec = importlib.util.spec_from_file_location("build_effects_table", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.OUT.read_text("utf-8") == mod.render()
