"""Units that turn against their own side (Perks 000_94ecc6a4c74d351b.txt, issue 11, session 25).

    "Traitorous — When casualties are removed, check for Traitorous. If the User has lost 50% or
    more of its total HP, it betrays the player, counting as an enemy Unit to the player for
    the rest of the game and cannot contest or claim Objectives. The User must direct Attacks
    at the closest friendly Unit, only directing Movement to bring all Weapons in Range. …
    If the User was in a Melee with an enemy Unit, they are now unengaged. If all friendly
    Units are casualties, the Traitorous Unit becomes a casualty. Example: A Unit starting with
    16 HP or 17 HP will trigger Traitorous when it has 8 HP or less." (L2313-L2322)
    "Enslaved — The User needs a designated friendly Unit as its 'Enslaver'. If the Enslaver is
    a casualty or is in Reserve without the User, then the User will become an enemy Unit to
    the player for the rest of the game and cannot contest or claim Objectives. [the same
    behaviour] If all friendly Units are casualties, the User becomes a casualty." (L1254-L1262)

* **Changing side**: the unit takes the status :data:`~.state.DEFECTED` (for the rest of the
  game). ``Work.enemies`` and ``GameState.enemies`` then call it an enemy of every other unit,
  its own side's included, and the battlefield index files it under a side of its own
  (``UnitGS.table_side``), so Targets, Base Contact, Melees and the engine's candidates treat
  it so; its Melees end at once ("now unengaged"). Its own player still activates it (the
  rules fix what it does), and it holds and contests no Objective (``perk_stealth.may_hold``).
* **What it does** (:func:`target_refusal`, :func:`move_refusal`, asked by ``perk_psych``): its
  Weapons (not Heal) may Target only the closest unit of its former side on the Battlefield
  (ties allowed; none there, no Target), and no model of a Move or Dash may end farther from
  that unit while a Weapon (not Heal) is out of its Range (Psychotic's rule).
* **When**: Traitorous when casualties are removed (the end of the Standard Attack Phase; in
  the Advanced playstyle, and for HP lost with no Saves outside an Attack Phase, when the HP
  is lost), with the unit's HP at half its full HP or less (lost * 2 >= full); Enslaved when
  its Enslaver is destroyed, or is in Reserve while the User is not (checked after casualties
  and at every Phase's start and end). The Enslaver is the most expensive other unit of its
  player without Enslaved (as Controlled's controller: the roster designates none yet).
* **Its end**: when no other unit of its former side is left (every one destroyed; units in
  Reserve are not casualties), it becomes a casualty.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from warbench.rulesets.warsurge.game import geom
from warbench.rulesets.warsurge.game.memo import per_setup
from warbench.rulesets.warsurge.game.perk_closest import heal_weapon, moves_away, nearest
from warbench.rulesets.warsurge.game.state import DEFECTED, Location, Phase, Status
from warbench.rulesets.warsurge.game.terrain_split import is_split, linked_to_piece

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.actions import Point
    from warbench.rulesets.warsurge.game.hooks import HookRegistry
    from warbench.rulesets.warsurge.game.state import GameSetup
    from warbench.rulesets.warsurge.game.work import Work

__all__ = [
    "ENSLAVED",
    "TRAITOROUS",
    "closest_friends",
    "defect",
    "enslaver_of",
    "move_refusal",
    "register_hooks",
    "target_refusal",
]

TRAITOROUS, ENSLAVED = "Traitorous", "Enslaved"
_LINE = {TRAITOROUS: 2313, ENSLAVED: 1254}


def rule(perk: str) -> str:
    section = "Psychological" if perk == TRAITOROUS else "Aeonian"
    return f"Perks §12.4 {section} {perk} (000_94ecc6a4c74d351b.txt L{_LINE[perk]})"


@per_setup
def index(setup: GameSetup) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]:
    """(Traitorous units, (Enslaved unit, its Enslaver) pairs) of ``setup``, once per set-up."""
    from warbench.rulesets.warsurge.effects.table import load_table

    table = load_table()

    def held(k: int) -> frozenset[str]:
        info = setup.units[k]
        names = (*info.unit.profile.perks, *info.traits)
        return frozenset(r.name for n in names if (r := table.find(n)) is not None)

    perks = [held(k) for k in range(len(setup.units))]
    traitors = tuple(k for k, ps in enumerate(perks) if TRAITOROUS in ps)
    slaves: list[tuple[int, int]] = []
    for k, info in enumerate(setup.units):
        if ENSLAVED not in perks[k]:
            continue
        masters = [(-o.points, j) for j, o in enumerate(setup.units)
                   if j != k and o.player == info.player and ENSLAVED not in perks[j]]  # fmt: skip
        if masters:
            slaves.append((k, min(masters)[1]))
    out = (traitors, tuple(slaves))
    return out


def enslaver_of(work: Work, uid: int) -> int | None:
    """The Enslaver of ``uid`` (Enslaved), or ``None``."""
    return next((m for s, m in index(work.setup)[1] if s == uid), None)


def _alive(work: Work, uid: int) -> bool:
    u = work.units[uid]
    return u.location is not Location.DESTROYED and bool(u.living())


def defect(work: Work, uid: int, perk: str, why: str) -> None:
    """``uid`` turns against its side for the rest of the game (:data:`DEFECTED`)."""
    u = work.units[uid]
    if u.defected:
        return
    work.set_unit(uid, statuses=(*u.statuses, Status(DEFECTED, None, perk)))
    work.engaged = {pair for pair in work.engaged if uid not in pair}  # "now unengaged"
    work.sides_changed()
    side = work.side_name(work.info(uid).side)
    work.emit("perk", f"{work.label(uid)} turns against {side} ({perk}: {why})", rule(perk),
              unit=uid, perk=perk)  # fmt: skip
    if u.location is Location.TABLE:
        _part(work, uid, perk)


def _part(work: Work, uid: int, perk: str) -> None:
    """The defector's models touching a unit of another side step the least distance out of
    Base Contact (its Melees are over); any it cannot part from stay locked with it, and a
    unit of its former side it touches is now in a Melee with it (§4.3)."""
    import numpy as np

    from warbench.rulesets.warsurge.game.melee import engage_new_contacts

    side = work.info(uid).side
    u = work.units[uid]
    r = work.info(uid).radius
    t = work.table()
    mine = t.uid == uid
    foe = ~mine & np.isin(t.uid, [k for k in range(len(work.units)) if work.info(k).side != side])
    pos = list(u.pos)
    moved = False
    for i in u.present():
        p = np.asarray(pos[i], dtype=np.float64)
        gaps = np.sqrt(((t.xy - p) ** 2).sum(axis=1)) - t.r - r
        if not (foe & (gaps <= geom.CONTACT)).any():
            continue
        spot = _clear_spot(work, uid, i, pos, p, t, mine, gaps, foe)
        if spot is not None:
            was = pos[i]
            pos[i] = spot
            here = [pos[k] for k in u.present()]
            if (
                linked_to_piece(work, u.terrain, here, r, (uid, u.present()))  # split (L4460)
                if is_split(u) and u.terrain is not None
                else geom.coherent(geom.as_array(here), r)
            ):
                moved = True
            else:  # a step that breaks Coherency (§4.2) is not taken: it stays locked
                pos[i] = was
    if moved:
        work.set_unit(uid, pos=tuple(pos))
        work.emit("perk", f"{work.label(uid)} steps out of Base Contact ({perk})", rule(perk),
                  unit=uid, perk=perk)  # fmt: skip
    engage_new_contacts(work, uid)


def _clear_spot(
    work: Work, uid: int, i: int, pos: list[Point], p: Any, t: Any, mine: Any, gaps: Any, foe: Any
) -> Point | None:
    """The nearest spot for model ``i`` out of Base Contact with another side's units, on the
    battlefield, on no other base (its own unit's moved models included)."""
    import math

    import numpy as np

    r = work.info(uid).radius
    near = int(np.argmin(np.where(foe, gaps, np.inf)))
    away = p - t.xy[near]
    norm = float(np.hypot(*away)) or 1.0
    others = ~mine
    own = [pos[k] for k in work.units[uid].present() if k != i]
    for step in (0.1, 0.25, 0.5, 1.0, 1.5, 2.0):
        straight = p + away / norm * (step - float(gaps[near]))
        for c in [(float(straight[0]), float(straight[1])), *geom.ring_points(
                (float(p[0]), float(p[1])), step - float(gaps[near]), 16)]:  # fmt: skip
            if not work.field.spot_ok(c, r):
                continue
            g = np.sqrt(((t.xy[others] - np.asarray(c)) ** 2).sum(axis=1)) - t.r[others] - r
            if (g < 0.0).any() or (g[foe[others]] <= geom.CONTACT + 0.01).any():
                continue
            if any(math.dist(c, q) < 2 * r - geom.OVERLAP_TOL for q in own):
                continue
            return c
    return None


def _former_friends(work: Work, uid: int) -> list[int]:
    side = work.info(uid).side
    return [t for t in work.side_units(side) if t != uid and not work.units[t].defected]


def closest_friends(work: Work, uid: int) -> list[int]:
    """The units of the defector's former side on the Battlefield at the least distance from
    it (several when tied)."""
    return nearest(work, uid, (t for t in _former_friends(work, uid) if work.standing(t)))


def _perk(work: Work, uid: int) -> str:
    s = next((s for s in work.units[uid].statuses if s.name == DEFECTED), None)
    return s.source if s is not None and s.source in _LINE else TRAITOROUS


def target_refusal(work: Work, uid: int, weapon: str, target: int) -> str | None:
    """Why the defector ``uid``'s ``weapon`` may not Target ``target`` (not a closest unit of
    its former side), or ``None``. Heal Weapons are left to their own rules."""
    u = work.units[uid]
    if not u.defected or heal_weapon(work, uid, weapon):
        return None
    closest = closest_friends(work, uid)
    if target in closest:
        return None
    names = ", ".join(work.label(t) for t in closest) or "none on the Battlefield"
    perk = _perk(work, uid)
    return (f"{weapon} must Target the closest unit of {work.label(uid)}'s former side "
            f"({names}): {perk}, {rule(perk)}")  # fmt: skip


def move_refusal(
    work: Work, uid: int, starts: tuple[Point, ...], new: tuple[Point, ...]
) -> str | None:
    """Why this Move or Dash of a defector is not allowed ("only directing Movement to bring
    all Weapons in Range": a model ends farther from the closest unit of its former side while
    a Weapon is out of its Range), or ``None``."""
    if not work.units[uid].defected:
        return None
    closest = closest_friends(work, uid)
    if not moves_away(work, uid, closest, starts, new):
        return None
    perk = _perk(work, uid)
    names = ", ".join(work.label(c) for c in closest)
    return (f"{work.label(uid)} must direct its Movement toward the closest unit of its former "
            f"side ({names}): no model may end farther from it ({perk}, {rule(perk)})")  # fmt: skip


# -- when a unit defects ---------------------------------------------------------------------


def _traitors(work: Work, units: tuple[int, ...] | None = None) -> None:
    """Traitorous: half its full HP or more lost (L2313, the example: 16 or 17 HP, at 8)."""
    for uid in index(work.setup)[0] if units is None else units:
        u = work.units[uid]
        if u.defected or not _alive(work, uid):
            continue
        full = work.info(uid).max_hp
        lost = full - sum(max(0, u.hp[i]) for i in u.living())
        if 2 * lost >= full:
            defect(work, uid, TRAITOROUS, f"{lost} of its {full} HP lost")


def _slaves(work: Work) -> None:
    """Enslaved: its Enslaver destroyed, or in Reserve without it (L1254)."""
    for uid, master in index(work.setup)[1]:
        u = work.units[uid]
        if u.defected or not _alive(work, uid):
            continue
        m = work.units[master]
        if not _alive(work, master):
            defect(work, uid, ENSLAVED, f"its Enslaver {work.label(master)} is a casualty")
        elif m.location is Location.RESERVE and u.location is not Location.RESERVE:
            defect(work, uid, ENSLAVED, f"its Enslaver {work.label(master)} is in Reserve")


def _last_stand(work: Work) -> None:
    """A defector whose former side has no unit left becomes a casualty."""
    from warbench.rulesets.warsurge.game.casualties import remove_models

    for u in list(work.units):
        if not u.defected or not _alive(work, u.uid):
            continue
        if any(_alive(work, t) for t in _former_friends(work, u.uid)):
            continue
        perk = _perk(work, u.uid)
        work.emit("perk", f"{work.label(u.uid)}: no friendly unit is left; it becomes a "
                  f"casualty ({perk})", rule(perk), unit=u.uid, perk=perk)  # fmt: skip
        living = work.units[u.uid].living()
        work.set_unit(u.uid, hp=tuple(0 if i in living else h for i, h in enumerate(u.hp)))
        remove_models(work, u.uid, living, perk)


def _check(work: Work) -> None:
    traitors, slaves = index(work.setup)
    if slaves:
        _slaves(work)
    if traitors or slaves:
        _last_stand(work)


def on_hp_lost(work: Work, unit: int, amount: int, source: str, attacker: int | None) -> None:
    """Advanced (casualties removed at once) and HP lost outside an Attack Phase: Traitorous
    checks now; the Standard Attack Phase waits for its casualties' removal."""
    from warbench.rulesets.warsurge.game.advstate import Playstyle

    if unit not in index(work.setup)[0]:
        return
    advanced = work.setup.playstyle is Playstyle.ADVANCED
    if advanced or work.flow.phase is not Phase.ATTACK:
        _traitors(work, (unit,))
        _last_stand(work)


def at_phase_end(work: Work, phase: str) -> None:
    traitors, slaves = index(work.setup)
    if not traitors and not slaves:
        return
    if traitors and phase == Phase.ATTACK.value:  # Standard: casualties removed now (§5.11)
        _traitors(work)
    _check(work)


def at_phase_start(work: Work, phase: str) -> None:
    if any(index(work.setup)):
        _check(work)


def on_casualty(work: Work, unit: int, model: int, source: str) -> None:
    if any(index(work.setup)):
        _check(work)


def at_turn_end(work: Work, turn: int) -> None:
    traitors, slaves = index(work.setup)
    if traitors:
        _traitors(work)
    if traitors or slaves:
        _check(work)


def register_hooks(reg: HookRegistry) -> None:
    from warbench.rulesets.warsurge.game.hooks import Hook

    # acts only for the set-up's Traitorous units (``index``; issue 10, session 34)
    reg.register(Hook.HP_LOST, on_hp_lost, "Traitorous (Advanced, no Saves)", perks=[TRAITOROUS])

    # each asks ``index`` first and does nothing without Traitorous or Enslaved units (s37)
    def any_defector(setup: GameSetup) -> bool:
        return any(index(setup))

    reg.register(Hook.PHASE_END, at_phase_end, "Traitorous, Enslaved", when=any_defector)
    reg.register(Hook.PHASE_START, at_phase_start, "Enslaved", when=any_defector)
    reg.register(Hook.CASUALTY, on_casualty, "Enslaved (Enslaver falls)", when=any_defector)
    reg.register(Hook.TURN_END, at_turn_end, "Traitorous (end of Game Turn)", when=any_defector)
