"""The rules of a Standard WARSURGE game: verify, plan and apply each action.

Core Rules (001_d3f5e425c5e1196d.txt): §2.2 (the Game Turn), §3.3 (more players, teams), §3.6
(deployment), §4 (movement, coherency, Melee, ground), §5.3-5.6 (targeting, range, line of
sight, cover), §5.9 (melee range), §5.11-5.15 (casualties, ending a Melee), §6 (transports and
fire points). Every refusal is a :class:`~warbench.kernel.errors.RulesError` with a sentence and
the section. The attack sequence itself is the combat core's
(:func:`~warbench.rulesets.warsurge.odds.resolve_attack`).

All work on one action happens on a :class:`Work`: mutable copies of the state's parts, the
dice of this step and the events. The engine turns it back into a frozen state.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from warbench.kernel.dice import Dice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.attack import (
    AttackContext,
    ModelState,
    PerkSet,
    Playstyle,
    UnitState,
)
from warbench.rulesets.warsurge.game import geom
from warbench.rulesets.warsurge.game.actions import (
    Action,
    Attack,
    ChooseTurnMaster,
    ChooseZone,
    Deploy,
    Disembark,
    Embark,
    Move,
    Pass,
    Point,
)
from warbench.rulesets.warsurge.game.events import Event
from warbench.rulesets.warsurge.game.geom import CONTACT, OVERLAP_TOL, FloatArray
from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.state import (
    Automation,
    Flow,
    GameResult,
    GameState,
    Location,
    Phase,
    Status,
    UnitGS,
    UnitInfo,
)
from warbench.rulesets.warsurge.odds import AttackPlan, allocate_loss, resolve_attack
from warbench.rulesets.warsurge.profiles import WeaponProfile, WeaponType

# --------------------------------------------------------------------------------------------
# Working copy
# --------------------------------------------------------------------------------------------


@dataclass
class TableIndex:
    """Every model on the battlefield (casualties included until removed, §5.15).

    An index is replaced whenever a model's position, a removal or a unit's location changes,
    and is passed on unchanged to the next states otherwise (the Attack Phase, passes …).
    ``memo`` keeps answers that depend only on what the index fixes (and on the keys given),
    so they are shared by every state with this index."""

    xy: FloatArray
    r: FloatArray
    uid: np.ndarray[Any, np.dtype[np.int64]]
    model: np.ndarray[Any, np.dtype[np.int64]]
    side: np.ndarray[Any, np.dtype[np.int64]]
    memo: dict[Any, Any] = field(default_factory=dict)


class Work:
    """Mutable working copy of a state while one action is applied."""

    def __init__(self, state: GameState, dice: Dice | None, hooks: HookRegistry) -> None:
        self._state = state
        self.setup = state.setup
        self.field = state.setup.field
        self.units: list[UnitGS] = list(state.units)
        self.engaged: set[tuple[int, int]] = set(state.engaged)
        self.flow: Flow = state.flow
        self.engaged_at_start = state.engaged
        self.zones: list[int | None] = list(state.zones)
        self.seed = state.seed
        self.step = state.step
        self.result: GameResult | None = state.result
        self._dice = dice
        self.hooks = hooks
        self.events: list[Event] = []
        self._index: TableIndex | None = state.cache.get("index")  # type: ignore[assignment]
        self.dirty = False

    @property
    def dice(self) -> Dice:
        """The dice of this step (``None`` given: the state's own, made on first use; checks
        roll no dice, so they never pay for a generator)."""
        if self._dice is None:
            self._dice = self._state.dice()
        return self._dice

    # -- output ----------------------------------------------------------------------------
    def state(self) -> GameState:
        out = GameState(
            setup=self.setup,
            seed=self.seed,
            flow=self.flow,
            units=tuple(self.units),
            engaged=frozenset(self.engaged),
            zones=tuple(self.zones),
            step=self.step,
            result=self.result,
        )
        if self._index is not None:
            out.cache["index"] = self._index
        return out

    def emit(self, kind: str, text: str, rule: str = "", **data: Any) -> None:
        self.events.append(
            Event(kind, text, self.flow.turn, self.flow.phase.value, rule, dict(data))
        )

    def label(self, uid: int) -> str:
        return self.setup.units[uid].label

    def side_name(self, side: int) -> str:
        return self.setup.sides[side]

    # -- units -------------------------------------------------------------------------------
    def info(self, uid: int) -> UnitInfo:
        return self.setup.units[uid]

    def set_unit(self, uid: int, **changes: Any) -> None:
        self.dirty = True
        if "pos" in changes or "removed" in changes or "location" in changes:
            self._index = None
        self.units[uid] = replace(self.units[uid], **changes)

    def table(self) -> TableIndex:
        if self._index is None:
            xy: list[Point] = []
            r: list[float] = []
            uids: list[int] = []
            models: list[int] = []
            for u in self.units:
                if u.location is not Location.TABLE:
                    continue
                rad = self.setup.units[u.uid].radius
                for i, gone in enumerate(u.removed):
                    if not gone:
                        xy.append(u.pos[i])
                        r.append(rad)
                        uids.append(u.uid)
                        models.append(i)
            self._index = TableIndex(
                geom.as_array(xy),
                np.asarray(r, dtype=np.float64),
                np.asarray(uids, dtype=np.int64),
                np.asarray(models, dtype=np.int64),
                np.asarray([self.setup.units[x].side for x in uids], dtype=np.int64),
            )
            if not self.dirty:
                # the state's own index: every later Work of this state reuses it
                self._state.cache["index"] = self._index
        return self._index

    def xy(self, uid: int, models: Sequence[int] | None = None) -> FloatArray:
        u = self.units[uid]
        idx = u.present() if models is None else models
        return geom.as_array([u.pos[i] for i in idx])

    def others_mask(self, exclude: Iterable[int]) -> np.ndarray[Any, np.dtype[np.bool_]]:
        t = self.table()
        mask = np.ones(len(t.uid), dtype=bool)
        for x in set(exclude):
            mask &= t.uid != x
        return mask

    def enemies(self, a: int, b: int) -> bool:
        return self.setup.units[a].side != self.setup.units[b].side

    def engaged_with(self, uid: int) -> list[int]:
        return sorted(b if a == uid else a for a, b in self.engaged if uid in (a, b))

    def contacts(self, uid: int, xy: FloatArray | None = None) -> set[int]:
        """Enemy units with a model in Base Contact with this unit's models (§2.1)."""
        t = self.table()
        pts = self.xy(uid) if xy is None else xy
        if not len(pts) or not len(t.xy):
            return set()
        side = self.setup.units[uid].side
        mask = (t.uid != uid) & (t.side != side)
        if not mask.any():
            return set()
        d = geom.edge_distances(pts, self.setup.units[uid].radius, t.xy[mask], t.r[mask])
        hit = (d <= CONTACT).any(axis=0)
        return {int(x) for x in t.uid[mask][hit]}

    def side_units(self, side: int) -> list[int]:
        return [u.uid for u in self.setup.units if u.side == side]

    def outermost(self, uid: int) -> int:
        u = self.units[uid]
        while u.location is Location.EMBARKED and u.embarked_in is not None:
            u = self.units[u.embarked_in]
        return u.uid

    def passengers(self, transport: int) -> list[int]:
        return [
            u.uid
            for u in self.units
            if u.location is Location.EMBARKED and u.embarked_in == transport
        ]


def err(reason: str, rule: str) -> RulesError:
    return RulesError(reason, rule)


# --------------------------------------------------------------------------------------------
# Who acts
# --------------------------------------------------------------------------------------------


def acting_side(state_flow: Flow) -> int | None:
    if state_flow.phase is Phase.TURN_MASTER:
        return state_flow.rolloff_winner
    return state_flow.active


def unit_allowance(w: Work, uid: int, dash: bool) -> int:
    p = w.info(uid).unit.profile
    return p.dash if dash else p.move


def eligible(w: Work, uid: int, phase: Phase) -> bool:
    """Cheap test: could this unit still act in this phase (before geometry)?"""
    u = w.units[uid]
    info = w.info(uid)
    if u.acted:
        return False
    if phase is Phase.DEPLOY:
        return u.location is Location.RESERVE
    if phase in (Phase.MOVE, Phase.DASH):
        if info.immobile or unit_allowance(w, uid, phase is Phase.DASH) <= 0:
            return False
        if u.location is Location.TABLE:
            # in a Dash, not when every model used a Battle or Heavy weapon (§5.1)
            return not (phase is Phase.DASH and all(u.heavy[i] or u.battle[i] for i in u.present()))
        if u.location is Location.EMBARKED and u.embarked_in is not None:
            holder = w.units[u.embarked_in]
            return holder.location is Location.TABLE or (
                holder.location is Location.EMBARKED  # into the outer Transport (§6.5)
            )
        return False
    if phase is Phase.ATTACK:
        if not info.unit.weapons:
            return False
        if u.location is Location.TABLE:
            return True
        if u.location is Location.EMBARKED:
            return fires_from_transport(w, uid) is None
        return False
    return False


def fires_from_transport(w: Work, uid: int) -> str | None:
    """Why an embarked unit cannot attack from its Transport, or None when it can: its
    Transport is on the battlefield and has Fire Points (§6.7). A passenger of a passenger
    cannot use Fire Points to attack from the outer Transport (§6.5, 001 L3394)."""
    u = w.units[uid]
    holder = u.embarked_in
    if u.location is not Location.EMBARKED or holder is None:
        return None
    h = w.units[holder]
    label = w.info(uid).label
    if h.location is Location.EMBARKED:
        return (
            f"{label} is a passenger of a passenger ({w.label(holder)} is inside "
            f"{w.label(w.outermost(uid))}) and cannot use Fire Points to attack from the "
            "outer Transport (§6.5)"
        )
    if not w.info(holder).fire_points:
        return f"{label} is embarked in a Transport without Fire Points (§6.7 Fire Points)"
    if h.location is not Location.TABLE:
        return f"{w.label(holder)} is not on the battlefield"
    return None


def fire_point_chain(w: Work, uid: int) -> bool:
    """Every Transport around the unit has Fire Points and the outermost is on the table
    (§6.7: "all the Transports must have Fire Points")."""
    u = w.units[uid]
    while u.location is Location.EMBARKED and u.embarked_in is not None:
        t = w.units[u.embarked_in]
        if not w.info(t.uid).fire_points:
            return False
        u = t
    return u.location is Location.TABLE


def side_can_act(w: Work, side: int, phase: Phase) -> bool:
    return any(eligible(w, uid, phase) for uid in w.side_units(side))


# --------------------------------------------------------------------------------------------
# Geometry helpers shared by the checks
# --------------------------------------------------------------------------------------------


def _problem_positions(
    w: Work,
    uid: int,
    new: Sequence[Point],
    models: Sequence[int],
    starts: Sequence[Point] | None,
    allowance: float | None,
    dash: bool,
    ignore: Iterable[int] = (),
) -> tuple[str, str] | None:
    """Why these model positions are not legal, or None (paths, ground, overlaps, coherency).

    ``starts`` None: a placement (deployment, disembark handled by the caller), no path."""
    info = w.info(uid)
    r = info.radius
    f = w.field
    t = w.table()
    other = w.others_mask([uid, *ignore])
    oxy = t.xy[other]
    orad = t.r[other]
    new_arr = geom.as_array(new)
    u = w.units[uid]
    # The closest other base to each model's path and end, for every model at once: a model
    # clearly clear of them (by _MARGIN) skips the one-model tests below, which give the
    # answer (and the reason) whenever it might be a refusal.
    seg_gap: list[float] | None = None
    end_gap: list[float] | None = None
    if len(models) > 1 and len(oxy):
        seg_gap, end_gap = _gaps(
            new_arr, None if starts is None else geom.as_array(starts), r, oxy, orad
        )
    clear = -OVERLAP_TOL + _MARGIN
    for k, (i, p) in enumerate(zip(models, new, strict=True)):
        if not f.on_board(p, r):
            return (f"model {i + 1} of {info.label} would be off the battlefield", "§2.1")
        if starts is not None:
            s = starts[k]
            if s == p:
                continue
            if dash and (u.heavy[i] or u.battle[i]):
                kind = "Heavy" if u.heavy[i] else "Battle"
                return (
                    f"model {i + 1} of {info.label} used a {kind} weapon this Game Turn and "
                    "cannot Dash",
                    "§5.1 Type",
                )
            length = math.dist(s, p)
            pc = f.path(s, p, r)
            if pc.blocked_by is not None:
                return (
                    f"model {i + 1} of {info.label} cannot cross Impassable Ground "
                    f"({pc.blocked_by})",
                    "§4.7",
                )
            if allowance is not None:
                limit = float(allowance)
                if pc.difficult:
                    limit = float(min(math.floor(allowance / 2), allowance - 1))
                if length > limit + 1e-6:
                    what = "Dash" if dash else "Move"
                    extra = " (halved by Difficult Ground)" if pc.difficult else ""
                    return (
                        f'model {i + 1} of {info.label} would travel {length:.2f}" but its '
                        f'{what} allows {limit:.0f}"{extra}',
                        "§4.5" if pc.difficult else "§4.1",
                    )
            if len(oxy) and (seg_gap is None or seg_gap[k] < clear):
                dd = geom.segment_distances(np.asarray(s), np.asarray(p), oxy) - orad - r
                if (dd < -OVERLAP_TOL).any():
                    j = int(np.argmin(dd))
                    who = w.label(int(t.uid[other][j]))
                    return (
                        f"model {i + 1} of {info.label} cannot move through {who}: other units "
                        "are Impassable Ground",
                        "§4.7",
                    )
        elif not f.spot_ok(p, r):
            return (f"model {i + 1} of {info.label} cannot stand on Impassable Ground", "§4.7")
        if starts is not None and not f.spot_ok(p, r):
            return (f"model {i + 1} of {info.label} cannot stand on Impassable Ground", "§4.7")
        if len(oxy) and (end_gap is None or end_gap[k] < clear):
            d = np.sqrt(((oxy - np.asarray(p)) ** 2).sum(axis=1)) - orad - r
            if (d < -OVERLAP_TOL).any():
                j = int(np.argmin(d))
                return (
                    f"model {i + 1} of {info.label} would overlap {w.label(int(t.uid[other][j]))}",
                    "§4.7",
                )
    if len(new_arr) > 1:
        d = geom.edge_distances(new_arr, r, new_arr, r)
        np.fill_diagonal(d, np.inf)
        if (d < -OVERLAP_TOL).any():
            return (f"models of {info.label} would overlap each other", "§1.3")
        if not geom.coherent(new_arr, r):
            return (
                f'{info.label} would break Coherency: every model within 2" of another, '
                "in one group",
                "§4.2",
            )
    return None


def _gaps(
    new: FloatArray, starts: FloatArray | None, r: float, oxy: FloatArray, orad: FloatArray
) -> tuple[list[float] | None, list[float]]:
    """For each model, the smallest edge gap to another base along its path (None without
    ``starts``) and at its end; bases far from every path are left out (their gaps are
    positive, so they never give a smallest gap below zero)."""
    box = new if starts is None else np.vstack([new, starts])
    lo = box.min(axis=0) - r - 1.0
    hi = box.max(axis=0) + r + 1.0
    near = (
        (oxy[:, 0] > lo[0] - orad)
        & (oxy[:, 0] < hi[0] + orad)
        & (oxy[:, 1] > lo[1] - orad)
        & (oxy[:, 1] < hi[1] + orad)
    )
    m = len(new)
    if not near.any():
        far = [math.inf] * m
        return (None if starts is None else far), far
    nxy, nrad = oxy[near], orad[near]
    end = np.sqrt(((new[:, None, :] - nxy[None, :, :]) ** 2).sum(axis=2)) - nrad - r
    seg = None
    if starts is not None:
        seg = (geom.segments_distances(starts, new, nxy) - nrad - r).min(axis=1).tolist()
    return seg, end.min(axis=1).tolist()


def _full_positions(u: UnitGS, models: Sequence[int], new: Sequence[Point]) -> tuple[Point, ...]:
    pos = list(u.pos)
    for i, p in zip(models, new, strict=True):
        pos[i] = p
    return tuple(pos)


#: Margin of :func:`_clearly_illegal`: only a failure by more than this rejects a candidate.
_MARGIN = 1e-9


def _clearly_illegal(
    w: Work, uid: int, starts: FloatArray | None, new: FloatArray
) -> npt.NDArray[np.bool_]:
    """Which candidate positions ``new`` ``(C, m, 2)`` of the unit's models (from ``starts``
    ``(m, 2)``; None for a placement) certainly fail :func:`_problem_positions`: a model off
    the battlefield, or a moving model passing through or ending on another unit's base, each
    by clearly more than the tolerances. All candidates are tested at once with NumPy; the
    callers check the candidates not rejected here with :func:`_problem_positions` itself, in
    their order, so they find the very same positions (the search is only faster)."""
    r = w.info(uid).radius
    f = w.field
    x, y = new[..., 0], new[..., 1]
    lo = r - 1e-6 - _MARGIN
    off = (x < lo) | (x > f.width - r + 1e-6 + _MARGIN) | (y < lo)
    off |= y > f.height - r + 1e-6 + _MARGIN
    out: npt.NDArray[np.bool_] = np.asarray(off.any(axis=1))
    t = w.table()
    other = w.others_mask([uid])
    # only bases near the box of the candidates (and starts) can be met: a base farther than
    # the two radii from the box is farther than that from every segment and end inside it
    flat = new.reshape(-1, 2) if starts is None else np.vstack([new.reshape(-1, 2), starts])
    if len(flat):
        lo_xy = flat.min(axis=0) - r - 1.0
        hi_xy = flat.max(axis=0) + r + 1.0
        other &= (
            (t.xy[:, 0] > lo_xy[0] - t.r)
            & (t.xy[:, 0] < hi_xy[0] + t.r)
            & (t.xy[:, 1] > lo_xy[1] - t.r)
            & (t.xy[:, 1] < hi_xy[1] + t.r)
        )
    oxy, orad = t.xy[other], t.r[other]
    if not len(oxy):
        return out
    moving = np.ones(off.shape, dtype=bool) if starts is None else (new != starts[None]).any(axis=2)
    live = np.flatnonzero(~out)
    if not len(live):
        return out
    sub = new[live]  # (L, m, 2)
    d = np.sqrt(((sub[:, :, None, :] - oxy[None, None, :, :]) ** 2).sum(axis=3)) - orad - r
    bad = (d < -OVERLAP_TOL - _MARGIN).any(axis=2) & moving[live]  # (L, m)
    if starts is not None:
        # passing through: only for the candidates not already rejected
        cand, k = np.nonzero(moving[live] & ~bad.any(axis=1)[:, None])
        if len(cand):
            dd = geom.segments_distances(starts[k], sub[cand, k], oxy) - orad - r
            through = (dd < -OVERLAP_TOL - _MARGIN).any(axis=1)
            bad[cand[through], k[through]] = True
    out[live] = bad.any(axis=1)
    return out


# --------------------------------------------------------------------------------------------
# Plans: what an action will do, computed by the check and reused by apply
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MovePlan:
    uid: int
    models: tuple[int, ...]
    positions: tuple[Point, ...]
    starts: tuple[Point, ...] | None
    dash: bool
    embark: int | None = None
    disembark: bool = False


@dataclass(frozen=True)
class DeployPlan:
    uid: int
    positions: tuple[Point, ...]
    passengers: tuple[int, ...]


@dataclass(frozen=True)
class WeaponPlan:
    weapon: str
    target: int
    users: int
    context: AttackContext
    models: tuple[int, ...] = ()


@dataclass(frozen=True)
class AttackPlanG:
    uid: int
    weapons: tuple[WeaponPlan, ...]


Plan = MovePlan | DeployPlan | AttackPlanG | None


# --------------------------------------------------------------------------------------------
# Verification
# --------------------------------------------------------------------------------------------

_PHASE_ACTIONS: dict[Phase, tuple[type, ...]] = {
    Phase.TURN_MASTER: (ChooseTurnMaster,),
    Phase.ZONES: (ChooseZone,),
    Phase.DEPLOY: (Deploy, Pass),
    Phase.MOVE: (Move, Embark, Disembark, Pass),
    Phase.ATTACK: (Attack, Pass),
    Phase.DASH: (Move, Embark, Disembark, Pass),
}

_KIND_NAMES = {
    ChooseTurnMaster: "choosing the Turn Master",
    ChooseZone: "choosing a Deployment Zone",
    Deploy: "deploying",
    Move: "moving",
    Embark: "embarking",
    Disembark: "disembarking",
    Attack: "attacking",
    Pass: "passing",
}


def verify(w: Work, action: Action) -> Plan:
    """Raise a RulesError if ``action`` is illegal now; return what it will do."""
    flow = w.flow
    if flow.phase is Phase.OVER:
        raise err("the game is over", "§2.2 step 8")
    allowed = _PHASE_ACTIONS[flow.phase]
    if not isinstance(action, allowed):
        raise err(
            f"{_KIND_NAMES[type(action)]} is not an action of the {flow.phase.value} step; "
            f"allowed: {', '.join(_KIND_NAMES[a] for a in allowed)}",
            "§2.2",
        )
    side = acting_side(flow)
    assert side is not None
    if isinstance(action, ChooseTurnMaster):
        if not 0 <= action.side < len(w.setup.sides):
            raise err(f"there is no side {action.side}", "§2.1 Turn Master")
        return None
    if isinstance(action, ChooseZone):
        n = len(w.field.zones)
        if not 0 <= action.zone < n:
            raise err(f"there is no Deployment Zone {action.zone}; zones are 0 to {n - 1}", "§3.6")
        if action.zone in w.zones:
            raise err(f"Deployment Zone {action.zone} is already taken", "§3.6 step 2")
        return None
    if isinstance(action, Pass):
        verify_pass(w, side)
        return None
    uid = action.unit
    if not 0 <= uid < len(w.units):
        raise err(f"there is no unit {uid}", "§2.1 Unit")
    info = w.info(uid)
    if info.side != side:
        raise err(
            f"{info.label} belongs to {w.side_name(info.side)}; it is "
            f"{w.side_name(side)}'s turn to act",
            "§2.1 Alternating Actions",
        )
    if w.units[uid].acted:
        raise err(f"{info.label} has already acted in this {flow.phase.value} Phase", "§2.2")
    if isinstance(action, Deploy):
        return verify_deploy(w, action)
    if isinstance(action, Attack):
        return verify_attack(w, action)
    if isinstance(action, Embark):
        return verify_embark(w, action)
    if isinstance(action, Disembark):
        return verify_disembark(w, action)
    return verify_move(w, action)


def _check_dash_flag(w: Work, dash: bool) -> None:
    want = w.flow.phase is Phase.DASH
    if dash != want:
        raise err(
            "a Dash is made in the Dash Phase and a Move in the Move Phase",
            "§2.2 steps 3 and 5",
        )


def verify_pass(w: Work, side: int) -> None:
    """§3.6: at least 50% of the roster (in points) deployed on the first Game Turn, unless
    the rest cannot be placed."""
    if w.flow.phase is not Phase.DEPLOY or w.flow.turn != 1:
        return
    share = w.setup.deploy_share
    total = w.setup.roster_points(side)
    deployed = sum(
        w.info(uid).points
        for uid in w.side_units(side)
        if w.units[uid].location in (Location.TABLE, Location.EMBARKED)
    )
    if total <= 0 or deployed >= share * total - 1e-9:
        return
    for uid in w.side_units(side):
        if w.units[uid].location is Location.RESERVE:
            try:
                verify_deploy(w, Deploy(uid))
            except RulesError:
                continue
            raise err(
                f"{w.side_name(side)} has deployed {deployed:.0f} of {total:.0f} points; at "
                f"least {share:.0%} of the roster must be deployed on the first Game Turn "
                f"({w.info(uid).label} can still be placed)",
                "§3.6",
            )


def verify_deploy(w: Work, action: Deploy) -> DeployPlan:
    uid = action.unit
    info = w.info(uid)
    u = w.units[uid]
    if u.location is not Location.RESERVE:
        raise err(f"{info.label} is not in Reserve", "§2.1 Reserve")
    zone = w.zones[info.side]
    assert zone is not None
    # §6.1 passengers
    load = 0.0
    for p in action.passengers:
        if not 0 <= p < len(w.units) or w.info(p).side != info.side:
            raise err(f"unit {p} is not one of your units", "§6.1")
        if p == uid or w.units[p].location is not Location.RESERVE:
            raise err(f"{w.label(p)} is not in Reserve to embark", "§6.1")
        load += w.info(p).points
    if action.passengers:
        _check_capacity(w, uid, load, action.passengers)
    if action.positions is not None:
        pos = tuple(action.positions)
        if len(pos) != info.models:
            raise err(f"{info.label} has {info.models} models; {len(pos)} positions given", "§3.6")
        _check_deploy_positions(w, uid, pos, zone)
        return DeployPlan(uid, pos, action.passengers)
    if Automation.MODEL_PLACEMENT not in w.setup.automation:
        raise err("give a position for every model (model placement is not automated)", "§3.6")
    centre = action.at if action.at is not None else w.field.zone_centre(zone)
    placed = place_unit(w, uid, centre, zone=zone)
    if placed is None:
        raise err(
            f"there is not enough room to deploy {info.label} near "
            f"({centre[0]:.1f}, {centre[1]:.1f}) in its Deployment Zone; it must remain in "
            "Reserve",
            "§3.6",
        )
    return DeployPlan(uid, placed, action.passengers)


def _check_capacity(w: Work, transport: int, load: float, newcomers: Sequence[int]) -> None:
    info = w.info(transport)
    if info.transport <= 0:
        raise err(f"{info.label} is not a Transport (Transport Stat 0)", "§6")
    if w.units[transport].location is Location.EMBARKED:
        # §6.5: one level of nesting, and passengers of passengers cannot carry anything
        raise err(f"{info.label} is itself embarked and cannot take passengers", "§6.5")
    for p in newcomers:
        if w.info(p).transport and w.passengers(p) and w.units[transport].embarked_in is not None:
            raise err("only one Transport may carry another Transport", "§6.5")
        for q in w.passengers(p):
            if w.info(q).transport and w.passengers(q):
                raise err("a Transport inside a Transport cannot hold a loaded Transport", "§6.5")
    u = w.units[transport]
    capacity = info.transport * max(1, len(u.living()) if u.hp else info.models)
    current = sum(w.info(p).points for p in w.passengers(transport))
    if current + load > capacity + 1e-9:
        raise err(
            f"{info.label} can carry {capacity} points; it holds {current:.0f} and "
            f"{load:.0f} more would not fit",
            "§6.4",
        )


def _check_deploy_positions(w: Work, uid: int, pos: Sequence[Point], zone: int) -> None:
    info = w.info(uid)
    for i, p in enumerate(pos):
        if not w.field.in_zone(zone, p, info.radius):
            raise err(
                f"model {i + 1} of {info.label} is outside its Deployment Zone", "§3.6 step 3"
            )
    prob = _problem_positions(w, uid, pos, range(len(pos)), None, None, False)
    if prob:
        raise err(*prob)
    if w.contacts(uid, geom.as_array(pos)):
        raise err(
            f"{info.label} cannot be deployed in Base Contact with an enemy; a Melee is "
            "engaged by a Move or a Dash",
            "§4.3",
        )


def place_unit(
    w: Work,
    uid: int,
    centre: Point,
    *,
    zone: int | None = None,
    tries: int = 24,
    near: Point | None = None,
    within: float | None = None,
    from_xy: FloatArray | None = None,
    from_r: float = 0.0,
    models: Sequence[int] | None = None,
) -> tuple[Point, ...] | None:
    """Automated placement: a compact formation around ``centre`` (then nearby points),
    inside ``zone`` if given, within ``within`` inches of the bases ``from_xy`` if given."""
    info = w.info(uid)
    r = info.radius
    idx = list(range(info.models)) if models is None else list(models)
    offsets = geom.formation(len(idx), r)
    spread = float(np.abs(offsets).max()) + r if len(offsets) else r
    cands: list[Point] = [centre]
    step = max(2 * r + 0.5, 1.0)
    for ring in range(1, tries):
        k = 6 * ring
        rad = step * ring * 0.75
        cands.extend(geom.ring_points(centre, rad, min(k, 24)))
        if len(cands) > tries * 6:
            break
    zb = w.field.zone_bounds(zone) if zone is not None else None
    # every candidate formation at once; blocks of candidates that certainly fail are skipped
    # (outside the zone's box or the zone, off the table, on another unit), the others are
    # tested one by one in order below, exactly as before
    allpts = offsets[None, :, :] + np.asarray(cands)[:, None, :]
    skip = np.zeros(len(cands), dtype=bool)
    if zb is not None:
        xs, ys = allpts[..., 0], allpts[..., 1]
        skip = (
            (xs - r < zb[0] - 1e-6).any(axis=1)
            | (xs + r > zb[2] + 1e-6).any(axis=1)
            | (ys - r < zb[1] - 1e-6).any(axis=1)
            | (ys + r > zb[3] + 1e-6).any(axis=1)
        )
    b0, block = 0, 8
    while b0 < len(cands):
        rows = np.arange(b0, min(b0 + block, len(cands)))
        b0, block = b0 + block, block * 3
        live = rows[~skip[rows]]
        if zone is not None and len(live):
            inside = w.field.g.in_zone(zone, allpts[live].reshape(-1, 2), r)
            skip[live[~inside.reshape(len(live), -1).all(axis=1)]] = True
            live = rows[~skip[rows]]
        if len(live):
            skip[live] = _clearly_illegal(w, uid, None, allpts[live])
        for c, no in zip([cands[k] for k in rows.tolist()], skip[rows].tolist(), strict=True):
            if no:
                continue
            placed = _place_at(w, uid, c, offsets, idx, r, zone, zb, within, from_xy, from_r)
            if placed is not None:
                return placed
    _ = spread, near
    return None


def _place_at(
    w: Work,
    uid: int,
    c: Point,
    offsets: FloatArray,
    idx: Sequence[int],
    r: float,
    zone: int | None,
    zb: tuple[float, float, float, float] | None,
    within: float | None,
    from_xy: FloatArray | None,
    from_r: float,
) -> tuple[Point, ...] | None:
    """One candidate of :func:`place_unit`: the formation centred on ``c``, if legal."""
    pts = offsets + np.asarray(c)
    if zb is not None and (
        (pts[:, 0] - r < zb[0] - 1e-6).any()
        or (pts[:, 0] + r > zb[2] + 1e-6).any()
        or (pts[:, 1] - r < zb[1] - 1e-6).any()
        or (pts[:, 1] + r > zb[3] + 1e-6).any()
    ):
        return None
    pos = tuple((float(x), float(y)) for x, y in pts)
    if zone is not None and not w.field.in_zone_all(zone, pts, r):
        return None
    if from_xy is not None and within is not None:
        d = geom.edge_distances(pts, r, from_xy, from_r).min(axis=1)
        if (d > within + 1e-6).any():
            return None
    if _problem_positions(w, uid, pos, idx, None, None, False):
        return None
    if zone is not None and w.contacts(uid, pts):
        return None
    return pos


def verify_move(w: Work, action: Move) -> MovePlan:
    uid = action.unit
    info = w.info(uid)
    u = w.units[uid]
    _check_dash_flag(w, action.dash)
    what = "Dash" if action.dash else "Move"
    if u.location is Location.EMBARKED:
        raise err(f"{info.label} is embarked; use Disembark to leave its Transport", "§6.3")
    if u.location is not Location.TABLE:
        raise err(f"{info.label} is not on the battlefield", "§4.1")
    if info.immobile:
        raise err(f"{info.label} is Immobile (Move 0 and Dash 0)", "§4.1 Immobile Units")
    allowance = unit_allowance(w, uid, action.dash)
    if allowance <= 0:
        raise err(f'{info.label} has a {what} of 0"', "§4.1")
    models = tuple(u.present())
    starts = tuple(u.pos[i] for i in models)
    if action.positions is not None:
        if len(action.positions) != len(models):
            raise err(
                f"{info.label} has {len(models)} models on the table; "
                f"{len(action.positions)} positions given",
                "§4.1",
            )
        new = tuple(action.positions)
    elif Automation.MODEL_PLACEMENT not in w.setup.automation:
        raise err("give a position for every model (model placement is not automated)", "§4.1")
    elif action.engage is not None:
        new = plan_engage(w, uid, action.engage, allowance, action.dash)
    elif action.to is not None:
        new = plan_towards(w, uid, action.to, allowance, action.dash)
    else:
        raise err("a Move needs positions, a point to move to, or a unit to engage", "§4.1")
    prob = _problem_positions(w, uid, new, models, starts, allowance, action.dash)
    if prob:
        raise err(*prob)
    _check_locked(w, uid, new)
    if action.engage is not None and action.engage not in w.contacts(uid, geom.as_array(new)):
        raise err(f"the move does not reach {w.label(action.engage)}", "§4.3")
    return MovePlan(uid, models, new, starts, action.dash)


def _check_locked(w: Work, uid: int, new: Sequence[Point]) -> None:
    """§4.4 I-II: a unit in a Melee keeps Base Contact with the units it is locked with."""
    foes = w.engaged_with(uid)
    if not foes:
        return
    now = w.contacts(uid, geom.as_array(new))
    lost = [f for f in foes if f not in now]
    if lost:
        raise err(
            f"{w.label(uid)} is locked in a Melee and must keep Base Contact with "
            f"{', '.join(w.label(f) for f in lost)}",
            "§4.4",
        )


def _rigid(
    w: Work, uid: int, vec: FloatArray, allowance: float, dash: bool, models: Sequence[int]
) -> tuple[Point, ...] | None:
    u = w.units[uid]
    starts = [u.pos[i] for i in models]
    pts = geom.as_array(starts) + vec
    new = tuple((float(x), float(y)) for x, y in pts)
    if _problem_positions(w, uid, new, models, starts, allowance, dash):
        return None
    return new


def _mover_models(w: Work, uid: int, dash: bool) -> tuple[list[int], list[int]]:
    """(models free to move, models that must stay: Battle/Heavy users in a Dash, §5.1)."""
    u = w.units[uid]
    free: list[int] = []
    stay: list[int] = []
    for i in u.present():
        (stay if dash and (u.heavy[i] or u.battle[i]) else free).append(i)
    return free, stay


def plan_towards(w: Work, uid: int, to: Point, allowance: float, dash: bool) -> tuple[Point, ...]:
    """Automated Move/Dash toward a point: the largest legal straight translation of the
    formation (fractions of the full distance), models that may not move stay put."""
    u = w.units[uid]
    models = u.present()
    free, _stay = _mover_models(w, uid, dash)
    xy = w.xy(uid, free)
    centre = xy.mean(axis=0)
    v = np.asarray(to, dtype=np.float64) - centre
    dist = float(np.hypot(*v))
    if dist < 1e-9 or not free:
        return tuple(u.pos[i] for i in models)
    unit_v = v / dist
    full = min(dist, float(allowance))
    fracs = (1.0, 0.8, 0.6, 0.45, 0.3, 0.15)
    vecs = [unit_v * full * frac for frac in fracs]
    # the fractions that certainly fail are known at once (the same positions as below)
    starts = geom.as_array([u.pos[i] for i in models])
    fs = set(free)
    shift = np.asarray([i in fs for i in models], dtype=bool)[None, :, None]
    cands = np.where(shift, starts[None] + np.asarray(vecs)[:, None, :], starts[None])
    rejected = _clearly_illegal(w, uid, starts, cands)
    for vec, no in zip(vecs, rejected.tolist(), strict=True):
        if no:
            continue
        moved = _rigid_subset(w, uid, vec, allowance, dash, models, free)
        if moved is not None:
            return moved
    raise err(
        f"{w.label(uid)} finds no clear path toward ({to[0]:.1f}, {to[1]:.1f})",
        "§4.7",
    )


def _rigid_subset(
    w: Work,
    uid: int,
    vec: FloatArray,
    allowance: float,
    dash: bool,
    models: Sequence[int],
    free: Sequence[int],
) -> tuple[Point, ...] | None:
    u = w.units[uid]
    fs = set(free)
    new = tuple(
        (u.pos[i][0] + float(vec[0]), u.pos[i][1] + float(vec[1])) if i in fs else u.pos[i]
        for i in models
    )
    starts = [u.pos[i] for i in models]
    if _problem_positions(w, uid, new, models, starts, allowance, dash):
        return None
    if w.engaged_with(uid):
        try:
            _check_locked(w, uid, new)
        except RulesError:
            return None
    return new


def plan_engage(w: Work, uid: int, target: int, allowance: float, dash: bool) -> tuple[Point, ...]:
    """Automated charge (§4.3): bring the nearest model into Base Contact with the nearest
    model of ``target``; the rest of the unit follows as far as it legally can."""
    if not 0 <= target < len(w.units) or not w.enemies(uid, target):
        raise err(f"unit {target} is not an enemy unit", "§4.3")
    if w.units[target].location is not Location.TABLE:
        raise err(f"{w.label(target)} is not on the battlefield", "§4.3")
    info = w.info(uid)
    u = w.units[uid]
    models = u.present()
    free, _stay = _mover_models(w, uid, dash)
    if not free:
        raise err(f"no model of {info.label} may {'Dash' if dash else 'Move'}", "§5.1 Type")
    a = w.xy(uid, free)
    b = w.xy(target)
    rt = w.info(target).radius
    d = geom.edge_distances(a, info.radius, b, rt)
    order = np.argsort(d, axis=None)
    starts = [u.pos[i] for i in models]
    tried = 0
    for flat in order[:6]:
        i, j = divmod(int(flat), d.shape[1])
        need = float(d[i, j]) - CONTACT / 2
        if need > allowance + 1e-6:
            break
        tried += 1
        pa = a[i]
        pb = b[j]
        direction = pb - pa
        norm = float(np.hypot(*direction))
        if norm < 1e-9:
            continue
        vec = direction / norm * max(0.0, need)
        lead = free[i]
        # first the whole formation, then the others shortened one by one
        new = list(starts)
        for k, m in enumerate(models):
            if m in free:
                new[k] = (starts[k][0] + float(vec[0]), starts[k][1] + float(vec[1]))
        if _problem_positions(w, uid, tuple(new), models, starts, allowance, dash) is None:
            return tuple(new)
        # shorten followers that collide, keep the lead at full length
        for k, m in enumerate(models):
            if m == lead or m not in free:
                continue
            ok = False
            for frac in (1.0, 0.75, 0.5, 0.25, 0.0):
                cand = (starts[k][0] + float(vec[0]) * frac, starts[k][1] + float(vec[1]) * frac)
                if _problem_positions(
                    w, uid, (cand,), (m,), (starts[k],), allowance, dash, ignore=()
                ) is None and not _overlaps_list(cand, info.radius, new, k):
                    new[k] = cand
                    ok = True
                    break
            if not ok:
                new[k] = starts[k]
        if _problem_positions(w, uid, tuple(new), models, starts, allowance, dash) is None:
            return tuple(new)
    if not tried:
        raise err(
            f'{w.label(target)} is out of reach: {float(d.min()):.1f}" away, '
            f'{"Dash" if dash else "Move"} {allowance}"',
            "§4.1",
        )
    raise err(f"{info.label} finds no legal way into contact with {w.label(target)}", "§4.3")


def _overlaps_list(p: Point, r: float, others: Sequence[Point], skip: int) -> bool:
    return any(k != skip and math.dist(p, q) < 2 * r - OVERLAP_TOL for k, q in enumerate(others))


def verify_embark(w: Work, action: Embark) -> MovePlan:
    uid, tr = action.unit, action.transport
    info = w.info(uid)
    _check_dash_flag(w, action.dash)
    if not 0 <= tr < len(w.units) or w.info(tr).side != info.side or tr == uid:
        raise err(f"unit {tr} is not a friendly Transport", "§6.2")
    u = w.units[uid]
    if u.location is not Location.TABLE:
        raise err(f"{info.label} is not on the battlefield", "§6.2")
    if info.immobile:
        raise err(f"{info.label} is Immobile and cannot embark", "§4.1 Immobile Units")
    if w.engaged_with(uid):
        raise err(f"{info.label} is locked in a Melee", "§4.4")
    t = w.units[tr]
    if t.location is not Location.TABLE:
        raise err(f"{w.label(tr)} is not on the battlefield", "§6.2")
    _check_capacity(w, tr, info.points, [uid])
    allowance = unit_allowance(w, uid, action.dash)
    a = w.xy(uid)
    b = w.xy(tr)
    d = geom.edge_distances(a, info.radius, b, w.info(tr).radius)
    i, j = divmod(int(np.argmin(d)), d.shape[1])
    need = float(d[i, j])
    if need > allowance + 1e-6:
        raise err(
            f'{w.label(tr)} is {need:.1f}" away; {info.label} can '
            f'{"Dash" if action.dash else "Move"} {allowance}"',
            "§6.2",
        )
    free, _ = _mover_models(w, uid, action.dash)
    m = u.present()[i]
    if m not in free:
        raise err(f"model {m + 1} of {info.label} may not Dash", "§5.1 Type")
    start = u.pos[m]
    pc = w.field.path(start, (float(b[j][0]), float(b[j][1])), info.radius)
    if pc.blocked_by:
        raise err(f"the way to {w.label(tr)} is blocked by {pc.blocked_by}", "§4.7")
    return MovePlan(uid, (), (), None, action.dash, embark=tr)


def verify_disembark(w: Work, action: Disembark) -> MovePlan:
    uid = action.unit
    info = w.info(uid)
    _check_dash_flag(w, action.dash)
    u = w.units[uid]
    if u.location is not Location.EMBARKED or u.embarked_in is None:
        raise err(f"{info.label} is not embarked", "§6.3")
    if info.immobile:
        raise err(
            f"{info.label} is Immobile and leaves its Transport only when it is destroyed",
            "§6.3",
        )
    holder = u.embarked_in
    h = w.units[holder]
    allowance = unit_allowance(w, uid, action.dash)
    if allowance <= 0:
        raise err(f"{info.label} cannot {'Dash' if action.dash else 'Move'}", "§4.1")
    if h.location is Location.EMBARKED and h.embarked_in is not None:
        # §6.5: a passenger of a passenger disembarks into the outer Transport
        outer = h.embarked_in
        _check_capacity(w, outer, info.points, [uid])
        return MovePlan(uid, (), (), None, action.dash, embark=outer, disembark=True)
    if h.location is not Location.TABLE:
        raise err(f"{w.label(holder)} is not on the battlefield", "§6.3")
    hxy = w.xy(holder)
    hr = w.info(holder).radius
    if action.positions is not None:
        pos = tuple(action.positions)
        if len(pos) != len(u.present()):
            raise err(f"{info.label} has {len(u.present())} models; {len(pos)} positions", "§6.3")
        d = geom.edge_distances(geom.as_array(pos), info.radius, hxy, hr).min(axis=1)
        if (d > allowance + 1e-6).any():
            raise err(
                f'every model must be placed within {allowance}" of {w.label(holder)}', "§6.3"
            )
    elif Automation.MODEL_PLACEMENT not in w.setup.automation:
        raise err("give a position for every model (model placement is not automated)", "§6.3")
    else:
        centre = hxy.mean(axis=0)
        to = np.asarray(action.to if action.to is not None else centre, dtype=np.float64)
        v = to - centre
        dist = float(np.hypot(*v))
        reach = hr + info.radius + min(allowance, max(0.0, dist - hr - info.radius)) * 0.9
        aim = centre + (v / dist * reach if dist > 1e-9 else np.asarray([reach, 0.0]))
        placed = place_unit(
            w,
            uid,
            (float(aim[0]), float(aim[1])),
            within=allowance,
            from_xy=hxy,
            from_r=hr,
            models=u.present(),
        )
        if placed is None:
            raise err(
                f"there is not enough room to disembark {info.label} from {w.label(holder)}",
                "§6.3",
            )
        pos = placed
    models = tuple(u.present())
    prob = _problem_positions(w, uid, pos, models, None, None, action.dash)
    if prob:
        raise err(*prob)
    return MovePlan(uid, models, pos, None, action.dash, disembark=True)


# --------------------------------------------------------------------------------------------
# Attacks: targeting, range, line of sight, cover (§5.3-5.6, §5.9, §6.7-6.9)
# --------------------------------------------------------------------------------------------


class TargetView:
    """What one attacking unit sees of one target unit.

    ``visible`` (target models in line of sight of at least one attacker model) and ``cover``
    (the Cover Bonus) may be given as functions: they are worked out on first use, because
    choosing targets needs only ranges and sight, and only an Attack needs them."""

    __slots__ = (
        "_cover",
        "_visible",
        "attacker_engaged",
        "distance",
        "melee",
        "reason",
        "target_engaged_elsewhere",
        "users_in_range",
    )

    def __init__(
        self,
        melee: bool,  # engaged with each other (or through Fire Points of an engaged Transport)
        attacker_engaged: bool,
        target_engaged_elsewhere: bool,
        distance: float,  # closest edge-to-edge distance
        users_in_range: dict[str, list[int]],  # weapon → attacker models that can use it
        visible: frozenset[int] | Callable[[], frozenset[int]],
        cover: int | Callable[[], int],  # Cover Bonus (0: none)
        reason: str = "",
    ) -> None:
        self.melee = melee
        self.attacker_engaged = attacker_engaged
        self.target_engaged_elsewhere = target_engaged_elsewhere
        self.distance = distance
        self.users_in_range = users_in_range
        self._visible = visible
        self._cover = cover
        self.reason = reason

    @property
    def visible(self) -> frozenset[int]:
        if callable(self._visible):
            self._visible = self._visible()
        return self._visible

    @property
    def cover(self) -> int:
        if callable(self._cover):
            self._cover = self._cover()
        return self._cover

    def __repr__(self) -> str:
        return (
            f"TargetView(melee={self.melee}, distance={self.distance:.2f}, "
            f"users={self.users_in_range}, reason={self.reason!r})"
        )


def _shooters(w: Work, uid: int) -> tuple[FloatArray, float, list[int], bool]:
    """Where the unit attacks from: its models, or its outermost Transport (§6.7)."""
    u = w.units[uid]
    if u.location is Location.EMBARKED:
        holder = w.outermost(uid)
        hxy = w.xy(holder)
        return hxy, w.info(holder).radius, u.present(), True
    return w.xy(uid), w.info(uid).radius, u.present(), False


def view_target(
    w: Work, uid: int, target: int, cache: dict[Any, TargetView] | None = None
) -> TargetView:
    """What ``uid`` sees of ``target``. A view depends on the models on the table (their
    positions, removals, the units' locations: the table index) and on the Melees, so it is
    kept with the index, for every state that shares both (the Attack Phase)."""
    if w.dirty or w.engaged != w.engaged_at_start:
        return _view_target(w, uid, target)
    memo = w.table().memo
    key = ("view", uid, target, w.engaged_at_start)
    hit: TargetView | None = memo.get(key)
    if hit is None:
        hit = memo[key] = _view_target(w, uid, target)
    return hit


def _view_target(w: Work, uid: int, target: int) -> TargetView:
    info = w.info(uid)
    u = w.units[uid]
    tgt = w.units[target]
    tinfo = w.info(target)
    empty: dict[str, list[int]] = {}
    holder = w.outermost(uid)
    embarked = u.location is Location.EMBARKED
    # who is engaged with whom
    if tgt.location is Location.EMBARKED:
        # §6.9: passengers of a Transport with Fire Points in a Melee can be Targeted by the
        # units engaged with that Transport
        th = w.outermost(target)
        if not (w.info(tgt.embarked_in or 0).fire_points and fire_point_chain(w, target)):
            return TargetView(
                False, False, False, 0, empty, frozenset(), 0, "embarked units cannot be attacked"
            )
        if (min(holder, th), max(holder, th)) not in w.engaged:
            return TargetView(
                False,
                False,
                False,
                0,
                empty,
                frozenset(),
                0,
                f"{tinfo.label} is inside a Transport; only units engaged with it in a Melee "
                "can attack it (§6.9)",
            )
        melee = True
    else:
        th = target
        melee = (min(holder, th), max(holder, th)) in w.engaged
    attacker_engaged = (not embarked) and bool(w.engaged_with(uid))
    tgt_foes = w.engaged_with(th)
    target_elsewhere = any(not w.enemies(uid, f) and f != holder for f in tgt_foes) and not melee
    axy, ar, models, _ = _shooters(w, uid)
    txy = w.xy(th) if th != target else w.xy(target)
    tr = w.info(th).radius
    d = geom.edge_distances(axy, ar, txy, tr)
    distance = float(d.min()) if d.size else math.inf
    weapons_of = [info.model_weapons[i] for i in models]
    users: dict[str, list[int]] = {}
    if melee:
        for k, m in enumerate(models):
            for wname in weapons_of[k]:
                users.setdefault(wname, []).append(m)
        present = tgt.present()
        return TargetView(True, attacker_engaged, False, distance, users, frozenset(present), 0)
    if tgt.location is not Location.TABLE:
        return TargetView(
            False,
            attacker_engaged,
            target_elsewhere,
            distance,
            empty,
            frozenset(),
            0,
            "not on the battlefield",
        )
    # line of sight: attacker "eyes" are its models, or the Transport it fires from
    blockers = w.others_mask([uid, target, holder])
    t = w.table()
    bxy = t.xy[blockers]
    br = t.r[blockers]
    tmodels = tgt.present()
    field = w.field
    # Only pairs within a weapon's range can give a user, so sight is asked of those pairs
    # alone (a pair's answer does not depend on the other pairs asked).
    reach = np.asarray(
        [max((info.weapon_range.get(wn, 0) for wn in ws), default=-1) for ws in weapons_of],
        dtype=np.float64,
    )
    if embarked:
        # every passenger model fires from the Transport: sees what any Transport model sees,
        # at the distance of the closest Transport model
        near = d.min(axis=0)  # (target models,)
        cols = np.flatnonzero(near <= reach.max(initial=-1.0) + 1e-6)
        rows = np.arange(len(axy))
    else:
        inr = d <= reach[:, None] + 1e-6
        rows = np.flatnonzero(inr.any(axis=1))
        cols = np.flatnonzero(inr.any(axis=0))
    sub: npt.NDArray[np.bool_] | None = None
    if len(rows) and len(cols):
        sub = field.sight(axy[rows], ar, txy[cols], tr, bxy, br)
        if embarked:
            col_seen = sub.any(axis=0)
            for k, m in enumerate(models):
                for wname in weapons_of[k]:
                    rng = info.weapon_range.get(wname, 0)
                    if (col_seen & (near[cols] <= rng + 1e-6)).any():
                        users.setdefault(wname, []).append(m)
        else:
            row_of = {int(k): i for i, k in enumerate(rows)}
            dsub = d[np.ix_(rows, cols)]
            for k, m in enumerate(models):
                i = row_of.get(k)
                if i is None:
                    continue
                for wname in weapons_of[k]:
                    rng = info.weapon_range.get(wname, 0)
                    if (sub[i] & (dsub[i] <= rng + 1e-6)).any():
                        users.setdefault(wname, []).append(m)

    def visible() -> frozenset[int]:
        # a target model is visible when some attacker model sees it (any range): those seen
        # in the pairs asked above are; only the others are asked of every attacker model
        # (a target model's answer does not depend on the other target models asked)
        seen = np.zeros(len(txy), dtype=bool)
        if sub is not None:
            seen[cols] = sub.any(axis=0)
        rest = np.flatnonzero(~seen)
        if len(rest):
            seen[rest] = field.visible(axy, ar, txy[rest], tr, bxy, br)
        return frozenset(tmodels[j] for j in np.flatnonzero(seen))

    def cover() -> int:
        return field.cover(axy, ar, txy, tr, bxy, br) if visible_once() else 0

    def visible_once() -> frozenset[int]:
        if not done:
            done.append(visible())
        return done[0]

    done: list[frozenset[int]] = []
    return TargetView(
        False, attacker_engaged, target_elsewhere, distance, users, visible_once, cover
    )


def verify_attack(w: Work, action: Attack) -> AttackPlanG:
    uid = action.unit
    info = w.info(uid)
    u = w.units[uid]
    if u.location is Location.EMBARKED:
        why = fires_from_transport(w, uid)
        if why is not None:
            raise err(why, "§6.5" if "passenger of a passenger" in why else "§6.7 Fire Points")
    elif u.location is not Location.TABLE:
        raise err(f"{info.label} is not on the battlefield", "§5.3")
    if not action.targets:
        raise err("name at least one weapon and its target", "§5.3")
    plans: list[WeaponPlan] = []
    cache: dict[Any, TargetView] = {}
    profiles = {wp.name: wp for wp in info.unit.weapons}
    present = u.present()
    carried = {wn for i in present for wn in info.model_weapons[i]}
    stationary = not u.unit_moved and not u.unit_dashed
    holder = w.outermost(uid)
    if holder != uid:
        stationary = stationary and not w.units[holder].unit_moved
    shares = _check_shares(w, uid, action, profiles, carried)
    uperks = perks_of(info.unit.profile.perks)
    for wname, target, chosen in shares:
        if not 0 <= target < len(w.units) or not w.enemies(uid, target):
            raise err(f"unit {target} is not an enemy unit", "§5.3")
        tgt = w.units[target]
        if tgt.location not in (Location.TABLE, Location.EMBARKED):
            raise err(f"{w.label(target)} is not on the battlefield", "§5.3")
        view = view_target(w, uid, target, cache)
        if view.reason:
            raise err(view.reason, "§6.9")
        users = list(view.users_in_range.get(wname, []))
        wtype = info.weapon_types[wname]
        moved_models = [m for m in users if u.moved[m]]
        if wtype == WeaponType.HEAVY.value:
            # §5.1 Heavy: the user must remain stationary; §6.8: passengers also need a
            # stationary Transport
            if holder != uid and w.units[holder].unit_moved:
                users = []
            else:
                users = [m for m in users if not u.moved[m]]
        heavy_why = wtype == WeaponType.HEAVY.value and (bool(moved_models) or holder != uid)
        if chosen is not None:
            # §5.3 split fire: every model named must be able to make its Attacks
            for m in chosen:
                if m not in users:
                    why = (
                        "it has moved this Game Turn (Heavy, §5.1)"
                        if heavy_why and u.moved[m]
                        else "the target is not in its range and line of sight"
                    )
                    raise err(
                        f"model {m + 1} of {info.label} cannot use {wname} against "
                        f"{w.label(target)}: {why}",
                        "§5.1 Type" if "Heavy" in why else "§5.3-5.4",
                    )
            users = list(chosen)
        if not users:
            why = (
                "every model with it has moved this Game Turn (Heavy, §5.1)"
                if heavy_why
                else "no model with it has the target in range and line of sight"
            )
            raise err(
                f"{info.label} cannot use {wname} against {w.label(target)}: {why}",
                "§5.1 Type" if "Heavy" in why else "§5.3-5.4",
            )
        rng = info.weapon_range[wname]
        wperks = perks_of(profiles[wname].perks)
        tperks = perks_of(w.info(target).unit.profile.perks)
        ctx = AttackContext(
            melee=view.melee,
            attacker_engaged=view.attacker_engaged,
            target_engaged_elsewhere=view.target_engaged_elsewhere,
            cover=view.cover > 0,
            cover_bonus=max(1, view.cover),
            within_half_range=view.distance <= rng / 2,
            distance=view.distance,
            attacker_point_cost=current_value(w, uid),
            target_point_cost=current_value(w, target),
            stationary=stationary,
            emergency_save=True,
            playstyle=Playstyle.STANDARD,
            los_models=None if view.melee else view.visible,
            # Perk inputs (Perks 000_94ecc6a4c74d351b.txt; docs/rulings.md "WARSURGE game")
            target_airborne=tperks.has("Airborne") or tperks.has("Jumper"),  # L3771-3775
            target_is_leader=tperks.has("Leader") or tperks.has("War Master"),  # L1136
            outflank=uperks.has("Outflank") and _outflanks(w, uid, target, wname, view.melee),
            first_use_after_engaging=wperks.has("Clash")
            and u.has_status(clash_status(wname))
            and view.attacker_engaged,  # L3785-3792
        )
        plans.append(WeaponPlan(wname, target, len(users), ctx, tuple(users)))
    # Attack Step 6: weapons in profile order (the shares of a split weapon as given)
    order = {wp.name: k for k, wp in enumerate(info.unit.weapons)}
    plans.sort(key=lambda p: order[p.weapon])
    plans = _perk_use(w, uid, action, plans)
    return AttackPlanG(uid, tuple(plans))


def _check_shares(
    w: Work,
    uid: int,
    action: Attack,
    profiles: dict[str, WeaponProfile],
    carried: set[str],
) -> list[tuple[str, int, tuple[int, ...] | None]]:
    """The shares of an Attack, checked: a weapon at one target with every model that can
    use it, or split among targets with the models of each share named (§5.3, 001
    L2311-2319: "three Sniper Rifles attack Target A, and two Sniper Rifles attack Target
    B"); a model's Attacks with one weapon go at one unit."""
    info = w.info(uid)
    u = w.units[uid]
    present = set(u.present())
    count: dict[str, int] = {}
    pairs: set[tuple[str, int]] = set()
    for share in action.targets:
        count[share[0]] = count.get(share[0], 0) + 1
        if (share[0], share[1]) in pairs:
            t = share[1]
            raise err(
                f"{share[0]} is aimed at {w.label(t) if 0 <= t < len(w.units) else t} twice; "
                "a weapon Targets a unit once (name each share's models once)",
                "§5.3",
            )
        pairs.add((share[0], share[1]))
    out: list[tuple[str, int, tuple[int, ...] | None]] = []
    firing: dict[str, dict[int, int]] = {}
    for share in action.targets:
        wname, target = share[0], share[1]
        chosen = tuple(share[2]) if len(share) == 3 else None
        if wname not in profiles:
            raise err(f"{info.label} has no weapon {wname!r}; it has {sorted(profiles)}", "§5.1")
        if wname not in carried:
            raise err(f"no model of {info.label} on the table carries {wname}", "§5.3")
        if chosen is None and count[wname] > 1:
            raise err(
                f"{wname} is split among {count[wname]} targets: name the models firing at "
                "each (each model's Attacks with a weapon go at one unit)",
                "§5.3",
            )
        if chosen is not None:
            if not chosen:
                raise err(f"name at least one model firing {wname}", "§5.3")
            seen = firing.setdefault(wname, {})
            for m in chosen:
                if m not in present or wname not in info.model_weapons[m]:
                    raise err(
                        f"model {m + 1} of {info.label} does not carry {wname} on the table",
                        "§5.3",
                    )
                if m in seen and seen[m] != target:
                    raise err(
                        f"model {m + 1} of {info.label} aims its {wname} at two units; all of "
                        "a model's Attacks with a weapon go at one unit",
                        "§5.3",
                    )
                if m in seen:
                    raise err(f"model {m + 1} of {info.label} is named twice for {wname}", "§5.3")
                seen[m] = target
        out.append((wname, target, chosen))
    return out


@lru_cache(maxsize=1024)
def _perk_set(names: tuple[str, ...]) -> PerkSet:
    return PerkSet(names)


def perks_of(names: Sequence[str]) -> PerkSet:
    """The perks of a profile, queried by name and rank (made once per list of names)."""
    return _perk_set(tuple(names))


def clash_status(weapon: str) -> str:
    """The status a Clash weapon holds from engaging until its first use (P L3785-3792)."""
    return f"Clash: {weapon}"


def melee_use_status(weapon: str) -> str:
    """The status of a weapon already used in the unit's current Melee (Outflank, P L1348)."""
    return f"Melee use: {weapon}"


def _outflanks(w: Work, uid: int, target: int, weapon: str, melee: bool) -> bool:
    """Outflank (P L1348-1349): the weapon's first use in a Melee, against a Target already
    engaged by another unit."""
    if not melee or w.units[uid].has_status(melee_use_status(weapon)):
        return False
    holder = w.outermost(uid)
    th = w.outermost(target)
    return any(f not in (uid, holder) for f in w.engaged_with(th))


def _perk_use(w: Work, uid: int, action: Attack, plans: list[WeaponPlan]) -> list[WeaponPlan]:
    """Burst and Darkside (Perks §12.5, "Activate"): the action's choices, else the
    engine's (:data:`~.state.Automation.PERK_USE`), checked against the perks' limits."""
    info = w.info(uid)
    u = w.units[uid]
    profiles = {wp.name: wp for wp in info.unit.weapons}
    used = {p.weapon for p in plans}
    auto = Automation.PERK_USE in w.setup.automation
    burst: dict[str, bool] = {}
    for wname, on in action.burst:
        if wname not in used:
            raise err(f"Burst on {wname}, which is not used in this Attack", "Perks §12.5 Burst")
        if on and not perks_of(profiles[wname].perks).has("Burst"):
            raise err(f"{wname} has no Burst perk", "Perks §12.5 Burst")
        if on and u.used(f"Burst:{wname}"):
            raise err(
                f"{info.label} has used Burst on {wname} already (Limited Use 1, once per game)",
                "Perks §12.5 Burst",
            )
        burst[wname] = on
    dark: dict[str, tuple[int, int]] = {}
    for wname, power, attacks in action.darkside:
        if wname not in used:
            raise err(
                f"Darkside on {wname}, which is not used in this Attack", "Perks §12.5 Darkside"
            )
        if (power or attacks) and not perks_of(profiles[wname].perks).has("Darkside"):
            raise err(f"{wname} has no Darkside perk", "Perks §12.5 Darkside")
        if not (0 <= power <= 3 and 0 <= attacks <= 3):
            raise err(
                f"Darkside buys +0 to +3 Power and +0 to +3 Attacks, not +{power} Power and "
                f"+{attacks} Attacks",
                "Perks §12.5 Darkside",
            )
        dark[wname] = (power, attacks)
    hp = u.current_hp
    risked = sum((p + a) * sum(1 for pl in plans if pl.weapon == wn) for wn, (p, a) in dark.items())
    if risked > hp:
        raise err(
            f"Darkside risks {risked} HP but {info.label} has {hp} HP left",
            "Perks §12.5 Darkside",
        )
    for wname in sorted(used, key=lambda n: [p.weapon for p in plans].index(n)):
        wperks = perks_of(profiles[wname].perks)
        mine = [k for k, p in enumerate(plans) if p.weapon == wname]
        if wperks.has("Burst") and wname not in burst:
            burst[wname] = (
                auto and not u.used(f"Burst:{wname}") and _burst_pays(w, uid, plans, mine)
            )
        if wperks.has("Darkside") and wname not in dark and auto:
            dark[wname] = _best_darkside(w, uid, plans, mine, hp - risked)
            risked += sum(dark[wname]) * len(mine)
    out = []
    for p in plans:
        on = burst.get(p.weapon, False)
        power, attacks = dark.get(p.weapon, (0, 0))
        if on or power or attacks:
            p = replace(
                p,
                context=replace(
                    p.context, burst=on, darkside_power=power, darkside_attacks=attacks
                ),
            )
        out.append(p)
    return out


def _expected(w: Work, uid: int, plan: WeaponPlan, ctx: AttackContext) -> tuple[float, float]:
    """Expected HP lost by the target and by the attacker for one share (exact odds)."""
    from warbench.kernel.errors import EnumerationTooLarge
    from warbench.rulesets.warsurge.odds import exact_attack

    ap = AttackPlan(
        to_unit_state(w, uid),
        to_unit_state(w, plan.target),
        ctx,
        weapons=(plan.weapon,),
        users=((plan.weapon, plan.users),),
    )
    try:
        odds = exact_attack(ap)
    except EnumerationTooLarge:
        return math.nan, math.nan
    return odds.expected_hp_lost, odds.expected_attacker_hp_lost


def _burst_pays(w: Work, uid: int, plans: Sequence[WeaponPlan], mine: Sequence[int]) -> bool:
    """Automated Burst: use it when doubling the Attacks raises the expected HP lost (it does
    not when the target falls either way); a use too large to enumerate uses it."""
    gain = 0.0
    for k in mine:
        p = plans[k]
        base, _ = _expected(w, uid, p, p.context)
        more, _ = _expected(w, uid, p, replace(p.context, burst=True))
        if math.isnan(base) or math.isnan(more):
            return True
        gain += more - base
    return gain > 1e-9


def _best_darkside(
    w: Work, uid: int, plans: Sequence[WeaponPlan], mine: Sequence[int], budget: int
) -> tuple[int, int]:
    """Automated Darkside: the +Power/+Attacks with the best expected points (the target's
    expected HP lost at its value per HP, minus the User's own at its value per HP), never
    risking more HP than the unit has; nothing bought unless it pays."""
    own = w.info(uid)
    own_per_hp = own.value / own.max_hp if own.max_hp else 0.0
    best, best_score = (0, 0), 0.0
    base_score: float | None = None
    for power in range(4):
        for attacks in range(4):
            if (power + attacks) * len(mine) > budget:
                continue
            score = 0.0
            for k in mine:
                p = plans[k]
                tinfo = w.info(p.target)
                per_hp = tinfo.value / tinfo.max_hp if tinfo.max_hp else 0.0
                ctx = replace(p.context, darkside_power=power, darkside_attacks=attacks)
                lost, own_lost = _expected(w, uid, p, ctx)
                if math.isnan(lost):
                    return (0, 0)
                score += lost * per_hp - own_lost * own_per_hp
            if base_score is None:
                base_score = best_score = score
            elif score > best_score + 1e-9:
                best, best_score = (power, attacks), score
    return best


def current_value(w: Work, uid: int) -> float:
    """Current Point Cost (Perks 000 L98-100) with Fusion, Respawn and Summon (L333-335)."""
    info = w.info(uid)
    u = w.units[uid]
    return info.value * u.current_hp / info.max_hp if info.max_hp else 0.0


# --------------------------------------------------------------------------------------------
# Applying
# --------------------------------------------------------------------------------------------


def apply_plan(w: Work, action: Action, plan: Plan) -> None:
    if isinstance(action, ChooseTurnMaster):
        set_turn_master(w, action.side)
        return
    if isinstance(action, ChooseZone):
        side = acting_side(w.flow)
        assert side is not None
        take_zone(w, side, action.zone)
        return
    if isinstance(action, Pass):
        side = acting_side(w.flow)
        assert side is not None
        w.emit(
            "pass", f"{w.side_name(side)} is finished with the {w.flow.phase.value} Phase", "§2.2"
        )
        w.flow = replace(w.flow, passed=w.flow.passed | {side})
        advance(w)
        return
    if isinstance(plan, DeployPlan):
        apply_deploy(w, plan)
    elif isinstance(plan, AttackPlanG):
        apply_attack(w, plan)
    elif isinstance(plan, MovePlan):
        apply_move(w, plan)
    uid = action.unit
    w.set_unit(uid, acted=True)
    advance(w)


def apply_deploy(w: Work, plan: DeployPlan) -> None:
    uid = plan.uid
    w.set_unit(uid, location=Location.TABLE, pos=plan.positions)
    text = f"{w.label(uid)} deploys ({len(plan.positions)} models)"
    for p in plan.passengers:
        w.set_unit(p, location=Location.EMBARKED, embarked_in=uid, acted=True)
        text += f", carrying {w.label(p)}"
    w.emit("deploy", text, "§3.6", unit=uid, positions=[list(p) for p in plan.positions])
    if w.hooks.active(Hook.DEPLOY):
        w.hooks.fire(Hook.DEPLOY, w, unit=uid)


def apply_move(w: Work, plan: MovePlan) -> None:
    uid = plan.uid
    what = "Dash" if plan.dash else "Move"
    if w.hooks.active(Hook.BEFORE_MOVE):
        w.hooks.fire(Hook.BEFORE_MOVE, w, unit=uid, dash=plan.dash)
    u = w.units[uid]
    flag = {"unit_dashed": True} if plan.dash else {"unit_moved": True}
    if plan.embark is not None:
        moved = tuple(True if not r else m for m, r in zip(u.moved, u.removed, strict=True))
        w.set_unit(uid, location=Location.EMBARKED, embarked_in=plan.embark, moved=moved, **flag)
        verb = "moves into" if not plan.disembark else "moves on into"
        w.emit("embark", f"{w.label(uid)} {verb} {w.label(plan.embark)} ({what})", "§6.2", unit=uid)
        return
    if plan.disembark:
        holder = u.embarked_in
        pos = list(u.pos) if u.pos else [(0.0, 0.0)] * len(u.hp)
        for i, p in zip(plan.models, plan.positions, strict=True):
            pos[i] = p
        gone = tuple(True if not r else m for m, r in zip(u.moved, u.removed, strict=True))
        w.set_unit(
            uid, location=Location.TABLE, embarked_in=None, pos=tuple(pos), moved=gone, **flag
        )
        w.emit(
            "disembark",
            f"{w.label(uid)} disembarks from {w.label(holder or 0)} ({what})",
            "§6.3",
            unit=uid,
        )
        _engage_new_contacts(w, uid)
        return
    starts = plan.starts or ()
    moved_list = list(u.moved)
    longest = 0.0
    crossed: dict[str, list[int]] = {}
    r = w.info(uid).radius
    for i, s, p in zip(plan.models, starts, plan.positions, strict=True):
        if s != p:
            moved_list[i] = True
            longest = max(longest, math.dist(s, p))
            for name in w.field.path(s, p, r).dangerous:
                crossed.setdefault(name, []).append(i)
    w.set_unit(
        uid, pos=_full_positions(u, plan.models, plan.positions), moved=tuple(moved_list), **flag
    )
    w.emit(
        "move",
        f'{w.label(uid)} makes a {what} of up to {longest:.1f}"',
        "§4.1",
        unit=uid,
        distance=round(longest, 3),
    )
    for name, models in crossed.items():
        dangerous_ground(w, uid, models, name)
    _engage_new_contacts(w, uid)
    if w.hooks.active(Hook.AFTER_MOVE):
        w.hooks.fire(Hook.AFTER_MOVE, w, unit=uid, dash=plan.dash, distance=longest)


def _engage_new_contacts(w: Work, uid: int) -> None:
    """§4.3: moving into Base Contact with an enemy unit locks both in a Melee."""
    if w.units[uid].location is not Location.TABLE:
        return
    for foe in sorted(w.contacts(uid)):
        pair = (min(uid, foe), max(uid, foe))
        if pair not in w.engaged:
            w.engaged.add(pair)
            w.emit(
                "melee",
                f"{w.label(uid)} and {w.label(foe)} are locked in a Melee",
                "§4.3",
                units=[uid, foe],
            )
            _mark_engaged(w, uid)
            _mark_engaged(w, foe)


def dangerous_ground(w: Work, uid: int, models: list[int], terrain: str) -> None:
    """§4.6: each model that crossed rolls; casualties are removed at once."""
    info = w.info(uid)
    u = w.units[uid]
    hp = list(u.hp)
    lost_total = 0
    danger = w.field.danger_weapon(terrain)
    if danger is not None:
        attacker = UnitState.of(_danger_unit(terrain, danger))
        target = to_unit_state(w, uid)
        plan = AttackPlan(
            attacker,
            target,
            AttackContext(los_models=frozenset(models)),
            weapons=(danger.name,),
            users=((danger.name, len(models)),),
        )
        res = resolve_attack(plan, w.dice)
        for i, m in enumerate(target.models):
            hp[i] = max(0, m.hp)
        lost_total = res.hp_lost
    else:
        p = info.unit.profile
        for i in models:
            if hp[i] <= 0:
                continue
            if w.dice.d6(f"Dangerous Ground ({terrain})") != 1:
                continue
            if p.armour is not None and w.dice.d6("Armour Save") >= p.armour:
                continue
            if p.aegis is not None and w.dice.d6("AEGIS Save") >= p.aegis:
                continue
            hp[i] -= 1
            lost_total += 1
    w.set_unit(uid, hp=tuple(hp))
    w.emit(
        "danger",
        f"{info.label}: {len(models)} models crossed {terrain}; {lost_total} HP lost",
        "§4.6",
        unit=uid,
        hp_lost=lost_total,
    )
    if lost_total and w.hooks.active(Hook.HP_LOST):
        w.hooks.fire(Hook.HP_LOST, w, unit=uid, amount=lost_total, source=terrain)
    removed = [i for i in models if hp[i] <= 0 and not w.units[uid].removed[i]]
    if removed:
        remove_models(w, uid, removed, "Dangerous Ground (removed at once, §4.6)")
        restore_coherency(w, uid)


_DANGER_UNITS: dict[str, Any] = {}


def _danger_unit(terrain: str, danger: WeaponProfile) -> Any:
    from warbench.rulesets.warsurge.profiles import ModelGroup, Unit, UnitProfile

    key = danger.model_dump_json()
    hit = _DANGER_UNITS.get(key)
    if hit is None:
        hit = Unit(
            profile=UnitProfile(name=terrain, move=0, dash=0, defence=0, hp=1),
            weapons=[danger],
            models=[ModelGroup(count=1, weapons=[danger.name])],
        )
        _DANGER_UNITS[key] = hit
    return hit


def to_unit_state(w: Work, uid: int) -> UnitState:
    info = w.info(uid)
    u = w.units[uid]
    st = UnitState(
        profile=info.unit.profile,
        weapons={wp.name: wp for wp in info.unit.weapons},
        models=[
            ModelState(h, ws, r)
            for h, ws, r in zip(u.hp, info.model_weapons, u.removed, strict=True)
        ],
        emergency_save_used=u.used("Emergency Save") > 0,
        burst_used={k[len("Burst:") :] for k, _ in u.uses if k.startswith("Burst:")},
    )
    return st


def _store_unit_state(w: Work, uid: int, st: UnitState) -> None:
    u = w.units[uid]
    hp = tuple(max(0, m.hp) for m in st.models)
    w.set_unit(uid, hp=hp)
    if st.emergency_save_used and not u.used("Emergency Save"):
        w.units[uid] = w.units[uid].with_use("Emergency Save")
    for b in st.burst_used:
        if not u.used(f"Burst:{b}"):
            w.units[uid] = w.units[uid].with_use(f"Burst:{b}")


def apply_attack(w: Work, plan: AttackPlanG) -> None:
    uid = plan.uid
    info = w.info(uid)
    u = w.units[uid]
    heavy = list(u.heavy)
    battle = list(u.battle)
    for wp in plan.weapons:
        attacker = to_unit_state(w, uid)
        target = to_unit_state(w, wp.target)
        before = [m.hp for m in target.models]
        ap = AttackPlan(
            attacker,
            target,
            wp.context,
            weapons=(wp.weapon,),
            users=((wp.weapon, wp.users),),
        )
        res = resolve_attack(ap, w.dice)
        _store_unit_state(w, wp.target, target)
        if res.attacker_hp_lost:
            own = to_unit_state(w, uid)
            if wp.target == uid:
                own = target
            allocate_loss(
                AttackPlan(attacker, own, AttackContext(melee=True)), res.attacker_hp_lost
            )
            _store_unit_state(w, uid, own)
        wtype = info.weapon_types[wp.weapon]
        for i in wp.models:
            if wtype == WeaponType.HEAVY.value:
                heavy[i] = True
            elif wtype == WeaponType.BATTLE.value:
                battle[i] = True
        new_cas = [
            i for i, m in enumerate(target.models) if m.hp <= 0 < before[i] and not m.removed
        ]
        ctx = wp.context
        how = "in a Melee" if ctx.melee else f'at {ctx.distance:.1f}"'
        extra = f", Cover +{ctx.cover_bonus}" if ctx.cover else ""
        fired = _perks_fired(w, uid, wp)
        if fired:
            extra += ", " + ", ".join(fired)
        r0 = res.weapons[0] if res.weapons else None
        data: dict[str, Any] = {}
        if fired:
            data["perks"] = fired
        w.emit(
            "attack",
            f"{info.label} attacks {w.label(wp.target)} with {wp.weapon} ({wp.users} models, "
            f"{how}{extra}): {r0.attack_dice if r0 else 0} Attack Dice, "
            f"{r0.successes if r0 else 0} successes, {res.hp_lost} HP lost, "
            f"{len(new_cas)} casualties"
            + (f"; {res.attacker_hp_lost} HP lost by the attacker" if res.attacker_hp_lost else ""),
            "§5.2",
            unit=uid,
            target=wp.target,
            weapon=wp.weapon,
            hp_lost=res.hp_lost,
            casualties=len(new_cas),
            **data,
        )
        if res.hp_lost and w.hooks.active(Hook.HP_LOST):
            w.hooks.fire(Hook.HP_LOST, w, unit=wp.target, amount=res.hp_lost, source=wp.weapon)
        if w.hooks.active(Hook.CASUALTY):
            for i in new_cas:
                w.hooks.fire(Hook.CASUALTY, w, unit=wp.target, model=i, source=wp.weapon)
    w.set_unit(uid, heavy=tuple(heavy), battle=tuple(battle))
    _after_perk_uses(w, plan)


def _perks_fired(w: Work, uid: int, wp: WeaponPlan) -> list[str]:
    """The situational perks this share used (for the event and the summary)."""
    ctx = wp.context
    info = w.info(uid)
    wperks = perks_of(info.unit.weapon(wp.weapon).perks)
    uperks = perks_of(info.unit.profile.perks)
    out = []
    if wperks.rank("Anti-Air") and ctx.target_airborne:
        out.append("Anti-Air +1")
    if uperks.has("Assassin") and ctx.target_is_leader:
        out.append("Assassin")
    if uperks.has("Outflank") and ctx.melee and ctx.outflank:
        out.append("Outflank +2 Power")
    if wperks.has("Clash") and ctx.first_use_after_engaging:
        out.append("Clash +1 Attack")
    if wperks.has("Burst") and ctx.burst:
        out.append("Burst")
    if wperks.has("Darkside") and (ctx.darkside_power or ctx.darkside_attacks):
        out.append(f"Darkside +{ctx.darkside_power} Power +{ctx.darkside_attacks} Attacks")
    return out


def _after_perk_uses(w: Work, plan: AttackPlanG) -> None:
    """What the Attack leaves on the unit: Burst spent (once per game), a Clash weapon's
    first use after engaging made, a weapon used in the current Melee (Outflank)."""
    uid = plan.uid
    info = w.info(uid)
    outflank = perks_of(info.unit.profile.perks).has("Outflank")
    for name in dict.fromkeys(p.weapon for p in plan.weapons):
        shares = [p for p in plan.weapons if p.weapon == name]
        u = w.units[uid]
        if any(p.context.burst for p in shares) and not u.used(f"Burst:{name}"):
            w.units[uid] = u = u.with_use(f"Burst:{name}")
            w.dirty = True
        statuses = list(u.statuses)
        if u.has_status(clash_status(name)):
            statuses = [s for s in statuses if s.name != clash_status(name)]
        melee = any(p.context.melee for p in shares)
        if outflank and melee and not u.has_status(melee_use_status(name)):
            statuses.append(Status(melee_use_status(name), None, "Outflank"))
        if tuple(statuses) != u.statuses:
            w.set_unit(uid, statuses=tuple(statuses))


def _mark_engaged(w: Work, uid: int) -> None:
    """Clash (P L3785-3792): every Clash weapon of a unit that engages an enemy in a Melee
    gains +1 Attack the first time it is used after that."""
    info = w.info(uid)
    names = [wp.name for wp in info.unit.weapons if perks_of(wp.perks).has("Clash")]
    if not names:
        return
    u = w.units[uid]
    add = [
        Status(clash_status(n), None, "Clash") for n in names if not u.has_status(clash_status(n))
    ]
    if add:
        w.set_unit(uid, statuses=(*u.statuses, *add))


def _clear_melee_statuses(w: Work) -> None:
    """A unit no longer in any Melee forgets its Melee's weapon uses and unused Clash."""
    for u in list(w.units):
        if not u.statuses or any(u.uid in pair for pair in w.engaged):
            continue
        kept = tuple(s for s in u.statuses if not s.name.startswith(("Melee use: ", "Clash: ")))
        if kept != u.statuses:
            w.set_unit(u.uid, statuses=kept)


def remove_models(w: Work, uid: int, models: Sequence[int], why: str) -> None:
    u = w.units[uid]
    removed = list(u.removed)
    for i in models:
        removed[i] = True
    w.set_unit(uid, removed=tuple(removed))
    w.emit(
        "removed",
        f"{w.label(uid)}: {len(models)} models removed ({why})",
        "§5.11",
        unit=uid,
        models=list(models),
    )
    if all(removed):
        destroy_unit(w, uid)


def destroy_unit(w: Work, uid: int) -> None:
    u = w.units[uid]
    was_table = u.location is Location.TABLE
    last_pos = [u.pos[i] for i in range(len(u.pos))] if u.pos else []
    w.set_unit(uid, location=Location.DESTROYED, embarked_in=None)
    w.engaged = {p for p in w.engaged if uid not in p}
    w.emit("destroyed", f"{w.label(uid)} is destroyed", "§5.11", unit=uid)
    for p in w.passengers(uid):
        if was_table:
            place_survivors(w, p, last_pos, w.info(uid).radius)
        else:
            destroy_unit(w, p)


def place_survivors(w: Work, uid: int, site: Sequence[Point], site_r: float) -> None:
    """§6.6: passengers of a destroyed Transport are placed where it stood, then in circles
    around; models that cannot be placed are removed as casualties (no Saves)."""
    info = w.info(uid)
    u = w.units[uid]
    r = info.radius
    living = u.living()
    taken: list[Point] = []
    t = w.table()
    oxy, orad = t.xy, t.r
    spots: list[Point] = []
    for c in site:
        spots.append(c)
        ring = 1
        while len(spots) < 6 * len(living) + 6 and ring <= 6:
            rad = (
                max(0.0, site_r - r) * ring / 2
                if ring <= 2
                else site_r + (2 * r + 0.2) * (ring - 2)
            )
            count = max(6, int(2 * math.pi * max(rad, r) / (2 * r + 0.1)))
            spots.extend(geom.ring_points(c, rad, count))
            ring += 1
    placed: dict[int, Point] = {}
    for i in living:
        for s in spots:
            if not w.field.spot_ok(s, r):
                continue
            if (
                len(oxy)
                and (
                    np.sqrt(((oxy - np.asarray(s)) ** 2).sum(axis=1)) - orad - r < -OVERLAP_TOL
                ).any()
            ):
                continue
            if any(math.dist(s, q) < 2 * r - OVERLAP_TOL for q in taken):
                continue
            placed[i] = s
            taken.append(s)
            break
    pos = list(u.pos) if u.pos else [(0.0, 0.0)] * len(u.hp)
    removed = list(u.removed)
    hp = list(u.hp)
    lost = []
    for i in range(len(hp)):
        if i in placed:
            pos[i] = placed[i]
        elif not removed[i]:
            removed[i] = True
            hp[i] = 0
            lost.append(i)
    w.set_unit(
        uid,
        location=Location.TABLE,
        embarked_in=None,
        pos=tuple(pos),
        removed=tuple(removed),
        hp=tuple(hp),
    )
    w.emit(
        "survivors",
        f"{info.label} leaves the wreck: {len(placed)} models placed, {len(lost)} lost",
        "§6.6",
        unit=uid,
    )
    if all(removed):
        destroy_unit(w, uid)
        return
    restore_coherency(w, uid)
    _engage_new_contacts(w, uid)


def restore_coherency(w: Work, uid: int) -> None:
    """§4.2 IV: the least number of models move the minimum distance to rejoin the largest
    group (not a Move or Dash)."""
    u = w.units[uid]
    if u.location is not Location.TABLE:
        return
    present = u.present()
    if len(present) <= 1:
        return
    info = w.info(uid)
    r = info.radius
    xy = w.xy(uid)
    if geom.coherent(xy, r):
        return
    comps = geom.groups(xy, r)
    main = [present[k] for k in comps[0]]
    strays = [present[k] for c in comps[1:] for k in c]
    pos = list(u.pos)
    t = w.table()
    mask = t.uid != uid
    oxy, orad = t.xy[mask], t.r[mask]
    moved = 0
    while strays:
        # the stray closest to the main group goes first
        mxy = geom.as_array([pos[i] for i in main])
        sxy = geom.as_array([pos[i] for i in strays])
        d = geom.edge_distances(sxy, r, mxy, r)
        k, j = divmod(int(np.argmin(d)), d.shape[1])
        i = strays.pop(k)
        anchor = mxy[j]
        spot = _near_spot(w, anchor, r, pos, main, oxy, orad, prefer=np.asarray(pos[i]))
        if spot is None:
            spot = (float(anchor[0]), float(anchor[1]))  # cannot happen on a sane board
        pos[i] = spot
        main.append(i)
        moved += 1
        # models of the stray's group that are now coherent join without moving
        still = []
        for s in strays:
            sx = np.asarray([pos[s]])
            if (
                geom.edge_distances(sx, r, geom.as_array([pos[m] for m in main]), r)
                <= geom.COHERENCY
            ).any():
                main.append(s)
            else:
                still.append(s)
        strays = still
    w.set_unit(uid, pos=tuple(pos))
    w.emit(
        "coherency", f"{info.label}: {moved} models moved to restore Coherency", "§4.2 IV", unit=uid
    )


def _near_spot(
    w: Work,
    anchor: FloatArray,
    r: float,
    pos: Sequence[Point],
    main: Sequence[int],
    oxy: FloatArray,
    orad: FloatArray,
    prefer: FloatArray,
) -> Point | None:
    """The free spot within coherency of ``anchor`` closest to ``prefer``: first straight
    toward the anchor, just within 2" (the minimum distance, §4.2 IV), then around it."""
    d = prefer - anchor
    norm = float(np.hypot(*d))
    if norm > 1e-9:
        direct = anchor + d / norm * min(norm, 2 * r + geom.COHERENCY - 0.01)
        s0 = (float(direct[0]), float(direct[1]))
        if (
            w.field.spot_ok(s0, r)
            and not (
                len(oxy)
                and (np.sqrt(((oxy - direct) ** 2).sum(axis=1)) - orad - r < -OVERLAP_TOL).any()
            )
            and not any(math.dist(s0, pos[m]) < 2 * r - OVERLAP_TOL for m in main)
        ):
            return s0
    best: tuple[float, Point] | None = None
    for rad in (2 * r + 1.0, 2 * r + 0.2, 2 * r + 1.8):
        for s in geom.ring_points((float(anchor[0]), float(anchor[1])), rad, 16):
            if not w.field.spot_ok(s, r):
                continue
            if (
                len(oxy)
                and (
                    np.sqrt(((oxy - np.asarray(s)) ** 2).sum(axis=1)) - orad - r < -OVERLAP_TOL
                ).any()
            ):
                continue
            if any(math.dist(s, pos[m]) < 2 * r - OVERLAP_TOL for m in main):
                continue
            cost = math.dist(s, (float(prefer[0]), float(prefer[1])))
            if best is None or cost < best[0]:
                best = (cost, s)
        if best is not None:
            return best[1]
    return None


def end_attack_phase(w: Work) -> None:
    """§5.11, §5.14, §4.2 IV, §4.4 III, §6.6: remove casualties, place the passengers of
    destroyed Transports, restore coherency and base contact, end finished Melees."""
    counts: dict[int, int] = {}
    for u in list(w.units):
        if u.location not in (Location.TABLE, Location.EMBARKED):
            continue
        cas = [i for i in u.present() if u.hp[i] <= 0]
        if cas:
            counts[u.uid] = len(cas)
    # passengers first (§6.6 "after applying damage to passengers"), then the rest
    for uid in sorted(counts, key=lambda x: (w.units[x].location is not Location.EMBARKED, x)):
        u = w.units[uid]
        if u.location in (Location.TABLE, Location.EMBARKED):
            cas = [i for i in u.present() if u.hp[i] <= 0]
            if cas:
                remove_models(w, uid, cas, "casualties of the Attack Phase")
    for uid in sorted(counts):
        restore_coherency(w, uid)
    # base contact (§4.4 III, §5.11): most casualties first, Immobile units last
    pairs = sorted(
        w.engaged,
        key=lambda p: -max(counts.get(p[0], 0), counts.get(p[1], 0)),
    )
    for a, b in pairs:
        if (a, b) not in w.engaged:
            continue
        if b in w.contacts(a):
            continue
        first, second = (a, b) if counts.get(a, 0) >= counts.get(b, 0) else (b, a)
        if w.info(first).immobile:
            first, second = second, first
        if not (restore_contact(w, first, second) or restore_contact(w, second, first)):
            w.engaged.discard((a, b))
            w.emit(
                "melee_end",
                f"{w.label(a)} and {w.label(b)} can no longer reach each other; their Melee ends",
                "§5.14",
            )
    for uid in range(len(w.units)):
        if w.units[uid].location is Location.TABLE:
            _engage_new_contacts(w, uid)
    _clear_melee_statuses(w)


def restore_contact(w: Work, mover: int, foe: int) -> bool:
    """Move the fewest models of ``mover`` into Base Contact with the closest model of ``foe``,
    keeping coherency (§4.4 III, §5.11)."""
    info = w.info(mover)
    if info.immobile and not w.info(foe).immobile:
        return False
    u = w.units[mover]
    present = u.present()
    r = info.radius
    a = w.xy(mover)
    b = w.xy(foe)
    rb = w.info(foe).radius
    d = geom.edge_distances(a, r, b, rb)
    t = w.table()
    mask = t.uid != mover
    oxy, orad = t.xy[mask], t.r[mask]
    for flat in np.argsort(d, axis=None)[:4]:
        k, j = divmod(int(flat), d.shape[1])
        m = present[k]
        target = b[j]
        direction = a[k] - target
        norm = float(np.hypot(*direction)) or 1.0
        for angle in (0.0, 0.5, -0.5, 1.0, -1.0, 1.6, -1.6):
            c, s = math.cos(angle), math.sin(angle)
            dv = (
                np.asarray(
                    [direction[0] * c - direction[1] * s, direction[0] * s + direction[1] * c]
                )
                / norm
            )
            spot = target + dv * (r + rb + CONTACT / 2)
            p = (float(spot[0]), float(spot[1]))
            if not w.field.spot_ok(p, r):
                continue
            if (
                len(oxy)
                and (np.sqrt(((oxy - spot) ** 2).sum(axis=1)) - orad - r < -OVERLAP_TOL).any()
            ):
                continue
            pos = list(u.pos)
            pos[m] = p
            others = [pos[i] for i in present if i != m]
            if any(math.dist(p, q) < 2 * r - OVERLAP_TOL for q in others):
                continue
            new = geom.as_array([pos[i] for i in present])
            if not geom.coherent(new, r):
                continue
            w.set_unit(mover, pos=tuple(pos))
            w.emit(
                "contact",
                f"{info.label}: 1 model moved back into Base Contact with {w.label(foe)}",
                "§4.4 III",
                unit=mover,
            )
            return True
    # the whole unit shifts toward the foe, keeping its formation
    k, j = divmod(int(np.argmin(d)), d.shape[1])
    gap = float(d[k, j]) - CONTACT / 2
    direction = b[j] - a[k]
    norm = float(np.hypot(*direction)) or 1.0
    vec = direction / norm * gap
    new_pts = a + vec
    newt = tuple((float(x), float(y)) for x, y in new_pts)
    if _problem_positions(w, mover, newt, present, None, None, False) is None:
        w.set_unit(mover, pos=_full_positions(u, present, newt))
        w.emit(
            "contact",
            f"{info.label} shifts back into Base Contact with {w.label(foe)}",
            "§4.4 III",
            unit=mover,
        )
        return True
    return False


# --------------------------------------------------------------------------------------------
# Flow: phases, turns, the end (§2.2, §3.3, §3.6)
# --------------------------------------------------------------------------------------------

PHASES = (Phase.DEPLOY, Phase.MOVE, Phase.ATTACK, Phase.DASH)


def ranked_rolloff(w: Work, sides: Sequence[int], label: str) -> list[int]:
    """Each side rolls a D6, highest first; tied sides roll again among themselves (§1.4)."""
    rolls = {s: w.dice.d6(f"{label}: {w.side_name(s)}") for s in sides}
    w.emit(
        "rolloff",
        f"{label}: " + ", ".join(f"{w.side_name(s)} {v}" for s, v in rolls.items()),
        "§2.2 step 1",
        rolls={w.side_name(s): v for s, v in rolls.items()},
    )
    out: list[int] = []
    for value in sorted(set(rolls.values()), reverse=True):
        tied = [s for s in sides if rolls[s] == value]
        out.extend(tied if len(tied) == 1 else ranked_rolloff(w, tied, f"{label} (reroll)"))
    return out


def start_turn(w: Work) -> None:
    """§2.2 step 1: a new Game Turn; reset per-turn flags, roll off for the Turn Master."""
    turn = w.flow.turn
    w.flow = replace(w.flow, phase=Phase.TURN_MASTER, active=None)
    for u in list(w.units):
        n = len(u.hp)
        w.set_unit(
            u.uid,
            moved=(False,) * n,
            heavy=(False,) * n,
            battle=(False,) * n,
            unit_moved=False,
            unit_dashed=False,
            acted=False,
        )
    w.emit("turn", f"Game Turn {turn}", "§2.2")
    if w.hooks.active(Hook.TURN_START):
        w.hooks.fire(Hook.TURN_START, w, turn=turn)
    sides = list(range(len(w.setup.sides)))
    ranking = ranked_rolloff(w, sides, "Turn Master Roll-Off")
    w.flow = replace(
        w.flow, phase=Phase.TURN_MASTER, rolloff_winner=ranking[0], roll_order=tuple(ranking)
    )
    if Automation.TURN_MASTER in w.setup.automation:
        set_turn_master(w, ranking[0])


def set_turn_master(w: Work, side: int) -> None:
    w.emit(
        "turn_master",
        f"{w.side_name(w.flow.rolloff_winner or 0)} wins the Roll-Off; "
        f"{w.side_name(side)} is Turn Master",
        "§2.1 Turn Master",
        side=side,
    )
    # §3.6 step 2: zones are chosen by the Turn Master, then by the roll-off order
    rest = [s for s in w.flow.roll_order if s != side]
    w.flow = replace(w.flow, turn_master=side, roll_order=(side, *rest))
    if w.flow.turn == 1 and any(z is None for z in w.zones):
        w.flow = replace(w.flow, phase=Phase.ZONES, active=side)
        _auto_zones(w)
    else:
        _start_phase(w, Phase.DEPLOY)


def _auto_zones(w: Work) -> None:
    while w.flow.phase is Phase.ZONES and Automation.ZONE_CHOICE in w.setup.automation:
        side = w.flow.active
        assert side is not None
        free = [z for z in range(len(w.field.zones)) if z not in w.zones]
        take_zone(w, side, free[0])


def take_zone(w: Work, side: int, zone: int) -> None:
    w.zones[side] = zone
    w.emit(
        "zone",
        f"{w.side_name(side)} takes Deployment Zone {w.field.zones[zone].name}",
        "§3.6 step 2",
        side=side,
        zone=zone,
    )
    waiting = [s for s in w.flow.roll_order if w.zones[s] is None]
    if waiting:
        w.flow = replace(w.flow, active=waiting[0])
    else:
        _start_phase(w, Phase.DEPLOY)


def clockwise_order(w: Work, first: int) -> tuple[int, ...]:
    """Sides clockwise from ``first`` by Deployment Zone order (§2.1, §3.3)."""
    nz = len(w.field.zones)
    start = w.zones[first] or 0
    sides = list(range(len(w.setup.sides)))
    return tuple(sorted(sides, key=lambda s: ((w.zones[s] or 0) - start) % nz))


def _start_phase(w: Work, phase: Phase) -> None:
    for u in list(w.units):
        if u.acted:
            w.set_unit(u.uid, acted=False)
    tm = w.flow.turn_master
    assert tm is not None
    order = clockwise_order(w, tm)
    w.flow = replace(w.flow, phase=phase, order=order, active=None, passed=frozenset())
    if w.hooks.active(Hook.PHASE_START):
        w.hooks.fire(Hook.PHASE_START, w, phase=phase.value)
    first = [s for s in order if side_can_act(w, s, phase)]
    if not first:
        _end_phase(w)
        return
    w.flow = replace(w.flow, active=first[0])


def advance(w: Work) -> None:
    """Alternate clockwise to the next side that can still act; end the phase when none can."""
    flow = w.flow
    order = flow.order
    cur = flow.active
    n = len(order)
    start = order.index(cur) if cur in order else -1
    for k in range(1, n + 1):
        s = order[(start + k) % n]
        if s in flow.passed:
            continue
        if side_can_act(w, s, flow.phase):
            w.flow = replace(flow, active=s)
            return
    _end_phase(w)


def _end_phase(w: Work) -> None:
    phase = w.flow.phase
    if phase is Phase.ATTACK:
        end_attack_phase(w)
    if w.hooks.active(Hook.PHASE_END):
        w.hooks.fire(Hook.PHASE_END, w, phase=phase.value)
    if phase is Phase.DASH:
        end_turn(w)
        return
    nxt = PHASES[PHASES.index(phase) + 1]
    _start_phase(w, nxt)


def end_turn(w: Work) -> None:
    """§2.2 steps 6-7: stationary units on Dangerous Ground, statuses, then the game end."""
    turn = w.flow.turn
    if w.field.dangerous_names:
        # the stationary units' models as they stand now, asked of the terrain at once
        still = [
            (u, u.living())
            for u in list(w.units)
            if u.location is Location.TABLE and not u.unit_moved and not u.unit_dashed
        ]
        pts = [u.pos[i] for u, living in still for i in living]
        radii = [w.info(u.uid).radius for u, living in still for _ in living]
        at = iter(w.field.dangerous_at_many(pts, radii))
        for u, living in still:
            inside: dict[str, list[int]] = {}
            for i in living:
                for name in next(at):
                    inside.setdefault(name, []).append(i)
            for name, models in inside.items():
                if w.units[u.uid].location is Location.TABLE:
                    dangerous_ground(w, u.uid, models, name)
    if w.hooks.active(Hook.TURN_END):
        w.hooks.fire(Hook.TURN_END, w, turn=turn)
    alive = [
        s
        for s in range(len(w.setup.sides))
        if any(w.units[uid].location is not Location.DESTROYED for uid in w.side_units(s))
    ]
    ended = ""
    if len(alive) <= 1:
        ended = "only one side has units left"
    elif w.setup.game_length is not None:
        if turn >= w.setup.game_length:
            ended = f"the agreed Game Length of {w.setup.game_length} Game Turns is reached"
    elif turn >= w.setup.max_turns:
        ended = f"the safety cap of {w.setup.max_turns} Game Turns is reached"
    elif turn >= 4:
        roll = w.dice.d6("Game Length")
        if roll <= 3:
            ended = f"the Game Length roll is {roll} (3 or lower ends the game)"
        else:
            w.emit("length", f"Game Length roll {roll}: the game continues", "§2.2 step 7")
    if ended:
        finish(w, ended)
        return
    w.flow = replace(w.flow, turn=turn + 1)
    start_turn(w)


def finish(w: Work, why: str) -> None:
    """§2.2 step 8: most Current Point Value on the battlefield wins; equal values draw."""
    st = w.state()
    values = tuple(round(v, 6) for v in st.side_values())
    best = max(values)
    leaders = [s for s, v in enumerate(values) if abs(v - best) < 1e-6]
    winner = leaders[0] if len(leaders) == 1 else None
    w.result = GameResult(values, winner, w.flow.turn)
    w.flow = replace(w.flow, phase=Phase.OVER, active=None)
    summary = ", ".join(f"{w.side_name(s)} {v:.1f}" for s, v in enumerate(values))
    outcome = f"{w.side_name(winner)} wins" if winner is not None else "a draw"
    w.emit("end", f"The game ends ({why}): {summary} points remaining; {outcome}", "§2.2 step 8")
