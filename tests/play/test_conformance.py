"""The conformance suite: Dice Duel passes it, and it catches rulesets that break the contract."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from warbench.kernel.dice import Dice
from warbench.play import Event, LegalSet, Refusal, SetupArgs
from warbench.play.conformance import ConformanceError, check_conformance
from warbench.play.toy import (
    DiceDuel,
    DuelAction,
    DuelState,
    DuelView,
    Move,
    Stance,
    perturb_hidden,
)


def duel_invariants(s: DuelState) -> None:
    assert 0 <= s.pos[0] <= s.pos[1] <= s.length, f"duellists crossed: {s.pos}"
    assert all(h >= 0 for h in s.hp), f"negative HP {s.hp}"
    assert all(0 <= k <= 5 for k in s.shields), f"shields {s.shields}"


@pytest.mark.parametrize("hide_hp", [True, False])
def test_dice_duel_passes_the_conformance_suite(setup: SetupArgs, hide_hp: bool) -> None:
    args = SetupArgs(setup.rosters, setup.board, {**setup.options, "hide_hp": hide_hp})
    report = check_conformance(
        DiceDuel(), args, seeds=range(5), perturb=perturb_hidden, invariants=duel_invariants
    )
    assert report.games == report.finished == 5
    # every feature of the protocol was exercised
    assert report.chance_steps and report.simultaneous and report.refusals
    assert {"initiative", "stance", "positions", "may"} <= set(report.decisions)
    assert report.defaults and report.hidden_checks


class LeakyView(DiceDuel):
    """Shows the foe's hidden shields."""

    def view(self, state: DuelState, player: int) -> DuelView:
        return replace(super().view(state, player), shields=state.shields)


class LenientCheck(DiceDuel):
    """check accepts any move, apply still refuses out-of-range ones."""

    def check(self, state: DuelState, action: DuelAction, player: int) -> Refusal | None:
        refusal = super().check(state, action, player)
        if refusal is not None and "may end between" in refusal.reason and isinstance(action, Move):
            return None
        return refusal

    def apply(
        self, state: DuelState, action: DuelAction, player: int, dice: Dice | None = None
    ) -> tuple[DuelState, list[Event]]:
        refusal = DiceDuel.check(self, state, action, player)
        if refusal is not None:
            raise refusal.error()
        return super().apply(state, action, player, dice)


class ImpureApply(DiceDuel):
    """Rolls fresh dice on every apply (not derived from the state)."""

    calls = 0

    def apply(
        self, state: DuelState, action: DuelAction, player: int, dice: Dice | None = None
    ) -> tuple[DuelState, list[Event]]:
        from warbench.kernel.dice import SeededDice

        ImpureApply.calls += 1
        return super().apply(state, action, player, dice or SeededDice(ImpureApply.calls))


class NoPlayerCheck(DiceDuel):
    """Lets any player make the pending decision's action."""

    def check(self, state: DuelState, action: DuelAction, player: int) -> Refusal | None:
        pending = self.pending(state)
        if pending and player in (0, 1):
            player = pending[0].player
        return super().check(state, action, player)


class IdleLegal(DiceDuel):
    """Offers stances to a duellist who is not deciding."""

    def legal_actions(self, state: DuelState, player: int) -> LegalSet[DuelAction]:
        legal = super().legal_actions(state, player)
        if not legal:
            return LegalSet(player, legal.check, (Stance("attack"),))
        return legal


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        (LeakyView, "view changes with information hidden"),
        (LenientCheck, "check accepts"),
        (ImpureApply, "two different states"),
        (NoPlayerCheck, "has no decision pending but may play"),
        (IdleLegal, "has no decision pending but has legal actions"),
    ],
)
def test_the_suite_catches_a_broken_ruleset(
    setup: SetupArgs, broken: type[DiceDuel], message: str
) -> None:
    kw: dict[str, Any] = {"perturb": perturb_hidden}
    with pytest.raises(ConformanceError, match=message):
        check_conformance(broken(), setup, seeds=range(3), **kw)
