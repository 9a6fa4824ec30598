"""Players that choose actions: random-legal (conformance, benchmarks) and a simple scripted AI.

Both only use the public engine (``legal_actions``, ``can``); neither re-implements a rule.
The scripted player deploys toward the front, advances toward the nearest enemy, shoots the
nearest target each weapon can reach (foes in a Melee first), charges with melee units and
keeps Heavy weapons stationary; a unit within reach of an enemy that found nothing to shoot at
in the last Attack Phase moves until a weapon sees a target (looking from three trial moves,
:data:`SEEK_LOOKS`). A unit on oval or rectangular bases turns to face the way it advances
(:func:`turned_toward`). A unit in Reserve whose twin found no room at any Deployment spot is
not asked again while the table only gained bases (:func:`grown_only`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Protocol

from warbench.kernel.dice import SeededChoices
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.game import bases, engine, terrain_army
from warbench.rulesets.warsurge.game.actions import (
    Action,
    Attack,
    ChooseTurnMaster,
    ChooseZone,
    Deploy,
    Disembark,
    EmbarkTerrain,
    Move,
    Pass,
)
from warbench.rulesets.warsurge.game.actions_advanced import Counter, EndStep
from warbench.rulesets.warsurge.game.events import Event
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.movement import unit_allowance
from warbench.rulesets.warsurge.game.perk_effects import weapon_ranges
from warbench.rulesets.warsurge.game.perk_heal import heal_targets
from warbench.rulesets.warsurge.game.state import GameState, Location, Phase
from warbench.rulesets.warsurge.game.targeting import beyond_reach, view_target
from warbench.rulesets.warsurge.game.terrain_split import piece_of
from warbench.rulesets.warsurge.game.work import Work


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
    # units that found no target in an Attack Phase: uid -> that Game Turn (a unit within
    # reach of an enemy holds its ground only while it had something to shoot at)
    _blind: dict[int, int] = field(default_factory=dict)
    _step: int = -1
    # placement shapes (:func:`placement_shape`) that found no room at any Deployment spot in
    # this phase -> the state then (issue 10: a twin is not asked again while bases were only
    # added to the table)
    _roomless: dict[tuple[object, ...], GameState] = field(default_factory=dict)

    def choose(self, state: GameState) -> Action:
        if state.pause is not None:  # the engine's own casualties (§5.11)
            return engine.default_casualties(state)
        if state.restore is not None:  # the engine's own Coherency moves (§4.2 IV)
            return engine.default_restore(state)
        flow = state.flow
        side = engine.acting_side(state)
        assert side is not None
        if flow.adv is not None and flow.adv.counter is not None:  # §9.3: fight back if able
            fight = Counter(flow.adv.counter.asked[0], "attack")
            return fight if engine.can(state, fight) else engine.default_counter(state)
        if flow.phase is Phase.TURN_MASTER:
            return ChooseTurnMaster(side)
        if flow.phase is Phase.ZONES:
            free = [z for z in range(len(state.setup.field.zones)) if z not in state.zones]
            return ChooseZone(free[0])
        if state.step < self._step:
            self._blind = {}  # a new game
        self._step = state.step
        key = (flow.turn, flow.phase.value)
        if key != self._phase_key:
            self._phase_key = key
            self._skip = set()
            self._roomless = {}
        legal = engine.legal_actions(state)
        w = legal._work
        n = len(state.units)  # terrain that attacks (§10.2) fires first, by its number
        units = legal.units_by(
            lambda u: -state.setup.units[u].points if u < n else -math.inf, self._skip
        )
        for uid in units:
            shape = placement_shape(w, uid) if uid < n else None
            if shape is not None and grown_only(self._roomless.get(shape), state):
                self._skip.add(uid)  # its twin found no room on a table with fewer bases
                continue
            opts = (
                self._options(w, uid, flow.phase, state)
                if uid < n
                else terrain_army.piece_candidates(w, uid)
            )
            for action in opts:
                if engine.can(state, action):
                    return action
            self._skip.add(uid)
            if shape is not None and opts and all(no_room(state, a) for a in opts):
                self._roomless[shape] = state
        if flow.phase is Phase.ACTIONS and flow.adv is not None and flow.adv.step_done:
            return EndStep()  # Advanced: end the Action Step after one Action (§9.1)
        return Pass()

    # -- per phase -----------------------------------------------------------------------
    def _options(
        self, w: Work, uid: int, phase: Phase, state: GameState | None = None
    ) -> list[Action]:
        info = w.info(uid)
        u = w.units[uid]
        if phase is Phase.OPPORTUNIST:  # what it delayed (Perks L1340): the engine's first
            return list(engine.opportunist_candidates(w, uid))
        if phase is Phase.ACTIONS:  # Advanced (§9.2): deploy, else attack, else move
            if u.location is Location.RESERVE:
                return self._options(w, uid, Phase.DEPLOY, state)
            return self._options(w, uid, Phase.ATTACK, state) + self._options(
                w, uid, Phase.MOVE, state
            )
        if phase is Phase.DEPLOY:
            zone = w.zones[info.side]
            assert zone is not None
            pts = engine.zone_points(w, zone)
            front = pts[1:2] + pts[:1] + pts[2:]
            return [Deploy(uid, at=p) for p in front]
        if phase is Phase.ATTACK:
            wt = engine.weapon_targets(w, uid, limit=3, first=True)
            # Heal Weapons at the most wounded friendly unit in reach (Perks L3433)
            ht = heal_targets(w, uid)
            if not wt and not ht:
                self._blind[uid] = w.flow.turn
                return []
            self._blind.pop(uid, None)
            shares = [(wn, ts[0]) for wn, ts in wt.items()] + [(wn, ts[0]) for wn, ts in ht.items()]
            return [Attack(uid, tuple(shares))]
        dash = phase is Phase.DASH
        if u.location is Location.EMBARKED:
            foes = engine.nearest_enemies(w, uid)
            if foes and foes[0][0] < 12:
                tgt = w.xy(foes[0][1]).mean(axis=0)
                return [Disembark(uid, to=(float(tgt[0]), float(tgt[1])), dash=dash)]
            return []
        if w.engaged_with(uid):
            return []
        # the Ranges the game checks (perk statuses: Limit Break +6", Transform, Blind …)
        reach = max(weapon_ranges(info, u.statuses).values(), default=0)
        melee_unit = reach <= 1
        # a melee unit goes into a terrain piece after enemies sheltering inside, a Melee
        # inside (§10.2 L4437-4447); the engine refuses what is out of reach or full
        inside: list[Action] = (
            [EmbarkTerrain(uid, n, dash=dash) for n in enemy_held_pieces(w, info.side)]
            if melee_unit and u.location is Location.TABLE
            else []
        )
        foes = engine.nearest_enemies(w, uid)
        if not foes:
            return inside
        heavy = any(wp.type.value == "Heavy" for wp in info.unit.weapons)
        allowance = unit_allowance(w, uid, dash)
        dist, foe = foes[0]
        opts: list[Action] = list(inside)
        if melee_unit:
            for d, f in foes[:3]:
                if d <= allowance:
                    opts.append(Move(uid, engage=f, dash=dash))
        if dash and not melee_unit:
            return opts  # shooters keep their weapons usable (Battle/Heavy, §5.1)
        holding = (heavy and dist <= reach) or (not melee_unit and dist <= reach * 0.75)
        # no target in the last Game Turn's Attack Phase; in an Advanced Action Step (§9.2) the
        # unit's attack is looked for first, in this Game Turn: no target now
        last = self._blind.get(uid)
        blind = last == w.flow.turn - 1 or (w.flow.phase is Phase.ACTIONS and last == w.flow.turn)
        if holding and not blind:
            return opts  # in range with a target: stay put (Heavy weapons need it, §5.1)
        tgt = w.xy(foe).mean(axis=0)
        toward = Move(uid, to=(float(tgt[0]), float(tgt[1])), dash=dash)
        turned = turned_toward(w, uid, toward)
        if holding and state is not None:
            # close enough but nothing to shoot at in the last Attack Phase (terrain in the
            # way): move to where a weapon sees a target, else toward the enemy, else around
            return opts + turned + seek_sight(state, w, uid, toward, allowance, SEEK_LOOKS)
        opts.extend([*turned, toward])
        return opts


#: The scripted player looks for a target from its first three trial moves (straight at the
#: enemy, 45 degrees either way); the two 90-degree moves stay its last resort, not looked
#: from (in 150 searches of 4000-point games they found a target twice; issue 10, session 29).
SEEK_LOOKS = 3

#: A unit on oval or rectangular bases turns toward its way only when it faces farther off it
#: than this (degrees): the turn costs movement (§4.1, ruling 3 of "WARSURGE bases in play").
TURN_AT = 20.0


def turned_toward(w: Work, uid: int, toward: Move) -> list[Action]:
    """For a unit on oval or rectangular bases or hulls (§1.3) facing more than ``TURN_AT``
    degrees off the way to its Move's point: the same Move with its models turned to face that
    way where they end (ruling 2), its narrow end toward the enemy (a smaller front, and its
    next Move sweeps its width, not its length). None for round bases."""
    if w.info(uid).base is None or toward.to is None:
        return []
    centre = w.xy(uid).mean(axis=0)
    dx, dy = toward.to[0] - float(centre[0]), toward.to[1] - float(centre[1])
    if math.hypot(dx, dy) < 1e-6:
        return []
    way = round(math.degrees(math.atan2(dy, dx)) % 360.0, 1)
    now = bases.facing_of(w, uid, w.units[uid].present()[0])
    if abs((way - now + 180.0) % 360.0 - 180.0) <= TURN_AT:
        return []
    return [Move(uid, to=toward.to, dash=toward.dash, facing=way)]


def placement_shape(w: Work, uid: int) -> tuple[object, ...] | None:
    """For a unit in Reserve, what its automated placement depends on besides the spot, its
    zone and the table (``coherency.place_unit``'s question: side, models, base radius, oval
    or rectangular base and facing); None for a unit elsewhere."""
    if w.units[uid].location is not Location.RESERVE:
        return None
    info = w.info(uid)
    base = None if info.base is None else (repr(info.base), bases.facing_of(w, uid, 0))
    return (info.side, info.models, info.radius, base)


def grown_only(then: GameState | None, state: GameState) -> bool:
    """Every unit on the table (or anywhere out of Reserve) ``then`` still stands as it stood
    (the very same unit state) and the terrain is as it was: the table has only gained bases
    since, so a placement refused for room then is refused now (more bases only block more,
    ``coherency.place_unit``)."""
    if then is None or len(then.units) != len(state.units):
        return False
    if then.terrain_hp != state.terrain_hp:
        return False
    now = state.units
    return all(u is now[i] for i, u in enumerate(then.units) if u.location is not Location.RESERVE)


def no_room(state: GameState, action: Action) -> bool:
    """``action`` is a Deploy the engine refuses because no formation of the unit fits near
    its spot in its Deployment Zone (§3.6): a unit of the same :func:`placement_shape` is
    refused at that spot too (on this table). The answer is the engine's cached check."""
    if not isinstance(action, Deploy) or action.at is None or action.passengers or action.into:
        return False
    try:
        engine.check(state, action)
    except RulesError as exc:
        return exc.rule == "§3.6" and "not enough room" in exc.reason
    return False


def enemy_held_pieces(w: Work, side: int) -> list[str]:
    """The terrain pieces (board order) with a unit of another side inside (§10.2; in part
    too, L4459-4468)."""
    held = {piece_of(u) for u in w.units if piece_of(u) and w.info(u.uid).side != side}
    return [t.name for t in w.field.board.terrain if t.name in held]


def sees_a_target(w: Work, uid: int) -> bool:
    """Some weapon of the unit has an enemy model in range and line of sight (any Type)."""
    for gap, foe in engine.nearest_enemies(w, uid)[:3]:
        if beyond_reach(w, uid, foe, gap):
            continue  # no weapon reaches it (the view would give no user)
        view = view_target(w, uid, foe)
        if not view.reason and any(view.users_in_range.values()):
            return True
    return False


def seek_sight(
    state: GameState, w: Work, uid: int, toward: Move, allowance: float, looks: int = 5
) -> list[Action]:
    """Moves that look for a target: straight at the enemy, then turning 45 and 90 degrees
    either way (around the obstacle). The first legal one of the first ``looks`` that brings a
    target into range and line of sight comes first; the other legal ones follow in that
    order, then the moves not looked from (the caller checks those)."""
    assert toward.to is not None
    centre = w.xy(uid).mean(axis=0)
    dx, dy = toward.to[0] - float(centre[0]), toward.to[1] - float(centre[1])
    norm = math.hypot(dx, dy) or 1.0
    ux, uy = dx / norm, dy / norm
    moves: list[Action] = [toward]
    for angle in (45.0, -45.0, 90.0, -90.0):
        a = math.radians(angle)
        vx = ux * math.cos(a) - uy * math.sin(a)
        vy = ux * math.sin(a) + uy * math.cos(a)
        to = (float(centre[0]) + vx * allowance, float(centre[1]) + vy * allowance)
        moves.append(Move(uid, to=to, dash=toward.dash))
    legal: list[Action] = []
    for k, m in enumerate(moves[:looks]):
        if not engine.can(state, m):
            continue
        after, _ = engine.trial(state, m)  # kept: the Move made next is not applied again
        if sees_a_target(Work(after, None, DEFAULT_HOOKS), uid):
            return [m, *legal, *moves[k + 1 :]]  # the caller checks the rest
        legal.append(m)
    return legal + moves[looks:]


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
