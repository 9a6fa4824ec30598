"""Loot (Limitation Weapon Perk, Perks 000_94ecc6a4c74d351b.txt L3090-L3104; Specific, End of
Phase/Step; docs/rulings.md "WARSURGE perks in play: session 25, w2-state" 5-8).

    "When the Wielder is removed as a casualty, the Weapon can be picked up and used by models
    from any Unit (friend or foe), including the same Unit as the Wielder. Use a marker to
    represent the Loot Weapon, which appears where the casualty model stood before being
    removed. A model that directs Movement onto, past or within contact of the marker picks up
    the Weapon and may use it at the next opportunity. … If the Loot Weapon also has the
    'Shared' Perk, the Weapon will become available as a marker when the entire Unit becomes a
    casualty. Each model in a Unit can pick up one Loot Weapon, and may exchange it for another
    Loot Weapon if they wish (by picking up a different Loot Weapon)."

* **The drop** (ruling 5): as a model carrying a Loot Weapon becomes a casualty (the
  ``CASUALTY`` hook) a marker ``Loot marker@<unit>@<weapon>@x,y@<n>`` appears where it
  stands, a status of the unit it fell from (it stays there when that unit is destroyed).
  The model no longer carries it (``perk_arms.drop_status``; a picked-up one: its ``take``
  status ends), so a model revived later is without it. A Shared Loot Weapon drops when the
  unit's last model falls, one marker per copy of its profile. What a picked-up one spent
  leaves the unit with its marker; the unit's other picked-up Weapons keep theirs when the
  names they are carried by change (:func:`_relabel`).
* **The pick-up** (ruling 6): a model whose straight Move or Dash path comes within contact
  of a marker (its base edge at the marker's point) picks the Weapon up at once: it carries it
  (``perk_arms.take_status``, read through ``GameState.info``) with its profile, under its
  name (``<name> (u<unit>)`` when its unit has a Weapon of that name, another copy included:
  ``perk_arms.labels``; each copy keeps its own counters, session 39). One Loot Weapon
  picked up per model: a model holding one passes over other markers (the engine never
  exchanges, ruling 7). The first such model of the unit in model order, the markers in the
  order they were dropped.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from warbench.rulesets.warsurge.attack import PerkSet
from warbench.rulesets.warsurge.game import geom, perk_arms
from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.memo import per_setup
from warbench.rulesets.warsurge.game.perk_limitation import DESTROYED, JAMMED
from warbench.rulesets.warsurge.game.perk_shared import copies, shared_weapons
from warbench.rulesets.warsurge.game.perk_trap import TRAP
from warbench.rulesets.warsurge.game.perk_turn import (
    _weapon_turn,
    _weapon_uses,
    refresh_thresholds,
)
from warbench.rulesets.warsurge.game.state import Status

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.state import GameSetup, UnitGS
    from warbench.rulesets.warsurge.game.work import Work

__all__ = [
    "LOOT",
    "MARKER",
    "SPENT",
    "markers",
    "on_casualty",
    "on_move",
    "register_hooks",
    "spent",
]

LOOT = "Loot"
MARKER = "Loot marker@"
#: a marker's suffix: the limits its Weapon has spent (:func:`spent`; session 38, s38-loot)
SPENT = "#"
RULE = "Perks §12.5 Loot (000_94ecc6a4c74d351b.txt L3090)"
#: the start of a Trap marker's status (``perk_trap.place_trap``)
TRAP_HEAD = f"{TRAP}@"

Marker = tuple[int, Status, int, str, tuple[float, float]]


@per_setup
def in_play(setup: GameSetup) -> bool:
    """Whether a Weapon of the set-up has Loot (memoised per set-up)."""
    out = any(PerkSet(wp.perks).has(LOOT) for info in setup.units for wp in info.unit.weapons)
    return out


def markers(work: Work) -> list[Marker]:
    """Every Loot marker: (unit holding it, status, profile's unit, Weapon, point)."""
    out: list[Marker] = []
    for u in work.units:
        for s in u.statuses:
            if s.name.startswith(MARKER):
                src, rest = s.name[len(MARKER) :].split("@", 1)  # a Weapon's name may hold "@"
                weapon, xy, _ = rest.rsplit("@", 2)
                x, y = (float(v) for v in xy.split(","))
                out.append((u.uid, s, int(src), weapon, (x, y)))
    return out


def _label(work: Work, unit: int, model: int) -> str:
    """The name the model carries its picked-up Loot Weapon by (``perk_arms.labels``: each
    copy its own, so each keeps its own counters; session 39, s39-loot2)."""
    return perk_arms.labels(work.setup, unit, work.units[unit].statuses)[model][0]


def _is_loot(work: Work, uid: int, weapon: str) -> bool:
    """Whether ``uid``'s ``weapon`` is a Loot Weapon: by its own Perks, not those of a profile a
    Simulacrum Weapon copies for the Game Turn (L4059; session 39, s39-loot2)."""
    own = work.setup.units[uid].unit
    if any(wp.name == weapon for wp in own.weapons):
        return PerkSet(own.weapon(weapon).perks).has(LOOT)
    for label, src, other in perk_arms.labels(work.setup, uid, work.units[uid].statuses).values():
        if label == weapon:
            return PerkSet(work.setup.units[src].unit.weapon(other).perks).has(LOOT)
    return False


def on_casualty(work: Work, unit: int, model: int, source: str) -> None:
    """A model carrying Loot Weapons falls: each drops as a marker where it stands."""
    if not in_play(work.setup):
        return
    info = work.info(unit)
    if model >= len(info.model_weapons):
        return
    u = work.units[unit]
    x, y = u.pos[model]
    held = perk_arms.taken(u.statuses)
    shared = shared_weapons(work.setup.units[unit].unit)
    base = work.setup.units[unit].unit.weapons
    own = {wp.name for wp in base}
    carried = info.model_weapons[model]
    label = _label(work, unit, model) if model in held else None  # its picked-up Weapon
    # (profile's unit, Weapon, n, its own, the name it is carried by here)
    dropped: list[tuple[int, str, int, bool, str]] = []
    ends: set[str] = set()
    traps: set[str] = set()  # the picked-up Trap Weapons whose markers end with them (w2-state 16)
    for weapon in carried:
        if weapon in shared or not _is_loot(work, unit, weapon):
            continue
        if weapon == label:
            src, other = held[model]
            ends.add(perk_arms.take_status(model, src, other))
            ends.add(perk_arms.copy_prefix(weapon))  # a Simulacrum copy of it ends (L4059)
            traps.add(weapon)  # and its Trap markers (L4085, ruling w2-state 16)
            dropped.append((src, other, model, False, weapon))
        elif weapon in own:
            dropped.append((unit, weapon, model, True, weapon))
    others = [k for k in range(len(u.hp)) if k != model]
    if all(u.hp[k] <= 0 or u.removed[k] for k in others):  # the whole unit: Shared (L3102)
        for wp in base:
            if wp.name in shared and PerkSet(wp.perks).has(LOOT):
                n = copies(work.setup.units[unit].unit, wp.name)
                dropped.extend((unit, wp.name, 100 + k, False, wp.name) for k in range(n))
    if not dropped:
        return
    kept = [
        s
        for s in u.statuses
        if s.name not in ends and not _copy_of(s.name, ends) and _trap_of(s.name) not in traps
    ]
    for src, weapon, n, mine, here in dropped:
        if mine:
            kept.append(Status(perk_arms.drop_status(model, weapon), None, f"u{unit}/{weapon}"))
        name = f"{MARKER}{src}@{weapon}@{x:.2f},{y:.2f}@{n}{_spent(u, here)}"
        kept.append(Status(name, None, f"u{unit}/{weapon}"))
        work.emit("perk", f"{work.label(unit)}'s {weapon} drops as a Loot marker at ({x:.1f}, "
                  f"{y:.1f})", RULE, unit=unit, perk=LOOT, weapon=weapon, at=[x, y])  # fmt: skip
    before = {k: _label(work, unit, k) for k in held}  # the names its picked-up Weapons had
    work.set_unit(unit, statuses=tuple(kept))
    if ends:
        _relabel(work, unit, before)
    refresh_thresholds(work, unit)  # Wane, Hearty of a Weapon it no longer carries


def _copy_of(name: str, ends: set[str]) -> bool:
    return name.startswith(perk_arms.COPY) and any(name.startswith(e) for e in ends)


def _trap_of(name: str) -> str | None:
    """The Weapon a Trap marker status (``Trap@<weapon>@x,y@users@turn``, ``perk_trap``) was
    placed with, or None for another status."""
    if not name.startswith(TRAP_HEAD) or name.count("@") < 4:
        return None
    return name[len(TRAP_HEAD) :].rsplit("@", 3)[0]


def _renamed(name: str, names: dict[str, str]) -> str:
    """``name`` of a status that goes with a picked-up Weapon, under the Weapon's new name
    (``names``: old to new): its Simulacrum copy (``Arms@copy@``, L4059) and its Trap markers
    (L4085); other statuses unchanged (issue 10, session 39, s39-fixloot)."""
    if name.startswith(perk_arms.COPY):
        for old, new in names.items():
            head = perk_arms.copy_prefix(old)
            if name.startswith(head):
                return perk_arms.copy_prefix(new) + name[len(head) :]
        return name
    weapon = _trap_of(name)
    if weapon is not None and weapon in names:
        return f"{TRAP_HEAD}{names[weapon]}@{name[len(TRAP_HEAD) + len(weapon) + 1 :]}"
    return name


def _relabel(work: Work, unit: int, before: dict[int, str]) -> None:
    """A picked-up Weapon dropped: what it spent goes with its marker (:func:`_spent`), so the
    unit's counters under the name it was carried by end, and a Weapon another model still
    carries whose name changed (``<name> (u<src>)`` to ``<name>``, ``perk_arms``) keeps what it
    spent under its new name (Use I-III "once per game", Perks L3246; issue 10, session 38,
    s38-lootfix), and its Simulacrum copy and Trap markers too (:func:`_renamed`; session 39,
    s39-fixloot)."""
    u = work.units[unit]
    held = perk_arms.taken(u.statuses)
    names = [(_weapon_uses(w), *_counters(w)) for w in before.values()]
    values = {
        k: (u.used(n[0]), *(u.counter(c) for c in n[1:]))
        for k, n in zip(before, names, strict=True)
    }
    gone = {n for ns in names for n in ns}
    uses = tuple(kv for kv in u.uses if kv[0] not in gone)
    counters = tuple(kv for kv in u.counters if kv[0] not in gone)
    u = u.evolve(uses=uses, counters=counters)
    now = {before[k]: _label(work, unit, k) for k in held if k in before}
    moved = {old: new for old, new in now.items() if old != new}
    if moved:
        statuses = tuple(replace(s, name=_renamed(s.name, moved)) for s in u.statuses)
        u = u.evolve(statuses=statuses)
    for k in held:
        if k in before:
            label = _label(work, unit, k)
            used, *turns = values[k]
            if used > u.used(_weapon_uses(label)):
                u = u.with_use(_weapon_uses(label), used - u.used(_weapon_uses(label)))
            for name, turn in zip(_counters(label), turns, strict=True):
                if turn > u.counter(name):
                    u = u.with_counter(name, turn)
    if u != work.units[unit]:
        work.units[unit] = u
        work.dirty = True


def _counters(weapon: str) -> tuple[str, ...]:
    """The unit's counters of ``weapon`` that go with it (after its uses): the Game Turn of
    its last use (Recharge I-III L3142), of its Malfunction I (L3110), of the end of which
    Malfunction II destroys it (L3122)."""
    return (_weapon_turn(weapon), JAMMED + weapon, DESTROYED + weapon)


def _spent(u: UnitGS, weapon: str) -> str:
    """What the unit's ``weapon`` has spent, to go with it as it drops (ruling w2-state 10:
    what the book says of the Weapon stays with it): ``#<uses>,<last use>,<malfunctioned>,
    <destroyed>`` (Use I-III L3246 and :func:`_counters`; trailing zeros left out), or ``""``
    when it has spent none."""
    values = [u.used(_weapon_uses(weapon)), *(u.counter(c) for c in _counters(weapon))]
    while values and not values[-1]:
        values.pop()
    return f"{SPENT}{','.join(map(str, values))}" if values else ""


def spent(status: Status) -> tuple[int, int, int, int]:
    """(uses, Game Turn of the last use, of a Malfunction I, of a Malfunction II) a Loot
    marker's Weapon carries (:func:`_spent`; zeros when it spent none)."""
    _, _, tail = status.name.rpartition("@")
    _, mark, rest = tail.partition(SPENT)
    values = [int(v) for v in rest.split(",")] if mark else []
    uses, last, jammed, gone = (*values, 0, 0, 0, 0)[:4]
    return (uses, last, jammed, gone)


def on_move(work: Work, unit: int, dash: bool, distance: float) -> None:
    """A model whose straight path came within contact of a marker picks the Weapon up."""
    if not in_play(work.setup) or not work.standing(unit):
        return
    found = markers(work)
    if not found:
        return
    u = work.units[unit]
    old = work.before.units[unit]
    r = work.info(unit).radius
    for holder, status, src, weapon, at in found:
        held = perk_arms.taken(work.units[unit].statuses)
        point = np.asarray(at)[None, :]
        for i in u.living():
            if i in held or i >= len(old.pos) or u.pos[i] == old.pos[i]:
                continue
            s, e = np.asarray(old.pos[i]), np.asarray(u.pos[i])
            if float(geom.segment_distances(s, e, point)[0]) <= r + 1e-9:
                _pick(work, unit, i, holder, status, src, weapon)
                break


def _pick(work: Work, unit: int, model: int, holder: int, status: Status, src: int,
          weapon: str) -> None:  # fmt: skip
    h = work.units[holder]
    work.set_unit(holder, statuses=tuple(s for s in h.statuses if s != status))
    u = work.units[unit]
    take = Status(perk_arms.take_status(model, src, weapon), None, f"u{src}/{weapon}")
    work.set_unit(unit, statuses=(*u.statuses, take))
    uses, *turns = spent(status)
    if uses or any(turns):  # what it has spent comes with it (ruling w2-state 10)
        label = _label(work, unit, model)
        u = work.units[unit]
        if uses > u.used(_weapon_uses(label)):
            u = u.with_use(_weapon_uses(label), uses - u.used(_weapon_uses(label)))
        for name, turn in zip(_counters(label), turns, strict=True):
            if turn > u.counter(name):
                u = u.with_counter(name, turn)
        work.units[unit] = u
        work.dirty = True
    refresh_thresholds(work, unit)  # Wane, Hearty by its carrier's HP (L3264, L3915)
    work.emit("perk", f"model {model + 1} of {work.label(unit)} picks up the Loot Weapon {weapon}",
              RULE, unit=unit, perk=LOOT, weapon=weapon, model=model)  # fmt: skip


def register_hooks(reg: HookRegistry) -> None:
    """Register this module's hooks (one call from :func:`.perk_families.register_family_hooks`)."""
    reg.register(Hook.CASUALTY, on_casualty, "Loot (dropped)", perks=[LOOT])
    reg.register(Hook.AFTER_MOVE, on_move, "Loot (picked up)", perks=[LOOT])
