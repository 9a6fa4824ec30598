"""Dominate in a game (Perks 000_94ecc6a4c74d351b.txt §12.4 Ability, L745-L756).

    "Dominate — Mastery Test, Point Cost (Lesser), Radius (18"), Instruct. At the end of the
    Deploy Phase (Standard) or before the first Action Step (Advanced) each Game Turn, roll a
    Mastery Test. If successful, the User seizes control of the Target Unit for an entire Game
    Turn. When activated, the User cannot perform any other Actions for the entire Game Turn,
    but may still roll Saves. The Target is directed by the User which includes Movement,
    Attacks and Perks. This remains in effect until the Target or User is destroyed or the Game
    Turn ends. For the purpose and intention of Perk effects, the Target is not considered
    friendly (cannot be used for Fusion, or benefit from any Perks that are active through
    Presence)."

* **When**: the PHASE_END hook of the Standard Deploy Phase; the PHASE_START hook of the
  Advanced Actions Phase (before its first Action Step; its CP already counted).
* **The Target** is the player's choice, ``UsePerks(user, ("Dominate: <n>",))`` in the Deploy
  Phase (Advanced: before the unit's first Action), the Mastery Test then (:func:`refused`,
  :func:`options`, :func:`use`); under the ``perk use`` automation the engine's, as the Phase
  ends (:func:`choose`): an enemy unit on the Battlefield within 18" (closest base edges),
  whose Current Point Cost is no more than the User's (Point Cost (Lesser), L321), not in a
  Melee with a unit of the User's side and not itself seized; the one with the highest Current
  Point Cost (ties: roster order). No Target, no test.
* **Seized**: the status ``Seized by side <n>`` (:data:`~.state.SEIZED`) for the Game Turn: the
  User's side acts with it (``Work.acting_units``, the Standard alternation and the Advanced
  Action Steps and CP, its Counter Actions) and it is that side's for ``enemies`` (so it may
  Target and fight its own side's units, and they it); Perks still read its Roster
  (``side_units``: "not considered friendly"). Its owner still moves the models (Instruct
  L281), which the game does not need to model.
* **The User** is under ``Dominating`` for the Game Turn: no Move, Dash, Attack or Use Perks
  (:func:`refusal`, asked by ``perk_psych``); it still rolls Saves.
* **The end**: the Game Turn's end, or the User or the Target destroyed (checked after every
  casualty and as each Phase starts): the status goes, and a Melee between units no longer
  enemies ends (a Melee the Target began with its own side's units while seized).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game.memo import per_setup
from warbench.rulesets.warsurge.game.perk_targeted import listed, misnamed, use_once
from warbench.rulesets.warsurge.game.state import SEIZED, Location, Phase, Status

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.hooks import HookRegistry
    from warbench.rulesets.warsurge.game.state import GameSetup
    from warbench.rulesets.warsurge.game.work import Work

__all__ = [
    "DOMINATE",
    "DOMINATING",
    "USED",
    "choose",
    "options",
    "refusal",
    "refused",
    "register_hooks",
    "seize",
    "targets",
    "use",
]

DOMINATE = "Dominate"
DOMINATING = "Dominating"
#: the User's counter: the Game Turn it used Dominate (``used <perk>``, as ``UsePerks``)
USED = "used Dominate"
RULE = "Perks §12.4 Dominate (000_94ecc6a4c74d351b.txt L745)"
RADIUS = 18.0


@per_setup
def users(setup: GameSetup) -> tuple[int, ...]:
    """The units of ``setup`` with Dominate (once per set-up)."""
    from warbench.rulesets.warsurge.effects.table import load_table

    table = load_table()
    out = tuple(
        info.uid
        for info in setup.units
        if any(
            (r := table.find(n)) is not None and r.name == DOMINATE
            for n in (*info.unit.profile.perks, *info.traits)
        )
    )
    return out


def _dominating(work: Work, uid: int) -> bool:
    st = work.units[uid].statuses
    return bool(st) and any(s.name == DOMINATING for s in st)


def refusal(work: Work, uid: int) -> str | None:
    """Why the User may not act now (it is Dominating this Game Turn), or ``None``."""
    if not _dominating(work, uid):
        return None
    return (f"{work.label(uid)} is Dominating this Game Turn: it cannot perform any other "
            f"Actions, but may still roll Saves ({RULE})")  # fmt: skip


def targets(work: Work, uid: int) -> list[int]:
    """The units ``uid`` may Dominate now (the module's rule), the engine's choice first: the
    highest Current Point Cost, ties in roster order."""
    from warbench.rulesets.warsurge.game.work import current_value

    own = current_value(work, uid)
    side = work.info(uid).side
    found: list[tuple[float, int]] = []
    for u in work.units:
        t = u.uid
        if not work.standing(t) or not work.enemies(uid, t) or u.seized_by is not None:
            continue
        if u.defected or work.gap(uid, t) > RADIUS + 1e-9:
            continue
        value = current_value(work, t)
        if value > own + 1e-9:
            continue
        if any(work.info(f).side == side for f in work.engaged_with(t)):
            continue
        found.append((-value, t))
    return [t for _, t in sorted(found)]


def choose(work: Work, uid: int) -> int | None:
    """The engine's Target for ``uid``'s Dominate, or ``None``."""
    found = targets(work, uid)
    return found[0] if found else None


def _window(work: Work, start: bool) -> bool:
    """The Standard Deploy Phase; the Advanced Action Steps before the unit's first action."""
    from warbench.rulesets.warsurge.game.advstate import Playstyle

    advanced = work.setup.playstyle is Playstyle.ADVANCED
    return start and (advanced or work.flow.phase is Phase.DEPLOY)


def refused(work: Work, uid: int, option: str, start: bool) -> str | None:
    """Why ``uid`` may not Dominate the unit ``option`` names now (``start``: the start of the
    Game Turn for it), or ``None``: the player's use, ``UsePerks(uid, ("Dominate: <n>",))``."""
    if not _window(work, start) or work.units[uid].counter(USED) == work.flow.turn:
        return (f"Dominate is used once a Game Turn, in the Deploy Phase (Advanced: before the "
                f"unit's first Action) ({RULE})")  # fmt: skip
    if work.units[uid].seized_by is not None or work.units[uid].defected:
        return f"{work.label(uid)} is seized itself, or has turned against its side ({RULE})"
    found = targets(work, uid)
    if not found:
        return (f'no enemy unit within 18" costing no more than {work.label(uid)} to '
                f"Dominate ({RULE})")  # fmt: skip
    return misnamed(work, option, found, RULE)


def options(work: Work, uid: int, start: bool) -> list[str]:
    """The Targets a player is shown (every one, the engine's choice first)."""
    return listed(refused(work, uid, "", start), lambda: targets(work, uid))


def use(work: Work, uid: int, option: str) -> None:
    """The player's Dominate: the Mastery Test, then the Target (no number named: the
    engine's) seized for the Game Turn."""
    use_once(work, uid, option, perk=DOMINATE, counter=USED, choose=lambda: choose(work, uid),
             effect=seize)  # fmt: skip


def seize(work: Work, uid: int, target: int) -> None:
    """``uid`` seizes control of ``target`` for the Game Turn."""
    side = work.info(uid).side
    t = work.units[target]
    work.set_unit(target, statuses=(*t.statuses, Status(f"{SEIZED}{side}", 1, f"u{uid}")))
    u = work.units[uid]
    work.set_unit(uid, statuses=(*u.statuses, Status(DOMINATING, 1, f"u{target}")))
    work.sides_changed()
    work.engaged = {(a, b) for a, b in work.engaged if work.enemies(a, b)}  # now allies
    _engage(work, target)
    work.emit("perk", f"{work.label(uid)} seizes control of {work.label(target)} for the Game "
              f"Turn (Dominate)", RULE, unit=target, by=uid, perk=DOMINATE)  # fmt: skip


def _engage(work: Work, uid: int) -> None:
    """§4.3: a unit touching units that are now its enemies is locked in a Melee with them
    (found by the 1000-game perk-heavy run of session 25, game 116)."""
    from warbench.rulesets.warsurge.game.melee import engage_new_contacts

    engage_new_contacts(work, uid)


def _dominator(work: Work, target: int) -> int | None:
    """The User that seized ``target`` (the seized status's source, ``u<uid>``)."""
    for s in work.units[target].statuses:
        if s.name.startswith(SEIZED) and s.source[1:].isdigit():
            return int(s.source[1:])
    return None


def _release(work: Work, target: int, why: str) -> None:
    user = _dominator(work, target)
    t = work.units[target]
    kept = tuple(s for s in t.statuses if not s.name.startswith(SEIZED))
    work.set_unit(target, statuses=kept)
    if user is not None:
        u = work.units[user]
        gone = tuple(s for s in u.statuses if (s.name, s.source) != (DOMINATING, f"u{target}"))
        work.set_unit(user, statuses=gone)
    work.sides_changed()
    work.engaged = {(a, b) for a, b in work.engaged if work.enemies(a, b)}
    _engage(work, target)
    work.emit("perk", f"{work.label(target)} returns to {work.side_name(work.info(target).side)}"
              f" ({why}; Dominate)", RULE, unit=target, perk=DOMINATE)  # fmt: skip


def _seized(work: Work) -> list[int]:
    """The units a Dominate seized (the status's source names the User: ``u<uid>``)."""
    return [u.uid for u in work.units if u.statuses and _dominator(work, u.uid) is not None]


def _alive(work: Work, uid: int) -> bool:
    u = work.units[uid]
    return u.location is not Location.DESTROYED and bool(u.living())


def _check(work: Work) -> None:
    """The User or the Target destroyed: control returns at once."""
    for t in _seized(work):
        user = _dominator(work, t)
        if not _alive(work, t):
            _release(work, t, "it is destroyed")
        elif user is None or not _alive(work, user):
            _release(work, t, "the Dominating unit is destroyed")


def at_phase_end(work: Work, phase: str) -> None:
    """Standard: the end of the Deploy Phase, each Dominate User on the Battlefield tests."""
    if not users(work.setup):
        return
    from warbench.rulesets.warsurge.game.advstate import Playstyle

    if phase != Phase.DEPLOY.value or work.setup.playstyle is Playstyle.ADVANCED:
        _check(work)
        return
    _dominate(work)


def _dominate(work: Work) -> None:
    from warbench.rulesets.warsurge.game.perk_turn import mastery_test
    from warbench.rulesets.warsurge.game.state import Automation

    if Automation.PERK_USE not in work.setup.automation:
        return
    for uid in users(work.setup):
        u = work.units[uid]
        if not work.standing(uid) or u.seized_by is not None or u.defected:
            continue
        if u.counter(USED) == work.flow.turn:
            continue
        target = choose(work, uid)
        if target is None:
            continue
        work.units[uid] = work.units[uid].with_counter(USED, work.flow.turn)
        work.dirty = True
        if mastery_test(work, uid, DOMINATE):
            seize(work, uid, target)


def at_phase_start(work: Work, phase: str) -> None:
    """Advanced: before the first Action Step (the Actions Phase starts), the tests."""
    if not users(work.setup):
        return
    _check(work)
    if phase == Phase.ACTIONS.value:
        _dominate(work)


def on_casualty(work: Work, unit: int, model: int, source: str) -> None:
    if users(work.setup):
        _check(work)


def at_turn_end(work: Work, turn: int) -> None:
    """The Game Turn ends: every seized unit returns (its status may have ended already)."""
    if not users(work.setup):
        return
    for t in _seized(work):
        _release(work, t, "the Game Turn ends")
    for uid in users(work.setup):
        u = work.units[uid]
        if _dominating(work, uid):
            work.set_unit(uid, statuses=tuple(s for s in u.statuses if s.name != DOMINATING))
    work.engaged = {(a, b) for a, b in work.engaged if work.enemies(a, b)}


def register_hooks(reg: HookRegistry) -> None:
    from warbench.rulesets.warsurge.game.hooks import Hook

    # each asks ``users`` first: fired only where the set-up has a Dominate unit (s37)
    reg.register(Hook.PHASE_END, at_phase_end, "Dominate (end of the Deploy Phase)", when=users)
    reg.register(
        Hook.PHASE_START, at_phase_start, "Dominate (Advanced; User or Target falls)", when=users
    )
    reg.register(Hook.CASUALTY, on_casualty, "Dominate (User or Target destroyed)", when=users)
    reg.register(
        Hook.TURN_END, at_turn_end, "Dominate (the Game Turn ends)", first=True, when=users
    )
