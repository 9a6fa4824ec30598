"""HP loss and casualties, coherency afterwards, ending a Melee.

Core Rules 001_d3f5e425c5e1196d.txt §5.11 (HP loss & casualties), §5.12 (multiple-HP models), §5.13
(line of sight and selecting casualties), §5.14 (ending a Melee: units restore Base Contact), §5.15
(targeting units that have casualties: they are removed at the end of the Attack Phase), §4.2
(coherency restored after removals) and §6.6 (a destroyed Transport's passengers are placed where
it stood).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Sequence

import numpy as np

from warbench.rulesets.warsurge.game import geom
from warbench.rulesets.warsurge.game.actions import (
    Casualties,
    Point,
    Restore,
)
from warbench.rulesets.warsurge.game.coherency import full_positions, problem_positions
from warbench.rulesets.warsurge.game.geom import CONTACT, OVERLAP_TOL, FloatArray
from warbench.rulesets.warsurge.game.melee import clear_melee_statuses, engage_new_contacts
from warbench.rulesets.warsurge.game.state import (
    Automation,
    CoherencyPause,
    Location,
)
from warbench.rulesets.warsurge.game.work import Work, err


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
    engage_new_contacts(w, uid)


def restore_coherency(w: Work, uid: int) -> None:
    """§4.2 IV: the least number of models move the minimum distance to rejoin the largest
    group (not a Move or Dash)."""
    restored = coherency_restored(w, uid)
    if restored is None:
        return
    pos, moved = restored
    w.set_unit(uid, pos=pos)
    w.emit(
        "coherency",
        f"{w.label(uid)}: {moved} models moved to restore Coherency",
        "§4.2 IV",
        unit=uid,
    )


def out_of_coherency(w: Work, uid: int) -> bool:
    """The unit is on the battlefield with models not in one coherent group (§4.2)."""
    u = w.units[uid]
    if u.location is not Location.TABLE or len(u.present()) <= 1:
        return False
    return not geom.coherent(w.xy(uid), w.info(uid).radius)


def coherency_restored(w: Work, uid: int) -> tuple[tuple[Point, ...], int] | None:
    """The engine's restoration (§4.2 IV): every model's position afterwards and how many
    moved; None when the unit is coherent (or not on the battlefield)."""
    if not out_of_coherency(w, uid):
        return None
    u = w.units[uid]
    present = u.present()
    info = w.info(uid)
    r = info.radius
    xy = w.xy(uid)
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
    return tuple(pos), moved


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


def end_attack_phase(w: Work, may_wait: bool = False) -> bool:
    """§5.11, §5.14, §4.2 IV, §4.4 III, §6.6: remove casualties, place the passengers of
    destroyed Transports, restore coherency and base contact, end finished Melees.

    With ``may_wait`` (the Standard Attack Phase) and without ``Automation.COHERENCY``, units
    left out of Coherency are their controllers' to restore: the phase waits
    (``w.restore``, a :class:`Restore` per unit) and False is returned; the rest of the
    phase follows the last one (:func:`apply_restore`). True when the phase has ended."""
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
    if may_wait and Automation.COHERENCY not in w.setup.automation:
        waiting = tuple(uid for uid in sorted(counts) if out_of_coherency(w, uid))
        if waiting:
            w.restore = CoherencyPause(
                waiting, tuple(sorted(counts.items())), copy.deepcopy(w.dice)
            )
            _ask_restore(w)
            return False
    for uid in sorted(counts):
        restore_coherency(w, uid)
    _after_coherency(w, counts)
    return True


def _ask_restore(w: Work) -> None:
    p = w.restore
    assert p is not None
    uid = p.units[0]
    w.emit(
        "restore coherency",
        f"{w.label(uid)} is out of Coherency after its casualties: "
        f"{w.side_name(w.info(uid).side)} moves its models back",
        "§4.2 IV",
        unit=uid,
    )


def verify_restore(w: Work, action: Restore) -> None:
    """The positions that restore a unit's Coherency (§4.2 IV): one for every model on the
    battlefield, each a legal spot (on the battlefield, off Impassable Ground, overlapping no
    base), the unit in one coherent group, moving no more models than the engine's own
    restoration (the least number, L1930-1932; the distance is the player's, see
    docs/rulings.md)."""
    p = w.restore
    if p is None:
        raise err("no unit waits to restore its Coherency", "§4.2 IV")
    uid = p.units[0]
    if action.unit != uid:
        raise err(
            f"{w.label(uid)} (unit {uid}) restores its Coherency now, not unit {action.unit}",
            "§4.2 IV",
        )
    present = w.units[uid].present()
    if len(action.positions) != len(present):
        raise err(
            f"{w.label(uid)} has {len(present)} models on the battlefield; "
            f"{len(action.positions)} positions given",
            "§4.2 IV",
        )
    prob = problem_positions(w, uid, action.positions, present, None, None, False)
    if prob:
        raise err(*prob)
    # "you must move the least number of models" (L1930-1932): no more than the engine's
    # restoration moves (a valid one, so at least as many as the least)
    u = w.units[uid]
    restored = coherency_restored(w, uid)
    least = restored[1] if restored is not None else 0
    moved = sum(1 for i, q in zip(present, action.positions, strict=True) if q != u.pos[i])
    if moved > least:
        raise err(
            f"restoring the Coherency of {w.label(uid)} moves the least number of models: "
            f"{least} suffice, {moved} would move",
            "§4.2 IV",
        )


def default_restore(w: Work) -> Restore:
    """The engine's own restoration of the waiting unit (the fewest models, the least
    distance, §4.2 IV), as the action a player would give."""
    p = w.restore
    if p is None:
        raise err("no unit waits to restore its Coherency", "§4.2 IV")
    uid = p.units[0]
    present = w.units[uid].present()
    restored = coherency_restored(w, uid)
    pos = w.units[uid].pos if restored is None else restored[0]
    return Restore(uid, tuple(pos[i] for i in present))


def apply_restore(w: Work, action: Restore) -> bool:
    """Place the models; then the next unit waits, or the rest of the phase follows on the
    step's own dice (True: the Attack Phase has ended)."""
    p = w.restore
    assert p is not None
    uid = action.unit
    u = w.units[uid]
    present = u.present()
    new = full_positions(u, present, action.positions)
    moved = sum(1 for i in present if new[i] != u.pos[i])
    w.set_unit(uid, pos=new)
    w.emit(
        "coherency",
        f"{w.label(uid)}: {moved} models moved to restore Coherency",
        "§4.2 IV",
        unit=uid,
    )
    w.use_dice(copy.deepcopy(p.dice))
    rest = tuple(x for x in p.units[1:] if out_of_coherency(w, x))
    if rest:
        w.restore = CoherencyPause(rest, p.counts, p.dice)
        _ask_restore(w)
        return False
    w.restore = None
    _after_coherency(w, dict(p.counts))
    return True


def _after_coherency(w: Work, counts: dict[int, int]) -> None:
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
            engage_new_contacts(w, uid)
    clear_melee_statuses(w)


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
    if problem_positions(w, mover, newt, present, None, None, False) is None:
        w.set_unit(mover, pos=full_positions(u, present, newt))
        w.emit(
            "contact",
            f"{info.label} shifts back into Base Contact with {w.label(foe)}",
            "§4.4 III",
            unit=mover,
        )
        return True
    return False


def verify_casualties(w: Work, action: Casualties) -> None:
    """The casualties chosen for the waiting Attack (§5.11): models of the target unit that
    may lose its HP (alive, and in line of sight of the attacker unless in a Melee, §5.13),
    each named once."""
    p = w.pause
    if p is None:
        raise err("no Attack waits for casualties to be chosen", "§5.11")
    label = w.label(p.target)
    if action.unit != p.target:
        raise err(
            f"the Attack waits for the casualties of {label} (unit {p.target}), "
            f"not of unit {action.unit}",
            "§5.11",
        )
    if len(set(action.models)) != len(action.models):
        raise err(f"a model of {label} is named twice", "§5.11")
    allowed = set(p.candidates)
    for m in action.models:
        if m in allowed:
            continue
        u = w.units[p.target]
        if not 0 <= m < len(u.removed):
            why = f"{label} has no model {m} (models 0 to {len(u.removed) - 1})"
        elif u.removed[m] or u.hp[m] <= 0:
            why = f"model {m} of {label} is already a casualty"
        else:
            why = f"model {m} of {label} is not in line of sight of {w.label(p.attacker)} (§5.13)"
        raise err(f"{why}; it may be: {', '.join(map(str, p.candidates))}", "§5.11, §5.13")
