"""Moving units: allowances, paths, Melee locks and dangerous ground.

Core Rules 001_d3f5e425c5e1196d.txt §4.1 (moving units: Move and Dash, rigid moves of the whole
unit or of some models), §4.3-4.4 (moves into and within a Melee), §4.5 (Difficult Ground), §4.6
(Dangerous Ground: a roll per model that ends its move there), §4.7 (Impassable Ground). A ``Move``
toward a point is planned here (:func:`plan_towards`, :func:`plan_engage`).
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Sequence
from typing import Any

import numpy as np

from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.attack import (
    AttackContext,
    UnitState,
)
from warbench.rulesets.warsurge.battlefield.measure import VERTICAL_COHERENCY, coherency_groups
from warbench.rulesets.warsurge.effects.movement import flight, ignores_dangerous, juggernaut
from warbench.rulesets.warsurge.game import (
    bases,
    bases_ground,
    geom,
    perk_challenger,
    perk_crew,
    perk_effects,
    perk_incorporeal,
    perk_psych,
    perk_velocity,
)
from warbench.rulesets.warsurge.game.actions import (
    Move,
    Point,
)
from warbench.rulesets.warsurge.game.casualties import remove_models, restore_coherency
from warbench.rulesets.warsurge.game.coherency import (
    clearly_blocked_translations,
    clearly_illegal,
    full_positions,
    overlaps_list,
    problem_positions,
)
from warbench.rulesets.warsurge.game.geom import CONTACT, Field, FloatArray
from warbench.rulesets.warsurge.game.hooks import Hook
from warbench.rulesets.warsurge.game.melee import check_locked, engage_new_contacts
from warbench.rulesets.warsurge.game.move_prefilter import (
    clearly_blocked_each,
    crosses_units,
    plain_mover,
)
from warbench.rulesets.warsurge.game.perk_combat_damage import after_share, in_effect
from warbench.rulesets.warsurge.game.perk_seed import hijackers
from warbench.rulesets.warsurge.game.perk_transport import enter_reserve
from warbench.rulesets.warsurge.game.plans import MovePlan
from warbench.rulesets.warsurge.game.route_move import route_towards
from warbench.rulesets.warsurge.game.state import (
    Automation,
    Location,
    Phase,
)
from warbench.rulesets.warsurge.game.terrain import climb_problem
from warbench.rulesets.warsurge.game.work import Work, err, to_unit_state
from warbench.rulesets.warsurge.odds import AttackPlan, resolve_attack
from warbench.rulesets.warsurge.profiles import WeaponProfile


def move_problems(
    w: Work,
    uid: int,
    new: Sequence[Point],
    models: Sequence[int],
    starts: Sequence[Point] | None,
    allowance: float | None,
    dash: bool,
    **kw: Any,
) -> tuple[str, str] | None:
    """Why these positions are not a legal Move or Dash (coherency.problem_positions: §4.1-4.7,
    §4.2), or, where the board has levels, why a model cannot climb to where it would stand
    (game/terrain.py, ruling 26); None when legal."""
    prob = problem_positions(w, uid, tuple(new), models, starts, allowance, dash, **kw)
    if prob or starts is None or allowance is None or w.field.levels.flat:
        return prob
    r = w.info(uid).radius
    shape = w.info(uid).base is not None  # oval or rectangular bases (§1.3)
    climb = climb_problem(
        w.field.levels,
        starts,
        new,
        allowance,
        lambda k: (
            bases_ground.model_path(w, uid, models[k], starts[k], new[k]).difficult
            if shape
            else w.field.path(starts[k], new[k], r).difficult
        ),
        # an oval or rectangle stands on the pieces its outline overlaps (§1.3, session 27)
        (
            bases_ground.heights(w, uid, starts, models, start=True),
            bases_ground.heights(w, uid, new, models),
        )
        if shape
        else None,
    )
    return climb or vertical_coherency_problem(w, uid, new, models)


def vertical_coherency_problem(
    w: Work, uid: int, new: Sequence[Point], models: Sequence[int]
) -> tuple[str, str] | None:
    """§4.2 III (L1918-1919): "Vertical Coherency is 6"": the unit's models, after the move,
    form one group linked within 2" across the board and 6" up or down (ruling 18). Only a
    board with levels more than 6" apart can refuse anything here."""
    levels = w.field.levels
    if levels.flat or max(levels.levels) <= VERTICAL_COHERENCY:
        return None
    u = w.units[uid]
    if u.inside:  # a split unit: its groups are linked through its piece (L4460, ruling 6)
        return None
    moved = dict(zip(models, new, strict=True))
    present = u.present()
    pts = [moved.get(i, u.pos[i]) for i in present]
    shape = w.info(uid).base is not None  # oval or rectangular bases: their outlines (§1.3)
    z = bases_ground.heights(w, uid, pts, present) if shape else levels.z_of(geom.as_array(pts))
    if float(z.max() - z.min()) <= VERTICAL_COHERENCY:
        return None
    r = w.info(uid).radius
    if shape:
        groups = bases_ground.vertical_groups(w, uid, pts, present)
    else:
        groups = coherency_groups(pts, [r] * len(pts), elevations=z.tolist())
    if len(groups) > 1:
        return (
            f"{w.label(uid)} would be out of Coherency: its models would stand more than "
            f'{VERTICAL_COHERENCY:g}" apart vertically',
            "§4.2 III",
        )
    return None


def unit_allowance(w: Work, uid: int, dash: bool) -> int:
    p = w.info(uid).unit.profile
    return perk_effects.allowance(w.units[uid].statuses, dash, p.dash if dash else p.move)


def move_words(label: str, what: str, farthest: float, allowance: int, turned: bool) -> str:
    """The log line of a Move or Dash (§4.1): what the farthest model travelled, with the
    unit's allowance beside it in the profile's words ("Move 6"), so that the distance moved
    is not read as the allowance ("can Move up to 7"", 001_d3f5e425c5e1196d.txt L1831, L1841).

    >>> move_words("Scouts", "Move", 5.26, 6, False)
    'Scouts makes a Move: its farthest model travels 5.3" (Move 6")'
    >>> move_words("Scouts", "Dash", 0.0, 4, True)
    'Scouts makes a Dash, turning in place (Dash 4")'
    """
    stat = f'({what} {allowance}")'
    if farthest < 0.05:  # every model stayed where it stood (§4.1 L1833-L1837) or turned
        how = "turning in place" if turned else "and no model leaves its place"
        return f"{label} makes a {what}, {how} {stat}"
    return f'{label} makes a {what}: its farthest model travels {farthest:.1f}" {stat}'


def check_dash_flag(w: Work, dash: bool) -> None:
    if w.flow.phase in (Phase.ACTIONS, Phase.OPPORTUNIST):  # Advanced §9.2; Perks L1340
        return
    want = w.flow.phase is Phase.DASH
    if dash != want:
        raise err(
            "a Dash is made in the Dash Phase and a Move in the Move Phase",
            "§2.2 steps 3 and 5",
        )


def verify_move(w: Work, action: Move) -> MovePlan:
    """The plan of a legal Move or Dash (§4.1-4.7), else a refusal; a Move that turns oval or
    rectangular bases (``action.facing``, §1.3) is checked with its turn, forgotten after."""
    try:
        return _verify_move(w, action)
    finally:
        w.turning.pop(action.unit, None)


def _verify_move(w: Work, action: Move) -> MovePlan:
    uid = action.unit
    info = w.info(uid)
    u = w.units[uid]
    check_dash_flag(w, action.dash)
    what = "Dash" if action.dash else "Move"
    if u.location is Location.EMBARKED:
        raise err(f"{info.label} is embarked; use Disembark to leave its Transport", "§6.3")
    if u.location is Location.TERRAIN:
        raise err(f"{info.label} is inside {u.terrain}; use Disembark to leave it", "§10.2, §6.3")
    if u.location is not Location.TABLE:
        raise err(f"{info.label} is not on the battlefield", "§4.1")
    if info.immobile:
        raise err(f"{info.label} is Immobile (Move 0 and Dash 0)", "§4.1 Immobile Units")
    allowance = unit_allowance(w, uid, action.dash)
    if allowance <= 0:
        raise err(f'{info.label} has a {what} of 0"', "§4.1")
    models = tuple(u.present())
    starts = tuple(u.pos[i] for i in models)
    if action.facing is not None:  # oval and rectangular bases turn (§1.3, game/bases.py):
        w.turning[uid] = bases.check_turn(w, uid, models, action.facing)  # planned with it
    if action.positions is not None:
        if len(action.positions) != len(models):
            raise err(
                f"{info.label} has {len(models)} models on the table; "
                f"{len(action.positions)} positions given",
                "§4.1",
            )
        new, checked = tuple(action.positions), False
    elif Automation.MODEL_PLACEMENT not in w.setup.automation:
        raise err("give a position for every model (model placement is not automated)", "§4.1")
    elif action.engage is not None:
        new, checked = _plan_engage(w, uid, action.engage, allowance, action.dash)
    elif action.to is not None:
        new, checked = _plan_towards(w, uid, action.to, allowance, action.dash, route=True)
    else:
        raise err("a Move needs positions, a point to move to, or a unit to engage", "§4.1")
    # a planned Move whose positions the planner found legal (the very same question of
    # move_problems: these models, starts, allowance and Dash) is not asked again (issue 10)
    prob = None if checked else move_problems(w, uid, new, models, starts, allowance, action.dash)
    if prob:
        raise err(*prob)
    check_locked(w, uid, new)
    if action.engage is not None and action.engage not in w.contacts(uid, geom.as_array(new)):
        raise err(f"the move does not reach {w.label(action.engage)}", "§4.3")
    if (mad := perk_psych.move_refusal(w, uid, starts, new)) is not None:  # Berserk (lane c)
        raise err(mad, "Perks §12.4 Psychological")
    if (duel := perk_challenger.move_refusal(w, uid, new)) is not None:  # Challenger (Perks L1971)
        raise err(duel, "Perks §12.4 Leadership")
    turn = w.turning.get(uid, ())
    return MovePlan(uid, models, new, starts, action.dash, facing=turn)


def _rigid(
    w: Work, uid: int, vec: FloatArray, allowance: float, dash: bool, models: Sequence[int]
) -> tuple[Point, ...] | None:
    u = w.units[uid]
    starts = [u.pos[i] for i in models]
    pts = geom.as_array(starts) + vec
    new = tuple((float(x), float(y)) for x, y in pts)
    if move_problems(w, uid, new, models, starts, allowance, dash):
        return None
    return new


def mover_models(w: Work, uid: int, dash: bool) -> tuple[list[int], list[int]]:
    """(models free to move, models that must stay: Battle/Heavy users in a Dash, §5.1)."""
    u = w.units[uid]
    free: list[int] = []
    stay: list[int] = []
    for i in u.present():
        (stay if dash and (u.heavy[i] or u.battle[i]) else free).append(i)
    return free, stay


#: The shares of the full straight move toward a point (the allowance, or the distance when
#: nearer) the planner tries, longest first, before it goes round (:func:`plan_towards`;
#: ``preview_why`` asks the engine's check about the same lengths).
STRAIGHT_SHARES = (1.0, 0.8, 0.6, 0.45, 0.3, 0.15)


def plan_towards(
    w: Work, uid: int, to: Point, allowance: float, dash: bool, route: bool = False
) -> tuple[Point, ...]:
    """Automated Move/Dash toward a point: the largest legal straight translation of the
    formation (fractions of the full distance), models that may not move stay put. With
    ``route`` (the engine's ``Move(to=...)``), when none is legal the unit goes round along the
    board's path (``game.route_move``, issue 10) before the Move is refused (§4.7)."""
    return _plan_towards(w, uid, to, allowance, dash, route)[0]


def _plan_towards(
    w: Work, uid: int, to: Point, allowance: float, dash: bool, route: bool = False
) -> tuple[tuple[Point, ...], bool]:
    """:func:`plan_towards`, and whether its positions were found legal (:func:`_legal`):
    False where no model moves (the caller checks those)."""
    u = w.units[uid]
    models = u.present()
    free, _stay = mover_models(w, uid, dash)
    if not free:  # no model may move (every one used a Battle or Heavy weapon, §5.1)
        return tuple(u.pos[i] for i in models), False
    # the way in Python floats: the very subtractions, products and quotients NumPy made of
    # them (``np.hypot`` kept: libm's, issue 10, session 33)
    cx, cy = w.centre_xy(uid, free) or (math.nan, math.nan)
    vx, vy = float(to[0]) - cx, float(to[1]) - cy
    dist = float(np.hypot(vx, vy))
    if dist < 1e-9:
        return tuple(u.pos[i] for i in models), False
    ux, uy = vx / dist, vy / dist
    full = min(dist, float(allowance))
    fracs = STRAIGHT_SHARES
    vecs = [(ux * full * frac, uy * full * frac) for frac in fracs]
    # the fractions that certainly fail are known at once (the same positions as below)
    starts = geom.as_array([u.pos[i] for i in models])
    fs = set(free)
    rejected: list[bool]
    if crosses_units(w, uid):  # flight, Terrain units, Incorporeal: only the true check
        rejected = [False] * len(vecs)
    elif bases.shaped(w.setup):  # oval and rectangular bases (§1.3): their outlines
        shift = np.asarray([i in fs for i in models], dtype=bool)[None, :, None]
        cands = np.where(shift, starts[None] + np.asarray(vecs)[:, None, :], starts[None])
        rejected = clearly_illegal(w, uid, starts, cands).tolist()
    else:
        way = (ux, uy)
        moving = [k for k, i in enumerate(models) if i in fs]
        rejected = clearly_blocked_translations(
            w, uid, starts, moving, way, [full * frac for frac in fracs]
        )
    for vec, no in zip(vecs, rejected, strict=True):
        if no:
            continue
        moved = _rigid_subset(w, uid, vec, allowance, dash, models, free)
        if moved is not None:
            return moved, True
    if route:
        routed = route_towards(
            w, uid, to, allowance, models, free, lambda new: _legal(w, uid, new, allowance, dash)
        )
        if routed is not None:
            return routed, True
    if w.engaged_with(uid):
        _refuse_for_the_lock(w, uid, models, vecs, free, allowance, dash)
    raise err(
        f"{w.label(uid)} finds no clear path toward ({to[0]:.1f}, {to[1]:.1f})",
        "§4.7",
    )


def _refuse_for_the_lock(
    w: Work,
    uid: int,
    models: Sequence[int],
    vecs: Sequence[Point],
    free: Sequence[int],
    allowance: float,
    dash: bool,
) -> None:
    """A refused Move of a unit locked in a Melee: when one of the straight moves the planner
    tried breaks no rule of §4.1-4.7 and only leaves the Melee, raise §4.4's refusal (the unit
    keeps Base Contact with the units it is locked with, L2004-2012) instead of §4.7's "no
    clear path", which would name the wrong rule. Asked only once every way has been refused
    (session 32)."""
    u = w.units[uid]
    fs = set(free)
    before = [u.pos[i] for i in models]
    for vec in vecs:
        new = tuple(
            (u.pos[i][0] + float(vec[0]), u.pos[i][1] + float(vec[1])) if i in fs else u.pos[i]
            for i in models
        )
        if not move_problems(w, uid, new, models, before, allowance, dash):
            check_locked(w, uid, new)
            return


def _rigid_subset(
    w: Work,
    uid: int,
    vec: Point,
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
    return new if _legal(w, uid, new, allowance, dash) else None


def _legal(w: Work, uid: int, new: tuple[Point, ...], allowance: float, dash: bool) -> bool:
    """Whether the unit's present models may end a Move or Dash at ``new`` (§4.1-4.7, §4.2,
    the lock of a Melee, §4.4)."""
    u = w.units[uid]
    models = u.present()
    starts = [u.pos[i] for i in models]
    if move_problems(w, uid, new, models, starts, allowance, dash):
        return False
    if w.engaged_with(uid):
        try:
            check_locked(w, uid, new)
        except RulesError:
            return False
    return True


def plan_engage(w: Work, uid: int, target: int, allowance: float, dash: bool) -> tuple[Point, ...]:
    """Automated charge (§4.3): bring the nearest model into Base Contact with the nearest
    model of ``target``; the rest of the unit follows as far as it legally can."""
    return _plan_engage(w, uid, target, allowance, dash)[0]


def _plan_engage(
    w: Work, uid: int, target: int, allowance: float, dash: bool
) -> tuple[tuple[Point, ...], bool]:
    """:func:`plan_engage`, and that its positions were found legal (``move_problems`` of the
    unit's present models from where they stand: the question :func:`verify_move` asks)."""
    if not 0 <= target < len(w.units) or not w.enemies(uid, target):
        raise err(f"unit {target} is not an enemy unit", "§4.3")
    if w.units[target].location is not Location.TABLE:
        raise err(f"{w.label(target)} is not on the battlefield", "§4.3")
    info = w.info(uid)
    u = w.units[uid]
    models = u.present()
    free, _stay = mover_models(w, uid, dash)
    if not free:
        raise err(f"no model of {info.label} may {'Dash' if dash else 'Move'}", "§5.1 Type")
    a = w.xy(uid, free)
    b = w.xy(target)
    rt = w.info(target).radius
    if bases.shaped(w.setup):  # oval and rectangular bases: along the closest points (§1.3)
        d, dirs = bases.closest_vectors(w, uid, a, free, target)
    else:
        d, dirs = geom.edge_distances(a, info.radius, b, rt), None
    order = np.argsort(d, axis=None)
    starts = [u.pos[i] for i in models]
    tried = 0
    # the moves of each free model by each share of a try that certainly fail are known at
    # once (``move_prefilter``): their own checks are not asked (the same positions, issue 10)
    plain = dirs is None and plain_mover(w, uid)
    col = {m: c for c, m in enumerate(free)}
    everyone = range(len(free))
    for flat in order[:6]:
        i, j = divmod(int(flat), d.shape[1])
        need = float(d[i, j]) - CONTACT / 2
        if need > allowance + 1e-6:
            break
        tried += 1
        pa = a[i]
        pb = b[j]
        direction = pb - pa if dirs is None else dirs[i, j]
        norm = float(np.hypot(*direction))
        if norm < 1e-9:
            continue
        vec = direction / norm * max(0.0, need)
        lead = free[i]
        no = clearly_blocked_each(w, uid, a, everyone, _SHARES[:, None] * vec) if plain else None
        if no is not None and no[0][i]:
            continue  # the lead's own move fails, and so does every formation with it
        # first the whole formation, then the others shortened one by one
        new = list(starts)
        for k, m in enumerate(models):
            if m in free:
                new[k] = (starts[k][0] + float(vec[0]), starts[k][1] + float(vec[1]))
        first = tuple(new)
        if (no is None or not any(no[0])) and move_problems(
            w, uid, first, models, starts, allowance, dash
        ) is None:
            return first, True
        # shorten followers that collide, keep the lead at full length
        for k, m in enumerate(models):
            if m == lead or m not in free:
                continue
            ok = False
            for f, frac in enumerate(_FOLLOW):
                if no is not None and f < len(_SHARES) and no[f][col[m]]:
                    continue
                cand = (starts[k][0] + float(vec[0]) * frac, starts[k][1] + float(vec[1]) * frac)
                if move_problems(
                    w, uid, (cand,), (m,), (starts[k],), allowance, dash, ignore=()
                ) is None and not overlaps_list(cand, info.radius, new, k):
                    new[k] = cand
                    ok = True
                    break
            if not ok:
                new[k] = starts[k]
        if tuple(new) == first:
            continue  # the very formation refused above
        if move_problems(w, uid, tuple(new), models, starts, allowance, dash) is None:
            return tuple(new), True
    if not tried:
        raise err(
            f'{w.label(target)} is out of reach: {float(d.min()):.1f}" away, '
            f'{"Dash" if dash else "Move"} {allowance}"',
            "§4.1",
        )
    raise err(f"{info.label} finds no legal way into contact with {w.label(target)}", "§4.3")


#: The shares of the way a follower of an automated charge tries (:func:`plan_engage`), and
#: those that move it (checked all at once first).
_FOLLOW = (1.0, 0.75, 0.5, 0.25, 0.0)
_SHARES = np.asarray(_FOLLOW[:4])


def apply_move(w: Work, plan: MovePlan) -> None:
    uid = plan.uid
    what = "Dash" if plan.dash else "Move"
    if w.hooks.active(Hook.BEFORE_MOVE):
        w.hooks.fire(Hook.BEFORE_MOVE, w, unit=uid, dash=plan.dash)
    u = w.units[uid]
    flag = {"unit_dashed": True} if plan.dash else {"unit_moved": True}
    if plan.reserve:  # Rift Gate (Perks L1384)
        w.set_unit(uid, **flag)
        enter_reserve(w, uid)
        return
    if plan.embark is not None:
        moved = tuple(True if not r else m for m, r in zip(u.moved, u.removed, strict=True))
        w.set_unit(uid, location=Location.EMBARKED, embarked_in=plan.embark, moved=moved, **flag)
        verb = "moves into" if not plan.disembark else "moves on into"
        w.emit("embark", f"{w.label(uid)} {verb} {w.label(plan.embark)} ({what})", "§6.2", unit=uid)
        if perk_crew.crew_iii(w.setup) or hijackers(w.setup):  # Crew III, Hijack (L1194, L1298)
            perk_crew.after_embark(w, uid, plan.embark)
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
        engage_new_contacts(w, uid)
        return
    starts = plan.starts or ()
    moved_list = list(u.moved)
    longest = 0.0
    turn = {"facing": plan.facing} if plan.facing else {}  # a Move that turns (§1.3)
    for i, s, p in zip(plan.models, starts, plan.positions, strict=True):
        if s != p or (turn and plan.facing[i] != bases.facing_of(w, uid, i)):
            moved_list[i] = True
            longest = max(longest, math.dist(s, p))
    crossed = dangerous_crossings(w, uid, plan.models, starts, plan.positions, plan.facing)
    w.set_unit(
        uid,
        pos=full_positions(u, plan.models, plan.positions),
        moved=tuple(moved_list),
        **flag,
        **turn,
    )
    w.emit(
        "move",
        move_words(w.label(uid), what, longest, unit_allowance(w, uid, plan.dash), bool(turn)),
        "§4.1",
        unit=uid,
        distance=round(longest, 3),
    )
    for name, models in crossed.items():
        dangerous_ground(w, uid, models, name)
    if juggernaut(w.info(uid).unit.profile.perks):  # Perks L2112: terrain passed through
        from warbench.rulesets.warsurge.game.perk_juggernaut import smash_terrain

        smash_terrain(
            w, uid, [(s, p) for s, p in zip(starts, plan.positions, strict=True) if s != p]
        )
    if perk_velocity.wielder(w, uid):  # Perks L4103: Velocity's Power and line of travel
        perk_velocity.velocity_after_move(
            w, uid, [(s, p) for s, p in zip(starts, plan.positions, strict=True) if s != p]
        )
    engage_new_contacts(w, uid)
    if w.hooks.active(Hook.AFTER_MOVE):
        w.hooks.fire(Hook.AFTER_MOVE, w, unit=uid, dash=plan.dash, distance=longest)


def _on_piece(w: Work, name: str, points: Sequence[Point], r: float) -> bool:
    """Whether a base at one of ``points`` touches the terrain piece ``name``."""
    import shapely

    piece = next(t for t in w.field.board.terrain if t.name == name)
    poly = shapely.Polygon(piece.polygon)
    return any(poly.distance(shapely.Point(q)) <= r for q in points)


#: :func:`dangerous_bounds` by Field, kept only while the Field lives (as ``terrain_field``'s
#: Fields: a process playing game after game keeps no finished game's Field; s36-review)
_DANGER_BOUNDS: weakref.WeakKeyDictionary[Field, tuple[tuple[float, float, float, float], ...]]
_DANGER_BOUNDS = weakref.WeakKeyDictionary()


def dangerous_bounds(field: Field) -> tuple[tuple[float, float, float, float], ...]:
    """The bounds (min x, min y, max x, max y) of every piece of ``field`` named as Dangerous
    Ground (§4.6; a piece sharing such a name too, as the Field's answers are by name), worked
    out once per Field."""
    hit = _DANGER_BOUNDS.get(field)
    if hit is not None:
        return hit
    names = set(field.dangerous_names)
    out = []
    for t in field.board.terrain:
        if t.name in names:
            xs = [float(p[0]) for p in t.polygon]
            ys = [float(p[1]) for p in t.polygon]
            out.append((min(xs), min(ys), max(xs), max(ys)))
    bounds = _DANGER_BOUNDS[field] = tuple(out)
    return bounds


def near_bounds(boxes: Sequence[tuple[float, float, float, float]], p: Point, r: float) -> bool:
    """Whether a round base of radius ``r`` at ``p`` may overlap a piece with one of these
    bounds: its square (widened by 1e-6 inch) meets them. A base that overlaps a piece lies
    within ``r`` of it, so within its bounds widened by ``r``; the converse need not hold."""
    m = r + 1e-6
    x, y = float(p[0]), float(p[1])
    for x0, y0, x1, y1 in boxes:  # noqa: SIM110 (a loop: no generator made at every base)
        if x0 - m <= x <= x1 + m and y0 - m <= y <= y1 + m:
            return True
    return False


def path_near_bounds(
    boxes: Sequence[tuple[float, float, float, float]], start: Point, end: Point, r: float
) -> bool:
    """Whether a round base of radius ``r`` moving straight from ``start`` to ``end`` may cross
    a piece with one of these bounds: the box of its way (widened by ``r`` and 1e-6 inch)
    meets them. What the way crosses lies within ``r`` of it, so within that box (the Field's
    own first test, ``Field.path``, with ``r``)."""
    m = r + 1e-6
    ax, ay, bx, by = float(start[0]), float(start[1]), float(end[0]), float(end[1])
    lo_x, hi_x = (ax, bx) if ax <= bx else (bx, ax)
    lo_y, hi_y = (ay, by) if ay <= by else (by, ay)
    for x0, y0, x1, y1 in boxes:
        if x0 - m <= hi_x and lo_x <= x1 + m and y0 - m <= hi_y and lo_y <= y1 + m:
            return True
    return False


def dangerous_crossings(
    w: Work,
    uid: int,
    models: Sequence[int],
    starts: Sequence[Point],
    positions: Sequence[Point],
    facing: Sequence[float] | None,
) -> dict[str, list[int]]:
    """The Dangerous Ground (§4.6) each model of a Move crosses, by piece: the models whose
    path (or turn, §1.3) crosses it, as :func:`apply_move` rolls for them and the preview
    names them. A Jumper only where it starts or ends (Perks L2126); none under Traverse II
    (L2166) or Courage this Game Turn (L707)."""
    info = w.info(uid)
    if ignores_dangerous(info.unit.profile.perks) or perk_effects.ignores_ground(
        w.units[uid].statuses
    ):
        return {}
    jumps = flight(info.unit.profile.perks) == "jumper"
    crossed: dict[str, list[int]] = {}
    # a round base's way whose box meets no Dangerous piece's bounds crosses none: not asked
    # (issue 10, session 36)
    boxes = dangerous_bounds(w.field) if info.base is None else None
    for i, s, p in zip(models, starts, positions, strict=True):
        if s == p and not (facing and facing[i] != bases.facing_of(w, uid, i)):
            continue
        if boxes is not None and not path_near_bounds(boxes, s, p, info.radius):
            continue
        crossing = (
            bases_ground.path(w, uid, s, p, bases.facing_of(w, uid, i), facing[i])
            if facing and info.base is not None
            else bases_ground.model_path(w, uid, i, s, p)
        )
        for name in crossing.dangerous:
            if jumps and not _on_piece(w, name, (s, p), info.radius):
                continue  # Jumper (Perks L2126): only where it starts or ends
            crossed.setdefault(name, []).append(i)
    return crossed


def dangerous_ground(w: Work, uid: int, models: list[int], terrain: str) -> None:
    """§4.6: each model that crossed rolls; casualties are removed at once."""
    if w.units[uid].statuses and perk_incorporeal.immune(w, uid, None):
        return  # Incorporeal (Perks L2467): "immune to all damage"
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
            in_effect(w, uid, AttackContext(los_models=frozenset(models))),  # Perks L1154
            weapons=(danger.name,),
            users=((danger.name, len(models)),),
        )
        res = resolve_attack(plan, w.dice)
        after_share(w, uid, None, res.combat_damage)  # Combat Damage (Perks L1154)
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
        w.hooks.fire(Hook.HP_LOST, w, unit=uid, amount=lost_total, source=terrain, attacker=None)
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
