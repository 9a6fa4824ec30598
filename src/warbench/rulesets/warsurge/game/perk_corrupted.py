"""Corrupted Weapons in a game (Perks 000_94ecc6a4c74d351b.txt §12.5 Tactical, L3793-L3805).

    "Corrupted — Activation. At the start of the Game Turn, the User may offer Stats to improve
    the Corrupted Weapon. For each -1 to Defence (down to 0), the Weapon gains +1 Power. For
    each -1 to Armour Save (down to -), the Weapon gains +1 AP (up to 2+). For each -1 HP (down
    to 0 HP) the Weapon gains +1 Attack. This is only available if the Weapon's Power matches
    the User's Defence, and AP matches the User's Armour Save (apply all other modifiers first
    then apply Corrupted modifiers as needed). At the end of the Game Turn, Defence, Armour and
    the Weapon's Stats are returned to their original values."

* **The offer** is a use of the perk with an option (``UsePerks(unit, ("Corrupted: Gun D2 A1
  H0",))``: the Weapon, then how much Defence, Armour and HP it offers), at the start of the
  Game Turn as Transform's form (the Standard Deploy Phase, or the Move Phase before the unit
  moves; the Advanced Action Steps before its first action), once per Game Turn
  (:func:`refused`, :func:`offer`). :func:`options` lists the offers a player is shown (one
  point of each Stat, and both); any other offer within the limits may be named.
* **Limits**: Defence down to 0; Armour down to "-" and no more steps than the Weapon's AP can
  gain up to 2+; HP only when, with the Defence and Armour offered, the Weapon's Power equals
  the User's Defence and its AP equals the User's Armour Save (both as the game reads them now,
  every other modifier applied), and no more than the unit's HP.
* **Effect**: statuses for the Game Turn, ``Corrupted Defence n`` and ``Corrupted Armour n``
  on the unit (-1 each) and ``Corrupted Power n@W``, ``Corrupted AP n@W``, ``Corrupted Attacks
  n@W`` on the Weapon (+1 each); the HP offered are lost at once with no Saves and are not
  returned. The engine offers nothing by itself (docs/rulings.md "Corrupted").
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.game.perk_index import perks_now
from warbench.rulesets.warsurge.game.perk_turn import lose_hp
from warbench.rulesets.warsurge.game.state import Status

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.work import Work

__all__ = ["CORRUPTED", "STEPS", "offer", "options", "parse", "refused", "wields"]

CORRUPTED = "Corrupted"
RULE = "Perks §12.5 Corrupted (000_94ecc6a4c74d351b.txt L3793)"
#: The most of one Stat that one offer may name (the statuses the effects table defines).
STEPS = 10
_OPTION = re.compile(r"^(?P<weapon>.+?)\s+D(?P<d>\d+)\s+A(?P<a>\d+)\s+H(?P<h>\d+)$")


def parse(option: str) -> tuple[str, int, int, int] | None:
    """``("Gun", 2, 1, 0)`` for ``"Gun D2 A1 H0"``; ``None`` when it does not read so."""
    m = _OPTION.match(option.strip())
    if m is None:
        return None
    return m["weapon"], int(m["d"]), int(m["a"]), int(m["h"])


def _weapons(work: Work, uid: int) -> list[str]:
    return [name for name, ps in perks_now(work, uid).weapons if CORRUPTED in ps]


def wields(work: Work, uid: int) -> bool:
    """Whether a weapon of ``uid`` is Corrupted (the unit then uses the perk, L3793)."""
    return any(CORRUPTED in ps for _, ps in perks_now(work, uid).weapons)


def _limits(work: Work, uid: int, weapon: str, d: int, a: int) -> tuple[int, int, bool]:
    """(Defence it may offer, Armour steps it may offer, whether HP may be offered with ``d``
    Defence and ``a`` Armour offered)."""
    from warbench.rulesets.warsurge.game.work import to_unit_state

    seen = to_unit_state(work, uid)
    defence = seen.profile.defence
    armour = seen.profile.armour  # 2..6, None: "-"
    wp = seen.weapons[weapon]
    armour_steps = 0 if armour is None else 7 - armour
    ap_steps = 5 if wp.ap is None else max(0, wp.ap - 2)
    max_a = min(armour_steps, ap_steps)
    new_def = defence - d
    new_armour = None if armour is None or armour + a > 6 else armour + a
    new_ap = wp.ap if not a else (7 - a if wp.ap is None else wp.ap - a)
    hp_ok = wp.power + d == new_def and new_ap == new_armour
    return defence, max_a, hp_ok


def refused(work: Work, uid: int, option: str, start: bool) -> str | None:
    """Why ``uid`` may not make the offer ``option`` now (``start``: it is the start of the
    Game Turn for the unit, as Transform's form), or ``None``."""
    got = parse(option)
    weapons = _weapons(work, uid)
    if got is None or got[0] not in weapons:
        names = ", ".join(weapons) or "none"
        return (
            f"name the Corrupted Weapon and the Stats offered, as 'Corrupted: Gun D1 A0 H0' "
            f"(Defence, Armour, HP); its Corrupted Weapons: {names} ({RULE})"
        )
    weapon, d, a, h = got
    if not start or work.units[uid].counter(f"used {CORRUPTED}") == work.flow.turn:
        return (
            f"Stats are offered to a Corrupted Weapon at the start of the Game Turn, once ({RULE})"
        )
    if d + a + h == 0:
        return f"offer at least one Stat to {weapon} ({RULE})"
    defence, max_a, hp_ok = _limits(work, uid, weapon, d, a)
    if d > min(defence, STEPS):
        return (
            f"{work.label(uid)} may offer at most {min(defence, STEPS)} Defence (down to 0, {RULE})"
        )
    if a > min(max_a, STEPS):
        return (
            f"{work.label(uid)} may offer at most {min(max_a, STEPS)} Armour: down to '-', and "
            f"{weapon}'s AP up to 2+ ({RULE})"
        )
    if h:
        hp = sum(max(0, x) for x in work.units[uid].hp)
        if not hp_ok:
            return (
                f"HP may be offered only when {weapon}'s Power matches {work.label(uid)}'s "
                f"Defence and its AP matches its Armour Save, the offer made ({RULE})"
            )
        if h > min(hp, STEPS):
            return f"{work.label(uid)} may offer at most {min(hp, STEPS)} HP ({RULE})"
    return None


def options(work: Work, uid: int, start: bool) -> list[str]:
    """The offers a player is shown: one Defence, one Armour, one of each, and one HP where
    allowed, for each Corrupted Weapon."""
    out: list[str] = []
    for weapon in _weapons(work, uid):
        for d, a, h in ((1, 0, 0), (0, 1, 0), (1, 1, 0), (0, 0, 1)):
            opt = f"{weapon} D{d} A{a} H{h}"
            if refused(work, uid, opt, start) is None:
                out.append(opt)
    return out


def offer(work: Work, uid: int, option: str) -> None:
    """Make the offer ``option`` (checked with :func:`refused`): the Game Turn's statuses, and
    the HP lost at once."""
    got = parse(option)
    assert got is not None
    weapon, d, a, h = got
    new: list[Status] = []
    for stat, count, scope in (
        ("Defence", d, ""),
        ("Power", d, f"@{weapon}"),
        ("Armour", a, ""),
        ("AP", a, f"@{weapon}"),
        ("Attacks", h, f"@{weapon}"),
    ):
        # one status (and one source) a point, so that they stack (§12.1 L113)
        new += [
            Status(f"Corrupted {stat} {n}{scope}", 1, f"u{uid}/Corrupted {stat} {n}")
            for n in range(1, count + 1)
        ]
    u = work.units[uid]
    work.set_unit(uid, statuses=(*u.statuses, *new))
    work.emit("perk", f"{work.label(uid)} offers {d} Defence, {a} Armour and {h} HP to its "
              f"{weapon} (Corrupted): +{d} Power, +{a} AP, +{h} Attacks this Game Turn", RULE,
              unit=uid, perk=CORRUPTED, weapon=weapon, defence=d, armour=a, hp=h)  # fmt: skip
    if h:
        # HP offered is a price, not an HP Loss received: no Combat Damage table (L1154)
        lose_hp(work, uid, h, f"{h} HP offered to {weapon} (Corrupted)", RULE, table=False)
