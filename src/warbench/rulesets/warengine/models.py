"""Validated WarEngine 2.1 objects: weapons, figures, units and forces (pydantic v2).

Parsing only checks that each value exists (on its table, or as a known tweak / power / figure
name) and puts it in its canonical spelling; the limits of the Troop and Force Builders are
checked by :mod:`warbench.rulesets.warengine.validation`, which lists every violation at once.

Field names follow the profile card of the Figure Builder Example
(004_f4ea5693af0644ce.txt lines 955-963): T, Mv, Df, Mn, CR, HP, R, AV, AE, AET.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema, model_validator

from warbench.rulesets.warengine.tables import (
    FIGURE_TYPES,
    InvalidValue,
    Table,
    canon_dice,
    canon_inches,
    canon_range,
    catalogue,
)


class UnknownName(ValueError):
    """A tweak, power, or figure name that is not known (turned into UnknownNameError)."""

    def __init__(self, kind: str, name: str, known: list[str]) -> None:
        self.kind = kind
        self.name = name
        self.known = known
        super().__init__(f"unknown {kind} {name!r}")


def _key(name: str) -> str:
    return " ".join(name.replace("_", " ").replace("-", " ").split()).lower()


def resolve_name(kind: str, name: object, known: list[str]) -> str:
    """Match ``name`` to a known name, ignoring case, spacing, ``-`` and ``_``."""
    text = str(name)
    for k in known:
        if _key(k) == _key(text):
            return k
    raise UnknownName(kind, text, known)


def _on_table(table: Table, canon: Any) -> Any:
    def check(value: object) -> str:
        text: str = canon(value)
        table.row(text)  # raises InvalidValue listing the table
        return text

    return check


def _schema(table: Table, description: str) -> WithJsonSchema:
    return WithJsonSchema({"type": "string", "enum": table.values(), "description": description})


def _type_code(value: object) -> str:
    text = str(value).strip().upper()
    if text not in FIGURE_TYPES:
        raise InvalidValue(value, "Figure Type Table (T): " + ", ".join(FIGURE_TYPES))
    return text


def _area_effect(value: object) -> str | None:
    if value is None or (isinstance(value, str) and value.strip() in ("", "-")):
        return None
    text = str(value).strip().lower().replace("×", "x")
    if text in ("2", "3", "4"):
        text += "x"
    if text not in catalogue().area_effect:
        raise InvalidValue(value, "Area Effect Table (AE): -, 2x, 3x, 4x")
    return text


def _area_effect_type(value: object) -> str | None:
    if value is None or (isinstance(value, str) and value.strip() in ("", "-")):
        return None
    known = list(catalogue().area_effect_types)
    for code in known:
        if code.lower() == str(value).strip().lower():
            return code
    raise InvalidValue(value, "Area Effect Types (AET): " + ", ".join(known))


def _names(kind: str, known: Any) -> Any:
    def check(values: object) -> list[str]:
        if values is None:
            return []
        if isinstance(values, str):
            values = [values]
        if not isinstance(values, list):
            raise InvalidValue(values, f"a list of {kind} names")
        return [resolve_name(kind, v, list(known())) for v in values]

    return check


def _power(value: object) -> str | None:
    if value is None:
        return None
    return resolve_name("special power", value, list(catalogue().special_powers))


_cat = catalogue()
#: Faction keywords of a force, unit or figure (004 L1003), read only by the faction-specific
#: Special Powers; a figure's faction is the force's, the unit's and its own together.
Faction = Annotated[
    str | None,
    Field(
        description="Faction keywords (e.g. 'Mutant', 'DeadTech', 'MegaCom', 'Brethren', "
        "'Vengequan'; a unit may add 'White Hat' or 'Black Hat'), read only by the "
        "faction-specific Special Powers (004 L1003); a figure's faction is the force's, "
        "the unit's and its own together",
        max_length=80,
    ),
]

TypeCode = Annotated[
    str,
    BeforeValidator(_type_code),
    WithJsonSchema({"type": "string", "enum": list(FIGURE_TYPES), "description": "Figure type"}),
]
Movement = Annotated[
    str, BeforeValidator(_on_table(_cat.movement, canon_inches)), _schema(_cat.movement, "Mv")
]
Defense = Annotated[
    str, BeforeValidator(_on_table(_cat.defense, canon_dice)), _schema(_cat.defense, "Df")
]
Mental = Annotated[
    str, BeforeValidator(_on_table(_cat.mental, canon_dice)), _schema(_cat.mental, "Mn")
]
ControlRadius = Annotated[
    str,
    BeforeValidator(_on_table(_cat.control_radius, canon_inches)),
    _schema(_cat.control_radius, "CR"),
]
Range = Annotated[
    str, BeforeValidator(_on_table(_cat.range, canon_range)), _schema(_cat.range, "R")
]
AttackValue = Annotated[
    str,
    BeforeValidator(_on_table(_cat.attack_value, canon_dice)),
    _schema(_cat.attack_value, "AV"),
]
AreaEffect = Annotated[
    str | None,
    BeforeValidator(_area_effect),
    WithJsonSchema({"enum": [*_cat.area_effect, None], "description": "AE"}),
]
AreaEffectTypeCode = Annotated[
    str | None,
    BeforeValidator(_area_effect_type),
    WithJsonSchema({"enum": [*_cat.area_effect_types, None], "description": "AET"}),
]
PersonalTweaks = Annotated[
    list[str],
    BeforeValidator(_names("personal tweak", lambda: catalogue().personal_tweaks)),
    WithJsonSchema({"type": "array", "items": {"enum": list(_cat.personal_tweaks)}}),
]
WeaponTweaks = Annotated[
    list[str],
    BeforeValidator(_names("weapon tweak", lambda: catalogue().weapon_tweaks)),
    WithJsonSchema({"type": "array", "items": {"enum": list(_cat.weapon_tweaks)}}),
]
UnitTweaks = Annotated[
    list[str],
    BeforeValidator(_names("unit tweak", lambda: catalogue().unit_tweaks)),
    WithJsonSchema({"type": "array", "items": {"enum": list(_cat.unit_tweaks)}}),
]
PowerName = Annotated[
    str | None,
    BeforeValidator(_power),
    WithJsonSchema({"enum": [*_cat.special_powers, None], "description": "Special Power"}),
]


class Weapon(BaseModel):
    """A weapon slot: a weapon, a Special Power, or a Multiprofile weapon with ``profiles``.

    004_f4ea5693af0644ce.txt Arming Them (lines 745-846): Range, Attack Value, Area Effect and
    its type, weapon tweaks; a Special Power is built like a weapon plus the power's cost.
    """

    model_config = ConfigDict(extra="forbid")

    name: str
    range: Range = "-"
    av: AttackValue | None = None
    ae: AreaEffect = None
    aet: AreaEffectTypeCode = None
    power: PowerName = None
    tweaks: WeaponTweaks = Field(default_factory=list)
    profiles: list[Weapon] = Field(default_factory=list)

    @property
    def ranged(self) -> bool:
        """A weapon with a Range (a Multiprofile weapon if any profile has one)."""
        if self.profiles:
            return any(p.ranged for p in self.profiles)
        return self.range != "-"


class Figure(BaseModel):
    """A figure built with the Troop Builder V2.1 (lines 635-846).

    ``forms`` holds the other forms of a Shapechanger (line 1615); hero points belong to the
    combined figure and are declared on the first form only.
    """

    model_config = ConfigDict(extra="forbid")

    name: str
    type: TypeCode
    mv: Movement = '0"'
    df: Defense = "1k1"
    mn: Mental = "2k2"
    cr: ControlRadius = '0"'
    hero_points: int = Field(0, ge=0)
    tweaks: PersonalTweaks = Field(default_factory=list)
    weapons: list[Weapon] = Field(default_factory=list)
    forms: list[Figure] = Field(default_factory=list)
    faction: Faction = None

    def all_forms(self) -> list[Figure]:
        """This form followed by the other Shapechanger forms."""
        return [self, *self.forms]


class UnitMember(BaseModel):
    """``count`` copies of the figure named ``figure`` (a key of :attr:`Force.figures`)."""

    model_config = ConfigDict(extra="forbid")

    figure: str
    count: int = Field(1, ge=1)


class Unit(BaseModel):
    """A unit of the force with its unit tweaks (Force Builder V2.1, lines 975-997)."""

    model_config = ConfigDict(extra="forbid")

    name: str
    members: list[UnitMember] = Field(min_length=1)
    tweaks: UnitTweaks = Field(default_factory=list)
    faction: Faction = None


class Force(BaseModel):
    """A force: the agreed Points of Renown and Points of Force, figures, units (lines 965-990)."""

    model_config = ConfigDict(extra="forbid")

    name: str
    renown: int = Field(ge=0)
    force: int = Field(ge=0)
    figures: dict[str, Figure]
    units: list[Unit]
    faction: Faction = None

    @model_validator(mode="after")
    def _members_known(self) -> Force:
        for unit in self.units:
            for m in unit.members:
                if m.figure not in self.figures:
                    raise UnknownName("figure", m.figure, list(self.figures))
        return self
