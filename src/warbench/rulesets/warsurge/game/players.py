"""Players that choose actions: random-legal (conformance, benchmarks) and a simple scripted AI.

Both only use the public engine (``legal_actions``, ``can``); neither re-implements a rule.
The scripted player deploys toward the front, advances toward the nearest enemy, shoots the
nearest target each weapon can reach (foes in a Melee first), charges with melee units and
keeps Heavy weapons stationary.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from warbench.kernel.dice import SeededChoices
from warbench.rulesets.warsurge.game import engine, rules
from warbench.rulesets.warsurge.game.actions import (
    Action,
    Attack,
    ChooseTurnMaster,
    ChooseZone,
    Deploy,
    Disembark,
    Move,
    Pass,
)
from warbench.rulesets.warsurge.game.events import Event
from warbench.rulesets.warsurge.game.state import GameState, Location, Phase


class Player(Protocol):
    def choose(self, state: GameState) -> Action: ...


@dataclass
class RandomLegalPlayer:
    """Uniformly random among a sample of legal actions (passing now and then)."""

    seed: int = 0
    pass_chance: float = 0.1
    rng: SeededChoices = field(init=False)

    def __post_init__(self) -> None:
        self.rng = SeededChoices(self.seed)

    def choose(self, state: GameState) -> Action:
        return engine.legal_actions(state).sample(self.rng, self.pass_chance)


@dataclass
class ScriptedPlayer:
    """A simple, sensible player (see the module docstring)."""

    name: str = "scripted"
    _skip: set[int] = field(default_factory=set)
    _phase_key: tuple[int, str] = (0, "")

    def choose(self, state: GameState) -> Action:
        flow = state.flow
        side = engine.acting_side(state)
        assert side is not None
        if flow.phase is Phase.TURN_MASTER:
            return ChooseTurnMaster(side)
        if flow.phase is Phase.ZONES:
            free = [z for z in range(len(state.setup.field.zones)) if z not in state.zones]
            return ChooseZone(free[0])
        key = (flow.turn, flow.phase.value)
        if key != self._phase_key:
            self._phase_key = key
            self._skip = set()
        legal = engine.legal_actions(state)
        w = legal._work
        units = sorted(
            (u for u in legal.units() if u not in self._skip),
            key=lambda u: -state.setup.units[u].points,
        )
        for uid in units:
            for action in self._options(w, uid, flow.phase):
                if engine.can(state, action):
                    return action
            self._skip.add(uid)
        return Pass()

    # -- per phase -----------------------------------------------------------------------
    def _options(self, w: rules.Work, uid: int, phase: Phase) -> list[Action]:
        info = w.info(uid)
        u = w.units[uid]
        if phase is Phase.DEPLOY:
            zone = w.zones[info.side]
            assert zone is not None
            pts = engine.zone_points(w, zone)
            front = pts[1:2] + pts[:1] + pts[2:]
            return [Deploy(uid, at=p) for p in front]
        if phase is Phase.ATTACK:
            wt = engine.weapon_targets(w, uid, limit=3, first=True)
            if not wt:
                return []
            return [Attack(uid, tuple((wn, ts[0]) for wn, ts in wt.items()))]
        dash = phase is Phase.DASH
        if u.location is Location.EMBARKED:
            foes = engine.nearest_enemies(w, uid)
            if foes and foes[0][0] < 12:
                tgt = w.xy(foes[0][1]).mean(axis=0)
                return [Disembark(uid, to=(float(tgt[0]), float(tgt[1])), dash=dash)]
            return []
        if w.engaged_with(uid):
            return []
        foes = engine.nearest_enemies(w, uid)
        if not foes:
            return []
        reach = max((wp.range for wp in info.unit.weapons), default=0)
        melee_unit = reach <= 1
        heavy = any(wp.type.value == "Heavy" for wp in info.unit.weapons)
        allowance = rules.unit_allowance(w, uid, dash)
        dist, foe = foes[0]
        opts: list[Action] = []
        if melee_unit:
            for d, f in foes[:3]:
                if d <= allowance:
                    opts.append(Move(uid, engage=f, dash=dash))
        if dash and not melee_unit:
            return opts  # shooters keep their weapons usable (Battle/Heavy, §5.1)
        if heavy and dist <= reach:
            return opts
        if not melee_unit and dist <= reach * 0.75:
            return opts
        tgt = w.xy(foe).mean(axis=0)
        opts.append(Move(uid, to=(float(tgt[0]), float(tgt[1])), dash=dash))
        return opts


@dataclass
class GameRun:
    """A finished (or stopped) game: its final state, every action and every event."""

    state: GameState
    actions: list[Action]
    events: list[Event]


def play(
    state: GameState,
    players: list[Player],
    *,
    max_actions: int = 20_000,
    events: list[Event] | None = None,
) -> GameRun:
    """Let ``players[side]`` choose for each side until the game is over."""
    actions: list[Action] = []
    log = list(events or [])
    while not state.over and len(actions) < max_actions:
        side = engine.acting_side(state)
        assert side is not None
        action = players[side].choose(state)
        state, evs = engine.apply(state, action)
        actions.append(action)
        log.extend(evs)
    return GameRun(state, actions, log)
