"""The working copy of a state while one action is applied, and the combat core's view of a unit.

All work on one action happens on a :class:`Work`: mutable copies of the state's parts, the dice of
this step and the events; the engine turns it back into a frozen state. The combat core
(:mod:`warbench.rulesets.warsurge.attack`) sees a unit as a :class:`UnitState`
(:func:`to_unit_state`); a unit's current value is its points by HP left (Core Rules
001_d3f5e425c5e1196d.txt §3.4, scoring). Every refusal is a
:class:`~warbench.kernel.errors.RulesError` (:func:`err`) with a sentence and the section.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Protocol

import numpy as np

from warbench.kernel.dice import Dice
from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.attack import (
    ModelState,
    PerkSet,
    UnitState,
)
from warbench.rulesets.warsurge.game import (
    bases,
    coherency_jit,
    geom,
    perk_arms,
    perk_effects,
    perk_immortal,
)
from warbench.rulesets.warsurge.game.events import Event
from warbench.rulesets.warsurge.game.gateway_markers import holders as gateway_holders
from warbench.rulesets.warsurge.game.geom import CONTACT, FloatArray, Point
from warbench.rulesets.warsurge.game.memo import per_setup
from warbench.rulesets.warsurge.game.pauses import CoherencyPause
from warbench.rulesets.warsurge.game.perk_illusion_slots import off_the_table, pad_positions
from warbench.rulesets.warsurge.game.state import (
    CasualtyPause,
    Flow,
    GameResult,
    GameSetup,
    GameState,
    Location,
    UnitGS,
    UnitInfo,
    unit_value,
)


class Hooks(Protocol):
    """What the rules need of the perk hooks (:class:`~.hooks.HookRegistry` is one): the
    registry depends on :class:`Work`, never the other way round."""

    def active(self, hook: Any) -> bool: ...

    def fire(self, hook: Any, work: Work, **kwargs: Any) -> None: ...


@per_setup
def _unit_sides(setup: GameSetup) -> tuple[int, ...]:
    """Each unit's own side, by uid (``setup.units[uid].side``), once per set-up."""
    return tuple(info.side for info in setup.units)


_FLOW_FIELDS = frozenset(Flow.__dataclass_fields__)


def flow_with(flow: Flow, **changes: Any) -> Flow:
    """``dataclasses.replace(flow, **changes)`` without ``__init__`` (a Flow has no
    ``__post_init__`` and keeps nothing worked out): the same fields, a few changed. The
    phases' bookkeeping makes a new Flow several times an ``apply`` (issue 10, session 33)."""
    if not changes.keys() <= _FLOW_FIELDS:
        raise TypeError(f"Flow has no field {sorted(changes.keys() - _FLOW_FIELDS)[0]!r}")
    out: Flow = object.__new__(Flow)
    d = out.__dict__
    d.update(flow.__dict__)
    d.update(changes)
    return out


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
    #: the index this one grew from by adding bases only (units arriving on the table:
    #: deployment, disembarking), every base of ``parent`` unchanged; None otherwise. An
    #: answer that more bases can only make "no" (a placement candidate refused) holds here
    #: too, so a search may resume where the parent's stopped (``coherency.place_unit``).
    parent: TableIndex | None = None
    #: how many parents up the chain goes (kept short)
    depth: int = 0


class Work:
    """Mutable working copy of a state while one action is applied."""

    def __init__(self, state: GameState, dice: Dice | None, hooks: Hooks) -> None:
        self._state = state
        self.setup = state.setup
        #: Weapons as state (Simulacrum, Loot) in this game: asked once, not at every ``info``
        self._arms = perk_arms.in_play(state.setup)
        self.field = state.setup.field
        #: destructible terrain's HP left where it lost any (§10.3, ``game/terrain.py``)
        self.terrain_hp: dict[str, int] = dict(state.terrain_hp)
        self.pieces_acted: tuple[str, ...] = state.pieces_acted  # terrain_army (§10.2)
        if state.terrain_hp or _gateways(state.setup):
            from warbench.rulesets.warsurge.game.terrain_field import field_of

            self.field = field_of(state)
        self.units: list[UnitGS] = list(state.units)
        self.engaged: set[tuple[int, int]] = set(state.engaged)
        self.flow: Flow = state.flow
        self.engaged_at_start = state.engaged
        self.zones: list[int | None] = list(state.zones)
        self.seed = state.seed
        self.step = state.step
        self.result: GameResult | None = state.result
        self.pause: CasualtyPause | None = state.pause
        self.restore: CoherencyPause | None = state.restore
        self.rewind: Any = state.rewind  # a Time Jump's rewind point (perk_timejump)
        self._dice = dice
        self.hooks = hooks
        self.events: list[Event] = []
        #: the facings a Move being checked would give oval or rectangular bases (game/bases.py)
        self.turning: dict[int, tuple[float, ...]] = {}
        self._index: TableIndex | None = state.cache.get("index")  # type: ignore[assignment]
        # the index a rebuilt one grows from while only bases are added (a state whose own
        # index was never built passes on the one it grew from)
        self._grown_from: TableIndex | None = self._index or state.cache.get("index_parent")  # type: ignore[assignment]
        # an index whose rows of some units (on the table before and after) are out of date:
        # table() splices their rows in place of a rebuild (``_spliced``)
        self._stale: tuple[TableIndex, frozenset[int]] | None = (
            None if self._index is not None else state.cache.get("index_stale")  # type: ignore[assignment]
        )
        # True while every change to the table only added bases to the state's own index
        self._additive = True
        self.dirty = False

    @property
    def dice(self) -> Dice:
        """The dice of this step (``None`` given: the state's own, made on first use; checks
        roll no dice, so they never pay for a generator)."""
        if self._dice is None:
            self._dice = self._state.dice()
        return self._dice

    @property
    def before(self) -> GameState:
        """The state this action started from."""
        return self._state

    def use_dice(self, dice: Dice) -> None:
        """Roll from ``dice`` from now on (a waiting Attack resumes on its own dice)."""
        self._dice = dice

    # -- output ----------------------------------------------------------------------------
    def state(self) -> GameState:
        """The frozen state this work has made: the very fields ``GameState(...)`` sets, in
        its order, with an empty ``cache`` (without the frozen dataclass's ``__init__``, one
        ``object.__setattr__`` a field; issue 10, session 33)."""
        out: GameState = object.__new__(GameState)
        out.__dict__.update(
            setup=self.setup,
            seed=self.seed,
            flow=self.flow,
            units=tuple(self.units),
            engaged=frozenset(self.engaged),
            zones=tuple(self.zones),
            step=self.step,
            result=self.result,
            pause=self.pause,
            restore=self.restore,
            terrain_hp=self._terrain_hp(),
            pieces_acted=self.pieces_acted,
            rewind=self.rewind,
            cache={},
        )
        if self._index is not None:
            out.cache["index"] = self._index
        elif self._stale is not None:
            out.cache["index_stale"] = self._stale
        elif self._additive and self._grown_from is not None:
            out.cache["index_parent"] = self._grown_from
        return out

    def _terrain_hp(self) -> tuple[tuple[str, int], ...]:
        if not self.terrain_hp:
            return ()
        order = {t.name: k for k, t in enumerate(self.setup.field.board.terrain)}
        return tuple(sorted(self.terrain_hp.items(), key=lambda kv: order[kv[0]]))

    def terrain_changed(self, field: Any) -> None:
        """The battlefield changed under the models (a terrain piece destroyed, §10.3): measure
        on ``field`` from now on, and forget every answer kept with the table index (sight,
        cover and paths were asked of the old terrain)."""
        self.field = field
        self._index = None
        self._stale = None
        self._grown_from = None
        self._additive = False
        self.dirty = True

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
        if self._arms:  # Weapons as state (Simulacrum, Loot): perk_arms
            armed: UnitInfo = perk_arms.armed(self.setup, uid, self.units[uid].statuses)
            return armed
        return self.setup.units[uid]

    def set_unit(self, uid: int, **changes: Any) -> None:
        self.dirty = True
        was = self.units[uid]
        if "pos" in changes and len(changes["pos"]) < len(was.hp):  # Illusion slots (L779)
            changes["pos"] = pad_positions(changes["pos"], len(was.hp))
        if was.inside and (loc := changes.get("location", Location.TABLE)) is not Location.TABLE:
            gone = {} if loc is Location.TERRAIN else {"terrain": None}  # no longer split (L4459)
            changes = {"inside": (), **gone, **changes}
        if "location" in changes and changes["location"] is not Location.TABLE:
            changes = off_the_table(self.info(uid).illusions, was.hp, was.removed, changes)
        self.units[uid] = now = was.evolve(**changes)
        if "pos" in changes or "removed" in changes or "location" in changes or "inside" in changes:
            old = self._index
            self._index = None
            if self._before_location(uid) is Location.TABLE:
                self._additive = False  # a base of the state's index moves or goes
            stale = self._stale
            if old is not None:
                stale = (old, frozenset())
            if (
                stale is not None
                and not self._additive
                and was.location is Location.TABLE
                and now.location is Location.TABLE
            ):
                # a unit moved or lost models on the table: its rows of the index are
                # replaced when the index is next asked for, in place of a rebuild (the very
                # arrays a rebuild makes; an index still growing by arrivals is rebuilt, so it
                # keeps its parent)
                self._stale = (stale[0], stale[1] | {uid})
            else:
                self._stale = None

    def _before_location(self, uid: int) -> Location:
        return self._state.units[uid].location

    def table(self) -> TableIndex:
        if self._index is None and self._stale is not None:
            index, changed = self._stale
            for uid in sorted(changed):
                index = _spliced(index, self.units[uid], self.setup.units[uid])
            self._index, self._stale = index, None
            if not self.dirty:
                self._state.cache["index"] = index
                _keep_by_units(self._state, index)
        if self._index is None and not self.dirty:
            self._index = _by_units(self._state)  # a copy of a state already indexed
            if self._index is not None:
                self._state.cache["index"] = self._index
        if self._index is None:
            # per unit, not per model: each unit state keeps its positions as an array
            parts: list[FloatArray] = []
            models: list[int] = []
            rads: list[float] = []
            uids: list[int] = []
            sides: list[int] = []
            counts: list[int] = []
            for u in self.units:
                if u.location is not Location.TABLE:
                    continue
                present = u.present()
                if not present:
                    continue
                info = self.setup.units[u.uid]
                parts.append(u.present_xy())
                models.extend(present)
                rads.append(info.radius)
                uids.append(u.uid)
                sides.append(u.table_side(info.side))  # a defector: its own (DEFECTED)
                counts.append(len(present))
            self._index = TableIndex(
                np.concatenate(parts) if parts else geom.as_array([]),
                np.repeat(np.asarray(rads, dtype=np.float64), counts),
                np.repeat(np.asarray(uids, dtype=np.int64), counts),
                np.asarray(models, dtype=np.int64),
                np.repeat(np.asarray(sides, dtype=np.int64), counts),
            )
            base = self._grown_from
            if self._additive and base is not None and base.depth < 256:
                self._index.parent = base
                self._index.depth = base.depth + 1
            if not self.dirty:
                # the state's own index: every later Work of this state reuses it
                self._state.cache["index"] = self._index
                _keep_by_units(self._state, self._index)
        return self._index

    def xy(self, uid: int, models: Sequence[int] | None = None) -> FloatArray:
        u = self.units[uid]
        if models is None:
            return u.present_xy().copy()
        return geom.as_array([u.pos[i] for i in models])

    def centre(self, uid: int, models: Sequence[int] | None = None) -> FloatArray:
        """``self.xy(uid, models).mean(axis=0)``, float for float (:meth:`centre_xy`)."""
        got = self.centre_xy(uid, models)
        if got is None:
            mean: FloatArray = self.xy(uid, models).mean(axis=0)  # NumPy's own: nan, a warning
            return mean
        return np.array(got)

    def centre_xy(self, uid: int, models: Sequence[int] | None = None) -> Point | None:
        """``self.xy(uid, models).mean(axis=0)`` as two floats (None without a model): NumPy
        sums the rows of a C-ordered ``(n, 2)`` array one after another and divides by ``n``,
        and so does this, float for float (issue 10, session 33: ``mean``'s Python wrappers
        cost more than the sums of a handful of models)."""
        u = self.units[uid]
        pts = [u.pos[i] for i in (u.present() if models is None else models)]
        if not pts:
            return None
        sx, sy = float(pts[0][0]), float(pts[0][1])
        for x, y in pts[1:]:
            sx += float(x)
            sy += float(y)
        n = len(pts)
        return (sx / n, sy / n)

    def gap(self, a: int, b: int) -> float:
        """The closest base-edge distance between units ``a`` and ``b`` (inches; ``inf`` when
        either has no model on the table): how the perks measure "within X\"" (001 §1.4)."""
        if bases.shaped(self.setup):  # oval and rectangular bases (§1.3)
            d = bases.unit_gaps(self, a, b)
        else:
            d = geom.edge_distances(
                self.xy(a), self.info(a).radius, self.xy(b), self.info(b).radius
            )
        return float(d.min()) if d.size else float("inf")

    def standing(self, uid: int) -> bool:
        """Whether unit ``uid`` is on the table with a living model."""
        u = self.units[uid]
        return u.location is Location.TABLE and bool(u.living())

    def others_mask(self, exclude: Iterable[int]) -> np.ndarray[Any, np.dtype[np.bool_]]:
        t = self.table()
        mask = np.ones(len(t.uid), dtype=bool)
        for x in set(exclude):
            mask &= t.uid != x
        return mask

    def enemies(self, a: int, b: int) -> bool:
        ua, ub = self.units[a], self.units[b]
        sa, sb = self.setup.units[a].side, self.setup.units[b].side
        if not ua.statuses and not ub.statuses:
            return sa != sb
        return a != b and ua.table_side(sa) != ub.table_side(sb)  # DEFECTED, SEIZED

    def sides_changed(self) -> None:
        """A unit has defected (``perk_defect``): the battlefield index is built anew."""
        self._index, self._stale, self._grown_from, self._additive = None, None, None, False
        self.dirty = True

    def engaged_with(self, uid: int) -> list[int]:
        return sorted(b if a == uid else a for a, b in self.engaged if uid in (a, b))

    def contacts(self, uid: int, xy: FloatArray | None = None) -> set[int]:
        """Enemy units with a model in Base Contact with this unit's models (§2.1)."""
        t = self.table()
        pts = self.xy(uid) if xy is None else xy
        if not len(pts) or not len(t.xy):
            return set()
        side = self.units[uid].table_side(self.setup.units[uid].side)
        if bases.shaped(self.setup):  # oval and rectangular bases (§1.3)
            mask = (t.uid != uid) & (t.side != side)
            if not mask.any():
                return set()
            return bases.contacts(self, uid, pts, t, mask)
        # ``geom.edge_distances(pts, r, t.xy[mask], t.r[mask]) <= CONTACT`` over the bases of
        # other units of the other sides, in one compiled loop (issue 10, session 39)
        hit = coherency_jit.contacts(
            np.ascontiguousarray(pts, dtype=np.float64),
            self.setup.units[uid].radius,
            t.xy,
            t.r,
            t.uid,
            t.side,
            uid,
            side,
            CONTACT,
        )
        return set(t.uid[hit].tolist())

    def contact_map(self) -> dict[int, set[int]] | None:
        """:meth:`contacts` of every unit on the table at once (one distance matrix of the
        table index in place of one per unit; the same numbers, element for element), or
        ``None`` for oval and rectangular bases (``bases.contacts``, unit by unit)."""
        if bases.shaped(self.setup):
            return None
        t = self.table()
        out: dict[int, set[int]] = {}
        if not len(t.xy):
            return out
        uids = t.uid.tolist()
        side_of = {u: self.units[u].table_side(self.setup.units[u].side) for u in set(uids)}
        own = np.asarray([side_of[u] for u in uids], dtype=np.int64)  # as contacts(): now
        touch = geom.edge_distances(t.xy, t.r, t.xy, t.r) <= CONTACT
        touch &= (t.uid[:, None] != t.uid[None, :]) & (own[:, None] != t.side[None, :])
        rows, cols = np.nonzero(touch)
        for a, b in zip(t.uid[rows].tolist(), t.uid[cols].tolist(), strict=True):
            out.setdefault(a, set()).add(b)
        return out

    def side_units(self, side: int) -> list[int]:
        return [u.uid for u in self.setup.units if u.side == side]

    def acting_units(self, side: int) -> list[int]:
        """The units ``side`` acts with: its own, less those another side seized, and those it
        seized (Dominate, ``UnitGS.controller``). A unit without statuses is its own side's
        (``controller`` returns the side at once): read from the set-up's sides, no call."""
        units = self.units
        return [
            uid
            for uid, own in enumerate(_unit_sides(self.setup))
            if (units[uid].controller(own) if units[uid].statuses else own) == side
        ]

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


def current_value(w: Work, uid: int) -> float:
    """Current Point Cost (Perks 000 L98-100) with Fusion, Respawn and Summon (L333-335)."""
    return unit_value(w.info(uid), w.units[uid])  # Ascension, Descend, Eternal (L2368, L1511)


def to_unit_state(w: Work, uid: int) -> UnitState:
    info = w.info(uid)
    u = w.units[uid]
    profile = info.unit.profile
    adv = w.flow.adv
    if adv is not None and adv.guard_of(uid):  # Advanced: Guard, +1 Defence a use (§9.2)
        profile = profile.model_copy(update={"defence": profile.defence + adv.guard_of(uid)})
    if u.statuses and u.wrecked:  # Wreckage (Perks L1442): the User's Stats, no Perks
        profile = profile.model_copy(update={"perks": []})
    st = UnitState(
        profile=profile,
        weapons={wp.name: wp for wp in info.unit.weapons},
        models=[
            ModelState(h, ws, r, k >= info.real_models) if info.illusions else ModelState(h, ws, r)
            for k, (h, ws, r) in enumerate(zip(u.hp, info.model_weapons, u.removed, strict=True))
        ],
        emergency_save_used=u.used("Emergency Save") > 0,
        burst_used={k[len("Burst:") :] for k, _ in u.uses if k.startswith("Burst:")},
    )
    st = perk_effects.adjust_unit_state(u.statuses, st)  # perk statuses (Pulverise, Weaken …)
    return perk_immortal.immortal_state(w.setup, u, w.flow.turn, st)  # Immortal (Perks L1539)


def store_unit_state(w: Work, uid: int, st: UnitState) -> None:
    u = w.units[uid]
    hp = tuple(max(0, m.hp) for m in st.models)
    w.set_unit(uid, hp=hp)
    if st.emergency_save_used and not u.used("Emergency Save"):
        w.units[uid] = w.units[uid].with_use("Emergency Save")
    for b in st.burst_used:
        if not u.used(f"Burst:{b}"):
            w.units[uid] = w.units[uid].with_use(f"Burst:{b}")


def _spliced(old: TableIndex, unit: UnitGS, info: UnitInfo) -> TableIndex:
    """``old`` with the rows of ``unit`` (one unit on the table, before and after) replaced by
    its present models now: the index :meth:`Work.table` would build, without visiting every
    unit (its rows are the unit's models together, in the order of the units)."""
    uid = unit.uid
    lo = int(np.searchsorted(old.uid, uid, side="left"))
    hi = int(np.searchsorted(old.uid, uid, side="right"))
    models = unit.present()
    n = len(models)
    xy = np.concatenate([old.xy[:lo], unit.present_xy(), old.xy[hi:]])
    if n == hi - lo:
        r, uids, side = old.r, old.uid, old.side
        model = old.model if models == old.model[lo:hi].tolist() else None
    else:
        r = np.concatenate([old.r[:lo], np.full(n, info.radius, dtype=np.float64), old.r[hi:]])
        uids = np.concatenate([old.uid[:lo], np.full(n, uid, dtype=np.int64), old.uid[hi:]])
        here = np.full(n, unit.table_side(info.side), dtype=np.int64)
        side = np.concatenate([old.side[:lo], here, old.side[hi:]])
        model = None
    if model is None:
        model = np.concatenate([old.model[:lo], np.asarray(models, dtype=np.int64), old.model[hi:]])
    return TableIndex(xy, r, uids, model, side)


#: the arrays of the table index built for a state's units (by the tuple's id; the tuple and
#: the set-up held, so an id stays theirs): another state with the very same units tuple and
#: set-up (a copy made by ``dataclasses.replace``, as the ``apply`` benchmark, the protocol and a
#: search apply) has the same index, though not its ``memo``, which is the state's own
_BY_UNITS: dict[int, tuple[tuple[UnitGS, ...], object, TableIndex]] = {}
_BY_UNITS_LIMIT = 256


def _by_units(state: GameState) -> TableIndex | None:
    """The index of another state with ``state``'s very units and set-up, with an empty memo
    (the arrays are shared: no one writes into an index's arrays), or None."""
    hit = _BY_UNITS.get(id(state.units))
    if hit is None or hit[0] is not state.units or hit[1] is not state.setup:
        return None
    t = hit[2]
    return TableIndex(t.xy, t.r, t.uid, t.model, t.side, parent=t.parent, depth=t.depth)


def _keep_by_units(state: GameState, index: TableIndex) -> None:
    if len(_BY_UNITS) >= _BY_UNITS_LIMIT:
        _BY_UNITS.clear()
    t = index  # kept without its memo (the state's own answers are not held here)
    _BY_UNITS[id(state.units)] = (state.units, state.setup, TableIndex(
        t.xy, t.r, t.uid, t.model, t.side, parent=t.parent, depth=t.depth
    ))  # fmt: skip


def _gateways(setup: Any) -> bool:
    """Whether a roster of the game carries Gateway (Perks L4314): its markers are terrain of
    the battlefield (``perk_gateway``, ``terrain_field.field_of``)."""
    return bool(gateway_holders(setup))
