"""Melee: engaging in close combat and its effects on movement.

Core Rules 001_d3f5e425c5e1196d.txt §4.3 (engaging: Base Contact with an enemy model locks both
units in a Melee), §4.4 (a unit in a Melee may only move to keep or gain contact; III: Base
Contact restored after casualties, the ``BaseContact`` decision), and the Clash/Melee-use
statuses that end with the Attack Phase (§5.8-5.9, Perks).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from warbench.rulesets.warsurge.game import bases, bases_moves, geom, perk_incorporeal
from warbench.rulesets.warsurge.game.actions import (
    BaseContact,
    Point,
)
from warbench.rulesets.warsurge.game.coherency import (
    check_unit_positions,
    full_positions,
    problem_positions,
)
from warbench.rulesets.warsurge.game.geom import CONTACT, OVERLAP_TOL
from warbench.rulesets.warsurge.game.state import (
    Location,
    Status,
)
from warbench.rulesets.warsurge.game.terrain_split import split_refusal
from warbench.rulesets.warsurge.game.work import Work, clash_status, err, perks_of


def check_locked(w: Work, uid: int, new: Sequence[Point]) -> None:
    """§4.4 I-II: a unit in a Melee keeps Base Contact with the units it is locked with."""
    foes = w.engaged_with(uid)
    if not foes:
        return
    if any(s.name == "Disengage" for s in w.units[uid].statuses):
        return  # Perks L735 Disengage: "removes the Locked effect" (perk_aeonian.disengage)
    now = w.contacts(uid, geom.as_array(new))
    lost = [f for f in foes if f not in now]
    if lost:
        raise err(
            f"{w.label(uid)} is locked in a Melee and must keep Base Contact with "
            f"{', '.join(w.label(f) for f in lost)}",
            "§4.4",
        )


def engage_new_contacts(w: Work, uid: int) -> None:
    """§4.3: moving into Base Contact with an enemy unit locks both in a Melee."""
    if w.units[uid].location is not Location.TABLE or w.units[uid].wrecked:
        return
    for foe in sorted(w.contacts(uid)):
        if w.units[foe].statuses and w.units[foe].wrecked:
            continue  # Wreckage (Perks L1442) is terrain: in no Melee
        pair = (min(uid, foe), max(uid, foe))
        if (w.units[uid].statuses or w.units[foe].statuses) and not perk_incorporeal.may_lock(
            w, uid, foe
        ):
            continue  # Incorporeal (Perks L2476): passes through, no Melee
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


def clear_melee_statuses(w: Work) -> None:
    """A unit no longer in any Melee forgets its Melee's weapon uses and unused Clash."""
    for u in list(w.units):
        if not u.statuses or any(u.uid in pair for pair in w.engaged):
            continue
        kept = tuple(s for s in u.statuses if not s.name.startswith(("Melee use: ", "Clash: ")))
        if kept != u.statuses:
            w.set_unit(u.uid, statuses=kept)


def contact_placement(w: Work, mover: int, foe: int) -> tuple[tuple[Point, ...], int, bool] | None:
    """The engine's move of ``mover`` back into Base Contact with ``foe`` (§4.4 III, §5.11):
    one model (of the four closest pairs, at a few angles) placed in contact while the unit
    stays coherent, else the whole unit shifted toward the foe keeping its formation. Every
    model's position afterwards, how many moved and whether the whole unit shifted; None when
    neither works. Changes nothing."""
    info = w.info(mover)
    if info.immobile and not w.info(foe).immobile:
        return None
    if bases.shaped(w.setup):  # oval and rectangular bases (§1.3)
        return bases_moves.contact_placement(w, mover, foe)
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
            if u.inside:  # a split unit: its outside models keep Coherency with the piece
                if split_refusal(w, mover, [pos[i] for i in present]) is not None:
                    continue  # (L4460-4462; the 1000-game embarking run's fault, session 27)
            elif not geom.coherent(geom.as_array([pos[i] for i in present]), r):
                continue
            return tuple(pos), 1, False
    # the whole unit shifts toward the foe, keeping its formation
    k, j = divmod(int(np.argmin(d)), d.shape[1])
    gap = float(d[k, j]) - CONTACT / 2
    direction = b[j] - a[k]
    norm = float(np.hypot(*direction)) or 1.0
    vec = direction / norm * gap
    new_pts = a + vec
    newt = tuple((float(x), float(y)) for x, y in new_pts)
    if problem_positions(w, mover, newt, present, None, None, False) is None:
        return full_positions(u, present, newt), len(present), True
    return None


def contact_mover(w: Work, pair: tuple[int, int], counts: dict[int, int]) -> tuple[int, int]:
    """Which unit of a Melee that lost its Base Contact moves first (§4.4 III: the one that
    received the most casualties; Immobile units last; a tie: the engine takes the lower unit
    id where §5.11 would Roll-Off, see docs/rulings.md), and its foe."""
    a, b = pair
    first, second = (a, b) if counts.get(a, 0) >= counts.get(b, 0) else (b, a)
    if w.info(first).immobile:
        first, second = second, first
    return first, second


def engine_contact(
    w: Work, pair: tuple[int, int], counts: dict[int, int]
) -> tuple[int, int, tuple[tuple[Point, ...], int, bool]] | None:
    """The engine's restoration of one Melee's Base Contact: mover, foe and
    :func:`contact_placement` of the first unit that can move back (§4.4 III), None when
    neither can (the Melee ends, §5.14)."""
    first, second = contact_mover(w, pair, counts)
    for mover, foe in ((first, second), (second, first)):
        placed = contact_placement(w, mover, foe)
        if placed is not None:
            return mover, foe, placed
    return None


def set_contact(
    w: Work, mover: int, foe: int, pos: tuple[Point, ...], moved: int, shifted: bool = False
) -> None:
    """Place ``mover``'s models back into Base Contact with ``foe`` (and say so)."""
    w.set_unit(mover, pos=pos)
    if shifted:
        text = f"{w.label(mover)} shifts back into Base Contact with {w.label(foe)}"
    else:
        many = "1 model" if moved == 1 else f"{moved} models"
        text = f"{w.label(mover)}: {many} moved back into Base Contact with {w.label(foe)}"
    w.emit("contact", text, "§4.4 III", unit=mover)


def verify_base_contact(w: Work, action: BaseContact, mover: int, foe: int, least: int) -> None:
    """The positions that put ``mover`` back into Base Contact with ``foe`` (§4.4 III, §5.11):
    one for every model on the battlefield, each a legal spot (on the battlefield, off
    Impassable Ground, overlapping no base), the unit coherent ("while maintaining Coherency"),
    a model in Base Contact with the foe, and no more models moved than the engine's move
    (``least``: "place the minimum number of models"; the distance is the player's, see
    docs/rulings.md)."""
    if action.unit != mover or action.foe != foe:
        raise err(
            f"{w.label(mover)} (unit {mover}) moves back into Base Contact with "
            f"{w.label(foe)} (unit {foe}) now, not unit {action.unit} with unit {action.foe}",
            "§4.4 III",
        )
    _, moved = check_unit_positions(w, mover, action.positions, "§4.4 III")
    if foe not in w.contacts(mover, geom.as_array(action.positions)):
        raise err(
            f"no model of {w.label(mover)} would be in Base Contact with {w.label(foe)}",
            "§4.4 III",
        )
    if moved > least:
        raise err(
            f"restoring Base Contact moves the minimum number of models: {least} suffice, "
            f"{moved} would move",
            "§4.4 III, §5.11",
        )
