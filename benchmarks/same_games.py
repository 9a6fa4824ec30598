"""Are a branch's games the very games of another commit? (issue 10: a speed change must leave
every seeded game as it was.)

``python benchmarks/same_games.py OUT.json`` plays, with the sources on ``PYTHONPATH``:

* scripted games of ``bench_game_scale.scaled_setup`` at 500 points (seeds 0-2), 1000 (0-3),
  2000 (0-1) and 4000 (0), the games of one size sharing one set-up (as in the benchmark), and
  random-legal games at 1000 and 2000 points (seeds 3-4);
* the perk-heavy set-ups of ``tests/rulesets/warsurge/effects/test_perk_heavy_games.py``
  (``setup_for(0..5)``), scripted and random-legal;
* the Advanced playstyle, scripted, at 1000 and 2000 points;

and writes, per game, the count of actions, a hash of every action and event, a hash of the
digest after every step and the final digest. ``python benchmarks/same_games.py --compare
A.json B.json`` names the games that differ (exit status 1 if any does). Run it with main's
sources and with the branch's (``git archive``) and compare: docs/game.md "a ninth pass".
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_game_scale import scaled_setup  # noqa: E402

from warbench.rulesets.warsurge.game import engine  # noqa: E402
from warbench.rulesets.warsurge.game.players import (  # noqa: E402
    Player,
    RandomLegalPlayer,
    ScriptedPlayer,
)
from warbench.rulesets.warsurge.game.state import GameSetup, Playstyle, build_setup  # noqa: E402


def games() -> list[tuple[str, GameSetup, int, bool]]:
    """(name, set-up, seed, scripted) of every game compared."""
    from tests.rulesets.warsurge.effects.test_perk_heavy_games import setup_for

    out: list[tuple[str, GameSetup, int, bool]] = []
    sizes = {500: range(3), 1000: range(4), 2000: range(2), 4000: range(1)}
    for points, seeds in sizes.items():
        setup = scaled_setup(points)
        out += [(f"scripted-{points}-{s}", setup, s, True) for s in seeds]
        if points in (1000, 2000):
            out += [(f"random-{points}-{s}", setup, s, False) for s in (3, 4)]
            adv = build_setup(list(setup.players), setup.field, playstyle=Playstyle.ADVANCED)
            out.append((f"advanced-{points}-0", adv, 0, True))
    for k in range(6):
        heavy = setup_for(k)
        out += [(f"heavy{k}-scripted", heavy, k, True), (f"heavy{k}-random", heavy, k, False)]
    return out


def fingerprint(setup: GameSetup, seed: int, scripted: bool) -> dict[str, Any]:
    state, events = engine.new_game(setup, seed)
    players: list[Player] = (
        [ScriptedPlayer(), ScriptedPlayer()]
        if scripted
        else [RandomLegalPlayer(seed * 7 + 1), RandomLegalPlayer(seed * 7 + 2)]
    )
    log, steps = hashlib.sha256(), hashlib.sha256()
    for e in events:
        log.update(json.dumps(e.to_dict(), sort_keys=True, default=repr).encode())
    n = 0
    while not state.over and n < 20_000:
        side = engine.acting_side(state)
        assert side is not None
        action = players[side].choose(state)
        state, evs = engine.apply(state, action)
        log.update(repr(action).encode())
        for e in evs:
            log.update(json.dumps(e.to_dict(), sort_keys=True, default=repr).encode())
        steps.update(state.digest().encode())
        n += 1
    return {
        "actions": n,
        "log": log.hexdigest()[:16],
        "steps": steps.hexdigest()[:16],
        "final": state.digest(),
    }


def main(argv: list[str]) -> int:
    if argv[:1] == ["--compare"]:
        a, b = (json.loads(Path(p).read_text()) for p in argv[1:3])
        differ = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
        print(f"{len(a)} and {len(b)} games; differing: {', '.join(differ) or 'none'}")
        return 1 if differ else 0
    out: dict[str, Any] = {}
    for name, setup, seed, scripted in games():
        out[name] = fingerprint(setup, seed, scripted)
        print(name, out[name], flush=True)
    Path(argv[0]).write_text(json.dumps(out, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
