"""A looted Weapon's limits and Stats by HP act for its new carrier (issue 10, session 38,
s38-loot; Perks 000_94ecc6a4c74d351b.txt Loot L3090-L3104; docs/rulings.md "WARSURGE perks in
play: session 25, w2-state", ruling 10).

Loot: "A model that directs Movement onto, past or within contact of the marker picks up the
Weapon and may use it at the next opportunity"; the Weapon keeps its Perks. What the book says
of the Weapon goes with it (Use I-III L3246 "The Weapon can be used once per game", Recharge
I-III L3142 "After using the Weapon, the Wielder must wait one Game Turn"); what it says of the
Wielder or User is read on the carrier (Countdown I-III L3046, Pain Locked L3134, Wane L3264,
Hearty L3915). Test names carry the rank's source line (``p3246`` …), which
``scripts/build_perk_coverage.py`` reads.

The constructed game: the Looters (unit 0; model 0 at (32, 34.4), model 1 at ``looter_at``;
1 HP each; a Blaster of Range 12", 2 Attacks, Power 6 and a Gun) lose model 0 in Game Turn 2,
its Blaster drops as a Loot marker where it stood; the Raiders (unit 1, one model of 3 HP at
(24, 34), Move 20) move to (40, 34) over the marker and pick the Blaster up.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.warsurge.game.helpers import entry, scenario, unit, weapon
from warbench.kernel.dice import ScriptedDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.game import engine, perk_turn
from warbench.rulesets.warsurge.game.actions import Attack, Move
from warbench.rulesets.warsurge.game.events import Event
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS, Hook
from warbench.rulesets.warsurge.game.perk_arms import take_status
from warbench.rulesets.warsurge.game.perk_loot import markers, on_casualty
from warbench.rulesets.warsurge.game.preview import preview
from warbench.rulesets.warsurge.game.state import Automation, GameState, Phase, Status
from warbench.rulesets.warsurge.game.work import Work

GUN = weapon("Gun", range=24, attacks=1, power=10)
#: where the Looters' model 0 falls: on the Raiders' path from (24, 34) to (40, 34)
FALLS_AT = (32.0, 34.4)


def _manual() -> frozenset[Automation]:
    return frozenset(a for a in Automation if a is not Automation.PERK_USE)


def _game(
    perks: list[str],
    *,
    looter_at: tuple[float, float],
    raider_hp: int,
    arrived: int,
    attacks: int = 2,
) -> GameState:
    """The Looters and the Raiders in the Move Phase of Game Turn 2, side 1 acting; the
    Looters on the Battlefield since Game Turn 1, the Raiders since ``arrived``."""
    blaster = weapon("Blaster", range=12, attacks=attacks, power=6, perks=perks)
    looters = entry(unit("Looters", models=2, weapons=[blaster, GUN]))
    raiders = entry(unit("Raiders", hp=3, move=20, weapons=[GUN]))
    pos = {0: [FALLS_AT, looter_at], 1: [(24.0, 34.0)]}
    state = scenario([[looters], [raiders]], pos, active=1, automation=_manual())
    units = [u.with_counter(perk_turn.ARRIVED, 1) for u in state.units]
    units[1] = replace(units[1].with_counter(perk_turn.ARRIVED, arrived), hp=(raider_hp,))
    return replace(state, units=tuple(units))


def _fall(
    state: GameState, used: tuple[int, int], counters: dict[str, int] | None = None
) -> tuple[GameState, str]:
    """The Looters, having used their Blaster ``used`` = (times, last Game Turn) (their
    counters; ``counters`` more of them), lose model 0: its Blaster drops. Returns the state
    and the marker's name."""
    looters = state.units[0]
    for name, value in (counters or {}).items():
        looters = looters.with_counter(name, value)
    if used[0]:
        looters = looters.with_use(perk_turn._weapon_uses("Blaster"), used[0])
    if used[1]:
        looters = looters.with_counter(perk_turn._weapon_turn("Blaster"), used[1])
    looters = replace(looters, hp=(0, 1))
    w = Work(replace(state, units=(looters, *state.units[1:])), None, DEFAULT_HOOKS)
    on_casualty(w, 0, 0, "test")
    after = w.state()
    u = after.units[0]
    after = replace(after, units=(replace(u, removed=(True, False)), *after.units[1:]))
    marks = [s.name for s in after.units[0].statuses if s.name.startswith("Loot marker@")]
    assert len(marks) == 1
    return after, marks[0]


def _picked_up(
    perks: list[str],
    *,
    used: tuple[int, int] = (0, 0),
    looter_at: tuple[float, float] = (40.0, 24.0),
    raider_hp: int = 3,
    arrived: int = 1,
    attacks: int = 2,
    counters: dict[str, int] | None = None,
) -> tuple[GameState, list[Event]]:
    """The Raiders pick up the fallen Looter's Blaster of ``perks`` (Game Turn 2's Move
    Phase); the state then in the Attack Phase, side 1 acting."""
    game = _game(perks, looter_at=looter_at, raider_hp=raider_hp, arrived=arrived, attacks=attacks)
    state, _ = _fall(game, used, counters)
    after, events = engine.apply(state, Move(1, to=(40.0, 34.0)), dice=ScriptedDice([]))
    assert any("picks up the Loot Weapon Blaster" in e.text for e in events)
    assert after.info(1).model_weapons == (("Gun", "Blaster"),)
    return _at(after, 2), events


def _at(state: GameState, turn: int) -> GameState:
    """``state`` in the Attack Phase of Game Turn ``turn``, side 1 acting, no unit acted."""
    flow = replace(state.flow, turn=turn, phase=Phase.ATTACK, active=1)
    units = tuple(replace(u, acted=False) for u in state.units)
    return replace(state, flow=flow, units=units)


def _refusal(state: GameState) -> str | None:
    """Why the Raiders may not Attack the Looters with the Blaster now, or ``None``."""
    try:
        engine.check(state, Attack(1, (("Blaster", 0),)))
    except RulesError as exc:
        return str(exc)
    return None


def _shoot(state: GameState) -> GameState:
    """The Raiders Attack the Looters with the Blaster (two Attack Dice of 1: no HP Loss)."""
    after, _ = engine.apply(state, Attack(1, (("Blaster", 0),)), dice=ScriptedDice([1, 1]))
    return after


# -- the marker carries what the Weapon has spent ------------------------------------------------


def test_p3090_loot_marker_carries_the_uses_and_last_use_of_its_weapon() -> None:
    base = _game(["Loot", "Use II", "Recharge I"], looter_at=(40.0, 24.0), raider_hp=3, arrived=1)
    _, name = _fall(base, (1, 2))
    assert name == "Loot marker@0@Blaster@32.00,34.40@0#1,2"
    _, fresh = _fall(base, (0, 0))
    assert fresh == "Loot marker@0@Blaster@32.00,34.40@0"
    from warbench.rulesets.warsurge.game.perk_loot import spent
    from warbench.rulesets.warsurge.game.state import Status

    assert spent(Status(name)) == (1, 2, 0, 0) and spent(Status(fresh)) == (0, 0, 0, 0)


# -- Use I-III (L3246): the Weapon's uses per game go with it ------------------------------------


def test_p3246_looted_use_i_weapon_used_by_its_wielder_is_spent_for_its_new_carrier() -> None:
    # "The Weapon can be used once per game": the Looters used it once before it dropped
    state, _ = _picked_up(["Loot", "Use I"], used=(1, 1))
    assert str(_refusal(state)).startswith(
        f"Blaster can be used once per game (Use I, {perk_turn._rule('Use I')})"
    )
    assert state.units[1].used(perk_turn._weapon_uses("Blaster")) == 1


def test_p3246_looted_use_i_weapon_is_used_once_by_its_new_carrier() -> None:
    state, _ = _picked_up(["Loot", "Use I"])
    assert _refusal(state) is None
    after = _shoot(state)
    assert after.units[1].used(perk_turn._weapon_uses("Blaster")) == 1
    assert _refusal(_at(after, 3)) is not None and "once per game" in str(_refusal(_at(after, 3)))
    # the same Blaster without Use: again in Game Turn 3
    plain, _ = _picked_up(["Loot"])
    assert _refusal(_at(_shoot(plain), 3)) is None


def test_p3248_looted_use_ii_weapon_keeps_its_second_use() -> None:
    state, _ = _picked_up(["Loot", "Use II"], used=(1, 1))
    assert _refusal(state) is None  # one use left
    assert "2 times per game" in str(_refusal(_at(_shoot(state), 3)))


# -- Recharge I-III (L3142): the Weapon's last use goes with it ----------------------------------


def test_p3142_looted_recharge_i_weapon_recharges_from_its_last_use() -> None:
    # "If the Wielder attacked with the Recharge Weapon on Game Turn 1, it will be available to
    # use again on Game Turn 3": used by the Looters in Game Turn 2, so Game Turn 4
    state, _ = _picked_up(["Loot", "Recharge I"], used=(1, 2))
    assert "recharges until Game Turn 4" in str(_refusal(state))
    assert "recharges until Game Turn 4" in str(_refusal(_at(state, 3)))
    assert _refusal(_at(state, 4)) is None
    # a fresh one is used by the Raiders in Game Turn 2: again in Game Turn 4
    fresh, _ = _picked_up(["Loot", "Recharge I"])
    assert _refusal(fresh) is None
    used = _shoot(fresh)
    assert used.units[1].counter(perk_turn._weapon_turn("Blaster")) == 2
    assert _refusal(_at(used, 3)) is not None and _refusal(_at(used, 4)) is None


# -- Countdown I-III (L3046): the new Wielder's Game Turns on the Battlefield --------------------


def test_p3046_looted_countdown_i_weapon_waits_for_its_new_wielder() -> None:
    # "unusable until the Wielder has waited one full Game Turn on the Battlefield": Raiders
    # that arrived in Game Turn 2 wait until Game Turn 3
    state, _ = _picked_up(["Loot", "Countdown I"], arrived=2)
    assert "waited 1 full Game Turn(s)" in str(_refusal(state))
    assert _refusal(_at(state, 3)) is None
    # Raiders on the Battlefield since Game Turn 1 have waited: at once
    early, _ = _picked_up(["Loot", "Countdown I"], arrived=1)
    assert _refusal(early) is None


# -- Pain Locked (L3134): the new User's HP Loss from an enemy -----------------------------------


def test_p3134_looted_pain_locked_weapon_unlocks_after_its_new_users_hp_loss() -> None:
    state, _ = _picked_up(["Loot", "Pain Locked"])
    assert "locked until the Game Turn after" in str(_refusal(state))
    assert "locked" in str(_refusal(_at(state, 3)))  # no HP Loss yet
    # the Looters' model 1 shoots the Raiders with its Gun (Power 10): HP Loss in Game Turn 2
    turned = replace(state, flow=replace(state.flow, active=0))
    hit, _ = engine.apply(turned, Attack(0, (("Gun", 1),)), dice=ScriptedDice([6] * 6))
    assert hit.units[1].current_hp < 3
    assert hit.units[1].counter(perk_turn.PAIN) == 2  # recorded though it had no Pain Locked
    assert "locked" in str(_refusal(_at(hit, 2)))
    assert _refusal(_at(hit, 3)) is None


# -- Wane (L3264) and Hearty (L3915): the new User's HP ------------------------------------------


def _statuses(state: GameState, uid: int) -> list[str]:
    return [s.name for s in state.units[uid].statuses]


def test_p3264_looted_wane_weapon_weakens_by_its_new_users_hp() -> None:
    # the Raiders at 1 HP of 3: 25% or less (rounding up: 1), -2 to the Blaster's Attack Dice
    state, events = _picked_up(["Loot", "Wane"], raider_hp=1)
    assert "Wane (25%)@Blaster" in _statuses(state, 1)
    assert any("Wane at 25% HP" in e.text for e in events)
    at_full, _ = _picked_up(["Loot", "Wane"], raider_hp=3)
    assert not any(s.startswith("Wane") for s in _statuses(at_full, 1))
    # and it reads: Power 6 against Defence 4 succeeds on a 2+, so two Attack Dice of 3 slay
    # the Looter at full HP; at 1 HP the -2 leaves them short
    dice = [3, 3, 1, 1, 1, 1]
    strong, _ = engine.apply(at_full, Attack(1, (("Blaster", 0),)), dice=ScriptedDice(dice))
    weak, _ = engine.apply(state, Attack(1, (("Blaster", 0),)), dice=ScriptedDice(dice))
    assert strong.units[0].hp[1] == 0 and weak.units[0].hp[1] == 1


def test_p3915_looted_hearty_weapon_reaches_further_at_its_new_users_full_hp() -> None:
    # the Looters' model 1 is 20" away: beyond the Blaster's 12", within 12 + 12" (Hearty)
    state, _ = _picked_up(["Loot", "Hearty"], looter_at=(40.0, 14.0))
    assert "Hearty@Blaster" in _statuses(state, 1)
    assert _refusal(state) is None
    hurt, _ = _picked_up(["Loot", "Hearty"], looter_at=(40.0, 14.0), raider_hp=2)
    assert "Hearty@Blaster" not in _statuses(hurt, 1)
    assert _refusal(hurt) is not None


@pytest.mark.parametrize("perk", ["Wane", "Hearty"])
def test_p3090_a_dropped_weapons_stats_by_hp_leave_its_carrier(perk: str) -> None:
    # the Raiders fall carrying the looted Blaster: it drops, its status leaves them
    state, _ = _picked_up(["Loot", perk], raider_hp=1 if perk == "Wane" else 3)
    assert any(s.startswith(perk) for s in _statuses(state, 1))
    w = Work(state, None, DEFAULT_HOOKS)
    on_casualty(w, 1, 0, "test")
    assert not any(s.startswith(perk) for s in _statuses(w.state(), 1))


# -- the other Weapon Perks read by the Weapon's name (perk_index.weapon_perks) -----------------


def test_p2999_looted_skill_weapon_adds_one_to_its_new_carriers_skill_tests() -> None:
    from warbench.rulesets.warsurge.game.perk_limits import skill_modifier

    state, _ = _picked_up(["Loot", "Skill"])
    assert skill_modifier(Work(state, None, DEFAULT_HOOKS), 1, "Blaster", 0) == 1
    plain, _ = _picked_up(["Loot"])
    assert skill_modifier(Work(plain, None, DEFAULT_HOOKS), 1, "Blaster", 0) == 0


def test_p3178_looted_trajectory_i_weapon_cannot_target_within_12_inches_of_its_carrier() -> None:
    # the Looters' model 1 stands 10" from the Raiders: too close for Trajectory I
    state, _ = _picked_up(["Loot", "Trajectory I"])
    assert 'cannot Target a unit within 12"' in str(_refusal(state))
    assert _refusal(_picked_up(["Loot"])[0]) is None


def test_p3433_looted_heal_weapon_heals_for_its_new_carrier() -> None:
    from warbench.rulesets.warsurge.game.perk_heal import heals

    state, _ = _picked_up(["Loot", "Heal"])
    assert heals(Work(state, None, DEFAULT_HOOKS), 1, "Blaster")
    assert not heals(Work(_picked_up(["Loot"])[0], None, DEFAULT_HOOKS), 1, "Blaster")


def test_p3987_looted_postliminary_weapon_attacks_only_after_everything_else() -> None:
    state, _ = _picked_up(["Loot", "Postliminary"])
    assert "attacks only" in str(_refusal(state))


def test_p4085_looted_trap_weapon_lays_traps_for_its_new_carrier() -> None:
    from warbench.rulesets.warsurge.game.perk_trap import is_trap

    state, _ = _picked_up(["Loot", "Trap"])
    assert is_trap(Work(state, None, DEFAULT_HOOKS), 1, "Blaster")
    assert not is_trap(Work(_picked_up(["Loot"])[0], None, DEFAULT_HOOKS), 1, "Blaster")


def test_p3945_looted_momentum_weapon_gains_power_as_its_new_wielder_moves() -> None:
    from warbench.rulesets.warsurge.game.perk_tactical import momentum_after_move

    state, _ = _picked_up(["Loot", "Momentum"])
    w = Work(state, None, DEFAULT_HOOKS)
    momentum_after_move(w, 1, False, 5.0)
    assert "Momentum 1@Blaster" in _statuses(w.state(), 1)


def test_p4103_looted_velocity_weapon_makes_its_carrier_a_velocity_wielder() -> None:
    from warbench.rulesets.warsurge.game.perk_velocity import wielder

    state, _ = _picked_up(["Loot", "Velocity"])
    assert wielder(Work(state, None, DEFAULT_HOOKS), 1)
    assert not wielder(Work(_picked_up(["Loot"])[0], None, DEFAULT_HOOKS), 1)


def test_p3793_looted_corrupted_weapon_is_offered_to_by_its_new_user() -> None:
    from warbench.rulesets.warsurge.game.perk_corrupted import wields

    state, _ = _picked_up(["Loot", "Corrupted"])
    assert wields(Work(state, None, DEFAULT_HOOKS), 1)
    assert not wields(Work(_picked_up(["Loot"])[0], None, DEFAULT_HOOKS), 1)


def test_p2977_looted_hp_steal_weapon_restores_hp_to_its_new_user() -> None:
    # the Raiders at 2 HP of 3 slay the Looter (1 HP) with the looted Blaster: 1 HP restored
    # (up to a third of their maximum, rounded up: 1)
    state, _ = _picked_up(["Loot", "HP Steal"], raider_hp=2)
    after, events = engine.apply(state, Attack(1, (("Blaster", 0),)), dice=ScriptedDice([6] * 6))
    assert after.units[0].hp[1] == 0
    assert any("steals 1 HP with Blaster (HP Steal" in e.text for e in events)
    assert after.units[1].hp == (3,)
    plain, _ = _picked_up(["Loot"], raider_hp=2)
    again, _ = engine.apply(plain, Attack(1, (("Blaster", 0),)), dice=ScriptedDice([6] * 6))
    assert again.units[1].hp == (2,)


# -- Malfunction I/II (L3110, L3122): the Weapon's faults go with it ---------------------------


def test_p3110_looted_malfunction_i_weapon_jammed_by_its_wielder_stays_jammed() -> None:
    # "the Weapon cannot be used in the next Game Turn": it malfunctioned for the Looters in
    # Game Turn 2, so the Raiders cannot use it in Game Turn 3
    from warbench.rulesets.warsurge.game.perk_limitation import JAMMED

    jam = {JAMMED + "Blaster": 2}
    base = _game(["Loot", "Malfunction I"], looter_at=(40.0, 24.0), raider_hp=3, arrived=1)
    assert _fall(base, (0, 0), jam)[1].endswith("@0#0,0,2")
    state, _ = _picked_up(["Loot", "Malfunction I"], attacks=3, counters=jam)
    assert _refusal(state) is None
    assert "malfunctioned on Game Turn 2" in str(_refusal(_at(state, 3)))
    assert _refusal(_at(state, 4)) is None


def test_p3110_looted_malfunction_i_weapon_malfunctions_for_its_new_carrier() -> None:
    # three Attack Dice, all 1s: half or more, so it cannot be used in the next Game Turn
    state, _ = _picked_up(["Loot", "Malfunction I"], attacks=3)
    after, events = engine.apply(state, Attack(1, (("Blaster", 0),)), dice=ScriptedDice([1] * 3))
    assert any("Blaster malfunctions" in e.text for e in events)
    assert "malfunctioned on Game Turn 2" in str(_refusal(_at(after, 3)))
    # the same Blaster with 2 Attacks cannot take the Perk ("minimum of 3 Attacks")
    short, _ = _picked_up(["Loot", "Malfunction I"], attacks=2)
    after, events = engine.apply(short, Attack(1, (("Blaster", 0),)), dice=ScriptedDice([1] * 2))
    assert not any("malfunctions" in e.text for e in events)


def test_p3122_looted_malfunction_ii_weapon_destroyed_stays_destroyed() -> None:
    from warbench.rulesets.warsurge.game.perk_limitation import DESTROYED

    gone = {DESTROYED + "Blaster": 1}
    state, _ = _picked_up(["Loot", "Malfunction II"], attacks=3, counters=gone)
    assert "destroyed at the end of Game Turn 1" in str(_refusal(state))


# -- Counter (L3062), Self-Destruct (L3156): used only in their moments --------------------------


def test_p3062_looted_counter_weapon_strikes_back_for_its_new_user() -> None:
    state, _ = _picked_up(["Loot", "Counter"], raider_hp=3)
    assert "used only against the first enemy Unit" in str(_refusal(state))
    # the Looters' model 1 (10" off) costs the Raiders HP with its Gun: the Blaster strikes back
    turned = replace(state, flow=replace(state.flow, active=0))
    hit, events = engine.apply(turned, Attack(0, (("Gun", 1),)), dice=ScriptedDice([6] * 12))
    assert hit.units[1].current_hp < 3
    assert any("strikes back at P0: Looters with Blaster (Counter)" in e.text for e in events)


def test_p3156_looted_self_destruct_weapon_is_kept_for_its_new_wielders_fall() -> None:
    state, _ = _picked_up(["Loot", "Self-Destruct"])
    assert "used only when its Wielder is a casualty" in str(_refusal(state))
    # the Raiders fall: the Blaster attacks the closest unit in its Range (the Looters' model 1)
    w = Work(state, None, DEFAULT_HOOKS)
    w.set_unit(1, hp=(0,))
    DEFAULT_HOOKS.fire(Hook.CASUALTY, w, unit=1, model=0, source="test")
    texts = [e.text for e in w.events]
    assert "P1: Raiders's model 1 falls: its Blaster self-destructs at the closest unit, " in (
        " ".join(texts)
    )
    assert w.state().units[0].hp == (0, 0)


# -- what the review found (issue 10, session 38, s38-lootfix) -----------------------------------


def _two_raiders() -> GameState:
    """Two Looters units (u0, u1), each with a Loot, Use I Blaster and a Gun; the Raiders (u2,
    2 models of 3 HP, Move 20) in the Move Phase of Game Turn 2, side 1 acting."""
    blaster = weapon("Blaster", range=12, attacks=2, power=6, perks=["Loot", "Use I"])
    a = entry(unit("Looters A", models=1, weapons=[blaster, GUN]))
    b = entry(unit("Looters B", models=1, weapons=[blaster, GUN]))
    raiders = entry(unit("Raiders", models=2, hp=3, move=20, weapons=[GUN]))
    pos = {0: [(40.0, 10.0)], 1: [(44.0, 10.0)], 2: [(24.0, 34.0), (24.0, 40.0)]}
    state = scenario([[a, b], [raiders]], pos, active=1, automation=_manual())
    units = tuple(u.with_counter(perk_turn.ARRIVED, 1) for u in state.units)
    return replace(state, units=units)


def _raider_falls(state: GameState, model: int) -> GameState:
    """The Raiders' ``model`` is removed as a casualty (its picked-up Blaster drops)."""
    r = state.units[2]
    hp = tuple(0 if k == model else h for k, h in enumerate(r.hp))
    w = Work(replace(state, units=(*state.units[:2], replace(r, hp=hp))), None, DEFAULT_HOOKS)
    on_casualty(w, 2, model, "test")
    after = w.state()
    r = after.units[2]
    removed = tuple(k == model for k in range(len(r.hp)))
    return replace(after, units=(*after.units[:2], replace(r, removed=removed)))


def _blaster_refusal(state: GameState, name: str = "Blaster") -> str | None:
    from warbench.rulesets.warsurge.game.perk_limits import weapon_refusal

    return weapon_refusal(Work(_at(state, 3), None, DEFAULT_HOOKS), 2, name)


def test_p3246_a_fresh_use_i_weapon_picked_up_after_a_spent_one_dropped_is_usable() -> None:
    # "The Weapon can be used once per game" (L3246): the spent one's use leaves with it, so
    # another Blaster (u1's, never fired) picked up later by the Raiders' model 1 may be used
    state = _two_raiders()
    r = replace(state.units[2], statuses=(Status(take_status(0, 0, "Blaster"), None, "u0/B"),))
    r = r.with_use(perk_turn._weapon_uses("Blaster"), 1)
    fresh = Status("Loot marker@1@Blaster@32.00,40.00@0", None, "u1/Blaster")
    state = replace(state, units=(state.units[0], replace(state.units[1], statuses=(fresh,)), r))
    assert str(_blaster_refusal(state)).startswith("Blaster can be used once per game")
    fallen = _raider_falls(state, 0)
    marks = [s.name for u in fallen.units for s in u.statuses if s.name.startswith("Loot marker")]
    assert "Loot marker@0@Blaster@24.00,34.00@0#1" in marks  # the spent one, with its use
    assert fallen.units[2].used(perk_turn._weapon_uses("Blaster")) == 0
    after, events = engine.apply(fallen, Move(2, to=(40.0, 40.0)), dice=ScriptedDice([]))
    assert any("picks up the Loot Weapon Blaster" in e.text for e in events)
    assert after.info(2).model_weapons[1] == ("Gun", "Blaster")
    assert _blaster_refusal(after) is None


def test_p3246_a_spent_use_i_weapon_stays_spent_when_the_name_it_is_carried_by_changes() -> None:
    # model 0 carries u0's Blaster ("Blaster"), model 1 u1's ("Blaster (u1)"), spent; model 0
    # falls, and model 1's is carried as "Blaster" from then on: still used once per game
    state = _two_raiders()
    took = (Status(take_status(0, 0, "Blaster")), Status(take_status(1, 1, "Blaster")))
    r = replace(state.units[2], statuses=took).with_use(perk_turn._weapon_uses("Blaster (u1)"))
    state = replace(state, units=(*state.units[:2], r))
    assert state.info(2).model_weapons == (("Gun", "Blaster"), ("Gun", "Blaster (u1)"))
    assert _blaster_refusal(state, "Blaster") is None
    assert str(_blaster_refusal(state, "Blaster (u1)")).startswith("Blaster (u1) can be used once")
    fallen = _raider_falls(state, 0)
    assert fallen.info(2).model_weapons[1] == ("Gun", "Blaster")
    assert str(_blaster_refusal(fallen, "Blaster")).startswith("Blaster can be used once per game")
    assert fallen.units[2].used(perk_turn._weapon_uses("Blaster (u1)")) == 0


def test_p3090_a_loot_marker_of_a_weapon_named_with_an_at_sign_is_read() -> None:
    state = _two_raiders()
    mark = Status("Loot marker@1@Blaster@Mk2@32.00,40.00@0#1", None, "u1/Blaster@Mk2")
    units = list(state.units)
    units[1] = replace(units[1], statuses=(mark,))
    state = replace(state, units=tuple(units))
    found = markers(Work(state, None, DEFAULT_HOOKS))
    assert found == [(1, mark, 1, "Blaster@Mk2", (32.0, 40.0))]


@pytest.mark.parametrize(("perk", "said"), [("Knockback I", "Knockback I (Perks L3917)"),
                                            ("Grapple", "Grapple (Perks L3869)")])  # fmt: skip
def test_p3917_the_preview_names_a_picked_up_weapons_knockback_and_grapple(
    perk: str, said: str
) -> None:
    state, _ = _picked_up(["Loot", perk])
    seen = preview(state, Attack(1, (("Blaster", 0),)))
    assert seen is not None and seen.note is not None and seen.note.startswith(said)
