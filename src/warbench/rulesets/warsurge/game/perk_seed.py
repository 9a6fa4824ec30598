"""Seed II (Deployment, Perks 000_94ecc6a4c74d351b.txt L1904), session 25 (issue 11, lane
s25-aeon): the ``seed`` machinery of the effects table; rulings "WARSURGE perks in play:
session 25, s25-aeon".

"The User can only Deploy via Units afflicted with the 'Implant' Perk. As soon as a Target is
afflicted with Implant, the player must declare which Seed Unit is 'in' the Unit. This cannot
be removed with Cure. The Seed II User will count as embarked and engaged in a Melee with the
Target, though the Target may still Move, use Perks and Attack other Units as normal. The
Target can also choose to Attack the User that is 'embarked' inside of it, counted as in a
Melee. When a Target with Implant is removed as a casualty, the Seed Unit is placed immediately
where the last model of the Target Unit was removed, similar to a destroyed Transport."

* Held in Reserve (the status ``Seed II (held in Reserve)``, read by
  ``perk_deploy.held_refusal``) until an Implant Weapon of its side afflicts an enemy unit on
  the battlefield; then (the engine's declaration: the first such Seed II unit, after any
  Seed I unit ``perk_deploy`` puts in) it is :attr:`~.state.Location.EMBARKED` in that host
  (:func:`implant_on_hp_lost`).
* Inside, it and its host attack each other as in a Melee (:func:`seed_view`, read first by
  ``targeting``: every Weapon of every model, at every model), and nobody else: no other unit
  attacks it, it attacks no other unit and it does not leave the host (:func:`host_of`, read by
  ``transports`` and ``turn``). The host is not locked in any Melee by it.
* When the host is destroyed, it leaves it as the passengers of a destroyed Transport (§6.6,
  ``casualties.destroy_unit``). Should the host go into Reserve, the Seed II unit goes with it,
  out of it, and is held in Reserve again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.state import Location, Status

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.state import GameSetup
    from warbench.rulesets.warsurge.game.work import Work

BOOK = "000_94ecc6a4c74d351b.txt"
SEED_II = "Seed II"
HELD = "Seed II (held in Reserve)"
RULE = f"Perks §12.4 Seed II ({BOOK} L1904)"
#: the counter of a Seed I unit naming its host (``perk_deploy.SEED_HOST``)
SEED_I_HOST = "seed host"

_INDEX: dict[int, tuple[GameSetup, tuple[int, ...]]] = {}


def seeds(setup: GameSetup) -> tuple[int, ...]:
    """The units of ``setup`` with Seed II (computed once per set-up)."""
    hit = _INDEX.get(id(setup))
    if hit is not None and hit[0] is setup:
        return hit[1]
    out = tuple(
        uid
        for uid, info in enumerate(setup.units)
        if SEED_II in info.unit.profile.perks or SEED_II in info.traits
    )
    if len(_INDEX) > 64:
        _INDEX.clear()
    _INDEX[id(setup)] = (setup, out)
    return out


def host_of(w: Work, uid: int) -> int | None:
    """The enemy unit the Seed II unit ``uid`` is inside, or ``None``."""
    if uid not in seeds(w.setup):
        return None
    u = w.units[uid]
    h = u.embarked_in
    if u.location is not Location.EMBARKED or h is None or not w.enemies(uid, h):
        return None
    return h


def seeds_in(w: Work, host: int) -> list[int]:
    """The Seed II units inside ``host``."""
    return [s for s in seeds(w.setup) if host_of(w, s) == host]


def seed_targets(w: Work, uid: int) -> list[int]:
    """The units ``uid`` fights inside as a Seed II host or seed (for the legal Attacks)."""
    if not seeds(w.setup):
        return []
    host = host_of(w, uid)
    return [host] if host is not None else seeds_in(w, uid)


#: what a unit may attack of another: the Weapons' users and the Target's models, or a reason
View = tuple[dict[str, list[int]], frozenset[int]] | str | None


def seed_view(w: Work, uid: int, target: int) -> View:
    """What ``uid`` may attack of ``target`` when either is a Seed II unit inside its host: as in
    a Melee (§5.9: every Weapon of every model at every model) between the two; the reason it
    may not for any other pair with a seed inside; ``None`` when no seed is concerned."""
    if not seeds(w.setup):
        return None
    if host_of(w, uid) == target or host_of(w, target) == uid:
        users = {wp.name: w.units[uid].present() for wp in w.info(uid).unit.weapons}
        return users, frozenset(w.units[target].present())
    if (host := host_of(w, uid)) is not None:
        return f"{w.label(uid)} is inside {w.label(host)}: it attacks only its host ({RULE})"
    if (host := host_of(w, target)) is not None:
        return f"{w.label(target)} is inside {w.label(host)}: only its host attacks it ({RULE})"
    return None


def stays_inside(w: Work, uid: int) -> str | None:
    """Why a Seed II unit does not leave its host (it emerges only when the host falls)."""
    host = host_of(w, uid)
    if host is None:
        return None
    return (
        f"{w.label(uid)} is inside {w.label(host)} and leaves it only when it is removed as a "
        f"casualty ({RULE})"
    )


def hold(work: Work) -> None:
    """Every Seed II unit in Reserve is held there (it deploys only through Implant)."""
    for uid in seeds(work.setup):
        u = work.units[uid]
        if u.location is Location.RESERVE and not any(s.name == HELD for s in u.statuses):
            work.set_unit(uid, statuses=(*u.statuses, Status(HELD, None, SEED_II)))


def implant_on_hp_lost(
    work: Work, unit: int, amount: int, source: str, attacker: int | None
) -> None:
    """Implant (L2764) has just afflicted ``unit``: the attacker's first Seed II unit held in
    Reserve goes in (unless a Seed unit is in it already)."""
    mine = seeds(work.setup)
    if attacker is None or not mine or work.units[unit].location is not Location.TABLE:
        return
    key = f"u{attacker}/{source}"
    if not any(s.name == "Implant" and s.source == key for s in work.units[unit].statuses):
        return
    if seeds_in(work, unit) or any(u.counter(SEED_I_HOST) == unit + 1 for u in work.units):
        return  # a Seed unit is in it already
    hold(work)
    for s in mine:
        u = work.units[s]
        if work.enemies(attacker, s) or u.location is not Location.RESERVE or not u.living():
            continue
        kept = tuple(x for x in u.statuses if x.name != HELD)
        work.set_unit(s, location=Location.EMBARKED, embarked_in=unit, statuses=kept, pos=())
        work.emit(
            "perk",
            f"{work.label(s)} is in {work.label(unit)}, engaged with it (Implant, Seed II)",
            RULE,
            unit=s,
            perk=SEED_II,
            host=unit,
        )
        return


def _turn(work: Work, turn: int) -> None:
    if seeds(work.setup):
        hold(work)


def _phase(work: Work, phase: str) -> None:
    if seeds(work.setup):
        hold(work)


def register_hooks(reg: HookRegistry) -> None:
    """Seed II: held in Reserve, put in a host by Implant."""
    reg.register(Hook.HP_LOST, implant_on_hp_lost, "Implant: a Seed II unit is in the host")
    reg.register(Hook.TURN_START, _turn, "Seed II: held in Reserve")
    reg.register(Hook.PHASE_START, _phase, "Seed II: held in Reserve")
    reg.register(Hook.PHASE_END, _phase, "Seed II: held in Reserve")
