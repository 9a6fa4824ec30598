"""Recon's relocation as a player's decision (Perks 000_94ecc6a4c74d351b.txt §12.4 Recon I-II,
L1882-L1888; issue 11, session 26, s26b-choices).

    "When this Unit is Deployed on the first Game Turn, it can relocate up to 6" in any direction
    (at the end of the Deploy Phase in Standard or before Action Steps begin in Advanced), which
    does not count as Movement and cannot engage a Melee." (Recon II: 12")

* **The default**: at the end of the first Deploy Phase the engine relocates each Recon unit
  towards the closest enemy model (:func:`.perk_deployment.recon_at_phase_end`, docs/rulings.md
  "Recon").
* **The choice** (Standard playstyle): in the first Game Turn's Deploy Phase, once the unit is on
  the Battlefield, its player declares where it goes, ``UsePerks(unit, ("Recon I: <dir>
  <inches>",))`` (``<dir>`` one of N, NE, E, SE, S, SW, W, NW, N being +y, as the Scatter
  Arrow's; ``<inches>`` a whole number up to the rank's reach) or ``"Recon I: stay"``; once. The
  relocation is made at the end of the Deploy Phase, as the rule says; a declared relocation
  that is no longer legal then (another unit deployed in the way) is not made and the unit stays
  (docs/rulings.md, "session 26, s26b-choices" 4). The options listed are every direction at the
  full and at half the reach that is legal now, and staying.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game.advstate import Playstyle
from warbench.rulesets.warsurge.game.state import Location, Phase

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.work import Work

__all__ = [
    "DIRECTIONS",
    "HEADING",
    "REACH",
    "declared",
    "fits",
    "options",
    "prompt",
    "refused",
    "use",
]

#: Recon rank → (its reach in inches, its line)
REACH = {"Recon I": (6, 1882), "Recon II": (12, 1888)}
#: the eight directions, N = +y, clockwise (as ``Dice.scatter``)
DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
#: the unit's counters: the heading declared (1-8: a direction, 9: stay) and the inches
HEADING = "Recon heading"
INCHES = "Recon inches"
_STAY = 9


def _rule(rank: str) -> str:
    return f"Perks §12.4 {rank} (000_94ecc6a4c74d351b.txt L{REACH[rank][1]})"


def _vector(heading: int, inches: float) -> tuple[float, float]:
    angle = (heading - 1) * math.pi / 4  # N = +y, clockwise
    return (inches * math.sin(angle), inches * math.cos(angle))


def fits(work: Work, uid: int, new: tuple[tuple[float, float], ...]) -> bool:
    """Whether ``uid``'s present models may stand at ``new``: a legal placement, no Base
    Contact ("cannot engage a Melee"), not within 12" of an enemy Sentinel (L1749)."""
    from warbench.rulesets.warsurge.game import geom
    from warbench.rulesets.warsurge.game.coherency import problem_positions
    from warbench.rulesets.warsurge.game.perk_sentinel import watcher

    models = work.units[uid].present()
    if problem_positions(work, uid, new, models, None, None, False):
        return False
    if work.contacts(uid, geom.as_array(new)):
        return False
    return watcher(work, uid, new) is None


def _shifted(work: Work, uid: int, heading: int, inches: float) -> tuple[tuple[float, float], ...]:
    dx, dy = _vector(heading, inches)
    return tuple((float(x + dx), float(y + dy)) for x, y in work.xy(uid))


def declared(work: Work, uid: int) -> tuple[tuple[float, float], ...] | bool | None:
    """The player's declared relocation: the models' new positions, ``True`` to stay, or
    ``None`` when nothing was declared (the engine's default). A declared relocation no longer
    legal is ``True`` (stay)."""
    heading = work.units[uid].counter(HEADING)
    if not heading:
        return None
    if heading == _STAY:
        return True
    new = _shifted(work, uid, heading, work.units[uid].counter(INCHES))
    return new if fits(work, uid, new) else True


def _parse(option: str) -> tuple[int, int] | None:
    text = option.strip()
    if text == "stay":
        return (_STAY, 0)
    d, _, n = text.partition(" ")
    if d not in DIRECTIONS or not n.isdigit():
        return None
    return (DIRECTIONS.index(d) + 1, int(n))


def _base(work: Work, uid: int, rank: str) -> str | None:
    u = work.units[uid]
    if work.setup.playstyle is Playstyle.ADVANCED:
        return f"in the Advanced playstyle the engine relocates the unit ({_rule(rank)})"
    if work.flow.turn != 1 or work.flow.phase is not Phase.DEPLOY:
        return f"the relocation is declared in the first Game Turn's Deploy Phase ({_rule(rank)})"
    if u.location is not Location.TABLE or u.counter(HEADING):
        return (f"{work.label(uid)} is not on the Battlefield, or its relocation is declared "
                f"already ({_rule(rank)})")  # fmt: skip
    return None


def _rank(work: Work, uid: int) -> str:
    from warbench.rulesets.warsurge.game.perk_turn import index

    perks = index(work.setup).units[uid].unit
    return "Recon II" if "Recon II" in perks else "Recon I"


def _allowed(work: Work, uid: int, rank: str) -> list[str]:
    reach = REACH[rank][0]
    out = [
        f"{d} {n}"
        for n in (reach, reach // 2)
        for k, d in enumerate(DIRECTIONS)
        if fits(work, uid, _shifted(work, uid, k + 1, n))
    ]
    return [*out, "stay"]


def refused(work: Work, uid: int, option: str, start: bool) -> str | None:
    """Why ``uid`` may not declare the relocation ``option`` names now, or ``None``."""
    rank = _rank(work, uid)
    why = _base(work, uid, rank)
    if why is not None:
        return why
    parsed = _parse(option)
    reach = REACH[rank][0]
    if parsed is None or (not 0 < parsed[1] <= reach and parsed[0] != _STAY):
        legal = "; ".join(_allowed(work, uid, rank))
        return (f"name a direction ({', '.join(DIRECTIONS)}) and whole inches up to {reach}, "
                f"or stay; legal now: {legal} ({_rule(rank)})")  # fmt: skip
    heading, inches = parsed
    if heading != _STAY and not fits(work, uid, _shifted(work, uid, heading, inches)):
        return (f"{work.label(uid)} may not stand there (off the battlefield, overlapping, in "
                f"Base Contact or by an enemy Sentinel); legal now: "
                f"{'; '.join(_allowed(work, uid, rank))} ({_rule(rank)})")  # fmt: skip
    return None


def options(work: Work, uid: int, start: bool) -> list[str]:
    """The relocations a player is shown: each direction at the full and half reach that is
    legal now, and staying."""
    rank = _rank(work, uid)
    if _base(work, uid, rank) is not None:
        return []
    return _allowed(work, uid, rank)


def use(work: Work, uid: int, option: str) -> None:
    """The player's declaration, made at the end of the Deploy Phase."""
    parsed = _parse(option)
    assert parsed is not None
    heading, inches = parsed
    work.units[uid] = work.units[uid].with_counter(HEADING, heading).with_counter(INCHES, inches)
    work.dirty = True
    rank = _rank(work, uid)
    what = "to stay" if heading == _STAY else f'{inches}" {DIRECTIONS[heading - 1]}'
    work.emit("perk", f"{work.label(uid)}: {rank}, its player declares it relocates {what} at "
              "the end of the Deploy Phase", _rule(rank), unit=uid)  # fmt: skip


def prompt(work: Work, side: int) -> str:
    """The activation prompt's words for the Recon relocations ``side`` may declare now, or
    ``""``."""
    from warbench.rulesets.warsurge.game.perk_turn import index

    perks = index(work.setup).units
    able = [
        u
        for u in work.acting_units(side)
        if any(r in perks[u].unit for r in REACH) and options(work, u, False)
    ]
    if not able:
        return ""
    return (
        f"; or declare where a Recon unit relocates at the end of the Deploy Phase (Perks "
        f"L1882): use_perks, unit {', '.join(map(str, able))}, perks ['Recon I: <direction> "
        f"<inches>'] (Recon II for its units), the direction one of {', '.join(DIRECTIONS)} "
        "(N: +y), or 'Recon I: stay'"
    )
