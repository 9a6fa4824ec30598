"""Psychological Unit Perks that take a unit's choices away (Perks 000_94ecc6a4c74d351b.txt
§12.4 Psychological, issue 11).

* **Berserk** (L2187): "Weapons must be directed to the closest enemy Unit (except for those
  with the Heal Perk) … If multiple enemy Units are the same distance, User may choose": a
  weapon of a Berserk unit may Target only an enemy unit on the Battlefield at the least
  distance (closest models), ties allowed (:func:`target_refusal`).
* **Wild Instinct** (L2341, Radius 12"): "If there is no friendly Leader model within 12" of the
  User at the start of the Game Turn … Roll a D3": 1) *Inactive*, "does nothing and cannot be
  used at all during this Game Turn" (status ``Wild Instinct (Inactive)``: Move and Dash 0, no
  Weapons); 2) *Berserk*, "must attack the closest visible enemy Unit … If no enemies are in
  line of sight, treat this as a result of 1" (status ``Wild Instinct (Berserk)``: its weapons
  may Target only the closest enemy unit in sight); 3) *Normal*.

Their Movement clauses are checked by :func:`move_refusal`: while a weapon (not Heal) of a
Berserk unit is out of Range of the closest enemy unit, no model of a Move or Dash may end
farther from that unit than it began ("direct any and all Movement toward the closest enemy
Unit until all Weapons are in Range"); a Wild Instinct Berserk unit moves only while a weapon
is out of Range ("only making a Move or Dash if all Weapons are not in Range"), and then the
same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game import perk_defect, perk_dominate, perk_psychotic
from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.perk_closest import (
    heal_weapon,
    moves_away,
    nearest,
    out_of_range,
)
from warbench.rulesets.warsurge.game.perk_turn import index
from warbench.rulesets.warsurge.game.state import Status

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.actions import Point
    from warbench.rulesets.warsurge.game.work import Work

__all__ = [
    "closest_enemies",
    "move_refusal",
    "perk_refusal",
    "register_hooks",
    "target_refusal",
    "weapon_refusal",
]

BOOK = "000_94ecc6a4c74d351b.txt"
BERSERK_RULE = f"Perks §12.4 Berserk ({BOOK} L2187)"
WILD_RULE = f"Perks §12.4 Wild Instinct ({BOOK} L2341)"
INACTIVE = "Wild Instinct (Inactive)"
WILD_BERSERK = "Wild Instinct (Berserk)"
WILD_RADIUS = 12.0
CONFUSED = "Confuse"
CONFUSE_RULE = f"Perks §12.5 Confuse ({BOOK} L2636)"
LEADERS = ("Leader", "War Master")  # War Master "is defined as a 'Leader'" (L2057)


def _sees(w: Work, uid: int, other: int) -> bool:
    """Some model of ``uid`` sees some model of ``other`` (§5.4 line of sight)."""
    from warbench.rulesets.warsurge.game.bases import sees

    return sees(w, uid, other)  # oval and rectangular bases with their outline (§1.3)


def closest_enemies(w: Work, uid: int, visible: bool = False) -> list[int]:
    """The enemy units on the Battlefield at the least distance from ``uid`` (several when
    tied; with ``visible``, only those in its sight)."""
    foes = [u.uid for u in w.units if w.enemies(uid, u.uid) and w.standing(u.uid)]
    return nearest(w, uid, (t for t in foes if not visible or _sees(w, uid, t)))


def _statuses(w: Work, uid: int) -> frozenset[str]:
    s = w.units[uid].statuses
    return frozenset(x.name for x in s) if s else frozenset()


def target_refusal(w: Work, uid: int, weapon: str, target: int) -> str | None:
    """Why ``uid``'s ``weapon`` may not Target ``target`` under Berserk or a Wild Instinct
    roll of 2, or ``None``. Heal weapons are free (L2187)."""
    if (mad := perk_psychotic.target_refusal(w, uid, weapon, target)) is not None:
        return mad  # Psychotic (L2277)
    if (turned := perk_defect.target_refusal(w, uid, weapon, target)) is not None:
        return turned  # Traitorous (L2313), Enslaved (L1254)
    if (held := perk_dominate.refusal(w, uid)) is not None:
        return held  # Dominate (L745): the User makes no other Action
    berserk = "Berserk" in index(w.setup).units[uid].unit
    wild = WILD_BERSERK in _statuses(w, uid)
    if not berserk and not wild:
        return None
    if heal_weapon(w, uid, weapon):
        return None
    closest = closest_enemies(w, uid, visible=wild and not berserk)
    if not closest or target in closest:
        return None
    rank, rule = ("Berserk", BERSERK_RULE) if berserk else ("Wild Instinct", WILD_RULE)
    names = ", ".join(w.label(t) for t in closest)
    return f"{weapon} must Target the closest enemy unit ({names}): {rank}, {rule}"


def weapon_refusal(w: Work, uid: int, weapon: str) -> str | None:
    """Wild Instinct's roll of 1 (L2341): "does nothing and cannot be used at all during this
    Game Turn"; Confuse (L2636): "For the next Game Turn, the Unit cannot use Weapons"."""
    if (held := perk_dominate.refusal(w, uid)) is not None:  # Dominate (L745)
        return held
    names = _statuses(w, uid)
    if INACTIVE in names:
        return f"{w.label(uid)} is Inactive this Game Turn: no Weapons (Wild Instinct, {WILD_RULE})"
    if CONFUSED in names:
        return f"{w.label(uid)} is Confused this Game Turn: no Weapons (Confuse, {CONFUSE_RULE})"
    return None


def perk_refusal(w: Work, uid: int, perk: str) -> str | None:
    """Why ``uid`` may not use the activated perk ``perk`` now: Inactive (Wild Instinct's 1,
    L2341: "cannot be used at all"), or Confused (L2636: "any Perks with Activate or Mastery
    Tests"); else ``None``."""
    if (held := perk_dominate.refusal(w, uid)) is not None:  # Dominate (L745)
        return held
    names = _statuses(w, uid)
    if INACTIVE in names:
        return f"{w.label(uid)} is Inactive this Game Turn: no Perks (Wild Instinct, {WILD_RULE})"
    if CONFUSED in names:
        from warbench.rulesets.warsurge.effects.model import PerkTest, Trigger
        from warbench.rulesets.warsurge.effects.table import load_table

        row = load_table().get(perk)
        if Trigger.ACTIVATE in row.triggers or any(t.kind is PerkTest.MASTERY for t in row.tests):
            return (
                f"{w.label(uid)} is Confused this Game Turn: no Perks with Activate or Mastery "
                f"Tests (Confuse, {CONFUSE_RULE})"
            )
    return None


def move_refusal(
    w: Work, uid: int, starts: tuple[Point, ...], new: tuple[Point, ...]
) -> str | None:
    """Why this Move or Dash of a Berserk unit (L2187) or a Wild Instinct unit that rolled
    Berserk (L2341) is not allowed, or ``None``."""
    if CONFUSED in _statuses(w, uid):
        return (
            f"{w.label(uid)} is Confused this Game Turn: the player that caused it moves it, "
            f"not its own (Confuse, {CONFUSE_RULE})"
        )
    if (mad := perk_psychotic.move_refusal(w, uid, starts, new)) is not None:  # Psychotic
        return mad
    if (turned := perk_defect.move_refusal(w, uid, starts, new)) is not None:  # Traitorous
        return turned
    if (held := perk_dominate.refusal(w, uid)) is not None:  # Dominate (L745)
        return held
    berserk = "Berserk" in index(w.setup).units[uid].unit
    wild = WILD_BERSERK in _statuses(w, uid)
    if not berserk and not wild:
        return None
    closest = closest_enemies(w, uid, visible=wild and not berserk)
    if not closest:
        return None
    rank, rule = ("Berserk", BERSERK_RULE) if berserk else ("Wild Instinct", WILD_RULE)
    if not any(out_of_range(w, uid, c) for c in closest):
        if berserk:
            return None
        return (
            f"{w.label(uid)} has every Weapon in Range of the closest enemy: it may not Move or "
            f"Dash ({rank}, {rule})"
        )
    if not moves_away(w, uid, closest, starts, new):
        return None
    names = ", ".join(w.label(c) for c in closest)
    return (
        f"{w.label(uid)} must direct its Movement toward the closest enemy unit ({names}): no "
        f"model may end farther from it ({rank}, {rule})"
    )


def _leader_near(w: Work, uid: int) -> bool:
    idx = index(w.setup)
    for u in w.units:
        t = u.uid
        if w.enemies(uid, t) or not w.standing(t):
            continue
        if idx.units[t].unit & set(LEADERS) and w.gap(uid, t) <= WILD_RADIUS + 1e-9:
            return True
    return False


def wild_instinct_at_turn_start(work: Work, turn: int) -> None:
    """L2341: each Wild Instinct unit on the Battlefield with no friendly Leader within 12"
    rolls a D3 as the Game Turn starts; 1 Inactive, 2 Berserk (Inactive if no enemy is in
    sight), 3 Normal. The status lasts the Game Turn."""
    idx = index(work.setup)
    for u in list(work.units):
        uid = u.uid
        if "Wild Instinct" not in idx.units[uid].unit or not work.standing(uid):
            continue
        kept = tuple(s for s in u.statuses if s.name not in (INACTIVE, WILD_BERSERK))
        if _leader_near(work, uid):
            if kept != u.statuses:
                work.set_unit(uid, statuses=kept)
            continue
        face = work.dice.d3(f"Wild Instinct of {work.label(uid)}")
        status: str | None = None
        what = "Normal: under its player's control"
        if face == 2 and closest_enemies(work, uid, visible=True):
            status, what = WILD_BERSERK, "Berserk: it must attack the closest visible enemy"
        elif face in (1, 2):
            status = INACTIVE
            what = "Inactive: it does nothing this Game Turn" + (
                " (no enemy in sight)" if face == 2 else ""
            )
        new = (*kept, Status(status, 1, f"u{uid}/Wild Instinct")) if status else kept
        work.set_unit(uid, statuses=new)
        work.emit("perk", f"{work.label(uid)}: Wild Instinct D3 {face}, {what}", WILD_RULE,
                  unit=uid, perk="Wild Instinct", roll=face)  # fmt: skip


def register_hooks(reg: HookRegistry) -> None:
    """Wild Instinct's roll as each Game Turn starts."""
    reg.register(
        Hook.TURN_START,
        wild_instinct_at_turn_start,
        "Wild Instinct: its D3",  # it goes over the set-up's Wild Instinct units alone (s37)
        when=lambda setup: any("Wild Instinct" in p.unit for p in index(setup).units),
    )
