"""Leadership, Trait and Mode ranks of session 25's lane s25-lead played in a game (Perks
000_94ecc6a4c74d351b.txt): Furious (L2003) … Test names carry the rank's source line
(``p2003`` …), which ``warbench perks --coverage`` reads (``scripts/build_perk_coverage.py``)."""

from __future__ import annotations

from tests.warsurge.game.helpers import check_invariants, entry, scenario, unit, weapon
from warbench.kernel.dice import ScriptedDice
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack
from warbench.rulesets.warsurge.game.state import GameState, Phase

# -- Furious (L2003) ------------------------------------------------------------------------------

CLUB = weapon("Club", range=24, attacks=4, power=4)


def _furious(
    friend_gap: float | None, *, perks: tuple[str, ...] = ("Leader", "Furious")
) -> GameState:
    """A Leader (unit 0, four Attacks at Power 4) 10" from three enemy Grunts (unit 2), with
    three friendly Militia (unit 1) ``friend_gap`` inches from it (None: far away)."""
    boss = entry(unit("Boss", hp=5, perks=list(perks), weapons=[CLUB]))
    militia = entry(unit("Militia", models=3))
    grunts = entry(unit("Grunts", models=3))
    fx = 10.0 if friend_gap is None else 10.0 - 1.0 - friend_gap
    return scenario(
        [[boss, militia], [grunts]],
        {0: [(10.0, 10.0)], 1: [(fx - 3.0, 30.0), (fx - 1.5, 30.0), (fx, 30.0)]
         if friend_gap is None else [(fx, 10.0), (fx - 1.5, 10.0), (fx - 3.0, 10.0)],
         2: [(21.0, 10.0), (22.5, 10.0), (24.0, 10.0)]},
        phase=Phase.ATTACK,
    )  # fmt: skip


def _hp(state: GameState, uid: int) -> int:
    return sum(max(0, h) for h in state.units[uid].hp)


def test_p2003_furious_failed_dice_strike_the_closest_friend_within_6_inches() -> None:
    state = _furious(2.0)
    # four Attack Dice at 4+: 6, 5 succeed, 1, 2 fail; the two failed dice strike the Militia
    # as successful Attack Dice (no roll, no Saves: 2 HP, two casualties)
    after, events = engine.apply(state, Attack(0, (("Club", 2),)), dice=ScriptedDice([6, 5, 1, 2]))
    check_invariants(after)
    assert _hp(after, 2) == 1
    assert _hp(after, 1) == 1
    assert _hp(after, 0) == 5
    assert any(e.kind == "perk" and "Furious" in e.text and "Militia" in e.text for e in events)
    # without Furious the Militia are untouched
    plain, _ = engine.apply(
        _furious(2.0, perks=("Leader",)), Attack(0, (("Club", 2),)), dice=ScriptedDice([6, 5, 1, 2])
    )
    assert _hp(plain, 1) == 3 and _hp(plain, 2) == 1


def test_p2003_furious_with_no_friend_within_6_inches_the_user_attacks_itself() -> None:
    state = _furious(None)
    after, events = engine.apply(state, Attack(0, (("Club", 2),)), dice=ScriptedDice([6, 1, 1, 1]))
    check_invariants(after)
    assert _hp(after, 2) == 2
    assert _hp(after, 1) == 3  # 20" away: not struck
    assert _hp(after, 0) == 2  # three failed dice strike the Boss itself
    assert any(e.kind == "perk" and "strike itself" in e.text for e in events)


def test_p2003_furious_no_failed_dice_strike_nothing() -> None:
    after, events = engine.apply(
        _furious(2.0), Attack(0, (("Club", 2),)), dice=ScriptedDice([6, 5, 4, 4])
    )
    assert _hp(after, 1) == 3 and _hp(after, 2) == 0
    assert not any(e.kind == "perk" and "Furious" in e.text for e in events)
