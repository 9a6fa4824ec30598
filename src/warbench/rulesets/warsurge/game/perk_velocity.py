"""Velocity in a game (Perks 000_94ecc6a4c74d351b.txt §12.5 Tactical, L4103-L4113).

    "Velocity — Specific. For each 6" of Movement (Move, Dash, Blink) in a straight line made by
    the Wielder, the Weapon gains +1 Power. The Power increase resets at the end of a Game Turn
    if the Wielder is still in a Melee, does not make any Movement on that Game Turn, fails to
    go in a straight line, becomes Immobile, suffers Force or Knockback, enters a Transport (or
    suffers Imprison) or goes into Reserve. The Weapon must be directed at a Unit in front or
    behind the Wielder, in the path of the straight line the Wielder is travelling in."

* **Power** (:func:`velocity_after_move`, called by ``movement`` after each Move or Dash: every
  model of a Move or Dash goes in a straight line, as for Thrust, L2168): each full 6" of the
  Move (its longest model's) adds a ``Velocity n@Weapon`` status to each Velocity Weapon of the
  unit (+1 Power each, ten at most), and the unit remembers the heading of that Move (the
  counter ``velocity heading``, in thousandths of a degree).
* **Reset** (:func:`velocity_at_turn_end`): at the end of a Game Turn, when the Wielder is in a
  Melee, made no Move or Dash that Game Turn, is Immobile, or is off the Battlefield
  (embarked, in Reserve); the heading goes with it.
* **In the path** (:func:`target_refusal`, asked by ``perk_limits.target_refusal``): while a
  Weapon holds Velocity Power, it may only Target a unit with a model in the path of a model
  of the Wielder, forward or back along its heading: the line through that model along the
  heading passes within the two bases' radii of it (the swept base would touch it).
  docs/rulings.md "Velocity".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.perk_index import perks_now
from warbench.rulesets.warsurge.game.state import Location

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.battlefield.model import Point
    from warbench.rulesets.warsurge.game.work import Work

__all__ = [
    "HEADING",
    "VELOCITY",
    "in_path",
    "register_hooks",
    "target_refusal",
    "velocity_after_move",
    "velocity_at_turn_end",
    "wielder",
]

#: Velocity's statuses on one Weapon (``Velocity 3@Lance``), +1 Power each; ten at most.
VELOCITY = tuple(f"Velocity {n}" for n in range(1, 11))
#: The unit's counter: the heading of its last straight Move or Dash (0.001°, 0 = +x).
HEADING = "velocity heading"
_MOVED = "velocity moved turn"
_RULE = "Perks §12.5 Velocity (000_94ecc6a4c74d351b.txt L4103)"
_STEP = 6.0  # L4103: "For each 6\" of Movement … in a straight line"


def _velocity(name: str) -> bool:
    return name.partition("@")[0] in VELOCITY


def _weapons(work: Work, uid: int) -> list[str]:
    return [name for name, ps in perks_now(work, uid).weapons if "Velocity" in ps]


def wielder(work: Work, uid: int) -> bool:
    """Whether ``uid`` carries a Velocity Weapon."""
    return bool(_weapons(work, uid))


def velocity_after_move(work: Work, uid: int, segments: Sequence[tuple[Point, Point]]) -> None:
    """L4103: +1 Power to each Velocity Weapon of ``uid`` for each 6" of this Move or Dash
    (``segments``: each moved model's start and end; the longest counts)."""
    weapons = _weapons(work, uid)
    if not weapons or not segments:
        return
    from warbench.rulesets.warsurge.game.state import Status

    s, e = max(segments, key=lambda se: math.dist(*se))
    distance = math.dist(s, e)
    if distance <= 1e-6:
        return
    heading = round(math.degrees(math.atan2(e[1] - s[1], e[0] - s[0])) % 360.0 * 1000)
    u = work.units[uid].with_counter(_MOVED, work.flow.turn).with_counter(HEADING, heading)
    work.units[uid] = u
    work.dirty = True
    gain = int(distance / _STEP + 1e-9)
    if not gain:
        return
    for wname in weapons:
        statuses = work.units[uid].statuses
        have = sum(1 for st in statuses if st.name.endswith(f"@{wname}") and _velocity(st.name))
        now = min(len(VELOCITY), have + gain)
        if now == have:
            continue
        kept = [
            st for st in statuses if not st.name.endswith(f"@{wname}") or not _velocity(st.name)
        ]
        new = [Status(f"{n}@{wname}", None, n) for n in VELOCITY[:now]]
        work.set_unit(uid, statuses=(*kept, *new))
        text = f'{work.label(uid)}: Velocity, {wname} +{now} Power after {distance:.1f}" straight'
        work.emit("perk", text, _RULE, unit=uid, weapon=wname, velocity=now)


def velocity_at_turn_end(work: Work, turn: int) -> None:
    """L4105-4109: the Power resets at the end of a Game Turn if the Wielder is in a Melee,
    made no Movement that Game Turn, is Immobile, or is off the Battlefield."""
    for uid, u in enumerate(work.units):
        if not u.counters or HEADING not in dict(u.counters):
            continue
        if (
            work.engaged_with(uid)
            or u.counter(_MOVED) != turn
            or u.location is not Location.TABLE
            or work.info(uid).immobile
        ):
            kept = tuple(s for s in u.statuses if not _velocity(s.name))
            counters = tuple((k, v) for k, v in u.counters if k not in (HEADING, _MOVED))
            work.units[uid] = replace(u, counters=counters)
            work.dirty = True
            if kept != u.statuses:
                work.set_unit(uid, statuses=kept)
                work.emit("perk", f"{work.label(uid)}: Velocity resets", _RULE, unit=uid)


def in_path(work: Work, uid: int, target: int) -> bool:
    """Whether a model of ``target`` is in front of or behind a model of ``uid`` on the line of
    its heading (the line through the model passes within the two bases' radii of it)."""
    a = math.radians(work.units[uid].counter(HEADING) / 1000.0)
    dx, dy = math.cos(a), math.sin(a)
    reach = work.info(uid).radius + work.info(target).radius + 1e-9
    me, them = work.xy(uid), work.xy(target)
    return any(
        abs(dx * (float(ty) - float(my)) - dy * (float(tx) - float(mx))) <= reach
        for mx, my in me
        for tx, ty in them
    )


def target_refusal(work: Work, uid: int, weapon: str, target: int) -> str | None:
    """L4111: "The Weapon must be directed at a Unit in front or behind the Wielder, in the path
    of the straight line the Wielder is travelling in" — while ``weapon`` holds Velocity Power."""
    u = work.units[uid]
    if not u.statuses or not any(
        s.name.endswith(f"@{weapon}") and _velocity(s.name) for s in u.statuses
    ):
        return None
    if in_path(work, uid, target):
        return None
    deg = u.counter(HEADING) / 1000.0
    return (
        f"{weapon} has Velocity Power: it must be directed at a unit in front of or behind "
        f"{work.label(uid)}, on its line of travel (heading {deg:.0f}°); {work.label(target)} "
        f"is not ({_RULE})"
    )


def register_hooks(reg: HookRegistry) -> None:
    """Register this module's hooks (one call from ``perk_families.register_family_hooks``)."""
    reg.register(Hook.TURN_END, velocity_at_turn_end, "Velocity resets", first=True)
