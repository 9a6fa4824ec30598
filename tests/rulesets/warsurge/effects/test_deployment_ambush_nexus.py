"""Deployment from Reserve outside the zone (Perks 000_94ecc6a4c74d351b.txt: Ambush I-III
L1814-L1836, the Roster Perk Nexus L4346; ``game/perk_deploy.py``). Each test applies a Deploy
through the game engine (scripted dice) and checks the same Deploy without the perk. Test names
carry the rank's source line (``p1814``), which ``warbench perks --coverage`` reads."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.warsurge.game.helpers import check_invariants, entry, scenario, unit, weapon
from warbench.kernel.dice import ScriptedDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Deploy
from warbench.rulesets.warsurge.game.state import GameState, Location, Phase

#: Two models in the middle of the 48" board, 12" from either Deployment Zone (y 0-12, 36-48).
MIDDLE = ((24.0, 24.0), (25.5, 24.0))


def _state(perks: list[str], turn: int = 2) -> GameState:
    """Side 0's Scouts (2 models, ``perks``) in Reserve, in the Deploy Phase of ``turn``; side
    1's Foe at (24, 44)."""
    scouts = entry(unit("Scouts", models=2, perks=perks))
    foe = entry(unit("Foe"))
    return scenario([[scouts], [foe]], {1: [(24.0, 44.0)]}, phase=Phase.DEPLOY, turn=turn)


def _deploy(state: GameState, faces: list[int]) -> tuple[GameState, list[str]]:
    dice = ScriptedDice(faces)
    new, events = engine.apply(state, Deploy(0, positions=MIDDLE), dice=dice)
    assert dice.remaining == 0, "every scripted face is used"
    check_invariants(new)
    return new, [e.text for e in events]


def test_p1836_ambush_iii_lands_exactly_where_placed_on_a_passed_mastery_test() -> None:
    new, texts = _deploy(_state(["Ambush III"]), [4])  # Mastery Test 4+: passed
    assert new.units[0].location is Location.TABLE
    assert new.units[0].pos == MIDDLE
    assert any("passes its Ambush III test" in t for t in texts)


def test_p1814_ambush_needs_the_perk_and_game_turn_2() -> None:
    with pytest.raises(RulesError, match="outside its Deployment Zone"):
        engine.check(_state([]), Deploy(0, positions=MIDDLE))
    with pytest.raises(RulesError, match="from Game Turn 2"):
        engine.check(_state(["Ambush I"], turn=1), Deploy(0, positions=MIDDLE))


def test_p1814_ambush_i_scatters_2d6_on_a_passed_mastery_test() -> None:
    # Mastery 4; Scatter Arrow 3 (not a Hit), distance 3 + 3, direction faces (1, 1): N
    new, texts = _deploy(_state(["Ambush I"]), [4, 3, 3, 3, 1, 1])
    assert new.units[0].pos == ((24.0, 30.0), (25.5, 30.0))
    assert any('scatters 6" N' in t for t in texts)


def test_p1814_ambush_i_a_hit_stays() -> None:
    new, _ = _deploy(_state(["Ambush I"]), [4, 6, 2, 2])  # Scatter Arrow 6: a Hit
    assert new.units[0].pos == MIDDLE


def test_p1830_ambush_ii_scatters_d6() -> None:
    # Mastery 5; Scatter Arrow 2, distance 4, direction faces (2, 1): E
    new, texts = _deploy(_state(["Ambush II"]), [5, 2, 4, 2, 1])
    assert new.units[0].pos == ((28.0, 24.0), (29.5, 24.0))
    assert any('scatters 4" E' in t for t in texts)


def test_p1814_ambush_failed_deploys_normally_in_the_zone() -> None:
    new, texts = _deploy(_state(["Ambush I"]), [3])  # Mastery Test failed
    u = new.units[0]
    assert u.location is Location.TABLE
    assert all(y <= 12.0 for _, y in u.pos)
    assert any("deploys normally" in t for t in texts)


def test_p1814_ambush_off_the_board_returns_to_reserve() -> None:
    state = _state(["Ambush I"])
    edge = ((24.0, 46.0), (25.5, 46.0))  # near the north edge; scatters 12" N: off the board
    dice = ScriptedDice([4, 3, 6, 6, 1, 1])
    new, events = engine.apply(state, Deploy(0, positions=edge), dice=dice)
    check_invariants(new)
    # the Foe's zone: Ambush goes anywhere on the battlefield, but here there is no room
    assert new.units[0].location is Location.RESERVE
    assert any("returns to Reserve" in e.text for e in events)


# -- Nexus (L4346) -------------------------------------------------------------------------------


def _nexus_state(trait: bool) -> GameState:
    """Side 0: the Herald (designated the Nexus when ``trait``) on the Battlefield at (24, 24)
    and the Squad (2 models) in Reserve; Deploy Phase of Game Turn 2."""
    herald = entry(unit("Herald"))
    if trait:
        herald = replace(herald, traits=("Nexus",))
    squad = entry(unit("Squad", models=2))
    foe = entry(unit("Foe"))
    return scenario(
        [[herald, squad], [foe]], {0: [(24.0, 24.0)], 2: [(24.0, 44.0)]}, phase=Phase.DEPLOY
    )


def test_p4346_nexus_a_friendly_deployment_zone_within_12_inches() -> None:
    near = ((24.0, 30.0), (25.5, 30.0))
    new, _ = engine.apply(_nexus_state(True), Deploy(1, positions=near))
    check_invariants(new)
    assert new.units[1].location is Location.TABLE and new.units[1].pos == near
    with pytest.raises(RulesError, match="outside its Deployment Zone"):
        engine.check(_nexus_state(False), Deploy(1, positions=near))


def test_p4346_nexus_units_must_be_wholly_within_the_area() -> None:
    # the Herald's base edge is 0.5" from its centre: 12" from it ends 12.5" from the centre,
    # so a 0.5"-radius model may stand up to 12" from the centre
    ok = ((24.0, 36.0 - 0.1), (22.6, 35.3))
    engine.check(_nexus_state(True), Deploy(1, positions=ok))
    out = ((24.0, 36.5), (25.5, 30.0))  # the first base pokes out of the area
    with pytest.raises(RulesError, match="outside its Deployment Zone"):
        engine.check(_nexus_state(True), Deploy(1, positions=out))


# -- Phoenix (L1876), Implant (L2764), Seed I (L1890) --------------------------------------------


def _fallen_scene(perk: str, gun_perks: list[str] | None = None) -> GameState:
    """Side 0: the Guard (1 HP) at (24, 20) and the Reborn (``perk``, 2 models) in Reserve;
    side 1: the Foe at (24, 30) with a Gun (``gun_perks``). Attack Phase of Game Turn 2, side
    1 to act; the Reborn is held as Game Turn 2 starts (a pass through its start)."""
    from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
    from warbench.rulesets.warsurge.game.perk_deploy import arrivals
    from warbench.rulesets.warsurge.game.work import Work

    guard = entry(unit("Guard"))
    reborn = entry(unit("Reborn", models=2, perks=[perk]))
    foe = entry(unit("Foe", hp=3, weapons=[weapon("Gun", power=4, perks=gun_perks or [])]))
    st = scenario(
        [[guard, reborn], [foe]], {0: [(24.0, 20.0)], 2: [(24.0, 30.0)]},
        phase=Phase.ATTACK, active=1,
    )  # fmt: skip
    w = Work(st, None, DEFAULT_HOOKS)
    arrivals(w)
    return w.state()


def _shoot_guard(st: GameState, faces: list[int]) -> GameState:
    from warbench.rulesets.warsurge.game.actions import Attack, Pass

    dice = ScriptedDice(faces)
    st, _ = engine.apply(st, Attack(2, (("Gun", 0),)), dice=dice)
    assert dice.remaining == 0
    while st.flow.phase is Phase.ATTACK:  # the casualties go at the end of the Phase
        st, _ = engine.apply(st, Pass())
        check_invariants(st)
    return st


def test_p1876_phoenix_is_held_in_reserve() -> None:
    st = _fallen_scene("Phoenix")
    st = replace(st, flow=replace(st.flow, phase=Phase.DEPLOY, active=0))
    with pytest.raises(RulesError, match="Phoenix"):
        engine.check(st, Deploy(1, positions=((10.0, 5.0), (11.5, 5.0))))


def test_p1876_phoenix_replaces_a_friendly_unit_removed_as_a_casualty() -> None:
    st = _shoot_guard(_fallen_scene("Phoenix"), [4])  # 1 HP lost: the Guard falls
    assert st.units[0].location is Location.DESTROYED
    reborn = st.units[1]
    assert reborn.location is Location.TABLE
    # placed §6.6's way: where the Guard stood, the second model beside it
    assert reborn.pos[0] == (24.0, 20.0)
    assert all(abs(x - 24.0) <= 3.0 and abs(y - 20.0) <= 3.0 for x, y in reborn.pos)
    # without a casualty it stays in Reserve
    missed = _shoot_guard(_fallen_scene("Phoenix"), [3])
    assert missed.units[1].location is Location.RESERVE


@pytest.mark.parametrize("rank", ["p2764-Implant", "p1890-Seed I"])
def test_implant_puts_a_seed_unit_in_its_host_which_emerges_where_the_host_fell(
    rank: str,
) -> None:
    """Implant lands on HP Loss and a Seed I unit is "in" the Target; it deploys where the
    Target fell (one story plays both ranks)."""
    # side 0's Foe (its Gun with Implant) hits side 1's Guard (2 HP); side 0's Spawn (Seed I)
    # waits in Reserve
    guard = entry(unit("Guard", hp=2))
    seed = entry(unit("Spawn", models=2, perks=["Seed I"]))
    foe = entry(unit("Foe", hp=3, weapons=[weapon("Gun", power=4, perks=["Implant"])]))
    st = scenario(
        [[foe, seed], [guard]], {0: [(24.0, 30.0)], 2: [(24.0, 20.0)]}, phase=Phase.ATTACK
    )
    from warbench.rulesets.warsurge.game.actions import Attack, Pass
    from warbench.rulesets.warsurge.game.perk_deploy import SEED_HOST

    st, events = engine.apply(st, Attack(0, (("Gun", 2),)), dice=ScriptedDice([4]))
    assert [s.name for s in st.units[2].statuses] == ["Implant"]
    assert st.units[1].counter(SEED_HOST) == 3  # in the Guard (uid 2)
    assert any("is in P1: Guard" in e.text for e in events)
    # the Guard (1 HP left) falls to a second hit in the next Game Turn: the Spawn emerges
    while st.flow.turn == 2:
        st, _ = engine.apply(st, Pass())
    # held: no normal Deploy
    with pytest.raises(RulesError, match="Implant"):
        engine.check(
            replace(st, flow=replace(st.flow, phase=Phase.DEPLOY, active=0)),
            Deploy(1, positions=((10.0, 5.0), (11.5, 5.0))),
        )
    while not (st.flow.phase is Phase.ATTACK and st.flow.active == 0):
        st, _ = engine.apply(st, Pass())
    st, _ = engine.apply(st, Attack(0, (("Gun", 2),)), dice=ScriptedDice([4]))
    while st.flow.phase is Phase.ATTACK:
        st, _ = engine.apply(st, Pass())
        check_invariants(st)
    assert st.units[2].location is Location.DESTROYED
    assert st.units[1].location is Location.TABLE
    assert st.units[1].pos[0] == (24.0, 20.0)
