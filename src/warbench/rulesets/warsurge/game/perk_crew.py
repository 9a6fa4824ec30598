"""Transports changing control (Perks 000_94ecc6a4c74d351b.txt §12.4 Aeonian; issue 11, session 25
wave 2, lane w2-transport): Hijack (L1298) and Crew III (L1194). The ``transport control``
machinery of the effects table; rulings "WARSURGE perks in play: session 25, w2-transport".

    "Hijack — The User can embark enemy Transports (ignoring the Transport Stat) and attack
    embarked passengers. If there are no passengers in the Transport, the User takes control of
    the Transport." (L1298)
    "Crew III — Functions as per Crew II, except User can be embarked and controlled by any Unit
    (friend or foe). If the User becomes unoccupied it counts as a friendly Unit to all players,
    but can be engaged in a Melee if desired." (L1194)

* **Control** is the side-change machinery of Dominate and Undead Legion: the status
  ``Seized by side <n>`` (:data:`~.state.SEIZED`, source ``Hijack`` or ``Crew III``) for the
  rest of the game (or until control changes again): that side acts with the Transport and it
  is that side's for ``enemies``, Objectives and the sides' values (``UnitGS.controller``);
  back on its own side the status goes. A Melee with units no longer its enemies ends; Base
  Contact with its new enemies is a Melee (§4.3).
* **Hijack**: the embarking and the fight inside are ``perk_seed``'s (as Breach's, passengers
  only). The Hijack unit takes control when its enemy Transport holds no other enemy passenger
  with a living model: as it embarks (:func:`after_embark`), after every casualty and as
  every Phase starts and ends (:func:`check`). It is then an ordinary passenger of a friendly
  Transport.
* **Crew III**: as Crew II (``perk_aeonian``). While it holds no passenger with a living model
  ("unoccupied") any unit may embark it (:func:`open_to`, read by ``transports.verify_embark``,
  capacity as usual), and the embarking unit's side takes control. Unoccupied, it "counts as a
  friendly Unit to all players": no Weapon Targets it (:func:`target_refusal`) except those of
  a unit engaged with it in a Melee; units may still Charge it ("can be engaged in a Melee if
  desired": its last controller's enemies). Occupied, only its controller's units embark it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game import perk_seed
from warbench.rulesets.warsurge.game.memo import per_setup
from warbench.rulesets.warsurge.game.state import SEIZED, Location, Status

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.hooks import HookRegistry
    from warbench.rulesets.warsurge.game.state import GameSetup
    from warbench.rulesets.warsurge.game.work import Work

__all__ = [
    "CREW_III",
    "HIJACK",
    "after_embark",
    "check",
    "crew_iii",
    "open_to",
    "register_hooks",
    "take_control",
    "target_refusal",
    "transports_open_to",
]

BOOK = "000_94ecc6a4c74d351b.txt"
HIJACK = "Hijack"
CREW_III = "Crew III"
RULES = {
    HIJACK: f"Perks §12.4 Hijack ({BOOK} L1298)",
    CREW_III: f"Perks §12.4 Crew III ({BOOK} L1194)",
}


@per_setup
def crew_iii(setup: GameSetup) -> tuple[int, ...]:
    """The Transports of ``setup`` with Crew III (once per set-up)."""
    out = tuple(
        info.uid
        for info in setup.units
        if info.transport > 0 and CREW_III in (*info.unit.profile.perks, *info.traits)
    )
    return out


def _occupants(work: Work, tr: int) -> list[int]:
    return [p for p in work.passengers(tr) if work.units[p].living()]


def unoccupied(work: Work, tr: int) -> bool:
    """A Crew III Transport on the battlefield with no passenger that has a living model."""
    return (
        tr in crew_iii(work.setup)
        and work.units[tr].location is Location.TABLE
        and not _occupants(work, tr)
    )


def open_to(work: Work, uid: int, tr: int) -> bool:
    """Whether ``uid`` may embark ``tr`` as any unit may an unoccupied Crew III Transport."""
    return bool(crew_iii(work.setup)) and uid != tr and unoccupied(work, tr)


def transports_open_to(work: Work, uid: int) -> list[int]:
    """The Transports of other sides ``uid`` may embark: unoccupied Crew III ones, and those
    its side has taken control of (for the engine's candidates)."""
    if not crew_iii(work.setup) and not perk_seed.hijackers(work.setup):
        return []
    side, own = _side(work, uid), work.info(uid).side
    return [
        t.uid
        for t in work.setup.units
        if t.side != own
        and t.transport > 0
        and (open_to(work, uid, t.uid) or work.units[t.uid].controller(t.side) == side)
    ]


def _side(work: Work, uid: int) -> int:
    return work.units[uid].controller(work.info(uid).side)


def take_control(work: Work, tr: int, side: int, perk: str, by: int) -> None:
    """``side`` takes control of the Transport ``tr`` (``by`` the unit that did)."""
    t = work.units[tr]
    own = work.info(tr).side
    if t.controller(own) == side:
        return
    kept = tuple(s for s in t.statuses if not s.name.startswith(SEIZED))
    if side != own:
        kept = (*kept, Status(f"{SEIZED}{side}", None, perk))
    work.set_unit(tr, statuses=kept)
    work.sides_changed()
    work.engaged = {(a, b) for a, b in work.engaged if work.enemies(a, b)}
    work.emit("perk", f"{work.label(by)} takes control of {work.label(tr)} for "
              f"{work.side_name(side)} ({perk})", RULES[perk], unit=tr, by=by, perk=perk,
              side=side)  # fmt: skip
    if work.units[tr].location is Location.TABLE:
        from warbench.rulesets.warsurge.game.melee import engage_new_contacts

        engage_new_contacts(work, tr)


def _hijack(work: Work) -> None:
    """Every Hijack unit inside an enemy Transport with no other enemy passenger left takes
    control of it (L1298)."""
    for h in perk_seed.hijackers(work.setup):
        tr = perk_seed.host_of(work, h)
        if tr is None or not work.units[h].living():
            continue
        if any(work.enemies(h, p) for p in _occupants(work, tr)):
            continue
        take_control(work, tr, _side(work, h), HIJACK, h)


def check(work: Work) -> None:
    if perk_seed.hijackers(work.setup):
        _hijack(work)


def after_embark(work: Work, uid: int, tr: int) -> None:
    """``uid`` has just embarked ``tr`` (``movement.apply_move``): a Crew III Transport passes
    to its side; a Hijack unit in an empty enemy Transport takes control of it."""
    if tr in crew_iii(work.setup):
        take_control(work, tr, _side(work, uid), CREW_III, uid)
    check(work)


def target_refusal(work: Work, uid: int, weapon: str, target: int) -> str | None:
    """An unoccupied Crew III Transport "counts as a friendly Unit to all players": only a unit
    engaged with it in a Melee attacks it (L1194)."""
    if not crew_iii(work.setup) or not unoccupied(work, target):
        return None
    if target in work.engaged_with(uid):
        return None
    return (f"{work.label(target)} is unoccupied: it counts as a friendly Unit to all players "
            f"and is attacked only in a Melee ({RULES[CREW_III]})")  # fmt: skip


def _casualty(work: Work, unit: int, model: int, source: str) -> None:
    check(work)


def _phase(work: Work, phase: str) -> None:
    check(work)


def register_hooks(reg: HookRegistry) -> None:
    from warbench.rulesets.warsurge.game.hooks import Hook

    # ``check`` asks the set-up's Hijack units first (s37)
    hijack, name = perk_seed.hijackers, "Hijack: control of an emptied Transport"
    reg.register(Hook.CASUALTY, _casualty, name, when=hijack)
    reg.register(Hook.PHASE_START, _phase, name, when=hijack)
    reg.register(Hook.PHASE_END, _phase, name, when=hijack)
