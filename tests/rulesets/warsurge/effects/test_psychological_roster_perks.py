"""Psychological Unit Perks and Roster Perks of lane c played in a game (Perks
000_94ecc6a4c74d351b.txt: Berserk L2187, Wild Instinct L2341, Bloodthirsty L4272;
``game/perk_psych.py``, ``game/perk_roster.py``). Each test applies actions through the game
engine (scripted or seeded dice) and checks the same situation without the perk. Test names
carry the rank's source line (``p2187``), which ``warbench perks --coverage`` reads."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.warsurge.game.helpers import check_invariants, entry, scenario, unit, weapon
from warbench.kernel.dice import ScriptedDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack, Pass
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.movement import unit_allowance
from warbench.rulesets.warsurge.game.state import GameState, Phase
from warbench.rulesets.warsurge.game.work import Work


def _statuses(state: GameState, uid: int) -> list[str]:
    return [s.name for s in state.units[uid].statuses]


def _attacks(state: GameState, uid: int) -> set[int]:
    """The units ``uid`` may Attack now (the engine's legal actions)."""
    return {
        t for a in engine.legal_actions(state) if isinstance(a, Attack) and a.unit == uid
        for sh in a.targets for t in [sh[1]]
    }  # fmt: skip


# -- Berserk (L2187) -----------------------------------------------------------------------------


def _berserk(perks: list[str], heal: bool = False) -> GameState:
    """Side 0: the User (``perks``) at (10, 10), its Gun 24"; side 1: Near at (10, 16) and Far
    at (18, 26), both in Range and in sight. Attack Phase, side 0 to act."""
    gun = weapon("Gun", power=4, perks=["Heal"] if heal else [])
    me = entry(unit("User", perks=perks, weapons=[gun], hp=3))
    near = entry(unit("Near", hp=3))
    far = entry(unit("Far", hp=3))
    return scenario(
        [[me], [near, far]], {0: [(10.0, 10.0)], 1: [(10.0, 16.0)], 2: [(18.0, 26.0)]},
        phase=Phase.ATTACK,
    )  # fmt: skip


def test_p2187_berserk_weapons_must_target_the_closest_enemy() -> None:
    st = _berserk(["Berserk"])
    with pytest.raises(RulesError, match=r"closest enemy unit.*Berserk"):
        engine.apply(st, Attack(0, (("Gun", 2),)), dice=ScriptedDice([4]))
    new, _ = engine.apply(st, Attack(0, (("Gun", 1),)), dice=ScriptedDice([4]))
    check_invariants(new)
    assert sum(new.units[1].hp) == 2
    assert _attacks(st, 0) == {1}
    # without Berserk the player may choose
    plain = _berserk([])
    assert _attacks(plain, 0) == {1, 2}
    engine.apply(plain, Attack(0, (("Gun", 2),)), dice=ScriptedDice([4]))


def test_p2187_berserk_the_closest_changes_as_units_fall() -> None:
    st = _berserk(["Berserk"])
    units = list(st.units)
    units[1] = replace(units[1], hp=(0,), removed=(True,))
    from warbench.rulesets.warsurge.game.state import Location

    units[1] = replace(units[1], location=Location.DESTROYED)
    st = replace(st, units=tuple(units))
    assert _attacks(st, 0) == {2}


def test_p2187_berserk_heal_weapons_are_free() -> None:
    st = _berserk(["Berserk"], heal=True)
    from warbench.rulesets.warsurge.game.perk_psych import target_refusal

    w = Work(st, None, DEFAULT_HOOKS)
    assert target_refusal(w, 0, "Gun", 2) is None


# -- Wild Instinct (L2341) -----------------------------------------------------------------------


def _wild(seed: int, leader: bool = False) -> GameState:
    """Side 0: the User with Wild Instinct at (10, 10) (and a Captain with Leader beside it);
    side 1: Near at (10, 16), Far at (18, 26). The last step of Game Turn 2 (Dash Phase)."""
    me = entry(unit("User", perks=["Wild Instinct"], weapons=[weapon("Gun", power=4)], hp=3))
    near = entry(unit("Near", hp=3))
    far = entry(unit("Far", hp=3))
    sides = [[me], [near, far]]
    pos = {0: [(10.0, 10.0)], 1: [(10.0, 16.0)], 2: [(18.0, 26.0)]}
    if leader:
        sides[0].append(entry(unit("Captain", perks=["Leader"])))
        pos = {0: [(10.0, 10.0)], 1: [(14.0, 10.0)], 2: [(10.0, 16.0)], 3: [(18.0, 26.0)]}
    return scenario(sides, pos, phase=Phase.DASH, seed=seed)


def _next_turn(state: GameState) -> tuple[GameState, list[str], list[dict[str, object]]]:
    turn = state.flow.turn
    texts: list[str] = []
    data: list[dict[str, object]] = []
    while state.flow.turn == turn:
        state, events = engine.apply(state, Pass())
        texts += [e.text for e in events]
        data += [e.data for e in events if e.data.get("perk") == "Wild Instinct"]
    check_invariants(state)
    return state, texts, data


def test_p2341_wild_instinct_rolls_a_d3_at_the_start_of_the_game_turn() -> None:
    seen: set[int] = set()
    for seed in range(1, 20):
        st, _, rolls = _next_turn(_wild(seed))
        assert len(rolls) == 1
        face = rolls[0]["roll"]
        assert isinstance(face, int)
        seen.add(face)
        names = _statuses(st, 0)
        w = Work(st, None, DEFAULT_HOOKS)
        if face == 1:  # Inactive: no Movement, no Weapons
            assert names == ["Wild Instinct (Inactive)"]
            assert unit_allowance(w, 0, False) == 0 and unit_allowance(w, 0, True) == 0
        elif face == 2:  # Berserk: the closest visible enemy only
            assert names == ["Wild Instinct (Berserk)"]
            assert unit_allowance(w, 0, False) == 6
        else:  # Normal
            assert names == []
        # its Attacks in this Game Turn's Attack Phase
        st = _until_attack(st)
        allowed = _attacks(st, 0)
        assert allowed == {1: set(), 2: {1}, 3: {1, 2}}[face]
    assert seen == {1, 2, 3}


def _until_attack(state: GameState) -> GameState:
    while not (state.flow.phase is Phase.ATTACK and state.flow.active == 0):
        state, _ = engine.apply(state, Pass())
    return state


def test_p2341_wild_instinct_an_inactive_unit_may_not_attack() -> None:
    for seed in range(1, 30):
        st, _, rolls = _next_turn(_wild(seed))
        if rolls[0]["roll"] == 1:
            st = _until_attack(st)
            with pytest.raises(RulesError, match="Inactive"):
                engine.apply(st, Attack(0, (("Gun", 1),)), dice=ScriptedDice([4]))
            return
    raise AssertionError("no seed rolled a 1")


def test_p2341_wild_instinct_quiet_with_a_friendly_leader_within_12_inches() -> None:
    for seed in range(1, 6):
        st, _, rolls = _next_turn(_wild(seed, leader=True))
        assert rolls == [] and _statuses(st, 0) == []


# -- Bloodthirsty (L4272) ------------------------------------------------------------------------


def _melee(perk: str | None) -> GameState:
    """Side 0: the User (a 0" Blade, 1 Attack, Power 4) in a Melee with the Foe, and a Herald
    with Presence carrying ``perk``; side 1: the Foe (10 HP). The Attack Phase of Game Turn 2,
    reached through a Phase start (where Presence Roster Perks are read)."""
    blade = weapon("Blade", range=0, power=4, type="Assault")
    me = entry(unit("User", weapons=[blade], hp=3))
    herald = entry(unit("Herald", perks=["Presence"], weapons=[weapon("Gun", power=4)]))
    if perk is not None:
        herald = replace(herald, traits=(perk,))
    foe = entry(unit("Foe", hp=10, weapons=[weapon("Gun", power=4)]))
    st = scenario(
        [[me, herald], [foe]],
        {0: [(10.0, 10.0)], 1: [(30.0, 5.0)], 2: [(10.0, 11.0)]},
        phase=Phase.MOVE,
        engaged=[(0, 2)],
    )
    st, _ = engine.apply(st, Pass())
    st, _ = engine.apply(st, Pass())
    assert st.flow.phase is Phase.ATTACK and st.flow.active == 0
    return st


def test_p4272_bloodthirsty_plus_1_attack_in_a_melee() -> None:
    st = _melee("Bloodthirsty")
    assert "Bloodthirsty" in _statuses(st, 0) and "Bloodthirsty" in _statuses(st, 1)
    assert _statuses(st, 2) == []  # not the enemy's
    dice = ScriptedDice([4, 4])  # two Attack Dice now: 1 + 1
    new, events = engine.apply(st, Attack(0, (("Blade", 2),)), dice=dice)
    assert dice.remaining == 0
    assert sum(new.units[2].hp) == 8
    assert any("2 Attack Dice" in e.text for e in events)
    plain = _melee(None)
    dice = ScriptedDice([4])
    new, _ = engine.apply(plain, Attack(0, (("Blade", 2),)), dice=dice)
    assert dice.remaining == 0 and sum(new.units[2].hp) == 9


def test_p4272_bloodthirsty_not_outside_a_melee() -> None:
    st = _melee("Bloodthirsty")
    dice = ScriptedDice([4])  # the Herald's Gun at 20": one Attack Dice, as ever
    _, events = engine.apply(st, Attack(1, (("Gun", 2),)), dice=dice)
    assert dice.remaining == 0 and any("1 Attack Dice" in e.text for e in events)


def test_p4272_bloodthirsty_in_the_odds() -> None:
    from fractions import Fraction

    from warbench.cli.warsurge_cmds import situation_context
    from warbench.rulesets.warsurge.attack import AttackContext, UnitState
    from warbench.rulesets.warsurge.odds import AttackPlan, exact_attack
    from warbench.rulesets.warsurge.profiles import ModelGroup, Unit, UnitProfile, WeaponProfile

    me = Unit(
        profile=UnitProfile(name="U", move=6, dash=6, defence=4, hp=1),
        weapons=[WeaponProfile(name="Blade", range=12, attacks=2, power=4, type="Assault")],
        models=[ModelGroup(count=1, weapons=["Blade"])],
    )
    foe = Unit(profile=UnitProfile(name="F", move=6, dash=6, defence=4, hp=10),
               models=[ModelGroup(count=1)])  # fmt: skip
    flags = situation_context(["bloodthirsty", "melee"])
    with_bt = AttackContext(**flags)  # type: ignore[arg-type]

    def mean(ctx: AttackContext) -> Fraction:
        odds = exact_attack(AttackPlan(UnitState.of(me), UnitState.of(foe), ctx))
        return Fraction(odds.expected_hp_lost).limit_denominator(100)

    assert mean(AttackContext(melee=True)) == 1
    assert mean(with_bt) == Fraction(3, 2)
    assert mean(AttackContext(melee_bonus_attacks=1)) == 1  # not in a Melee: no bonus


# -- Extension (L4308) ---------------------------------------------------------------------------


def _extension(trait: bool) -> GameState:
    """A 4-Game-Turn game (agreed Game Length) in the Dash Phase of Game Turn 4; side 0's
    Herald carries Extension (designated to it in the roster) when ``trait``."""
    from warbench.rulesets.warsurge.game.state import ALL_AUTOMATIONS, Automation

    herald = entry(unit("Herald"))
    if trait:
        herald = replace(herald, traits=("Extension",))
    foe = entry(unit("Foe"))
    return scenario(
        [[herald], [foe]],
        {0: [(10.0, 10.0)], 1: [(10.0, 40.0)]},
        phase=Phase.DASH,
        turn=4,
        game_length=4,
        automation=ALL_AUTOMATIONS - {Automation.PERK_USE},
    )


def _to_the_end(state: GameState) -> tuple[GameState, list[str]]:
    texts: list[str] = []
    while not state.over:
        state, events = engine.apply(state, Pass())
        texts += [e.text for e in events]
        check_invariants(state)
    return state, texts


def test_p4308_extension_extends_the_game_by_one_game_turn() -> None:
    from warbench.rulesets.warsurge.game.actions_advanced import UsePerks

    st, _ = engine.apply(_extension(True), UsePerks(0, ("Extension",)))
    assert "Extension" in _statuses(st, 0)
    end, texts = _to_the_end(st)
    assert end.flow.turn == 5  # one more Game Turn, once
    assert any("extends the game by one Game Turn" in t for t in texts)
    # not used (the engine's old course, the default): the game ends at its Game Length
    plain, _ = _to_the_end(_extension(True))
    assert plain.flow.turn == 4
    assert UsePerks(0, ("Extension",)) in set(engine.legal_actions(_extension(True)))
    with pytest.raises(RulesError, match=r"not an activated perk|Extension"):
        engine.check(_extension(False), UsePerks(0, ("Extension",)))


# -- Master Strategist (L4336) -------------------------------------------------------------------


def _strategist(seed: int, holder: bool, automated: bool = True) -> GameState:
    """The Dash Phase of Game Turn 2; side 1's Foe carries Master Strategist when ``holder``;
    passes on to the next Game Turn's Turn Master."""
    from warbench.rulesets.warsurge.game.state import ALL_AUTOMATIONS, Automation

    foe = entry(unit("Foe"))
    if holder:
        foe = replace(foe, traits=("Master Strategist",))
    automation = ALL_AUTOMATIONS if automated else ALL_AUTOMATIONS - {Automation.TURN_MASTER}
    st = scenario(
        [[entry(unit("Herald"))], [foe]],
        {0: [(10.0, 10.0)], 1: [(10.0, 40.0)]},
        phase=Phase.DASH,
        seed=seed,
        automation=automation,
    )
    while st.flow.turn == 2:
        st, _ = engine.apply(st, Pass())
    check_invariants(st)
    return st


def test_p4336_master_strategist_chooses_the_turn_master() -> None:
    masters = {_strategist(seed, True).flow.turn_master for seed in range(1, 13)}
    assert masters == {1}  # the engine's choice for the holder: itself, whatever the Roll-Off
    plain = {_strategist(seed, False).flow.turn_master for seed in range(1, 13)}
    assert plain == {0, 1}


def test_p4336_master_strategist_the_decision_is_the_holders() -> None:
    from warbench.rulesets.warsurge.game.actions import ChooseTurnMaster

    for seed in range(1, 7):
        st = _strategist(seed, True, automated=False)
        assert st.flow.phase is Phase.TURN_MASTER and engine.acting_side(st) == 1
        st, _ = engine.apply(st, ChooseTurnMaster(0))  # it may hand the role to the foe
        assert st.flow.turn_master == 0


# -- Berserk's and Wild Instinct's Movement (L2187, L2341) ---------------------------------------


def _berserk_move(perks: list[str], gun_range: int = 4) -> GameState:
    """Side 0: the User (``perks``, a Gun of ``gun_range``") at (10, 10); side 1: Near at
    (10, 20) (9" away), Far at (18, 26). The Move Phase, side 0 to act."""
    me = entry(unit("User", perks=perks, weapons=[weapon("Gun", range=gun_range)], hp=3))
    near = entry(unit("Near", hp=3))
    far = entry(unit("Far", hp=3))
    return scenario(
        [[me], [near, far]], {0: [(10.0, 10.0)], 1: [(10.0, 20.0)], 2: [(18.0, 26.0)]},
        phase=Phase.MOVE,
    )  # fmt: skip


def test_p2187_berserk_movement_goes_toward_the_closest_enemy() -> None:
    from warbench.rulesets.warsurge.game.actions import Move

    away = Move(0, positions=((10.0, 5.0),))
    toward = Move(0, positions=((10.0, 15.0),))
    sideways = Move(0, positions=((14.0, 10.0),))  # farther from Near: refused
    st = _berserk_move(["Berserk"])
    with pytest.raises(RulesError, match=r"toward the closest enemy unit.*Berserk"):
        engine.check(st, away)
    with pytest.raises(RulesError, match="Berserk"):
        engine.check(st, sideways)
    new, _ = engine.apply(st, toward)
    check_invariants(new)
    engine.check(_berserk_move([]), away)  # without Berserk: anywhere
    # every Weapon already in Range of the closest enemy: Movement is free again
    engine.check(_berserk_move(["Berserk"], gun_range=24), away)


def test_p2341_wild_instinct_berserk_moves_only_while_out_of_range() -> None:
    from warbench.rulesets.warsurge.game.actions import Move
    from warbench.rulesets.warsurge.game.perk_psych import WILD_BERSERK
    from warbench.rulesets.warsurge.game.state import Status

    def wild(gun_range: int) -> GameState:
        st = _berserk_move(["Wild Instinct"], gun_range)
        units = list(st.units)
        units[0] = replace(units[0], statuses=(Status(WILD_BERSERK, 1, "u0/Wild Instinct"),))
        return replace(st, units=tuple(units))

    with pytest.raises(RulesError, match="may not Move or Dash"):
        engine.check(wild(24), Move(0, positions=((10.0, 15.0),)))
    engine.check(wild(4), Move(0, positions=((10.0, 15.0),)))
    with pytest.raises(RulesError, match="toward the closest enemy"):
        engine.check(wild(4), Move(0, positions=((10.0, 5.0),)))


def test_p2341_wild_instinct_an_inactive_unit_uses_no_perks() -> None:
    from warbench.rulesets.warsurge.game.actions_advanced import UsePerks
    from warbench.rulesets.warsurge.game.perk_psych import INACTIVE
    from warbench.rulesets.warsurge.game.state import Status

    st = _berserk_move(["Wild Instinct", "Rush"])
    engine.check(st, UsePerks(0, ("Rush",)))
    units = list(st.units)
    units[0] = replace(units[0], statuses=(Status(INACTIVE, 1, "u0/Wild Instinct"),))
    with pytest.raises(RulesError, match="Inactive"):
        engine.check(replace(st, units=tuple(units)), UsePerks(0, ("Rush",)))


def test_p4308_extension_is_declared_once_per_game_turn() -> None:
    # a perk-heavy random game once looped on this declaration (it had no once-per-Game-Turn)
    from warbench.rulesets.warsurge.game.actions_advanced import UsePerks

    st, _ = engine.apply(_extension(True), UsePerks(0, ("Extension",)))
    with pytest.raises(RulesError, match="once per Game Turn"):
        engine.check(st, UsePerks(0, ("Extension",)))
    assert UsePerks(0, ("Extension",)) not in set(engine.legal_actions(st))
