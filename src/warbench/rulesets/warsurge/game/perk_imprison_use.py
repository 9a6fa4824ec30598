"""Imprison's use and checks (Perks 000_94ecc6a4c74d351b.txt L821-L851): see
:mod:`.perk_imprison` for the rules and the rulings."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.pauses import Wreck
from warbench.rulesets.warsurge.game.perk_imprison import (
    IMPRISON,
    IMPRISONED,
    RULE,
    USED,
    drop_status,
    imprisoned_by,
    users,
)
from warbench.rulesets.warsurge.game.perk_targeted import listed, misnamed, use_once
from warbench.rulesets.warsurge.game.state import Automation, Location, Phase, Status

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.work import Work

__all__ = [
    "IMPRISON",
    "check",
    "imprison",
    "options",
    "refused",
    "register_hooks",
    "targets",
    "use",
]

#: places a unit as the survivors of a destroyed Transport (``casualties.place_survivors``)
Place = Callable[["Work", Wreck], None]


def targets(work: Work, uid: int) -> list[int]:
    """The units ``uid`` may Imprison now, the engine's choice first (the highest Current Point
    Cost, ties in roster order)."""
    from warbench.rulesets.warsurge.game.work import current_value

    if not work.standing(uid) or work.units[uid].location is not Location.TABLE:
        return []
    own = current_value(work, uid)
    found: list[tuple[float, int]] = []
    for t in work.engaged_with(uid):
        if not work.enemies(uid, t) or work.units[t].location is not Location.TABLE:
            continue
        value = current_value(work, t)
        if value <= own + 1e-9 and not work.passengers(t):
            found.append((-value, t))
    return [t for _, t in sorted(found)]


def refused(work: Work, uid: int, option: str, start: bool) -> str | None:
    """Why ``uid`` may not Imprison the unit ``option`` names now, or ``None``."""
    if work.units[uid].counter(USED) == work.flow.turn:
        return f"Imprison is used once a Game Turn (§12.2 L227, {RULE})"
    if any(s.name == "Paralysis" for s in work.units[uid].statuses):
        return f"{work.label(uid)} is Paralysed: it may not use any Perks this Game Turn (L2790)"
    found = targets(work, uid)
    if not found:
        return (f"no enemy unit in a Melee with {work.label(uid)} costs no more than it "
                f"(Melee, Point Cost (Lesser), {RULE})")  # fmt: skip
    return misnamed(work, option, found, RULE)


def options(work: Work, uid: int, start: bool) -> list[str]:
    """The Targets a player is shown (every one, the engine's choice first)."""
    return listed(refused(work, uid, "", start), lambda: targets(work, uid))


def use(work: Work, uid: int, option: str) -> None:
    """The Imprison: the Mastery Test, then the Target (none named: the engine's) Imprisoned."""

    def engine_choice() -> int | None:
        found = targets(work, uid)
        return found[0] if found else None

    use_once(work, uid, option, perk=IMPRISON, counter=USED, choose=engine_choice,
             effect=imprison)  # fmt: skip


def imprison(work: Work, uid: int, target: int) -> None:
    """``target`` embarks ``uid``, Imprisoned (out of every Melee on the battlefield)."""
    t = work.units[target]
    status = Status(IMPRISONED, None, f"u{uid}")
    work.set_unit(target, location=Location.EMBARKED, embarked_in=uid, pos=(), terrain=None,
                  statuses=(*t.statuses, status))  # fmt: skip
    work.engaged = {p for p in work.engaged if target not in p}
    work.emit("perk", f"{work.label(uid)} Imprisons {work.label(target)}: it is inside, in a "
              "Melee with it (Imprison)", RULE, unit=target, by=uid, perk=IMPRISON)  # fmt: skip


def check(work: Work, place: Place) -> None:
    """A status left behind (escaped by Vanish, into Reserve with the User) is dropped; an
    Imprisoned unit costing more than its User disembarks at once (L851)."""
    from warbench.rulesets.warsurge.game.work import current_value

    for u in list(work.units):
        if not u.statuses or not any(s.name == IMPRISONED for s in u.statuses):
            continue
        user = imprisoned_by(work, u.uid)
        if user is None:
            drop_status(work, u.uid)
            continue
        if not any(h > 0 for h in work.units[user].hp):
            continue  # the User falls: the Prisoner goes into Reserve (released_to_reserve)
        if current_value(work, u.uid) <= current_value(work, user) + 1e-9:
            continue
        drop_status(work, u.uid)
        work.emit("perk", f"{work.label(u.uid)} now costs more than {work.label(user)}: it "
                  "disembarks at once (Imprison)", RULE, unit=u.uid, perk=IMPRISON)  # fmt: skip
        # placed as survivors around the User: the site's second ring is base contact
        jail, r = work.units[user], work.info(u.uid).radius
        place(work, Wreck(u.uid, tuple(jail.pos), work.info(user).radius + 2 * r))


def at_phase_start(work: Work, phase: str) -> None:
    """The engine's use under the ``perk use`` automation: as each Attack Phase starts, each
    User that may, Imprisons its most expensive Target."""
    if phase != Phase.ATTACK.value or Automation.PERK_USE not in work.setup.automation:
        return
    for uid in users(work.setup):
        if work.units[uid].location is Location.TABLE and refused(work, uid, "", False) is None:
            work.emit("perk", f"{work.label(uid)} uses {IMPRISON}", RULE, unit=uid,
                      perk=IMPRISON)  # fmt: skip
            use(work, uid, "")


def register_hooks(reg: HookRegistry, place: Place) -> None:
    """Imprison: the engine's use, and the checks of who stays inside."""

    def _lost(work: Work, unit: int, amount: int, source: str, attacker: int | None) -> None:
        if users(work.setup):
            check(work, place)

    def _phase_end(work: Work, phase: str) -> None:
        if users(work.setup):
            check(work, place)

    def _phase_start(work: Work, phase: str) -> None:
        if users(work.setup):
            check(work, place)
            at_phase_start(work, phase)

    # each acts only where the set-up has Imprison users (``users``; issue 10, session 34)
    held = [IMPRISON]
    reg.register(Hook.HP_LOST, _lost, "Imprison: a Target costing more disembarks", perks=held)
    reg.register(Hook.PHASE_END, _phase_end, "Imprison: who stays inside", perks=held)
    reg.register(Hook.PHASE_START, _phase_start, "Imprison: the engine's use", perks=held)
