"""Perks that send a unit into Reserve (the ``reserve`` machinery of the effects table): Warp
(Perks 000_94ecc6a4c74d351b.txt L4115), Vanish (L1081) and Unstable (L2329).

* Warp, a Weapon Perk: "For each HP Loss caused by a Warp Weapon, roll a D6. If any D6 result
  in a 6, the Target will be sent into Reserve … Standard: The Target will be able to Deploy in
  the following Game Turn." The status ``Warp`` (the effects engine's D6 per HP lost) sends the
  unit into Reserve at the end of the Phase and keeps it there for the Game Turn.
* Vanish, used by its player (a Mastery Test): "The User enters Reserve at the end of the Phase
  … regardless of whether they are engaged in a Melee."
* Unstable, tested as a Game Turn starts after HP Loss (``perk_turn``): "If failed, the User
  will go into Reserve and must stay there for the current Game Turn and can be Deployed next
  Game Turn."

A unit that goes into Reserve leaves any Melee and takes its passengers with it; its HP,
casualties and statuses stay. In the Advanced playstyle the end of the Phase is the end of the
Actions Phase (docs/rulings.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game.casualties import restore_coherency
from warbench.rulesets.warsurge.game.perk_terrain_unit import reserve_refusal
from warbench.rulesets.warsurge.game.perk_turn import _rule
from warbench.rulesets.warsurge.game.state import Location

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.work import Work

#: Statuses that send their unit into Reserve at the end of a Phase.
AT_PHASE_END = ("Warp", "Vanish")
#: Statuses under which a unit in Reserve may not deploy (for the rest of the Game Turn).
STAY = ("Warp", "Unstable", "Fall Back", "Terrify", "Dread")


def to_reserve(work: Work, uid: int, perk: str) -> None:
    """``uid`` (and its passengers) into Reserve: off the battlefield, out of any Melee; a unit
    with Terrain (Perks L1410) stays."""
    if (stays := reserve_refusal(work, uid)) is not None:
        work.emit("perk", stays, _rule(perk), unit=uid, perk="Terrain")
        return
    for p in (uid, *work.passengers(uid)):
        work.set_unit(p, location=Location.RESERVE, embarked_in=None, pos=())
    work.engaged = {pair for pair in work.engaged if uid not in pair}
    work.emit("perk", f"{work.label(uid)} goes into Reserve ({perk})", _rule(perk), unit=uid,
              perk=perk)  # fmt: skip


def _has(work: Work, uid: int, names: tuple[str, ...]) -> str | None:
    for s in work.units[uid].statuses:
        if s.name in names:
            return s.name
    return None


def at_phase_end(work: Work, phase: str) -> None:
    """The end of a Phase: Warp's and Vanish's units go into Reserve (Vanish is spent)."""
    for u in list(work.units):
        if not u.statuses or u.location not in (Location.TABLE, Location.EMBARKED):
            continue
        name = _has(work, u.uid, AT_PHASE_END)
        if name is None or not u.living():
            continue
        to_reserve(work, u.uid, name)
        if name == "Vanish":
            kept = tuple(s for s in work.units[u.uid].statuses if s.name != "Vanish")
            work.set_unit(u.uid, statuses=kept)


def at_turn_start(work: Work, turn: int) -> None:
    """After the start-of-turn tests: a unit that failed Unstable goes into Reserve."""
    for u in list(work.units):
        if not u.statuses or u.location not in (Location.TABLE, Location.EMBARKED):
            continue
        if _has(work, u.uid, ("Unstable",)) and u.living():
            to_reserve(work, u.uid, "Unstable")


def deploy_refusal(work: Work, uid: int) -> str | None:
    """Why ``uid`` may not deploy now (it went into Reserve by Warp or Unstable this Game
    Turn), or ``None``."""
    u = work.units[uid]
    if not u.statuses:
        return None
    name = _has(work, uid, STAY)
    if name is None:  # Phoenix, Seed I (issue 11 lane c): perk_deploy.py
        from warbench.rulesets.warsurge.game.perk_deploy import held_refusal

        return held_refusal(work, uid)
    return (
        f"{work.label(uid)} went into Reserve this Game Turn ({name}, {_rule(name)}): it may "
        "deploy from the next Game Turn"
    )


def after_deploy(work: Work, unit: int) -> None:
    """A unit deployed again after going into Reserve with casualties: its placement is made
    for every model, so the models left are brought back into Coherency (§4.2 IV)."""
    u = work.units[unit]
    if any(u.removed) and u.location is Location.TABLE and len(u.living()) > 1:
        restore_coherency(work, unit)
