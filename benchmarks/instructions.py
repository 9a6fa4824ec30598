"""Work for counting CPU instructions with cachegrind (issue 10), where the shared machine's
load makes CPU time swing by ±20%.

``python benchmarks/instructions.py MODE N`` does the set-up of ``bench_game_scale.py``, then
``N`` units of work, printing CPU time per unit (the bench's view on a quiet machine):

* ``apply``: the steps of Game Turns 2-3 of two scripted 1000-point games (the count is
  printed: 74 steps before session 30's routed Moves made games longer, 120 since), one warm-up
  round, then ``N`` rounds of the engine's ``apply`` on each from a fresh copy of its state;
* ``apply-Pass``, ``apply-Move``, ``apply-Attack``: the steps of one kind only (after a warm-up
  round of every step), ``N`` rounds: ``apply-Pass 8`` less ``apply-Pass 0``, divided by 8 x
  24, a Pass (42 Moves, 54 Attacks; docs/game.md, the fifteenth pass);
* ``protocol``: the same with the protocol's ``apply``;
* ``games``: scripted 1000-point games on seeds ``0 .. N-1`` (``games N POINTS``: games of
  ``POINTS`` a side, ``bench_game_scale.scaled_setup``, sharing one set-up as in the benchmark);
* ``record`` and ``replay``: ``record N POINTS`` plays the scripted games of seeds
  ``0 .. N-1`` and keeps their actions (in the system's temporary directory); ``replay N
  POINTS``, in another process, replays the first ``N`` with ``engine.apply`` alone (every
  action checked and applied, no player): ``replay 3`` less ``replay 0``, divided by three, is
  a game without the players' decisions (docs/game.md, the fourteenth pass); ``replay-digest
  N POINTS`` the same with the state's digest after every step, as a record keeps it
  (``replay-digest 3`` less ``replay 3``, divided by three: a game's digests, the eighteenth
  pass);

The count of one unit is the difference of two runs, which leaves the start-up out::

    PYTHONHASHSEED=0 valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \\
        python benchmarks/instructions.py apply 0        # I refs: A
    ... apply 8                                          # I refs: B; (B - A) / (8 * steps) an apply
    ... games 1, then games 4                            # (B - A) / 3 a game (seeds 1-3)

The start-up's count moves by ~20 M between runs (addresses), so count 8 rounds of ``apply``.
The size of the battle (docs/game.md, the seventh and ninth passes): ``games 0 4000`` and
``games 3 4000``, ``(B - A) / 3`` a 4000-point game (seeds 0-2), against the same at 1000.
"""

from __future__ import annotations

import pickle
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_game_scale import ROSTERS, SAMPLE_PAIR, _mid_game, scaled_setup

from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.players import ScriptedPlayer, play


def _recorded(points: int) -> Path:
    """Where ``record`` keeps the games' actions for ``replay`` (the system's temporary
    directory: recorded in one process, replayed in another, so the replay's caches are as
    cold as the games' own)."""
    return Path(tempfile.gettempdir()) / f"warbench_recorded_games_{points}.pickle"


def _warm_sight() -> None:
    """Load sight's, coherency's and the routes' compiled kernels before the games (numba's
    import and its disk cache: a cost of the process, not of a game, so ``games 0`` pays it
    too; docs/game.md, the nineteenth and twentieth passes). ``WARBENCH_COLD_SIGHT=1`` leaves
    it to the first game."""
    import os

    if os.environ.get("WARBENCH_COLD_SIGHT") == "1":
        return
    from warbench.rulesets.warsurge.game import route_jit

    route_jit.warm()  # sight's, coherency's and the Move's routes' kernels (session 38)


def main(mode: str, n: int, points: int = 1000) -> None:
    setup = scaled_setup(points)
    if mode == "games":
        _warm_sight()
        for seed in range(n):
            t = time.process_time()
            state, events = engine.new_game(setup, seed)
            run = play(state, [ScriptedPlayer(), ScriptedPlayer()], events=events)
            ms = 1000 * (time.process_time() - t)
            print(f"seed {seed}: {len(run.actions)} actions, {ms:.0f} ms CPU")
        return
    if mode == "record":  # the scripted games of seeds 0 .. N-1, their actions kept
        recorded = []
        for seed in range(n):
            state, events = engine.new_game(setup, seed)
            run = play(state, [ScriptedPlayer(), ScriptedPlayer()], events=events)
            recorded.append((seed, run.actions, run.state.digest()))
        _recorded(points).write_bytes(pickle.dumps(recorded))
        return
    if mode in ("replay", "replay-digest"):  # the first N recorded games, ``engine.apply``
        every = mode == "replay-digest"  # and the digest after every step, as a record keeps
        for seed, actions, digest in pickle.loads(_recorded(points).read_bytes())[:n]:
            t = time.process_time()
            state, _ = engine.new_game(setup, seed)
            for action in actions:
                state, _ = engine.apply(state, action)
                if every:
                    state.digest()
            assert state.digest() == digest  # the very game
            ms = 1000 * (time.process_time() - t)
            print(f"seed {seed} replayed: {len(actions)} actions, {ms:.0f} ms CPU")
        return
    steps = _mid_game(setup, 1) + _mid_game(setup, 2)
    if mode.startswith("apply-"):  # one kind of action, after a warm-up of every step
        for state, action in steps:
            engine.apply(replace(state), action)
        steps = [(s, a) for s, a in steps if type(a).__name__ == mode[len("apply-") :]]
        mode = "apply"
    if mode == "apply":

        def once() -> None:
            for state, action in steps:
                engine.apply(replace(state), action)

    elif mode == "protocol":
        from warbench.rulesets.warsurge.game.codecs import WarsurgeState, args_text
        from warbench.rulesets.warsurge.game.io import load_game_roster, roster_to_data
        from warbench.rulesets.warsurge.game.protocol import WarsurgeRuleset

        ws = WarsurgeRuleset()
        rosters = [roster_to_data(load_game_roster(ROSTERS / x)) for x in SAMPLE_PAIR]
        args = args_text(rosters, "ruins_48x48", {})
        states = [(WarsurgeState(args, s), a, engine.acting_side(s)) for s, a in steps]

        def once() -> None:
            for st, a, side in states:
                assert side is not None
                ws.apply(WarsurgeState(st.args, replace(st.game), st.memory), a, side)

    else:
        raise SystemExit(
            f"unknown mode {mode!r}: apply, protocol, games, record, replay or replay-digest"
        )
    once()  # warm-up: the set-up's memos
    for r in range(n):
        t = time.process_time()
        once()
        per_s = len(steps) / (time.process_time() - t)
        print(f"round {r + 1}: {per_s:.0f} {mode} a CPU second ({len(steps)} steps)")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), *(int(p) for p in sys.argv[3:4]))
