"""Units that only partly fit a terrain piece: some models inside, the rest outside.

Core Rules 001_d3f5e425c5e1196d.txt §10.2, "Insufficient Transport Capacity to Embark Terrain"
(L4459-4468): "If the terrain has insufficient space to embark an entire Unit, at least one
model from the remainder of the Unit (that could not embark) must maintain Coherency with the
terrain. If additional space becomes available within the terrain, any of the outside models
may embark it with Movement. When there is a Melee inside the terrain and a Unit has models
inside and outside the terrain, the outside models cannot contribute to the Melee unless
attacking from the outside through a Fire Point (Section 6.9)."

A split unit stays :attr:`~.state.Location.TABLE` with ``UnitGS.terrain`` naming the piece and
``UnitGS.inside`` the models inside it: :meth:`~.state.UnitGS.present` (the models on the
table: seen, attacked from outside, moving, blocking) leaves those out. The inside models take
their share of the unit's points of the piece's Transport Capacity, fight in the Melee inside
and are attacked only there; the outside models keep Coherency with the piece: every group of
them has a model within 2" of its footprint (the piece links them, as the models inside it
would). Rulings: docs/rulings.md "WARSURGE terrain in play: session 26, s26-terrain".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import shapely
import shapely.ops

from warbench.rulesets.warsurge.attack import UnitState
from warbench.rulesets.warsurge.battlefield.measure import coherency_groups
from warbench.rulesets.warsurge.game.geom import FloatArray
from warbench.rulesets.warsurge.game.state import GameState, Location, UnitGS
from warbench.rulesets.warsurge.game.work import Work

#: Coherency's distance (§4.2 I): a model within this of the piece keeps its unit linked to it
COHERENCY = 2.0
#: the rule of a split unit
RULE = "§10.2 (L4459-4468)"


def is_split(u: UnitGS) -> bool:
    """Some models of the unit are inside a terrain piece, the rest on the table."""
    return u.location is Location.TABLE and bool(u.inside)


def piece_of(u: UnitGS) -> str | None:
    """The terrain piece the unit (or part of it) is inside, or None."""
    if u.location is Location.TERRAIN or (u.location is Location.TABLE and u.inside):
        return u.terrain
    return None


def inside_models(u: UnitGS) -> list[int]:
    """The unit's models inside its piece: every model not removed of a unit inside, those
    listed of a split unit (casualties included until removed, §5.11)."""
    if u.location is Location.TERRAIN:
        return u.present()
    if u.location is Location.TABLE and u.inside:
        return [i for i in u.inside if not u.removed[i]]
    return []


def survivors_of(u: UnitGS) -> list[int]:
    """The living models that leave a destroyed piece or Transport (§6.6, §10.3): a split
    unit's living models inside; every living model otherwise."""
    if is_split(u):
        return [i for i in u.living() if i in u.inside]
    return u.living()


def standing_models(u: UnitGS) -> list[int]:
    """Every model not removed, on the table or inside a piece (the casualties to remove)."""
    return [i for i, r in enumerate(u.removed) if not r]


def model_share(w: Work | GameState, uid: int) -> float:
    """A model's share of its unit's points (the Transport Capacity counts points, §1.5; a
    unit's points are shared equally by its models, ruling 4)."""
    info = w.info(uid)
    return info.points / max(1, info.real_models)


def points_inside(w: Work | GameState, uid: int) -> float:
    """The points of the unit that take space in its piece: its models' shares, of every
    model not removed of a unit inside, of the models inside of a split unit (ruling 4)."""
    u = w.units[uid]
    n = w.info(uid).real_models
    return model_share(w, uid) * len([i for i in inside_models(u) if i < n])


def _polygon(w: Work | GameState, name: str) -> shapely.Polygon:
    if isinstance(w, Work):
        board = w.field.board
    else:
        from warbench.rulesets.warsurge.game.terrain_field import field_of

        board = field_of(w).board
    return shapely.Polygon(board.terrain_named(name).polygon)


def gaps_to_piece(w: Work | GameState, name: str, xy: FloatArray, r: float) -> FloatArray:
    """The distance from each base (centres ``xy``, radius ``r``) to the piece's footprint."""
    if not len(xy):
        return np.zeros(0, dtype=np.float64)
    d = shapely.distance(_polygon(w, name), shapely.points(np.asarray(xy, dtype=np.float64)))
    return np.maximum(0.0, np.asarray(d, dtype=np.float64) - r)


def linked_to_piece(
    w: Work | GameState,
    name: str,
    pts: Sequence[tuple[float, float]],
    r: float,
    shaped: tuple[int, Sequence[int]] | None = None,
) -> bool:
    """The outside models at ``pts`` are in Coherency with the piece (L4460-4462): each group
    of them linked by 2" (§4.2) has a model within 2" of the piece (ruling 6). ``shaped``:
    the unit and its models at ``pts`` when it stands on oval or rectangular bases, measured
    with their outlines (§1.3)."""
    if not pts:
        return False
    if shaped is not None and w.setup.units[shaped[0]].base is not None:
        return _linked_outlines(w, name, pts, *shaped)
    gaps = gaps_to_piece(w, name, np.asarray(pts, dtype=np.float64), r)
    for group in coherency_groups(list(pts), [r] * len(pts)):
        if not any(gaps[k] <= COHERENCY + 1e-6 for k in group):
            return False
    return True


def _linked_outlines(
    w: Work | GameState, name: str, pts: Sequence[tuple[float, float]], uid: int,
    models: Sequence[int],
) -> bool:  # fmt: skip
    """:func:`linked_to_piece` for oval or rectangular bases, with their outlines (§1.3)."""
    from warbench.rulesets.warsurge.game import bases

    info = w.setup.units[uid]
    xy = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
    fac = bases.facings(w, uid, models)
    gaps = shapely.distance(_polygon(w, name), bases.outlines(info.base, xy, fac))
    return all(
        any(float(gaps[k]) <= 2.0 + 1e-6 for k in group)
        for group in bases.group_of(w, uid, xy, fac)
    )


def split_refusal(
    w: Work, uid: int, pts: Sequence[tuple[float, float]], models: Sequence[int] | None = None
) -> str | None:
    """Why the outside models of the split unit ``uid`` at ``pts`` (its ``models``, default
    those present) would not keep Coherency with its piece, or None."""
    u = w.units[uid]
    name = u.terrain
    assert name is not None
    idx = u.present() if models is None else list(models)
    if linked_to_piece(w, name, pts, w.info(uid).radius, (uid, idx)):
        return None
    return (
        f"the models of {w.info(uid).label} outside {name} would not keep Coherency with it: "
        f'each group of them needs a model within 2" of {name}'
    )


def split_problem(
    w: Work, uid: int, new: Sequence[tuple[float, float]], models: Sequence[int]
) -> tuple[str, str] | None:
    """Why the split unit's models at ``new`` (``models``; the others where they stand) are
    not legal as a whole, or None: no overlap with its models that stay; its models inside
    that come out (a Disembark) make it one coherent group (§4.2); its outside models alone
    keep Coherency with the piece (L4460-4462)."""
    u = w.units[uid]
    info = w.info(uid)
    r = info.radius
    moving = set(models)
    stay = [i for i in u.present() if i not in moving]
    pts = [*(u.pos[i] for i in stay), *new]
    if info.base is not None:  # oval or rectangular bases: their outlines (§1.3)
        return _split_outlines(w, uid, pts, [*stay, *models], bool(moving & set(inside_models(u))))
    if stay and new:
        a = np.asarray(new, dtype=np.float64)
        b = np.asarray([u.pos[i] for i in stay], dtype=np.float64)
        gap = np.hypot(*(a[:, None, :] - b[None, :, :]).transpose(2, 0, 1)) - 2 * r
        if (gap < -1e-6).any():
            return (f"models of {info.label} would overlap each other", "§1.3")
    if moving & set(inside_models(u)):  # leaving the piece: one group again
        if len(coherency_groups(pts, [r] * len(pts))) > 1:
            return (
                f'{info.label} would break Coherency: every model within 2" of another, '
                "in one group",
                "§4.2",
            )
        return None
    why = split_refusal(w, uid, pts)
    return None if why is None else (why, RULE)


def _split_outlines(
    w: Work, uid: int, pts: Sequence[tuple[float, float]], idx: Sequence[int], leaving: bool
) -> tuple[str, str] | None:
    """:func:`split_problem` for oval or rectangular bases, with their outlines (§1.3)."""
    from warbench.rulesets.warsurge.game import bases

    label = w.info(uid).label
    own = bases.own_problem(w, uid, pts, idx)
    if own == "overlap":
        return (f"models of {label} would overlap each other", "§1.3")
    if leaving:  # leaving the piece: one group again
        if own == "coherency":
            return (
                f'{label} would break Coherency: every model within 2" of another, in one group',
                "§4.2",
            )
        return None
    why = split_refusal(w, uid, pts, idx)
    return None if why is None else (why, RULE)


def split_coherent(state: GameState | Work, uid: int) -> bool:
    """The split unit's outside models are in Coherency with its piece (the invariant)."""
    u = state.units[uid]
    assert u.terrain is not None
    xy = u.present_xy()
    pts = [(float(x), float(y)) for x, y in xy]
    return linked_to_piece(state, u.terrain, pts, state.info(uid).radius, (uid, u.present()))


def settle(w: Work, uid: int) -> None:
    """After removals: a split unit with no model left inside is a unit on the table, its
    Melee inside over; one with no model left outside is a unit inside its piece, its Melees
    on the table over (§5.14; ruling 9)."""
    u = w.units[uid]
    if u.location is not Location.TABLE or not u.inside:
        return
    name = u.terrain
    if not inside_models(u):
        w.set_unit(uid, terrain=None, inside=())
        ended = [p for p in w.engaged if uid in p and piece_of(w.units[sum(p) - uid]) == name]
    elif not u.present():
        w.set_unit(uid, location=Location.TERRAIN, inside=())
        ended = [p for p in w.engaged if uid in p and piece_of(w.units[sum(p) - uid]) != name]
    else:
        return
    for a, b in ended:
        w.engaged.discard((a, b))
        w.emit(
            "melee_end",
            f"{w.label(a)} and {w.label(b)}: no model of {w.label(uid)} is left on its side of "
            f"{name}'s walls; their Melee ends",
            "§5.14, §10.2 (L4466-4468)",
        )


def split_groups(w: Work, uid: int) -> tuple[list[int], list[int], list[tuple[float, float]], int]:
    """§4.2 IV for a split unit: the outside models in groups linked to its piece stay (the
    main group, ruling 6), the others are strays to rejoin them. When no group is linked, the
    model nearest the piece first steps to just within 2" of it (the minimum move). Returns
    (main, strays, positions, models moved so far)."""
    u = w.units[uid]
    name = u.terrain
    assert name is not None
    r = w.info(uid).radius
    present = u.present()
    pos = list(u.pos)
    xy = np.asarray([pos[i] for i in present], dtype=np.float64)
    gaps = gaps_to_piece(w, name, xy, r)
    main: list[int] = []
    strays: list[int] = []
    for group in coherency_groups([pos[i] for i in present], [r] * len(present)):
        linked = any(gaps[k] <= COHERENCY + 1e-6 for k in group)
        (main if linked else strays).extend(present[k] for k in group)
    if main or not present:
        return main, strays, pos, 0
    k = int(np.argmin(gaps))
    i = present[k]
    poly = _polygon(w, name)
    near = shapely.ops.nearest_points(poly, shapely.Point(pos[i]))[0]
    q = np.asarray([near.x, near.y])
    d = np.asarray(pos[i]) - q
    norm = float(np.hypot(*d)) or 1.0
    t = w.table()
    mask = t.uid != uid
    oxy, orad = t.xy[mask], t.r[mask]
    for step in (COHERENCY - 0.05, 1.0, 0.2):
        for ang in np.linspace(0.0, 2 * np.pi, 25)[:-1]:
            rot = np.asarray([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]])
            c = q + rot @ (d / norm) * (r + step)
            spot = (float(c[0]), float(c[1]))
            if not w.field.spot_ok(spot, r) or float(poly.distance(shapely.Point(spot))) < r:
                continue
            if len(oxy) and (np.hypot(*(oxy - c).T) - orad - r < -1e-6).any():
                continue
            if any(math.dist(spot, pos[m]) < 2 * r - 1e-6 for m in present if m != i):
                continue
            pos[i] = spot
            return [i], [m for m in strays if m != i], pos, 1
    return [i], [m for m in strays if m != i], pos, 0


def split_side(w: Work, target: int, attacker: int, st: UnitState) -> UnitState:
    """The Targeted unit's state for an attack: a unit split by a terrain piece loses models
    only on the attacker's side of the piece's walls (L4466-4468, ruling 8): its models inside
    in the Melee inside (the attacker inside the same piece), its models outside otherwise;
    the others count as off the table for this attack."""
    u = w.units[target]
    if not is_split(u):
        return st
    pair = (min(target, attacker), max(target, attacker))
    same = piece_of(w.units[attacker]) == u.terrain and pair in w.engaged
    side = set(inside_models(u)) if same else set(u.present())
    models = [m if i in side else replace(m, removed=True) for i, m in enumerate(st.models)]
    return replace(st, models=models)


def embark_choices(
    w: Work, uid: int, name: str, space: float, candidates: Sequence[int]
) -> list[tuple[int, ...]]:
    """The engine's choices of the models of ``candidates`` (the unit's models on the table)
    that go into the piece when not all of them fit ``space``, best first: as many as fit,
    nearest the piece first; then the nearest with the farthest (ruling 5)."""
    share = model_share(w, uid)
    k = int((space + 1e-9) // share) if share > 0 else len(candidates)
    if k <= 0:
        return []
    u = w.units[uid]
    xy = np.asarray([u.pos[i] for i in candidates], dtype=np.float64)
    gaps = gaps_to_piece(w, name, xy, w.info(uid).radius)
    order = [candidates[j] for j in np.argsort(gaps, kind="stable")]
    out = [tuple(sorted(order[:k]))]
    if k > 1:
        out.append(tuple(sorted([order[0], *order[len(order) - k + 1 :]])))
    return out
