"""Transformation perks of session 25 (lane s25-transform) played in a game: Ascension I-III
(L2368-L2374) and Descend I-III (L2376-L2384) of Perks 000_94ecc6a4c74d351b.txt. Test names
carry the rank's source line (``p2368`` …), which ``warbench perks --coverage`` reads
(``scripts/build_perk_coverage.py``)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.rulesets.warsurge.effects.play_helpers import set_hp, to_turn_end
from tests.warsurge.game.helpers import check_invariants, entry, scenario, unit, weapon
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.attack import AttackContext
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Deploy, Move, Pass
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.state import (
    HP_DOUBLED,
    GameState,
    Location,
    Phase,
    model_max_hp,
    unit_max_hp,
)
from warbench.rulesets.warsurge.game.work import Work, to_unit_state
from warbench.rulesets.warsurge.odds import AttackOdds, AttackPlan, exact_attack

GUN = weapon("Gun", range=24, attacks=2, power=4)


def _pair(perks: tuple[str, ...], *, phase: Phase, deployed: bool, hp: int = 3) -> GameState:
    """Side 0: a Champion (1 model, ``hp`` HP, Armour 4+, AEGIS 5+) with ``perks``, on the table
    at (24, 6) or in Reserve; side 1: Raiders on the table, far away; Game Turn 2, side 0
    acting."""
    champ = entry(unit("Champion", hp=hp, armour=4, aegis=5, perks=list(perks), weapons=[GUN]))
    raiders = entry(unit("Raiders", hp=2, models=2, weapons=[GUN]))
    positions = {1: [(10.0, 44.0), (11.5, 44.0)]}
    if deployed:
        positions[0] = [(24.0, 6.0)]
    return scenario([[champ], [raiders]], positions, phase=phase)


def _profile(state: GameState, uid: int) -> tuple[int, list[str]]:
    st = to_unit_state(Work(state, None, DEFAULT_HOOKS), uid)
    return st.profile.defence, list(st.profile.perks)


# -- Descend I-III (L2376-L2384) ------------------------------------------------------------------

DESCEND = [
    pytest.param("Descend I", 1, id="p2376-Descend I"),
    pytest.param("Descend II", 2, id="p2382-Descend II"),
    pytest.param("Descend III", 3, id="p2384-Descend III"),
]


@pytest.mark.parametrize(("rank", "turns"), DESCEND)
def test_descend_doubles_on_first_deploy_for_its_game_turns_then_halves_hp(
    rank: str, turns: int
) -> None:
    state = _pair((rank,), phase=Phase.DEPLOY, deployed=False)
    state, events = engine.apply(state, Deploy(0, at=(24.0, 6.0)))
    check_invariants(state)
    champ = state.units[0]
    assert champ.location is Location.TABLE
    assert champ.hp == (6,)  # L2376 "doubles its … current and max HP"
    assert model_max_hp(state.info(0), champ) == 6
    assert state.current_value(0) == pytest.approx(state.info(0).value)  # full HP still
    defence, perks = _profile(state, 0)
    assert defence == 8  # Defence 4 doubled
    assert {"Reinforced", "Resilient"} <= set(perks)  # "can reroll failed Saves"
    assert any(e.kind == "perk" and rank in e.text for e in events)
    state = set_hp(state, 0, (5,))  # it lost 1 HP of its 6
    for k in range(1, turns):
        state, _ = to_turn_end(state)
        assert state.units[0].hp == (5,), f"still Descended after {k} Game Turns"
        assert _profile(state, 0)[0] == 8
    state, events = to_turn_end(state)
    champ = state.units[0]
    # "these Stats are returned to normal, but current HP is halved, rounding up": 5 -> 3
    assert champ.hp == (3,)
    assert model_max_hp(state.info(0), champ) == 3
    assert champ.counter(HP_DOUBLED) == 0
    defence, perks = _profile(state, 0)
    assert defence == 4 and "Reinforced" not in perks
    assert any(e.kind == "perk" and f"{rank} ends" in e.text for e in events)


def test_p2376_descend_only_on_the_first_deploy_and_not_without_it() -> None:
    plain = _pair((), phase=Phase.DEPLOY, deployed=False)
    plain, _ = engine.apply(plain, Deploy(0, at=(24.0, 6.0)))
    assert plain.units[0].hp == (3,) and _profile(plain, 0)[0] == 4
    # deployed again later (back from Reserve): no second Descend
    state = _pair(("Descend I",), phase=Phase.DEPLOY, deployed=False)
    state, _ = engine.apply(state, Deploy(0, at=(24.0, 6.0)))
    state, _ = to_turn_end(state)
    units = list(state.units)
    units[0] = replace(units[0], location=Location.RESERVE, pos=())
    state = replace(state, units=tuple(units), flow=replace(state.flow, phase=Phase.DEPLOY))
    state = replace(state, flow=replace(state.flow, active=0, passed=frozenset()))
    state, _ = engine.apply(state, Deploy(0, at=(24.0, 6.0)))
    assert state.units[0].hp == (3,)
    assert not any(s.name == "Descend" for s in state.units[0].statuses)


def test_p2376_descend_halves_each_model_rounding_up() -> None:
    """Three models of 2 HP Descend to 4 HP each; at 4, 3 and 1 HP when it ends they keep 2, 2
    and 1 (each model's HP halved, rounding up: docs/rulings.md s25-transform 2)."""
    troop = entry(unit("Troop", hp=2, models=3, perks=["Descend I"]))
    raiders = entry(unit("Raiders", hp=2, weapons=[GUN]))
    state = scenario([[troop], [raiders]], {1: [(10.0, 44.0)]}, phase=Phase.DEPLOY)
    state, _ = engine.apply(state, Deploy(0, at=(24.0, 6.0)))
    assert state.units[0].hp == (4, 4, 4)
    state = set_hp(state, 0, (4, 3, 1))
    state, _ = to_turn_end(state)
    assert state.units[0].hp == (2, 2, 1)


def test_p2376_descend_doubles_move_in_the_game() -> None:
    """A Move toward a point 10" away reaches it while Descended (Move 6 doubled to 12); without
    Descend the Champion stops at 6"."""
    state = _pair(("Descend I",), phase=Phase.DEPLOY, deployed=False)
    state, _ = engine.apply(state, Deploy(0, at=(24.0, 6.0)))
    state = replace(state, flow=replace(state.flow, phase=Phase.MOVE, active=0, passed=frozenset()))
    moved, _ = engine.apply(state, Move(0, to=(24.0, 16.0)))
    assert moved.units[0].pos[0] == pytest.approx((24.0, 16.0))
    plain = _pair((), phase=Phase.MOVE, deployed=True)
    short, _ = engine.apply(plain, Move(0, to=(24.0, 16.0)))
    assert short.units[0].pos[0][1] == pytest.approx(12.0, abs=0.05)


def test_p2376_descend_rerolls_failed_saves_in_the_exact_odds() -> None:
    """The Descended Champion (Defence 8, Armour and AEGIS rerolled) loses less to the Raiders'
    Guns than the plain one, by the exact distribution the game's profile gives."""
    state = _pair(("Descend I",), phase=Phase.DEPLOY, deployed=False)
    state, _ = engine.apply(state, Deploy(0, at=(24.0, 6.0)))
    plain = _pair((), phase=Phase.ATTACK, deployed=True)

    def odds(s: GameState) -> AttackOdds:
        w = Work(s, None, DEFAULT_HOOKS)
        return exact_attack(AttackPlan(to_unit_state(w, 1), to_unit_state(w, 0), AttackContext()))

    descended, normal = odds(state), odds(plain)
    assert any("failed Saves are rerolled (Reinforced, Resilient)" in n for n in descended.notes)
    assert not any("rerolled" in n for n in normal.notes)
    assert 0 < descended.expected_hp_lost < normal.expected_hp_lost


# -- Ascension I-III (L2368-L2374) ----------------------------------------------------------------

ASCENSION = [
    pytest.param("Ascension I", 3, id="p2368-Ascension I"),
    pytest.param("Ascension II", 2, id="p2372-Ascension II"),
    pytest.param("Ascension III", 1, id="p2374-Ascension III"),
]


@pytest.mark.parametrize(("rank", "turns"), ASCENSION)
def test_ascension_after_its_game_turns_on_the_battlefield_for_the_rest_of_the_game(
    rank: str, turns: int
) -> None:
    state = _pair((rank,), phase=Phase.MOVE, deployed=True)
    state = set_hp(state, 0, (2,))  # 2 of 3 HP
    for k in range(1, turns):
        state, _ = to_turn_end(state)
        assert state.units[0].hp == (2,), f"not yet after {k} Game Turns"
        assert _profile(state, 0)[0] == 4
    state, events = to_turn_end(state)
    champ = state.units[0]
    assert champ.hp == (4,)  # current HP doubled
    assert unit_max_hp(state.info(0), champ) == 6  # and max HP
    defence, perks = _profile(state, 0)
    assert defence == 8 and {"Reinforced", "Resilient"} <= set(perks)
    assert any(e.kind == "perk" and rank in e.text for e in events)
    # for the rest of the game: another Game Turn leaves it so
    state, _ = to_turn_end(state)
    assert state.units[0].hp == (4,) and _profile(state, 0)[0] == 8
    assert state.units[0].counter(HP_DOUBLED) == 1


def test_p2374_ascension_does_not_count_game_turns_in_reserve() -> None:
    state = _pair(("Ascension III",), phase=Phase.MOVE, deployed=False)
    state, _ = to_turn_end(state)
    assert state.units[0].location is Location.RESERVE
    assert state.units[0].hp == (3,) and not state.units[0].statuses


def test_p2374_ascension_raises_what_recover_may_restore() -> None:
    """After Ascension the unit's maximum is doubled: HP restored may reach 6, not 3."""
    from warbench.rulesets.warsurge.game.perk_turn import restore_hp

    state = _pair(("Ascension III",), phase=Phase.MOVE, deployed=True)
    state, _ = to_turn_end(state)
    state = set_hp(state, 0, (1,))
    w = Work(state, None, DEFAULT_HOOKS)
    assert restore_hp(w, 0, 10) == 5
    assert w.units[0].hp == (6,)
    plain = Work(set_hp(_pair((), phase=Phase.MOVE, deployed=True), 0, (1,)), None, DEFAULT_HOOKS)
    assert restore_hp(plain, 0, 10) == 2


# -- Eternal (Defensive, L1511) -------------------------------------------------------------------

CANNON = weapon("Cannon", range=24, attacks=3, power=10, type="Assault")


def _duel(perks: tuple[str, ...], hp: int = 1) -> GameState:
    """Side 0: Gunners with a Cannon (Power 10, automatic damage) 10" from side 1's Immortal
    (one model, ``hp`` HP, Defence 1, no Saves) with ``perks``; side 0's Attack Phase."""
    gunners = entry(unit("Gunners", weapons=[CANNON]))
    target = entry(unit("Immortal", hp=hp, defence=1, perks=list(perks), weapons=[GUN]))
    return scenario(
        [[gunners], [target]], {0: [(24.0, 10.0)], 1: [(24.0, 21.0)]}, phase=Phase.ATTACK
    )


def test_p1511_eternal_unit_at_0_hp_is_not_a_casualty_until_the_turn_ends() -> None:
    from warbench.rulesets.warsurge.game.actions import Attack

    state, events = engine.apply(_duel(("Eternal",)), Attack(0, (("Cannon", 1),)))
    check_invariants(state)
    kept = state.units[1]
    assert kept.location is Location.TABLE and kept.living()  # "able to make actions"
    assert any(e.kind == "perk" and "Eternal" in e.text for e in events)
    state, events = to_turn_end(state)  # no HP recovered: a casualty at the end of the turn
    assert state.units[1].location is Location.DESTROYED
    assert any(e.kind == "perk" and "Eternal ends, tally 0 HP" in e.text for e in events)
    # without Eternal the same Attack leaves a casualty removed at the end of the Attack Phase
    plain, _ = engine.apply(_duel(()), Attack(0, (("Cannon", 1),)))
    assert not plain.units[1].living()
    plain, _ = engine.apply(plain, Pass())
    plain, _ = engine.apply(plain, Pass())
    assert plain.units[1].location is Location.DESTROYED


def _eternal_work(hp: int) -> Work:
    """The Immortal (``hp`` HP, Eternal) has just lost all its HP to Burn (``lose_hp``)."""
    from warbench.rulesets.warsurge.game.perk_turn import lose_hp

    w = Work(_duel(("Eternal",), hp=hp), None, DEFAULT_HOOKS)
    lose_hp(w, 1, hp, "Burn", "test")
    return w


def _end(w: Work) -> GameState:
    from warbench.rulesets.warsurge.game.perk_eternal import eternal_at_turn_end

    eternal_at_turn_end(w, w.flow.turn)
    return w.state()


def test_p1511_eternal_recovered_to_1_hp_by_the_end_of_the_turn_survives() -> None:
    from warbench.rulesets.warsurge.game.perk_eternal import tally
    from warbench.rulesets.warsurge.game.perk_turn import restore_hp

    w = _eternal_work(3)
    assert w.units[1].living() and tally(w, 1) == 0
    assert w.state().current_value(1) == 0.0  # its Current Point Cost reads the tally
    assert restore_hp(w, 1, 1) == 1  # Recover, Heal …
    assert w.state().current_value(1) == pytest.approx(100 / 3)
    state = _end(w)
    assert state.units[1].hp == (1,) and state.units[1].location is Location.TABLE
    assert model_max_hp(state.info(1), state.units[1]) == 3  # the maximum is normal again
    check_invariants(state)


def test_p1511_eternal_keeps_a_tally_into_the_negative() -> None:
    """At 0 HP it loses 2 more (tally -2): 2 HP restored bring it back to 0, a casualty; 3 bring
    it to 1 HP, and it stands."""
    from warbench.rulesets.warsurge.game.perk_eternal import tally
    from warbench.rulesets.warsurge.game.perk_turn import lose_hp, restore_hp

    for restored, standing in ((2, False), (3, True)):
        w = _eternal_work(3)
        lose_hp(w, 1, 2, "Poison", "test")
        assert tally(w, 1) == -2 and w.units[1].living()
        restore_hp(w, 1, restored)
        state = _end(w)
        assert (state.units[1].location is Location.TABLE) is standing
        if standing:
            assert state.units[1].hp == (1,)


def test_p1511_eternal_is_used_once_per_game() -> None:
    from warbench.rulesets.warsurge.game.perk_turn import lose_hp, restore_hp

    w = _eternal_work(2)
    restore_hp(w, 1, 2)
    state = _end(w)
    assert state.units[1].hp == (2,)
    w = Work(state, None, DEFAULT_HOOKS)
    lose_hp(w, 1, 2, "Burn", "test")  # Limited Use (1): a casualty at once now
    assert w.units[1].location is Location.DESTROYED


# -- Form I-III (L2418-L2440, Linked Profiles §12.2 L299) -----------------------------------------

SWORD = weapon("Sword", range=0, attacks=2, power=5, type="Battle")
BREATH = weapon("Breath", range=12, attacks=3, power=6)


def _forms(rank: str, n: int, *, points: tuple[int, ...] = (), hp: int = 4) -> GameState:
    """Side 0: ``n`` linked profiles ``Form 0`` … (one model, ``hp`` HP each except as given,
    ``rank``), the first on the table at (24, 10) and the others held (as the first Game Turn
    starts); side 1: Raiders at (24, 40). Side 0's Move Phase of Game Turn 2."""
    from warbench.rulesets.warsurge.game.perk_form import hold_linked

    costs = points or tuple(100 + k for k in range(n))
    forms = [
        entry(unit(f"Form {k}", hp=hp, perks=[rank], weapons=[BREATH if k else SWORD]), costs[k])
        for k in range(n)
    ]
    raiders = entry(unit("Raiders", hp=2, models=2, weapons=[GUN]))
    state = scenario([forms, [raiders]], {0: [(24.0, 10.0)], n: [(24.0, 40.0), (25.5, 40.0)]})
    w = Work(state, None, DEFAULT_HOOKS)
    hold_linked(w, 1)
    return w.state()


FORMS = [
    pytest.param("Form I", 2, id="p2418-Form I"),
    pytest.param("Form II", 3, id="p2426-Form II"),
    pytest.param("Form III", 4, id="p2434-Form III"),
]


@pytest.mark.parametrize(("rank", "n"), FORMS)
def test_form_exchanges_the_user_for_a_linked_profile_sharing_hp(rank: str, n: int) -> None:
    from warbench.rulesets.warsurge.game.actions_advanced import UsePerks
    from warbench.rulesets.warsurge.game.perk_form import HELD
    from warbench.rulesets.warsurge.game.perk_hooks import usable_perks

    state = _forms(rank, n)
    assert all(state.units[k].location is Location.DESTROYED for k in range(1, n))
    assert all(state.units[k].counter(HELD) for k in range(1, n))
    assert state.current_value(1) == 0.0  # a held profile is worth nothing on the battlefield
    listed = usable_perks(Work(state, None, DEFAULT_HOOKS), 0)
    assert listed == [f"{rank}: Form {k}" for k in range(1, n)]  # one choice per held profile
    state = set_hp(state, 0, (1,))  # 1 of 4 HP
    target = n - 1
    state, events = engine.apply(state, UsePerks(0, (f"{rank}: Form {target}",)))
    check_invariants(state)
    new = state.units[target]
    assert new.location is Location.TABLE and new.pos == ((24.0, 10.0),)
    assert new.hp == (1,)  # L299 "will share current HP"
    assert state.units[0].location is Location.DESTROYED and state.units[0].counter(HELD)
    assert any(e.kind == "perk" and "is exchanged for" in e.text for e in events)
    # the new form's Weapons are the ones the unit attacks with now
    assert [w.name for w in state.info(target).unit.weapons] == ["Breath"]


def test_p2418_form_lingering_negative_effects_stay_unit_perk_effects_end() -> None:
    from warbench.rulesets.warsurge.game.actions_advanced import UsePerks
    from warbench.rulesets.warsurge.game.state import Status

    state = _forms("Form I", 2)
    units = list(state.units)
    units[0] = replace(
        units[0], statuses=(Status("Burn", None, "u2/Burn"), Status("Adrenaline", 1, "u0"))
    )
    state = replace(state, units=tuple(units))
    state, _ = engine.apply(state, UsePerks(0, ("Form I: Form 1",)))
    assert [s.name for s in state.units[1].statuses] == ["Burn"]


def test_p2418_form_once_per_game_turn_and_back_the_next() -> None:
    from warbench.rulesets.warsurge.game.actions_advanced import UsePerks
    from warbench.rulesets.warsurge.game.perk_hooks import use_refused

    state = _forms("Form I", 2)
    state, _ = engine.apply(state, UsePerks(0, ("Form I: Form 1",)))
    why = use_refused(Work(state, None, DEFAULT_HOOKS), 1, "Form I", "Form 0")
    assert why is not None and "already used this Game Turn" in why
    state, _ = to_turn_end(state)
    state = replace(state, flow=replace(state.flow, phase=Phase.MOVE, active=0, passed=frozenset()))
    state, _ = engine.apply(state, UsePerks(1, ("Form I: Form 0",)))
    assert state.units[0].location is Location.TABLE
    assert state.units[1].location is Location.DESTROYED


def test_p2418_form_keeps_the_melee_and_falls_with_its_linked_profiles() -> None:
    from warbench.rulesets.warsurge.game.actions_advanced import UsePerks

    state = _forms("Form I", 2)
    units = list(state.units)
    units[2] = replace(units[2], pos=((24.0, 11.0), (25.0, 11.5)))  # in Base Contact
    state = replace(state, units=tuple(units), engaged=frozenset({(0, 2)}))
    state, _ = engine.apply(state, UsePerks(0, ("Form I: Form 1",)))
    assert state.engaged == frozenset({(1, 2)})
    check_invariants(state)


def test_p299_form_not_linked_beyond_10_percent_or_unequal_hp() -> None:
    from warbench.rulesets.warsurge.game.perk_form import links
    from warbench.rulesets.warsurge.game.perk_hooks import use_refused

    far = _forms("Form I", 2, points=(100, 115))
    assert links(far.setup) == {}
    assert far.units[1].location is Location.RESERVE  # a plain unit, not held
    why = use_refused(Work(far, None, DEFAULT_HOOKS), 0, "Form I", "Form 1")
    assert why is not None and "not linked" in why
    near = _forms("Form I", 2, points=(100, 110))
    assert links(near.setup) == {0: (0, 1), 1: (0, 1)}


def test_p2418_form_profiles_held_as_the_game_starts() -> None:
    from tests.warsurge.game.helpers import setup_of
    from warbench.rulesets.warsurge.game.perk_form import HELD

    forms = [entry(unit(f"Form {k}", hp=4, perks=["Form I"]), 100) for k in range(2)]
    raiders = entry(unit("Raiders", hp=2, models=2, weapons=[GUN]))
    state, _ = engine.new_game(setup_of([forms, [raiders]]), 1)
    assert state.units[0].location is Location.RESERVE
    assert state.units[1].location is Location.DESTROYED and state.units[1].counter(HELD)


# -- Fusion (L2442) -------------------------------------------------------------------------------


def _fusion(*, automated: bool = True, traits: tuple[str, ...] = ()) -> GameState:
    """Side 0: Colossus (Fusion, 20 points, in Reserve), Troop A (150 points, on the table),
    Troop B (60, Reserve), Troop C (100, Reserve, ``traits``), Titan (Fusion, 20, Reserve);
    side 1: Raiders. Side 0's Deploy Phase of Game Turn 2."""
    from warbench.rulesets.warsurge.game.state import ALL_AUTOMATIONS, Automation, RosterEntry

    colossus = entry(unit("Colossus", hp=6, perks=["Fusion"]), 20)
    a = entry(unit("Troop A", models=2, hp=2), 150)
    b = entry(unit("Troop B"), 60)
    c = RosterEntry(unit("Troop C"), 100, 25.4, traits=traits)
    titan = entry(unit("Titan", hp=6, perks=["Fusion"]), 20)
    raiders = entry(unit("Raiders", hp=2, models=2, weapons=[GUN]))
    auto = ALL_AUTOMATIONS if automated else ALL_AUTOMATIONS - {Automation.PERK_USE}
    return scenario(
        [[colossus, a, b, c, titan], [raiders]],
        {1: [(20.0, 8.0), (21.5, 8.0)], 5: [(24.0, 40.0), (25.5, 40.0)]},
        phase=Phase.DEPLOY,
        automation=auto,
    )


def test_p2442_fusion_deploys_by_removing_ten_times_its_points_of_friendly_units() -> None:
    """L2442's example: "A 20pts User Deploys, but must remove 200pts worth of friendly Units"
    (the engine's choice: Troop A's 150, then Troop B's 60 covering the 50 left)."""
    state, events = engine.apply(_fusion(), Deploy(0, at=(30.0, 6.0)))
    check_invariants(state)
    assert state.units[0].location is Location.TABLE and state.units[0].used("Fusion")
    assert state.units[1].location is Location.DESTROYED  # from the Battlefield
    assert state.units[2].location is Location.DESTROYED  # from Reserve
    assert state.units[3].location is Location.RESERVE  # not needed
    assert any(e.kind == "perk" and "formed by Fusion" in e.text for e in events)
    assert state.current_value(0) == pytest.approx(200.0)  # Fusion x10 (L333)


def test_p2442_fusion_cannot_deploy_without_the_points_nor_with_summon_or_respawn() -> None:
    # Troop C has Summon: the rest (150 + 60 + the unformed Titan, not in the game) is short
    state = _fusion(traits=("Summon",))
    units = list(state.units)
    units[2] = replace(units[2], location=Location.DESTROYED)  # Troop B is gone
    state = replace(state, units=tuple(units))
    with pytest.raises(RulesError, match="cannot be formed"):
        engine.apply(state, Deploy(0, at=(30.0, 6.0)))
    # a plain unit deploys as ever
    plain, _ = engine.apply(state, Deploy(3, at=(30.0, 6.0)))
    assert plain.units[3].location is Location.TABLE


def test_p2442_fusion_the_player_names_the_units_removed() -> None:
    from warbench.rulesets.warsurge.game.actions_advanced import UsePerks

    state = _fusion(automated=False)
    with pytest.raises(RulesError, match="must be formed first"):
        engine.apply(state, Deploy(0, at=(30.0, 6.0)))
    with pytest.raises(RulesError, match="worth 160 points; Fusion needs 200"):
        engine.apply(state, UsePerks(0, ("Fusion: Troop B, Troop C",)))
    state, _ = engine.apply(state, UsePerks(0, ("Fusion: Troop C, Troop A",)))
    assert [state.units[k].location for k in (1, 2, 3)] == [
        Location.DESTROYED,
        Location.RESERVE,
        Location.DESTROYED,
    ]
    state = replace(state, flow=replace(state.flow, active=0, passed=frozenset()))
    state, _ = engine.apply(state, Deploy(0, at=(30.0, 6.0)))
    assert state.units[0].location is Location.TABLE
    check_invariants(state)


def test_p2442_a_fusion_unit_counts_ten_times_its_points_for_another_fusion() -> None:
    """ "The User can be used to create a different Fusion Unit, but multiply the User's Point
    Cost by 10": the formed Colossus (20 points) alone forms the Titan (needs 200)."""
    from warbench.rulesets.warsurge.game.actions_advanced import UsePerks

    state, _ = engine.apply(_fusion(), Deploy(0, at=(30.0, 6.0)))
    state = replace(state, flow=replace(state.flow, active=0, passed=frozenset()))
    state, _ = engine.apply(state, UsePerks(4, ("Fusion: Colossus",)))
    assert state.units[0].location is Location.DESTROYED
    assert state.units[4].used("Fusion") and state.units[4].location is Location.RESERVE


# -- the Advanced playstyle (Use Perks and Deploy Actions, 001 §9.2) ------------------------------


def _advanced(state: GameState) -> GameState:
    from warbench.rulesets.warsurge.game.advstate import AdvancedFlow, Playstyle

    setup = replace(state.setup, playstyle=Playstyle.ADVANCED)
    flow = replace(state.flow, phase=Phase.ACTIONS, adv=AdvancedFlow(cp=(20, 20)))
    return replace(state, setup=setup, flow=flow)


def test_p2426_form_by_the_advanced_use_perks_action() -> None:
    from warbench.rulesets.warsurge.game.actions_advanced import UsePerks

    state, events = engine.apply(_advanced(_forms("Form II", 3)), UsePerks(0, ("Form II: Form 2",)))
    check_invariants(state)
    assert state.units[2].location is Location.TABLE
    assert state.units[0].location is Location.DESTROYED
    assert any(e.kind == "perk" and "is exchanged for" in e.text for e in events)


def test_p2442_fusion_with_the_advanced_deploy_action() -> None:
    state, events = engine.apply(_advanced(_fusion()), Deploy(0, at=(30.0, 6.0)))
    check_invariants(state)
    assert state.units[0].location is Location.TABLE
    assert state.units[1].location is Location.DESTROYED
    assert any(e.kind == "perk" and "formed by Fusion" in e.text for e in events)


def test_p2418_form_refused_where_the_linked_bases_do_not_fit() -> None:
    """A linked profile on a 60 mm base would touch (not overlap) enemy Raiders it is not in a
    Melee with: refused; with the Raiders a little further it stands there."""
    from warbench.rulesets.warsurge.game.perk_form import hold_linked
    from warbench.rulesets.warsurge.game.perk_hooks import use_refused
    from warbench.rulesets.warsurge.game.state import RosterEntry

    def state_at(y: float) -> GameState:
        small = entry(unit("Form 0", hp=4, perks=["Form I"], weapons=[SWORD]), 100)
        big = RosterEntry(unit("Form 1", hp=4, perks=["Form I"], weapons=[BREATH]), 100, 60.0)
        raiders = entry(unit("Raiders", hp=2, models=2, weapons=[GUN]))
        st = scenario([[small, big], [raiders]], {0: [(24.0, 10.0)], 2: [(24.0, y), (25.5, y)]})
        w = Work(st, None, DEFAULT_HOOKS)
        hold_linked(w, 1)
        return w.state()

    near = state_at(11.70)
    why = use_refused(Work(near, None, DEFAULT_HOOKS), 0, "Form I", "Form 1")
    assert why is not None and "do not fit" in why
    far = state_at(11.80)
    assert use_refused(Work(far, None, DEFAULT_HOOKS), 0, "Form I", "Form 1") is None
