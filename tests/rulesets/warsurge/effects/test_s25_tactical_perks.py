"""Tactical Weapon Perks of session 25 (lane s25-tactical) played in a game (Perks
000_94ecc6a4c74d351b.txt §12.5): Knockback I-II (L3917, L3933), Force I-II (L3837, L3859) …
Test names carry the rank's source line (``p3917`` …), which ``warbench perks --coverage`` reads
(``scripts/build_perk_coverage.py``)."""

from __future__ import annotations

import math

import pytest

from tests.rulesets.warsurge.effects.play_helpers import perk_events, to_phase_end
from tests.warsurge.game.helpers import board, check_invariants, entry, scenario, unit, weapon
from warbench.kernel.dice import ScriptedDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.battlefield import Terrain
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack, Move, Pass
from warbench.rulesets.warsurge.game.events import Event
from warbench.rulesets.warsurge.game.state import GameState, Phase


def _end_attack_phase(state: GameState, events: list[Event]) -> GameState:
    state, ev = to_phase_end(state, Phase.ATTACK)
    events.extend(ev)
    return state


# -- Knockback I-II (L3917, L3933) ----------------------------------------------------------------


def _duel(
    perks: list[str],
    *,
    foe_perks: tuple[str, ...] = (),
    foe_at: float = 20.0,
    blocker_at: float | None = None,
    melee: bool = False,
    b: object = None,
) -> GameState:
    """Shooters (unit 0, one model at (24, 10)) with a Gun of ``perks``; Foes (unit 1, one model
    of 3 HP, Defence 4, no Saves) straight north at (24, ``foe_at``); a Wall of friends of the
    Foes (unit 2) further north at ``blocker_at`` when given."""
    gun = weapon("Gun", range=0 if melee else 24, attacks=1, power=4, perks=perks)
    me = entry(unit("Shooters", weapons=[gun]))
    foe = entry(unit("Foes", hp=3, perks=list(foe_perks)))
    sides: list[list[object]] = [[me], [foe]]
    pos: dict[int, list[tuple[float, float]]] = {0: [(24.0, 10.0)], 1: [(24.0, foe_at)]}
    if blocker_at is not None:
        sides[1].append(entry(unit("Wall", hp=3)))
        pos[2] = [(24.0, blocker_at)]
    kw: dict[str, object] = {"phase": Phase.ATTACK}
    if melee:
        kw["engaged"] = [(0, 1)]
    if b is not None:
        kw["b"] = b
    return scenario(sides, pos, **kw)  # type: ignore[arg-type]


def test_p3917_knockback_I_moves_the_target_6_inches_away_at_the_end_of_the_attack_phase() -> None:
    state = _duel(["Knockback I"])
    # the Attack Dice 6 (Power 4 v Defence 4), then the Skill Test 6
    after, events = engine.apply(state, Attack(0, (("Gun", 1),)), dice=ScriptedDice([6, 6]))
    assert sum(after.units[1].hp) == 2
    assert perk_events(events, "Skill Test passed")
    assert after.units[1].pos == ((24.0, 20.0),)  # End of Phase/Step (L279): not yet
    log: list[Event] = []
    done = _end_attack_phase(after, log)
    assert done.units[1].pos[0] == (24.0, 26.0)
    assert perk_events(log, 'knocked back 6.0" directly away')
    assert not done.units[1].moved[0]  # "Knockback does not count as Movement"
    assert not done.units[1].statuses
    # without the perk, the same dice leave the Foes where they stand
    plain, _ = engine.apply(_duel([]), Attack(0, (("Gun", 1),)), dice=ScriptedDice([6]))
    assert _end_attack_phase(plain, []).units[1].pos[0] == (24.0, 20.0)


def test_p3933_knockback_II_moves_the_target_12_inches() -> None:
    after, _ = engine.apply(
        _duel(["Knockback II"]), Attack(0, (("Gun", 1),)), dice=ScriptedDice([6, 4])
    )
    done = _end_attack_phase(after, [])
    assert done.units[1].pos[0] == (24.0, 32.0)


def test_p3917_knockback_failed_skill_tests_leave_the_target() -> None:
    # a Skill Test per HP lost (one HP here): a 3 fails (4+)
    after, events = engine.apply(
        _duel(["Knockback I"]), Attack(0, (("Gun", 1),)), dice=ScriptedDice([6, 3])
    )
    assert perk_events(events, "Skill Test failed")
    assert _end_attack_phase(after, []).units[1].pos[0] == (24.0, 20.0)


def test_p3917_knockback_stops_1_inch_from_other_units() -> None:
    # the Wall stands 4" behind the Foes (edge to edge 3"): they stop 1" short of it
    after, _ = engine.apply(
        _duel(["Knockback I"], blocker_at=24.0), Attack(0, (("Gun", 1),)), dice=ScriptedDice([6, 6])
    )
    log: list[Event] = []
    done = _end_attack_phase(after, log)
    x, y = done.units[1].pos[0]
    assert x == 24.0 and math.isclose(y, 22.0, abs_tol=0.01)
    assert perk_events(log, 'stopped 1" short of P1: Wall')


def test_p3917_knockback_stops_1_inch_from_impassable_ground() -> None:
    wall = Terrain(name="Rock", polygon=[(18, 30), (30, 30), (30, 32), (18, 32)], impassable=True)
    after, _ = engine.apply(
        _duel(["Knockback II"], b=board(terrain=[wall])),
        Attack(0, (("Gun", 1),)),
        dice=ScriptedDice([6, 6]),
    )
    log: list[Event] = []
    done = _end_attack_phase(after, log)
    # the base's edge (radius 0.5") stops 1" short of the Rock's face at y 30
    assert math.isclose(done.units[1].pos[0][1], 28.5, abs_tol=0.01)
    assert perk_events(log, "Impassable Ground")


def test_p3917_knockback_ends_a_melee() -> None:
    state = _duel(["Knockback I"], foe_at=11.0, melee=True)  # in Base Contact, locked
    assert state.engaged
    after, _ = engine.apply(state, Attack(0, (("Gun", 1),)), dice=ScriptedDice([6, 6]))
    log: list[Event] = []
    done = _end_attack_phase(after, log)
    assert done.units[1].pos[0] == (24.0, 17.0)
    assert not done.engaged
    assert any(e.kind == "melee_end" for e in log)


def test_p3917_knockback_leaves_an_unstoppable_unit() -> None:
    # L2178 Unstoppable: "unaffected by … Force, Knockback … and Grapple"
    after, events = engine.apply(
        _duel(["Knockback I"], foe_perks=("Unstoppable",)),
        Attack(0, (("Gun", 1),)),
        dice=ScriptedDice([6]),
    )
    assert perk_events(events, "unaffected by Knockback I")
    assert _end_attack_phase(after, []).units[1].pos[0] == (24.0, 20.0)


# -- Force I-II (L3837, L3859) --------------------------------------------------------------------


def test_p3837_force_I_pushes_the_target_6_inches_at_once() -> None:
    after, events = engine.apply(
        _duel(["Force I"]), Attack(0, (("Gun", 1),)), dice=ScriptedDice([6, 5])
    )
    check_invariants(after)
    assert after.units[1].pos[0] == (24.0, 26.0)  # Immediate: before the Phase ends
    assert perk_events(events, "1 successful Force Weapons")
    assert not after.units[1].moved[0]  # "Force does not count as Movement"
    plain, _ = engine.apply(_duel([]), Attack(0, (("Gun", 1),)), dice=ScriptedDice([6]))
    assert plain.units[1].pos[0] == (24.0, 20.0)


def test_p3859_force_II_pushes_the_target_12_inches() -> None:
    after, _ = engine.apply(
        _duel(["Force II"]), Attack(0, (("Gun", 1),)), dice=ScriptedDice([6, 5])
    )
    assert after.units[1].pos[0] == (24.0, 32.0)


def test_p3837_force_failed_skill_test_does_nothing() -> None:
    after, events = engine.apply(
        _duel(["Force I"]), Attack(0, (("Gun", 1),)), dice=ScriptedDice([6, 2])
    )
    assert after.units[1].pos[0] == (24.0, 20.0)
    assert perk_events(events, "0 successful Force Weapons")


def test_p3837_force_into_a_unit_damages_both_without_a_melee() -> None:
    # the Wall 4" behind the Foes: the push stops just short of it (no Base Contact, no Melee)
    state = _duel(["Force I"], blocker_at=24.0)
    # Attack Die 6, Skill Test 6; the Foes: D6 = 2 Attack Dice (6, 1); the Wall: D6 = 3 (4, 4, 3)
    dice = ScriptedDice([6, 6, 2, 6, 1, 3, 4, 4, 3])
    after, events = engine.apply(state, Attack(0, (("Gun", 1),)), dice=dice)
    check_invariants(after)
    assert dice.remaining == 0
    y = after.units[1].pos[0][1]
    assert 22.85 < y < 22.91  # stopped 0.1" short of the Wall (edge to edge)
    assert sum(after.units[1].hp) == 3 - 1 - 1  # the Gun's HP, then one collision success
    assert sum(after.units[2].hp) == 1  # two successes on 4+
    assert not after.engaged
    hits = perk_events(events, "collision")
    assert [e.data["hp_lost"] for e in hits] == [1, 2]


def test_p3837_force_into_impassable_ground_damages_the_target() -> None:
    wall = Terrain(name="Rock", polygon=[(18, 23), (30, 23), (30, 25), (18, 25)], impassable=True)
    state = _duel(["Force I"], b=board(terrain=[wall]))
    # the Attack Die 6, Skill Test 4, D6 = 1 Attack Die: 4 (a success, no Saves)
    dice = ScriptedDice([6, 4, 1, 4])
    after, events = engine.apply(state, Attack(0, (("Gun", 1),)), dice=dice)
    assert dice.remaining == 0
    assert math.isclose(after.units[1].pos[0][1], 22.4, abs_tol=0.02)  # 0.1" short
    assert sum(after.units[1].hp) == 1
    assert perk_events(events, "into Impassable Ground")


def test_p3837_force_saves_apply_to_the_collision_dice() -> None:
    wall = Terrain(name="Rock", polygon=[(18, 23), (30, 23), (30, 25), (18, 25)], impassable=True)
    gun = weapon("Gun", range=24, attacks=1, power=6, perks=["Force I"])
    me = entry(unit("Shooters", weapons=[gun]))
    foe = entry(unit("Knights", hp=3, armour=4))
    state = scenario(
        [[me], [foe]], {0: [(24.0, 10.0)], 1: [(24.0, 20.0)]}, phase=Phase.ATTACK,
        b=board(terrain=[wall]),
    )  # fmt: skip
    # Attack Die 6, Armour Save 1 (fails); Skill Test 5; D6 = 2 Attack Dice (5, 6); Saves 4, 2
    dice = ScriptedDice([6, 1, 5, 2, 5, 6, 4, 2])
    after, _ = engine.apply(state, Attack(0, (("Gun", 1),)), dice=dice)
    assert dice.remaining == 0
    assert sum(after.units[1].hp) == 3 - 1 - 1  # one collision success saved


def test_p3837_force_ends_a_melee() -> None:
    state = _duel(["Force I"], foe_at=11.0, melee=True)
    after, events = engine.apply(state, Attack(0, (("Gun", 1),)), dice=ScriptedDice([6, 6]))
    check_invariants(after)
    assert not after.engaged
    assert after.units[1].pos[0] == (24.0, 17.0)
    assert any(e.kind == "melee_end" for e in events)


# -- Preliminary (L4049) and Postliminary (L3987) -------------------------------------------------


def _timed(perk: str, phase: Phase, **kw: object) -> GameState:
    """Shooters (unit 0) with a Gun of ``perk`` (2 Attacks, Power 4) and a plain Pistol; three
    Foes of 1 HP (unit 1) 10" north, in ``phase`` of Game Turn 2."""
    gun = weapon("Gun", range=24, attacks=2, power=4, perks=[perk] if perk else [])
    pistol = weapon("Pistol", range=24, attacks=1, power=4)
    me = entry(unit("Shooters", weapons=[gun, pistol]))
    foe = entry(unit("Foes", hp=1, models=3))
    pos = {0: [(24.0, 10.0)], 1: [(22.0, 20.0), (24.0, 20.0), (26.0, 20.0)]}
    return scenario([[me], [foe]], pos, phase=phase, **kw)  # type: ignore[arg-type]


def test_p4049_preliminary_attacks_as_the_deploy_phase_ends_casualties_at_once() -> None:
    state = _timed("Preliminary", Phase.DEPLOY)
    dice = ScriptedDice([6, 5])  # the Gun's two Attack Dice (Power 4 v Defence 4: 4+)
    after, events = engine.apply(state, Pass(), dice=dice)  # nobody has anything to deploy
    check_invariants(after)
    assert dice.remaining == 0
    assert after.flow.phase is Phase.MOVE
    assert sum(after.units[1].removed) == 2  # removed at once, before the Move Phase
    assert perk_events(events, "Gun (Preliminary) attacks P1: Foes")
    # a Gun without the perk does not attack by itself
    plain, events = engine.apply(_timed("", Phase.DEPLOY), Pass(), dice=ScriptedDice([]))
    assert not any(plain.units[1].removed) and not perk_events(events, "Preliminary")


def test_p4049_preliminary_weapon_is_refused_in_the_attack_phase() -> None:
    state = _timed("Preliminary", Phase.ATTACK)
    with pytest.raises(RulesError, match=r"Gun attacks only before everything else"):
        engine.apply(state, Attack(0, (("Gun", 1),)), dice=ScriptedDice([6, 6]))
    after, _ = engine.apply(state, Attack(0, (("Pistol", 1),)), dice=ScriptedDice([6]))
    assert sum(after.units[1].hp) == 2  # the other Weapon attacks as usual


def test_p3987_postliminary_attacks_after_the_dash_phase() -> None:
    from warbench.kernel.dice import SeededDice

    state = _timed("Postliminary", Phase.DASH)
    events: list[Event] = []
    while state.flow.turn == 2:
        state, ev = engine.apply(state, Pass(), dice=SeededDice(4))
        events.extend(ev)
        check_invariants(state)
    texts = [e.text for e in events]
    at = next(k for k, t in enumerate(texts) if "Gun (Postliminary) attacks P1: Foes" in t)
    assert any("finished with the Dash Phase" in t for t in texts[:at])
    assert any(e.kind == "attack" and "Postliminary" in e.text for e in events[at:])
    assert next(k for k, t in enumerate(texts) if t == "Game Turn 3") > at
    with pytest.raises(RulesError, match="after everything else"):
        engine.check(_timed("Postliminary", Phase.ATTACK), Attack(0, (("Gun", 1),)))


def test_p3987_p4049_advanced_windows_wrap_the_action_steps() -> None:
    from dataclasses import replace

    from warbench.kernel.dice import SeededDice
    from warbench.rulesets.warsurge.game.advstate import AdvancedFlow

    for perk in ("Postliminary", "Preliminary"):
        state = _timed(perk, Phase.ACTIONS, playstyle="advanced")
        state = replace(state, flow=replace(state.flow, adv=AdvancedFlow(cp=(5, 5))))
        events: list[Event] = []
        while state.flow.turn == 2 or state.flow.phase is not Phase.ACTIONS:
            state, ev = engine.apply(state, Pass(), dice=SeededDice(2))
            events.extend(ev)
            check_invariants(state)
        texts = [e.text for e in events]
        at = next(k for k, t in enumerate(texts) if f"Gun ({perk}) attacks" in t)
        turn3 = texts.index("Game Turn 3")
        # Postliminary: after the Action Steps of Game Turn 2; Preliminary: before those of 3
        assert (at < turn3) if perk == "Postliminary" else (at > turn3)


# -- Shared (L4055) -------------------------------------------------------------------------------


def _squad(perks: list[str], *, carriers: int = 1, models: int = 7, dead: int = 0) -> GameState:
    """A Squad (unit 0) in a line west to east, 1.5" apart, from (4, 10); ``carriers`` models
    (the westmost) carry a Gun (Range 12, ``perks``), all a Pistol (Range 3). Foes (unit 1, five
    models of 3 HP) from 10.5" north of the eastmost model: beyond 12" of the westmost one."""
    from warbench.rulesets.warsurge.profiles import ModelGroup, Unit, UnitProfile

    gun = weapon("Gun", range=12, attacks=1, power=4, perks=perks)
    pistol = weapon("Pistol", range=3, attacks=1, power=4)
    squad = Unit(
        profile=UnitProfile(name="Squad", move=6, dash=6, defence=4, hp=1),
        weapons=[gun, pistol],
        models=[
            ModelGroup(count=carriers, weapons=["Gun", "Pistol"]),
            ModelGroup(count=models - carriers, weapons=["Pistol"]),
        ],
    )
    east = 4.0 + 1.5 * (models - 1)
    foes = entry(unit("Foes", hp=3, models=5))
    pos = {
        0: [(4.0 + 1.5 * k, 10.0) for k in range(models)],
        1: [(east + 1.5 * k, 20.5) for k in range(5)],
    }
    state = scenario([[entry(squad)], [foes]], pos, phase=Phase.ATTACK)
    if dead:
        from dataclasses import replace

        u = state.units[0]
        removed = tuple(k < dead for k in range(models))
        hp = tuple(0 if k < dead else h for k, h in enumerate(u.hp))
        state = replace(state, units=(replace(u, removed=removed, hp=hp), state.units[1]))
    return state


def test_p4055_shared_weapon_is_used_by_a_model_that_does_not_carry_it() -> None:
    # only the eastmost model has the Foes within 12"; the Gun is carried by the westmost
    with pytest.raises(RulesError, match="cannot use Gun"):
        engine.check(_squad([]), Attack(0, (("Gun", 1),)))
    after, events = engine.apply(
        _squad(["Shared"]), Attack(0, (("Gun", 1),)), dice=ScriptedDice([6])
    )
    attack = next(e for e in events if e.kind == "attack")
    assert "with Gun (1 models" in attack.text  # one Gun: one model's Attacks
    assert sum(after.units[1].hp) == 14


def test_p4055_shared_weapon_stays_with_the_unit_when_its_wielder_falls() -> None:
    with pytest.raises(RulesError, match="carries Gun"):
        engine.check(_squad([], dead=1), Attack(0, (("Gun", 1),)))
    engine.check(_squad(["Shared"], dead=1), Attack(0, (("Gun", 1),)))


def test_p4055_shared_weapon_attacks_no_more_than_its_copies() -> None:
    # two Guns in a unit of four, every model within 12": two models attack with them
    state = _squad(["Shared"], carriers=2, models=4)
    from dataclasses import replace

    near = replace(state.units[1], pos=tuple((6.0 + 1.5 * k, 14.0) for k in range(5)))
    state = replace(state, units=(state.units[0], near))
    after, events = engine.apply(state, Attack(0, (("Gun", 1),)), dice=ScriptedDice([6, 6]))
    attack = next(e for e in events if e.kind == "attack")
    assert "with Gun (2 models" in attack.text and "2 Attack Dice" in attack.text
    assert sum(after.units[1].hp) == 13
    # naming three models for the two Guns is refused
    with pytest.raises(RulesError, match="Shared"):
        engine.check(state, Attack(0, (("Gun", 1, (0, 1, 2)),)))


# -- Grapple (L3869) ------------------------------------------------------------------------------


def _grapple(
    perks: list[str], *, mine: int = 100, theirs: int = 50, foe_perks: tuple[str, ...] = (),
    blocker: bool = False,
) -> GameState:  # fmt: skip
    """The Hunter (unit 0, ``mine`` points) at (24, 10) with a Hook (``perks``, Range 24); the
    Prey (unit 1, ``theirs`` points, 3 HP) at (24, 20); a Crate (unit 2, a friend of the Prey)
    at (24.8, 15), a little off the line, when ``blocker``."""
    hook = weapon("Hook", range=24, attacks=1, power=4, perks=perks)
    me = entry(unit("Hunter", weapons=[hook]), points=mine)
    prey = entry(unit("Prey", hp=3, perks=list(foe_perks)), points=theirs)
    sides: list[list[object]] = [[me], [prey]]
    pos = {0: [(24.0, 10.0)], 1: [(24.0, 20.0)]}
    if blocker:
        sides[1].append(entry(unit("Crate", hp=3), points=10))
        pos[2] = [(24.8, 15.0)]
    return scenario(sides, pos, phase=Phase.ATTACK)  # type: ignore[arg-type]


def test_p3869_grapple_pulls_a_cheaper_target_into_a_melee() -> None:
    after, events = engine.apply(
        _grapple(["Grapple"]), Attack(0, (("Hook", 1),)), dice=ScriptedDice([6, 4])
    )
    check_invariants(after)
    x, y = after.units[1].pos[0]
    assert x == 24.0 and 11.0 <= y <= 11.05  # in Base Contact with the Hunter
    assert after.units[0].pos[0] == (24.0, 10.0)
    assert (0, 1) in after.engaged  # "into base contact with enemy Units … begin a Melee"
    assert not after.units[1].moved[0]  # "Grapple does not count as Movement"
    assert perk_events(events, "Prey is pulled")
    plain, _ = engine.apply(_grapple([]), Attack(0, (("Hook", 1),)), dice=ScriptedDice([6]))
    assert plain.units[1].pos[0] == (24.0, 20.0) and not plain.engaged


def test_p3869_grapple_pulls_the_user_to_a_dearer_target() -> None:
    after, _ = engine.apply(
        _grapple(["Grapple"], theirs=200), Attack(0, (("Hook", 1),)), dice=ScriptedDice([6, 6])
    )
    check_invariants(after)
    assert 18.95 <= after.units[0].pos[0][1] <= 19.0
    assert after.units[1].pos[0] == (24.0, 20.0)
    assert (0, 1) in after.engaged


def test_p3869_grapple_equal_point_costs_nothing_happens() -> None:
    after, events = engine.apply(
        _grapple(["Grapple"], theirs=100), Attack(0, (("Hook", 1),)), dice=ScriptedDice([6, 6])
    )
    assert after.units[1].pos[0] == (24.0, 20.0) and after.units[0].pos[0] == (24.0, 10.0)
    assert perk_events(events, "nothing happens (their full Point Costs are equal)")


def test_p3869_grapple_failed_skill_test_nothing_happens() -> None:
    after, events = engine.apply(
        _grapple(["Grapple"]), Attack(0, (("Hook", 1),)), dice=ScriptedDice([6, 3])
    )
    assert after.units[1].pos[0] == (24.0, 20.0)
    assert perk_events(events, "Skill Test failed")


def test_p3869_grapple_an_unstoppable_target_brings_the_user_to_it() -> None:
    # the Prey is cheaper, but "If the Target is Immobile or has Unstoppable, the User goes to
    # the Target"
    after, _ = engine.apply(
        _grapple(["Grapple"], foe_perks=("Unstoppable",)),
        Attack(0, (("Hook", 1),)),
        dice=ScriptedDice([6, 6]),
    )
    check_invariants(after)
    assert after.units[1].pos[0] == (24.0, 20.0)
    assert 18.95 <= after.units[0].pos[0][1] <= 19.0


def test_p3869_grapple_stops_short_of_a_unit_in_the_way() -> None:
    after, _ = engine.apply(
        _grapple(["Grapple"], blocker=True), Attack(0, (("Hook", 1),)), dice=ScriptedDice([6, 6])
    )
    check_invariants(after)
    assert 15.7 <= after.units[1].pos[0][1] <= 15.8  # 0.1" short of the Crate (edge to edge)
    assert not after.engaged


def test_p3869_grapple_with_no_line_of_sight_passes_through_units() -> None:
    # "If the No Line of Sight Perk is on the Grapple Weapon, Units can be grappled through
    # Impassable Terrain and Units"
    after, _ = engine.apply(
        _grapple(["Grapple", "No Line of Sight II"], blocker=True),
        Attack(0, (("Hook", 1),)),
        dice=ScriptedDice([6, 6]),
    )
    check_invariants(after)
    assert 11.0 <= after.units[1].pos[0][1] <= 11.05
    assert (0, 1) in after.engaged


def _grapple_and_gun() -> GameState:
    """The Hunter (unit 0, 50 points) at (24, 10) with a Hook (Grapple) and a Gun (Range 12);
    the Prey (unit 1, 200 points) at (24, 20); the Lookout (unit 2, 50 points) at (24, 4)."""
    hook = weapon("Hook", range=24, attacks=1, power=4, perks=["Grapple"])
    gun = weapon("Gun", range=12, attacks=1, power=4)
    me = entry(unit("Hunter", weapons=[hook, gun]), points=50)
    prey = entry(unit("Prey", hp=3), points=200)
    look = entry(unit("Lookout", hp=3), points=50)
    pos = {0: [(24.0, 10.0)], 1: [(24.0, 20.0)], 2: [(24.0, 4.0)]}
    return scenario([[me], [prey, look]], pos, phase=Phase.ATTACK)


def test_p3869_grapple_the_users_other_weapons_are_measured_after_it() -> None:
    # the Gun had the Lookout within 12" when declared; pulled to the Prey, it no longer has
    state = _grapple_and_gun()
    dice = ScriptedDice([6, 6])  # the Hook's Attack Die, the Grapple Skill Test
    after, events = engine.apply(state, Attack(0, (("Hook", 1), ("Gun", 2))), dice=dice)
    check_invariants(after)
    assert dice.remaining == 0
    assert 18.95 <= after.units[0].pos[0][1] <= 19.0
    assert sum(after.units[2].hp) == 3
    assert perk_events(events, "Gun can no longer attack P1: Lookout after the Grapple")


def test_p3869_grapple_the_users_other_weapons_attack_in_the_new_melee() -> None:
    state = _grapple_and_gun()
    after, events = engine.apply(
        state, Attack(0, (("Hook", 1), ("Gun", 1))), dice=ScriptedDice([6, 6, 6])
    )
    check_invariants(after)
    shots = [e.text for e in events if e.kind == "attack"]
    assert "at 9.0" in shots[0] and "with Gun (1 models, in a Melee)" in shots[1]


def test_p3869_grapple_on_a_heal_pulls_the_friend_in() -> None:
    # "performed immediately after the Weapon causes HP Loss (or restored with the Heal Perk)";
    # "Grapple Weapons do not start a Melee if Targeting friendly Units"
    from dataclasses import replace

    beam = weapon("Beam", range=24, attacks=1, power=4, perks=["Heal", "Grapple"])
    medic = entry(unit("Medic", weapons=[beam]), points=100)
    patient = entry(unit("Patient", hp=3), points=50)
    foe = entry(unit("Foe"))
    pos = {0: [(24.0, 10.0)], 1: [(24.0, 20.0)], 2: [(4.0, 44.0)]}
    state = scenario([[medic, patient], [foe]], pos, phase=Phase.ATTACK)
    state = replace(state, units=(state.units[0], replace(state.units[1], hp=(1,)), state.units[2]))
    after, events = engine.apply(state, Attack(0, (("Beam", 1),)), dice=ScriptedDice([6, 6]))
    check_invariants(after)
    assert after.units[1].hp == (2,)
    assert 11.0 <= after.units[1].pos[0][1] <= 11.05 and not after.engaged
    assert perk_events(events, "1 HP restored")


# -- Trap (L4085) ---------------------------------------------------------------------------------


def _trapper(perks: list[str], phase: Phase = Phase.ATTACK) -> GameState:
    """Sappers (unit 0) at (24, 10) with a Mine (``perks``, Range 24, 2 Attacks, Power 4);
    Foes (unit 1, 3 HP) at (24, 20); Scouts (unit 2, 3 HP, a friend of the Foes) at (40, 30)."""
    mine = weapon("Mine", range=24, attacks=2, power=4, perks=perks)
    me = entry(unit("Sappers", weapons=[mine]))
    foes = entry(unit("Foes", hp=3))
    scouts = entry(unit("Scouts", hp=3, move=20))
    pos = {0: [(24.0, 10.0)], 1: [(24.0, 20.0)], 2: [(40.0, 30.0)]}
    return scenario([[me], [foes, scouts]], pos, phase=phase)


def _armed(state: GameState, at: tuple[float, float], turn: int) -> GameState:
    from dataclasses import replace

    from warbench.rulesets.warsurge.game.state import Status

    mark = Status(f"Trap@Mine@{at[0]:.2f},{at[1]:.2f}@1@{turn}", None, "u0/Mine")
    return replace(state, units=(replace(state.units[0], statuses=(mark,)), *state.units[1:]))


def _side_1_moves(state: GameState) -> GameState:
    from dataclasses import replace

    return replace(state, flow=replace(state.flow, active=1, order=(1, 0)))


def test_p4085_trap_weapon_places_a_marker_instead_of_attacking() -> None:
    dice = ScriptedDice([])
    after, events = engine.apply(_trapper(["Trap"]), Attack(0, (("Mine", 1),)), dice=dice)
    check_invariants(after)
    assert sum(after.units[1].hp) == 3  # no Attack Dice rolled
    assert [s.name for s in after.units[0].statuses] == ["Trap@Mine@24.00,20.00@1@2"]
    assert perk_events(events, "places a Trap marker with Mine at (24.0, 20.0)")
    plain, _ = engine.apply(_trapper([]), Attack(0, (("Mine", 1),)), dice=ScriptedDice([6, 6]))
    assert sum(plain.units[1].hp) == 1 and not plain.units[0].statuses


def test_p4085_trap_strikes_a_unit_standing_within_2_inches_as_the_game_turn_starts() -> None:
    from warbench.kernel.dice import SeededDice

    state, _ = engine.apply(_trapper(["Trap"]), Attack(0, (("Mine", 1),)), dice=ScriptedDice([]))
    events: list[Event] = []
    while state.flow.turn == 2:
        state, ev = engine.apply(state, Pass(), dice=SeededDice(5))
        events.extend(ev)
        check_invariants(state)
    texts = [e.text for e in events]
    at = texts.index("Game Turn 3")
    hit = next(k for k, t in enumerate(texts) if "P1: Foes triggers P0: Sappers's Trap" in t)
    assert hit > at
    assert any("Mine (Trap) strikes P1: Foes" in t for t in texts[hit:])
    assert not state.units[0].statuses  # spent


def test_p4085_trap_strikes_a_unit_passing_within_2_inches() -> None:
    # the Scouts move from (40, 30) to (20, 30), passing 2" from a marker at (30, 28)
    state = _armed(_trapper(["Trap"], Phase.MOVE), (30.0, 28.0), turn=1)
    state = _side_1_moves(state)
    dice = ScriptedDice([6, 6])  # the Mine's two Attack Dice, Power 4 v Defence 4
    after, events = engine.apply(state, Move(2, to=(20.0, 30.0)), dice=dice)
    check_invariants(after)
    assert perk_events(events, "P1: Scouts triggers P0: Sappers's Trap (Mine)")
    assert sum(after.units[2].hp) == 1
    assert not after.units[0].statuses
    # a marker 3" off the path is not triggered
    far = _armed(_trapper(["Trap"], Phase.MOVE), (30.0, 26.4), turn=1)
    far = _side_1_moves(far)
    after, events = engine.apply(far, Move(2, to=(20.0, 30.0)), dice=ScriptedDice([]))
    assert not perk_events(events, "triggers") and after.units[0].statuses


def test_p4085_trap_user_does_not_trigger_it_the_game_turn_it_placed_it() -> None:
    state = _armed(_trapper(["Trap"], Phase.MOVE), (24.0, 13.0), turn=2)
    after, events = engine.apply(state, Move(0, to=(24.0, 15.0)), dice=ScriptedDice([]))
    assert not perk_events(events, "triggers") and after.units[0].statuses
    older = _armed(_trapper(["Trap"], Phase.MOVE), (24.0, 13.0), turn=1)
    after, events = engine.apply(older, Move(0, to=(24.0, 15.0)), dice=ScriptedDice([6, 6]))
    assert perk_events(events, "P0: Sappers triggers P0: Sappers's Trap")


# -- Multi-Strike (L3943) -------------------------------------------------------------------------


def _striker(perks: list[str]) -> GameState:
    """A Duellist (unit 0) at (24, 10) with a Blade (Range 24, 3 Attacks, Power 4, ``perks``);
    Foes A (unit 1) at (20, 20) and Foes B (unit 2) at (28, 20), 3 HP each, Defence 4."""
    blade = weapon("Blade", range=24, attacks=3, power=4, perks=perks)
    me = entry(unit("Duellist", weapons=[blade]))
    a = entry(unit("Foes A", hp=3))
    b = entry(unit("Foes B", hp=3))
    pos = {0: [(24.0, 10.0)], 1: [(20.0, 20.0)], 2: [(28.0, 20.0)]}
    return scenario([[me], [a, b]], pos, phase=Phase.ATTACK)


def test_p3943_multi_strike_directs_each_attack_at_a_different_unit() -> None:
    split = Attack(0, (("Blade", 1, (0, 0)), ("Blade", 2, (0,))))
    with pytest.raises(RulesError, match="named twice for Blade"):
        engine.check(_striker([]), split)
    with pytest.raises(RulesError, match="aims its Blade at two units"):
        engine.check(_striker([]), Attack(0, (("Blade", 1, (0,)), ("Blade", 2, (0,)))))
    dice = ScriptedDice([6, 6, 6])  # two Attack Dice at Foes A, one at Foes B
    after, events = engine.apply(_striker(["Multi-Strike"]), split, dice=dice)
    check_invariants(after)
    assert dice.remaining == 0
    assert sum(after.units[1].hp) == 1 and sum(after.units[2].hp) == 2
    shots = [e.text for e in events if e.kind == "attack"]
    assert "2 Attack Dice" in shots[0] and "1 Attack Dice" in shots[1]


def test_p3943_multi_strike_undivided_weapon_attacks_as_usual() -> None:
    dice = ScriptedDice([6, 6, 6])
    after, _ = engine.apply(_striker(["Multi-Strike"]), Attack(0, (("Blade", 1),)), dice=dice)
    assert dice.remaining == 0 and sum(after.units[1].hp) == 0


def test_p3943_multi_strike_no_more_attacks_than_the_weapon_has() -> None:
    over = Attack(0, (("Blade", 1, (0, 0, 0)), ("Blade", 2, (0,))))
    with pytest.raises(RulesError, match="directs 4 Attacks of Blade, which has 3"):
        engine.check(_striker(["Multi-Strike"]), over)


# -- the points an Attack names (Attack.aim): Force's direction, Trap's marker --------------------


def test_p3837_force_pushes_toward_the_point_the_player_names() -> None:
    # "reposition the Target Unit up to 6\" in any direction": east, 4" (the point is 4" away)
    act = Attack(0, (("Gun", 1),), aim=(("Gun", 28.0, 20.0),))
    after, events = engine.apply(_duel(["Force I"]), act, dice=ScriptedDice([6, 6]))
    check_invariants(after)
    assert after.units[1].pos[0] == (28.0, 20.0)
    assert perk_events(events, 'forced 4.0" toward (28, 20)')
    far = Attack(0, (("Gun", 1),), aim=(("Gun", 44.0, 20.0),))  # 20" away: 6" at most
    after, _ = engine.apply(_duel(["Force I"]), far, dice=ScriptedDice([6, 6]))
    assert after.units[1].pos[0] == (30.0, 20.0)


def test_p4085_trap_marker_goes_where_the_player_names_within_range() -> None:
    act = Attack(0, (("Mine", 1),), aim=(("Mine", 30.0, 14.0),))
    after, _ = engine.apply(_trapper(["Trap"]), act, dice=ScriptedDice([]))
    assert [s.name for s in after.units[0].statuses] == ["Trap@Mine@30.00,14.00@1@2"]
    beyond = Attack(0, (("Mine", 1),), aim=(("Mine", 24.0, 40.0),))  # 29.5" from the Sappers
    with pytest.raises(RulesError, match="inside Mine's Range"):
        engine.check(_trapper(["Trap"]), beyond)


def test_attack_aim_is_refused_for_a_weapon_without_force_or_trap_and_round_trips() -> None:
    from warbench.rulesets.warsurge.game.actions import action_from_dict, action_to_dict

    with pytest.raises(RulesError, match="neither Force nor Trap"):
        engine.check(_duel([]), Attack(0, (("Gun", 1),), aim=(("Gun", 28.0, 20.0),)))
    act = Attack(0, (("Gun", 1),), aim=(("Gun", 28.0, 20.5),))
    assert action_to_dict(act)["aim"] == [["Gun", 28.0, 20.5]]
    assert action_from_dict(action_to_dict(act)) == act


# -- Precision 2+-6+ (L3993-L4027) and Obscured (L1587) -------------------------------------------


def _crew(perks: list[str], *, crew_perks: tuple[str, ...] = (), attacks: int = 1,
          power: int = 4, **kw: object) -> GameState:  # fmt: skip
    """Snipers (unit 0) with a Rifle (``perks``); a Crew (unit 1) of three 1-HP models, the
    third carrying a Cannon (3 Attacks, Power 6) besides its Pistol, 10" away."""
    from warbench.rulesets.warsurge.profiles import ModelGroup, Unit, UnitProfile

    rifle = weapon("Rifle", range=24, attacks=attacks, power=power, perks=perks)
    me = entry(unit("Snipers", weapons=[rifle]))
    cannon = weapon("Cannon", range=24, attacks=3, power=6)
    pistol = weapon("Pistol", range=12, attacks=1, power=3)
    crew = Unit(
        profile=UnitProfile(name="Crew", move=6, dash=6, defence=4, hp=1, perks=list(crew_perks)),
        weapons=[cannon, pistol],
        models=[
            ModelGroup(count=2, weapons=["Pistol"]),
            ModelGroup(count=1, weapons=["Cannon", "Pistol"]),
        ],
    )
    pos = {0: [(24.0, 10.0)], 1: [(22.0, 20.0), (24.0, 20.0), (26.0, 20.0)]}
    return scenario([[me], [entry(crew)]], pos, phase=Phase.ATTACK, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("rank", "line"),
    [("Precision 2+", 3993), ("Precision 3+", 4009), ("Precision 4+", 4015),
     ("Precision 5+", 4021), ("Precision 6+", 4027)],
    ids=["p3993", "p4009", "p4015", "p4021", "p4027"],
)  # fmt: skip
def test_precision_attack_dice_single_out_the_model_the_attacker_chooses(
    rank: str, line: int
) -> None:
    threshold = int(rank.split()[1][0])
    # a 6 meets every rank: the attacker's choice, the Cannon carrier (model 3)
    after, events = engine.apply(_crew([rank]), Attack(0, (("Rifle", 1),)), dice=ScriptedDice([6]))
    assert after.units[1].hp == (1, 1, 0)
    assert perk_events(events, "Precision singles out model 3 1 HP")
    # a success below the rank's number is the defender's to allocate (model 1 first)
    if threshold > 4:
        low, _ = engine.apply(_crew([rank]), Attack(0, (("Rifle", 1),)), dice=ScriptedDice([4]))
        assert low.units[1].hp == (0, 1, 1)
    plain, _ = engine.apply(_crew([]), Attack(0, (("Rifle", 1),)), dice=ScriptedDice([6]))
    assert plain.units[1].hp == (0, 1, 1)


def test_p4021_precision_automatic_damage_rolls_an_auto_test_die() -> None:
    # Power 10 against Defence 4: automatic damage, no Attack Dice roll; the Auto Test die
    # (L263) decides Precision: a 5 meets 5+, a 4 does not
    state = _crew(["Precision 5+"], power=10)
    after, _ = engine.apply(state, Attack(0, (("Rifle", 1),)), dice=ScriptedDice([5]))
    assert after.units[1].hp == (1, 1, 0)
    after, _ = engine.apply(state, Attack(0, (("Rifle", 1),)), dice=ScriptedDice([4]))
    assert after.units[1].hp == (0, 1, 1)


def test_p1587_obscured_on_a_4_the_precision_weapon_cannot_single_out() -> None:
    state = _crew(["Precision 2+"], crew_perks=("Obscured",))
    hidden, events = engine.apply(state, Attack(0, (("Rifle", 1),)), dice=ScriptedDice([6, 4]))
    assert hidden.units[1].hp == (0, 1, 1)
    assert perk_events(events, "Obscured against Rifle's Precision, rolled 4: it cannot")
    seen, _ = engine.apply(state, Attack(0, (("Rifle", 1),)), dice=ScriptedDice([6, 3]))
    assert seen.units[1].hp == (1, 1, 0)


def test_p4015_precision_then_the_defender_chooses_the_rest() -> None:
    from warbench.rulesets.warsurge.game.actions import Casualties
    from warbench.rulesets.warsurge.game.state import ALL_AUTOMATIONS, Automation

    auto = ALL_AUTOMATIONS - {Automation.CASUALTY_SELECTION}
    state = _crew(["Precision 5+"], attacks=2, automation=auto)
    # a 6 (Precision: the Cannon carrier) and a 4 (the defender's choice)
    paused, events = engine.apply(state, Attack(0, (("Rifle", 1),)), dice=ScriptedDice([6, 4]))
    ask = next(e for e in events if e.kind == "choose casualties")
    assert ask.data["loss"] == 1 and 2 not in ask.data["candidates"]
    after, _ = engine.apply(paused, Casualties(1, (1,)))
    check_invariants(after)
    assert after.units[1].hp == (1, 0, 0)


def test_p3993_precision_leaves_the_odds_of_hp_lost_and_models_slain_unchanged() -> None:
    from warbench.rulesets.warsurge.attack import AttackContext, UnitState
    from warbench.rulesets.warsurge.odds import AttackPlan, exact_attack

    def odds(perks: list[str]) -> tuple[object, object]:
        st = _crew(perks, attacks=3)
        plan = AttackPlan(
            UnitState.of(st.setup.units[0].unit), UnitState.of(st.setup.units[1].unit),
            AttackContext(),
        )  # fmt: skip
        o = exact_attack(plan)
        return o.hp_lost, o.models_slain

    assert odds(["Precision 3+"]) == odds([])


def test_p4015_precision_the_player_names_the_model_to_single_out() -> None:
    # "allow the attacking player to choose a specific model": Attack.single_out
    from warbench.rulesets.warsurge.game.actions import action_from_dict, action_to_dict

    act = Attack(0, (("Rifle", 1),), single_out=(("Rifle", (1,)),))
    after, _ = engine.apply(_crew(["Precision 4+"]), act, dice=ScriptedDice([6]))
    assert after.units[1].hp == (1, 0, 1)
    assert action_from_dict(action_to_dict(act)) == act
    with pytest.raises(RulesError, match="has no Precision"):
        engine.check(_crew([]), act)
    with pytest.raises(RulesError, match="no such model"):
        engine.check(
            _crew(["Precision 4+"]), Attack(0, (("Rifle", 1),), single_out=(("Rifle", (7,)),))
        )


def test_p3917_knockback_in_the_advanced_playstyle_waits_for_the_end_of_the_action_step() -> None:
    # L279 End of Phase/Step: "In Advanced Games, this is after the Action Step has ended"
    from dataclasses import replace

    from warbench.rulesets.warsurge.game.actions_advanced import Counter, EndStep
    from warbench.rulesets.warsurge.game.advstate import AdvancedFlow

    state = scenario(
        [[entry(unit("Shooters", weapons=[weapon("Gun", range=24, attacks=1, power=4,
                                                  perks=["Knockback I"])]))],
         [entry(unit("Foes", hp=3))]],
        {0: [(24.0, 10.0)], 1: [(24.0, 20.0)]}, phase=Phase.ACTIONS, playstyle="advanced",
    )  # fmt: skip
    state = replace(state, flow=replace(state.flow, adv=AdvancedFlow(cp=(5, 5))))
    state, _ = engine.apply(state, Attack(0, (("Gun", 1),)), dice=ScriptedDice([]))
    state, _ = engine.apply(state, Counter(1, "none"), dice=ScriptedDice([6, 6]))
    assert state.units[1].pos[0] == (24.0, 20.0)  # the step goes on (a second Action may follow)
    after, events = engine.apply(state, EndStep(), dice=ScriptedDice([]))
    check_invariants(after)
    assert after.units[1].pos[0] == (24.0, 26.0)
    assert perk_events(events, "knocked back 6.0")
