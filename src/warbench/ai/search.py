"""A search player over the game protocol: determinised playouts with sequential halving.

For each decision the player (:class:`SearchPlayer`):

1. asks the ruleset's hooks (:mod:`warbench.ai.hooks`) for a *determinizer* of its view — a
   function ``seed -> state`` that fills in what it cannot see, above all the dice to come
   (OpenSpiel's determinised MCTS, TAG's redeterminisation per iteration);
2. takes a few root candidates (the decision's default — the engine's scripted choice — first,
   then the ruleset's other candidates);
3. shares an iteration budget among them by **sequential halving** (Karnin et al. 2013, the
   root policy of Gumbel MuZero and of many RTS combat searches, cf. Churchill's Portfolio
   Greedy Search): every surviving candidate gets the same playouts in a round, the worse half
   is dropped, until one is left. Each playout applies the candidate to a fresh determinisation
   and plays ``horizon`` more steps with each decision's default (the scripted policy, for both
   sides; chance by its listed outcomes), then scores the state with the hooks' ``evaluate``
   (or the result, if the game ended). All candidates of a round share the same determinisation
   seeds (common random numbers), so they are compared on the same dice.

The player is deterministic for a given seed and budget of iterations: every random number
comes from :class:`~warbench.kernel.dice.SeededChoices` seeded from the player's seed and the
number of decisions it has made. A time budget (``seconds``) is a cap: when it is reached the
search stops early, and the choice then depends on the machine's speed (docs/ai.md).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from warbench.ai.hooks import Determinizer, SearchHooks, get_hooks, result_value
from warbench.kernel.dice import SeededChoices
from warbench.kernel.errors import RulesError
from warbench.play.core import (
    Decision,
    LegalActions,
    ProtocolError,
    Ruleset,
    SetupArgs,
    chance_dice,
    pick_outcome,
    step_seed,
)
from warbench.play.players import Budget


@dataclass(frozen=True)
class SearchConfig:
    """How hard the search player thinks about each decision.

    * ``iterations``: playouts per decision (the budget that keeps play deterministic);
    * ``width``: root candidates considered (the default among them);
    * ``horizon``: steps played after a candidate before the position is evaluated;
    * ``seconds``: a wall-clock cap per decision (``None``: none);
    * ``margin``: how much better (in evaluation units, 0 to 1) another candidate's mean must
      be than the first candidate's to be chosen instead — a few noisy playouts should not
      overrule the policy's choice on the luck of the dice;
    * ``prior``: take the first candidate from the hooks' ``prior`` (WARSURGE: the tactical
      player's choice, ``ai.tactical``) when they have one, else the decision's default;
    * ``rollout``: the playouts' policy for both sides: ``"default"`` (each decision's
      default, the engine's scripted choice) or ``"prior"`` (the hooks' ``prior`` where it
      has a choice, WARSURGE's tactical player; the default elsewhere).
    """

    iterations: int = 48
    width: int = 8
    horizon: int = 4
    seconds: float | None = 1.0
    margin: float = 0.005
    prior: bool = True
    rollout: str = "default"

    def __post_init__(self) -> None:
        for name in ("iterations", "width"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise ProtocolError(f"search {name} = {value!r}: a whole number from 1", "ai")
        if not isinstance(self.horizon, int) or self.horizon < 0:
            raise ProtocolError(f"search horizon = {self.horizon!r}: a whole number from 0", "ai")
        if self.seconds is not None and not self.seconds > 0:
            raise ProtocolError(f"search seconds = {self.seconds!r}: more than 0", "ai")
        if self.rollout not in ("default", "prior"):
            raise ProtocolError(f"search rollout = {self.rollout!r}: default or prior", "ai")


#: The levels a player kind names (``search:1`` … ``search:4``; ``search`` is level 2).
LEVELS: Mapping[int, SearchConfig] = {
    1: SearchConfig(iterations=12, width=4, horizon=0),
    2: SearchConfig(iterations=24, width=6, horizon=2),
    3: SearchConfig(iterations=64, width=8, horizon=3),
    4: SearchConfig(iterations=160, width=12, horizon=4, seconds=5.0),
}
DEFAULT_LEVEL = 2


@dataclass
class SearchStats:
    """What the last decision cost: playouts run, candidates, seconds, whether the time cap
    stopped it, and each candidate's mean value (in candidate order)."""

    playouts: int = 0
    candidates: int = 0
    seconds: float = 0.0
    capped: bool = False
    means: list[float] = field(default_factory=list)


@dataclass
class SearchPlayer:
    """A search player for seat ``seat`` of a game of ``ruleset`` (module docstring).

    ``knowledge`` is the set-up every seat knows before the game (rosters, board, options: the
    lists are shown at the table); the player never receives the state, only its views.
    """

    ruleset: Ruleset[Any, Any, Any]
    knowledge: SetupArgs
    seat: int
    seed: int = 0
    config: SearchConfig = field(default_factory=SearchConfig)
    hooks: SearchHooks | None = None
    decisions: int = 0
    last: SearchStats = field(default_factory=SearchStats)

    def __post_init__(self) -> None:
        if self.hooks is None:
            self.hooks = get_hooks(self.ruleset)

    def choose(
        self, view: Any, legal: LegalActions[Any], decision: Decision[Any], budget: Budget
    ) -> Any:
        """The candidate with the best mean playout value (the default on ties)."""
        assert self.hooks is not None
        started = time.perf_counter()
        self.decisions += 1
        rng = SeededChoices(step_seed(self.seed, self.decisions))
        det = self.hooks.determinizer(view, self.seat, self.knowledge)
        root = det(_draw_seed(rng))
        first = decision.default
        prior = getattr(self.hooks, "prior", None) if self.config.prior else None
        if prior is not None:
            proposed = prior(root, self.seat, decision)
            if proposed is not None and proposed in legal:
                first = proposed
                decision = replace(decision, default=proposed)
        cands = self.hooks.candidates(root, self.seat, legal, decision, self.config.width)
        self.last = SearchStats(candidates=len(cands))
        if not cands:
            picked = legal.sample(rng, 1)
            if picked:
                return picked[0]
            if decision.default is not None:
                return decision.default
            raise ProtocolError(
                f"player {self.seat} has no legal action for {decision.kind!r}",
                "protocol: pending decisions have a legal action",
            )
        if len(cands) == 1:
            return cands[0]
        iterations = self.config.iterations
        if budget.iterations is not None:
            iterations = min(iterations, budget.iterations)
        caps = [s for s in (self.config.seconds, budget.seconds) if s is not None]
        deadline = started + min(caps) if caps else None
        sums = [0.0] * len(cands)
        counts = [0] * len(cands)
        alive = list(range(len(cands)))
        rounds = max(1, math.ceil(math.log2(len(cands))))
        capped = False
        for _ in range(rounds):
            per_arm = max(1, iterations // (rounds * len(alive)))
            for _ in range(per_arm):
                seed = _draw_seed(rng)
                for i in alive:
                    sums[i] += self._playout(det, seed, cands[i])
                    counts[i] += 1
                if deadline is not None and time.perf_counter() > deadline:
                    capped = True
                    break
            if capped or len(alive) == 1:
                break
            alive.sort(key=lambda i: (-sums[i] / counts[i], i))
            alive = alive[: max(1, (len(alive) + 1) // 2)]
        means = [s / c if c else float("-inf") for s, c in zip(sums, counts, strict=True)]
        best = max(alive, key=lambda i: (means[i], -i))
        if (
            first is not None
            and cands[0] == first
            and best != 0
            and counts[0]
            and means[best] < means[0] + self.config.margin
        ):
            best = 0  # not clearly better than the default
        self.last = SearchStats(
            playouts=sum(counts),
            candidates=len(cands),
            seconds=time.perf_counter() - started,
            capped=capped,
            means=means,
        )
        return cands[best]

    def _playout(self, det: Determinizer, seed: int, action: Any) -> float:
        """Apply ``action`` to a determinisation, play ``horizon`` default steps, evaluate."""
        assert self.hooks is not None
        rs = self.ruleset
        try:
            state, _ = rs.apply(det(seed), action, self.seat)
        except RulesError:
            return 0.0  # legal in the view but not in this determinisation: never better
        rng: SeededChoices | None = None
        policy = getattr(self.hooks, "prior", None) if self.config.rollout == "prior" else None
        for h in range(self.config.horizon):
            if rs.is_over(state):
                break
            d = rs.pending(state)[0]
            proposed = None
            if policy is not None and not d.is_chance:
                proposed = policy(state, d.player, d)
            if d.is_chance:
                a = pick_outcome(d, chance_dice(seed, h))
            elif proposed is not None:
                a = proposed
            elif d.default is not None:
                a = d.default
            else:
                rng = rng or SeededChoices(seed)
                drawn = rs.legal_actions(state, d.player).sample(rng, 1)
                if not drawn:
                    break
                a = drawn[0]
            try:
                state, _ = rs.apply(state, a, d.player)
            except RulesError:
                if proposed is None or d.default is None:
                    raise
                state, _ = rs.apply(state, d.default, d.player)
        result = rs.result(state) if rs.is_over(state) else None
        if result is not None:
            return result_value(result, self.seat)
        return self.hooks.evaluate(state, self.seat)


def _draw_seed(rng: SeededChoices) -> int:
    return int(rng.random() * 2**53)
