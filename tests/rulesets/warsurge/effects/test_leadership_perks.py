"""Leadership Unit Perks and the Roster Perks that act when their unit falls, played in a game
(Perks 000_94ecc6a4c74d351b.txt §12.4 Leadership L1930-L2075, Roster Perks L4258 and L4282;
``game/perk_leadership.py``). Each test applies actions through the game engine (scripted dice
where dice matter) and checks the same situation without the perk. Test names carry the rank's
source line (``p2033``), which ``warbench perks --coverage`` reads."""

from __future__ import annotations

from typing import Any

import pytest

from tests.warsurge.game.helpers import check_invariants, entry, scenario, unit, weapon
from warbench.kernel.dice import ScriptedDice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack, Pass
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.movement import unit_allowance
from warbench.rulesets.warsurge.game.state import GameState, Phase, RosterEntry
from warbench.rulesets.warsurge.game.work import Work, to_unit_state
from warbench.rulesets.warsurge.profiles import ModelGroup, Unit, UnitProfile

SIXES = [6] * 50


def _next_turn(state: GameState) -> GameState:
    turn = state.flow.turn
    while state.flow.turn == turn and not state.over:
        state, _ = engine.apply(state, Pass())
        check_invariants(state)
    return state


def _until(state: GameState, phase: Phase, side: int = 0) -> GameState:
    while not (state.flow.phase is phase and state.flow.active == side):
        state, _ = engine.apply(state, Pass())
    return state


def _names(state: GameState, uid: int) -> list[str]:
    return [s.name for s in state.units[uid].statuses]


def _allowance(state: GameState, uid: int) -> int:
    return unit_allowance(Work(state, None, DEFAULT_HOOKS), uid, False)


def _stats(state: GameState, uid: int) -> Any:
    return to_unit_state(Work(state, None, DEFAULT_HOOKS), uid)


# -- Orders (L2033) ------------------------------------------------------------------------------


def _orders(leader_perks: list[str], foe_at: tuple[float, float], armed: bool = True) -> GameState:
    """Side 0: a Captain (``leader_perks``) at (10, 10), Squad A at (10, 14) (armed or not),
    Squad B at (10, 40) (beyond 18"); side 1: a Foe at ``foe_at``. Attack Phase, Game Turn 2."""
    captain = entry(unit("Captain", perks=leader_perks))
    if armed:
        a = entry(unit("Squad A"))
    else:
        bare = Unit(
            profile=UnitProfile(name="Squad A", move=6, dash=6, defence=4, hp=1),
            weapons=[],
            models=[ModelGroup(count=1, weapons=[])],
        )
        a = entry(bare)
    b = entry(unit("Squad B"))
    foe = entry(unit("Foe"))
    return scenario(
        [[captain, a, b], [foe]],
        {0: [(10.0, 10.0)], 1: [(10.0, 14.0)], 2: [(10.0, 40.0)], 3: [foe_at]},
        phase=Phase.ATTACK,
        turn=2,
    )


def test_p2033_orders_bring_it_down_with_an_enemy_within_reach() -> None:
    # the Foe is within the Squad's 24" Range + 6" Move: +1 Power, -1 Defence this Game Turn
    state = _next_turn(_orders(["Leader", "Orders"], (30.0, 30.0)))
    assert "Bring it Down!" in _names(state, 1) and "Bring it Down!" in _names(state, 0)
    assert _names(state, 2) == []  # beyond 18"
    squad = _stats(state, 1)
    assert squad.profile.defence == 3 and squad.weapons["Gun"].power == 5
    # the Order lasts the Game Turn
    assert "Bring it Down!" not in _names(_next_turn(_orders([], (30.0, 30.0))), 1)
    plain = _next_turn(_orders(["Leader"], (30.0, 30.0)))
    assert _names(plain, 1) == [] and _stats(plain, 1).profile.defence == 4


def test_p2033_orders_move_move_move_doubles_move_and_forbids_weapons() -> None:
    state = _next_turn(_orders(["Leader", "Orders"], (46.0, 46.0)))
    assert "Move, Move, Move!" in _names(state, 1)
    assert _allowance(state, 1) == 12
    at = _until(state, Phase.ATTACK)
    with pytest.raises(RulesError, match="Move, Move, Move!"):
        engine.check(at, Attack(1, (("Gun", 3),)))
    plain = _next_turn(_orders(["Leader"], (46.0, 46.0)))
    assert _allowance(plain, 1) == 6


def test_p2033_orders_take_cover_for_a_unit_without_weapons() -> None:
    state = _next_turn(_orders(["Leader", "Orders"], (46.0, 46.0), armed=False))
    assert "Take Cover!" in _names(state, 1)
    assert _allowance(state, 1) == 0 and _stats(state, 1).profile.defence == 5


# -- Egotistical (L1987) -------------------------------------------------------------------------


def _ego(perks: list[str], friend_at: tuple[float, float], foe_perks: list[str] = ()) -> GameState:  # type: ignore[assignment]
    """Side 0: the Boss (``perks``) at (10, 10) and a Squad of two at ``friend_at``; side 1: a
    Foe of one model (1 HP, ``foe_perks``) 10" north of the Squad. Move Phase, Game Turn 2."""
    boss = entry(unit("Boss", perks=perks, weapons=[weapon("Gun", power=4)]))
    squad = entry(unit("Squad", models=2, weapons=[weapon("Gun", power=4)]))
    foe = entry(unit("Foe", perks=list(foe_perks)))
    fx, fy = friend_at
    return scenario(
        [[boss, squad], [foe]],
        {0: [(10.0, 10.0)], 1: [(fx, fy), (fx + 1.5, fy)], 2: [(fx, fy + 10.0)]},
        phase=Phase.MOVE,
        turn=2,
    )


def _successes(state: GameState, uid: int, face: int) -> int:
    _, events = engine.apply(state, Attack(uid, (("Gun", 2),)), dice=ScriptedDice([face, *SIXES]))
    e = next(e for e in events if e.kind == "attack")
    return int(e.text.split(" successes")[0].rsplit(" ", 1)[1])


def test_p1987_egotistical_alone_suffers_minus_1_to_its_attack_dice() -> None:
    alone = _until(_ego(["Leader", "Egotistical"], (30.0, 10.0)), Phase.ATTACK)
    company = _until(_ego(["Leader", "Egotistical"], (10.0, 13.0)), Phase.ATTACK)
    plain = _until(_ego(["Leader"], (30.0, 10.0)), Phase.ATTACK)
    assert "Egotistical (alone)" in _names(alone, 0)
    assert "Egotistical (alone)" not in _names(company, 0) and _names(plain, 0) == []
    # the Foe is 10" north of the Squad: the Boss aims at it from where it stands
    got = [_successes(alone, 0, f) for f in range(1, 7)]
    base = [_successes(plain, 0, f) for f in range(1, 7)]
    assert sum(got) < sum(base)
    assert all(g <= b for g, b in zip(got, base, strict=True))


def test_p1987_egotistical_takes_a_model_from_a_friend_that_slays_an_enemy_leader() -> None:
    # the Squad, 3" from the Boss, slays the enemy Leader (a 6): it loses a model, no Saves
    state = _until(_ego(["Leader", "Egotistical"], (10.0, 13.0), ["Leader"]), Phase.ATTACK)
    new, events = engine.apply(state, Attack(1, (("Gun", 2),)), dice=ScriptedDice(SIXES))
    check_invariants(new)
    assert new.units[2].living() == []
    assert len(new.units[1].living()) == 1
    assert any("Egotistical" in e.text and "slays a model" in e.text for e in events)
    # the Foe is no Leader: nothing; no Egotistical Boss: nothing
    for perks, foe_perks in ((["Leader", "Egotistical"], []), (["Leader"], ["Leader"])):
        state = _until(_ego(perks, (10.0, 13.0), foe_perks), Phase.ATTACK)
        new, _ = engine.apply(state, Attack(1, (("Gun", 2),)), dice=ScriptedDice(SIXES))
        assert new.units[2].living() == [] and len(new.units[1].living()) == 2


# -- Avenge (L4258) and Despair (L4282): Roster Perks designated to a unit -----------------------


def _fall(trait: str, by_friend: bool = False) -> tuple[GameState, GameState]:
    """Side 0: the Standard (designated ``trait``, 1 HP) and a Squad; side 1: a Foe 10" away.
    The Foe (or, ``by_friend``, the Squad) slays the Standard with a 6."""
    std = RosterEntry(unit("Standard"), 100, 25.4, None, (trait,))
    squad = entry(unit("Squad"))
    foe = entry(unit("Foe"))
    attacker = 1 if by_friend else 2
    state = scenario(
        [[std, squad], [foe]],
        {0: [(10.0, 10.0)], 1: [(14.0, 10.0)], 2: [(10.0, 20.0)]},
        phase=Phase.ATTACK,
        active=0 if by_friend else 1,
        turn=2,
    )
    return state, engine.apply(state, Attack(attacker, (("Gun", 0),)), dice=ScriptedDice(SIXES))[0]


@pytest.mark.parametrize(
    ("trait", "dice"),
    [
        pytest.param("Avenge", 1, id="p4258-Avenge"),
        pytest.param("Despair", -1, id="p4282-Despair"),
    ],
)
def test_p4258_the_roster_gains_its_dice_modifier_when_the_designated_unit_falls(
    trait: str, dice: int
) -> None:
    before, after = _fall(trait)
    assert after.units[0].living() == []
    assert trait in _names(after, 1) and trait not in _names(after, 2)
    assert trait not in _names(before, 1)
    # the Squad's Attack Dice now carry the modifier
    from warbench.rulesets.warsurge.attack import AttackContext
    from warbench.rulesets.warsurge.game.perk_effects import status_dice

    ctx = status_dice(AttackContext(), after.units[1].statuses, ())
    assert sum(v for v, _ in ctx.status_modifiers) == dice
