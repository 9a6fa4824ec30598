"""Choices the book gives a player that the engine used to make: Knockback's diagonal
(003_fc239e71486306e1.txt L1943-1944 "If the movement is diagonal and there is no clear
destination, it is the attacker's choice") and Checkmate's payment (L1659-1663 "If two or
more friendly units are also within melee reach they may pay EC for their weapon"). Each is a
protocol decision whose default is the engine's former choice (docs/rulings.md, Collision 20
and 34; the additions there)."""

from __future__ import annotations

from typing import Any

from tests.rulesets.collision.game.helpers import RS, card, duel_setup, placed, step
from warbench.play import SetupArgs
from warbench.rulesets.collision.game.state import Attack, CollisionState, PayCheckmate, Push


def _shove(at: tuple[tuple[int, int], tuple[int, int]], facing: str = "N") -> CollisionState:
    setup = duel_setup(card("A", abilities=["Shove"], stats={"att": 4}), card("B"))
    return placed(setup, {0: (at[0], facing), 1: (at[1], "S")})


def _decision(s: CollisionState) -> Any:
    (d,) = RS.pending(s)
    return d


def test_l1943_a_diagonal_knockback_asks_the_attacker_which_side() -> None:
    s = _shove(((2, 2), (3, 3)))
    s, _ = step(s, Attack(1, None, "Shove"), [1])  # 1 + Att 4 + 1 hits Def 5: Knockback 2
    d = _decision(s)
    assert (d.kind, d.player) == ("knockback", 0)
    assert "L1937-1944" in d.rule
    legal = list(RS.legal_actions(s, 0))
    assert legal == [Push((4, 3)), Push((3, 4))]
    assert d.default == Push((4, 3))  # the engine's former choice: the x axis (ruling 20)
    assert s.units[1].pos == (3, 3) and s.units[1].endurance == 5  # nothing moved yet
    up, _ = step(s, Push((3, 4)), [])
    assert up.units[1].pos == (3, 5)
    assert up.units[1].endurance == 3  # the Drain 2 after the push (L2148-2152)
    assert up.stage == "act" and up.player == 0
    side, _ = step(s, d.default, [])
    assert side.units[1].pos == (5, 3)


def test_l1943_the_push_is_refused_off_the_two_axes() -> None:
    s = _shove(((2, 2), (3, 3)))
    s, _ = step(s, Attack(1, None, "Shove"), [1])
    refusal = RS.check(s, Push((4, 4)), 0)
    assert refusal is not None and "L1937-1944" in refusal.rule
    assert RS.check(s, Push((4, 3)), 1) is not None  # not the defender's decision


def test_l1937_a_straight_knockback_asks_nothing() -> None:
    s = _shove(((2, 2), (3, 2)), "E")
    s, _ = step(s, Attack(1, None, "Shove"), [1])
    assert s.stage == "act" and s.units[1].pos == (5, 2)


def _checkmate() -> CollisionState:
    a = card("A", abilities=["Checkmate"])
    groups = (
        {
            "name": "A",
            "points_limit": 200,
            "characters": [{"card": a}, {"card": card("Ally 1")}, {"card": card("Ally 2")}],
        },
        {"name": "B", "points_limit": 200, "characters": [{"card": card("B")}]},
    )
    setup = SetupArgs(
        groups,
        {"cols": 8, "rows": 6},
        {"major": "Headhunter", "minors": ["Tactical Victory", "High Ground"]},
    )
    # the target at (3, 2); the attacker and both allies in reach of it
    where = {0: ((2, 2), "E"), 1: ((3, 3), "S"), 2: ((3, 1), "N"), 3: ((4, 2), "W")}
    s = placed(setup, where)
    assert [u.uid for u in s.units if u.owner == 1] == [3]
    s.units[3].pos = (3, 2)
    return s


def test_l1659_checkmate_asks_whether_two_allies_pay() -> None:
    s, _ = step(_checkmate(), Attack(3, "Sword", "Checkmate"), [])
    d = _decision(s)
    assert (d.kind, d.player) == ("checkmate", 0) and "L1659-1663" in d.rule
    assert list(RS.legal_actions(s, 0)) == [PayCheckmate((1, 2)), PayCheckmate(())]
    assert d.default == PayCheckmate((1, 2))  # the engine's former choice: they pay
    paid, _ = step(s, PayCheckmate((1, 2)), [1])  # 1 + W-Att 3+2 hits Def 5: Slay
    assert paid.units[3].where == "defeated"
    assert paid.units[1].endurance == 4 and paid.units[2].endurance == 4  # their Sword's EC 1
    unpaid, _ = step(s, PayCheckmate(()), [1, 1])  # a hit without Slay: 1+3 > Armor 3, Injury 1
    assert unpaid.units[3].where == "board" and unpaid.units[3].injuries == 1
    assert unpaid.units[1].endurance == 5 and unpaid.units[2].endurance == 5


def test_l1659_checkmate_payment_refused_unless_two_able_allies() -> None:
    s, _ = step(_checkmate(), Attack(3, "Sword", "Checkmate"), [])
    for bad in (PayCheckmate((1,)), PayCheckmate((1, 1)), PayCheckmate((1, 3))):
        refusal = RS.check(s, bad, 0)
        assert refusal is not None and "L1659-1663" in refusal.rule, bad


def test_l1659_checkmate_without_two_allies_asks_nothing() -> None:
    s = _checkmate()
    s.units[2].where, s.units[2].pos = "defeated", None
    s, _ = step(s, Attack(3, "Sword", "Checkmate"), [1, 1])
    assert s.stage == "act" and s.units[3].where == "board"
