"""Dice Duel's search hooks (``warbench.play.toy``): proof that the search player is
ruleset-neutral, on a game with secret stances, hidden shields, hidden HP and a continuous move.

* **Determinisation.** What a duellist cannot see is drawn from the seed: the foe's shields
  (up to the roster's, toy §1), the foe's HP under ``hide_hp`` (up to the roster's), and in the
  stance phase the foe's secret stance is left unchosen (toy §3), so a playout asks the foe.
  The flow a view does not carry (who is still to move, the strikes left) follows from the
  phase, the initiative and whose decision it is (toy §4-§5).
* **Evaluation.** The share of HP, a shield counting as half an HP (toy §6).
* **Candidates.** The listed actions (the default first) and moves sampled from the family.
"""

from __future__ import annotations

from typing import Any

from warbench.ai.hooks import Determinizer, distinct_candidates
from warbench.kernel.dice import SeededChoices
from warbench.play.core import Decision, LegalActions, Ruleset, SetupArgs


class DuelHooks:
    """Search hooks for ``toy-duel`` (module docstring)."""

    def __init__(self, ruleset: Ruleset[Any, Any, Any]) -> None:
        self.ruleset = ruleset

    def determinizer(self, view: Any, player: int, knowledge: SetupArgs) -> Determinizer:
        """Duel states agreeing with ``view``; hidden values drawn from the seed."""
        from dataclasses import replace

        from warbench.play.toy import DuelState

        foe = 1 - player
        rosters = knowledge.rosters
        start_hp = int(rosters[foe].get("hp", 3))
        start_shields = int(rosters[foe].get("shields", 1))
        stance = list(view.stance)
        to_move: tuple[int, ...] = ()
        strikes: tuple[int, ...] = ()
        hit_by = None
        if view.phase == "move":
            to_move = (player, foe) if view.first == player else (player,)
        if view.phase == "shield":
            hit_by = foe
            if view.first == foe and stance[player] == "attack":
                strikes = (player,)
        base = DuelState(
            names=view.names,
            length=view.length,
            speed=view.speed,
            reach=view.reach,
            rounds=view.rounds,
            hide_hp=bool(knowledge.options.get("hide_hp", False)),
            seed=0,
            round=view.round,
            phase=view.phase,
            first=view.first,
            to_move=to_move,
            strikes=strikes,
            hit_by=hit_by,
            hp=(view.hp[0] or 1, view.hp[1] or 1),
            shields=(view.shields[0] or 0, view.shields[1] or 0),
            pos=view.pos,
            stance=(stance[0], stance[1]),
            winner=view.winner,
        )

        def make(seed: int) -> Any:
            rng = SeededChoices(seed)
            hp = list(base.hp)
            shields = list(base.shields)
            if view.hp[foe] is None:
                hp[foe] = 1 + int(rng.random() * start_hp)
            if view.shields[foe] is None:
                shields[foe] = int(rng.random() * (start_shields + 1))
            return replace(base, seed=seed, hp=(hp[0], hp[1]), shields=(shields[0], shields[1]))

        return make

    def evaluate(self, state: Any, player: int) -> float:
        """The share of HP (a shield is half an HP)."""
        worth = [state.hp[p] + 0.5 * state.shields[p] for p in (0, 1)]
        total = sum(worth)
        return worth[player] / total if total > 0 else 0.5

    def candidates(
        self,
        state: Any,
        player: int,
        legal: LegalActions[Any],
        decision: Decision[Any],
        limit: int,
    ) -> list[Any]:
        """The listed actions (default first), then moves sampled from the family."""
        listed = list(legal)
        if not legal.finite:
            listed += legal.sample(SeededChoices(state.step), limit)
        return distinct_candidates(decision.default, listed, limit)
