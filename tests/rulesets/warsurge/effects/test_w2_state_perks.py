"""Weapons and markers as game state (session 25, lane w2-state; Perks
000_94ecc6a4c74d351b.txt §12.5): Simulacrum (L4059), Loot (L3090). Test names carry the rank's
source line (``p4059`` …), which ``warbench perks --coverage`` reads
(``scripts/build_perk_coverage.py``)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.warsurge.game.helpers import check_invariants, entry, scenario, unit, weapon
from warbench.kernel.dice import ScriptedDice, SeededDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack, Move, Pass
from warbench.rulesets.warsurge.game.actions_advanced import UsePerks
from warbench.rulesets.warsurge.game.events import Event
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.perk_loot import on_casualty
from warbench.rulesets.warsurge.game.state import Automation, GameState, Phase

# -- Simulacrum (L4059) ---------------------------------------------------------------------------

#: Mirror (Simulacrum) costs 24.6 points (22.3 without the perk), Range 8"
MIRROR = weapon("Mirror", range=8, attacks=3, power=6, perks=["Simulacrum"])
#: 9.4 points, Range 24": cheaper than the Mirror
CANNON = weapon("Cannon", range=24, attacks=1, power=6)
#: 23.5 points: cheaper than the Mirror, dearer than its profile without the perk
CARBINE = weapon("Carbine", range=18, attacks=3, power=5)
#: 74.9 points: dearer than the Mirror
LANCE = weapon("Lance", range=36, attacks=6, power=8)


def _mimic(
    foe_weapons: list[object], foe_at: float = 26.0, *, phase: Phase = Phase.MOVE, **kw: object
) -> GameState:
    """Mimics (unit 0, one model at (24, 10)) with the Mirror; Foes (unit 1, one model of 3 HP at
    (24, ``foe_at``)) with ``foe_weapons``."""
    me = entry(unit("Mimics", hp=3, weapons=[MIRROR]))
    foe = entry(unit("Foes", hp=3, weapons=foe_weapons))  # type: ignore[arg-type]
    pos = {0: [(24.0, 10.0)], 1: [(24.0, foe_at)]}
    return scenario([[me], [foe]], pos, phase=phase, **kw)  # type: ignore[arg-type]


def _manual() -> frozenset[Automation]:
    return frozenset(a for a in Automation if a is not Automation.PERK_USE)


def _perk_events(events: list[Event], word: str) -> list[Event]:
    return [e for e in events if e.kind == "perk" and word in e.text]


def _until(state: GameState, done: object, events: list[Event] | None = None) -> GameState:
    while not done(state) and not state.over:  # type: ignore[operator]
        state, ev = engine.apply(state, Pass(), dice=SeededDice(3))
        if events is not None:
            events.extend(ev)
        check_invariants(state)
    return state


def _my_attack(s: GameState) -> bool:
    return s.flow.phase is Phase.ATTACK and s.flow.active == 0 and not s.units[0].acted


def test_p4059_simulacrum_copies_a_weapon_within_18_inches_for_the_game_turn() -> None:
    state = _mimic([CANNON], automation=_manual())
    assert state.info(0).unit.weapon("Mirror").range == 8
    after, events = engine.apply(state, UsePerks(0, ("Simulacrum: Mirror = 1/Cannon",)))
    check_invariants(after)
    assert _perk_events(events, "P0: Mimics's Mirror copies P1: Foes's Cannon")
    mirror = after.info(0).unit.weapon("Mirror")
    assert (mirror.range, mirror.attacks, mirror.power) == (24, 1, 6)
    assert after.info(0).weapon_range["Mirror"] == 24
    assert after.info(0).model_weapons == (("Mirror",),)  # the same models carry it
    assert after.setup.units[0].unit.weapon("Mirror").range == 8  # the set-up is unchanged
    # the copy shoots 16" in the Attack Phase: the Mirror's own Range 8" does not reach
    at_attack = _until(after, _my_attack)
    shot, _ = engine.apply(at_attack, Attack(0, (("Mirror", 1),)), dice=ScriptedDice([6]))
    assert sum(shot.units[1].hp) == 2  # one Attack Die (the Cannon's 1), Power 6 v Defence 4
    with pytest.raises(RulesError):
        plain = _until(state, _my_attack)
        engine.apply(plain, Attack(0, (("Mirror", 1),)), dice=ScriptedDice([6, 6, 6]))
    # "After the Game Turn ends, the profile of the Simulacrum Weapon is restored"
    later = _until(shot, lambda s: s.flow.turn == 3)
    assert later.info(0).unit.weapon("Mirror").range == 8
    assert not any(s.name.startswith("Arms@") for s in later.units[0].statuses)


def test_p4059_simulacrum_refuses_a_dearer_weapon_a_far_one_and_outside_the_turn_start() -> None:
    state = _mimic([CANNON, LANCE], automation=_manual())
    with pytest.raises(RulesError, match="may not copy Lance"):
        engine.apply(state, UsePerks(0, ("Simulacrum: Mirror = 1/Lance",)))
    far = _mimic([CANNON], foe_at=40.0, automation=_manual())  # 30" apart
    with pytest.raises(RulesError, match="may not copy Cannon"):
        engine.apply(far, UsePerks(0, ("Simulacrum: Mirror = 1/Cannon",)))
    late = _mimic([CANNON], phase=Phase.ATTACK, automation=_manual())
    with pytest.raises(RulesError, match="at the start of the Game Turn"):
        engine.apply(late, UsePerks(0, ("Simulacrum: Mirror = 1/Cannon",)))
    # once per Game Turn per Simulacrum Weapon
    once, _ = engine.apply(state, UsePerks(0, ("Simulacrum: Mirror = 1/Cannon",)))
    with pytest.raises(RulesError):
        engine.apply(once, UsePerks(0, ("Simulacrum: Mirror = 1/Cannon",)))


def test_p4059_simulacrum_copies_a_weapon_that_targeted_the_user_last_turn_from_afar() -> None:
    # the Foes stand 22" off (beyond 18") and shoot the Mimics with the Cannon in Game Turn 2
    gun = weapon("Gun", range=24, attacks=1, power=4, perks=["Use I"])
    state = _mimic([CANNON, gun], foe_at=33.0, phase=Phase.ATTACK, active=1, automation=_manual())
    shot, _ = engine.apply(state, Attack(1, (("Cannon", 0),)), dice=ScriptedDice([1]))
    start = _until(shot, lambda s: s.flow.turn == 3 and s.flow.phase is Phase.MOVE)
    from warbench.rulesets.warsurge.game.perk_hooks import usable_perks
    from warbench.rulesets.warsurge.game.work import Work

    shown = usable_perks(Work(start, None, DEFAULT_HOOKS), 0)
    assert "Simulacrum: Mirror = 1/Cannon" in shown
    # the Gun (Use I) did not Target the User: L4079 keeps it out
    assert "Simulacrum: Mirror = 1/Gun" not in shown
    with pytest.raises(RulesError, match="may not copy Gun"):
        engine.apply(start, UsePerks(0, ("Simulacrum: Mirror = 1/Gun",)))
    after, _ = engine.apply(start, UsePerks(0, ("Simulacrum: Mirror = 1/Cannon",)))
    assert after.info(0).unit.weapon("Mirror").range == 24
    # without the shot the Cannon, 22" off, is not offered
    quiet = _until(state, lambda s: s.flow.turn == 3 and s.flow.phase is Phase.MOVE)
    with pytest.raises(RulesError, match="may not copy Cannon"):
        engine.apply(quiet, UsePerks(0, ("Simulacrum: Mirror = 1/Cannon",)))


def test_p4059_simulacrum_engine_copies_a_dearer_profile_as_the_game_turn_starts() -> None:
    events: list[Event] = []
    state = _mimic([CARBINE, CANNON], phase=Phase.ATTACK, active=1)
    start = _until(state, lambda s: s.flow.turn == 3, events)
    assert _perk_events(events, "Mirror copies P1: Foes's Carbine for this Game Turn (the engine's")
    assert start.info(0).unit.weapon("Mirror").range == 18
    # the Cannon alone is worth less than the Mirror's own profile: the engine keeps it
    events = []
    _until(_mimic([CANNON], phase=Phase.ATTACK, active=1), lambda s: s.flow.turn == 3, events)
    assert not _perk_events(events, "copies")


# -- Loot (L3090) -------------------------------------------------------------------------------

#: the Looters' Weapon
BLASTER = weapon("Blaster", range=12, attacks=2, power=6, perks=["Loot"])
GUN = weapon("Gun", range=24, attacks=1, power=10)


def _looters(perks: list[str], *, models: int = 2, phase: Phase = Phase.ATTACK) -> GameState:
    """Looters (unit 0, ``models`` models of 1 HP with a Blaster of ``perks``, the first only
    when Shared) at (24, 20) and (26, 20); Raiders (unit 1, one model of 3 HP with a Gun,
    Power 10) at (24, 34); side 1 acts."""
    blaster = weapon("Blaster", range=12, attacks=2, power=6, perks=perks)
    shared = "Shared" in perks
    me = entry(unit("Looters", models=models, weapons=[blaster, GUN]))
    if shared:  # the Blaster on the first model only, a Gun on every model
        from warbench.rulesets.warsurge.profiles import ModelGroup

        me = replace(
            me,
            unit=me.unit.model_copy(
                update={
                    "models": [
                        ModelGroup(count=1, weapons=["Blaster", "Gun"]),
                        ModelGroup(count=models - 1, weapons=["Gun"]),
                    ]
                }
            ),
        )
    raiders = entry(unit("Raiders", hp=3, move=20, weapons=[GUN]))
    pos = {0: [(24.0, 20.0), (26.0, 20.0)][:models], 1: [(24.0, 34.0)]}
    return scenario([[me], [raiders]], pos, phase=phase, active=1, automation=_manual())


def _markers(state: GameState) -> list[str]:
    return [s.name for u in state.units for s in u.statuses if s.name.startswith("Loot marker@")]


def test_p3090_loot_weapon_drops_as_a_marker_where_its_wielder_falls() -> None:
    state = _looters(["Loot"])
    # one Attack Die of the Gun (Power 10): a 6 slays one Looter
    after, events = engine.apply(state, Attack(1, (("Gun", 0),)), dice=ScriptedDice([6]))
    check_invariants(after)
    dead = next(i for i, h in enumerate(after.units[0].hp) if h <= 0)
    x, y = state.units[0].pos[dead]
    assert _markers(after) == [f"Loot marker@0@Blaster@{x:.2f},{y:.2f}@{dead}"]
    assert _perk_events(events, f"P0: Looters's Blaster drops as a Loot marker at ({x:.1f}")
    assert "Blaster" not in after.info(0).model_weapons[dead]  # the fallen model has lost it
    assert "Blaster" in after.info(0).model_weapons[1 - dead]  # the other keeps its own
    plain, _ = engine.apply(_looters([]), Attack(1, (("Gun", 0),)), dice=ScriptedDice([6]))
    assert not _markers(plain)


def _dropped(state: GameState, at: tuple[float, float], weapon: str = "Blaster") -> GameState:
    from warbench.rulesets.warsurge.game.state import Status

    mark = Status(f"Loot marker@0@{weapon}@{at[0]:.2f},{at[1]:.2f}@0", None, f"u0/{weapon}")
    u = state.units[0]
    return replace(state, units=(replace(u, statuses=(*u.statuses, mark)), *state.units[1:]))


def test_p3090_loot_marker_is_picked_up_by_a_model_moving_past_it() -> None:
    # the Raiders move from (24, 34) to (40, 34), passing over a marker at (32, 34.4)
    state = _dropped(_looters(["Loot"], phase=Phase.MOVE), (32.0, 34.4))
    after, events = engine.apply(state, Move(1, to=(40.0, 34.0)), dice=ScriptedDice([]))
    check_invariants(after)
    assert _perk_events(events, "model 1 of P1: Raiders picks up the Loot Weapon Blaster")
    assert not _markers(after)
    assert after.info(1).model_weapons == (("Gun", "Blaster"),)
    blaster = after.info(1).unit.weapon("Blaster")
    assert (blaster.range, blaster.attacks, blaster.power) == (12, 2, 6)
    # a marker 3" off the path stays where it is
    far = _dropped(_looters(["Loot"], phase=Phase.MOVE), (32.0, 37.0))
    after, events = engine.apply(far, Move(1, to=(40.0, 34.0)), dice=ScriptedDice([]))
    assert not _perk_events(events, "picks up") and _markers(after)
    assert after.info(1).model_weapons == (("Gun",),)


def test_p3090_loot_picked_up_weapon_is_used_and_dropped_again() -> None:
    from warbench.rulesets.warsurge.game.state import Status

    state = _looters(["Loot"], phase=Phase.ATTACK)
    take = Status("Arms@take@0@0@Blaster", None, "u0/Blaster")
    raider = replace(state.units[1], pos=((24.0, 28.0),), statuses=(take,))
    state = replace(state, units=(state.units[0], raider))
    # the Blaster (12"): two Attack Dice at the Looters 8" off; one 6 slays one
    after, _ = engine.apply(state, Attack(1, (("Blaster", 0),)), dice=ScriptedDice([6, 1]))
    assert sum(after.units[0].hp) == 1
    # without the Blaster the Raiders' Gun alone is theirs
    with pytest.raises(RulesError):
        bare = replace(state, units=(state.units[0], replace(raider, statuses=())))
        engine.apply(bare, Attack(1, (("Blaster", 0),)), dice=ScriptedDice([6, 1]))
    # the Raider falls: the Blaster drops again where it stood
    turned = replace(after, flow=replace(after.flow, active=0))
    from warbench.rulesets.warsurge.game.work import Work

    w = Work(turned, None, DEFAULT_HOOKS)
    on_casualty(w, 1, 0, "test")
    # (the Looter it slew dropped its own Blaster too)
    assert "Loot marker@0@Blaster@24.00,28.00@0" in _markers(w.state())
    assert not any(s.name.startswith("Arms@take") for s in w.state().units[1].statuses)
    assert w.state().info(1).model_weapons == (("Gun",),)


def test_p3090_loot_shared_weapon_drops_only_when_the_whole_unit_falls() -> None:
    state = _looters(["Loot", "Shared"])
    one, _ = engine.apply(state, Attack(1, (("Gun", 0),)), dice=ScriptedDice([6]))
    assert sum(1 for h in one.units[0].hp if h <= 0) == 1 and not _markers(one)
    # the second Looter falls: the unit is gone, the Blaster drops
    from warbench.rulesets.warsurge.game.work import Work

    w = Work(one, None, DEFAULT_HOOKS)
    left = next(i for i, h in enumerate(one.units[0].hp) if h > 0)
    w.set_unit(0, hp=tuple(0 for _ in one.units[0].hp))
    on_casualty(w, 0, left, "test")
    assert len(_markers(w.state())) == 1 and "@0@Blaster@" in _markers(w.state())[0]


def test_p3090_loot_one_picked_up_weapon_per_model() -> None:
    from warbench.rulesets.warsurge.game.state import Status

    state = _dropped(_looters(["Loot"], phase=Phase.MOVE), (32.0, 34.4))
    take = Status("Arms@take@0@0@Blaster", None, "u0/Blaster")
    state = replace(state, units=(state.units[0], replace(state.units[1], statuses=(take,))))
    after, events = engine.apply(state, Move(1, to=(40.0, 34.0)), dice=ScriptedDice([]))
    assert not _perk_events(events, "picks up") and _markers(after)


# -- random and scripted games (Simulacrum L4059, Loot L3090) -------------------------------------

W2_WEAPON_SETS = [["Simulacrum"], ["Loot"], ["Loot", "Shared"], ["Loot", "Burn"], []]


def _w2_setup(k: int) -> object:
    from tests.rulesets.warsurge.effects.test_perk_heavy_games import BOARDS
    from tests.warsurge.game.helpers import ROSTERS
    from warbench.rulesets.warsurge.battlefield import sample_board
    from warbench.rulesets.warsurge.game.geom import Field
    from warbench.rulesets.warsurge.game.io import load_game_roster
    from warbench.rulesets.warsurge.game.state import ALL_AUTOMATIONS, build_setup

    players = []
    for i, name in enumerate(("skirmish_a.yaml", "skirmish_b.yaml")):
        p = load_game_roster(ROSTERS / name)
        entries = []
        for n, e in enumerate(p.roster):
            ws = [
                w.model_copy(update={"perks": W2_WEAPON_SETS[(i + k + n + j) % 5]})
                for j, w in enumerate(e.unit.weapons)
            ]
            entries.append(replace(e, unit=e.unit.model_copy(update={"weapons": ws})))
        players.append(replace(p, roster=tuple(entries)))
    automation = ALL_AUTOMATIONS - ({Automation.PERK_USE} if k % 2 else set())
    board = Field(sample_board(BOARDS[k % len(BOARDS)]))
    return build_setup(players, board, max_turns=6, automation=automation)


@pytest.mark.parametrize("k", range(3))
def test_p4059_p3090_random_games_with_simulacrum_and_loot_keep_invariants_and_replay(
    k: int,
) -> None:
    from tests.rulesets.warsurge.effects.test_perk_heavy_games import play_checked

    play_checked(_w2_setup(k), seed=1000 + k)  # type: ignore[arg-type]


def test_p4059_p3090_games_copy_drop_and_pick_up_weapons() -> None:
    from warbench.rulesets.warsurge.game.players import RandomLegalPlayer, ScriptedPlayer
    from warbench.rulesets.warsurge.game.record import GameRecord, replay

    seen: dict[str, int] = {"copies": 0, "drops as a Loot": 0, "picks up the Loot": 0}
    for k in range(12):
        setup, seed = _w2_setup(k), 2000 + k
        state, _ = engine.new_game(setup, seed)  # type: ignore[arg-type]
        rec = GameRecord(setup, seed)  # type: ignore[arg-type]
        players = (
            [ScriptedPlayer(), ScriptedPlayer()]
            if k % 3 == 0
            else [RandomLegalPlayer(seed * 7 + 1), RandomLegalPlayer(seed * 7 + 2)]
        )
        while not state.over:
            side = engine.acting_side(state)
            assert side is not None
            action = players[side].choose(state)
            state, events = engine.apply(state, action)
            rec.add(action, state)
            check_invariants(state)
            for e in events:
                for word in seen:
                    seen[word] += e.kind == "perk" and word in e.text
        assert replay(rec).state.digest() == state.digest()
    assert all(seen.values()), seen


# -- a looted Weapon's turn-start perks (issue 10, session 37, s37-loot) --------------------------


def _next_game_turn(state: GameState) -> GameState:
    """Passes until the next Game Turn has started (its Turn Master Roll-Off: 6 and 1)."""
    turn = state.flow.turn
    while True:
        new, _ = engine.apply(state, Pass(), dice=ScriptedDice([6, 1, 6, 1]))
        check_invariants(new)
        if new.flow.turn != turn or new.over:
            return new
        state = new


def _blaster_now(state: GameState, uid: int) -> tuple[int, int]:
    """(Power, Attacks) of the unit's Blaster as its attacks read them now."""
    from warbench.rulesets.warsurge.game.work import Work, to_unit_state

    blaster = to_unit_state(Work(state, None, DEFAULT_HOOKS), uid).weapons["Blaster"]
    return (blaster.power, blaster.attacks)


def _looted(perks: list[str], *, arrived: int) -> GameState:
    """The Raiders (Game Turn ``arrived`` their first on the Battlefield) move over a dropped
    Blaster of ``perks`` (Loot L3090) in the Move Phase of Game Turn 2 and pick it up."""
    from warbench.rulesets.warsurge.game import perk_turn

    state = _dropped(_looters(perks, phase=Phase.MOVE), (32.0, 34.4))
    state = replace(state, flow=replace(state.flow, turn=2))
    units = [u.with_counter(perk_turn.ARRIVED, 1) for u in state.units]
    units[1] = units[1].with_counter(perk_turn.ARRIVED, arrived)
    state = replace(state, units=tuple(units))
    after, events = engine.apply(state, Move(1, to=(40.0, 34.0)), dice=ScriptedDice([]))
    assert _perk_events(events, "model 1 of P1: Raiders picks up the Loot Weapon Blaster")
    return after


def test_p3090_p2963_looted_escalate_weapon_escalates_for_its_new_carrier() -> None:
    # the Blaster (Power 6, 2 Attacks) with Escalate (L2963) picked up in Game Turn 2 by
    # Raiders on the Battlefield since Game Turn 1: Game Turn 3 is their 3rd there, so the
    # Weapon has +1 Power (2nd) and +1 Attack (3rd) (the Wielder's Game Turns, docs/rulings.md)
    state = _next_game_turn(_looted(["Loot", "Escalate"], arrived=1))
    assert state.flow.turn == 3
    names = [s.name for s in state.units[1].statuses]
    assert "Escalate (2nd)@Blaster" in names and "Escalate (3rd)@Blaster" in names
    assert _blaster_now(state, 1) == (7, 3)
    # the Looters' other model still carries its own: Escalate as before
    assert _blaster_now(state, 0) == (7, 3)
    # Raiders arrived in Game Turn 2: Game Turn 3 is their 2nd, +1 Power only
    late = _next_game_turn(_looted(["Loot", "Escalate"], arrived=2))
    assert _blaster_now(late, 1) == (7, 2)
    # the same pick-up without Escalate: the plain profile
    plain = _next_game_turn(_looted(["Loot"], arrived=1))
    assert _blaster_now(plain, 1) == (6, 2)


def test_p3090_turn_start_perks_fire_in_a_set_up_that_can_loot_an_escalate_weapon() -> None:
    # the hook filter (session 37, s37-speeda) asks the set-up: a looted Weapon is one of its
    # Weapons, so a set-up with an Escalate Loot Weapon fires the turn-start perks, one
    # without Escalate or Bloody anywhere never can loot one and does not
    from warbench.rulesets.warsurge.game import perk_turn
    from warbench.rulesets.warsurge.game.hooks import Hook

    def fires(perks: list[str]) -> bool:
        fired = DEFAULT_HOOKS.fired(_looters(perks).setup)[Hook.TURN_START]
        return any(fn is perk_turn.on_turn_start for _, fn in fired)

    assert fires(["Loot", "Escalate"]) and fires(["Loot", "Bloody"])
    assert not fires(["Loot"])


def test_p3090_p3777_looted_bloody_weapon_reads_its_new_carriers_hp() -> None:
    # Bloody (L3777): "If the User is at 50% or less HP (rounding down) at the start of the
    # Game Turn": the Raiders (3 HP) at 1 HP get +2 Power and +2 Attacks on the looted Blaster
    state = _looted(["Loot", "Bloody"], arrived=1)
    hurt = replace(state, units=(state.units[0], replace(state.units[1], hp=(1,))))
    after = _next_game_turn(hurt)
    assert _blaster_now(after, 1) == (8, 4)
    assert _blaster_now(_next_game_turn(state), 1) == (6, 2)  # 3 of 3 HP: none


def test_p3090_carried_weapons_add_a_picked_up_one_and_leave_out_one_no_model_carries() -> None:
    from warbench.rulesets.warsurge.game.perk_arms import carried_weapons, drop_status
    from warbench.rulesets.warsurge.game.state import Status

    state = _looters(["Loot", "Escalate"])

    def names(uid: int, statuses: list[str]) -> list[str]:
        marks = [Status(n, None, "test") for n in statuses]
        return [wp.name for wp in carried_weapons(state.setup, uid, marks)]

    assert names(0, []) == ["Blaster", "Gun"]
    assert names(1, ["Arms@take@0@0@Blaster"]) == ["Gun", "Blaster"]
    # one Looter dropped its Blaster: the other still carries one; both: the unit has none
    assert names(0, [drop_status(0, "Blaster")]) == ["Blaster", "Gun"]
    both = [drop_status(0, "Blaster"), drop_status(1, "Blaster")]
    assert names(0, both) == ["Gun"]
