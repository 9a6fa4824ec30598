"""Weapon Afflictions that reach other units (Perks 000_94ecc6a4c74d351b.txt §12.5, issue 11).

* **Plague** (L2812): the status (1 HP lost at each end of a Game Turn, ``perk_hooks``) is put
  on by the generic HP-Loss afflictions; here, its catching: "For each Unit (friend or foe)
  within 6" of a Plagued Unit at the start of a Game Turn, roll a D6. On a 4+, that Unit will
  also become Plagued". One D6 per unit not yet Plagued, however many Plagued units are near
  it; the Plague it catches keeps the source of the nearest Plagued unit's (so "identical
  Weapons by the same Unit do not stack", docs/rulings.md "perks in play: lane c").
* **Spread** (L2848): "If Afflictions were caused by the Spread Weapon during this Attack
  Sequence, at the end of the Attack Sequence check for Units (friend or foe) within 6" of the
  Target … On a 4+, that Unit immediately receives all the Afflictions caused by the (same)
  Spread Weapon(s) this Game Turn", re-afflictions included.
* **Stun** (L2862) lives in the attack kernel (``AttackContext.stunned``) and Bloodthirsty
  (L4272) too (``melee_bonus_attacks``); ``perk_effects.attack_flags`` reads their statuses.

The hooks of lane c (this module's, :mod:`.perk_psych`'s, :mod:`.perk_deploy`'s) are registered by
:func:`register_hooks`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.effects.model import EffectKind
from warbench.rulesets.warsurge.effects.runtime import immunities
from warbench.rulesets.warsurge.effects.table import load_table
from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.perk_effects import DELAYED, status_immunities
from warbench.rulesets.warsurge.game.perk_index import weapon_perks
from warbench.rulesets.warsurge.game.state import Location, Status

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["caught_afflictions", "plague_at_turn_start", "register_hooks", "spread_after_use"]

BOOK = "000_94ecc6a4c74d351b.txt"
PLAGUE_RULE = f"Perks §12.5 Plague ({BOOK} L2812)"
SPREAD_RULE = f"Perks §12.5 Spread ({BOOK} L2848)"
NEAR = 6.0  # both perks: "within 6\""


def _immune(w: Work, uid: int) -> frozenset[str]:
    info = w.info(uid)
    names = [*info.unit.profile.perks, *info.traits]
    return immunities(names) | status_immunities(w.units[uid].statuses)


def _base(name: str) -> str:
    return name[: -len(DELAYED)] if name.endswith(DELAYED) else name


# -- Plague ----------------------------------------------------------------------------------


def plague_at_turn_start(work: Work, turn: int) -> None:
    """L2812: each unit on the Battlefield within 6" of a Plagued unit (as the Game Turn
    starts) and not Plagued itself rolls a D6; on a 4+ it is Plagued too, from the nearest
    Plagued unit's source."""
    plagued: list[tuple[int, str]] = []
    for u in work.units:
        if u.statuses and work.standing(u.uid):
            src = next((s.source for s in u.statuses if s.name == "Plague"), None)
            if src is not None:
                plagued.append((u.uid, src))
    if not plagued:
        return
    carriers = {uid for uid, _ in plagued}
    for u in list(work.units):
        t = u.uid
        if t in carriers or not work.standing(t):
            continue
        near = sorted((work.gap(c, t), c, src) for c, src in plagued if c != t)
        near = [n for n in near if n[0] <= NEAR + 1e-9]
        if not near:
            continue
        _, carrier, src = near[0]
        if "Plague" in _immune(work, t):
            work.emit("perk", f"{work.label(t)} is immune to Plague", PLAGUE_RULE, unit=t,
                      perk="Plague", landed=False)  # fmt: skip
            continue
        face = work.dice.d6(f"Plague on {work.label(t)}")
        caught = face >= 4
        work.emit(
            "perk",
            f'{work.label(t)} is within 6" of Plagued {work.label(carrier)}: D6 {face}'
            + (": Plagued" if caught else ": not caught"),
            PLAGUE_RULE,
            unit=t,
            perk="Plague",
            landed=caught,
            roll=face,
        )
        if caught:
            work.set_unit(t, statuses=(*work.units[t].statuses, Status("Plague", None, src)))


# -- Spread ----------------------------------------------------------------------------------


def _status_names(perk: str) -> frozenset[str]:
    row = load_table().find(perk)
    if row is None:
        return frozenset()
    return frozenset(
        e.status for e in row.effects if e.kind is EffectKind.STATUS and e.status is not None
    )


def caught_afflictions(work: Work, uid: int, weapon: str, target: int) -> list[Status]:
    """The Afflictions ``weapon`` of ``uid`` caused on ``target`` in the Attack Sequence that
    just ended (landed, or landed again, since its ``attack`` event), as they stand on the
    target."""
    landed: set[str] = set()
    for ev in reversed(work.events):
        if ev.kind == "attack" and ev.data.get("unit") == uid and ev.data.get("weapon") == weapon:
            break
        if ev.kind == "perk" and ev.data.get("unit") == target and ev.data.get("landed"):
            perk = ev.data.get("perk")
            if isinstance(perk, str):
                landed |= _status_names(perk)
    if not landed:
        return []
    key = f"u{uid}/{weapon}"
    return [s for s in work.units[target].statuses if s.source == key and _base(s.name) in landed]


def spread_after_use(work: Work, unit: int, weapon: str, target: int) -> None:
    """L2848: after the Spread weapon's Attack Sequence caused Afflictions, every other unit
    on the Battlefield within 6" of the Target (friend or foe) rolls a D6; on a 4+ it receives
    them (the statuses as the Target has them, same source: no stacking with itself)."""
    if "Spread" not in weapon_perks(work, unit, weapon):
        return
    if not work.standing(target) and work.units[target].location is not Location.TABLE:
        return
    caught = caught_afflictions(work, unit, weapon, target)
    if not caught:
        return
    names = ", ".join(sorted({_base(s.name) for s in caught}))
    for u in list(work.units):
        t = u.uid
        if t == target or not work.standing(t) or work.gap(target, t) > NEAR + 1e-9:
            continue
        face = work.dice.d6(f"Spread on {work.label(t)}")
        ok = face >= 4
        immune = _immune(work, t)
        have = {(s.name, s.source) for s in work.units[t].statuses}
        new = [s for s in caught if _base(s.name) not in immune and (s.name, s.source) not in have]
        work.emit(
            "perk",
            f"Spread from {work.label(target)} ({weapon}): D6 {face} for {work.label(t)}"
            + (f": {names}" if ok else ": not caught"),
            SPREAD_RULE,
            unit=t,
            perk="Spread",
            landed=ok,
            roll=face,
        )
        if ok and new:
            work.set_unit(t, statuses=(*work.units[t].statuses, *new))


def register_hooks(reg: HookRegistry) -> None:
    """Register lane c's hooks: Plague, Spread, and those of :mod:`.perk_psych` and
    :mod:`.perk_deploy`."""
    from warbench.rulesets.warsurge.game import perk_deploy, perk_psych

    reg.register(Hook.TURN_START, plague_at_turn_start, "Plague: catching it")
    reg.register(
        Hook.WEAPON_USED, spread_after_use, "Spread: after the Attack Sequence", perks=["Spread"]
    )
    perk_psych.register_hooks(reg)
    perk_deploy.register_hooks(reg)
