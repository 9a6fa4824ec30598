"""The public engine: ``new_game``, ``check``/``can``/``apply`` and ``legal_actions``.

PokerKit's three ways for every operation: :func:`check` raises a
:class:`~warbench.kernel.errors.RulesError` with the reason and the section, :func:`can` answers
yes or no, :func:`apply` checks, applies and returns the new (frozen) state with the events.
Pgx's step: ``apply`` is pure given the state and the action, because the dice of each step are
derived from the seed stored in the state (tests may pass scripted dice instead).

Positions are continuous, so :func:`legal_actions` cannot list every legal Move; it is an
object you can query (python-chess's ``board.legal_moves``): the sides and units that may act,
a sample of concrete legal actions per unit (toward each enemy, into contact, eight compass
directions at full distance …), and ``action in legal_actions(state)`` for any proposal.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import fields, replace
from typing import Any

import numpy as np

from warbench.kernel.dice import Dice, SeededChoices
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.battlefield import sight_jit
from warbench.rulesets.warsurge.game import (
    bases,
    casualties,
    geom,
    perk_hooks,
    perk_limits,
    perk_opportunist,
    perk_placement,
    perk_timejump,
    terrain_army,
)
from warbench.rulesets.warsurge.game.actions import (
    Action,
    Attack,
    BaseContact,
    Casualties,
    ChooseTurnMaster,
    ChooseZone,
    Delay,
    Deploy,
    Disembark,
    Embark,
    EmbarkTerrain,
    Move,
    Pass,
    Point,
    Restore,
    Survivors,
    round_point,
)
from warbench.rulesets.warsurge.game.actions_advanced import (
    Counter,
    EndStep,
    Guard,
    Prepare,
    Support,
    UsePerks,
)
from warbench.rulesets.warsurge.game.events import Event
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS, HookRegistry
from warbench.rulesets.warsurge.game.movement import unit_allowance
from warbench.rulesets.warsurge.game.perk_crew import transports_open_to
from warbench.rulesets.warsurge.game.perk_effects import weapon_ranges
from warbench.rulesets.warsurge.game.perk_heal import heals
from warbench.rulesets.warsurge.game.perk_psychotic import closest_units, psychotic
from warbench.rulesets.warsurge.game.perk_seed import breaches, seed_targets
from warbench.rulesets.warsurge.game.perk_transport import (
    exits_to_reserve,
    linked_partner,
    open_passengers,
    rift_gates,
)
from warbench.rulesets.warsurge.game.plans import DeployPlan, MovePlan, Plan
from warbench.rulesets.warsurge.game.rules import apply_plan, verify
from warbench.rulesets.warsurge.game.state import (
    Automation,
    GameSetup,
    GameState,
    Location,
    Phase,
    initial_state,
)
from warbench.rulesets.warsurge.game.targeting import TargetView, beyond_reach, view_target
from warbench.rulesets.warsurge.game.terrain_army import piece_refusal
from warbench.rulesets.warsurge.game.terrain_fire import fire_point_pieces, nearest_from_piece
from warbench.rulesets.warsurge.game.transports import fire_point_chain
from warbench.rulesets.warsurge.game.turn import PHASES, eligible, start_turn
from warbench.rulesets.warsurge.game.turn import acting_side as flow_side
from warbench.rulesets.warsurge.game.work import TableIndex, Work

# --------------------------------------------------------------------------------------------
# Starting, checking, applying
# --------------------------------------------------------------------------------------------


def new_game(
    setup: GameSetup,
    seed: int,
    *,
    dice: Dice | None = None,
    hooks: HookRegistry = DEFAULT_HOOKS,
) -> tuple[GameState, list[Event]]:
    """Every unit in Reserve, then the first Turn Master Roll-Off (§2.2 step 1)."""
    terrain_army.check_setup(setup)  # a piece fielded in an army names a side (§10.2)
    state = initial_state(setup, seed)
    w = Work(state, dice or state.dice(), hooks)
    start_turn(w)
    w.step = 1
    return w.state(), w.events


def normalize(action: Action) -> Action:
    """Round points as a record stores them, so a replay sees the very same numbers: a point
    to deploy at or move toward to 1e-6 inch; model ``positions`` are written exactly (JSON
    keeps every double), so a player may give the engine's own placement and play its game."""
    changes: dict[str, object] = {}
    for name in ("at", "to"):
        p = getattr(action, name, None)
        if p is not None:
            q = round_point(p)
            if not (_floats(p) and q == p):  # floats equal to their rounding stay as they are
                changes[name] = q
    pos = getattr(action, "positions", None)
    if pos is not None and not (type(pos) is tuple and all(_floats(q) for q in pos)):
        changes["positions"] = tuple((float(x), float(y)) for x, y in pos)
    if not changes:  # nothing to change: the action itself; else a copy (issue 10, session 33:
        return action  # its dict, as ``replace`` copies it; where it may not, ``replace``)
    kind: type = type(action)
    names, mine = _plain_fields(kind), getattr(action, "__dict__", None)
    if names is None or mine is None or mine.keys() != names or not changes.keys() <= names:
        return replace(action, **changes)  # type: ignore[arg-type]
    out: Action = object.__new__(kind)
    vars(out).update(mine, **changes)
    return out


@functools.cache
def _plain_fields(cls: type) -> frozenset[str] | None:
    """The fields of an action class whose copy is its dict, as ``replace`` copies it: None
    with a ``__post_init__``, slots or a field ``__init__`` leaves out (s33-review)."""
    fs = fields(cls)
    if hasattr(cls, "__post_init__") or hasattr(cls, "__slots__") or not all(f.init for f in fs):
        return None
    return frozenset(f.name for f in fs)


def _floats(p: object) -> bool:
    """Whether ``p`` is a tuple of two Python floats (``float(x)`` is ``x`` itself, and a
    float equal to its rounding has its very bits, the sign of a zero included)."""
    return type(p) is tuple and len(p) == 2 and type(p[0]) is float and type(p[1]) is float


def check(state: GameState, action: Action, *, hooks: HookRegistry = DEFAULT_HOOKS) -> None:
    """Raise a RulesError with the reason and the section if ``action`` is illegal now."""
    _verified(state, normalize(action), hooks)


def _verified(state: GameState, action: Action, hooks: HookRegistry) -> Plan:
    """The plan of a legal action, cached per (state, action): ``can`` then ``apply`` checks
    once. Verification rolls no dice, so the cache cannot change a result."""
    plans: dict[Action, Plan | RulesError] = state.cache.setdefault("plans", {})  # type: ignore[assignment]
    hit = plans.get(action, _MISSING)
    if isinstance(hit, RulesError):
        raise RulesError(hit.reason, hit.rule)
    if hit is not _MISSING:
        return hit  # type: ignore[return-value]
    w = Work(state, None, hooks)
    try:
        if perk_timejump.offered(state):  # a Time Jump decision waits (L1067)
            perk_timejump.verify_answer(state, action)
            plan = None
        else:
            plan = verify(w, action)
    except RulesError as exc:
        # the cache keeps a copy without a traceback: the raised error's frames hold this
        # cache, and a cycle through them would leave every refusal to the garbage collector
        plans[action] = RulesError(exc.reason, exc.rule)
        raise
    plans[action] = plan
    return plan


_MISSING = object()


def planned(state: GameState, action: Action, *, hooks: HookRegistry = DEFAULT_HOOKS) -> Plan:
    """The plan ``apply`` carries out for ``action`` (the same cached plan ``check`` made; no
    dice rolled, nothing changed): what a preview shows (``game/preview.py``). Raises the
    engine's refusal for an illegal action."""
    return _verified(state, normalize(action), hooks)


def can(state: GameState, action: Action, *, hooks: HookRegistry = DEFAULT_HOOKS) -> bool:
    try:
        check(state, action, hooks=hooks)
    except RulesError:
        return False
    return True


def apply(
    state: GameState,
    action: Action,
    *,
    dice: Dice | None = None,
    hooks: HookRegistry = DEFAULT_HOOKS,
) -> tuple[GameState, list[Event]]:
    """Check and apply ``action``; return the new state and the events it caused."""
    action = normalize(action)
    if dice is None and hooks is DEFAULT_HOOKS and (kept := state.cache.get("trials")):
        hit = kept.get(action)  # type: ignore[attr-defined]
        if hit is not None:  # applied already by :func:`trial`: the very same answer
            return hit[0], list(hit[1])
    plan = _verified(state, action, hooks)
    if perk_timejump.offered(state):  # the Time Jump decision (L1067): undo or keep
        return perk_timejump.answer(state, action, dice, hooks)
    w = Work(state, dice, hooks)  # None: the step's own dice, made if a die is rolled
    apply_plan(w, action, plan)
    # choosing casualties finishes the Attack's step: its dice are the Attack's (so a game
    # whose choices are the engine's own rolls as the automated game does)
    w.step = state.step + (
        0 if isinstance(action, Casualties | Restore | Survivors | BaseContact) else 1
    )
    perk_timejump.after_action(w, state, action)  # a Time Jump's rewind point
    out = w.state()
    if perk_timejump.offered(out) and Automation.PERK_USE in state.setup.automation:

        def again(back: GameState, act: object) -> tuple[GameState, list[Event]]:
            return apply(back, act, dice=dice, hooks=hooks)  # type: ignore[arg-type]

        return perk_timejump.auto_decide(out, w.events, dice, hooks, again)
    return out, w.events


def trial(state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    """``apply(state, action)`` with the step's own dice and the default hooks, the answer
    kept with ``state``: a later :func:`apply` of the same action to this very state (no dice
    given, the default hooks) returns the same state and events without applying it again.
    For a player that looks at where a Move would leave it before making it (the scripted
    player's ``seek_sight``, issue 10). ``apply`` is a function of the state, the action, the
    dice (the step's own, derived from the seed and the step) and the hooks, so the kept
    answer is the one a new ``apply`` gives."""
    action = normalize(action)
    out, events = apply(state, action)
    kept: dict[Action, tuple[GameState, list[Event]]] = state.cache.setdefault(  # type: ignore[assignment]
        "trials", {}
    )
    kept[action] = (out, list(events))
    return out, events


def acting_side(state: GameState) -> int | None:
    """The side whose decision it is (the roll-off winner while choosing the Turn Master;
    the target's controller while an Attack waits for casualties, §5.11)."""
    if perk_timejump.offered(state):  # the Time Jump's player (L1067)
        return perk_timejump.deciding_side(state)
    if state.pause is not None:
        return state.setup.units[state.pause.target].side
    if state.restore is not None:
        return state.setup.units[state.restore.units[0]].side
    return flow_side(state.flow)


def default_casualties(state: GameState) -> Casualties:
    """The engine's own choice for the waiting Attack (``Automation.CASUALTY_SELECTION``):
    the rules' order (§5.12, §5.16), then roster order."""
    p = state.pause
    if p is None:
        raise RulesError("no Attack waits for casualties to be chosen", "§5.11")
    return Casualties(p.target, p.candidates)


def default_restore(
    state: GameState, *, hooks: HookRegistry = DEFAULT_HOOKS
) -> Restore | Survivors | BaseContact:
    """The engine's own move for the placement waiting at the end of the Attack Phase (or
    of an Advanced Attack Action): a unit out of Coherency (``Automation.COHERENCY``, §4.2 IV:
    the fewest models moved the least distance), a destroyed Transport's survivors
    (``Automation.MODEL_PLACEMENT``, §6.6: where it stood, then around, then the Coherency
    moves), a Melee that lost its Base Contact (``Automation.COHERENCY``, §4.4 III); every
    model's position written out."""
    return casualties.default_placement(Work(state, None, hooks))


def default_counter(state: GameState) -> Counter:
    """The engine's own choice for a waiting Counter Action (§9.3): none (the CP is kept)."""
    adv = state.flow.adv
    if adv is None or adv.counter is None:
        raise RulesError("no Attack Action waits for a Counter Action", "§9.3")
    return Counter(adv.counter.asked[0], "none")


# --------------------------------------------------------------------------------------------
# Legal actions as a queryable object
# --------------------------------------------------------------------------------------------


def with_positions(
    state: GameState, action: Action, *, hooks: HookRegistry = DEFAULT_HOOKS
) -> Action:
    """``action`` with every model's position written out: where the engine's own placement
    (:attr:`~.state.Automation.MODEL_PLACEMENT`) puts the models for a Deploy at a point, a
    Move toward a point or into contact, or a Disembark (§3.6, §4.1, §4.3, §6.3). Without that
    automation these are the positions a player must give, and this is the default offered;
    other actions, and actions that give positions already, come back unchanged. Raises the
    engine's refusal when the action cannot be placed."""
    if not isinstance(action, Deploy | Move | Disembark) or action.positions is not None:
        return action
    placing = state
    if Automation.MODEL_PLACEMENT not in state.setup.automation:
        placing = replace(state, setup=placing_setup(state.setup))
        for key in ("index", "index_parent"):
            if key in state.cache:
                placing.cache[key] = state.cache[key]
    plan = _verified(placing, normalize(action), hooks)
    if isinstance(action, Deploy) and isinstance(plan, DeployPlan) and plan.into is None:
        return normalize(replace(action, at=None, positions=plan.positions))
    if isinstance(action, Move | Disembark) and isinstance(plan, MovePlan) and plan.positions:
        return normalize(replace(action, to=None, positions=plan.positions))
    return action


_PLACING: dict[int, tuple[GameSetup, GameSetup]] = {}


def placing_setup(setup: GameSetup) -> GameSetup:
    """The set-up with the engine placing models (``Automation.MODEL_PLACEMENT``; memoised
    per set-up): what the AI plans with when the players place every model."""
    hit = _PLACING.get(id(setup))
    if hit is None or hit[0] is not setup:
        if len(_PLACING) > 32:
            _PLACING.clear()
        auto = setup.automation | {Automation.MODEL_PLACEMENT}
        hit = _PLACING[id(setup)] = (setup, replace(setup, automation=auto))
    return hit[1]


class LegalActions:
    """What the acting side may do now. Iterating yields checked actions (a sample for
    movement, see the module docstring); ``in`` checks any action."""

    def __init__(self, state: GameState, hooks: HookRegistry = DEFAULT_HOOKS) -> None:
        self.state = state
        self.hooks = hooks
        self.side = acting_side(state)
        self._work = Work(state, None, hooks)

    def __contains__(self, action: object) -> bool:
        return can(self.state, action, hooks=self.hooks)  # type: ignore[arg-type]

    def units(self) -> list[int]:
        """Units of the acting side that may still act in this phase (before geometry)."""
        return list(self.units_by(None))

    def units_by(
        self, key: Callable[[int], float] | None, skip: Collection[int] = ()
    ) -> Iterator[int]:
        """:meth:`units` less those in ``skip``, in the (stable) order of ``key``, each tested
        only when reached: a player that takes the first unit with a legal action does not
        test every unit of a large battle at every choice (issue 10)."""
        st = self.state
        if self.side is None or st.flow.phase not in PLAY_PHASES or st.pause is not None:
            return
        if perk_timejump.offered(st):
            return
        if st.restore is not None:
            return
        if st.flow.adv is not None and st.flow.adv.counter is not None:
            return
        w, side = self._work, self.side
        # Dominate: a seized unit too
        own = [uid for uid in w.acting_units(side) if uid not in skip]
        pieces: list[int] = []
        if terrain_army.in_play(st.setup):  # terrain that attacks, by its number (§10.2)
            pieces = [
                n
                for n in terrain_army.armed_numbers(w)
                if n not in skip and not piece_refusal(w, n, side)
            ]
        n_own = len(own)
        order: Sequence[int] = range(n_own + len(pieces))
        if key is not None:
            every = [*own, *pieces]
            order = sorted(order, key=lambda k: key(every[k]))
        for k in order:
            if k >= n_own:
                yield pieces[k - n_own]
            elif eligible(w, own[k], st.flow.phase):
                yield own[k]

    def candidates(self, uid: int | None = None) -> Iterator[Action]:
        """Proposed actions (unchecked): for one unit, or the phase's non-unit actions."""
        st = self.state
        phase = st.flow.phase
        w = self._work
        if phase is Phase.OVER:
            return
        if perk_timejump.offered(st):  # undo with the Time Jump, or keep (L1067)
            if uid is None:
                yield from perk_timejump.choices(st)
            return
        if st.restore is not None:
            if uid is None:  # the engine's restoration (§4.2 IV)
                yield default_restore(st, hooks=self.hooks)
            return
        if st.pause is not None:
            if uid is None:  # the engine's order, and its reverse (§5.11)
                yield default_casualties(st)
                if len(st.pause.candidates) > 1:
                    yield Casualties(st.pause.target, st.pause.candidates[::-1])
            return
        ask = st.flow.adv.counter if st.flow.adv is not None else None
        if ask is not None:  # Advanced: the attacked unit's Counter Action (§9.3)
            if uid is None:
                yield default_counter(st)
                for kind in ("attack", "guard", "perk"):
                    yield Counter(ask.asked[0], kind)
            return
        if uid is None:
            if phase is Phase.TURN_MASTER:
                for s in range(len(st.setup.sides)):
                    yield ChooseTurnMaster(s)
            elif phase is Phase.ZONES:
                for z in range(len(st.setup.field.zones)):
                    if z not in st.zones:
                        yield ChooseZone(z)
            else:
                if phase is Phase.ACTIONS and st.flow.adv and st.flow.adv.step_done:
                    yield EndStep()
                yield from perk_hooks.perk_use_candidates(w, self.side)  # without automation
                yield Pass()
            return
        if uid >= len(st.units):  # a terrain piece's Attacks (§10.2)
            yield from terrain_army.piece_candidates(w, uid)
            return
        yield from _unit_candidates(w, uid, phase)

    def for_unit(self, uid: int) -> list[Action]:
        return [a for a in self.candidates(uid) if can(self.state, a, hooks=self.hooks)]

    def __iter__(self) -> Iterator[Action]:
        for a in self.candidates(None):
            if can(self.state, a, hooks=self.hooks):
                yield a
        for uid in self.units():
            yield from self.for_unit(uid)

    def sample(self, rng: SeededChoices, pass_chance: float = 0.0) -> Action:
        """A random legal action: a random unit and a random candidate that passes ``check``
        (Pass when no unit has one)."""
        own = list(self.candidates(None))
        fixed = [a for a in own if not isinstance(a, Pass | EndStep)]
        if fixed:
            legal = [a for a in fixed if can(self.state, a, hooks=self.hooks)]
            return rng.choice(legal)
        # Advanced: during an Action Step, "done" ends the step (§9.1); else Pass
        done: Action = EndStep() if any(isinstance(a, EndStep) for a in own) else Pass()
        if rng.random() < pass_chance and can(self.state, done, hooks=self.hooks):
            return done
        units = self.units()
        rng.shuffle(units)
        for uid in units:
            cands = list(self.candidates(uid))
            rng.shuffle(cands)
            for a in cands[:8]:
                if can(self.state, a, hooks=self.hooks):
                    return a
        return done


def legal_actions(state: GameState, hooks: HookRegistry = DEFAULT_HOOKS) -> LegalActions:
    return LegalActions(state, hooks)


# --------------------------------------------------------------------------------------------
# Candidate generators (sensible samples of the continuous action space)
# --------------------------------------------------------------------------------------------

_DIRS = [(math.cos(k * math.pi / 4), math.sin(k * math.pi / 4)) for k in range(8)]


def zone_points(w: Work, zone: int) -> list[Point]:
    """Deployment spots: the zone's centre, its front (toward the board centre), back, flanks."""
    minx, miny, maxx, maxy = w.field.zone_bounds(zone)
    cx, cy = (minx + maxx) / 2, (miny + maxy) / 2
    bx, by = w.field.width / 2, w.field.height / 2
    dx, dy = bx - cx, by - cy
    out = [(cx, cy)]
    hw, hh = (maxx - minx) / 2, (maxy - miny) / 2
    if abs(dx) >= abs(dy):
        s = 1 if dx > 0 else -1
        front = cx + s * hw * 0.6
        back = cx - s * hw * 0.6
        for y in (cy, cy - hh * 0.6, cy + hh * 0.6, cy - hh * 0.3, cy + hh * 0.3):
            out += [(front, y), (back, y), (cx, y)]
    else:
        s = 1 if dy > 0 else -1
        front = cy + s * hh * 0.6
        back = cy - s * hh * 0.6
        for x in (cx, cx - hw * 0.6, cx + hw * 0.6, cx - hw * 0.3, cx + hw * 0.3):
            out += [(x, front), (x, back), (x, cy)]
    seen: list[Point] = []
    for p in out:
        if p not in seen:
            seen.append(p)
    return seen


def nearest_enemies(w: Work, uid: int) -> list[tuple[float, int]]:
    """Enemy units on the table by edge distance from this unit (or its Transport)."""
    t = w.table()
    key = ("nearest", uid)
    hit = t.memo.get(key)  # depends on positions and locations only: kept with the index
    if hit is None:
        hit = t.memo[key] = _nearest_enemies(w, uid, t)
    return list(hit)


def _nearest_enemies(w: Work, uid: int, t: TableIndex) -> list[tuple[float, int]]:
    holder = w.outermost(uid)
    if w.units[holder].location is not Location.TABLE:
        return []
    a = w.xy(holder)
    ra = w.info(holder).radius
    side = w.units[uid].table_side(w.info(uid).side)  # a defector: every unit (DEFECTED)
    rows = _enemy_rows(t, side)
    if rows is None or not len(a):
        return []
    mask, exy, er, starts, foes = rows
    # the index lists each unit's models together: the closest model of each unit
    if bases.shaped(w.setup):  # oval and rectangular bases (§1.3)
        best = np.minimum.reduceat(bases.table_gaps(w, holder, a, t, mask).min(axis=0), starts)
    else:  # the least squared centre distance first, then its root less the radii: one
        # compiled loop for every base and unit (issue 10, sessions 32 and 39)
        best = sight_jit.closest_gaps(np.ascontiguousarray(a), float(ra), exy, er, starts)
    return sorted(zip(best.tolist(), foes, strict=True))


def _enemy_rows(
    t: TableIndex, side: int
) -> tuple[Any, geom.FloatArray, geom.FloatArray, Any, list[int]] | None:
    """The rows of the table index not of ``side``: the mask, their centres and radii, where
    each unit's rows start and those units (None: no such row). They depend on the index
    alone, so they are kept with it for every unit of the side that asks (issue 10)."""
    key = ("enemy rows", side)
    if key in t.memo:
        hit: tuple[Any, geom.FloatArray, geom.FloatArray, Any, list[int]] | None = t.memo[key]
        return hit
    mask = t.side != side
    if not mask.any():
        t.memo[key] = None
        return None
    uids = t.uid[mask]
    first = np.empty(len(uids), dtype=bool)
    first[0] = True
    np.not_equal(uids[1:], uids[:-1], out=first[1:])
    starts = np.flatnonzero(first)
    hit = t.memo[key] = (mask, t.xy[mask], t.r[mask], starts, uids[starts].tolist())
    return hit


PLAY_PHASES = (*PHASES, Phase.ACTIONS, Phase.OPPORTUNIST)


def _unit_candidates(w: Work, uid: int, phase: Phase) -> Iterator[Action]:
    yield from _own_candidates(w, uid, phase)
    if phase in (Phase.MOVE, Phase.ATTACK, Phase.DASH, Phase.ACTIONS) and (
        perk_opportunist.has_opportunist(w, uid)  # Perks L1340: delay it (after the rest)
    ):
        yield Delay(uid)
        if phase is not Phase.ACTIONS and perk_hooks.usable_perks(w, uid):
            yield Delay(uid, perk_use=True)


def opportunist_candidates(w: Work, uid: int) -> Iterator[Action]:
    """The delayed actions ``uid`` may make in Opportunist's window at the end of the Game
    Turn (Perks L1340): its Moves or Dashes, its Heal Weapons' Attacks, its perk uses."""
    for phase in perk_opportunist.window_phases(w, uid):
        if phase is Phase.ATTACK:
            yield from perk_opportunist.window_attacks(w, uid)
        else:
            yield from _own_candidates(w, uid, phase)
    if perk_opportunist.may_use_perks(w, uid):
        for name in perk_opportunist.window_perks(w, uid, perk_hooks.usable_perks):
            yield UsePerks(uid, (name,))


def _own_candidates(w: Work, uid: int, phase: Phase) -> Iterator[Action]:
    info = w.info(uid)
    u = w.units[uid]
    if phase is Phase.OPPORTUNIST:
        yield from opportunist_candidates(w, uid)
        return
    if phase is Phase.ACTIONS:  # Advanced (§9.2): every Action of the unit
        if u.location is Location.RESERVE:
            yield from _own_candidates(w, uid, Phase.DEPLOY)
            return
        yield from _own_candidates(w, uid, Phase.ATTACK)
        yield from _own_candidates(w, uid, Phase.MOVE)
        yield from _own_candidates(w, uid, Phase.DASH)
        yield from (Guard(uid), Prepare(uid), Support(uid), UsePerks(uid))
        return
    if phase is Phase.DEPLOY:
        for gate in rift_gates(w, info.side):  # Rift Gate (Perks L1384)
            if gate != uid:
                yield Deploy(uid, into=gate)
        zone = w.zones[info.side]
        if zone is None:
            return
        passengers: tuple[int, ...] = ()
        if info.transport:
            cap = info.transport * info.real_models
            load = 0.0
            chosen = []
            for p in w.side_units(info.side):
                free = w.units[p].location is Location.RESERVE and not w.info(p).transport
                if p != uid and free and load + w.info(p).points <= cap:
                    chosen.append(p)
                    load += w.info(p).points
            passengers = tuple(chosen)
        for spot in zone_points(w, zone):
            if passengers:
                yield Deploy(uid, at=spot, passengers=passengers)
            yield Deploy(uid, at=spot)
        return
    if phase in (Phase.MOVE, Phase.DASH):
        dash = phase is Phase.DASH
        allowance = unit_allowance(w, uid, dash)
        foes = nearest_enemies(w, uid)
        if u.location is Location.TERRAIN:  # out of a terrain piece (§10.2, §10.5)
            yield from _terrain_exits(w, uid, dash)
            return
        if u.inside:  # a split unit: its models inside come out beside the rest (L4460)
            yield Disembark(uid, dash=dash)
        if u.location is Location.EMBARKED:
            if (link := linked_partner(w, u.embarked_in)) is not None:  # Perks L1420
                yield Embark(uid, link, dash=dash)
            if exits_to_reserve(w, uid):  # Rift Gate (Perks L1384)
                yield Disembark(uid, dash=dash, reserve=True)
            holder = w.outermost(uid)
            if w.units[holder].location is not Location.TABLE:
                return
            hc = w.centre(holder)
            if foes:
                tgt = w.centre(foes[0][1])
                yield Disembark(uid, to=(float(tgt[0]), float(tgt[1])), dash=dash)
            for dx, dy in _DIRS:
                yield Disembark(uid, to=(float(hc[0] + dx * 10), float(hc[1] + dy * 10)), dash=dash)
            return
        centre = w.centre(uid)
        for dist, foe in foes:
            if dist <= allowance + 0.5:
                yield Move(uid, engage=foe, dash=dash)
        if foes:
            tgt = w.centre(foes[0][1])
            yield Move(uid, to=(float(tgt[0]), float(tgt[1])), dash=dash)
        for tr in w.side_units(info.side) + transports_open_to(w, uid):
            if tr != uid and w.info(tr).transport and w.units[tr].location is Location.TABLE:
                yield Embark(uid, tr, dash=dash)
        for dist, foe in foes:  # Breach (Perks L1140): into an enemy unit within reach
            if dist <= allowance + 0.5 and breaches(w, uid, foe):
                yield Embark(uid, foe, dash=dash)
        # into a terrain piece with Fire Points (§10.2 L4383-4391, §6.7): in whole, or in part
        # when it does not fit (L4459-4464); boards without such pieces get no candidate
        for name in fire_point_pieces(w):
            yield EmbarkTerrain(uid, name, dash=dash)
        for dx, dy in _DIRS:
            yield Move(
                uid,
                to=(float(centre[0] + dx * allowance), float(centre[1] + dy * allowance)),
                dash=dash,
            )
        return
    if phase is Phase.ATTACK:
        yield from attack_candidates(w, uid)


def _terrain_exits(w: Work, uid: int, dash: bool) -> Iterator[Action]:
    """Disembark candidates of a unit inside a terrain piece: toward the nearest enemy unit on
    the table, then the eight compass points 10" from the piece's centre."""
    name = w.units[uid].terrain
    if name is None:
        return
    piece = w.field.board.terrain_named(name)
    c = np.asarray(piece.polygon, dtype=np.float64).mean(axis=0)
    t = w.table()
    enemy = t.side != w.units[uid].table_side(w.info(uid).side)
    if enemy.any():
        d = ((t.xy[enemy] - c) ** 2).sum(axis=1)
        p = t.xy[enemy][int(np.argmin(d))]
        yield Disembark(uid, to=(float(p[0]), float(p[1])), dash=dash)
    for dx, dy in _DIRS:
        yield Disembark(uid, to=(float(c[0] + dx * 10), float(c[1] + dy * 10)), dash=dash)


def weapon_targets(w: Work, uid: int, limit: int = 4, first: bool = False) -> dict[str, list[int]]:
    """For each weapon of the unit, the enemy units it can legally attack (nearest first,
    looking at up to ``limit`` nearest enemy units; engaged foes first). With ``first``, stop
    once every weapon has a target."""
    info = w.info(uid)
    out: dict[str, list[int]] = {}
    by_foe = nearest_enemies(w, uid)
    foes = [f for _, f in by_foe]
    gaps = {f: d for d, f in by_foe}
    engaged = w.engaged_with(w.outermost(uid))
    order = [f for f in engaged if f in foes] + [f for f in foes if f not in engaged]
    if psychotic(w, uid):  # Psychotic (Perks L2277): the closest units, friends too
        order = [t for t in closest_units(w, uid) if t not in order] + order
    if w.units[uid].location is Location.TERRAIN:  # the Melee inside a terrain piece (§10.2)
        order = engaged + [f for _, f in nearest_from_piece(w, uid) if f not in engaged]
    # passengers of engaged Transports with Fire Points (§6.9)
    for f in list(engaged):
        for p in w.passengers(f):
            if fire_point_chain(w, p) and w.enemies(uid, p):
                order.append(p)
    opened = open_passengers(w, uid, foes[:limit])  # Exposed, Unsheltered (Perks L1280, L1438)
    opened += seed_targets(w, uid)  # Seed II and its host (Perks L1904)
    near = order[: limit + len(engaged)]
    cache: dict[Any, TargetView] = {}
    for foe in [*near, *(t for t in opened if t not in near)]:
        if beyond_reach(w, uid, foe, gaps.get(foe)):
            continue  # no weapon reaches it: its view would give no user (issue 10)
        if first and out and beyond_reach(w, uid, foe, gaps.get(foe), _wanting(w, uid, out)):
            continue  # no weapon still without a target reaches it (issue 10, s29-scale)
        view = view_target(w, uid, foe, cache)
        if view.reason:
            continue
        for wp in info.unit.weapons:
            users = view.users_in_range.get(wp.name)
            if users and heals(w, uid, wp.name):
                continue  # Heal Targets friends (Perks L3433): perk_heal.heal_targets
            if users and perk_limits.weapon_refusal(w, uid, wp.name) is not None:
                continue  # a Limitation perk (Use I, Countdown …) or Panic: not now
            if users and perk_limits.target_refusal(w, uid, wp.name, foe) is not None:
                continue  # Trajectory, Taunt, Provoke: not at this unit
            if users:
                if wp.type.value == "Heavy":
                    users = [m for m in users if not w.units[uid].moved[m]]
                    if w.outermost(uid) != uid and w.units[w.outermost(uid)].unit_moved:
                        users = []
                if users:
                    out.setdefault(wp.name, []).append(foe)
        if first and len(out) == len(info.unit.weapons):
            break
    return perk_limits.one_of_each_set(w, uid, out)  # Twin, Triune: one weapon of a set


def _wanting(w: Work, uid: int, found: dict[str, list[int]]) -> float:
    """The longest Range (its perk statuses') of the unit's weapons without a target yet."""
    ranges = weapon_ranges(w.info(uid), w.units[uid].statuses)
    return max((r for name, r in ranges.items() if name not in found), default=0.0)


def attack_candidates(w: Work, uid: int) -> Iterator[Action]:
    wt = weapon_targets(w, uid)
    if wt:
        yield Attack(uid, tuple((wn, ts[0]) for wn, ts in wt.items()))
        targets = sorted({t for ts in wt.values() for t in ts})
        for t in targets:
            combo = tuple((wn, t) for wn, ts in wt.items() if t in ts)
            if combo:
                yield Attack(uid, combo)
                yield from perk_placement.aimed_candidates(w, uid, combo)  # Mode (s26b)
    # destructible terrain (§10.3), after the units: the first candidate stays the same
    from warbench.rulesets.warsurge.game.terrain_attacks import terrain_attack_targets

    tt = terrain_attack_targets(w, uid)
    for t in sorted({t for ts in tt.values() for t in ts}):
        yield Attack(uid, tuple((wn, t) for wn, ts in tt.items() if t in ts))
    # Heal Weapons at wounded friendly units (Perks L3433), after the rest
    from warbench.rulesets.warsurge.game.perk_heal import heal_targets

    ht = heal_targets(w, uid)
    for t in list(dict.fromkeys(t for ts in ht.values() for t in ts)):
        yield Attack(uid, tuple((wn, t) for wn, ts in ht.items() if t in ts))
