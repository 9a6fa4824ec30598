"""Weapons and markers as game state (session 25, lane w2-state; Perks
000_94ecc6a4c74d351b.txt §12.5): Simulacrum (L4059), Loot (L3090). Test names carry the rank's
source line (``p4059`` …), which ``warbench perks --coverage`` reads
(``scripts/build_perk_coverage.py``)."""

from __future__ import annotations

import pytest

from tests.warsurge.game.helpers import check_invariants, entry, scenario, unit, weapon
from warbench.kernel.dice import ScriptedDice, SeededDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack, Pass
from warbench.rulesets.warsurge.game.actions_advanced import UsePerks
from warbench.rulesets.warsurge.game.events import Event
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
    from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
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
