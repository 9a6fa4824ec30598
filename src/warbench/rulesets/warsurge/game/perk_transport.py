"""Aeonian Transport perks of session 25 (issue 11, lane s25-aeon): Exposed (Perks
000_94ecc6a4c74d351b.txt L1280), Unsheltered (L1438) and Enclosed (L1248). The ``transport``
machinery of the effects table; rulings "WARSURGE perks in play: session 25, s25-aeon".

* **Exposed** (L1280): "Embarked Units and the User can both be Targeted by any Unit and the
  Embarked Units may Attack without Fire Points equipped. Set the User's Fire Points Stat to N."
  Its passengers are Targeted like units on the battlefield standing where the Transport
  stands (:func:`open_holder`, read by ``targeting``); they attack from it without Fire Points
  (:func:`fires_without_points`, read by ``transports.fires_from_transport``); its Fire Points
  are N in the set-up (``state.build_setup``).
* **Unsheltered** (L1438): "Embarked Units do not need Fire Points to attack, but are Targeted
  and receive casualties before the User." As Exposed, and the Transport itself may not be
  Targeted while a unit with a living model is embarked in it (:func:`target_refusal`).
* **Enclosed** (L1248): "If the User's passengers are Targeted by Weapons, the User's Defence,
  Armour and AEGIS can be used instead of the passenger's stats. If the User has Saves that can
  be rerolled, the passenger will benefit if using the User's Saves." The defender's choice is
  the engine's (:func:`enclosed_state`): the Transport's stats when they are better (Defence,
  then Armour, then AEGIS), with the Transport's Save rerolls (Reinforced, Resilient).
* **Transport Link** (L1420): "The User must be linked to another Transport Unit with this Perk.
  Any embarked Units can transfer from one Transport to the other instead of disembarking. The
  Transport Units are not linked while one of the Transports is in Reserve, or if a casualty.
  Only two Units can be linked together at once". The Transports of a player with the perk are
  linked in pairs in roster order (:func:`linked_partner`); a passenger transfers with an
  ``Embark`` naming the other Transport, as its Move or Dash (``transports.verify_transfer``).
* **Rift Gate** (L1384): "Embarked Units inside the User can choose to enter Reserve, and Units
  in Reserve can choose to Deploy inside the User. This can occur even if the User is outside
  the player's Deployment Zone." A passenger leaves it into Reserve with ``Disembark(reserve=
  True)`` as its Move or Dash (:func:`enter_reserve`); a unit in Reserve deploys inside it with
  ``Deploy(into=…)`` in a Deploy Phase (:func:`deploy_inside`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game.memo import per_setup
from warbench.rulesets.warsurge.game.state import Location

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.attack import UnitState
    from warbench.rulesets.warsurge.game.state import GameSetup
    from warbench.rulesets.warsurge.game.work import Work

BOOK = "000_94ecc6a4c74d351b.txt"
EXPOSED = "Exposed"
UNSHELTERED = "Unsheltered"
ENCLOSED = "Enclosed"
LINK = "Transport Link"
RIFT = "Rift Gate"
LINES = {EXPOSED: "L1280", UNSHELTERED: "L1438", ENCLOSED: "L1248", LINK: "L1420", RIFT: "L1384"}
#: the Save rerolls that go with a unit's Saves (Perks L1250 "Saves that can be rerolled")
SAVE_REROLLS = ("Reinforced", "Resilient")


@dataclass(frozen=True)
class _Index:
    open: frozenset[int]  # Transports with Exposed or Unsheltered
    unsheltered: frozenset[int]
    enclosed: frozenset[int]
    links: dict[int, int]  # Transport Link: each linked Transport's partner
    rift: frozenset[int]  # Rift Gate


@per_setup
def index(setup: GameSetup) -> _Index:
    """The Transports of ``setup`` with this module's perks (computed once per set-up)."""
    opened, unsheltered, enclosed, rift = set(), set(), set(), set()
    linkers: dict[int, list[int]] = {}
    for uid, info in enumerate(setup.units):
        if info.transport <= 0:  # "User must be a Transport" (L1248, L1280, L1438)
            continue
        perks = set(info.unit.profile.perks) | set(info.traits)
        if EXPOSED in perks or UNSHELTERED in perks:
            opened.add(uid)
        if UNSHELTERED in perks:
            unsheltered.add(uid)
        if ENCLOSED in perks:
            enclosed.add(uid)
        if RIFT in perks:
            rift.add(uid)
        if LINK in perks:
            linkers.setdefault(info.player, []).append(uid)
    links: dict[int, int] = {}
    for mine in linkers.values():  # pairs in roster order; an odd one out is not linked
        for a, b in zip(mine[0::2], mine[1::2], strict=False):
            links[a], links[b] = b, a
    out = _Index(
        frozenset(opened), frozenset(unsheltered), frozenset(enclosed), links, frozenset(rift)
    )
    return out


def _rank(w: Work, holder: int) -> str:
    return UNSHELTERED if holder in index(w.setup).unsheltered else EXPOSED


def open_holder(w: Work, target: int) -> int | None:
    """The Exposed or Unsheltered Transport on the battlefield that ``target`` is embarked in
    (so it may be Targeted from outside, L1280, L1438), or ``None``. A passenger of a passenger
    is not: its own Transport is not on the battlefield."""
    opened = index(w.setup).open
    if not opened:
        return None
    u = w.units[target]
    h = u.embarked_in
    if u.location is not Location.EMBARKED or h is None or h not in opened:
        return None
    return h if w.units[h].location is Location.TABLE else None


def fires_without_points(w: Work, holder: int) -> bool:
    """Passengers of an Exposed or Unsheltered Transport attack without Fire Points."""
    return holder in index(w.setup).open


def open_passengers(w: Work, uid: int, foes: list[int]) -> list[int]:
    """The enemy passengers of the Exposed or Unsheltered Transports among ``foes`` (the
    candidates of the players' legal Attacks)."""
    opened = index(w.setup).open
    if not opened:
        return []
    return [
        p
        for f in foes
        if f in opened
        for p in w.passengers(f)
        if open_holder(w, p) == f and w.enemies(uid, p) and w.units[p].living()
    ]


def target_refusal(w: Work, uid: int, weapon: str, target: int) -> str | None:
    """Unsheltered: the Transport is not Targeted while its passengers can be (L1438
    "are Targeted and receive casualties before the User")."""
    if target not in index(w.setup).unsheltered or w.units[target].location is not Location.TABLE:
        return None
    inside = [p for p in w.passengers(target) if w.units[p].living()]
    if not inside:
        return None
    return (
        f"{w.label(target)} is Unsheltered: its passengers ({', '.join(map(w.label, inside))}) "
        f"are Targeted before it ({BOOK} L1438)"
    )


def unshields_pacifist(w: Work, target: int) -> bool:
    """Pacifist (L1362): "If the User … embarks a Unit with a Crew or Unsheltered Perk (that do
    not have the Pacifist Perk), they can be Targeted normally"."""
    u = w.units[target]
    h = u.embarked_in
    if u.location is not Location.EMBARKED or h is None:
        return False
    perks = set(w.info(h).unit.profile.perks)
    if "Pacifist" in perks:
        return False
    return bool(perks & {UNSHELTERED, "Crew I", "Crew II", "Crew III"})


def _guard(st: UnitState) -> tuple[int, int, int]:
    """How well a unit's stats protect it (higher is better): Defence, then Armour, then AEGIS."""
    p = st.profile
    return (p.defence, 7 - (p.armour or 7), 7 - (p.aegis or 7))


def enclosed_holder(w: Work, target: int) -> int | None:
    """The Enclosed Transport ``target`` is embarked in, or ``None``."""
    enc = index(w.setup).enclosed
    if not enc:
        return None
    u = w.units[target]
    h = u.embarked_in
    return h if u.location is Location.EMBARKED and h in enc else None


def targeted_state(
    w: Work, target: int, to_state: Callable[[Work, int], UnitState], attacker: int
) -> UnitState:
    """The state of the Targeted unit ``target`` (``to_state``: ``work.to_unit_state``), with
    Enclosed's stats for a passenger of an Enclosed Transport (L1248), unless ``attacker`` is
    inside that Transport too ("Breach and Hijack Perks ignore this Perk", L1252)."""
    st = to_state(w, target)
    holder = enclosed_holder(w, target)
    if holder is None or w.units[attacker].embarked_in == holder:
        return st
    return enclosed_state(w, target, st, to_state(w, holder))


def enclosed_state(w: Work, target: int, st: UnitState, holder_st: UnitState | None) -> UnitState:
    """A Targeted passenger of an Enclosed Transport (L1248) with the Transport's Defence,
    Armour and AEGIS (``holder_st``: the Transport's current state) when they protect it
    better, and then the Transport's Save rerolls instead of its own."""
    if holder_st is None or _guard(holder_st) <= _guard(st):
        return st
    h = holder_st.profile
    perks = [p for p in st.profile.perks if p not in SAVE_REROLLS]
    perks += [p for p in h.perks if p in SAVE_REROLLS]
    profile = st.profile.model_copy(
        update={"defence": h.defence, "armour": h.armour, "aegis": h.aegis, "perks": perks}
    )
    return replace(st, profile=profile)


# -- Transport Link (L1420) ------------------------------------------------------------------


def _gone(w: Work, uid: int) -> bool:
    """In Reserve or a casualty: the state that breaks a Transport Link (L1424)."""
    u = w.units[uid]
    return u.location in (Location.RESERVE, Location.DESTROYED) or not u.living()


def links_in_game(w: Work) -> bool:
    """Some Transports of the game are linked (Transport Link)."""
    return bool(index(w.setup).links)


def linked_partner(w: Work, holder: int | None) -> int | None:
    """The Transport linked to ``holder`` while the link holds (neither in Reserve nor a
    casualty, L1424), or ``None``."""
    links = index(w.setup).links
    if not links or holder is None or holder not in links:
        return None
    other = links[holder]
    return None if _gone(w, holder) or _gone(w, other) else other


def link_refusal(w: Work, uid: int, transport: int) -> str | None:
    """Why the passenger ``uid`` cannot transfer to ``transport`` by Transport Link, or
    ``None``."""
    holder = w.units[uid].embarked_in
    links = index(w.setup).links
    if holder is None or links.get(holder) != transport:
        return (
            f"{w.label(uid)} is embarked and may only transfer to a Transport linked to its own "
            f"(Transport Link, {BOOK} L1420); to leave it, Disembark"
        )
    if linked_partner(w, holder) is None:
        return (
            f"{w.label(holder)} and {w.label(transport)} are not linked while one is in Reserve "
            f"or a casualty (Transport Link, {BOOK} L1424)"
        )
    return None


# -- Rift Gate (L1384) -----------------------------------------------------------------------


def rift_gates(w: Work, side: int) -> list[int]:
    """The side's Transports with Rift Gate on the battlefield (a unit in Reserve may deploy
    inside them)."""
    gates = index(w.setup).rift
    return [
        g
        for g in sorted(gates)
        if w.info(g).side == side and w.units[g].location is Location.TABLE and w.units[g].living()
    ]


def rift_gate_refusal(w: Work, uid: int, into: int) -> str | None:
    """Why the unit in Reserve ``uid`` may not deploy inside ``into``, or ``None`` (capacity
    is checked by the caller, §6.4)."""
    if not 0 <= into < len(w.units) or into == uid or w.info(into).side != w.info(uid).side:
        return f"unit {into} is not a friendly Transport"
    if into not in index(w.setup).rift:
        return f"{w.label(into)} has no Rift Gate: units deploy inside it only with it (L1384)"
    if into not in rift_gates(w, w.info(uid).side):
        return f"{w.label(into)} is not on the battlefield"
    return None


def deploy_inside(w: Work, uid: int, into: int) -> None:
    """The unit deploys inside the Rift Gate Transport ``into`` (L1384), as a passenger deployed
    with its Transport (§6.1)."""
    w.set_unit(uid, location=Location.EMBARKED, embarked_in=into, pos=())
    w.emit(
        "deploy",
        f"{w.label(uid)} deploys inside {w.label(into)} through its Rift Gate",
        f"Rift Gate, {BOOK} L1384",
        unit=uid,
        perk=RIFT,
    )


def rift_exit_refusal(w: Work, uid: int) -> str | None:
    """Why the passenger ``uid`` may not leave its Transport into Reserve, or ``None``."""
    holder = w.units[uid].embarked_in
    if holder is None or holder not in index(w.setup).rift:
        return (
            f"{w.label(uid)} is not inside a Transport with Rift Gate: it cannot enter Reserve "
            f"from it (L1384)"
        )
    if w.units[holder].location is Location.RESERVE:
        return f"{w.label(holder)} is in Reserve already"
    return None


def exits_to_reserve(w: Work, uid: int) -> bool:
    """The passenger may leave its Transport into Reserve (Rift Gate)."""
    return bool(index(w.setup).rift) and rift_exit_refusal(w, uid) is None


def enter_reserve(w: Work, uid: int) -> None:
    """The passenger leaves its Rift Gate Transport into Reserve, with any passengers of its
    own (L1384)."""
    holder = w.units[uid].embarked_in
    for p in (uid, *w.passengers(uid)):
        w.set_unit(p, location=Location.RESERVE, embarked_in=None, pos=())
    w.engaged = {pair for pair in w.engaged if uid not in pair}
    w.emit(
        "perk",
        f"{w.label(uid)} leaves {w.label(holder or 0)} through its Rift Gate into Reserve",
        f"Rift Gate, {BOOK} L1384",
        unit=uid,
        perk=RIFT,
    )
