"""The game protocol's own cost, on Dice Duel (warbench.play.toy).

* ``bare``: a loop that applies default/first actions straight through the ruleset;
* ``run_game``: the same game through the protocol runner (views, legal sets, players,
  per-step digests and the record) — the ratio of the two means is the protocol's overhead;
* ``batch``: 16 seeded games inline and on two worker processes (rows are identical; the
  ratio shows what process start-up costs against the games).

Run with ``make bench``.
"""

from __future__ import annotations

from typing import Any

from warbench.kernel.dice import SeededChoices
from warbench.play import (
    AutomaticPlayer,
    RandomLegalPlayer,
    SetupArgs,
    chance_dice,
    run_batch,
    run_game,
)
from warbench.play.core import pick_outcome
from warbench.play.toy import SAMPLE_SETUP, DiceDuel

SETUP = SetupArgs(
    tuple(SAMPLE_SETUP["rosters"]), SAMPLE_SETUP["board"], dict(SAMPLE_SETUP["options"])
)


def test_bench_play_bare_ruleset_loop(benchmark: Any) -> None:
    duel = DiceDuel()

    def game() -> int:
        s = duel.setup(SETUP.rosters, SETUP.board, SETUP.options, 5)
        rng = SeededChoices(1)
        steps = 0
        while not duel.is_over(s):
            d = duel.pending(s)[0]
            if d.is_chance:
                a = pick_outcome(d, chance_dice(5, steps))
            else:
                a = d.default or duel.legal_actions(s, d.player).sample(rng)[0]
            s, _ = duel.apply(s, a, d.player)
            steps += 1
        return steps

    benchmark.pedantic(game, rounds=20, iterations=1)


def test_bench_play_run_game(benchmark: Any) -> None:
    duel = DiceDuel()

    def game() -> int:
        players = [AutomaticPlayer(RandomLegalPlayer(1)), AutomaticPlayer(RandomLegalPlayer(1))]
        run = run_game(duel, SETUP, players, 5)
        assert run.finished
        return len(run.record.steps)

    benchmark.pedantic(game, rounds=20, iterations=1)


def test_bench_play_batch_inline(benchmark: Any) -> None:
    benchmark.pedantic(
        lambda: run_batch("toy-duel", SETUP, range(16), backend="inline"), rounds=2, iterations=1
    )


def test_bench_play_batch_processes(benchmark: Any) -> None:
    benchmark.pedantic(
        lambda: run_batch("toy-duel", SETUP, range(16), backend="processes", workers=2),
        rounds=2,
        iterations=1,
    )
