"""Collision's search hooks (docs/ai.md, *A ruleset's hooks*).

* **Determinisation**: ``rulesets/collision/determinize.py`` (the enemy's hidden phase piles
  and Map Carrier and the dice to come are drawn).
* **Evaluation**: half the Victory Points the objectives would give if the battle ended now
  (003_fc239e71486306e1.txt L1108-1114; the battle is won on them, L1112-1117), as a share
  of both sides' points, half the share of the characters' remaining Toughness (injuries
  taken, the defeated at 0): the points now and the strength to take more later.
* **Searched**: choosing the character to activate (L771-776) and each of its actions.
"""

from __future__ import annotations

from typing import Any

from warbench.ai.grid_hooks import ViewHooks
from warbench.kernel.errors import WarbenchError
from warbench.play.core import Ruleset
from warbench.rulesets.collision import determinize
from warbench.rulesets.collision.dice import SeededD10
from warbench.rulesets.collision.game.core import Game, card_of
from warbench.rulesets.collision.game.objectives import score
from warbench.rulesets.collision.game.state import clone


class CollisionHooks(ViewHooks):
    """Search hooks for the ``collision`` ruleset (module docstring)."""

    searched = frozenset({"activate", "action"})

    def __init__(self, ruleset: Ruleset[Any, Any, Any]) -> None:
        super().__init__(ruleset, determinize.determinizer)

    def evaluate(self, state: Any, player: int) -> float:
        """Half the share of Victory Points if the battle ended now, half the share of
        Toughness left."""
        try:
            vp, _ = score(Game(clone(state), SeededD10(state.seed)))
        except WarbenchError:
            vp = list(state.vp)
        total = vp[0] + vp[1]
        vp_share = 0.5 if total <= 0 else vp[player] / total
        health = [0.0, 0.0]
        for u in state.units:
            if u.statue or u.where in ("defeated", "escaped"):
                continue
            health[u.owner] += max(0, card_of(state, u).stats.toughness - u.injuries)
        h_share = health[player] / sum(health) if sum(health) > 0 else 0.5
        return 0.5 * vp_share + 0.5 * h_share
