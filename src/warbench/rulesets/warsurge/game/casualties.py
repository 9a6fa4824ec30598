"""HP loss and casualties, coherency afterwards, ending a Melee.

Core Rules 001_d3f5e425c5e1196d.txt §5.11 (HP loss & casualties), §5.12 (multiple-HP models), §5.13
(line of sight and selecting casualties), §5.14 (ending a Melee: units restore Base Contact), §5.15
(targeting units that have casualties: they are removed at the end of the Attack Phase), §4.2
(coherency restored after removals) and §6.6 (a destroyed Transport's passengers are placed where
it stood). The placements the rules give to players (survivors, Coherency, Base Contact) wait
for them at the end of the Attack Phase when their automation is off (:func:`end_attack_phase`,
:func:`resume_placement`).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from warbench.rulesets.warsurge.game import bases, bases_moves, geom, perk_wreckage
from warbench.rulesets.warsurge.game.actions import (
    Action,
    BaseContact,
    Casualties,
    Point,
    Restore,
    Survivors,
)
from warbench.rulesets.warsurge.game.coherency import (
    check_unit_positions,
    full_positions,
    spot_clear,
)
from warbench.rulesets.warsurge.game.geom import OVERLAP_TOL, FloatArray
from warbench.rulesets.warsurge.game.melee import (
    clear_melee_statuses,
    engage_new_contacts,
    engine_contact,
    set_contact,
    verify_base_contact,
)
from warbench.rulesets.warsurge.game.pauses import CoherencyPause, Wreck
from warbench.rulesets.warsurge.game.perk_imprison import released_to_reserve
from warbench.rulesets.warsurge.game.state import Automation, Location
from warbench.rulesets.warsurge.game.terrain_split import (
    piece_of,
    settle,
    split_coherent,
    split_groups,
    standing_models,
    survivors_of,
)
from warbench.rulesets.warsurge.game.work import Work, err
from warbench.rulesets.warsurge.game.wrecks import survivor_spots, terrain_wrecks, verify_survivors


def remove_models(
    w: Work, uid: int, models: Sequence[int], why: str, wrecks: list[Wreck] | None = None
) -> None:
    """Remove models as casualties (§5.11); a unit left without models is destroyed
    (:func:`destroy_unit`, ``wrecks`` as there)."""
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
        destroy_unit(w, uid, wrecks)
    elif u.inside:
        settle(w, uid)  # a split unit with no model left on one side (L4459-4464)


def destroy_unit(w: Work, uid: int, wrecks: list[Wreck] | None = None) -> None:
    """The unit is destroyed; its passengers leave the wreck where it stood (§6.6), placed by
    the engine at once, or, given ``wrecks``, listed there to be placed by the caller (the end
    of the Attack Phase, where the placement is a decision); passengers of a Transport that
    was not on the battlefield are destroyed with it."""
    u = w.units[uid]
    was_table = u.location is Location.TABLE
    last_pos = [u.pos[i] for i in range(len(u.pos))] if u.pos else []
    if not perk_wreckage.stays(w, uid):  # Wreckage (Perks L1442): left as terrain
        w.set_unit(uid, location=Location.DESTROYED, embarked_in=None, terrain=None)
        w.engaged = {p for p in w.engaged if uid not in p}
        w.emit("destroyed", f"{w.label(uid)} is destroyed", "§5.11", unit=uid)
    for p in w.passengers(uid):
        if released_to_reserve(w, p):  # Imprison (Perks L847): into its own Reserve
            continue
        if was_table:
            wreck = Wreck(p, tuple(last_pos), w.info(uid).radius)
            if wrecks is None:
                place_survivors(w, wreck)
            else:
                wrecks.append(wreck)
        else:
            destroy_unit(w, p)


def place_survivors(w: Work, wreck: Wreck, wrecks: list[Wreck] | None = None) -> None:
    """§6.6: passengers of a destroyed Transport are placed where it stood, then in circles
    around (:func:`.wrecks.survivor_spots`); models that cannot be placed are removed as
    casualties (no Saves)."""
    settle_survivors(
        w, wreck, survivor_spots(w, wreck.unit, wreck.site, wreck.site_r, wreck.piece), wrecks
    )


def settle_survivors(
    w: Work, wreck: Wreck, placed: dict[int, Point], wrecks: list[Wreck] | None = None
) -> None:
    """The survivors stand at ``placed`` (model → position); every other model is removed
    (§6.6 "removed as casualties with no Saves"); then the unit's Coherency (§4.2 IV) and new
    Melees (§4.3), or its destruction when no model stands."""
    uid = wreck.unit
    info = w.info(uid)
    u = w.units[uid]
    pos = list(u.pos) if u.pos else [(0.0, 0.0)] * len(u.hp)
    removed = list(u.removed)
    hp = list(u.hp)
    lost = []
    for i in range(len(hp)):
        if i in placed:
            pos[i] = placed[i]
        elif not removed[i] and (not u.inside or i in u.inside):  # a split unit's rest stays
            removed[i] = True
            hp[i] = 0
            lost.append(i)
    w.set_unit(
        uid,
        location=Location.TABLE,
        embarked_in=None,
        terrain=None,
        inside=(),
        pos=tuple(pos),
        removed=tuple(removed),
        hp=tuple(hp),
    )
    w.emit(
        "survivors",
        f"{info.label} leaves "
        + (f"the ruins of {wreck.piece}" if wreck.piece else "the wreck")
        + f": {len(placed)} models placed, {len(lost)} lost",
        "§10.3, §6.6" if wreck.piece else "§6.6",
        unit=uid,
    )
    if all(removed):
        destroy_unit(w, uid, wrecks)
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
    engage_new_contacts(w, uid)  # §4.3: a model moved into Base Contact locks a Melee


def out_of_coherency(w: Work, uid: int) -> bool:
    """The unit is on the battlefield with models not in one coherent group (§4.2)."""
    u = w.units[uid]
    if u.location is Location.TABLE and u.inside:  # split: linked to its piece (L4460)
        return not split_coherent(w, uid)
    if u.location is not Location.TABLE or len(u.present()) <= 1:
        return False
    if w.info(uid).base is not None:  # oval and rectangular bases (§1.3, game/bases.py)
        return not bases.coherent(w, uid)
    return not geom.coherent(w.xy(uid), w.info(uid).radius)


def coherency_restored(w: Work, uid: int) -> tuple[tuple[Point, ...], int] | None:
    """The engine's restoration (§4.2 IV): every model's position afterwards and how many
    moved; None when the unit is coherent (or not on the battlefield)."""
    if not out_of_coherency(w, uid):
        return None
    if w.info(uid).base is not None:  # oval and rectangular bases (§1.3)
        return bases_moves.restore_coherency(w, uid)
    u = w.units[uid]
    present = u.present()
    info = w.info(uid)
    r = info.radius
    moved = 0
    if u.inside:  # a split unit: its groups linked to the piece stay (L4460-4462)
        main, strays, pos, moved = split_groups(w, uid)
    else:
        comps = geom.groups(w.xy(uid), r)
        main = [present[k] for k in comps[0]]
        strays = [present[k] for c in comps[1:] for k in c]
        pos = list(u.pos)
    t = w.table()
    mask = t.uid != uid
    oxy, orad = t.xy[mask], t.r[mask]
    while strays:
        # the stray closest to the main group goes first
        mxy = geom.as_array([pos[i] for i in main])
        sxy = geom.as_array([pos[i] for i in strays])
        d = geom.edge_distances(sxy, r, mxy, r)
        k, j = divmod(int(np.argmin(d)), d.shape[1])
        i = strays.pop(k)
        anchor = mxy[j]
        # clear of every other model of the unit: the strays not moved yet too (one may join
        # the group where it stands, and must not be stood on)
        taken = [*main, *strays]
        spot = _near_spot(w, anchor, r, pos, taken, oxy, orad, prefer=np.asarray(pos[i]))
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
            if not spot_clear(w, s, r, oxy, orad, (pos[m] for m in main)):
                continue
            cost = math.dist(s, (float(prefer[0]), float(prefer[1])))
            if best is None or cost < best[0]:
                best = (cost, s)
        if best is not None:
            return best[1]
    return None


def end_attack_phase(w: Work, may_wait: bool = False) -> bool:
    """§5.11, §5.14, §4.2 IV, §4.4 III, §6.6: remove casualties, place the passengers of
    destroyed Transports, restore coherency and base contact, end finished Melees (the end of
    the Standard Attack Phase, or of an Advanced Attack Action, §9.1 IV).

    With ``may_wait``, the placements the rules give to players wait for them when their
    automation is off: a wreck's survivors (``Automation.MODEL_PLACEMENT``, ``Survivors``), a
    unit out of Coherency (``Automation.COHERENCY``, ``Restore``), a Melee that lost its Base
    Contact (``Automation.COHERENCY``, ``BaseContact``). The phase waits (``w.restore``, one
    unit at a time) and False is returned; :func:`resume_placement` goes on from there. True
    when every step has been taken."""
    counts: dict[int, int] = {}
    for u in list(w.units):
        if u.location not in (Location.TABLE, Location.EMBARKED, Location.TERRAIN):
            continue
        cas = [i for i in standing_models(u) if u.hp[i] <= 0]  # a split unit's too (L4460)
        if cas:
            counts[u.uid] = len(cas)
    # passengers first (§6.6 "after applying damage to passengers"), then the rest
    order = sorted(counts, key=lambda x: (w.units[x].location is not Location.EMBARKED, x))
    # the units inside a destroyed terrain piece leave it first (§10.3 with §6.6)
    return _removals(w, tuple(sorted(counts.items())), terrain_wrecks(w), order, may_wait)


def _wait(w: Work, pause: CoherencyPause) -> bool:
    w.restore = replace(pause, dice=copy.deepcopy(w.dice))
    _ask(w)
    return False


def _removals(
    w: Work,
    counts: tuple[tuple[int, int], ...],
    wrecks: list[Wreck],
    removals: list[int],
    may_wait: bool,
) -> bool:
    """Remove the casualties of ``removals`` in order, each wreck's survivors placed before
    the next removal (in the order the engine placed them: a wreck inside a wreck first)."""
    ask = may_wait and Automation.MODEL_PLACEMENT not in w.setup.automation
    while wrecks or removals:
        if wrecks:
            wreck = wrecks[0]
            if ask and w.units[wreck.unit].living():
                return _wait(
                    w,
                    CoherencyPause(
                        (wreck.unit,),
                        counts,
                        None,
                        stage="survivors",
                        removals=tuple(removals),
                        wrecks=tuple(wrecks),
                    ),
                )
            del wrecks[0]
            inner: list[Wreck] = []
            place_survivors(w, wreck, inner)
            wrecks[:0] = inner
            continue
        uid = removals.pop(0)
        u = w.units[uid]
        if u.location in (Location.TABLE, Location.EMBARKED, Location.TERRAIN):
            cas = [i for i in standing_models(u) if u.hp[i] <= 0]
            if cas:
                remove_models(w, uid, cas, "casualties of the Attack Phase", wrecks)
    return _coherency_stage(w, counts, may_wait)


def _coherency_stage(w: Work, counts: tuple[tuple[int, int], ...], may_wait: bool) -> bool:
    if may_wait and Automation.COHERENCY not in w.setup.automation:
        waiting = tuple(uid for uid, _ in counts if out_of_coherency(w, uid))
        if waiting:
            return _wait(w, CoherencyPause(waiting, counts, None))
    for uid, _ in counts:
        restore_coherency(w, uid)
    return _contact_stage(w, counts, None, may_wait)


def _contact_stage(
    w: Work,
    counts: tuple[tuple[int, int], ...],
    pairs: list[tuple[int, int]] | None,
    may_wait: bool,
) -> bool:
    """Base Contact (§4.4 III, §5.11): most casualties first, Immobile units last; a Melee
    whose units can no longer reach each other ends (§5.14). Then new contacts are Melees."""
    cmap = dict(counts)
    if pairs is None:
        pairs = sorted(w.engaged, key=lambda p: -max(cmap.get(p[0], 0), cmap.get(p[1], 0)))
    ask = may_wait and Automation.COHERENCY not in w.setup.automation
    while pairs:
        a, b = pairs[0]
        if (a, b) not in w.engaged or _inside_together(w, a, b) or b in w.contacts(a):
            del pairs[0]
            continue
        found = engine_contact(w, (a, b), cmap)
        if found is None:
            del pairs[0]
            w.engaged.discard((a, b))
            w.emit(
                "melee_end",
                f"{w.label(a)} and {w.label(b)} can no longer reach each other; their Melee ends",
                "§5.14",
            )
            continue
        mover, foe, (pos, moved, shifted) = found
        if ask:
            return _wait(
                w, CoherencyPause((mover,), counts, None, stage="contact", pairs=tuple(pairs))
            )
        del pairs[0]
        set_contact(w, mover, foe, pos, moved, shifted)
    swept = w.contact_map()  # engaging moves no model: one sweep answers every unit
    for uid in range(len(w.units)):
        if w.units[uid].location is Location.TABLE:
            engage_new_contacts(w, uid, swept)
    clear_melee_statuses(w)
    return True


def _inside_together(w: Work, a: int, b: int) -> bool:
    """Both units are inside the same terrain piece: their Melee needs no Base Contact
    (§10.2 L4441-4447, "count as being engaged in a Melee")."""
    pa = piece_of(w.units[a])  # wholly or in part (L4459-4468)
    return pa is not None and pa == piece_of(w.units[b])


def _ask(w: Work) -> None:
    p = w.restore
    assert p is not None
    uid = p.units[0]
    who = w.side_name(w.info(uid).side)
    if p.stage == "survivors":
        text = f"{w.label(uid)} leaves a destroyed Transport: {who} places its survivors"
        rule = "§6.6"
    elif p.stage == "contact":
        foe = _contact_foe(p)
        text = (
            f"{w.label(uid)} lost Base Contact with {w.label(foe)}: {who} moves models back "
            "into Base Contact"
        )
        rule = "§4.4 III"
    else:
        text = (
            f"{w.label(uid)} is out of Coherency after its casualties: {who} moves its models back"
        )
        rule = "§4.2 IV"
    w.emit(f"{_STAGE_EVENTS[p.stage]}", text, rule, unit=uid)


_STAGE_EVENTS = {
    "survivors": "place survivors",
    "coherency": "restore coherency",
    "contact": "restore contact",
}

#: the action each stage waits for, and how a refusal names it
_STAGE_ACTIONS: dict[str, tuple[type, str, str]] = {
    "survivors": (Survivors, "place the survivors of", "§6.6"),
    "coherency": (Restore, "restore the Coherency of", "§4.2 IV"),
    "contact": (BaseContact, "move back into Base Contact", "§4.4 III"),
}


def _contact_foe(p: CoherencyPause) -> int:
    a, b = p.pairs[0]
    return b if p.units[0] == a else a


def verify_placement(w: Work, action: Action) -> None:
    """The waiting placement's own action, checked (``w.restore`` is set): ``Survivors``
    (§6.6), ``Restore`` (§4.2 IV) or ``BaseContact`` (§4.4 III); anything else is refused
    naming what waits."""
    p = w.restore
    assert p is not None
    kind, verb, rule = _STAGE_ACTIONS[p.stage]
    uid = p.units[0]
    if not isinstance(action, kind):
        who = w.side_name(w.info(uid).side)
        what = (
            f"{w.label(uid)} ({verb} {w.label(_contact_foe(p))})"
            if p.stage == "contact"
            else f"{verb} {w.label(uid)}"
        )
        raise err(f"{who} must first {what}", rule)
    if isinstance(action, Restore):
        verify_restore(w, action)
    elif isinstance(action, Survivors):
        engine = default_placement(w)
        assert isinstance(engine, Survivors)
        verify_survivors(w, action, p.wrecks[0], engine)
    elif isinstance(action, BaseContact):
        found = engine_contact(w, p.pairs[0], dict(p.counts))
        assert found is not None and found[0] == uid
        verify_base_contact(w, action, uid, found[1], found[2][1])


def refuse_unasked(action: Action) -> None:
    """``Restore``, ``Survivors`` and ``BaseContact`` answer a waiting placement only."""
    for kind, _verb, rule in _STAGE_ACTIONS.values():
        if isinstance(action, kind):
            raise err(f"no unit waits to {_verb.removesuffix(' of')}", rule)


def verify_restore(w: Work, action: Restore) -> None:
    """The positions that restore a unit's Coherency (§4.2 IV): one for every model on the
    battlefield, each a legal spot (on the battlefield, off Impassable Ground, overlapping no
    base), the unit in one coherent group, moving no more models than the engine's own
    restoration (the least number, L1930-1932; the distance is the player's, see
    docs/rulings.md)."""
    p = w.restore
    if p is None or p.stage != "coherency":
        raise err("no unit waits to restore its Coherency", "§4.2 IV")
    uid = p.units[0]
    if action.unit != uid:
        raise err(
            f"{w.label(uid)} (unit {uid}) restores its Coherency now, not unit {action.unit}",
            "§4.2 IV",
        )
    _, moved = check_unit_positions(w, uid, action.positions, "§4.2 IV")
    # "you must move the least number of models" (L1930-1932): no more than the engine's
    # restoration moves (a valid one, so at least as many as the least)
    restored = coherency_restored(w, uid)
    least = restored[1] if restored is not None else 0
    if moved > least:
        raise err(
            f"restoring the Coherency of {w.label(uid)} moves the least number of models: "
            f"{least} suffice, {moved} would move",
            "§4.2 IV",
        )


def default_placement(w: Work) -> Restore | Survivors | BaseContact:
    """The engine's own move for the waiting placement, as the action a player would give:
    the survivors where the engine places them, then its Coherency moves (§6.6, §4.2 IV); the
    fewest models moved the least distance back into Coherency (§4.2 IV); the engine's move
    back into Base Contact (§4.4 III)."""
    p = w.restore
    if p is None:
        raise err("no unit waits to place its models", "§4.2 IV")
    uid = p.units[0]
    if p.stage == "survivors":
        wreck = p.wrecks[0]
        living = survivors_of(w.units[uid])
        # the engine's placement played on a scratch copy: its positions after Coherency
        scratch = Work(w.before, None, w.hooks)
        scratch.restore = None
        place_survivors(scratch, wreck, [])
        after = scratch.units[uid]
        kept = [i for i in living if not after.removed[i]]
        return Survivors(
            uid,
            tuple(after.pos[i] for i in kept),
            tuple(i for i in living if after.removed[i]),
        )
    if p.stage == "contact":
        found = engine_contact(w, p.pairs[0], dict(p.counts))
        assert found is not None and found[0] == uid
        present = w.units[uid].present()
        return BaseContact(uid, found[1], tuple(found[2][0][i] for i in present))
    present = w.units[uid].present()
    restored = coherency_restored(w, uid)
    pos = w.units[uid].pos if restored is None else restored[0]
    return Restore(uid, tuple(pos[i] for i in present))


def default_restore(w: Work) -> Restore | Survivors | BaseContact:
    """The engine's own move for the waiting placement (:func:`default_placement`)."""
    return default_placement(w)


def resume_placement(w: Work, action: Restore | Survivors | BaseContact) -> bool:
    """Place the models as the player chose; then the next placement waits, or the rest of
    the removal of casualties follows on the step's own dice (True: every step is taken)."""
    p = w.restore
    assert p is not None
    uid = action.unit
    w.use_dice(copy.deepcopy(p.dice))
    w.restore = None
    counts = p.counts
    if isinstance(action, Survivors):
        living = w.units[uid].living()
        kept = [i for i in living if i not in action.lost]
        wrecks = list(p.wrecks[1:])
        inner: list[Wreck] = []
        settle_survivors(w, p.wrecks[0], dict(zip(kept, action.positions, strict=True)), inner)
        return _removals(w, counts, inner + wrecks, list(p.removals), True)
    u = w.units[uid]
    present = u.present()
    new = full_positions(u, present, action.positions)
    moved = sum(1 for i in present if new[i] != u.pos[i])
    if isinstance(action, BaseContact):
        set_contact(w, uid, action.foe, new, moved)
        return _contact_stage(w, counts, list(p.pairs[1:]), True)
    w.set_unit(uid, pos=new)
    w.emit(
        "coherency",
        f"{w.label(uid)}: {moved} models moved to restore Coherency",
        "§4.2 IV",
        unit=uid,
    )
    rest = tuple(x for x in p.units[1:] if out_of_coherency(w, x))
    if rest:
        return _wait(w, CoherencyPause(rest, counts, None))
    return _contact_stage(w, counts, None, True)


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
