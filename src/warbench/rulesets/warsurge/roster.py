"""WARSURGE Rosters (Core Rules 001_d3f5e425c5e1196d.txt §1.6, §3.1, §3.2, §6; Perks
000_94ecc6a4c74d351b.txt §12.1, §12.2, §12.6): the model and every roster-building rule.

A :class:`Roster` is self-contained: each :class:`RosterEntry` carries a full snapshot of its
unit (profile, weapon profiles, model groups), so a file or a share code restores it exactly
without a database. :func:`validate_roster` costs every entry with an injected
:class:`~warbench.rulesets.warsurge.costing.RosterCoster` and returns a :class:`RosterReport`
with *every* :class:`Violation` at once, each with a plain explanation, the fix it implies and
the rule (book, section and line).

Perk requirements are data: :data:`REQUIREMENTS` maps each normalised requirement string of
the perk catalog to the check that enforces it when the roster is built, and
:data:`GAME_TIME_REQUIREMENTS` lists those that can only be checked during a game.

This is a rules module: no database, file format or terminal code here (see ``roster_io``,
``warbench.storage`` and ``warbench.cli``).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from warbench.kernel.errors import UnknownNameError, WarbenchError
from warbench.rulesets.warsurge import RULESET_VERSION
from warbench.rulesets.warsurge.costing import (
    RosterCoster,
    UnitCostLike,
    default_coster,
    weapon_costs,
)
from warbench.rulesets.warsurge.perks import PerkCatalog, PerkDef, PerkKind
from warbench.rulesets.warsurge.profiles import Unit, WeaponProfile

__all__ = [
    "GAME_TIME_REQUIREMENTS",
    "REQUIREMENTS",
    "EntryCost",
    "PriceLine",
    "Roster",
    "RosterEditError",
    "RosterEntry",
    "RosterPerk",
    "RosterReport",
    "Violation",
    "ViolationCode",
    "cost_roster",
    "validate_roster",
]

_C = "Core Rules (001_d3f5e425c5e1196d.txt)"
_P = "Perks (000_94ecc6a4c74d351b.txt)"

RULE_POINT_LIMIT = f"{_C} §3.1 Point Limit, line 1420"
RULE_MIN_UNIT = f"{_C} §3.2 Minimum Unit Cost, line 1429"
RULE_MIN_MODEL = f"{_C} §3.2 Minimum Unit Cost, line 1431"
RULE_TRANSPORT = f"{_C} §6 Transports, lines 3287-3291"
RULE_TRANSPORT_MULTI = f"{_C} §6.4 Multiple Units in a Transport, lines 3373-3381"
RULE_TRANSPORT_NESTED = f"{_C} §6.5 Transports within Transports, lines 3388-3404"
RULE_LINKED = f"{_P} §12.2 Linked Profile, lines 299-311"
RULE_LEADER = f"{_P} §12.2 Leader, line 295"
RULE_SINGLE = f"{_P} §12.2 Single Model, line 339"
RULE_TRAITS = f"{_P} §12.6 Traits, lines 4141-4143"
RULE_ROSTER_PERKS = f"{_P} §12.6 Roster Perks, line 4245"
RULE_PRESENCE = f"{_P} §12.4 Presence, lines 1372-1380"
RULE_SEED = f"{_P} §12.4 Seed I/II, lines 1890-1918; Implant, line 2764"
RULE_NAMES = "warbench rosters: entry names identify units (docs/rosters.md)"

_NAME_RULE = {
    "Transport Link": f"{_P} §12.4 Transport Link, lines 1420-1428",
    "Controlled": f"{_P} §12.4 Controlled, line 1178",
    "Enslaved": f"{_P} §12.4 Enslaved, line 1254",
}

_STRICT = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


# ------------------------------------------------------------------------------- the model


class RosterPerk(BaseModel):
    """A Roster Perk (§12.6) and, where it needs one, the entry designated for it.

    ``unit`` names the Presence unit for Presence perks (Bloodthirsty, Inspiring …) and the
    designated unit for Avenge, Despair and Nexus.
    """

    model_config = _STRICT

    perk: str = Field(min_length=1, max_length=80, description="A Roster Perk (Perks §12.6).")
    unit: str | None = Field(
        None,
        description="The designated roster entry: the Presence unit for Presence perks, the "
        "Avenge, Despair or Nexus unit.",
    )


class RosterEntry(BaseModel):
    """One unit in a Roster: a snapshot of the unit and what the Roster adds to it."""

    model_config = _STRICT

    name: str = Field(min_length=1, max_length=80, description="Unique in the roster.")
    unit: Unit = Field(description="The unit: profile, weapon profiles and model groups.")
    traits: list[str] = Field(default_factory=list, description="Traits (Perks §12.6).")
    embarked_in: str | None = Field(
        None, description="The entry of the Transport this unit deploys in (Core Rules §6.1)."
    )
    link: str | None = Field(
        None,
        description="Linked Profile set (Perks §12.2): entries with the same link are one set "
        "(Form I, II, III).",
    )
    designations: dict[str, str] = Field(
        default_factory=dict,
        description="Perk name -> designated entry (Controlled: the controller, Enslaved: the "
        "Enslaver, Transport Link: the other Transport).",
    )

    @classmethod
    def of(cls, unit: Unit, name: str | None = None, **kw: Any) -> RosterEntry:
        """An entry named after its unit unless ``name`` is given."""
        return cls(name=name or unit.name, unit=unit, **kw)


class Roster(BaseModel):
    """A Roster (Core Rules §3.1, §3.4): units with traits, roster perks and a Point Limit."""

    model_config = _STRICT

    name: str = Field(min_length=1, max_length=120)
    point_limit: int = Field(ge=1, le=1_000_000, description="Point Limit (Core Rules §3.1).")
    ruleset: str = Field(RULESET_VERSION, description="Ruleset version the roster was made for.")
    points_model: str = Field(
        "", description="Points-model version of the last costing (stamped on save/export)."
    )
    roster_perks: list[RosterPerk] = Field(default_factory=list)
    units: list[RosterEntry] = Field(default_factory=list)
    notes: str = ""

    def find(self, name: str) -> RosterEntry | None:
        """The entry called ``name`` (case-insensitive), or ``None``."""
        key = name.strip().lower()
        for e in self.units:
            if e.name.lower() == key:
                return e
        return None

    def entry(self, name: str) -> RosterEntry:
        """The entry called ``name``; :class:`UnknownNameError` suggests close names."""
        found = self.find(name)
        if found is None:
            raise UnknownNameError("roster entry", name, [e.name for e in self.units])
        return found

    def with_entry(self, entry: RosterEntry) -> Roster:
        """A copy with ``entry`` added, or replacing the entry of the same name."""
        units = list(self.units)
        for i, e in enumerate(units):
            if e.name.lower() == entry.name.lower():
                units[i] = entry
                break
        else:
            units.append(entry)
        return self.model_copy(update={"units": units})

    def without_entry(self, name: str) -> Roster:
        """A copy without the entry ``name``."""
        target = self.entry(name)
        return self.model_copy(update={"units": [e for e in self.units if e is not target]})

    def _free(self, name: str, but: RosterEntry | None = None) -> None:
        """Refuse ``name`` when another entry has it (case-insensitive; names identify units)."""
        taken = self.find(name)
        if taken is not None and taken is not but:
            raise RosterEditError(
                f"roster {self.name!r} already has an entry {taken.name!r}; choose another name"
            )

    def replace_entry(self, name: str, entry: RosterEntry) -> Roster:
        """A copy with entry ``name`` replaced by ``entry`` in its place.

        When ``entry`` has another name, every reference to the old name follows it: the
        ``embarked_in`` of its passengers, designations, and Roster Perks' designated units.
        """
        old = self.entry(name)
        self._free(entry.name, but=old)
        units = [entry if e is old else e for e in self.units]
        perks = list(self.roster_perks)
        if entry.name != old.name:
            units = [_renamed_refs(e, old.name, entry.name) for e in units]
            perks = [
                rp.model_copy(update={"unit": entry.name})
                if rp.unit is not None and rp.unit.lower() == old.name.lower()
                else rp
                for rp in perks
            ]
        return self.model_copy(update={"units": units, "roster_perks": perks})

    def rename_entry(self, name: str, new: str) -> Roster:
        """A copy with entry ``name`` called ``new``; references to it follow the new name."""
        old = self.entry(name)
        return self.replace_entry(name, old.model_copy(update={"name": new.strip()}))

    def copy_entry(self, name: str, new: str | None = None) -> Roster:
        """A copy with a duplicate of entry ``name`` right after it, called ``new`` (default:
        the first free of ``NAME 2``, ``NAME 3`` …). The duplicate keeps the unit, Traits,
        Transport, link and designations; nothing refers to it yet."""
        old = self.entry(name)
        if new is None:
            n = 2
            while self.find(f"{old.name} {n}") is not None:
                n += 1
            new = f"{old.name} {n}"
        self._free(new)
        dup = old.model_copy(update={"name": new.strip()})
        i = self.units.index(old)
        return self.model_copy(update={"units": [*self.units[: i + 1], dup, *self.units[i + 1 :]]})

    def stamped(self, points_model: str) -> Roster:
        """A copy carrying ``points_model`` and this warbench's ruleset version."""
        return self.model_copy(update={"points_model": points_model, "ruleset": RULESET_VERSION})


def _renamed_refs(e: RosterEntry, old: str, new: str) -> RosterEntry:
    """``e`` with references to entry ``old`` (transport, designations) pointing at ``new``."""
    same = old.lower()
    update: dict[str, Any] = {}
    if e.embarked_in is not None and e.embarked_in.lower() == same:
        update["embarked_in"] = new
    if any(v.lower() == same for v in e.designations.values()):
        update["designations"] = {
            k: (new if v.lower() == same else v) for k, v in e.designations.items()
        }
    return e.model_copy(update=update) if update else e


class RosterEditError(WarbenchError):
    """An edit would leave the roster ambiguous (two entries of one name)."""


# ------------------------------------------------------------------------------- violations


class ViolationCode(StrEnum):
    """What kind of rule a :class:`Violation` breaks."""

    OVER_LIMIT = "over-limit"
    UNIT_UNDER_50 = "unit-under-50"
    MODEL_UNDER_1 = "model-under-1"
    DUPLICATE_NAME = "duplicate-name"
    UNKNOWN_PERK = "unknown-perk"
    WRONG_PERK_KIND = "wrong-perk-kind"
    DUPLICATE_PERK = "duplicate-perk"
    UNKNOWN_ENTRY = "unknown-entry"
    TRAIT_UNDER_50 = "trait-under-50"
    NEEDS_TRANSPORT = "needs-transport"
    NEEDS_FIRE_POINTS = "needs-fire-points"
    NEEDS_SINGLE_MODEL = "needs-single-model"
    NEEDS_LEADER = "needs-leader"
    NEEDS_HP = "needs-hp"
    NEEDS_WEAPONS = "needs-weapons"
    WEAPON_REQUIREMENT = "weapon-requirement"
    NEEDS_IMPLANT = "needs-implant"
    NEEDS_PRESENCE = "needs-presence"
    PRESENCE_DESIGNATION = "presence-designation"
    NEEDS_DESIGNATION = "needs-designation"
    LINKED_PROFILE = "linked-profile"
    NOT_A_TRANSPORT = "not-a-transport"
    OVER_CAPACITY = "over-capacity"
    TRANSPORT_NESTING = "transport-nesting"


@dataclass(frozen=True)
class Violation:
    """One broken roster rule: which entry, why, the fix, and the rule (book, section, line).

    ``entry`` is the roster entry's name, or ``""`` for the roster as a whole; ``field`` and
    ``value`` say what in it (``traits[0]``, ``'Respawn'``) when that helps.
    """

    code: ViolationCode
    entry: str
    explanation: str
    fix: str
    rule: str
    field: str = ""
    value: object = None

    def __str__(self) -> str:
        where = self.entry or "roster"
        return f"{where}: {self.explanation} Fix: {self.fix} [{self.rule}]"

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON output."""
        v = self.value
        return {
            "code": self.code.value,
            "entry": self.entry,
            "field": self.field,
            "value": v if isinstance(v, int | float | str | None) else str(v),
            "explanation": self.explanation,
            "fix": self.fix,
            "rule": self.rule,
        }


# ------------------------------------------------------------------------------- costs


def whole_points(points: float) -> int:
    """Round to whole points, halves up (warbench ruling: roster points are whole)."""
    return math.floor(points + 0.5)


@dataclass(frozen=True)
class PriceLine:
    """One line of what a Roster pays, in whole points; a roster's lines add up to its total.

    ``kind`` is ``unit`` (the unit's profiles, weapons and the perks the odds engine measures,
    before its table-priced perks), ``perk`` (a table-priced unit or weapon perk of the unit),
    ``trait`` (§12.6, priced on the unit's cost) or ``roster perk`` (§12.6, ``entry`` is ``""``).
    ``method`` says how it is priced; ``on`` what carries a perk (the unit or a weapon, or the
    designated entry of a Roster Perk).
    """

    entry: str
    kind: str
    label: str
    points: int
    method: str = ""
    on: str = ""

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON output."""
        return {
            "entry": self.entry,
            "kind": self.kind,
            "label": self.label,
            "on": self.on,
            "method": self.method,
            "points": self.points,
        }


def _split(start: float, steps: Sequence[float]) -> list[int]:
    """Whole-point lines for ``steps`` added to ``start``: each line is the change of the
    rounded running total, so the lines add up to ``whole_points(start + sum(steps)) -
    whole_points(start)`` exactly (no line drifts by rounding)."""
    out = []
    running = start
    for step in steps:
        out.append(whole_points(running + step) - whole_points(running))
        running += step
    return out


@dataclass(frozen=True)
class EntryCost:
    """An entry's costs: ``full`` before Traits (§3.2), ``points`` the Roster pays (with the
    Traits' prices, §12.6) and ``value`` its Current Point Cost at full HP (Fusion x10,
    Respawn /2, Summon /4, §12.2; rulings "WARSURGE points" 2)."""

    entry: str
    cost: UnitCostLike
    adjusting_perks: tuple[str, ...]
    points: int
    traits: tuple[str, ...] = ()
    value: float = 0.0
    lines: tuple[PriceLine, ...] = ()
    """The unit, each table-priced perk, each Trait: they add up to ``points``."""

    @property
    def full(self) -> int:
        return self.cost.total


@dataclass(frozen=True)
class RosterReport:
    """The costs of every entry, the total against the Point Limit, and every violation."""

    roster: str
    point_limit: int
    points_model: str
    entries: tuple[EntryCost, ...]
    violations: tuple[Violation, ...] = field(default_factory=tuple)
    perk_points: int = 0
    perk_lines: tuple[PriceLine, ...] = ()
    """One line per Roster Perk: they add up to ``perk_points``."""

    @property
    def lines(self) -> tuple[PriceLine, ...]:
        """Every line the Roster pays for, in roster order; they add up to :attr:`total`."""
        return tuple(line for e in self.entries for line in e.lines) + self.perk_lines

    @property
    def total(self) -> int:
        """Every entry's roster cost plus the Roster Perks' prices."""
        return sum(e.points for e in self.entries) + self.perk_points

    @property
    def ok(self) -> bool:
        return not self.violations

    def cost_of(self, entry: str) -> EntryCost:
        for e in self.entries:
            if e.entry == entry:
                return e
        raise KeyError(entry)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON output (``roster validate --json``)."""
        return {
            "roster": self.roster,
            "point_limit": self.point_limit,
            "total": self.total,
            "points_model": self.points_model,
            "ruleset": RULESET_VERSION,
            "units": [
                {
                    "entry": e.entry,
                    "full": e.full,
                    "points": e.points,
                    "traits": list(e.traits),
                    "value": round(e.value, 3),
                    "value_adjusted_by": list(e.adjusting_perks),
                    "model_points": list(e.cost.model_points),
                }
                for e in self.entries
            ],
            "lines": [line.to_dict() for line in self.lines],
            "valid": self.ok,
            "violations": [v.to_dict() for v in self.violations],
        }


#: Perks that change a unit's cost in a Roster (Perks §12.2, lines 333-335): Fusion x10
#: (a Unit Perk), Respawn /2 and Summon /4 (Traits).
ADJUSTING_PERKS = ("Fusion", "Respawn", "Summon")


def _unit_perks(entry: RosterEntry, catalog: PerkCatalog) -> list[PerkDef]:
    out = []
    for name in (*entry.unit.profile.perks, *entry.traits):
        p = catalog.find(name)
        if p is not None and p not in out:
            out.append(p)
    return out


def cost_entry(entry: RosterEntry, coster: RosterCoster, catalog: PerkCatalog) -> EntryCost:
    """The entry's full cost (before Traits) and its cost in the Roster (after §12.2)."""
    cost = coster.cost_unit(entry.unit)
    perks = _unit_perks(entry, catalog)
    adjusting = tuple(p.name for p in perks if p.name in ADJUSTING_PERKS)
    traits = tuple(p.name for p in perks if p.kind is PerkKind.TRAIT)
    points = cost.total
    if traits:
        points = whole_points(coster.trait_price(cost.total, traits))
    value = coster.trait_adjusted(points, adjusting) if adjusting else float(points)
    lines = _entry_lines(entry, cost, traits, coster, catalog)
    return EntryCost(entry.name, cost, adjusting, points, traits, value, lines)


def _entry_lines(
    entry: RosterEntry,
    cost: UnitCostLike,
    traits: Sequence[str],
    coster: RosterCoster,
    catalog: PerkCatalog,
) -> tuple[PriceLine, ...]:
    """The unit line, a line per table-priced perk and a line per Trait (see :class:`PriceLine`)."""
    shares = list(cost.perks)
    perk_pts = _split(cost.total - sum(s.points for s in shares), [s.points for s in shares])
    u = entry.unit
    by_odds = []
    for name in (*u.profile.perks, *(n for w in u.weapons for n in w.perks)):
        perk = catalog.find(name)
        if perk is not None and perk.impl_class == "A" and perk.name not in by_odds:
            by_odds.append(perk.name)
    method = "points model: profile and weapons"
    if by_odds:
        method += f", with {', '.join(by_odds)} measured by odds"
    lines = [
        PriceLine(
            entry.name,
            "unit",
            f"{u.name}: {u.model_count} model{'s' if u.model_count != 1 else ''}",
            cost.total - sum(perk_pts),
            method,
            u.name,
        )
    ]
    lines += [
        PriceLine(entry.name, "perk", s.perk, pts, s.method_text, s.on)
        for s, pts in zip(shares, perk_pts, strict=True)
    ]
    running = float(cost.total)
    for i, t in enumerate(traits):
        after = coster.trait_price(cost.total, traits[: i + 1])
        pts = whole_points(after) - whole_points(running)
        method = coster.price_method(t) or "Trait price (§12.6)"
        lines.append(PriceLine(entry.name, "trait", t, pts, method, entry.name))
        running = after
    return tuple(lines)


def cost_roster(roster: Roster, coster: RosterCoster | None = None) -> tuple[EntryCost, ...]:
    """Every entry's costs, in roster order."""
    c = coster or default_coster()
    catalog = PerkCatalog.load()
    return tuple(cost_entry(e, c, catalog) for e in roster.units)


# ------------------------------------------------------------------------------- requirements


class Check(StrEnum):
    """The roster-time check that enforces a perk requirement."""

    TRANSPORT = "transport"
    FIRE_POINTS = "fire points"
    SINGLE_MODEL = "single model"
    LEADER = "leader"
    HP_3 = "at least 3 HP"
    HP_4 = "at least 4 HP"
    WEAPONS = "has weapons"
    IMPLANT = "an Implant weapon in the roster"
    TRAIT_50 = "50 pts before Traits"
    PRESENCE = "a designated Presence unit"
    DESIGNATED = "a designated entry"
    NOT_CONTROLLER = "designee is not a controller/Enslaver"
    TRANSPORT_LINK = "a Transport Link partner"
    LINKED_UNITS = "linked unit profiles"
    LINKED_WEAPONS = "linked weapon profiles"
    ATTACKS_3 = "at least 3 Attacks"
    RANGE_18 = 'Range 18" or more'
    RANGE_3_12 = 'Range 3" to 12"'
    AREA_6 = "Beam, Blast, Cone, Explode, Nova or Wall"
    AREA_3 = "Blast, Explode or Nova"
    AFFLICTION = "another Affliction perk"


#: Every requirement string of the perk catalog that a roster can enforce, and its check.
REQUIREMENTS: dict[str, Check] = {
    "User must be a Transport (Transport Stat > 0)": Check.TRANSPORT,
    "Fire Points = Yes": Check.FIRE_POINTS,
    "Single Model unit": Check.SINGLE_MODEL,
    "Leader tag: User must have the Leader or War Master perk": Check.LEADER,
    "User starts the game with >= 3 HP": Check.HP_3,
    "User has >= 4 HP (or 4 x 1-HP models) at game start": Check.HP_4,
    "Unit has >= 4 HP at full strength": Check.HP_4,
    "Unit must have Weapons": Check.WEAPONS,
    "A friendly Weapon with the Implant perk to afflict a host": Check.IMPLANT,
    "Unit must be worth >= 50pts before Traits are applied": Check.TRAIT_50,
    "A friendly Unit with the Presence (Aeonian) perk on the Battlefield, designated for this "
    "Roster Perk": Check.PRESENCE,
    "A friendly Unit with the Presence (Aeonian Unit Perk) on the Battlefield": Check.PRESENCE,
    "One designated friendly Unit": Check.DESIGNATED,
    "One designated friendly Unit, deployed Turn 1, never in Reserve": Check.DESIGNATED,
    "One designated friendly Nexus Unit": Check.DESIGNATED,
    "Designee may not be a Controller or Enslaver": Check.NOT_CONTROLLER,
    "A designated friendly 'controller' Unit": Check.DESIGNATED,
    "A designated friendly 'Enslaver' Unit": Check.DESIGNATED,
    "A second Transport with Transport Link to pair with (pairs only)": Check.TRANSPORT_LINK,
    "2 linked Unit profiles, all with Form I": Check.LINKED_UNITS,
    "3 linked Unit profiles, all with Form II": Check.LINKED_UNITS,
    "4 linked Unit profiles, all with Form III": Check.LINKED_UNITS,
    "Linked Profile: full point costs within 10% of each other": Check.LINKED_UNITS,
    "Linked Units have identical max HP": Check.LINKED_UNITS,
    "Three linked Weapons on the same Wielder, all with Triune": Check.LINKED_WEAPONS,
    "Two linked Weapons on the same Wielder, both with Twin": Check.LINKED_WEAPONS,
    "Linked Profile: full point costs within 10%": Check.LINKED_WEAPONS,
    "Weapon has >= 3 Attacks": Check.ATTACKS_3,
    'Weapon Range >= 18"': Check.RANGE_18,
    'Weapon Range between 3" and 12"': Check.RANGE_3_12,
    "Weapon also has Beam, Blast, Cone, Explode, Nova or Wall": Check.AREA_6,
    "Weapon also has Blast, Explode or Nova": Check.AREA_3,
    "Weapon also carries at least one Affliction perk": Check.AFFLICTION,
}

#: Requirements that depend on the game, not on the roster (or are advice, not limits).
GAME_TIME_REQUIREMENTS: dict[str, str] = {
    "Held in Reserve": "Phoenix is used from Reserve during the game",
    "Friendly units worth >= 10x the User's Point Cost to consume": (
        "Fusion consumes units on the table or in Reserve during Deployment"
    ),
    "Consumed units may not have Summon or Respawn": "checked when Fusion is activated",
    "Useful only with a friendly Seed I/II unit": "advice: Implant works without a Seed unit",
    "Only meaningful if the User has perks that use Mastery Tests": "advice, not a limit",
    "Only meaningful if the same Weapon has a Skill Test perk": "advice, not a limit",
    "No other Weapon Perks on this Weapon are usable": "an effect of Wildcard in play",
    "Model must physically allow other models to be placed on it": "about the miniature",
}

_AREA_6 = frozenset({"Beam", "Blast", "Cone", "Explode", "Nova", "Wall"})
_AREA_3 = frozenset({"Blast", "Explode", "Nova"})
_LINKED_UNIT_SIZE = {"Form I": 2, "Form II": 3, "Form III": 4}
_LINKED_WEAPON_SIZE = {"Twin": 2, "Triune": 3}
_DESIGNATED_ON_ENTRY = ("Controlled", "Enslaved", "Transport Link")


def _checks(perk: PerkDef) -> set[Check]:
    return {REQUIREMENTS[r] for r in perk.requires if r in REQUIREMENTS}


def _total_hp(unit: Unit) -> int:
    return unit.profile.hp * unit.model_count


def _carried(unit: Unit) -> list[WeaponProfile]:
    names = set(unit.weapon_names_in_order())
    return [w for w in unit.weapons if w.name in names]


def _base_names(perks: Iterable[str], catalog: PerkCatalog) -> set[str]:
    out = set()
    for n in perks:
        p = catalog.find(n)
        if p is not None:
            out.add(p.base_name)
    return out


def _within_10_percent(costs: Sequence[float]) -> bool:
    """Linked Profile: every cost within 10% of the middle one (ruling: for an even count,
    either middle profile may serve as the reference)."""
    s = sorted(costs)
    n = len(s)
    refs = {s[(n - 1) // 2], s[n // 2]}
    return any(all(abs(c - r) <= 0.1 * r + 1e-9 for c in s) for r in refs)


def _fits(passengers: Sequence[int], bins: int, capacity: int) -> bool:
    """Can the passenger units be spread over ``bins`` Transport models of ``capacity``?

    A unit embarks whole (§6.4: a Transport must carry all its models); small exact search.
    """
    items = sorted(passengers, reverse=True)
    if any(p > capacity for p in items):
        return False
    if sum(items) > capacity * bins:
        return False
    if bins == 1 or len(items) > 12:
        return True  # one model: the sum decides; many units: the sum is the check we make
    loads = [0] * min(bins, len(items))

    def place(i: int) -> bool:
        if i == len(items):
            return True
        seen: set[int] = set()
        for b in range(len(loads)):
            if loads[b] in seen or loads[b] + items[i] > capacity:
                continue
            seen.add(loads[b])
            loads[b] += items[i]
            if place(i + 1):
                return True
            loads[b] -= items[i]
        return False

    return place(0)


class _Validator:
    def __init__(self, roster: Roster, coster: RosterCoster, catalog: PerkCatalog) -> None:
        self.roster = roster
        self.coster = coster
        self.catalog = catalog
        self.out: list[Violation] = []
        self.costs: dict[int, EntryCost] = {}
        self.by_name: dict[str, RosterEntry] = {}
        for e in roster.units:
            self.by_name.setdefault(e.name.lower(), e)

    def add(
        self,
        code: ViolationCode,
        entry: str,
        explanation: str,
        fix: str,
        rule: str,
        field: str = "",
        value: object = None,
    ) -> None:
        self.out.append(Violation(code, entry, explanation, fix, rule, field, value))

    def resolve(self, name: str) -> RosterEntry | None:
        return self.by_name.get(name.strip().lower())

    def unknown_entry(self, entry: str, field: str, name: str, why: str) -> None:
        err = UnknownNameError("roster entry", name, [e.name for e in self.roster.units])
        hint = (
            f"did you mean {' or '.join(repr(s) for s in err.suggestions)}?"
            if err.suggestions
            else f"entries: {', '.join(e.name for e in self.roster.units) or '(none)'}"
        )
        self.add(
            ViolationCode.UNKNOWN_ENTRY,
            entry,
            f"{field} names {name!r}, which is not an entry of this roster ({why}).",
            f"name an entry of the roster; {hint}",
            RULE_NAMES,
            field,
            name,
        )

    # -- the whole run --------------------------------------------------------------------
    def run(self) -> tuple[tuple[EntryCost, ...], tuple[Violation, ...]]:
        entries = self.roster.units
        costs = tuple(cost_entry(e, self.coster, self.catalog) for e in entries)
        for e, c in zip(entries, costs, strict=True):
            self.costs[id(e)] = c
        self.names()
        for e in entries:
            self.entry(e)
        self.implants()
        self.roster_perks()
        self.linked_units()
        self.transports()
        self.limit(sum(c.points for c in costs) + self.perk_points())
        return costs, tuple(self.out)

    def perk_points(self) -> int:
        """The Roster Perks' prices (unknown perks are reported elsewhere and cost 0 here)."""
        return sum(line.points for line in self.perk_lines())

    def perk_lines(self) -> tuple[PriceLine, ...]:
        """One :class:`PriceLine` per Roster Perk (unknown or misplaced perks cost 0)."""
        prices = []
        methods = []
        for rp in self.roster.roster_perks:
            perk = self.catalog.find(rp.perk)
            if perk is not None and perk.kind is PerkKind.ROSTER_PERK:
                prices.append(self.coster.roster_perk_price(perk.name))
                methods.append(self.coster.price_method(perk.name) or "per roster")
            else:
                prices.append(0.0)
                methods.append("not a Roster Perk: no price")
        pts = _split(0.0, prices)
        return tuple(
            PriceLine("", "roster perk", rp.perk, n, method, rp.unit or "")
            for rp, n, method in zip(self.roster.roster_perks, pts, methods, strict=True)
        )

    def limit(self, total: int) -> None:
        over = total - self.roster.point_limit
        if over > 0:
            self.add(
                ViolationCode.OVER_LIMIT,
                "",
                f"the roster costs {total} pts, {over} pts over the Point Limit of "
                f"{self.roster.point_limit} pts.",
                f"remove or shrink units worth at least {over} pts, or agree a higher Point Limit",
                RULE_POINT_LIMIT,
                "point_limit",
                self.roster.point_limit,
            )

    def names(self) -> None:
        counts = Counter(e.name.lower() for e in self.roster.units)
        reported: set[str] = set()
        for e in self.roster.units:
            key = e.name.lower()
            if counts[key] > 1 and key not in reported:
                reported.add(key)
                self.add(
                    ViolationCode.DUPLICATE_NAME,
                    e.name,
                    f"{counts[key]} entries are called {e.name!r}; transports, links and "
                    "designations could not tell them apart.",
                    f"rename all but one (e.g. '{e.name} 2')",
                    RULE_NAMES,
                    "name",
                    e.name,
                )

    # -- one entry ------------------------------------------------------------------------
    def entry(self, e: RosterEntry) -> None:
        cost = self.costs[id(e)]
        full = cost.full
        if full < 50:
            self.add(
                ViolationCode.UNIT_UNDER_50,
                e.name,
                f"the unit is worth {full} pts; each Unit must be worth at least 50 pts.",
                f"add models, weapons or upgrades worth at least {50 - full} pts, or merge it "
                "into another unit",
                RULE_MIN_UNIT,
                "unit",
                full,
            )
        self.model_minimum(e, cost)
        perks = self.profile_perks(e)
        perks += self.traits(e, full)
        self.unit_requirements(e, perks)
        self.weapon_requirements(e)
        self.entry_designations(e, perks)

    def model_minimum(self, e: RosterEntry, cost: EntryCost) -> None:
        points = list(cost.cost.model_points)
        i = 0
        for g_index, group in enumerate(e.unit.models):
            mine = points[i : i + group.count]
            i += group.count
            low = [p for p in mine if p < 1]
            if low:
                worst = min(low)
                self.add(
                    ViolationCode.MODEL_UNDER_1,
                    e.name,
                    f"{len(low)} model(s) of group {g_index + 1} are worth {worst:g} pts "
                    "including weapons; each model must be worth at least 1 pt.",
                    "improve the model's stats or give it a weapon, or leave it out",
                    RULE_MIN_MODEL,
                    f"unit.models[{g_index}]",
                    round(worst, 3),
                )

    def _resolve_perks(
        self, e: RosterEntry, names: Sequence[str], field: str, allowed: frozenset[PerkKind]
    ) -> list[PerkDef]:
        out: list[PerkDef] = []
        for i, name in enumerate(names):
            spot = f"{field}[{i}]"
            p = self.catalog.find(name)
            if p is None:
                err = UnknownNameError("perk", name, self.catalog.names)
                hint = " or ".join(repr(s) for s in err.suggestions)
                self.add(
                    ViolationCode.UNKNOWN_PERK,
                    e.name,
                    f"{name!r} is not a perk of Book 2.",
                    f"use {hint}" if hint else "check the spelling against docs/formats.md",
                    f"{_P} §12.4-§12.6",
                    spot,
                    name,
                )
                continue
            if p.kind not in allowed:
                kinds = " or ".join(sorted(k.value for k in allowed))
                self.add(
                    ViolationCode.WRONG_PERK_KIND,
                    e.name,
                    f"{p.name} is a {p.kind.value} (Book 2 {p.kind.section}), not a {kinds}.",
                    f"move {p.name} to where {p.kind.value}s go",
                    p.rule,
                    spot,
                    name,
                )
                continue
            if p in out:
                self.add(
                    ViolationCode.DUPLICATE_PERK,
                    e.name,
                    f"{p.name} is listed twice.",
                    f"list {p.name} once",
                    p.rule,
                    spot,
                    name,
                )
                continue
            out.append(p)
        return out

    def profile_perks(self, e: RosterEntry) -> list[PerkDef]:
        return self._resolve_perks(
            e,
            e.unit.profile.perks,
            "unit.profile.perks",
            frozenset({PerkKind.UNIT_PERK, PerkKind.TRAIT}),
        )

    def traits(self, e: RosterEntry, full: int) -> list[PerkDef]:
        traits = self._resolve_perks(e, e.traits, "traits", frozenset({PerkKind.TRAIT}))
        on_profile = {p.name for p in self.profile_perks_quiet(e)}
        for p in traits:
            if p.name in on_profile:
                self.add(
                    ViolationCode.DUPLICATE_PERK,
                    e.name,
                    f"{p.name} is both on the unit profile and among the Roster's Traits.",
                    f"keep {p.name} in one place",
                    RULE_TRAITS,
                    "traits",
                    p.name,
                )
        every_trait = [
            p for p in (*self.profile_perks_quiet(e), *traits) if p.kind is PerkKind.TRAIT
        ]
        if every_trait and full < 50:
            names = ", ".join(dict.fromkeys(p.name for p in every_trait))
            self.add(
                ViolationCode.TRAIT_UNDER_50,
                e.name,
                f"Traits ({names}) need the unit to be worth 50 pts before Traits; it is worth "
                f"{full} pts.",
                f"add {50 - full} pts to the unit or remove the Traits",
                RULE_TRAITS,
                "traits",
                full,
            )
        return [p for p in traits if p.name not in on_profile]

    def profile_perks_quiet(self, e: RosterEntry) -> list[PerkDef]:
        out = []
        for n in e.unit.profile.perks:
            p = self.catalog.find(n)
            if p is not None and p not in out:
                out.append(p)
        return out

    def unit_requirements(self, e: RosterEntry, perks: Sequence[PerkDef]) -> None:
        unit = e.unit
        names = {p.name for p in perks}
        hp = _total_hp(unit)
        for p in perks:
            checks = _checks(p)
            if "Leader" in p.activation:
                checks.add(Check.LEADER)
            if "Single Model" in p.activation:
                checks.add(Check.SINGLE_MODEL)
            for check in sorted(checks):
                self.unit_check(e, p, check, names, hp)

    def unit_check(
        self, e: RosterEntry, p: PerkDef, check: Check, names: set[str], hp: int
    ) -> None:
        unit = e.unit
        if check is Check.TRANSPORT and unit.profile.transport <= 0:
            self.add(
                ViolationCode.NEEDS_TRANSPORT,
                e.name,
                f"{p.name} needs the User to be a Transport (Transport Stat above 0).",
                f"give the unit a Transport Stat, or remove {p.name}",
                p.rule,
                "unit.profile.transport",
                unit.profile.transport,
            )
        elif check is Check.FIRE_POINTS and unit.profile.fire_points <= 0:
            self.add(
                ViolationCode.NEEDS_FIRE_POINTS,
                e.name,
                f"{p.name} needs Fire Points.",
                f"give the unit Fire Points (and a Transport Stat), or remove {p.name}",
                p.rule,
                "unit.profile.fire_points",
                unit.profile.fire_points,
            )
        elif check is Check.SINGLE_MODEL and unit.model_count != 1:
            self.add(
                ViolationCode.NEEDS_SINGLE_MODEL,
                e.name,
                f"{p.name} needs a single model Unit; this one has {unit.model_count} models.",
                f"field one model, or remove {p.name}",
                RULE_SINGLE,
                "unit.models",
                unit.model_count,
            )
        elif check is Check.LEADER and not names & {"Leader", "War Master"}:
            self.add(
                ViolationCode.NEEDS_LEADER,
                e.name,
                f"{p.name} is a Leader perk: the User needs the Leader or War Master perk.",
                f"add Leader to the unit, or remove {p.name}",
                RULE_LEADER,
                "unit.profile.perks",
                p.name,
            )
        elif check in (Check.HP_3, Check.HP_4):
            need = 3 if check is Check.HP_3 else 4
            if hp < need:
                self.add(
                    ViolationCode.NEEDS_HP,
                    e.name,
                    f"{p.name} needs at least {need} HP at the start of the game; the unit has "
                    f"{hp} HP.",
                    f"add models or HP to reach {need} HP, or remove {p.name}",
                    p.rule,
                    "unit.profile.hp",
                    hp,
                )
        elif check is Check.WEAPONS and not _carried(unit):
            self.add(
                ViolationCode.NEEDS_WEAPONS,
                e.name,
                f"{p.name} needs the unit to have Weapons; no model carries one.",
                f"give the models a weapon, or remove {p.name}",
                p.rule,
                "unit.models",
                0,
            )

    def weapon_requirements(self, e: RosterEntry) -> None:
        unit = e.unit
        hp = _total_hp(unit)
        for w in _carried(unit):
            perks = [p for p in (self.catalog.find(n) for n in w.perks) if p is not None]
            bases = {p.base_name for p in perks}
            spot = f"unit.weapons[{w.name}]"
            for p in perks:
                for check in sorted(_checks(p)):
                    problem = self.weapon_problem(w, p, check, bases, perks, hp)
                    if problem:
                        why, fix, fld, value = problem
                        self.add(
                            ViolationCode.NEEDS_HP
                            if check is Check.HP_4
                            else ViolationCode.WEAPON_REQUIREMENT,
                            e.name,
                            why,
                            fix,
                            p.rule,
                            f"{spot}.{fld}",
                            value,
                        )
        self.linked_weapons(e)

    @staticmethod
    def weapon_problem(
        w: WeaponProfile,
        p: PerkDef,
        check: Check,
        bases: set[str],
        perks: Sequence[PerkDef],
        hp: int,
    ) -> tuple[str, str, str, object] | None:
        if check is Check.ATTACKS_3 and w.attacks < 3:
            return (
                f"{w.name}: {p.name} needs at least 3 Attacks; it has {w.attacks}.",
                f"raise Attacks to 3, or remove {p.name}",
                "attacks",
                w.attacks,
            )
        if check is Check.RANGE_18 and w.range < 18:
            return (
                f'{w.name}: {p.name} needs a Range of 18" or more; it has {w.range}".',
                f'raise Range to 18", or remove {p.name}',
                "range",
                w.range,
            )
        if check is Check.RANGE_3_12 and not 3 <= w.range <= 12:
            return (
                f'{w.name}: {p.name} needs a Range between 3" and 12"; it has {w.range}".',
                f'set Range to 3"-12", or remove {p.name}',
                "range",
                w.range,
            )
        for c, need in ((Check.AREA_6, _AREA_6), (Check.AREA_3, _AREA_3)):
            if check is c and not bases & need:
                listed = ", ".join(sorted(need))
                return (
                    f"{w.name}: {p.name} needs the weapon to also have one of {listed}.",
                    f"add one of {listed} to the weapon, or remove {p.name}",
                    "perks",
                    p.name,
                )
        if check is Check.AFFLICTION and not any(
            q.family == "Affliction" and q is not p for q in perks
        ):
            return (
                f"{w.name}: {p.name} needs another Affliction perk on the weapon.",
                f"add an Affliction perk (Bleed, Burn, Poison …), or remove {p.name}",
                "perks",
                p.name,
            )
        if check is Check.HP_4 and hp < 4:
            return (
                f"{w.name}: {p.name} needs the User to have at least 4 HP at the start of the "
                f"game; the unit has {hp} HP.",
                f"add models or HP to reach 4 HP, or remove {p.name}",
                "perks",
                hp,
            )
        return None

    def linked_weapons(self, e: RosterEntry) -> None:
        """Twin and Triune: each model carries exactly the set, within 10% of each other."""
        unit = e.unit
        by_name = {w.name: w for w in unit.weapons}
        for g_index, group in enumerate(unit.models):
            for perk, size in _LINKED_WEAPON_SIZE.items():
                linked = [
                    by_name[n]
                    for n in group.weapons
                    if perk in _base_names(by_name[n].perks, self.catalog)
                ]
                if not linked:
                    continue
                rule = self.catalog.get(perk).rule
                if len(linked) != size:
                    self.add(
                        ViolationCode.LINKED_PROFILE,
                        e.name,
                        f"models of group {g_index + 1} carry {len(linked)} {perk} weapon(s); "
                        f"{perk} links exactly {size} weapons on the same Wielder.",
                        f"give each of these models exactly {size} weapons with {perk}",
                        rule,
                        f"unit.models[{g_index}].weapons",
                        len(linked),
                    )
                    continue
                costs = weapon_costs(self.coster, unit, linked)
                if not _within_10_percent(costs):
                    listed = ", ".join(
                        f"{w.name} {c:g}" for w, c in zip(linked, costs, strict=True)
                    )
                    self.add(
                        ViolationCode.LINKED_PROFILE,
                        e.name,
                        f"the {perk} weapons are not within 10% of each other's cost ({listed} "
                        "pts).",
                        "adjust the weapons so every cost is within 10% of the middle one",
                        RULE_LINKED,
                        f"unit.models[{g_index}].weapons",
                        listed,
                    )

    def entry_designations(self, e: RosterEntry, perks: Sequence[PerkDef]) -> None:
        names = {p.name for p in perks}
        for perk in _DESIGNATED_ON_ENTRY:
            target_name = e.designations.get(perk)
            rule = _NAME_RULE[perk]
            if perk not in names:
                if target_name is not None:
                    self.add(
                        ViolationCode.NEEDS_DESIGNATION,
                        e.name,
                        f"a {perk} designation is given, but the unit does not have {perk}.",
                        f"remove the designation or add {perk} to the unit",
                        rule,
                        f"designations.{perk}",
                        target_name,
                    )
                continue
            what = {
                "Controlled": "its controller",
                "Enslaved": "its Enslaver",
                "Transport Link": "the other Transport with Transport Link",
            }[perk]
            if target_name is None:
                self.add(
                    ViolationCode.NEEDS_DESIGNATION,
                    e.name,
                    f"{perk} needs a designated friendly Unit as {what}.",
                    f"designate {what} (designations: {{{perk}: ENTRY}})",
                    rule,
                    f"designations.{perk}",
                    None,
                )
                continue
            target = self.resolve(target_name)
            if target is None:
                self.unknown_entry(e.name, f"designations.{perk}", target_name, what)
                continue
            if target is e:
                self.add(
                    ViolationCode.NEEDS_DESIGNATION,
                    e.name,
                    f"{perk} designates the unit itself as {what}.",
                    f"designate another entry as {what}",
                    rule,
                    f"designations.{perk}",
                    target_name,
                )
                continue
            if perk == "Transport Link":
                self.transport_link(e, target, rule)
        for key in e.designations:
            p = self.catalog.find(key)
            if p is None or p.name not in _DESIGNATED_ON_ENTRY:
                self.add(
                    ViolationCode.NEEDS_DESIGNATION,
                    e.name,
                    f"{key!r} does not take a designation on a unit.",
                    f"remove it; designations are for {', '.join(_DESIGNATED_ON_ENTRY)}",
                    RULE_NAMES,
                    f"designations.{key}",
                    e.designations[key],
                )

    def transport_link(self, e: RosterEntry, other: RosterEntry, rule: str) -> None:
        other_perks = {p.name for p in self.profile_perks_quiet(other)}
        back = other.designations.get("Transport Link")
        if "Transport Link" not in other_perks:
            self.add(
                ViolationCode.NEEDS_DESIGNATION,
                e.name,
                f"Transport Link pairs with {other.name}, which does not have Transport Link.",
                f"add Transport Link to {other.name}, or pair with a Transport that has it",
                rule,
                "designations.Transport Link",
                other.name,
            )
        elif back is not None and self.resolve(back) is not e:
            self.add(
                ViolationCode.NEEDS_DESIGNATION,
                e.name,
                f"Transport Link pairs with {other.name}, which is paired with {back}; only two "
                "Units can be linked together at once.",
                f"pair {other.name} back with {e.name}, or choose another partner",
                rule,
                "designations.Transport Link",
                other.name,
            )

    # -- across the roster ----------------------------------------------------------------
    def implants(self) -> None:
        """Seed I/II deploy only via a Target afflicted with Implant: another friendly unit
        must carry an Implant weapon (the Seed is in Reserve until then; ruling 15)."""
        seeds = [
            (e, p)
            for e in self.roster.units
            for p in self.profile_perks_quiet(e)
            if Check.IMPLANT in _checks(p)
        ]
        if not seeds:
            return
        implanters = [
            e
            for e in self.roster.units
            if any("Implant" in _base_names(w.perks, self.catalog) for w in _carried(e.unit))
        ]
        for e, p in seeds:
            if any(other is not e for other in implanters):
                continue
            self.add(
                ViolationCode.NEEDS_IMPLANT,
                e.name,
                f"{p.name} can only Deploy via Units afflicted with Implant, and no other unit "
                "of the roster carries a weapon with Implant.",
                f"give a weapon of another unit the Implant perk, or remove {p.name}",
                RULE_SEED,
                "unit.profile.perks",
                p.name,
            )

    def roster_perks(self) -> None:
        seen: set[tuple[str, str | None]] = set()
        presence_use: dict[str, list[str]] = defaultdict(list)
        controllers = {
            (self.resolve(t) or e).name
            for e in self.roster.units
            for k, t in e.designations.items()
            if k in ("Controlled", "Enslaved")
        }
        for i, rp in enumerate(self.roster.roster_perks):
            spot = f"roster_perks[{i}]"
            p = self.catalog.find(rp.perk)
            if p is None:
                err = UnknownNameError("perk", rp.perk, self.catalog.names)
                hint = " or ".join(repr(s) for s in err.suggestions)
                self.add(
                    ViolationCode.UNKNOWN_PERK,
                    "",
                    f"{rp.perk!r} is not a perk of Book 2.",
                    f"use {hint}" if hint else "see the Roster Perks of Book 2 §12.6",
                    RULE_ROSTER_PERKS,
                    spot,
                    rp.perk,
                )
                continue
            if p.kind is not PerkKind.ROSTER_PERK:
                self.add(
                    ViolationCode.WRONG_PERK_KIND,
                    "",
                    f"{p.name} is a {p.kind.value} (Book 2 {p.kind.section}), not a Roster Perk.",
                    f"put {p.name} on a unit or weapon profile instead",
                    p.rule,
                    spot,
                    rp.perk,
                )
                continue
            checks = _checks(p)
            key = (p.name, rp.unit.lower() if rp.unit and Check.PRESENCE in checks else None)
            if key in seen:
                self.add(
                    ViolationCode.DUPLICATE_PERK,
                    "",
                    f"the Roster Perk {p.name} is listed twice"
                    + (f" for {rp.unit}." if key[1] else "."),
                    "list it once",
                    RULE_ROSTER_PERKS,
                    spot,
                    p.name,
                )
                continue
            seen.add(key)
            if Check.PRESENCE in checks:
                target = self.presence(p, rp, spot)
                if target is not None:
                    presence_use[target.name].append(p.name)
            elif Check.DESIGNATED in checks:
                target = self.designated(p, rp, spot)
                if (
                    target is not None
                    and Check.NOT_CONTROLLER in checks
                    and target.name in controllers
                ):
                    self.add(
                        ViolationCode.NEEDS_DESIGNATION,
                        target.name,
                        f"{p.name} cannot be designated to a controller or Enslaver.",
                        "designate another unit",
                        p.rule,
                        spot,
                        target.name,
                    )
            elif rp.unit is not None:
                self.add(
                    ViolationCode.NEEDS_DESIGNATION,
                    "",
                    f"{p.name} does not designate a unit.",
                    f"remove the unit from {p.name}",
                    p.rule,
                    f"{spot}.unit",
                    rp.unit,
                )
        self.presence_spread(presence_use)

    def presence(self, p: PerkDef, rp: RosterPerk, spot: str) -> RosterEntry | None:
        if rp.unit is None:
            self.add(
                ViolationCode.NEEDS_PRESENCE,
                "",
                f"{p.name} needs a friendly Unit with the Presence perk designated for it.",
                f"designate a unit with Presence ({p.name} --presence UNIT), or add Presence to "
                "a unit",
                RULE_PRESENCE,
                f"{spot}.unit",
                None,
            )
            return None
        target = self.resolve(rp.unit)
        if target is None:
            self.unknown_entry("", f"{spot}.unit", rp.unit, f"the Presence unit for {p.name}")
            return None
        if "Presence" not in {q.name for q in self.profile_perks_quiet(target)}:
            self.add(
                ViolationCode.NEEDS_PRESENCE,
                target.name,
                f"{p.name} is designated to {target.name}, which does not have the Presence perk.",
                f"add Presence to {target.name}, or designate a unit that has it",
                RULE_PRESENCE,
                f"{spot}.unit",
                rp.unit,
            )
            return None
        return target

    def presence_spread(self, use: dict[str, list[str]]) -> None:
        """A Presence unit takes one Presence Roster Perk unless there are not enough of them."""
        holders = [
            e.name
            for e in self.roster.units
            if "Presence" in {q.name for q in self.profile_perks_quiet(e)}
        ]
        free = [h for h in holders if not use.get(h)]
        if not free:
            return
        for unit, perks in use.items():
            if len(perks) > 1:
                self.add(
                    ViolationCode.PRESENCE_DESIGNATION,
                    unit,
                    f"{unit} is designated for {len(perks)} Presence Roster Perks "
                    f"({', '.join(perks)}) while {', '.join(free)} has Presence and none.",
                    f"designate {free[0]} for one of them",
                    RULE_PRESENCE,
                    "roster_perks",
                    unit,
                )

    def designated(self, p: PerkDef, rp: RosterPerk, spot: str) -> RosterEntry | None:
        if rp.unit is None:
            self.add(
                ViolationCode.NEEDS_DESIGNATION,
                "",
                f"{p.name} needs a designated friendly Unit.",
                f"designate an entry for {p.name} (roster perk {p.name} --unit ENTRY)",
                p.rule,
                f"{spot}.unit",
                None,
            )
            return None
        target = self.resolve(rp.unit)
        if target is None:
            self.unknown_entry("", f"{spot}.unit", rp.unit, f"the unit designated for {p.name}")
        return target

    def linked_units(self) -> None:
        """Form I/II/III: linked sets of the right size, same Form, same max HP, within 10%."""
        groups: dict[str, list[RosterEntry]] = defaultdict(list)
        for e in self.roster.units:
            forms = [q.name for q in self.profile_perks_quiet(e) if q.name in _LINKED_UNIT_SIZE]
            if e.link is not None:
                groups[e.link.lower()].append(e)
            elif forms:
                self.add(
                    ViolationCode.LINKED_PROFILE,
                    e.name,
                    f"{forms[0]} needs the unit to be linked to "
                    f"{_LINKED_UNIT_SIZE[forms[0]] - 1} other unit(s) with {forms[0]}.",
                    "give the linked entries the same link name (roster add --link NAME)",
                    RULE_LINKED,
                    "link",
                    None,
                )
        for members in groups.values():
            self.linked_set(members)

    def linked_set(self, members: list[RosterEntry]) -> None:
        first = members[0]
        link = first.link
        forms = {
            e.name: [q.name for q in self.profile_perks_quiet(e) if q.name in _LINKED_UNIT_SIZE]
            for e in members
        }
        kinds = {f for fs in forms.values() for f in fs}
        missing = [n for n, fs in forms.items() if not fs]
        if missing or len(kinds) != 1:
            self.add(
                ViolationCode.LINKED_PROFILE,
                first.name,
                f"linked set {link!r}: every unit needs the same Form perk; "
                + ", ".join(f"{n}: {'/'.join(fs) or 'none'}" for n, fs in forms.items())
                + ".",
                "give every unit of the set the same Form I, II or III perk",
                RULE_LINKED,
                "link",
                link,
            )
            return
        form = kinds.pop()
        size = _LINKED_UNIT_SIZE[form]
        rule = self.catalog.get(form).rule
        if len(members) != size:
            self.add(
                ViolationCode.LINKED_PROFILE,
                first.name,
                f"linked set {link!r} has {len(members)} units; {form} links exactly {size}.",
                f"link exactly {size} units with {form}",
                rule,
                "link",
                link,
            )
        hps = {e.name: _total_hp(e.unit) for e in members}
        if len(set(hps.values())) > 1:
            self.add(
                ViolationCode.LINKED_PROFILE,
                first.name,
                f"linked set {link!r}: linked Units must have the same maximum HP ("
                + ", ".join(f"{n} {hp} HP" for n, hp in hps.items())
                + ").",
                "make every unit's maximum HP equal",
                RULE_LINKED,
                "link",
                link,
            )
        costs = {e.name: self.costs[id(e)].full for e in members}
        if not _within_10_percent(list(costs.values())):
            self.add(
                ViolationCode.LINKED_PROFILE,
                first.name,
                f"linked set {link!r}: full point costs must be within 10% of each other ("
                + ", ".join(f"{n} {c} pts" for n, c in costs.items())
                + ").",
                "adjust the units so every cost is within 10% of the middle one",
                RULE_LINKED,
                "link",
                link,
            )

    def transports(self) -> None:
        passengers: dict[str, list[RosterEntry]] = defaultdict(list)
        carrier: dict[str, RosterEntry] = {}
        for e in self.roster.units:
            if e.embarked_in is None:
                continue
            t = self.resolve(e.embarked_in)
            if t is None:
                self.unknown_entry(e.name, "embarked_in", e.embarked_in, "its Transport")
                continue
            if t is e:
                self.add(
                    ViolationCode.NOT_A_TRANSPORT,
                    e.name,
                    "the unit is embarked in itself.",
                    "embark it in another unit, or clear embarked_in",
                    RULE_TRANSPORT,
                    "embarked_in",
                    e.embarked_in,
                )
                continue
            if t.unit.profile.transport <= 0:
                self.add(
                    ViolationCode.NOT_A_TRANSPORT,
                    e.name,
                    f"{t.name} is not a Transport (Transport Stat 0); it cannot carry {e.name}.",
                    "embark it in a unit with a Transport Stat, or clear embarked_in",
                    RULE_TRANSPORT,
                    "embarked_in",
                    e.embarked_in,
                )
                continue
            passengers[t.name].append(e)
            carrier[e.name] = t
        self.nesting(carrier)
        for t_name, riders in passengers.items():
            t = self.resolve(t_name)
            assert t is not None
            cap = t.unit.profile.transport
            models = t.unit.model_count
            points = [self.costs[id(r)].points for r in riders]
            if not _fits(points, models, cap):
                total = sum(points)
                listed = ", ".join(f"{r.name} {p}" for r, p in zip(riders, points, strict=True))
                room = (
                    f"{cap} pts" if models == 1 else f"{models} models x {cap} pts, a unit in one"
                )
                self.add(
                    ViolationCode.OVER_CAPACITY,
                    t.name,
                    f"passengers worth {total} pts ({listed}) do not fit the Transport's "
                    f"capacity ({room}).",
                    (
                        f"embark units worth at most {cap} pts in {t.name}"
                        if models == 1
                        else f"embark units worth at most {cap * models} pts in {t.name}, each "
                        f"fitting one model ({cap} pts)"
                    )
                    + ", or raise its Transport Stat",
                    RULE_TRANSPORT_MULTI,
                    "unit.profile.transport",
                    cap,
                )

    def nesting(self, carrier: dict[str, RosterEntry]) -> None:
        """§6.5: a Transport may carry a Transport that carries units, and no deeper; no loops."""
        for name in carrier:
            chain = [name]
            cur = name
            while cur in carrier:
                cur = carrier[cur].name
                if cur in chain:
                    loop = " -> ".join([*chain, cur])
                    if name == min(chain):  # report each loop once
                        self.add(
                            ViolationCode.TRANSPORT_NESTING,
                            name,
                            f"the units are embarked in each other ({loop}).",
                            "break the loop: one of them must deploy on the table",
                            RULE_TRANSPORT_NESTED,
                            "embarked_in",
                            carrier[name].name,
                        )
                    break
                chain.append(cur)
            else:
                if len(chain) > 3:
                    self.add(
                        ViolationCode.TRANSPORT_NESTING,
                        name,
                        f"the unit is nested {len(chain) - 1} Transports deep ("
                        + " in ".join(chain)
                        + "); a Transport may carry a Transport that carries units, no deeper.",
                        f"embark {name} in an outer Transport",
                        RULE_TRANSPORT_NESTED,
                        "embarked_in",
                        carrier[name].name,
                    )


def validate_roster(roster: Roster, coster: RosterCoster | None = None) -> RosterReport:
    """Cost every entry and check every roster rule; all violations at once, in roster order.

    ``coster`` defaults to this warbench's points model (cached); pass a
    :class:`~warbench.rulesets.warsurge.costing.CachingCoster` around your own to keep its
    cache between calls.
    """
    c = coster or default_coster()
    validator = _Validator(roster, c, PerkCatalog.load())
    costs, violations = validator.run()
    return RosterReport(
        roster.name,
        roster.point_limit,
        c.version,
        costs,
        violations,
        validator.perk_points(),
        validator.perk_lines(),
    )
