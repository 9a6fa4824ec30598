"""Transports changing control, session 25 wave 2 (issue 11, lane w2-transport), played in a game
(Perks 000_94ecc6a4c74d351b.txt): Hijack L1298, Crew III L1194 (``game/perk_crew.py``, with
``game/perk_seed.py``). Each test applies actions through the game engine, with scripted dice
where dice matter, and checks the same situation without the perk. Test names carry the rank's
source line (``p1298``), which ``warbench perks --coverage`` reads."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.rulesets.warsurge.effects.play_helpers import play_and_replay
from tests.warsurge.game.helpers import (
    ROSTERS,
    board,
    check_invariants,
    entry,
    scenario,
    unit,
    weapon,
)
from warbench.kernel.dice import ScriptedDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.battlefield import sample_board
from warbench.rulesets.warsurge.battlefield.model import Objective
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack, Disembark, Embark, Move, Pass
from warbench.rulesets.warsurge.game.advstate import Playstyle
from warbench.rulesets.warsurge.game.geom import Field
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.io import load_game_roster
from warbench.rulesets.warsurge.game.perk_seed import host_of
from warbench.rulesets.warsurge.game.state import (
    GameState,
    Location,
    Phase,
    PlayerSetup,
    build_setup,
)
from warbench.rulesets.warsurge.game.work import Work


def _work(state: GameState) -> Work:
    return Work(state, None, DEFAULT_HOOKS)


def _targets(state: GameState, uid: int) -> dict[str, list[int]]:
    return engine.weapon_targets(_work(state), uid)


def _at(state: GameState, phase: Phase, active: int) -> GameState:
    units = tuple(replace(u, acted=False) for u in state.units)
    return replace(state, units=units, flow=replace(state.flow, phase=phase, active=active))


# -- Hijack (L1298) --------------------------------------------------------------------------

RAIDER, WATCHER, BRUTE, TANK, TCREW, OTHER = 0, 1, 2, 3, 4, 5


def _hijack(
    perks: list[str], *, crewed: bool = True, tank: tuple[str, ...] = (), capacity: int = 200
) -> GameState:
    """Side 0: the Raider (unit 0, ``perks``, a 2-Attack Knife) 3" from the Brute (unit 2, not a
    Transport) and the Watcher (unit 1) 12" behind; side 1 also has the Tank (unit 3, a
    Transport of ``capacity`` without Fire Points, Defence 8, a Cannon, ``tank`` perks) carrying
    the Crew (unit 4, two models, Defence 2, Rifles) when ``crewed`` (else the Crew stands
    apart), and the Other (unit 5, a Rifle) 10" away. Side 0's Move Phase of Game Turn 2."""
    raider = entry(unit("Raider", hp=2, perks=perks, weapons=[weapon("Knife", range=0, attacks=2)]))
    brute = entry(unit("Brute", hp=3, weapons=[weapon("Club", range=0)]))
    tank_u = unit("Tank", hp=5, defence=8, transport=capacity, perks=list(tank),
                  weapons=[weapon("Cannon", range=30)])  # fmt: skip
    crew = entry(unit("Crew", models=2, defence=2, weapons=[weapon("Rifle", range=24)]))
    other = entry(unit("Other", weapons=[weapon("Rifle", range=30)]))
    pos = {RAIDER: [(24.0, 20.0)], WATCHER: [(24.0, 8.0)], BRUTE: [(24.0, 24.0)],
           TANK: [(20.0, 20.0)], OTHER: [(34.0, 24.0)]}  # fmt: skip
    if not crewed:
        pos[TCREW] = [(40.0, 40.0), (41.5, 40.0)]
    state = scenario(
        [[raider, entry(unit("Watcher"))], [brute, entry(tank_u, 150, 50.8), crew, other]],
        pos,
        phase=Phase.MOVE,
    )
    if crewed:
        units = list(state.units)
        units[TCREW] = replace(units[TCREW], location=Location.EMBARKED, embarked_in=TANK)
        state = replace(state, units=tuple(units))
    return state


def test_p1298_hijack_embarks_an_enemy_transport_ignoring_its_transport_stat() -> None:
    state = _hijack(["Hijack"], capacity=10)  # 10 points: the Raider's 100 would not fit
    assert Embark(RAIDER, TANK) in list(engine.legal_actions(state).for_unit(RAIDER))
    new, _ = engine.apply(state, Embark(RAIDER, TANK))
    check_invariants(new)
    assert new.units[RAIDER].location is Location.EMBARKED
    assert new.units[RAIDER].embarked_in == TANK
    assert host_of(_work(new), RAIDER) == TANK  # inside, in a Melee with the Crew
    # only Transports (Breach embarks any unit); without Hijack none; Impregnable is immune
    with pytest.raises(RulesError, match="not a friendly Transport"):
        engine.check(state, Embark(RAIDER, BRUTE))
    with pytest.raises(RulesError, match="not a friendly Transport"):
        engine.check(_hijack([]), Embark(RAIDER, TANK))
    with pytest.raises(RulesError, match="immune to Hijack"):
        engine.check(_hijack(["Hijack"], tank=("Impregnable",)), Embark(RAIDER, TANK))


def test_p1298_hijack_attacks_the_passengers_and_they_it_not_the_transport() -> None:
    inside, _ = engine.apply(_hijack(["Hijack"]), Embark(RAIDER, TANK))
    ours = _at(inside, Phase.ATTACK, 0)
    assert _targets(ours, RAIDER) == {"Knife": [TCREW]}
    with pytest.raises(RulesError):
        engine.check(ours, Attack(RAIDER, (("Knife", TANK),)))
    # Power 4 against the Crew's Defence 2: 2+ (§5.7); one slain
    hit, _ = engine.apply(ours, Attack(RAIDER, (("Knife", TCREW),)), dice=ScriptedDice([2, 1]))
    assert sorted(hit.units[TCREW].hp) == [0, 1]
    theirs = _at(inside, Phase.ATTACK, 1)
    new, _ = engine.apply(theirs, Attack(TCREW, (("Rifle", RAIDER),)), dice=ScriptedDice([6, 1]))
    assert new.units[RAIDER].hp == (1,)
    with pytest.raises(RulesError):
        engine.check(theirs, Attack(TANK, (("Cannon", RAIDER),)))
    with pytest.raises(RulesError):
        engine.check(theirs, Attack(OTHER, (("Rifle", RAIDER),)))
    # the Tank is still side 1's while the Crew is in it
    assert _work(hit).enemies(TANK, WATCHER)


def test_p1298_hijack_takes_control_of_an_empty_transport() -> None:
    state = _hijack(["Hijack"], crewed=False)
    new, events = engine.apply(state, Embark(RAIDER, TANK))
    check_invariants(new)
    w = _work(new)
    assert any("takes control of P1: Tank" in e.text for e in events)
    assert new.units[TANK].seized_by == 0
    assert not w.enemies(TANK, WATCHER) and w.enemies(TANK, OTHER)
    assert TANK in w.acting_units(0) and TANK not in w.acting_units(1)
    assert host_of(w, RAIDER) is None  # an ordinary passenger of a friendly Transport now
    # side 0 fires its new Cannon at side 1, and the Raider leaves freely
    shoot = _at(new, Phase.ATTACK, 0)
    assert OTHER in _targets(shoot, TANK)["Cannon"]
    out, _ = engine.apply(_at(new, Phase.MOVE, 0), Disembark(RAIDER, to=(20.0, 14.0)))
    assert out.units[RAIDER].location is Location.TABLE
    assert out.units[TANK].seized_by == 0  # the Transport stays side 0's
    # side 0's units may now embark it as their own; the Crew (side 1) may not
    engine.check(_at(out, Phase.MOVE, 0), Embark(RAIDER, TANK))
    with pytest.raises(RulesError, match="not a friendly Transport"):
        engine.check(_at(out, Phase.MOVE, 1), Embark(TCREW, TANK))


def test_p1298_hijack_takes_control_once_the_passengers_are_slain() -> None:
    inside, _ = engine.apply(_hijack(["Hijack"]), Embark(RAIDER, TANK))
    ours = _at(inside, Phase.ATTACK, 0)
    new, _ = engine.apply(ours, Attack(RAIDER, (("Knife", TCREW),)), dice=ScriptedDice([2, 2]))
    w = _work(new)
    assert not new.units[TCREW].living()
    assert new.units[TANK].seized_by == 0 and not w.enemies(RAIDER, TANK)
    # without Hijack's kill the Tank stays side 1's
    missed, _ = engine.apply(ours, Attack(RAIDER, (("Knife", TCREW),)), dice=ScriptedDice([1, 1]))
    assert missed.units[TANK].seized_by is None


# -- Crew III (L1194) ------------------------------------------------------------------------

APC, TROOPS, FOE = 0, 1, 2


def _crew(rank: str, *, engaged: bool = False, foe_at: float = 13.0) -> GameState:
    """Side 0: an unoccupied Transport (unit 0, ``rank``, Fire Points, a Stubber, 10 HP) and the
    Troopers (unit 1) 5" from it; side 1: the Foe (unit 2, a 2-Attack Gun) ``foe_at`` in y
    (in base contact, engaged, when ``engaged``). Side 1's Move Phase of Game Turn 2."""
    apc = unit("APC", move=10, dash=10, hp=10, defence=4, transport=150, fire_points=1,
               perks=[rank], weapons=[weapon("Stubber")])  # fmt: skip
    troops = unit("Troopers", weapons=[weapon("Rifle")])
    foe = unit("Foe", hp=3, weapons=[weapon("Gun", attacks=2, power=4)])
    return scenario(
        [[entry(apc, 180, base_mm=76.2), entry(troops, 100)], [entry(foe, 100)]],
        {APC: [(10.0, 10.0)], TROOPS: [(16.0, 10.0)],
         FOE: [(10.0, 12.0 if engaged else foe_at)]},
        phase=Phase.MOVE,
        active=1,
        engaged=[(APC, FOE)] if engaged else [],
    )  # fmt: skip


def _until(state: GameState, phase: Phase, side: int, turn: int) -> GameState:
    while (state.flow.phase, state.flow.active, state.flow.turn) != (phase, side, turn):
        state, _ = engine.apply(state, Pass())
        check_invariants(state)
    return state


def test_p1194_crew_iii_functions_as_crew_II_while_empty() -> None:
    state = _until(_crew("Crew III"), Phase.MOVE, 0, 3)
    assert any(s.name == "Crew (empty)" for s in state.units[APC].statuses)
    with pytest.raises(RulesError, match='has a Move of 0"'):
        engine.check(state, Move(APC, to=(10.0, 4.0)))
    with pytest.raises(RulesError, match="no Unit embarked"):
        engine.check(_at(state, Phase.ATTACK, 0), Attack(APC, (("Stubber", FOE),)))
    full, _ = engine.apply(state, Embark(TROOPS, APC))
    moved, _ = engine.apply(_until(full, Phase.DASH, 0, 3), Move(APC, to=(10.0, 4.0), dash=True))
    assert moved.units[APC].pos[0] != (10.0, 10.0)


def test_p1194_crew_iii_any_unit_embarks_and_controls_it() -> None:
    state = _crew("Crew III")
    assert Embark(FOE, APC) in list(engine.legal_actions(state).for_unit(FOE))
    new, events = engine.apply(state, Embark(FOE, APC))
    check_invariants(new)
    w = _work(new)
    assert new.units[FOE].embarked_in == APC
    assert any("takes control of P0: APC" in e.text for e in events)
    assert new.units[APC].seized_by == 1 and APC in w.acting_units(1)
    assert w.enemies(APC, TROOPS)
    # occupied, only its controller's units embark it
    with pytest.raises(RulesError, match="not a friendly Transport"):
        engine.check(_at(new, Phase.MOVE, 0), Embark(TROOPS, APC))
    # side 1 now moves it and fires its Stubber at side 0
    shoot = _at(new, Phase.ATTACK, 1)
    assert TROOPS in _targets(shoot, APC)["Stubber"]
    # Crew II: only a friendly unit embarks
    with pytest.raises(RulesError, match="not a friendly Transport"):
        engine.check(_crew("Crew II"), Embark(FOE, APC))


def test_p1194_crew_iii_unoccupied_again_its_owner_takes_it_back() -> None:
    new, _ = engine.apply(_crew("Crew III"), Embark(FOE, APC))
    out, _ = engine.apply(_at(new, Phase.MOVE, 1), Disembark(FOE, to=(10.0, 18.0)))
    assert out.units[FOE].location is Location.TABLE
    assert out.units[APC].seized_by == 1  # the last controller's, unoccupied
    back, events = engine.apply(_at(out, Phase.MOVE, 0), Embark(TROOPS, APC))
    assert back.units[APC].seized_by is None
    assert any("takes control of P0: APC" in e.text for e in events)
    assert not _work(back).enemies(APC, TROOPS)


def test_p1194_crew_iii_unoccupied_is_friendly_to_all_but_can_be_engaged_in_melee() -> None:
    far = _at(_crew("Crew III", foe_at=20.0), Phase.ATTACK, 1)
    with pytest.raises(RulesError, match="friendly Unit to all players"):
        engine.check(far, Attack(FOE, (("Gun", APC),)))
    assert APC not in _targets(far, FOE).get("Gun", [])
    # in a Melee it is attacked
    melee = _at(_crew("Crew III", engaged=True), Phase.ATTACK, 1)
    hit, _ = engine.apply(melee, Attack(FOE, (("Gun", APC),)), dice=ScriptedDice([6, 6, 1, 1]))
    assert hit.units[APC].hp[0] < 10
    # Crew II: an enemy Transport like any other
    engine.check(_at(_crew("Crew II", foe_at=20.0), Phase.ATTACK, 1), Attack(FOE, (("Gun", APC),)))


# -- Wreckage (L1442) ------------------------------------------------------------------------

MECH, PILOT, GUNNER, RUNNER = 0, 1, 2, 3


def _mech(perks: list[str], phase: Phase = Phase.ATTACK, active: int = 1) -> GameState:
    """Side 0: the Mech (unit 0, one model, 1 HP, Defence 4, ``perks``, a Laser) and the Pilot
    (unit 1) far off; side 1: the Gunner (unit 2, a 2-Attack Gun at Power 4) 10" from the Mech
    and the Runner (unit 3, Move 6) 3" below it."""
    mech = entry(unit("Mech", perks=perks, weapons=[weapon("Laser")]), 200)
    pilot = entry(unit("Pilot"), 50)
    gunner = entry(unit("Gunner", weapons=[weapon("Gun", attacks=2, power=4)]))
    runner = entry(unit("Runner", weapons=[weapon("Club", range=0)]))
    return scenario(
        [[mech, pilot], [gunner, runner]],
        {MECH: [(10.0, 10.0)], PILOT: [(40.0, 40.0)], GUNNER: [(20.5, 10.0)],
         RUNNER: [(10.0, 7.0)]},
        phase=phase,
        active=active,
    )  # fmt: skip


def _wrecked(perks: list[str]) -> GameState:
    """The Gunner slays the Mech (a 4 succeeds, a 1 fails; no Saves) and the Phase ends."""
    new, _ = engine.apply(_mech(perks), Attack(GUNNER, (("Gun", MECH),)), dice=ScriptedDice([4, 1]))
    check_invariants(new)
    while new.flow.phase is Phase.ATTACK:
        new, _ = engine.apply(new, Pass())
    return new


def test_p1442_wreckage_casualty_stays_on_the_battlefield_with_1_hp_and_no_value() -> None:
    wreck = _wrecked(["Wreckage"])
    m = wreck.units[MECH]
    assert m.location is Location.TABLE and m.hp == (1,) and m.wrecked
    assert m.pos == ((10.0, 10.0),)
    assert wreck.side_values()[0] == pytest.approx(wreck.current_value(PILOT))
    assert wreck.current_value(MECH) == 0.0
    # without Wreckage the Mech is removed
    gone = _wrecked([])
    assert gone.units[MECH].location is Location.DESTROYED


def test_p1442_wreckage_is_immobile_has_no_weapons_and_acts_no_more() -> None:
    wreck = _wrecked(["Wreckage"])
    ours = _at(wreck, Phase.ATTACK, 0)
    with pytest.raises(RulesError):
        engine.check(ours, Attack(MECH, (("Laser", GUNNER),)))
    assert not list(engine.legal_actions(ours).for_unit(MECH))
    moving = _at(wreck, Phase.MOVE, 0)
    assert not list(engine.legal_actions(moving).for_unit(MECH))
    with pytest.raises(RulesError):
        engine.check(moving, Move(MECH, to=(10.0, 14.0)))


def test_p1442_wreckage_attacked_with_1_hp_and_removed_by_hp_loss() -> None:
    wreck = _at(_wrecked(["Wreckage"]), Phase.ATTACK, 1)
    assert MECH in _targets(wreck, GUNNER)["Gun"]
    hit, _ = engine.apply(wreck, Attack(GUNNER, (("Gun", MECH),)), dice=ScriptedDice([4, 1]))
    while hit.flow.phase is Phase.ATTACK:
        hit, _ = engine.apply(hit, Pass())
    assert hit.units[MECH].location is Location.DESTROYED


def test_p1442_wreckage_is_traversed_as_difficult_ground_and_in_no_melee() -> None:
    wreck = _at(_wrecked(["Wreckage"]), Phase.MOVE, 1)
    # 5.5" over the Wreckage: Difficult Ground halves the Move of 6 to 3 (§4.5)
    with pytest.raises(RulesError, match="halved by Difficult Ground"):
        engine.check(wreck, Move(RUNNER, positions=((10.0, 12.5),)))
    # 3" onto it: allowed, and no Melee with it
    new, _ = engine.apply(wreck, Move(RUNNER, positions=((10.0, 10.0),)))
    check_invariants(new)
    assert new.units[RUNNER].pos[0] == (10.0, 10.0)
    assert not _work(new).engaged_with(RUNNER)
    # 5.5" clear of it: the full Move
    engine.check(wreck, Move(RUNNER, positions=((15.5, 7.0),)))
    # the living Mech is a unit: Impassable Ground to the Runner (§4.7)
    with pytest.raises(RulesError, match="Impassable Ground"):
        engine.check(
            _at(_mech(["Wreckage"]), Phase.MOVE, 1), Move(RUNNER, positions=((10.0, 12.5),))
        )


def test_p1446_wreckage_holds_no_objective_and_keeps_no_side_in_the_game() -> None:
    """The Mech alone on side 0 stands on the Crate; the Gunner slays it; the game ends with
    the Game Turn ("only one side has units left"), Wreckage or not."""
    from warbench.rulesets.warsurge.game.terrain_control import control

    b = board().model_copy(update={"objectives": [Objective(name="Crate", at=(10.0, 10.0))]})

    def play(perks: list[str]) -> tuple[GameState, list[frozenset[int]]]:
        mech = entry(unit("Mech", perks=perks, weapons=[weapon("Laser")]), 200)
        gunner = entry(unit("Gunner", weapons=[weapon("Gun", attacks=2, power=4)]))
        s = scenario([[mech], [gunner]], {0: [(10.0, 10.0)], 1: [(20.5, 10.0)]},
                     phase=Phase.ATTACK, active=1, b=b)  # fmt: skip
        assert [h.sides for h in control(s) if h.kind == "objective"] == [frozenset({0})]
        s, _ = engine.apply(s, Attack(1, (("Gun", 0),)), dice=ScriptedDice([4, 1]))
        while s.flow.phase is Phase.ATTACK:
            s, _ = engine.apply(s, Pass())
        held = [h.sides for h in control(s) if h.kind == "objective"]
        while s.result is None:
            s, _ = engine.apply(s, Pass())
        return s, held

    wreck, held = play(["Wreckage"])
    assert wreck.units[0].wrecked and held == [frozenset()]
    assert wreck.result is not None and wreck.result.winner == 1 and wreck.result.turns == 2
    gone, _ = play([])
    assert gone.result is not None and gone.result.turns == 2


# -- random-legal games with these perks -----------------------------------------------------


def _perked(name: str, perks: list[str]) -> PlayerSetup:
    """The example roster ``name`` with ``perks`` on every unit and its Transports twice."""
    player = load_game_roster(ROSTERS / name)
    out = []
    for e in player.roster:
        profile = e.unit.profile.model_copy(update={"perks": [*e.unit.profile.perks, *perks]})
        out.append(replace(e, unit=e.unit.model_copy(update={"profile": profile})))
    out += [e for e in out if e.unit.profile.transport]
    return replace(player, roster=tuple(out))


@pytest.mark.parametrize(
    ("perks", "scripted", "advanced"),
    [
        (["Hijack", "Crew III", "Wreckage"], False, False),
        (["Hijack", "Wreckage", "Breach"], False, False),
        (["Crew III", "Hijack", "Wreckage"], True, False),
        (["Hijack", "Crew III", "Wreckage"], False, True),
    ],
)
def test_w2_transport_perks_in_random_games_keep_invariants_and_replay(
    perks: list[str], scripted: bool, advanced: bool
) -> None:
    sides = [_perked("sci_fi_humans.yaml", perks), _perked("scavengers.yaml", perks)]
    setup = build_setup(sides, Field(sample_board("open_field_42x32")), max_turns=5)
    if advanced:
        setup = replace(setup, playstyle=Playstyle.ADVANCED)
    seed = 211 + len(perks) + scripted
    play_and_replay(setup, seed, scripted)
