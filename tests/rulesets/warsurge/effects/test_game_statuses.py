"""Afflictions and immunities played in a game (Perks 000_94ecc6a4c74d351b.txt §12.5
Afflictions L2576-L2895, §12.4 Defensive immunities): an Attack applied by the game engine
puts the status on the target, the game reads it where it reads Stats (the attack kernel's
view of a unit, Move and Dash), and the end of the Game Turn applies ongoing effects before
durations tick (§12.1 L94-L96). Test names carry the rank's source line (``p2616``), which
``warbench perks --coverage`` reads. Scripted dice where dice matter."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from tests.warsurge.game.helpers import check_invariants, entry, scenario, unit, weapon
from warbench.kernel.dice import ScriptedDice
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack, Move, Pass
from warbench.rulesets.warsurge.game.events import Event
from warbench.rulesets.warsurge.game.perk_effects import DELAYED
from warbench.rulesets.warsurge.game.state import GameState, Phase, Status


def _state(
    weapon_perks: list[str],
    target_perks: list[str] | None = None,
    *,
    target: dict[str, Any] | None = None,
    second: dict[str, Any] | None = None,
    target_gun: dict[str, Any] | None = None,
    attacker: dict[str, Any] | None = None,
) -> GameState:
    """Unit 0 (side 0) carries a Gun with ``weapon_perks`` (Power 4 vs Defence 4: 4+); unit 1
    (side 1, 5 HP, no saves unless ``target`` says) is 10" away; ``second`` adds unit 2 (side
    0) with another Gun."""
    gun = weapon("Gun", power=4, perks=weapon_perks)
    t_kw: dict[str, Any] = {"hp": 5, "defence": 4}
    t_kw.update(target or {})
    foe_gun = weapon("Gun", **(target_gun or {}))
    side0 = [entry(unit("Attackers", weapons=[gun], **{"hp": 3, **(attacker or {})}))]
    pos: dict[int, list[tuple[float, float]]] = {0: [(10.0, 10.0)], 1: [(10.0, 20.0)]}
    if second is not None:
        side0.append(entry(unit("Second", weapons=[weapon("Gun2", **second)])))
        pos = {0: [(10.0, 10.0)], 1: [(12.0, 10.0)], 2: [(10.0, 20.0)]}
    foe = entry(unit("Foe", perks=target_perks or [], weapons=[foe_gun], **t_kw))
    return scenario([side0, [foe]], pos, phase=Phase.ATTACK)


def _target(state: GameState) -> int:
    return len(state.units) - 1


def _hit(
    state: GameState, faces: list[int], uid: int = 0, weapon: str = "Gun"
) -> tuple[GameState, list[Event]]:
    dice = ScriptedDice(faces)
    new, events = engine.apply(state, Attack(uid, ((weapon, _target(state)),)), dice=dice)
    assert dice.remaining == 0, "every scripted face is used"
    return new, events


def _end_turn(state: GameState) -> tuple[GameState, list[Event]]:
    turn = state.flow.turn
    out: list[Event] = []
    while state.flow.turn == turn and not state.over:
        state, events = engine.apply(state, Pass())
        out.extend(events)
    return state, out


def _until(state: GameState, phase: Phase, side: int) -> GameState:
    while not (state.flow.phase is phase and state.flow.active == side):
        state, _ = engine.apply(state, Pass())
    return state


def _statuses(state: GameState, uid: int) -> list[str]:
    return [s.name for s in state.units[uid].statuses]


# -- Burn (L2616) ---------------------------------------------------------------------------


def test_p2616_burn_lands_on_hp_loss_and_costs_1_hp_at_each_turn_end() -> None:
    state, events = _hit(_state(["Burn"]), [4])  # 1 HP lost: Burn takes hold
    t = _target(state)
    assert _statuses(state, t) == ["Burn"]
    assert any("suffers Burn" in e.text for e in events)
    assert state.units[t].hp == (4,)
    state, events = _end_turn(state)
    assert state.units[t].hp == (3,)  # 1 HP, no Saves
    assert any("Burn" in e.text and "1 HP lost (no Saves)" in e.text for e in events)
    state, _ = _end_turn(state)
    assert state.units[t].hp == (2,)  # every Game Turn: Burn stays


def test_p2616_burn_needs_hp_loss() -> None:
    state, _events = _hit(_state(["Burn"]), [3])  # a miss: no HP Loss, no Burn
    assert _statuses(state, _target(state)) == []


def test_p1527_fire_resist_i_is_immune_to_burn_in_a_game() -> None:
    state, events = _hit(_state(["Burn"], ["Fire Resist I"]), [4])
    assert _statuses(state, _target(state)) == []
    assert any("immune to Burn" in e.text for e in events)


# -- Poison (L2826) -------------------------------------------------------------------------


def test_p2826_poison_costs_d3_at_each_turn_end_and_the_same_weapon_does_not_stack() -> None:
    state, _ = _hit(_state(["Poison"], target={"hp": 9}), [4])
    t = _target(state)
    state = engine.apply(state, Pass())[0] if state.flow.active != 0 else state
    assert _statuses(state, t) == ["Poison"]
    hp = state.units[t].hp[0]
    state, events = _end_turn(state)
    lost = hp - state.units[t].hp[0]
    assert 1 <= lost <= 3
    assert sum("Poison" in e.text and "HP lost (no Saves)" in e.text for e in events) == 1


def test_p1553_immunity_i_is_immune_to_poison_in_a_game() -> None:
    state, _ = _hit(_state(["Poison"], ["Immunity I"]), [4])
    assert _statuses(state, _target(state)) == []


# -- Corrode, Pulverise, Scourge: the target's Stats for the rest of the turn ---------------


def test_p2652_corrode_lowers_the_armour_stat_so_ap_4_ignores_a_3_plus_this_turn() -> None:
    # the second unit's AP 4+ Gun: a corroded 3+ Save is a 4+ Stat, which AP 4+ ignores
    base = _state(["Corrode"], target={"armour": 3}, second={"power": 4, "ap": 4})
    state, _ = _hit(base, [4, 1])  # 4: hit, 1: Armour Save fails; Corrode lands
    assert "Corrode" in _statuses(state, 2)
    state = _until(state, Phase.ATTACK, 0)
    _, events = _hit(state, [4], uid=1, weapon="Gun2")  # no Armour Save rolled
    assert "1 HP lost" in events[0].text
    # without Corrode the 3+ Save is rolled (and a 6 saves)
    plain = _state([], target={"armour": 3}, second={"power": 4, "ap": 4})
    plain, _ = _hit(plain, [4, 1])
    plain = _until(plain, Phase.ATTACK, 0)
    _, events = _hit(plain, [4, 6], uid=1, weapon="Gun2")
    assert "0 HP lost" in events[0].text


def test_p2652_corrode_ends_with_the_game_turn() -> None:
    state, _ = _hit(_state(["Corrode"]), [4])
    state, _ = _end_turn(state)
    assert _statuses(state, _target(state)) == []


def test_p2836_pulverise_lowers_defence_for_the_next_attack_this_turn() -> None:
    base = _state(["Pulverise"], second={"power": 4})
    state, _ = _hit(base, [4])
    state = _until(state, Phase.ATTACK, 0)
    _, events = _hit(state, [3], uid=1, weapon="Gun2")  # Defence 3 now: 3+ hits
    assert "1 HP lost" in events[0].text
    plain, _ = _hit(_state([], second={"power": 4}), [4])
    plain = _until(plain, Phase.ATTACK, 0)
    _, events = _hit(plain, [3], uid=1, weapon="Gun2")
    assert "0 HP lost" in events[0].text


def test_p1537_indomitable_is_immune_to_pulverise_in_a_game() -> None:
    state, events = _hit(_state(["Pulverise"], ["Indomitable"]), [4])
    assert _statuses(state, _target(state)) == []
    assert any("immune to Pulverise" in e.text for e in events)


def test_p2842_scourge_lowers_the_aegis_save() -> None:
    base = _state(["Scourge"], target={"aegis": 6}, second={"power": 4})
    state, _ = _hit(base, [4, 1])
    state = _until(state, Phase.ATTACK, 0)
    _, events = _hit(state, [4], uid=1, weapon="Gun2")  # AEGIS 6+ worsened: no save
    assert "1 HP lost" in events[0].text


# -- Weaken, Mitigate: the target's own weapons ----------------------------------------------


def test_p2884_weaken_lowers_the_power_of_the_target_when_it_strikes_back() -> None:
    state, _ = _hit(_state(["Weaken"]), [4])
    assert state.flow.active == 1
    _, events = engine.apply(state, Attack(1, (("Gun", 0),)), dice=ScriptedDice([4]))
    assert "0 HP lost" in events[0].text  # Power 3 vs Defence 4: 5+
    plain, _ = _hit(_state([]), [4])
    _, events = engine.apply(plain, Attack(1, (("Gun", 0),)), dice=ScriptedDice([4]))
    assert "1 HP lost" in events[0].text


def test_p2884_weaken_waits_for_the_next_turn_if_the_target_already_attacked() -> None:
    state = _state([], second={"power": 4, "perks": ["Weaken"]})
    state, _ = _hit(state, [3])  # unit 0 misses
    state, _ = engine.apply(state, Attack(2, (("Gun", 0),)), dice=ScriptedDice([1]))  # Foe
    state, _ = engine.apply(state, Attack(1, (("Gun2", 2),)), dice=ScriptedDice([4]))
    assert _statuses(state, 2) == ["Weaken" + DELAYED]
    state, _ = _end_turn(state)
    assert _statuses(state, 2) == ["Weaken"]  # now, for this Game Turn
    state, _ = _end_turn(state)
    assert _statuses(state, 2) == []


def test_p2782_mitigate_lowers_the_ap_of_the_target_weapons() -> None:
    base = _state(["Mitigate"], target_gun={"ap": 6}, attacker={"armour": 6})
    state, _ = _hit(base, [4])
    # the target's AP 6+ Gun becomes no AP: the Attackers' 6+ Armour is rolled, a 6 saves
    state = _until(state, Phase.ATTACK, 1)
    _, events = engine.apply(state, Attack(1, (("Gun", 0),)), dice=ScriptedDice([4, 6]))
    assert "0 HP lost" in events[0].text
    plain, _ = _hit(_state([], target_gun={"ap": 6}, attacker={"armour": 6}), [4])
    _, events = engine.apply(plain, Attack(1, (("Gun", 0),)), dice=ScriptedDice([4]))
    assert "1 HP lost" in events[0].text  # AP 6+ ignores the 6+ Save: nothing rolled


# -- Bleed (L2584), Cripple I (L2658), Freeze (L2708): Movement ------------------------------


def _moved(before: GameState, after: GameState, uid: int) -> float:
    (x0, y0), (x1, y1) = before.units[uid].pos[0], after.units[uid].pos[0]
    return math.hypot(x1 - x0, y1 - y0)


def test_p2584_bleed_costs_1_hp_each_time_the_target_moves() -> None:
    state, _ = _hit(_state(["Bleed"]), [4])
    t = _target(state)
    state, _ = _end_turn(state)
    state = _until(state, Phase.MOVE, 1)
    hp = state.units[t].hp[0]
    after, events = engine.apply(state, Move(t, to=(10.0, 30.0)))
    assert after.units[t].hp[0] == hp - 1
    assert any("Bleed" in e.text for e in events)


def test_p1473_artificial_is_immune_to_bleed() -> None:
    state, _ = _hit(_state(["Bleed"], ["Artificial"]), [4])
    assert _statuses(state, _target(state)) == []


def test_p2658_cripple_i_halves_move_on_the_following_turn_after_a_passed_skill_test() -> None:
    state, _events = _hit(_state(["Cripple I"]), [4, 5])  # hit, Skill Test 5: passed
    t = _target(state)
    assert _statuses(state, t) == ["Cripple" + DELAYED]
    state, _ = _end_turn(state)
    state = _until(state, Phase.MOVE, 1)
    after, _ = engine.apply(state, Move(t, to=(10.0, 40.0)))
    assert _moved(state, after, t) <= 3.0 + 1e-6  # Move 6 halved
    state, _ = _end_turn(after)
    assert _statuses(state, t) == []


def test_p2658_cripple_i_does_nothing_when_the_skill_test_fails() -> None:
    state, _ = _hit(_state(["Cripple I"]), [4, 3])
    assert _statuses(state, _target(state)) == []


def _side_1_moves_in_turn_3(state: GameState) -> bool:
    state, _ = _end_turn(state)
    assert state.flow.turn == 3
    while state.flow.turn == 3 and state.flow.phase is not Phase.ATTACK:
        if state.flow.phase is Phase.MOVE and state.flow.active == 1:
            return True
        state, _ = engine.apply(state, Pass())
    return False


def test_p2708_freeze_makes_the_target_immobile_on_the_following_turn() -> None:
    state, _ = _hit(_state(["Freeze"]), [4, 6])
    assert _statuses(state, _target(state)) == ["Freeze" + DELAYED]
    # Immobile: the side has no unit that may Move, so its Move Phase passes it by
    assert not _side_1_moves_in_turn_3(state)
    plain, _ = _hit(_state([]), [4])
    assert _side_1_moves_in_turn_3(plain)


# -- Leech (L2768), Virus (L2876) -------------------------------------------------------------


def test_p2768_leech_moves_1_hp_from_the_target_to_the_user_each_turn_end() -> None:
    state = _state(["Leech"])
    state = _until(state, Phase.ATTACK, 0)
    state, _ = _hit(state, [4, 6])  # hit, Skill Test passed
    state, _ = engine.apply(state, Attack(1, (("Gun", 0),)), dice=ScriptedDice([4]))
    assert state.units[0].hp == (2,)
    state, _events = _end_turn(state)
    assert state.units[0].hp == (3,)  # regained 1
    assert state.units[1].hp == (3,)  # 5 - 1 (hit) - 1 (Leech)


def test_p2876_virus_stops_the_leech_from_restoring_hp() -> None:
    state = _state(["Leech"], target_gun={"perks": ["Virus"]})
    state, _ = _hit(state, [4, 6])
    state, _ = engine.apply(state, Attack(1, (("Gun", 0),)), dice=ScriptedDice([4]))
    assert "Virus" in _statuses(state, 0)
    state, _ = _end_turn(state)
    assert state.units[0].hp == (2,)  # no HP restored under Virus
    assert state.units[1].hp == (3,)


def test_p2668_cripple_ii_needs_only_successful_attack_dice() -> None:
    # Armour 2+ saves the hit (no HP Loss), but the successful Attack Dice tests anyway
    state, _ = _hit(_state(["Cripple II"], target={"armour": 2}), [4, 6, 5])
    t = _target(state)
    assert state.units[t].hp == (5,)  # saved: no HP Loss
    assert _statuses(state, t) == ["Cripple" + DELAYED]
    # Cripple I needs HP Loss: the same saved hit does nothing
    state, _ = _hit(_state(["Cripple I"], target={"armour": 2}), [4, 6])
    assert _statuses(state, _target(state)) == []


# -- activated perks under the engine's automatic choice (the "use perk" hook) -----------------


def _wounded(perks: list[str], *, removed: int = 1, hp: int = 1, models: int = 3) -> GameState:
    squad = unit("Squad", models=models, hp=hp, perks=perks)
    state = scenario(
        [[entry(squad)], [entry(unit("Foe"))]],
        {0: [(10.0 + 1.2 * k, 10.0) for k in range(models)], 1: [(10.0, 40.0)]},
        phase=Phase.ATTACK,
    )
    u = state.units[0]
    gone = tuple(k >= models - removed for k in range(models))
    hps = tuple(0 if g else hp for g in gone)
    return replace(state, units=(replace(u, removed=gone, hp=hps), state.units[1]))


def _to_next_move_phase(state: GameState) -> tuple[GameState, list[Event]]:
    state, events = _end_turn(state)
    while state.flow.phase is not Phase.MOVE:
        state, more = engine.apply(state, Pass())
        events.extend(more)
    return state, events


def test_p1611_recover_returns_a_casualty_model_in_coherency_at_the_next_move_phase() -> None:
    state, events = _to_next_move_phase(_wounded(["Recover"]))
    u = state.units[0]
    assert not any(u.removed) and u.hp == (1, 1, 1)
    assert any("uses Recover: 1 HP restored" in e.text for e in events)
    check_invariants(state)
    # at full HP it is not used again
    state, events = _to_next_move_phase(state)
    assert not any("uses Recover" in e.text for e in events)


def test_p1645_regenerate_restores_a_tenth_of_full_hp_rounded_up() -> None:
    state = _wounded(["Regenerate"], removed=0, hp=12, models=1)
    state = replace(state, units=(replace(state.units[0], hp=(5,)), state.units[1]))
    state, events = _to_next_move_phase(state)
    assert state.units[0].hp == (7,)  # ceil(12 / 10) = 2
    assert any("uses Regenerate: 2 HP restored" in e.text for e in events)


def test_p2876_virus_stops_recover() -> None:
    state = _wounded(["Recover"])
    virus = (Status("Virus", None, "u1/Gun"),)
    state = replace(state, units=(replace(state.units[0], statuses=virus), state.units[1]))
    state, events = _to_next_move_phase(state)
    assert any(state.units[0].removed)
    assert not any("uses Recover" in e.text for e in events)


def test_p666_adrenaline_once_per_game_moves_further_with_an_enemy_near() -> None:
    fast = unit("Runners", perks=["Adrenaline"], move=6, defence=4)
    state = scenario(
        [[entry(fast)], [entry(unit("Foe"))]],
        {0: [(10.0, 10.0)], 1: [(10.0, 25.0)]},
        phase=Phase.ATTACK,
    )
    state, events = _to_next_move_phase(state)
    assert any("uses Adrenaline" in e.text for e in events)
    state = _until(state, Phase.MOVE, 0)
    after, _ = engine.apply(state, Move(0, to=(40.0, 10.0)))
    assert 7.99 <= _moved(state, after, 0) <= 8.0 + 1e-6  # Move 6 x 4/3 = 8
    assert after.units[0].used("Adrenaline") == 1
    state, events = _to_next_move_phase(after)
    assert not any("uses Adrenaline" in e.text for e in events)  # once per game


# -- Dice Modifiers from statuses: Concussive (L2624), Smokescreen (L1759) ----------------------


def test_p2624_concussive_gives_the_target_minus_1_on_its_attack_dice() -> None:
    state, events = _hit(_state(["Concussive"]), [4, 4])  # hit, Skill Test 4: passed
    assert _statuses(state, 1) == ["Concussive"]
    _, events = engine.apply(state, Attack(1, (("Gun", 0),)), dice=ScriptedDice([4]))
    assert "0 HP lost" in events[0].text  # 4+ worsened to 5+
    plain, _ = _hit(_state([]), [4])
    _, events = engine.apply(plain, Attack(1, (("Gun", 0),)), dice=ScriptedDice([4]))
    assert "1 HP lost" in events[0].text


def _smoke(shooter_perks: list[str]) -> GameState:
    hidden = unit("Hidden", perks=["Smokescreen"], hp=3)
    shooters = unit("Shooters", perks=shooter_perks)
    return scenario(
        [[entry(hidden)], [entry(shooters)]],
        {0: [(10.0, 10.0)], 1: [(10.0, 20.0)]},
        phase=Phase.ATTACK,
    )


def test_p1759_smokescreen_gives_attack_dice_against_the_user_minus_2_for_a_turn() -> None:
    state, events = _to_next_move_phase(_smoke([]))
    assert any("uses Smokescreen" in e.text for e in events)
    state = _until(state, Phase.ATTACK, 1)
    _, events = engine.apply(state, Attack(1, (("Gun", 0),)), dice=ScriptedDice([5]))
    assert "0 HP lost" in events[0].text  # 4+ worsened to 6+
    # Stalwart (L1765) ignores negative Dice Modifiers caused by enemy units
    state, _ = _to_next_move_phase(_smoke(["Stalwart"]))
    state = _until(state, Phase.ATTACK, 1)
    _, events = engine.apply(state, Attack(1, (("Gun", 0),)), dice=ScriptedDice([4]))
    assert "1 HP lost" in events[0].text


# -- Fire Resist II (L1529), Immunity II (L1555): enemy afflictions restore HP ------------------


def test_p1529_fire_resist_ii_regains_the_hp_an_enemy_burn_would_cost() -> None:
    state, _ = _hit(_state(["Burn"], ["Fire Resist II"]), [4])
    t = _target(state)
    assert _statuses(state, t) == ["Burn"] and state.units[t].hp == (4,)
    state, events = _end_turn(state)
    assert state.units[t].hp == (5,)  # 1 HP restored instead of lost
    assert any("regains 1 HP from Burn" in e.text for e in events)


def test_p1555_immunity_ii_regains_poison_hp_and_ignores_virus() -> None:
    state, _ = _hit(_state(["Poison", "Virus"], ["Immunity II"], target={"hp": 9}), [4])
    t = _target(state)
    assert _statuses(state, t) == ["Poison"]  # Virus does not take hold
    state, _ = _end_turn(state)
    assert state.units[t].hp[0] > 8  # D3 restored (up to 9)
