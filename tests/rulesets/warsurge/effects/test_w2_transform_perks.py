"""Transformation perks of session 25 wave 2 (lane w2-transform) played in a game: Incorporeal
(L2466-L2504 of Perks 000_94ecc6a4c74d351b.txt). Test names carry the rank's source line
(``L2466``), which ``warbench perks --coverage`` reads (``scripts/build_perk_coverage.py``)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.warsurge.game.helpers import check_invariants, entry, scenario, unit, weapon
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack, Move, Pass
from warbench.rulesets.warsurge.game.actions_advanced import UsePerks
from warbench.rulesets.warsurge.game.advstate import Playstyle
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.perk_incorporeal import INCORPOREAL, active, immune
from warbench.rulesets.warsurge.game.perk_stealth import may_hold
from warbench.rulesets.warsurge.game.state import (
    INCORPOREAL_TURN,
    GameState,
    Location,
    Phase,
    Status,
)
from warbench.rulesets.warsurge.game.work import Work

GUN = weapon("Gun", range=24, attacks=2, power=4)
CANNON = weapon("Cannon", range=24, attacks=3, power=10)
HEALER = weapon("Mender", range=12, attacks=1, power=4, perks=["Heal"])

GHOST, GUNNERS = 1, 0


def _duel(
    perks: tuple[str, ...] = (INCORPOREAL,),
    *,
    phase: Phase = Phase.ATTACK,
    active_side: int = 1,
    ghost_at: tuple[float, float] = (24.0, 21.0),
    engaged: tuple[tuple[int, int], ...] = (),
    gunner_perks: tuple[str, ...] = (),
    **kw: object,
) -> GameState:
    """Side 0: Gunners (unit 0) with a Cannon at (24, 10); side 1: the Ghost (unit 1, one
    model, 3 HP, Defence 1) with ``perks`` at ``ghost_at``; Game Turn 2."""
    gunners = entry(unit("Gunners", hp=3, perks=list(gunner_perks), weapons=[CANNON]))
    ghost = entry(unit("Ghost", hp=3, defence=1, perks=list(perks), weapons=[CANNON, HEALER]))
    return scenario(
        [[gunners], [ghost]],
        {GUNNERS: [(24.0, 10.0)], GHOST: [ghost_at]},
        phase=phase,
        active=active_side,
        engaged=engaged,
        **kw,
    )


def _vanish(state: GameState, uid: int = GHOST) -> tuple[GameState, list[str]]:
    state, events = engine.apply(state, UsePerks(uid, ("Incorporeal: on",)))
    check_invariants(state)
    return state, [e.text for e in events]


def _pass_to(state: GameState, side: int) -> GameState:
    while state.flow.active != side:
        state, _ = engine.apply(state, Pass())
    return state


def test_p2466_incorporeal_cannot_be_targeted_by_any_unit() -> None:
    state, texts = _vanish(_duel())
    assert active(state, GHOST)
    assert state.units[GHOST].used(INCORPOREAL)
    assert any("becomes Incorporeal" in t for t in texts)
    state = _pass_to(state, GUNNERS)
    with pytest.raises(RulesError, match="Incorporeal: it cannot be Targeted"):
        engine.apply(state, Attack(GUNNERS, (("Cannon", GHOST),)))
    # without it the Cannon shoots the Ghost
    plain = _pass_to(_duel(()), GUNNERS)
    plain, _ = engine.apply(plain, Attack(GUNNERS, (("Cannon", GHOST),)))
    assert plain.units[GHOST].current_hp < 3


def test_p2466_incorporeal_limited_use_once_a_game() -> None:
    state, _ = _vanish(_duel())
    with pytest.raises(RulesError, match="already Incorporeal"):
        engine.apply(state, UsePerks(GHOST, ("Incorporeal: on",)))
    move = _duel(phase=Phase.MOVE)
    move, _ = _vanish(move)
    move, _ = engine.apply(move, UsePerks(GHOST, ("Incorporeal: off",)))
    assert not active(move, GHOST)
    with pytest.raises(RulesError, match=r"Limited Use \(1\)"):
        engine.apply(move, UsePerks(GHOST, ("Incorporeal: on",)))


def test_p2470_incorporeal_uses_no_weapon_but_to_heal_itself_or_hit_an_incorporeal() -> None:
    state, _ = _vanish(_duel())
    with pytest.raises(RulesError, match="cannot use any Weapons other than to Heal itself"):
        engine.apply(state, Attack(GHOST, (("Cannon", GUNNERS),)))
    # "Other Units with Incorporeal active can Target other Incorporeal Units" (L2490)
    both = _duel(gunner_perks=(INCORPOREAL,))
    both, _ = _vanish(both)
    both = _pass_to(both, GUNNERS)
    both, _ = _vanish(both, GUNNERS)
    both, _ = engine.apply(both, Attack(GUNNERS, (("Cannon", GHOST),)))
    assert both.units[GHOST].current_hp < 3
    w = Work(both, None, DEFAULT_HOOKS)
    from warbench.rulesets.warsurge.game.perk_limits import target_refusal

    assert target_refusal(w, GHOST, "Mender", GHOST) is None  # "to Heal itself"
    solo, _ = _vanish(_duel())
    ws = Work(solo, None, DEFAULT_HOOKS)
    assert target_refusal(ws, GHOST, "Mender", GHOST) is None
    assert target_refusal(ws, GUNNERS, "Cannon", GHOST) is not None


def test_p2468_incorporeal_removes_negative_perk_effects() -> None:
    state = _duel()
    units = list(state.units)
    units[GHOST] = replace(
        units[GHOST],
        statuses=(
            Status("Burn", 2, f"u{GUNNERS}/Cannon"),  # an enemy's Affliction
            Status("Slowed", 1, f"u{GUNNERS}/Snare"),  # an enemy's perk
            Status("Stealth", 1, f"u{GHOST}/Stealth"),  # its own
        ),
    )
    state = replace(state, units=tuple(units))
    state, texts = _vanish(state)
    names = {s.name for s in state.units[GHOST].statuses}
    assert names == {"Stealth", INCORPOREAL}
    assert any("Burn, Slowed removed" in t for t in texts)


def test_p2472_incorporeal_leaves_its_melee_at_once() -> None:
    state = _duel(ghost_at=(24.0, 11.05), engaged=((GUNNERS, GHOST),))
    state, texts = _vanish(state)
    assert not state.engaged
    assert any("leaves the Melee with" in t for t in texts)
    plain = _duel((), ghost_at=(24.0, 11.05), engaged=((GUNNERS, GHOST),))
    assert plain.engaged


def test_p2474_incorporeal_moves_through_units_and_they_through_it() -> None:
    # the Ghost at (24, 8) moves north to (24, 12) through the Gunners at (24, 10)
    through = ((24.0, 12.0),)
    plain = _duel((), phase=Phase.MOVE, ghost_at=(24.0, 8.0))
    with pytest.raises(RulesError, match="cannot move through"):
        engine.apply(plain, Move(GHOST, positions=through))
    state, _ = _vanish(_duel(phase=Phase.MOVE, ghost_at=(24.0, 8.0)))
    state, _ = engine.apply(state, Move(GHOST, positions=through))
    check_invariants(state)
    assert state.units[GHOST].pos[0] == (24.0, 12.0)
    # "other Units can pass through the User": the Gunners go through the Ghost
    state = _pass_to(state, GUNNERS)
    state, _ = engine.apply(state, Move(GUNNERS, positions=((24.0, 14.0),)))
    assert state.units[GUNNERS].pos[0] == (24.0, 14.0)
    # but no model may end on a base
    with pytest.raises(RulesError, match="overlap"):
        engine.apply(
            _vanish(_duel(phase=Phase.MOVE, ghost_at=(24.0, 8.0)))[0],
            Move(GHOST, positions=((24.0, 10.2),)),
        )


def test_p2476_incorporeal_base_contact_starts_no_melee() -> None:
    state, _ = _vanish(_duel(phase=Phase.MOVE, ghost_at=(24.0, 14.0)))
    state, _ = engine.apply(state, Move(GHOST, positions=((24.0, 11.02),)))
    assert not state.engaged
    plain = _duel((), phase=Phase.MOVE, ghost_at=(24.0, 14.0))
    plain, _ = engine.apply(plain, Move(GHOST, positions=((24.0, 11.02),)))
    assert plain.engaged == frozenset({(GUNNERS, GHOST)})


def test_p2469_incorporeal_holds_no_objective_and_is_immune_to_damage() -> None:
    state, _ = _vanish(_duel())
    assert not may_hold(state, GHOST)
    assert may_hold(_duel(), GHOST)
    w = Work(state, None, DEFAULT_HOOKS)
    assert immune(w, GHOST, None)  # Dangerous Ground
    assert immune(w, GHOST, GUNNERS)  # an enemy's Template
    assert not immune(w, GHOST, GHOST)  # "except if self-inflicted by Perks"
    assert not immune(w, GUNNERS, GHOST)


def test_p2478_incorporeal_deactivated_only_in_the_move_or_dash_phase() -> None:
    state, _ = _vanish(_duel())  # Attack Phase
    with pytest.raises(RulesError, match="Move or Dash"):
        engine.apply(state, UsePerks(GHOST, ("Incorporeal: off",)))
    move, _ = _vanish(_duel(phase=Phase.MOVE))
    move, events = engine.apply(move, UsePerks(GHOST, ("Incorporeal: off",)))
    assert not active(move, GHOST)
    assert any("no longer Incorporeal" in e.text for e in events)
    assert move.units[GHOST].counter(INCORPOREAL_TURN) == move.flow.turn


def _to_turn_end(state: GameState) -> GameState:
    turn = state.flow.turn
    while state.flow.turn == turn and not state.over:
        state, _ = engine.apply(state, Pass())
        check_invariants(state)
    return state


def test_p2480_incorporeal_its_game_turns_do_not_count_for_improving_perks() -> None:
    from warbench.rulesets.warsurge.game.perk_turn import ARRIVED

    state = _duel((INCORPOREAL, "Powered by Pain"))
    units = list(state.units)
    units[GHOST] = units[GHOST].with_counter(ARRIVED, 2)  # arrived this Game Turn (2)
    state = replace(state, units=tuple(units))
    plain = state
    state, _ = _vanish(state)
    state = _to_turn_end(state)
    assert state.flow.turn == 3
    assert state.units[GHOST].counter(ARRIVED) == 3  # Game Turn 2 did not count
    assert state.units[GHOST].counter(INCORPOREAL_TURN) == 3  # still Incorporeal in turn 3
    # Powered by Pain's 2nd Game Turn bonus is not there yet; without Incorporeal it is
    assert not any("Powered by Pain" in s.name for s in state.units[GHOST].statuses)
    plain = _to_turn_end(plain)
    assert plain.units[GHOST].counter(ARRIVED) == 2
    assert any("Powered by Pain" in s.name for s in plain.units[GHOST].statuses)


def test_p2502_incorporeal_counts_as_destroyed_in_the_final_game_turn() -> None:
    state, _ = _vanish(_duel(game_length=4, turn=4))
    state = _to_turn_end(state)
    assert state.over and state.result is not None
    assert state.result.values[1] == 0.0  # the Ghost counts as destroyed
    assert state.result.winner == 0
    plain = _to_turn_end(_duel((), game_length=4, turn=4))
    assert plain.result is not None and plain.result.values[1] > 0.0


def _carried(apc_perks: tuple[str, ...], crew_perks: tuple[str, ...]) -> GameState:
    """Side 0: an APC (unit 0, 3" base, Transport 150) with ``apc_perks`` carrying Shades
    (unit 1: two models with ``crew_perks``); side 1: a Foe (unit 2) far away; Attack Phase of
    side 0, Game Turn 2."""
    apc = unit("APC", move=10, dash=10, hp=10, transport=150, perks=list(apc_perks))
    crew = unit("Shades", models=2, perks=list(crew_perks), weapons=[GUN])
    foe = unit("Foe", hp=10, weapons=[GUN])
    state = scenario(
        [[entry(apc, 180, base_mm=76.2), entry(crew, 120)], [entry(foe)]],
        {0: [(10.0, 10.0)], 2: [(40.0, 40.0)]},
        phase=Phase.ATTACK,
        active=0,
    )
    units = list(state.units)
    units[1] = replace(units[1], location=Location.EMBARKED, embarked_in=0)
    return replace(state, units=tuple(units))


def test_p2498_incorporeal_passengers_disembark_in_base_contact_with_the_transport() -> None:
    state, texts = _vanish(_carried((), (INCORPOREAL,)), 1)
    shades = state.units[1]
    assert shades.location is Location.TABLE and shades.embarked_in is None
    assert active(state, 1)
    w = Work(state, None, DEFAULT_HOOKS)
    assert w.gap(0, 1) <= 0.06  # in base contact with the APC
    assert any("disembarks from" in t and "APC" in t for t in texts)
    # the Transport's own activation puts its passengers out too
    state, _ = _vanish(_carried((INCORPOREAL,), ()), 0)
    assert state.units[1].location is Location.TABLE and not active(state, 1)
    assert Work(state, None, DEFAULT_HOOKS).gap(0, 1) <= 0.06


def test_p2500_incorporeal_transport_and_passenger_with_it_activate_together() -> None:
    state, texts = _vanish(_carried((INCORPOREAL,), (INCORPOREAL,)), 1)
    assert active(state, 0) and active(state, 1)
    assert state.units[0].used(INCORPOREAL) and state.units[1].used(INCORPOREAL)
    assert state.units[1].location is Location.EMBARKED  # "avoiding disembarking"
    assert not any("disembarks" in t for t in texts)


# -- Doppelganger I/II (L2386-L2416) -------------------------------------------------------------

MIMIC, ALLY, BRUTES, TITAN = 0, 1, 2, 3
CLAW = weapon("Claw", range=2, attacks=3, power=6, type="Battle")


def _mimicry(rank: str = "Doppelganger I", *, phase: Phase = Phase.MOVE) -> GameState:
    """Side 0: the Mimic (unit 0, one model of 2 HP, Move 6, ``rank``, 100 pts) at (24, 10) and
    an Ally (unit 1, 50 pts) at (10, 10); side 1: Brutes (unit 2, two models of 3 HP, Move 4,
    Defence 6, Fearless, a Claw, 80 pts) at (24, 20) and a Titan (unit 3, 500 pts) at
    (30, 20). Game Turn 2, side 0 acting."""
    mimic = entry(unit("Mimic", hp=2, perks=[rank], weapons=[GUN]), 100)
    ally = entry(unit("Ally", weapons=[GUN]), 50)
    brutes = entry(
        unit(
            "Brutes", models=2, hp=3, move=4, dash=4, defence=6, perks=["Fearless"], weapons=[CLAW]
        ),
        80,
    )
    titan = entry(unit("Titan", hp=10, weapons=[CANNON]), 500)
    return scenario(
        [[mimic, ally], [brutes, titan]],
        {
            MIMIC: [(24.0, 10.0)],
            ALLY: [(10.0, 10.0)],
            BRUTES: [(24.0, 20.0), (25.5, 20.0)],
            TITAN: [(30.0, 20.0)],
        },
        phase=phase,
    )


def _form(state: GameState, target: int) -> int:
    from warbench.rulesets.warsurge.game.perk_doppel_units import copies

    return copies(state.setup)[MIMIC][target]


def test_p2386_doppelganger_I_becomes_a_copy_of_the_target() -> None:
    state = _mimicry()
    # the Brutes lose a model's HP first: "HP in the Target's current state"
    units = list(state.units)
    units[BRUTES] = replace(units[BRUTES], hp=(3, 1))
    state = replace(state, units=tuple(units))
    state, events = engine.apply(state, UsePerks(MIMIC, (f"Doppelganger I: {BRUTES}",)))
    check_invariants(state)
    new = _form(state, BRUTES)
    form, info = state.units[new], state.info(new)
    assert state.units[MIMIC].location is Location.DESTROYED  # the User is held
    assert form.location is Location.TABLE and form.hp == (3, 1)
    assert info.side == 0 and info.unit.profile.defence == 6 and info.unit.profile.move == 4
    assert [w.name for w in info.unit.weapons] == ["Claw"]
    assert {"Fearless", "Doppelganger I"} <= set(info.unit.profile.perks)  # retains it
    assert form.pos[0] == (24.0, 10.0)  # where the Mimic stood
    assert Work(state, None, DEFAULT_HOOKS).enemies(new, BRUTES)  # "remains as an enemy"
    assert any("becomes a copy of" in e.text for e in events)
    # Limited Use (1), and "cannot discard their new form"
    with pytest.raises(RulesError):
        engine.apply(state, UsePerks(new, (f"Doppelganger I: {ALLY}",)))
    # its side's value is the copy's Current Point Cost now (80 pts at 4 of 6 HP)
    assert state.side_values()[0] == pytest.approx(50 + 80 * 4 / 6)


def test_p2386_doppelganger_I_target_cheaper_within_18_and_not_after_its_weapons() -> None:
    state = _mimicry()
    with pytest.raises(RulesError, match="worth more"):
        engine.apply(state, UsePerks(MIMIC, (f"Doppelganger I: {TITAN}",)))
    far = _mimicry()
    units = list(far.units)
    units[BRUTES] = replace(units[BRUTES], pos=((24.0, 40.0), (25.5, 40.0)))
    far = replace(far, units=tuple(units))
    with pytest.raises(RulesError, match='within 18"'):
        engine.apply(far, UsePerks(MIMIC, (f"Doppelganger I: {BRUTES}",)))
    # "cannot activate Doppelganger if they used their own Weapons in the same Game Turn"
    shot = _mimicry(phase=Phase.ATTACK)
    shot, _ = engine.apply(shot, Attack(MIMIC, (("Gun", BRUTES),)))
    shot = _pass_to(shot, 0)
    with pytest.raises(RulesError, match="used its own Weapons"):
        engine.apply(shot, UsePerks(MIMIC, (f"Doppelganger I: {BRUTES}",)))
    # the options listed: the Brutes and the Ally, not the Titan
    from warbench.rulesets.warsurge.game.perk_hooks import usable_perks

    listed = usable_perks(Work(_mimicry(), None, DEFAULT_HOOKS), MIMIC)
    assert listed == [f"Doppelganger I: {ALLY}", f"Doppelganger I: {BRUTES}"]


def test_p2406_doppelganger_II_copies_again_each_game_turn() -> None:
    state = _mimicry("Doppelganger II")
    state, _ = engine.apply(state, UsePerks(MIMIC, (f"Doppelganger II: {BRUTES}",)))
    brutes_form = _form(state, BRUTES)
    with pytest.raises(RulesError, match="this Game Turn"):
        engine.apply(state, UsePerks(brutes_form, (f"Doppelganger II: {ALLY}",)))
    state = _to_turn_end(state)
    state = replace(state, flow=replace(state.flow, phase=Phase.MOVE, active=0))
    state, _ = engine.apply(state, UsePerks(brutes_form, (f"Doppelganger II: {ALLY}",)))
    check_invariants(state)
    ally_form = _form(state, ALLY)
    assert state.units[brutes_form].location is Location.DESTROYED
    assert state.units[ally_form].location is Location.TABLE
    assert "Doppelganger II" in state.info(ally_form).unit.profile.perks
    assert state.info(ally_form).unit.weapons[0].name == "Gun"


def test_p2386_doppelganger_forms_are_held_from_the_first_game_turn() -> None:
    from warbench.rulesets.warsurge.game.perk_doppelganger import hold_copies

    state = _mimicry()
    assert len(state.setup.units) == 4 + 3  # the Mimic's three forms
    w = Work(state, None, DEFAULT_HOOKS)
    hold_copies(w, 1)
    after = w.state()
    assert all(after.units[_form(state, t)].location is Location.DESTROYED for t in (1, 2, 3))
    assert after.side_values() == state.side_values()
    plain = _mimicry("Fearless")
    assert len(plain.setup.units) == 4


# -- random-legal games with the ranks (invariants, replay) -------------------------------------


@pytest.mark.parametrize("seed", [3, 8])
def test_p2386_p2406_p2466_random_legal_games_with_the_ranks_keep_invariants(seed: int) -> None:
    """Every unit of both rosters has Incorporeal, Doppelganger I or Doppelganger II; the
    players decide every perk use (no ``perk use`` automation)."""
    from tests.rulesets.warsurge.effects.test_perk_heavy_games import play_checked
    from tests.warsurge.game.helpers import ROSTERS
    from warbench.rulesets.warsurge.battlefield import sample_board
    from warbench.rulesets.warsurge.game.geom import Field
    from warbench.rulesets.warsurge.game.io import load_game_roster
    from warbench.rulesets.warsurge.game.state import ALL_AUTOMATIONS, Automation, build_setup

    sets = [["Incorporeal", "Tough"], ["Doppelganger I", "Dodge"], ["Doppelganger II"]]
    players = []
    for i, name in enumerate(("skirmish_a.yaml", "skirmish_b.yaml")):
        p = load_game_roster(ROSTERS / name)
        roster = tuple(
            replace(
                e,
                unit=e.unit.model_copy(
                    update={
                        "profile": e.unit.profile.model_copy(
                            update={"perks": sets[(i + k) % len(sets)]}
                        )
                    }
                ),
            )
            for k, e in enumerate(p.roster)
        )
        players.append(replace(p, roster=roster))
    setup = build_setup(
        players,
        Field(sample_board("open_field_42x32")),
        max_turns=5,
        automation=ALL_AUTOMATIONS - {Automation.PERK_USE},
    )
    assert len(setup.units) > sum(len(p.roster) for p in players)  # the forms
    steps, _ = play_checked(setup, seed=seed)
    assert steps > 0


def test_p2467_incorporeal_takes_nothing_from_a_template_over_it() -> None:
    """A Blast I centred on a Foe covers a friendly unit 1.5" away (Perks L3321): Incorporeal,
    that unit takes no Attack Dice ("immune to all damage"); otherwise it takes one."""
    from tests.rulesets.warsurge.effects.test_mode_templates import (
        FOE_ROW,
        FRIEND_NEAR,
        SIXES,
        _attack,
        _dice,
        _state,
    )

    foe, friend = 2, 1
    state = _state(["Blast I"], [FOE_ROW], [FRIEND_NEAR])
    units = list(state.units)
    units[friend] = replace(
        units[friend], statuses=(Status(INCORPOREAL, None, f"u{friend}/{INCORPOREAL}"),)
    )
    ghostly = replace(state, units=tuple(units))
    after, events = _attack(ghostly, foe, [1, 3, 4, *SIXES])
    assert _dice(events) == {foe: 2}
    assert after.units[friend].hp == ghostly.units[friend].hp
    assert any("is Incorporeal" in e.text and "does nothing" in e.text for e in events)
    _, plain = _attack(state, foe, [1, 3, 4, *SIXES])
    assert _dice(plain) == {foe: 2, friend: 1}


def test_p2467_incorporeal_friend_is_not_struck_by_furious_failed_dice() -> None:
    """Furious (L2003) sends failed Attack Dice at the closest friendly unit within 6": an
    Incorporeal friend is immune, so they strike the User itself."""
    from warbench.rulesets.warsurge.game.perk_furious import fury_target

    fury = entry(unit("Berserker", perks=["Furious"], weapons=[GUN]))
    ghost = entry(unit("Ghost", perks=[INCORPOREAL], weapons=[GUN]))
    foe = entry(unit("Foe", weapons=[GUN]))
    state = scenario(
        [[fury, ghost], [foe]], {0: [(24.0, 10.0)], 1: [(24.0, 12.0)], 2: [(24.0, 40.0)]}
    )
    assert fury_target(Work(state, None, DEFAULT_HOOKS), 0) == 1
    units = list(state.units)
    units[1] = replace(units[1], statuses=(Status(INCORPOREAL, None, f"u1/{INCORPOREAL}"),))
    state = replace(state, units=tuple(units))
    assert fury_target(Work(state, None, DEFAULT_HOOKS), 0) == 0


def test_p2406_doppelganger_II_in_advanced_games_at_every_use_perks_action() -> None:
    """ "Advanced Games: The User may copy a Unit every time it selects the 'Use Perks'
    Action": a second copy in the same Game Turn is refused only in the Standard playstyle."""
    from warbench.rulesets.warsurge.game.perk_doppelganger import refused

    def again(playstyle: str) -> str | None:
        state = _mimicry("Doppelganger II")
        if playstyle == "advanced":
            setup = replace(state.setup, playstyle=Playstyle.ADVANCED)
            state = replace(state, setup=setup, flow=replace(state.flow, phase=Phase.ACTIONS))
        units = list(state.units)
        units[MIMIC] = units[MIMIC].with_counter("used Doppelganger II", state.flow.turn)
        state = replace(state, units=tuple(units))
        return refused(Work(state, None, DEFAULT_HOOKS), MIMIC, "Doppelganger II", str(BRUTES))

    why = again("standard")
    assert why is not None and "this Game Turn" in why
    assert again("advanced") is None
