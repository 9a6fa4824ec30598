"""Weapon Afflictions of lane c played in a game (Perks 000_94ecc6a4c74d351b.txt §12.5: Stun
L2862, Plague L2812, Spread L2848; ``game/perk_affliction.py``, the attack kernel's
``stunned``). Each test applies actions through the game engine (scripted dice where dice
matter) and checks the same situation without the perk. Test names carry the rank's source line
(``p2862``), which ``warbench perks --coverage`` reads."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from tests.rulesets.warsurge.effects.test_game_statuses import (
    _end_turn,
    _hit,
    _state,
    _statuses,
    _until,
)
from tests.warsurge.game.helpers import check_invariants, entry, scenario, unit, weapon
from warbench.kernel.dice import ScriptedDice
from warbench.rulesets.warsurge.attack import AttackContext, UnitState
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack
from warbench.rulesets.warsurge.game.state import GameState, Phase, Status
from warbench.rulesets.warsurge.odds import AttackPlan, exact_attack
from warbench.rulesets.warsurge.profiles import ModelGroup, Unit, UnitProfile, WeaponProfile

# -- Stun (L2862) --------------------------------------------------------------------------------


def _stunned_foe(skill_face: int) -> GameState:
    """The Attackers' Stun Gun hits the Foe (a 4, 1 HP lost) and the Skill Test rolls
    ``skill_face``; then the game goes on to the Foe's Attack in the next Game Turn."""
    state, _ = _hit(_state(["Stun"]), [4, skill_face])
    state, _ = _end_turn(state)
    return _until(state, Phase.ATTACK, 1)


def _foe_fires(state: GameState, face: int) -> int:
    """HP the Attackers lose to the Foe's Gun (Power 4 vs Defence 4: a 4+) rolling ``face``."""
    new, _ = engine.apply(state, Attack(1, (("Gun", 0),)), dice=ScriptedDice([face]))
    check_invariants(new)
    return sum(state.units[0].hp) - sum(new.units[0].hp)


def test_p2862_stun_lands_for_the_next_game_turn_on_a_passed_skill_test() -> None:
    state, events = _hit(_state(["Stun"]), [4, 4])
    assert _statuses(state, 1) == ["Stun (next Game Turn)"]
    assert any("suffers Stun" in e.text for e in events)
    failed, _ = _hit(_state(["Stun"]), [4, 3])  # Skill Test failed: no Stun
    assert _statuses(failed, 1) == []


def test_p2862_stun_attack_dice_need_a_6_in_the_next_game_turn() -> None:
    stunned = _stunned_foe(4)
    assert "Stun" in _statuses(stunned, 1)
    assert _foe_fires(stunned, 5) == 0  # a 5 would do (4+), but Stun needs a 6
    assert _foe_fires(stunned, 6) == 1
    calm = _stunned_foe(3)  # the Skill Test failed: the Foe's 4+ stands
    assert "Stun" not in _statuses(calm, 1)
    assert _foe_fires(calm, 5) == 1


def test_p2862_stun_wears_off_after_its_game_turn() -> None:
    state = _stunned_foe(4)
    state, _ = _end_turn(state)
    assert "Stun" not in _statuses(state, 1)


_SHOOTER = Unit(
    profile=UnitProfile(name="Shooter", move=6, dash=6, defence=4, hp=1),
    weapons=[WeaponProfile(name="Gun", range=24, attacks=6, power=4, type="Assault")],
    models=[ModelGroup(count=1, weapons=["Gun"])],
)
_FOE = Unit(
    profile=UnitProfile(name="Foe", move=6, dash=6, defence=4, hp=10),
    models=[ModelGroup(count=1)],
)


def _mean(ctx: AttackContext, attacker: Unit = _SHOOTER) -> Fraction:
    plan = AttackPlan(UnitState.of(attacker), UnitState.of(_FOE), ctx)
    return Fraction(exact_attack(plan).expected_hp_lost).limit_denominator(1000)


def test_p2862_stun_exact_odds_need_a_6_and_drop_positive_modifiers() -> None:
    # 6 Attack Dice at 4+: 3 HP expected; Stunned, 6+: 1; a +1 (Defiance-like status) is lost
    assert _mean(AttackContext()) == 3
    assert _mean(AttackContext(stunned=True)) == 1
    assert _mean(AttackContext(status_modifiers=((1, "Inspired"),))) == 4
    assert _mean(AttackContext(status_modifiers=((1, "Inspired"),), stunned=True)) == 1
    # "unless it would be worse": a 4+ at -3 is a 6/2+ (5/36 a die), not made a 6+
    worse = AttackContext(status_modifiers=((-3, "Smokescreen"),), stunned=True)
    assert _mean(worse) == Fraction(5, 6)


def test_p2862_stun_in_the_odds_command() -> None:
    from warbench.cli.warsurge_cmds import situation_context

    assert situation_context(["stunned"]) == {"stunned": True}


# -- Plague (L2812) ------------------------------------------------------------------------------


def _plague_scene(seed: int, buddy_at: tuple[float, float] = (10.0, 26.0)) -> GameState:
    """The Foe (side 1, 5 HP) is Plagued at (10, 20); its Buddy (side 1) stands at
    ``buddy_at`` (5" away by default); the Attackers (side 0) at (10, 10), 9" away. The last
    Attack Phase of Game Turn 2, everyone's acted but side 1."""
    gun = weapon("Gun", power=4)
    side0 = [entry(unit("Attackers", weapons=[gun], hp=3))]
    side1 = [entry(unit("Foe", hp=5)), entry(unit("Buddy", hp=5))]
    state = scenario(
        [side0, side1],
        {0: [(10.0, 10.0)], 1: [(10.0, 20.0)], 2: [buddy_at]},
        phase=Phase.DASH,
        seed=seed,
    )
    units = list(state.units)
    units[1] = replace(units[1], statuses=(Status("Plague", None, "u0/Gun"),))
    return replace(state, units=tuple(units))


def test_p2812_plague_lands_on_hp_loss_for_the_rest_of_the_game() -> None:
    state, events = _hit(_state(["Plague"]), [4])
    assert _statuses(state, 1) == ["Plague"]
    state, events = _end_turn(state)
    assert any("Plague" in e.text and "1 HP lost" in e.text for e in events)
    assert sum(state.units[1].hp) == 3  # 1 to the Gun, 1 to the Plague
    assert "Plague" in _statuses(state, 1)


def test_p2812_plague_is_caught_within_6_inches_on_a_4_plus_at_the_turn_start() -> None:
    outcomes = set()
    for seed in range(1, 13):
        state, events = _end_turn(_plague_scene(seed))
        check_invariants(state)
        rolls = [e for e in events if e.data.get("perk") == "Plague" and "roll" in e.data]
        assert len(rolls) == 1, 'one D6 for the Buddy; none for the Attackers 9" away'
        assert rolls[0].data["unit"] == 2
        caught = rolls[0].data["roll"] >= 4
        assert ("Plague" in _statuses(state, 2)) is caught
        assert "Plague" not in _statuses(state, 0)
        outcomes.add(caught)
    assert outcomes == {True, False}


def test_p2812_plague_is_not_caught_beyond_6_inches() -> None:
    state, events = _end_turn(_plague_scene(1, buddy_at=(30.0, 20.0)))
    assert not [e for e in events if e.data.get("perk") == "Plague" and "roll" in e.data]
    assert "Plague" not in _statuses(state, 2)


def test_p2812_plague_does_not_reach_an_immune_unit() -> None:
    gun = weapon("Gun", power=4)
    state = scenario(
        [
            [entry(unit("Attackers", weapons=[gun], hp=3))],
            [entry(unit("Foe", hp=5)), entry(unit("Buddy", hp=5, perks=["Immunity I"]))],
        ],
        {0: [(10.0, 10.0)], 1: [(10.0, 20.0)], 2: [(10.0, 26.0)]},
        phase=Phase.DASH,
    )
    units = list(state.units)
    units[1] = replace(units[1], statuses=(Status("Plague", None, "u0/Gun"),))
    state, events = _end_turn(replace(state, units=tuple(units)))
    assert any("immune to Plague" in e.text for e in events)
    assert "Plague" not in _statuses(state, 2)


# -- Spread (L2848) ------------------------------------------------------------------------------


def _spread_state(perks: list[str]) -> GameState:
    """The Attackers' Gun (``perks``) at the Foe (10, 20); the Foe's Buddy 3" from it and the
    Attackers' Friend 5" from it (friend or foe both catch it); a Far unit 20" away."""
    gun = weapon("Gun", power=4, perks=perks)
    side0 = [entry(unit("Attackers", weapons=[gun], hp=3)), entry(unit("Friend", hp=3))]
    side1 = [entry(unit("Foe", hp=5)), entry(unit("Buddy", hp=5)), entry(unit("Far", hp=5))]
    return scenario(
        [side0, side1],
        {
            0: [(10.0, 10.0)],
            1: [(16.0, 20.0)],
            2: [(10.0, 20.0)],
            3: [(10.0, 24.0)],
            4: [(40.0, 20.0)],
        },
        phase=Phase.ATTACK,
    )


def _spread_hit(state: GameState, faces: list[int]) -> tuple[GameState, list[str]]:
    dice = ScriptedDice(faces)
    new, events = engine.apply(state, Attack(0, (("Gun", 2),)), dice=dice)
    assert dice.remaining == 0
    check_invariants(new)
    return new, [e.text for e in events]


def test_p2848_spread_passes_the_afflictions_on_a_4_plus_to_units_within_6_inches() -> None:
    # the Attack (4: 1 HP lost, Burn lands), then Spread: the Friend (5.0" away) D6 4, the
    # Buddy (3") D6 2; unit order: Friend (1), Buddy (3)
    state, texts = _spread_hit(_spread_state(["Burn", "Spread"]), [4, 4, 2])
    assert _statuses(state, 2) == ["Burn"]
    assert _statuses(state, 1) == ["Burn"]  # the Attackers' own Friend catches it too
    assert _statuses(state, 3) == []
    assert _statuses(state, 4) == []  # too far: no roll
    assert any("Spread" in t and "D6 4" in t for t in texts)
    # without Spread: only the Target
    plain, _ = _spread_hit(_spread_state(["Burn"]), [4])
    assert [_statuses(plain, u) for u in (1, 2, 3)] == [[], ["Burn"], []]


def test_p2848_spread_needs_an_affliction_caused_in_the_attack_sequence() -> None:
    state, texts = _spread_hit(_spread_state(["Burn", "Spread"]), [3])  # a miss: no Burn
    assert not any("Spread" in t for t in texts)
    assert all(_statuses(state, u) == [] for u in range(5))


@pytest.mark.parametrize("face", [4, 6])
def test_p2848_spread_after_a_re_affliction_too(face: int) -> None:
    state = _spread_state(["Burn", "Spread"])
    units = list(state.units)
    units[2] = replace(units[2], statuses=(Status("Burn", None, "u0/Gun"),))
    state = replace(state, units=tuple(units))
    new, _ = _spread_hit(state, [4, face, face])
    assert _statuses(new, 1) == ["Burn"] and _statuses(new, 3) == ["Burn"]
    assert _statuses(new, 2) == ["Burn"]  # "re-afflicted": it does not stack with itself


# -- Confuse (L2636) -----------------------------------------------------------------------------


def _confused(skill_face: int, phase: Phase) -> GameState:
    """The Attackers' Confuse Gun hits the Foe (Rush, 5 HP) and its Skill Test rolls
    ``skill_face``; the game goes on to side 1's turn in ``phase`` of the next Game Turn."""
    state, _ = _hit(_state(["Confuse"], ["Rush"]), [4, skill_face])
    state, _ = _end_turn(state)
    return _until(state, phase, 1)


def test_p2636_confuse_lands_at_the_end_of_the_game_turn_for_the_next() -> None:
    state, _ = _hit(_state(["Confuse"]), [4, 4])
    assert _statuses(state, 1) == ["Confuse (next Game Turn)"]
    state, _ = _end_turn(state)
    assert _statuses(state, 1) == ["Confuse"]
    state, _ = _end_turn(state)
    assert _statuses(state, 1) == []  # one Game Turn


def test_p2636_confuse_no_weapons_and_its_player_does_not_move_it() -> None:
    from warbench.kernel.errors import RulesError
    from warbench.rulesets.warsurge.game.actions import Move

    st = _confused(4, Phase.ATTACK)
    with pytest.raises(RulesError, match="Confused"):
        engine.check(st, Attack(1, (("Gun", 0),)))
    assert not [a for a in engine.legal_actions(st) if isinstance(a, Attack)]
    calm = _confused(3, Phase.ATTACK)  # the Skill Test failed
    engine.check(calm, Attack(1, (("Gun", 0),)))
    moving = _confused(4, Phase.MOVE)
    with pytest.raises(RulesError, match="player that caused it moves it"):
        engine.check(moving, Move(1, positions=((10.0, 22.0),)))
    engine.check(_confused(3, Phase.MOVE), Move(1, positions=((10.0, 22.0),)))


def test_p2636_confuse_no_perks_with_activate_or_mastery_tests() -> None:
    from warbench.kernel.errors import RulesError
    from warbench.rulesets.warsurge.game.actions_advanced import UsePerks

    with pytest.raises(RulesError, match="Confused"):
        engine.check(_confused(4, Phase.MOVE), UsePerks(1, ("Rush",)))
    engine.check(_confused(3, Phase.MOVE), UsePerks(1, ("Rush",)))


# -- Implant meets Impregnable (L1565) ----------------------------------------------------------


def test_p1565_impregnable_is_immune_to_implant() -> None:
    state, events = _hit(_state(["Implant"], ["Impregnable"]), [4])
    assert _statuses(state, 1) == []
    assert any("immune to Implant" in e.text for e in events)
    plain, _ = _hit(_state(["Implant"]), [4])
    assert _statuses(plain, 1) == ["Implant"]
