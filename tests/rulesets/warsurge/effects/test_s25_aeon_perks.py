"""Aeonian Transport perks of session 25 (issue 11, lane s25-aeon) played in a game (Perks
000_94ecc6a4c74d351b.txt): Exposed L1280, Unsheltered L1438, Enclosed L1248
(``game/perk_transport.py``). Each test applies actions through the game engine, with
scripted dice where dice matter, and checks the same situation without the perk. Test names
carry the rank's source line (``p1280``), which ``warbench perks --coverage`` reads."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.rulesets.warsurge.effects.play_helpers import play_and_replay, to_phase_end
from tests.warsurge.game.helpers import ROSTERS, check_invariants, entry, scenario, unit, weapon
from warbench.kernel.dice import ScriptedDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.battlefield import sample_board
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import (
    Attack,
    Deploy,
    Disembark,
    Embark,
    Move,
    Pass,
)
from warbench.rulesets.warsurge.game.geom import Field
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.io import load_game_roster
from warbench.rulesets.warsurge.game.state import (
    GameState,
    Location,
    Phase,
    PlayerSetup,
    RosterEntry,
    Status,
    build_setup,
)
from warbench.rulesets.warsurge.game.work import Work

APC, CREW, FOE = 0, 1, 2


def _carrier(
    perks: list[str],
    *,
    fire_points: int = 0,
    active: int = 1,
    crew_defence: int = 2,
    apc_defence: int = 8,
    engaged: bool = False,
) -> GameState:
    """A Transport (unit 0, Defence ``apc_defence``, 10 HP, a Stubber) with ``perks``, Troopers
    (unit 1: three models of 1 HP, Defence ``crew_defence``, Rifles) embarked in it, and a Foe
    (unit 2, a 4-Attack Gun at Power 4, range 24") 10" away (or in base contact when
    ``engaged``), in the Attack Phase of side ``active``."""
    apc = unit("APC", move=10, dash=10, hp=10, defence=apc_defence, transport=150,
               fire_points=fire_points, perks=perks, weapons=[weapon("Stubber")])  # fmt: skip
    crew = unit("Troopers", models=3, defence=crew_defence, weapons=[weapon("Rifle")])
    foe = unit("Foe", hp=10, weapons=[weapon("Gun", attacks=4, power=4)])
    sides = [[entry(apc, 180, base_mm=76.2), entry(crew, 120)], [entry(foe)]]
    gap = 12.0 if engaged else 22.0
    state = scenario(
        sides,
        {APC: [(10.0, 10.0)], FOE: [(10.0, gap)]},
        phase=Phase.ATTACK,
        active=active,
        engaged=[(APC, FOE)] if engaged else [],
    )
    units = list(state.units)
    units[CREW] = replace(units[CREW], location=Location.EMBARKED, embarked_in=APC)
    return replace(state, units=tuple(units))


def _shoot(state: GameState, target: int, faces: list[int]) -> GameState:
    dice = ScriptedDice(faces)
    new, _ = engine.apply(state, Attack(FOE, (("Gun", target),)), dice=dice)
    assert dice.remaining == 0
    check_invariants(new)
    return new


def _targets(state: GameState, uid: int) -> dict[str, list[int]]:
    return engine.weapon_targets(Work(state, None, DEFAULT_HOOKS), uid)


# -- Exposed (L1280) -------------------------------------------------------------------------


def test_p1280_exposed_passengers_and_transport_can_both_be_targeted_at_range() -> None:
    state = _carrier(["Exposed"])
    # four 2s: Power 4 against the Troopers' Defence 2 needs 2+ (§5.7): three slain
    new = _shoot(state, CREW, [2, 2, 2, 2])
    assert new.units[CREW].hp == (0, 0, 0)
    assert sorted(_targets(state, FOE)["Gun"]) == [APC, CREW]
    new = _shoot(state, APC, [6, 6, 6, 6, 1, 1, 1, 1])  # 6/3 against Defence 8
    assert new.units[APC].hp == (10,) and new.units[CREW].hp == (1, 1, 1)
    # without the perk the passengers cannot be Targeted (§6.9)
    with pytest.raises(RulesError, match="embarked units cannot be attacked"):
        engine.check(_carrier([]), Attack(FOE, (("Gun", CREW),)))
    with pytest.raises(RulesError, match="only units engaged with it in a Melee"):
        engine.check(_carrier([], fire_points=1), Attack(FOE, (("Gun", CREW),)))
    assert _targets(_carrier([]), FOE)["Gun"] == [APC]


def test_p1280_exposed_passengers_attack_without_fire_points() -> None:
    shot = Attack(CREW, (("Rifle", FOE),))
    new, _ = engine.apply(_carrier(["Exposed"], active=0), shot, dice=ScriptedDice([6, 6, 6]))
    assert new.units[FOE].hp == (7,)
    with pytest.raises(RulesError, match="without Fire Points"):
        engine.check(_carrier([], active=0), shot)


def test_p1280_exposed_sets_the_fire_points_stat_to_n() -> None:
    exposed = _carrier(["Exposed"], fire_points=2)
    assert not exposed.setup.units[APC].fire_points
    assert _carrier([], fire_points=2).setup.units[APC].fire_points


def test_p1280_exposed_passengers_seen_only_where_the_transport_is_seen() -> None:
    """The passengers stand where the Transport stands: out of its Range, out of theirs."""
    state = _carrier(["Exposed"])
    units = list(state.units)
    units[FOE] = replace(units[FOE], pos=((10.0, 40.0),))  # 28.5" from the APC's edge
    far = replace(state, units=tuple(units))
    with pytest.raises(RulesError, match="in range and line of sight"):
        engine.check(far, Attack(FOE, (("Gun", CREW),)))


# -- Unsheltered (L1438) ---------------------------------------------------------------------


def test_p1438_unsheltered_passengers_are_targeted_before_the_transport() -> None:
    state = _carrier(["Unsheltered"])
    with pytest.raises(RulesError, match="Unsheltered: its passengers"):
        engine.check(state, Attack(FOE, (("Gun", APC),)))
    assert _targets(state, FOE)["Gun"] == [CREW]
    new = _shoot(state, CREW, [2, 2, 2, 2])
    assert new.units[CREW].hp == (0, 0, 0)
    # the passengers gone, the Transport is Targeted
    units = list(state.units)
    units[CREW] = replace(units[CREW], location=Location.DESTROYED, embarked_in=None)
    empty = replace(state, units=tuple(units))
    engine.check(empty, Attack(FOE, (("Gun", APC),)))
    # without the perk the Transport is the Target and the passengers are not
    engine.check(_carrier([]), Attack(FOE, (("Gun", APC),)))


def test_p1438_unsheltered_passengers_attack_without_fire_points() -> None:
    shot = Attack(CREW, (("Rifle", FOE),))
    new, _ = engine.apply(_carrier(["Unsheltered"], active=0), shot, dice=ScriptedDice([6] * 3))
    assert new.units[FOE].hp == (7,)
    # the Transport keeps its Fire Points Stat (only Exposed sets it to N)
    assert _carrier(["Unsheltered"], fire_points=1).setup.units[APC].fire_points


# -- Enclosed (L1248) ------------------------------------------------------------------------


def test_p1248_enclosed_passengers_use_the_transports_defence() -> None:
    """Exposed lets the Foe Target the passengers; Enclosed gives them the Transport's
    Defence 8 (Power 4 needs 6/3), so four 2s that slay three Troopers at Defence 2 miss."""
    state = _carrier(["Exposed", "Enclosed"])
    new = _shoot(state, CREW, [2, 2, 2, 2])
    assert new.units[CREW].hp == (1, 1, 1)
    new = _shoot(state, CREW, [6, 6, 6, 1, 3, 3, 3])
    assert new.units[CREW].hp == (0, 0, 0)
    assert _shoot(_carrier(["Exposed"]), CREW, [2, 2, 2, 2]).units[CREW].hp == (0, 0, 0)


def test_p1248_enclosed_keeps_the_passengers_stats_when_better() -> None:
    """The Transport's Defence 2 is worse than the Troopers' 8: they keep their own."""
    state = _carrier(["Exposed", "Enclosed"], crew_defence=8, apc_defence=2)
    assert _shoot(state, CREW, [2, 2, 2, 2]).units[CREW].hp == (1, 1, 1)


def test_p1248_enclosed_in_a_melee_through_fire_points() -> None:
    """§6.9: an engaged Transport with Fire Points exposes its passengers; Enclosed gives them
    its Defence and its Save rerolls (Reinforced)."""
    state = _carrier(["Enclosed", "Reinforced"], fire_points=1, engaged=True)
    units = list(state.setup.units)
    apc = units[APC].unit
    armoured = apc.model_copy(update={"profile": apc.profile.model_copy(update={"armour": 5})})
    units[APC] = replace(units[APC], unit=armoured)
    state = replace(state, setup=replace(state.setup, units=tuple(units)))
    # 6/3 hits: 6 6 6 then 3 3 3 (three successes); Armour 5+: 1 1 1 failed, rerolled 5 5 1
    new = _shoot(state, CREW, [6, 6, 6, 1, 3, 3, 3, 1, 1, 1, 5, 5, 1])
    assert new.units[CREW].hp == (0, 1, 1)
    # without Enclosed: Defence 2 (2+), no Armour, every hit slays
    plain = _carrier([], fire_points=1, engaged=True)
    assert _shoot(plain, CREW, [2, 2, 2, 2]).units[CREW].hp == (0, 0, 0)


# -- Transport Link (L1420) ------------------------------------------------------------------


def _apc(name: str, perks: list[str], cap: int = 150) -> RosterEntry:
    apc = unit(name, move=10, dash=10, hp=8, transport=cap, perks=perks)
    return entry(apc, 150, base_mm=76.2)


def _linked(perks: list[str], *, third: bool = False, small: bool = False) -> GameState:
    """Transports Gate A and Gate B (units 0 and 1, capacity 150; 100 when ``small``) with
    ``perks`` 34" apart, Troopers (unit 2, 120 points) embarked in Gate A; with ``third``,
    Gate C (unit 3) with Scouts (unit 4) embarked; a Foe last; in side 0's Move Phase."""
    mine = [_apc("Gate A", perks), _apc("Gate B", perks, 100 if small else 150)]
    mine.append(entry(unit("Troopers", models=3), 120))
    pos: dict[int, list[tuple[float, float]]] = {0: [(6.0, 6.0)], 1: [(40.0, 6.0)]}
    if third:
        mine += [_apc("Gate C", perks), entry(unit("Scouts", models=2), 80)]
        pos[3] = [(24.0, 20.0)]
    pos[len(mine)] = [(24.0, 40.0)]
    state = scenario([mine, [entry(unit("Foe"))]], pos, phase=Phase.MOVE)
    units = list(state.units)
    units[2] = replace(units[2], location=Location.EMBARKED, embarked_in=0)
    if third:
        units[4] = replace(units[4], location=Location.EMBARKED, embarked_in=3)
    return replace(state, units=tuple(units))


def test_p1420_transport_link_passengers_transfer_instead_of_disembarking() -> None:
    state = _linked(["Transport Link"])
    assert Embark(2, 1) in list(engine.legal_actions(state).for_unit(2))
    new, events = engine.apply(state, Embark(2, 1))
    check_invariants(new)
    assert new.units[2].location is Location.EMBARKED and new.units[2].embarked_in == 1
    assert new.units[2].unit_moved and any("moves on into" in e.text for e in events)
    # without the perk the Troopers must Disembark (§6.3): 34" is far beyond any Move
    with pytest.raises(RulesError, match="not on the battlefield"):
        engine.check(_linked([]), Embark(2, 1))
    assert Embark(2, 1) not in list(engine.legal_actions(_linked([])).for_unit(2))


def test_p1424_transport_link_is_broken_while_one_is_in_reserve_or_a_casualty() -> None:
    state = _linked(["Transport Link"])
    for gone in (Location.RESERVE, Location.DESTROYED):
        units = list(state.units)
        units[1] = replace(units[1], location=gone, pos=())
        broken = replace(state, units=tuple(units))
        with pytest.raises(RulesError, match="not linked while one is in Reserve"):
            engine.check(broken, Embark(2, 1))


def test_p1426_transport_link_pairs_only_two_and_keeps_capacity() -> None:
    """Three Transports with the perk: Gate A and Gate B are linked (roster order), Gate C is
    not; a transfer still needs room (§6.4)."""
    state = _linked(["Transport Link"], third=True)
    with pytest.raises(RulesError, match="may only transfer to a Transport linked"):
        engine.check(state, Embark(2, 3))
    with pytest.raises(RulesError, match="may only transfer to a Transport linked"):
        engine.check(state, Embark(4, 0))
    with pytest.raises(RulesError, match="can carry 100 points"):
        engine.check(_linked(["Transport Link"], small=True), Embark(2, 1))


# -- Rift Gate (L1384) -----------------------------------------------------------------------


def _rift(perks: list[str], phase: Phase, *, embarked: bool = False, cap: int = 150) -> GameState:
    """A Transport (unit 0, capacity ``cap``) with ``perks`` at the middle of the board, far
    outside side 0's Deployment Zone (y < 12); Troopers (unit 1, 120 points) in Reserve, or
    embarked in it; a Foe (unit 2); side 0 acts in ``phase`` of Game Turn 2."""
    sides = [[_apc("Rift", perks, cap), entry(unit("Troopers", models=3), 120)]]
    sides.append([entry(unit("Foe"))])
    state = scenario(sides, {0: [(24.0, 30.0)], 2: [(24.0, 44.0)]}, phase=phase)
    if embarked:
        units = list(state.units)
        units[1] = replace(units[1], location=Location.EMBARKED, embarked_in=0)
        state = replace(state, units=tuple(units))
    return state


def test_p1384_rift_gate_units_in_reserve_deploy_inside_it_outside_the_zone() -> None:
    state = _rift(["Rift Gate"], Phase.DEPLOY)
    assert state.units[1].location is Location.RESERVE
    assert Deploy(1, into=0) in list(engine.legal_actions(state).for_unit(1))
    new, events = engine.apply(state, Deploy(1, into=0))
    check_invariants(new)
    assert new.units[1].location is Location.EMBARKED and new.units[1].embarked_in == 0
    assert any("through its Rift Gate" in e.text for e in events)
    # without the perk: only the Deployment Zone (§3.6)
    with pytest.raises(RulesError, match="has no Rift Gate"):
        engine.check(_rift([], Phase.DEPLOY), Deploy(1, into=0))
    assert Deploy(1, into=0) not in list(engine.legal_actions(_rift([], Phase.DEPLOY)).for_unit(1))
    # §6.4: the Troopers' 120 points must fit
    with pytest.raises(RulesError, match="can carry 100 points"):
        engine.check(_rift(["Rift Gate"], Phase.DEPLOY, cap=100), Deploy(1, into=0))


def test_p1384_rift_gate_passengers_enter_reserve_and_deploy_again() -> None:
    state = _rift(["Rift Gate"], Phase.MOVE, embarked=True)
    out = Disembark(1, reserve=True)
    assert out in list(engine.legal_actions(state).for_unit(1))
    new, events = engine.apply(state, out)
    check_invariants(new)
    assert new.units[1].location is Location.RESERVE and new.units[1].embarked_in is None
    assert any("into Reserve" in e.text for e in events)
    # the next Game Turn's Deploy Phase: back inside the Rift Gate
    while not (new.flow.phase is Phase.DEPLOY and new.flow.active == 0):
        new, _ = engine.apply(new, Pass())
    assert new.flow.turn == 3
    new, _ = engine.apply(new, Deploy(1, into=0))
    assert new.units[1].location is Location.EMBARKED
    # without the perk a passenger cannot go into Reserve from its Transport
    with pytest.raises(RulesError, match="not inside a Transport with Rift Gate"):
        engine.check(_rift([], Phase.MOVE, embarked=True), out)


def test_p1384_rift_gate_actions_are_recorded_and_read_back() -> None:
    """The new fields (``Deploy.into``, ``Disembark.reserve``) go through the action codec and
    its JSON Schema, and show in ``repr`` only when set (seeded games' records hash as before)."""
    import jsonschema

    from warbench.rulesets.warsurge.game.codecs import ActionCodec

    codec = ActionCodec()
    for action in (Deploy(1, into=0), Disembark(1, dash=True, reserve=True)):
        data = codec.dump(action)
        jsonschema.validate(data, codec.schema())
        assert codec.load(data) == action
    assert "into" not in repr(Deploy(1, at=(1.0, 2.0))) and "into=0" in repr(Deploy(1, into=0))
    assert "reserve" not in repr(Disembark(1))
    assert "reserve=True" in repr(Disembark(1, reserve=True))


# -- Seed II (L1904) -------------------------------------------------------------------------


def _seeded(rank: str = "Seed II") -> GameState:
    """Side 0: the Sower (unit 0, a Gun with Implant) and the Spawn (unit 1, ``rank``, two
    models with Claws) in Reserve; side 1: the Guard (unit 2, 2 HP, Fists) 10" from the Sower
    and the Other (unit 3) beyond; side 0's Attack Phase of Game Turn 2."""
    sower = entry(unit("Sower", hp=3, weapons=[weapon("Gun", power=4, perks=["Implant"])]))
    spawn = entry(unit("Spawn", models=2, perks=[rank], weapons=[weapon("Claws", range=0)]))
    guard = entry(unit("Guard", hp=2, weapons=[weapon("Fists", range=0, attacks=2)]))
    other = entry(unit("Other", weapons=[weapon("Rifle", range=30)]))
    return scenario(
        [[sower, spawn], [guard, other]],
        {0: [(24.0, 31.0)], 2: [(24.0, 20.0)], 3: [(34.0, 20.0)]},
        phase=Phase.ATTACK,
    )


def _implanted(rank: str = "Seed II") -> tuple[GameState, list[str]]:
    """The Sower's Gun hits the Guard (Implant); side 0 to act again."""
    state, events = engine.apply(_seeded(rank), Attack(0, (("Gun", 2),)), dice=ScriptedDice([4]))
    check_invariants(state)
    return replace(state, flow=replace(state.flow, active=0)), [e.text for e in events]


def test_p1904_seed_ii_is_held_in_reserve_until_implant_puts_it_in_the_host() -> None:
    from warbench.rulesets.warsurge.game.perk_seed import hold

    w = Work(_seeded(), None, DEFAULT_HOOKS)
    hold(w)
    held = replace(w.state(), flow=replace(w.state().flow, phase=Phase.DEPLOY))
    with pytest.raises(RulesError, match="only through a unit afflicted with Implant"):
        engine.check(held, Deploy(1, positions=((10.0, 5.0), (11.5, 5.0))))
    state, texts = _implanted()
    assert state.units[1].location is Location.EMBARKED and state.units[1].embarked_in == 2
    assert any("Spawn is in P1: Guard, engaged with it" in t for t in texts)
    # Seed I stays in Reserve (its host only carries it, L1890)
    plain, _ = _implanted("Seed I")
    assert plain.units[1].location is Location.RESERVE


def test_p1904_seed_ii_and_its_host_attack_each_other_as_in_a_melee() -> None:
    state, _ = _implanted()
    # the Spawn's Claws (Range 0) strike the Guard inside: a Melee ignores Range (§5.9)
    assert _targets(state, 1) == {"Claws": [2]}
    hit, _ = engine.apply(state, Attack(1, (("Claws", 2),)), dice=ScriptedDice([1, 1]))
    check_invariants(hit)
    # and nobody else: not the Other, and the Other may not attack the Spawn
    with pytest.raises(RulesError, match="it attacks only in there"):
        engine.check(state, Attack(1, (("Claws", 3),)))
    theirs = replace(state, flow=replace(state.flow, active=1))
    with pytest.raises(RulesError, match="only its host attacks it"):
        engine.check(theirs, Attack(3, (("Rifle", 1),)))
    assert 1 in _targets(theirs, 2)["Fists"]
    new, _ = engine.apply(theirs, Attack(2, (("Fists", 1),)), dice=ScriptedDice([6, 6]))
    check_invariants(new)
    assert new.units[1].hp == (0, 0)
    # without the Seed II perk the Spawn is not there to attack or be attacked
    plain, _ = _implanted("Seed I")
    with pytest.raises(RulesError, match="not on the battlefield"):
        engine.check(plain, Attack(1, (("Claws", 2),)))


def test_p1904_seed_ii_stays_inside_while_its_host_moves_freely() -> None:
    state, _ = _implanted()
    moving = replace(state, flow=replace(state.flow, phase=Phase.MOVE, active=1))
    new, _ = engine.apply(moving, Move(2, to=(20.0, 20.0)))
    assert new.units[2].pos[0] != (24.0, 20.0) and not new.engaged
    assert new.units[1].embarked_in == 2
    ours = replace(state, flow=replace(state.flow, phase=Phase.MOVE, active=0))
    with pytest.raises(RulesError, match="leaves it only when it is removed as a casualty"):
        engine.check(ours, Disembark(1, to=(24.0, 25.0)))


def test_p1918_seed_ii_emerges_where_its_host_is_removed_as_a_casualty() -> None:
    state, _ = _implanted()  # the Guard has 1 HP left
    state, _ = engine.apply(state, Attack(1, (("Claws", 2),)), dice=ScriptedDice([6, 6]))
    state, _ = to_phase_end(state, Phase.ATTACK)  # the casualties go at the end of the Phase
    assert state.units[2].location is Location.DESTROYED
    spawn = state.units[1]
    assert spawn.location is Location.TABLE and spawn.pos[0] == (24.0, 20.0)


# -- Breach (L1140) --------------------------------------------------------------------------

RAIDER, WATCHER, BRUTE, TANK, TCREW, OTHER = 0, 1, 2, 3, 4, 5


def _breach(
    perks: list[str], *, brute: tuple[str, ...] = (), tank: tuple[str, ...] = ()
) -> GameState:
    """Side 0: the Raider (unit 0, ``perks``, a Knife) 3" from the Brute (unit 2, 3 HP, a Club,
    ``brute`` perks) and the Watcher (unit 1) 12" behind; side 1 also has the Tank (unit 3, a
    Transport without Fire Points, Defence 8, ``tank`` perks) carrying the Crew (unit 4, two
    models, Defence 2, Rifles), and the Other (unit 5, a Rifle) 10" away. Side 0's Move Phase
    of Game Turn 2."""
    raider = entry(unit("Raider", hp=2, perks=perks, weapons=[weapon("Knife", range=0)]))
    brute = entry(unit("Brute", hp=3, perks=list(brute), weapons=[weapon("Club", range=0)]))
    tank = entry(unit("Tank", hp=5, defence=8, transport=200, perks=list(tank)), 150, 50.8)
    crew = entry(unit("Crew", models=2, defence=2, weapons=[weapon("Rifle", range=24)]))
    other = entry(unit("Other", weapons=[weapon("Rifle", range=30)]))
    state = scenario(
        [[raider, entry(unit("Watcher"))], [brute, tank, crew, other]],
        {RAIDER: [(24.0, 20.0)], WATCHER: [(24.0, 8.0)], BRUTE: [(24.0, 24.0)],
         TANK: [(20.0, 20.0)], OTHER: [(34.0, 24.0)]},
        phase=Phase.MOVE,
    )  # fmt: skip
    units = list(state.units)
    units[TCREW] = replace(units[TCREW], location=Location.EMBARKED, embarked_in=TANK)
    return replace(state, units=tuple(units))


def _inside(state: GameState, host: int, phase: Phase, active: int) -> GameState:
    """The Raider has breached ``host`` (in an earlier Game Turn: it may act again)."""
    new, _ = engine.apply(state, Embark(RAIDER, host))
    check_invariants(new)
    units = list(new.units)
    units[RAIDER] = replace(units[RAIDER], acted=False)
    return replace(new, units=tuple(units), flow=replace(new.flow, phase=phase, active=active))


def test_p1140_breach_embarks_an_enemy_unit_as_a_whole() -> None:
    state = _breach(["Breach"])
    assert Embark(RAIDER, BRUTE) in list(engine.legal_actions(state).for_unit(RAIDER))
    new, events = engine.apply(state, Embark(RAIDER, BRUTE))
    check_invariants(new)
    assert new.units[RAIDER].location is Location.EMBARKED
    assert new.units[RAIDER].embarked_in == BRUTE
    assert any("moves into P1: Brute" in e.text for e in events)
    # without Breach: only a friendly Transport; Impregnable is immune (L1565)
    with pytest.raises(RulesError, match="not a friendly Transport"):
        engine.check(_breach([]), Embark(RAIDER, BRUTE))
    with pytest.raises(RulesError, match="immune to Breach"):
        engine.check(_breach(["Breach"], brute=("Impregnable",)), Embark(RAIDER, BRUTE))


def test_p1140_breach_user_and_target_attack_each_other_only_and_the_target_moves() -> None:
    ours = _inside(_breach(["Breach"]), BRUTE, Phase.ATTACK, 0)
    assert _targets(ours, RAIDER) == {"Knife": [BRUTE]}
    hit, _ = engine.apply(ours, Attack(RAIDER, (("Knife", BRUTE),)), dice=ScriptedDice([6]))
    assert hit.units[BRUTE].hp == (2,)
    theirs = replace(ours, flow=replace(ours.flow, active=1))
    with pytest.raises(RulesError, match="only its host attacks it"):
        engine.check(theirs, Attack(OTHER, (("Rifle", RAIDER),)))
    new, _ = engine.apply(theirs, Attack(BRUTE, (("Club", RAIDER),)), dice=ScriptedDice([6]))
    assert new.units[RAIDER].hp == (1,)
    # "though the Target may move freely": the Brute is locked in no Melee
    moving = replace(ours, flow=replace(ours.flow, phase=Phase.MOVE, active=1))
    new, _ = engine.apply(moving, Move(BRUTE, to=(24.0, 30.0)))
    assert new.units[RAIDER].embarked_in == BRUTE and new.units[BRUTE].pos[0][1] > 24.5


def test_p1148_breach_into_a_transport_fights_its_passengers() -> None:
    """In the Tank (no Fire Points) the Raider Targets the Crew and the Crew the Raider; the
    Crew still cannot attack out; the Tank's Enclosed does not protect them (L1252)."""
    ours = _inside(_breach(["Breach"], tank=("Enclosed",)), TANK, Phase.ATTACK, 0)
    assert sorted(_targets(ours, RAIDER)["Knife"]) == [TANK, TCREW]
    # Power 4 against the Crew's own Defence 2 (2+; the Tank's 8 would need 6/3)
    hit, _ = engine.apply(ours, Attack(RAIDER, (("Knife", TCREW),)), dice=ScriptedDice([2]))
    assert hit.units[TCREW].hp == (0, 1) or hit.units[TCREW].hp == (1, 0)
    theirs = replace(ours, flow=replace(ours.flow, active=1))
    engine.check(theirs, Attack(TCREW, (("Rifle", RAIDER),)))
    with pytest.raises(RulesError, match="only the Breach unit inside"):
        engine.check(theirs, Attack(TCREW, (("Rifle", WATCHER),)))
    # without a Breach unit inside, the Crew has no Fire Points at all (§6.7)
    with pytest.raises(RulesError, match="without Fire Points"):
        engine.check(replace(_breach([]), flow=theirs.flow), Attack(TCREW, (("Rifle", RAIDER),)))


def test_p1150_breach_disembarks_once_it_breaks_free_from_the_melee() -> None:
    state = _inside(_breach(["Breach"]), BRUTE, Phase.MOVE, 0)
    out = Disembark(RAIDER, to=(24.0, 17.0))
    with pytest.raises(RulesError, match="break free"):
        engine.check(state, out)
    units = list(state.units)
    units[RAIDER] = replace(units[RAIDER], statuses=(Status("Disengage", 1, "u0/Disengage"),))
    free, _ = engine.apply(replace(state, units=tuple(units)), out)
    check_invariants(free)
    assert free.units[RAIDER].location is Location.TABLE


# -- random-legal games with these perks -----------------------------------------------------


def _perked(name: str, perks: list[str], weapon_perks: list[str]) -> PlayerSetup:
    """The example roster ``name`` with ``perks`` on every unit (Seed II on every third unit
    only: the others must deploy; Terrain on every other one), ``weapon_perks`` on every
    weapon, and its Transports twice (a pair for Transport Link)."""
    player = load_game_roster(ROSTERS / name)
    out = []
    for i, e in enumerate(player.roster):
        u = e.unit
        mine = [p for p in perks if p not in ("Seed II", "Terrain")]
        mine += ["Seed II"] * ("Seed II" in perks and i % 3 == 2)
        mine += ["Terrain"] * ("Terrain" in perks and i % 2 == 0)
        profile = u.profile.model_copy(update={"perks": mine})
        ws = [w.model_copy(update={"perks": list(weapon_perks)}) for w in u.weapons]
        out.append(replace(e, unit=u.model_copy(update={"profile": profile, "weapons": ws})))
    out += [e for e in out if e.unit.profile.transport]
    return replace(player, roster=tuple(out))


@pytest.mark.parametrize(
    ("perks", "scripted"),
    [
        (["Breach", "Seed II", "Enclosed", "Transport Link", "Rift Gate"], False),
        (["Seed II", "Breach", "Exposed", "Transport Link"], False),
        (["Breach", "Unsheltered", "Rift Gate", "Seed II"], True),
        (["Terrain", "Breach", "Exposed"], False),
    ],
)
def test_s25_aeon_perks_in_random_games_keep_invariants_and_replay(
    perks: list[str], scripted: bool
) -> None:
    sides = [
        _perked("sci_fi_humans.yaml", perks, ["Implant"]),
        _perked("scavengers.yaml", perks, ["Implant"]),
    ]
    setup = build_setup(sides, Field(sample_board("open_field_42x32")), max_turns=5)
    seed = 101 + len(perks)
    play_and_replay(setup, seed, scripted)


# -- Terrain (L1410) -------------------------------------------------------------------------


def _rampart(perks: list[str], phase: Phase = Phase.MOVE, turn: int = 2) -> GameState:
    """Side 0: the Rampart (unit 0, ``perks``, Move 6, one 3" model) at (24, 20) and the Scout
    (unit 1) at (24, 16); side 1: the Raider (unit 2, Move 8) at (24, 26)."""
    rampart = entry(unit("Rampart", hp=6, defence=8, perks=perks), 150, base_mm=76.2)
    scout = entry(unit("Scout"))
    raider = entry(unit("Raider", move=8, weapons=[weapon("Axe", range=0)]))
    return scenario(
        [[rampart, scout], [raider]],
        {0: [(24.0, 20.0)], 1: [(24.0, 16.0)], 2: [(24.0, 26.0)]},
        phase=phase,
        turn=turn,
    )


def test_p1410_terrain_units_are_moved_over_and_onto_like_terrain() -> None:
    over = Move(1, positions=((24.0, 21.9),))  # across the Rampart's 3" base, and onto it
    new, _ = engine.apply(_rampart(["Terrain"]), over)
    check_invariants(new)
    assert new.units[1].pos == ((24.0, 21.9),)
    with pytest.raises(RulesError, match=r"cannot move through P0: Rampart|would overlap"):
        engine.check(_rampart([]), over)
    # an enemy standing on it is in a Melee with it (§4.3)
    theirs = _rampart(["Terrain"])
    theirs = replace(theirs, flow=replace(theirs.flow, active=1))
    new, _ = engine.apply(theirs, Move(2, positions=((24.0, 20.5),)))
    check_invariants(new)
    assert (0, 2) in new.engaged


def test_p1410_terrain_unit_is_immobile() -> None:
    with pytest.raises(RulesError, match="Immobile"):
        engine.check(_rampart(["Terrain"]), Move(0, to=(24.0, 14.0)))
    assert _rampart(["Terrain"]).setup.units[0].immobile
    engine.check(_rampart([]), Move(0, to=(30.0, 20.0)))


def test_p1416_terrain_deploys_only_on_the_first_game_turn_and_never_embarked() -> None:
    for turn, ok in ((1, True), (2, False)):
        state = _rampart(["Terrain"], Phase.DEPLOY, turn)
        units = list(state.units)
        units[0] = replace(units[0], location=Location.RESERVE, pos=())
        state = replace(state, units=tuple(units))
        if ok:
            engine.check(state, Deploy(0, positions=((24.0, 6.0),)))
        else:
            with pytest.raises(RulesError, match="only be Deployed on the first Game Turn"):
                engine.check(state, Deploy(0, positions=((24.0, 6.0),)))


def test_p1416_terrain_unit_cannot_go_into_reserve() -> None:
    """A Warp hit would send it into Reserve at the end of the Phase (L4115); it stays."""
    state = _rampart(["Terrain"], Phase.ATTACK)
    units = list(state.units)
    units[0] = replace(units[0], statuses=(Status("Warp", 1, "u2/Warp"),))
    state, events = to_phase_end(replace(state, units=tuple(units)), Phase.ATTACK, first=Pass())
    assert state.units[0].location is Location.TABLE
    assert any("Rampart cannot go into Reserve" in e.text for e in events)
    plain = _rampart([], Phase.ATTACK)
    units = list(plain.units)
    units[0] = replace(units[0], statuses=(Status("Warp", 1, "u2/Warp"),))
    plain = replace(plain, units=tuple(units))
    while plain.flow.phase is Phase.ATTACK:
        plain, _ = engine.apply(plain, Pass())
    assert plain.units[0].location is Location.RESERVE


def test_p1418_terrain_unit_is_immune_to_terrify_and_dread() -> None:
    gun = weapon("Gun", range=24, power=6, perks=["Dread"])
    ghoul = unit("Ghoul", weapons=[gun], hp=3)
    for perks, dreaded in ((["Terrain"], False), ([], True)):
        mound = unit("Mound", perks=perks, hp=3)
        st = scenario([[entry(ghoul)], [entry(mound)]], {0: [(20, 26)], 1: [(20, 42)]},
                      phase=Phase.ATTACK)  # fmt: skip
        st, _ = engine.apply(st, Attack(0, (("Gun", 1),)), dice=ScriptedDice([6, 4]))
        assert any(s.name == "Dread" for s in st.units[1].statuses) is dreaded
    from warbench.rulesets.warsurge.effects.runtime import immunities

    assert {"Terrify", "Dread", "Juggernaut"} <= immunities(["Terrain"])


def test_p1438_unsheltered_pacifist_passengers_can_be_targeted_normally() -> None:
    """Pacifist (L1362): "embarks a Unit with a Crew or Unsheltered Perk (that do not have the
    Pacifist Perk), they can be Targeted normally"; in an Exposed Transport it stays shielded
    while its Roster stands."""
    for rank, shielded in (("Unsheltered", False), ("Exposed", True)):
        state = _carrier([rank])
        units = list(state.setup.units)
        crew = units[CREW].unit
        pacifist = crew.profile.model_copy(update={"perks": ["Pacifist"]})
        meek = crew.model_copy(update={"profile": pacifist})
        units[CREW] = replace(units[CREW], unit=meek)
        state = replace(state, setup=replace(state.setup, units=tuple(units)))
        shot = Attack(FOE, (("Gun", CREW),))
        if shielded:
            with pytest.raises(RulesError, match="is a Pacifist"):
                engine.check(state, shot)
        else:
            assert _shoot(state, CREW, [2, 2, 2, 2]).units[CREW].hp == (0, 0, 0)
