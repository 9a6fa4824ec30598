"""Weapons as game state (issue 11, session 25, w2-state): a unit's Weapons as the game reads
them now, its set-up profile changed by the Weapon statuses on it (one accessor,
:func:`armed`, which ``GameState.info`` and ``Work.info`` return).

Two kinds of change, each a status on the unit that carries the Weapon:

* ``Arms@copy@<weapon>@<unit>@<other weapon>``: the unit's ``<weapon>`` has the profile of
  ``<unit>``'s ``<other weapon>`` (Range, Type, Attack profile and Weapon Perks) under its own
  name, carried by the same models (Simulacrum, Perks 000_94ecc6a4c74d351b.txt L4059,
  :mod:`.perk_simulacrum`); both names :func:`quote`-d (a name may hold ``@``).
* ``Arms@take@<model>@<unit>@<other weapon>``: the model ``<model>`` also carries ``<unit>``'s
  ``<other weapon>`` (Loot, L3090, :mod:`.perk_loot`), under that Weapon's name, or
  ``<name> (u<unit>)`` when the unit already has a Weapon of that name, or ``<name> (u<unit>,
  2)`` … when it has that too: each picked-up copy is a Weapon of its own (:func:`labels`).
* ``Arms@drop@<model>@<weapon>``: the model no longer carries its profile's ``<weapon>`` (a
  Loot Weapon it dropped as it fell: a model revived later is without it).

Only a set-up with a Weapon that can change so (:func:`in_play`) looks at the statuses, so no
other game changes. A unit's cost and its perk index (``perk_turn.index``: the set-up's
perks by Weapon name) do not change; the turn-start perks read the Weapons a unit carries
now (:func:`carried_weapons`, session 37, s37-loot). This module imports nothing of the game
package: ``state`` uses it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from warbench.rulesets.warsurge.attack import PerkSet
from warbench.rulesets.warsurge.game.memo import per_setup

if TYPE_CHECKING:
    from warbench.rulesets.warsurge.profiles import WeaponProfile

#: ``state.GameSetup`` and ``state.UnitInfo`` (this module may not import ``state``, even for
#: types: ``state`` imports it)
GameSetup = Any
UnitInfo = Any


class Status(Protocol):
    @property
    def name(self) -> str: ...


__all__ = [
    "ARMS",
    "COPY",
    "DROP",
    "TAKE",
    "armed",
    "carried_weapons",
    "copy_prefix",
    "copy_status",
    "drop_status",
    "in_play",
    "labels",
    "quote",
    "rearmed",
    "rearmed_units",
    "take_status",
    "taken",
    "taken_weapons",
    "unquote",
]

ARMS = "Arms@"
COPY = "Arms@copy@"
TAKE = "Arms@take@"
DROP = "Arms@drop@"
#: the Weapon Perks whose Weapons change in a game (their modules make the statuses)
CHANGING = ("Simulacrum", "Loot")
_ARMED: dict[tuple[int, tuple[str, ...]], tuple[UnitInfo, UnitInfo]] = {}


@per_setup
def in_play(setup: GameSetup) -> bool:
    """Whether a Weapon of the set-up can change in the game (memoised per set-up)."""
    out = any(
        PerkSet(wp.perks).has(name)
        for info in setup.units
        for wp in info.unit.weapons
        for name in CHANGING
    )
    return out


def quote(name: str) -> str:
    """``name`` with ``%`` and ``@`` escaped (``%25``, ``%40``), to stand in a status whose
    fields ``@`` separates: a Weapon's name is its player's and may hold either (issue 10,
    session 39, s39-loot2); a name without them is unchanged."""
    return name.replace("%", "%25").replace("@", "%40") if "@" in name or "%" in name else name


def unquote(text: str) -> str:
    """The name :func:`quote` escaped."""
    return text.replace("%40", "@").replace("%25", "%") if "%" in text else text


def copy_status(weapon: str, source: int, other: str) -> str:
    """``Arms@copy@<weapon>@<unit>@<other weapon>``, the names :func:`quote`-d: either may
    hold ``@`` (issue 10, session 39, s39-loot2)."""
    return f"{COPY}{quote(weapon)}@{source}@{quote(other)}"


def copy_prefix(weapon: str) -> str:
    """The start of every :func:`copy_status` of ``weapon``."""
    return f"{COPY}{quote(weapon)}@"


def take_status(model: int, source: int, other: str) -> str:
    return f"{TAKE}{model}@{source}@{other}"


def drop_status(model: int, weapon: str) -> str:
    return f"{DROP}{model}@{weapon}"


def taken(statuses: Sequence[Status]) -> dict[int, tuple[int, str]]:
    """Model -> (unit, Weapon) it has picked up (Loot)."""
    out: dict[int, tuple[int, str]] = {}
    for s in statuses:
        if s.name.startswith(TAKE):
            model, src, other = s.name[len(TAKE) :].split("@", 2)
            out[int(model)] = (int(src), other)
    return out


def rearmed(statuses: Sequence[Status]) -> bool:
    """Whether the statuses change the unit's Weapons (an ``Arms@`` status on it)."""
    return bool(statuses) and any(s.name.startswith(ARMS) for s in statuses)


def rearmed_units(setup: GameSetup, units: Sequence[Any], also: Sequence[int]) -> Sequence[int]:
    """``also`` (unit ids in order) and the units (``UnitState``) whose Weapons have changed,
    in unit order; ``also`` itself in a set-up where no Weapon can change (:func:`in_play`)."""
    if not in_play(setup):
        return also
    extra = {uid for uid, u in enumerate(units) if rearmed(u.statuses)} - set(also)
    return sorted(extra.union(also)) if extra else also


def carried_weapons(
    setup: GameSetup, uid: int, statuses: Sequence[Status]
) -> tuple[WeaponProfile, ...]:
    """The unit's Weapons as it carries them now (issue 10, session 37, s37-loot): those of
    :func:`armed`, a picked-up Loot Weapon with its Perks (L3090-L3104), less a set-up Weapon
    that no model of the unit carries any longer (dropped as its Wielder fell). The turn-start
    perks (``perk_turn.on_turn_start``: Escalate L2963, Bloody L3777) read these."""
    info = armed(setup, uid, statuses)
    held = {w for ws in info.model_weapons for w in ws}
    was = {w for ws in setup.units[uid].model_weapons for w in ws}
    return tuple(wp for wp in info.unit.weapons if wp.name in held or wp.name not in was)


def taken_weapons(
    setup: GameSetup, uid: int, statuses: Sequence[Status]
) -> tuple[WeaponProfile, ...]:
    """The picked-up Loot Weapons (L3090-L3104) a model of the unit carries now, under the
    names it carries them by (``<name>`` or ``<name> (u<unit>)``, never one of the unit's own
    Weapon names), with their Perks but Shared (issue 10, session 38, s38-loot): ``()`` when
    the unit has picked none up. The limits and the Stats by HP of ``perk_turn`` read these."""
    if not statuses or not any(s.name.startswith(TAKE) for s in statuses):
        return ()
    info = armed(setup, uid, statuses)
    held = {w for ws in info.model_weapons for w in ws}
    own = len(setup.units[uid].unit.weapons)
    return tuple(wp for wp in info.unit.weapons[own:] if wp.name in held)


def armed(setup: GameSetup, uid: int, statuses: Sequence[Status]) -> UnitInfo:
    """The unit's facts with its Weapons as the statuses change them (the set-up's own
    :class:`UnitInfo` when none does)."""
    info = setup.units[uid]
    if not statuses:
        return info
    names = tuple(s.name for s in statuses if s.name.startswith(ARMS))
    if not names:
        return info
    key = (id(info), names)
    hit = _ARMED.get(key)
    if hit is not None and hit[0] is info:
        return hit[1]
    out = _derive(setup, info, names)
    if len(_ARMED) > 4096:
        _ARMED.clear()
    _ARMED[key] = (info, out)
    return out


def _profile(setup: GameSetup, source: int, other: str) -> WeaponProfile:
    prof: WeaponProfile = setup.units[source].unit.weapon(other)
    return prof


def labels(
    setup: GameSetup, uid: int, statuses: Sequence[Status]
) -> dict[int, tuple[str, int, str]]:
    """Model -> (the name it carries its picked-up Loot Weapon by, the Weapon's unit, its
    name there). Each picked-up copy is a Weapon of its own (issue 10, session 39, s39-loot2):
    ``<name>``, or ``<name> (u<unit>)`` when the unit has a Weapon of that name already (its
    own, or a copy picked up before), or ``<name> (u<unit>, <k>)`` (k = 2, 3 …) when it has
    that too, so two copies of one Weapon keep their own Use, Recharge and Malfunction
    counters (those are the unit's, kept by the name a Weapon is carried by)."""
    names = [s.name for s in statuses if s.name.startswith(TAKE)] if statuses else []
    return _labels(setup.units[uid], names) if names else {}


def _labels(info: UnitInfo, names: Sequence[str]) -> dict[int, tuple[str, int, str]]:
    used = {wp.name for wp in info.unit.weapons}
    out: dict[int, tuple[str, int, str]] = {}
    for name in names:
        if not name.startswith(TAKE):
            continue
        model, src, other = name[len(TAKE) :].split("@", 2)
        s = int(src)
        label = other if other not in used else f"{other} (u{s})"
        k = 2
        while label in used:
            label = f"{other} (u{s}, {k})"
            k += 1
        used.add(label)
        out[int(model)] = (label, s, other)
    return out


def _derive(setup: GameSetup, info: UnitInfo, names: tuple[str, ...]) -> UnitInfo:
    weapons = list(info.unit.weapons)
    index = {wp.name: k for k, wp in enumerate(weapons)}
    carried = [list(ws) for ws in info.model_weapons]
    took = _labels(info, names)
    for name in names:
        if name.startswith(COPY):
            weapon, src, other = (unquote(v) for v in name[len(COPY) :].rsplit("@", 2))
            if weapon in index:
                prof = _profile(setup, int(src), other)
                weapons[index[weapon]] = prof.model_copy(update={"name": weapon})
        elif name.startswith(TAKE):
            m = int(name[len(TAKE) :].split("@", 1)[0])
            label, s, other = took[m]
            if label not in index:
                index[label] = len(weapons)
                prof = _profile(setup, s, other)
                # one model's Weapon now: Shared (a unit's) does not come with it (Loot L3102)
                kept = [p for p in prof.perks if not PerkSet([p]).has("Shared")]
                weapons.append(prof.model_copy(update={"name": label, "perks": kept}))
            if 0 <= m < len(carried) and label not in carried[m]:
                carried[m].append(label)
        elif name.startswith(DROP):
            model, weapon = name[len(DROP) :].split("@", 1)
            m = int(model)
            if 0 <= m < len(carried) and weapon in carried[m]:
                carried[m].remove(weapon)
    unit = info.unit.model_copy(update={"weapons": weapons})
    return replace(
        info,
        unit=unit,
        model_weapons=tuple(tuple(ws) for ws in carried),
        weapon_types={wp.name: wp.type.value for wp in weapons},
        weapon_range={wp.name: wp.range for wp in weapons},
    )
