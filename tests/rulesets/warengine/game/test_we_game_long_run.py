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


def test_long_run_random_games_keep_invariants_and_replay() -> None:
    ws = WarEngineRuleset()
    a, b = sample_forces()
    c = to_data(load_force(DATA / "coven.yaml"))  # the Special Powers in play
    boards = ("ruins_48x48", "open_field_42x32", "city_72x48")
    finished = 0
    winners = {0: 0, 1: 0, None: 0}
    for seed in range(GAMES):
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
        assert run.result is not None
        winners[run.result.winner] += 1
    assert finished == GAMES
    print(f"{GAMES} games, winners {winners}")
