"""Steps the perk tests share to play a scenario on (tests/rulesets/warsurge/effects/test_s25_*.py
and others): pass a phase or a Game Turn out, hand a phase to a side, set a unit's HP, read the
perk events, play a whole game and replay it. Every step checks the game's invariants after each
action it applies."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from tests.warsurge.game.helpers import check_invariants, play_checked
from warbench.kernel.dice import Dice, SeededDice
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Pass
from warbench.rulesets.warsurge.game.events import Event
from warbench.rulesets.warsurge.game.players import RandomLegalPlayer, ScriptedPlayer
from warbench.rulesets.warsurge.game.state import GameSetup, GameState, Phase


def _apply(
    state: GameState, action: object, seed: int | None, dice: Dice | None
) -> tuple[GameState, list[Event]]:
    if seed is not None:
        dice = SeededDice(seed)
    if dice is None:
        new, events = engine.apply(state, action)  # type: ignore[arg-type]
    else:
        new, events = engine.apply(state, action, dice=dice)  # type: ignore[arg-type]
    check_invariants(new)
    return new, events


def pass_while(
    state: GameState,
    going: Callable[[GameState], bool],
    *,
    first: object = None,
    seed: int | None = None,
    dice: Dice | None = None,
    limit: int = 1000,
) -> tuple[GameState, list[Event]]:
    """Play ``first`` (if any), then Pass while ``going(state)`` and the game is not over (at
    most ``limit`` Passes); each action with fresh ``SeededDice(seed)``, else with ``dice``
    (``None``: the engine's default dice). Returns the state and every event."""
    events: list[Event] = []
    if first is not None:
        state, events = _apply(state, first, seed, dice)
    for _ in range(limit):
        if not going(state) or state.over:
            break
        state, ev = _apply(state, Pass(), seed, dice)
        events.extend(ev)
    return state, events


def to_turn_end(
    state: GameState, *, first: object = None, seed: int | None = None
) -> tuple[GameState, list[Event]]:
    """``first`` (if any), then both sides Pass until the Game Turn ends (its end-of-turn hooks
    fired)."""
    turn = state.flow.turn
    return pass_while(state, lambda s: s.flow.turn == turn, first=first, seed=seed)


def to_phase_end(
    state: GameState,
    phase: Phase,
    *,
    first: object = None,
    seed: int | None = None,
    dice: Dice | None = None,
) -> tuple[GameState, list[Event]]:
    """``first`` (if any), then Pass while the Phase is ``phase``."""
    return pass_while(state, lambda s: s.flow.phase is phase, first=first, seed=seed, dice=dice)


def turn_of(state: GameState, side: int, phase: Phase) -> GameState:
    """``state`` with ``phase`` begun for ``side`` (no side has passed)."""
    return replace(state, flow=replace(state.flow, phase=phase, active=side, passed=frozenset()))


def set_hp(state: GameState, uid: int, hp: tuple[int, ...]) -> GameState:
    """``state`` with unit ``uid``'s models at ``hp``."""
    units = list(state.units)
    units[uid] = replace(units[uid], hp=hp)
    return replace(state, units=tuple(units))


def total_hp(state: GameState, uid: int) -> int:
    """Unit ``uid``'s HP left (its living models' HP)."""
    return sum(max(0, h) for h in state.units[uid].hp)


def perk_events(events: list[Event], word: str) -> list[Event]:
    """The ``perk`` events whose text holds ``word``."""
    return [e for e in events if e.kind == "perk" and word in e.text]


def centre(state: GameState, uid: int) -> tuple[float, float]:
    """The mean position of unit ``uid``'s models on the table."""
    u = state.units[uid]
    pts = [u.pos[i] for i in u.present()]
    return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))


def play_and_replay(setup: GameSetup, seed: int, scripted: bool) -> GameState:
    """Play a whole game of ``setup`` (seed ``seed``) by two scripted players, else two random
    legal players (seeds ``seed`` and ``seed + 1``), checking the invariants after each action
    and that it ends within 5000 actions; then check that its record replays to the same
    state. Returns the final state."""
    players = (
        [ScriptedPlayer(), ScriptedPlayer()]
        if scripted
        else [RandomLegalPlayer(seed), RandomLegalPlayer(seed + 1)]
    )
    return play_checked(setup, seed, players)[0]
