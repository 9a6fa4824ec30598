"""The long run: many seeded random-legal games keep the invariants and replay identically.

``WARBENCH_CONFORMANCE_GAMES=N`` (N >= 1000 for the long run) plays N games (random legal
players, half of them through ``AutomaticPlayer`` for the defaults; every other game has the
Coven, data/coven.yaml, which carries the Special Powers in play), checks the ruleset's
invariants on every state and that each record replays to the very same digests. Without
the variable a handful of games run. The full conformance suite (``check_conformance``) is in
test_we_game_protocol.py.
"""

from __future__ import annotations

import os

from warbench.play import AutomaticPlayer, RandomLegalPlayer, SetupArgs, run_game
from warbench.play.record import replay
from warbench.rulesets.warengine.game.protocol import WarEngineRuleset
from warbench.rulesets.warengine.io import load_force, to_data

from .helpers import DATA, sample_forces
from .test_we_game_protocol import invariants

GAMES = int(os.environ.get("WARBENCH_CONFORMANCE_GAMES", "4"))


def long_chunk(seeds: list[int]) -> tuple[int, int, dict[int | None, int]]:
    """Play the games of ``seeds``: (games finished, steps, wins by player or None)."""
    ws = WarEngineRuleset()
    a, b = sample_forces()
    c = to_data(load_force(DATA / "coven.yaml"))  # the Special Powers in play
    # the Coven's foes are of the factions its faction powers need (L1085, L1265)
    a, b = {**a, "faction": "Mutant Brethren"}, {**b, "faction": "DeadTech MegaCom"}
    boards = ("ruins_48x48", "open_field_42x32", "city_72x48")
    finished = steps = 0
    winners: dict[int | None, int] = {0: 0, 1: 0, None: 0}
    for seed in seeds:
        forces = ((b, a), (a, b), (b, c), (c, a))[seed % 4]
        opts = {"turns": 4, "builder_limits": c not in forces}
        setup = SetupArgs(forces, boards[seed % 3], opts)
        players = [RandomLegalPlayer(seed * 2), RandomLegalPlayer(seed * 2 + 1)]
        if seed % 2:
            players = [AutomaticPlayer(p) for p in players]  # type: ignore[misc]

        def check(state: object, _events: object, seed: int = seed) -> None:
            try:
                invariants(state)  # type: ignore[arg-type]
            except AssertionError as exc:
                raise AssertionError(f"seed {seed}: {exc}") from None

        run = run_game(
            ws,
            setup,
            players,
            seed,
            automate={"*"} if seed % 2 else (),
            on_step=check,
        )
        assert run.finished, f"seed {seed} did not finish"
        rep = replay(run.record, ws)
        assert rep.digests == [s.digest for s in run.record.steps], f"seed {seed}"
        finished += 1
        steps += len(run.record.steps)
        assert run.result is not None
        winners[run.result.winner] += 1
        progress = os.environ.get("WARBENCH_LONG_LOG")
        if progress:  # one line per game, so that a long run shows how far it got
            with open(progress, "a", encoding="utf-8") as f:
                f.write(f"{seed} {len(run.record.steps)} {run.result.winner}\n")
    return finished, steps, winners


def test_long_run_random_games_keep_invariants_and_replay() -> None:
    """The seeds are the same whether one process plays them or several: with N >= 100 games
    they are dealt to ``WARBENCH_LONG_WORKERS`` worker processes (default 3), as in the
    Collision long run; ``WARBENCH_LONG_LOG=FILE`` appends a line per game."""
    seeds = list(range(GAMES))
    workers = int(os.environ.get("WARBENCH_LONG_WORKERS", "3")) if GAMES >= 100 else 1
    if workers <= 1:
        finished, steps, winners = long_chunk(seeds)
    else:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(workers) as pool:
            parts = list(pool.map(long_chunk, [seeds[k::workers] for k in range(workers)]))
        finished = sum(p[0] for p in parts)
        steps = sum(p[1] for p in parts)
        winners = {w: sum(p[2][w] for p in parts) for w in (0, 1, None)}
    assert finished == GAMES
    print(f"{GAMES} games, {steps} steps, winners {winners}")
