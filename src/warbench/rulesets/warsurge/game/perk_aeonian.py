"""Aeonian Unit Perks of lane b (issue 11): Crew I/II (Perks 000_94ecc6a4c74d351b.txt L1186,
L1192) and Formation (L1284). The ``crew`` and ``formation`` machineries of the effects table.

* **Crew I** (L1186): "For the User to wield Weapons and Perks, it needs at least one Unit
  embarked within it. If no Unit is embarked, the Unit can still perform Movement." Its Weapons
  are refused (:func:`weapon_refusal`, called by ``perk_limits.weapon_refusal``) while it carries
  nobody.
* **Crew II** (L1192): "User cannot make any Movement without a Unit embarked": the status
  ``Crew (empty)`` (Move and Dash 0) while it carries nobody, refreshed as each Phase starts and
  after every Movement, Embark, Disembark and Deploy.
* **Formation** (L1284): "When all models in the Unit maintain base contact with at least one
  other model in the Unit, they receive either … 1) +1 Defence 2) +1 Power to All Weapons,
  decided at the start of the Game Turn. If at any time a model in the Unit loses base contact,
  the bonus is lost." The bonus is chosen as each Game Turn starts (the engine's choice: +1
  Defence; rulings "perks in play: lane b, session 4") and is the status
  ``Formation (Defence)`` or ``Formation (Power)`` while every living model touches another.
* **Controlled** (L1178): "The User requires a designated friendly Unit as its 'controller'. If
  the controller becomes a casualty, then the User will become a casualty also. If the
  controller is in Reserve, the User can only roll Saves." The controller is the most
  expensive other friendly unit without Controlled (the roster does not designate one yet;
  rulings "perks in play: lane b, session 4").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from warbench.rulesets.warsurge.game import geom, perk_counter, perk_limitation
from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.memo import per_setup
from warbench.rulesets.warsurge.game.state import Location, Status

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.perk_limitation import Restore
    from warbench.rulesets.warsurge.game.state import GameSetup
    from warbench.rulesets.warsurge.game.work import Work

BOOK = "000_94ecc6a4c74d351b.txt"
#: Crew III (L1194) "Functions as per Crew II" (its control: ``perk_crew``)
CREW = {"Crew I": "L1186", "Crew II": "L1192", "Crew III": "L1194"}
EMPTY = "Crew (empty)"
FORMATION = "Formation"
FORMS = {"Defence": "Formation (Defence)", "Power": "Formation (Power)"}
#: Counter: the bonus chosen for the Game Turn (1 Defence, 2 Power).
CHOSEN = "formation bonus"


@dataclass(frozen=True)
class _Index:
    crew: tuple[tuple[int, str], ...]  # (uid, its Crew rank)
    formation: tuple[int, ...]
    controlled: tuple[tuple[int, int], ...]  # (User, its controller)


@per_setup
def index(setup: GameSetup) -> _Index:
    """The units of ``setup`` with Crew or Formation (computed once per set-up)."""
    crew, formation = [], []
    for uid, info in enumerate(setup.units):
        perks = set(info.unit.profile.perks) | set(info.traits)
        for rank in ("Crew III", "Crew II", "Crew I"):
            if rank in perks:
                crew.append((uid, rank))
                break
        if FORMATION in perks:
            formation.append(uid)
    controlled = []
    for uid, info in enumerate(setup.units):
        if CONTROLLED not in info.unit.profile.perks:
            continue
        friends = [
            (-o.points, k)
            for k, o in enumerate(setup.units)
            if k != uid and o.player == info.player and CONTROLLED not in o.unit.profile.perks
        ]
        if friends:
            controlled.append((uid, min(friends)[1]))
    out = _Index(tuple(crew), tuple(formation), tuple(controlled))
    return out


# -- Crew I/II -------------------------------------------------------------------------------


def _empty(work: Work, uid: int) -> bool:
    return not work.passengers(uid)


def weapon_refusal(work: Work, uid: int, weapon: str) -> str | None:
    """Crew I/II: a Transport with nobody embarked may not wield its Weapons (L1186);
    Controlled: none while its controller is in Reserve (L1178)."""
    if index(work.setup).controlled and (why := controlled_refusal(work, uid, weapon)):
        return why
    for cid, rank in index(work.setup).crew:
        if cid == uid and _empty(work, uid):
            return (
                f"{work.label(uid)} has no Unit embarked: it cannot wield {weapon} "
                f"({rank}, {BOOK} {CREW[rank]})"
            )
    return None


def refresh_crew(work: Work) -> None:
    """Crew II: ``Crew (empty)`` on every Crew II Transport carrying nobody, off the others."""
    for uid, rank in index(work.setup).crew:
        if rank == "Crew I":
            continue
        u = work.units[uid]
        has = any(s.name == EMPTY for s in u.statuses)
        empty = u.location is Location.TABLE and _empty(work, uid)
        if empty and not has:
            work.set_unit(uid, statuses=(*u.statuses, Status(EMPTY, None, f"u{uid}/{rank}")))
            work.emit(
                "perk",
                f"{work.label(uid)} has no Unit embarked: it cannot make any Movement "
                f"({rank}, {BOOK} {CREW[rank]})",
                f"{rank}, {BOOK} {CREW[rank]}",
                unit=uid,
                perk=rank,
            )
        elif has and not empty:
            work.set_unit(uid, statuses=tuple(s for s in u.statuses if s.name != EMPTY))


# -- Formation -------------------------------------------------------------------------------


def in_formation(work: Work, uid: int) -> bool:
    """Whether every living model of the unit is in base contact with another of its models
    (a single model never is)."""
    u = work.units[uid]
    if u.location is not Location.TABLE:
        return False
    living = u.living()
    if len(living) < 2:
        return False
    xy = np.asarray([u.pos[i] for i in living], dtype=np.float64)
    gap = np.linalg.norm(xy[:, None, :] - xy[None, :, :], axis=2)
    np.fill_diagonal(gap, np.inf)
    reach = 2 * work.info(uid).radius + geom.CONTACT
    return bool((gap.min(axis=1) <= reach).all())


def default_bonus(work: Work, uid: int) -> str:
    """The engine's choice of Formation's bonus for the Game Turn: +1 Defence."""
    return "Defence"


def refresh_formation(work: Work, uid: int) -> None:
    """Formation's status as the unit stands now (the bonus chosen for the Game Turn)."""
    u = work.units[uid]
    chosen = u.counter(CHOSEN)
    want = ""
    if chosen and in_formation(work, uid):
        want = FORMS["Power" if chosen == 2 else "Defence"]
    have = [s.name for s in u.statuses if s.name in FORMS.values()]
    if have == ([want] if want else []):
        return
    kept = tuple(s for s in u.statuses if s.name not in FORMS.values())
    if want:
        kept = (*kept, Status(want, None, f"u{uid}/Formation"))
    work.set_unit(uid, statuses=kept)
    text = (
        f"{work.label(uid)} is in Formation: {want.split('(')[1].rstrip(')')} +1"
        if want
        else f"{work.label(uid)} has lost base contact: no Formation bonus"
    )
    work.emit("perk", text, f"Formation, {BOOK} L1284", unit=uid, perk=FORMATION)


def choose_bonus(work: Work, uid: int, bonus: str) -> None:
    """Formation's bonus for this Game Turn (``"Defence"`` or ``"Power"``)."""
    if bonus not in FORMS:
        raise ValueError(f"Formation gives +1 Defence or +1 Power, not {bonus!r} (L1284)")
    work.units[uid] = work.units[uid].with_counter(CHOSEN, 1 if bonus == "Defence" else 2)
    work.dirty = True
    refresh_formation(work, uid)


# -- Controlled ------------------------------------------------------------------------------

CONTROLLED = "Controlled"
ADRIFT = "Controlled (controller in Reserve)"


def controller_of(work: Work, uid: int) -> int | None:
    """The unit that controls ``uid`` (Controlled), or ``None``."""
    for user, ctl in index(work.setup).controlled:
        if user == uid:
            return ctl
    return None


def _fallen(work: Work, uid: int) -> bool:
    u = work.units[uid]
    return u.location is Location.DESTROYED or (
        u.location is not Location.RESERVE and not u.living()
    )


def _slay(work: Work, user: int, ctl: int, now: bool) -> None:
    """The User falls with its controller: in an Attack (``now`` false) its models are slain
    and removed with that Attack's casualties; otherwise removed at once, wherever it is."""
    u = work.units[user]
    if u.location is Location.DESTROYED:
        return
    if u.living():
        work.emit("perk", f"{work.label(user)} falls with its controller {work.label(ctl)}",
                  f"Controlled, {BOOK} L1178", unit=user, perk=CONTROLLED)  # fmt: skip
    work.set_unit(user, hp=tuple(0 for _ in u.hp))
    if not now:
        return
    from warbench.rulesets.warsurge.game.casualties import remove_models

    remove_models(work, user, [i for i, gone in enumerate(u.removed) if not gone], CONTROLLED)


def refresh_controlled(work: Work) -> None:
    """Controlled units whose controller fell are slain; the others can only roll Saves
    (Move and Dash 0, no Weapons) while their controller is in Reserve."""
    for user, ctl in index(work.setup).controlled:
        u = work.units[user]
        if u.location is Location.DESTROYED:
            continue
        if _fallen(work, ctl):
            _slay(work, user, ctl, now=True)
            continue
        adrift = work.units[ctl].location is Location.RESERVE
        has = any(s.name == ADRIFT for s in u.statuses)
        if adrift and not has:
            work.set_unit(user, statuses=(*u.statuses, Status(ADRIFT, None, f"u{user}/Controlled")))
        elif has and not adrift:
            work.set_unit(user, statuses=tuple(s for s in u.statuses if s.name != ADRIFT))


def controlled_refusal(work: Work, uid: int, weapon: str) -> str | None:
    """Controlled: no Weapons while the controller is in Reserve."""
    ctl = controller_of(work, uid)
    if ctl is not None and work.units[ctl].location is Location.RESERVE:
        return (
            f"{work.label(uid)}'s controller {work.label(ctl)} is in Reserve: it can only roll "
            f"Saves (Controlled, {BOOK} L1178)"
        )
    return None


# -- hooks -----------------------------------------------------------------------------------


def at_turn_start(work: Work, turn: int) -> None:
    refresh_controlled(work)
    for uid in index(work.setup).formation:
        if work.units[uid].location is Location.TABLE:
            choose_bonus(work, uid, default_bonus(work, uid))
    refresh_crew(work)


def at_phase_start(work: Work, phase: str) -> None:
    refresh_controlled(work)
    refresh_crew(work)
    for uid in index(work.setup).formation:
        refresh_formation(work, uid)


def disengage(work: Work, unit: int) -> None:
    """Disengage (L735): a unit that used it and moved out of Base Contact "no longer [is]
    engaged in that Melee" with those enemies."""
    u = work.units[unit]
    if not u.statuses or not any(s.name == "Disengage" for s in u.statuses):
        return
    now = work.contacts(unit) if u.location is Location.TABLE else set()
    for foe in work.engaged_with(unit):
        if foe in now:
            continue
        work.engaged.discard((min(unit, foe), max(unit, foe)))
        work.emit(
            "melee",
            f"{work.label(unit)} disengages from its Melee with {work.label(foe)}",
            f"Disengage, {BOOK} L735",
            units=[unit, foe],
            perk="Disengage",
        )


def after_move(work: Work, unit: int, dash: bool, distance: float) -> None:
    disengage(work, unit)
    refresh_crew(work)
    if unit in index(work.setup).formation:
        refresh_formation(work, unit)


def after_deploy(work: Work, unit: int) -> None:
    refresh_controlled(work)
    refresh_crew(work)
    if unit in index(work.setup).formation:
        if not work.units[unit].counter(CHOSEN):
            choose_bonus(work, unit, default_bonus(work, unit))
        refresh_formation(work, unit)


def after_casualty(work: Work, unit: int, model: int, source: str) -> None:
    for user, ctl in index(work.setup).controlled:
        if ctl == unit and not work.units[ctl].living():
            _slay(work, user, ctl, now=False)  # its casualties go with the Attack's
    if unit in index(work.setup).formation:
        refresh_formation(work, unit)


def _any_unit(setup: GameSetup) -> bool:
    """Whether the set-up has a unit with Crew, Formation or Controlled (``index``)."""
    idx = index(setup)
    return bool(idx.crew or idx.formation or idx.controlled)


def register_hooks(reg: HookRegistry, restore_hp: Restore) -> None:
    """Register lane b's hooks (one call from :func:`.perk_hooks.register_perk_hooks`): this
    module's and :mod:`.perk_limitation`'s."""
    # these go over the set-up's Crew, Formation and Controlled units alone (``index``; s37);
    # after a Move a unit's Disengage status is asked too, in every game
    reg.register(Hook.TURN_START, at_turn_start, "Formation's bonus, Crew II", when=_any_unit)
    reg.register(Hook.PHASE_START, at_phase_start, "Crew II, Formation", when=_any_unit)
    reg.register(Hook.AFTER_MOVE, after_move, "Crew II, Formation")
    reg.register(Hook.DEPLOY, after_deploy, "Crew II, Formation", when=_any_unit)
    reg.register(Hook.CASUALTY, after_casualty, "Formation, Controlled", when=_any_unit)
    perk_limitation.register_hooks(reg, restore_hp)
    perk_counter.register_hooks(reg)
