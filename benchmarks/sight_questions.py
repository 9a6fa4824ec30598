"""The sight questions of scripted games, asked again on empty caches (issue 10, session 34,
s34-speedp; docs/game.md, "A sixteenth pass: the player's questions").

``python benchmarks/sight_questions.py N`` plays the three scripted 1000-point games of
``instructions.py games 3`` (seeds 0-2, ``bench_game_scale.scaled_setup``), keeping every
sight, visibility and cover question the game's ``Field`` was asked (the scripted player's
target views, ``seek_sight``'s looks, an Attack's visible models and Cover Bonus), then asks
each of them ``N`` more times, emptying the answer caches before each (the Field's and the
board's kept answers; the board's own edges and circles stay, as in a game). Counted with
cachegrind, ``N = 2`` less ``N = 0``, divided by twice the count printed, is one question::

    PYTHONHASHSEED=0 valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \\
        python benchmarks/sight_questions.py 0      # I refs: A
    ... sight_questions.py 2                        # I refs: B; (B - A) / (2 * count)

With ``--answers FILE`` the answers of the first round are written (a pickle) to compare two
trees: the very same answers, question by question.
"""

from __future__ import annotations

import pickle
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_game_scale import scaled_setup

from warbench.rulesets.warsurge.game import engine, geom
from warbench.rulesets.warsurge.game.players import ScriptedPlayer, play

#: the kinds of the board cache's kept answers emptied before each question (the rest stays:
#: the board's own edges and circles, and which pieces the models asked about stand in)
ANSWERS = (b"matrix", b"visible", b"cover", b"elevated", b"elevated cover")


def _plain(answer: Any) -> Any:
    return answer.tolist() if hasattr(answer, "tolist") else answer


def main(n: int, answers: str | None = None) -> None:
    asked: list[tuple[Any, ...]] = []
    ask = geom.Field._ask

    def keep(self: geom.Field, *args: Any) -> Any:
        asked.append((self, *args))
        return ask(self, *args)

    geom.Field._ask = keep  # type: ignore[method-assign]
    setup = scaled_setup(1000)
    for seed in range(3):
        state, events = engine.new_game(setup, seed)
        play(state, [ScriptedPlayer(), ScriptedPlayer()], events=events)
    geom.Field._ask = ask  # type: ignore[method-assign]
    got: list[Any] = []
    t = time.process_time()
    for _ in range(n):
        for field, *args in asked:
            field._asked.clear()
            kept = field.board.geometry().cache._data
            for key in [k for k in kept if k[0] in ANSWERS]:
                del kept[key]
            got.append(ask(field, *args))
    us = 1e6 * (time.process_time() - t) / max(1, n * len(asked))
    print(f"{len(asked)} questions, {us:.0f} us CPU each")
    if answers:
        Path(answers).write_bytes(pickle.dumps([_plain(a) for a in got[: len(asked)]]))


if __name__ == "__main__":
    args = sys.argv[1:]
    out = None
    if "--answers" in args:
        i = args.index("--answers")
        out = args[i + 1]
        del args[i : i + 2]
    main(int(args[0]) if args else 1, out)
