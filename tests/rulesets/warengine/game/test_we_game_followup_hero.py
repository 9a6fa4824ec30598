"""Hero Points in the Follow Up step are the defender's decision (004_f4ea5693af0644ce.txt
L491-L497, L597-L603; Poisoned L1831, Immolation L1793, Time Delay L1741).

A follow-up attack is rolled, then waits for the defender's ``hero`` decision like any
attack; the engine's choice (exactly enough to survive if it has that many) is the default,
and the Follow Up step, the Rout step and the next turn go on once it is answered.
"""

from __future__ import annotations

from typing import Any

from warbench.kernel.dice import ScriptedDice
from warbench.rulesets.warengine.game.state import Attack, Deactivate, GameState, Hero

from .helpers import WS, act, activate, force, table, trooper


def _poisoned(hero: int) -> GameState:
    """B (Hero Points ``hero``) survived a Poisoned spit; every unit has activated, so player
    0's Deactivate ends the Conflict step."""
    a = trooper(
        "A",
        type="C",
        weapons=[{"name": "Spitter", "range": '24"', "av": "2k2", "tweaks": ["Poisoned"]}],
    )
    b = trooper("B", type="C", df="6k5", hero_points=hero)
    s = table(force(("A", [(a, 1)])), force(("D", [(b, 1)])), [(10, 5), (10, 20)])
    s = activate(s, 0)
    s.figs[0].moved = s.figs[1].moved = True
    s, _ = act(s, Attack(0, 0, 1), 0, [1, 1, 6, 6, 6, 6, 6, 6])
    assert s.figs[1].alive and s.figs[1].burning
    for u in s.units:
        u.activated = True
    return s


#: The poison (2k2 -1k1 = 1k1) rolls 6; B's basic Defense 6k5 rolls six ones: 5. B needs 1.
FACES = [6, 1, 1, 1, 1, 1, 1]


def _end_turn(s: GameState) -> tuple[GameState, list[Any]]:
    return act(s, Deactivate(), 0, FACES)


def test_L1831_follow_up_hero_points_are_the_defenders_decision() -> None:
    s, ev = _end_turn(_poisoned(hero=3))
    (d,) = WS.pending(s)
    assert (d.kind, d.player, d.default) == ("hero", 1, Hero(1))
    assert s.phase == "follow up" and s.figs[1].alive
    assert [a for a in WS.legal_actions(s, 1)] == [Hero(k) for k in range(4)]
    assert WS.check(s, Deactivate(), 0) is not None  # nobody else acts meanwhile
    assert any(e.kind == "follow up" and "L1831" in e.rule for e in ev)


def test_L493_the_default_spends_exactly_enough_and_the_turn_goes_on() -> None:
    s, _ = _end_turn(_poisoned(hero=3))
    s, ev = act(s, Hero(1), 1)
    assert s.figs[1].alive and s.figs[1].hero == 2
    assert s.phase == "initiative" and s.turn == 2
    assert [e.kind for e in ev][-1] == "turn"


def test_L497_spending_nothing_lets_the_poison_kill() -> None:
    s, _ = _end_turn(_poisoned(hero=3))
    s, _ = act(s, Hero(0), 1)
    assert not s.figs[1].alive and s.figs[1].hero == 3
    assert s.phase == "over" and s.winner == 0  # the last figure of player 1 (L619)


def test_L491_no_decision_without_hero_points() -> None:
    s, _ = _end_turn(_poisoned(hero=0))
    assert not s.figs[1].alive and s.phase == "over"
    assert not WS.pending(s) or WS.pending(s)[0].kind != "hero"


def test_L597_a_follow_up_game_with_every_default_replays() -> None:
    s, _ = _end_turn(_poisoned(hero=3))
    blob = WS.states.dump(s)
    again = WS.states.load(blob)
    assert WS.digest(again) == WS.digest(s)
    t, _ = WS.apply(again, Hero(1), 1, ScriptedDice([]))
    assert t.figs[1].hero == 2 and t.turn == 2
