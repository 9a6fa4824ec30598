"""Bodyguards and Leaders that lose their Perks (issue 10, session 36, s36-wreck; docs/game.md
"Bodyguards and Leaders that lose their perks").

Wreckage (Perks 000_94ecc6a4c74d351b.txt L1442) is the one rule that takes a Passive Perk away
mid-game: "the model will remain on the Battlefield as terrain instead of being removed
(unable to contest Objectives, Immobile, no Weapons and no Perks)". Bodyguard (L1935) and
Leader (L2017) are Passive, so a Bodyguard or Leader become Wreckage guards and leads no more,
and Wreckage, terrain, is no unit for one to guard or lead. (Wild Instinct's Inactive, L2341,
and Confuse, L2636, refuse activated Perks only; Purge, L899, ends effects that needed an
Activation or a Mastery Test: none of them touches a Passive Perk.) Before the fix a friendly
unit ending its Move within Coherency of a wrecked Bodyguard had it attach again and take the
unit's Attacks.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.warsurge.game.helpers import check_invariants, entry, scenario, unit, weapon
from warbench.kernel.dice import ScriptedDice, SeededDice
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack, Move, Pass
from warbench.rulesets.warsurge.game.state import WRECKED, GameState, Phase, Status

SHOOTER, GUARD, VIP = 0, 1, 2


def _game(perks: tuple[str, ...], status: str) -> GameState:
    """A Shooter (unit 0, a Gun: 4 Attacks at Power 5) 9" from a 1 HP single-model Guard
    (unit 1, ``perks``, ``status`` on it) beside three VIPs (unit 2). Side 0's Attack Phase."""
    gun = weapon("Gun", range=24, attacks=4, power=5)
    shooter = entry(unit("Shooter", weapons=[gun]))
    guard = entry(unit("Guard", hp=1, perks=list(perks)), points=50)
    vip = entry(unit("VIP", models=3))
    state = scenario(
        [[shooter], [guard, vip]],
        {SHOOTER: [(10.0, 10.0)], GUARD: [(20.0, 11.5)],
         VIP: [(20.0, 10.0), (21.5, 10.0), (23.0, 10.0)]},
        phase=Phase.ATTACK,
        active=0,
    )  # fmt: skip
    units = list(state.units)
    units[GUARD] = replace(units[GUARD], statuses=(Status(f"{status}{VIP}", None, perks[0]),))
    return replace(state, units=tuple(units))


def _at(state: GameState, phase: Phase, active: int) -> GameState:
    units = tuple(replace(u, acted=False) for u in state.units)
    return replace(state, units=units, flow=replace(state.flow, phase=phase, active=active))


def _slain(perks: tuple[str, ...], status: str) -> GameState:
    """The Shooter slays the Guard (6; the Bodyguard's dice left, 5 1 4, follow on: two VIPs
    fall) and the Phase ends; then the last VIP ends a Move 1.5" on, beside the Guard."""
    state, _ = engine.apply(
        _game(perks, status), Attack(SHOOTER, (("Gun", VIP),)), dice=ScriptedDice([6, 5, 1, 4])
    )
    while state.flow.phase is Phase.ATTACK:
        state, _ = engine.apply(state, Pass())
    state = _at(state, Phase.MOVE, 1)
    state, _ = engine.apply(state, Move(VIP, positions=((23.0, 11.5),)), dice=SeededDice(1))
    check_invariants(state)
    return state


def _names(state: GameState, uid: int) -> set[str]:
    return {s.name for s in state.units[uid].statuses}


def test_p1935_p1442_a_bodyguard_become_wreckage_guards_no_more() -> None:
    state = _slain(("Bodyguard", "Wreckage"), "Guarding@")
    assert state.units[GUARD].wrecked and state.units[VIP].hp == (0, 0, 1)
    # the VIP's Move ended within Coherency of the Wreckage: it does not attach (no Perks)
    assert not any(n.startswith("Guarding@") for n in _names(state, GUARD))
    # the Shooter's Gun strikes the VIP (four 6s: its last model falls), not the Wreckage
    after, events = engine.apply(
        _at(state, Phase.ATTACK, 0), Attack(SHOOTER, (("Gun", VIP),)), dice=ScriptedDice([6] * 4)
    )
    assert not any("guards" in e.text for e in events)
    assert after.units[VIP].hp == (0, 0, 0) and after.units[GUARD].hp == (1,)


def _beside(perks: tuple[str, ...]) -> GameState:
    """The Guard (``perks``) is Wreckage already (L1442), attached to nothing; the VIPs end a
    Move 0.5" on, their first model within Coherency of it. Side 1's Move Phase."""
    state = _at(_game(perks, "x"), Phase.MOVE, 1)
    units = list(state.units)
    units[GUARD] = replace(units[GUARD], statuses=(Status(WRECKED, None, "Wreckage"),), acted=True)
    state = replace(state, units=tuple(units))
    to = ((20.0, 10.5), (21.5, 10.5), (23.0, 10.5))
    moved, _ = engine.apply(state, Move(VIP, positions=to), dice=SeededDice(1))
    check_invariants(moved)
    return moved


def test_p2017_p1442_a_leader_become_wreckage_leads_no_more() -> None:
    state = _beside(("Leader", "Wreckage"))
    assert not any(n.startswith("Attached@") for n in _names(state, GUARD))
    # an Attack at the Wreckage strikes it (1 HP: removed), not the VIPs it stands beside
    after, events = engine.apply(
        _at(state, Phase.ATTACK, 0), Attack(SHOOTER, (("Gun", GUARD),)), dice=ScriptedDice([6] * 4)
    )
    assert not any("is attached to" in e.text for e in events)
    assert after.units[VIP].hp == (1, 1, 1) and after.units[GUARD].hp == (0,)


@pytest.mark.parametrize(("perk", "status"), [("Bodyguard", "Guarding@"), ("Leader", "Attached@")])
def test_p1442_wreckage_is_no_unit_to_guard_or_lead(perk: str, status: str) -> None:
    """A Bodyguard or Leader attached to a unit become Wreckage detaches at the next Move, and
    a Move of its own ending beside the Wreckage attaches it to nothing."""
    gun = weapon("Gun", range=24, attacks=4, power=5)
    shooter = entry(unit("Shooter", weapons=[gun]))
    wreck = entry(unit("Wreck", hp=1, perks=["Wreckage"]), points=50)
    keeper = entry(unit("Keeper", perks=[perk]), points=40)
    state = scenario(
        [[shooter], [wreck, keeper]],
        {SHOOTER: [(10.0, 10.0)], GUARD: [(20.0, 11.5)], VIP: [(20.0, 13.0)]},
        phase=Phase.MOVE,
        active=1,
    )
    units = list(state.units)
    units[GUARD] = replace(units[GUARD], statuses=(Status(WRECKED, None, "Wreckage"),), acted=True)
    units[VIP] = replace(units[VIP], statuses=(Status(f"{status}{GUARD}", None, perk),))
    state = replace(state, units=tuple(units))
    moved, events = engine.apply(state, Move(VIP, positions=((20.0, 13.5),)), dice=SeededDice(1))
    check_invariants(moved)
    assert not any(n.startswith(status) for n in _names(moved, VIP))
    assert any("detaches" in e.text for e in events)
