"""Shared set-ups for the Collision game tests (003_fc239e71486306e1.txt)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from warbench.play import SetupArgs
from warbench.rulesets.collision.dice import ScriptedD10
from warbench.rulesets.collision.game.core import Game
from warbench.rulesets.collision.game.protocol import CollisionRuleset
from warbench.rulesets.collision.game.state import CollisionState
from warbench.rulesets.collision.io import load, to_data

ROOT = Path(__file__).resolve().parents[4]
EXAMPLES = ROOT / "examples" / "collision"
BOOK = Path("/work/shared/seeds/003_fc239e71486306e1.txt")
RS = CollisionRuleset()


def group(name: str) -> dict[str, Any]:
    """An example battle group as protocol JSON (cards inline)."""
    return to_data(load(EXAMPLES / f"{name}.yaml"))


def sample_setup(**options: Any) -> SetupArgs:
    """Deadholm scouts against the Guelivere band on the sample board."""
    return SetupArgs((group("deadholm_scouts"), group("guelivere_band")), None, options)


def card(name: str = "Tester", **changes: Any) -> dict[str, Any]:
    """A plain card; ``stats`` and ``weapon`` merge into the defaults."""
    data: dict[str, Any] = {
        "name": name,
        "points": 50,
        "race": "Human",
        "tarot": {"arcana": "minor", "suit": "swords", "number": 3},
        "stats": {"def": 5, "arm": 3, "tuf": 4, "end": 5, "mana": 3, "comm": 2, "move": 3},
        "weapons": [{"name": "Sword", "ec": 1, "w-att": 3, "w-pow": 3, "reach": 1}],
    }
    stats = changes.pop("stats", None)
    weapon = changes.pop("weapon", None)
    data.update(changes)
    if stats:
        data["stats"] = {**data["stats"], **stats}
    if weapon is not None:
        data["weapons"] = [{**data["weapons"][0], **weapon}]
    return data


def duel_setup(a: dict[str, Any], b: dict[str, Any], **options: Any) -> SetupArgs:
    """Two one-character battle groups on an open 8 x 6 board."""
    board = {"cols": 8, "rows": 6}
    opts = {"major": "Headhunter", "minors": ["Tactical Victory", "High Ground"], **options}
    return SetupArgs(
        (
            {"name": "A", "points_limit": 200, "characters": [{"card": a}]},
            {"name": "B", "points_limit": 200, "characters": [{"card": b}]},
        ),
        board,
        opts,
    )


def placed(
    setup: SetupArgs, where: dict[int, tuple[tuple[int, int], str]], seed: int = 0
) -> CollisionState:
    """A game in its action step: set up, then characters moved to ``where`` (uid -> square,
    facing), turn 1, the first character of player 0 active."""
    s = RS.setup(setup.rosters, setup.board, setup.options, seed)
    for u in s.units:
        if u.uid in where:
            u.where, u.pos, u.facing = "board", where[u.uid][0], where[u.uid][1]
        elif not u.statue:
            u.where, u.pos = "defeated", None
    s.stage, s.turn, s.phase, s.player, s.first = "act", 1, 1, 0, 0
    s.active = next(u.uid for u in s.units if u.owner == 0 and u.where == "board")
    s.units[s.active].activated = True
    s.major = "Headhunter"
    return s


def game(s: CollisionState, faces: list[int] | None = None) -> Game:
    """A working context over ``s`` with scripted D10s."""
    return Game(s, ScriptedD10(faces or []))


def step(
    s: CollisionState, action: Any, faces: list[int] | None = None
) -> tuple[CollisionState, list[Any]]:
    """Apply one action for the deciding player with scripted D10s (a test may have changed
    the state since it was last checked: its read-only memo is dropped)."""
    s.__dict__.pop("_memo", None)
    return RS.apply(s, action, s.player, ScriptedD10(faces or []))
