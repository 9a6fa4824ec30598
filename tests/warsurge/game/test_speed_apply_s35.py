"""The seventeenth pass (issue 10, s35-speeda): an ``apply`` runs no import statement of the game
package.

A function-level ``from warbench.rulesets.warsurge.game.x import y`` costs ~8,800
instructions each time it runs (cachegrind, 100,000 calls; an ``apply`` is ~2.2 M), and seven
of them ran in an average ``apply`` of the benchmark (Time Jump's ``offered`` at every step,
``perk_turn.index`` for the Trap, timing, Velocity and Reflect questions of an Attack, the
Berserk and Challenger questions of a Move). They are made once, at the modules' top; this test
counts the imports a Move, an Attack or a Pass within a Game Turn runs, from the game package's
own code, on the steps of a seeded scripted game, and fails at the first one (it failed on
main, with Time Jump's import at every step).
"""

from __future__ import annotations

import builtins
import dataclasses
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack, Move, Pass
from warbench.rulesets.warsurge.game.players import ScriptedPlayer
from warbench.rulesets.warsurge.game.state import GameState

from .test_battle_size import _states
from .test_speed_apply_s32 import _setup

GAME = Path(engine.__file__).parent


@contextmanager
def _imports_from_game(seen: Counter[str]) -> Iterator[None]:
    """Count the import statements run by the game package's own code (file and line)."""
    import sys

    real = builtins.__import__

    def counting(name: str, *args: Any, **kwargs: Any) -> Any:
        caller = sys._getframe(1).f_code.co_filename
        if Path(caller).parent == GAME:
            seen[f"{Path(caller).name}:{sys._getframe(1).f_lineno} ({name})"] += 1
        return real(name, *args, **kwargs)

    builtins.__import__ = counting
    try:
        yield
    finally:
        builtins.__import__ = real


def test_an_apply_within_a_game_turn_runs_no_import_of_the_game_package() -> None:
    states = _states(_setup(), 0, 3)
    player = ScriptedPlayer()
    steps: list[tuple[GameState, object]] = []
    for state in states:
        if state.over or engine.acting_side(state) is None:
            continue
        action = player.choose(state)
        if isinstance(action, Move | Attack | Pass):
            after, _ = engine.apply(dataclasses.replace(state), action)  # warm: module imports
            if after.flow.turn == state.flow.turn:  # a Game Turn's start fires its hooks
                steps.append((state, action))
    kinds = Counter(type(a).__name__ for _, a in steps)
    assert kinds["Move"] >= 10 and kinds["Attack"] >= 10 and kinds["Pass"] >= 5, kinds
    seen: Counter[str] = Counter()
    with _imports_from_game(seen):
        for state, action in steps:
            engine.apply(dataclasses.replace(state), action)
    assert not seen, seen
