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
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

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
LINES = {EXPOSED: "L1280", UNSHELTERED: "L1438", ENCLOSED: "L1248", LINK: "L1420"}
#: the Save rerolls that go with a unit's Saves (Perks L1250 "Saves that can be rerolled")
SAVE_REROLLS = ("Reinforced", "Resilient")


@dataclass(frozen=True)
class _Index:
    open: frozenset[int]  # Transports with Exposed or Unsheltered
    unsheltered: frozenset[int]
    enclosed: frozenset[int]
    links: dict[int, int]  # Transport Link: each linked Transport's partner


_INDEX: dict[int, tuple[GameSetup, _Index]] = {}


def index(setup: GameSetup) -> _Index:
    """The Transports of ``setup`` with this module's perks (computed once per set-up)."""
    hit = _INDEX.get(id(setup))
    if hit is not None and hit[0] is setup:
        return hit[1]
    opened, unsheltered, enclosed = set(), set(), set()
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
        if LINK in perks:
            linkers.setdefault(info.player, []).append(uid)
    links: dict[int, int] = {}
    for mine in linkers.values():  # pairs in roster order; an odd one out is not linked
        for a, b in zip(mine[0::2], mine[1::2], strict=False):
            links[a], links[b] = b, a
    out = _Index(frozenset(opened), frozenset(unsheltered), frozenset(enclosed), links)
    if len(_INDEX) > 64:
        _INDEX.clear()
    _INDEX[id(setup)] = (setup, out)
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


def targeted_state(w: Work, target: int, to_state: Callable[[Work, int], UnitState]) -> UnitState:
    """The state of the Targeted unit ``target`` (``to_state``: ``work.to_unit_state``), with
    Enclosed's stats for a passenger of an Enclosed Transport (L1248)."""
    st = to_state(w, target)
    holder = enclosed_holder(w, target)
    return st if holder is None else enclosed_state(w, target, st, to_state(w, holder))


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
