"""Dice Duel's rules (warbench.play.toy docstring, "toy §n"), one test per section."""

from __future__ import annotations

from dataclasses import replace

import pytest

from warbench.kernel.dice import ScriptedDice
from warbench.kernel.errors import ProfileError
from warbench.play import CHANCE, IllegalAction, SetupArgs
from warbench.play.toy import DiceDuel, DuelState, Initiative, Move, Shield, Stance


def start(duel: DiceDuel, setup: SetupArgs) -> DuelState:
    return duel.setup(setup.rosters, setup.board, setup.options, seed=3)


def to_moves(duel: DiceDuel, s: DuelState, first: int = 0) -> DuelState:
    s, _ = duel.apply(s, Initiative(first), CHANCE)
    s, _ = duel.apply(s, Stance("attack"), 0)
    s, _ = duel.apply(s, Stance("attack"), 1)
    return s


def test_toy_s1_setup_places_duellists_at_the_ends(duel: DiceDuel, setup: SetupArgs) -> None:
    s = start(duel, setup)
    assert s.pos == (0.0, 8.0) and s.hp == (3, 3) and s.shields == (1, 2)


def test_toy_s1_setup_refuses_a_bad_roster(duel: DiceDuel) -> None:
    with pytest.raises(ProfileError, match=r"rosters\[1\]\.hp"):
        duel.setup([{"hp": 2}, {"hp": 0}], None, {}, 1)
    with pytest.raises(ProfileError, match="exactly 2"):
        duel.setup([{"hp": 2}], None, {}, 1)


def test_toy_s2_initiative_is_a_chance_decision(duel: DiceDuel, setup: SetupArgs) -> None:
    s = start(duel, setup)
    (d,) = duel.pending(s)
    assert d.is_chance and [p for _, p in d.outcomes] == [0.5, 0.5]
    refusal = duel.check(s, Initiative(0), 0)
    assert refusal is not None and refusal.rule == "toy §2"


def test_toy_s3_stances_are_simultaneous_and_secret(duel: DiceDuel, setup: SetupArgs) -> None:
    s, _ = duel.apply(start(duel, setup), Initiative(1), CHANCE)
    assert {d.player for d in duel.pending(s)} == {0, 1}
    s, _ = duel.apply(s, Stance("guard"), 1)
    assert [d.player for d in duel.pending(s)] == [0]
    assert duel.view(s, 0).stance == (None, None)  # 1's stance is hidden from 0
    assert duel.view(s, 1).stance == (None, "guard")
    with pytest.raises(IllegalAction, match="no decision of duellist 1"):
        duel.apply(s, Stance("attack"), 1)
    s, events = duel.apply(s, Stance("attack"), 0)
    assert events[-1].kind == "reveal" and duel.view(s, 0).stance == ("attack", "guard")


def test_toy_s4_move_is_bounded_by_speed_and_the_foe(duel: DiceDuel, setup: SetupArgs) -> None:
    s = to_moves(duel, start(duel, setup))
    (d,) = duel.pending(s)
    assert d.player == 0 and d.kind == "positions" and d.default == Move(3.0)
    with pytest.raises(IllegalAction, match="between 0 and 3") as exc:
        duel.apply(s, Move(3.5), 0)
    assert exc.value.rule == "toy §4"
    s, _ = duel.apply(s, Move(2.5), 0)
    # duellist 1 may not pass the foe standing at 2.5
    assert duel.check(s, Move(2.0), 1) is not None
    assert duel.check(s, Move(5.0), 1) is None


def test_toy_s5_strikes_hit_on_4_or_5_against_guard(duel: DiceDuel, setup: SetupArgs) -> None:
    s = to_moves(duel, start(duel, setup))
    s = replace(s, pos=(3.0, 4.0), stance=("attack", "guard"), shields=(0, 0))
    s, _ = duel.apply(s, Move(3.0), 0)
    s, events = duel.apply(s, Move(4.0), 1, dice=ScriptedDice([4]))
    strike = [e for e in events if e.kind == "strike"]
    assert len(strike) == 1 and strike[0].data == {"face": 4, "need": 5, "hit": False}
    assert s.hp == (3, 3) and s.phase == "initiative" and s.round == 2


def test_toy_s6_a_hit_duellist_may_spend_a_shield(duel: DiceDuel, setup: SetupArgs) -> None:
    s = to_moves(duel, start(duel, setup))
    s = replace(s, pos=(3.0, 4.0), hp=(3, 1))
    s, _ = duel.apply(s, Move(3.0), 0)
    s, _ = duel.apply(s, Move(4.0), 1, dice=ScriptedDice([6]))
    (d,) = duel.pending(s)
    assert (d.player, d.kind, d.rule) == (1, "may", "toy §6")
    assert d.default == Shield(True)  # the automatic choice: the hit would take the last HP
    s2, _ = duel.apply(s, Shield(True), 1, dice=ScriptedDice([1]))
    assert s2.shields == (1, 1) and s2.hp == (3, 1)
    s3, _ = duel.apply(s, Shield(False), 1)
    assert s3.phase == "over" and s3.winner == 0


def test_toy_s6_no_shield_no_choice(duel: DiceDuel, setup: SetupArgs) -> None:
    s = to_moves(duel, start(duel, setup))
    s = replace(s, pos=(3.0, 4.0), shields=(1, 0))
    s, _ = duel.apply(s, Move(3.0), 0)
    s, _ = duel.apply(s, Move(4.0), 1, dice=ScriptedDice([6, 1]))
    assert s.hp == (3, 2) and s.phase == "initiative"


def test_toy_s7_after_the_last_round_more_hp_wins(duel: DiceDuel, setup: SetupArgs) -> None:
    s = to_moves(duel, start(duel, setup))
    s = replace(s, pos=(0.0, 8.0), round=6, hp=(2, 3))
    s, _ = duel.apply(s, Move(1.0), 0)
    s, _ = duel.apply(s, Move(7.0), 1)
    assert duel.is_over(s)
    r = duel.result(s)
    assert r is not None and r.winner == 1 and r.scores == (2.0, 3.0)
    assert duel.pending(s) == ()
    even = replace(s, hp=(2, 2), winner=None)
    assert duel.result(even) is not None and duel.result(even).draw  # type: ignore[union-attr]


def test_toy_views_hide_shields_and_hp_when_asked(duel: DiceDuel, setup: SetupArgs) -> None:
    s = start(duel, setup)
    v = duel.view(s, 0)
    assert v.shields == (1, None) and v.hp == (3, None)
    plain = duel.setup(setup.rosters, setup.board, {"hide_hp": False}, 3)
    assert duel.view(plain, 1).hp == (3, 3) and duel.view(plain, 1).shields == (None, 2)
