"""Leadership, Trait and Mode ranks of session 25's lane s25-lead played in a game (Perks
000_94ecc6a4c74d351b.txt): Furious (L2003) … Test names carry the rank's source line
(``p2003`` …), which ``warbench perks --coverage`` reads (``scripts/build_perk_coverage.py``)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.rulesets.warsurge.effects.play_helpers import pass_while, total_hp, turn_of
from tests.warsurge.game.helpers import board, check_invariants, entry, scenario, unit, weapon
from warbench.kernel.dice import ScriptedDice, SeededDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.battlefield.model import Objective
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack, Deploy, Move
from warbench.rulesets.warsurge.game.actions_advanced import UsePerks
from warbench.rulesets.warsurge.game.events import Event
from warbench.rulesets.warsurge.game.geom import Field
from warbench.rulesets.warsurge.game.state import (
    ALL_AUTOMATIONS,
    GameState,
    Location,
    Phase,
    RosterEntry,
    Status,
)
from warbench.rulesets.warsurge.profiles import WeaponProfile

# -- Furious (L2003) ------------------------------------------------------------------------------

CLUB = weapon("Club", range=24, attacks=4, power=4)


def _furious(
    friend_gap: float | None, *, perks: tuple[str, ...] = ("Leader", "Furious")
) -> GameState:
    """A Leader (unit 0, four Attacks at Power 4) 10" from three enemy Grunts (unit 2), with
    three friendly Militia (unit 1) ``friend_gap`` inches from it (None: far away)."""
    boss = entry(unit("Boss", hp=5, perks=list(perks), weapons=[CLUB]))
    militia = entry(unit("Militia", models=3))
    grunts = entry(unit("Grunts", models=3))
    fx = 10.0 if friend_gap is None else 10.0 - 1.0 - friend_gap
    return scenario(
        [[boss, militia], [grunts]],
        {0: [(10.0, 10.0)], 1: [(fx - 3.0, 30.0), (fx - 1.5, 30.0), (fx, 30.0)]
         if friend_gap is None else [(fx, 10.0), (fx - 1.5, 10.0), (fx - 3.0, 10.0)],
         2: [(21.0, 10.0), (22.5, 10.0), (24.0, 10.0)]},
        phase=Phase.ATTACK,
    )  # fmt: skip


def test_p2003_furious_failed_dice_strike_the_closest_friend_within_6_inches() -> None:
    state = _furious(2.0)
    # four Attack Dice at 4+: 6, 5 succeed, 1, 2 fail; the two failed dice strike the Militia
    # as successful Attack Dice (no roll, no Saves: 2 HP, two casualties)
    after, events = engine.apply(state, Attack(0, (("Club", 2),)), dice=ScriptedDice([6, 5, 1, 2]))
    check_invariants(after)
    assert total_hp(after, 2) == 1
    assert total_hp(after, 1) == 1
    assert total_hp(after, 0) == 5
    assert any(e.kind == "perk" and "Furious" in e.text and "Militia" in e.text for e in events)
    # without Furious the Militia are untouched
    plain, _ = engine.apply(
        _furious(2.0, perks=("Leader",)), Attack(0, (("Club", 2),)), dice=ScriptedDice([6, 5, 1, 2])
    )
    assert total_hp(plain, 1) == 3 and total_hp(plain, 2) == 1


def test_p2003_furious_with_no_friend_within_6_inches_the_user_attacks_itself() -> None:
    state = _furious(None)
    after, events = engine.apply(state, Attack(0, (("Club", 2),)), dice=ScriptedDice([6, 1, 1, 1]))
    check_invariants(after)
    assert total_hp(after, 2) == 2
    assert total_hp(after, 1) == 3  # 20" away: not struck
    assert total_hp(after, 0) == 2  # three failed dice strike the Boss itself
    assert any(e.kind == "perk" and "strike itself" in e.text for e in events)


def test_p2003_furious_no_failed_dice_strike_nothing() -> None:
    after, events = engine.apply(
        _furious(2.0), Attack(0, (("Club", 2),)), dice=ScriptedDice([6, 5, 4, 4])
    )
    assert total_hp(after, 1) == 3 and total_hp(after, 2) == 0
    assert not any(e.kind == "perk" and "Furious" in e.text for e in events)


# -- Challenger (L1957) ---------------------------------------------------------------------------

RIFLE = weapon("Rifle", range=24, attacks=1, power=4)


def _duel(
    rival_points: int = 150,
    *,
    perks: tuple[str, ...] = ("Leader", "Challenger"),
    phase: Phase = Phase.ATTACK,
    reach: int = 24,
    **kw: object,
) -> GameState:
    """Side 0: a Challenger Leader (unit 0) and Troopers (unit 1); side 1: an enemy Leader
    (unit 2, ``rival_points``) and Raiders (unit 3), 10" away."""
    gun = weapon("Rifle", range=reach, attacks=1, power=4)
    hero = entry(unit("Hero", hp=3, perks=list(perks), weapons=[gun]), points=100)
    troopers = entry(unit("Troopers", models=2, weapons=[RIFLE]))
    rival = entry(unit("Rival", hp=3, perks=["Leader"], weapons=[RIFLE]), points=rival_points)
    raiders = entry(unit("Raiders", models=2, weapons=[RIFLE]))
    return scenario(
        [[hero, troopers], [rival, raiders]],
        {0: [(10.0, 10.0)], 1: [(10.0, 20.0), (11.5, 20.0)], 2: [(21.0, 10.0)],
         3: [(21.0, 20.0), (22.5, 20.0)]},
        phase=phase,
        **kw,  # type: ignore[arg-type]
    )  # fmt: skip


def _challenged(state: GameState) -> tuple[GameState, list[Event]]:
    return engine.apply(state, UsePerks(0, ("Challenger",)), dice=SeededDice(1))


def test_p1957_challenger_accepted_the_two_leaders_may_only_target_each_other() -> None:
    after, events = _challenged(_duel(150))
    check_invariants(after)
    assert any("accepts" in e.text for e in events)
    # the Hero may not shoot the Raiders, the Troopers may not shoot the Rival
    with pytest.raises(RulesError, match="is in a challenge: it may only Target P1: Rival"):
        engine.apply(after, Attack(0, (("Rifle", 3),)), dice=SeededDice(1))
    with pytest.raises(RulesError, match="no other unit may interfere"):
        engine.apply(after, Attack(1, (("Rifle", 2),)), dice=SeededDice(1))
    engine.apply(after, Attack(0, (("Rifle", 2),)), dice=SeededDice(1))
    engine.apply(after, Attack(1, (("Rifle", 3),)), dice=SeededDice(1))
    # without a challenge the same Attacks stand
    engine.apply(_duel(150), Attack(0, (("Rifle", 3),)), dice=SeededDice(1))
    engine.apply(_duel(150), Attack(1, (("Rifle", 2),)), dice=SeededDice(1))


def test_p1957_challenger_refused_minus_1_to_the_refusers_attack_dice() -> None:
    after, events = _challenged(_duel(50))
    assert any("refuses" in e.text for e in events)
    assert any(s.name == "Challenge refused" for s in after.units[2].statuses)
    # the Rival's Rifle (Power 4 against Defence 4: 4+) now needs a 5+: a 4 fails
    side1 = replace(after, flow=replace(after.flow, active=1))
    shot, _ = engine.apply(side1, Attack(2, (("Rifle", 0),)), dice=ScriptedDice([4]))
    assert total_hp(shot, 0) == 3
    clean = _duel(50)
    shot, _ = engine.apply(
        replace(clean, flow=replace(clean.flow, active=1)),
        Attack(2, (("Rifle", 0),)),
        dice=ScriptedDice([4, 1]),
    )
    assert total_hp(shot, 0) == 2


def test_p1957_challenger_needs_an_enemy_leader_in_weapon_range() -> None:
    far = _duel(150)
    far = replace(far, units=tuple(
        replace(u, pos=((40.0, 40.0),)) if u.uid == 2 else u for u in far.units
    ))  # fmt: skip
    with pytest.raises(RulesError, match="no enemy Leader is within"):
        _challenged(far)
    with pytest.raises(RulesError, match="has no perk 'Challenger'"):
        _challenged(_duel(150, perks=("Leader",)))


def test_p1971_challenger_movement_stays_within_maximum_weapon_range() -> None:
    # the Hero's Rifle reaches 12"; the Rival stands 10" away
    after, _ = _challenged(_duel(150, phase=Phase.MOVE, reach=12))
    with pytest.raises(RulesError, match=r'maximum Weapon Range \(12"\)'):
        engine.apply(after, Move(0, to=(5.0, 10.0)), dice=SeededDice(1))
    near, _ = engine.apply(after, Move(0, to=(12.0, 12.0)), dice=SeededDice(1))
    check_invariants(near)
    # without the challenge the same Move stands
    free, _ = engine.apply(_duel(150, phase=Phase.MOVE, reach=12), Move(0, to=(5.0, 10.0)),
                           dice=SeededDice(1))  # fmt: skip
    check_invariants(free)


def test_p1969_challenger_ends_when_one_challenger_falls() -> None:
    after, _ = _challenged(_duel(150))
    rival = replace(after.units[2], hp=(1,))
    after = replace(after, units=(*after.units[:2], rival, *after.units[3:]))
    # the Hero's Rifle: 6 succeeds, no Save: the Rival falls, the challenge is over
    done, events = engine.apply(after, Attack(0, (("Rifle", 2),)), dice=ScriptedDice([6]))
    assert any("survives its challenge" in e.text for e in events)
    assert not any(s.name.startswith("Challenge@") for s in done.units[0].statuses)


def test_p1957_challenger_used_by_the_engine_as_the_attack_phase_starts() -> None:
    state = _duel(150, phase=Phase.MOVE, automation=ALL_AUTOMATIONS)
    state, _ = pass_while(state, lambda s: s.flow.phase is not Phase.ATTACK, seed=1, limit=6)
    assert state.flow.phase is Phase.ATTACK
    assert any(s.name == "Challenge@2" for s in state.units[0].statuses)
    assert any(s.name == "Challenge@0" for s in state.units[2].statuses)


# -- War Master (L2057) ---------------------------------------------------------------------------

GUN = weapon("Gun", range=24, attacks=2, power=4)


def _master(
    *, perks: tuple[str, ...] = ("War Master",), scouts: bool = True, guards_x: float = 14.0
) -> GameState:
    """Shooters (unit 0) 11" from a War Master (unit 1) with Guards (unit 2) beside it and
    enemy Scouts (unit 3) closer to the Shooters (left in Reserve when not ``scouts``)."""
    shooters = entry(unit("Shooters", weapons=[GUN]))
    master = entry(unit("Warlord", hp=3, perks=list(perks)))
    guards = entry(unit("Guards", models=3))
    scout = entry(unit("Scouts"))
    places = {
        0: [(10.0, 10.0)],
        1: [(10.0, 22.0)],
        2: [(guards_x, 22.0), (guards_x + 1.5, 22.0), (guards_x + 3.0, 22.0)],
    }
    if scouts:
        places[3] = [(2.0, 12.0)]
    return scenario([[shooters], [master, guards, scout]], places, phase=Phase.ATTACK)  # fmt: skip


def test_p2057_war_master_redirects_an_attack_onto_a_friend_within_6_inches() -> None:
    after, events = engine.apply(_master(), Attack(0, (("Gun", 1),)), dice=ScriptedDice([6, 6]))
    check_invariants(after)
    assert any(e.kind == "perk" and "redirects" in e.text for e in events)
    assert total_hp(after, 1) == 3 and total_hp(after, 2) == 1
    # without War Master the Warlord takes the hits
    plain, _ = engine.apply(_master(perks=()), Attack(0, (("Gun", 1),)), dice=ScriptedDice([6, 6]))
    assert total_hp(plain, 1) == 1 and total_hp(plain, 2) == 3


def test_p2067_war_master_cannot_redirect_when_it_is_the_closest_target() -> None:
    after, events = engine.apply(
        _master(scouts=False), Attack(0, (("Gun", 1),)), dice=ScriptedDice([6, 6])
    )
    assert not any("redirects" in e.text for e in events)
    assert total_hp(after, 1) == 1 and total_hp(after, 2) == 3


def test_p2057_war_master_redirects_only_onto_units_within_6_inches() -> None:
    # the Guards stand 9" from the Warlord: no redirection
    after, events = engine.apply(
        _master(guards_x=20.0), Attack(0, (("Gun", 1),)), dice=ScriptedDice([6, 6])
    )
    assert not any("redirects" in e.text for e in events)
    assert total_hp(after, 1) == 1


# -- Respawn (L4205) ------------------------------------------------------------------------------


def _respawning(traits: tuple[str, ...] = ("Respawn",), respawns: int = 0) -> GameState:
    """Side 0's Troopers (unit 0, two models, Respawn) destroyed at the end of Game Turn 2's
    Dash Phase, and its Sentries (unit 1); side 1's Raiders (unit 2) in the middle."""
    troopers = RosterEntry(unit("Troopers", models=2, hp=2), 100, 25.4, traits=traits)
    sentries = entry(unit("Sentries"))
    raiders = entry(unit("Raiders"))
    state = scenario([[troopers, sentries], [raiders]], {0: [(20.0, 30.0), (21.5, 30.0)],
                     1: [(40.0, 40.0)], 2: [(24.0, 24.0)]}, phase=Phase.DASH)  # fmt: skip
    dead = replace(state.units[0], location=Location.DESTROYED, hp=(0, 0), removed=(True, True),
                   counters=(("respawns", respawns),) if respawns else ())  # fmt: skip
    return replace(state, units=(dead, *state.units[1:]))


def _next_turn(state: GameState) -> tuple[GameState, list[Event]]:
    state, events = pass_while(state, lambda s: s.flow.turn != 3, seed=2, limit=4)
    assert state.flow.turn == 3
    return state, events


def test_p4205_respawn_a_destroyed_unit_returns_at_full_hp_by_its_zone_edge() -> None:
    after, events = _next_turn(_respawning())
    check_invariants(after)
    u = after.units[0]
    assert u.location is Location.TABLE and u.hp == (2, 2)
    assert all(y - 0.5 <= 6.0 + 1e-9 for _, y in u.pos)  # within 6" of the south edge
    assert any(e.kind == "perk" and "Respawns" in e.text for e in events)
    # it counts as destroyed for Victory Conditions (the Sentries' 100 points remain)
    assert after.side_values()[0] == 100.0
    assert after.current_value(0) > 0
    # without Respawn it stays destroyed
    plain, _ = _next_turn(_respawning(traits=()))
    assert plain.units[0].location is Location.DESTROYED


def test_p4213_respawn_twice_no_longer_holds_or_contests_objectives() -> None:
    from warbench.rulesets.warsurge.game.terrain_control import control

    after, _ = _next_turn(_respawning(respawns=1))
    assert after.units[0].counter("respawns") == 2
    crate = Objective(name="Crate", at=after.units[0].pos[0])
    b = board().model_copy(update={"objectives": [crate]})
    moved = replace(after, setup=replace(after.setup, field=Field(b)))
    held = [h for h in control(moved) if h.kind == "objective"]
    assert held and held[0].sides == frozenset()
    once, _ = _next_turn(_respawning())
    held = [h for h in control(replace(once, setup=replace(once.setup, field=Field(b))))
            if h.kind == "objective"]  # fmt: skip
    assert held[0].sides == frozenset({0})  # respawned once: it still holds it


# -- Residue I-III (L3481-L3503), Vortex I-III (L3509-L3541) -------------------------------------


def _launcher(*perks: str) -> WeaponProfile:
    return weapon("Launcher", range=24, attacks=2, power=4, perks=["Explode I", *perks])


def _lingering(
    *perks: str,
    phase: Phase = Phase.ATTACK,
    left: Status | None = None,
    runner_y: float = 14.0,
    active: int = 0,
) -> GameState:
    """Gunners (unit 0, a Launcher with Explode I and ``perks``) 14" from three Grunts (unit 1,
    a line at y = 30) and a Runner (unit 2, 3 HP) at (10, ``runner_y``); ``left``: a status
    already on the Gunners (a template left earlier)."""
    gunners = entry(unit("Gunners", weapons=[_launcher(*perks)]))
    grunts = entry(unit("Grunts", models=3))
    runner = entry(unit("Runner", hp=3))
    state = scenario([[gunners], [grunts, runner]], {0: [(24.0, 15.0)],
                     1: [(24.0, 30.0), (25.5, 30.0), (27.0, 30.0)], 2: [(10.0, runner_y)]},
                     phase=phase, active=active)  # fmt: skip
    if left is not None:
        state = replace(state, units=(replace(state.units[0], statuses=(left,)), *state.units[1:]))
    return state


def _left(rank: str, origin: tuple[float, float], turns: int = 1) -> Status:
    """An active template of the Launcher (Explode I, 3" across) left by ``rank``."""
    from warbench.rulesets.warsurge.effects.mode import TemplateAt
    from warbench.rulesets.warsurge.game.perk_residue import _encode, _templates

    tpl = _templates()["Explode I"]
    name = _encode("Launcher", "Explode I", rank, TemplateAt(tpl, origin), False)
    return Status(name, turns, f"u0/{rank}")


@pytest.mark.parametrize(
    ("rank", "turns"),
    [
        pytest.param("Residue I", 1, id="p3481-Residue I"),
        pytest.param("Residue II", 2, id="p3497-Residue II"),
        pytest.param("Residue III", 3, id="p3503-Residue III"),
        pytest.param("Vortex I", 1, id="p3509-Vortex I"),
        pytest.param("Vortex II", 2, id="p3533-Vortex II"),
        pytest.param("Vortex III", 3, id="p3541-Vortex III"),
    ],
)
def test_p3481_residue_and_vortex_leave_the_template_from_the_next_game_turn(
    rank: str, turns: int
) -> None:
    after, events = engine.apply(
        _lingering(rank), Attack(0, (("Launcher", 1),)), dice=SeededDice(3)
    )
    check_invariants(after)
    left = [s for s in after.units[0].statuses if s.name.startswith("Residue:")]
    assert len(left) == 1 and left[0].turns == turns
    assert left[0].name.endswith("(next Game Turn)")  # from the next Game Turn
    assert f"|{rank}|" in left[0].name
    assert any(e.kind == "perk" and "leaves its Explode I template" in e.text for e in events)
    plain, _ = engine.apply(_lingering(), Attack(0, (("Launcher", 1),)), dice=SeededDice(3))
    assert not plain.units[0].statuses


@pytest.mark.parametrize("rank", [pytest.param("Residue I", id="p3481-Residue I"),
                                  pytest.param("Vortex I", id="p3509-Vortex I")])  # fmt: skip
def test_p3481_residue_strikes_each_model_moving_through_the_area(rank: str) -> None:
    # the template lies at (10, 20); the Runner moves from (10, 14) to (10, 19.9) into it
    state = _lingering(phase=Phase.MOVE, left=_left(rank, (10.0, 20.0)), active=1)
    after, events = engine.apply(state, Move(2, to=(10.0, 19.9)), dice=ScriptedDice([6, 6]))
    check_invariants(after)
    assert total_hp(after, 2) == 1  # 1 model x 2 Attacks, both 6s, no Saves
    assert any(e.kind == "attack" and f"({rank}) strikes" in e.text for e in events)
    # the same Move with no template left: no strike
    free, _ = engine.apply(
        _lingering(phase=Phase.MOVE, active=1), Move(2, to=(10.0, 19.9)), dice=SeededDice(1)
    )
    assert total_hp(free, 2) == 3
    # a Move that stays clear of it: no strike
    clear, ev = engine.apply(state, Move(2, to=(14.0, 14.0)), dice=SeededDice(1))
    assert total_hp(clear, 2) == 3 and not any("strikes" in e.text for e in ev)


def test_p3481_residue_strikes_stationary_models_at_the_end_of_the_game_turn() -> None:
    # the template over the first two Grunts; the Dash Phase passes, the Game Turn ends
    state = _lingering(phase=Phase.DASH, left=_left("Residue I", (24.75, 30.0)))
    state, events = pass_while(state, lambda s: s.flow.turn != 3, seed=4, limit=3)
    strikes = [e for e in events if e.kind == "attack" and "(Residue I) strikes" in e.text]
    assert len(strikes) == 1 and "Grunts" in strikes[0].text
    assert "4 Attack Dice" in strikes[0].text  # two models under it x 2 Attacks
    # Residue I lasts one Game Turn: gone
    assert not any(s.name.startswith("Residue:") for s in state.units[0].statuses)


def test_p3513_vortex_travels_by_the_scatter_arrow_as_it_becomes_active() -> None:
    waiting = _left("Vortex II", (10.0, 30.0), turns=2)
    waiting = replace(waiting, name=waiting.name + " (next Game Turn)")
    state = _lingering("Vortex II", phase=Phase.DASH, left=waiting)
    state, events = pass_while(state, lambda s: s.flow.turn != 3, seed=4, limit=3)
    (vortex,) = [s for s in state.units[0].statuses if s.name.startswith("Residue:")]
    assert vortex.name.endswith("|1") and vortex.turns == 2
    assert any(e.kind == "perk" and "(Vortex II)" in e.text for e in events)


# -- Decoy I-III (L4161-L4203) -------------------------------------------------------------------


def _decoyed(
    rank: str | None = "Decoy I", *, phase: Phase = Phase.MOVE, active: int = 1, **kw: object
) -> GameState:
    """Side 0's Troopers (unit 0, three models) with ``rank``, and their fake unit (unit 2) at
    (24, 30); side 1's Runner (unit 1, 3 HP) at (24, 18), 11" from it."""
    traits = (rank,) if rank else ()
    troopers = RosterEntry(unit("Troopers", models=3), 100, 25.4, traits=traits)
    runner = entry(unit("Runner", hp=3, weapons=[weapon("Gun", range=24, attacks=2, power=6)]))
    places: dict[int, list[tuple[float, float]]] = {0: [(4.0, 4.0), (5.5, 4.0), (7.0, 4.0)],
                                                    1: [(24.0, 18.0)]}  # fmt: skip
    if rank:
        fakes = 1 if rank == "Decoy III" else 3
        places[2] = [(24.0 + 1.5 * k, 30.0) for k in range(fakes)]
    return scenario(
        [[troopers], [runner]],
        places,
        phase=phase,
        active=active,
        **kw,  # type: ignore[arg-type]
    )


def test_p4161_decoy_deploys_an_additional_fake_unit() -> None:
    state = _decoyed("Decoy I")
    assert len(state.setup.units) == 3 and state.setup.decoys == ((2, 0, "Decoy I"),)
    fake = state.setup.units[2]
    assert fake.label.endswith("(Decoy)") and fake.side == 0 and fake.points == 0
    p = fake.unit.profile
    assert (p.move, p.dash, p.defence, p.hp, fake.models) == (0, 0, 5, 1, 3)
    assert not fake.unit.weapons and p.armour is None
    assert state.setup.units[2 - 0].unit.profile.name == "Troopers"
    assert _decoyed("Decoy II").setup.units[2].unit.profile.move == 6  # L4173
    assert _decoyed("Decoy III").setup.units[2].models == 1  # L4185
    assert len(_decoyed(None).setup.units) == 2


def test_p4161_decoy_is_removed_when_it_loses_hp() -> None:
    state = _decoyed(phase=Phase.ATTACK)
    after, events = engine.apply(state, Attack(1, (("Gun", 2),)), dice=ScriptedDice([6, 1]))
    check_invariants(after)
    assert after.units[2].location is Location.DESTROYED  # one HP lost: every model gone
    assert any(e.kind == "perk" and "it loses HP" in e.text for e in events)


def test_p4165_decoy_is_removed_by_an_enemy_moving_within_6_inches() -> None:
    state = _decoyed()
    after, events = engine.apply(state, Move(1, to=(24.0, 23.5)), dice=SeededDice(1))
    check_invariants(after)
    assert after.units[2].location is Location.DESTROYED
    assert any('moves within 6"' in e.text for e in events)
    far, _ = engine.apply(state, Move(1, to=(24.0, 20.0)), dice=SeededDice(1))
    assert far.units[2].location is Location.TABLE  # 9" away still


def test_p4165_decoy_is_removed_by_an_enemy_deployed_within_6_inches() -> None:
    state = _decoyed(phase=Phase.DEPLOY)
    units = list(state.units)
    units[1] = replace(units[1], location=Location.RESERVE, pos=())
    state = replace(state, units=tuple(units), zones=(0, 1))
    # side 1's zone is the north band (y 36-48): the Runner at (24, 36.5) is 5.5" away
    after, events = engine.apply(state, Deploy(1, positions=((24.0, 36.5),)), dice=SeededDice(1))
    assert after.units[2].location is Location.DESTROYED
    assert any('is deployed within 6"' in e.text for e in events)


def test_p4173_decoy_ii_is_removed_when_it_moves_within_6_inches_of_an_enemy() -> None:
    state = _decoyed("Decoy II", active=0)
    after, events = engine.apply(state, Move(2, to=(25.5, 24.5)), dice=SeededDice(1))
    check_invariants(after)
    assert after.units[2].location is Location.DESTROYED
    assert any('it moves within 6"' in e.text for e in events)
    away, _ = engine.apply(state, Move(2, to=(25.5, 35.0)), dice=SeededDice(1))
    assert away.units[2].location is Location.TABLE


def test_p4185_decoy_iii_explodes_d6_attack_dice_at_each_unit_within_12_inches() -> None:
    state = _decoyed("Decoy III")
    # the Runner comes within 6": the explosion's D6 is 3, the Runner's dice 6, 5, 1
    after, events = engine.apply(state, Move(1, to=(24.0, 23.5)), dice=ScriptedDice([3, 6, 5, 1]))
    check_invariants(after)
    assert after.units[2].location is Location.DESTROYED
    assert total_hp(after, 1) == 1  # two successes, no Saves
    assert any("explodes: 3 Attack Dice" in e.text for e in events)
    assert total_hp(after, 0) == 3  # the Troopers are 26" away
    plain, _ = engine.apply(_decoyed("Decoy I"), Move(1, to=(24.0, 23.5)), dice=SeededDice(1))
    assert total_hp(plain, 1) == 3  # Decoy I does not explode


def test_p4169_decoys_cannot_claim_objectives() -> None:
    from warbench.rulesets.warsurge.game.terrain_control import control

    crate = Objective(name="Crate", at=(25.5, 30.0))
    b = board().model_copy(update={"objectives": [crate]})
    held = [h for h in control(_decoyed(b=b)) if h.kind == "objective"]
    assert held[0].sides == frozenset()


# -- Summon (L4219) -------------------------------------------------------------------------------


def _summoning(perks: tuple[str, ...] = (), traits: tuple[str, ...] = ("Summon",)) -> GameState:
    """Side 0's Imps (unit 0, two models of 5 HP, Summon) and Sentries (unit 1); side 1's
    Raiders (unit 2); Game Turn 2's Dash Phase of a game of at most 4 Game Turns."""
    imps = RosterEntry(unit("Imps", models=2, hp=5, perks=list(perks)), 100, 25.4, traits=traits)
    sentries = entry(unit("Sentries"))
    raiders = entry(unit("Raiders"))
    places = {0: [(20.0, 30.0), (21.5, 30.0)], 1: [(40.0, 40.0)], 2: [(24.0, 24.0)]}
    return scenario([[imps, sentries], [raiders]], places, phase=Phase.DASH, max_turns=4)


def test_p4219_summon_copies_wait_destroyed_until_their_game_turn() -> None:
    state = _summoning()
    assert state.setup.summons == ((3, 0, 2), (4, 0, 3), (5, 0, 4))
    assert [state.setup.units[k].label for k in (3, 4, 5)] == [
        "P0: Imps (Summon 2)", "P0: Imps (Summon 3)", "P0: Imps (Summon 4)"
    ]  # fmt: skip
    fresh = engine.new_game(state.setup, 1)[0]
    assert [fresh.units[k].location for k in (3, 4, 5)] == [Location.DESTROYED] * 3
    assert len(_summoning(traits=()).setup.units) == 3


def test_p4219_summon_a_new_unit_is_produced_and_deployed_each_game_turn() -> None:
    after, events = _next_turn(_summoning())
    check_invariants(after)
    copy = after.units[4]  # the copy of Game Turn 3
    assert copy.location is Location.TABLE and copy.hp == (5, 5)
    assert all(y + 0.5 <= 12.0 + 1e-9 for _, y in copy.pos)  # in side 0's zone (south band)
    assert after.units[5].location is Location.DESTROYED  # Game Turn 4's: not yet
    assert any(e.kind == "perk" and "(Summon 3) is produced" in e.text for e in events)


def test_p4229_summon_with_seed_is_produced_and_held_in_reserve() -> None:
    after, _ = _next_turn(_summoning(perks=("Seed I",)))
    assert after.units[4].location is Location.RESERVE


def test_p4237_summon_victory_value_is_the_hp_left_per_game_turn() -> None:
    from warbench.rulesets.warsurge.game.perk_summon_value import summoned_hp

    # the book's example: 10 HP, four units over four Game Turns, 6 HP left: 2 of 10 HP
    assert summoned_hp(6, 4, 10) == 2
    state = _summoning()
    # Game Turn 4: the Imps (3 HP left) and the copies of Game Turns 2-4 (3, 0 and 4 HP left)
    units = list(state.units)
    units[0] = replace(units[0], hp=(3, 0), removed=(False, True))
    for uid, hp, turn in ((3, (2, 1), 2), (4, (0, 0), 3), (5, (4, 0), 4)):
        units[uid] = replace(
            units[uid], location=Location.TABLE if any(hp) else Location.DESTROYED,
            pos=((30.0, 3.0 + 2 * uid), (31.5, 3.0 + 2 * uid)), hp=hp,
            removed=tuple(h == 0 for h in hp), counters=(("summoned", turn),),
        )  # fmt: skip
    state = replace(state, units=tuple(units), flow=replace(state.flow, turn=4))
    # (3 + 3 + 0 + 4) / 4 = 2.5, rounded to 3 of 10 HP: 3/10 of the Imps' value (100 / 4)
    info = state.setup.units[0]
    assert info.value == 25.0
    assert abs(state.side_values()[0] - (100.0 + 25.0 * 3 / 10)) < 1e-9
    check_invariants(state)


# -- Concealed (L4147) ----------------------------------------------------------------------------


def _shadows(
    traits: tuple[str, ...] = ("Concealed",), *, phase: Phase = Phase.DEPLOY, **kw: object
) -> GameState:
    """Side 0's Shadows (unit 0, Concealed) in Reserve; side 1's Hunters (unit 1, a Gun) at
    (24, 22)."""
    shadows = RosterEntry(unit("Shadows", models=2), 100, 25.4, traits=traits)
    hunters = entry(unit("Hunters", weapons=[weapon("Gun", range=24, attacks=1, power=4)]))
    places = {1: [(24.0, 22.0)]}
    return scenario([[shadows], [hunters]], places, phase=phase, **kw)  # type: ignore[arg-type]


def _deployed(state: GameState) -> GameState:
    after, _ = engine.apply(
        state, Deploy(0, positions=((24.0, 10.0), (25.5, 10.0))), dice=SeededDice(1)
    )
    return after


def test_p4147_concealed_unit_deploys_hidden_and_cannot_be_targeted() -> None:
    after = _deployed(_shadows())
    assert any(s.name == "Concealed" for s in after.units[0].statuses)
    shoot = turn_of(after, 1, Phase.ATTACK)
    with pytest.raises(RulesError, match="is Concealed: enemies may not Target it"):
        engine.apply(shoot, Attack(1, (("Gun", 0),)), dice=SeededDice(1))
    # without the Trait the same Attack stands
    plain = turn_of(_deployed(_shadows(traits=())), 1, Phase.ATTACK)
    engine.apply(plain, Attack(1, (("Gun", 0),)), dice=SeededDice(1))


def test_p4149_concealed_unit_is_revealed_when_it_acts() -> None:
    moving = turn_of(_deployed(_shadows()), 0, Phase.MOVE)
    after, events = engine.apply(moving, Move(0, to=(20.0, 10.0)), dice=SeededDice(1))
    assert not any(s.name == "Concealed" for s in after.units[0].statuses)
    assert any(e.kind == "perk" and "is revealed: it acts" in e.text for e in events)


def test_p4153_concealed_unit_is_revealed_by_an_enemy_within_6_inches() -> None:
    state = turn_of(_deployed(_shadows()), 1, Phase.MOVE)
    far, _ = engine.apply(state, Move(1, to=(24.0, 18.0)), dice=SeededDice(1))
    assert any(s.name == "Concealed" for s in far.units[0].statuses)  # 7" away
    near, events = engine.apply(state, Move(1, to=(24.0, 16.5)), dice=SeededDice(1))
    assert not any(s.name == "Concealed" for s in near.units[0].statuses)
    assert any('moves within 6" of it' in e.text for e in events)


def test_p4151_concealed_units_cannot_claim_objectives() -> None:
    from warbench.rulesets.warsurge.game.terrain_control import control

    crate = Objective(name="Crate", at=(24.75, 10.0))
    b = board().model_copy(update={"objectives": [crate]})
    hidden = _deployed(_shadows(b=b))
    assert [h.sides for h in control(hidden) if h.kind == "objective"] == [frozenset()]
    shown = _deployed(_shadows(traits=(), b=b))
    assert [h.sides for h in control(shown) if h.kind == "objective"] == [frozenset({0})]


def test_p4159_a_decoy_taken_with_concealed_is_concealed_too() -> None:
    state = _shadows(traits=("Concealed", "Decoy I"))
    after, _ = engine.apply(state, Deploy(2, positions=((10.0, 10.0), (11.5, 10.0))),
                            dice=SeededDice(1))  # fmt: skip
    assert any(s.name == "Concealed" for s in after.units[2].statuses)


def test_p4155_a_template_striking_a_concealed_unit_reveals_it() -> None:
    launcher = weapon("Launcher", range=24, attacks=1, power=4, perks=["Explode II"])
    shadows = RosterEntry(unit("Shadows", models=1), 100, 25.4, traits=("Concealed",))
    grunts = entry(unit("Grunts"))
    gunners = entry(unit("Gunners", weapons=[launcher]))
    state = scenario([[shadows, grunts], [gunners]],
                     {0: [(24.0, 31.5)], 1: [(24.0, 30.0)], 2: [(24.0, 15.0)]},
                     phase=Phase.ATTACK, active=1)  # fmt: skip
    hidden = replace(state.units[0], statuses=(Status("Concealed", None, "Concealed"),))
    state = replace(state, units=(hidden, *state.units[1:]))
    after, events = engine.apply(state, Attack(2, (("Launcher", 1),)), dice=SeededDice(2))
    assert not any(s.name == "Concealed" for s in after.units[0].statuses)
    assert any("is revealed: a template strikes it" in e.text for e in events)


# -- Leader (L2017) -------------------------------------------------------------------------------


def _captain(perks: tuple[str, ...] = ("Leader",), *, phase: Phase = Phase.MOVE) -> GameState:
    """Side 0's Captain (unit 0, 3 HP) at (10, 10) and Troopers (unit 1, three models) at
    (14-17, 10); side 1's Hunters (unit 2, a Gun and a Claw) at (12, 22)."""
    captain = entry(unit("Captain", hp=3, perks=list(perks)))
    troopers = entry(unit("Troopers", models=3))
    gun = weapon("Gun", range=24, attacks=2, power=4)
    claw = weapon("Claw", range=0, attacks=1, power=4)
    hunters = entry(unit("Hunters", move=12, weapons=[gun, claw]))
    return scenario(
        [[captain, troopers], [hunters]],
        {0: [(10.0, 10.0)], 1: [(14.0, 10.0), (15.5, 10.0), (17.0, 10.0)], 2: [(12.0, 22.0)]},
        phase=phase,
    )


def _attach(state: GameState) -> GameState:
    after, _ = engine.apply(state, Move(0, to=(12.0, 10.0)), dice=SeededDice(1))
    return after


def test_p2017_leader_attaches_when_its_movement_ends_within_coherency() -> None:
    after, events = engine.apply(_captain(), Move(0, to=(12.0, 10.0)), dice=SeededDice(1))
    check_invariants(after)
    assert any(s.name == "Attached@1" for s in after.units[0].statuses)
    assert any(e.kind == "perk" and "attaches to P0: Troopers" in e.text for e in events)
    plain, _ = engine.apply(_captain(()), Move(0, to=(12.0, 10.0)), dice=SeededDice(1))
    assert not plain.units[0].statuses


def test_p2017_leader_detaches_by_moving_out_of_coherency() -> None:
    attached = _attach(_captain())
    moved = replace(attached, units=tuple(
        replace(u, moved=(False,) * len(u.hp), unit_moved=False, acted=False)
        for u in attached.units
    ), flow=replace(attached.flow, active=0, passed=frozenset()))  # fmt: skip
    after, events = engine.apply(moved, Move(0, to=(7.0, 10.0)), dice=SeededDice(1))
    assert not any(s.name.startswith("Attached@") for s in after.units[0].statuses)
    assert any("detaches" in e.text for e in events)


def test_p2019_attached_leader_takes_no_damage_until_its_unit_is_destroyed() -> None:
    attached = _attach(_captain())
    shoot = replace(attached, flow=replace(attached.flow, phase=Phase.ATTACK, active=1,
                                           passed=frozenset()))  # fmt: skip
    after, events = engine.apply(shoot, Attack(2, (("Gun", 0),)), dice=ScriptedDice([6, 6]))
    check_invariants(after)
    assert total_hp(after, 0) == 3 and total_hp(after, 1) == 1
    assert any(e.kind == "perk" and "strikes P0: Troopers first" in e.text for e in events)
    # an unattached Captain takes the hits
    alone = _captain(phase=Phase.ATTACK)
    alone = replace(alone, flow=replace(alone.flow, active=1))
    hit, _ = engine.apply(alone, Attack(2, (("Gun", 0),)), dice=ScriptedDice([6, 6]))
    assert total_hp(hit, 0) == 1 and total_hp(hit, 1) == 3


def test_p2021_an_attached_unit_engaged_in_a_melee_engages_its_leader_too() -> None:
    attached = _attach(_captain())
    charge = replace(attached, flow=replace(attached.flow, active=1, passed=frozenset()))
    after, events = engine.apply(charge, Move(2, to=(15.5, 11.0), engage=1), dice=SeededDice(1))
    check_invariants(after)
    assert (1, 2) in after.engaged and (0, 2) in after.engaged
    assert any("an attached unit engages" in e.text for e in events)
