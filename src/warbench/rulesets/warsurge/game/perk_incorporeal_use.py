"""Incorporeal used in a game (Perks 000_94ecc6a4c74d351b.txt §12.4 Transformation, L2466-L2504):
its activation and deactivation, Transports, the count of Game Turns and the Victory
Conditions. What the engine reads of an Incorporeal unit is ``perk_incorporeal``.

    "Incorporeal — Activate, Limited Use (1). When activated, the User … all negative Perk
    effects are removed … they cannot seize or interact with Objectives (dropping any when
    Activated) … If already engaged in a Melee, they immediately leave it. … Once activated the
    user remains Incorporeal until they choose to deactivate it after Movement, or during the
    Move or Dash Phases. Game Turns that have Incorporeal active do not contribute to Perks that
    improve or change over a number of Game Turns (such as Powered by Pain). Perks that become
    weaker over time are still affected as normal. … If activated, Incorporeal Transport Units
    or Incorporeal passengers will disembark the Transport, passengers being placed in base
    contact with the Transport (if both have Incorporeal, activating one will activate both
    simultaneously, avoiding disembarking). Incorporeal can be used to escape from Imprison …
    If Incorporeal is active or deactivated during the final Game Turn, the User counts as
    destroyed for the purposes of Victory Conditions."

* **Activation** ``UsePerks(unit, ("Incorporeal: on",))`` (or plain ``"Incorporeal"``), once a
  game (Limited Use (1)), on the Battlefield or embarked in a Transport that is: the status
  ``Incorporeal`` until deactivated; the statuses an enemy's perk put on it end (the
  Affliction family and every status whose source is an enemy unit, a side change excepted);
  its Melees end; Objectives: ``perk_stealth.NO_OBJECTIVES`` (it neither holds nor contests
  one from now, so it drops any).
* **Transports**: an embarked User disembarks, its models placed in base contact with its
  Transport; a Transport User's passengers disembark the same way. When both have
  Incorporeal (and have not used it), the other activates too and nobody disembarks. A base
  that cannot be placed so refuses the activation (it may not lose models by it, L2467).
* **Deactivation** ``UsePerks(unit, ("Incorporeal: off",))``: in the Move or Dash Phase
  (Advanced: in an Action Step); it is not a use of the perk.
* **Game Turns**: as a Game Turn starts, an Incorporeal unit notes it (``INCORPOREAL_TURN``);
  as it ends, a unit Incorporeal in it has its arrival moved one Game Turn later (Powered by
  Pain, Escalate, Countdown count from there), and Ascension does not count it.
* **Victory Conditions** (``GameState.side_values``): a unit Incorporeal in the Game Turn the
  game ends in counts as destroyed.
* The engine never uses it by itself (a player's decision; docs/rulings.md w2-transform).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game.advstate import Playstyle
from warbench.rulesets.warsurge.game.memo import per_setup
from warbench.rulesets.warsurge.game.perk_incorporeal import INCORPOREAL, RULE, active
from warbench.rulesets.warsurge.game.state import (
    DEFECTED,
    INCORPOREAL_TURN,
    SEIZED,
    Location,
    Phase,
    Status,
)

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.hooks import HookRegistry
    from warbench.rulesets.warsurge.game.state import GameSetup, Point
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["activate", "holders", "options", "refused", "register_hooks", "use"]


@per_setup
def holders(setup: GameSetup) -> frozenset[int]:
    """The units of ``setup`` with Incorporeal (once per set-up)."""
    from warbench.rulesets.warsurge.effects.table import load_table

    table = load_table()
    out = frozenset(
        info.uid
        for info in setup.units
        if any(
            (r := table.find(n)) is not None and r.name == INCORPOREAL
            for n in (*info.unit.profile.perks, *info.traits)
        )
    )
    return out


def _may_join(work: Work, uid: int) -> bool:
    """Whether ``uid`` activates with its Transport or passenger (L2500: "if both have
    Incorporeal, activating one will activate both")."""
    u = work.units[uid]
    return uid in holders(work.setup) and not u.used(INCORPOREAL) and not active(work, uid)


def _contact_spots(work: Work, transport: int, units: list[int]) -> dict[int, list[Point]] | None:
    """Where the living models of ``units`` go out of ``transport``: in base contact with it
    (L2499), then in rings next to it; ``None`` when a base cannot be placed."""
    import numpy as np

    from warbench.rulesets.warsurge.game import geom
    from warbench.rulesets.warsurge.game.coherency import spot_clear

    t = work.table()
    oxy, orad = t.xy, t.r
    hold = work.units[transport]
    site = [hold.pos[i] for i in hold.present()]
    site_r = work.info(transport).radius
    out: dict[int, list[Point]] = {}
    placed_all: list[tuple[Point, float]] = []
    for uid in units:
        r = work.info(uid).radius
        mine: list[Point] = []
        for _ in work.units[uid].living():
            found = None
            for ring in range(4):
                rad = site_r + r + 0.02 + ring * (2 * r + 0.2)
                count = max(8, int(2 * math.pi * rad / (r + 0.05)))
                for c in site:
                    for s in geom.ring_points(c, rad, count):
                        spot = (float(s[0]), float(s[1]))
                        others = [p for p, _ in placed_all]
                        radii = [q for _, q in placed_all]
                        xy = np.vstack([oxy, np.asarray(others)]) if others else oxy
                        rr = np.concatenate([orad, np.asarray(radii)]) if radii else orad
                        if spot_clear(work, spot, r, xy, rr, mine):
                            found = spot
                            break
                    if found is not None:
                        break
                if found is not None:
                    break
            if found is None:
                return None
            mine.append(found)
        placed_all.extend((p, r) for p in mine)
        out[uid] = mine
    return out


def _moves(work: Work, uid: int) -> tuple[list[int], dict[int, list[Point]] | None]:
    """The units that activate with ``uid`` and the placements of those that disembark."""
    u = work.units[uid]
    joined: list[int] = []
    if u.location is Location.EMBARKED and u.embarked_in is not None:
        holder = u.embarked_in
        if _may_join(work, holder):
            return [holder, *(p for p in work.passengers(holder) if p != uid and
                              _may_join(work, p))], {}  # fmt: skip
        if active(work, holder):
            return [], {}
        return [], _contact_spots(work, holder, [uid])
    out = []
    for p in work.passengers(uid):
        if _may_join(work, p):
            joined.append(p)
        elif not active(work, p):
            out.append(p)
    if not out or u.location is not Location.TABLE:
        return joined, {}
    return joined, _contact_spots(work, uid, out)


def _option(work: Work, uid: int, option: str) -> str:
    o = option.strip().lower()
    if o in ("on", "off"):
        return o
    return "off" if not o and active(work, uid) else (o or "on")


def refused(work: Work, uid: int, option: str) -> str | None:
    """Why ``uid`` may not activate (``on``) or deactivate (``off``) Incorporeal now."""
    o = _option(work, uid, option)
    u = work.units[uid]
    if o not in ("on", "off"):
        return f"Incorporeal is turned 'on' or 'off' (not {option!r}; {RULE})"
    if o == "off":
        if not active(work, uid):
            return f"{work.label(uid)} is not Incorporeal ({RULE})"
        phases = (
            (Phase.ACTIONS,)
            if work.setup.playstyle is Playstyle.ADVANCED
            else (Phase.MOVE, Phase.DASH)
        )
        if work.flow.phase not in phases:
            return (
                f"Incorporeal is deactivated after Movement, or during the Move or Dash "
                f"Phases ({RULE} L2478)"
            )
        return None
    if active(work, uid):
        return f"{work.label(uid)} is already Incorporeal ({RULE})"
    if u.used(INCORPOREAL):
        return f"{work.label(uid)} has used Incorporeal (Limited Use (1), {RULE})"
    where = work.outermost(uid) if u.location is Location.EMBARKED else uid
    if work.units[where].location is not Location.TABLE or not u.living():
        return f"{work.label(uid)} is not on the battlefield (§12.2: the User uses its perks)"
    if u.statuses and any(s.name == "Paralysis" for s in u.statuses):
        return f"{work.label(uid)} is Paralysed: it may not use any Perks this Game Turn (L2790)"
    if u.location is Location.EMBARKED and u.embarked_in != where:
        return f"{work.label(uid)} is embarked in an embarked Transport ({RULE}; w2-transform 8)"
    from warbench.rulesets.warsurge.game.perk_psych import perk_refusal

    if (why := perk_refusal(work, uid, INCORPOREAL)) is not None:
        return why
    if _moves(work, uid)[1] is None:
        return f"the bases leaving the Transport cannot be placed in base contact with it ({RULE})"
    return None


def options(work: Work, uid: int) -> list[str]:
    """``["on"]`` or ``["off"]`` when that is allowed now."""
    o = "off" if active(work, uid) else "on"
    return [o] if refused(work, uid, o) is None else []


def _negative(work: Work, uid: int, s: Status, negative: frozenset[str]) -> bool:
    """L2468 "all negative Perk effects": a status of the Affliction family, or one an enemy
    unit's perk put on it (its source ``u<n>/…``); never a side change (Seized, Defected)."""
    if s.name.startswith(SEIZED) or s.name == DEFECTED:
        return False
    if s.name.partition("@")[0] in negative:
        return True
    src = s.source.partition("/")[0]
    return src[1:].isdigit() and src.startswith("u") and work.enemies(uid, int(src[1:]))


def _become(work: Work, uid: int, why: str) -> None:
    from warbench.rulesets.warsurge.game.perk_turn import _negative_statuses

    negative = _negative_statuses()
    u = work.units[uid].with_use(INCORPOREAL).with_counter(INCORPOREAL_TURN, work.flow.turn)
    work.units[uid] = u.with_counter(f"used {INCORPOREAL}", work.flow.turn)
    gone = [s for s in u.statuses if _negative(work, uid, s, negative)]
    kept = tuple(s for s in u.statuses if s not in gone)
    work.set_unit(uid, statuses=(*kept, Status(INCORPOREAL, None, f"u{uid}/{INCORPOREAL}")))
    foes = work.engaged_with(uid)
    work.engaged = {p for p in work.engaged if uid not in p}
    cleared = f"; {', '.join(sorted({s.name for s in gone}))} removed" if gone else ""
    left = f"; leaves the Melee with {', '.join(work.label(f) for f in foes)}" if foes else ""
    work.emit("perk", f"{work.label(uid)} becomes Incorporeal ({why}){cleared}{left}", RULE,
              unit=uid, perk=INCORPOREAL, removed=[s.name for s in gone])  # fmt: skip


def activate(work: Work, uid: int, why: str) -> None:
    """``uid`` becomes Incorporeal (:func:`refused` checked by the caller), with its Transport
    or passengers that have it; the others disembark next to the Transport."""
    joined, spots = _moves(work, uid)
    assert spots is not None
    _become(work, uid, why)
    for other in joined:
        _become(work, other, f"with {work.label(uid)}, L2500")
    for mover, pos in (spots or {}).items():
        u = work.units[mover]
        full = list(u.pos) if u.pos else [(0.0, 0.0)] * len(u.hp)
        for i, p in zip(u.living(), pos, strict=True):
            full[i] = p
        holder = u.embarked_in
        work.set_unit(mover, location=Location.TABLE, embarked_in=None, pos=tuple(full))
        text = f"{work.label(mover)} disembarks from {work.label(holder or 0)} in base contact"
        work.emit("disembark", f"{text} with it (Incorporeal)", f"{RULE} L2498", unit=mover)


def use(work: Work, uid: int, option: str) -> None:
    """``UsePerks`` with Incorporeal (``refused`` checked by the caller)."""
    if _option(work, uid, option) == "on":
        activate(work, uid, "the player's choice")
        return
    u = work.units[uid]
    work.units[uid] = u.with_counter(INCORPOREAL_TURN, work.flow.turn)
    work.set_unit(uid, statuses=tuple(s for s in u.statuses if s.name != INCORPOREAL))
    work.emit("perk", f"{work.label(uid)} is no longer Incorporeal", f"{RULE} L2478",
              unit=uid, perk=INCORPOREAL)  # fmt: skip


def note_turn(work: Work, turn: int) -> None:
    """As a Game Turn starts: each Incorporeal unit notes it (its Game Turns Incorporeal)."""
    for uid in holders(work.setup):
        if active(work, uid):
            work.units[uid] = work.units[uid].with_counter(INCORPOREAL_TURN, turn)
            work.dirty = True


def turn_not_counted(work: Work, turn: int) -> None:
    """As a Game Turn ends (L2480): a unit Incorporeal in it has its arrival moved one Game
    Turn later, so perks counting its Game Turns on the Battlefield (Powered by Pain L1595,
    Escalate L2963, Countdown L3046) do not count this one."""
    from warbench.rulesets.warsurge.game.perk_turn import ARRIVED

    for uid in holders(work.setup):
        u = work.units[uid]
        if u.counter(INCORPOREAL_TURN) == turn and u.counter(ARRIVED):
            work.units[uid] = u.with_counter(ARRIVED, u.counter(ARRIVED) + 1)
            work.dirty = True


def register_hooks(reg: HookRegistry) -> None:
    from warbench.rulesets.warsurge.game.hooks import Hook

    # both go over ``holders`` alone: fired only where the set-up has an Incorporeal unit (s37)
    reg.register(Hook.TURN_START, note_turn, "Incorporeal: its Game Turns noted", when=holders)
    reg.register(
        Hook.TURN_END, turn_not_counted, "Incorporeal: its Game Turns not counted", when=holders
    )
