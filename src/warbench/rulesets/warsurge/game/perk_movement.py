"""Movement Unit Perks played by the Game Turn (Perks 000_94ecc6a4c74d351b.txt §12.4 Movement,
L2076-L2180).

* **Nonstop I-III** (L2138-L2158): "At the end of each Game Turn, the User must be at least 12"
  away from where it began at the start of the Game Turn. If the User (all models in the Unit)
  cannot do this, it becomes a casualty" (18", 24"). Each model's place at the start of the Game
  Turn is remembered (``Hook.TURN_START``); at its end (``Hook.TURN_END``) a model less than the
  distance from where it began is a casualty (docs/rulings.md, "Nonstop"). A unit that was not on
  the Battlefield when the Game Turn started (deployed in it, in Reserve, embarked) has no place
  to have begun from and is left alone.
* **Charge I-II** (L2086-L2096): "If there are one or more enemy Units within 6" of this Unit
  after making a Move or Dash, roll a D6. The result is how many inches this Unit can relocate
  toward an enemy within 6". If this is enough to make contact, the Unit engages them in a
  Melee" (12", 2D6). After a Move or Dash that leaves the unit out of any Melee, the engine
  rolls and relocates the unit into Base Contact with the closest enemy unit in reach when the
  roll is enough (``movement.plan_engage``); otherwise it stays (docs/rulings.md, "Charge").
* **Thrust** (L2168): "For each 12" of Movement … in a straight line made by the User, they gain
  +1 to AEGIS Save. This increase resets at the end of a Game Turn if the User is still in a
  Melee, does not make any Movement on that Game Turn … or goes into Reserve. AEGIS cannot
  exceed 2+." Each Move or Dash (a straight line for every model) of 12" or more adds a
  ``Thrust n`` status (+1 AEGIS each, the Stat stops at 2+).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from warbench.kernel.errors import RulesError
from warbench.rulesets.warsurge.game import bases
from warbench.rulesets.warsurge.game.casualties import remove_models, restore_coherency
from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.perk_turn import index
from warbench.rulesets.warsurge.game.state import Location

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.work import Work

__all__ = [
    "CHARGE",
    "NONSTOP",
    "charge_after_move",
    "nonstop_at_turn_end",
    "nonstop_at_turn_start",
    "register_hooks",
    "thrust_after_move",
    "thrust_at_turn_end",
]

#: Thrust's statuses, one per 12" (L2168); four take any AEGIS to its 2+ cap.
THRUST = ("Thrust 1", "Thrust 2", "Thrust 3", "Thrust 4")
_THRUST_TURN = "thrust moved turn"

#: Charge rank → (Radius, the dice rolled for the relocation, its line).
CHARGE = {"Charge II": (12.0, "2D6", 2096), "Charge I": (6.0, "D6", 2086)}

#: Nonstop rank → the distance a model must end from where it began (L2138, L2148, L2154).
NONSTOP = {"Nonstop I": 12.0, "Nonstop II": 18.0, "Nonstop III": 24.0}
NONSTOP_LINES = {"Nonstop I": 2138, "Nonstop II": 2148, "Nonstop III": 2154}

_TURN = "nonstop turn"
_SCALE = 100  # positions kept in counters as hundredths of an inch
_SPAN = 100_000


def _start(i: int) -> str:
    return f"nonstop start {i}"


def _distance(work: Work, uid: int) -> tuple[str, float] | None:
    perks = index(work.setup).units[uid].unit
    best = [(d, n) for n, d in NONSTOP.items() if n in perks]
    if not best:
        return None
    d, n = max(best)
    return n, d


def _nonstop_units(work: Work) -> list[tuple[int, str, float]]:
    out = []
    for uid in range(len(work.units)):
        found = _distance(work, uid)
        if found is not None:
            out.append((uid, *found))
    return out


def nonstop_at_turn_start(work: Work, turn: int) -> None:
    """Remember where each model of a Nonstop unit on the Battlefield begins the Game Turn."""
    for uid, _, _ in _nonstop_units(work):
        u = work.units[uid]
        if u.location is not Location.TABLE:
            continue
        for i in u.present():
            x, y = u.pos[i]
            code = round(x * _SCALE) * _SPAN + round(y * _SCALE)
            u = u.with_counter(_start(i), code)
        work.units[uid] = u.with_counter(_TURN, turn)
        work.dirty = True


def nonstop_at_turn_end(work: Work, turn: int) -> None:
    """L2138: models less than the rank's distance from where they began are casualties."""
    for uid, rank, need in _nonstop_units(work):
        u = work.units[uid]
        if u.location is not Location.TABLE or u.counter(_TURN) != turn or not u.living():
            continue
        short = []
        for i in u.living():
            code = u.counter(_start(i))
            x0, y0 = divmod(code, _SPAN)
            x, y = u.pos[i]
            if math.hypot(x - x0 / _SCALE, y - y0 / _SCALE) < need - 1e-6:
                short.append(i)
        if not short:
            continue
        hp = list(u.hp)
        for i in short:
            hp[i] = 0
        work.set_unit(uid, hp=tuple(hp))
        rule = f"Perks §12.4 {rank} (000_94ecc6a4c74d351b.txt L{NONSTOP_LINES[rank]})"
        work.emit(
            "perk",
            f'{work.label(uid)}: {rank}, {len(short)} models less than {need:g}" from where they '
            "began the Game Turn are casualties",
            rule,
            unit=uid,
            casualties=len(short),
        )
        remove_models(work, uid, short, rank)
        if work.units[uid].living():
            restore_coherency(work, uid)


def charge_after_move(work: Work, unit: int, dash: bool, distance: float) -> None:
    """L2086: the Charge relocation after a Move or Dash (see the module docstring)."""
    perks = index(work.setup).units[unit].unit
    rank = next((r for r in CHARGE if r in perks), None)
    u = work.units[unit]
    if rank is None or u.location is not Location.TABLE or not u.living():
        return
    if work.engaged_with(unit):
        return
    radius, roll, line = CHARGE[rank]
    info = work.info(unit)
    near: list[tuple[float, int]] = []
    for t in range(len(work.units)):
        if not work.enemies(unit, t) or work.units[t].location is not Location.TABLE:
            continue
        if not work.units[t].living():
            continue
        d = bases.distances(
            work, unit, work.xy(unit), info.radius, t, work.xy(t), work.info(t).radius
        )
        if d.size and float(d.min()) <= radius + 1e-9:
            near.append((float(d.min()), t))
    if not near:
        return
    from warbench.rulesets.warsurge.game.melee import engage_new_contacts
    from warbench.rulesets.warsurge.game.movement import plan_engage

    inches = work.dice.roll(roll, rank)
    rule = f"Perks §12.4 {rank} (000_94ecc6a4c74d351b.txt L{line})"
    for _, target in sorted(near):
        try:
            pos = plan_engage(work, unit, target, float(inches), dash)
        except RulesError:
            continue
        models = u.present()
        full = list(u.pos)
        for k, m in enumerate(models):
            full[m] = pos[k]
        work.set_unit(unit, pos=tuple(full))
        work.emit("perk", f'{work.label(unit)}: {rank}, {inches}" rolled: it charges '
                  f"{work.label(target)}", rule, unit=unit, target=target, roll=inches)  # fmt: skip
        engage_new_contacts(work, unit)
        return
    work.emit("perk", f'{work.label(unit)}: {rank}, {inches}" rolled: no enemy in reach', rule,
              unit=unit, roll=inches)  # fmt: skip


def _thrust(work: Work, uid: int) -> bool:
    return "Thrust" in index(work.setup).units[uid].unit


def thrust_after_move(work: Work, unit: int, dash: bool, distance: float) -> None:
    """L2168: +1 AEGIS for each 12" of this Move or Dash."""
    if not _thrust(work, unit):
        return
    from warbench.rulesets.warsurge.game.perk_turn import _replace_statuses
    from warbench.rulesets.warsurge.game.state import Status

    u = work.units[unit].with_counter(_THRUST_TURN, work.flow.turn)
    work.units[unit] = u
    work.dirty = True
    have = sum(1 for s in u.statuses if s.name in THRUST)
    gain = int(distance // 12 + 1e-9) if distance >= 12 - 1e-6 else 0
    now = min(len(THRUST), have + gain)
    if now != have:
        _replace_statuses(work, unit, THRUST, [Status(n, None, n) for n in THRUST[:now]])
        work.emit("perk", f'{work.label(unit)}: Thrust, +{now} AEGIS after {distance:.1f}" in a '
                  "straight line", "Perks §12.4 Thrust (000_94ecc6a4c74d351b.txt L2168)",
                  unit=unit, thrust=now)  # fmt: skip


def thrust_at_turn_end(work: Work, turn: int) -> None:
    """L2168: Thrust resets for a unit in a Melee, that did not move this Game Turn, or that is
    no longer on the Battlefield (embarked, in Reserve)."""
    from warbench.rulesets.warsurge.game.perk_turn import _replace_statuses

    for uid, u in enumerate(work.units):
        if not any(s.name in THRUST for s in u.statuses):
            continue
        if (
            work.engaged_with(uid)
            or u.counter(_THRUST_TURN) != turn
            or u.location is not Location.TABLE
        ):
            _replace_statuses(work, uid, THRUST, ())
            work.emit("perk", f"{work.label(uid)}: Thrust resets",
                      "Perks §12.4 Thrust (000_94ecc6a4c74d351b.txt L2168)", unit=uid)  # fmt: skip


def register_hooks(reg: HookRegistry) -> None:
    """Register this module's hooks (one call from :func:`.perk_hooks.register_perk_hooks`)."""
    reg.register(Hook.TURN_START, nonstop_at_turn_start, "Nonstop (start)", perks=NONSTOP)
    reg.register(Hook.TURN_END, nonstop_at_turn_end, "Nonstop", first=True, perks=NONSTOP)
    reg.register(Hook.AFTER_MOVE, thrust_after_move, "Thrust", perks=["Thrust"])
    reg.register(Hook.AFTER_MOVE, charge_after_move, "Charge", perks=CHARGE)
    reg.register(Hook.TURN_END, thrust_at_turn_end, "Thrust resets", first=True, perks=["Thrust"])
