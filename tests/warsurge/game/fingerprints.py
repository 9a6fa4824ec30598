"""Fingerprints of seeded games: every action, every event and the final digest, hashed.

A refactoring that must not change behaviour (the split of ``rules.py`` by the book's sections,
issue 10) is checked by comparing these against the figures recorded before it, in
``data/fingerprints.json``. Re-record (``python -m tests.warsurge.game.fingerprints``) only
with a documented rules change, and bump ``ENGINE_VERSION`` with it; or with a documented
change of the scripted player's choices (docs/game.md, "an eleventh pass": the City board's
scripted games on seeds 0 and 1 of the sample pair were re-recorded for its three looks,
session 29), which changes no record's replay and so no ``ENGINE_VERSION``; or with a
documented change of the engine's automated placement (docs/game.md, "Moving toward a point
finds a way": every game re-recorded, session 29, s29-route), which changes only actions
refused before, so every earlier record replays the same; or with a documented change of the
log's words (docs/game.md, "The Move's log line says what happened": every game's ``log`` hash
re-recorded, session 34, s34-ui; actions, events counted and digests the same).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from warbench.rulesets.warsurge.battlefield import sample_board
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.geom import Field
from warbench.rulesets.warsurge.game.io import load_game_roster
from warbench.rulesets.warsurge.game.players import (
    Player,
    RandomLegalPlayer,
    ScriptedPlayer,
    play,
)
from warbench.rulesets.warsurge.game.state import build_setup

ROOT = Path(__file__).resolve().parents[3]
ROSTERS = ROOT / "examples" / "warsurge" / "rosters"
RECORDED = Path(__file__).with_name("data") / "fingerprints.json"

PAIRS = (("sci_fi_humans.yaml", "scavengers.yaml"), ("skirmish_a.yaml", "skirmish_b.yaml"))
BOARDS = ("open_field_42x32", "ruins_48x48", "city_72x48")

#: (kind, roster pair, board, seed): 12 scripted and 8 random-legal games.
GAMES: tuple[tuple[str, int, str, int], ...] = tuple(
    [("scripted", p, b, s) for p in range(2) for b in BOARDS for s in (0, 1)]
    + [("random", p, b, s) for p in range(2) for b in BOARDS[:2] for s in (3, 4)]
)


def game_id(game: tuple[str, int, str, int]) -> str:
    kind, pair, board, seed = game
    return f"{kind}-{'-'.join(n.removesuffix('.yaml') for n in PAIRS[pair])}-{board}-{seed}"


def fingerprint(game: tuple[str, int, str, int]) -> dict[str, Any]:
    """The game played to its end: the count of actions, a hash of the actions and events,
    and the final state's digest."""
    kind, pair, board, seed = game
    setup = build_setup(
        [load_game_roster(ROSTERS / n) for n in PAIRS[pair]], Field(sample_board(board))
    )
    state, events = engine.new_game(setup, seed)
    players: list[Player] = (
        [ScriptedPlayer(), ScriptedPlayer()]
        if kind == "scripted"
        else [RandomLegalPlayer(seed), RandomLegalPlayer(seed + 1)]
    )
    run = play(state, players, events=events)
    h = hashlib.sha256()
    for a in run.actions:
        h.update(repr(a).encode())
    for e in run.events:
        h.update(json.dumps(e.to_dict(), sort_keys=True, default=repr).encode())
    return {
        "actions": len(run.actions),
        "events": len(run.events),
        "log": h.hexdigest()[:16],
        "digest": run.state.digest(),
    }


def record() -> dict[str, dict[str, Any]]:
    return {game_id(g): fingerprint(g) for g in GAMES}


if __name__ == "__main__":
    out = record()
    RECORDED.parent.mkdir(exist_ok=True)
    RECORDED.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    sys.stdout.write(f"{len(out)} games recorded in {RECORDED}\n")
