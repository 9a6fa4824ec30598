"""Perks that say whom a weapon may or must Target, played in games (Perks
000_94ecc6a4c74d351b.txt: Taunt I/II L1394-L1404, Provoke I/II L879-L893, Unyielding L1799,
Trajectory I-III L3178-L3184; the ``targeting`` machinery, ``perk_limits.target_refusal``).
Test names carry the rank's source line (``p1394``), which ``warbench perks --coverage`` reads."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tests.warsurge.game.helpers import check_invariants, entry, scenario, unit, weapon
from warbench.kernel.dice import ScriptedDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack, Deploy, Move, Pass
from warbench.rulesets.warsurge.game.actions_advanced import UsePerks
from warbench.rulesets.warsurge.game.state import (
    ALL_AUTOMATIONS,
    Automation,
    GameState,
    Location,
    Phase,
)

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


# -- Blink I-III, Teleport I-III: relocated as Movement, neither a Move nor a Dash ------------


def _mover(rank: str, foe_at: float = 40.0, engaged: bool = False) -> GameState:
    """Standard Move Phase, no ``perk use`` automation: side 0's Jumper (``rank``) at (20, 5),
    side 1's Foe at (20, ``foe_at``)."""
    me = unit("Jumper", perks=[rank], hp=3)
    foe = unit("Foe", hp=3)
    return scenario(
        [[entry(me)], [entry(foe)]],
        {0: [(20, 5)], 1: [(20, foe_at)]},
        phase=Phase.MOVE,
        automation=_CHOOSING,
        engaged=[(0, 1)] if engaged else (),
    )


@pytest.mark.parametrize(
    ("rank", "limit", "faces"),
    [
        pytest.param("Blink I", 6, [], id="p673-Blink I"),
        pytest.param("Blink II", 12, [], id="p691-Blink II"),
        pytest.param("Blink III", None, [], id="p699-Blink III"),
        pytest.param("Teleport I", 6, [4], id="p1025-Teleport I"),
        pytest.param("Teleport II", 12, [4], id="p1039-Teleport II"),
        pytest.param("Teleport III", None, [4], id="p1045-Teleport III"),
    ],
)
def test_relocation_toward_the_enemy_is_movement_but_not_a_move(
    rank: str, limit: int | None, faces: list[int]
) -> None:
    # L673 "The Unit can be relocated anywhere within 6\", functioning as Movement, but not a
    # Move or Dash … Blink cannot engage or leave a Melee"; L699 / L1045 "no maximum distance"
    st = _mover(rank)
    assert UsePerks(0, (rank,)) in list(engine.legal_actions(st))
    st, events = engine.apply(st, UsePerks(0, (rank,)), dice=ScriptedDice(faces))
    check_invariants(st)
    y = st.units[0].pos[0][1]
    if limit is not None:
        assert y == pytest.approx(5 + limit)
    else:
        assert 17 < y < 39 and not st.engaged  # far beyond 12", short of a Melee
    assert any(f"by {rank}" in e.text for e in events)
    assert st.units[0].moved[0] and not st.units[0].unit_moved  # Movement, not a Move
    st, _ = engine.apply(st, Move(0, to=(20.0, y + 6)))  # the unit still makes its Move
    check_invariants(st)
    assert st.units[0].pos[0][1] == pytest.approx(y + 6)


def test_p673_blink_to_a_chosen_point_once_per_game() -> None:
    st = _mover("Blink I")
    st, _ = engine.apply(st, UsePerks(0, ("Blink I: 24,8",)))
    assert st.units[0].pos[0] == pytest.approx((24.0, 8.0))
    nxt = replace(st, flow=replace(st.flow, turn=st.flow.turn + 1))
    with pytest.raises(RulesError, match="once per game"):
        engine.check(nxt, UsePerks(0, ("Blink I",)))
    with pytest.raises(RulesError, match='up to 6"'):
        engine.check(_mover("Blink I"), UsePerks(0, ("Blink I: 20,20",)))


def test_p673_blink_cannot_leave_or_engage_a_melee() -> None:
    with pytest.raises(RulesError, match="cannot leave a Melee"):
        engine.check(_mover("Blink II", foe_at=6.0, engaged=True), UsePerks(0, ("Blink II",)))
    with pytest.raises(RulesError, match="cannot engage a Melee"):
        engine.check(_mover("Blink II", foe_at=12.0), UsePerks(0, ("Blink II: 20,11",)))


def test_p1025_teleport_a_failed_mastery_test_does_not_relocate() -> None:
    st = _mover("Teleport I")
    st, events = engine.apply(st, UsePerks(0, ("Teleport I",)), dice=ScriptedDice([1]))
    assert st.units[0].pos[0] == (20.0, 5.0)
    assert any("fails its Teleport I test" in e.text for e in events)
    with pytest.raises(RulesError, match="already used this Game Turn"):
        engine.check(st, UsePerks(0, ("Teleport I",)))


# -- Revive I-III, Reanimate I-III: a fallen friendly unit back at full HP ----------------------


def _fallen(rank: str, gap: float, points: int = 100, face: int = 4) -> tuple[GameState, Any]:
    """Side 1's Foe shoots side 0's Ally (1 model, 2 HP, ``points``) dead; side 0's Medic
    (``rank``, 100 pts) stands ``gap`` inches (centres) from the Ally and tests with ``face``."""
    medic = unit("Medic", perks=[rank], hp=3)
    ally = unit("Ally", hp=2)
    foe = unit("Foe", hp=3, weapons=[weapon("Gun", range=30, power=6, attacks=2)])
    st = scenario(
        [[entry(medic), entry(ally, points=points)], [entry(foe)]],
        {0: [(10, 10)], 1: [(10 + gap, 10)], 2: [(10 + gap, 30)]},
        phase=Phase.ATTACK,
        active=1,
    )
    after, events = engine.apply(st, Attack(2, (("Gun", 1),)), dice=ScriptedDice([6, 6, face]))
    check_invariants(after)
    return after, events


@pytest.mark.parametrize(
    ("rank", "radius"),
    [
        pytest.param("Revive I", 6, id="p971-Revive I"),
        pytest.param("Revive II", 12, id="p997-Revive II"),
        pytest.param("Revive III", 18, id="p1007-Revive III"),
        pytest.param("Reanimate I", 6, id="p915-Reanimate I"),
        pytest.param("Reanimate II", 12, id="p945-Reanimate II"),
        pytest.param("Reanimate III", 18, id="p957-Reanimate III"),
    ],
)
def test_a_unit_slain_within_the_radius_comes_back_at_full_hp(rank: str, radius: int) -> None:
    # L971 "With a successful Mastery Test, all models of the slain Unit are brought back into
    # Coherency at full HP"
    after, events = _fallen(rank, gap=radius)  # an edge gap of radius - 1
    assert after.units[1].location is Location.TABLE and after.units[1].hp == (2,)
    assert any(f"{rank} restores 2 HP" in e.text for e in events)
    failed, _ = _fallen(rank, gap=radius, face=1)
    assert not failed.units[1].living()  # a casualty (removed as the Attack Phase goes on)
    beyond, _ = _fallen(rank, gap=radius + 1.5)
    assert not beyond.units[1].living()  # a casualty (removed as the Attack Phase goes on)
    # Point Cost (Lesser): the slain unit's full Point Cost may not exceed the User's
    dearer, _ = _fallen(rank, gap=radius, points=150)
    assert not dearer.units[1].living()  # a casualty (removed as the Attack Phase goes on)


def test_p915_reanimated_units_fall_with_their_reanimator() -> None:
    # L915 "If the User becomes a casualty, all Units reanimated by the User also become
    # casualties"
    after, _ = _fallen("Reanimate I", gap=4)
    assert after.units[1].living()
    again = replace(after, flow=replace(after.flow, active=1),
                    units=(after.units[0], after.units[1], after.units[2]))  # fmt: skip
    st = replace(again, units=(replace(again.units[0], hp=(1,)), *again.units[1:]))
    st = replace(st, units=(st.units[0], st.units[1], replace(st.units[2], acted=False)))
    done, events = engine.apply(st, Attack(2, (("Gun", 0),)), dice=ScriptedDice([6, 6]))
    check_invariants(done)
    assert not done.units[0].living()
    assert done.units[1].location is Location.DESTROYED
    assert any("Ally falls with" in e.text for e in events)


# -- Twin, Triune: one weapon of the set each time the Wielder Attacks ------------------------


@pytest.mark.parametrize(
    ("rank", "size"),
    [pytest.param("Twin", 2, id="p3200-Twin"), pytest.param("Triune", 3, id="p3186-Triune")],
)
def test_linked_weapons_one_of_the_set_each_attack(rank: str, size: int) -> None:
    # L3200 "The Wielder only selects one of the Twin Weapons each time it Attacks"
    linked = [weapon(f"Bomb {k}", range=24, power=4 + k, perks=[rank]) for k in range(size)]
    me = unit("Bomber", weapons=[*linked, weapon("Knife", range=24)])
    foe = unit("Foe", hp=9)
    st = scenario([[entry(me)], [entry(foe)]], {0: [(20, 5)], 1: [(20, 15)]},
                  phase=Phase.ATTACK)  # fmt: skip
    with pytest.raises(RulesError, match=f"only one of its {rank} Weapons"):
        engine.check(st, Attack(0, (("Bomb 0", 1), (f"Bomb {size - 1}", 1))))
    attacks = [a for a in engine.legal_actions(st) if isinstance(a, Attack)]
    assert attacks and all(
        sum(1 for t in a.targets if t[0].startswith("Bomb")) == 1 for a in attacks
    )
    assert ("Bomb 0", 1) in attacks[0].targets and ("Knife", 1) in attacks[0].targets
    # the player may choose another of the set
    after = _shoot(st, Attack(0, ((f"Bomb {size - 1}", 1), ("Knife", 1))))
    assert after.units[1].hp != st.units[1].hp
    # without the perk both are used in one Attack
    plain = scenario(
        [[entry(unit("Bomber", weapons=[weapon("Bomb 0"), weapon("Bomb 1")]))], [entry(foe)]],
        {0: [(20, 5)], 1: [(20, 15)]}, phase=Phase.ATTACK,
    )  # fmt: skip
    engine.check(plain, Attack(0, (("Bomb 0", 1), ("Bomb 1", 1))))


# -- Uncover (L1430): no Cover Bonus within 12" of the User -----------------------------------


def test_p1430_uncover_units_within_12_get_no_cover_bonus() -> None:
    # L1430 "Any Units within 12\" of the User receive no Cover Bonus from any form of Cover"
    from tests.warsurge.game.helpers import board
    from warbench.rulesets.warsurge.battlefield import Terrain

    bushes = Terrain(name="Bushes", polygon=[(5, 17), (20, 17), (20, 18), (5, 18)], cover=1)

    def shot(spotter: tuple[float, float]) -> str:
        gunner = unit("Medusa")
        uncover = unit("Spotter", perks=["Uncover"])
        kapers = unit("Kapers", models=4)
        st = scenario(
            [[entry(gunner), entry(uncover)], [entry(kapers)]],
            {0: [(10.0, 10.0)], 1: [spotter],
             2: [(8.0, 20.0), (9.5, 20.0), (11.0, 20.0), (12.5, 20.0)]},
            phase=Phase.ATTACK, b=board(terrain=[bushes]),
        )  # fmt: skip
        _, events = engine.apply(st, Attack(0, (("Gun", 2),)), dice=ScriptedDice([1]))
        return events[0].text

    assert "Cover +1" in shot((40.0, 40.0))  # the Spotter far from the Kapers: cover as usual
    assert "Cover" not in shot((22.0, 20.0))  # 8.5" from the nearest Kaper: no Cover Bonus


# -- Pacifist (L1352), Murderer (L1338) --------------------------------------------------------


def _pacifist(shooter: list[str]) -> GameState:
    """Side 0's Monk (Pacifist, a Gun) and Guard; side 1's Shooter (``shooter``)."""
    monk = unit("Monk", perks=["Pacifist"], hp=3)
    guard = unit("Guard", hp=3)
    gunner = unit("Shooter", perks=shooter, weapons=[weapon("Gun", range=30)])
    return scenario(
        [[entry(monk), entry(guard)], [entry(gunner)]],
        {0: [(20, 20)], 1: [(40, 40)], 2: [(20, 30)]},
        phase=Phase.ATTACK,
        active=1,
    )


def test_p1352_pacifist_cannot_be_targeted_while_its_roster_stands_nor_attack() -> None:
    # L1352 "The User cannot roll Attacks with any Weapon unless it has the Heal Perk. The User
    # cannot be Targeted by enemies unless all friendly (non-Pacifist) Units from the same
    # Roster are casualties or in Reserve"
    st = _pacifist([])
    with pytest.raises(RulesError, match="is a Pacifist: it cannot be Targeted"):
        engine.check(st, Attack(2, (("Gun", 0),)))
    assert _targets(st, 2) == {1}
    mine = replace(st, flow=replace(st.flow, active=0))
    with pytest.raises(RulesError, match="only Heal Weapons"):
        engine.check(mine, Attack(0, (("Gun", 2),)))
    alone = replace(st, units=(st.units[0], replace(st.units[1], location=Location.RESERVE,
                                                      pos=()), st.units[2]))  # fmt: skip
    _shoot(alone, Attack(2, (("Gun", 0),)))


def test_p1338_murderer_can_target_pacifist_units() -> None:
    st = _pacifist(["Murderer"])
    assert _targets(st, 2) == {0, 1}
    _shoot(st, Attack(2, (("Gun", 0),)))


# -- Terrify (L1049), Dread (L2690), Fall Back (L2221), Fearless (L1525): to the board edge -----


def _until_phase(state: GameState, phase: Phase) -> tuple[GameState, list[Any]]:
    events: list[Any] = []
    while state.flow.phase is not phase:
        state, evs = engine.apply(state, Pass())
        check_invariants(state)
        events.extend(evs)
    return state, events


def _scared(foe_perks: list[str], foe_y: float = 42.0) -> GameState:
    """Side 0's Scarecrow (Terrify) uses it in its Move Phase on side 1's Foe at (20, foe_y)."""
    crow = unit("Scarecrow", perks=["Terrify"], hp=3)
    foe = unit("Foe", perks=foe_perks, hp=3)
    st = scenario([[entry(crow)], [entry(foe)]], {0: [(20, 26)], 1: [(20, foe_y)]},
                  phase=Phase.MOVE, automation=_CHOOSING)  # fmt: skip
    assert UsePerks(0, ("Terrify",)) in list(engine.legal_actions(st))
    st, _ = engine.apply(st, UsePerks(0, ("Terrify",)), dice=ScriptedDice([4]))
    return st


def test_p1049_terrify_drives_the_target_to_its_board_edge_and_into_reserve() -> None:
    # L1049 "the Target must dedicate all Movement toward their closest friendly Deployment
    # Zone board edge … If the Target touches the board edge, it goes into Reserve … must
    # remain in Reserve until the next Game Turn"
    st = _scared([])
    assert any(s.name == "Terrify" for s in st.units[1].statuses)
    st, events = _until_phase(st, Phase.DASH)
    assert any("falls back toward its board edge (Terrify)" in e.text for e in events)
    assert st.units[1].location is Location.RESERVE  # 5.5" from (20, 42): the north edge
    with pytest.raises(RulesError, match="may deploy from the next Game Turn"):
        engine.check(replace(st, flow=replace(st.flow, phase=Phase.DEPLOY, active=1)),
                     Deploy(1))  # fmt: skip


def test_p1525_fearless_is_immune_to_terrify() -> None:
    # L1525 "The User is immune to Horrific, Terrify and Dread Perks"
    crow = unit("Scarecrow", perks=["Terrify"], hp=3)
    brave = unit("Foe", perks=["Fearless"], hp=3)
    st = scenario([[entry(crow)], [entry(brave)]], {0: [(20, 26)], 1: [(20, 40)]},
                  phase=Phase.MOVE, automation=_CHOOSING)  # fmt: skip
    with pytest.raises(RulesError, match='no enemy unit within 18" and in sight to Terrify'):
        engine.check(st, UsePerks(0, ("Terrify",)))
    dread = _dreaded(["Fearless"])
    assert not any(s.name == "Dread" for s in dread.units[1].statuses)


def _dreaded(foe_perks: list[str], face: int = 4) -> GameState:
    gun = weapon("Gun", range=24, power=6, perks=["Dread"])
    me = unit("Ghoul", weapons=[gun], hp=3)
    foe = unit("Foe", perks=foe_perks, hp=3)
    st = scenario([[entry(me)], [entry(foe)]], {0: [(20, 26)], 1: [(20, 42)]},
                  phase=Phase.ATTACK)  # fmt: skip
    st, _ = engine.apply(st, Attack(0, (("Gun", 1),)), dice=ScriptedDice([6, face]))
    return st


def test_p2690_dread_a_passed_skill_test_sends_the_target_back_at_its_next_dash() -> None:
    # L2690 "the Target must dedicate the next Move and Dash toward the closest friendly
    # Deployment Zone's board edge. If the Target touches the board edge, it enters Reserve"
    st = _dreaded([])
    assert any(s.name == "Dread" for s in st.units[1].statuses)
    st, _ = _until_phase(st, Phase.DASH)
    assert st.units[1].location is Location.RESERVE
    calm, _ = _until_phase(_dreaded([], face=1), Phase.DASH)
    assert calm.units[1].location is Location.TABLE


def test_p2221_fall_back_a_failed_test_moves_the_unit_to_its_edge_at_the_move_phase() -> None:
    # L2221 "If failed, the User must dedicate all Movement toward the closest friendly
    # Deployment Zone board edge"
    me = unit("Recruits", perks=["Fall Back"], hp=3)
    foe = unit("Foe", hp=3)
    st = scenario([[entry(me)], [entry(foe)]], {0: [(20, 14)], 1: [(20, 40)]},
                  phase=Phase.DASH)  # fmt: skip
    u = st.units[0].with_counter("hp lost turn", st.flow.turn)
    st = replace(st, units=(u, st.units[1]))
    while st.flow.turn == 2:
        nxt, _ = engine.apply(st, Pass())
        if nxt.flow.turn != 2:
            st, events = engine.apply(st, Pass(), dice=ScriptedDice([1, 6, 1, 6, 1]))
            break
        st = nxt
    assert any(s.name == "Fall Back" for s in st.units[0].statuses)
    assert st.flow.phase is Phase.MOVE  # no Deploy Phase: it fell back as the Move Phase began
    assert any("falls back toward its board edge (Fall Back)" in e.text for e in events)
    assert st.units[0].pos[0][1] == pytest.approx(8.0) and st.units[0].acted
    with pytest.raises(RulesError):
        engine.check(replace(st, flow=replace(st.flow, active=0)), Move(0, to=(20.0, 20.0)))


def test_p1049_terrify_in_a_melee_is_minus_1_to_attack_dice_instead_of_moving() -> None:
    # L1049 "If engaged in a Melee while affected by Terrify, the Target suffers a -1 Dice
    # Modifier to Attack Dice instead of being forced to direct Movement"
    from warbench.rulesets.warsurge.game.state import Status

    def melee(scared: bool) -> str:
        crow = unit("Scarecrow", hp=3)
        foe = unit("Foe", hp=3, weapons=[weapon("Claws", range=1, power=4)])
        st = scenario([[entry(crow)], [entry(foe)]], {0: [(20, 26)], 1: [(20, 27.0)]},
                      phase=Phase.ATTACK, active=1, engaged=[(0, 1)])  # fmt: skip
        if scared:
            foe_u = replace(st.units[1], statuses=(Status("Terrify", 1, "u0/Terrify"),))
            st = replace(st, units=(st.units[0], foe_u))
        _, events = engine.apply(st, Attack(1, (("Claws", 0),)), dice=ScriptedDice([4]))
        return events[0].text

    assert "1 HP lost" in melee(False)
    assert "0 HP lost" in melee(True)  # a 4+ needs a 5
