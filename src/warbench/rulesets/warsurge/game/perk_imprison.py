"""Imprison in a game (Perks 000_94ecc6a4c74d351b.txt §12.4 Ability, L821-L851; the Pseudo
Transport Perks of §12.1, L163-L167; Breach's escape, L1150-L1152).

    "Imprison — Melee, Point Cost (Lesser), Mastery Test, Immediate. The User may force the
    Target Unit to embark the User, even if the User is not a Transport. If Mastery Test is
    successful, the Target is Imprisoned. Imprisoned Units can only escape by destroying the
    User, using Vanish, or making Movement with the Incorporeal or Phaser Perks. If the User also
    has a Transport Stat, it is not used for this Perk … Imprisoned Units remain engaged in a
    Melee inside the User, along with any embarked Passenger Units that are friendly to the
    User. If Fire Points are on the User, they cannot be used by Imprisoned Units. … If the User
    goes into Reserve, the Imprisoned Unit will go with them. If they manage to escape or cause
    the User to be a casualty here, they will go into their own Reserve, returning control to
    the original player. If the Target's Point Cost changes to exceed the User (such as
    recovering lost HP, or User loses HP), the Target will immediately disembark the User."

The unit-state half (who is Imprisoned, the release into Reserve) is here, imported by
``casualties`` and ``perk_seed``; the use and the checks are in :mod:`.perk_imprison_use`.

* **Used** by the player, ``UsePerks(user, ("Imprison: <n>",))`` (``perk_choice``), once per
  Game Turn (§12.2 L227), or by the engine under the ``perk use`` automation as each Attack
  Phase starts (:func:`at_phase_start`: the most expensive Target it may take). The Target is
  an enemy unit in a Melee with the User whose Current Point Cost is no more than the User's
  ("Point Cost (Lesser)", L98-L100), carrying no passengers (docs/rulings.md, session 25
  w2-timejump, 7). On a passed Mastery Test it is ``EMBARKED`` in the User with the status
  ``Imprisoned`` (:func:`imprison`), out of every Melee on the battlefield.
* **Inside** it fights as a Seed II unit does (``perk_seed``: ``host_of``, ``seed_view``): it
  and the User, and the User's passengers, attack each other as in a Melee and nobody else;
  it never uses the User's Fire Points; it does not leave (``perk_seed.stays_inside``), but an
  Imprisoned Breach unit that can break free from the Melee (Disengage) disembarks (L1152).
* **Out**: the User destroyed, the Imprisoned unit goes into its own Reserve
  (:func:`released_to_reserve`, asked by ``casualties.destroy_unit``); Vanish takes it into
  Reserve at the end of the Phase (``perk_reserve``); the User going into Reserve takes it
  along, into Reserve (``perk_reserve.to_reserve``). Its Current Point Cost above the User's
  (checked whenever HP is lost and as each Phase ends, :func:`check`) and it disembarks at
  once, placed as a destroyed Transport's survivors around the User (§6.6, base contact where
  there is room). Incorporeal and Phaser are not in play (Phaser is not in the book).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game.memo import per_setup
from warbench.rulesets.warsurge.game.state import Location

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.state import GameSetup
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["IMPRISON", "IMPRISONED", "drop_status", "imprisoned_by", "released_to_reserve", "users"]

IMPRISON = "Imprison"
IMPRISONED = "Imprisoned"
RULE = "Perks §12.4 Imprison (000_94ecc6a4c74d351b.txt L821)"
USED = f"used {IMPRISON}"


@per_setup
def users(setup: GameSetup) -> tuple[int, ...]:
    """The units of ``setup`` with Imprison (once per set-up)."""
    out = tuple(
        info.uid
        for info in setup.units
        if IMPRISON in info.unit.profile.perks or IMPRISON in info.traits
    )
    return out


def imprisoned_by(work: Work, uid: int) -> int | None:
    """The User holding ``uid`` Imprisoned, or ``None``."""
    u = work.units[uid]
    if u.location is not Location.EMBARKED or u.embarked_in is None or not u.statuses:
        return None
    key = f"u{u.embarked_in}"
    if any(s.name == IMPRISONED and s.source == key for s in u.statuses):
        return u.embarked_in
    return None


def drop_status(work: Work, uid: int) -> None:
    kept = tuple(s for s in work.units[uid].statuses if s.name != IMPRISONED)
    work.set_unit(uid, statuses=kept)


def released_to_reserve(work: Work, uid: int) -> bool:
    """``casualties.destroy_unit``: the User of the Imprisoned unit ``uid`` is destroyed, so it
    goes into its own Reserve (L847-L849). False for any other passenger."""
    if not users(work.setup) or imprisoned_by(work, uid) is None:
        return False
    work.set_unit(uid, location=Location.RESERVE, embarked_in=None, pos=())
    drop_status(work, uid)
    work.emit("perk", f"{work.label(uid)} escapes: its jailer is destroyed, it goes into "
              "Reserve (Imprison)", RULE, unit=uid, perk=IMPRISON)  # fmt: skip
    return True
