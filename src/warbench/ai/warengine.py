"""The WarEngine's search hooks (docs/ai.md, *A ruleset's hooks*).

* **Determinisation**: ``rulesets/warengine/determinize.py`` (the table is open, L573; the
  dice to come are drawn).
* **Evaluation**: half the share of victory points as they stand (casualties, units
  destroyed, objectives held, 004_f4ea5693af0644ce.txt L623-L631), half the share of figure
  points still on the table: what the game is won on and what wins it later.
* **Searched**: choosing the unit to activate (L366) and each figure's action (L399).
"""

from __future__ import annotations

from typing import Any

from warbench.ai.grid_hooks import ViewHooks
from warbench.play.core import Ruleset
from warbench.rulesets.warengine import determinize
from warbench.rulesets.warengine.game import setup as stp
from warbench.rulesets.warengine.game.measure import on_table
from warbench.rulesets.warengine.game.victory import scores


class WarEngineHooks(ViewHooks):
    """Search hooks for the ``warengine`` ruleset (module docstring)."""

    searched = frozenset({"activation", "action"})

    def __init__(self, ruleset: Ruleset[Any, Any, Any]) -> None:
        super().__init__(ruleset, determinize.determinizer)

    def evaluate(self, state: Any, player: int) -> float:
        """Half the victory-point share, half the share of figure points on the table."""
        ctx = stp.context(state.setup_key)
        vp = scores(state, ctx)
        left = [0.0, 0.0]
        for f in state.figs:
            if f.alive and on_table(f):
                left[f.side] += ctx.profiles[f.id].points
        vp_share = vp[player] / max(1, vp[0] + vp[1])
        left_share = left[player] / sum(left) if sum(left) > 0 else 0.5
        return 0.5 * vp_share + 0.5 * left_share
