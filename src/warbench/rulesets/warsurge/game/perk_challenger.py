"""Challenger in a game (Perks 000_94ecc6a4c74d351b.txt §12.4 Leadership, L1957-L1985).

    "Challenger — Leader, Specific, Activate, Immediate. When within Weapon Range of one or
    more enemy Leaders (War Masters also count as Leaders) that also have a Weapon in Range,
    the User can declare a challenge. This can be made against any number of Leaders, and if
    accepted there is no interference by other Units from any player involved in the
    challenge. If a challenge is refused, a refusing Leader suffers a -1 Dice Modifier to their
    Attacks for a Game Turn. If accepted, the challengers detach from any Units they are
    attached to and can only Target each other until one survivor remains (all other
    challengers are casualties). In addition, their Movement must be within each other's
    maximum Weapon Range. Challenge overrides Provoke and Taunt. An attached Bodyguard Unit can
    accept any enemy Challenge instead of a Leader. Standard Games: If the Leader has already
    attacked, the -1 Dice Modifier applies next Game Turn instead."

* **Declared** (:func:`declare`): by the unit's player with ``UsePerks`` (an activated perk,
  once per Game Turn, §12.2; ``perk_hooks.use_perk`` calls :func:`declare`), or by the engine
  under the ``perk use`` automation as each Attack Phase starts
  (:func:`challenge_at_phase_start`), against every enemy Leader it may challenge
  (:func:`foes`): a unit with Leader or War Master, on the Battlefield, not in a challenge,
  with the User within one of its Weapons' Range while the User has it within one of its own
  (a 0" Melee Weapon: base contact).
* **Answered** (:func:`accepts`): the engine's answer for the challenged player (ruling 4): it
  accepts when its unit's current value (points by HP left, §3.4) is at least the
  challenger's, and refuses otherwise.
* **Refused**: the refusing unit is under ``Challenge refused`` (-1 to its Attack Dice) for the
  Game Turn; in the Standard playstyle, when it has already made its Attack this Game Turn,
  from the next Game Turn instead (``perk_effects.DELAYED``).
* **Accepted**: both units are under ``Challenge@<other>`` until one of them falls
  (:func:`on_casualty`): each may Target only the units it is in a challenge with, and no other
  unit may Target either of them (:func:`target_refusal`, asked by
  ``perk_limits.target_refusal`` before Taunt and Provoke, which it overrides); a Move or Dash
  of either must end with it within its longest Weapon Range of each (:func:`move_refusal`,
  from ``movement.verify_move``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game import bases, geom
from warbench.rulesets.warsurge.game.advstate import Playstyle
from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.perk_effects import DELAYED, weapon_ranges
from warbench.rulesets.warsurge.game.perk_turn import index
from warbench.rulesets.warsurge.game.state import Automation, Phase, Status
from warbench.rulesets.warsurge.game.work import current_value

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.actions import Point
    from warbench.rulesets.warsurge.game.work import Work

__all__ = [
    "CHALLENGER",
    "REFUSED",
    "accepts",
    "challenge_at_phase_start",
    "declare",
    "foes",
    "move_refusal",
    "on_casualty",
    "opponents",
    "register_hooks",
    "target_refusal",
    "use_refusal",
]

CHALLENGER = "Challenger"
RULE = "Perks §12.4 Challenger (000_94ecc6a4c74d351b.txt L1957)"
#: The status of a Leader that refused a challenge: -1 to its Attack Dice (L1967).
REFUSED = "Challenge refused"
#: ``Challenge@3``: the unit is in a challenge with unit 3.
DUEL = "Challenge@"
#: The counter of the Game Turn the unit last declared a challenge.
USED = f"used {CHALLENGER}"
LEADERS = ("Leader", "War Master")  # "War Masters also count as Leaders" (L1959)


def _leader(work: Work, uid: int) -> bool:
    return bool(index(work.setup).units[uid].unit & set(LEADERS))


def _challenger(work: Work, uid: int) -> bool:
    return CHALLENGER in index(work.setup).units[uid].unit


def opponents(work: Work, uid: int) -> list[int]:
    """The units ``uid`` is in a challenge with (its ``Challenge@<uid>`` statuses) that are on
    the Battlefield with a living model."""
    statuses = work.units[uid].statuses
    if not statuses:
        return []
    out = [int(s.name[len(DUEL) :]) for s in statuses if s.name.startswith(DUEL)]
    return [t for t in out if work.standing(t)]


def _reaches(work: Work, uid: int, other: int) -> bool:
    """Whether one of ``uid``'s Weapons has ``other`` within its Range (0": base contact)."""
    ranges = weapon_ranges(work.info(uid), work.units[uid].statuses).values()
    gap = work.gap(uid, other)
    return any(gap <= max(float(r), geom.CONTACT) + 1e-9 for r in ranges)


def foes(work: Work, uid: int) -> list[int]:
    """The enemy Leaders ``uid`` may challenge now (L1957: within the User's Weapon Range, with
    a Weapon of their own in Range), not in a challenge already."""
    if not work.standing(uid) or opponents(work, uid):
        return []
    return [
        t
        for t in range(len(work.units))
        if work.enemies(uid, t)
        and _leader(work, t)
        and work.standing(t)
        and not opponents(work, t)
        and _reaches(work, uid, t)
        and _reaches(work, t, uid)
    ]


def use_refusal(work: Work, uid: int, name: str) -> str | None:
    """Why ``uid`` may not use Challenger now (no enemy Leader to challenge), or ``None``; for
    ``perk_hooks.use_refused`` (any other perk: ``None``)."""
    if name != CHALLENGER:
        return None
    if not _leader(work, uid):
        return f"{work.label(uid)} is not a Leader (Challenger needs Leader or War Master, {RULE})"
    if opponents(work, uid):
        return f"{work.label(uid)} is in a challenge already ({RULE})"
    if not foes(work, uid):
        return (
            f"no enemy Leader is within {work.label(uid)}'s Weapon Range with a Weapon in Range "
            f"of it ({RULE})"
        )
    return None


def accepts(work: Work, challenged: int, challenger: int) -> bool:
    """The engine's answer for the challenged player (ruling 4): accept when its unit's
    current value is at least the challenger's."""
    return current_value(work, challenged) >= current_value(work, challenger) - 1e-9


def _attacked(work: Work, uid: int) -> bool:
    """Standard Games: whether the unit has made its Attack this Game Turn (L1975)."""
    flow = work.flow
    if work.setup.playstyle is not Playstyle.STANDARD:
        return False
    if flow.phase is Phase.ATTACK:
        return work.units[uid].acted
    return flow.phase is Phase.DASH


def declare(work: Work, uid: int) -> None:
    """``uid`` declares a challenge against every enemy Leader it may challenge (:func:`foes`);
    each answers (:func:`accepts`)."""
    work.units[uid] = work.units[uid].with_counter(USED, work.flow.turn)
    work.dirty = True
    targets = foes(work, uid)
    if not targets:
        return
    work.emit("perk", f"{work.label(uid)} declares a challenge to "
              f"{', '.join(work.label(t) for t in targets)}", RULE, unit=uid, perk=CHALLENGER,
              foes=targets)  # fmt: skip
    for t in targets:
        if accepts(work, t, uid):
            for a, b in ((uid, t), (t, uid)):
                u = work.units[a]
                work.set_unit(a, statuses=(*u.statuses, Status(f"{DUEL}{b}", None, CHALLENGER)))
            work.emit("perk", f"{work.label(t)} accepts {work.label(uid)}'s challenge: they may "
                      "only Target each other until one falls", RULE, unit=t, perk=CHALLENGER,
                      accepted=True, challenger=uid)  # fmt: skip
            continue
        later = _attacked(work, t)
        name = REFUSED + (DELAYED if later else "")
        u = work.units[t]
        kept = tuple(s for s in u.statuses if s.name != name)
        work.set_unit(t, statuses=(*kept, Status(name, 1, f"u{uid}/{CHALLENGER}")))
        when = "next Game Turn (it has attacked)" if later else "this Game Turn"
        work.emit("perk", f"{work.label(t)} refuses {work.label(uid)}'s challenge: -1 to its "
                  f"Attack Dice {when}", RULE, unit=t, perk=CHALLENGER, accepted=False,
                  challenger=uid)  # fmt: skip


def challenge_at_phase_start(work: Work, phase: str) -> None:
    """The engine's use under the ``perk use`` automation: as each Attack Phase starts, each
    Challenger Leader that has not used it this Game Turn challenges the enemy Leaders it
    may (ruling 3)."""
    if phase != Phase.ATTACK.value or Automation.PERK_USE not in work.setup.automation:
        return
    turn = work.flow.turn
    for uid in range(len(work.units)):
        if not _challenger(work, uid) or not _leader(work, uid):
            continue
        u = work.units[uid]
        if u.counter(USED) == turn or any(s.name in ("Paralysis", "Confuse") for s in u.statuses):
            continue
        if foes(work, uid):
            work.units[uid] = work.units[uid].with_counter(f"used {CHALLENGER}", turn)
            declare(work, uid)


def target_refusal(work: Work, uid: int, weapon: str, target: int) -> str | None:
    """Why ``uid`` may not Target ``target`` because of a challenge (L1961, L1969), or
    ``None``."""
    mine = opponents(work, uid)
    if mine and target not in mine:
        names = ", ".join(work.label(t) for t in mine)
        return f"{work.label(uid)} is in a challenge: it may only Target {names} ({RULE})"
    theirs = opponents(work, target)
    if theirs and uid not in theirs:
        return (
            f"{work.label(target)} is in a challenge: no other unit may interfere with it ({RULE})"
        )
    return None


def move_refusal(work: Work, uid: int, new: tuple[Point, ...]) -> str | None:
    """L1971: a challenger's Movement "must be within each other's maximum Weapon Range": the
    unit ends within its longest Weapon Range of each unit it is in a challenge with."""
    mine = opponents(work, uid)
    if not mine:
        return None
    reach = max(weapon_ranges(work.info(uid), work.units[uid].statuses).values(), default=0)
    xy = geom.as_array(new)
    r = work.info(uid).radius
    for t in mine:
        if not work.standing(t):
            continue
        d = bases.distances(work, uid, xy, r, t, work.xy(t), work.info(t).radius)
        if d.size and float(d.min()) > max(float(reach), geom.CONTACT) + 1e-9:
            return (
                f"{work.label(uid)} is in a challenge with {work.label(t)}: its Movement must end "
                f'within its maximum Weapon Range ({reach}") of it ({RULE})'
            )
    return None


def on_casualty(work: Work, unit: int, model: int, source: str) -> None:
    """L1969 "until one survivor remains": a challenger with no living model leaves every
    challenge it was in."""
    if work.units[unit].living() or not opponents(work, unit):
        return
    for t in opponents(work, unit):
        u = work.units[t]
        work.set_unit(t, statuses=tuple(s for s in u.statuses if s.name != f"{DUEL}{unit}"))
        work.emit("perk", f"{work.label(t)} survives its challenge with {work.label(unit)}",
                  RULE, unit=t, perk=CHALLENGER)  # fmt: skip
    u = work.units[unit]
    work.set_unit(unit, statuses=tuple(s for s in u.statuses if not s.name.startswith(DUEL)))


def register_hooks(reg: HookRegistry) -> None:
    """Register this module's hooks (one call from ``perk_families.register_family_hooks``)."""
    reg.register(
        Hook.PHASE_START, challenge_at_phase_start, "Challenger (automatic use)", perks=[CHALLENGER]
    )
    reg.register(Hook.CASUALTY, on_casualty, "Challenger (a challenger falls)", perks=[CHALLENGER])
