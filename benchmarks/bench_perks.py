"""A perk-heavy 1000-point game against the same game without perks (issue 11).

Every unit of the two 1000-point sample rosters carries six or seven Unit Perks that act in a
game (immunities, attack math, activated, Psychological, by HP and by Game Turn, casualty,
Presence) and every weapon six Weapon Perks (afflictions, attack math, Enhancements,
Limitations); both games are played between the
scripted players on the same seeds. Goal: the perk-heavy game costs at most 2x the plain one,
per action (the perks change how long a game lasts, so whole games are compared per action
too). Timing limits only under ``make bench``.
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
from warbench.rulesets.warsurge.game.state import GameSetup, PlayerSetup, build_setup

ROSTERS = Path(__file__).resolve().parents[1] / "examples" / "warsurge" / "rosters"

WEAPON_SETS = [
    ["Burn", "Pulverise", "Cripple I", "Destroy I", "Escalate", "Wane"],
    ["Poison", "Corrode", "Freeze", "Rend", "Blind I", "Recharge I"],
    ["Bleed", "Weaken", "Leech", "Critical Hit I", "Bloody", "Skill"],
]
UNIT_SETS = [
    ["Fire Resist I", "Tough", "Recover", "Morale I", "Deteriorate", "Reservoir"],
    [
        "Immunity I",
        "Resilient",
        "Adrenaline",
        "Conviction",
        "Powered by Pain",
        "Presence",
        "Inspiring",
    ],
    ["Artificial", "Indomitable", "Regenerate", "Frenzy", "+Armour I", "Resurrection II"],
]


def _heavy(player: PlayerSetup) -> PlayerSetup:
    entries = []
    for k, e in enumerate(player.roster):
        u = e.unit
        weapons = [
            w.model_copy(update={"perks": WEAPON_SETS[(k + j) % 3]})
            for j, w in enumerate(u.weapons)
        ]
        profile = u.profile.model_copy(update={"perks": UNIT_SETS[k % 3]})
        entries.append(
            replace(e, unit=u.model_copy(update={"profile": profile, "weapons": weapons}))
        )
    return replace(player, roster=tuple(entries))


def _setup(perks: bool) -> GameSetup:
    players = [load_game_roster(ROSTERS / n) for n in ("sci_fi_humans.yaml", "scavengers.yaml")]
    if perks:
        players = [_heavy(p) for p in players]
    return build_setup(players, Field(sample_board("ruins_48x48")))


def _games(setup: GameSetup, seeds: range) -> tuple[float, int]:
    start = time.perf_counter()
    actions = 0
    for seed in seeds:
        state, events = engine.new_game(setup, seed)
        run = play(state, [ScriptedPlayer(), ScriptedPlayer()], events=events)
        assert run.state.over
        actions += len(run.actions)
    return time.perf_counter() - start, actions


def test_bench_perk_heavy_game_against_plain(benchmark: Any) -> None:
    heavy, plain = _setup(True), _setup(False)
    seeds = iter(range(10**6))

    def game() -> int:
        state, events = engine.new_game(heavy, next(seeds))
        return len(play(state, [ScriptedPlayer(), ScriptedPlayer()], events=events).actions)

    benchmark.pedantic(game, rounds=3, iterations=1)
    n = range(1) if benchmark.disabled else range(6)
    t_heavy, a_heavy = _games(heavy, n)
    t_plain, a_plain = _games(plain, n)
    per_game = t_heavy / t_plain
    per_action = (t_heavy / a_heavy) / (t_plain / a_plain)
    benchmark.extra_info["perk_heavy_over_plain_per_game"] = round(per_game, 2)
    benchmark.extra_info["perk_heavy_over_plain_per_action"] = round(per_action, 2)
    print(
        f"perk-heavy / plain 1000-pt game: {per_game:.2f}x per game, {per_action:.2f}x per action"
    )
    assert benchmark.disabled or per_action < 2.0
