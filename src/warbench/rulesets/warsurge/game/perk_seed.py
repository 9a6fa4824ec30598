"""Units inside an enemy unit: Seed II (Deployment, Perks 000_94ecc6a4c74d351b.txt L1904) and
Breach (Aeonian, L1140), session 25 (issue 11, lane s25-aeon): the ``seed`` machinery of the
effects table; rulings "WARSURGE perks in play: session 25, s25-aeon".

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

Breach (L1140): "The User can 'embark' enemy Units even if they are not a Transport. The User
embarks the Target Unit as a whole … The User can attack the Target they have embarked, counted
as in a Melee, though the Target may move freely. The User can only be attacked by the Target,
or Weapons from other Units with Perks that bypass Transports. If the Target is a Transport, the
User can Target the Transport's passengers, and the passengers can Target the User, counting as
engaged in a Melee. If the User can break free from the Melee, they may disembark from any model
in the Target Unit". It embarks an enemy unit with an ``Embark`` naming it (as a Transport, by
Move or Dash, no capacity; Impregnable units are immune: :func:`breach_refusal`); inside it
fights as a Seed II unit does, and its host's passengers too; it disembarks only with the
status Disengage (L735, "removes the Locked effect"), measured from any model of its host.

Hijack (L1298, session 25 lane w2-transport): "The User can embark enemy Transports (ignoring the
Transport Stat) and attack embarked passengers. If there are no passengers in the Transport, the
User takes control of the Transport." It embarks an enemy Transport as Breach does (Impregnable
is immune, L1565) and fights its passengers as a Breach unit does, not the Transport itself
(:func:`_foes_inside`); the Transport's control is ``perk_crew``'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.effects.runtime import immunities
from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.memo import per_setup
from warbench.rulesets.warsurge.game.perk_imprison import RULE as IMPRISON_RULE
from warbench.rulesets.warsurge.game.perk_imprison import imprisoned_by, users
from warbench.rulesets.warsurge.game.perk_transport import fires_without_points
from warbench.rulesets.warsurge.game.state import Location, Status

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.state import GameSetup
    from warbench.rulesets.warsurge.game.work import Work

BOOK = "000_94ecc6a4c74d351b.txt"
SEED_II = "Seed II"
BREACH = "Breach"
BREACH_RULE = f"Breach ({BOOK} L1140)"
HIJACK = "Hijack"
HIJACK_RULE = f"Hijack ({BOOK} L1298)"
HELD = "Seed II (held in Reserve)"
RULE = f"Perks §12.4 Seed II ({BOOK} L1904)"
#: the counter of a Seed I unit naming its host (``perk_deploy.SEED_HOST``)
SEED_I_HOST = "seed host"

_Found = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


@per_setup
def _index(setup: GameSetup) -> _Found:
    found: dict[str, list[int]] = {SEED_II: [], BREACH: [], HIJACK: []}
    for uid, info in enumerate(setup.units):
        for rank, out in found.items():
            if rank in info.unit.profile.perks or rank in info.traits:
                out.append(uid)
    hijack = tuple(k for k in found[HIJACK] if k not in found[BREACH])
    found_all: _Found = (tuple(found[SEED_II]), tuple(found[BREACH]), hijack)
    return found_all


def seeds(setup: GameSetup) -> tuple[int, ...]:
    """The units of ``setup`` with Seed II (computed once per set-up)."""
    return _index(setup)[0]


def breachers(setup: GameSetup) -> tuple[int, ...]:
    """The units of ``setup`` with Breach."""
    return _index(setup)[1]


def hijackers(setup: GameSetup) -> tuple[int, ...]:
    """The units of ``setup`` with Hijack (and not Breach, which covers it)."""
    return _index(setup)[2]


def boarders(setup: GameSetup) -> tuple[int, ...]:
    """The units that fight a Transport's passengers from inside it (Breach, Hijack)."""
    _, b, h = _index(setup)
    return b + h if h else b


def intruders(setup: GameSetup) -> tuple[int, ...]:
    """The units that may be inside an enemy unit (Seed II, Breach, Hijack; with an Imprison
    User in the game, any unit, ``perk_imprison``)."""
    s, b, h = _index(setup)
    if users(setup):
        return tuple(range(len(setup.units)))
    return s + b + h if b or h else s


def _with_passengers(w: Work, uid: int) -> bool:
    """An intruder that fights its host's passengers too: Breach (L1148), Hijack (L1298),
    Imprisoned ("along with any embarked Passenger Units that are friendly to the User", L835)."""
    return uid in boarders(w.setup) or imprisoned_by(w, uid) is not None


def host_of(w: Work, uid: int) -> int | None:
    """The enemy unit the Seed II or Breach unit ``uid`` is inside, or ``None``."""
    if uid not in intruders(w.setup):
        return None
    u = w.units[uid]
    h = u.embarked_in
    if u.location is not Location.EMBARKED or h is None or not w.enemies(uid, h):
        return None
    return h


def seeds_in(w: Work, host: int) -> list[int]:
    """The Seed II and Breach units inside ``host``."""
    return [s for s in intruders(w.setup) if host_of(w, s) == host]


def _foes_inside(w: Work, uid: int) -> list[int]:
    """The units ``uid`` fights as in a Melee inside a unit: an intruder its host (and, for
    Breach, the host's own passengers); a host its intruders; a passenger the Breach units
    inside its Transport."""
    host = host_of(w, uid)
    if host is not None:
        hijack = uid in hijackers(w.setup)  # L1298: "attack embarked passengers" only
        out = [] if hijack else [host]
        if hijack or _with_passengers(w, uid):  # L1148 (Breach), L835 (Imprison): passengers
            out += [p for p in w.passengers(host) if host_of(w, p) is None and w.enemies(uid, p)]
        return out
    h = hijackers(w.setup)
    out = [s for s in seeds_in(w, uid) if s not in h] if h else seeds_in(w, uid)
    u = w.units[uid]
    if u.location is Location.EMBARKED and u.embarked_in is not None:
        out += [b for b in seeds_in(w, u.embarked_in) if _with_passengers(w, b)]
    return out


def fights_inside(w: Work, uid: int) -> bool:
    """A passenger with a Breach unit inside its Transport: the two fight as in a Melee
    (L1148), with or without Fire Points."""
    u = w.units[uid]
    if not (boarders(w.setup) or users(w.setup)) or u.location is not Location.EMBARKED:
        return False
    if u.embarked_in is None or host_of(w, uid) is not None:
        return False
    return any(_with_passengers(w, x) for x in seeds_in(w, u.embarked_in))


def _fires_out(w: Work, uid: int) -> bool:
    """The passenger could attack out of its Transport (§6.7 Fire Points, Exposed,
    Unsheltered)."""
    h = w.units[uid].embarked_in
    if h is None or w.units[h].location is not Location.TABLE:
        return False
    return w.info(h).fire_points or fires_without_points(w, h)


def seed_targets(w: Work, uid: int) -> list[int]:
    """The units ``uid`` fights inside (for the legal Attacks)."""
    if not intruders(w.setup):
        return []
    return _foes_inside(w, uid)


#: what a unit may attack of another: the Weapons' users and the Target's models, or a reason
View = tuple[dict[str, list[int]], frozenset[int]] | str | None


def seed_view(w: Work, uid: int, target: int) -> View:
    """What ``uid`` may attack of ``target`` when either is a Seed II unit inside its host: as in
    a Melee (§5.9: every Weapon of every model at every model) between the two; the reason it
    may not for any other pair with a seed inside; ``None`` when no seed is concerned."""
    if not intruders(w.setup):
        return None
    if (host_of(w, uid) is not None or host_of(w, target) is not None) and (
        target in _foes_inside(w, uid)
    ):
        users = {wp.name: w.units[uid].present() for wp in w.info(uid).unit.weapons}
        return users, frozenset(w.units[target].present())
    if (host := host_of(w, uid)) is not None:
        return f"{w.label(uid)} is inside {w.label(host)}: it attacks only in there ({RULE})"
    if fights_inside(w, uid) and not _fires_out(w, uid):
        return (
            f"{w.label(uid)} has no Fire Points to attack from: only the Breach unit inside its "
            f"Transport ({BREACH_RULE})"
        )
    if (host := host_of(w, target)) is not None:
        return f"{w.label(target)} is inside {w.label(host)}: only its host attacks it ({RULE})"
    return None


def stays_inside(w: Work, uid: int) -> str | None:
    """Why a Seed II unit does not leave its host (it emerges only when the host falls), or a
    Breach unit does not (it has not broken free from the Melee: no Disengage, L1150)."""
    host = host_of(w, uid)
    if host is None:
        return None
    if uid in boarders(w.setup):  # also out of Imprison this way (L1150-L1152)
        if any(s.name == "Disengage" for s in w.units[uid].statuses):
            return None
        return (
            f"{w.label(uid)} is in a Melee inside {w.label(host)}: it disembarks only once it "
            f"can break free from it (Disengage) ({BREACH_RULE})"
        )
    if imprisoned_by(w, uid) is not None:
        return (
            f"{w.label(uid)} is Imprisoned in {w.label(host)}: it escapes only by destroying "
            f"it, Vanish, Incorporeal or Phaser ({IMPRISON_RULE})"
        )
    return (
        f"{w.label(uid)} is inside {w.label(host)} and leaves it only when it is removed as a "
        f"casualty ({RULE})"
    )


def breach_refusal(w: Work, uid: int, target: int) -> str | None:
    """Why ``uid`` may not embark the unit ``target`` with Breach (``None``: it may; the
    Movement is checked as any Embark's)."""
    if not 0 <= target < len(w.units) or not w.enemies(uid, target):
        return None if 0 <= target < len(w.units) else f"there is no unit {target}"
    t = w.units[target]
    if t.location is not Location.TABLE or not t.living():
        return f"{w.label(target)} is not on the battlefield"
    tinfo = w.info(target)
    perk = HIJACK if uid in hijackers(w.setup) else BREACH
    if perk in immunities([*tinfo.unit.profile.perks, *tinfo.traits]):  # Impregnable L1565
        return f"{w.label(target)} is immune to {perk}"
    return None


def breaches(w: Work, uid: int, target: int) -> bool:
    """``uid`` has Breach and ``target`` is an enemy unit, or ``uid`` has Hijack and ``target``
    is an enemy Transport (L1298): an ``Embark`` naming it breaches."""
    b = boarders(w.setup)
    if not b or uid not in b or not 0 <= target < len(w.units) or not w.enemies(uid, target):
        return False
    return uid in breachers(w.setup) or w.info(target).transport > 0


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
    # acts only where the set-up has Seed II units (``seeds``; issue 10, session 34)
    reg.register(
        Hook.HP_LOST, implant_on_hp_lost, "Implant: a Seed II unit is in the host", perks=[SEED_II]
    )
    reg.register(Hook.TURN_START, _turn, "Seed II: held in Reserve", when=seeds)
    reg.register(Hook.PHASE_START, _phase, "Seed II: held in Reserve", when=seeds)
    reg.register(Hook.PHASE_END, _phase, "Seed II: held in Reserve", when=seeds)
