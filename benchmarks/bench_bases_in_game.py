"""WARSURGE games on oval and rectangular bases and hulls (issue 12; Core Rules
001_d3f5e425c5e1196d.txt §1.3, ``game/bases.py``) against the same games on round bases.

``examples/warsurge/rosters/armoured_column.yaml`` (a tank on a 100 x 60 mm hull, three
Outriders on 60 x 35 mm ovals, ten Troopers on round bases) against ``skirmish_b.yaml``, played
by the scripted players, and the same roster with each oval or rectangle replaced by a round
base as long as it (``base_mm`` = ``length_mm``: every measurement on the disc fast path). The
two run in one process, one after the other, so the ratio is what to read::

    PYTHONPATH=src .venv/bin/python benchmarks/bench_bases_in_game.py

``make bench`` runs the pytest-benchmark form (one oval game).
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from warbench.rulesets.warsurge.battlefield import sample_board
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.geom import Field
from warbench.rulesets.warsurge.game.io import load_game_roster
from warbench.rulesets.warsurge.game.players import ScriptedPlayer, play
from warbench.rulesets.warsurge.game.state import PlayerSetup, build_setup

ROSTERS = Path(__file__).resolve().parents[1] / "examples" / "warsurge" / "rosters"


def _rosters(round_bases: bool) -> list[PlayerSetup]:
    column = load_game_roster(ROSTERS / "armoured_column.yaml")
    if round_bases:
        column = replace(
            column,
            roster=tuple(
                e if e.base is None else replace(e, base=None, base_mm=e.base.length_mm)
                for e in column.roster
            ),
        )
    return [column, load_game_roster(ROSTERS / "skirmish_b.yaml")]


def one_game(round_bases: bool, seed: int, board: str = "open_field_42x32") -> tuple[int, float]:
    """(actions, seconds) of one scripted game."""
    setup = build_setup(_rosters(round_bases), Field(sample_board(board)), max_turns=6)
    t0 = time.perf_counter()
    state, events = engine.new_game(setup, seed)
    run = play(state, [ScriptedPlayer(), ScriptedPlayer()], events=events)
    return len(run.actions), time.perf_counter() - t0


def ratio(seeds: range = range(1, 6)) -> dict[str, float]:
    """Seconds per action on oval and rectangular bases over the same on round bases (the two
    games of each seed played one after the other, so a change of load hits both)."""
    actions = {"round": 0, "oval": 0}
    seconds = {"round": 0.0, "oval": 0.0}
    for seed in seeds:
        for name, flag in (("round", True), ("oval", False)):
            n, s = one_game(flag, seed)
            actions[name] += n
            seconds[name] += s
    out: dict[str, float] = {}
    for name in ("round", "oval"):
        out[f"{name}_actions"] = actions[name]
        out[f"{name}_ms_per_action"] = 1000 * seconds[name] / actions[name]
    out["ratio"] = out["oval_ms_per_action"] / out["round_ms_per_action"]
    return out


def test_bench_s1_3_scripted_game_on_oval_and_rect_bases(benchmark: Any) -> None:
    n, _ = benchmark(one_game, False, 1)
    assert n > 0


if __name__ == "__main__":
    for k, v in ratio().items():
        print(f"{k}: {v:.2f}")
