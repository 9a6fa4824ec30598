"""Which units of a set-up have which perks (``perk_turn``'s :func:`index`, read once per
set-up), the perk names ``perk_turn`` plays, and a unit's Weapon Perks as it carries its
Weapons now: a picked-up Loot Weapon keeps its Perks (Perks 000_94ecc6a4c74d351b.txt L3090;
issue 10, session 38, s38-loot: :func:`weapon_perks`, :func:`perks_now`). Split from
``perk_turn`` (which re-exports these names) to keep that file readable beside the book.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from warbench.rulesets.warsurge.effects.table import load_table
from warbench.rulesets.warsurge.game.memo import per_setup
from warbench.rulesets.warsurge.game.perk_arms import labels, taken_weapons

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.game.state import GameSetup
    from warbench.rulesets.warsurge.game.work import Work

BOOK = "000_94ecc6a4c74d351b.txt"

#: Psychological perks tested at the start of a Game Turn after HP Loss (L2197-L2299).
SHAKEN = (
    "Conviction",
    "Execution",
    "Frenzy",
    "Morale I",
    "Morale II",
    "Panic",
    "Pusillanimous",
    "Unstable",  # L2329: into Reserve on a failure (perk_reserve)
    "Fall Back",  # L2221: to its board edge on a failure (perk_flee)
)
#: Unit Perks read at the start of a Game Turn.
TURN_UNIT = frozenset({*SHAKEN, "Powered by Pain", "+Armour I", "+Armour II"})
#: Weapon Perks read at the start of a Game Turn.
TURN_WEAPON = frozenset({"Escalate", "Bloody"})
#: Perks read by the User's HP.
THRESHOLD_UNIT = frozenset({"Deteriorate", "Diminish"})
THRESHOLD_WEAPON = frozenset({"Wane", "Hearty"})
#: Weapon Perks that limit when the weapon may be used, and how many Game Turns / uses.
USES = {"Use I": 1, "Use II": 2, "Use III": 3}
COUNTDOWN = {"Countdown I": 1, "Countdown II": 2, "Countdown III": 3}
RECHARGE = {"Recharge I": 1, "Recharge II": 2, "Recharge III": 3}
LIMIT_WEAPON = frozenset({*USES, *COUNTDOWN, *RECHARGE, "Pain Locked"})
#: Statuses under which a unit may not use any Weapons (Panic L2267).
NO_WEAPONS = ("Panic", "Rush", "Move, Move, Move!")  # Orders L2037
#: Roster Perks active while a Presence unit of the Roster is on the Battlefield (L1372), a
#: status on every unit of that Roster (:mod:`.perk_roster`).
PRESENCE_PERKS = ("Demoralising", "Fleeting", "Inspiring", "Protective", "Shielding", "Swift")
#: Dice Modifiers on enemy Mastery Tests within a Radius (Resist I/II L1677-L1699).
RESIST = {"Resist I": (12.0, -1), "Resist II": (18.0, -2)}

#: Counter names kept on a unit.
ARRIVED = "arrived"
HP_LOST_TURN = "hp lost turn"
PAIN = "pain"
WEAPONS_TURN = "weapons turn"  # the last Game Turn the unit used a weapon (Rush L2160)

# -- which units have which perks (once per set-up) -------------------------------------------


@dataclass(frozen=True)
class UnitPerks:
    """A unit's perks by their book names: its own (profile and Traits) and per weapon."""

    unit: frozenset[str]
    weapons: tuple[tuple[str, frozenset[str]], ...]

    def weapon_perks(self, weapon: str) -> frozenset[str]:
        return next((p for w, p in self.weapons if w == weapon), frozenset())

    def weapons_with(self, names: Iterable[str]) -> list[tuple[str, frozenset[str]]]:
        want = set(names)
        return [(w, p & want) for w, p in self.weapons if p & want]

    @property
    def all(self) -> frozenset[str]:
        return self.unit.union(*(p for _, p in self.weapons))


@dataclass(frozen=True)
class PerkIndex:
    """Per unit of a set-up, its perks, and which units this module needs to look at."""

    units: tuple[UnitPerks, ...]
    at_turn_start: tuple[int, ...]
    by_threshold: frozenset[int]
    limited: frozenset[int]
    resist: tuple[tuple[int, float, int], ...]  # (uid, radius, modifier)
    auras: tuple[tuple[int, int, str], ...] = ()  # (Presence unit, player, Roster Perk)


def _canonical(names: Iterable[str]) -> frozenset[str]:
    table = load_table()
    out = set()
    for n in names:
        row = table.find(n)
        if row is not None:
            out.add(row.name)
    return frozenset(out)


@cache
def _book_names(perks: tuple[str, ...]) -> frozenset[str]:
    return _canonical(perks)


@per_setup
def looted_perks(setup: GameSetup) -> frozenset[str]:
    """The book names of the Perks of the set-up's Loot Weapons (L3090), which may change
    hands in the game (empty when it has none; memoised per set-up)."""
    found = (_book_names(tuple(wp.perks)) for info in setup.units for wp in info.unit.weapons)
    out = frozenset().union(*(p for p in found if "Loot" in p))
    return out


def taken_perks(work: Work, uid: int) -> tuple[tuple[str, frozenset[str]], ...]:
    """The picked-up Loot Weapons the unit carries now (``perk_arms.taken_weapons``, under
    the names it carries them by) with the book names of their Perks: a Weapon keeps its Perks
    (L3090; issue 10, session 38), its own, as the set-up's Weapons' are read (:func:`index`),
    not those of a profile a Simulacrum one copies for a Game Turn (session 39, s39-loot2)."""
    statuses = work.units[uid].statuses
    if not statuses or not looted_perks(work.setup):
        return ()
    taken = taken_weapons(work.setup, uid, statuses)
    if not taken:
        return ()
    origin = {
        label: (src, other) for label, src, other in labels(work.setup, uid, statuses).values()
    }
    out = []
    for wp in taken:
        src, other = origin[wp.name]
        own = work.setup.units[src].unit.weapon(other).perks
        out.append((wp.name, _book_names(tuple(own)) - {"Shared"}))  # one model's (L3102)
    return tuple(out)


def weapon_perks(work: Work, uid: int, weapon: str) -> frozenset[str]:
    """The book names of the Perks of ``uid``'s ``weapon`` as it carries it now: a Weapon of
    its profile's (the set-up's :func:`index`), or one it picked up (Loot L3090-L3104, under
    the name it carries it by; issue 10, session 38, s38-loot)."""
    own = index(work.setup).units[uid].weapon_perks(weapon)
    if own or not work.units[uid].statuses:
        return own
    return next((p for w, p in taken_perks(work, uid) if w == weapon), own)


def perks_now(work: Work, uid: int) -> UnitPerks:
    """The unit's perks as it carries its Weapons now: the set-up's, and those of the Loot
    Weapons it picked up (:func:`taken_perks`)."""
    perks = index(work.setup).units[uid]
    taken = taken_perks(work, uid)
    return UnitPerks(perks.unit, (*perks.weapons, *taken)) if taken else perks


@per_setup
def index(setup: GameSetup) -> PerkIndex:
    """The :class:`PerkIndex` of ``setup`` (computed once per set-up)."""
    units: list[UnitPerks] = []
    for info in setup.units:
        own = _canonical([*info.unit.profile.perks, *info.traits])
        weapons = tuple((wp.name, _canonical(wp.perks)) for wp in info.unit.weapons)
        units.append(UnitPerks(own, weapons))
    at_start = tuple(
        uid
        for uid, p in enumerate(units)
        if p.unit & TURN_UNIT or any(ps & TURN_WEAPON for _, ps in p.weapons)
    )
    threshold = frozenset(
        uid
        for uid, p in enumerate(units)
        if p.unit & THRESHOLD_UNIT or any(ps & THRESHOLD_WEAPON for _, ps in p.weapons)
    )
    limited = frozenset(
        uid for uid, p in enumerate(units) if any(ps & LIMIT_WEAPON for _, ps in p.weapons)
    )
    resist = tuple(
        (uid, *RESIST[name]) for uid, p in enumerate(units) for name in RESIST if name in p.unit
    )
    auras = tuple(
        (uid, setup.units[uid].player, name)
        for uid, p in enumerate(units)
        if "Presence" in p.unit
        for name in PRESENCE_PERKS
        if name in p.unit
    )
    return PerkIndex(tuple(units), at_start, threshold, limited, resist, auras)
