"""Deployment from Reserve outside the Deployment Zone (Perks 000_94ecc6a4c74d351b.txt, issue 11
lane c): Ambush I-III (§12.4 Deployment, L1814-L1838) and the Roster Perk Nexus (L4346).

* **Ambush I-III**: "This Perk is available from Game Turn 2 and onwards. Place one model of the
  Unit. If Mastery Test is successful, roll Scatter Arrow and 2D6 [II: D6; III: no Scatter
  Arrow] … Place rest of Unit in circle around the model after final location is determined. If
  insufficient space … this Unit returns to Reserve. If Ambush fails, or if the player would
  prefer, the User may Deploy normally instead." From Game Turn 2 a Deploy naming every
  model's position may place an Ambush unit anywhere on the battlefield (the player's choice:
  where; a Deploy inside the zone is deploying normally). After the Deploy, the Mastery Test:
  passed, the first model scatters and the others keep the formation the player gave around it
  (else the engine's compact placement around it; no room: back to Reserve); failed, the unit
  deploys normally, the engine's placement in its Deployment Zone (no room: Reserve).
* **Nexus** (a Roster Perk designated to a unit, Radius 12"): "Units can Deploy within 12" of
  the Nexus Unit, the area around the Nexus Unit being treated as a friendly Deployment Zone.
  Units must be wholly Deployed within this area": a model of a friendly unit may deploy where
  its whole base is within 12" of a model of the Nexus unit on the Battlefield.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game import bases_ground, perk_sentinel
from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.perk_seed import HELD as SEED_II_HELD
from warbench.rulesets.warsurge.game.perk_seed import RULE as SEED_II_RULE
from warbench.rulesets.warsurge.game.perk_turn import index, mastery_test
from warbench.rulesets.warsurge.game.state import Location, Status

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.actions import Point
    from warbench.rulesets.warsurge.game.work import Work

__all__ = [
    "AMBUSH",
    "ambush_after_deploy",
    "arrivals",
    "held_refusal",
    "implant_on_hp_lost",
    "outside_zone",
    "register_hooks",
]

BOOK = "000_94ecc6a4c74d351b.txt"
#: Ambush rank → (the D6 its Scatter Arrow rolls for distance, 0: none; its line).
AMBUSH = {"Ambush III": (0, 1836), "Ambush II": (1, 1830), "Ambush I": (2, 1814)}
NEXUS_RADIUS = 12.0
NEXUS_RULE = f"Perks §12.6 Nexus ({BOOK} L4346)"


def _rule(rank: str) -> str:
    return f"Perks §12.4 {rank} ({BOOK} L{AMBUSH[rank][1]})"


def ambush_rank(w: Work, uid: int) -> str | None:
    """The best Ambush rank the unit has (III before II before I), or ``None``."""
    perks = index(w.setup).units[uid].unit
    return next((r for r in AMBUSH if r in perks), None)


def _nexus_allows(w: Work, uid: int, p: Point) -> bool:
    info = w.info(uid)
    idx = index(w.setup)
    for u in w.units:
        n = u.uid
        if "Nexus" not in idx.units[n].unit or w.enemies(uid, n) or n == uid:
            continue
        if u.location is not Location.TABLE or not u.living():
            continue
        r = w.info(n).radius
        for x, y in w.xy(n):
            if math.hypot(p[0] - x, p[1] - y) - r + info.radius <= NEXUS_RADIUS + 1e-9:
                return True
    return False


def outside_zone(w: Work, uid: int, model: int, p: Point) -> str | None:
    """Whether a model of ``uid`` outside its Deployment Zone may deploy at ``p`` under Nexus
    or Ambush: ``None`` when it may, else why not."""
    info = w.info(uid)
    if _nexus_allows(w, uid, p):
        return None
    rank = ambush_rank(w, uid)
    if rank is None:
        return f"model {model + 1} of {info.label} is outside its Deployment Zone"
    if w.flow.turn < 2:
        return (
            f"model {model + 1} of {info.label} is outside its Deployment Zone; {rank} is "
            f"available from Game Turn 2 ({_rule(rank)})"
        )
    if not bases_ground.model_on_board(w, uid, model, p):  # its outline (§1.3)
        return f"model {model + 1} of {info.label} is off the battlefield"
    return perk_sentinel.refusal(w, uid, model, p, rank)  # Sentinel (L1749)


def _in_own_zone(w: Work, uid: int) -> bool:
    info = w.info(uid)
    zone = w.zones[info.side]
    if zone is None:
        return False
    if info.base is not None:  # an oval or rectangle: all its outline in the zone (§1.3)
        return bool(
            bases_ground.zone_holds(
                w, uid, zone, w.xy(uid), bases_ground.end_facings(w, uid, w.units[uid].present())
            ).all()
        )
    return all(w.field.in_zone(zone, p, info.radius) for p in w.xy(uid))


def _nexus_placed(w: Work, uid: int) -> bool:
    return all(_nexus_allows(w, uid, (float(x), float(y))) for x, y in w.xy(uid))


def _fits(w: Work, uid: int, pos: tuple[Point, ...]) -> bool:
    from warbench.rulesets.warsurge.game import geom
    from warbench.rulesets.warsurge.game.coherency import problem_positions

    if not all(bases_ground.model_on_board(w, uid, k, p) for k, p in enumerate(pos)):
        return False
    if problem_positions(w, uid, pos, range(len(pos)), None, None, False):
        return False
    return not w.contacts(uid, geom.as_array(pos))


def _to_reserve(w: Work, uid: int, why: str, rank: str) -> None:
    w.set_unit(uid, location=Location.RESERVE, pos=())
    w.emit("perk", f"{w.label(uid)}: {why}; it returns to Reserve ({rank})", _rule(rank),
           unit=uid, perk=rank)  # fmt: skip


def ambush_after_deploy(work: Work, unit: int) -> None:
    """The Ambush of a unit just deployed outside its Deployment Zone (L1814): its Mastery
    Test, then the scatter (or its normal deployment)."""
    rank = ambush_rank(work, unit)
    u = work.units[unit]
    if rank is None or u.location is not Location.TABLE or u.embarked_in is not None:
        return
    if _in_own_zone(work, unit) or _nexus_placed(work, unit):
        return  # deployed normally
    from warbench.rulesets.warsurge.game.coherency import place_unit

    pos = tuple((float(x), float(y)) for x, y in work.xy(unit))
    if not mastery_test(work, unit, rank):
        _deploy_normally(work, unit, rank, "the Ambush failed")
        return
    dice, _ = AMBUSH[rank]
    dx = dy = 0.0
    if dice:
        res = work.dice.scatter(dice, f"{rank} scatter")
        if not res.hit and res.direction is not None:
            rad = math.radians(res.direction.degrees)  # N is +y, clockwise
            dx, dy = math.sin(rad) * res.distance, math.cos(rad) * res.distance
            work.emit("perk", f'{work.label(unit)}: {rank} scatters {res.distance}" '
                      f"{res.direction.value}", _rule(rank), unit=unit, perk=rank,
                      scatter=res.direction.value, distance=res.distance)  # fmt: skip
        else:
            work.emit("perk", f"{work.label(unit)}: {rank}, a Hit: it lands where placed",
                      _rule(rank), unit=unit, perk=rank, scatter="hit")  # fmt: skip
    if not dx and not dy:
        return
    moved = tuple((x + dx, y + dy) for x, y in pos)
    work.set_unit(unit, location=Location.RESERVE, pos=())
    if _fits(work, unit, moved):
        if _watched(work, unit, moved, rank):
            return
        work.set_unit(unit, location=Location.TABLE, pos=moved)
        return
    lead = moved[0]
    if bases_ground.model_on_board(work, unit, 0, lead):
        around = place_unit(work, unit, lead, near=lead)
        if around is not None and _fits(work, unit, around):
            if _watched(work, unit, around, rank):
                return
            work.set_unit(unit, location=Location.TABLE, pos=around)
            work.emit("perk", f"{work.label(unit)}: placed around its first model ({rank})",
                      _rule(rank), unit=unit, perk=rank)  # fmt: skip
            return
    _to_reserve(work, unit, "no room where it landed", rank)


def _deploy_normally(work: Work, unit: int, rank: str, why: str) -> None:
    """The unit deploys normally instead (the engine's placement in its Deployment Zone), or
    goes back into Reserve when the zone is full."""
    from warbench.rulesets.warsurge.game.coherency import place_unit

    zone = work.zones[work.info(unit).side]
    assert zone is not None
    work.set_unit(unit, location=Location.RESERVE, pos=())
    placed = place_unit(work, unit, work.field.zone_centre(zone), zone=zone)
    if placed is None:
        _to_reserve(work, unit, f"{why} and its Deployment Zone is full", rank)
        return
    work.set_unit(unit, location=Location.TABLE, pos=placed)
    work.emit("perk", f"{work.label(unit)}: {why}, it deploys normally in its Deployment Zone",
              _rule(rank), unit=unit, perk=rank)  # fmt: skip


def _watched(work: Work, unit: int, pos: tuple[Point, ...], rank: str) -> bool:
    """Sentinel (L1749): an Ambush that lands within 12" of an enemy Sentinel "will need to
    choose a different location": it deploys normally (else back into Reserve). True when so."""
    t = perk_sentinel.watcher(work, unit, pos)
    if t is None:
        return False
    text = (
        f'{work.label(unit)} lands within {perk_sentinel.RADIUS:g}" of {work.label(t)}, a Sentinel'
    )
    work.emit("perk", text, perk_sentinel.RULE, unit=unit, sentinel=t)
    _deploy_normally(work, unit, rank, f"{rank} may not be used near a Sentinel")
    return True


# -- Phoenix (L1876), Implant (L2764) and Seed I (L1890): arriving where a unit fell ----------

PHOENIX = "Phoenix"
SEED = "Seed I"
#: The status that keeps a Phoenix or Seed unit from a normal Deploy (``perk_reserve``).
HELD = {PHOENIX: "Phoenix (held in Reserve)", SEED: "Seed (held in Reserve)"}
#: Counters: on a Seed unit, 1 + the uid of the host it is "in"; on a fallen unit, 1 + the uid
#: of the Phoenix that replaced it.
SEED_HOST = "seed host"
REPLACED_BY = "phoenix"
PHOENIX_RULE = f"Perks §12.4 Phoenix ({BOOK} L1876)"
SEED_RULE = f"Perks §12.4 Seed I ({BOOK} L1890)"


def _arrivals(w: Work) -> tuple[list[int], list[int]]:
    idx = index(w.setup)
    phoenix = [uid for uid, p in enumerate(idx.units) if PHOENIX in p.unit]
    seeds = [uid for uid, p in enumerate(idx.units) if SEED in p.unit]
    return phoenix, seeds


def held_refusal(w: Work, uid: int) -> str | None:
    """Why a Phoenix or Seed unit may not Deploy: it arrives only where a unit fell."""
    names = {s.name for s in w.units[uid].statuses}
    if HELD[PHOENIX] in names:
        return (
            f"{w.label(uid)} arrives only by replacing a friendly unit removed as a casualty "
            f"(Phoenix, {PHOENIX_RULE})"
        )
    if SEED_II_HELD in names:
        return f"{w.label(uid)} deploys only through a unit afflicted with Implant ({SEED_II_RULE})"
    if HELD[SEED] in names:
        return (
            f"{w.label(uid)} deploys only through a unit afflicted with Implant (Seed I, "
            f"{SEED_RULE})"
        )
    return None


def _hold(w: Work, uid: int, rank: str) -> None:
    u = w.units[uid]
    if u.location is Location.RESERVE and not any(s.name == HELD[rank] for s in u.statuses):
        w.set_unit(uid, statuses=(*u.statuses, Status(HELD[rank], None, rank)))


def _arrive(w: Work, uid: int, fallen: int, rank: str, rule: str) -> None:
    from warbench.rulesets.warsurge.game.casualties import place_survivors
    from warbench.rulesets.warsurge.game.pauses import Wreck

    u = w.units[uid]
    kept = tuple(s for s in u.statuses if s.name not in HELD.values())
    w.set_unit(uid, statuses=kept, acted=True)
    site = tuple(w.units[fallen].pos)
    w.emit("perk", f"{w.label(uid)} arrives where {w.label(fallen)} fell ({rank})", rule,
           unit=uid, perk=rank, replaced=fallen)  # fmt: skip
    place_survivors(w, Wreck(uid, site, w.info(fallen).radius))
    if w.units[uid].location is Location.TABLE and w.hooks.active(Hook.DEPLOY):
        w.hooks.fire(Hook.DEPLOY, w, unit=uid)


def arrivals(work: Work) -> None:
    """Phoenix and Seed I units held in Reserve; each arrives, §6.6's way (as the survivors of
    a destroyed Transport), where the unit it replaces or grew in was removed as a casualty:
    a Phoenix for each friendly unit destroyed (one Phoenix a unit, L1876), a Seed unit when
    its host is destroyed (L1890). Checked as each Phase and Game Turn starts and ends (after
    the casualties are removed, §5.11)."""
    phoenix, seeds = _arrivals(work)
    if not phoenix and not seeds:
        return
    for uid in phoenix:
        _hold(work, uid, PHOENIX)
    for uid in seeds:
        _hold(work, uid, SEED)
    for uid in seeds:
        u = work.units[uid]
        host = u.counter(SEED_HOST) - 1
        if host < 0 or u.location is not Location.RESERVE:
            continue
        if work.units[host].location is Location.DESTROYED and work.units[host].pos:
            work.units[uid] = work.units[uid].with_counter(SEED_HOST, 0)
            work.dirty = True
            _arrive(work, uid, host, SEED, SEED_RULE)
    for uid in phoenix:
        if work.units[uid].location is not Location.RESERVE:
            continue
        fallen = next(
            (
                f.uid
                for f in work.units
                if f.location is Location.DESTROYED
                and f.pos
                and f.uid != uid
                and not work.enemies(uid, f.uid)
                and not f.counter(REPLACED_BY)
            ),
            None,
        )
        if fallen is None:
            continue
        work.units[fallen] = work.units[fallen].with_counter(REPLACED_BY, uid + 1)
        work.dirty = True
        _arrive(work, uid, fallen, PHOENIX, PHOENIX_RULE)


def implant_on_hp_lost(
    work: Work, unit: int, amount: int, source: str, attacker: int | None
) -> None:
    """Implant (L2764): "As soon as a Target is afflicted with Implant, the player must declare
    which Seed Unit is 'in' the Target" - the engine's choice: the attacker's first Seed I unit
    in Reserve not yet in a host. It stays in even if Cure removes the Implant status ("This
    cannot be removed with Cure")."""
    if attacker is None:
        return
    _, seeds = _arrivals(work)
    if not seeds:
        return
    key = f"u{attacker}/{source}"
    if not any(s.name == "Implant" and s.source == key for s in work.units[unit].statuses):
        return
    if any(work.units[s].counter(SEED_HOST) == unit + 1 for s in seeds):
        return  # a Seed unit is in it already
    for s in seeds:
        if work.enemies(attacker, s) or work.units[s].location is not Location.RESERVE:
            continue
        if work.units[s].counter(SEED_HOST):
            continue
        work.units[s] = work.units[s].with_counter(SEED_HOST, unit + 1)
        work.dirty = True
        work.emit("perk", f"{work.label(s)} is in {work.label(unit)} (Implant, Seed I)",
                  SEED_RULE, unit=s, perk=SEED, host=unit)  # fmt: skip
        return


def _arrivals_turn(work: Work, turn: int) -> None:
    arrivals(work)


def _arrivals_phase(work: Work, phase: str) -> None:
    arrivals(work)


def register_hooks(reg: HookRegistry) -> None:
    """Ambush after a Deploy; Phoenix, Implant and Seed I."""
    reg.register(Hook.DEPLOY, ambush_after_deploy, "Ambush: Mastery Test and scatter", first=True)
    # acts only where the set-up has Seed I units (``_arrivals``; issue 10, session 34)
    reg.register(
        Hook.HP_LOST, implant_on_hp_lost, "Implant: a Seed unit is in the host", perks=[SEED]
    )
    reg.register(
        Hook.TURN_START, _arrivals_turn, "Phoenix, Seed I: arrivals", perks=(PHOENIX, SEED)
    )
    reg.register(
        Hook.PHASE_START, _arrivals_phase, "Phoenix, Seed I: arrivals", perks=(PHOENIX, SEED)
    )
    reg.register(
        Hook.PHASE_END, _arrivals_phase, "Phoenix, Seed I: arrivals", perks=(PHOENIX, SEED)
    )
