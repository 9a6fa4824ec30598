"""Perks that say whom a weapon may or must Target, played in games (Perks
000_94ecc6a4c74d351b.txt: Taunt I/II L1394-L1404, Provoke I/II L879-L893, Unyielding L1799,
Trajectory I-III L3178-L3184; the ``targeting`` machinery, ``perk_limits.target_refusal``).
Test names carry the rank's source line (``p1394``), which ``warbench perks --coverage`` reads."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.warsurge.game.helpers import check_invariants, entry, scenario, unit, weapon
from warbench.kernel.dice import ScriptedDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack
from warbench.rulesets.warsurge.game.actions_advanced import UsePerks
from warbench.rulesets.warsurge.game.state import ALL_AUTOMATIONS, Automation, GameState, Phase

_CHOOSING = ALL_AUTOMATIONS - {Automation.PERK_USE}


def _shoot(state: GameState, action: Attack) -> GameState:
    state, events = engine.apply(state, action, dice=ScriptedDice([6] * 40))
    check_invariants(state)
    assert any(e.kind == "attack" or "Attack" in e.text for e in events)
    return state


def _targets(state: GameState, uid: int) -> set[int]:
    """The units the legal Attack actions of ``uid`` aim at."""
    out: set[int] = set()
    for a in engine.legal_actions(state):
        if isinstance(a, Attack) and a.unit == uid:
            out.update(t[1] for t in a.targets)
    return out


# -- Trajectory I-III: not at a unit within 12", 24", 36" ------------------------------------


@pytest.mark.parametrize(
    ("rank", "near"),
    [
        pytest.param("Trajectory I", 12, id="p3178-Trajectory I"),
        pytest.param("Trajectory II", 24, id="p3182-Trajectory II"),
        pytest.param("Trajectory III", 36, id="p3184-Trajectory III"),
    ],
)
def test_trajectory_weapon_cannot_target_a_unit_within_its_distance(rank: str, near: int) -> None:
    # L3178 "The Weapon cannot Target a Unit with one or models within 12\" of the Wielder"
    def duel(gap: float) -> GameState:
        me = unit("Mortar Team", weapons=[weapon("Mortar", range=48, perks=[rank])])
        foe = unit("Foe", hp=3)
        return scenario([[entry(me)], [entry(foe)]], {0: [(20, 3)], 1: [(20, 3 + gap)]},
                        phase=Phase.ATTACK)  # fmt: skip

    close = duel(near)  # bases 1" across: an edge gap of near - 1
    with pytest.raises(RulesError, match=f'within {near}" of its Wielder .{rank}'):
        engine.check(close, Attack(0, (("Mortar", 1),)))
    assert _targets(close, 0) == set()
    far = duel(near + 1.5)
    assert _targets(far, 0) == {1}
    after = _shoot(far, Attack(0, (("Mortar", 1),)))
    assert after.units[1].hp != far.units[1].hp or after.units[1].removed != far.units[1].removed
    # the same weapon without the perk shoots the close unit
    plain = scenario(
        [[entry(unit("Mortar Team", weapons=[weapon("Mortar", range=48)]))],
         [entry(unit("Foe", hp=3))]],
        {0: [(20, 3)], 1: [(20, 3 + near)]}, phase=Phase.ATTACK,
    )  # fmt: skip
    engine.check(plain, Attack(0, (("Mortar", 1),)))


# -- Taunt I/II: enemies within the Radius must Target the Taunting unit ----------------------


def _taunt(taunt: list[str], gap: float, shooter: list[str] | None = None) -> GameState:
    """Side 1's Shooter (a 24" Gun, ``shooter`` perks) faces side 0's Bait (``taunt``) ``gap``
    inches away (centres) and side 0's Other 4" away."""
    bait = unit("Bait", perks=taunt, hp=5)
    other = unit("Other", hp=5)
    gunner = unit("Shooter", perks=shooter or [], weapons=[weapon("Gun", range=24)])
    return scenario(
        [[entry(bait), entry(other)], [entry(gunner)]],
        {0: [(20, 20 + gap)], 1: [(30, 24)], 2: [(20, 20)]},
        phase=Phase.ATTACK,
        active=1,
    )


@pytest.mark.parametrize(
    ("rank", "radius"),
    [
        pytest.param("Taunt I", 6, id="p1394-Taunt I"),
        pytest.param("Taunt II", 12, id="p1404-Taunt II"),
    ],
)
def test_taunt_enemies_within_its_radius_must_target_it(rank: str, radius: int) -> None:
    # L1394 "Any enemy Units within 6\" or in a Melee with the User must Target them with
    # available Weapons in Range"
    st = _taunt([rank], gap=radius)  # edge gap radius - 1: within
    with pytest.raises(RulesError, match=f"must Target it .{rank}"):
        engine.check(st, Attack(2, (("Gun", 1),)))
    assert _targets(st, 2) == {0}
    _shoot(st, Attack(2, (("Gun", 0),)))
    # beyond the Radius: free to choose
    free = _taunt([rank], gap=radius + 2.5)
    engine.check(free, Attack(2, (("Gun", 1),)))
    assert _targets(free, 2) == {0, 1}


def test_p1799_unyielding_is_immune_to_taunt_and_provoke() -> None:
    # L1799 "The User is immune to the Taunt and Provoke Perks"
    st = _taunt(["Taunt II"], gap=8, shooter=["Unyielding"])
    _shoot(st, Attack(2, (("Gun", 1),)))
    assert _targets(st, 2) == {0, 1}
    provoked = _provoked("Provoke I", 8, shooter=["Unyielding"])
    engine.check(provoked, Attack(2, (("Gun", 1),)))


# -- Provoke I/II: a Mastery Test, then one enemy unit in the Radius must Target the User ------


def _provoked(rank: str, gap: float, faces: int = 4, shooter: list[str] | None = None) -> GameState:
    """Side 0's Bait uses ``rank`` (its Mastery Test rolls ``faces``) in its Attack Phase; then
    side 1's Shooter, ``gap`` inches from the Bait, is to attack."""
    bait = unit("Bait", perks=[rank], hp=5)
    other = unit("Other", hp=5)
    gunner = unit("Shooter", perks=shooter or [], weapons=[weapon("Gun", range=30)])
    st = scenario(
        [[entry(bait), entry(other)], [entry(gunner)]],
        {0: [(20, 20 + gap)], 1: [(30, 24)], 2: [(20, 20)]},
        phase=Phase.ATTACK,
        automation=_CHOOSING,
    )
    assert UsePerks(0, (rank,)) in list(engine.legal_actions(st))
    st, events = engine.apply(st, UsePerks(0, (rank,)), dice=ScriptedDice([faces]))
    check_invariants(st)
    assert any(f"{rank} test" in e.text or rank in e.text for e in events)
    return replace(st, flow=replace(st.flow, active=1))


@pytest.mark.parametrize(
    ("rank", "radius"),
    [pytest.param("Provoke I", 12, id="p879-Provoke I"),
     pytest.param("Provoke II", 24, id="p893-Provoke II")],
)  # fmt: skip
def test_provoke_a_passed_mastery_test_makes_an_enemy_target_the_user(
    rank: str, radius: int
) -> None:
    # L879 "One enemy Unit within 12\" or in a Melee with this Unit must Target it with all
    # available Weapons within Range"
    st = _provoked(rank, gap=radius)
    assert any(s.name == "Provoke" for s in st.units[2].statuses)
    with pytest.raises(RulesError, match=f"must Target it .{rank}"):
        engine.check(st, Attack(2, (("Gun", 1),)))
    assert _targets(st, 2) == {0}
    _shoot(st, Attack(2, (("Gun", 0),)))
    # a failed Mastery Test provokes nobody
    failed = _provoked(rank, gap=radius, faces=1)
    assert not failed.units[2].statuses
    engine.check(failed, Attack(2, (("Gun", 1),)))


def test_p879_provoke_is_refused_with_no_enemy_in_its_radius() -> None:
    bait = unit("Bait", perks=["Provoke I"], hp=5)
    gunner = unit("Shooter", weapons=[weapon("Gun", range=30)])
    st = scenario([[entry(bait)], [entry(gunner)]], {0: [(20, 40)], 1: [(20, 10)]},
                  phase=Phase.ATTACK, automation=_CHOOSING)  # fmt: skip
    with pytest.raises(RulesError, match="no enemy unit within 12"):
        engine.check(st, UsePerks(0, ("Provoke I",)))


def test_p879_provoke_lasts_the_game_turn() -> None:
    st = _provoked("Provoke I", gap=10)
    (s,) = [s for s in st.units[2].statuses if s.name == "Provoke"]
    assert s.turns == 1 and s.source == "u0/Provoke I"
