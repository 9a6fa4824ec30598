"""Targeting: which enemy models a unit's weapons can see, reach and hit, and their cover.

Core Rules 001_d3f5e425c5e1196d.txt §5.3 (targeting and range), §5.4 (line of sight), §5.5 (partial
line of sight), §5.6 (obscured view and the cover bonus), §5.9 (Melee weapons: range, sight and
cover in a Melee) and §6.7-6.9 (Fire Points: attacking from a Transport). Sight and cover
themselves are the battlefield's geometry (:mod:`warbench.rulesets.warsurge.game.geom`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from warbench.rulesets.warsurge.game import bases, geom
from warbench.rulesets.warsurge.game.bases_ground import outline_heights
from warbench.rulesets.warsurge.game.geom import FloatArray, Heights, SightPolys
from warbench.rulesets.warsurge.game.perk_effects import range_key, weapon_ranges
from warbench.rulesets.warsurge.game.perk_illusion_slots import lent_weapons
from warbench.rulesets.warsurge.game.perk_seed import seed_view
from warbench.rulesets.warsurge.game.perk_shared import cap_users
from warbench.rulesets.warsurge.game.perk_sight import unseen_users
from warbench.rulesets.warsurge.game.perk_transport import open_holder
from warbench.rulesets.warsurge.game.state import (
    Location,
)
from warbench.rulesets.warsurge.game.terrain import NO_CUSTOM_COVER, CoverEffect, custom_cover
from warbench.rulesets.warsurge.game.terrain_fire import (
    EYE_RADIUS,
    has_fire_points,
    piece_distances,
)
from warbench.rulesets.warsurge.game.terrain_fire import eyes as terrain_eyes
from warbench.rulesets.warsurge.game.terrain_split import inside_models, is_split
from warbench.rulesets.warsurge.game.terrain_transport import melee_inside
from warbench.rulesets.warsurge.game.transports import fire_point_chain
from warbench.rulesets.warsurge.game.work import Work

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.profiles import Unit

#: ``mask.any(axis=k)`` of a boolean mask without ``ndarray.any``'s Python wrapper (the very
#: reduction it calls; issue 10, session 35)
_ANY = np.logical_or.reduce


class TargetView:
    """What one attacking unit sees of one target unit.

    ``visible`` (target models in line of sight of at least one attacker model) and ``cover``
    (the Cover Bonus) may be given as functions: they are worked out on first use, because
    choosing targets needs only ranges and sight, and only an Attack needs them."""

    __slots__ = (
        "_cover",
        "_custom",
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
        custom: CoverEffect | Callable[[], CoverEffect] = NO_CUSTOM_COVER,
    ) -> None:
        self.melee = melee
        self.attacker_engaged = attacker_engaged
        self.target_engaged_elsewhere = target_engaged_elsewhere
        self.distance = distance
        self.users_in_range = users_in_range
        self._visible = visible
        self._cover = cover
        self._custom = custom
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

    @property
    def custom_cover(self) -> CoverEffect:
        """The custom cover (§10.4) that comes with the Cover Bonus (none without one)."""
        if callable(self._custom):
            self._custom = self._custom()
        return self._custom

    def __repr__(self) -> str:
        return (
            f"TargetView(melee={self.melee}, distance={self.distance:.2f}, "
            f"users={self.users_in_range}, reason={self.reason!r})"
        )


def _shooters(
    w: Work, uid: int, from_piece: bool = False
) -> tuple[FloatArray, float, list[int], bool]:
    """Where the unit attacks from: its models, or its outermost Transport (§6.7); with
    ``from_piece``, a split unit's models inside its piece, from the piece (L4466-4468)."""
    u = w.units[uid]
    if from_piece and u.terrain is not None:  # a split unit's models inside (ruling 13)
        return terrain_eyes(w, u.terrain), EYE_RADIUS, inside_models(u), True
    if u.location is Location.EMBARKED:
        holder = w.outermost(uid)
        hxy = w.xy(holder)
        return hxy, w.info(holder).radius, u.present(), True
    if u.location is Location.TERRAIN and u.terrain is not None:  # terrain Fire Points (§6.7)
        return terrain_eyes(w, u.terrain), EYE_RADIUS, u.present(), True
    return w.xy(uid), w.info(uid).radius, u.present(), False


def _outlines(
    w: Work, uid: int, th: int, t: Any, blockers: npt.NDArray[np.bool_], from_piece: bool = False
) -> SightPolys | None:
    """The true outlines of the attacking models (or the Transport they fire from; terrain
    Fire Points are points), the targeted ones and the blockers, when a unit of the game
    stands on an oval or rectangular base (§1.3; ruling 4 of "WARSURGE bases in play:
    session 26"); None keeps sight on round bases as it was. ``from_piece``: a split unit's
    models inside fire from the piece's points (L4466-4468), not from their bases."""
    if not bases.shaped(w.setup):
        return None
    u = w.units[uid]
    ap = None
    if u.location is not Location.TERRAIN and not from_piece:
        src = w.outermost(uid) if u.location is Location.EMBARKED else uid
        ap = bases.group_outlines(bases.unit_group(w, src))
    tp = bases.group_outlines(bases.unit_group(w, th))
    return ap, tp, bases.table_outlines(w, t, blockers)


def _rows(poly: FloatArray | None, idx: Any) -> FloatArray | None:
    return None if poly is None else poly[idx]


def view_target(
    w: Work, uid: int, target: int, cache: dict[Any, TargetView] | None = None
) -> TargetView:
    """What ``uid`` sees of ``target``. A view depends on the models on the table (their
    positions, removals, the units' locations: the table index) and on the Melees, so it is
    kept with the index, for every state that shares both (the Attack Phase)."""
    if w.dirty or w.engaged != w.engaged_at_start:
        return _view_target(w, uid, target)
    memo = w.table().memo
    key = ("view", uid, target, w.engaged_at_start, range_key(w.units[uid].statuses))
    hit: TargetView | None = memo.get(key)
    if hit is None:
        hit = memo[key] = _view_target(w, uid, target)
    return hit


#: How much farther than the longest Range a target must be for :func:`beyond_reach` (inches):
#: the distance it is given and the view's own are the same numbers, this only keeps it certain.
REACH_MARGIN = 1e-6


def beyond_reach(
    w: Work, uid: int, target: int, distance: float | None, reach: float | None = None
) -> bool:
    """Whether :func:`view_target` certainly finds no weapon of ``uid`` with a user at
    ``target`` (and no Melee between them), known without it: ``distance`` is the closest
    edge distance between their models on the table (``engine.nearest_enemies``), farther than
    the unit's longest Range (its perk statuses' Ranges, ``weapon_ranges``).

    Only the plain case answers True: both units on the table (none of their models inside a
    terrain piece, §10.2), round bases, no Seed II concerned (Perks L1904) and no Melee between
    the two (§5.9). There the view measures the very same edge distances (§5.3), asks line of
    sight only of the model pairs within some weapon's Range (an Illusion's row reaches as far
    as the unit's own Weapons, Perks L782) and gives No Line of Sight Weapons users only within
    their Range (Perks L3961): none is, so it finds no user. The scripted player's target
    search (issue 10) skips such targets unmeasured, with the very same choices. With
    ``reach``, the same for the weapons whose Ranges reach at most that far: none of them has a
    user (``engine.weapon_targets`` with ``first``, for the weapons still without a target)."""
    if distance is None or bases.shaped(w.setup):
        return False
    u, tgt = w.units[uid], w.units[target]
    if u.location is not Location.TABLE or tgt.location is not Location.TABLE:
        return False
    if u.inside or tgt.inside:
        return False
    if reach is None:
        reach = max(weapon_ranges(w.info(uid), u.statuses).values(), default=0.0)
    if distance <= reach + 1e-6 + REACH_MARGIN:
        return False
    if (min(uid, target), max(uid, target)) in w.engaged:
        return False
    return seed_view(w, uid, target) is None


def _view_target(w: Work, uid: int, target: int) -> TargetView:
    view = _view_from(w, uid, target)
    u = w.units[uid]
    if (
        view.melee
        or not is_split(u)
        or not has_fire_points(w, u.terrain)
        or w.units[target].location is not Location.TABLE
    ):
        return view
    # a split unit's models inside a piece with Fire Points fire out through them (§6.7,
    # L4466-4468; rulings "WARSURGE terrain in play: session 26, s26-terrain" 13)
    out = _view_from(w, uid, target, from_piece=True)
    if out.melee or not out.users_in_range:
        return view
    if not view.users_in_range:
        return out
    return merge_views(view, out, w.info(uid).unit)


def merge_views(a: TargetView, b: TargetView, unit: Unit) -> TargetView:
    """One view of a target from two groups of the same unit's models (a split unit's models
    outside ``a`` and inside its piece ``b``): the users of both, the closer distance, the
    target models either sees (a Shared Weapon's users capped at its copies, Perks L4055); the
    Cover Bonus of the models outside (its own Targeting)."""
    users = {k: list(v) for k, v in a.users_in_range.items()}
    for k, v in b.users_in_range.items():
        users[k] = sorted({*users.get(k, []), *v})
    users = cap_users(unit, users)  # Shared (Perks L4055): no more than its copies
    return TargetView(
        False,
        a.attacker_engaged,
        a.target_engaged_elsewhere,
        min(a.distance, b.distance),
        users,
        lambda: a.visible | b.visible,
        lambda: a.cover,
        "",
        lambda: a.custom_cover,
    )


def _view_from(w: Work, uid: int, target: int, from_piece: bool = False) -> TargetView:
    info = w.info(uid)
    u = w.units[uid]
    ranges = weapon_ranges(info, u.statuses)  # perk statuses: Blind, Limit Break (Perks §12)
    tgt = w.units[target]
    tinfo = w.info(target)
    empty: dict[str, list[int]] = {}
    holder = w.outermost(uid)
    embarked = u.location is Location.EMBARKED
    if (seed := seed_view(w, uid, target)) is not None:  # Seed II inside its host (Perks L1904)
        if isinstance(seed, str):
            return TargetView(False, False, False, 0, empty, frozenset(), 0, seed)
        return TargetView(True, True, False, 0.0, seed[0], seed[1], 0)
    if Location.TERRAIN in (u.location, tgt.location) or u.inside or tgt.inside:  # §10.2
        inside = melee_inside(w, uid, target)
        if isinstance(inside, str):
            return TargetView(False, False, False, 0, empty, frozenset(), 0, inside)
        if inside is not None:
            return TargetView(True, True, False, 0.0, inside[0], inside[1], 0)
        embarked = embarked or u.location is Location.TERRAIN or from_piece  # Fire Points
    # who is engaged with whom
    opened = open_holder(w, target)  # Exposed, Unsheltered (Perks L1280, L1438)
    if opened is not None:
        th = opened
        melee = (min(holder, th), max(holder, th)) in w.engaged
    elif tgt.location is Location.EMBARKED:
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
    # §6.9 (L3499-3503): passengers of a Transport engaged in a Melee attack from that Melee
    # (out of it, at a unit not engaged with the Transport), without the Weapon Type modifiers
    attacker_engaged = bool(w.engaged_with(holder if embarked else uid))
    tgt_foes = w.engaged_with(th)
    target_elsewhere = any(not w.enemies(uid, f) and f != holder for f in tgt_foes) and not melee
    axy, ar, models, _ = _shooters(w, uid, from_piece)
    txy = w.xy(th) if th != target else w.xy(target)
    tr = w.info(th).radius
    if bases.shaped(w.setup):  # oval and rectangular bases (§1.3, §5.4 L2331)
        src = w.outermost(uid)
        d = bases.gaps(bases.unit_group(w, src), bases.unit_group(w, th))
    else:
        d = geom.edge_distances(axy, ar, txy, tr)
    if (u.location is Location.TERRAIN or from_piece) and u.terrain is not None:
        # §6.7: range from the piece itself, to its footprint's nearest point (terrain_fire)
        d = np.broadcast_to(piece_distances(w, u.terrain, txy, tr, th), d.shape)
    distance = float(d.min()) if d.size else math.inf
    weapons_of = [info.model_weapons[i] for i in models]
    users: dict[str, list[int]] = {}
    if melee:
        for k, m in enumerate(models):
            for wname in weapons_of[k]:
                users.setdefault(wname, []).append(m)
        present = tgt.present()
        users = cap_users(info.unit, users)  # Shared (Perks L4055): no more than its copies
        return TargetView(True, attacker_engaged, False, distance, users, frozenset(present), 0)
    if w.units[th].location is not Location.TABLE:
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
    blockers = w.others_mask([uid, target, holder, th])
    t = w.table()
    bxy = t.xy[blockers]
    br = t.r[blockers]
    tmodels = tgt.present()
    field = w.field
    made: list[SightPolys | None] = []

    def outlines() -> SightPolys | None:  # oval and rectangular bases (§1.3, §5.4), once
        if not made:
            made.append(_outlines(w, uid, th, t, blockers, from_piece))
        return made[0]

    # L2360: the heights the models stand at, where the board raises any (game/terrain.py)
    z: Heights | None = None
    if not field.levels.flat:
        # oval and rectangular bases stand on the pieces their outline overlaps (§1.3)
        ap, tp, bp = outlines() or (None, None, None)
        lv = field.levels
        hz = Heights(
            outline_heights(lv, axy, ap), outline_heights(lv, txy, tp), outline_heights(lv, bxy, bp)
        )
        if (hz.attacker > 0).any() or (hz.target > 0).any():
            z = hz
    # Only pairs within a weapon's range can give a user, so sight is asked of those pairs
    # alone (a pair's answer does not depend on the other pairs asked).
    reach = np.asarray(
        [max((ranges.get(wn, 0) for wn in ws), default=-1) for ws in weapons_of],
        dtype=np.float64,
    )
    # Illusion (Perks L782): "existing Weapons on the User can be measured and used from the
    # Illusions": an Illusion's row reaches as far as the unit's own models' Weapons
    lent = lent_weapons(info, models, weapons_of) if info.illusions and not embarked else []
    if lent:
        far = max((ranges.get(wn, 0) for _, ws in lent for wn in ws), default=-1)
        reach[[k for k, m in enumerate(models) if m >= info.real_models]] = far
    if embarked:
        # every passenger model fires from the Transport: sees what any Transport model sees,
        # at the distance of the closest Transport model
        near = d.min(axis=0)  # (target models,)
        cols = (near <= reach.max(initial=-1.0) + 1e-6).nonzero()[0]
        rows = np.arange(len(axy))
    else:
        inr = d <= reach[:, None] + 1e-6
        # the ufuncs' own reductions and ``nonzero`` of a 1-D mask: ``np.flatnonzero`` and
        # ``.any`` without their Python wrappers (issue 10, session 35: the same indices)
        rows = _ANY(inr, axis=1).nonzero()[0]
        cols = _ANY(inr, axis=0).nonzero()[0]
    sub: npt.NDArray[np.bool_] | None = None
    if len(rows) and len(cols):
        zs = None if z is None else Heights(z.attacker[rows], z.target[cols], z.blocker)
        polys = outlines()
        sp = None if polys is None else (_rows(polys[0], rows), _rows(polys[1], cols), polys[2])
        sub = field.sight(axy[rows], ar, txy[cols], tr, bxy, br, zs, sp)
        if embarked:
            col_seen = sub.any(axis=0)
            for k, m in enumerate(models):
                for wname in weapons_of[k]:
                    rng = ranges.get(wname, 0)
                    if (col_seen & (near[cols] <= rng + 1e-6)).any():
                        users.setdefault(wname, []).append(m)
        else:
            row_of = {int(k): i for i, k in enumerate(rows)}
            dsub = d[rows[:, None], cols]  # ``d[np.ix_(rows, cols)]`` (session 35)
            seen_in: dict[float, list[bool]] = {}  # per Range: each row sees a model within it
            sub_seen: npt.NDArray[np.bool_] = sub

            def sees(i: int, rng: float) -> bool:
                if rng not in seen_in:  # row by row, the same test of every row at once
                    seen_in[rng] = _ANY(sub_seen & (dsub <= rng + 1e-6), axis=1).tolist()
                return seen_in[rng][i]

            for k, m in enumerate(models):
                i = row_of.get(k)
                if i is None:
                    continue
                for wname in weapons_of[k]:
                    if sees(i, ranges.get(wname, 0)):
                        users.setdefault(wname, []).append(m)
                if lent and m >= info.real_models:  # an Illusion: its User's Weapons (L782)
                    for own, ws in lent:
                        for wname in ws:
                            fires = users.setdefault(wname, [])
                            if own not in fires and sees(i, ranges.get(wname, 0)):
                                fires.append(own)

    def visible() -> frozenset[int]:
        # a target model is visible when some attacker model sees it (any range): those seen
        # in the pairs asked above are; only the others are asked of every attacker model
        # (a target model's answer does not depend on the other target models asked)
        seen = np.zeros(len(txy), dtype=bool)
        if sub is not None:
            seen[cols] = _ANY(sub, axis=0)
        rest = (~seen).nonzero()[0]
        if len(rest):
            zv = None if z is None else Heights(z.attacker, z.target[rest], z.blocker)
            polys = outlines()
            vp = None if polys is None else (polys[0], _rows(polys[1], rest), polys[2])
            seen[rest] = field.visible(axy, ar, txy[rest], tr, bxy, br, zv, vp)
        if th != target:  # passengers seen where their Transport is seen (L1280, L1438)
            return frozenset(tmodels) if seen.any() else frozenset()
        return frozenset(tmodels[j] for j in seen.nonzero()[0].tolist())

    plain = z is None and not field.custom_cover_pieces

    def cover() -> int:
        if not visible_once():
            return 0
        if plain:  # the flat board's own answer
            return field.cover(axy, ar, txy, tr, bxy, br, outlines())
        return cover_info()[0]

    def custom() -> CoverEffect:
        return cover_info()[1] if not plain and visible_once() else NO_CUSTOM_COVER

    def cover_info() -> tuple[int, CoverEffect]:
        if not info_memo:
            rep = field.cover_report(axy, ar, txy, tr, bxy, br, z, outlines())
            eff = custom_cover(field.board, rep.sources) if rep.bonus else NO_CUSTOM_COVER
            info_memo.append((rep.bonus, eff))
        return info_memo[0]

    info_memo: list[tuple[int, CoverEffect]] = []

    def visible_once() -> frozenset[int]:
        if not done:
            done.append(visible())
        return done[0]

    done: list[frozenset[int]] = []
    users = unseen_users(info, models, weapons_of, ranges, d, embarked, users)  # Perks L3961
    users = cap_users(info.unit, users)  # Shared (Perks L4055): no more than its copies
    return TargetView(
        False, attacker_engaged, target_elsewhere, distance, users, visible_once, cover, "", custom
    )
