"""The WarEngine 2.1 point tables and tweak lists, loaded from the YAML files under ``data/``.

Sources (004_f4ea5693af0644ce.txt): Troop Builder V2.1 charts (lines 651-823, repeated in
"Troop Building Charts V2.1" lines 848-923), WarEngine Special Powers (lines 999-1351),
Personal Tweaks (1353-1681), Weapon Tweaks (1683-1853) and Unit Tweaks (1855-1893).

Every characteristic value is kept in one canonical spelling: inches as ``15"``, dice as
``5k4``, Automatic Mental as ``A``, close combat range as ``-`` and line of sight as ``LOS``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from importlib import resources
from typing import Any

import yaml

from warbench.kernel.errors import DataFileError

FIGURE_TYPES = ("T", "E", "C", "L", "M", "H")
VEHICLE_MONSTER_TYPES = frozenset({"L", "M", "H"})
CLASS_ORDER = {"basic": 0, "heavy": 1, "support": 2}
BOOK = "004_f4ea5693af0644ce.txt"


class InvalidValue(ValueError):
    """A value that is not on a table; carries the allowed values (turned into ProfileError)."""

    def __init__(self, value: object, allowed: str) -> None:
        self.value = value
        self.allowed = allowed
        super().__init__(f"{value!r} is not allowed; allowed: {allowed}")


# ------------------------------------------------------------------------------------------
# Canonical spellings
# ------------------------------------------------------------------------------------------

_INCHES = re.compile(r"^\s*(\d+)\s*(?:\"|''|in|inch|inches)?\s*$", re.IGNORECASE)
_DICE = re.compile(r"^\s*(\d+)\s*[kK]\s*(\d+)\s*$")


def canon_inches(value: object) -> str:
    """``15``, ``"15"``, ``15"`` or ``15''`` -> ``15"``; other input is returned unchanged."""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return f'{value}"'
    if isinstance(value, str):
        m = _INCHES.match(value)
        if m:
            return f'{int(m.group(1))}"'
    return str(value)


def canon_range(value: object) -> str:
    """Range: ``None``, ``-``, ``0`` -> ``-``; ``los`` -> ``LOS``; else as :func:`canon_inches`."""
    if value is None or (isinstance(value, str) and value.strip() in ("", "-", "—", "–")):
        return "-"
    if isinstance(value, str) and value.strip().upper() == "LOS":
        return "LOS"
    text = canon_inches(value)
    return "-" if text == '0"' else text


def canon_dice(value: object) -> str:
    """``5K4``, ``5 k 4`` -> ``5k4``; ``a``, ``auto``, ``automatic`` -> ``A``."""
    if isinstance(value, str):
        if value.strip().lower() in ("a", "auto", "automatic"):
            return "A"
        m = _DICE.match(value)
        if m:
            return f"{int(m.group(1))}k{int(m.group(2))}"
    return str(value)


# ------------------------------------------------------------------------------------------
# Catalogue objects
# ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FigureType:
    """A row of the Figure Type Table plus the Weapon Slot Allowance of that type."""

    code: str
    name: str
    points: int
    max_tweak_points: int
    max_hero_points: int
    slots: int
    heavy_or_support: int
    support: int


@dataclass(frozen=True)
class Row:
    """One row of a point table: canonical value, points, and (Attack Value) weapon class."""

    value: str
    points: int
    weapon_class: str | None = None


@dataclass(frozen=True)
class Table:
    """A point table whose rows are ordered from cheapest to dearest, with per-type maxima."""

    name: str
    rows: tuple[Row, ...]
    max_by_type: dict[str, str]
    lines: str

    def allowed(self) -> str:
        """Human list of the values on the table."""
        return ", ".join(r.value for r in self.rows)

    def values(self) -> list[str]:
        """The canonical values, in table order."""
        return [r.value for r in self.rows]

    def row(self, value: str) -> Row:
        """The row of ``value``; raises :class:`InvalidValue` when it is not on the table."""
        for r in self.rows:
            if r.value == value:
                return r
        raise InvalidValue(value, f"{self.name}: {self.allowed()}")

    def index(self, value: str) -> int:
        """Position of ``value`` in the table (cheapest first)."""
        return self.values().index(self.row(value).value)

    def points(self, value: str) -> int:
        """Points of ``value``."""
        return self.row(value).points

    def max_for(self, type_code: str) -> str | None:
        """Highest value allowed for a figure type (``None`` when the table has no maximum)."""
        return self.max_by_type.get(type_code)

    def over_max(self, value: str, type_code: str) -> bool:
        """Whether ``value`` is above the maximum of ``type_code``."""
        top = self.max_for(type_code)
        return top is not None and self.index(value) > self.index(top)

    def allowed_for(self, type_code: str) -> str:
        """Human description of the values a type may take."""
        top = self.max_for(type_code)
        if top is None:
            return self.allowed()
        return ", ".join(r.value for r in self.rows[: self.index(top) + 1])


@dataclass(frozen=True)
class PersonalTweak:
    """A personal flaw or edge (lines 1353-1681)."""

    name: str
    cost: int
    line: int
    types: frozenset[str] | None
    requires: tuple[str, ...]
    forbids: tuple[str, ...]
    counts: bool
    one_per_force: bool


@dataclass(frozen=True)
class WeaponTweak:
    """A weapon flaw or edge (lines 1683-1853)."""

    name: str
    cost: int
    line: int
    close_combat_only: bool
    ranged_only: bool
    no_area_effect: bool
    area_effect_types: frozenset[str] | None
    not_with: tuple[str, ...]


@dataclass(frozen=True)
class UnitTweak:
    """A unit tweak (lines 1855-1893)."""

    name: str
    cost: int
    line: int


@dataclass(frozen=True)
class SpecialPower:
    """A Special Power built in a weapon slot (lines 999-1351)."""

    name: str
    cost: int
    line: int
    close_combat_only: bool
    monsters_only: bool
    no_range: bool


@dataclass(frozen=True)
class AreaEffectType:
    """A row of the Area Effect Types table (lines 813-818)."""

    code: str
    name: str
    close_combat: bool
    ranged: bool


@dataclass(frozen=True)
class Catalogue:
    """Everything the Troop and Force Builders price or limit."""

    figure_types: dict[str, FigureType]
    movement: Table
    defense: Table
    mental: Table
    control_radius: Table
    range: Table
    attack_value: Table
    area_effect: dict[str, Fraction]
    area_effect_types: dict[str, AreaEffectType]
    personal_tweaks: dict[str, PersonalTweak]
    weapon_tweaks: dict[str, WeaponTweak]
    unit_tweaks: dict[str, UnitTweak]
    special_powers: dict[str, SpecialPower]
    hero_point_cost: int
    hero_points_per_force_points: int


# ------------------------------------------------------------------------------------------
# Loading
# ------------------------------------------------------------------------------------------


def _read(name: str) -> Any:
    source = f"warengine/data/{name}"
    try:
        text = resources.files("warbench.rulesets.warengine").joinpath("data", name).read_text()
        return yaml.safe_load(text)
    except (OSError, yaml.YAMLError) as exc:  # pragma: no cover - packaged data
        raise DataFileError(source, str(exc)) from exc


def _table(name: str, raw: dict[str, Any], canon: Any, lines: str) -> Table:
    rows = tuple(
        Row(canon(r[0]), int(r[1]), str(r[2]) if len(r) > 2 else None) for r in raw["rows"]
    )
    maxima = {t: canon(v) for t, v in (raw.get("max") or {}).items()}
    return Table(name, rows, maxima, lines)


def _flat(raw: dict[str, Any]) -> dict[str, Any]:
    """Personal / weapon tweak files are split in ``flaws`` and ``edges``; merge them."""
    out: dict[str, Any] = {}
    for part in ("flaws", "edges"):
        out.update(raw.get(part) or {})
    return out


@lru_cache(maxsize=1)
def catalogue() -> Catalogue:
    """The packaged WarEngine 2.1 catalogue (cached)."""
    t = _read("tables.yaml")
    allowance = t["weapon_allowance"]
    types = {
        code: FigureType(
            code=code,
            name=str(v["name"]),
            points=int(v["points"]),
            max_tweak_points=int(v["max_tweak_points"]),
            max_hero_points=int(v["max_hero_points"]),
            slots=int(v["slots"]),
            heavy_or_support=int(allowance[code]["heavy_or_support"]),
            support=int(allowance[code]["support"]),
        )
        for code, v in t["figure_types"].items()
    }
    personal = {
        name: PersonalTweak(
            name=name,
            cost=int(v["cost"]),
            line=int(v["line"]),
            types=frozenset(v["types"]) if "types" in v else None,
            requires=tuple(v.get("requires", ())),
            forbids=tuple(v.get("forbids", ())),
            counts=bool(v.get("counts", True)),
            one_per_force=bool(v.get("one_per_force", False)),
        )
        for name, v in _flat(_read("personal_tweaks.yaml")).items()
    }
    weapon = {
        name: WeaponTweak(
            name=name,
            cost=int(v["cost"]),
            line=int(v["line"]),
            close_combat_only=bool(v.get("close_combat_only", False)),
            ranged_only=bool(v.get("ranged_only", False)),
            no_area_effect=bool(v.get("no_area_effect", False)),
            area_effect_types=(
                frozenset(v["area_effect_types"]) if "area_effect_types" in v else None
            ),
            not_with=tuple(v.get("not_with", ())),
        )
        for name, v in _flat(_read("weapon_tweaks.yaml")).items()
    }
    unit = {
        name: UnitTweak(name, int(v["cost"]), int(v["line"]))
        for name, v in _read("unit_tweaks.yaml").items()
    }
    powers = {
        name: SpecialPower(
            name=name,
            cost=int(v["cost"]),
            line=int(v["line"]),
            close_combat_only=bool(v.get("close_combat_only", False)),
            monsters_only=bool(v.get("monsters_only", False)),
            no_range=bool(v.get("no_range", False)),
        )
        for name, v in _read("special_powers.yaml").items()
    }
    return Catalogue(
        figure_types=types,
        movement=_table("Movement Table (Mv)", t["movement"], canon_inches, "662-672"),
        defense=_table("Defense Table (Df)", t["defense"], canon_dice, "680-691"),
        mental=_table("Mental Table (Mn)", t["mental"], canon_dice, "693-703"),
        control_radius=_table("Control Radius (CR)", t["control_radius"], canon_inches, "718-727"),
        range=_table("Range Table (R)", t["range"], canon_range, "766-777"),
        attack_value=_table("Attack Value Table (AV)", t["attack_value"], canon_dice, "783-794"),
        area_effect={str(code): Fraction(str(mult)) for code, mult in t["area_effect"]["rows"]},
        area_effect_types={
            code: AreaEffectType(code, str(v["name"]), bool(v["close_combat"]), bool(v["ranged"]))
            for code, v in t["area_effect_types"].items()
        },
        personal_tweaks=personal,
        weapon_tweaks=weapon,
        unit_tweaks=unit,
        special_powers=powers,
        hero_point_cost=int(t["hero_point_cost"]),
        hero_points_per_force_points=int(t["hero_points_per_force_points"]),
    )
