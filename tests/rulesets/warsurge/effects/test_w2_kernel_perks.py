"""Ranks of session 25 wave 2's lane w2-kernel played in the attack kernel and in a game
(Perks 000_94ecc6a4c74d351b.txt): Combat Damage (Aeonian, L1154) … Test names carry the rank's
source line (``p1154`` …), which ``warbench perks --coverage`` reads
(``scripts/build_perk_coverage.py``)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.warsurge.game.helpers import check_invariants, entry, scenario, unit, weapon
from warbench.cli import app
from warbench.cli.app import _register
from warbench.kernel.dice import ScriptedDice, SeededDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.attack import AttackContext, UnitState
from warbench.rulesets.warsurge.combat_damage import (
    CombatDamage,
    loss_distributions,
    results_in_effect,
)
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack, Move
from warbench.rulesets.warsurge.game.perk_effects import allowance
from warbench.rulesets.warsurge.game.state import GameState, Phase, Status
from warbench.rulesets.warsurge.odds import (
    AttackPlan,
    exact_attack,
    follow_on_dice,
    roll_attack,
    sample_attack,
)

# -- Combat Damage (L1154) ------------------------------------------------------------------------

GUN = weapon("Gun", range=24, attacks=2, power=6)
CANNON = weapon("Cannon", range=24, attacks=1, power=4)
CLAW = weapon("Claw", range=0, attacks=1, power=4)


def _walker_unit(perks: tuple[str, ...] = ("Combat Damage",), hp: int = 8) -> UnitState:
    return UnitState.of(unit("Walker", hp=hp, perks=list(perks), weapons=[CANNON, CLAW]))


def _shooters() -> UnitState:
    return UnitState.of(unit("Shooters", models=3, weapons=[weapon("Gun", attacks=3, power=6)]))


def test_p1154_combat_damage_one_hp_loss_is_the_d6_table_exactly() -> None:
    """One HP Loss: 1-4 cost no HP (fresh unit with a Weapon), 5 is -D3, 6 is -D6 HP."""
    dist = loss_distributions(1, CombatDamage(frozenset(), 2, True), cap=20)[1]
    assert dist[0] == pytest.approx(4 / 6)
    for hp in (1, 2, 3):
        assert dist[hp] == pytest.approx(1 / 18 + 1 / 36)
    for hp in (4, 5, 6):
        assert dist[hp] == pytest.approx(1 / 36)


def test_p1154_combat_damage_duplicates_and_no_effect_results_are_minus_1_hp() -> None:
    """ "Duplicate results of 1 to 3, or any results that will have no effect on the Unit
    become -1 HP instead": with 1-3 in effect and no Weapon left to break, 1-4 are -1 HP."""
    dist = loss_distributions(1, CombatDamage(frozenset({1, 2, 3}), 0, True), cap=20)[1]
    assert 0 not in dist
    assert dist[1] == pytest.approx(4 / 6 + 1 / 18 + 1 / 36)
    # an immobile unit with no Weapons: 1, 2, 3 and 4 have no effect at all
    bare = loss_distributions(1, CombatDamage(frozenset(), 0, False), cap=20)[1]
    assert bare[1] == pytest.approx(4 / 6 + 1 / 18 + 1 / 36)
    # two HP Losses on a fresh unit: a second 1 is a duplicate
    two = loss_distributions(2, CombatDamage(frozenset(), 1, True), cap=20)[2]
    # two distinct results of 1-4 cost nothing (12 of 36), except a 4 then a 2: the one Weapon
    # is broken, so "-3 to its Weapons" has no effect and is -1 HP
    assert two[0] == pytest.approx(11 / 36)


@pytest.mark.parametrize("done", [(), (1, 2, 4), (1, 2, 3, 4, 4)])
def test_p1154_combat_damage_exact_odds_agree_with_monte_carlo(done: tuple[int, ...]) -> None:
    plan = AttackPlan(_shooters(), _walker_unit(), AttackContext(combat_damage=done))
    exact = exact_attack(plan)
    mc = sample_attack(plan, 60_000, SeededDice(7))
    assert abs(exact.expected_hp_lost - mc.expected_hp_lost) < 4 * mc.confidence_halfwidth() + 1e-9
    for hp, p in exact.hp_lost.items():
        assert abs(p - mc.hp_lost.get(hp, 0.0)) < 0.01, hp
    assert sum(exact.hp_lost.values()) == pytest.approx(1.0)
    assert any("Combat Damage" in n for n in exact.notes)
    plain = exact_attack(replace(plan, target=_walker_unit(perks=())))
    assert not any("Combat Damage" in n for n in plain.notes)
    if not done:  # fresh, 4 of 6 results cost no HP: less HP lost on average than without it
        assert plain.expected_hp_lost > exact.expected_hp_lost
    else:  # worn, 1-4 cost 1 HP, and 5, 6 cost D3, D6: more than without it
        assert plain.expected_hp_lost < exact.expected_hp_lost


def test_p1154_combat_damage_needs_3_hp_at_the_start_of_the_game() -> None:
    """ "The User must start the game with at least 3 HP to use this Perk"."""
    small = AttackPlan(_shooters(), _walker_unit(hp=2))
    assert small.combat_damage is None
    assert AttackPlan(_shooters(), _walker_unit(hp=3)).combat_damage is not None
    # two models of 2 HP start with 4 HP: the unit may use it
    pair = UnitState.of(unit("Pair", models=2, hp=2, perks=["Combat Damage"]))
    assert AttackPlan(_shooters(), pair).combat_damage is not None


def test_p1154_combat_damage_with_tough_rolls_the_halved_hp_losses() -> None:
    """Tough halves the tally (L1793) before the table is rolled for each HP Loss."""
    plan = AttackPlan(_shooters(), _walker_unit(perks=("Combat Damage", "Tough")))
    exact = exact_attack(plan)
    mc = sample_attack(plan, 60_000, SeededDice(3))
    assert abs(exact.expected_hp_lost - mc.expected_hp_lost) < 4 * mc.confidence_halfwidth() + 1e-9


def test_p1154_roll_attack_reports_the_results_that_took_effect() -> None:
    plan = AttackPlan(UnitState.of(unit("S", weapons=[GUN])), _walker_unit())
    # two Attack Dice hit (6, 6); the table: 5 then D3 (face 6: 3 HP), then 2
    rolled = roll_attack(plan, ScriptedDice([6, 6, 5, 6, 2]))
    assert rolled.loss == 3
    assert rolled.combat_damage == (2,)


# -- in a game --------------------------------------------------------------------------------


def _game(
    perks: tuple[str, ...] = ("Combat Damage",),
    statuses: tuple[Status, ...] = (),
    active: int = 0,
    phase: Phase = Phase.ATTACK,
) -> GameState:
    """A Shooter (unit 0, a Gun: 2 Attacks at Power 6) 9" from a Walker (unit 1, 8 HP, a
    Cannon and a Claw), in side 0's Attack Phase."""
    shooter = entry(unit("Shooter", weapons=[GUN]))
    walker = entry(unit("Walker", hp=8, perks=list(perks), weapons=[CANNON, CLAW]))
    state = scenario([[shooter], [walker]], {0: [(10.0, 10.0)], 1: [(20.0, 10.0)]},
                     phase=phase, active=active)  # fmt: skip
    if statuses:
        state = replace(state, units=(state.units[0], replace(state.units[1], statuses=statuses)))
    return state


def _names(state: GameState, uid: int) -> set[str]:
    return {s.name for s in state.units[uid].statuses}


def test_p1154_combat_damage_in_a_game_turns_hp_losses_into_statuses() -> None:
    # two hits (6, 6) on the Walker; the table rolls 1 (Movement) and 4 (a Weapon broken)
    after, events = engine.apply(_game(), Attack(0, (("Gun", 1),)), dice=ScriptedDice([6, 6, 1, 4]))
    check_invariants(after)
    assert after.units[1].hp == (8,)
    assert _names(after, 1) == {"Combat Damage (Movement) (next Game Turn)", "Broken@Cannon"}
    assert any(e.kind == "perk" and "Combat Damage rolls 1" in e.text for e in events)
    # without the perk the two hits are 2 HP and nothing else
    plain, _ = engine.apply(_game(()), Attack(0, (("Gun", 1),)), dice=ScriptedDice([6, 6, 1, 4]))
    assert plain.units[1].hp == (6,)
    assert not plain.units[1].statuses


def test_p1154_combat_damage_5_is_d3_hp_and_6_is_d6_hp_in_a_game() -> None:
    # table 5 (D3 on face 3: 2 HP) then 6 (D6: 4 HP)
    after, _ = engine.apply(
        _game(), Attack(0, (("Gun", 1),)), dice=ScriptedDice([6, 6, 5, 3, 6, 4])
    )
    assert after.units[1].hp == (2,)


def test_p1154_combat_damage_duplicate_in_a_game_is_minus_1_hp() -> None:
    waiting = (Status("Combat Damage (Movement) (next Game Turn)", 1, "u1/Combat Damage"),)
    after, _ = engine.apply(
        _game(statuses=waiting), Attack(0, (("Gun", 1),)), dice=ScriptedDice([6, 6, 1, 3])
    )
    assert after.units[1].hp == (7,)  # the 1 is a duplicate: -1 HP; the 3 takes effect
    assert "Combat Damage (Immobile) (next Game Turn)" in _names(after, 1)


def test_p1154_combat_damage_the_attacker_breaks_the_last_weapon_then_4_is_minus_1_hp() -> None:
    broken = (Status("Broken@Cannon", None, "u1/Combat Damage"),)
    after, _ = engine.apply(
        _game(statuses=broken), Attack(0, (("Gun", 1),)), dice=ScriptedDice([6, 6, 4, 4])
    )
    assert after.units[1].hp == (7,)  # the Claw breaks; the second 4 has no Weapon left
    assert {"Broken@Cannon", "Broken@Claw"} <= _names(after, 1)
    assert results_in_effect(_names(after, 1)) == (4, 4)


def _walker_acts(statuses: tuple[Status, ...]) -> GameState:
    """The Walker's side (1) in its Attack Phase, the Shooter 9" away."""
    return _game(statuses=statuses, active=1)


def test_p1154_combat_damage_broken_weapon_and_immobile_refuse_weapons() -> None:
    broken = (Status("Broken@Cannon", None, "u1/Combat Damage"),)
    with pytest.raises(RulesError, match="Cannon is broken"):
        engine.apply(_walker_acts(broken), Attack(1, (("Cannon", 0),)), dice=SeededDice(1))
    immobile = (Status("Combat Damage (Immobile)", 1, "u1/Combat Damage"),)
    with pytest.raises(RulesError, match="Immobile and can't use Weapons"):
        engine.apply(_walker_acts(immobile), Attack(1, (("Cannon", 0),)), dice=SeededDice(1))
    # waiting for the next Game Turn, it does not stop the Weapons yet
    waiting = (Status("Combat Damage (Immobile) (next Game Turn)", 1, "u1/Combat Damage"),)
    after, _ = engine.apply(_walker_acts(waiting), Attack(1, (("Cannon", 0),)), dice=SeededDice(1))
    check_invariants(after)


def test_p1154_combat_damage_movement_halved_and_immobile_next_game_turn() -> None:
    half = (Status("Combat Damage (Movement)", 1, "u1/Combat Damage"),)
    assert allowance(half, False, 6) == 3 and allowance(half, True, 6) == 3
    stuck = (Status("Combat Damage (Immobile)", 1, "u1/Combat Damage"),)
    assert allowance(stuck, False, 6) == 0
    state = _game(statuses=stuck, active=1, phase=Phase.MOVE)
    with pytest.raises(RulesError, match="Move of 0"):
        engine.apply(state, Move(1, (22.0, 10.0)), dice=SeededDice(1))


def test_p1154_combat_damage_2_is_minus_3_to_the_next_attack_then_spent() -> None:
    """The Cannon (Power 4) at the Shooter (Defence 4): a 5 hits without the 2, not with it."""
    minus = (Status("Combat Damage (Attack Dice)", None, "u1/Combat Damage"),)
    after, events = engine.apply(
        _walker_acts(minus), Attack(1, (("Cannon", 0),)), dice=ScriptedDice([5])
    )
    text = next(e.text for e in events if e.kind == "attack")
    assert "0 successes" in text
    assert "Combat Damage (Attack Dice)" not in _names(after, 1)  # spent by this Attack
    _, events = engine.apply(_walker_acts(()), Attack(1, (("Cannon", 0),)), dice=ScriptedDice([5]))
    assert "1 successes" in next(e.text for e in events if e.kind == "attack")


runner = CliRunner()
_register()


def test_p1154_odds_combat_damage_option(tmp_path: Path) -> None:
    a = tmp_path / "a.yaml"
    t = tmp_path / "t.yaml"
    a.write_text(
        "unit: {name: Shooters, move: 6, dash: 6, defence: 4, hp: 1}\n"
        "weapons: [{name: Gun, range: 24, attacks: 3, power: 6}]\n"
        "models: [{count: 3, weapons: [Gun]}]\n"
    )
    t.write_text(
        "unit: {name: Walker, move: 6, dash: 6, defence: 4, hp: 8, perks: [Combat Damage]}\n"
        "weapons: [{name: Cannon, range: 24, attacks: 1, power: 4}]\n"
        "models: [{count: 1, weapons: [Cannon]}]\n"
    )

    def mean(*extra: str) -> float:
        out = runner.invoke(app, ["odds", str(a), str(t), "--json", *extra])
        assert out.exit_code == 0, out.output
        value = json.loads(out.output)["expected_hp_lost"]
        assert isinstance(value, float)
        return value

    fresh, worn = mean(), mean("--combat-damage", "1,2,3,4")
    assert worn > fresh  # every 1-4 is now -1 HP
    bad = runner.invoke(app, ["odds", str(a), str(t), "--combat-damage", "1,1"])
    assert bad.exit_code == 2 and "Perks L1154" in bad.output


def test_p1154_combat_damage_rolls_for_hp_lost_outside_an_attack() -> None:
    """Bleed (L2584: "Each time the Target makes any Movement, it loses 1 HP"): the HP Loss is
    a roll on the table too (a 6: D6 HP, face 2)."""
    bleed = (Status("Bleed", None, "u0/Gun"),)
    moved, _ = engine.apply(
        _game(statuses=bleed, active=1, phase=Phase.MOVE),
        Move(1, (22.0, 10.0)),
        dice=ScriptedDice([6, 2]),
    )
    check_invariants(moved)
    assert moved.units[1].hp == (6,)
    plain, _ = engine.apply(
        _game((), statuses=bleed, active=1, phase=Phase.MOVE),
        Move(1, (22.0, 10.0)),
        dice=ScriptedDice([6, 2]),
    )
    assert plain.units[1].hp == (7,)
    # a 2 leaves its status instead of HP
    minus, _ = engine.apply(
        _game(statuses=bleed, active=1, phase=Phase.MOVE),
        Move(1, (22.0, 10.0)),
        dice=ScriptedDice([2]),
    )
    assert minus.units[1].hp == (8,)
    assert "Combat Damage (Attack Dice)" in _names(minus, 1)


# -- Bodyguard (L1935): the successful Attack Dice left over once the Target is slain ----------


def _guard(perks: tuple[str, ...] = ("Tough",), hp: int = 3, armour: int | None = 5) -> UnitState:
    return UnitState.of(unit("Guard", models=1, hp=hp, armour=armour, perks=list(perks)))


def _gunners() -> UnitState:
    return UnitState.of(unit("A", models=3, weapons=[weapon("Gun", attacks=3, power=5)]))


@pytest.mark.parametrize("perks", [(), ("Tough",)])
def test_p1935_bodyguard_follow_on_dice_exact_agrees_with_die_by_die_rolls(
    perks: tuple[str, ...],
) -> None:
    """The exact distribution of the successful dice left over (``follow_on_dice``) against
    the game's die-by-die roll (``roll_attack(…, follow_on=True)``)."""
    plan = AttackPlan(_gunners(), _guard(perks))
    exact = follow_on_dice(plan)
    assert sum(exact.values()) == pytest.approx(1.0)
    assert exact.get(1, 0.0) > 0.05  # the guard often falls with dice to spare
    dice = SeededDice(11)
    trials = 6000
    counts: dict[int, int] = {}
    for _ in range(trials):
        left = roll_attack(plan, dice, follow_on=True).follow_on
        counts[left] = counts.get(left, 0) + 1
    for k, p in exact.items():
        assert abs(p - counts.get(k, 0) / trials) < 0.02, k
    # the HP the guard loses is the same rolled die by die or all at once (exact odds)
    loss = exact_attack(plan).expected_hp_lost
    rolled = [roll_attack(plan, dice, follow_on=True).loss for _ in range(trials)]
    assert abs(sum(rolled) / trials - loss) < 0.1


def test_p1935_bodyguard_die_by_die_leaves_the_dice_after_the_slaying_one() -> None:
    """Nine Attack Dice at a 1 HP guard with no Save: the first success slays it, and the
    successes among the dice after it are left over."""
    plan = AttackPlan(_gunners(), _guard((), hp=1, armour=None))
    # Power 5 at Defence 4 hits on 3+: 1 fails, 6 slays, then seven dice 5, 6, 5, 1, 2, 6, 3:
    # five successes left over
    rolled = roll_attack(plan, ScriptedDice([1, 6, 5, 6, 5, 1, 2, 6, 3, 5]), follow_on=True)
    assert rolled.loss == 1
    assert rolled.follow_on == 5
    assert roll_attack(plan, ScriptedDice([1, 6, 5, 6, 5, 1, 2, 6, 3, 5])).follow_on == 0


def test_p1935_bodyguard_no_dice_left_when_the_guard_cannot_be_slain() -> None:
    immortal = _guard(("Immortal",), hp=4)  # may lose 2 of its 4 HP this Game Turn (L1539)
    assert follow_on_dice(AttackPlan(_gunners(), immortal)) == {0: 1.0}
    table = _guard(("Combat Damage",), hp=3)  # its table is rolled after the dice (L1154)
    assert follow_on_dice(AttackPlan(_gunners(), table)) == {0: 1.0}


# -- Bodyguard in a game (L1935) --------------------------------------------------------------


def _guarded(
    *,
    guard_perks: tuple[str, ...] = ("Bodyguard",),
    gun_perks: tuple[str, ...] = (),
    second: bool = False,
    attached: bool = True,
    phase: Phase = Phase.ATTACK,
    active: int = 0,
) -> GameState:
    """A Shooter (unit 0, a Gun: 4 Attacks at Power 5, 3+ against Defence 4) 9" from a
    1 HP Guard (unit 1, 50 points) guarding three VIPs (unit 2); ``second``: another Guard
    (unit 3, 80 points) guards them too."""
    gun = weapon("Gun", range=24, attacks=4, power=5, perks=list(gun_perks))
    shooter = entry(unit("Shooter", weapons=[gun]))
    guard = entry(unit("Guard", hp=1, perks=list(guard_perks)), points=50)
    vip = entry(unit("VIP", models=3))
    sides = [[shooter], [guard, vip]]
    at: dict[int, list[tuple[float, float]]] = {
        0: [(10.0, 10.0)],
        1: [(20.0, 11.5)],
        2: [(20.0, 10.0), (21.5, 10.0), (23.0, 10.0)],
    }
    if second:
        sides[1].append(entry(unit("Guard II", hp=1, perks=list(guard_perks)), points=80))
        at[3] = [(21.5, 8.5)]
    state = scenario(sides, at, phase=phase, active=active)
    if not attached:
        return state
    units = list(state.units)
    for b in (1, 3) if second else (1,):
        units[b] = replace(units[b], statuses=(Status("Guarding@2", None, "Bodyguard"),))
    return replace(state, units=tuple(units))


def test_p1935_bodyguard_attaches_when_its_movement_ends_within_coherency() -> None:
    state = _guarded(attached=False, phase=Phase.MOVE, active=1)
    after, events = engine.apply(state, Move(1, (20.0, 11.6)), dice=SeededDice(1))
    assert "Guarding@2" in _names(after, 1)
    assert any("attaches to P1: VIP as its Bodyguard" in e.text for e in events)
    away, _ = engine.apply(
        _guarded(phase=Phase.MOVE, active=1), Move(1, (20.0, 16.0)), dice=SeededDice(1)
    )
    assert not any(n.startswith("Guarding@") for n in _names(away, 1))  # out of Coherency


def test_p1935_bodyguard_takes_the_damage_and_the_dice_left_follow_on() -> None:
    # 6 slays the 1 HP Guard; the three dice left roll 5, 1, 4: two successes follow on to the
    # VIPs as successful Attack Dice (no Saves: two casualties)
    after, events = engine.apply(
        _guarded(), Attack(0, (("Gun", 2),)), dice=ScriptedDice([6, 5, 1, 4])
    )
    check_invariants(after)
    assert after.units[1].hp == (0,)
    assert after.units[2].hp == (0, 0, 1)
    assert any("2 successful Attack Dice" in e.text and "follow on" in e.text for e in events)
    # without Bodyguard the Gun strikes the VIPs: 6, 5, 4 hit, three casualties
    plain, _ = engine.apply(
        _guarded(guard_perks=()), Attack(0, (("Gun", 2),)), dice=ScriptedDice([6, 5, 1, 4])
    )
    assert plain.units[1].hp == (1,)
    assert plain.units[2].hp == (0, 0, 0)


def test_p1935_bodyguard_no_dice_follow_on_while_it_stands() -> None:
    guard2 = _guarded(guard_perks=("Bodyguard",))
    units = list(guard2.units)
    after, _ = engine.apply(guard2, Attack(0, (("Gun", 2),)), dice=ScriptedDice([1, 2, 1, 2]))
    assert after.units[1].hp == (1,) and after.units[2].hp == units[2].hp


def test_p1935_bodyguard_cheapest_takes_the_damage_first() -> None:
    after, events = engine.apply(
        _guarded(second=True), Attack(0, (("Gun", 2),)), dice=ScriptedDice([6, 1, 1, 1])
    )
    assert after.units[1].hp == (0,)  # the 50-point Guard
    assert after.units[3].hp == (1,)
    assert any("P1: Guard guards P1: VIP" in e.text for e in events)


def test_p1935_bodyguard_precision_weapons_bypass_it() -> None:
    after, _ = engine.apply(
        _guarded(gun_perks=("Precision 6+",)),
        Attack(0, (("Gun", 2),)),
        dice=ScriptedDice([6, 1, 1, 1, 6]),
    )
    assert after.units[1].hp == (1,)  # the Guard is not struck
    assert sum(after.units[2].hp) == 2


def test_p1935_bodyguard_engages_the_melee_of_the_unit_it_guards() -> None:
    state = _guarded(phase=Phase.MOVE, active=1)
    state = replace(state, engaged=frozenset({(0, 2)}))
    after, events = engine.apply(state, Move(1, (20.0, 11.6)), dice=SeededDice(1))
    assert (0, 1) in after.engaged
    assert any("engage together" in e.text for e in events)
    plain = replace(
        _guarded(guard_perks=(), phase=Phase.MOVE, active=1), engaged=frozenset({(0, 2)})
    )
    after, _ = engine.apply(plain, Move(1, (20.0, 11.6)), dice=SeededDice(1))
    assert (0, 1) not in after.engaged


def test_p1154_combat_damage_statuses_from_furious_dice_too() -> None:
    """Furious (L2003): the failed dice strike a friendly Combat Damage Walker; its table
    results become statuses as from any Attack."""
    club = weapon("Club", range=24, attacks=4, power=4)
    boss = entry(unit("Boss", hp=5, perks=["Leader", "Furious"], weapons=[club]))
    walker = entry(unit("Walker", hp=8, perks=["Combat Damage"], weapons=[CANNON]))
    grunts = entry(unit("Grunts", models=3))
    state = scenario(
        [[boss, walker], [grunts]],
        {0: [(10.0, 10.0)], 1: [(7.0, 10.0)], 2: [(21.0, 10.0), (22.5, 10.0), (24.0, 10.0)]},
        phase=Phase.ATTACK,
    )
    # 6, 5 hit the Grunts; 1, 2 fail and strike the Walker: the table rolls 1 and 3
    after, _ = engine.apply(state, Attack(0, (("Club", 2),)), dice=ScriptedDice([6, 5, 1, 2, 1, 3]))
    check_invariants(after)
    assert after.units[1].hp == (8,)
    assert _names(after, 1) == {
        "Combat Damage (Movement) (next Game Turn)",
        "Combat Damage (Immobile) (next Game Turn)",
    }


def test_p1935_odds_reports_the_dice_that_follow_on(tmp_path: Path) -> None:
    a = tmp_path / "a.yaml"
    t = tmp_path / "t.yaml"
    a.write_text(
        "unit: {name: Gunners, move: 6, dash: 6, defence: 4, hp: 1}\n"
        "weapons: [{name: Gun, range: 24, attacks: 3, power: 5}]\n"
        "models: [{count: 3, weapons: [Gun]}]\n"
    )
    t.write_text(
        "unit: {name: Guard, move: 6, dash: 6, defence: 4, hp: 3, armour: 5+, "
        "perks: [Bodyguard, Tough]}\n"
        "weapons: [{name: Knife, range: 0, attacks: 1, power: 1}]\n"
        "models: [{count: 1, weapons: [Knife]}]\n"
    )
    out = runner.invoke(app, ["odds", str(a), str(t), "--json"])
    assert out.exit_code == 0, out.output
    follow = json.loads(out.output)["follow_on_dice"]
    expected = follow_on_dice(AttackPlan(_gunners(), _guard()))
    assert {int(k): v for k, v in follow.items()} == pytest.approx(expected)
    text = runner.invoke(app, ["odds", str(a), str(t)]).output
    assert "Bodyguard (Perks L1935)" in text
    t.write_text(t.read_text().replace("Bodyguard, ", ""))
    plain = runner.invoke(app, ["odds", str(a), str(t), "--json"])
    assert "follow_on_dice" not in json.loads(plain.output)


def test_p1935_bodyguard_out_of_sight_does_not_protect() -> None:
    """ "If an attacking Unit has no line of sight to the Bodyguard but does to the attached
    Unit, then the attached Unit is not protected by the Bodyguard": a wall hides the Guard."""
    from tests.warsurge.game.helpers import board
    from warbench.rulesets.warsurge.battlefield import Terrain

    wall = Terrain(name="Wall", polygon=[(14, 13), (17, 13), (17, 22), (14, 22)], blocks_los=True)
    gun = weapon("Gun", range=24, attacks=4, power=5)
    sides = [
        [entry(unit("Shooter", weapons=[gun]))],
        [entry(unit("Guard", hp=1, perks=["Bodyguard"]), points=50), entry(unit("VIP", models=3))],
    ]
    at = {0: [(10.0, 10.0)], 1: [(20.0, 20.0)], 2: [(20.0, 10.0), (21.5, 10.0), (23.0, 10.0)]}
    state = scenario(sides, at, phase=Phase.ATTACK, b=board(terrain=[wall]))
    units = list(state.units)
    units[1] = replace(units[1], statuses=(Status("Guarding@2", None, "Bodyguard"),))
    state = replace(state, units=tuple(units))
    after, events = engine.apply(state, Attack(0, (("Gun", 2),)), dice=ScriptedDice([6, 1, 1, 1]))
    assert after.units[1].hp == (1,)
    assert after.units[2].hp.count(0) == 1  # the VIPs take the hit
    assert not any("guards" in e.text for e in events)
