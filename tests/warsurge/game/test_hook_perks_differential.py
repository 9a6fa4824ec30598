"""Differential check of the perk hooks fired per set-up and of the compiled-use memo (issue 10,
session 28, s28-review).

``HookRegistry.register(..., perks=...)`` fires a hook only in the games whose set-up names one
of its perks (``setup_perks.named_perks``), and ``odds._compile_one`` remembers compiled weapon
uses by ``attack.compile_key``. Both are meant to change no game: a hook that can act through a
perk its declaration leaves out (or one that enters play mid-game: Summon, Fusion, Respawn, a
seized unit, a status another perk creates …) would stop acting, and a key that leaves out
something the compiler reads would give a stale use. Each game here is played twice from the
same seed with the same players, once as the engine plays it and once :func:`unfiltered`
(every hook fired in every game, no use remembered), and the two must agree action for
action, event for event and digest for digest.

Default: eight games. ``WARBENCH_HOOK_DIFF_GAMES=N`` plays 4N (``WARBENCH_HOOK_DIFF_START=S``:
from game S); docs/game.md gives the figures of the last long run.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import pytest

from tests.rulesets.warsurge.effects.test_perk_heavy_games import (
    BOARDS,
    TRAIT_SETS,
    UNIT_SETS,
    WEAPON_SETS,
    setup_for,
)
from tests.warsurge.game.helpers import ROSTERS
from warbench.rulesets.warsurge import odds
from warbench.rulesets.warsurge.battlefield import sample_board
from warbench.rulesets.warsurge.game import engine, hooks
from warbench.rulesets.warsurge.game.geom import Field
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS, Hook
from warbench.rulesets.warsurge.game.io import load_game_roster
from warbench.rulesets.warsurge.game.players import RandomLegalPlayer, ScriptedPlayer
from warbench.rulesets.warsurge.game.state import GameSetup, Playstyle, build_setup

GAMES = int(os.environ.get("WARBENCH_HOOK_DIFF_GAMES", "2"))
#: the first game's number (a long run may go on where the last one stopped)
START = int(os.environ.get("WARBENCH_HOOK_DIFF_START", "0"))

#: one step of a game: the action, its events, the digest after it
Step = tuple[str, tuple[tuple[str, str], ...], str]


class _Forgetful(dict[tuple[object, ...], Any]):
    """A memo that remembers nothing (every use compiled with the game's dice, as before)."""

    def __setitem__(self, key: tuple[object, ...], value: Any) -> None:
        return None


def _reset(reg: hooks.HookRegistry) -> None:
    reg._fired.clear()
    reg._last = None


@contextmanager
def unfiltered() -> Iterator[None]:
    """Every declared hook fired in every game (its ``perks`` and its set-up's ``when``
    ignored); no compiled weapon use remembered."""
    every = frozenset().union(*DEFAULT_HOOKS.needs.values())
    named, memo, whens = hooks.named_perks, odds._COMPILED, DEFAULT_HOOKS.whens
    hooks.named_perks = lambda setup: every  # type: ignore[assignment]
    odds._COMPILED = _Forgetful()
    DEFAULT_HOOKS.whens = {}
    _reset(DEFAULT_HOOKS)
    try:
        yield
    finally:
        hooks.named_perks = named  # type: ignore[assignment]
        odds._COMPILED = memo
        DEFAULT_HOOKS.whens = whens
        _reset(DEFAULT_HOOKS)


def play(setup: GameSetup, seed: int, scripted: bool, limit: int = 5000) -> list[Step]:
    """The game's steps (action, events, digest) with these players."""
    state, _ = engine.new_game(setup, seed)
    players: list[Any] = (
        [ScriptedPlayer(), ScriptedPlayer()]
        if scripted
        else [RandomLegalPlayer(seed * 7 + 1), RandomLegalPlayer(seed * 7 + 2)]
    )
    steps: list[Step] = []
    while not state.over and len(steps) < limit:
        side = engine.acting_side(state)
        assert side is not None
        action = players[side].choose(state)
        state, events = engine.apply(state, action)
        steps.append((repr(action), tuple((e.kind, e.text) for e in events), state.digest()))
    return steps


def differ(setup: GameSetup, seed: int, scripted: bool) -> tuple[int, str | None]:
    """Steps played, and the first step where the filtered game and the unfiltered one part."""
    fast = play(setup, seed, scripted)
    with unfiltered():
        slow = play(setup, seed, scripted)
    for i, (a, b) in enumerate(zip(fast, slow, strict=False)):
        if a != b:
            return len(fast), f"step {i}: filtered {a!r}\nunfiltered {b!r}"
    if len(fast) != len(slow):
        return len(fast), f"lengths {len(fast)} != {len(slow)}"
    return len(fast), None


def sparse_for(k: int) -> GameSetup:
    """One unit of one side with a Unit Perk set, Traits and one weapon's perks; every other
    unit plain: the set-up names few perks, so a hook declared too narrowly is exposed."""
    names = ("skirmish_a.yaml", "skirmish_b.yaml")
    players = [load_game_roster(ROSTERS / n) for n in names]
    p = players[k % 2]
    e = p.roster[(k // 2) % len(p.roster)]
    u = e.unit
    weapons = [
        w.model_copy(update={"perks": WEAPON_SETS[(k + j) % len(WEAPON_SETS)]}) if j == 0 else w
        for j, w in enumerate(u.weapons)
    ]
    profile = u.profile.model_copy(update={"perks": UNIT_SETS[k % len(UNIT_SETS)]})
    traits = TRAIT_SETS[k % len(TRAIT_SETS)]
    entry = replace(
        e,
        unit=u.model_copy(update={"profile": profile, "weapons": weapons}),
        traits=(*e.traits, *traits),
    )
    roster = tuple(entry if x is e else x for x in p.roster)
    players[k % 2] = replace(p, roster=roster)
    board = Field(sample_board(BOARDS[k % len(BOARDS)]))
    return build_setup(players, board, max_turns=6)


def _case(k: int) -> tuple[GameSetup, int, bool]:
    """Game ``k`` of the run: heavy or sparse, Standard or Advanced, random or scripted."""
    rng = random.Random(7000 + k)
    setup = setup_for(k // 2) if k % 4 < 2 else sparse_for(k // 2)
    if (k // 4) % 2:
        setup = replace(setup, playstyle=Playstyle.ADVANCED)
    return setup, rng.randrange(2**31), k % 7 == 3


def test_unfiltered_fires_every_hook_and_remembers_no_use() -> None:
    """The switch the differential relies on does what it says (else it compares a game with
    itself)."""
    setup = sparse_for(0)
    kept = DEFAULT_HOOKS.fired(setup)
    total = sum(len(v) for v in DEFAULT_HOOKS.impls.values())
    assert sum(len(v) for v in kept.values()) < total
    with unfiltered():
        assert sum(len(v) for v in DEFAULT_HOOKS.fired(setup).values()) == total
        odds._COMPILED[("k",)] = (("p",), None)
        assert not odds._COMPILED
    assert DEFAULT_HOOKS.fired(setup) == kept


def test_the_differential_finds_a_hook_declared_too_narrowly() -> None:
    """A hook whose declaration leaves out its perk (Summon's, declared for Stealth here) parts
    the filtered game from the unfiltered one: the check can fail."""
    key = next(k for k in DEFAULT_HOOKS.needs if k[0] is Hook.TURN_START and "Summon" in k[1])
    need = DEFAULT_HOOKS.needs[key]
    setup = next(s for s in (setup_for(k) for k in range(12)) if "Summon" in hooks.named_perks(s))
    DEFAULT_HOOKS.needs[key] = frozenset({"(no perk)"})
    _reset(DEFAULT_HOOKS)
    try:
        found = [differ(setup, seed, scripted=False)[1] for seed in (1, 2, 3)]
    finally:
        DEFAULT_HOOKS.needs[key] = need
        _reset(DEFAULT_HOOKS)
    assert any(found)


def test_the_differential_finds_a_memo_key_missing_a_part(monkeypatch: pytest.MonkeyPatch) -> None:
    """A memo keyed by the attacker's and weapon's profiles only (no Target, no context) gives
    stale uses, and the filtered game parts from the unfiltered one: the check can fail."""
    monkeypatch.setattr(odds, "compile_key", lambda a, w, n, t, c: (id(a.profile), id(w)))
    monkeypatch.setattr(odds, "_COMPILED", {})
    found = [differ(setup_for(k), 11 + k, scripted=False)[1] for k in range(3)]
    assert any(found)


@pytest.mark.parametrize("k", range(START, START + 4 * GAMES))
def test_filtered_and_unfiltered_games_agree(k: int) -> None:
    setup, seed, scripted = _case(k)
    steps, diff = differ(setup, seed, scripted)
    print(f"hook-diff game {k}: {steps} steps")  # read with -s in a long run
    assert steps > 0
    assert diff is None, diff
