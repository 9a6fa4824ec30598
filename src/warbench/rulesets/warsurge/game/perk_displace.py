"""Tactical Weapon Perks that relocate a unit when a Weapon causes HP Loss (Perks
000_94ecc6a4c74d351b.txt §12.5 Tactical; docs/rulings.md "WARSURGE perks in play: session 25,
s25-tactical").

* **Knockback I-II** (L3917, L3933; HP Loss, Skill Test, End of Phase/Step): "the Target is moved
  6" [12"] directly away from the User, but must stop 1" away from Impassable Ground such as
  walls, buildings and other Units. This Perk can be used to move Units away to end a Melee.
  Knockback does not count as Movement." A Skill Test per HP the Weapon causes (§12.1 L123,
  Example 3; one pass is enough, the effect does not stack: ruling 1); a pass queues the
  relocation on the Target (a ``Knockback`` status), made at the end of the Attack Phase
  (Standard, after its casualties are removed) or of the Action Step (Advanced; ruling 2).
* **Force I-II** (L3837, L3859; HP Loss, Skill Test, Immediate): "the User can reposition the
  Target Unit up to 6" [12"] in any direction, but must stop at Impassable Ground such as walls,
  buildings and other Units. If the Target Unit is placed into contact with another Unit or
  terrain, the affected Units … receive additional damage (but does not engage a Melee). For each
  Unit, roll D6 [2D6] Attack Dice and multiply by the number of (successful) Force Weapons in the
  Unit. These Attack Dice succeed on a 4+ and allow Saves." The player names a point
  (``Attack.aim``): the Target is pushed straight toward it, up to the distance; else the
  engine's direction is directly away from the User, the full distance (ruling 3). The Target
  stops just short of Base Contact (0.1") with a unit it runs into (ruling 4).

Both are "not Movement": the models do not count as moved, no Movement perk reacts. A Melee the
Target is no longer in Base Contact with ends (§5.14). Unstoppable (L2178) and Courage (L707)
units are unaffected.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from warbench.rulesets.warsurge.game import bases, bases_ground, geom, perk_incorporeal
from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.perk_aim import aim_of
from warbench.rulesets.warsurge.game.state import Location
from warbench.rulesets.warsurge.game.terrain_split import is_split, linked_to_piece

if TYPE_CHECKING:
    from collections.abc import Callable

    from warbench.rulesets.warsurge.game.geom import FloatArray
    from warbench.rulesets.warsurge.game.work import Work

__all__ = [
    "FORCE",
    "KNOCKBACK",
    "KNOCKBACK_PENDING",
    "Slide",
    "end_broken_melees",
    "force_on_hp_lost",
    "knockback_at_phase_end",
    "knockback_on_hp_lost",
    "knockbacks_due",
    "move_rigid",
    "register_hooks",
    "skill_passes",
    "slide",
    "unaffected",
]

BOOK = "000_94ecc6a4c74d351b.txt"
#: Knockback's distance by rank (L3917, L3933).
KNOCKBACK = {"Knockback I": 6.0, "Knockback II": 12.0}
#: Force's greatest distance and its collision dice (D6 or 2D6) by rank (L3837, L3859).
FORCE = {"Force I": (6.0, 1), "Force II": (12.0, 2)}
_LINES = {"Knockback I": 3917, "Knockback II": 3933, "Force I": 3837, "Force II": 3859}
#: A Knockback waiting for the end of the Attack Phase: ``Knockback 12@u3`` on the Target.
KNOCKBACK_PENDING = "Knockback"
#: How far short of another unit a Force push stops (no Base Contact, so no Melee: ruling 4).
FORCE_GAP = 0.1
#: The step of the path search (inches); the stop is then found to 1/64 of it.
_STEP = 0.1


def _rule(rank: str) -> str:
    return f"Perks §12.5 {rank} ({BOOK} L{_LINES[rank]})"


@dataclass(frozen=True)
class Slide:
    """Where a straight push stops: the distance travelled, the units and whether terrain (or
    the battlefield's edge) stopped it."""

    distance: float
    units: tuple[int, ...]
    terrain: bool
    edge: bool
    #: a split unit's models outside stopped where they would lose Coherency with their
    #: terrain piece (001 L4460-4462; rulings "WARSURGE terrain in play: session 26" 12)
    tether: bool = False


def _clear_of(
    work: Work, uid: int, pts: FloatArray, marg: FloatArray, d0: FloatArray, oxy: FloatArray,
    orad: FloatArray, ouid: np.ndarray, imp0: np.ndarray, margin: float, terrain_too: bool,
    dist: Callable[[FloatArray], FloatArray],
) -> tuple[set[int], bool, bool]:  # fmt: skip
    """What blocks the unit's models at ``pts``: other units closer than their margin
    (``marg``, per other base) that it came nearer to, Impassable Ground within ``margin`` it
    was not within at the start (``terrain_too``), the battlefield's edge."""
    r = work.info(uid).radius
    f = work.field
    shape = work.info(uid).base is not None  # an oval or rectangle: its outline (§1.3)
    models = work.units[uid].present()
    if shape:
        edge = not bases_ground.all_on_board(work, uid, pts, models)
    else:
        edge = not all(f.on_board((float(p[0]), float(p[1])), r) for p in pts)
    hit: set[int] = set()
    if len(oxy):
        d = dist(pts).min(axis=0)  # the true bases when oval or rectangular (§1.3)
        bad = (d < marg - 1e-9) & (d < d0 - 1e-9)
        hit = {int(x) for x in ouid[bad]}
    terrain = False
    if terrain_too and f.board.terrain and any(t.impassable for t in f.board.terrain):
        if shape:
            near = bases_ground.near_impassable(work, uid, pts, models, margin)
        else:
            near = np.asarray(f.g.on_impassable(pts, r + margin), dtype=bool)
        terrain = bool((near & ~imp0).any())
    return hit, terrain, edge


def slide(
    work: Work, uid: int, direction: FloatArray, distance: float, margin: float,
    goal: int | None = None, through: bool = False,
) -> Slide:  # fmt: skip
    """How far ``uid`` (its models on the table, as one rigid formation) travels along the unit
    vector ``direction``, up to ``distance``, stopping ``margin`` short of other units and of
    Impassable Ground (a unit it starts nearer than that only stops it by coming closer). The
    ``goal`` unit stops it only on touching (Base Contact); ``through``: only the goal and the
    battlefield's edge stop it (the spot it ends on is then backed off to a clear one)."""
    u = work.units[uid]
    models = u.present()
    r = work.info(uid).radius
    starts = geom.as_array([u.pos[i] for i in models])
    t = work.table()
    mask = t.uid != uid
    if through:
        mask &= t.uid == goal
    oxy, orad, ouid = t.xy[mask], t.r[mask], t.uid[mask]
    marg = np.where(ouid == goal, 0.0, margin) if goal is not None else np.full(len(ouid), margin)

    def dist(pts: FloatArray) -> FloatArray:
        return bases.table_distances(work, uid, pts, r, t, mask)

    d0 = dist(starts).min(axis=0) if len(oxy) else np.zeros(0, dtype=np.float64)
    f = work.field
    if f.board.terrain and any(tt.impassable for tt in f.board.terrain):
        imp0 = (
            bases_ground.near_impassable(work, uid, starts, models, margin)
            if work.info(uid).base is not None  # an oval or rectangle: its outline (§1.3)
            else np.asarray(f.g.on_impassable(starts, r + margin), dtype=bool)
        )
    else:
        imp0 = np.zeros(len(starts), dtype=bool)

    piece = u.terrain if is_split(u) else None  # a split unit (001 L4459-4462)
    tether = [False]

    def blocked(s: float) -> tuple[set[int], bool, bool]:
        pts = starts + direction * s
        out = _clear_of(work, uid, pts, marg, d0, oxy, orad, ouid, imp0, margin, not through, dist)
        if (
            piece is not None
            and not any(out)
            and not linked_to_piece(
                work, piece, [(float(x), float(y)) for x, y in pts], r, (uid, models)
            )
        ):
            tether[0] = True
            return out[0], out[1], True
        return out

    n = max(1, math.ceil(distance / _STEP))
    good = 0.0
    for k in range(1, n + 1):
        s = min(distance, k * _STEP)
        hit, terrain, edge = blocked(s)
        if not (hit or terrain or edge):
            good = s
            continue
        bad = s
        for _ in range(6):  # the stop between the last clear point and the first blocked one
            mid = (good + bad) / 2
            h2, t2, e2 = blocked(mid)
            if h2 or t2 or e2:
                bad, hit, terrain, edge = mid, h2, t2, e2
            else:
                good = mid
        tether[0] = False
        blocked(bad)  # what stopped it: the piece's Coherency, or a unit, terrain, the edge
        out = Slide(good, tuple(sorted(hit)), terrain, edge and not tether[0], tether[0])
        return _back_off(work, uid, direction, out, margin, goal) if through else out
    out = Slide(good, (), False, False)
    return _back_off(work, uid, direction, out, margin, goal) if through else out


def _back_off(
    work: Work, uid: int, direction: FloatArray, stop: Slide, margin: float, goal: int | None
) -> Slide:
    """A spot reached through units and terrain: back along the line, by steps, to the first
    one where the models stand clear of every base (``margin``; the goal may touch) and of
    Impassable Ground ("If insufficient space, a Unit relocates as close as possible")."""
    u = work.units[uid]
    r = work.info(uid).radius
    starts = geom.as_array([u.pos[i] for i in u.present()])
    t = work.table()
    mask = t.uid != uid
    oxy, ouid = t.xy[mask], t.uid[mask]
    marg = np.where(ouid == goal, -1e-3, margin - 1e-6)
    f = work.field
    imp = f.board.terrain and any(tt.impassable for tt in f.board.terrain)
    s = stop.distance
    while s > 1e-9:
        pts = starts + direction * s
        clear = not len(oxy) or bool(
            (bases.table_distances(work, uid, pts, r, t, mask).min(axis=0) >= marg).all()
        )
        if clear and imp and work.info(uid).base is not None:  # its outline (§1.3)
            clear = not bool(bases_ground.near_impassable(work, uid, pts, u.present()).any())
        elif clear and imp:
            clear = not bool(np.asarray(f.g.on_impassable(pts, r), dtype=bool).any())
        if clear:
            break
        s = max(0.0, s - _STEP / 4)
    return Slide(s, stop.units, stop.terrain, stop.edge, stop.tether)


def _away(work: Work, frm: int, to: int) -> FloatArray | None:
    """The unit vector from ``frm``'s models (its Transport's, when embarked) to ``to``'s."""
    holder = work.outermost(frm)
    if work.units[holder].location is not Location.TABLE:
        return None
    a = work.xy(holder).mean(axis=0)
    b = work.xy(to).mean(axis=0)
    v = b - a
    norm = float(np.hypot(*v))
    if norm < 1e-9:
        return None
    out: FloatArray = v / norm
    return out


def move_rigid(work: Work, uid: int, vec: FloatArray) -> None:
    """Translate the unit's models by ``vec``; not Movement (nothing counts as moved)."""
    from warbench.rulesets.warsurge.game.coherency import full_positions

    u = work.units[uid]
    models = u.present()
    new = [(u.pos[i][0] + float(vec[0]), u.pos[i][1] + float(vec[1])) for i in models]
    work.set_unit(uid, pos=full_positions(u, models, new))


def end_broken_melees(work: Work, uid: int, rule: str) -> None:
    """The Melees of ``uid`` whose units are no longer in Base Contact end ("This Perk can be
    used to move Units away to end a Melee")."""
    if work.units[uid].location is not Location.TABLE:
        return
    now = work.contacts(uid)
    for foe in work.engaged_with(uid):
        if foe in now or work.units[foe].location is not Location.TABLE:
            continue
        work.engaged.discard((min(uid, foe), max(uid, foe)))
        work.emit(
            "melee_end",
            f"{work.label(uid)} and {work.label(foe)} are no longer in Base Contact; their "
            "Melee ends",
            rule,
            units=[uid, foe],
        )


def _unaffected(work: Work, uid: int, perk: str) -> bool:
    """Unstoppable (L2178) and Courage (L707) units are unaffected by Force and Knockback."""
    from warbench.rulesets.warsurge.effects.runtime import immunities
    from warbench.rulesets.warsurge.game.perk_effects import status_immunities

    info = work.info(uid)
    names = [*info.unit.profile.perks, *info.traits]
    return perk in immunities(names) | status_immunities(work.units[uid].statuses)


def unaffected(work: Work, uid: int, perk: str) -> bool:
    """Whether ``uid`` is unaffected by ``perk`` ("Force" or "Knockback"): Unstoppable (L2178)
    or Courage (L707); what an Attack's preview says (``preview_push``)."""
    return _unaffected(work, uid, perk)


def _rank(work: Work, attacker: int, weapon: str, ranks: tuple[str, ...]) -> str | None:
    from warbench.rulesets.warsurge.game.perk_index import weapon_perks

    ps = weapon_perks(work, attacker, weapon)
    best = [r for r in ranks if r in ps]
    return best[-1] if best else None


def skill_passes(
    work: Work, attacker: int, weapon: str, target: int, tests: int, label: str, *, stop: bool
) -> int:
    """Roll ``tests`` Skill Tests for ``attacker``'s ``weapon`` against ``target`` (Skill,
    Resist, Fugue; Offering and Sacrifice rescue a wholly failed roll); ``stop``: stop at the
    first pass (an effect that does not stack). Returns the passes."""
    from warbench.rulesets.warsurge.effects.model import PerkTest, TestSpec
    from warbench.rulesets.warsurge.effects.rolls import run_test
    from warbench.rulesets.warsurge.game.perk_limits import skill_modifier
    from warbench.rulesets.warsurge.game.perk_offering import rescue as offering_rescue
    from warbench.rulesets.warsurge.game.perk_turn import fugued, lose_hp

    mod = skill_modifier(work, attacker, weapon, target)
    fail = fugued(work, attacker)
    passed = 0
    for _ in range(tests):
        out = run_test(work.dice, TestSpec(PerkTest.SKILL), mod, auto_fail=fail, label=label)
        passed += out.passed
        if stop and passed:
            break
    if not passed and tests and not fail:  # Offering, Sacrifice (L871, L1017)
        passed = int(offering_rescue(work, attacker, label, lose_hp))
    return passed


def _target_ok(work: Work, unit: int, attacker: int | None, amount: int) -> bool:
    return (
        attacker is not None
        and amount > 0
        and unit != attacker
        and work.units[unit].location is Location.TABLE
        and bool(work.units[unit].living())
    )


# -- Knockback I-II (L3917, L3933) ----------------------------------------------------------------


def knockback_on_hp_lost(
    work: Work, unit: int, amount: int, source: str, attacker: int | None
) -> None:
    """L3917: on HP Loss and a passed Skill Test the Target is moved 6" (II: 12") directly away
    from the User at the end of the Phase (Standard: the Attack Phase)."""
    if not _target_ok(work, unit, attacker, amount):
        return
    assert attacker is not None
    rank = _rank(work, attacker, source, tuple(KNOCKBACK))
    if rank is None:
        return
    if _unaffected(work, unit, "Knockback"):
        work.emit("perk", f"{work.label(unit)} is unaffected by {rank}", _rule(rank), unit=unit)
        return
    passed = skill_passes(work, attacker, source, unit, amount, f"{rank} Skill Test", stop=True)
    work.emit("perk", f"{work.label(unit)}: {rank} from {work.label(attacker)}'s {source}, "
              f"Skill Test {'passed' if passed else 'failed'}", _rule(rank), unit=unit,
              perk=rank, landed=bool(passed))  # fmt: skip
    if not passed:
        return
    from warbench.rulesets.warsurge.game.state import Status

    dist = KNOCKBACK[rank]
    pending = Status(f"{KNOCKBACK_PENDING} {dist:g}@u{attacker}", 1, f"u{attacker}/{source}")
    work.set_unit(unit, statuses=(*work.units[unit].statuses, pending))


def _knockback(work: Work, unit: int, attacker: int, dist: float, rank: str) -> None:
    if not work.standing(unit):
        return
    way = _away(work, attacker, unit)
    if way is None:
        return
    stop = slide(work, unit, way, dist, 1.0)
    if stop.distance > 1e-6:
        move_rigid(work, unit, way * stop.distance)
    why = ""
    if stop.distance < dist - 1e-6:
        why = (
            ", stopped 1\" short of " + ", ".join(work.label(x) for x in stop.units)
            if stop.units
            else (", stopped 1\" short of Impassable Ground" if stop.terrain
                  else ", stopped in Coherency with its terrain piece (L4460)" if stop.tether
                  else ", stopped at the battlefield's edge")
        )  # fmt: skip
    work.emit("perk", f'{work.label(unit)} is knocked back {stop.distance:.1f}" directly away '
              f"from {work.label(attacker)} ({rank}{why})", _rule(rank), unit=unit, perk=rank,
              distance=round(stop.distance, 3))  # fmt: skip
    end_broken_melees(work, unit, _rule(rank))


def knockback_at_phase_end(work: Work, phase: str) -> None:
    """End of Phase/Step (L279): the Knockbacks waiting are made as the Attack Phase ends
    (Standard) or, for any left, as the Action Steps end (Advanced)."""
    from warbench.rulesets.warsurge.game.state import Phase

    if phase in (Phase.ATTACK.value, Phase.ACTIONS.value):
        knockbacks_due(work)


def knockbacks_due(work: Work) -> None:
    """The Knockbacks waiting on units are made, unit by unit, in the order they were caused;
    the statuses go. Advanced: ``turn.advance`` calls this as each Action Step ends."""
    for u in list(work.units):
        if not u.statuses:
            continue
        waiting = [s for s in u.statuses if s.name.startswith(f"{KNOCKBACK_PENDING} ")]
        if not waiting:
            continue
        kept = tuple(s for s in u.statuses if s not in waiting)
        work.set_unit(u.uid, statuses=kept)
        for s in waiting:
            dist_s, _, who = s.name.removeprefix(f"{KNOCKBACK_PENDING} ").partition("@u")
            dist = float(dist_s)
            rank = "Knockback I" if dist <= 6.0 else "Knockback II"
            _knockback(work, u.uid, int(who), dist, rank)


# -- Force I-II (L3837, L3859) --------------------------------------------------------------------


def force_on_hp_lost(work: Work, unit: int, amount: int, source: str, attacker: int | None) -> None:
    """L3837: on HP Loss and a passed Skill Test the User repositions the Target at once up to
    6" (II: 12"); a Target that runs into a unit or Impassable Ground takes, with each unit it
    runs into, D6 (II: 2D6) x (successful Force Weapons) Attack Dice hitting on 4+, with Saves."""
    if not _target_ok(work, unit, attacker, amount):
        return
    assert attacker is not None
    rank = _rank(work, attacker, source, tuple(FORCE))
    if rank is None:
        return
    if _unaffected(work, unit, "Force"):
        work.emit("perk", f"{work.label(unit)} is unaffected by {rank}", _rule(rank), unit=unit)
        return
    carriers = _carriers(work, attacker, source)
    passed = min(
        carriers,
        skill_passes(work, attacker, source, unit, amount, f"{rank} Skill Test", stop=False),
    )
    work.emit("perk", f"{work.label(unit)}: {rank} from {work.label(attacker)}'s {source}, "
              f"{passed} successful Force Weapons", _rule(rank), unit=unit, perk=rank,
              landed=bool(passed))  # fmt: skip
    if not passed:
        return
    dist, dice = FORCE[rank]
    point = aim_of(source)  # the player's point (Attack.aim), else away from the User
    if point is not None:
        v = np.asarray(point, dtype=np.float64) - work.xy(unit).mean(axis=0)
        norm = float(np.hypot(*v))
        way, dist = (v / norm, min(dist, norm)) if norm > 1e-9 else (None, 0.0)
    else:
        way = _away(work, attacker, unit)
    if way is None:
        return
    stop = slide(work, unit, way, dist, FORCE_GAP)
    if stop.distance > 1e-6:
        move_rigid(work, unit, way * stop.distance)
    hit = stop.distance < dist - 1e-6 and (bool(stop.units) or stop.terrain)
    what = ", ".join(work.label(x) for x in stop.units) or "Impassable Ground"
    whither = (
        f"toward ({point[0]:g}, {point[1]:g})" if point else f"away from {work.label(attacker)}"
    )
    work.emit("perk", f'{work.label(unit)} is forced {stop.distance:.1f}" {whither} '
              f"({rank}" + (f", into {what})" if hit else ", in Coherency with its terrain piece)"
                            if stop.tether else ")"),
              _rule(rank), unit=unit, perk=rank, distance=round(stop.distance, 3))  # fmt: skip
    end_broken_melees(work, unit, _rule(rank))
    if not hit:
        return
    for victim in (unit, *stop.units):
        if work.standing(victim):
            n = sum(work.dice.d6(f"{rank} collision dice") for _ in range(dice)) * passed
            collision(work, victim, n, attacker, rank)


def _carriers(work: Work, uid: int, weapon: str) -> int:
    """The living models of ``uid`` carrying ``weapon`` (at least one)."""
    info = work.info(uid)
    u = work.units[uid]
    return max(1, sum(1 for i in u.living() if weapon in info.model_weapons[i]))


def collision(work: Work, uid: int, n: int, attacker: int, rank: str) -> int:
    """``n`` Attack Dice at ``uid`` succeeding on a 4+, each success saved by the Armour Save,
    then the AEGIS Save (§5 Attack Step 4, no AP); casualties are removed at once (Immediate,
    L287). Returns the HP lost."""
    if work.units[uid].statuses and perk_incorporeal.immune(work, uid, attacker):
        work.emit("perk", f"{work.label(uid)} is Incorporeal: the {rank} collision does nothing to "
                  "it", perk_incorporeal.RULE, unit=uid, perk=rank)  # fmt: skip
        return 0
    from warbench.rulesets.warsurge.attack import AttackContext
    from warbench.rulesets.warsurge.game.casualties import remove_models, restore_coherency
    from warbench.rulesets.warsurge.game.perk_turn import note_hp_lost
    from warbench.rulesets.warsurge.game.work import store_unit_state, to_unit_state
    from warbench.rulesets.warsurge.odds import AttackPlan, allocate_loss

    p = work.info(uid).unit.profile
    hits = sum(1 for _ in range(n) if work.dice.d6(f"{rank} Attack Dice") >= 4)
    loss = 0
    for _ in range(hits):
        if p.armour is not None and work.dice.d6("Armour Save") >= p.armour:
            continue
        if p.aegis is not None and work.dice.d6("AEGIS Save") >= p.aegis:
            continue
        loss += 1
    st = to_unit_state(work, uid)
    before = [m.hp for m in st.models]
    lost = 0
    if loss:
        lost = sum(k for _, k in allocate_loss(AttackPlan(st, st, AttackContext()), loss))
    store_unit_state(work, uid, st)
    work.emit("perk", f"{work.label(uid)}: {rank} collision, {n} Attack Dice, {hits} successes, "
              f"{lost} HP lost", _rule(rank), unit=uid, perk=rank, hp_lost=lost)  # fmt: skip
    if lost:
        note_hp_lost(work, uid, attacker)
        u = work.units[uid]
        fell = [i for i, m in enumerate(st.models) if m.hp <= 0 < before[i]]
        if fell and work.hooks.active(Hook.CASUALTY):
            for i in fell:
                work.hooks.fire(Hook.CASUALTY, work, unit=uid, model=i, source=rank)
        u = work.units[uid]
        dead = [i for i in u.present() if u.hp[i] <= 0]
        if dead:
            remove_models(work, uid, dead, f"{rank} collision (removed at once)")
            if work.units[uid].living():
                restore_coherency(work, uid)
    return lost


def register_hooks(reg: HookRegistry) -> None:
    """Register this module's hooks (one call from :func:`.perk_families.register_family_hooks`)."""
    reg.register(Hook.HP_LOST, force_on_hp_lost, "Force", perks=FORCE)
    reg.register(Hook.HP_LOST, knockback_on_hp_lost, "Knockback", perks=KNOCKBACK)
    reg.register(
        Hook.PHASE_END, knockback_at_phase_end, "Knockback at the end of the Phase", perks=KNOCKBACK
    )
